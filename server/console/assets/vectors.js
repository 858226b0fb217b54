// Vector indexes: the list on a table's page, and an index's own view
// with its definition, size and a search box (SearchVectors).

import { ddb } from "./api.js";
import { h, fill, errorBox, field, bytes } from "./dom.js";
import * as av from "./av.js";

// scoreLabel names a distance function's score: a distance (lower is
// nearer) for COSINE and EUCLIDEAN, a similarity (higher is nearer) for
// DOT_PRODUCT.
export function scoreLabel(fn) {
  return fn === "DOT_PRODUCT" ? "similarity" : "distance";
}

function schemaText(ix) {
  return (ix.SearchSchema || []).map((e) => `${e.AttributeName} (${e.SearchSchemaElementType})`).join(", ");
}

function projectionText(p) {
  return (p?.ProjectionType || "") + (p?.NonKeyAttributes ? ` (${p.NonKeyAttributes.join(", ")})` : "");
}

function vectorHref(table, index) {
  return `#vector/${encodeURIComponent(table)}/${encodeURIComponent(index)}`;
}

// vectorIndexTable lists a table's vector indexes, each linking to its view.
export function vectorIndexTable(t) {
  const ixs = t.VectorIndexes || [];
  if (ixs.length === 0) return null;
  return [h("h3", {}, "Vector indexes"), h("table", { class: "grid", id: "vector-indexes" },
    h("thead", {}, h("tr", {}, ["Index", "Vector attribute", "Dimensions", "Distance", "Search schema", "Projection", "Status", "Items", "Size"].map((c) => h("th", {}, c)))),
    h("tbody", {}, ixs.map((ix) => h("tr", { "data-index": ix.IndexName },
      h("td", {}, h("a", { href: vectorHref(t.TableName, ix.IndexName), class: "vector-index" }, ix.IndexName)),
      h("td", {}, ix.VectorAttribute?.AttributeName || ""),
      h("td", { class: "num" }, String(ix.Dimensions ?? "")),
      h("td", {}, ix.DistanceFunction || ""),
      h("td", {}, schemaText(ix)),
      h("td", {}, projectionText(ix.Projection)),
      h("td", {}, (ix.IndexStatus || "") + (ix.Backfilling ? " (backfilling)" : "")),
      h("td", { class: "num" }, String(ix.ItemCount ?? "")),
      h("td", { class: "num" }, bytes(ix.IndexSizeBytes))))))];
}

// searchRequest builds SearchVectors' input from the form's values. It
// throws (SyntaxError) when the vector is not JSON or not an array; its
// elements go as they are (numbers as N with their digits), so that
// DynamoDB judges them. form holds the HASH value (hash), the
// INLINE_FILTER values by attribute name (filters: an empty value is no
// condition) and the attributes to return (projection: names separated
// by commas, empty for the index's projection).
export function searchRequest(table, ix, types, vectorText, topK, form = {}) {
  const v = av.parseJSON(vectorText);
  if (!Array.isArray(v)) throw new SyntaxError("the query vector must be a JSON array of numbers, e.g. [0.1, 0.2, 0.3]");
  const req = { TableName: table, IndexName: ix.IndexName, SearchVector: v.map(av.fromPlain) };
  if (String(topK).trim() !== "") req.TopK = Number(topK);
  const names = {}, values = {}, conds = [];
  (ix.SearchSchema || []).forEach((e, i) => {
    const isHash = e.SearchSchemaElementType === "HASH";
    const typed = isHash ? (form.hash ?? "") : (form.filters?.[e.AttributeName] ?? "").trim();
    if (!isHash && typed === "") return;
    const n = isHash ? "#h" : `#f${i}`, val = isHash ? ":h" : `:f${i}`;
    names[n] = e.AttributeName;
    values[val] = { [types[e.AttributeName] || "S"]: typed };
    conds.push(`${n} = ${val}`);
  });
  const proj = String(form.projection || "").split(",").map((x) => x.trim()).filter((x) => x !== "");
  if (proj.length > 0) {
    req.ProjectionExpression = proj.map((a, i) => {
      names[`#p${i}`] = a;
      return `#p${i}`;
    }).join(", ");
  }
  if (conds.length > 0) {
    req.SearchConditionExpression = conds.join(" AND ");
    req.ExpressionAttributeValues = values;
  }
  if (Object.keys(names).length > 0) req.ExpressionAttributeNames = names;
  return req;
}

// vectorView shows one vector index: its definition and size, and a
// search box whose results are shown best first with their scores.
export async function vectorView(root, table, index) {
  const t = (await ddb("DescribeTable", { TableName: table })).Table;
  const ix = (t.VectorIndexes || []).find((x) => x.IndexName === index);
  const title = h("h2", {}, "Vector index ", h("span", { class: "mono" }, index), " of ",
    h("a", { href: `#table/${encodeURIComponent(table)}`, class: "mono" }, table));
  if (!ix) {
    fill(root, title, h("p", { class: "error", role: "alert" }, `The table has no vector index ${index}.`));
    return;
  }
  const types = Object.fromEntries((t.AttributeDefinitions || []).map((d) => [d.AttributeName, d.AttributeType]));
  const keyNames = (t.KeySchema || []).map((k) => k.AttributeName);
  const hash = (ix.SearchSchema || []).find((e) => e.SearchSchemaElementType === "HASH");
  const label = scoreLabel(ix.DistanceFunction);
  const rows = [
    ["Vector attribute", ix.VectorAttribute?.AttributeName || ""],
    ["Dimensions", String(ix.Dimensions)],
    ["Distance function", `${ix.DistanceFunction} (score: ${label}, ${label === "distance" ? "lower" : "higher"} is nearer)`],
    ["Search schema", schemaText(ix) || "none"],
    ["Projection", projectionText(ix.Projection)],
    ["Status", (ix.IndexStatus || "") + (ix.Backfilling ? " (backfilling)" : "")],
    ["Items", String(ix.ItemCount ?? "")],
    ["Size", `${bytes(ix.IndexSizeBytes)} (${ix.IndexSizeBytes ?? 0} bytes)`],
    ["ARN", ix.IndexArn || ""],
  ];
  const vector = h("textarea", { id: "vs-vector", rows: 3, spellcheck: "false", placeholder: "[0.1, 0.2, 0.3]" });
  const topK = h("input", { id: "vs-topk", type: "number", min: 1, value: "10" });
  const hashInput = hash
    ? h("input", { id: "vs-hash", type: types[hash.AttributeName] === "N" ? "number" : "text", "data-type": types[hash.AttributeName] || "S" })
    : null;
  const filterInputs = (ix.SearchSchema || []).filter((e) => e.SearchSchemaElementType === "INLINE_FILTER").map((e) =>
    [e.AttributeName, h("input", { class: "vs-filter", "data-attr": e.AttributeName, type: types[e.AttributeName] === "N" ? "number" : "text", placeholder: "any" })]);
  const projection = h("input", { id: "vs-projection", type: "text", spellcheck: "false", placeholder: "the index's projection" });
  const result = h("div", { id: "vs-result" });
  const run = async () => {
    let req;
    try {
      req = searchRequest(table, ix, types, vector.value, topK.value, {
        hash: hashInput ? hashInput.value.trim() : "",
        filters: Object.fromEntries(filterInputs.map(([a, el]) => [a, el.value])),
        projection: projection.value,
      });
    } catch (e) {
      fill(result, errorBox(e));
      return;
    }
    fill(result, "Searching…");
    try {
      const out = await ddb("SearchVectors", req);
      const res = out.SearchResults || [];
      // The table's key first, then the other attributes by name.
      const others = new Set();
      for (const r of res) for (const k of Object.keys(r.Item || {})) if (!keyNames.includes(k)) others.add(k);
      const cols = [...keyNames, ...[...others].sort()];
      fill(result, h("p", { id: "vs-count" }, `${res.length} result${res.length === 1 ? "" : "s"}, best first`),
        res.length === 0 ? null : h("table", { class: "grid", id: "vs-results" },
          h("thead", {}, h("tr", {}, h("th", {}, "#"), cols.map((c) => h("th", { class: keyNames.includes(c) ? "key" : "" }, c)), h("th", { class: "score" }, label))),
          h("tbody", {}, res.map((r, i) => h("tr", {},
            h("td", { class: "num" }, String(i + 1)),
            cols.map((c) => h("td", {}, av.short(r.Item?.[c]))),
            h("td", { class: "num score" }, String(r.Score)))))),
        h("details", {}, h("summary", {}, "request"), h("pre", {}, JSON.stringify(req, null, 2))));
    } catch (e) {
      fill(result, errorBox(e), h("details", {}, h("summary", {}, "request"), h("pre", {}, JSON.stringify(req, null, 2))));
    }
  };
  fill(root, title,
    h("table", { class: "kv", id: "vector-summary" }, rows.map(([k, v]) => h("tr", {}, h("th", {}, k), h("td", {}, v)))),
    h("div", { class: "card", id: "vector-search" }, h("h3", {}, "Search"),
      field(`Query vector, a JSON array of ${ix.Dimensions} numbers`, vector),
      h("div", { class: "row" },
        field("TopK", topK),
        hash ? field(`${hash.AttributeName} (HASH, ${types[hash.AttributeName] || "S"})`, hashInput) : null,
        filterInputs.map(([a, el]) => field(`${a} = (INLINE_FILTER, ${types[a] || "S"})`, el, "empty: any value")),
        field("Attributes to return", projection, "names, comma-separated")),
      h("div", { class: "row" },
        h("button", { class: "primary", id: "vs-run", onclick: run }, "Search"))),
    result);
}
