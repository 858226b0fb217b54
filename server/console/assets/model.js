// The modeling toolkit: declare a data model and an access pattern, see
// the plan the toolkit's planner chooses and why, and run it.

import { consoleApi } from "./api.js";
import { h, fill, errorBox, field, units } from "./dom.js";
import { itemGrid } from "./items.js";
import { runPlan } from "./merge.js";
import { addCapacity, newCapacity, capacityLines } from "./query.js";

const example = `{
  "table": "Comments", "sortKey": "GSISK", "tableKeys": ["PK", "SK"],
  "dimensions": [{"name": "product"}, {"name": "language"},
                 {"name": "rating", "values": ["1","2","3","4","5"]}],
  "indexes": [
    {"name": "all", "partitionKey": "GSI4PK", "format": "PRODUCT#{product}"},
    {"name": "byLang", "partitionKey": "GSI2PK", "format": "PRODUCT#{product}/{language}"},
    {"name": "byRating", "partitionKey": "GSI3PK", "format": "PRODUCT#{product}/{rating}"},
    {"name": "byLangAndRating", "partitionKey": "GSIPK", "format": "PRODUCT#{product}/{language}/{rating}"}]
}`;

// parseWhere reads lines of "name=v1,v2".
export function parseWhere(text) {
  const where = {};
  for (const line of text.split("\n").map((s) => s.trim()).filter(Boolean)) {
    const i = line.indexOf("=");
    if (i <= 0) throw new SyntaxError(`want name=value[,value...], got ${JSON.stringify(line)}`);
    const name = line.slice(0, i).trim();
    where[name] = [...(where[name] || []), ...line.slice(i + 1).split(",").map((s) => s.trim()).filter(Boolean)];
  }
  return where;
}

export function modelView(root) {
  const model = h("textarea", { id: "model-json", rows: 12, spellcheck: "false" });
  model.value = localStorage.getItem("dynago.console.model") || example;
  const where = h("textarea", { id: "model-where", rows: 3, spellcheck: "false", placeholder: "product=42\nrating=4,5" });
  const size = h("input", { id: "model-size", type: "number", min: 1, value: "20" });
  const out = h("pre", { id: "plan-explain", class: "explain" });
  const result = h("div", { id: "plan-result" });
  let plan = null;
  let parsed = null;

  const doPlan = async () => {
    fill(result);
    try {
      parsed = JSON.parse(model.value);
      localStorage.setItem("dynago.console.model", model.value);
      const a = await consoleApi("plan", { model: parsed, where: parseWhere(where.value), pageSize: Number(size.value) || 20 });
      plan = a.plan;
      fill(out, `PLAN\n${a.explain}\n\n${JSON.stringify(a.plan, null, 2)}`);
    } catch (e) {
      plan = null;
      fill(out);
      fill(result, errorBox(e));
    }
  };

  // run runs the plan a page at a time, as the toolkit's Planner.Run
  // does: parallel Queries merged newest first, and a cursor that resumes
  // each branch exactly where the page left it.
  let cursor = "";
  let pageNo = 0;
  const doRun = async (next) => {
    if (!next || !plan) {
      await doPlan();
      cursor = "";
      pageNo = 0;
    }
    if (!plan) return;
    const acc = newCapacity();
    try {
      const page = await runPlan(parsed, plan, next ? cursor : "", (cc) => addCapacity(acc, cc));
      cursor = page.cursor;
      pageNo++;
      fill(result, h("p", { id: "plan-page" }, `page ${pageNo}: ${page.items.length} items; read ${page.read} in ${page.queries} queries (${units(acc.total)} read units)`),
        h("pre", { class: "explain" }, capacityLines(acc).join("\n")),
        page.items.length ? itemGrid(page.items, [...(parsed.tableKeys || []), parsed.sortKey], null, 10) : null,
        cursor ? h("button", { id: "plan-next", onclick: () => doRun(true) }, "Next page ›") : h("p", {}, "No more pages."));
    } catch (e) {
      fill(result, errorBox(e));
    }
  };

  // The model's access patterns, one a line ("name: dim=v1,v2; dim=v"),
  // planned together: which index serves each, and why.
  const patterns = h("textarea", { id: "model-patterns", rows: 5, spellcheck: "false" });
  patterns.value = localStorage.getItem("dynago.console.patterns") ||
    "newest comments: product=42\nin English: product=42; language=en\ngood ones: product=42; rating=4,5\ngood ones in English: product=42; language=en; rating=4,5";
  const all = h("div", { id: "plan-all" });
  const planAll = async () => {
    let m;
    try {
      m = JSON.parse(model.value);
    } catch (e) {
      fill(all, errorBox(e));
      return;
    }
    localStorage.setItem("dynago.console.patterns", patterns.value);
    const rows = [];
    for (const line of patterns.value.split("\n").map((l) => l.trim()).filter(Boolean)) {
      const colon = line.indexOf(":");
      const name = colon > 0 ? line.slice(0, colon).trim() : line;
      const spec = colon > 0 ? line.slice(colon + 1) : line;
      try {
        const a = await consoleApi("plan", { model: m, where: parseWhere(spec.split(";").join("\n")), pageSize: Number(size.value) || 20 });
        const p = a.plan;
        rows.push(h("tr", {}, h("td", {}, name), h("td", {}, p.Index || "(table)"), h("td", { class: "num" }, String(p.Keys.length)),
          h("td", { class: "num" }, String(p.ExpectedReads)), h("td", {}, a.explain)));
      } catch (e) {
        rows.push(h("tr", {}, h("td", {}, name), h("td", { colspan: 4 }, errorBox(e))));
      }
    }
    fill(all, h("table", { class: "grid" },
      h("thead", {}, h("tr", {}, ["Access pattern", "Index", "Queries", "Reads per page", "Plan"].map((c) => h("th", {}, c)))),
      h("tbody", {}, rows)));
  };

  fill(root, h("h2", {}, "Modeling: access patterns and the planner"),
    h("p", {}, "Declare the table's request dimensions and its indexes (the model \"dynago plan --model\" reads), then an access pattern: the planner picks the index needing no filter and the fewest queries."),
    h("div", { class: "card" }, field("Data model (JSON)", model),
      h("div", { class: "row" }, field("Access pattern, one dimension a line", where), field("Page size", size)),
      h("div", { class: "row" }, h("button", { class: "primary", id: "plan-run", onclick: doPlan }, "Plan"),
        h("button", { id: "plan-exec", onclick: () => doRun(false) }, "Run the plan"))),
    h("div", { class: "split" }, out, result),
    h("div", { class: "card" },
      field("Access patterns, one a line: name: dimension=value[,value]; dimension=value", patterns),
      h("div", { class: "row" }, h("button", { id: "plan-all-run", onclick: planAll }, "Plan them all"))),
    all);
}
