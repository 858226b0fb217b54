// The Items screen: browse a table (or one partition) a page at a time,
// and view, edit, put and delete an item as DynamoDB JSON or plain JSON.

import { ddb } from "./api.js";
import { h, fill, errorBox, select } from "./dom.js";
import * as av from "./av.js";
import { describe } from "./tables.js";

// itemGrid renders items as a table: key attributes first, then the others
// in the order first seen (at most maxCols columns).
export function itemGrid(items, keyNames, onPick, maxCols = 10) {
  const cols = [...keyNames];
  for (const it of items) {
    for (const k of Object.keys(it)) if (!cols.includes(k)) cols.push(k);
  }
  const shown = cols.slice(0, maxCols);
  return h("table", { class: "grid items" },
    h("thead", {}, h("tr", {}, shown.map((c) => h("th", { class: keyNames.includes(c) ? "key" : "" }, c)),
      cols.length > shown.length ? h("th", {}, `+${cols.length - shown.length}`) : null)),
    h("tbody", {}, items.map((it) => h("tr", { class: onPick ? "pick" : "", onclick: onPick ? () => onPick(it) : null },
      shown.map((c) => h("td", {}, av.short(it[c])))))));
}

// editor is an item editor with a DynamoDB JSON / plain JSON toggle. It
// returns the element and a function reading the item (DynamoDB JSON) back.
export function editor(item) {
  let mode = "ddb";
  const text = h("textarea", { id: "item-text", rows: 14, spellcheck: "false" });
  const err = h("div", {});
  const render = (it) => {
    text.value = mode === "ddb" ? av.stringifyItem(it) : av.stringify(av.itemToPlain(it));
  };
  const read = () => {
    const parsed = av.parseJSON(text.value);
    if (mode === "plain") return av.itemFromPlain(parsed);
    const it = av.unNum(parsed);
    if (!it || typeof it !== "object" || Array.isArray(it)) throw new SyntaxError("an item must be a JSON object");
    return it;
  };
  const modeSel = select([["ddb", "DynamoDB JSON"], ["plain", "plain JSON"]], mode, {
    id: "item-mode", onchange: () => {
      let it;
      try {
        it = read();
      } catch (e) {
        modeSel.value = mode;
        fill(err, errorBox(e));
        return;
      }
      fill(err);
      mode = modeSel.value;
      render(it);
    },
  });
  render(item);
  const el = h("div", { class: "editor" }, h("div", { class: "row" }, h("span", {}, "View as "), modeSel,
    h("small", { class: "hint" }, "plain JSON: numbers are N, strings S; B, SS, NS and BS stay {\"B\": …}, {\"SS\": […]}")), text, err);
  return { el, read, showError: (e) => fill(err, errorBox(e)) };
}

export async function itemsView(root, name) {
  const grid = h("div", {});
  const pager = h("div", { class: "row pager" });
  const filterRow = h("div", {});
  const side = h("div", { class: "card", id: "item-panel" });
  fill(root, h("h2", {}, "Items of ", h("a", { class: "mono", href: `#table/${encodeURIComponent(name)}` }, name)),
    h("div", { class: "split" }, h("div", {}, filterRow, pager, grid), side));
  let t;
  try {
    t = await describe(name);
  } catch (e) {
    fill(grid, errorBox(e));
    return;
  }
  const keyNames = t.KeySchema.map((k) => k.AttributeName);
  const starts = [undefined]; // ExclusiveStartKey of each page seen
  let page = 0;
  let last;
  const limitSel = select(["10", "25", "50", "100"], "25", { id: "page-size" });

  const showItem = (item, isNew) => {
    const ed = editor(item);
    const out = h("div", {});
    fill(side, h("h3", {}, isNew ? "New item" : "Item"), ed.el,
      h("div", { class: "row" },
        h("button", {
          class: "primary", id: "put-item", onclick: async () => {
            try {
              const it = ed.read();
              await ddb("PutItem", { TableName: name, Item: it });
              fill(out, h("div", { class: "ok" }, "Saved."));
              await load();
            } catch (e) {
              ed.showError(e);
            }
          },
        }, "Put item"),
        isNew ? null : h("button", {
          class: "danger", id: "delete-item", onclick: async () => {
            try {
              const it = ed.read();
              const key = Object.fromEntries(keyNames.map((k) => [k, it[k]]));
              await ddb("DeleteItem", { TableName: name, Key: key });
              fill(side, h("div", { class: "ok" }, "Deleted."));
              await load();
            } catch (e) {
              ed.showError(e);
            }
          },
        }, "Delete item")), out);
  };

  // A partition key value narrows the browsing to a Query of that
  // partition; empty, it is a Scan of the table.
  const hashKey = t.KeySchema.find((k) => k.KeyType === "HASH").AttributeName;
  const partition = h("input", { id: "items-partition", placeholder: `${hashKey} (${typeOf(t, hashKey)})` });
  let pinned = "";
  const restart = () => { page = 0; starts.length = 1; load(); };
  filterRow.append(h("form", {
    class: "row", onsubmit: (ev) => { ev.preventDefault(); pinned = partition.value; restart(); },
  }, h("span", {}, `partition ${hashKey} =`), partition, h("button", { id: "items-query" }, "Query the partition"),
  h("button", { type: "button", id: "items-scan", onclick: () => { partition.value = ""; pinned = ""; restart(); } }, "Scan all")));

  const load = async () => {
    const req = { TableName: name, Limit: Number(limitSel.value), ReturnConsumedCapacity: "INDEXES" };
    if (starts[page]) req.ExclusiveStartKey = starts[page];
    const op = pinned ? "Query" : "Scan";
    if (pinned) {
      req.KeyConditionExpression = "#p = :p";
      req.ExpressionAttributeNames = { "#p": hashKey };
      req.ExpressionAttributeValues = { ":p": { [typeOf(t, hashKey)]: pinned } };
    }
    try {
      const out = await ddb(op, req);
      last = out.LastEvaluatedKey;
      starts[page + 1] = last;
      fill(grid, out.Items.length ? itemGrid(out.Items, keyNames, (it) => showItem(it, false)) : h("p", {}, "No items on this page."));
      fill(pager,
        h("button", { id: "prev-page", disabled: page === 0, onclick: () => { page--; load(); } }, "‹ prev"),
        h("span", { id: "page-no" }, `page ${page + 1}`),
        h("button", { id: "next-page", disabled: !last, onclick: () => { page++; load(); } }, "next ›"),
        h("span", {}, " page size "), limitSel,
        h("button", { id: "new-item", onclick: () => showItem(Object.fromEntries(t.KeySchema.map((k) => [k.AttributeName, { [typeOf(t, k.AttributeName)]: "" }])), true) }, "New item"),
        h("small", { id: "items-summary" }, `${op}: ${out.Count} items, ${out.ScannedCount} read, ${out.ConsumedCapacity?.CapacityUnits ?? 0} read units`));
    } catch (e) {
      fill(grid, errorBox(e));
    }
  };
  limitSel.addEventListener("change", restart);
  fill(side, h("p", {}, "Pick an item to view or edit it, or make a new one."));
  await load();
}

function typeOf(t, attr) {
  return t.AttributeDefinitions.find((d) => d.AttributeName === attr)?.AttributeType || "S";
}
