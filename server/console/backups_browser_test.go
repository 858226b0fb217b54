package console_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/dynago/dynago/engine"
	"github.com/dynago/dynago/exports"
	"github.com/dynago/dynago/local"
	"github.com/dynago/dynago/server/console"
)

// TestBrowserBackups: from a table's page, create a backup and see it
// AVAILABLE with the table's item count, restore it to a new table and
// follow that table from CREATING to ACTIVE with the same items; turn
// point-in-time recovery on, see its window, and restore the table as it
// was at a moment of the window and at its latest restorable time; delete
// the backup and turn recovery off. Exports: refused while recovery is off,
// then one of the table now, followed from IN_PROGRESS to COMPLETED, and
// one of the moment in Ion, each with its manifest in the folder standing
// for S3. The engine's clock is moved by the test, so the writes before
// and after the moment chosen are minutes apart.
func TestBrowserBackups(t *testing.T) {
	var offset atomic.Int64 // added to the engine's clock
	// Exports go to a folder standing for S3 (bucket B is its sub-folder
	// B), and the first one waits for the test's word before it writes,
	// so that the page is seen following it while it is IN_PROGRESS.
	s3dir := t.TempDir()
	held := &heldExchange{Exchange: exports.New(exports.Config{Dir: s3dir}), gate: make(chan struct{})}
	db, err := local.Open(local.WithEngineOptions(func(o *engine.Options) {
		o.Now = func() time.Time { return time.Now().Add(time.Duration(offset.Load())) }
		o.Exchange = held
	}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	t.Cleanup(held.release) // before the database closes, whatever happened
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

	// Exports need point-in-time recovery: the page says so, and a call
	// made anyway shows the API's PointInTimeRecoveryUnavailableException
	// (DynamoDB API Reference, ExportTableToPointInTime, Errors: "Point in
	// time recovery has not yet been enabled for this source table").
	p.waitText("#export-list", "No exports of this table.")
	p.waitText("#export-hint", "Exports need point-in-time recovery")
	var desc struct{ Table struct{ TableArn string } }
	json.Unmarshal([]byte(api(t, site.URL, "DescribeTable", `{"TableName": "Music"}`)), &desc)
	arn := desc.Table.TableArn
	wantErr := apiError(t, site.URL, "ExportTableToPointInTime", fmt.Sprintf(`{"TableArn": %q, "S3Bucket": "exports"}`, arn))
	if !strings.HasPrefix(wantErr, "PointInTimeRecoveryUnavailableException: ") {
		t.Errorf("ExportTableToPointInTime without PITR: %q", wantErr)
	}
	p.do("export without PITR", chromedp.SetValue(`#export-bucket`, "exports"), chromedp.Click(`#export-table`))
	if got := p.waitText("#export-out .error", "PointInTimeRecoveryUnavailableException"); got != wantErr {
		t.Errorf("the page shows %q, the API said %q", got, wantErr)
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
	wantErr = apiError(t, site.URL, "CreateBackup", `{"TableName": "Music", "BackupName": "no spaces"}`)
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

	// An export of the table now (four items), from the page. It is
	// IN_PROGRESS until the exchange is let go, and the page, reading it
	// again by itself, then shows it COMPLETED with the four items and its
	// manifest, which is in the folder standing for S3.
	if p.text("#export-hint") != "" {
		t.Errorf("with PITR on, the export hint still reads %q", p.text("#export-hint"))
	}
	p.do("export now", chromedp.SetValue(`#export-bucket`, "exports"), chromedp.SetValue(`#export-prefix`, "music"), chromedp.Click(`#export-table`))
	p.waitText("#exports .export-status", "IN_PROGRESS")
	if got := p.text("#export-out"); got != "" {
		t.Errorf("the export started, but the page shows %q", got)
	}
	first := exportsOf(t, site.URL, arn)
	if len(first) != 1 {
		t.Fatalf("ListExports lists %d exports, want 1", len(first))
	}
	held.release()
	e1 := checkExport(t, p, site.URL, s3dir, first[0], 4)
	if e1.ExportFormat != "DYNAMODB_JSON" || e1.S3Bucket != "exports" || e1.S3Prefix != "music" {
		t.Errorf("the export from the page: format %s, bucket %s, prefix %s", e1.ExportFormat, e1.S3Bucket, e1.S3Prefix)
	}
	// And one in Ion, of the moment chosen above (three items).
	p.choose("#export-format", "ION")
	p.do("export the moment", chromedp.SetValue(`#export-time`, then), chromedp.Click(`#export-table`))
	p.waitJS("a second export listed", `document.querySelectorAll("#exports tbody tr").length === 2`)
	var second string
	for _, a := range exportsOf(t, site.URL, arn) {
		if a != first[0] {
			second = a
		}
	}
	if second == "" {
		t.Fatalf("ListExports lists no second export")
	}
	e2 := checkExport(t, p, site.URL, s3dir, second, 3)
	thenT, _ := time.Parse(time.RFC3339Nano, then)
	if e2.ExportFormat != "ION" || int64(math.Round(e2.ExportTime*1000)) != thenT.UnixMilli() {
		t.Errorf("the export of the moment: format %s, time %v, want ION at %s", e2.ExportFormat, e2.ExportTime, then)
	}
	if got := p.text(exportRow(second) + " .export-time"); got != then {
		t.Errorf("the export of the moment shows the time %q, want %q", got, then)
	}
	p.screenshot("backups")
	// A time that is not one is refused before any call.
	p.do("export at no time", chromedp.SetValue(`#export-time`, "yesterday"), chromedp.Click(`#export-table`))
	p.waitText("#export-out .error", `Not a time: "yesterday"`)
	if got := len(exportsOf(t, site.URL, arn)); got != 2 {
		t.Errorf("ListExports lists %d exports, want 2", got)
	}

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

// heldExchange is an exchange whose exports wait until release.
type heldExchange struct {
	engine.Exchange
	gate chan struct{}
	once sync.Once
}

func (x *heldExchange) BeginExport(ctx context.Context, job engine.ExportJob) (engine.ExportSink, error) {
	<-x.gate
	return x.Exchange.BeginExport(ctx, job)
}

func (x *heldExchange) release() { x.once.Do(func() { close(x.gate) }) }

// exportDesc is what the test reads of DescribeExport.
type exportDesc struct {
	ExportArn, ExportStatus, ExportFormat, S3Bucket, S3Prefix, ExportManifest string
	ExportTime                                                                float64
	ItemCount                                                                 int64
}

// exportsOf is the ARNs of the table's exports, as ListExports gives them.
func exportsOf(t *testing.T, url, tableArn string) []string {
	t.Helper()
	var out struct{ ExportSummaries []struct{ ExportArn string } }
	json.Unmarshal([]byte(api(t, url, "ListExports", fmt.Sprintf(`{"TableArn": %q}`, tableArn))), &out)
	var arns []string
	for _, s := range out.ExportSummaries {
		arns = append(arns, s.ExportArn)
	}
	return arns
}

// exportRow is the selector of an export's row on the page.
func exportRow(exportArn string) string {
	return fmt.Sprintf("#exports tr[data-export=%q]", exportArn[strings.LastIndex(exportArn, "/")+1:])
}

// checkExport waits for the page to show the export COMPLETED with items
// items, checks the page's row against DescribeExport, and that the
// manifest it names is in the folder standing for S3 and counts the items.
func checkExport(t *testing.T, p *page, url, s3dir, exportArn string, items int64) exportDesc {
	t.Helper()
	row := exportRow(exportArn)
	p.waitText(row+" .export-status", "COMPLETED")
	var out struct{ ExportDescription exportDesc }
	json.Unmarshal([]byte(api(t, url, "DescribeExport", fmt.Sprintf(`{"ExportArn": %q}`, exportArn))), &out)
	d := out.ExportDescription
	if d.ExportStatus != "COMPLETED" || d.ItemCount != items {
		t.Errorf("DescribeExport: %s with %d items, want COMPLETED with %d", d.ExportStatus, d.ItemCount, items)
	}
	if got := p.text(row + " .export-items"); got != fmt.Sprint(items) {
		t.Errorf("the page shows %q items, want %d", got, items)
	}
	if got := p.text(row + " .export-manifest"); got != d.ExportManifest || !strings.HasSuffix(got, "/manifest-summary.json") {
		t.Errorf("the page shows the manifest %q, DescribeExport says %q", got, d.ExportManifest)
	}
	if got := p.text(row + " .export-failure"); got != "" {
		t.Errorf("the completed export shows a failure: %q", got)
	}
	raw, err := os.ReadFile(filepath.Join(s3dir, d.S3Bucket, filepath.FromSlash(d.ExportManifest)))
	if err != nil {
		t.Fatalf("the export's manifest: %v", err)
	}
	var sum struct{ ItemCount int64 }
	if err := json.Unmarshal(raw, &sum); err != nil || sum.ItemCount != items {
		t.Errorf("the manifest %s counts %d items (%v), want %d", d.ExportManifest, sum.ItemCount, err, items)
	}
	return d
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
