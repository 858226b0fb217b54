package pebblestore

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"syscall"
	"testing"
)

// Committing a batch and then closing it (the deferred Close of every write
// path) must release it to Pebble's pool once only; a double release hands
// one batch to two writers, which loses or corrupts writes under load.
func TestCommitThenCloseUnderConcurrency(t *testing.T) {
	db, err := Open(Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const writers, each = 8, 500
	var wg sync.WaitGroup
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				b := db.NewBatch()
				key := []byte(fmt.Sprintf("k-%d-%d", w, i))
				if err := b.Set(key, key); err != nil {
					t.Error(err)
				}
				if err := b.Commit(); err != nil {
					t.Error(err)
				}
				runtime.Gosched() // let another writer take a pooled batch
				b.Close()
			}
		}()
	}
	wg.Wait()
	for w := 0; w < writers; w++ {
		for i := 0; i < each; i++ {
			key := []byte(fmt.Sprintf("k-%d-%d", w, i))
			v, ok, err := db.Get(key, nil)
			if err != nil || !ok || string(v) != string(key) {
				t.Fatalf("key %s: %q %v %v", key, v, ok, err)
			}
		}
	}
}

// An acknowledged commit must already be in the operating system's hands,
// so that killing the process at once loses nothing: the log file on disk,
// read through another descriptor while the store is still open and idle,
// holds the value. Before the store asked Pebble for synced commits an
// unsynced commit stayed in a buffer of the process and the log was empty.
func TestCommitReachesTheLogBeforeItReturns(t *testing.T) {
	for _, sync := range []bool{false, true} {
		t.Run(fmt.Sprintf("sync=%v", sync), func(t *testing.T) {
			dir := t.TempDir()
			db, err := Open(Options{Dir: dir, Sync: sync})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			value := []byte("acknowledged-value-5f1c2e")
			b := db.NewBatch()
			if err := b.Set([]byte("k"), value); err != nil {
				t.Fatal(err)
			}
			if err := b.Commit(); err != nil {
				t.Fatal(err)
			}
			logs, _ := filepath.Glob(filepath.Join(dir, "*.log"))
			found := false
			for _, name := range logs {
				data, err := os.ReadFile(name)
				if err != nil {
					t.Fatal(err)
				}
				found = found || bytes.Contains(data, value)
			}
			if !found {
				t.Fatalf("the committed value is in none of the log files %v", logs)
			}
		})
	}
}

// Everything in a data directory is its owner's alone, whatever the umask,
// and a directory left readable by an older version is tightened on open.
func TestDataDirectoryIsOwnerOnly(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	dir := filepath.Join(t.TempDir(), "data")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "left-by-older-version"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	db, err := Open(Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2000; i++ { // enough to write a table file too
		b := db.NewBatch()
		b.Set([]byte(fmt.Sprintf("key-%05d", i)), bytes.Repeat([]byte{'v'}, 1024))
		if err := b.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.p.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	n := 0
	filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		info, _ := e.Info()
		want := os.FileMode(0o600)
		if e.IsDir() {
			want = 0o700
		}
		if got := info.Mode().Perm(); got != want {
			t.Errorf("%s: mode %v, want %v", path, got, want)
		}
		n++
		return nil
	})
	if n < 5 {
		t.Fatalf("only %d entries checked", n)
	}
}
