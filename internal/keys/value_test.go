package keys

import (
	"bytes"
	"errors"
	"slices"
	"testing"

	"github.com/dynago/dynago/attr"
)

type encoded struct {
	v   attr.Value
	enc []byte
}

func encodeAll(t *testing.T, vs []attr.Value) []encoded {
	t.Helper()
	out := make([]encoded, len(vs))
	for i, v := range vs {
		out[i] = encoded{v, mustAppendValue(t, v)}
	}
	return out
}

// checkSortedEncodings sorts by encoding and checks every adjacent pair
// against the oracle. Agreement on adjacent pairs of a sorted list implies
// agreement on all pairs (both orders are transitive). It also checks that
// no encoding is a proper prefix of another: if one were, it would be a
// prefix of its successor in sorted order too.
func checkSortedEncodings(t *testing.T, es []encoded) {
	t.Helper()
	slices.SortFunc(es, func(a, b encoded) int { return bytes.Compare(a.enc, b.enc) })
	for i := 1; i < len(es); i++ {
		a, b := es[i-1], es[i]
		want := sign(compareValues(t, a.v, b.v))
		got := sign(bytes.Compare(a.enc, b.enc))
		if got != want {
			t.Fatalf("order: %s vs %s: value order %d, encoding order %d (%x vs %x)",
				fmtValue(a.v), fmtValue(b.v), want, got, a.enc, b.enc)
		}
		if got != 0 && bytes.HasPrefix(b.enc, a.enc) {
			t.Fatalf("encoding of %s (%x) is a prefix of that of %s (%x)", fmtValue(a.v), a.enc, fmtValue(b.v), b.enc)
		}
	}
}

func TestValueOrderProperty(t *testing.T) {
	r := newRand(t)
	for _, typ := range keyTypes {
		t.Run(typ.String(), func(t *testing.T) {
			vs := make([]attr.Value, 5000)
			for i := range vs {
				vs[i] = randValue(r, typ)
			}
			es := encodeAll(t, vs)
			checkSortedEncodings(t, es)
			// Random pairs as well, independent of the sorting argument.
			for range 20000 {
				a, b := es[r.IntN(len(es))], es[r.IntN(len(es))]
				if got, want := sign(bytes.Compare(a.enc, b.enc)), sign(compareValues(t, a.v, b.v)); got != want {
					t.Fatalf("%s vs %s: encoding order %d, value order %d", fmtValue(a.v), fmtValue(b.v), got, want)
				}
			}
		})
	}
}

func TestValueRoundTripProperty(t *testing.T) {
	r := newRand(t)
	for _, typ := range keyTypes {
		for range 5000 {
			v := randValue(r, typ)
			enc := mustAppendValue(t, v)
			junk := randB(r)
			got, rest, err := DecodeValue(append(enc, junk...), typ)
			if err != nil {
				t.Fatalf("decode %s (%x): %v", fmtValue(v), enc, err)
			}
			if want := canonical(t, v); !sameValue(got, want) {
				t.Fatalf("decode(encode(%s)) = %s, want %s", fmtValue(v), fmtValue(got), fmtValue(want))
			}
			if !bytes.Equal(rest, junk) {
				t.Fatalf("decode %s: rest %x, want %x", fmtValue(v), rest, junk)
			}
			// Canonical text re-encodes to the same bytes.
			if enc2 := mustAppendValue(t, got); !bytes.Equal(enc, enc2) {
				t.Fatalf("%s: re-encoding canonical %s gives %x, want %x", fmtValue(v), fmtValue(got), enc2, enc)
			}
			if after, err := skipValue(append(enc, junk...), typ); err != nil || !bytes.Equal(after, junk) {
				t.Fatalf("skipValue %s: %x, %v", fmtValue(v), after, err)
			}
		}
	}
}

func TestTupleOrderProperty(t *testing.T) {
	r := newRand(t)
	for range 30 {
		ts := randTypes(r, 1, MaxKeyAttrs)
		type tup struct {
			vs  []attr.Value
			enc []byte
		}
		tups := make([]tup, 800)
		for i := range tups {
			vs := randTuple(r, ts)
			// Share leading elements often so later elements decide.
			if i > 0 && r.IntN(2) == 0 {
				prev := tups[r.IntN(i)].vs
				copy(vs, prev[:r.IntN(len(ts)+1)])
			}
			tups[i] = tup{vs, mustTuple(t, vs)}
		}
		slices.SortFunc(tups, func(a, b tup) int { return bytes.Compare(a.enc, b.enc) })
		for i := 1; i < len(tups); i++ {
			a, b := tups[i-1], tups[i]
			if got, want := sign(bytes.Compare(a.enc, b.enc)), sign(compareTuples(t, a.vs, b.vs)); got != want {
				t.Fatalf("types %v: %s vs %s: encoding order %d, tuple order %d", ts, fmtTuple(a.vs), fmtTuple(b.vs), got, want)
			}
			if !bytes.Equal(a.enc, b.enc) && bytes.HasPrefix(b.enc, a.enc) {
				t.Fatalf("tuple encoding %x is a prefix of %x", a.enc, b.enc)
			}
		}
		for _, tp := range tups {
			got, rest, err := DecodeTuple(tp.enc, ts)
			if err != nil || len(rest) != 0 {
				t.Fatalf("DecodeTuple(%x): %v, rest %x", tp.enc, err, rest)
			}
			want := make([]attr.Value, len(tp.vs))
			for i, v := range tp.vs {
				want[i] = canonical(t, v)
			}
			if !sameTuple(got, want) {
				t.Fatalf("DecodeTuple = %s, want %s", fmtTuple(got), fmtTuple(want))
			}
		}
	}
}

func TestEscapedEncoding(t *testing.T) {
	cases := []struct {
		in   string
		want []byte
	}{
		{"", []byte{0x00, 0x01}},
		{"a", []byte{'a', 0x00, 0x01}},
		{"\x00", []byte{0x00, 0xFF, 0x00, 0x01}},
		{"a\x00\x00b", []byte{'a', 0x00, 0xFF, 0x00, 0xFF, 'b', 0x00, 0x01}},
		{"\xff", []byte{0xFF, 0x00, 0x01}},
	}
	for _, c := range cases {
		if got := mustAppendValue(t, attr.S(c.in)); !bytes.Equal(got, c.want) {
			t.Errorf("S %q: %x, want %x", c.in, got, c.want)
		}
		if got := mustAppendValue(t, attr.B([]byte(c.in))); !bytes.Equal(got, c.want) {
			t.Errorf("B %x: %x, want %x", c.in, got, c.want)
		}
	}
}

func TestMaximalValues(t *testing.T) {
	if len(maxS) != 1024 {
		t.Fatalf("maxS is %d bytes", len(maxS))
	}
	for _, v := range []attr.Value{attr.S(maxS), attr.N(maxN), attr.B(maxB), attr.N("1E-130"), attr.N("-" + maxN)} {
		enc := mustAppendValue(t, v)
		got, rest, err := DecodeValue(enc, v.Type)
		if err != nil || len(rest) != 0 || !sameValue(got, canonical(t, v)) {
			t.Fatalf("%s: decoded %s, rest %x, err %v", fmtValue(v), fmtValue(got), rest, err)
		}
	}
}

func TestAppendValueErrors(t *testing.T) {
	bad := []attr.Value{
		attr.Bool(true), attr.Null(), {Type: attr.TypeSS, SS: []string{"a"}}, {},
	}
	for _, v := range bad {
		dst := []byte("keep")
		got, err := AppendValue(dst, v)
		if !errors.Is(err, ErrKeyType) || string(got) != "keep" {
			t.Errorf("AppendValue(%v) = %q, %v; want ErrKeyType and dst unchanged", v.Type, got, err)
		}
	}
	for _, n := range []string{"", "-", "abc", "1e", "1.2.3", "1e+", " 1", "1 ", "NaN", "Infinity", "1E126", "1E-131", "0e2147483648", "1e99999999999999999999", "123456789012345678901234567890123456789", "0x10"} {
		if _, err := AppendValue(nil, attr.N(n)); !errors.Is(err, ErrNumber) {
			t.Errorf("AppendValue(N %q): %v, want ErrNumber", n, err)
		}
	}
	if _, _, err := DecodeValue([]byte{0x02}, attr.TypeBOOL); !errors.Is(err, ErrKeyType) {
		t.Errorf("DecodeValue BOOL: %v", err)
	}
}

func TestDecodeValueCorrupt(t *testing.T) {
	cases := []struct {
		typ attr.Type
		in  []byte
	}{
		{attr.TypeS, nil},
		{attr.TypeS, []byte("abc")},
		{attr.TypeS, []byte{'a', 0x00}},
		{attr.TypeB, []byte{0x00, 0x02}},
		{attr.TypeN, nil},
		{attr.TypeN, []byte{0x00}},
		{attr.TypeN, []byte{0x03}},
		{attr.TypeN, []byte{0x03, 0x80}},
		{attr.TypeN, []byte{0x03, 0x80, 0x10}}, // leading zero digit
		{attr.TypeN, []byte{0x03, 0x80, 0x21}}, // trailing zero digit
		{attr.TypeN, []byte{0x03, 0x80, 0x05}}, // bad padding
		{attr.TypeN, []byte{0x03, 0x80, 0xB0}}, // nibble > 10
		{attr.TypeN, []byte{0x03, 0x80, 0x00}}, // no digits
		{attr.TypeN, []byte{0x01, 0x7f, 0xFF}}, // negative, no digits
	}
	for _, c := range cases {
		if _, _, err := DecodeValue(c.in, c.typ); !errors.Is(err, ErrCorrupt) {
			t.Errorf("DecodeValue(%x, %v): %v, want ErrCorrupt", c.in, c.typ, err)
		}
		if _, err := skipValue(c.in, c.typ); err == nil {
			t.Errorf("skipValue(%x, %v) accepted", c.in, c.typ)
		}
	}
}
