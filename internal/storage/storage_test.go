package storage

import (
	"fmt"
	"runtime"
	"sync"
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
