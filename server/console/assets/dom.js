// Small helpers to build the page's elements without any framework.

import { serverInfo, authErrors } from "./api.js";

// h builds an element: h("div", {class: "x", onclick: f}, "text", child).
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "value") el.value = v;
    else if (k === "checked") el.checked = !!v;
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

// fill replaces an element's children.
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

// errorBox shows a failed call: DynamoDB's __type and message, verbatim.
export function errorBox(err) {
  if (err && err.type) {
    const box = h("div", { class: "error", role: "alert" }, h("b", { class: "error-type" }, err.type), ": ", h("span", { class: "error-message" }, err.message));
    if (authErrors.has(err.type)) {
      return h("div", {}, box, authHint());
    }
    return box;
  }
  return h("div", { class: "error", role: "alert" }, String(err && err.message ? err.message : err));
}

// authHint says why a call was refused for want of credentials, and what
// to do, as true of this server: one that checks signatures needs keys it
// knows; one with a database per access key and region that checks none
// (DynamoDB Local without -sharedDb) needs any key and region, which pick
// the database.
function authHint() {
  const link = (text) => h("a", { href: "#credentials", class: "credentials-hint" }, text);
  const s = serverInfo();
  if (!s.signatures && s.namespaces === "account-region") {
    return h("p", { class: "hint" }, "This server does not check signatures, but keeps a database per access key and region: ",
      link("give the console an access key and region"), " (any values) to choose the database it shows.");
  }
  return h("p", { class: "hint" }, "This server checks signatures: ", link("give the console credentials"), ".");
}

// modeText says, in a sentence, how the server treats credentials and
// whose tables the page shows; "" while that is not known.
export function modeText(creds) {
  const s = serverInfo();
  const sig = s.signatures ? "This server checks every request's signature: the keys must be ones it knows." : "This server does not check signatures.";
  if (s.namespaces === "account-region") {
    const whose = creds ? ` The console shows the tables of access key ${creds.accessKeyId} in ${creds.region}.` : " The console shows no database until it is given an access key and region.";
    return `${sig} It keeps a database per access key and region, as DynamoDB Local does without -sharedDb${s.signatures ? "" : ": the access key id and region choose the database, and the secret may be anything"}.${whose}`;
  }
  if (s.namespaces === "shared") {
    return `${sig} Every access key and region sees the same tables${s.signatures ? "" : ": the console needs no credentials"}.`;
  }
  return s.signatures ? sig : "";
}

// field is a labelled form control.
export function field(label, control, hint) {
  return h("label", { class: "field" }, h("span", {}, label), control, hint ? h("small", {}, hint) : null);
}

export function select(options, value, attrs = {}) {
  return h("select", attrs, options.map((o) => {
    const [v, text] = Array.isArray(o) ? o : [o, o];
    return h("option", { value: v, selected: v === value }, text);
  }));
}

// bytes renders a size in bytes for people.
export function bytes(n) {
  if (n === undefined || n === null) return "";
  if (n < 1024) return `${n} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let v = n;
  let u = -1;
  do {
    v /= 1024;
    u++;
  } while (v >= 1024 && u < units.length - 1);
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[u]}`;
}

// units renders capacity units.
export function units(n) {
  return (Math.round((n || 0) * 100) / 100).toString();
}
