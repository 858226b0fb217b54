package keys

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/dynago/dynago/attr"
)

type rangeRow struct {
	pk, sk []attr.Value
	key    []byte
}

// matches is the brute-force meaning of a sort key condition.
func matches(t *testing.T, sk, eq []attr.Value, op Op, a, b attr.Value) bool {
	for i, v := range eq {
		if compareValues(t, sk[i], v) != 0 {
			return false
		}
	}
	if op == OpAny {
		return true
	}
	x := sk[len(eq)]
	switch op {
	case OpEQ:
		return compareValues(t, x, a) == 0
	case OpLT:
		return compareValues(t, x, a) < 0
	case OpLE:
		return compareValues(t, x, a) <= 0
	case OpGT:
		return compareValues(t, x, a) > 0
	case OpGE:
		return compareValues(t, x, a) >= 0
	case OpBetween:
		return compareValues(t, x, a) >= 0 && compareValues(t, x, b) <= 0
	case OpBeginsWith:
		if x.Type == attr.TypeS {
			return strings.HasPrefix(x.S, a.S)
		}
		return bytes.HasPrefix(x.B, a.B)
	}
	t.Fatalf("bad op %v", op)
	return false
}

// operand picks a condition operand: often a stored value, sometimes a
// fresh random one, sometimes a maximal one.
func operand(r *rand.Rand, rows []rangeRow, at int, typ attr.Type) attr.Value {
	switch r.IntN(8) {
	case 0, 1, 2:
		return randValue(r, typ)
	case 3:
		switch typ {
		case attr.TypeS:
			return attr.S(maxS)
		case attr.TypeN:
			return []attr.Value{attr.N(maxN), attr.N("-" + maxN), attr.N("1E-130"), attr.N("0")}[r.IntN(4)]
		default:
			return attr.B(maxB)
		}
	}
	return rows[r.IntN(len(rows))].sk[at]
}

// prefixOperand picks a begins_with operand: a prefix of a stored value
// (possibly empty or whole), or a random value.
func prefixOperand(r *rand.Rand, rows []rangeRow, at int, typ attr.Type) attr.Value {
	if r.IntN(4) == 0 {
		return randValue(r, typ)
	}
	v := rows[r.IntN(len(rows))].sk[at]
	if typ == attr.TypeS {
		return attr.S(v.S[:r.IntN(len(v.S)+1)])
	}
	return attr.B(v.B[:r.IntN(len(v.B)+1)])
}

func TestSortKeyRangeBruteForce(t *testing.T) {
	r := newRand(t)
	ops := []Op{OpAny, OpEQ, OpLT, OpLE, OpGT, OpGE, OpBetween, OpBeginsWith}
	schemas := []struct {
		name    string
		indexID uint32
		skTypes []attr.Type
		nEq     int // leading elements held equal
	}{
		{"base S", 0, []attr.Type{attr.TypeS}, 0},
		{"base N", 0, []attr.Type{attr.TypeN}, 0},
		{"base B", 0, []attr.Type{attr.TypeB}, 0},
		{"gsi N,S eq1", 1, []attr.Type{attr.TypeN, attr.TypeS}, 1},
		{"gsi S,B,N eq2", 2, []attr.Type{attr.TypeS, attr.TypeB, attr.TypeN}, 2},
		{"gsi B,N eq0", 3, []attr.Type{attr.TypeB, attr.TypeN}, 0},
		{"gsi S,S,S,S eq3", 4, []attr.Type{attr.TypeS, attr.TypeS, attr.TypeS, attr.TypeS}, 3},
	}
	for _, sc := range schemas {
		t.Run(sc.name, func(t *testing.T) {
			pks := [][]attr.Value{{attr.S("p1")}, {attr.S("p2")}, {attr.S("p3")}}
			// Sort tuples drawn from small pools so that equal leading
			// elements are common.
			pools := make([][]attr.Value, len(sc.skTypes))
			for i, typ := range sc.skTypes {
				for range 4 {
					pools[i] = append(pools[i], randValue(r, typ))
				}
			}
			var rows []rangeRow
			for range 600 {
				pk := pks[r.IntN(len(pks))]
				sk := make([]attr.Value, len(sc.skTypes))
				for i, typ := range sc.skTypes {
					if i < sc.nEq && r.IntN(4) != 0 {
						sk[i] = pools[i][r.IntN(len(pools[i]))]
					} else {
						sk[i] = randValue(r, typ)
					}
				}
				var key []byte
				var err error
				if sc.indexID == 0 {
					key, err = AppendRowKey(nil, 1, 0, pk, sk)
				} else {
					base := []attr.Value{attr.S(fmt.Sprint(r.IntN(1000)))}
					key, err = AppendIndexRowKey(nil, 1, sc.indexID, pk, sk, base, nil)
				}
				if err != nil {
					t.Fatal(err)
				}
				rows = append(rows, rangeRow{pk, sk, key})
			}
			// Rows of neighbouring indexes must never leak in.
			for _, idx := range []uint32{sc.indexID + 1, sc.indexID + 100} {
				for range 50 {
					pk := pks[r.IntN(len(pks))]
					key, err := AppendRowKey(nil, 1, idx, pk, randTuple(r, sc.skTypes))
					if err != nil {
						t.Fatal(err)
					}
					rows = append(rows, rangeRow{pk, nil, key})
				}
			}
			slices.SortFunc(rows, func(a, b rangeRow) int { return bytes.Compare(a.key, b.key) })

			own := rows[:0:0]
			for _, rw := range rows {
				if rw.sk != nil {
					own = append(own, rw)
				}
			}
			last := len(sc.skTypes) - 1
			for iter := range 1200 {
				op := ops[iter%len(ops)]
				at := sc.nEq
				if op == OpAny {
					at = r.IntN(sc.nEq + 1) // any number of equalities
				}
				if op == OpBeginsWith && sc.skTypes[at] == attr.TypeN {
					continue
				}
				if at > last {
					continue
				}
				pk := pks[r.IntN(len(pks))]
				var eq []attr.Value
				if r.IntN(3) != 0 {
					eq = slices.Clone(own[r.IntN(len(own))].sk[:at])
				} else {
					eq = make([]attr.Value, at)
					for i := range eq {
						eq[i] = pools[i][r.IntN(len(pools[i]))]
					}
				}
				var a, b attr.Value
				switch op {
				case OpAny:
				case OpBeginsWith:
					a = prefixOperand(r, own, at, sc.skTypes[at])
				default:
					a = operand(r, own, at, sc.skTypes[at])
					b = operand(r, own, at, sc.skTypes[at])
				}
				part, err := PartitionPrefix(1, sc.indexID, pk)
				if err != nil {
					t.Fatal(err)
				}
				lower, upper, err := SortKeyRange(part, eq, op, a, b)
				if err != nil {
					t.Fatalf("SortKeyRange: %v", err)
				}
				if bytes.Compare(lower, upper) > 0 {
					t.Fatalf("inverted range [%x, %x)", lower, upper)
				}
				var got, want []int
				for i, rw := range rows {
					if bytes.Compare(rw.key, lower) >= 0 && bytes.Compare(rw.key, upper) < 0 {
						got = append(got, i)
					}
					if rw.sk != nil && compareTuples(t, rw.pk, pk) == 0 && matches(t, rw.sk, eq, op, a, b) {
						want = append(want, i)
					}
				}
				if !slices.Equal(got, want) {
					t.Fatalf("%s eq %s %v a=%s b=%s: range holds %d rows, brute force %d",
						fmtTuple(pk), fmtTuple(eq), op, fmtValue(a), fmtValue(b), len(got), len(want))
				}
			}
		})
	}
}

func TestSortKeyRangeErrors(t *testing.T) {
	part, err := PartitionPrefix(1, 0, []attr.Value{attr.S("p")})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := SortKeyRange(part, nil, OpBeginsWith, attr.N("1"), attr.Value{}); !errors.Is(err, ErrKeyType) {
		t.Errorf("begins_with on N: %v", err)
	}
	if _, _, err := SortKeyRange(part, nil, OpLT, attr.Bool(true), attr.Value{}); !errors.Is(err, ErrKeyType) {
		t.Errorf("< BOOL: %v", err)
	}
	if _, _, err := SortKeyRange(part, nil, OpBetween, attr.N("1"), attr.N("x")); !errors.Is(err, ErrNumber) {
		t.Errorf("BETWEEN 1 AND x: %v", err)
	}
	four := []attr.Value{attr.S("a"), attr.S("a"), attr.S("a"), attr.S("a")}
	if _, _, err := SortKeyRange(part, four, OpEQ, attr.S("a"), attr.Value{}); !errors.Is(err, ErrTupleSize) {
		t.Errorf("five sort key conditions: %v", err)
	}
	if _, _, err := SortKeyRange(part, nil, Op(99), attr.S("a"), attr.Value{}); err == nil {
		t.Errorf("unknown op accepted")
	}
	lo, hi, err := SortKeyRange(part, nil, OpBetween, attr.N("5"), attr.N("1"))
	if err != nil || !bytes.Equal(lo, hi) {
		t.Errorf("BETWEEN 5 AND 1 = [%x, %x), %v; want empty", lo, hi, err)
	}
	for _, op := range []Op{OpAny, OpEQ, OpLT, OpLE, OpGT, OpGE, OpBetween, OpBeginsWith, Op(42)} {
		if op.String() == "" {
			t.Errorf("Op %d has no name", op)
		}
	}
}

func TestResumeBounds(t *testing.T) {
	lower, upper := []byte{2, 0}, []byte{2, 9}
	if lo, hi := ResumeAfter(lower, upper, []byte{2, 5}); !bytes.Equal(lo, []byte{2, 5, 0}) || !bytes.Equal(hi, upper) {
		t.Errorf("ResumeAfter inside = [%x, %x)", lo, hi)
	}
	if lo, _ := ResumeAfter(lower, upper, []byte{1}); !bytes.Equal(lo, lower) {
		t.Errorf("ResumeAfter before range moved lower to %x", lo)
	}
	if lo, hi := ResumeAfter(lower, upper, []byte{3}); !bytes.Equal(lo, hi) {
		t.Errorf("ResumeAfter past range = [%x, %x), want empty", lo, hi)
	}
	if lo, hi := ResumeBefore(lower, upper, []byte{2, 5}); !bytes.Equal(lo, lower) || !bytes.Equal(hi, []byte{2, 5}) {
		t.Errorf("ResumeBefore inside = [%x, %x)", lo, hi)
	}
	if _, hi := ResumeBefore(lower, upper, []byte{3}); !bytes.Equal(hi, upper) {
		t.Errorf("ResumeBefore after range moved upper to %x", hi)
	}
	if lo, hi := ResumeBefore(lower, upper, []byte{1}); !bytes.Equal(lo, hi) {
		t.Errorf("ResumeBefore before range = [%x, %x), want empty", lo, hi)
	}
	if _, hi := ResumeBefore(lower, nil, []byte{2, 5}); !bytes.Equal(hi, []byte{2, 5}) {
		t.Errorf("ResumeBefore unbounded = %x", hi)
	}
}
