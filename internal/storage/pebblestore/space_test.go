package pebblestore

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
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

// A corrupt table file is a read error, not the end of the process
// (Pebble's default on corruption is to stop it): Get and iterators
// return an error, never a missing key.
func TestCorruptFileIsReadError(t *testing.T) {
	dir := t.TempDir()
	d, err := Open(Options{Dir: dir, CacheSize: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	b := d.NewBatch()
	for i := range 2000 {
		b.Set([]byte(fmt.Sprintf("k%05d", i)), bytes.Repeat([]byte{byte(i)}, 100))
	}
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := d.p.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	tables, _ := filepath.Glob(filepath.Join(dir, "*.sst"))
	if len(tables) == 0 {
		t.Fatal("no table file after a flush")
	}
	for _, name := range tables {
		f, err := os.OpenFile(name, os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		// Scribble over the data blocks, leaving the footer.
		if _, err := f.WriteAt(bytes.Repeat([]byte{0xAA}, 4096), 0); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	d, err = Open(Options{Dir: dir, CacheSize: 1 << 20})
	if err != nil {
		t.Fatalf("open with a corrupt table: %v", err)
	}
	defer d.Close()
	if _, found, err := d.Get([]byte("k00000"), nil); err == nil {
		t.Errorf("Get from a corrupt block: found %v, no error", found)
	}
	it, err := d.NewIter(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for ok := it.First(); ok; ok = it.Next() {
		n++
	}
	if it.Error() == nil || it.Close() == nil {
		t.Errorf("an iterator over a corrupt table read %d keys and reported no error", n)
	}
}
