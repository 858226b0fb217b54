package pgstore

import (
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
