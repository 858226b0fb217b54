package console_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/dynago/dynago/server/console"
)

// contained is JavaScript that lists the boxes matched by sel that
// overflow: a box reaching past the right edge of its panel (the column
// of the .split it is in, or the main area), or one whose content is
// wider than the box with nothing to scroll it. Empty when every box
// keeps its content, wrapped or scrolled, within its panel.
const contained = `((sel) => {
	const bad = [];
	const els = [...document.querySelectorAll(sel)];
	if (els.length === 0) return ["nothing matches " + sel];
	for (const el of els) {
		const panel = el.closest(".split > *") || document.querySelector("main");
		const box = el.getBoundingClientRect(), edge = panel.getBoundingClientRect();
		const name = (el.id ? "#" + el.id : el.tagName.toLowerCase()) + " in " + (panel.id ? "#" + panel.id : panel.tagName.toLowerCase());
		if (box.right > edge.right + 1) bad.push(name + ": right edge " + Math.round(box.right) + " past the panel's " + Math.round(edge.right));
		const ox = getComputedStyle(el).overflowX;
		if (el.scrollWidth > el.clientWidth + 1 && ox !== "auto" && ox !== "scroll") bad.push(name + ": content " + el.scrollWidth + " wide in a box of " + el.clientWidth + ", overflow-x " + ox);
	}
	if (document.documentElement.scrollWidth > document.documentElement.clientWidth + 1) bad.push("the page scrolls sideways: " + document.documentElement.scrollWidth + " > " + document.documentElement.clientWidth);
	return bad;
})(%q)`

// TestBrowserLongRequests: a long request and its answer stay within
// their boxes (wrapped, or scrolled inside the box) on the Query and
// PartiQL screens, the request shown open, and so does a refused
// request's error.
func TestBrowserLongRequests(t *testing.T) {
	site := newSite(t, console.Options{})
	api(t, site.URL, "CreateTable", `{"TableName": "Long", "BillingMode": "PAY_PER_REQUEST",
		"AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
		"KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]}`)
	long := strings.Repeat("k", 600) // one word: nowhere to break it
	api(t, site.URL, "PutItem", fmt.Sprintf(`{"TableName": "Long", "Item": {"pk": {"S": %q}, "note": {"S": %q}}}`, long, strings.Repeat("n", 900)))
	p := startBrowser(t, site.URL)
	check := func(where string, sels ...string) {
		t.Helper()
		for _, sel := range sels {
			if bad := eval[[]string](p, fmt.Sprintf(contained, sel)); len(bad) > 0 {
				t.Errorf("%s, %s overflows:\n%s", where, sel, strings.Join(bad, "\n"))
			}
		}
	}
	openDetails := `(() => { document.querySelectorAll("details").forEach((d) => d.open = true); return true; })()`

	p.go_("#query/Long")
	p.do("a query of a long key",
		chromedp.SetValue(`.key-value[data-attr=pk]`, long),
		chromedp.SetValue(`#q-filter`, "#n <> :v"),
		chromedp.SetValue(`#q-names`, `{"#n": "note"}`),
		chromedp.SetValue(`#q-values`, `{":v": {"S": "`+strings.Repeat("v", 700)+`"}}`),
		chromedp.Click(`#run-query`))
	p.waitText("#explain", "Items returned (Count): 1")
	eval[bool](p, openDetails)
	check("the Query screen", "#explain", "#q-request pre", "#q-result")

	p.do("a query with an error", chromedp.SetValue(`#q-filter`, "#n <> :"+strings.Repeat("x", 300)), chromedp.Click(`#run-query`))
	p.waitText("#q-result .error", "ValidationException")
	check("a refused Query", "#q-result .error", "#explain")

	p.go_("#items/Long")
	p.waitText("#view table.items", "kkkk")
	check("the Items screen", "#view table.items")

	p.go_("#partiql")
	p.do("a long statement",
		chromedp.SetValue(`#pq-statement`, `SELECT * FROM "Long" WHERE pk = '`+long+`'`),
		chromedp.Click(`#pq-run`))
	p.waitText("#pq-explain", "Items returned: 1")
	eval[bool](p, openDetails)
	check("the PartiQL screen", "#pq-explain", "#pq-request pre", "#pq-result", "#pq-result table")

	p.do("a refused statement",
		chromedp.SetValue(`#pq-statement`, `SELECT * FROM "Long" WHERE pk = 'x' `+long),
		chromedp.Click(`#pq-run`))
	p.waitText("#pq-result .error", "Exception")
	eval[bool](p, openDetails)
	check("a refused statement", "#pq-result .error", "#pq-request pre")
}
