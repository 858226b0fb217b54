package engine

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
)

func i32(v int32) *int32 { return &v }

func putN(t testing.TB, db *DB, table string, pk string, sk int, extra int) {
	t.Helper()
	it := attr.Item{"pk": attr.S(pk), "sk": attr.N(fmt.Sprint(sk))}
	if extra > 0 {
		it["pad"] = attr.S(strings.Repeat("x", extra))
	}
	if _, err := db.PutItem(&dynamo.PutItemInput{TableName: table, Item: it}); err != nil {
		t.Fatal(err)
	}
}

func eq(v attr.Value) map[string]dynamo.Condition {
	return map[string]dynamo.Condition{"pk": {ComparisonOperator: "EQ", AttributeValueList: []attr.Value{v}}}
}

func sks(items []attr.Item) []string {
	var out []string
	for _, it := range items {
		out = append(out, it["sk"].S)
	}
	return out
}

func TestQueryOrderAndPaging(t *testing.T) {
	db := mustOpen(t, Options{InMemory: true})
	mustCreate(t, db, "qtab", true)
	for _, sk := range []int{5, -3, 10, 0, -20, 7} {
		putN(t, db, "qtab", "a", sk, 0)
	}
	putN(t, db, "qtab", "b", 1, 0)

	out, err := db.Query(&dynamo.QueryInput{TableName: "qtab", KeyConditions: eq(attr.S("a"))})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(sks(out.Items), ","); got != "-20,-3,0,5,7,10" {
		t.Fatalf("forward order %s", got)
	}
	if out.Count != 6 || out.ScannedCount != 6 || out.LastEvaluatedKey != nil {
		t.Fatalf("counts %d/%d lek %v", out.Count, out.ScannedCount, out.LastEvaluatedKey)
	}

	// Page backwards two at a time: every item once, newest first.
	var seen []string
	var start attr.Item
	for pages := 0; ; pages++ {
		if pages > 10 {
			t.Fatal("paging does not end")
		}
		out, err := db.Query(&dynamo.QueryInput{TableName: "qtab", KeyConditions: eq(attr.S("a")), ScanIndexForward: new(false), Limit: i32(2), ExclusiveStartKey: start})
		if err != nil {
			t.Fatal(err)
		}
		seen = append(seen, sks(out.Items)...)
		if out.LastEvaluatedKey == nil {
			break
		}
		start = out.LastEvaluatedKey
	}
	if got := strings.Join(seen, ","); got != "10,7,5,0,-3,-20" {
		t.Fatalf("backward pages %s", got)
	}

	// A start key that is no item still positions the page.
	out, err = db.Query(&dynamo.QueryInput{TableName: "qtab", KeyConditions: eq(attr.S("a")), ExclusiveStartKey: attr.Item{"pk": attr.S("a"), "sk": attr.N("4.5")}})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(sks(out.Items), ","); got != "5,7,10" {
		t.Fatalf("after 4.5: %s", got)
	}

	conds := eq(attr.S("a"))
	conds["sk"] = dynamo.Condition{ComparisonOperator: "BETWEEN", AttributeValueList: []attr.Value{attr.N("-3"), attr.N("7")}}
	out, err = db.Query(&dynamo.QueryInput{TableName: "qtab", KeyConditions: conds, Select: dynamo.SelectCount})
	if err != nil {
		t.Fatal(err)
	}
	if out.Count != 4 || out.Items != nil {
		t.Fatalf("BETWEEN count %d items %v", out.Count, out.Items)
	}
}

func TestQueryErrors(t *testing.T) {
	db := mustOpen(t, Options{InMemory: true})
	mustCreate(t, db, "qtab", true)
	cases := []struct {
		in  dynamo.QueryInput
		msg string
	}{
		{dynamo.QueryInput{TableName: "qtab"}, "Either the KeyConditions or KeyConditionExpression parameter must be specified in the request."},
		{dynamo.QueryInput{TableName: "qtab", KeyConditions: map[string]dynamo.Condition{"sk": {ComparisonOperator: "EQ", AttributeValueList: []attr.Value{attr.N("1")}}}}, "Query condition missed key schema element: pk"},
		{dynamo.QueryInput{TableName: "qtab", KeyConditions: map[string]dynamo.Condition{"pk": {ComparisonOperator: "NE", AttributeValueList: []attr.Value{attr.S("a")}}}}, "Attempted conditional constraint is not an indexable operation"},
		{dynamo.QueryInput{TableName: "qtab", KeyConditions: map[string]dynamo.Condition{"pk": {ComparisonOperator: "EQ"}}}, "Invalid number of argument(s) for the EQ ComparisonOperator"},
		{dynamo.QueryInput{TableName: "qtab", KeyConditions: map[string]dynamo.Condition{"pk": {ComparisonOperator: "GT", AttributeValueList: []attr.Value{attr.S("a")}}}}, "Query key condition not supported"},
		{dynamo.QueryInput{TableName: "qtab", KeyConditions: eq(attr.N("1"))}, "Condition parameter type does not match schema type"},
		{dynamo.QueryInput{TableName: "qtab", KeyConditions: eq(attr.S("a")), ExclusiveStartKey: attr.Item{"pk": attr.S("a")}}, "The provided starting key is invalid"},
		{dynamo.QueryInput{TableName: "qtab", KeyConditions: eq(attr.S("a")), ExclusiveStartKey: attr.Item{"pk": attr.S("b"), "sk": attr.N("1")}}, "The provided starting key is outside query boundaries based on provided conditions"},
		{dynamo.QueryInput{TableName: "qtab", KeyConditions: eq(attr.S("a")), Limit: i32(0)}, msgQueryLimit},
		{dynamo.QueryInput{TableName: "qtab", KeyConditions: eq(attr.S("a")), Select: dynamo.SelectSpecificAttributes}, "Must specify the AttributesToGet or ProjectionExpression when choosing to get SPECIFIC_ATTRIBUTES"},
		{dynamo.QueryInput{TableName: "qtab", KeyConditions: eq(attr.S("a")), Select: dynamo.SelectAllProjectedAttributes}, "ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName"},
		{dynamo.QueryInput{TableName: "qtab", KeyConditions: eq(attr.S("a")), IndexName: "nope"}, "The table does not have the specified index: nope"},
	}
	for _, c := range cases {
		_, err := db.Query(&c.in)
		wantCode(t, err, dynamo.CodeValidation, c.msg)
	}
}

func TestScanSegmentsAndPages(t *testing.T) {
	db := mustOpen(t, Options{InMemory: true})
	mustCreate(t, db, "stab", true)
	const n = 300
	for i := 0; i < n; i++ {
		putN(t, db, "stab", fmt.Sprintf("p%d", i%37), i, 0)
	}
	// Four segments are disjoint and together the table.
	seen := map[string]int{}
	for seg := int32(0); seg < 4; seg++ {
		var start attr.Item
		for {
			out, err := db.Scan(&dynamo.ScanInput{TableName: "stab", Segment: i32(seg), TotalSegments: i32(4), Limit: i32(7), ExclusiveStartKey: start})
			if err != nil {
				t.Fatal(err)
			}
			for _, it := range out.Items {
				seen[it["sk"].S]++
			}
			if out.LastEvaluatedKey == nil {
				break
			}
			start = out.LastEvaluatedKey
		}
	}
	if len(seen) != n {
		t.Fatalf("segments saw %d distinct items, want %d", len(seen), n)
	}
	for k, c := range seen {
		if c != 1 {
			t.Fatalf("item %s seen %d times", k, c)
		}
	}
	// A start key from another segment is refused.
	out, err := db.Scan(&dynamo.ScanInput{TableName: "stab", Segment: i32(0), TotalSegments: i32(4)})
	if err != nil || len(out.Items) == 0 {
		t.Fatal(err)
	}
	_, err = db.Scan(&dynamo.ScanInput{TableName: "stab", Segment: i32(1), TotalSegments: i32(4), ExclusiveStartKey: out.Items[0]})
	if err == nil {
		// out.Items[0] carries more than the key: that is its own error.
		t.Fatal("a whole item as start key was accepted")
	}
	key := attr.Item{"pk": out.Items[0]["pk"], "sk": out.Items[0]["sk"]}
	_, err = db.Scan(&dynamo.ScanInput{TableName: "stab", Segment: i32(1), TotalSegments: i32(4), ExclusiveStartKey: key})
	wantCode(t, err, dynamo.CodeValidation, "Please use ExclusiveStartKey with correct Segment. TotalSegments: 4 Segment: 1")

	_, err = db.Scan(&dynamo.ScanInput{TableName: "stab", Segment: i32(4), TotalSegments: i32(4)})
	wantCode(t, err, dynamo.CodeValidation, "Segment: 4 is not less than TotalSegments: 4")
	_, err = db.Scan(&dynamo.ScanInput{TableName: "stab", Segment: i32(0)})
	wantCode(t, err, dynamo.CodeValidation, "The TotalSegments parameter is required")
	_, err = db.Scan(&dynamo.ScanInput{TableName: "stab", ExclusiveStartKey: attr.Item{"pk": attr.S("x")}})
	wantCode(t, err, dynamo.CodeValidation, "The provided starting key is invalid: The provided key element does not match the schema")
}

func TestScanOneMegabytePagesAndBill(t *testing.T) {
	db := mustOpen(t, Options{InMemory: true})
	mustCreate(t, db, "big", true)
	// 40 items of about 100 KB: 4 MB, so at least four pages.
	for i := 0; i < 40; i++ {
		putN(t, db, "big", fmt.Sprintf("p%d", i), i, 100_000)
	}
	pages, total := 0, 0
	var start attr.Item
	for {
		out, err := db.Scan(&dynamo.ScanInput{TableName: "big", ExclusiveStartKey: start, ReturnConsumedCapacity: dynamo.ReturnConsumedCapacityTotal, ConsistentRead: true})
		if err != nil {
			t.Fatal(err)
		}
		pages++
		total += out.Count
		if out.Count > 11 {
			t.Fatalf("a page of %d 100 KB items exceeds 1 MB", out.Count)
		}
		// Billed on the bytes read: about 25 units per 100 KB item.
		if u := *out.ConsumedCapacity.CapacityUnits; out.Count > 0 && (u < float64(out.Count)*24 || u > float64(out.Count)*25+1) {
			t.Fatalf("page of %d items billed %v units", out.Count, u)
		}
		if out.LastEvaluatedKey == nil {
			break
		}
		start = out.LastEvaluatedKey
	}
	if total != 40 || pages < 4 {
		t.Fatalf("%d items in %d pages", total, pages)
	}
}
