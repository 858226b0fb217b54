package pgstore

import (
	"context"
	"testing"
	"time"

	"github.com/dynago/dynago/internal/pgtest"
	"github.com/dynago/dynago/internal/storage"
	"github.com/dynago/dynago/internal/storage/storagetest"
)

// PostgreSQL passes the storage conformance suite, each case on a fresh
// schema, and again with pages of two rows so that iterators cross pages.
func TestConformance(t *testing.T) {
	open := func(t *testing.T) storage.Store {
		u, schema := pgtest.Schema(t)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		s, err := Open(ctx, Options{URL: u, Schema: schema, Logger: testLogger(t)})
		if err != nil {
			t.Fatalf("open: %v", err)
		}
		return s
	}
	t.Run("Pages", func(t *testing.T) { storagetest.Run(t, open) })
	t.Run("SmallPages", func(t *testing.T) {
		shrinkPages(t, 2, 3, 1<<20)
		storagetest.Run(t, open)
	})
}
