package keys

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cockroachdb/apd/v3"

	"github.com/dynago/dynago/attr"
)

// newRand returns a generator seeded from $KEYS_SEED or the clock, and logs
// the seed so that a failure can be replayed.
func newRand(t testing.TB) *rand.Rand {
	t.Helper()
	return newRandSeed(t, uint64(time.Now().UnixNano()))
}

// newRandSeed is newRand with a fixed default seed, for statistical tests
// that must not flake.
func newRandSeed(t testing.TB, seed uint64) *rand.Rand {
	t.Helper()
	if s := os.Getenv("KEYS_SEED"); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("KEYS_SEED: %v", err)
		}
		seed = v
	}
	t.Logf("seed %d (rerun with KEYS_SEED=%d)", seed, seed)
	return rand.New(rand.NewPCG(seed, seed^0x9E3779B97F4A7C15))
}

// strPieces are glued together to make random strings; they are chosen so
// that random strings often share prefixes and hit the escape bytes.
var strPieces = []string{"", "a", "b", "ab", "z", "\x00", "\x01", "\x7f", "é", "ß", "中", "😀", "\U0010FFFF", "\uFFFF", "0", " "}

func randS(r *rand.Rand) string {
	var sb strings.Builder
	for n := r.IntN(6); n > 0; n-- {
		sb.WriteString(strPieces[r.IntN(len(strPieces))])
	}
	return sb.String()
}

var bytePool = []byte{0x00, 0x00, 0x01, 0x02, 0x7f, 0x80, 0xfe, 0xff, 0xff, 'a'}

func randB(r *rand.Rand) []byte {
	b := make([]byte, r.IntN(7))
	for i := range b {
		if r.IntN(4) == 0 {
			b[i] = byte(r.Uint32())
		} else {
			b[i] = bytePool[r.IntN(len(bytePool))]
		}
	}
	return b
}

// randN returns random number text in varied spellings: plain, with
// exponents, with redundant zeros, signs, and values across the whole range.
func randN(r *rand.Rand) string {
	switch r.IntN(10) {
	case 0:
		return []string{"0", "-0", "0.000", "+0", "0E5", "-0.0e-7", "00"}[r.IntN(7)]
	case 1, 2:
		// Small numbers with many ties and near neighbours.
		v := []string{"1", "1.0", "10E-1", "0.1", "0.10", "2", "10", "1E1", "9", "9.99", "100", "0.01", "12.5", "-12.5", "-1", "-1.00", "-0.1", "-10", "-9.99"}
		return v[r.IntN(len(v))]
	}
	neg := r.IntN(2) == 0
	k := 1 + r.IntN(MaxNumberDigits)
	if r.IntN(3) == 0 {
		k = 1 + r.IntN(3)
	}
	digits := make([]byte, k)
	for i := range digits {
		digits[i] = byte('0' + r.IntN(10))
	}
	if r.IntN(3) == 0 {
		// Digits from a tiny alphabet collide on prefixes more often.
		for i := range digits {
			digits[i] = "019"[r.IntN(3)]
		}
	}
	if digits[0] == '0' {
		digits[0] = byte('1' + r.IntN(9))
	}
	// value = 0.digits × 10^e
	var e int
	switch r.IntN(3) {
	case 0:
		e = MinNumberExp + r.IntN(MaxNumberExp-MinNumberExp+1)
	case 1:
		e = []int{MinNumberExp, MinNumberExp + 1, MaxNumberExp - 1, MaxNumberExp}[r.IntN(4)]
	default:
		e = r.IntN(9) - 4
	}
	sign := ""
	if neg {
		sign = "-"
	} else if r.IntN(8) == 0 {
		sign = "+"
	}
	lead := strings.Repeat("0", r.IntN(2))
	trail := strings.Repeat("0", r.IntN(3))
	switch r.IntN(3) {
	case 0: // d.ddd E(e-1)
		mant := string(digits[:1])
		if k > 1 || trail != "" {
			mant += "." + string(digits[1:]) + trail
		}
		ech := "E"
		if r.IntN(2) == 0 {
			ech = "e"
		}
		return fmt.Sprintf("%s%s%s%s%d", sign, lead, mant, ech, e-1)
	case 1: // .ddd E e
		return fmt.Sprintf("%s0.%s%se%+d", sign, digits, trail, e)
	default: // plain notation
		d := new(apd.Decimal)
		if _, _, err := d.SetString(fmt.Sprintf("0.%sE%d", digits, e)); err != nil {
			panic(err)
		}
		return sign + lead + d.Text('f')
	}
}

func randValue(r *rand.Rand, t attr.Type) attr.Value {
	switch t {
	case attr.TypeS:
		return attr.S(randS(r))
	case attr.TypeN:
		return attr.N(randN(r))
	case attr.TypeB:
		return attr.B(randB(r))
	}
	panic("bad type")
}

var keyTypes = []attr.Type{attr.TypeS, attr.TypeN, attr.TypeB}

func randTypes(r *rand.Rand, min, max int) []attr.Type {
	ts := make([]attr.Type, min+r.IntN(max-min+1))
	for i := range ts {
		ts[i] = keyTypes[r.IntN(len(keyTypes))]
	}
	return ts
}

func randTuple(r *rand.Rand, ts []attr.Type) []attr.Value {
	vs := make([]attr.Value, len(ts))
	for i, t := range ts {
		vs[i] = randValue(r, t)
	}
	return vs
}

var apdCache sync.Map // string -> *apd.Decimal

// apdNumber parses number text with apd, the independent oracle. The
// result must not be modified.
func apdNumber(t testing.TB, s string) *apd.Decimal {
	t.Helper()
	if d, ok := apdCache.Load(s); ok {
		return d.(*apd.Decimal)
	}
	d, _, err := apd.NewFromString(s)
	if err != nil {
		t.Fatalf("apd cannot parse %q: %v", s, err)
	}
	apdCache.Store(s, d)
	return d
}

// compareValues is the DynamoDB order of two key values of the same type.
func compareValues(t testing.TB, a, b attr.Value) int {
	t.Helper()
	if a.Type != b.Type {
		t.Fatalf("comparing %v with %v", a.Type, b.Type)
	}
	switch a.Type {
	case attr.TypeS:
		return strings.Compare(a.S, b.S)
	case attr.TypeB:
		return bytes.Compare(a.B, b.B)
	case attr.TypeN:
		return apdNumber(t, a.S).Cmp(apdNumber(t, b.S))
	}
	t.Fatalf("bad type %v", a.Type)
	return 0
}

func compareTuples(t testing.TB, a, b []attr.Value) int {
	t.Helper()
	for i := 0; i < len(a) && i < len(b); i++ {
		if c := compareValues(t, a[i], b[i]); c != 0 {
			return c
		}
	}
	return len(a) - len(b)
}

// canonical is the value DecodeValue should return for v, computed with apd.
func canonical(t testing.TB, v attr.Value) attr.Value {
	t.Helper()
	if v.Type != attr.TypeN {
		if v.Type == attr.TypeB && v.B == nil {
			v.B = []byte{}
		}
		return v
	}
	d := new(apd.Decimal).Set(apdNumber(t, v.S))
	d.Reduce(d)
	if d.IsZero() {
		return attr.N("0")
	}
	return attr.N(d.Text('f'))
}

func sameValue(a, b attr.Value) bool {
	if a.Type != b.Type {
		return false
	}
	switch a.Type {
	case attr.TypeS:
		return a.S == b.S
	case attr.TypeN:
		return a.S == b.S
	case attr.TypeB:
		return bytes.Equal(a.B, b.B)
	}
	return false
}

func sameTuple(a, b []attr.Value) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !sameValue(a[i], b[i]) {
			return false
		}
	}
	return true
}

func sign(c int) int {
	switch {
	case c < 0:
		return -1
	case c > 0:
		return 1
	}
	return 0
}

func mustAppendValue(t testing.TB, v attr.Value) []byte {
	t.Helper()
	enc, err := AppendValue(nil, v)
	if err != nil {
		t.Fatalf("AppendValue(%+v): %v", v, err)
	}
	return enc
}

func mustTuple(t testing.TB, vs []attr.Value) []byte {
	t.Helper()
	enc, err := AppendTuple(nil, vs)
	if err != nil {
		t.Fatalf("AppendTuple(%v): %v", vs, err)
	}
	return enc
}

func fmtValue(v attr.Value) string {
	switch v.Type {
	case attr.TypeS:
		return fmt.Sprintf("S%q", v.S)
	case attr.TypeN:
		return "N" + v.S
	case attr.TypeB:
		return fmt.Sprintf("B%x", v.B)
	}
	return fmt.Sprintf("%v?", v.Type)
}

func fmtTuple(vs []attr.Value) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = fmtValue(v)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// Maximal key values DynamoDB clients send, e.g. as resume keys.
var (
	maxS = strings.Repeat("\U0010FFFF", 256)
	maxN = "9.9999999999999999999999999999999999999E+125"
	maxB = bytes.Repeat([]byte{0xFF}, 1024)
)
