package protocol

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
)

// Allocation ceilings of the wire codec's hot paths: decoding the request
// and encoding the response of GetItem, PutItem and Query. Allocations
// per call are deterministic, unlike time, so these fail on a regression
// without timing anything. Each ceiling is today's exact count: a change
// that adds an allocation fails here; a change that removes one should
// lower the ceiling to the new count (the failure message and -v print
// it).

// allocsItemJSON is an item of about 1 KB in DynamoDB JSON, of the mixed
// types a real table holds.
func allocsItemJSON(i int) string {
	return fmt.Sprintf(`{"pk":{"S":"p%d"},"sk":{"S":"s%08d"},"n":{"N":"%d.5"},"ok":{"BOOL":true},`+
		`"tags":{"SS":["red","green","blue"]},"dims":{"M":{"w":{"N":"10"},"h":{"N":"20"}}},`+
		`"list":{"L":[{"S":"a"},{"N":"1"}]},"data":{"S":%q}}`, i%7, i, i, strings.Repeat("x", 800))
}

func TestAllocsCodec(t *testing.T) {
	getBody := []byte(`{"TableName":"bench","Key":{"pk":{"S":"p1"},"sk":{"S":"s00000001"}}}`)
	putBody := []byte(`{"TableName":"bench","Item":` + allocsItemJSON(1) + `}`)
	queryBody := []byte(`{"TableName":"bench","KeyConditionExpression":"pk = :p",` +
		`"ExpressionAttributeValues":{":p":{"S":"p1"}},"ScanIndexForward":false,"Limit":20}`)
	items := make([]attr.Item, 20)
	for i := range items {
		in, err := DecodePutItem([]byte(`{"TableName":"bench","Item":` + allocsItemJSON(i) + `}`))
		if err != nil {
			t.Fatal(err)
		}
		items[i] = in.Item
	}
	getOut := &dynamo.GetItemOutput{Item: items[0]}
	putOut := &dynamo.PutItemOutput{}
	queryOut := &dynamo.QueryOutput{Items: items, Count: 20, ScannedCount: 20,
		LastEvaluatedKey: attr.Item{"pk": items[19]["pk"], "sk": items[19]["sk"]}}
	buf := make([]byte, 0, 64<<10)
	for _, c := range []struct {
		name    string
		ceiling float64
		fn      func()
	}{
		// The input struct, the key's map and its strings.
		{"DecodeGetItem", 9, func() {
			if _, err := DecodeGetItem(getBody); err != nil {
				t.Fatal(err)
			}
		}},
		// The input struct, the item's maps, sets, list and strings.
		{"DecodePutItem", 35, func() {
			if _, err := DecodePutItem(putBody); err != nil {
				t.Fatal(err)
			}
		}},
		// The input struct, its expression and values.
		{"DecodeQuery", 10, func() {
			if _, err := DecodeQuery(queryBody); err != nil {
				t.Fatal(err)
			}
		}},
		// Encoding into a buffer with room to spare.
		{"EncodeGetItem", 0, func() { buf = EncodeGetItem(buf[:0], getOut) }},
		{"EncodePutItem", 0, func() { buf = EncodePutItem(buf[:0], putOut) }},
		{"EncodeQuery", 0, func() { buf = EncodeQuery(buf[:0], queryOut) }},
	} {
		got := testing.AllocsPerRun(1000, c.fn)
		t.Logf("%s: %v allocs/op", c.name, got)
		if got > c.ceiling {
			t.Errorf("%s: %v allocations a call, ceiling %v", c.name, got, c.ceiling)
		}
	}
}

// BenchmarkDecodePutItem decodes PutItem requests of the item of about
// 1 KB TestAllocsCodec uses.
func BenchmarkDecodePutItem(b *testing.B) {
	body := []byte(`{"TableName":"bench","Item":` + allocsItemJSON(1) + `}`)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodePutItem(body); err != nil {
			b.Fatal(err)
		}
	}
}
