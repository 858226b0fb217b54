package console_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/dynago/dynago/server/console"
)

// TestBrowserBillingModes: a table's page shows its billing mode and
// the throughput of that mode only. A provisioned table has capacity
// units; an on-demand one has none (DescribeTable gives it
// ProvisionedThroughput units of 0: "If read/write capacity mode is
// PAY_PER_REQUEST the value is set to 0", the API reference's
// ProvisionedThroughput,
// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ProvisionedThroughput.html),
// only maximum request units per second if it was given some
// (OnDemandThroughput, -1 for none,
// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_OnDemandThroughput.html).
// The forms ask for the units of the mode chosen only.
func TestBrowserBillingModes(t *testing.T) {
	site := newSite(t, console.Options{})
	gsi := func(extra string) string {
		return `"GlobalSecondaryIndexes": [{"IndexName": "byG", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
			"Projection": {"ProjectionType": "ALL"}` + extra + `}]`
	}
	defs := `"AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "g", "AttributeType": "S"}],
		"KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]`
	api(t, site.URL, "CreateTable", `{"TableName": "Prov", "BillingMode": "PROVISIONED", "ProvisionedThroughput": {"ReadCapacityUnits": 7, "WriteCapacityUnits": 3}, `+
		defs+`, `+gsi(`, "ProvisionedThroughput": {"ReadCapacityUnits": 2, "WriteCapacityUnits": 1}`)+`}`)
	api(t, site.URL, "CreateTable", `{"TableName": "Capped", "BillingMode": "PAY_PER_REQUEST", "OnDemandThroughput": {"MaxReadRequestUnits": 100, "MaxWriteRequestUnits": 50}, `+
		defs+`, `+gsi(`, "OnDemandThroughput": {"MaxReadRequestUnits": 40}`)+`}`)
	api(t, site.URL, "CreateTable", `{"TableName": "Open", "BillingMode": "PAY_PER_REQUEST", `+defs+`, `+gsi("")+`}`)
	p := startBrowser(t, site.URL)

	for _, tc := range []struct {
		table           string
		billing, units  string // the summary's rows
		gsi             string // the GSI's throughput cell
		unitsInAddIndex bool
	}{
		{"Prov", "Billing mode\tPROVISIONED", "Provisioned throughput\t7 read, 3 write capacity units per second", "2 read, 1 write capacity units per second", true},
		{"Capped", "Billing mode\tPAY_PER_REQUEST (on demand)", "On-demand throughput\tread 100, write 50 request units per second at most", "read 40, write no maximum request units per second at most", false},
		{"Open", "Billing mode\tPAY_PER_REQUEST (on demand)", "On-demand throughput\tno maximum", "no maximum", false},
	} {
		t.Run(tc.table, func(t *testing.T) {
			p.go_("#table/" + tc.table)
			summary := p.waitText("#table-summary", "Billing mode")
			for _, want := range []string{tc.billing, tc.units} {
				if !strings.Contains(summary, want+"\n") {
					t.Errorf("the summary lacks %q:\n%s", want, summary)
				}
			}
			if tc.table != "Prov" && strings.Contains(summary, "capacity units") {
				t.Errorf("an on-demand table's summary shows capacity units:\n%s", summary)
			}
			if got := p.text("#indexes td.throughput"); got != tc.gsi {
				t.Errorf("the GSI's throughput: %q, want %q", got, tc.gsi)
			}
			if got := eval[bool](p, `!!document.querySelector("#add-index [name=throughput]")`); got != tc.unitsInAddIndex {
				t.Errorf("the add-index form asks for units: %v, want %v", got, tc.unitsInAddIndex)
			}
		})
	}

	// The create form: units for PROVISIONED, maximums for on demand.
	p.go_("#tables")
	visible := func(name string) bool {
		return eval[bool](p, fmt.Sprintf(`(() => { const e = document.querySelector("#create-table [name=%s]"); return !!e && e.getClientRects().length > 0; })()`, name))
	}
	p.do("a GSI row", chromedp.Click(`#add-gsi`))
	for _, tc := range []struct {
		billing string
		shown   map[string]bool
	}{
		{"PAY_PER_REQUEST", map[string]bool{"rcu": false, "wcu": false, "throughput": false, "maxRead": true, "maxWrite": true}},
		{"PROVISIONED", map[string]bool{"rcu": true, "wcu": true, "throughput": true, "maxRead": false, "maxWrite": false}},
		{"PAY_PER_REQUEST", map[string]bool{"rcu": false, "wcu": false, "throughput": false, "maxRead": true, "maxWrite": true}},
	} {
		p.choose("#create-table [name=billing]", tc.billing)
		for name, want := range tc.shown {
			if got := visible(name); got != want {
				t.Errorf("%s: the field %s shown: %v, want %v", tc.billing, name, got, want)
			}
		}
	}
	p.do("remove the GSI row", chromedp.Click(`.index-row.gsi button.link`))
	p.do("an on-demand table with a maximum",
		chromedp.SetValue(`#create-table [name=table]`, "Made"),
		chromedp.SetValue(`#create-table [name=pk]`, "pk"),
		chromedp.SetValue(`#create-table [name=maxRead]`, "25"),
		chromedp.Click(`#create-submit`))
	p.waitText("#table-summary", "On-demand throughput\tread 25, write no maximum request units per second at most")
	var d struct {
		Table struct {
			BillingModeSummary struct{ BillingMode string }
			OnDemandThroughput map[string]int64
		}
	}
	if err := json.Unmarshal([]byte(api(t, site.URL, "DescribeTable", `{"TableName": "Made"}`)), &d); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprintf("%s %v", d.Table.BillingModeSummary.BillingMode, d.Table.OnDemandThroughput); got != "PAY_PER_REQUEST map[MaxReadRequestUnits:25]" {
		t.Errorf("the table made: %s", got)
	}
}
