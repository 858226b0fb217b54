package main

import (
	"context"
	"io"
	"testing"

	"github.com/dynago/dynago/testserver"
)

// TestOrdersPartiQL checks that each access pattern of S2 written as a
// PartiQL statement returns the same items, in the same order, and bills
// the same capacity as its expression form, pages included.
func TestOrdersPartiQL(t *testing.T) {
	s := testserver.Start(t)
	const users, orders = 40, 30
	checks, err := runPartiQL(context.Background(), s.Client, io.Discard, users, orders)
	if err != nil {
		t.Fatal(err)
	}
	if len(checks) != 14 {
		t.Fatalf("%d checks", len(checks))
	}
	for _, c := range checks {
		if !c.Same() {
			t.Errorf("%s: statement %d items, %v units; expression %d items, %v units", c.Name, len(c.Items), c.Units, len(c.ExprItems), c.ExprUnits)
		}
		if len(c.Items) == 0 && c.Name != "A5 placed orders by a filtered Scan" {
			t.Errorf("%s: no items", c.Name)
		}
	}
	byName := map[string]*PartiQLCheck{}
	for _, c := range checks {
		byName[c.Name] = c
	}
	// A2 pages of 20 both ways; A5 reads ~3.7 MB in 1 MB pages and finds
	// the 6 placed orders of users 0 and 1, billing the whole table.
	if c := byName["A2 orders newest first"]; c.Pages != 2 || c.ExprPages != 2 {
		t.Errorf("A2: %d pages, %d as an expression", c.Pages, c.ExprPages)
	}
	if c := byName["A5 placed orders by a filtered Scan"]; len(c.Items) != 6 || c.Pages < 4 || c.Pages != c.ExprPages || c.Units < 400 {
		t.Errorf("A5: %d items in %d pages (%d), %v units", len(c.Items), c.Pages, c.ExprPages, c.Units)
	}
	if c := byName["A4 shipped orders by filter"]; len(c.Items) != orders/2 || c.Units < 11 {
		t.Errorf("A4: %d items, %v units", len(c.Items), c.Units)
	}
	if a, b := byName["sparse index PlacedOrders"], byName["sparse index after shipping one"]; len(a.Items) != 6 || len(b.Items) != 5 {
		t.Errorf("sparse index: %d then %d", len(a.Items), len(b.Items))
	}
}
