package main

import (
	"context"
	"io"
	"testing"

	"github.com/dynago/dynago/testserver"
)

// TestOrders runs the example against the real server and checks what
// scenario S2 promises: the key conditions find what they should, a
// filtered Query is billed for every item it read, and a filtered Scan
// over several megabytes pages at 1 MB, with empty pages, billing all of it.
func TestOrders(t *testing.T) {
	s := testserver.Start(t)
	const users, orders = 80, 30
	res, err := run(context.Background(), s.Client, io.Discard, users, orders)
	if err != nil {
		t.Fatal(err)
	}
	if res.Profile == nil || res.Orders != orders {
		t.Fatalf("A1 profile %v, A2 %d orders", res.Profile, res.Orders)
	}
	// user000's orders cycle through statuses: 5 of every 10 are SHIPPED.
	if res.Shipped != orders/2 || res.ShippedScanned != orders {
		t.Fatalf("A4: %d shipped of %d read", res.Shipped, res.ShippedScanned)
	}
	// An eventually consistent Query that read 30 orders of ~3.1 KB is
	// billed on ~93 KB, about 12 units, not the ~6 of the 15 it returned.
	if res.ShippedUnits < 11 || res.ShippedUnits > 13 {
		t.Fatalf("A4 billed %v read units", res.ShippedUnits)
	}
	if res.Placed != 2*orders/10 {
		t.Fatalf("A5 found %d placed orders", res.Placed)
	}
	if res.ScannedItems != float64(users*(orders+1)) {
		t.Fatalf("A5 read %v items", res.ScannedItems)
	}
	// ~7.4 MB of orders: at least 8 pages of at most 1 MB, billed on all
	// of it (about 7.4 MB / 4 KB / 2).
	if res.Pages < 8 || res.ScanUnits < 880 || res.ScanUnits > 960 {
		t.Fatalf("A5 %d pages, billed %v units", res.Pages, res.ScanUnits)
	}
	// Placed orders sit in two partitions: most pages find none, and still
	// come back with a LastEvaluatedKey and a bill.
	if res.Empty < 2 {
		t.Fatalf("A5: %d of %d pages empty", res.Empty, res.Pages)
	}
}
