// Every request the page makes to the DynamoDB API goes through send(),
// which signs it (SigV4, with WebCrypto) when credentials are set.

import { sign, canSign } from "./sigv4.js";

const DDB = "DynamoDB_20120810.";
const CONTENT_TYPE = "application/x-amz-json-1.0";
const CREDENTIALS = "dynago.console.credentials";

// credentials returns the credentials the page signs with, or null. They
// live in this tab's session storage only, never in the page's files.
export function credentials() {
  try {
    return JSON.parse(sessionStorage.getItem(CREDENTIALS) || "null");
  } catch {
    return null;
  }
}

// setCredentials makes the page sign every call with creds
// ({accessKeyId, secretAccessKey, sessionToken, region}); null forgets them.
export function setCredentials(creds) {
  if (creds && !canSign()) {
    throw new Error("This page cannot sign requests: WebCrypto needs https or a loopback address.");
  }
  if (creds) sessionStorage.setItem(CREDENTIALS, JSON.stringify(creds));
  else sessionStorage.removeItem(CREDENTIALS);
}
const STREAMS = "DynamoDBStreams_20120810.";

// ApiError is a failed call, with DynamoDB's __type (its last part after
// '#') and message, exactly as the server sent them.
export class ApiError extends Error {
  constructor(type, message, status) {
    super(message);
    this.type = type;
    this.status = status;
  }
  toString() {
    return `${this.type}: ${this.message}`;
  }
}

// listeners are told of every call's ConsumedCapacity.
const listeners = [];

export function onCapacity(fn) {
  listeners.push(fn);
}

function report(op, cc) {
  if (!cc) return;
  for (const c of Array.isArray(cc) ? cc : [cc]) {
    for (const fn of listeners) fn(op, c);
  }
}

// send posts one operation to the server's API on this origin.
async function send(target, body) {
  const payload = JSON.stringify(body);
  let headers = { "Content-Type": CONTENT_TYPE, "X-Amz-Target": target };
  const creds = credentials();
  if (creds) {
    const signed = await sign(creds, "/", { "content-type": CONTENT_TYPE, host: location.host, "x-amz-target": target }, payload);
    headers = { ...headers, ...signed };
  }
  const resp = await fetch("/", {
    method: "POST",
    headers,
    body: payload,
    credentials: "same-origin",
    cache: "no-store",
  });
  const text = await resp.text();
  let data;
  try {
    data = text ? JSON.parse(text) : {};
  } catch (e) {
    throw new ApiError("InvalidResponse", `HTTP ${resp.status}: ${text.slice(0, 200)}`, resp.status);
  }
  if (!resp.ok) {
    const type = String(data.__type || `HTTP ${resp.status}`).split("#").pop();
    throw new ApiError(type, data.message || data.Message || "", resp.status);
  }
  return data;
}

// billed are the operations that take ReturnConsumedCapacity; the page
// asks for it (per index) whenever the caller did not, so the capacity
// chart sees every unit the console spends.
const billed = new Set(["GetItem", "PutItem", "UpdateItem", "DeleteItem", "Query", "Scan", "BatchGetItem", "BatchWriteItem",
  "TransactGetItems", "TransactWriteItems", "ExecuteStatement", "BatchExecuteStatement", "ExecuteTransaction"]);

// ddb calls a DynamoDB operation, e.g. ddb("ListTables", {}).
export async function ddb(op, body = {}) {
  if (billed.has(op) && !body.ReturnConsumedCapacity) body = { ...body, ReturnConsumedCapacity: "INDEXES" };
  const out = await send(DDB + op, body);
  report(op, out.ConsumedCapacity);
  return out;
}

// streams calls a DynamoDB Streams operation.
export function streams(op, body = {}) {
  return send(STREAMS + op, body);
}

// consoleApi calls one of the console's own endpoints under /console/api/,
// all of them POSTs of JSON, signed like the API's calls.
export async function consoleApi(name, body = {}) {
  const path = `/console/api/${name}`;
  const payload = JSON.stringify(body);
  let headers = { "Content-Type": "application/json" };
  const creds = credentials();
  if (creds) {
    headers = { ...headers, ...(await sign(creds, path, { "content-type": "application/json", host: location.host }, payload)) };
  }
  const resp = await fetch(path, { method: "POST", headers, body: payload, cache: "no-store" });
  const data = await resp.json().catch(() => ({}));
  if (!resp.ok) {
    const type = String(data.__type || `HTTP ${resp.status}`).split("#").pop();
    throw new ApiError(type, data.message || data.Message || "", resp.status);
  }
  return data;
}

// serverInfo is what the page knows of the server it talks to, from
// /console/api/info: whether it checks signatures (signatures), and
// whether it keeps one database for every client ("shared") or one per
// access key and region ("account-region"), as DynamoDB Local does
// without -sharedDb. A server that refuses the unsigned info call checks
// signatures; what else it does is unknown (namespaces null) until the
// page signs.
let info = { signatures: false, namespaces: null, endpoints: {} };

export function serverInfo() {
  return info;
}

// loadServerInfo asks the server again (at start, and whenever the
// credentials change).
export async function loadServerInfo() {
  try {
    const got = await consoleApi("info");
    info = { signatures: !!got.signatures, namespaces: got.namespaces || "shared", endpoints: got };
  } catch (e) {
    info = { signatures: authErrors.has(e.type), namespaces: null, endpoints: {} };
  }
  return info;
}

// authErrors are the answers to a request without valid credentials.
export const authErrors = new Set(["MissingAuthenticationTokenException", "UnrecognizedClientException", "InvalidSignatureException", "IncompleteSignatureException"]);
