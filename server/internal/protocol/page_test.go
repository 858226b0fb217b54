package protocol

import (
	"bytes"
	"strings"
	"testing"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
)

// TestPageWriter checks that a page written item by item is EncodeScan's
// answer byte for byte: empty or not, with or without a LastEvaluatedKey
// and ConsumedCapacity (one too large for the room left for it), small
// and past 64 KiB, after bytes already in the buffer.
func TestPageWriter(t *testing.T) {
	units := 12.5
	long := strings.Repeat("i", 255)
	capacities := []*dynamo.ConsumedCapacity{
		nil,
		{TableName: "t", CapacityUnits: &units},
		{TableName: long, CapacityUnits: &units, GlobalSecondaryIndexes: map[string]dynamo.Capacity{
			long + "1": {CapacityUnits: &units}, long + "2": {CapacityUnits: &units},
			long + "3": {CapacityUnits: &units}, long + "4": {CapacityUnits: &units}}},
	}
	for _, n := range []int{0, 1, 3, 200} {
		var encoded [][]byte
		for i := range n {
			item := attr.Item{"pk": attr.S(strings.Repeat("k", i%7)), "n": attr.N("12"), "data": attr.S(strings.Repeat("x\"é", 150))}
			encoded = append(encoded, attr.AppendItem(nil, item))
		}
		for _, cc := range capacities {
			for _, last := range []attr.Item{nil, {"pk": attr.S("k")}} {
				out := &dynamo.ScanOutput{Count: n, ScannedCount: n + 3, LastEvaluatedKey: last, ConsumedCapacity: cc, EncodedItems: encoded}
				if encoded == nil {
					out.EncodedItems = [][]byte{}
				}
				want := EncodeScan(nil, out)
				for _, prefix := range []string{"", "prefix"} {
					w := NewPageWriter([]byte(prefix))
					for _, b := range encoded {
						if err := w.Item(b); err != nil {
							t.Fatal(err)
						}
					}
					buf, answer := w.Finish(out.Count, out.ScannedCount, out.LastEvaluatedKey, out.ConsumedCapacity)
					if !bytes.Equal(answer, want) {
						t.Fatalf("%d items, capacity %v, last %v, prefix %q:\n got %.300s\nwant %.300s", n, cc != nil, last, prefix, answer, want)
					}
					if !bytes.HasPrefix(buf, []byte(prefix)) || cap(answer) > cap(buf) {
						t.Errorf("%d items, prefix %q: buffer %.40q", n, prefix, buf)
					}
					if len(want) <= largeAnswer && !bytes.Equal(buf[len(prefix):], want) {
						t.Errorf("%d items: a small answer is not at the start of its buffer", n)
					}
				}
			}
		}
	}
	w := NewPageWriter([]byte("keep"))
	_ = w.Item(attr.AppendItem(nil, attr.Item{"a": attr.S("b")}))
	if got := w.Abandon(); string(got) != "keep" {
		t.Errorf("Abandon: %q", got)
	}
}

// TestPageWriterRefusesMalformed checks that an item the engine hands
// over malformed is not written, and that its error is CheckItem's.
func TestPageWriterRefusesMalformed(t *testing.T) {
	good := attr.AppendItem(nil, attr.Item{"a": attr.S("x")})
	for _, bad := range [][]byte{
		nil,
		good[:len(good)-1],
		append(append([]byte{}, good...), 0),
		attr.AppendItem(nil, attr.Item{"a": attr.Value{Type: attr.TypeBOOL}})[:4],
	} {
		w := NewPageWriter(nil)
		if err := w.Item(good); err != nil {
			t.Fatal(err)
		}
		err := w.Item(bad)
		want := attr.CheckItem(bad)
		if err == nil || want == nil || err.Error() != want.Error() {
			t.Errorf("%x: %v, want %v", bad, err, want)
		}
		_, answer := w.Finish(1, 2, nil, nil)
		if want := EncodeScan(nil, &dynamo.ScanOutput{Count: 1, ScannedCount: 2, EncodedItems: [][]byte{good}}); !bytes.Equal(answer, want) {
			t.Errorf("%x: answer %s, want %s", bad, answer, want)
		}
	}
}
