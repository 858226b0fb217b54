// Small helpers to build the page's elements without any framework.

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

// authErrors are the answers to a request without valid credentials.
const authErrors = new Set(["MissingAuthenticationTokenException", "UnrecognizedClientException", "InvalidSignatureException", "IncompleteSignatureException"]);

// errorBox shows a failed call: DynamoDB's __type and message, verbatim.
export function errorBox(err) {
  if (err && err.type) {
    const box = h("div", { class: "error", role: "alert" }, h("b", { class: "error-type" }, err.type), ": ", h("span", { class: "error-message" }, err.message));
    if (authErrors.has(err.type)) {
      return h("div", {}, box, h("p", { class: "hint" }, "This server checks signatures: ", h("a", { href: "#credentials", class: "credentials-hint" }, "give the console credentials"), "."));
    }
    return box;
  }
  return h("div", { class: "error", role: "alert" }, String(err && err.message ? err.message : err));
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
