package main

import (
	"context"
	"io"
	"testing"

	"github.com/dynago/dynago/testserver"
)

// TestCommentsPartiQL checks that each access pattern of S3 written in
// PartiQL returns the same items, in the same order, and bills the same
// capacity as its expression form.
func TestCommentsPartiQL(t *testing.T) {
	s := testserver.Start(t)
	const n = 150
	checks, err := runPartiQL(context.Background(), s.Client, io.Discard, n)
	if err != nil {
		t.Fatal(err)
	}
	if len(checks) != 9 {
		t.Fatalf("%d checks", len(checks))
	}
	byName := map[string]*PartiQLCheck{}
	for _, c := range checks {
		byName[c.Name] = c
		if !c.Same() {
			t.Errorf("%s: statement %d items, %v units; expression %d items, %v units", c.Name, len(c.Items), c.Units, len(c.ExprItems), c.ExprUnits)
		}
		if c.Units == 0 {
			t.Errorf("%s: no bill", c.Name)
		}
	}
	if c := byName["AP1 newest 20 comments"]; len(c.Items) != pageSize {
		t.Errorf("AP1: %d items", len(c.Items))
	}
	if c := byName["AP6 all comments, 20 a page"]; len(c.Items) != n || c.Pages != c.ExprPages || c.Pages < n/pageSize {
		t.Errorf("AP6: %d items in %d pages (%d)", len(c.Items), c.Pages, c.ExprPages)
	}
	// A Query of 20 small projected comments costs far less than reading
	// the same 20 by key, at least half a unit each.
	if q, b := byName["AP1 newest 20 comments"], byName["20 comments by key"]; q.Units >= b.Units || b.Units < 10 {
		t.Errorf("Query %v units, by key %v", q.Units, b.Units)
	}
	if c := byName["AP5 delete a comment"]; c.Units != 5 {
		t.Errorf("AP5 billed %v write units, want 5 (the table and four indexes)", c.Units)
	}
}
