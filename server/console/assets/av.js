// Items as DynamoDB JSON ({"a": {"S": "x"}}) or as plain JSON ({"a": "x"}).
//
// The plain form maps S to a string, N to a number (its digits kept
// exactly: the page parses and prints numbers as text, never through a
// float), BOOL to true/false, NULL to null, L to an array and M to an
// object. B, SS, NS and BS have no plain form: they stay one-key DynamoDB
// objects, {"B": "<base64>"}, {"SS": ["a"]}, {"NS": ["1"]}, {"BS": ["..."]};
// reading plain JSON, an object whose only key is B, SS, NS or BS, with a
// string (B) or an array of strings (sets), is that type. To write a map
// that looks like one of those, use the DynamoDB JSON view.

// Num is a number literal kept as its text.
export class Num {
  constructor(text) {
    this.text = text;
  }
}

const strRE = /"(?:[^"\\\u0000-\u001f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"/y;
const numRE = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

// parseJSON parses JSON text, numbers as Num. It throws SyntaxError with
// the offset of the problem.
export function parseJSON(text) {
  let i = 0;
  const err = (what) => {
    throw new SyntaxError(`${what} at offset ${i}`);
  };
  const ws = () => {
    while (i < text.length && " \t\r\n".includes(text[i])) i++;
  };
  const value = () => {
    ws();
    const c = text[i];
    if (c === "{") return object();
    if (c === "[") return array();
    if (c === '"') return string();
    if (c === "-" || (c >= "0" && c <= "9")) return number();
    for (const [w, v] of [["true", true], ["false", false], ["null", null]]) {
      if (text.startsWith(w, i)) {
        i += w.length;
        return v;
      }
    }
    err(c === undefined ? "unexpected end of input" : `unexpected ${JSON.stringify(c)}`);
  };
  const object = () => {
    const o = {};
    i++;
    ws();
    if (text[i] === "}") {
      i++;
      return o;
    }
    for (;;) {
      ws();
      if (text[i] !== '"') err("expected a string key");
      const k = string();
      ws();
      if (text[i] !== ":") err("expected ':'");
      i++;
      o[k] = value();
      ws();
      if (text[i] === ",") {
        i++;
        continue;
      }
      if (text[i] === "}") {
        i++;
        return o;
      }
      err("expected ',' or '}'");
    }
  };
  const array = () => {
    const a = [];
    i++;
    ws();
    if (text[i] === "]") {
      i++;
      return a;
    }
    for (;;) {
      a.push(value());
      ws();
      if (text[i] === ",") {
        i++;
        continue;
      }
      if (text[i] === "]") {
        i++;
        return a;
      }
      err("expected ',' or ']'");
    }
  };
  const string = () => {
    strRE.lastIndex = i;
    const m = strRE.exec(text);
    if (!m) err("bad string");
    i += m[0].length;
    return JSON.parse(m[0]);
  };
  const number = () => {
    numRE.lastIndex = i;
    const m = numRE.exec(text);
    if (!m) err("bad number");
    i += m[0].length;
    return new Num(m[0]);
  };
  const v = value();
  ws();
  if (i < text.length) err("unexpected text after the value");
  return v;
}

// stringify prints a value of parseJSON's kind (Num for numbers), indented.
export function stringify(v, indent = "") {
  const next = indent + "  ";
  if (v instanceof Num) return v.text;
  if (v === null || typeof v !== "object") return JSON.stringify(v);
  if (Array.isArray(v)) {
    if (v.length === 0) return "[]";
    return "[\n" + v.map((x) => next + stringify(x, next)).join(",\n") + "\n" + indent + "]";
  }
  const keys = Object.keys(v);
  if (keys.length === 0) return "{}";
  return "{\n" + keys.map((k) => next + JSON.stringify(k) + ": " + stringify(v[k], next)).join(",\n") + "\n" + indent + "}";
}

// stringifyItem prints an item in DynamoDB JSON, one attribute a line.
export function stringifyItem(item) {
  const keys = Object.keys(item);
  if (keys.length === 0) return "{}";
  return "{\n" + keys.map((k) => `  ${JSON.stringify(k)}: ${JSON.stringify(item[k])}`).join(",\n") + "\n}";
}

const setTypes = ["SS", "NS", "BS"];

// toPlain turns one attribute value (DynamoDB JSON) into the plain form.
export function toPlain(av) {
  const [t] = Object.keys(av);
  const v = av[t];
  switch (t) {
    case "S":
      return v;
    case "N":
      return new Num(v);
    case "BOOL":
      return v;
    case "NULL":
      return null;
    case "L":
      return v.map(toPlain);
    case "M":
      return itemToPlain(v);
    default:
      return { [t]: v }; // B and the sets
  }
}

export function itemToPlain(item) {
  const o = {};
  for (const [k, av] of Object.entries(item)) o[k] = toPlain(av);
  return o;
}

function isTyped(v) {
  const keys = Object.keys(v);
  if (keys.length !== 1) return false;
  const [t] = keys;
  if (t === "B") return typeof v.B === "string";
  return setTypes.includes(t) && Array.isArray(v[t]) && v[t].every((x) => typeof x === "string" || x instanceof Num);
}

// fromPlain turns a plain value (from parseJSON) into an attribute value.
export function fromPlain(v) {
  if (v === null) return { NULL: true };
  if (v instanceof Num) return { N: v.text };
  if (typeof v === "string") return { S: v };
  if (typeof v === "boolean") return { BOOL: v };
  if (Array.isArray(v)) return { L: v.map(fromPlain) };
  if (isTyped(v)) {
    const [t] = Object.keys(v);
    return t === "B" ? { B: v.B } : { [t]: v[t].map((x) => (x instanceof Num ? x.text : x)) };
  }
  return { M: itemFromPlain(v) };
}

export function itemFromPlain(o) {
  if (o === null || typeof o !== "object" || Array.isArray(o) || o instanceof Num) {
    throw new SyntaxError("an item must be a JSON object");
  }
  const item = {};
  for (const [k, v] of Object.entries(o)) item[k] = fromPlain(v);
  return item;
}

// unNum turns Num values back into the strings DynamoDB JSON holds them as,
// for a document parsed with parseJSON that is DynamoDB JSON already.
export function unNum(v) {
  if (v instanceof Num) return v.text;
  if (Array.isArray(v)) return v.map(unNum);
  if (v && typeof v === "object") {
    const o = {};
    for (const [k, x] of Object.entries(v)) o[k] = unNum(x);
    return o;
  }
  return v;
}

// short renders an attribute value in a few characters, for tables.
export function short(av) {
  if (!av) return "";
  const [t] = Object.keys(av);
  const v = av[t];
  switch (t) {
    case "S":
      return v.length > 200 ? v.slice(0, 199) + "…" : v;
    case "N":
    case "BOOL":
      return String(v);
    case "NULL":
      return "null";
    case "B":
      return `<${t} ${v.length > 16 ? v.slice(0, 16) + "…" : v}>`;
    default: {
      const s = JSON.stringify(unNum(toPlain(av)));
      return s.length > 60 ? s.slice(0, 59) + "…" : s;
    }
  }
}
