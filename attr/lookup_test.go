package attr

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// TestTopLevelNumber checks the partial decoder against the real one
// on random items, and that it never panics on truncated or mangled
// encodings.
func TestTopLevelNumber(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	names := []string{"", "a", "exp", "expa", "ex", "z", "ttl", "\x00", "\xff"}
	for range 2000 {
		it := Item{}
		for range r.IntN(8) {
			it[names[r.IntN(len(names)-1)+1]] = randomValue(r, 0)
		}
		enc := AppendItem(nil, it)
		for _, name := range names[1:] {
			got, ok := TopLevelNumber(enc, name)
			if !ok {
				t.Fatalf("TopLevelNumber(%v, %q) failed on a valid encoding", it, name)
			}
			want := ""
			if v, found := it[name]; found && v.Type == TypeN {
				want = v.S
			}
			if got != want {
				t.Fatalf("TopLevelNumber(%v, %q) = %q, want %q", it, name, got, want)
			}
		}
		for i := range enc {
			TopLevelNumber(enc[:i], "exp")
			mangled := append([]byte(nil), enc...)
			mangled[i] ^= byte(r.IntN(255) + 1)
			TopLevelNumber(mangled, "exp")
		}
	}
}

func randomValue(r *rand.Rand, depth int) Value {
	k := r.IntN(10)
	if depth > 3 && k >= 6 {
		k = r.IntN(6)
	}
	switch k {
	case 0:
		return S(strings.Repeat("s", r.IntN(200)))
	case 1, 2:
		return N(strconv.Itoa(r.IntN(2_000_000_000)))
	case 3:
		return Value{Type: TypeB, B: []byte("bin")[:r.IntN(4)]}
	case 4:
		return Value{Type: TypeBOOL, Bool: r.IntN(2) == 0}
	case 5:
		return Value{Type: TypeNULL, Bool: true}
	case 6:
		m := map[string]Value{}
		for range r.IntN(4) {
			m[fmt.Sprint("k", r.IntN(5))] = randomValue(r, depth+1)
		}
		return Value{Type: TypeM, M: m}
	case 7:
		l := make([]Value, r.IntN(4))
		for i := range l {
			l[i] = randomValue(r, depth+1)
		}
		return Value{Type: TypeL, L: l}
	case 8:
		return Value{Type: TypeNS, SS: []string{"1", "2", "30"}[:r.IntN(3)+1]}
	default:
		return Value{Type: TypeBS, BS: [][]byte{{1}, {2, 3}}[:r.IntN(2)+1]}
	}
}

// BenchmarkSweepExpired sweeps a table of 100k items of which 1% have
// expired (the sweep reads every row and deletes 1000).
