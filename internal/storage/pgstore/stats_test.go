package pgstore

import (
	"errors"
	"testing"

	"github.com/dynago/dynago/internal/storage"
)

func statValue(t *testing.T, stats []storage.Stat, name string) float64 {
	t.Helper()
	seen := map[string]bool{}
	var v float64
	found := false
	for _, s := range stats {
		if seen[s.Name] {
			t.Fatalf("stat %s reported twice", s.Name)
		}
		seen[s.Name] = true
		if s.Name == name {
			v, found = s.Value, true
		}
	}
	if !found {
		t.Fatalf("no stat %s in %v", name, stats)
	}
	return v
}

// TestStatsCountStatementsAndPool checks that the figures the metrics
// show move with the work done: each commit and read is a statement, and
// the pool reports the connections it opened.
func TestStatsCountStatementsAndPool(t *testing.T) {
	s := openTest(t, Options{})
	var _ storage.Statter = s
	before := s.Stats()
	set(t, s, "a", "1", "b", "2")
	if _, ok := get(t, s, "a"); !ok {
		t.Fatal("a not found")
	}
	after := s.Stats()
	if d := statValue(t, after, "pg_statements_total") - statValue(t, before, "pg_statements_total"); d < 2 {
		t.Errorf("a commit and a read added %v statements, want at least 2", d)
	}
	if statValue(t, after, "pg_statement_seconds_total") <= statValue(t, before, "pg_statement_seconds_total") {
		t.Error("statement time did not grow")
	}
	if statValue(t, after, "pg_pool_conns") < 1 {
		t.Error("the pool reports no open connection")
	}
	if statValue(t, after, "pg_pool_acquires_total") <= statValue(t, before, "pg_pool_acquires_total") {
		t.Error("acquires did not grow")
	}
}

// TestInsertNeverOverwrites checks Batch.Insert: a new key is written; a
// key that exists fails the commit with storage.ErrConflict and nothing of
// the batch is applied, where Set would have replaced the value.
func TestInsertNeverOverwrites(t *testing.T) {
	s := openTest(t, Options{})
	b := s.NewBatch()
	if err := b.Insert([]byte("rec1"), []byte("first")); err != nil {
		t.Fatal(err)
	}
	if err := b.Commit(); err != nil {
		t.Fatalf("insert of a new key: %v", err)
	}
	b = s.NewBatch()
	b.Set([]byte("other"), []byte("x"))
	b.Insert([]byte("rec1"), []byte("second"))
	if err := b.Commit(); !errors.Is(err, storage.ErrConflict) {
		t.Fatalf("insert of an existing key: %v, want ErrConflict", err)
	}
	if v, _ := get(t, s, "rec1"); v != "first" {
		t.Errorf("rec1 = %q after a conflicting insert, want the first value", v)
	}
	if _, ok := get(t, s, "other"); ok {
		t.Error("the conflicting batch's other write was applied")
	}
	// Within one batch, an Insert after a Delete of the same key is a set.
	b = s.NewBatch()
	b.Delete([]byte("rec1"))
	b.Insert([]byte("rec1"), []byte("third"))
	if err := b.Commit(); err != nil {
		t.Fatalf("delete then insert in one batch: %v", err)
	}
	if v, _ := get(t, s, "rec1"); v != "third" {
		t.Errorf("rec1 = %q, want third", v)
	}
}
