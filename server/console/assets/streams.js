// The Streams screen (live records of a table) and the Time to Live screen
// (settings and the next expiries).

import { ddb, streams } from "./api.js";
import { h, fill, errorBox, field } from "./dom.js";
import * as av from "./av.js";
import { describe } from "./tables.js";

const maxRecords = 200;

export async function streamsView(root, name, onLeave) {
  const status = h("div", { id: "stream-status" });
  const list = h("div", { id: "stream-records" });
  fill(root, h("h2", {}, "Stream of ", h("a", { class: "mono", href: `#table/${encodeURIComponent(name)}` }, name)), status, list);
  let t;
  try {
    t = await describe(name);
  } catch (e) {
    fill(status, errorBox(e));
    return;
  }
  if (!t.StreamSpecification?.StreamEnabled || !t.LatestStreamArn) {
    const view = h("select", {}, ["NEW_AND_OLD_IMAGES", "NEW_IMAGE", "OLD_IMAGE", "KEYS_ONLY"].map((v) => h("option", {}, v)));
    const out = h("div", {});
    fill(status, h("p", {}, "This table has no stream."), view, h("button", {
      id: "enable-stream", onclick: async () => {
        try {
          await ddb("UpdateTable", { TableName: name, StreamSpecification: { StreamEnabled: true, StreamViewType: view.value } });
          streamsView(root, name, onLeave);
        } catch (e) {
          fill(out, errorBox(e));
        }
      },
    }, "Enable the stream"), out);
    return;
  }
  const arn = t.LatestStreamArn;
  const records = [];
  const iterators = new Map(); // shard id -> iterator, or null when read to its end
  const lastSeq = new Map(); // shard id -> sequence number of the last record shown
  let stopped = false;
  let timer;
  onLeave(() => { stopped = true; clearTimeout(timer); });
  let first = true;

  // iterator starts reading a shard: after the last record shown (an
  // iterator expires after 15 minutes and is then taken again), else now
  // for shards open when the view opened, else from the shard's start.
  const iterator = async (shard) => {
    const req = { StreamArn: arn, ShardId: shard, ShardIteratorType: first ? "LATEST" : "TRIM_HORIZON" };
    if (lastSeq.has(shard)) {
      req.ShardIteratorType = "AFTER_SEQUENCE_NUMBER";
      req.SequenceNumber = lastSeq.get(shard);
    }
    return (await streams("GetShardIterator", req)).ShardIterator;
  };

  const poll = async () => {
    try {
      const d = (await streams("DescribeStream", { StreamArn: arn })).StreamDescription;
      for (const s of d.Shards || []) {
        if (iterators.has(s.ShardId)) continue;
        if (first && s.SequenceNumberRange?.EndingSequenceNumber) {
          iterators.set(s.ShardId, null); // closed before the view opened
          continue;
        }
        iterators.set(s.ShardId, await iterator(s.ShardId));
      }
      first = false;
      for (const [shard, it] of iterators) {
        if (!it) continue;
        let out;
        try {
          out = await streams("GetRecords", { ShardIterator: it, Limit: 1000 });
        } catch (e) {
          if (e.type !== "ExpiredIteratorException") throw e;
          iterators.set(shard, await iterator(shard));
          continue;
        }
        iterators.set(shard, out.NextShardIterator || null);
        for (const r of out.Records || []) {
          records.unshift(r);
          lastSeq.set(shard, r.dynamodb.SequenceNumber);
        }
      }
      records.splice(maxRecords);
      fill(status, h("p", {}, `Live: ${d.StreamViewType}, ${(d.Shards || []).length} shards, polled every second. `, h("span", { class: "mono small" }, arn)));
      fill(list, records.length ? recordTable(records) : h("p", {}, "No records since this view opened. Write to the table to see them."));
    } catch (e) {
      fill(status, errorBox(e));
    }
    if (!stopped && root.isConnected) timer = setTimeout(poll, 1000);
  };
  await poll();
}

function image(img) {
  return img ? h("pre", { class: "image" }, av.stringify(av.itemToPlain(img))) : "";
}

function recordTable(records) {
  return h("table", { class: "grid records" },
    h("thead", {}, h("tr", {}, ["Time", "Event", "Keys", "New image", "Old image", "Sequence"].map((c) => h("th", {}, c)))),
    h("tbody", {}, records.map((r) => h("tr", { class: `ev-${r.eventName}` },
      h("td", {}, r.dynamodb?.ApproximateCreationDateTime ? new Date(r.dynamodb.ApproximateCreationDateTime * 1000).toLocaleTimeString() : ""),
      h("td", { class: "event-name" }, r.eventName),
      h("td", {}, Object.entries(r.dynamodb?.Keys || {}).map(([k, v]) => `${k}=${av.short(v)}`).join(", ")),
      h("td", {}, image(r.dynamodb?.NewImage)), h("td", {}, image(r.dynamodb?.OldImage)),
      h("td", { class: "mono small" }, r.dynamodb?.SequenceNumber || "")))));
}

export async function ttlView(root, name) {
  const settings = h("div", { id: "ttl-settings" });
  const next = h("div", { id: "ttl-next" });
  fill(root, h("h2", {}, "Time to Live of ", h("a", { class: "mono", href: `#table/${encodeURIComponent(name)}` }, name)), settings, next);
  const load = async () => {
    let d;
    try {
      d = (await ddb("DescribeTimeToLive", { TableName: name })).TimeToLiveDescription;
    } catch (e) {
      fill(settings, errorBox(e));
      return;
    }
    const on = d.TimeToLiveStatus === "ENABLED" || d.TimeToLiveStatus === "ENABLING";
    const attr = h("input", { id: "ttl-attr", value: d.AttributeName || "", placeholder: "expires" });
    const out = h("div", {});
    fill(settings, h("div", { class: "card" },
      h("p", {}, `Status: ${d.TimeToLiveStatus}${d.AttributeName ? `, attribute ${d.AttributeName}` : ""}`),
      field("Attribute (Number, epoch seconds)", attr),
      h("button", {
        id: "ttl-toggle", onclick: async () => {
          try {
            await ddb("UpdateTimeToLive", { TableName: name, TimeToLiveSpecification: { AttributeName: attr.value.trim(), Enabled: !on } });
            await load();
          } catch (e) {
            fill(out, errorBox(e));
          }
        },
      }, on ? "Disable" : "Enable"), out));
    if (d.AttributeName) await expiries(next, name, d.AttributeName);
    else fill(next);
  };
  await load();
}

// expiries scans for items carrying the TTL attribute (up to 10 pages) and
// shows the nearest expiries first.
async function expiries(el, name, attr) {
  fill(el, "Scanning…");
  const found = [];
  let start;
  let pages = 0;
  try {
    const t = await describe(name);
    const keys = t.KeySchema.map((k) => k.AttributeName);
    const names = { "#t": attr };
    keys.forEach((k, i) => { names[`#k${i}`] = k; });
    do {
      const req = { TableName: name, FilterExpression: "attribute_type(#t, :n)", ExpressionAttributeNames: names, ExpressionAttributeValues: { ":n": { S: "N" } }, ProjectionExpression: ["#t", ...keys.map((_, i) => `#k${i}`)].join(", ") };
      if (start) req.ExclusiveStartKey = start;
      const out = await ddb("Scan", req);
      found.push(...out.Items);
      start = out.LastEvaluatedKey;
      pages++;
    } while (start && pages < 10);
    found.sort((a, b) => Number(a[attr].N) - Number(b[attr].N));
    const now = Date.now() / 1000;
    fill(el, h("h3", {}, `Next expiries (${found.length} items with ${attr}${start ? ", first 10 pages scanned" : ""})`),
      h("table", { class: "grid" }, h("thead", {}, h("tr", {}, ["Key", attr, "When"].map((c) => h("th", {}, c)))),
        h("tbody", {}, found.slice(0, 20).map((it) => {
          const s = Number(it[attr].N);
          return h("tr", {}, h("td", {}, keys.map((k) => `${k}=${av.short(it[k])}`).join(", ")), h("td", { class: "num" }, it[attr].N),
            h("td", {}, `${new Date(s * 1000).toISOString()} (${s <= now ? "expired, awaiting the sweep" : `in ${Math.round(s - now)} s`})`));
        }))));
  } catch (e) {
    fill(el, errorBox(e));
  }
}
