package expr

import (
	"fmt"
	"sync"
	"testing"

	"github.com/dynago/dynago/attr"
)

func TestCacheBoundedAndConcurrent(t *testing.T) {
	resetCache()
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 3000; i++ {
				expr := fmt.Sprintf("a%d = :v", i%5000)
				c, err := Compile(Input{Condition: expr, Values: attr.Item{":v": n("1")}, Cache: testCache})
				if err != nil {
					t.Error(err)
					return
				}
				if !c.Condition.Eval(attr.Item{fmt.Sprintf("a%d", i%5000): n("1.0")}) {
					t.Error("wrong result")
					return
				}
			}
		}(g)
	}
	wg.Wait()
	if bytes, total := cacheBytes(); total == 0 || bytes > CacheBudget {
		t.Fatal("nothing cached")
	}
	// A cached parse is reused.
	p1 := parseCached(KindFilter, "x = :y")
	if p2 := parseCached(KindFilter, "x = :y"); p1 != p2 {
		t.Error("parse not cached")
	}
	if p3 := parseCached(KindCondition, "x = :y"); p3 == p1 {
		t.Error("kinds share cache entries")
	}
}

func TestBigSets(t *testing.T) {
	var a, bb []string
	for i := 0; i < 40; i++ {
		a = append(a, fmt.Sprint(i))
		bb = append(bb, fmt.Sprint(i+20))
	}
	u := upd(t, "ADD s :b", nil, attr.Item{":b": ns(bb...)})
	got, err := u.Apply(attr.Item{"s": ns(a...)})
	if err != nil || len(got["s"].SS) != 60 {
		t.Fatalf("union: %v %v", len(got["s"].SS), err)
	}
	u = upd(t, "DELETE s :b", nil, attr.Item{":b": ss(bb...)})
	got, err = u.Apply(attr.Item{"s": ss(a...)})
	if err != nil || len(got["s"].SS) != 20 {
		t.Fatalf("difference: %v %v", len(got["s"].SS), err)
	}
	var bin []string
	for i := 0; i < 40; i++ {
		bin = append(bin, string(rune('A'+i)))
	}
	u = upd(t, "DELETE s :b", nil, attr.Item{":b": bs(bin[10:]...)})
	got, err = u.Apply(attr.Item{"s": bs(bin[:30]...)})
	if err != nil || len(got["s"].BS) != 10 {
		t.Fatalf("binary difference: %v %v", len(got["s"].BS), err)
	}
}
