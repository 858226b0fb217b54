package attr

import (
	"fmt"
	"testing"
)

func TestCompare(t *testing.T) {
	cases := []struct {
		name   string
		a, b   Value
		want   int
		wantOK bool
	}{
		{"S equal", S("a"), S("a"), 0, true},
		{"S less", S("a"), S("b"), -1, true},
		{"S prefix", S("ab"), S("abc"), -1, true},
		{"S bytewise not rune order", S("\uffff"), S("\U00010000"), -1, true},
		{"S upper before lower", S("Z"), S("a"), -1, true},
		{"S empty", S(""), S("a"), -1, true},
		{"N numeric not textual", N("10"), N("9"), 1, true},
		{"N equal values", N("1.0"), N("1"), 0, true},
		{"N negative", N("-10"), N("-9"), -1, true},
		{"B unsigned", B([]byte{0x80}), B([]byte{0x7f}), 1, true},
		{"B prefix", B([]byte{1}), B([]byte{1, 0}), -1, true},
		{"B nil and empty", B(nil), B([]byte{}), 0, true},
		{"different types", S("1"), N("1"), 0, false},
		{"BOOL not ordered", Bool(false), Bool(true), 0, false},
		{"NULL not ordered", Null(), Null(), 0, false},
		{"M not ordered", m(), m(), 0, false},
		{"L not ordered", l(), l(), 0, false},
		{"SS not ordered", ss("a"), ss("a"), 0, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := Compare(tc.a, tc.b)
			if got != tc.want || ok != tc.wantOK {
				t.Fatalf("Compare = %d, %v; want %d, %v", got, ok, tc.want, tc.wantOK)
			}
			got, ok = Compare(tc.b, tc.a)
			if got != -tc.want || ok != tc.wantOK {
				t.Fatalf("reversed Compare = %d, %v", got, ok)
			}
		})
	}
}

func TestEqual(t *testing.T) {
	big := func(prefix string, n int, extra ...string) Value {
		v := Value{Type: TypeNS}
		if prefix != "" {
			v.Type = TypeSS
		}
		for i := range n {
			s := fmt.Sprint(prefix, i)
			if prefix == "" {
				v.SS = append(v.SS, s)
			} else {
				v.SS = append(v.SS, s)
			}
		}
		if prefix == "" {
			v.SS = append(v.SS, extra...)
		} else {
			v.SS = append(v.SS, extra...)
		}
		return v
	}
	cases := []struct {
		name string
		a, b Value
		want bool
	}{
		{"S", S("a"), S("a"), true},
		{"S differ", S("a"), S("b"), false},
		{"N by value", N("1"), N("1.00"), true},
		{"N exponent", N("1e2"), N("100"), true},
		{"N differ", N("1"), N("2"), false},
		{"B", B([]byte{1}), B([]byte{1}), true},
		{"B nil empty", B(nil), B([]byte{}), true},
		{"B differ", B([]byte{1}), B([]byte{2}), false},
		{"BOOL", Bool(true), Bool(true), true},
		{"BOOL differ", Bool(true), Bool(false), false},
		{"NULL", Null(), Null(), true},
		{"types differ", S("1"), N("1"), false},
		{"SS order ignored", ss("a", "b"), ss("b", "a"), true},
		{"SS differ", ss("a", "b"), ss("a", "c"), false},
		{"SS sizes differ", ss("a"), ss("a", "b"), false},
		{"SS duplicates do not fool", ss("a", "a", "b"), ss("a", "b", "b"), true},
		{"SS duplicates do not fool 2", ss("a", "a"), ss("a", "b"), false},
		{"NS by value", ns("1", "2.0"), ns("2", "1.00"), true},
		{"NS differ", ns("1", "2"), ns("1", "3"), false},
		{"BS order ignored", bs([]byte{1}, []byte{2}), bs([]byte{2}, []byte{1}), true},
		{"BS differ", bs([]byte{1}), bs([]byte{3}), false},
		{"large SS", big("s", 50), big("s", 50), true},
		{"large SS differ", big("s", 50, "x"), big("s", 50, "y"), false},
		{"large NS by value", big("", 50, "1e100"), big("", 50, "10e99"), true},
		{"large NS differ", big("", 50, "1e100"), big("", 50, "1e101"), false},
		{"large NS bad text", big("", 50, "x"), big("", 50, "x"), true},
		{"M", m("a", N("1"), "b", l(S("x"))), m("b", l(S("x")), "a", N("1.0")), true},
		{"M missing key", m("a", N("1")), m("b", N("1")), false},
		{"M value differs", m("a", N("1")), m("a", N("2")), false},
		{"M sizes differ", m("a", N("1")), m("a", N("1"), "b", N("1")), false},
		{"M nil and empty", Value{Type: TypeM}, m(), true},
		{"L", l(S("a"), N("1")), l(S("a"), N("1")), true},
		{"L order matters", l(S("a"), S("b")), l(S("b"), S("a")), false},
		{"L lengths differ", l(S("a")), l(S("a"), S("a")), false},
		{"deep", m("x", l(m("y", ns("1", "2")))), m("x", l(m("y", ns("2.0", "1")))), true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := Equal(tc.a, tc.b); got != tc.want {
				t.Fatalf("Equal = %v, want %v", got, tc.want)
			}
			if got := Equal(tc.b, tc.a); got != tc.want {
				t.Fatalf("reversed Equal = %v, want %v", got, tc.want)
			}
		})
	}
}
