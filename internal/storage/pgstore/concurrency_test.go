package pgstore

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/dynago/dynago/internal/pgtest"
	"github.com/dynago/dynago/internal/storage"
)

// twoNodes opens two stores on one schema, as two processes would.
func twoNodes(t *testing.T, o Options) (*Store, *Store) {
	u, schema := pgtest.Schema(t)
	o.URL, o.Schema = u, schema
	return openWith(t, o), openWith(t, o)
}

// TestRacingIncrements: read, expect, write on one key from two stores at
// once; every increment that commits is counted exactly once.
func TestRacingIncrements(t *testing.T) {
	a, b := twoNodes(t, Options{})
	const n = 200
	set(t, a, "n", "0")
	var wg sync.WaitGroup
	conflicts := make([]int, 2)
	for i, s := range []*Store{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range n {
				for {
					v, ok, err := s.Get([]byte("n"), nil)
					if err != nil || !ok {
						t.Errorf("get: %v %v", ok, err)
						return
					}
					x, _ := strconv.Atoi(string(v))
					bt := s.NewBatch()
					bt.Expect([]byte("n"), v, true)
					bt.Set([]byte("n"), []byte(strconv.Itoa(x+1)))
					err = bt.Commit()
					if errors.Is(err, storage.ErrConflict) {
						conflicts[i]++
						continue
					}
					if err != nil {
						t.Errorf("commit: %v", err)
						return
					}
					break
				}
			}
		}()
	}
	wg.Wait()
	if v, _ := get(t, a, "n"); v != strconv.Itoa(2*n) {
		t.Errorf("n = %s, want %d", v, 2*n)
	}
	t.Logf("conflicts %v, serialization retries %d + %d", conflicts, a.retries.Load(), b.retries.Load())
}

// TestRacingCreate: two stores race to create a key expected absent;
// exactly one wins each time.
func TestRacingCreate(t *testing.T) {
	a, b := twoNodes(t, Options{})
	for i := range 50 {
		key := []byte(fmt.Sprintf("k%d", i))
		errs := make([]error, 2)
		var wg sync.WaitGroup
		for j, s := range []*Store{a, b} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				bt := s.NewBatch()
				bt.Expect(key, nil, false)
				bt.Set(key, []byte{byte(j)})
				errs[j] = bt.Commit()
			}()
		}
		wg.Wait()
		won := 0
		for _, err := range errs {
			switch {
			case err == nil:
				won++
			case !errors.Is(err, storage.ErrConflict):
				t.Fatal(err)
			}
		}
		if won != 1 {
			t.Fatalf("%d winners for %s", won, key)
		}
	}
}

// TestCountersConcurrent: many batches add to the same counters from two
// stores while both fold; the sums are exact, and adding alone never
// made a batch retry.
func TestCountersConcurrent(t *testing.T) {
	a, b := twoNodes(t, Options{FoldInterval: 5 * time.Millisecond, Logger: slog.New(slog.NewTextHandler(tlogWriter{t}, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	key := []byte("\x01stats")
	// The first addition registers the key; the race below is about
	// adding to an existing counter.
	bt := a.NewBatch()
	bt.AddCounters(key, 0, 0, 0, 1)
	if err := bt.Commit(); err != nil {
		t.Fatal(err)
	}
	const workers, adds = 8, 100
	var wg sync.WaitGroup
	for w := range workers {
		s := []*Store{a, b}[w%2]
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range adds {
				bt := s.NewBatch()
				bt.AddCounters(key, 1, int64(i), -2)
				bt.Set(fmt.Appendf(nil, "\x02row%d-%d", w, i), []byte("x"))
				if err := bt.Commit(); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	// Readers meanwhile see sums that only grow.
	stop := make(chan struct{})
	var rg sync.WaitGroup
	rg.Add(1)
	go func() {
		defer rg.Done()
		last := int64(0)
		for {
			select {
			case <-stop:
				return
			default:
			}
			c, err := b.Counters(key, 4)
			if err != nil {
				t.Error(err)
				return
			}
			if c[0] < last || c[2] != -2*c[0] || c[3] != 1 {
				t.Errorf("inconsistent counters %v after %d", c, last)
				return
			}
			last = c[0]
		}
	}()
	wg.Wait()
	close(stop)
	rg.Wait()
	want := []int64{workers * adds, workers * adds * (adds - 1) / 2, -2 * workers * adds, 1}
	check := func(when string) {
		for _, s := range []*Store{a, b} {
			c, err := s.Counters(key, 4)
			if err != nil {
				t.Fatal(err)
			}
			for i := range want {
				if c[i] != want[i] {
					t.Fatalf("%s: counters %v, want %v", when, c, want)
				}
			}
		}
	}
	check("while folding")
	if err := a.Fold(context.Background()); err != nil {
		t.Fatal(err)
	}
	check("after folding")
	if r := a.retries.Load() + b.retries.Load(); r != 0 {
		t.Errorf("%d commits retried; adding to counters must not conflict", r)
	}
	// Counters beyond the four stored read as zero.
	if c, err := a.Counters(key, 6); err != nil || len(c) != 6 || c[4] != 0 || c[5] != 0 || c[0] != want[0] {
		t.Errorf("Counters(key, 6) = %v, %v", c, err)
	}
}

// TestDeletesAndCountersDoNotConflict: batches that delete rows and add
// to one counter, as deleting items does, run side by side.
func TestDeletesAndCountersDoNotConflict(t *testing.T) {
	a, b := twoNodes(t, Options{FoldInterval: -1})
	key := []byte("\x01stats")
	const workers, n = 8, 50
	for w := range workers {
		var kv []string
		for i := range n {
			kv = append(kv, fmt.Sprintf("\x02row%d-%d", w, i), "x")
		}
		set(t, a, kv...)
	}
	bt := a.NewBatch()
	bt.AddCounters(key, workers*n)
	bt.Commit()
	var wg sync.WaitGroup
	for w := range workers {
		s := []*Store{a, b}[w%2]
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range n {
				row := fmt.Appendf(nil, "\x02row%d-%d", w, i)
				bt := s.NewBatch()
				bt.Expect(row, []byte("x"), true)
				bt.Delete(row)
				bt.AddCounters(key, -1)
				if err := bt.Commit(); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if c, _ := a.Counters(key, 1); c[0] != 0 {
		t.Errorf("counter = %d", c[0])
	}
	t.Logf("serialization retries: %d", a.retries.Load()+b.retries.Load())
}

// TestDeleteRemovesCounters: Delete and DeleteRange remove counters,
// folded or not, and counting starts again from zero.
func TestDeleteRemovesCounters(t *testing.T) {
	s := openTest(t, Options{FoldInterval: -1})
	add := func(key string, d ...int64) {
		t.Helper()
		b := s.NewBatch()
		b.AddCounters([]byte(key), d...)
		if err := b.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	counters := func(key string) [2]int64 {
		t.Helper()
		c, err := s.Counters([]byte(key), 2)
		if err != nil {
			t.Fatal(err)
		}
		return [2]int64{c[0], c[1]}
	}
	for _, k := range []string{"a", "b", "c", "d"} {
		add(k, 1, 10)
	}
	if err := s.Fold(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"a", "b", "c", "d"} {
		add(k, 2, 20) // one folded part, one delta
	}
	if got := counters("b"); got != [2]int64{3, 30} {
		t.Fatalf("b = %v", got)
	}

	b := s.NewBatch()
	b.Delete([]byte("a"))
	b.DeleteRange([]byte("b"), []byte("d"))
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"a", "b", "c"} {
		if got := counters(k); got != [2]int64{} {
			t.Errorf("%s after delete = %v", k, got)
		}
	}
	if got := counters("d"); got != [2]int64{3, 30} {
		t.Errorf("d = %v", got)
	}
	add("a", 5, 6)
	if got := counters("a"); got != [2]int64{5, 6} {
		t.Errorf("a counted again = %v", got)
	}
	// Within one batch: an add before a delete is dropped, one after
	// counts.
	b = s.NewBatch()
	b.AddCounters([]byte("d"), 100)
	b.Delete([]byte("d"))
	b.AddCounters([]byte("d"), 7)
	b.AddCounters([]byte("e"), 1)
	b.DeleteRange([]byte("e"), []byte("f"))
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := counters("d"); got != [2]int64{7, 0} {
		t.Errorf("d = %v", got)
	}
	if got := counters("e"); got != [2]int64{} {
		t.Errorf("e = %v", got)
	}
	// Counters are not values.
	if _, ok := get(t, s, "d"); ok {
		t.Error("Get sees a counter")
	}
	// Wrapping, as int64 addition does.
	add("w", 1<<62)
	add("w", 1<<62)
	add("w", 1<<62)
	if err := s.Fold(context.Background()); err != nil {
		t.Fatal(err)
	}
	add("w", 1<<62)
	if got := counters("w"); got[0] != 0 {
		t.Errorf("w = %v, want 0 (4 * 2^62 wraps)", got)
	}
}
