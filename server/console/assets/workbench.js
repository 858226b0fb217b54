// The workbench: open a data model (dynago's, or NoSQL Workbench's
// export), create its table and load its sample items, and see the items
// as they lie in the table (the aggregate view: by partition, in sort key
// order) and as each secondary index holds them (a facet per index:
// re-keyed, projected, and the items it does not hold listed apart).

import { consoleApi, ddb } from "./api.js";
import { h, fill, errorBox, field } from "./dom.js";
import { short } from "./av.js";
import { compareKeys } from "./merge.js";

const STORE = "dynago.console.workbench";
const COLOURS = 8;

// keyValue is an item's value of attribute a, if it is a key value
// ({S}, {N} or {B}).
function keyValue(item, a) {
  const v = a ? item[a] : undefined;
  return v && (v.S !== undefined || v.N !== undefined || v.B !== undefined) ? v : undefined;
}

function text(v) {
  return v ? short(v) : "";
}

// prefix is a key's leading namespace: up to and including its first
// '#' or ':', or the whole value when it has neither.
export function prefix(v) {
  if (!v || v.S === undefined) return "";
  const m = /^[^#:]*[#:]/.exec(v.S);
  return m ? m[0] : v.S;
}

// entityOf returns a function naming each item's entity type. A model
// with entity types recognises an item by its keys: a sample item's own
// keys, else the key prefixes of an entity's sample items. A model
// without names items by their sort key's prefix (partition key's, on a
// table without a sort key).
export function entityOf(model) {
  const [pk, sk] = model.tableKeys;
  const exact = new Map();
  const bySig = new Map();
  const sig = (it) => prefix(it[pk]) + "|" + prefix(sk ? it[sk] : undefined);
  const keyOf = (it) => JSON.stringify([it[pk], sk ? it[sk] : null]);
  for (const e of model.entities || []) {
    for (const it of e.items || []) {
      if (!exact.has(keyOf(it))) exact.set(keyOf(it), e.name);
      if (!bySig.has(sig(it))) bySig.set(sig(it), e.name);
    }
  }
  if ((model.entities || []).length) {
    return (it) => exact.get(keyOf(it)) || bySig.get(sig(it)) || "";
  }
  return (it) => prefix(sk ? it[sk] : it[pk]).replace(/[#:]$/, "");
}

// colours gives each entity name a colour class, in model order first,
// then in the order items show them.
function colours(model) {
  const names = (model.entities || []).map((e) => e.name);
  return (name) => {
    if (!name) return "ent-none";
    let i = names.indexOf(name);
    if (i < 0) {
      names.push(name);
      i = names.length - 1;
    }
    return `ent-c${i % COLOURS}`;
  };
}

// group orders items into partitions by pk, each sorted by sk, both in
// DynamoDB's order of key values (ties by the table's keys).
export function group(items, pk, sk, tableKeys) {
  const parts = new Map();
  for (const it of items) {
    const k = JSON.stringify(it[pk]);
    if (!parts.has(k)) parts.set(k, { key: it[pk], items: [] });
    parts.get(k).items.push(it);
  }
  const [tpk, tsk] = tableKeys;
  const byKeys = (a, b) => (sk ? compareKeys(keyValue(a, sk), keyValue(b, sk)) : 0) ||
    compareKeys(a[tpk], b[tpk]) || (tsk ? compareKeys(a[tsk], b[tsk]) : 0);
  const list = [...parts.values()].sort((a, b) => compareKeys(a.key, b.key));
  for (const p of list) p.items.sort(byKeys);
  return list;
}

// projected is what of item an index holds: its keys, the table's keys,
// and by its projection the rest.
function projected(model, ix, item) {
  const keys = [model.tableKeys[0], model.tableKeys[1], ix.partitionKey, ix.sortKey || model.sortKey].filter(Boolean);
  if (!ix.projection) return item;
  const keep = new Set([...keys, ...(ix.projection === "INCLUDE" ? ix.nonKeyAttributes || [] : [])]);
  return Object.fromEntries(Object.entries(item).filter(([k]) => keep.has(k)));
}

// view draws partitions: a block per partition key value, its items in
// order, each row coloured by its entity type.
function view(parts, pk, sk, entity, colour, id) {
  return h("div", { class: "wb-partitions", id }, parts.map((p) => {
    const attrs = [];
    for (const it of p.items) for (const a of Object.keys(it)) if (a !== pk && a !== sk && !attrs.includes(a)) attrs.push(a);
    return h("div", { class: "wb-partition", "data-pk": text(p.key) },
      h("div", { class: "wb-pk" }, h("span", { class: "small" }, `${pk} `), text(p.key), h("span", { class: "small" }, ` · ${p.items.length} item${p.items.length === 1 ? "" : "s"}`)),
      h("table", { class: "grid" },
        h("thead", {}, h("tr", {}, sk ? h("th", { class: "key" }, sk) : null, h("th", {}, "entity"), attrs.map((a) => h("th", {}, a)))),
        h("tbody", {}, p.items.map((it) => {
          const e = entity(it);
          return h("tr", { class: `wb-item ${colour(e)}`, "data-entity": e },
            sk ? h("td", { class: "wb-sk mono" }, text(it[sk])) : null,
            h("td", { class: "wb-entity" }, e),
            attrs.map((a) => h("td", {}, text(it[a]))));
        }))));
  }));
}

// createRequest is the CreateTable request of model.
export function createRequest(model) {
  const defs = new Map();
  const type = (a) => (model.keyTypes || {})[a] || "S";
  const schema = (pk, sk) => {
    const ks = [{ AttributeName: pk, KeyType: "HASH" }];
    defs.set(pk, type(pk));
    if (sk) {
      ks.push({ AttributeName: sk, KeyType: "RANGE" });
      defs.set(sk, type(sk));
    }
    return ks;
  };
  const provisioned = model.billingMode === "PROVISIONED";
  const throughput = { ReadCapacityUnits: model.readCapacity || 5, WriteCapacityUnits: model.writeCapacity || 5 };
  const req = { TableName: model.table, KeySchema: schema(model.tableKeys[0], model.tableKeys[1]), BillingMode: provisioned ? "PROVISIONED" : "PAY_PER_REQUEST" };
  if (provisioned) req.ProvisionedThroughput = throughput;
  for (const ix of model.indexes || []) {
    if (!ix.name) continue;
    const d = { IndexName: ix.name, KeySchema: schema(ix.partitionKey, ix.sortKey || model.sortKey), Projection: { ProjectionType: ix.projection || "ALL" } };
    if (ix.projection === "INCLUDE") d.Projection.NonKeyAttributes = ix.nonKeyAttributes;
    if (ix.local) {
      (req.LocalSecondaryIndexes ||= []).push(d);
    } else {
      if (provisioned) d.ProvisionedThroughput = throughput;
      (req.GlobalSecondaryIndexes ||= []).push(d);
    }
  }
  req.AttributeDefinitions = [...defs].map(([AttributeName, AttributeType]) => ({ AttributeName, AttributeType }));
  return req;
}

// sampleItems are all the model's sample items.
function sampleItems(model) {
  return [...(model.entities || []).flatMap((e) => e.items || []), ...(model.items || [])];
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// createAndLoad creates model's table and indexes, waits until it is
// ACTIVE, and writes its sample items.
async function createAndLoad(model, say) {
  say("Creating the table…");
  await ddb("CreateTable", createRequest(model));
  for (;;) {
    const t = (await ddb("DescribeTable", { TableName: model.table })).Table;
    if (t.TableStatus === "ACTIVE" && (t.GlobalSecondaryIndexes || []).every((g) => g.IndexStatus === "ACTIVE")) break;
    await sleep(200);
  }
  const items = sampleItems(model);
  for (let i = 0; i < items.length; i += 25) {
    say(`Writing sample items ${i + 1} to ${Math.min(i + 25, items.length)} of ${items.length}…`);
    let req = { [model.table]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) };
    while (req && Object.keys(req).length) {
      const out = await ddb("BatchWriteItem", { RequestItems: req });
      req = out.UnprocessedItems;
      if (req && Object.keys(req).length) await sleep(100);
    }
  }
}

// scanAll reads every item of the table, strongly consistent.
async function scanAll(table) {
  const items = [];
  let start;
  do {
    const out = await ddb("Scan", { TableName: table, ConsistentRead: true, ...(start ? { ExclusiveStartKey: start } : {}) });
    items.push(...(out.Items || []));
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
}

// tableBox shows one table of the model: its state on the server, and,
// once it exists, its aggregate view and a facet per index.
async function tableBox(model, box) {
  const status = h("p", { class: "wb-status" });
  const body = h("div", {});
  const n = sampleItems(model).length;
  const load = h("button", { class: "primary wb-load", onclick: async () => {
    load.disabled = true;
    try {
      await createAndLoad(model, (s) => fill(status, s));
      await show();
    } catch (e) {
      fill(status);
      body.prepend(errorBox(e));
      load.disabled = false;
    }
  } }, n ? `Create the table and load its ${n} sample items` : "Create the table");
  const show = async () => {
    fill(body);
    try {
      await ddb("DescribeTable", { TableName: model.table });
    } catch (e) {
      if (e.type !== "ResourceNotFoundException") throw e;
      fill(status, `Table ${model.table} does not exist on this server.`);
      load.hidden = false;
      return;
    }
    load.hidden = true;
    const items = await scanAll(model.table);
    fill(status, `${items.length} item${items.length === 1 ? "" : "s"} in table ${model.table}.`);
    draw(model, items, body);
  };
  load.hidden = true;
  fill(box, h("h3", {}, model.table), h("p", { class: "hint" }, keysLine(model)), h("div", { class: "row" }, load), status, body);
  await show();
}

function keysLine(model) {
  const [pk, sk] = model.tableKeys;
  const ixs = (model.indexes || []).filter((ix) => ix.name);
  return `Keys: ${pk}${sk ? ", " + sk : ""}. ` + (ixs.length ? `Indexes: ${ixs.map((ix) => `${ix.name} (${ix.local ? "local" : "global"})`).join(", ")}.` : "No secondary index.") +
    ((model.entities || []).length ? ` Entity types: ${model.entities.map((e) => e.name).join(", ")}.` : "");
}

// draw fills body with the aggregate view and the facets.
function draw(model, items, body) {
  const entity = entityOf(model);
  const colour = colours(model);
  const [pk, sk] = model.tableKeys;
  const seen = [...new Set(items.map(entity))];
  const legend = h("ul", { class: "legend wb-legend" }, seen.map((e) => h("li", { class: colour(e), "data-entity": e }, h("span", { class: "swatch" }), e || "(none)")));
  const out = [legend, h("h4", {}, "Aggregate view: the table's partitions"), view(group(items, pk, sk, model.tableKeys), pk, sk, entity, colour, "wb-aggregate")];
  for (const ix of (model.indexes || []).filter((x) => x.name)) {
    const ipk = ix.partitionKey;
    const isk = ix.sortKey || model.sortKey;
    const inIx = [];
    const absent = [];
    for (const it of items) (keyValue(it, ipk) && (!isk || keyValue(it, isk)) ? inIx : absent).push(it);
    const proj = ix.projection ? (ix.projection === "INCLUDE" ? `INCLUDE ${(ix.nonKeyAttributes || []).join(", ")}` : ix.projection) : "ALL";
    out.push(h("div", { class: "card wb-facet", "data-index": ix.name },
      h("h4", {}, `${ix.local ? "LSI" : "GSI"} ${ix.name}: `, h("span", { class: "mono" }, `${ipk}${isk ? ", " + isk : ""}`), h("span", { class: "small" }, ` · projection ${proj} · ${inIx.length} of ${items.length} items`)),
      view(group(inIx.map((it) => projected(model, ix, it)), ipk, isk, model.tableKeys), ipk, isk, entity, colour),
      absent.length ? h("div", { class: "wb-absent" },
        h("p", {}, `Not in this index: ${absent.length} item${absent.length === 1 ? "" : "s"} (no ${[ipk, isk].filter((a) => a && a !== pk && a !== sk).join(" or ")}).`),
        h("ul", {}, absent.map((it) => { const e = entity(it); return h("li", { class: `wb-absent-item ${colour(e)}`, "data-entity": e }, `${text(it[pk])}${sk ? " / " + text(it[sk]) : ""}`); }))) : null));
  }
  fill(body, out);
}

export async function workbenchView(root) {
  const source = h("textarea", { id: "wb-model", rows: 10, spellcheck: "false", placeholder: "A data model: dynago's (as examples/*/model.json) or one exported by NoSQL Workbench" });
  source.value = localStorage.getItem(STORE) || "";
  const pick = h("select", { id: "wb-example" }, h("option", { value: "" }, "(an example's model)"));
  const file = h("input", { id: "wb-file", type: "file", accept: ".json,application/json" });
  const out = h("div", { id: "wb-out" });
  const exported = h("details", { class: "raw", id: "wb-export" });
  let list = [];
  const open = async () => {
    fill(out);
    fill(exported);
    let model;
    try {
      model = JSON.parse(source.value);
    } catch (e) {
      fill(out, errorBox(e));
      return;
    }
    localStorage.setItem(STORE, source.value);
    try {
      const a = await consoleApi("workbench", { model });
      fill(exported, h("summary", {}, a.format === "workbench" ? "As dynago's model" : "As a NoSQL Workbench model"),
        h("pre", {}, JSON.stringify(a.format === "workbench" ? (a.models.length === 1 ? a.models[0] : a.models) : a.workbench, null, 2)));
      const boxes = a.models.map((m) => h("div", { class: "card wb-table", "data-table": m.table }));
      fill(out, h("p", { id: "wb-format" }, `Opened ${a.format === "workbench" ? "a NoSQL Workbench model" : "a dynago model"}: ${a.models.length} table${a.models.length === 1 ? "" : "s"}.`), boxes);
      await Promise.all(a.models.map((m, i) => tableBox(m, boxes[i]).catch((e) => boxes[i].append(errorBox(e)))));
    } catch (e) {
      fill(out, errorBox(e));
    }
  };
  pick.addEventListener("change", () => {
    const ex = list.find((x) => x.name === pick.value);
    if (!ex) return;
    source.value = JSON.stringify(ex.model, null, 2);
    open();
  });
  file.addEventListener("change", async () => {
    const f = file.files[0];
    if (!f) return;
    source.value = await f.text();
    open();
  });
  fill(root, h("h2", {}, "Workbench: a data model's items, by partition and by index"),
    h("p", {}, "Open a data model, in dynago's format or as NoSQL Workbench exports it. When its table exists on this server, its items are shown as they lie in the table, grouped by partition key and in sort key order, and again as each secondary index holds them; items an index does not hold are listed apart, and rows are coloured by entity type."),
    h("div", { class: "card" }, h("div", { class: "row" }, field("Examples", pick), field("Or a file", file)),
      field("Data model (JSON)", source),
      h("div", { class: "row" }, h("button", { class: "primary", id: "wb-open", onclick: open }, "Open"))),
    exported, out);
  try {
    list = (await consoleApi("workbench", { examples: true })).examples;
    for (const ex of list) pick.append(h("option", { value: ex.name }, ex.name));
  } catch (e) {
    root.append(errorBox(e));
  }
  if (source.value.trim()) await open();
}
