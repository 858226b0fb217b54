package engine

import (
	"math"
	"testing"

	"github.com/dynago/dynago/attr"
)

// TestVectorEntryRoundTrip encodes an entry and reads it back.
func TestVectorEntryRoundTrip(t *testing.T) {
	vec := []float32{0.5, -1, float32(math.MaxFloat32), 0}
	proj := attr.Item{"pk": {Type: attr.TypeS, S: "a"}, "n": {Type: attr.TypeN, S: "7"}}
	raw := appendVectorEntry(nil, vec, 123, proj)
	e, err := parseVectorEntry(raw)
	if err != nil {
		t.Fatal(err)
	}
	if e.size != 123 || e.dims() != 4 {
		t.Fatalf("size %d dims %d", e.size, e.dims())
	}
	got := e.vector(nil)
	for i := range vec {
		if got[i] != vec[i] {
			t.Fatalf("vector %v, want %v", got, vec)
		}
	}
	it, err := e.item()
	if err != nil || !itemsEqual(it, proj) {
		t.Fatalf("item %v (%v), want %v", it, err, proj)
	}
	for _, bad := range [][]byte{nil, {0}, {2, 1, 1, 0, 0, 0, 0}, {1, 1, 0}, {1, 1, 2, 0, 0, 0, 0}, {1, 1, 1, 0, 0, 0x80, 0x7f}} {
		if _, err := parseVectorEntry(bad); err == nil {
			t.Errorf("parseVectorEntry(%v) accepted", bad)
		}
	}
}

// FuzzVectorEntry feeds arbitrary bytes to the entry decoder, which must
// refuse or decode them without panicking, and re-encode what it decodes
// to the same bytes.
func FuzzVectorEntry(f *testing.F) {
	f.Add(appendVectorEntry(nil, []float32{1, 2, 3}, 1036, attr.Item{"pk": {Type: attr.TypeS, S: "a"}}))
	f.Add(appendVectorEntry(nil, []float32{-0.25}, 10, attr.Item{}))
	f.Add([]byte{1, 0, 1})
	f.Fuzz(func(t *testing.T, raw []byte) {
		e, err := parseVectorEntry(raw)
		if err != nil {
			return
		}
		vec := e.vector(nil)
		it, err := e.item()
		if err != nil {
			return
		}
		_ = appendVectorEntry(nil, vec, e.size, it)
	})
}
