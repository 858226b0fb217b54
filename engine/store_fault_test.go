package engine

import (
	"bytes"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/internal/keys"
	"github.com/dynago/dynago/internal/pgtest"
	"github.com/dynago/dynago/internal/storage"
	"github.com/dynago/dynago/internal/storage/faultstore"
)

// quietClose is a store whose iterators report a failed read through
// Error only, never through Close, so that a test sees whether the engine
// asks.
type quietClose struct{ storage.Store }

type quietIter struct{ storage.Iter }

func (q quietClose) NewIter(lower, upper []byte) (storage.Iter, error) {
	it, err := q.Store.NewIter(lower, upper)
	if err != nil {
		return nil, err
	}
	return quietIter{it}, nil
}

func (it quietIter) Close() error { it.Iter.Close(); return nil }

// A catalog refresh that fails midway keeps the cached catalog whole: the
// node's poller, failing again and again, never drops a table, and
// ListTables answers an internal error (never an engine *Error such as
// ResourceNotFound, and never a shorter list) until the store answers.
func TestSharedCatalogKeptThroughFailedRefreshes(t *testing.T) {
	url, schema := pgtest.Schema(t)
	fs := faultstore.New(openPG(t, url, schema))
	db := mustOpen(t, Options{Store: quietClose{fs}})
	mustCreate(t, db, "kept", false)
	catalog := []byte{keys.NSMeta, metaTagTable}
	var failed atomic.Int64
	fs.SetRule(func(c faultstore.Call) error {
		if c.Kind == faultstore.Move && bytes.Equal(c.Key, catalog) {
			failed.Add(1)
			return faultstore.ErrInjected
		}
		return nil
	})
	// Several failed polls (every catalogPollInterval).
	deadline := time.Now().Add(time.Minute)
	for failed.Load() < 4 {
		if time.Now().After(deadline) {
			t.Fatalf("the catalog poller failed %d times in a minute", failed.Load())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if db.lookupCached("kept") == nil {
		t.Fatal("a failed catalog refresh dropped table kept from the cache")
	}
	_, err := db.ListTables(&dynamo.ListTablesInput{})
	var e *dynamo.Error
	if !errors.Is(err, faultstore.ErrInjected) || errors.As(err, &e) {
		t.Errorf("ListTables with the catalog unreadable: %v; want the store's error", err)
	}
	if _, err := db.GetItem(&dynamo.GetItemInput{TableName: "kept", Key: attr.Item{"pk": attr.S("k")}}); err != nil {
		t.Errorf("GetItem of a cached table, items readable: %v", err)
	}
	fs.Heal()
	out, err := db.ListTables(&dynamo.ListTablesInput{})
	if err != nil || len(out.TableNames) != 1 || out.TableNames[0] != "kept" {
		t.Errorf("ListTables with the store back: %v, %v", out, err)
	}
}
