package attr

import (
	"bytes"
	"encoding/hex"
	"errors"
	"strings"
	"testing"
)

func itemsEqual(a, b Item) bool {
	return Equal(Value{Type: TypeM, M: a}, Value{Type: TypeM, M: b})
}

// benchItem is an item of about 1 KB with a dozen attributes of mixed types.
func benchItem() Item {
	payload := make([]byte, 200)
	for i := range payload {
		payload[i] = byte(i * 7)
	}
	line := func(sku, qty, price string) Value {
		return m("sku", S(sku), "qty", N(qty), "price", N(price))
	}
	return Item{
		"pk":          S("customer#000123456789"),
		"sk":          S("order#2024-05-17T09:30:00Z#00042"),
		"total":       N("1234.56"),
		"count":       N("3"),
		"paid":        Bool(true),
		"coupon":      Null(),
		"signature":   B(payload),
		"tags":        ss("express", "gift", "priority", "fragile", "insured"),
		"ratings":     ns("4.5", "3", "5", "-1", "0.25"),
		"address":     m("street", S("1 Infinite Loop"), "city", S("Cupertino"), "zip", N("95014"), "country", S("US")),
		"lines":       l(line("A-1000", "1", "999.99"), line("B-2000", "2", "100.5"), line("C-3000", "10", "3.357")),
		"description": S(strings.Repeat("Lorem ipsum dolor sit amet. ", 15)),
	}
}

func TestBenchItemIsAboutOneKB(t *testing.T) {
	n := len(AppendItem(nil, benchItem()))
	if n < 900 || n > 1200 {
		t.Fatalf("encoded bench item is %d bytes", n)
	}
}

func sampleItems() map[string]Item {
	return map[string]Item{
		"empty":   {},
		"scalars": {"s": S("x"), "n": N("-1.5"), "b": B([]byte{0, 1, 0xff}), "t": Bool(true), "f": Bool(false), "z": Null()},
		"empties": {"s": S(""), "b": B(nil), "m": Value{Type: TypeM}, "l": Value{Type: TypeL}, "": S("unnamed")},
		"sets":    {"ss": ss("b", "a", ""), "ns": ns("10", "9", "-1"), "bs": bs([]byte{2}, []byte{}, []byte{1, 0})},
		"nested":  {"m": m("x", l(m("y", ns("1"), "z", bs([]byte("q")))), "w", Null()), "deep": deepMap(31)},
		"bench":   benchItem(),
		"unicode": {"ключ": S("значение 🎉"), "名前": ss("一", "二")},
	}
}

func TestRoundTrip(t *testing.T) {
	for name, it := range sampleItems() {
		t.Run(name, func(t *testing.T) {
			enc := AppendItem(nil, it)
			got, err := DecodeItem(enc)
			if err != nil {
				t.Fatal(err)
			}
			if !itemsEqual(got, it) {
				t.Fatalf("round trip changed the item:\n got %#v\nwant %#v", got, it)
			}
			if again := AppendItem(nil, got); !bytes.Equal(again, enc) {
				t.Fatalf("re-encoding differs:\n%x\n%x", again, enc)
			}
			for k, v := range it {
				venc := AppendValue(nil, v)
				dv, err := DecodeValue(venc)
				if err != nil {
					t.Fatalf("%s: %v", k, err)
				}
				if !Equal(dv, v) || !bytes.Equal(AppendValue(nil, dv), venc) {
					t.Fatalf("%s: value round trip", k)
				}
			}
		})
	}
}

func TestAppendItemAppends(t *testing.T) {
	prefix := []byte("prefix")
	enc := AppendItem(prefix, Item{"a": S("b")})
	if !bytes.HasPrefix(enc, []byte("prefix")) {
		t.Fatal("prefix lost")
	}
	if _, err := DecodeItem(enc[len(prefix):]); err != nil {
		t.Fatal(err)
	}
}

// Map iteration order is random; the encoding must not be.
func TestEncodingIsDeterministic(t *testing.T) {
	it := benchItem()
	for k := range 26 {
		it[string(rune('a'+k))] = N("1")
	}
	want := AppendItem(nil, it)
	for range 50 {
		if got := AppendItem(nil, it); !bytes.Equal(got, want) {
			t.Fatal("encoding changed between runs")
		}
	}
	// Set order and duplicates do not matter either.
	a := AppendItem(nil, Item{"s": ss("b", "a", "b"), "n": ns("2", "1"), "x": bs([]byte{2}, []byte{1}, []byte{2})})
	b := AppendItem(nil, Item{"s": ss("a", "b"), "n": ns("1", "2"), "x": bs([]byte{1}, []byte{2})})
	if !bytes.Equal(a, b) {
		t.Fatalf("set order leaks into the encoding:\n%x\n%x", a, b)
	}
}

// The exact bytes of format 1. If this test fails, the on-disk format has
// changed: do not update the expectation, add a format instead.
func TestEncodingGolden(t *testing.T) {
	cases := []struct {
		name string
		it   Item
		hex  string
	}{
		{"empty", Item{}, "01" + "00"},
		{"scalars",
			Item{"a": S("x"), "b": N("1"), "c": Bool(true), "d": Null(), "e": B([]byte{0xff}), "f": Bool(false)},
			"01" + "06" +
				"0161" + "01" + "0178" +
				"0162" + "02" + "0131" +
				"0163" + "04" + "01" +
				"0164" + "05" +
				"0165" + "03" + "01ff" +
				"0166" + "04" + "00"},
		{"containers",
			Item{"m": m("y", S(""), "x", l(N("2"))), "s": ss("b", "a"), "n": ns("10", "9"), "z": bs([]byte{2}, []byte{1})},
			"01" + "04" +
				"016d" + "06" + "02" + "0178" + "07" + "01" + "02" + "0132" + "0179" + "01" + "00" +
				"016e" + "09" + "02" + "023130" + "0139" +
				"0173" + "08" + "02" + "0161" + "0162" +
				"017a" + "0a" + "02" + "0101" + "0102"},
		{"long string", Item{"s": S(strings.Repeat("x", 200))}, "01" + "01" + "0173" + "01" + "c801" + strings.Repeat("78", 200)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := hex.EncodeToString(AppendItem(nil, tc.it))
			if got != tc.hex {
				t.Fatalf("encoding\n got %s\nwant %s", got, tc.hex)
			}
		})
	}
	if got := hex.EncodeToString(AppendValue(nil, N("1"))); got != "01020131" {
		t.Fatalf("AppendValue = %s", got)
	}
}

func TestDecodeCorrupt(t *testing.T) {
	h := func(s string) []byte {
		b, err := hex.DecodeString(s)
		if err != nil {
			panic(err)
		}
		return b
	}
	deep := []byte{formatV1, 1, 1, 'a'}
	for range maxDecodeDepth + 1 {
		deep = append(deep, byte(TypeL), 1)
	}
	deep = append(deep, byte(TypeNULL))
	cases := []struct {
		name string
		b    []byte
	}{
		{"nil", nil},
		{"empty", []byte{}},
		{"format 0", h("0000")},
		{"format 2", h("0200")},
		{"no count", h("01")},
		{"truncated name", h("010105")},
		{"missing value", h("01010161")},
		{"truncated string", h("0101016101" + "05" + "78")},
		{"trailing bytes", h("0100" + "00")},
		{"count exceeds input", h("01" + "ffffffffffffffff7f")},
		{"overlong varint", h("01" + "8000")},
		{"varint too long", h("01" + "ffffffffffffffffffff01")},
		{"names out of order", h("01" + "02" + "0162" + "05" + "0161" + "05")},
		{"duplicate names", h("01" + "02" + "0161" + "05" + "0161" + "05")},
		{"type 0", h("01" + "01" + "0161" + "00")},
		{"type 11", h("01" + "01" + "0161" + "0b")},
		{"bool 2", h("01" + "01" + "0161" + "04" + "02")},
		{"bool missing", h("01" + "01" + "0161" + "04")},
		{"set out of order", h("01" + "01" + "0173" + "08" + "02" + "0162" + "0161")},
		{"set duplicate", h("01" + "01" + "0173" + "08" + "02" + "0161" + "0161")},
		{"binary set duplicate", h("01" + "01" + "0173" + "0a" + "02" + "0101" + "0101")},
		{"list count exceeds input", h("01" + "01" + "016c" + "07" + "05" + "05")},
		{"nested map names out of order", h("01" + "01" + "016d" + "06" + "02" + "0179" + "05" + "0178" + "05")},
		{"too deep", deep},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			it, err := DecodeItem(tc.b)
			if err == nil {
				t.Fatalf("DecodeItem accepted %x: %#v", tc.b, it)
			}
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("error %v does not wrap ErrCorrupt", err)
			}
		})
	}
	for _, b := range [][]byte{nil, h("01"), h("0100"), h("010131"), h("01020131ff")} {
		if _, err := DecodeValue(b); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("DecodeValue(%x) = %v", b, err)
		}
	}
}

func TestDecodeDoesNotAlias(t *testing.T) {
	it := Item{"s": S("hello"), "b": B([]byte("world")), "x": bs([]byte("ab"), []byte("cd")), "y": B([]byte("zz"))}
	enc := AppendItem(nil, it)
	got, err := DecodeItem(enc)
	if err != nil {
		t.Fatal(err)
	}
	for i := range enc {
		enc[i] = 0xEE
	}
	if !itemsEqual(got, it) {
		t.Fatal("decoded item changed with its input")
	}
	// Decoded binaries share a buffer but cannot grow into each other.
	b := got["b"].B
	_ = append(b, '!', '!', '!')
	if !itemsEqual(got, it) {
		t.Fatal("appending to a decoded binary overwrote its neighbour")
	}
}

func TestEncodeInvalidValue(t *testing.T) {
	enc := AppendItem(nil, Item{"a": {}})
	if _, err := DecodeItem(enc); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("TypeInvalid decoded: %v", err)
	}
}

// gen builds values from fuzz input, one decision per byte.
type gen struct{ b []byte }

func (g *gen) next() byte {
	if len(g.b) == 0 {
		return 0
	}
	c := g.b[0]
	g.b = g.b[1:]
	return c
}

func (g *gen) bytes() []byte {
	n := min(int(g.next()%6), len(g.b))
	out := g.b[:n:n]
	g.b = g.b[n:]
	return out
}

func (g *gen) number() string {
	var sb strings.Builder
	if g.next()&1 == 1 {
		sb.WriteByte('-')
	}
	for n := int(g.next()%5) + 1; n > 0; n-- {
		sb.WriteByte('0' + g.next()%10)
	}
	if g.next()&1 == 1 {
		sb.WriteString(".5")
	}
	return sb.String()
}

func (g *gen) value(depth int) Value {
	t := Type(g.next()%10 + 1)
	if depth > 6 && (t == TypeM || t == TypeL) {
		t = TypeS
	}
	switch t {
	case TypeS:
		return S(string(g.bytes()))
	case TypeN:
		return N(g.number())
	case TypeB:
		return B(g.bytes())
	case TypeBOOL:
		return Bool(g.next()&1 == 1)
	case TypeNULL:
		return Value{Type: TypeNULL, Bool: g.next()&1 == 1}
	case TypeM:
		v := Value{Type: TypeM, M: map[string]Value{}}
		for n := g.next() % 4; n > 0; n-- {
			v.M[string(g.bytes())] = g.value(depth + 1)
		}
		return v
	case TypeL:
		v := Value{Type: TypeL}
		for n := g.next() % 4; n > 0; n-- {
			v.L = append(v.L, g.value(depth+1))
		}
		return v
	case TypeSS, TypeNS:
		v := Value{Type: t}
		seen := map[string]bool{}
		for n := g.next() % 5; n > 0; n-- {
			s := string(g.bytes())
			if t == TypeNS {
				s = g.number()
			}
			if !seen[s] {
				seen[s] = true
				v.SS = append(v.SS, s)
			}
		}
		return v
	default: // TypeBS
		v := Value{Type: TypeBS}
		seen := map[string]bool{}
		for n := g.next() % 5; n > 0; n-- {
			b := g.bytes()
			if !seen[string(b)] {
				seen[string(b)] = true
				v.BS = append(v.BS, b)
			}
		}
		return v
	}
}

func FuzzRoundTrip(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("\x03\x01a\x07\x02\x06\x03\x01\x02b\x09\x04\x01\x02\x03"))
	f.Add(AppendItem(nil, benchItem()))
	f.Fuzz(func(t *testing.T, data []byte) {
		g := &gen{b: data}
		it := Item{}
		for n := g.next() % 8; n > 0; n-- {
			it[string(g.bytes())] = g.value(1)
		}
		enc := AppendItem(nil, it)
		got, err := DecodeItem(enc)
		if err != nil {
			t.Fatalf("DecodeItem(AppendItem(%#v)): %v", it, err)
		}
		if !itemsEqual(got, it) {
			t.Fatalf("round trip changed the item:\n got %#v\nwant %#v", got, it)
		}
		if again := AppendItem(nil, got); !bytes.Equal(again, enc) {
			t.Fatalf("re-encoding differs:\n%x\n%x", again, enc)
		}
		if ItemSize(got) != ItemSize(it) {
			t.Fatalf("sizes differ")
		}
	})
}

func FuzzDecodeItem(f *testing.F) {
	for _, it := range sampleItems() {
		f.Add(AppendItem(nil, it))
	}
	f.Add([]byte{})
	f.Add([]byte{formatV1})
	f.Add([]byte{formatV1, 0x80, 0x00})
	f.Fuzz(func(t *testing.T, b []byte) {
		it, err := DecodeItem(b)
		if err != nil {
			if it != nil {
				t.Fatal("item returned with an error")
			}
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("error %v does not wrap ErrCorrupt", err)
			}
			return
		}
		if enc := AppendItem(nil, it); !bytes.Equal(enc, b) {
			t.Fatalf("AppendItem(DecodeItem(x)) != x:\n%x\n%x", enc, b)
		}
		// The decoded item behaves: sizing, comparing and validating it
		// must not panic.
		_ = ItemSize(it)
		_ = itemsEqual(it, it)
		_ = CanonicalizeItem(it)
	})
}

func BenchmarkAppendItem(b *testing.B) {
	it := benchItem()
	buf := AppendItem(nil, it)
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		buf = AppendItem(buf[:0], it)
	}
}

func BenchmarkDecodeItem(b *testing.B) {
	enc := AppendItem(nil, benchItem())
	b.SetBytes(int64(len(enc)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodeItem(enc); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCanonicalizeItem(b *testing.B) {
	it := benchItem()
	b.ReportAllocs()
	for b.Loop() {
		if err := CanonicalizeItem(it); err != nil {
			b.Fatal(err)
		}
	}
}

func TestAppendKeyMatchesAppendItem(t *testing.T) {
	pk, sk := Value{Type: TypeS, S: "p"}, Value{Type: TypeN, S: "12"}
	for _, c := range []struct{ h, r string }{{"pk", ""}, {"pk", "sk"}, {"zz", "aa"}} {
		it := Item{c.h: pk}
		if c.r != "" {
			it[c.r] = sk
		}
		want := AppendItem(nil, it)
		if got := AppendKey(nil, c.h, pk, c.r, sk); !bytes.Equal(got, want) {
			t.Errorf("AppendKey(%q, %q) = %x, want %x", c.h, c.r, got, want)
		}
	}
}
