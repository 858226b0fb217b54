package attr

import (
	"strings"
	"testing"
)

// Number sizes: 1 exponent byte, the significant digits in pairs aligned on
// the decimal point (one more byte when the digit count and the adjusted
// exponent are both even), 1 more byte for a negative number, and 1 byte for
// zero. The formula is dynalite's valSize (architect/dynalite db/index.js,
// commit 5c013d0). The large-magnitude rows are the ones dynalite's tests
// pin against DynamoDB's item size limit (test/putItem.js, "should return
// ValidationException if item is too big with ... number attribute"): 38
// digits take 20 bytes, 1E+125 takes 2, 11111E+121 4, 111111E+120 4,
// 1111111E+119 5. Zero, "-1.5" and the other parity and sign rows changed
// with this formula (they were ceil(d/2)+1, with zero as 2).
func TestNumberSize(t *testing.T) {
	cases := []struct {
		n    string
		want int
	}{
		{"0", 1},       // dynalite: zero is 1 byte
		{"-0.000", 1},  // canonical zero
		{"0E-10", 1},   // zero with an exponent
		{"1", 2},       // one digit
		{"-1", 3},      // negative: terminator byte
		{"12", 2},      // d=2, adj=1: one pair
		{"1.2", 3},     // d=2, adj=0: "01" "20"
		{"-1.2", 4},    // and negative
		{"123", 3},     // d=3
		{"1234", 3},    // d=4, adj=3
		{"12.34", 3},   // d=4, adj=1 (odd): two pairs
		{"123.4", 4},   // d=4, adj=2: even, even
		{"-1.5", 4},    // d=2, adj=0, negative
		{"0.001", 2},   // d=1
		{"0.0012", 2},  // d=2, adj=-3 (odd): one pair
		{"0.012", 3},   // d=2, adj=-2 (even)
		{"100", 2},     // trailing zeros are not significant
		{"1.0e3", 2},   // nor are they in the mantissa
		{"-1E-130", 3}, // smallest negative magnitude
		{strings.Repeat("1", 38) + strings.Repeat("0", 88), 20},
		{"-" + strings.Repeat("1", 38) + strings.Repeat("0", 88), 21},
		{"1" + strings.Repeat("0", 125), 2},
		{"11" + strings.Repeat("0", 124), 2},
		{"11111" + strings.Repeat("0", 121), 4},
		{"111111" + strings.Repeat("0", 120), 4},
		{"1111111" + strings.Repeat("0", 119), 5},
		{"abc", 3}, // unparseable: sized as three digits
	}
	for _, tc := range cases {
		t.Run(tc.n, func(t *testing.T) {
			if got := ValueSize(N(tc.n)); got != tc.want {
				t.Fatalf("ValueSize(N(%q)) = %d, want %d", tc.n, got, tc.want)
			}
		})
	}
}

func TestAttributeSize(t *testing.T) {
	cases := []struct {
		name string
		attr string
		v    Value
		want int
	}{
		{"string", "ab", S("héllo"), 2 + 6},
		{"empty string", "a", S(""), 1},
		{"utf8 name", "é", S("x"), 2 + 1},
		{"number", "n", N("12345"), 1 + 4},
		{"binary", "b", B([]byte{1, 2, 3}), 1 + 3},
		{"bool", "b", Bool(false), 1 + 1},
		{"null", "nul", Null(), 3 + 1},
		{"empty map", "m", Value{Type: TypeM}, 1 + 3},
		{"map", "m", m("a", S("bc")), 1 + 3 + (1 + 1 + 2)},
		{"empty list", "l", Value{Type: TypeL}, 1 + 3},
		{"list", "l", l(S("x"), N("1")), 1 + 3 + (1 + 1) + (1 + 2)},
		{"nested", "x", l(m("k", l())), 1 + 3 + 1 + (3 + 1 + 1 + 3)},
		{"string set", "s", ss("ab", "c"), 1 + 3},
		{"number set", "s", ns("1", "22", "333"), 1 + 2 + 2 + 3},
		{"binary set", "s", bs([]byte{1}, []byte{1, 2}), 1 + 3},
		{"invalid", "s", Value{}, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := AttributeSize(tc.attr, tc.v); got != tc.want {
				t.Fatalf("AttributeSize = %d, want %d", got, tc.want)
			}
		})
	}
}

func TestItemSize(t *testing.T) {
	if MaxItemSize != 409600 {
		t.Fatal(MaxItemSize)
	}
	if ItemSize(nil) != 0 {
		t.Fatal("nil item")
	}
	// dynalite's boundary: a string attribute padded so that the item is
	// exactly MaxItemSize is accepted, one byte more is not.
	key := "abcdefghij"
	pad := strings.Repeat("a", MaxItemSize-len(key)-2)
	it := Item{"a": S(key), "b": S(pad)}
	if got := ItemSize(it); got != MaxItemSize {
		t.Fatalf("ItemSize = %d", got)
	}
	it["c"] = m("x", N("1"), "y", l(Bool(true)))
	want := MaxItemSize + 1 + 3 + (1 + 1 + 2) + (1 + 1 + 3 + 1 + 1)
	if got := ItemSize(it); got != want {
		t.Fatalf("ItemSize = %d, want %d", got, want)
	}
}

func BenchmarkItemSize(b *testing.B) {
	it := benchItem()
	b.ReportAllocs()
	for b.Loop() {
		if ItemSize(it) == 0 {
			b.Fatal("zero")
		}
	}
}
