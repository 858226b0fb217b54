package storage

import (
	"errors"
	"sync/atomic"
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"
)

// freeFS reports the free space a test sets.
type freeFS struct {
	vfs.FS
	avail atomic.Uint64
}

func (f *freeFS) GetDiskUsage(string) (vfs.DiskUsage, error) {
	return vfs.DiskUsage{AvailBytes: f.avail.Load(), TotalBytes: 1 << 40}, nil
}

// A commit that would eat into the reserve fails with ErrDiskFull and
// applies nothing; a batch deleting ranges may use half the reserve; all
// are admitted again once space is back.
func TestDiskReserve(t *testing.T) {
	d, err := Open(Options{Dir: t.TempDir(), DiskReserve: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	fs := &freeFS{FS: vfs.Default}
	d.space.fs = fs
	set := func(k string) error {
		b := d.NewBatch()
		b.Set([]byte(k), make([]byte, 1000))
		return b.Commit()
	}
	fs.avail.Store(1<<20 + 500)
	if err := set("a"); !errors.Is(err, ErrDiskFull) {
		t.Fatalf("a commit past the reserve: %v; want ErrDiskFull", err)
	}
	if _, found, _ := d.Get([]byte("a"), nil); found {
		t.Error("a refused commit was applied")
	}
	b := d.NewBatch()
	b.DeleteRange([]byte("x"), []byte("y"))
	if err := b.Commit(); err != nil {
		t.Errorf("a range deletion within half the reserve: %v", err)
	}
	fs.avail.Store(2 << 20)
	if err := set("a"); err != nil {
		t.Fatalf("a commit with space back: %v", err)
	}
	if _, found, _ := d.Get([]byte("a"), nil); !found {
		t.Error("an admitted commit is not there")
	}
	var refused float64
	for _, s := range d.Stats() {
		if s.Name == "pebble_disk_full_refusals_total" {
			refused = s.Value
		}
	}
	if refused != 1 {
		t.Errorf("pebble_disk_full_refusals_total = %v; want 1", refused)
	}
}
