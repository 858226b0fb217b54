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
	reads atomic.Int64 // GetDiskUsage calls
}

func (f *freeFS) GetDiskUsage(string) (vfs.DiskUsage, error) {
	f.reads.Add(1)
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

// The guard reads the free space again once the commits since its last
// reading have written a quarter of the room it found above the reserve,
// and before it refuses a commit: far from the limit, many small commits
// share a reading; near it, each commit reads.
func TestDiskReserveReadings(t *testing.T) {
	d, err := Open(Options{Dir: t.TempDir(), DiskReserve: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	fs := &freeFS{FS: vfs.Default}
	d.space.fs = fs
	set := func(k string, n int) error {
		b := d.NewBatch()
		b.Set([]byte(k), make([]byte, n))
		return b.Commit()
	}
	// 1 MiB of room above the reserve: 256 KiB between readings, and
	// commits of about 1 KB.
	fs.avail.Store(2 << 20)
	for i := range 100 {
		if err := set(fmt.Sprint("k", i), 1000); err != nil {
			t.Fatal(err)
		}
	}
	// A reading older than spaceReadingAge is read again; on a slow
	// machine the 100 commits may take longer.
	if r := fs.reads.Load(); r < 1 || r > 10 {
		t.Errorf("100 commits of 1 KB with 1 MiB of room read the free space %d times; want 1 (a few on a slow machine)", r)
	}
	for i := range 300 {
		if err := set(fmt.Sprint("k", i), 1000); err != nil {
			t.Fatal(err)
		}
	}
	if r := fs.reads.Load(); r < 2 {
		t.Errorf("300 more commits of 1 KB, past a quarter of the room, read the free space %d times in all; want at least 2", r)
	}
	// Near the limit every commit reads, and is refused only on what it
	// read: the space freed since the last reading admits it. (The
	// reading is dropped as spaceReadingAge would drop it.)
	fs.avail.Store(1<<20 + 2000)
	d.space.last.Store(nil)
	if err := set("near", 1000); err != nil {
		t.Fatal(err)
	}
	before := fs.reads.Load()
	if err := set("near", 1000); err != nil {
		t.Fatal(err)
	}
	if fs.reads.Load() != before+1 {
		t.Error("a commit within a few KB of the reserve did not read the free space")
	}
	fs.avail.Store(1<<20 + 500)
	if err := set("full", 1000); !errors.Is(err, ErrDiskFull) {
		t.Fatalf("a commit past the reserve: %v; want ErrDiskFull", err)
	}
	fs.avail.Store(2 << 20)
	if err := set("full", 1000); err != nil {
		t.Fatalf("a commit with space back, after a reading that refused: %v", err)
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
