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
// error for a vector of the wrong dimension; an index with a HASH element
// of type N searches one partition, its DOT_PRODUCT score a similarity.
func TestBrowserVectorSearch(t *testing.T) {
	site := newSite(t, console.Options{})
	api(t, site.URL, "CreateTable", `{"TableName": "Docs", "BillingMode": "PAY_PER_REQUEST",
		"AttributeDefinitions": [{"AttributeName": "id", "AttributeType": "S"}, {"AttributeName": "shelf", "AttributeType": "N"}],
		"KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}],
		"VectorIndexes": [{"IndexName": "byEmbedding", "VectorAttribute": {"AttributeName": "emb"}, "Dimensions": 3,
			"DistanceFunction": "EUCLIDEAN", "Projection": {"ProjectionType": "ALL"}},
			{"IndexName": "byShelf", "VectorAttribute": {"AttributeName": "emb"}, "Dimensions": 3,
			"DistanceFunction": "DOT_PRODUCT", "SearchSchema": [{"AttributeName": "shelf", "SearchSchemaElementType": "HASH"}],
			"Projection": {"ProjectionType": "KEYS_ONLY"}}]}`)
	// Integer coordinates, so that every distance to the query is exact.
	query := []float64{1, 1, 1}
	items := map[string][]float64{
		"a": {3, -5, 4}, // 7 away; dot product 2
		"b": {1, 1, 2},  // 1; 4
		"c": {1, 4, 5},  // 5; 10
		"d": {3, 3, 2},  // 3; 8
	}
	shelves := map[string]string{"a": "1", "b": "1", "c": "1", "d": "2"}
	type hit struct {
		id    string
		score float64
	}
	var want, wantShelf1 []hit
	for id, v := range items {
		var nums []string
		var sum, dot float64
		for i, x := range v {
			nums = append(nums, fmt.Sprintf(`{"N": "%g"}`, x))
			sum += (x - query[i]) * (x - query[i])
			dot += x * query[i]
		}
		api(t, site.URL, "PutItem", fmt.Sprintf(`{"TableName": "Docs", "Item": {"id": {"S": %q}, "title": {"S": "doc %s"}, "shelf": {"N": %q}, "emb": {"L": [%s]}}}`,
			id, id, shelves[id], strings.Join(nums, ", ")))
		want = append(want, hit{id, math.Sqrt(sum)})
		if shelves[id] == "1" {
			wantShelf1 = append(wantShelf1, hit{id, -dot}) // higher first
		}
	}
	nearestFirst := func(hs []hit) {
		for i := range hs {
			for j := i + 1; j < len(hs); j++ {
				if hs[j].score < hs[i].score {
					hs[i], hs[j] = hs[j], hs[i]
				}
			}
		}
	}
	nearestFirst(want)
	nearestFirst(wantShelf1)
	for i := range wantShelf1 {
		wantShelf1[i].score = -wantShelf1[i].score
	}
	p := startBrowser(t, site.URL)

	p.go_("#table/Docs")
	row := p.waitText(`#vector-indexes tr[data-index=byEmbedding]`, "byEmbedding")
	if !strings.HasPrefix(row, "byEmbedding\temb\t3\tEUCLIDEAN\t\tALL\tACTIVE\t4\t") {
		t.Errorf("the vector index's row: %q", row)
	}

	if row := p.text(`#vector-indexes tr[data-index=byShelf]`); !strings.HasPrefix(row, "byShelf\temb\t3\tDOT_PRODUCT\tshelf (HASH)\tKEYS_ONLY\tACTIVE\t4\t") {
		t.Errorf("the second vector index's row: %q", row)
	}

	p.do("open the index", chromedp.Click(`#vector-indexes tr[data-index=byEmbedding] a.vector-index`))
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
	if head := strings.TrimSpace(p.text("#vs-results thead")); head != "#\tid\tshelf\ttitle\tdistance" {
		t.Errorf("the results' columns: %q", head)
	}
	rows := eval[[]string](p, `[...document.querySelectorAll("#vs-results tbody tr")].map(r => r.innerText)`)
	if len(rows) != len(want) {
		t.Fatalf("%d result rows, want %d: %q", len(rows), len(want), rows)
	}
	for i, w := range want {
		if exp := fmt.Sprintf("%d\t%s\t%s\tdoc %s\t%s", i+1, w.id, shelves[w.id], w.id, strconv.FormatFloat(w.score, 'g', -1, 64)); rows[i] != exp {
			t.Errorf("result %d: %q, want %q", i+1, rows[i], exp)
		}
	}

	p.screenshot("vector")

	// TopK limits the results.
	p.do("top 2", chromedp.SetValue(`#vs-topk`, "2"), chromedp.Click(`#vs-run`))
	p.waitText("#vs-count", "2 results")

	// Refused vectors: the page sends what was typed and shows the API's
	// error as it words it. The texts are DynamoDB's, recorded against
	// AWS by dynoxide's tests (nubo-db/dynoxide, tests/search_vectors.rs;
	// see engine/search_vectors.go).
	for _, tc := range []struct {
		name, typed, sent, want string
	}{
		{"wrong dimension", "[1, 2]", `[{"N": "1"}, {"N": "2"}]`,
			"ValidationException: Input search vector dimension 2 does not match vector index dimension 3"},
		{"a string element", `[1, "2", 3]`, `[{"N": "1"}, {"S": "2"}, {"N": "3"}]`,
			"ValidationException: Search vector contains invalid values. All values in the search vector must be a 32-bit floating-point number attribute"},
	} {
		wantErr := apiError(t, site.URL, "SearchVectors", `{"TableName": "Docs", "IndexName": "byEmbedding", "TopK": 2, "SearchVector": `+tc.sent+`}`)
		if wantErr != tc.want {
			t.Fatalf("%s: the API says %q, want %q", tc.name, wantErr, tc.want)
		}
		p.do(tc.name, chromedp.SetValue(`#vs-vector`, tc.typed), chromedp.Click(`#vs-run`))
		if got := p.waitText("#vs-result .error", tc.want); got != wantErr {
			t.Errorf("%s: the page shows %q, the API said %q", tc.name, got, wantErr)
		}
	}

	// Not JSON: the page says so, and sends nothing.
	p.do("not JSON", chromedp.SetValue(`#vs-vector`, "[1, 2,"), chromedp.Click(`#vs-run`))
	p.waitText("#vs-result .error", "at offset")

	// An index with a HASH element (a number): its value is asked for, and
	// the dot product is a similarity, higher first.
	p.go_("#vector/Docs/byShelf")
	if typ := eval[string](p, `document.querySelector("#vs-hash").type`); typ != "number" {
		t.Errorf("the HASH value's input is of type %q, want number", typ)
	}
	p.do("search shelf 1", chromedp.SetValue(`#vs-vector`, "[1, 1, 1]"), chromedp.SetValue(`#vs-hash`, "1"), chromedp.Click(`#vs-run`))
	p.waitText("#vs-count", "3 results")
	if head := strings.TrimSpace(p.text("#vs-results thead")); head != "#\tid\tshelf\tsimilarity" {
		t.Errorf("the results' columns: %q", head)
	}
	rows = eval[[]string](p, `[...document.querySelectorAll("#vs-results tbody tr")].map(r => r.innerText)`)
	if len(rows) != len(wantShelf1) {
		t.Fatalf("%d result rows, want %d: %q", len(rows), len(wantShelf1), rows)
	}
	for i, w := range wantShelf1 {
		if exp := fmt.Sprintf("%d\t%s\t1\t%s", i+1, w.id, strconv.FormatFloat(w.score, 'g', -1, 64)); rows[i] != exp {
			t.Errorf("result %d: %q, want %q", i+1, rows[i], exp)
		}
	}
}

// TestBrowserVectorSearchFilters: an index's INLINE_FILTER attributes
// each get an input, and a value typed there keeps only the items with
// that value (an empty input is no condition); the attributes to return
// become the request's ProjectionExpression, so the vector itself can be
// shown (DynamoDB returns it only when the projection names it).
func TestBrowserVectorSearchFilters(t *testing.T) {
	site := newSite(t, console.Options{})
	api(t, site.URL, "CreateTable", `{"TableName": "Paint", "BillingMode": "PAY_PER_REQUEST",
		"AttributeDefinitions": [{"AttributeName": "id", "AttributeType": "S"}, {"AttributeName": "colour", "AttributeType": "S"}],
		"KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}],
		"VectorIndexes": [{"IndexName": "byColour", "VectorAttribute": {"AttributeName": "emb"}, "Dimensions": 2,
			"DistanceFunction": "EUCLIDEAN", "SearchSchema": [{"AttributeName": "colour", "SearchSchemaElementType": "INLINE_FILTER"}],
			"Projection": {"ProjectionType": "ALL"}}]}`)
	// Distances to the query [0, 0]: a 1, b 2, c 3, d 4.
	for _, it := range []struct{ id, colour, emb string }{
		{"a", "red", `[{"N": "1"}, {"N": "0"}]`},
		{"b", "blue", `[{"N": "0"}, {"N": "2"}]`},
		{"c", "red", `[{"N": "3"}, {"N": "0"}]`},
		{"d", "blue", `[{"N": "0"}, {"N": "4"}]`},
	} {
		api(t, site.URL, "PutItem", fmt.Sprintf(`{"TableName": "Paint", "Item": {"id": {"S": %q}, "colour": {"S": %q}, "emb": {"L": %s}}}`, it.id, it.colour, it.emb))
	}
	p := startBrowser(t, site.URL)
	p.go_("#vector/Paint/byColour")
	p.waitJS("the filter input", `!!document.querySelector(".vs-filter[data-attr=colour]")`)
	ids := func() []string {
		return eval[[]string](p, `[...document.querySelectorAll("#vs-results tbody tr")].map(r => r.cells[1].innerText)`)
	}

	p.do("search, no filter", chromedp.SetValue(`#vs-vector`, "[0, 0]"), chromedp.Click(`#vs-run`))
	p.waitText("#vs-count", "4 results")
	if got := strings.Join(ids(), ","); got != "a,b,c,d" {
		t.Errorf("without a filter: %s, want a,b,c,d", got)
	}

	p.do("search red", chromedp.SetValue(`.vs-filter[data-attr=colour]`, "red"), chromedp.Click(`#vs-run`))
	p.waitText("#vs-count", "2 results")
	if got := strings.Join(ids(), ","); got != "a,c" {
		t.Errorf("colour = red: %s, want a,c", got)
	}
	if req := eval[string](p, `document.querySelector("#vs-result details pre").textContent`); !strings.Contains(req, `"SearchConditionExpression": "#f0 = :f0"`) {
		t.Errorf("the request sent: %s", req)
	}

	p.do("return id and emb", chromedp.SetValue(`#vs-projection`, "id, emb"), chromedp.Click(`#vs-run`))
	p.waitText("#vs-count", "2 results")
	if head := strings.TrimSpace(p.text("#vs-results thead")); head != "#\tid\temb\tdistance" {
		t.Errorf("the projected results' columns: %q", head)
	}
	if first := eval[string](p, `document.querySelector("#vs-results tbody tr").innerText`); !strings.HasPrefix(first, "1\ta\t") || !strings.HasSuffix(first, "\t1") {
		t.Errorf("the first projected result: %q", first)
	}
}
