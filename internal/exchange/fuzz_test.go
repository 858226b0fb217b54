package exchange_test

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"testing"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/internal/exchange"
)

// fuzzRead reads data in format to its end: it must neither panic nor
// loop, and each good item must be valid and survive a round trip
// through the export writer's encoding.
func fuzzRead(t *testing.T, data []byte, format exchange.Format) {
	opts := exchange.ReadOptions{Format: format}
	if format == exchange.FormatCSV {
		opts.CSV.KeyTypes = map[string]attr.Type{"pk": attr.TypeS, "n": attr.TypeN, "b": attr.TypeB}
	}
	r, err := exchange.NewReader(bytes.NewReader(data), "fuzz", opts)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for n := 0; ; n++ {
		if n > len(data)+1 {
			t.Fatalf("more records than bytes: the reader loops")
		}
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			return
		}
		var le *exchange.LineError
		if errors.As(err, &le) {
			continue
		}
		if err != nil {
			return
		}
		if rec.Item == nil {
			continue
		}
		if err := attr.CanonicalizeItem(rec.Item); err != nil {
			t.Fatalf("an item read is invalid: %v", err)
		}
		line := append(append([]byte(`{"Item":`), exchange.AppendItemJSON(nil, rec.Item)...), '}')
		back, err := exchange.ParseItemJSON(line[len(`{"Item":`) : len(line)-1])
		if err != nil || !reflect.DeepEqual(back, rec.Item) {
			t.Fatalf("round trip of %v: %v, %v", rec.Item, back, err)
		}
	}
}

func FuzzReadDynamoDBJSON(f *testing.F) {
	f.Add([]byte(`{"Item":{"pk":{"S":"a"},"n":{"N":"1.50"},"b":{"B":"AAE="},"m":{"M":{"l":{"L":[{"NULL":true},{"BOOL":false}]}}},"ss":{"SS":["x","y"]},"ns":{"NS":["1","2"]},"bs":{"BS":["AA=="]}}}` + "\n"))
	f.Add([]byte(`{"Metadata":{"WriteTimestampMicros":{"N":"1680109764000000"}},"Keys":{"pk":{"S":"a"}},"NewImage":{"pk":{"S":"a"}}}`))
	f.Add([]byte("{\"Item\":{}}\n\n{bad\n"))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRead(t, data, exchange.FormatDynamoDBJSON) })
}

func FuzzReadIon(f *testing.F) {
	f.Add([]byte(`$ion_1_0 {Item:{Authors:$dynamodb_SS::["Author1","Author2"],Id:103.,PageCount:6d2,b:{{aGk=}},n:null,'x y':-0.5,l:[true,1e3]}}` + "\n"))
	f.Add([]byte("{Metadata:{WriteTimestampMicros:1680109764000000},Keys:{pk:\"a\"},OldImage:{pk:\"a\"}}\n/* c */ {Item:{s:'''a''' '''b''', h:0x1F}}"))
	f.Add([]byte("{Item:{a:{{\"clob\"}}, b:$dynamodb_NS::[1,2.5d-3]}}\n{Item:{x:(sexp)}}\n"))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRead(t, data, exchange.FormatION) })
}

func FuzzReadCSV(f *testing.F) {
	f.Add([]byte("pk,n,b,other\na,1,AAE=,x\n\"q,\"\"\",2.5,AA==,\n"))
	f.Add([]byte("pk,pk\na,b\n"))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRead(t, data, exchange.FormatCSV) })
}
