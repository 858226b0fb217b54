package console_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/engine"
	"github.com/dynago/dynago/local"
	"github.com/dynago/dynago/partiql"
	"github.com/dynago/dynago/server/console"
)

// engineExplain is console.Options.Explain over an engine: the wiring
// "dynago serve" gives the console.
func engineExplain(db *engine.DB) func(*http.Request, string, bool) (any, error) {
	return func(_ *http.Request, stmt string, consistent bool) (any, error) {
		e, err := partiql.ExplainStatement(&partiql.ExplainInput{Statement: stmt, ConsistentRead: consistent},
			func(table string) (*dynamo.TableDescription, error) {
				out, err := db.DescribeTable(&dynamo.DescribeTableInput{TableName: table})
				if err != nil {
					return nil, err
				}
				return out.Table, nil
			})
		var ee *dynamo.Error
		if errors.As(err, &ee) {
			return nil, &console.Error{Type: ee.Code, Message: ee.Message}
		}
		return e, err
	}
}

// engineTotals is console.NewRecorder's totals over an engine's meters:
// the wiring "dynago serve" gives the console.
func engineTotals(db *engine.DB) func() []console.CapacityTotal {
	return func() []console.CapacityTotal {
		var out []console.CapacityTotal
		for _, t := range db.Meters().Tables {
			out = append(out, console.CapacityTotal{Table: t.Table, ReadUnits: t.Units.ReadUnits, WriteUnits: t.Units.WriteUnits})
			for name, u := range t.Indexes {
				out = append(out, console.CapacityTotal{Table: t.Table, Index: name, ReadUnits: u.ReadUnits, WriteUnits: u.WriteUnits})
			}
		}
		return out
	}
}

// TestBrowserExplainsPartiQL: with the engine's explanation wired in, the
// PartiQL screen's EXPLAIN shows the plan: the operation, the index and
// the key condition.
func TestBrowserExplainsPartiQL(t *testing.T) {
	db, err := local.Open()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	// Server-wide capacity from the engine's meters, sampled by the test
	// rather than by rec.Run's ticker.
	rec := console.NewRecorder(engineTotals(db.Engine()), time.Second, 10)
	rec.Sample(time.Now())
	site := httptest.NewServer(console.With(db.Handler(), console.Options{Explain: engineExplain(db.Engine()), Capacity: rec.Samples}))
	t.Cleanup(site.Close)
	api(t, site.URL, "CreateTable", `{"TableName": "Music", "BillingMode": "PAY_PER_REQUEST",
		"AttributeDefinitions": [{"AttributeName": "artist", "AttributeType": "S"}, {"AttributeName": "song", "AttributeType": "S"}, {"AttributeName": "year", "AttributeType": "N"}],
		"KeySchema": [{"AttributeName": "artist", "KeyType": "HASH"}, {"AttributeName": "song", "KeyType": "RANGE"}],
		"GlobalSecondaryIndexes": [{"IndexName": "byYear", "KeySchema": [{"AttributeName": "year", "KeyType": "HASH"}, {"AttributeName": "song", "KeyType": "RANGE"}], "Projection": {"ProjectionType": "ALL"}}]}`)
	api(t, site.URL, "PutItem", `{"TableName": "Music", "Item": {"artist": {"S": "Ann"}, "song": {"S": "Blue"}, "year": {"N": "1999"}}}`)
	p := startBrowser(t, site.URL)

	p.go_("#partiql")
	p.do("run on the index", chromedp.SetValue(`#pq-statement`, `SELECT * FROM "Music"."byYear" WHERE "year" = 1999 AND begins_with(song, 'B')`), chromedp.Click(`#pq-run`))
	explain := p.waitText("#pq-explain", "EXPLAIN")
	for _, want := range []string{`Query on table "Music" index "byYear" (GSI)`, "key condition:", "begins_with", "Items returned: 1", "index byYear: 0.5"} {
		if !strings.Contains(explain, want) {
			t.Errorf("EXPLAIN lacks %q:\n%s", want, explain)
		}
	}
	if strings.Contains(explain, "not available") {
		t.Errorf("EXPLAIN fell back although the server explains:\n%s", explain)
	}
	p.screenshot("partiql-explain")

	// A Query of the index through the SDK, not the console, shows too.
	api(t, site.URL, "Query", `{"TableName": "Music", "IndexName": "byYear", "KeyConditionExpression": "#y = :y", "ExpressionAttributeNames": {"#y": "year"}, "ExpressionAttributeValues": {":y": {"N": "1999"}}}`)
	rec.Sample(time.Now())
	p.go_("#capacity")
	p.waitText("#capacity-source", "Server-wide capacity per table and index")
	legend := p.waitText("#capacity-read .legend", "Music / byYear: 1 units")
	p.waitText("#capacity-write .legend", "Music: 1 units")
	if strings.Contains(legend, "Music: ") {
		t.Errorf("reads billed to the index alone show on the table: %q", legend)
	}
}
