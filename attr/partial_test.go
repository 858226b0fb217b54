package attr

import (
	"slices"
	"testing"
)

// checkDecodeAttributes checks that DecodeAttributes refuses exactly what
// DecodeItem refuses, with the same error, and otherwise gives DecodeItem's
// values for the names asked, for every subset of the item's names that
// the bits of pick choose, plus a name the item lacks.
func checkDecodeAttributes(t *testing.T, b []byte, pick byte) {
	t.Helper()
	want, wantErr := DecodeItem(b)
	var names []string
	if wantErr == nil {
		for i, k := range slices.Sorted(func(yield func(string) bool) {
			for k := range want {
				if !yield(k) {
					return
				}
			}
		}) {
			if pick&(1<<(i%8)) != 0 {
				names = append(names, k)
			}
		}
	}
	names = append(names, "\xff\xffabsent")
	slices.Sort(names)
	got := Item{"stale": S("x")}
	err := DecodeAttributes(got, b, names)
	if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
		t.Fatalf("DecodeAttributes(%x): %v, DecodeItem: %v", b, err, wantErr)
	}
	if err != nil {
		return
	}
	sub := Item{}
	for _, k := range names {
		if v, ok := want[k]; ok {
			sub[k] = v
		}
	}
	if !itemsEqual(got, sub) {
		t.Fatalf("DecodeAttributes(%x, %q) = %#v, want %#v", b, names, got, sub)
	}
}

func FuzzDecodeAttributes(f *testing.F) {
	for _, it := range sampleItems() {
		f.Add(AppendItem(nil, it), byte(0xff))
		f.Add(AppendItem(nil, it), byte(0x05))
	}
	f.Add(AppendItem(nil, benchItem()), byte(0x0a))
	f.Add([]byte{}, byte(0))
	f.Add([]byte{formatV1}, byte(0))
	f.Add([]byte{formatV1, 0x80, 0x00}, byte(0))
	f.Fuzz(func(t *testing.T, b []byte, pick byte) {
		checkDecodeAttributes(t, b, pick)
		// The same bytes read as a generated item, which is valid.
		g := &gen{b: b}
		it := Item{}
		for n := g.next() % 8; n > 0; n-- {
			it[string(g.bytes())] = g.value(1)
		}
		enc := AppendItem(nil, it)
		checkDecodeAttributes(t, enc, pick)
		// And that item cut short, or with a byte changed.
		for i := 1; i < len(enc); i++ {
			checkDecodeAttributes(t, enc[:i], pick)
			mangled := slices.Clone(enc)
			mangled[i] ^= pick | 1
			checkDecodeAttributes(t, mangled, pick)
		}
	})
}
