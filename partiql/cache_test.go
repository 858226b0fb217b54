package partiql

import (
	"runtime"
	"strings"
	"testing"
)

// The cache charges a statement parseCost bytes per byte of text: the
// parse of dense statements must not allocate more (allocations include
// garbage, so this errs on the safe side).
func TestParseCostBound(t *testing.T) {
	for name, where := range map[string]string{
		"sums":   "a = 1" + strings.Repeat("+1", 2000),
		"list":   "a IN [1" + strings.Repeat(",1", 2000) + "]",
		"paths":  "a" + strings.Repeat(".b", 2000) + " = 1",
		"ands":   "a=1" + strings.Repeat(" AND a=1", 500),
		"bags":   "a = <<1" + strings.Repeat(",1", 2000) + ">>",
		"params": "a IN (?" + strings.Repeat(",?", 2000) + ")",
	} {
		src := "SELECT * FROM t WHERE " + where
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		if _, err := Parse(src); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		runtime.ReadMemStats(&after)
		if per := float64(after.TotalAlloc-before.TotalAlloc) / float64(len(src)); per > parseCost {
			t.Errorf("%s: %.0f bytes allocated per byte of text, charged %d", name, per, parseCost)
		}
	}
}

func TestParseCached(t *testing.T) {
	cache := NewCache(0)
	a, err := cache.Parse(`SELECT * FROM t WHERE a = ?`)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := cache.Parse(`SELECT * FROM t WHERE a = ?`)
	if a != b {
		t.Fatal("the second parse was not the cached one")
	}
	if _, err := cache.Parse(`SELECT * FROM`); err == nil {
		t.Fatal("an error was cached as a statement")
	}
}
