package pebblestore

import (
	"fmt"
	"testing"

	"github.com/dynago/dynago/internal/storage"
)

// TestPebbleStatsMoveWithWork checks the Pebble figures the metrics show:
// each name once, and the memtable and flush figures follow writes and a
// flush.
func TestPebbleStatsMoveWithWork(t *testing.T) {
	db, err := Open(Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var _ storage.Statter = db
	stat := func(name string) float64 {
		seen := map[string]bool{}
		v, found := 0.0, false
		for _, s := range db.Stats() {
			if seen[s.Name] {
				t.Fatalf("stat %s reported twice", s.Name)
			}
			seen[s.Name] = true
			if s.Name == name {
				v, found = s.Value, true
			}
		}
		if !found {
			t.Fatalf("no stat %s", name)
		}
		return v
	}
	flushes := stat("pebble_flushes_total")
	b := db.NewBatch()
	for i := 0; i < 1000; i++ {
		if err := b.Set([]byte(fmt.Sprintf("key%05d", i)), make([]byte, 100)); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	if stat("pebble_memtable_bytes") <= 0 {
		t.Error("no memtable bytes after writes")
	}
	if err := db.p.Flush(); err != nil {
		t.Fatal(err)
	}
	if stat("pebble_flushes_total") <= flushes {
		t.Error("a flush did not count")
	}
	if stat("pebble_disk_bytes") <= 0 {
		t.Error("no disk bytes after a flush")
	}
}
