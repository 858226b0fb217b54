// AWS Signature Version 4 for the page's DynamoDB calls, with WebCrypto.
// WebCrypto exists only in secure contexts: https, or http on localhost
// and loopback addresses.

const enc = new TextEncoder();

function hex(bytes) {
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function sha256(text) {
  return hex(new Uint8Array(await crypto.subtle.digest("SHA-256", enc.encode(text))));
}

async function hmac(key, text) {
  const k = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", k, enc.encode(text)));
}

// canonicalPath encodes each segment of path as SigV4 wants it for
// services other than S3: URI-encoded, and that encoded again.
function canonicalPath(path) {
  const once = (seg) => encodeURIComponent(seg).replace(/[!'()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase());
  return path.split("/").map((seg) => once(once(decodeURIComponent(seg)))).join("/");
}

// canSign reports whether this page may sign (WebCrypto is available).
export function canSign() {
  return !!(globalThis.crypto && crypto.subtle);
}

// sign returns the headers that sign a POST of body to path (no query)
// with these headers (names in lower case) for the "dynamodb" service:
// X-Amz-Date, X-Amz-Security-Token when there is a session token, and
// Authorization.
export async function sign(creds, path, headers, body, now = new Date()) {
  const amzDate = now.toISOString().replace(/[-:]/g, "").replace(/\.\d+/, "");
  const day = amzDate.slice(0, 8);
  const all = { ...headers, "x-amz-date": amzDate };
  if (creds.sessionToken) all["x-amz-security-token"] = creds.sessionToken;
  const names = Object.keys(all).sort();
  const signed = names.join(";");
  const canonical = ["POST", canonicalPath(path), "", ...names.map((n) => `${n}:${String(all[n]).trim().replace(/\s+/g, " ")}`), "", signed, await sha256(body)].join("\n");
  const scope = `${day}/${creds.region}/dynamodb/aws4_request`;
  const toSign = ["AWS4-HMAC-SHA256", amzDate, scope, await sha256(canonical)].join("\n");
  let key = await hmac(enc.encode("AWS4" + creds.secretAccessKey), day);
  for (const part of [creds.region, "dynamodb", "aws4_request"]) key = await hmac(key, part);
  const out = {
    "X-Amz-Date": amzDate,
    Authorization: `AWS4-HMAC-SHA256 Credential=${creds.accessKeyId}/${scope}, SignedHeaders=${signed}, Signature=${hex(await hmac(key, toSign))}`,
  };
  if (creds.sessionToken) out["X-Amz-Security-Token"] = creds.sessionToken;
  return out;
}
