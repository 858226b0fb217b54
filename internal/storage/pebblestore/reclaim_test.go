package pebblestore

import (
	"bytes"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"
)

// tableBytes sums the sizes of the store's table files. Write-ahead log
// files are left out: Pebble keeps a few of them for reuse, a fixed
// overhead of a few memtables that does not grow with the data.
func tableBytes(t *testing.T, dir string) int64 {
	t.Helper()
	var n int64
	filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err == nil && e.Type().IsRegular() && filepath.Ext(path) == ".sst" {
			if info, err := e.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}

// The space of a deleted range comes back on an idle store: nothing is
// written after the deletion, yet within a minute (in practice about a
// second) the store's tables shrink to a small fraction of what they held.
func TestDeletedRangeSpaceIsReclaimedWhileIdle(t *testing.T) {
	dir := t.TempDir()
	db, err := Open(Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// Random values do not compress: 32 MB stays about 32 MB on disk.
	value := make([]byte, 4096)
	for i := 0; i < 8192; i++ {
		for j := range value {
			value[j] = byte(rand.Uint32())
		}
		b := db.NewBatch()
		b.Set([]byte(fmt.Sprintf("t1/%06d", i)), value)
		if err := b.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.p.Flush(); err != nil {
		t.Fatal(err)
	}
	full := tableBytes(t, dir)
	if full < 24<<20 {
		t.Fatalf("only %d bytes on disk after writing 32 MB", full)
	}
	b := db.NewBatch()
	if err := b.DeleteRange([]byte("t1/"), []byte("t10")); err != nil {
		t.Fatal(err)
	}
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(time.Minute)
	for {
		now := tableBytes(t, dir)
		if now < full/4 {
			t.Logf("%d bytes before the deletion, %d after", full, now)
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after a minute idle the tables still hold %d of %d bytes", now, full)
		}
		time.Sleep(100 * time.Millisecond)
	}
	v, ok, err := db.Get([]byte("t1/000001"), nil)
	if err != nil || ok {
		t.Fatalf("deleted key reads %q %v %v", v, ok, err)
	}
}

func TestMergeRanges(t *testing.T) {
	r := func(a, b string) [2][]byte { return [2][]byte{[]byte(a), []byte(b)} }
	got := mergeRanges([][2][]byte{r("m", "p"), r("a", "c"), r("b", "d"), r("d", "e"), r("x", "z"), r("n", "o")})
	want := [][2][]byte{r("a", "e"), r("m", "p"), r("x", "z")}
	if len(got) != len(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	for i := range got {
		if !bytes.Equal(got[i][0], want[i][0]) || !bytes.Equal(got[i][1], want[i][1]) {
			t.Fatalf("got %q, want %q", got, want)
		}
	}
}
