// The Credentials screen: the keys the page signs its calls with. A server
// that checks signatures needs them; one that does not ignores the
// signature.

import { credentials, setCredentials, ddb, serverInfo, loadServerInfo } from "./api.js";
import { h, fill, errorBox, field, modeText } from "./dom.js";

// showState writes who the page signs as into the header, and, on a
// server with a database per access key and region, whose tables it
// shows.
export function showState() {
  const c = credentials();
  const el = document.getElementById("auth-state");
  if (el) el.textContent = c ? `signing as ${c.accessKeyId}` : "not signing";
  const ns = document.getElementById("namespace-state");
  if (!ns) return;
  switch (serverInfo().namespaces) {
    case "account-region":
      ns.textContent = c ? `tables of ${c.accessKeyId} in ${c.region}` : "a database per access key and region: none chosen";
      break;
    case "shared":
      ns.textContent = "one database for every access key and region";
      break;
    default:
      ns.textContent = "";
  }
}

// changed reads the server's answer to /console/api/info again (the
// credentials may open it) and redraws what depends on it.
async function changed(mode) {
  await loadServerInfo();
  showState();
  if (mode) mode.textContent = modeText(credentials());
}

export function credentialsView(root) {
  const c = credentials() || {};
  const id = h("input", { id: "cred-id", value: c.accessKeyId || "", autocomplete: "username" });
  const secret = h("input", { id: "cred-secret", type: "password", value: c.secretAccessKey || "", autocomplete: "current-password" });
  const token = h("input", { id: "cred-token", value: c.sessionToken || "" });
  const region = h("input", { id: "cred-region", value: c.region || "us-east-1" });
  const out = h("div", { id: "cred-result" });
  const mode = h("p", { id: "server-mode" }, modeText(credentials()));
  const form = h("form", { class: "card", id: "cred-form" },
    mode,
    h("p", {}, "The page signs every call with these (AWS Signature Version 4), as an SDK would. They are kept in this tab's session storage only, and forgotten when it closes."),
    h("div", { class: "row" }, field("Access key id", id), field("Secret access key", secret)),
    h("div", { class: "row" }, field("Session token", token, "optional"), field("Region", region)),
    h("div", { class: "row" },
      h("button", { type: "submit", class: "primary", id: "cred-use" }, "Sign with these"),
      h("button", { type: "button", id: "cred-forget", onclick: async () => { setCredentials(null); await changed(null); credentialsView(root); } }, "Forget")),
    out);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      setCredentials({ accessKeyId: id.value.trim(), secretAccessKey: secret.value, sessionToken: token.value.trim() || undefined, region: region.value.trim() });
      await changed(mode);
      await ddb("ListTables", { Limit: 1 });
      fill(out, h("div", { class: "ok" }, "Signed calls are accepted."));
    } catch (e) {
      fill(out, errorBox(e));
    }
  });
  fill(root, h("h2", {}, "Credentials"), form);
}
