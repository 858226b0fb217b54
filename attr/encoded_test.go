package attr

import (
	"errors"
	"testing"
)

func TestEncodedGet(t *testing.T) {
	item := Item{
		"a":    S("x"),
		"b":    N("12"),
		"m":    {Type: TypeM, M: Item{"in": S("y")}},
		"l":    {Type: TypeL, L: []Value{S("1"), Bool(true)}},
		"zz":   Null(),
		"Name": {Type: TypeSS, SS: []string{"p", "q"}},
	}
	b := AppendItem(nil, item)
	var e Encoded
	e.Reset(b)
	for name, want := range item {
		got, ok := e.Get(name)
		if !ok || !Equal(got, want) {
			t.Errorf("Get(%q) = %v, %v; want %v", name, got, ok, want)
		}
	}
	for _, name := range []string{"", "A", "aa", "c", "zzz", "in"} {
		if v, ok := e.Get(name); ok {
			t.Errorf("Get(%q) = %v, want absent", name, v)
		}
	}
	if e.Err() != nil {
		t.Errorf("Err() = %v", e.Err())
	}

	// Values do not alias the input.
	got, _ := e.Get("a")
	for i := range b {
		b[i] = 0
	}
	if got.S != "x" {
		t.Errorf("value changed with its input: %q", got.S)
	}

	e.Reset(nil)
	if _, ok := e.Get("a"); ok || e.Err() != nil {
		t.Errorf("no item: got an attribute or %v", e.Err())
	}

	// A malformed item: the error DecodeItem gives, and no value.
	bad := AppendItem(nil, Item{"a": S("x"), "b": S("y")})
	bad = bad[:len(bad)-1]
	_, want := DecodeItem(bad)
	e.Reset(bad)
	if _, ok := e.Get("b"); ok || e.Err() == nil || e.Err().Error() != want.Error() || !errors.Is(e.Err(), ErrCorrupt) {
		t.Errorf("truncated item: Err() = %v, want %v", e.Err(), want)
	}
	e.Reset([]byte{0x7f})
	if _, ok := e.Get("a"); ok || e.Err() == nil {
		t.Errorf("unknown format: Err() = %v", e.Err())
	}
}

// FuzzEncodedGet checks Get against DecodeItem on arbitrary bytes: where
// DecodeItem accepts the input, Get finds exactly its attributes with
// their values; where Get reports an error, DecodeItem refuses the input.
func FuzzEncodedGet(f *testing.F) {
	f.Add(AppendItem(nil, Item{"a": S("x"), "b": N("1")}), "a")
	f.Add(AppendItem(nil, Item{"m": {Type: TypeM, M: Item{"x": Null()}}, "z": Bool(false)}), "z")
	f.Add([]byte{formatV1, 1, 1, 'a'}, "a")
	f.Fuzz(func(t *testing.T, b []byte, name string) {
		var e Encoded
		e.Reset(b)
		v, ok := e.Get(name)
		item, err := DecodeItem(b)
		if e.Err() != nil {
			if err == nil {
				t.Fatalf("Get(%q): %v, but DecodeItem accepts %x", name, e.Err(), b)
			}
			return
		}
		if err != nil {
			return // Get walked only a well-formed part
		}
		want, has := item[name]
		if ok != has || ok && !Equal(v, want) {
			t.Fatalf("Get(%q) = %v, %v; DecodeItem has %v, %v", name, v, ok, want, has)
		}
	})
}
