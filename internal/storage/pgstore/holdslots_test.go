package pgstore

import (
	"fmt"
	"sync"
	"testing"
	"time"
)

// TestHoldersLeaveRoomForGets: callers that hold an iterator's
// connection and then need another for a Get (as an index read fetching
// its items does) never take the whole pool and wait on each other. With
// a pool of two and four such callers at once, every Get succeeds;
// before hold slots, two of them held both connections and their Gets
// failed at the call timeout.
func TestHoldersLeaveRoomForGets(t *testing.T) {
	s := openTest(t, Options{MaxConns: 2, CallTimeout: 5 * time.Second})
	shrinkPages(t, 2, 4, 1<<20)
	var kv []string
	for i := range 20 {
		kv = append(kv, fmt.Sprintf("k%02d", i), "v")
	}
	set(t, s, kv...)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for round := range 5 {
				it, err := s.NewIter(nil, nil)
				if err != nil {
					t.Error(err)
					return
				}
				n := 0
				for ok := it.First(); ok; ok = it.Next() {
					n++
					if n == 5 { // past the first page: the iterator holds a connection
						if _, found, err := s.Get([]byte("k00"), nil); err != nil || !found {
							t.Errorf("goroutine %d round %d: Get while iterating: %v, found %v", g, round, err, found)
						}
					}
				}
				if err := it.Close(); err != nil || n != 20 {
					t.Errorf("goroutine %d round %d: %d keys, %v", g, round, n, err)
				}
			}
		})
	}
	wg.Wait()
	if n := waitIdle(s, time.Minute); n != 0 {
		t.Errorf("%d connections still acquired after a minute", n)
	}
}

// TestIterAtMostPastItsPromise: an iterator told it will visit at most n
// keys still reads every key of its range, in order both ways, when its
// caller goes past n, and leaves no connection held.
func TestIterAtMostPastItsPromise(t *testing.T) {
	s := openTest(t, Options{})
	var kv []string
	for i := range 300 {
		kv = append(kv, fmt.Sprintf("k%03d", i), "v")
	}
	set(t, s, kv...)
	for _, backward := range []bool{false, true} {
		it, err := s.NewIterAtMost([]byte("k"), []byte("l"), 20)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		ok := it.First()
		if backward {
			ok = it.Last()
		}
		for ; ok; ok = map[bool]func() bool{false: it.Next, true: it.Prev}[backward]() {
			got = append(got, string(it.Key()))
		}
		if err := it.Close(); err != nil {
			t.Fatal(err)
		}
		if len(got) != 300 {
			t.Fatalf("backward %v: %d keys, want 300", backward, len(got))
		}
		for i := range got {
			j := i
			if backward {
				j = 299 - i
			}
			if want := fmt.Sprintf("k%03d", j); got[i] != want {
				t.Fatalf("backward %v: key %d is %s, want %s", backward, i, got[i], want)
			}
		}
	}
	if n := waitIdle(s, time.Minute); n != 0 {
		t.Errorf("%d connections still acquired after a minute", n)
	}
}

// TestGetMany: values in the order asked, a key asked twice answered
// twice, missing keys not found, the empty key and an empty list fine.
func TestGetMany(t *testing.T) {
	s := openTest(t, Options{})
	set(t, s, "a", "1", "b", "2", "", "empty")
	vals, found, err := s.GetMany([][]byte{[]byte("b"), []byte("zz"), []byte("a"), []byte("b"), {}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"2", "", "1", "2", "empty"}
	wantFound := []bool{true, false, true, true, true}
	for i := range want {
		if found[i] != wantFound[i] || string(vals[i]) != want[i] {
			t.Errorf("key %d: %q, found %v; want %q, %v", i, vals[i], found[i], want[i], wantFound[i])
		}
	}
	if vals, found, err := s.GetMany(nil); err != nil || len(vals) != 0 || len(found) != 0 {
		t.Errorf("GetMany(nil) = %v, %v, %v", vals, found, err)
	}
}
