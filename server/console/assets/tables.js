// The Tables screen: list, create, describe and delete tables.

import { ddb } from "./api.js";
import { h, fill, errorBox, field, select, bytes } from "./dom.js";
import { backupsBox } from "./backups.js";
import { vectorIndexTable } from "./vectors.js";

// listTables returns every table name, following ListTables' pages.
export async function listTables() {
  const names = [];
  let start;
  do {
    const out = await ddb("ListTables", start ? { ExclusiveStartTableName: start } : {});
    names.push(...(out.TableNames || []));
    start = out.LastEvaluatedTableName;
  } while (start);
  return names;
}

export async function describe(name) {
  return (await ddb("DescribeTable", { TableName: name })).Table;
}

// keyText renders a key schema: "pk (HASH S), sk (RANGE N)".
export function keyText(schema, defs) {
  const types = Object.fromEntries((defs || []).map((d) => [d.AttributeName, d.AttributeType]));
  return (schema || []).map((k) => `${k.AttributeName} (${k.KeyType} ${types[k.AttributeName] || "?"})`).join(", ");
}

export async function tablesView(root, nav) {
  const list = h("div", { id: "table-list" }, "Loading…");
  const form = createForm(nav);
  fill(root, h("h2", {}, "Tables"), list, form);
  try {
    const names = await listTables();
    const descs = await Promise.all(names.map((n) => describe(n).catch((e) => ({ TableName: n, error: e }))));
    fill(list, descs.length === 0 ? h("p", {}, "No tables yet.") : tableOfTables(descs, nav));
  } catch (e) {
    fill(list, errorBox(e));
  }
}

function tableOfTables(descs, nav) {
  return h("table", { class: "grid", id: "tables" },
    h("thead", {}, h("tr", {}, ["Table", "Status", "Key", "Items", "Size", "Indexes", "Stream", "Billing", ""].map((c) => h("th", {}, c)))),
    h("tbody", {}, descs.map((t) => t.error
      ? h("tr", {}, h("td", {}, t.TableName), h("td", { colspan: 8 }, errorBox(t.error)))
      : h("tr", { "data-table": t.TableName },
        h("td", {}, h("a", { href: `#table/${encodeURIComponent(t.TableName)}` }, t.TableName)),
        h("td", {}, t.TableStatus),
        h("td", {}, keyText(t.KeySchema, t.AttributeDefinitions)),
        h("td", { class: "num item-count" }, String(t.ItemCount ?? "")),
        h("td", { class: "num" }, bytes(t.TableSizeBytes)),
        h("td", {}, `${(t.GlobalSecondaryIndexes || []).length} GSI, ${(t.LocalSecondaryIndexes || []).length} LSI` +
          ((t.VectorIndexes || []).length ? `, ${t.VectorIndexes.length} vector` : "")),
        h("td", {}, t.StreamSpecification?.StreamEnabled ? t.StreamSpecification.StreamViewType : "off"),
        h("td", {}, t.BillingModeSummary?.BillingMode || "PROVISIONED"),
        h("td", {},
          h("a", { href: `#items/${encodeURIComponent(t.TableName)}` }, "items"), " ",
          h("a", { href: `#query/${encodeURIComponent(t.TableName)}` }, "query")),
      ))));
}

// parseKeyList reads "a:S, b:N" into [{name, type}] (type S by default).
export function parseKeyList(text) {
  return text.split(",").map((s) => s.trim()).filter(Boolean).map((s) => {
    const [name, type] = s.split(":").map((x) => x.trim());
    return { name, type: (type || "S").toUpperCase() };
  });
}

const projections = ["ALL", "KEYS_ONLY", "INCLUDE"];

function indexRow(kind) {
  const row = h("fieldset", { class: `index-row ${kind}` },
    h("legend", {}, kind === "gsi" ? "Global secondary index" : "Local secondary index"),
    field("Name", h("input", { name: "name", required: true })),
    kind === "gsi"
      ? field("Partition key attributes", h("input", { name: "hash", placeholder: "resourceId:S, action:S" }), "up to 4, name:type (S, N or B)")
      : null,
    field("Sort key attributes", h("input", { name: "range", placeholder: kind === "gsi" ? "timestamp:S" : "date:S" }), kind === "gsi" ? "up to 4; optional" : "one"),
    field("Projection", select(projections, "ALL", { name: "projection" })),
    field("Non-key attributes", h("input", { name: "include", placeholder: "a, b" }), "INCLUDE only"),
    kind === "gsi" ? billingOnly("PROVISIONED", field("Read / write units", h("input", { name: "throughput", placeholder: "5/5" }))) : null,
    h("button", { type: "button", class: "link", onclick: () => row.remove() }, "remove"));
  return row;
}

// billingOnly marks a form's field as one of a billing mode's: shown
// only while the form's billing mode is mode (showBilling).
function billingOnly(mode, el) {
  el.dataset.billing = mode;
  return el;
}

// showBilling shows the fields of the billing mode chosen and hides the
// others': an on-demand table has no capacity units to give, and a
// provisioned one no on-demand maximums.
function showBilling(form) {
  const mode = form.elements.billing.value;
  for (const el of form.querySelectorAll("[data-billing]")) el.hidden = el.dataset.billing !== mode;
}

// throughputText words a table's or index's throughput by its billing
// mode: provisioned capacity units, or an on-demand table's maximum
// request units, if any (OnDemandThroughput; -1 or absent is none).
// DescribeTable gives an on-demand table ProvisionedThroughput with 0
// units, which are not its throughput and are never shown.
export function throughputText(onDemand, pt, odt) {
  if (!onDemand) return `${pt?.ReadCapacityUnits ?? 0} read, ${pt?.WriteCapacityUnits ?? 0} write capacity units per second`;
  const max = (n) => (n > 0 ? String(n) : "no maximum");
  if (!(odt?.MaxReadRequestUnits > 0) && !(odt?.MaxWriteRequestUnits > 0)) return "";
  return `read ${max(odt.MaxReadRequestUnits)}, write ${max(odt.MaxWriteRequestUnits)} request units per second at most`;
}

function onDemand(t) {
  return t.BillingModeSummary?.BillingMode === "PAY_PER_REQUEST";
}

function createForm(nav) {
  const out = h("div", { class: "result" });
  const indexes = h("div", { class: "indexes" });
  const form = h("form", { id: "create-table", class: "card" },
    h("h3", {}, "Create a table"),
    h("div", { class: "row" },
      field("Table name", h("input", { name: "table", required: true })),
      field("Partition key", h("input", { name: "pk", required: true, placeholder: "pk" })),
      field("Type", select(["S", "N", "B"], "S", { name: "pkType" })),
      field("Sort key", h("input", { name: "sk", placeholder: "optional" })),
      field("Type", select(["S", "N", "B"], "S", { name: "skType" }))),
    h("div", { class: "row" },
      field("Billing mode", select(["PAY_PER_REQUEST", "PROVISIONED"], "PAY_PER_REQUEST", { name: "billing", onchange: () => showBilling(form) })),
      billingOnly("PROVISIONED", field("Read units", h("input", { name: "rcu", type: "number", min: 1, value: "5" }))),
      billingOnly("PROVISIONED", field("Write units", h("input", { name: "wcu", type: "number", min: 1, value: "5" }))),
      billingOnly("PAY_PER_REQUEST", field("Most read request units", h("input", { name: "maxRead", type: "number", min: 1, placeholder: "no maximum" }), "per second; optional")),
      billingOnly("PAY_PER_REQUEST", field("Most write request units", h("input", { name: "maxWrite", type: "number", min: 1, placeholder: "no maximum" }), "per second; optional")),
      field("Stream", select([["", "off"], "KEYS_ONLY", "NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES"], "", { name: "stream" })),
      field("TTL attribute", h("input", { name: "ttl", placeholder: "optional, e.g. expires" }))),
    indexes,
    h("div", { class: "row" },
      h("button", { type: "button", id: "add-gsi", onclick: () => { indexes.append(indexRow("gsi")); showBilling(form); } }, "+ GSI"),
      h("button", { type: "button", id: "add-lsi", onclick: () => indexes.append(indexRow("lsi")) }, "+ LSI"),
      h("button", { type: "submit", class: "primary", id: "create-submit" }, "Create table")),
    out);
  showBilling(form);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    let req;
    try {
      req = createRequest(form);
    } catch (e) {
      fill(out, errorBox(e));
      return;
    }
    fill(out, "Creating…");
    try {
      await ddb("CreateTable", req);
      const ttl = form.elements.ttl.value.trim();
      if (ttl) {
        await ddb("UpdateTimeToLive", { TableName: req.TableName, TimeToLiveSpecification: { AttributeName: ttl, Enabled: true } });
      }
      nav(`#table/${encodeURIComponent(req.TableName)}`);
    } catch (e) {
      fill(out, errorBox(e), h("details", {}, h("summary", {}, "request"), h("pre", {}, JSON.stringify(req, null, 2))));
    }
  });
  return form;
}

// createRequest builds CreateTable's input from the form.
export function createRequest(form) {
  const f = form.elements;
  const defs = [];
  const seen = new Set();
  const define = (name, type) => {
    if (!name || seen.has(`${name}\u0000${type}`)) return;
    seen.add(`${name}\u0000${type}`);
    defs.push({ AttributeName: name, AttributeType: type });
  };
  const keySchema = [{ AttributeName: f.pk.value.trim(), KeyType: "HASH" }];
  define(f.pk.value.trim(), f.pkType.value);
  if (f.sk.value.trim()) {
    keySchema.push({ AttributeName: f.sk.value.trim(), KeyType: "RANGE" });
    define(f.sk.value.trim(), f.skType.value);
  }
  const provisioned = f.billing.value === "PROVISIONED";
  const req = { TableName: f.table.value.trim(), KeySchema: keySchema, AttributeDefinitions: defs, BillingMode: f.billing.value };
  if (provisioned) {
    req.ProvisionedThroughput = { ReadCapacityUnits: Number(f.rcu.value), WriteCapacityUnits: Number(f.wcu.value) };
  } else if (f.maxRead.value.trim() || f.maxWrite.value.trim()) {
    req.OnDemandThroughput = {};
    if (f.maxRead.value.trim()) req.OnDemandThroughput.MaxReadRequestUnits = Number(f.maxRead.value);
    if (f.maxWrite.value.trim()) req.OnDemandThroughput.MaxWriteRequestUnits = Number(f.maxWrite.value);
  }
  if (f.stream.value) req.StreamSpecification = { StreamEnabled: true, StreamViewType: f.stream.value };
  const gsis = [];
  const lsis = [];
  for (const row of form.querySelectorAll(".index-row")) {
    const gsi = row.classList.contains("gsi");
    const ix = indexFromRow(row, define, provisioned ? `${f.rcu.value}/${f.wcu.value}` : "", { name: f.pk.value.trim(), type: f.pkType.value });
    (gsi ? gsis : lsis).push(ix);
  }
  if (gsis.length) req.GlobalSecondaryIndexes = gsis;
  if (lsis.length) req.LocalSecondaryIndexes = lsis;
  return req;
}

// indexFromRow builds one index of CreateTable or UpdateTable from its
// fieldset, defining its key attributes with define. throughput is "r/w"
// for a provisioned table, "" otherwise; tableHash is the table's
// partition key, an LSI's.
function indexFromRow(row, define, throughput, tableHash) {
  const q = (n) => row.querySelector(`[name=${n}]`)?.value.trim() || "";
  const gsi = row.classList.contains("gsi");
  const hash = gsi ? parseKeyList(q("hash")) : [tableHash];
  const range = parseKeyList(q("range"));
  const ks = [...hash.map((k) => ({ AttributeName: k.name, KeyType: "HASH" })), ...range.map((k) => ({ AttributeName: k.name, KeyType: "RANGE" }))];
  [...hash, ...range].forEach((k) => define(k.name, k.type));
  const projection = { ProjectionType: q("projection") };
  if (projection.ProjectionType === "INCLUDE") {
    projection.NonKeyAttributes = q("include").split(",").map((s) => s.trim()).filter(Boolean);
  }
  const ix = { IndexName: q("name"), KeySchema: ks, Projection: projection };
  if (gsi && throughput) {
    const [r, w] = (q("throughput") || throughput).split("/").map(Number);
    ix.ProvisionedThroughput = { ReadCapacityUnits: r, WriteCapacityUnits: w };
  }
  return ix;
}

// addIndexBox adds a GSI to an existing table (UpdateTable); the index
// table above then shows its backfill.
function addIndexBox(t, reload) {
  const out = h("div", {});
  const row = indexRow("gsi");
  row.querySelector("button.link").remove();
  if (onDemand(t)) row.querySelector("[data-billing]").remove();
  const box = h("div", { class: "card", id: "add-index" }, h("h3", {}, "Add a global secondary index"), row,
    h("button", {
      id: "add-index-submit", onclick: async () => {
        const defs = [];
        const define = (name, type) => {
          if (name && !defs.some((d) => d.AttributeName === name && d.AttributeType === type)) defs.push({ AttributeName: name, AttributeType: type });
        };
        const pt = t.ProvisionedThroughput;
        const provisioned = !onDemand(t);
        const ix = indexFromRow(row, define, provisioned ? `${pt?.ReadCapacityUnits || 1}/${pt?.WriteCapacityUnits || 1}` : "", null);
        try {
          await ddb("UpdateTable", { TableName: t.TableName, AttributeDefinitions: defs, GlobalSecondaryIndexUpdates: [{ Create: ix }] });
          reload();
        } catch (e) {
          fill(out, errorBox(e));
        }
      },
    }, "Create the index"), out);
  return box;
}

// tableView describes one table: summary, indexes with backfill state
// (vector indexes too, each linking to its search view),
// Time to Live, backups and point-in-time recovery, the raw description,
// and deletion.
export async function tableView(root, name, nav, onLeave) {
  const body = h("div", {}, "Loading…");
  fill(root, h("h2", {}, "Table ", h("span", { class: "mono" }, name),
    h("span", { class: "actions" },
      h("a", { href: `#items/${encodeURIComponent(name)}` }, "items"),
      h("a", { href: `#query/${encodeURIComponent(name)}` }, "query"),
      h("a", { href: `#streams/${encodeURIComponent(name)}` }, "stream"),
      h("a", { href: `#ttl/${encodeURIComponent(name)}` }, "time to live"))), body);
  let timer;
  onLeave(() => clearTimeout(timer));
  const top = h("div", {});
  const raw = h("pre", { id: "raw-description" });
  let drawn = false;
  // load draws the description; while an index backfills or the table is
  // in transition it draws it again every second, leaving the forms be.
  const load = async () => {
    clearTimeout(timer);
    try {
      const t = await describe(name);
      const ttl = await ddb("DescribeTimeToLive", { TableName: name }).catch((e) => ({ error: e }));
      fill(top, summary(t, ttl), indexTable(t, load), vectorIndexTable(t));
      fill(raw, JSON.stringify(t, null, 2));
      if (!drawn) {
        drawn = true;
        fill(body, top, addIndexBox(t, load), backupsBox(name, onLeave), deleteBox(name, nav),
          h("details", { class: "raw" }, h("summary", {}, "DescribeTable, raw JSON"), raw));
      }
      const busy = [...(t.GlobalSecondaryIndexes || []), ...(t.VectorIndexes || [])].some((g) => g.Backfilling || g.IndexStatus !== "ACTIVE") || t.TableStatus !== "ACTIVE";
      if (busy && root.isConnected) timer = setTimeout(load, 1000);
    } catch (e) {
      fill(drawn ? top : body, errorBox(e));
    }
  };
  await load();
}

function summary(t, ttl) {
  const tt = ttl.error ? String(ttl.error) : (ttl.TimeToLiveDescription?.TimeToLiveStatus || "") +
    (ttl.TimeToLiveDescription?.AttributeName ? ` on ${ttl.TimeToLiveDescription.AttributeName}` : "");
  const rows = [
    ["Status", t.TableStatus],
    ["Key", keyText(t.KeySchema, t.AttributeDefinitions)],
    ["Items", String(t.ItemCount)],
    ["Size", bytes(t.TableSizeBytes)],
    ["Billing mode", onDemand(t) ? "PAY_PER_REQUEST (on demand)" : "PROVISIONED"],
    onDemand(t) ? ["On-demand throughput", throughputText(true, null, t.OnDemandThroughput) || "no maximum"]
      : ["Provisioned throughput", throughputText(false, t.ProvisionedThroughput)],
    ["Stream", t.StreamSpecification?.StreamEnabled ? `${t.StreamSpecification.StreamViewType} ${t.LatestStreamArn || ""}` : "off"],
    ["Time to Live", tt],
    ["Created", t.CreationDateTime ? new Date(t.CreationDateTime * 1000).toISOString() : ""],
    ["ARN", t.TableArn],
  ];
  return h("table", { class: "kv", id: "table-summary" }, rows.map(([k, v]) => h("tr", {}, h("th", {}, k), h("td", {}, v))));
}

// dropButton deletes a GSI (UpdateTable), after a second click.
function dropButton(t, ix, reload, out) {
  const b = h("button", {
    class: "link drop-index", "data-index": ix.IndexName, onclick: async () => {
      if (!b.dataset.armed) {
        b.dataset.armed = "1";
        b.textContent = `drop ${ix.IndexName}? click again`;
        return;
      }
      try {
        await ddb("UpdateTable", { TableName: t.TableName, GlobalSecondaryIndexUpdates: [{ Delete: { IndexName: ix.IndexName } }] });
        reload();
      } catch (e) {
        fill(out, errorBox(e));
      }
    },
  }, "drop");
  return b;
}

function indexTable(t, reload) {
  const out = h("div", {});
  const ixs = [
    ...(t.GlobalSecondaryIndexes || []).map((g) => ({ ...g, kind: "GSI" })),
    ...(t.LocalSecondaryIndexes || []).map((l) => ({ ...l, kind: "LSI", IndexStatus: "ACTIVE" })),
  ];
  if (ixs.length === 0) return h("p", {}, "No secondary indexes.");
  return [h("table", { class: "grid", id: "indexes" },
    h("thead", {}, h("tr", {}, ["Index", "Kind", "Key", "Projection", "Status", "Backfilling", "Items", "Size", "Throughput", ""].map((c) => h("th", {}, c)))),
    h("tbody", {}, ixs.map((ix) => h("tr", {},
      h("td", {}, ix.IndexName), h("td", {}, ix.kind),
      h("td", {}, keyText(ix.KeySchema, t.AttributeDefinitions)),
      h("td", {}, ix.Projection?.ProjectionType + (ix.Projection?.NonKeyAttributes ? ` (${ix.Projection.NonKeyAttributes.join(", ")})` : "")),
      h("td", {}, ix.IndexStatus || ""), h("td", {}, ix.Backfilling ? "yes" : "no"),
      h("td", { class: "num" }, ix.Backfilling ? `${ix.ItemCount ?? 0} so far, of at most ${t.ItemCount}` : String(ix.ItemCount ?? "")),
      h("td", { class: "num" }, bytes(ix.IndexSizeBytes)),
      h("td", { class: "throughput" }, ix.kind === "LSI" ? "the table's" : throughputText(onDemand(t), ix.ProvisionedThroughput, ix.OnDemandThroughput) || "no maximum"),
      h("td", {}, ix.kind === "GSI" && ix.IndexStatus === "ACTIVE" ? dropButton(t, ix, reload, out) : null))))), out];
}

function deleteBox(name, nav) {
  const out = h("div", {});
  const confirmInput = h("input", { id: "delete-confirm", placeholder: name });
  return h("div", { class: "card danger" },
    h("h3", {}, "Delete this table"),
    h("p", {}, "Type the table's name to confirm. Its items, indexes and stream go with it; its backups stay."),
    confirmInput,
    h("button", {
      id: "delete-table", class: "danger", onclick: async () => {
        if (confirmInput.value !== name) {
          fill(out, errorBox("The name typed does not match the table's."));
          return;
        }
        try {
          await ddb("DeleteTable", { TableName: name });
          nav("#tables");
        } catch (e) {
          fill(out, errorBox(e));
        }
      },
    }, "Delete"), out);
}
