package pebblestore_test

import (
	"testing"

	"github.com/dynago/dynago/internal/storage"
	"github.com/dynago/dynago/internal/storage/pebblestore"
	"github.com/dynago/dynago/internal/storage/storagetest"
)

// Pebble passes the storage conformance suite in memory and on disk.
func TestConformance(t *testing.T) {
	t.Run("InMemory", func(t *testing.T) {
		storagetest.Run(t, func(t *testing.T) storage.Store {
			db, err := pebblestore.Open(pebblestore.Options{InMemory: true, MemTableSize: 1 << 20, CacheSize: 1 << 20})
			if err != nil {
				t.Fatal(err)
			}
			return db
		})
	})
	t.Run("OnDisk", func(t *testing.T) {
		storagetest.Run(t, func(t *testing.T) storage.Store {
			db, err := pebblestore.Open(pebblestore.Options{Dir: t.TempDir(), CacheSize: 1 << 20})
			if err != nil {
				t.Fatal(err)
			}
			return db
		})
	})
}
