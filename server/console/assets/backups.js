// The Backups section of a table's page: the table's on-demand backups
// (ListBackups, DescribeBackup), creating, restoring and deleting one
// (CreateBackup, RestoreTableFromBackup, DeleteBackup), and point-in-time
// recovery (DescribeContinuousBackups, UpdateContinuousBackups,
// RestoreTableToPointInTime), and exports to S3 (ExportTableToPointInTime,
// ListExports, DescribeExport). Every action is the API's call; a refusal
// shows DynamoDB's error as it came.

import { ddb } from "./api.js";
import { h, fill, errorBox, field, bytes, select } from "./dom.js";

// isoTime renders a DynamoDB timestamp (epoch seconds) in UTC.
export function isoTime(sec) {
  if (sec === undefined || sec === null) return "";
  return new Date(Number(sec) * 1000).toISOString();
}

// parseTime reads a time typed in ISO 8601 into epoch seconds (with
// milliseconds, as the API takes them). Without an offset or "Z" the time
// is UTC, as the page shows times. It throws on anything else.
export function parseTime(text) {
  let s = text.trim();
  if (/^\d{4}-\d\d-\d\d[T ]\d\d:\d\d(:\d\d(\.\d+)?)?$/.test(s)) s += "Z";
  const ms = /^\d{4}-\d\d-\d\d[T ]\d\d:\d\d/.test(s) ? Date.parse(s.replace(" ", "T")) : NaN;
  if (Number.isNaN(ms)) throw new Error(`Not a time: "${text}". Write it as 2026-12-07T12:00:00Z.`);
  return ms / 1000;
}

// listBackups returns the table's backups, following ListBackups' pages.
async function listBackups(name) {
  const all = [];
  let start;
  do {
    const req = { TableName: name };
    if (start) req.ExclusiveStartBackupArn = start;
    const out = await ddb("ListBackups", req);
    all.push(...(out.BackupSummaries || []));
    start = out.LastEvaluatedBackupArn;
  } while (start);
  return all;
}

// backupsBox is the section; it loads itself and keeps itself current
// (every second while a backup is being copied or a restore runs) until
// the page is left.
export function backupsBox(name, onLeave) {
  const list = h("div", { id: "backup-list" }, "Loading…");
  const restores = h("ul", { id: "restores" });
  const out = h("div", {});
  const pitr = h("div", { id: "pitr" }, "Loading…");
  const nameInput = h("input", { id: "backup-name", placeholder: `${name}-backup` });
  const bucketInput = h("input", { id: "export-bucket", placeholder: "bucket" });
  const prefixInput = h("input", { id: "export-prefix", placeholder: "prefix" });
  const formatSel = select([["DYNAMODB_JSON", "DynamoDB JSON"], ["ION", "Amazon Ion"]], "DYNAMODB_JSON", { id: "export-format" });
  const exportAt = h("input", { id: "export-time", placeholder: "now", size: 26 });
  const exportButton = h("button", { id: "export-table", onclick: () => startExport() }, "Export to S3");
  const exportHint = h("p", { id: "export-hint", class: "hint" });
  const exportOut = h("div", { id: "export-out" });
  const exportList = h("div", { id: "export-list" }, "Loading…");
  const box = h("div", { class: "card", id: "backups" },
    h("h3", {}, "Backups"),
    h("div", { class: "row" },
      field("Backup name", nameInput, "letters, digits, _ - and ."),
      h("button", { id: "create-backup", onclick: () => create() }, "Create backup")),
    out, list, restores,
    h("h3", {}, "Point-in-time recovery"), pitr,
    h("h3", {}, "Exports to S3"),
    h("div", { class: "row", id: "export-form" },
      field("S3 bucket", bucketInput),
      field("Prefix", prefixInput, "optional"),
      field("Format", formatSel),
      field("Export time", exportAt, "UTC, ISO 8601, within the window; empty: now"),
      exportButton),
    exportHint, exportOut, exportList);

  let stopped = false;
  const timers = new Set();
  onLeave(() => {
    stopped = true;
    timers.forEach(clearTimeout);
  });
  const later = (fn) => {
    if (stopped || !box.isConnected) return;
    const id = setTimeout(() => { timers.delete(id); fn(); }, 1000);
    timers.add(id);
  };

  const create = async () => {
    const backupName = nameInput.value.trim();
    try {
      await ddb("CreateBackup", { TableName: name, BackupName: backupName });
      fill(out);
      nameInput.value = "";
      await load();
    } catch (e) {
      fill(out, errorBox(e));
    }
  };

  // load lists the backups, with each available one's item count from
  // DescribeBackup: ListBackups' BackupSummary has no item count, and
  // SourceTableDetails.ItemCount is the table's "when the backup was
  // created" (DynamoDB API Reference, SourceTableDetails).
  let loadTimer = false;
  const load = async () => {
    try {
      const backups = await listBackups(name);
      backups.sort((a, b) => b.BackupCreationDateTime - a.BackupCreationDateTime);
      const counts = await Promise.all(backups.map((b) => b.BackupStatus !== "AVAILABLE" ? null
        : ddb("DescribeBackup", { BackupArn: b.BackupArn })
          .then((d) => d.BackupDescription?.SourceTableDetails?.ItemCount)
          .catch(() => null)));
      fill(list, backups.length === 0 ? h("p", {}, "No backups of this table.") : backupTable(backups, counts));
      if (backups.some((b) => b.BackupStatus === "CREATING") && !loadTimer) {
        loadTimer = true;
        later(() => { loadTimer = false; load(); });
      }
    } catch (e) {
      fill(list, errorBox(e));
    }
  };

  const backupTable = (backups, counts) => h("table", { class: "grid", id: "backup-table" },
    h("thead", {}, h("tr", {}, ["Backup", "Status", "Created", "Size", "Items", ""].map((c) => h("th", {}, c)))),
    h("tbody", {}, backups.map((b, i) => h("tr", { "data-backup": b.BackupName },
      h("td", { title: b.BackupArn }, b.BackupName),
      h("td", { class: "backup-status" }, b.BackupStatus),
      h("td", {}, isoTime(b.BackupCreationDateTime)),
      h("td", { class: "num" }, b.BackupSizeBytes === undefined ? "" : bytes(b.BackupSizeBytes)),
      h("td", { class: "num backup-items" }, counts[i] === null || counts[i] === undefined ? "" : String(counts[i])),
      h("td", {}, b.BackupStatus === "AVAILABLE" ? restoreForm(b) : null, " ", deleteButton(b))))));

  // restoreForm asks the new table's name, then restores the backup into it.
  const restoreForm = (b) => {
    const target = h("input", { class: "restore-target", placeholder: "new table name", hidden: true });
    const go = h("button", { class: "restore-go", hidden: true }, "Restore");
    const open = h("button", { class: "link restore-backup", onclick: () => {
      open.hidden = true;
      target.hidden = false;
      go.hidden = false;
      target.focus();
    } }, "Restore to new table");
    go.addEventListener("click", async () => {
      const req = { BackupArn: b.BackupArn, TargetTableName: target.value.trim() };
      try {
        const d = (await ddb("RestoreTableFromBackup", req)).TableDescription;
        fill(out);
        target.value = "";
        target.hidden = go.hidden = true;
        open.hidden = false;
        follow(req.TargetTableName, `backup ${b.BackupName}`, d?.TableStatus);
      } catch (e) {
        fill(out, errorBox(e));
      }
    });
    return h("span", { class: "restore" }, open, target, go);
  };

  // deleteButton deletes a backup, after a second click.
  const deleteButton = (b) => {
    const btn = h("button", { class: "link delete-backup", onclick: async () => {
      if (!btn.dataset.armed) {
        btn.dataset.armed = "1";
        btn.textContent = `delete ${b.BackupName}? click again`;
        return;
      }
      try {
        await ddb("DeleteBackup", { BackupArn: b.BackupArn });
        fill(out);
        await load();
      } catch (e) {
        fill(out, errorBox(e));
      }
    } }, "delete");
    return btn;
  };

  // follow shows a restored table, CREATING (as the restore answered)
  // until its items are in and its indexes built, then ACTIVE with its
  // item count.
  const follow = (table, from, status) => {
    const state = h("span", { class: "restore-status" }, status || "CREATING");
    const li = h("li", { "data-table": table },
      "Table ", h("a", { class: "mono", href: `#table/${encodeURIComponent(table)}` }, table), `, restored from ${from}: `, state);
    restores.prepend(li);
    const poll = async () => {
      try {
        const t = (await ddb("DescribeTable", { TableName: table })).Table;
        fill(state, t.TableStatus === "ACTIVE" ? `ACTIVE, ${t.ItemCount} items` : t.TableStatus);
        if (t.TableStatus !== "ACTIVE") later(poll);
      } catch (e) {
        fill(state, errorBox(e));
      }
    };
    later(poll);
  };

  // loadPITR shows point-in-time recovery: off, or on with its window.
  const loadPITR = async () => {
    let d;
    try {
      d = (await ddb("DescribeContinuousBackups", { TableName: name })).ContinuousBackupsDescription;
    } catch (e) {
      fill(pitr, errorBox(e));
      return;
    }
    const p = d.PointInTimeRecoveryDescription || {};
    const on = p.PointInTimeRecoveryStatus === "ENABLED";
    pitrKnown(on);
    const pout = h("div", {});
    const days = h("input", { id: "pitr-days", type: "number", min: 1, max: 35, value: String(p.RecoveryPeriodInDays || 35) });
    const update = async (spec) => {
      try {
        await ddb("UpdateContinuousBackups", { TableName: name, PointInTimeRecoverySpecification: spec });
        await loadPITR();
      } catch (e) {
        fill(pout, errorBox(e));
      }
    };
    if (!on) {
      fill(pitr, h("p", { id: "pitr-state" }, "Point-in-time recovery: off."),
        h("div", { class: "row" },
          field("Recovery period (days)", days, "1 to 35"),
          h("button", { id: "pitr-toggle", onclick: () => update({ PointInTimeRecoveryEnabled: true, RecoveryPeriodInDays: Number(days.value) }) }, "Turn on")),
        pout);
      return;
    }
    const off = h("button", { id: "pitr-toggle", class: "danger", onclick: () => {
      if (!off.dataset.armed) {
        off.dataset.armed = "1";
        off.textContent = "Turn off? The window is lost. Click again";
        return;
      }
      update({ PointInTimeRecoveryEnabled: false });
    } }, "Turn off");
    const latest = isoTime(p.LatestRestorableDateTime);
    const at = h("input", { id: "pitr-time", value: latest, size: 26 });
    const target = h("input", { id: "pitr-target", placeholder: "new table name" });
    const restore = async () => {
      let req;
      try {
        req = { SourceTableName: name, TargetTableName: target.value.trim(), RestoreDateTime: parseTime(at.value) };
      } catch (e) {
        fill(pout, errorBox(e));
        return;
      }
      try {
        const d = (await ddb("RestoreTableToPointInTime", req)).TableDescription;
        fill(pout);
        follow(req.TargetTableName, `this table as it was at ${isoTime(req.RestoreDateTime)}`, d?.TableStatus);
      } catch (e) {
        fill(pout, errorBox(e));
      }
    };
    fill(pitr,
      h("p", { id: "pitr-state" }, `Point-in-time recovery: on, a period of ${p.RecoveryPeriodInDays} days. `,
        p.EarliestRestorableDateTime === undefined ? "No restorable time yet."
          : h("span", { id: "pitr-window" }, `Restorable from ${isoTime(p.EarliestRestorableDateTime)} to ${latest}.`)),
      h("div", { class: "row" },
        h("button", { id: "pitr-refresh", onclick: () => loadPITR() }, "Refresh the window"),
        field("Recovery period (days)", days, "1 to 35"),
        h("button", { id: "pitr-period", onclick: () => update({ PointInTimeRecoveryEnabled: true, RecoveryPeriodInDays: Number(days.value) }) }, "Change the period"),
        off),
      h("div", { class: "row", id: "pitr-restore-form" },
        field("Restore the table as it was at", at, "UTC, ISO 8601, within the window"),
        field("New table name", target),
        h("button", { id: "pitr-restore", onclick: restore }, "Restore to a point in time")),
      pout);
  };

  // pitrKnown tells the export form whether point-in-time recovery is on:
  // an export needs it (DynamoDB API Reference, ExportTableToPointInTime:
  // PointInTimeRecoveryUnavailableException). The button stays usable, so
  // that a call made anyway shows the API's refusal.
  const pitrKnown = (on) => {
    exportButton.title = on ? "" : "Exports need point-in-time recovery";
    fill(exportHint, on ? "" : "Exports need point-in-time recovery: turn it on above to export this table.");
  };

  // tableArn is the table's ARN, which the export calls take.
  let arn;
  const tableArn = async () => {
    if (!arn) arn = (await ddb("DescribeTable", { TableName: name })).Table.TableArn;
    return arn;
  };

  const startExport = async () => {
    let req;
    try {
      req = { TableArn: await tableArn(), S3Bucket: bucketInput.value.trim(), ExportFormat: formatSel.value };
      const prefix = prefixInput.value.trim();
      if (prefix) req.S3Prefix = prefix;
      if (exportAt.value.trim()) req.ExportTime = parseTime(exportAt.value);
    } catch (e) {
      fill(exportOut, errorBox(e));
      return;
    }
    try {
      await ddb("ExportTableToPointInTime", req);
      fill(exportOut);
      await loadExports();
    } catch (e) {
      fill(exportOut, errorBox(e));
    }
  };

  // loadExports lists the table's exports (ListExports for its ARN, its
  // pages followed), each with DescribeExport's details, newest first; it
  // reads them again every second while one is IN_PROGRESS.
  let exportTimer = false;
  const loadExports = async () => {
    try {
      const table = await tableArn();
      const sums = [];
      let token;
      do {
        const req = { TableArn: table };
        if (token) req.NextToken = token;
        const out = await ddb("ListExports", req);
        sums.push(...(out.ExportSummaries || []));
        token = out.NextToken;
      } while (token);
      const descs = await Promise.all(sums.map((x) => ddb("DescribeExport", { ExportArn: x.ExportArn })
        .then((d) => d.ExportDescription)
        .catch(() => ({ ExportArn: x.ExportArn, ExportStatus: x.ExportStatus }))));
      descs.sort((a, b) => (b.StartTime || 0) - (a.StartTime || 0));
      fill(exportList, descs.length === 0 ? h("p", {}, "No exports of this table.") : exportTable(descs));
      if (descs.some((d) => d.ExportStatus === "IN_PROGRESS") && !exportTimer) {
        exportTimer = true;
        later(() => { exportTimer = false; loadExports(); });
      }
    } catch (e) {
      fill(exportList, errorBox(e));
    }
  };

  const exportTable = (descs) => h("table", { class: "grid", id: "exports" },
    h("thead", {}, h("tr", {}, ["Export", "Status", "Export time", "Format", "Destination", "Items", "Manifest", "Failure"].map((c) => h("th", {}, c)))),
    h("tbody", {}, descs.map((d) => {
      const id = d.ExportArn.slice(d.ExportArn.lastIndexOf("/") + 1);
      return h("tr", { "data-export": id },
        h("td", { class: "mono", title: d.ExportArn }, id),
        h("td", { class: "export-status" }, d.ExportStatus),
        h("td", { class: "export-time" }, isoTime(d.ExportTime)),
        h("td", {}, d.ExportFormat || ""),
        h("td", { class: "mono" }, d.S3Bucket ? `s3://${d.S3Bucket}/${d.S3Prefix || ""}` : ""),
        h("td", { class: "num export-items" }, d.ItemCount === undefined || d.ExportStatus !== "COMPLETED" ? "" : String(d.ItemCount)),
        h("td", { class: "mono export-manifest" }, d.ExportManifest || ""),
        h("td", { class: "export-failure" }, d.FailureCode || d.FailureMessage ? `${d.FailureCode || ""}${d.FailureCode && d.FailureMessage ? ": " : ""}${d.FailureMessage || ""}` : ""));
    })));

  load();
  loadPITR();
  loadExports();
  return box;
}
