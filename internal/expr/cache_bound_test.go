package expr

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// bigExpr joins units (each formatted with its position) with sep after a
// distinct head, stopping before max bytes.
func bigExpr(head, unit, sep string, max int) string {
	var b strings.Builder
	b.WriteString(head)
	for i := 0; ; i++ {
		u := strings.ReplaceAll(unit, "@", fmt.Sprint(i))
		if b.Len()+len(sep)+len(u) > max {
			return b.String()
		}
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(u)
	}
}

// costShapes are expressions of every kind at or near the 4 KB limit,
// each shaped to make the parser allocate as much as it can per byte, and
// a short one. n makes each text distinct.
var costShapes = []struct {
	name string
	kind Kind
	text func(n int) string
}{
	{"short filter", KindFilter, func(n int) string { return fmt.Sprintf("#st%d = :v", n) }},
	{"comparisons", KindFilter, func(n int) string {
		return bigExpr(fmt.Sprintf("z%d = :v AND ", n), "a@ = :v", " AND ", MaxExpressionSize)
	}},
	{"functions", KindCondition, func(n int) string { return bigExpr(fmt.Sprintf("z%d = :v AND ", n), "size(a@)>:v", " OR ", 2300) }}, // at most 300 operators
	{"placeholders", KindFilter, func(n int) string {
		return bigExpr(fmt.Sprintf("z%d = :v AND ", n), "#a@ = :v@", " AND ", MaxExpressionSize)
	}},
	{"projection", KindProjection, func(n int) string { return bigExpr(fmt.Sprintf("z%d,", n), "a@", ",", MaxExpressionSize) }},
	{"deep paths", KindProjection, func(n int) string {
		return bigExpr(fmt.Sprintf("z%d,", n), "a@.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s.t.u.v.w.x.y.z", ",", MaxExpressionSize)
	}},
	{"list indexes", KindUpdate, func(n int) string {
		return bigExpr(fmt.Sprintf("REMOVE z%d, ", n), "a@[1][2][3][4][5][6][7][8][9][10][11][12][13][14][15][16][17][18][19][20]", ",", MaxExpressionSize)
	}},
	{"update SET", KindUpdate, func(n int) string { return bigExpr(fmt.Sprintf("SET z%d = :v, ", n), "a@=:v", ",", MaxExpressionSize) }},
	{"update arithmetic", KindUpdate, func(n int) string {
		return bigExpr(fmt.Sprintf("SET z%d = :v, ", n), "a@=if_not_exists(b@,:v)+:w", ",", MaxExpressionSize)
	}},
}

// TestCacheCostMatchesHeap checks entryCost against the Go heap: the bytes
// a parse keeps alive (its text, tree and path tree, measured with
// runtime.ReadMemStats around many parses) must never exceed what the
// cache charges for it, and the charge must not be wildly pessimistic
// either, or the budget would hold far fewer expressions than it could.
// Measured at the time of writing: charges are 1.18 to 1.32 times the heap
// for 4 KB expressions, 1.5 times for a short one.
func TestCacheCostMatchesHeap(t *testing.T) {
	if testing.Short() {
		t.Skip("measures the heap")
	}
	for _, sh := range costShapes {
		t.Run(sh.name, func(t *testing.T) {
			const n = 400
			texts := make([]string, n)
			for i := range texts {
				texts[i] = sh.text(i)
			}
			keep := make([]*parsed, n)
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			charged := 0
			for i, text := range texts {
				text = strings.Clone(text) // as parseCached keeps it
				p := parse(sh.kind, text)
				if p.err != nil || p.static != nil {
					t.Fatalf("%.80s...: %v %v", text, p.err, p.static)
				}
				// Build the path tree a projection or update keeps.
				if len(p.nameRefs) == 0 {
					switch sh.kind {
					case KindProjection:
						p.projection(&binding{})
					case KindUpdate:
						p.update(binding{})
					}
				}
				keep[i] = p
				charged += entryCost(p, text) - sizeEntry - mapSlot
			}
			runtime.GC()
			runtime.ReadMemStats(&after)
			heap := int(after.HeapAlloc) - int(before.HeapAlloc)
			runtime.KeepAlive(keep)
			ratio := float64(charged) / float64(heap)
			t.Logf("%d bytes of text: heap %d B, charged %d B per entry (%.2fx)", len(texts[0]), heap/n, charged/n, ratio)
			if ratio < 1 || ratio > 2.5 {
				t.Errorf("charged %.2f times the heap, want 1 to 2.5", ratio)
			}
		})
	}
}

// TestCacheBoundedByBytes floods the cache with distinct expressions of
// the largest kinds, valid and not, and checks that the charged bytes
// stay within CacheBudget, that failed parses are not kept, and that an
// entry in constant use survives the flood.
func TestCacheBoundedByBytes(t *testing.T) {
	resetCache()
	defer resetCache()
	const hot = "attribute_exists(pk) AND #n = :v"
	hotParse := parseCached(KindCondition, hot)
	for i := 0; i < 3000; i++ {
		sh := costShapes[1+i%(len(costShapes)-1)]
		text := sh.text(i)
		if i%3 == 0 {
			text = text[:len(text)-1] + " )" // a syntax error, or (IN) an unused operand
		}
		parseCached(sh.kind, text)
		if p := parseCached(KindCondition, hot); p != hotParse {
			t.Fatalf("after %d expressions the hot entry was evicted", i+1)
		}
		if bytes, _ := cacheBytes(); bytes > CacheBudget {
			t.Fatalf("after %d expressions the cache charges %d bytes, over its budget of %d", i+1, bytes, CacheBudget)
		}
	}
	bytes, entries := cacheBytes()
	t.Logf("%d entries, %d bytes charged", entries, bytes)
	if bytes < CacheBudget/2 {
		t.Errorf("the flood filled only %d of %d bytes", bytes, CacheBudget)
	}
	// A failed parse is not cached.
	for i := 0; i < 2; i++ {
		p := parseCached(KindFilter, "a = = :v")
		if p.err == nil {
			t.Fatal("no syntax error")
		}
	}
	for i := range testCache.shards {
		sh := &testCache.shards[i]
		sh.mu.RLock()
		for k := range sh.m {
			for text, e := range sh.m[k] {
				if e.p.err != nil || e.p.static != nil {
					t.Errorf("failed parse cached: %.60s", text)
				}
			}
		}
		sh.mu.RUnlock()
	}
}
