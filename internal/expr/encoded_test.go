package expr

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dynago/dynago/attr"
)

// The names and values random items and filters are drawn from: few
// enough that a filter often reads attributes the item has, of types its
// operators compare.
var (
	randNames   = []string{"a", "b", "c", "l", "m", "pk", "x.y", "zz"}
	randStrings = []string{"", "a", "ab", "b", "S", "x", "é𝄞"}
	randNumbers = []string{"0", "1", "-2.5", "2", "10", "1e3"}
)

func randValue(r *rand.Rand, depth int) attr.Value {
	kind := r.IntN(11)
	if depth > 2 && kind >= 8 {
		kind = r.IntN(8)
	}
	switch kind {
	case 0, 1:
		return attr.S(randStrings[r.IntN(len(randStrings))])
	case 2, 3:
		return attr.N(randNumbers[r.IntN(len(randNumbers))])
	case 4:
		return attr.B([]byte(randStrings[1+r.IntN(len(randStrings)-1)]))
	case 5:
		return attr.Bool(r.IntN(2) == 0)
	case 6:
		return attr.Null()
	case 7:
		set := map[string]bool{}
		for range 1 + r.IntN(3) {
			set[randStrings[1+r.IntN(len(randStrings)-1)]] = true
		}
		v := attr.Value{Type: attr.TypeSS}
		for s := range set {
			v.SS = append(v.SS, s)
		}
		return v
	case 8:
		v := attr.Value{Type: attr.TypeL}
		for range r.IntN(4) {
			v.L = append(v.L, randValue(r, depth+1))
		}
		return v
	default:
		v := attr.Value{Type: attr.TypeM, M: attr.Item{}}
		for range r.IntN(4) {
			v.M[randNames[r.IntN(len(randNames))]] = randValue(r, depth+1)
		}
		return v
	}
}

func randItem(r *rand.Rand) attr.Item {
	item := attr.Item{}
	for _, name := range randNames {
		if r.IntN(3) > 0 {
			item[name] = randValue(r, 1)
		}
	}
	return item
}

// randFilter writes a random filter over the names of randNames (each
// through a #placeholder) and values :v0, :v1, ... it adds to values.
type randFilter struct {
	r      *rand.Rand
	names  map[string]string
	values attr.Item
}

func (f *randFilter) path() string {
	n := f.r.IntN(len(randNames))
	p := fmt.Sprintf("#n%d", n)
	f.names[p] = randNames[n]
	for f.r.IntN(3) == 0 {
		if f.r.IntN(2) == 0 {
			p += fmt.Sprintf("[%d]", f.r.IntN(3))
		} else {
			n := f.r.IntN(len(randNames))
			f.names[fmt.Sprintf("#n%d", n)] = randNames[n]
			p += fmt.Sprintf(".#n%d", n)
		}
	}
	return p
}

func (f *randFilter) value() string {
	p := fmt.Sprintf(":v%d", len(f.values))
	f.values[p] = randValue(f.r, 1)
	return p
}

func (f *randFilter) operand() string {
	switch f.r.IntN(5) {
	case 0, 1:
		return f.path()
	case 2:
		return "size(" + f.path() + ")"
	}
	return f.value()
}

func (f *randFilter) cond(depth int) string {
	k := f.r.IntN(12)
	if depth > 2 {
		k = 3 + f.r.IntN(9)
	}
	switch k {
	case 0:
		return "(" + f.cond(depth+1) + ") AND (" + f.cond(depth+1) + ")"
	case 1:
		return "(" + f.cond(depth+1) + ") OR (" + f.cond(depth+1) + ")"
	case 2:
		return "NOT (" + f.cond(depth+1) + ")"
	case 3, 4:
		ops := []string{"=", "<>", "<", "<=", ">", ">="}
		return f.operand() + " " + ops[f.r.IntN(len(ops))] + " " + f.operand()
	case 5:
		return f.operand() + " BETWEEN " + f.operand() + " AND " + f.operand()
	case 6:
		return f.operand() + " IN (" + f.operand() + ", " + f.operand() + ")"
	case 7:
		return "attribute_exists(" + f.path() + ")"
	case 8:
		return "attribute_not_exists(" + f.path() + ")"
	case 9:
		types := []string{"S", "N", "B", "BOOL", "NULL", "SS", "L", "M"}
		p := fmt.Sprintf(":t%d", len(f.values))
		f.values[p] = attr.S(types[f.r.IntN(len(types))])
		return "attribute_type(" + f.path() + ", " + p + ")"
	case 10:
		return "begins_with(" + f.path() + ", " + f.operand() + ")"
	}
	return "contains(" + f.path() + ", " + f.operand() + ")"
}

// checkEncodedEval compiles random filters from seed and evaluates each on
// random items, decoded and encoded: EvalEncoded must agree with Eval.
func checkEncodedEval(t *testing.T, seed uint64, rounds int) (compiled int) {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	var e attr.Encoded
	for range rounds {
		f := &randFilter{r: r, names: map[string]string{}, values: attr.Item{}}
		text := f.cond(0)
		in := Input{Filter: text}
		if len(f.names) > 0 {
			in.Names = f.names
		}
		if len(f.values) > 0 {
			in.Values = f.values
		}
		c, err := Compile(in)
		if err != nil {
			// Some random filters are refused (a size() compared with
			// size(), say); only the compiled ones are evaluated.
			if !strings.HasPrefix(err.Error(), "Invalid FilterExpression") {
				t.Fatalf("%s: %v", text, err)
			}
			continue
		}
		compiled++
		for range 8 {
			item := randItem(r)
			want := c.Filter.Eval(item)
			e.Reset(attr.AppendItem(nil, item))
			if got := c.Filter.EvalEncoded(&e); got != want || e.Err() != nil {
				t.Fatalf("%s on %v: encoded %v (%v), decoded %v", text, item, got, e.Err(), want)
			}
		}
		e.Reset(nil)
		if got, want := c.Filter.EvalEncoded(&e), c.Filter.Eval(nil); got != want {
			t.Fatalf("%s on no item: encoded %v, decoded %v", text, got, want)
		}
	}
	return compiled
}

func TestEvalEncodedMatchesEval(t *testing.T) {
	compiled := 0
	for seed := range uint64(20) {
		compiled += checkEncodedEval(t, seed, 200)
	}
	if compiled < 1000 {
		t.Errorf("only %d of 4000 random filters compiled", compiled)
	}
}

// FuzzEvalEncoded is TestEvalEncodedMatchesEval from fuzzed seeds.
func FuzzEvalEncoded(f *testing.F) {
	f.Add(uint64(1))
	f.Add(uint64(42))
	f.Fuzz(func(t *testing.T, seed uint64) { checkEncodedEval(t, seed, 20) })
}
