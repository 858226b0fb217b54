// Runs a plan of the toolkit's planner in the page, as toolkit/planner's
// Planner.Run does in Go: one Query per partition key value, newest first,
// merged by the model's sort key, with a cursor that resumes every branch
// exactly after the last item it gave, so paging through yields every
// matching item once, in order, however the pages fall.

import { ddb } from "./api.js";

const enc = new TextEncoder();

function compareBytes(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return a.length - b.length;
}

// decimal splits a DynamoDB number into sign, digits without leading or
// trailing zeros, and the exponent of its first digit.
function decimal(text) {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text.trim());
  if (!m) return { sign: 0, digits: "", exp: 0 };
  let digits = (m[2] || "") + (m[3] || "");
  let exp = (m[2] || "").length + Number(m[4] || 0);
  const lead = digits.length - digits.replace(/^0+/, "").length;
  digits = digits.slice(lead).replace(/0+$/, "");
  exp -= lead;
  if (!digits) return { sign: 0, digits: "", exp: 0 };
  return { sign: m[1] === "-" ? -1 : 1, digits, exp };
}

// compareNumbers orders two number texts exactly, however many digits.
export function compareNumbers(a, b) {
  const x = decimal(a);
  const y = decimal(b);
  if (x.sign !== y.sign) return x.sign < y.sign ? -1 : 1;
  if (x.sign === 0) return 0;
  let c = x.exp !== y.exp ? (x.exp < y.exp ? -1 : 1) : (x.digits < y.digits ? -1 : x.digits > y.digits ? 1 : 0);
  return c * x.sign;
}

function b64(s) {
  return Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
}

// compareKeys orders key values as DynamoDB does: S by UTF-8 bytes, N by
// value, B by bytes.
export function compareKeys(a, b) {
  if (!a || !b) return a ? 1 : b ? -1 : 0;
  if (a.S !== undefined && b.S !== undefined) return compareBytes(enc.encode(a.S), enc.encode(b.S));
  if (a.N !== undefined && b.N !== undefined) return compareNumbers(a.N, b.N);
  if (a.B !== undefined && b.B !== undefined) return compareBytes(b64(a.B), b64(b.B));
  return 0;
}

// firstRound is what the first round of a page asks of each of n
// branches: an even share of the page, plus one to see past it.
function firstRound(pageSize, n) {
  return n <= 1 ? pageSize : Math.ceil(pageSize / n) + 1;
}

function keyOf(item, attrs) {
  const k = {};
  for (const a of attrs) if (item[a] !== undefined) k[a] = item[a];
  return k;
}

// runPlan fetches one page of plan (the planner's answer) on model's
// table, from cursor ("" for the first page). It returns the items, the
// next page's cursor ("" at the end), and what the page read and cost.
export async function runPlan(model, plan, cursor, onCapacity) {
  const branches = plan.Keys.map((key) => ({ key, more: true, start: undefined, origin: undefined, buf: [], last: null, emitted: false }));
  if (cursor) {
    let c;
    try {
      c = JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(cursor), (ch) => ch.charCodeAt(0))));
    } catch {
      throw new Error("malformed cursor");
    }
    if (c.index !== (plan.Index || "") || JSON.stringify(c.keys) !== JSON.stringify(plan.Keys) || c.pos.length !== branches.length) {
      throw new Error("the cursor belongs to another request");
    }
    c.pos.forEach((p, i) => {
      branches[i].more = !p.done;
      branches[i].start = p.last || undefined;
      branches[i].origin = branches[i].start;
    });
  }
  const sk = model.sortKey;
  const keyAttrs = [...new Set([plan.PartitionKey, sk, ...(model.tableKeys || [])])];
  const page = { items: [], queries: 0, read: 0 };
  const fill = async (need) => {
    await Promise.all(branches.filter((b) => b.buf.length === 0 && b.more).map(async (b) => {
      const req = {
        TableName: model.table, Limit: need, ScanIndexForward: false,
        KeyConditionExpression: "#pk = :pk", ExpressionAttributeNames: { "#pk": plan.PartitionKey },
        ExpressionAttributeValues: { ":pk": { S: b.key } }, ReturnConsumedCapacity: "INDEXES",
      };
      if (plan.Index) req.IndexName = plan.Index;
      if (b.start) req.ExclusiveStartKey = b.start;
      const out = await ddb("Query", req);
      page.queries++;
      page.read += out.ScannedCount || 0;
      if (onCapacity) onCapacity(out.ConsumedCapacity);
      b.buf = out.Items || [];
      b.more = !!out.LastEvaluatedKey;
      if (b.more) b.start = out.LastEvaluatedKey;
    }));
  };
  await fill(firstRound(plan.PageSize, branches.length));
  while (page.items.length < plan.PageSize) {
    await fill(plan.PageSize - page.items.length);
    let best = -1;
    branches.forEach((b, i) => {
      if (b.buf.length && (best < 0 || compareKeys(b.buf[0][sk], branches[best].buf[0][sk]) > 0)) best = i;
    });
    if (best < 0) break;
    const b = branches[best];
    const it = b.buf.shift();
    b.last = it;
    b.emitted = true;
    page.items.push(it);
  }
  const pos = branches.map((b) => {
    const done = b.buf.length === 0 && !b.more;
    return done ? { done } : { done, last: b.emitted ? keyOf(b.last, keyAttrs) : b.origin || null };
  });
  const text = JSON.stringify({ index: plan.Index || "", keys: plan.Keys, pos });
  page.cursor = pos.some((p) => !p.done) ? btoa(String.fromCharCode(...enc.encode(text))) : "";
  return page;
}
