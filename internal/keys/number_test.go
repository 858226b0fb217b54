package keys

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/cockroachdb/apd/v3"

	"github.com/dynago/dynago/attr"
)

func TestCanonicalNumber(t *testing.T) {
	cases := []struct{ in, want string }{
		{"0", "0"},
		{"-0", "0"},
		{"0.000", "0"},
		{"0e125", "0"},
		{"0e-130", "0"},
		{"0.0e126", "0"},
		{"1", "1"},
		{"+1", "1"},
		{"1.0", "1"},
		{"01.50", "1.5"},
		{"-12.5", "-12.5"},
		{"1e2", "100"},
		{"1E+2", "100"},
		{"100", "100"},
		{"0.001", "0.001"},
		{"1e-3", "0.001"},
		{".5", "0.5"},
		{"5.", "5"},
		{"123.456e1", "1234.56"},
		{"123.456e-1", "12.3456"},
		{"-0.00120e3", "-1.2"},
		{"1E-130", "0." + strings.Repeat("0", 129) + "1"},
		{"9.9999999999999999999999999999999999999E+125", strings.Repeat("9", 38) + strings.Repeat("0", 126-38)},
		{"1" + strings.Repeat("0", 60), "1" + strings.Repeat("0", 60)},
		{"12345678901234567890123456789012345678", "12345678901234567890123456789012345678"},
		{"1234567890123456789012345678901234567800000", "1234567890123456789012345678901234567800000"},
		{"0.00000123456789012345678901234567890123456780", "0.0000012345678901234567890123456789012345678"},
	}
	for _, c := range cases {
		got, err := CanonicalNumber(c.in)
		if err != nil || got != c.want {
			t.Errorf("CanonicalNumber(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

func TestNumberEncodingBytes(t *testing.T) {
	cases := []struct {
		in   string
		want []byte
	}{
		{"0", []byte{0x02}},
		{"1", []byte{0x03, 1 + 129, 0x20}},        // 0.1e1
		{"10", []byte{0x03, 2 + 129, 0x20}},       // 0.1e2
		{"12", []byte{0x03, 2 + 129, 0x23, 0x00}}, // 0.12e2
		{"0.5", []byte{0x03, 0 + 129, 0x60}},      // 0.5e0
		{"-1", []byte{0x01, ^byte(1 + 129), ^byte(0x20)}},
		{"-12", []byte{0x01, ^byte(2 + 129), ^byte(0x23), 0xFF}},
		{"1E-130", []byte{0x03, 0x00, 0x20}},
		{maxN, append([]byte{0x03, 0xFF}, append(bytes.Repeat([]byte{0xAA}, 19), 0x00)...)},
	}
	for _, c := range cases {
		if got := mustAppendValue(t, attr.N(c.in)); !bytes.Equal(got, c.want) {
			t.Errorf("N %s: %x, want %x", c.in, got, c.want)
		}
	}
}

// TestParseNumberMatchesApd checks the hand-written parser against apd on
// random strings over the characters of number syntax.
func TestParseNumberMatchesApd(t *testing.T) {
	r := newRand(t)
	const alphabet = "0123456789.+-eE"
	check := func(s string) {
		var d decimal
		err := parseNumber(s, &d)
		a, _, aerr := apd.NewFromString(s)
		wantOK := aerr == nil && a.Form == apd.Finite
		if wantOK && !a.IsZero() {
			a.Reduce(a)
			digits := len(a.Coeff.String())
			e := int(a.Exponent) + digits // value = 0.coeff × 10^e
			wantOK = digits <= MaxNumberDigits && e >= MinNumberExp && e <= MaxNumberExp
		}
		if wantOK && a.IsZero() {
			// Zero by its own exponent, as BigDecimal (and apd) read it.
			wantOK = a.Exponent >= MinNumberExp-1 && a.Exponent <= MaxNumberExp-1
		}
		if (err == nil) != wantOK {
			t.Fatalf("parseNumber(%q) err %v; apd %v, %v", s, err, a, aerr)
		}
		if err != nil {
			if !errors.Is(err, ErrNumber) {
				t.Fatalf("parseNumber(%q): %v does not wrap ErrNumber", s, err)
			}
			return
		}
		got := string(d.appendText(nil))
		if want := canonical(t, attr.N(s)).S; got != want {
			t.Fatalf("parseNumber(%q) = %s, want %s", s, got, want)
		}
	}
	for range 200000 {
		b := make([]byte, r.IntN(8))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		check(string(b))
	}
	for range 20000 {
		check(randN(r))
	}
}

func TestParseNumberNoAlloc(t *testing.T) {
	var d decimal
	allocs := testing.AllocsPerRun(100, func() {
		if err := parseNumber("-1234567.891e-20", &d); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("parseNumber allocates %v times", allocs)
	}
}

// TestCanonicalNumberMatchesAttr checks that keys and attr agree on which
// text is a number and on its canonical form, so that a key decodes to the
// same text the item holds.
func TestCanonicalNumberMatchesAttr(t *testing.T) {
	r := newRand(t)
	const alphabet = "0123456789.+-eE"
	check := func(s string) {
		got, err := CanonicalNumber(s)
		want, aerr := attr.NormalizeNumber(s)
		if (err == nil) != (aerr == nil) || got != want {
			t.Fatalf("%q: keys %q, %v; attr %q, %v", s, got, err, want, aerr)
		}
	}
	for _, s := range []string{"0e2147483647", "0e2147483648", "0e125", "0e126", "0e-130", "0e-131", "0.0e126", "0.00e-129", "1e-2147483648", "5.", ".5", "+.5", "-.", "1E-130", maxN, "-" + maxN} {
		check(s)
	}
	for range 100000 {
		b := make([]byte, r.IntN(10))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		check(string(b))
	}
	for range 20000 {
		check(randN(r))
	}
}
