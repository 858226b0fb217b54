package protocol

import (
	"bytes"
	"testing"

	"github.com/dynago/dynago/attr"
)

// FuzzRawItemChecked checks that writing an encoded item to JSON finds it
// malformed exactly where attr.CheckItem refuses it, and otherwise writes
// what appendItem writes for the decoded item, on arbitrary bytes.
func FuzzRawItemChecked(f *testing.F) {
	for _, it := range []attr.Item{
		{},
		{"a": attr.S("x"), "b": attr.N("1"), "c": attr.B([]byte{0, 1})},
		{"m": {Type: attr.TypeM, M: attr.Item{"x": attr.Null(), "y": attr.Bool(true)}},
			"l": {Type: attr.TypeL, L: []attr.Value{attr.S("é"), {Type: attr.TypeL}}}},
		{"ss": {Type: attr.TypeSS, SS: []string{"a", "b"}}, "ns": {Type: attr.TypeNS, SS: []string{"1", "2"}},
			"bs": {Type: attr.TypeBS, BS: [][]byte{{1}, {2}}}},
	} {
		f.Add(attr.AppendItem(nil, it))
	}
	deep := attr.Value{Type: attr.TypeL}
	for range 2*attr.MaxDepth + 2 {
		deep = attr.Value{Type: attr.TypeL, L: []attr.Value{deep}}
	}
	f.Add(attr.AppendItem(nil, attr.Item{"d": deep}))
	f.Add([]byte{1, 2, 1, 'b', 1, 0, 1, 'a', 1, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		r := attr.RawItem(b)
		got := appendRawItem(nil, &r)
		err := attr.CheckItem(b)
		if r.Malformed() != (err != nil) {
			t.Fatalf("%x: Malformed %v, CheckItem %v", b, r.Malformed(), err)
		}
		if err != nil {
			return
		}
		item, err := attr.DecodeItem(b)
		if err != nil {
			t.Fatalf("%x: CheckItem accepts, DecodeItem: %v", b, err)
		}
		if want := appendItem(nil, item); !bytes.Equal(got, want) {
			t.Fatalf("%x:\n got %s\nwant %s", b, got, want)
		}
	})
}
