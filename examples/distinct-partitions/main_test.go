package main

import (
	"context"
	"io"
	"testing"

	"github.com/dynago/dynago/internal/testserver"
)

// TestDistinctPartitions runs both methods against the real server: each
// lists every collection exactly once, for far less than a full Scan.
func TestDistinctPartitions(t *testing.T) {
	s := testserver.Start(t)
	const collections = 120
	res, err := run(context.Background(), s.Client, io.Discard, collections, 50)
	if err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string]map[string]int{"skip-scan": res.SkipScan, "marker index": res.Marker} {
		if len(got) != collections {
			t.Fatalf("%s listed %d collections, want %d", name, len(got), collections)
		}
		for k, n := range got {
			if n != 1 {
				t.Fatalf("%s listed %s %d times", name, k, n)
			}
		}
	}
	// About half a unit per collection for the skip-scan; the marker
	// entries are tiny, so the index scan costs a few units; a full Scan
	// of ~3,000 items of ~400 bytes (1.2 MB) would cost about 150.
	if res.SkipUnits > 0.5*float64(collections+4) || res.MarkerUnits > 5 || res.FullScanUnits < 120 {
		t.Fatalf("skip-scan %v units, marker index %v, full scan %v", res.SkipUnits, res.MarkerUnits, res.FullScanUnits)
	}
}
