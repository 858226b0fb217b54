package expr

import "testing"

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
