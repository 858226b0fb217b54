package main

import (
	"context"
	"io"
	"testing"

	"github.com/dynago/dynago/testserver"
)

// TestOrdersIndexes checks the index-based forms of S2: the GSI on the
// order id, the composite sort key through an LSI and a GSI alike, the
// billed LSI fetch, and the sparse index.
func TestOrdersIndexes(t *testing.T) {
	s := testserver.Start(t)
	const users, orders = 5, 30
	res, err := runIndexes(context.Background(), s.Client, io.Discard, users, orders)
	if err != nil {
		t.Fatal(err)
	}
	if res.ByID != "ORDER#user001-0007" {
		t.Fatalf("A3 found %q", res.ByID)
	}
	// user000's orders: SHIPPED at o%10 in {0,2,4,6,8}, dated one a day
	// from 2023-01-01, 28 days a month: 15 shipped, 14 of them (o < 28) in
	// January, those of 10-20 January being o = 10, 12, 14, 16, 18. Below
	// SHIPPED#2023-02-01 also sort every CANCELLED (3), DELIVERED (9) and
	// PLACED (3) order: 29.
	want := map[string]int{"shipped": 15, "sorting before SHIPPED#2023-02-01": 29, "shipped 10-20 January": 5}
	for name, n := range want {
		if res.LSI[name] != n || res.GSI[name] != n {
			t.Fatalf("%s: LSI %d, GSI %d, want %d", name, res.LSI[name], res.GSI[name], n)
		}
	}
	// 15 small KEYS_ONLY entries fit one unit (half, eventually
	// consistent); the fetch adds half a unit per order.
	if res.KeysOnlyIdx != 0.5 || res.KeysOnlyTable != 0 || res.FetchIndex != 0.5 || res.FetchTable != 7.5 {
		t.Fatalf("LSI bills: index %v table %v; with fetch index %v table %v", res.KeysOnlyIdx, res.KeysOnlyTable, res.FetchIndex, res.FetchTable)
	}
	// PLACED: o%10 == 9, users 0 and 1 only: 3 orders each.
	if res.Placed != 6 || res.PlacedAfterShip != 5 {
		t.Fatalf("sparse index: %d, then %d", res.Placed, res.PlacedAfterShip)
	}
}
