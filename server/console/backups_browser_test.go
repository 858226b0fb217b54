package console_test

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/dynago/dynago/engine"
	"github.com/dynago/dynago/local"
	"github.com/dynago/dynago/server/console"
)

// TestBrowserBackups: from a table's page, create a backup and see it
// AVAILABLE with the table's item count, restore it to a new table and
// follow that table from CREATING to ACTIVE with the same items; turn
// point-in-time recovery on, see its window, and restore the table as it
// was at a moment of the window and at its latest restorable time; delete
// the backup and turn recovery off. The engine's clock is moved by the test, so the writes
// before and after the moment chosen are minutes apart.
func TestBrowserBackups(t *testing.T) {
	var offset atomic.Int64 // added to the engine's clock
	db, err := local.Open(local.WithEngineOptions(func(o *engine.Options) {
		o.Now = func() time.Time { return time.Now().Add(time.Duration(offset.Load())) }
	}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	site := httptest.NewServer(console.With(db.Handler(), console.Options{}))
	t.Cleanup(site.Close)
	api(t, site.URL, "CreateTable", `{"TableName": "Music", "BillingMode": "PAY_PER_REQUEST",
		"AttributeDefinitions": [{"AttributeName": "id", "AttributeType": "S"}, {"AttributeName": "artist", "AttributeType": "S"}],
		"KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}],
		"GlobalSecondaryIndexes": [{"IndexName": "byArtist", "Projection": {"ProjectionType": "ALL"},
			"KeySchema": [{"AttributeName": "artist", "KeyType": "HASH"}]}]}`)
	for i := range 3 {
		api(t, site.URL, "PutItem", fmt.Sprintf(`{"TableName": "Music", "Item": {"id": {"S": "s%d"}, "artist": {"S": "a%d"}}}`, i, i%2))
	}
	p := startBrowser(t, site.URL)
	p.go_("#table/Music")
	p.waitText("#backup-list", "No backups of this table.")
	p.waitText("#pitr-state", "Point-in-time recovery: off.")
	if !eval[bool](p, `document.querySelector("#export-table").disabled`) {
		t.Errorf("the export button is enabled, but ExportTableToPointInTime is not served")
	}

	// A backup, from the page: AVAILABLE, with the table's three items.
	p.do("create a backup", chromedp.SetValue(`#backup-name`, "first"), chromedp.Click(`#create-backup`))
	row := `#backup-table tr[data-backup=first]`
	p.waitJS("the backup available", fmt.Sprintf(`/^first\tAVAILABLE\t\d{4}-.*\t3\t/.test(document.querySelector(%q)?.innerText || "")`, row))
	var list struct {
		BackupSummaries []struct{ BackupName, BackupStatus string }
	}
	json.Unmarshal([]byte(api(t, site.URL, "ListBackups", `{"TableName": "Music"}`)), &list)
	if fmt.Sprint(list.BackupSummaries) != "[{first AVAILABLE}]" {
		t.Errorf("ListBackups says %v", list.BackupSummaries)
	}

	// A name the API refuses is shown in its words.
	wantErr := apiError(t, site.URL, "CreateBackup", `{"TableName": "Music", "BackupName": "no spaces"}`)
	p.do("create a backup with a bad name", chromedp.SetValue(`#backup-name`, "no spaces"), chromedp.Click(`#create-backup`))
	if got := p.waitText("#backups .error", "ValidationException"); got != wantErr {
		t.Errorf("the page shows %q, the API said %q", got, wantErr)
	}
	eval[bool](p, `(document.querySelector("#backup-name").value = "", true)`)

	// Restore it to a new table: the page shows it CREATING, as the
	// restore answers, then ACTIVE with the backup's items.
	eval[bool](p, `(() => {
		window.restoreStates = [];
		new MutationObserver(() => {
			const s = document.querySelector("#restores li[data-table=Music-copy] .restore-status");
			if (s && restoreStates[restoreStates.length - 1] !== s.innerText) restoreStates.push(s.innerText);
		}).observe(document.querySelector("#restores"), {subtree: true, childList: true, characterData: true});
		return true;
	})()`)
	p.do("restore the backup",
		chromedp.Click(row+` .restore-backup`),
		chromedp.SetValue(row+` .restore-target`, "Music-copy"),
		chromedp.Click(row+` .restore-go`))
	p.waitText(`#restores li[data-table=Music-copy]`, "ACTIVE, 3 items")
	if states := eval[[]string](p, `restoreStates`); len(states) != 2 || states[0] != "CREATING" || states[1] != "ACTIVE, 3 items" {
		t.Errorf("the restored table went through %q, want CREATING then ACTIVE, 3 items", states)
	}
	if href := eval[string](p, `document.querySelector("#restores li[data-table=Music-copy] a").getAttribute("href")`); href != "#table/Music-copy" {
		t.Errorf("the restored table links to %q", href)
	}
	if got := count(t, site.URL, "Music-copy", ""); got != 3 {
		t.Errorf("the restored table holds %d items, want 3", got)
	}
	if got := count(t, site.URL, "Music-copy", "byArtist"); got != 3 {
		t.Errorf("the restored table's index holds %d items, want 3", got)
	}

	// Point-in-time recovery: on, with its window.
	p.do("turn PITR on", chromedp.SetValue(`#pitr-days`, "7"), chromedp.Click(`#pitr-toggle`))
	state := p.waitText("#pitr-state", "on, a period of 7 days")
	var cb struct {
		ContinuousBackupsDescription struct {
			PointInTimeRecoveryDescription struct {
				EarliestRestorableDateTime, LatestRestorableDateTime float64
			}
		}
	}
	json.Unmarshal([]byte(api(t, site.URL, "DescribeContinuousBackups", `{"TableName": "Music"}`)), &cb)
	w := cb.ContinuousBackupsDescription.PointInTimeRecoveryDescription
	iso := func(sec float64) string {
		return time.UnixMilli(int64(sec * 1000)).UTC().Format("2006-01-02T15:04:05.000Z")
	}
	if want := "Restorable from " + iso(w.EarliestRestorableDateTime) + " to "; w.EarliestRestorableDateTime == 0 || !strings.Contains(state, want) {
		t.Errorf("the window shown: %q, want %q (the API's earliest restorable time)", state, want)
	}

	// A minute later a fourth item; two minutes later, restore the table
	// as it was half a minute into the window (three items), and as it is
	// at the latest restorable time the page offers (four).
	offset.Store(int64(time.Minute))
	api(t, site.URL, "PutItem", `{"TableName": "Music", "Item": {"id": {"S": "s3"}, "artist": {"S": "a1"}}}`)
	offset.Store(int64(2 * time.Minute))
	p.do("refresh the window", chromedp.Click(`#pitr-refresh`))
	p.waitJS("the later window", fmt.Sprintf(`(document.querySelector("#pitr-time")?.value || "") > %q`, iso(w.LatestRestorableDateTime+60)))
	p.do("restore to the latest time", chromedp.SetValue(`#pitr-target`, "Music-now"), chromedp.Click(`#pitr-restore`))
	p.waitText(`#restores li[data-table=Music-now]`, "ACTIVE, 4 items")
	then := iso(w.EarliestRestorableDateTime + 30)
	p.do("restore to a moment", chromedp.SetValue(`#pitr-time`, then), chromedp.SetValue(`#pitr-target`, "Music-then"), chromedp.Click(`#pitr-restore`))
	p.waitText(`#restores li[data-table=Music-then]`, "ACTIVE, 3 items")
	if got := p.text(`#restores li[data-table=Music-then]`); !strings.Contains(got, "restored from this table as it was at "+then) {
		t.Errorf("the restore reads %q", got)
	}
	if got := count(t, site.URL, "Music-then", ""); got != 3 {
		t.Errorf("the table restored to %s holds %d items, want 3", then, got)
	}
	p.screenshot("backups")

	// Delete the backup, with a second click.
	p.do("delete the backup", chromedp.Click(row+` .delete-backup`))
	p.waitText(row+` .delete-backup`, "click again")
	p.do("confirm", chromedp.Click(row+` .delete-backup`))
	p.waitText("#backup-list", "No backups of this table.")

	// A time outside the window is refused in the API's words.
	before := iso(w.EarliestRestorableDateTime - 3600)
	p.do("restore to before the window", chromedp.SetValue(`#pitr-time`, before), chromedp.SetValue(`#pitr-target`, "Music-never"), chromedp.Click(`#pitr-restore`))
	p.waitText("#pitr .error", "InvalidRestoreTimeException")
	// And a time that is not one, before any call.
	p.do("restore to no time", chromedp.SetValue(`#pitr-time`, "yesterday"), chromedp.Click(`#pitr-restore`))
	p.waitText("#pitr .error", `Not a time: "yesterday"`)

	// The times the restore form reads: UTC unless an offset is given.
	noon := float64(time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC).Unix())
	for _, c := range []struct {
		text string
		want float64 // 0: refused
	}{
		{"2026-12-07T12:00:00Z", noon},
		{"2026-12-07T12:00:00", noon},
		{" 2026-12-07 12:00:00.250 ", noon + 0.25},
		{"2026-12-07T13:00:00+01:00", noon},
		{"2026-12-07T12:00", noon},
		{"2026-12-07", 0},
		{"noon", 0},
	} {
		got := eval[float64](p, fmt.Sprintf(`import("/console/backups.js").then(m => { try { return m.parseTime(%q); } catch { return 0; } })`, c.text))
		if got != c.want {
			t.Errorf("parseTime(%q) = %v, want %v", c.text, got, c.want)
		}
	}

	// Off again, with a second click.
	p.do("turn PITR off", chromedp.Click(`#pitr-toggle`))
	p.waitText("#pitr-toggle", "Click again")
	p.do("confirm", chromedp.Click(`#pitr-toggle`))
	p.waitText("#pitr-state", "Point-in-time recovery: off.")
}

// count is the number of items a Scan of the table (or one of its indexes)
// finds.
func count(t *testing.T, url, table, index string) int {
	t.Helper()
	req := fmt.Sprintf(`{"TableName": %q, "Select": "COUNT"}`, table)
	if index != "" {
		req = fmt.Sprintf(`{"TableName": %q, "IndexName": %q, "Select": "COUNT"}`, table, index)
	}
	var out struct{ Count int }
	if err := json.Unmarshal([]byte(api(t, url, "Scan", req)), &out); err != nil {
		t.Fatal(err)
	}
	return out.Count
}
