package console_test

// The console in a real browser: headless Chromium opens /console/ on a
// server that serves the console beside dynago's API over a fresh
// database, and clicks through creating a table with a multi-attribute
// GSI, putting and editing an item, querying the GSI and reading the
// EXPLAIN, and a validation error in DynamoDB's words.
//
// With DYNAGO_CONSOLE_SCREENSHOTS=<dir> the test also saves screenshots
// of the main screens there (docs/console holds the checked-in ones).

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/dynago/dynago/engine"
	"github.com/dynago/dynago/local"
	"github.com/dynago/dynago/server/console"
)

// page drives one browser tab.
type page struct {
	t   *testing.T
	ctx context.Context
	url string
	dir string // screenshots, "" for none
}

func startBrowser(t *testing.T, url string) *page {
	t.Helper()
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium is not installed (.ci/run installs Debian's chromium package)")
	}
	ctx := launchChromium(t, chromium)
	p := &page{t: t, ctx: ctx, url: url, dir: os.Getenv("DYNAGO_CONSOLE_SCREENSHOTS")}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900), chromedp.Navigate(url+"/console/")); err != nil {
		t.Fatalf("browser: %v", err)
	}
	// Whatever the test does, the page must raise no uncaught error and
	// break no rule of its Content-Security-Policy.
	eval[bool](p, `(() => {
		window.pageProblems = [];
		window.addEventListener("error", (e) => pageProblems.push("error: " + e.message));
		window.addEventListener("unhandledrejection", (e) => pageProblems.push("unhandled rejection: " + e.reason));
		document.addEventListener("securitypolicyviolation", (e) => pageProblems.push("CSP: " + e.violatedDirective + " " + e.blockedURI));
		return true;
	})()`)
	t.Cleanup(func() {
		if problems := eval[[]string](p, `window.pageProblems || ["the page was reloaded"]`); len(problems) > 0 {
			t.Errorf("the page had problems:\n%s", strings.Join(problems, "\n"))
		}
		if t.Failed() {
			p.failureScreenshot()
		}
	})
	return p
}

// failureScreenshot saves what the page shows when its test has failed,
// and names the file in the test's output: in DYNAGO_CONSOLE_SCREENSHOTS
// if set, else in the test's artifact directory (kept with go test
// -artifacts).
func (p *page) failureScreenshot() {
	ctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		p.t.Logf("no screenshot of the failure: %v", err)
		return
	}
	dir := p.dir
	if dir == "" {
		dir = p.t.ArtifactDir()
	}
	name := filepath.Join(dir, "failed-"+strings.NewReplacer("/", "-", " ", "_").Replace(p.t.Name())+".png")
	if err := os.MkdirAll(dir, 0o755); err == nil {
		err = os.WriteFile(name, png, 0o644)
	}
	if err != nil {
		p.t.Logf("no screenshot of the failure: %v", err)
		return
	}
	p.t.Logf("the page at the failure: %s", name)
}

// launchChromium starts headless Chromium for the test, stopped when it
// ends. A browser that exits before it is up (as happens now and then
// when the machine is loaded with other tests' browsers) is started again,
// up to three times; what the test then checks is unchanged.
func launchChromium(t *testing.T, chromium string) context.Context {
	t.Helper()
	var err error
	for attempt := 1; attempt <= 3; attempt++ {
		opts := append(chromedp.DefaultExecAllocatorOptions[:],
			chromedp.ExecPath(chromium),
			chromedp.NoSandbox, // the tests may run as root
			chromedp.DisableGPU,
			chromedp.UserDataDir(t.TempDir()),
			chromedp.WindowSize(1280, 900),
			chromedp.Flag("disable-quic", true),
			chromedp.Flag("disable-component-update", true),
		)
		actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
		ctx, cancelCtx := chromedp.NewContext(actx)
		// The first call starts the browser: no timeout on its context,
		// which would stop the browser with it.
		if err = chromedp.Do(ctx); err == nil {
			t.Cleanup(func() { cancelCtx(); cancelAlloc() })
			return ctx
		}
		cancelCtx()
		cancelAlloc()
		if !strings.Contains(err.Error(), "failed to start") {
			break
		}
		t.Logf("chromium did not start (attempt %d): %v", attempt, err)
	}
	t.Fatalf("browser: %v", err)
	return nil
}

// do runs steps with a generous timeout, failing the test with what the
// page shows when they fail.
func (p *page) do(what string, steps ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		p.t.Fatalf("%s: %v\nthe page shows:\n%s", what, err, p.text("body"))
	}
}

// waitJS waits until the JavaScript expression is truthy.
func (p *page) waitJS(what, expr string) {
	p.t.Helper()
	p.do(what, chromedp.Action[chromedp.Void](func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		_, err := chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingInterval(25*time.Millisecond), chromedp.WithPollingTimeout(30*time.Second))(ctx, tg)
		return chromedp.Void{}, err
	}))
}

// waitText waits until the element's text contains want, and returns it.
func (p *page) waitText(sel, want string) string {
	p.t.Helper()
	p.waitJS(fmt.Sprintf("waiting for %q in %s", want, sel),
		fmt.Sprintf(`(document.querySelector(%q)?.innerText || "").includes(%q)`, sel, want))
	return p.text(sel)
}

func (p *page) text(sel string) string {
	ctx, cancel := context.WithTimeout(p.ctx, 10*time.Second)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(`document.querySelector(%q)?.innerText || ""`, sel)))
	if err != nil {
		return "(" + err.Error() + ")"
	}
	return s
}

// eval runs a JavaScript expression (awaiting a promise) and decodes its
// value into T.
func eval[T any](p *page, expr string) T {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// choose sets a select's value and tells the page, as a user's pick would.
func (p *page) choose(sel, value string) {
	p.t.Helper()
	ok := eval[bool](p, fmt.Sprintf(`(() => { const e = document.querySelector(%q); e.value = %q; e.dispatchEvent(new Event("change")); return e.value === %q; })()`, sel, value, value))
	if !ok {
		p.t.Fatalf("%s has no option %q", sel, value)
	}
}

// go_ opens the screen of hash and waits until it has drawn itself: the
// router is done and no part of it still reads "Loading…". Parts load
// on their own (a table's backups, its recovery window, its exports) and
// each pushes what is below it down when it arrives; a click aimed at a
// button below before they are in can land where the button no longer
// is, and be lost.
func (p *page) go_(hash string) {
	p.t.Helper()
	eval[bool](p, fmt.Sprintf(`(() => {
		if (location.hash === %[1]q) return true;
		document.querySelector("#view > section")?.setAttribute("data-left", "");
		location.hash = %[1]q;
		return true;
	})()`, hash))
	p.waitJS("the screen "+hash, `(() => {
		const v = document.querySelector("#view");
		const s = v.querySelector(":scope > section");
		return s && !s.hasAttribute("data-left") && v.getAttribute("aria-busy") === "false" && !v.innerText.includes("Loading…");
	})()`)
}

func (p *page) screenshot(name string) {
	p.t.Helper()
	if p.dir == "" {
		return
	}
	ctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		p.t.Fatalf("screenshot %s: %v", name, err)
	}
	if err := os.MkdirAll(p.dir, 0o755); err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(p.dir, name+".png"), png, 0o644); err != nil {
		p.t.Fatal(err)
	}
}

func TestBrowser(t *testing.T) {
	site := newSite(t, console.Options{})
	p := startBrowser(t, site.URL)

	// Create a table with a GSI whose partition key has two attributes.
	p.waitJS("the create form", `!!document.querySelector("#create-table")`)
	p.do("fill in the table",
		chromedp.SetValue(`#create-table [name=table]`, "Orders"),
		chromedp.SetValue(`#create-table [name=pk]`, "pk"),
		chromedp.SetValue(`#create-table [name=sk]`, "sk"),
		chromedp.Click(`#add-gsi`),
		chromedp.SetValue(`.index-row.gsi [name=name]`, "byCustomer"),
		chromedp.SetValue(`.index-row.gsi [name=hash]`, "customer:S, region:S"),
		chromedp.SetValue(`.index-row.gsi [name=range]`, "placed:S"),
		chromedp.SetValue(`.index-row.gsi [name=projection]`, "INCLUDE"),
		chromedp.SetValue(`.index-row.gsi [name=include]`, "total"),
		chromedp.Click(`#create-submit`))
	indexes := p.waitText("#indexes", "byCustomer")
	for _, want := range []string{"customer (HASH S), region (HASH S), placed (RANGE S)", "INCLUDE (total)", "ACTIVE"} {
		if !strings.Contains(indexes, want) {
			t.Errorf("the index table lacks %q:\n%s", want, indexes)
		}
	}
	if raw := eval[string](p, `document.querySelector("#raw-description").textContent`); !strings.Contains(raw, `"IndexName": "byCustomer"`) {
		t.Errorf("the raw description lacks the index:\n%s", raw)
	}
	p.screenshot("table")

	// Put an item as DynamoDB JSON.
	p.go_("#items/Orders")
	p.do("new item", chromedp.Click(`#new-item`))
	p.do("put it",
		chromedp.SetValue(`#item-text`, `{"pk": {"S": "order#1"}, "sk": {"S": "v1"}, "customer": {"S": "ann"}, "region": {"S": "eu"},
			"placed": {"S": "2026-01-05"}, "total": {"N": "10"}, "tags": {"SS": ["gift"]}, "big": {"N": "12345678901234567890123456789"}}`),
		chromedp.Click(`#put-item`))
	p.waitText("#view table.items", "order#1")

	// Edit it as plain JSON: numbers stay exact, the set stays a set.
	p.do("pick the item", chromedp.Click(`#view table.items tbody tr`))
	p.choose("#item-mode", "plain")
	plain := eval[string](p, `document.querySelector("#item-text").value`)
	for _, want := range []string{`"total": 10`, `"big": 12345678901234567890123456789`, `"tags": {`, `"SS": [`} {
		if !strings.Contains(plain, want) {
			t.Errorf("the plain view lacks %s:\n%s", want, plain)
		}
	}
	p.do("edit and put",
		chromedp.SetValue(`#item-text`, strings.Replace(plain, `"total": 10`, `"total": 12.5`, 1)),
		chromedp.Click(`#put-item`))
	p.waitText("#item-panel", "Saved.")
	p.waitText("#view table.items", "12.5")
	p.choose("#item-mode", "ddb")
	if ddbText := eval[string](p, `document.querySelector("#item-text").value`); !strings.Contains(ddbText, `"total": {"N":"12.5"}`) {
		t.Errorf("back in DynamoDB JSON the edit is lost:\n%s", ddbText)
	}
	p.screenshot("items")

	// A validation error, shown as the API words it.
	bad := `{"pk": {"N": "1"}, "sk": {"S": "x"}}`
	_, body := post(t, site.URL+"/", `{"TableName": "Orders", "Item": `+bad+`}`,
		"Content-Type", "application/x-amz-json-1.0", "X-Amz-Target", "DynamoDB_20120810.PutItem")
	var apiErr struct{ Type, Message string }
	json.Unmarshal([]byte(strings.Replace(body, `"__type"`, `"Type"`, 1)), &apiErr)
	wantErr := apiErr.Type[strings.LastIndex(apiErr.Type, "#")+1:] + ": " + apiErr.Message
	if apiErr.Message == "" || !strings.HasPrefix(wantErr, "ValidationException: ") {
		t.Fatalf("the API's answer to a bad key: %s", body)
	}
	p.do("put a bad key", chromedp.SetValue(`#item-text`, bad), chromedp.Click(`#put-item`))
	if got := p.waitText("#item-panel .error", "ValidationException"); got != wantErr {
		t.Errorf("the page shows %q, the API said %q", got, wantErr)
	}

	// Add a GSI to the populated table: the backfill indexes the item.
	p.go_("#table/Orders")
	p.do("add an index",
		chromedp.SetValue(`#add-index [name=name]`, "byRegion"),
		chromedp.SetValue(`#add-index [name=hash]`, "region:S"),
		chromedp.SetValue(`#add-index [name=range]`, "total:N"),
		chromedp.SetValue(`#add-index [name=projection]`, "KEYS_ONLY"),
		chromedp.Click(`#add-index-submit`))
	p.waitJS("the new index, backfilled", `[...document.querySelectorAll("#indexes tr")].some(r => /^byRegion\tGSI\tregion \(HASH S\), total \(RANGE N\)\tKEYS_ONLY\tACTIVE\tno\t1\t/.test(r.innerText))`)

	// Drop it again, with a second click.
	p.do("drop the index", chromedp.Click(`.drop-index[data-index=byRegion]`))
	p.waitText(`.drop-index[data-index=byRegion]`, "click again")
	p.do("confirm", chromedp.Click(`.drop-index[data-index=byRegion]`))
	p.waitJS("the index gone", `!!document.querySelector("#indexes") && !/byRegion/.test(document.querySelector("#indexes").innerText)`)
	if out := api(t, site.URL, "DescribeTable", `{"TableName": "Orders"}`); strings.Contains(out, "byRegion") {
		t.Errorf("the dropped index is still described: %s", out)
	}

	// Query the GSI and read the EXPLAIN.
	p.go_("#query/Orders")
	p.waitJS("the query form", `!!document.querySelector("#q-source")`)
	p.choose("#q-source", "1")
	p.do("key condition",
		chromedp.SetValue(`.key-value[data-attr=customer]`, "ann"),
		chromedp.SetValue(`.key-value[data-attr=region]`, "eu"),
		chromedp.SetValue(`.key-op`, "begins_with"),
		chromedp.SetValue(`.key-value[data-attr=placed]`, "2026-01"),
		chromedp.Click(`#run-query`))
	explain := p.waitText("#explain", "EXPLAIN")
	for _, want := range []string{
		"Query on index byCustomer (GSI) of table Orders",
		`customer = "ann" AND region = "eu" AND placed begins with "2026-01"`,
		"Pages fetched: 1",
		"Items read (ScannedCount): 1",
		"Items returned (Count): 1",
		"Read units consumed: 0.5",
		"index byCustomer: 0.5",
	} {
		if !strings.Contains(explain, want) {
			t.Errorf("EXPLAIN lacks %q:\n%s", want, explain)
		}
	}
	sent := eval[string](p, `document.querySelector("#q-request pre").textContent`)
	for _, want := range []string{`"IndexName": "byCustomer"`, `"KeyConditionExpression": "#k0 = :k0 AND #k1 = :k1 AND begins_with(#k2, :k2)"`, `"ReturnConsumedCapacity": "INDEXES"`} {
		if !strings.Contains(sent, want) {
			t.Errorf("the request shown lacks %s:\n%s", want, sent)
		}
	}
	if res := p.text("#q-result"); !strings.Contains(res, "order#1") || !strings.Contains(res, "12.5") {
		t.Errorf("the query's result lacks the item:\n%s", res)
	}
	p.screenshot("query")

	// A filtered Scan of the table reads more than it returns.
	p.choose("#q-source", "0")
	p.do("scan with a filter",
		chromedp.SetValue(`#q-filter`, "#t > :t"),
		chromedp.SetValue(`#q-names`, `{"#t": "total"}`),
		chromedp.SetValue(`#q-values`, `{":t": {"N": "100"}}`),
		chromedp.Click(`#run-scan`))
	explain = p.waitText("#explain", "Scan on table Orders")
	if !strings.Contains(explain, "Items read (ScannedCount): 1") || !strings.Contains(explain, "Items returned (Count): 0") {
		t.Errorf("the filtered Scan's EXPLAIN:\n%s", explain)
	}

	// The tables list shows the item count and size.
	p.go_("#tables")
	row := p.waitText(`#tables tr[data-table=Orders]`, "Orders")
	if !strings.Contains(row, "\t1\t") {
		t.Errorf("the tables list does not count the item: %q", row)
	}
	p.screenshot("tables")

	// Enable the table's stream from its view.
	p.go_("#streams/Orders")
	p.do("enable the stream", chromedp.Click(`#enable-stream`))
	p.waitText("#stream-status", "Live: NEW_AND_OLD_IMAGES")

	// Delete the item from its editor.
	p.go_("#items/Orders")
	p.do("pick the item", chromedp.Click(`#view table.items tbody tr`))
	p.do("delete it", chromedp.Click(`#delete-item`))
	p.waitText("#item-panel", "Deleted.")
	p.waitText("#view", "No items on this page.")
	if out := api(t, site.URL, "GetItem", `{"TableName": "Orders", "Key": {"pk": {"S": "order#1"}, "sk": {"S": "v1"}}}`); out != "{}" {
		t.Errorf("the deleted item is still there: %s", out)
	}
	p.go_("#streams/Orders")
	p.waitText("#stream-status", "Live:")
	api(t, site.URL, "PutItem", `{"TableName": "Orders", "Item": {"pk": {"S": "order#2"}, "sk": {"S": "v1"}}}`)
	p.waitText("#stream-records", "INSERT")
}

// api sends one DynamoDB operation to the site and fails the test unless
// it succeeds.
func api(t *testing.T, url, op, body string) string {
	t.Helper()
	resp, out := post(t, url+"/", body, "Content-Type", "application/x-amz-json-1.0", "X-Amz-Target", "DynamoDB_20120810."+op)
	if resp.StatusCode != 200 {
		t.Fatalf("%s: %d %s", op, resp.StatusCode, out)
	}
	return out
}

// apiError sends an operation that must fail and returns the error as the
// page shows it: "<type>: <message>".
func apiError(t *testing.T, url, op, body string) string {
	t.Helper()
	resp, out := post(t, url+"/", body, "Content-Type", "application/x-amz-json-1.0", "X-Amz-Target", "DynamoDB_20120810."+op)
	var e struct {
		Type    string `json:"__type"`
		Message string `json:"message"`
	}
	if err := json.Unmarshal([]byte(out), &e); err != nil || resp.StatusCode == 200 || e.Message == "" {
		t.Fatalf("%s: %d %s", op, resp.StatusCode, out)
	}
	return e.Type[strings.LastIndex(e.Type, "#")+1:] + ": " + e.Message
}

func TestBrowserStreamsTTLPartiQLModel(t *testing.T) {
	site := newSite(t, console.Options{})
	api(t, site.URL, "CreateTable", `{"TableName": "Events", "BillingMode": "PAY_PER_REQUEST",
		"AttributeDefinitions": [{"AttributeName": "id", "AttributeType": "S"}],
		"KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}],
		"StreamSpecification": {"StreamEnabled": true, "StreamViewType": "NEW_AND_OLD_IMAGES"}}`)
	api(t, site.URL, "UpdateTimeToLive", `{"TableName": "Events", "TimeToLiveSpecification": {"AttributeName": "expires", "Enabled": true}}`)
	p := startBrowser(t, site.URL)

	// The plain-JSON rule, in the page's own module.
	got := eval[string](p, `import("/console/av.js").then(av => {
		const item = {n: {N: "-1.5E+100"}, b: {B: "AAE="}, ns: {NS: ["1", "2"]}, m: {M: {N: {S: "not a number"}}}, l: {L: [{NULL: true}, {BOOL: true}]}};
		const text = av.stringify(av.itemToPlain(item));
		const back = av.itemFromPlain(av.parseJSON(text));
		return JSON.stringify(back) === JSON.stringify(item) ? "same" : text + " -> " + JSON.stringify(back);
	})`)
	if got != "same" {
		t.Errorf("plain JSON round trip: %s", got)
	}

	// Live stream records.
	p.go_("#streams/Events")
	p.waitText("#stream-status", "Live: NEW_AND_OLD_IMAGES")
	now := time.Now().Unix()
	api(t, site.URL, "PutItem", fmt.Sprintf(`{"TableName": "Events", "Item": {"id": {"S": "late"}, "expires": {"N": "%d"}}}`, now+3600))
	api(t, site.URL, "PutItem", fmt.Sprintf(`{"TableName": "Events", "Item": {"id": {"S": "soon"}, "expires": {"N": "%d"}}}`, now+600))
	api(t, site.URL, "UpdateItem", `{"TableName": "Events", "Key": {"id": {"S": "soon"}}, "UpdateExpression": "SET note = :n", "ExpressionAttributeValues": {":n": {"S": "hello"}}}`)
	records := p.waitText("#stream-records", "MODIFY")
	if strings.Count(records, "INSERT") != 2 || !strings.Contains(records, `"note": "hello"`) || !strings.Contains(records, "id=soon") {
		t.Errorf("the stream view shows:\n%s", records)
	}
	p.screenshot("streams")

	// Time to Live: the settings and the nearest expiry first.
	p.go_("#ttl/Events")
	p.waitText("#ttl-settings", "Status: ENABLED, attribute expires")
	next := p.waitText("#ttl-next", "Next expiries (2 items with expires)")
	if i, j := strings.Index(next, "id=soon"), strings.Index(next, "id=late"); i < 0 || j < i {
		t.Errorf("the nearest expiry is not first:\n%s", next)
	}
	p.screenshot("ttl")
	// A second change within the hour is refused, in DynamoDB's words.
	wantTTL := apiError(t, site.URL, "UpdateTimeToLive", `{"TableName": "Events", "TimeToLiveSpecification": {"AttributeName": "expires", "Enabled": false}}`)
	p.do("disable Time to Live", chromedp.Click(`#ttl-toggle`))
	if got := p.waitText("#ttl-settings .error", "ValidationException"); got != wantTTL {
		t.Errorf("the page shows %q, the API said %q", got, wantTTL)
	}

	// PartiQL, with the EXPLAIN this server can give and an error as the
	// API words it.
	p.go_("#partiql")
	p.do("run a statement", chromedp.SetValue(`#pq-statement`, `SELECT * FROM "Events" WHERE id = 'soon'`), chromedp.Click(`#pq-run`))
	explain := p.waitText("#pq-explain", "EXPLAIN")
	for _, want := range []string{"Plan: not available from this server", "Read from: table Events", "Items returned: 1", "Capacity units consumed: 0.5"} {
		if !strings.Contains(explain, want) {
			t.Errorf("PartiQL EXPLAIN lacks %q:\n%s", want, explain)
		}
	}
	if res := p.text("#pq-result"); !strings.Contains(res, "hello") {
		t.Errorf("the statement's result:\n%s", res)
	}
	p.screenshot("partiql")
	// Paging with NextToken, one item a page.
	p.do("a page of one", chromedp.SetValue(`#pq-statement`, `SELECT id FROM "Events"`), chromedp.SetValue(`#pq-limit`, "1"), chromedp.Click(`#pq-run`))
	p.waitText("#pq-explain", "more remain: NextToken set")
	first := p.text("#pq-result table")
	p.do("the next page", chromedp.Click(`#pq-more`))
	p.waitJS("the second page", fmt.Sprintf(`(document.querySelector("#pq-result table")?.innerText || %q) !== %q`, first, first))
	second := p.text("#pq-result table")
	if !(strings.Contains(first+second, "soon") && strings.Contains(first+second, "late")) {
		t.Errorf("two pages of one item: %q then %q", first, second)
	}
	p.do("no limit", chromedp.SetValue(`#pq-limit`, ""))

	bad := `SELECT * FROM "Events" WHERE`
	wantErr := apiError(t, site.URL, "ExecuteStatement", fmt.Sprintf(`{"Statement": %q}`, bad))
	p.do("run a bad statement", chromedp.SetValue(`#pq-statement`, bad), chromedp.Click(`#pq-run`))
	if got := p.waitText("#pq-result .error", ":"); got != wantErr {
		t.Errorf("the page shows %q, the API said %q", got, wantErr)
	}

	// The builder fetches several pages of a Scan and adds them up. Each
	// page is billed half a unit for each of the on-demand table's four
	// partitions it reads (a Scan bills partition by partition: ScyllaDB
	// Alternator's test_returnconsumedcapacity.py,
	// test_scan_consumed_capacity, against DynamoDB); the three pages
	// start where the one before stopped and together read the four
	// partitions and cross each boundary once: 0.5 × (3 + 3).
	p.go_("#query/Events")
	p.waitJS("the query form", `!!document.querySelector("#q-source")`)
	p.do("scan one item a page", chromedp.SetValue(`#q-limit`, "1"), chromedp.SetValue(`#q-pages`, "5"), chromedp.Click(`#run-scan`))
	explain = p.waitText("#explain", "EXPLAIN")
	for _, want := range []string{"Scan on table Events", "Pages fetched: 3\n", "Items read (ScannedCount): 2", "Items returned (Count): 2", "Read units consumed: 3"} {
		if !strings.Contains(explain, want) {
			t.Errorf("the paged Scan's EXPLAIN lacks %q:\n%s", want, explain)
		}
	}

	// A parallel Scan's segments read disjoint parts that add up to all.
	total := 0
	for seg := range 2 {
		p.do("scan a segment", chromedp.SetValue(`#q-limit`, ""), chromedp.SetValue(`#q-segment`, fmt.Sprint(seg)), chromedp.SetValue(`#q-segments`, "2"), chromedp.Click(`#run-scan`))
		explain = p.waitText("#explain", fmt.Sprintf("segment %d of 2", seg))
		var n int
		if _, err := fmt.Sscanf(explain[strings.Index(explain, "Items returned (Count): "):], "Items returned (Count): %d", &n); err != nil {
			t.Fatalf("segment %d: %v in\n%s", seg, err, explain)
		}
		total += n
	}
	if total != 2 {
		t.Errorf("the two segments returned %d items, want 2", total)
	}

	// The planner.
	p.go_("#model")
	p.do("plan an access pattern", chromedp.SetValue(`#model-where`, "product=42\nrating=4,5"), chromedp.Click(`#plan-run`))
	plan := p.waitText("#plan-explain", "PLAN")
	if !strings.Contains(plan, `2 parallel Queries on index byRating where GSI3PK in {"PRODUCT#42/4", "PRODUCT#42/5"}`) {
		t.Errorf("the plan:\n%s", plan)
	}
	// Run it: one Query per rating, merged newest first.
	api(t, site.URL, "CreateTable", `{"TableName": "Comments", "BillingMode": "PAY_PER_REQUEST",
		"AttributeDefinitions": [{"AttributeName": "PK", "AttributeType": "S"}, {"AttributeName": "SK", "AttributeType": "S"},
			{"AttributeName": "GSI3PK", "AttributeType": "S"}, {"AttributeName": "GSISK", "AttributeType": "S"}],
		"KeySchema": [{"AttributeName": "PK", "KeyType": "HASH"}, {"AttributeName": "SK", "KeyType": "RANGE"}],
		"GlobalSecondaryIndexes": [{"IndexName": "byRating", "Projection": {"ProjectionType": "ALL"},
			"KeySchema": [{"AttributeName": "GSI3PK", "KeyType": "HASH"}, {"AttributeName": "GSISK", "KeyType": "RANGE"}]}]}`)
	for _, c := range []struct{ id, rating, date string }{{"c1", "4", "2026-01-01"}, {"c2", "5", "2026-01-03"}, {"c3", "4", "2026-01-02"}, {"c4", "3", "2026-01-04"}} {
		api(t, site.URL, "PutItem", fmt.Sprintf(`{"TableName": "Comments", "Item": {"PK": {"S": "PRODUCT#42"}, "SK": {"S": "%s"}, "GSI3PK": {"S": "PRODUCT#42/%s"}, "GSISK": {"S": "%s"}}}`, c.id, c.rating, c.date))
	}
	p.do("run the plan", chromedp.SetValue(`#model-where`, "product=42\nrating=4,5"), chromedp.Click(`#plan-exec`))
	ran := p.waitText("#plan-result", "3 items; read 3 in 2 queries (1 read units)")
	if i, j, k := strings.Index(ran, "c2"), strings.Index(ran, "c3"), strings.Index(ran, "c1"); i < 0 || !(i < j && j < k) || strings.Contains(ran, "c4") {
		t.Errorf("the plan's page is not c2, c3, c1 newest first:\n%s", ran)
	}
	// Page by page, one item a page: every item once, newest first.
	p.do("pages of one", chromedp.SetValue(`#model-size`, "1"), chromedp.Click(`#plan-exec`))
	for i, want := range []string{"c2", "c3", "c1"} {
		p.waitText("#plan-page", fmt.Sprintf("page %d: 1 items", i+1))
		if got := p.text("#plan-result table.items tbody"); !strings.Contains(got, want) {
			t.Errorf("page %d shows %q, want %s", i+1, got, want)
		}
		if i < 2 {
			p.do("next page", chromedp.Click(`#plan-next`))
		}
	}
	p.waitText("#plan-result", "No more pages.")
	p.do("pages of twenty", chromedp.SetValue(`#model-size`, "20"))
	p.do("plan every access pattern", chromedp.Click(`#plan-all-run`))
	all := p.waitText("#plan-all", "good ones in English")
	for _, want := range []string{
		"newest comments\tall\t1\t",
		"in English\tbyLang\t1\t",
		"good ones\tbyRating\t2\t",
		"good ones in English\tbyLangAndRating\t2\t",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("the access patterns' plans lack %q:\n%s", want, all)
		}
	}
	p.screenshot("model")
	p.do("plan for an unknown dimension", chromedp.SetValue(`#model-where`, "colour=red"), chromedp.Click(`#plan-run`))
	p.waitText("#plan-result .error", `ValidationException: planner: unknown dimension "colour"`)

	// Capacity of the console's own calls.
	p.go_("#capacity")
	p.waitJS("the read chart", `!!document.querySelector("#capacity-read svg.chart polyline")`)
	if legend := p.waitText("#capacity-read .legend", "Events"); !strings.Contains(legend, "Events:") {
		t.Errorf("the read chart's legend: %q", legend)
	}
	p.screenshot("capacity")

	// Paging through a Scan, forwards and back.
	for i := range 11 {
		api(t, site.URL, "PutItem", fmt.Sprintf(`{"TableName": "Events", "Item": {"id": {"S": "e%02d"}}}`, i))
	}
	p.go_("#items/Events")
	p.waitJS("the first page", `!!document.querySelector("#page-size")`)
	p.choose("#page-size", "10")
	rows := `document.querySelectorAll("#view table.items tbody tr").length`
	p.waitJS("ten rows", rows+` === 10 && !document.querySelector("#next-page").disabled`)
	p.do("next page", chromedp.Click(`#next-page`))
	p.waitText("#page-no", "page 2")
	p.waitJS("the last three", rows+` === 3 && document.querySelector("#next-page").disabled`)
	p.do("previous page", chromedp.Click(`#prev-page`))
	p.waitText("#page-no", "page 1")
	p.waitJS("ten rows again", rows+` === 10`)

	// One partition, by Query.
	p.do("query a partition", chromedp.SetValue(`#items-partition`, "e07"), chromedp.Click(`#items-query`))
	p.waitText("#items-summary", "Query: 1 items, 1 read")
	if got := p.text("#view table.items tbody"); got != "e07" {
		t.Errorf("the partition shows %q", got)
	}
	p.do("back to all", chromedp.Click(`#items-scan`))
	p.waitText("#items-summary", "Scan: 10 items")

	// Deleting asks for the table's name.
	p.go_("#table/Events")
	p.do("delete with the wrong name", chromedp.SetValue(`#delete-confirm`, "Event"), chromedp.Click(`#delete-table`))
	p.waitText(".card.danger .error", "does not match")
	if out := api(t, site.URL, "ListTables", `{}`); !strings.Contains(out, "Events") {
		t.Fatalf("the table is gone after a wrong confirmation: %s", out)
	}
	p.do("delete", chromedp.SetValue(`#delete-confirm`, "Events"), chromedp.Click(`#delete-table`))
	p.waitJS("the list without Events", `!!document.querySelector("#tables") && !document.querySelector("#tables tr[data-table=Events]")`)
	if out := api(t, site.URL, "ListTables", `{}`); out != `{"TableNames":["Comments"]}` {
		t.Errorf("after deletion ListTables says %s", out)
	}
}

// TestBrowserStreamIteratorExpiry: the stream view left open past an
// iterator's 15 minutes takes a new one after the last record it showed,
// so it neither stops nor shows a record twice.
func TestBrowserStreamIteratorExpiry(t *testing.T) {
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
	api(t, site.URL, "CreateTable", `{"TableName": "Log", "BillingMode": "PAY_PER_REQUEST",
		"AttributeDefinitions": [{"AttributeName": "id", "AttributeType": "S"}],
		"KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}],
		"StreamSpecification": {"StreamEnabled": true, "StreamViewType": "KEYS_ONLY"}}`)
	p := startBrowser(t, site.URL)
	p.go_("#streams/Log")
	p.waitText("#stream-status", "Live: KEYS_ONLY")
	api(t, site.URL, "PutItem", `{"TableName": "Log", "Item": {"id": {"S": "before"}}}`)
	p.waitText("#stream-records", "id=before")
	offset.Store(int64(16 * time.Minute))
	api(t, site.URL, "PutItem", `{"TableName": "Log", "Item": {"id": {"S": "after"}}}`)
	records := p.waitText("#stream-records", "id=after")
	if n := strings.Count(records, "INSERT"); n != 2 {
		t.Errorf("%d records shown, want 2:\n%s", n, records)
	}
	if status := p.text("#stream-status"); !strings.HasPrefix(status, "Live:") {
		t.Errorf("the view stopped: %s", status)
	}
}

// TestBrowserCreatesEverything: the create form's every part, checked in
// the table's description as DynamoDB gives it.
func TestBrowserCreatesEverything(t *testing.T) {
	site := newSite(t, console.Options{})
	p := startBrowser(t, site.URL)
	p.waitJS("the create form", `!!document.querySelector("#create-table")`)
	p.do("fill in the table",
		chromedp.SetValue(`#create-table [name=table]`, "Prov"),
		chromedp.SetValue(`#create-table [name=pk]`, "user"),
		chromedp.SetValue(`#create-table [name=sk]`, "at"),
		chromedp.SetValue(`#create-table [name=skType]`, "N"),
		chromedp.SetValue(`#create-table [name=billing]`, "PROVISIONED"),
		chromedp.SetValue(`#create-table [name=rcu]`, "7"),
		chromedp.SetValue(`#create-table [name=wcu]`, "3"),
		chromedp.SetValue(`#create-table [name=stream]`, "OLD_IMAGE"),
		chromedp.SetValue(`#create-table [name=ttl]`, "expires"),
		chromedp.Click(`#add-gsi`),
		chromedp.SetValue(`.index-row.gsi [name=name]`, "byKind"),
		chromedp.SetValue(`.index-row.gsi [name=hash]`, "kind, tenant:B"),
		chromedp.SetValue(`.index-row.gsi [name=projection]`, "KEYS_ONLY"),
		chromedp.SetValue(`.index-row.gsi [name=throughput]`, "2/1"),
		chromedp.Click(`#add-lsi`),
		chromedp.SetValue(`.index-row.lsi [name=name]`, "byScore"),
		chromedp.SetValue(`.index-row.lsi [name=range]`, "score:N"),
		chromedp.Click(`#create-submit`))
	p.waitText("#table-summary", "Time to Live\tENABLED on expires")

	var d struct {
		Table struct {
			ProvisionedThroughput  struct{ ReadCapacityUnits, WriteCapacityUnits int }
			StreamSpecification    struct{ StreamViewType string }
			AttributeDefinitions   []struct{ AttributeName, AttributeType string }
			GlobalSecondaryIndexes []struct {
				IndexName             string
				KeySchema             []struct{ AttributeName, KeyType string }
				Projection            struct{ ProjectionType string }
				ProvisionedThroughput struct{ ReadCapacityUnits, WriteCapacityUnits int }
			}
			LocalSecondaryIndexes []struct {
				IndexName string
				KeySchema []struct{ AttributeName, KeyType string }
			}
		}
	}
	if err := json.Unmarshal([]byte(api(t, site.URL, "DescribeTable", `{"TableName": "Prov"}`)), &d); err != nil {
		t.Fatal(err)
	}
	tb := d.Table
	// In the order of their names: the order of definitions is not the
	// page's to promise.
	sort.Slice(tb.AttributeDefinitions, func(i, j int) bool {
		return tb.AttributeDefinitions[i].AttributeName < tb.AttributeDefinitions[j].AttributeName
	})
	got := fmt.Sprintf("%+v %+v %+v %+v %+v", tb.ProvisionedThroughput, tb.StreamSpecification, tb.AttributeDefinitions, tb.GlobalSecondaryIndexes, tb.LocalSecondaryIndexes)
	want := "{ReadCapacityUnits:7 WriteCapacityUnits:3} {StreamViewType:OLD_IMAGE} " +
		"[{AttributeName:at AttributeType:N} {AttributeName:kind AttributeType:S} {AttributeName:score AttributeType:N} {AttributeName:tenant AttributeType:B} {AttributeName:user AttributeType:S}] " +
		"[{IndexName:byKind KeySchema:[{AttributeName:kind KeyType:HASH} {AttributeName:tenant KeyType:HASH}] Projection:{ProjectionType:KEYS_ONLY} ProvisionedThroughput:{ReadCapacityUnits:2 WriteCapacityUnits:1}}] " +
		"[{IndexName:byScore KeySchema:[{AttributeName:user KeyType:HASH} {AttributeName:score KeyType:RANGE}]}]"
	if got != want {
		t.Errorf("the table created:\n got %s\nwant %s", got, want)
	}
}

// TestBrowserBackfillProgress: the table view follows a new GSI from
// CREATING to ACTIVE by itself, through DynamoDB's two phases (the
// ack-api-quirks lab, DDB-TABLE-148 and -138, recorded 2026-10-08): first
// not backfilling (Backfilling false while its resources are allocated),
// then backfilling (Backfilling true, with its progress: the items indexed
// so far of the table's three). The engine keeps each phase for an hour
// of its clock (TransientDelay), which the test moves on; its three items
// are backfilled as soon as the first phase begins.
func TestBrowserBackfillProgress(t *testing.T) {
	var offset atomic.Int64
	db, err := local.Open(local.WithEngineOptions(func(o *engine.Options) {
		o.Now = func() time.Time { return time.Now().Add(time.Duration(offset.Load())) }
		o.TransientDelay = time.Hour
	}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	site := httptest.NewServer(console.With(db.Handler(), console.Options{}))
	t.Cleanup(site.Close)
	api(t, site.URL, "CreateTable", `{"TableName": "Big", "BillingMode": "PAY_PER_REQUEST",
		"AttributeDefinitions": [{"AttributeName": "id", "AttributeType": "S"}],
		"KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}]}`)
	offset.Store(int64(2 * time.Hour)) // the table is ACTIVE
	for _, id := range []string{"a", "b", "c"} {
		api(t, site.URL, "PutItem", `{"TableName": "Big", "Item": {"id": {"S": "`+id+`"}, "colour": {"S": "red"}}}`)
	}
	p := startBrowser(t, site.URL)
	p.go_("#table/Big")
	p.do("add an index",
		chromedp.SetValue(`#add-index [name=name]`, "byColour"),
		chromedp.SetValue(`#add-index [name=hash]`, "colour"),
		chromedp.Click(`#add-index-submit`))
	p.waitJS("the index creating", `[...document.querySelectorAll("#indexes tr")].some(r => /^byColour\tGSI\t.*\tCREATING\tno\t/.test(r.innerText))`)
	// Half an hour into the backfill phase, which began an hour after the
	// index was added.
	offset.Store(int64(3*time.Hour + 30*time.Minute))
	p.waitJS("the index backfilling", `[...document.querySelectorAll("#indexes tr")].some(r => /^byColour\tGSI\t.*\tCREATING\tyes\t\d+ so far, of at most 3\t/.test(r.innerText))`)
	p.screenshot("backfill")
	offset.Store(int64(5 * time.Hour))
	p.waitJS("the index active", `[...document.querySelectorAll("#indexes tr")].some(r => /^byColour\tGSI\t.*\tACTIVE\tno\t3\t/.test(r.innerText))`)
}
