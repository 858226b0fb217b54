package pgstore

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestStatementTimeout(t *testing.T) {
	s := openTest(t, Options{StatementTimeout: 100 * time.Millisecond})
	start := time.Now()
	_, err := s.pool.Exec(context.Background(), "SELECT pg_sleep(60)")
	if err == nil || sqlState(err) != "57014" {
		t.Fatalf("a long statement: %v", err)
	}
	// Well before the statement would end, however busy the machine.
	if took := time.Since(start); took > 30*time.Second {
		t.Errorf("statement_timeout took %v", took)
	}
}

// TestCallTimeout: with every connection held, a call waits for one no
// longer than CallTimeout.
func TestCallTimeout(t *testing.T) {
	s := openTest(t, Options{MaxConns: 2, CallTimeout: 300 * time.Millisecond})
	shrinkPages(t, 1, 1, 1<<20)
	set(t, s, "a", "1", "b", "2")
	it, _ := s.NewIter(nil, nil)
	it.First()
	it.Next() // holds one connection
	other, err := s.pool.Acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, _, err := s.Get([]byte("a"), nil); err == nil {
		t.Error("Get succeeded with no connection to be had")
	}
	b := s.NewBatch()
	b.Set([]byte("c"), []byte("3"))
	if err := b.Commit(); err == nil {
		t.Error("Commit succeeded with no connection to be had")
	}
	// Without the timeout both would wait as long as the connections
	// are held: until after this check.
	if took := time.Since(start); took > 30*time.Second {
		t.Errorf("took %v", took)
	}
	other.Release()
	it.Close()
	if v, _ := get(t, s, "a"); v != "1" {
		t.Errorf("a = %q", v)
	}
}

// TestCommitUnknownOutcome: when the connection breaks after COMMIT was
// sent, Commit says the outcome is unknown and does not retry.
func TestCommitUnknownOutcome(t *testing.T) {
	rt := countRoundTrips(t)
	s := openTest(t, Options{FoldInterval: -1})
	set(t, s, "a", "1")
	rt.breakOnCommit.Store(true)
	b := s.NewBatch()
	b.Set([]byte("b"), []byte("2"))
	err := b.Commit()
	if !errors.Is(err, ErrCommitUnknown) {
		t.Fatalf("Commit = %v, want ErrCommitUnknown", err)
	}
	if !strings.Contains(err.Error(), "may or may not") {
		t.Errorf("message: %v", err)
	}
	// The store goes on.
	set(t, s, "c", "3")
	if v, _ := get(t, s, "c"); v != "3" {
		t.Errorf("c = %q", v)
	}
}

// TestIterCloseReportsError: an iterator whose read failed reports it
// from Close as well as Error, as storage.Iter promises, so a caller
// checking Close never takes a failed read for the end of its range.
func TestIterCloseReportsError(t *testing.T) {
	s := openTest(t, Options{MaxConns: 2, CallTimeout: 300 * time.Millisecond})
	shrinkPages(t, 1, 1, 1<<20)
	set(t, s, "a", "1", "b", "2")
	held, _ := s.NewIter(nil, nil)
	held.First()
	held.Next() // holds one connection
	other, err := s.pool.Acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	it, err := s.NewIter(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if it.First() {
		t.Fatal("an iterator read with no connection to be had")
	}
	if it.Error() == nil {
		t.Fatal("an iterator stopped by a failed read reports no error")
	}
	if err := it.Close(); err == nil {
		t.Error("Close of an iterator whose read failed reports no error")
	}
	other.Release()
	held.Close()
}
