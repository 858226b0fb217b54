package console_test

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/dynago/dynago/server/console"
)

// TestBrowserVectorSearch: a table's vector index is listed on its page
// with its definition and item count, and its view searches it: the
// nearest items best first with their EUCLIDEAN distances, and DynamoDB's
// error for a vector of the wrong dimension.
func TestBrowserVectorSearch(t *testing.T) {
	site := newSite(t, console.Options{})
	api(t, site.URL, "CreateTable", `{"TableName": "Docs", "BillingMode": "PAY_PER_REQUEST",
		"AttributeDefinitions": [{"AttributeName": "id", "AttributeType": "S"}],
		"KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}],
		"VectorIndexes": [{"IndexName": "byEmbedding", "VectorAttribute": {"AttributeName": "emb"}, "Dimensions": 3,
			"DistanceFunction": "EUCLIDEAN", "Projection": {"ProjectionType": "ALL"}}]}`)
	// Integer coordinates, so that every distance to the query is exact.
	query := []float64{1, 1, 1}
	items := map[string][]float64{
		"a": {3, -5, 4}, // 7
		"b": {1, 1, 2},  // 1
		"c": {1, 4, 5},  // 5
		"d": {3, 3, 2},  // 3
	}
	type hit struct {
		id    string
		score float64
	}
	var want []hit
	for id, v := range items {
		var nums []string
		var sum float64
		for i, x := range v {
			nums = append(nums, fmt.Sprintf(`{"N": "%g"}`, x))
			sum += (x - query[i]) * (x - query[i])
		}
		api(t, site.URL, "PutItem", fmt.Sprintf(`{"TableName": "Docs", "Item": {"id": {"S": %q}, "title": {"S": "doc %s"}, "emb": {"L": [%s]}}}`,
			id, id, strings.Join(nums, ", ")))
		want = append(want, hit{id, math.Sqrt(sum)})
	}
	for i := range want { // nearest first
		for j := i + 1; j < len(want); j++ {
			if want[j].score < want[i].score {
				want[i], want[j] = want[j], want[i]
			}
		}
	}
	p := startBrowser(t, site.URL)

	p.go_("#table/Docs")
	row := p.waitText(`#vector-indexes tr[data-index=byEmbedding]`, "byEmbedding")
	if !strings.HasPrefix(row, "byEmbedding\temb\t3\tEUCLIDEAN\t\tALL\tACTIVE\t4\t") {
		t.Errorf("the vector index's row: %q", row)
	}

	p.do("open the index", chromedp.Click(`#vector-indexes a.vector-index`))
	p.waitJS("the index view", `!!document.querySelector("#vs-run")`)
	summary := p.text("#vector-summary")
	for _, w := range []string{"Vector attribute\temb", "Dimensions\t3", "EUCLIDEAN (score: distance", "Items\t4", "Projection\tALL"} {
		if !strings.Contains(summary, w) {
			t.Errorf("the index's summary lacks %q:\n%s", w, summary)
		}
	}
	if got := eval[string](p, `document.querySelector("#vs-topk").value`); got != "10" {
		t.Errorf("TopK defaults to %q, want 10", got)
	}

	p.do("search", chromedp.SetValue(`#vs-vector`, "[1, 1, 1]"), chromedp.Click(`#vs-run`))
	p.waitText("#vs-count", "4 results")
	if head := strings.TrimSpace(p.text("#vs-results thead")); head != "#\tid\ttitle\tdistance" {
		t.Errorf("the results' columns: %q", head)
	}
	rows := eval[[]string](p, `[...document.querySelectorAll("#vs-results tbody tr")].map(r => r.innerText)`)
	if len(rows) != len(want) {
		t.Fatalf("%d result rows, want %d: %q", len(rows), len(want), rows)
	}
	for i, w := range want {
		if exp := fmt.Sprintf("%d\t%s\tdoc %s\t%s", i+1, w.id, w.id, strconv.FormatFloat(w.score, 'g', -1, 64)); rows[i] != exp {
			t.Errorf("result %d: %q, want %q", i+1, rows[i], exp)
		}
	}

	// TopK limits the results.
	p.do("top 2", chromedp.SetValue(`#vs-topk`, "2"), chromedp.Click(`#vs-run`))
	p.waitText("#vs-count", "2 results")

	// A vector of the wrong dimension: the API's error, as it words it
	// (DynamoDB's text, recorded by dynoxide's tests against AWS, see
	// engine/search_vectors.go).
	wantErr := apiError(t, site.URL, "SearchVectors", `{"TableName": "Docs", "IndexName": "byEmbedding", "SearchVector": [{"N": "1"}, {"N": "2"}], "TopK": 2}`)
	if !strings.Contains(wantErr, "Input search vector dimension 2 does not match vector index dimension 3") {
		t.Fatalf("the API's answer to a short vector: %q", wantErr)
	}
	p.do("a short vector", chromedp.SetValue(`#vs-vector`, "[1, 2]"), chromedp.Click(`#vs-run`))
	if got := p.waitText("#vs-result .error", "ValidationException"); got != wantErr {
		t.Errorf("the page shows %q, the API said %q", got, wantErr)
	}

	// Not JSON: the page says so, and sends nothing.
	p.do("not JSON", chromedp.SetValue(`#vs-vector`, "[1, 2,"), chromedp.Click(`#vs-run`))
	p.waitText("#vs-result .error", "at offset")
	p.screenshot("vector")
}
