package attr

import "testing"

// Allocation ceilings of the item codec's hot paths. Allocations per call
// are deterministic, unlike time, so these fail on a regression without
// timing anything. Each ceiling is today's exact count: a change that
// adds an allocation fails here; a change that removes one should lower
// the ceiling to the new count (the failure message and -v print it).

func TestAllocsItemCodec(t *testing.T) {
	it := benchItem()
	enc := AppendItem(nil, it)
	buf := make([]byte, 0, 2*len(enc))
	for _, c := range []struct {
		name    string
		ceiling float64
		fn      func()
	}{
		// Decoding the ~1 KB bench item: the map, its nested maps,
		// lists and sets, and the strings and bytes they hold.
		{"DecodeItem", 17, func() {
			if _, err := DecodeItem(enc); err != nil {
				t.Fatal(err)
			}
		}},
		// Encoding it into a buffer with room to spare.
		{"AppendItem", 0, func() { buf = AppendItem(buf[:0], it) }},
	} {
		got := testing.AllocsPerRun(1000, c.fn)
		t.Logf("%s: %v allocs/op", c.name, got)
		if got > c.ceiling {
			t.Errorf("%s: %v allocations a call, ceiling %v", c.name, got, c.ceiling)
		}
	}
}
