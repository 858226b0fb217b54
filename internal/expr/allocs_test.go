package expr

import (
	"testing"

	"github.com/dynago/dynago/attr"
)

// Allocation ceiling of filter evaluation, the per-item cost of a filtered
// Query or Scan. Allocations per call are deterministic, unlike time, so
// this fails on a regression without timing anything. The ceiling is
// today's exact count: a change that adds an allocation fails here; a
// change that removes one should lower the ceiling to the new count (the
// failure message and -v print it).
func TestAllocsFilterEval(t *testing.T) {
	c, err := Compile(Input{Filter: complexCond, Names: complexNames, Values: complexValues()})
	if err != nil {
		t.Fatal(err)
	}
	item := benchItem()
	const ceiling = 0
	got := testing.AllocsPerRun(1000, func() {
		if !c.Filter.Eval(item) {
			t.Fatal("filter rejects the item")
		}
	})
	t.Logf("Eval: %v allocs/op", got)
	if got > ceiling {
		t.Errorf("Eval: %v allocations a call, ceiling %v", got, ceiling)
	}
}

// TestAllocsFilterEvalEncoded is TestAllocsFilterEval on the item's
// encoding, read lazily (a Scan's filter): each attribute the filter
// reads is decoded into a value of its own, and a string of more than one
// byte, a set or a map allocates; nothing else does.
func TestAllocsFilterEvalEncoded(t *testing.T) {
	for _, tc := range []struct {
		name    string
		in      Input
		ceiling float64
	}{
		{"equal", Input{Filter: "category = :c", Values: attr.Item{":c": s("tools")}}, 1},
		{"complex", Input{Filter: complexCond, Names: complexNames, Values: complexValues()}, 11},
	} {
		c, err := Compile(tc.in)
		if err != nil {
			t.Fatal(err)
		}
		var item attr.Encoded
		b := attr.AppendItem(nil, benchItem())
		got := testing.AllocsPerRun(1000, func() {
			item.Reset(b)
			if !c.Filter.EvalEncoded(&item) {
				t.Fatal("filter rejects the item")
			}
		})
		t.Logf("EvalEncoded, %s: %v allocs/op", tc.name, got)
		if got > tc.ceiling {
			t.Errorf("EvalEncoded, %s: %v allocations a call, ceiling %v", tc.name, got, tc.ceiling)
		}
	}
}
