// The Query/Scan builder and the PartiQL editor. Every run ends with an
// EXPLAIN: the operation, the index, the key range read, items read versus
// returned, pages fetched and read units per table and index, summed over
// the pages (ReturnConsumedCapacity INDEXES).

import { ddb, consoleApi } from "./api.js";
import { h, fill, errorBox, field, select, units } from "./dom.js";
import * as av from "./av.js";
import { describe, listTables } from "./tables.js";
import { itemGrid } from "./items.js";

const sortOps = ["", "=", "<", "<=", ">", ">=", "BETWEEN", "begins_with"];

// sources lists what a Query or Scan can read: the table and its indexes.
function sources(t) {
  return [
    { name: "", label: `table ${t.TableName}`, keys: t.KeySchema, kind: "table" },
    ...(t.GlobalSecondaryIndexes || []).map((g) => ({ name: g.IndexName, label: `GSI ${g.IndexName}`, keys: g.KeySchema, kind: "GSI" })),
    ...(t.LocalSecondaryIndexes || []).map((l) => ({ name: l.IndexName, label: `LSI ${l.IndexName}`, keys: l.KeySchema, kind: "LSI" })),
  ];
}

// typedValue makes an attribute value of a key attribute's type from the
// text typed.
function typedValue(type, text) {
  return { [type]: text };
}

// capacityTotals adds up ConsumedCapacity (INDEXES) over pages.
export function addCapacity(acc, cc) {
  if (!cc) return acc;
  acc.total += cc.CapacityUnits || 0;
  acc.table += cc.Table?.CapacityUnits || 0;
  for (const kind of ["GlobalSecondaryIndexes", "LocalSecondaryIndexes"]) {
    for (const [ix, c] of Object.entries(cc[kind] || {})) {
      acc.indexes[ix] = (acc.indexes[ix] || 0) + (c.CapacityUnits || 0);
    }
  }
  acc.tableName = cc.TableName || acc.tableName;
  return acc;
}

export function newCapacity() {
  return { total: 0, table: 0, indexes: {}, tableName: "" };
}

export function capacityLines(acc, label = "Read units") {
  const lines = [`${label} consumed: ${units(acc.total)}`, `  table ${acc.tableName}: ${units(acc.table)}`];
  for (const [ix, u] of Object.entries(acc.indexes)) lines.push(`  index ${ix}: ${units(u)}`);
  return lines;
}

export async function queryView(root, name, nav) {
  const tables = await listTables().catch(() => []);
  const tableSel = select([["", "(pick a table)"], ...tables], name || "", { id: "q-table", onchange: () => nav(`#query/${encodeURIComponent(tableSel.value)}`) });
  const body = h("div", {});
  fill(root, h("h2", {}, "Query and Scan"), h("div", { class: "row" }, field("Table", tableSel)), body);
  if (!name) return;
  let t;
  try {
    t = await describe(name);
  } catch (e) {
    fill(body, errorBox(e));
    return;
  }
  const types = Object.fromEntries(t.AttributeDefinitions.map((d) => [d.AttributeName, d.AttributeType]));
  const srcs = sources(t);
  const srcSel = select(srcs.map((s, i) => [String(i), s.label]), "0", { id: "q-source" });
  const keyBox = h("div", { class: "keys" });
  const filter = h("input", { id: "q-filter", placeholder: "e.g. #s = :s AND size(tags) > :n" });
  const names = h("input", { id: "q-names", placeholder: '{"#s": "status"}' });
  const values = h("input", { id: "q-values", placeholder: '{":s": {"S": "open"}}' });
  const projection = h("input", { id: "q-projection", placeholder: "pk, sk, title" });
  const limit = h("input", { id: "q-limit", type: "number", min: 1, placeholder: "none" });
  const pages = h("input", { id: "q-pages", type: "number", min: 1, value: "1" });
  const backward = h("input", { id: "q-backward", type: "checkbox" });
  const consistent = h("input", { id: "q-consistent", type: "checkbox" });
  const segment = h("input", { id: "q-segment", type: "number", min: 0, placeholder: "0" });
  const segments = h("input", { id: "q-segments", type: "number", min: 1, placeholder: "none" });
  const result = h("div", { id: "q-result" });
  const explain = h("pre", { id: "explain", class: "explain" });
  const request = h("details", { id: "q-request", class: "raw" });
  let keyInputs = [];
  let next = null; // LastEvaluatedKey of the last run, for "more"

  const drawKeys = () => {
    const src = srcs[Number(srcSel.value)];
    keyInputs = src.keys.map((k) => {
      const type = types[k.AttributeName] || "S";
      const v1 = h("input", { class: "key-value", "data-attr": k.AttributeName, placeholder: `${k.AttributeName} (${type})` });
      const v2 = h("input", { class: "key-value2", placeholder: "and", hidden: true });
      const op = k.KeyType === "HASH" ? null : select(sortOps.map((o) => [o, o || "(any)"]), "", { class: "key-op", onchange: () => { v2.hidden = op.value !== "BETWEEN"; } });
      return { k, type, v1, v2, op, el: h("div", { class: "row" }, h("span", { class: "key-label" }, `${k.KeyType === "HASH" ? "partition" : "sort"} key ${k.AttributeName}`), op || h("span", {}, "="), v1, v2) };
    });
    fill(keyBox, keyInputs.map((x) => x.el));
  };
  srcSel.addEventListener("change", drawKeys);
  drawKeys();

  // build returns the request and a description of the key range.
  const build = (op) => {
    const src = srcs[Number(srcSel.value)];
    const req = { TableName: name, ReturnConsumedCapacity: "INDEXES" };
    if (src.name) req.IndexName = src.name;
    const n = names.value.trim() ? JSON.parse(names.value) : {};
    const v = values.value.trim() ? av.unNum(av.parseJSON(values.value)) : {};
    const conds = [];
    const range = [];
    if (op === "Query") {
      keyInputs.forEach((x, i) => {
        const opv = x.op ? x.op.value : "=";
        if (!opv) return;
        n[`#k${i}`] = x.k.AttributeName;
        v[`:k${i}`] = typedValue(x.type, x.v1.value);
        if (opv === "BETWEEN") {
          v[`:k${i}b`] = typedValue(x.type, x.v2.value);
          conds.push(`#k${i} BETWEEN :k${i} AND :k${i}b`);
          range.push(`${x.k.AttributeName} BETWEEN ${JSON.stringify(x.v1.value)} AND ${JSON.stringify(x.v2.value)}`);
        } else if (opv === "begins_with") {
          conds.push(`begins_with(#k${i}, :k${i})`);
          range.push(`${x.k.AttributeName} begins with ${JSON.stringify(x.v1.value)}`);
        } else {
          conds.push(`#k${i} ${opv} :k${i}`);
          range.push(`${x.k.AttributeName} ${opv} ${JSON.stringify(x.v1.value)}`);
        }
      });
      req.KeyConditionExpression = conds.join(" AND ");
      req.ScanIndexForward = !backward.checked;
    }
    if (op === "Scan" && segments.value) {
      req.Segment = Number(segment.value || 0);
      req.TotalSegments = Number(segments.value);
    }
    if (filter.value.trim()) req.FilterExpression = filter.value.trim();
    if (projection.value.trim()) req.ProjectionExpression = projection.value.trim();
    if (limit.value) req.Limit = Number(limit.value);
    if (consistent.checked) req.ConsistentRead = true;
    if (Object.keys(n).length) req.ExpressionAttributeNames = n;
    if (Object.keys(v).length) req.ExpressionAttributeValues = v;
    return { req, src, range };
  };

  const run = async (op, more) => {
    let b;
    try {
      b = build(op);
    } catch (e) {
      fill(result, errorBox(e));
      return;
    }
    const { req, src, range } = b;
    if (more) req.ExclusiveStartKey = next;
    const sent = JSON.stringify(req, null, 2);
    const acc = newCapacity();
    const items = [];
    let scanned = 0;
    let count = 0;
    let fetched = 0;
    const max = Math.max(1, Number(pages.value) || 1);
    fill(result, "Running…");
    fill(explain);
    fill(request);
    try {
      do {
        const out = await ddb(op, req);
        fetched++;
        items.push(...(out.Items || []));
        scanned += out.ScannedCount || 0;
        count += out.Count || 0;
        addCapacity(acc, out.ConsumedCapacity);
        next = out.LastEvaluatedKey;
        req.ExclusiveStartKey = next;
      } while (next && fetched < max);
    } catch (e) {
      fill(result, errorBox(e));
      fill(explain, `${op} failed before it read anything${fetched ? ` (after ${fetched} pages)` : ""}.`);
      return;
    }
    const keyNames = src.keys.map((k) => k.AttributeName).concat(t.KeySchema.map((k) => k.AttributeName));
    fill(result, items.length ? itemGrid(items, [...new Set(keyNames)], null, 12) : h("p", {}, "No items."),
      next ? h("button", { id: "q-more", onclick: () => run(op, true) }, "More pages ›") : null);
    const lines = [
      `EXPLAIN`,
      `${op} on ${src.name ? `index ${src.name} (${src.kind}) of table ${name}` : `table ${name}`}`,
      op === "Query" ? `Key range read: ${range.join(" AND ") || "(none)"}${req.ScanIndexForward === false ? ", descending" : ", ascending"}`
        : req.TotalSegments ? `Key range read: segment ${req.Segment} of ${req.TotalSegments} (that share of the ${src.name ? "index" : "table"}'s hash range), in hash order`
        : `Key range read: the whole ${src.name ? "index" : "table"}, in hash order`,
      req.FilterExpression ? `Filter (after the read, billed before it): ${req.FilterExpression}` : `Filter: none`,
      `Pages fetched: ${fetched}${next ? " (more remain: LastEvaluatedKey set)" : ""}${more ? " continuing a previous run" : ""}`,
      `Items read (ScannedCount): ${scanned}`,
      `Items returned (Count): ${count}`,
      ...capacityLines(acc),
      `Consistent read: ${req.ConsistentRead ? "yes (full units)" : "no (half units)"}`,
    ];
    fill(explain, lines.join("\n"));
    fill(request, h("summary", {}, `The ${op} request (first page)`), h("pre", {}, sent));
  };

  fill(body,
    h("div", { class: "card" },
      h("div", { class: "row" }, field("Read from", srcSel)),
      keyBox,
      h("div", { class: "row" }, field("Filter expression", filter), field("Projection", projection)),
      h("div", { class: "row" }, field("Expression attribute names", names), field("Expression attribute values (DynamoDB JSON)", values)),
      h("div", { class: "row" }, field("Limit", limit), field("Pages to fetch", pages),
        h("label", { class: "check" }, backward, " descending (ScanIndexForward false)"),
        h("label", { class: "check" }, consistent, " consistent read")),
      h("div", { class: "row" }, field("Scan segment", segment), field("Total segments", segments, "parallel Scan; Scan only")),
      h("div", { class: "row" },
        h("button", { class: "primary", id: "run-query", onclick: () => run("Query") }, "Query"),
        h("button", { id: "run-scan", onclick: () => run("Scan") }, "Scan"))),
    h("div", { class: "split" }, result, h("div", {}, explain, request)));
}

export async function partiqlView(root) {
  const stmt = h("textarea", { id: "pq-statement", rows: 5, spellcheck: "false", placeholder: `SELECT * FROM "Table" WHERE pk = 'a'` });
  const params = h("input", { id: "pq-params", placeholder: '[{"S": "a"}] (optional)' });
  const limit = h("input", { id: "pq-limit", type: "number", min: 1, placeholder: "none" });
  const consistent = h("input", { id: "pq-consistent", type: "checkbox" });
  const result = h("div", { id: "pq-result" });
  const explain = h("pre", { id: "pq-explain", class: "explain" });
  const request = h("details", { id: "pq-request", class: "raw" });
  let token = null;

  const run = async (more) => {
    const req = { Statement: stmt.value, ReturnConsumedCapacity: "INDEXES" };
    try {
      if (params.value.trim()) req.Parameters = av.unNum(av.parseJSON(params.value));
    } catch (e) {
      fill(result, errorBox(e));
      return;
    }
    if (limit.value) req.Limit = Number(limit.value);
    if (consistent.checked) req.ConsistentRead = true;
    if (more && token) req.NextToken = token;
    const plan = consoleApi("explain", { statement: stmt.value, consistentRead: consistent.checked }).then((x) => x, (e) => ({ error: e }));
    fill(result, "Running…");
    let out;
    try {
      out = await ddb("ExecuteStatement", req);
    } catch (e) {
      fill(result, errorBox(e));
      fill(explain);
      fill(request, h("summary", {}, "The ExecuteStatement request"), h("pre", {}, JSON.stringify(req, null, 2)));
      return;
    }
    token = out.NextToken || null;
    const items = out.Items || [];
    fill(result, items.length ? itemGrid(items, [], null, 12) : h("p", {}, "No items."),
      token ? h("button", { id: "pq-more", onclick: () => run(true) }, "Next page ›") : null);
    const acc = addCapacity(newCapacity(), out.ConsumedCapacity);
    const p = await plan;
    const lines = ["EXPLAIN"];
    if (p && !p.error) {
      lines.push(p.text ? p.text.trimEnd() : JSON.stringify(p.explain, null, 2));
    } else {
      lines.push(`Plan: not available from this server (${p?.error ? p.error.message : "no plan"}).`);
      const srcs = [acc.table ? `table ${acc.tableName}` : null, ...Object.keys(acc.indexes).map((i) => `index ${i}`)].filter(Boolean);
      lines.push(`Read from: ${srcs.join(", ") || acc.tableName || "unknown"} (from the units billed)`);
    }
    lines.push(`Pages fetched: 1${token ? " (more remain: NextToken set)" : ""}`);
    lines.push(`Items returned: ${items.length}`);
    lines.push(`Items read: not reported by ExecuteStatement; the units below bound it`);
    lines.push(...capacityLines(acc, "Capacity units"));
    fill(explain, lines.join("\n"));
    fill(request, h("summary", {}, "The ExecuteStatement request"), h("pre", {}, JSON.stringify(req, null, 2)));
  };

  stmt.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) {
      ev.preventDefault();
      run(false);
    }
  });
  fill(root, h("h2", {}, "PartiQL"),
    h("div", { class: "card" }, stmt,
      h("div", { class: "row" }, field("Parameters (DynamoDB JSON list)", params), field("Limit", limit),
        h("label", { class: "check" }, consistent, " consistent read")),
      h("div", { class: "row" }, h("button", { class: "primary", id: "pq-run", onclick: () => run(false) }, "Run"), h("small", { class: "hint" }, "or Ctrl+Enter"))),
    h("div", { class: "split" }, result, h("div", {}, explain, request)));
}
