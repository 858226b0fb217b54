package engine

import (
	"errors"
	"github.com/dynago/dynago/dynamo"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dynago/dynago/internal/pgtest"
)

// A node whose catalog still shows a backfill that another node has
// finished (its poller read the catalog just before the end) does not
// take the lease the finished backfill gave back: taking it expects the
// catalog entry in which the index is CREATING.
func TestSharedFinishedBackfillLeaseNotTaken(t *testing.T) {
	a, b, _, _, _, _ := twoNodes(t)
	createGSITable(t, a, "gtb")
	for i := range 10 {
		if _, err := a.PutItem(&dynamo.PutItemInput{TableName: "gtb", Item: gItem(i, "g", i)}); err != nil {
			t.Fatal(err)
		}
	}
	reached, goOn := make(chan struct{}), make(chan struct{})
	var o sync.Once
	a.backfillHook = func(_ uint64, _ uint32, chunk int) bool {
		if chunk == 0 {
			o.Do(func() { close(reached); <-goOn })
		}
		return true
	}
	addGSI(t, a, "gtb", "byg")
	waitClosed(t, reached, "a's backfill starting")
	stale, err := b.refreshTable("gtb")
	if err != nil {
		t.Fatal(err)
	}
	ix := stale.index("byg")
	if ix == nil || !ix.meta.Backfilling {
		t.Fatal("b's catalog does not show the index CREATING")
	}
	name := backfillLeaseName(stale.meta.ID, ix.meta.ID)
	close(goOn)
	waitActive(t, a, "gtb")
	deadline := time.Now().Add(60 * time.Second)
	for leaseRow(t, a, name) != nil {
		if time.Now().After(deadline) {
			t.Fatal("waited 60s for a to give the finished backfill's lease back")
		}
		time.Sleep(5 * time.Millisecond)
	}

	var ran sync.WaitGroup
	ran.Add(1)
	b.runLeased(name, stale, func(*lease) { ran.Done() })
	if v := leaseRow(t, b, name); v != nil {
		ran.Wait()
		t.Fatalf("b took the lease of a finished backfill from a catalog that still showed it: %q", v)
	}
}

// A job that lost its lease finds out by reading the lease row: when the
// node that took it over has given it back (its job done), the node that
// lost it does not take it again to check. Taken again, the lease would
// even look like the one lost: a lease given back has no row, so its
// epochs start over, and the check would let the stale job go on.
func TestSharedStillHoldsTakesNothing(t *testing.T) {
	url, schema := pgtest.Schema(t)
	var logs syncBuffer
	a := mustOpen(t, Options{Store: openPG(t, url, schema), TTLSweepInterval: -1,
		Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	b := mustOpen(t, Options{Store: openPG(t, url, schema), TTLSweepInterval: -1})
	la, err := a.acquireLease("job")
	if err != nil || la == nil {
		t.Fatalf("a did not take the free lease: %v", err)
	}
	taken := takeLeaseOver(t, b, la)
	b.releaseLease(&lease{name: "job", value: taken})
	before := strings.Count(logs.String(), "lease acquired")
	if err := a.stillHolds(la); !errors.Is(err, errLeaseLost) {
		t.Fatalf("stillHolds after the lease was taken over and given back: %v, want errLeaseLost", err)
	}
	if n := strings.Count(logs.String(), "lease acquired") - before; n != 0 {
		t.Errorf("a acquired the lease %d times while checking whether it still held it", n)
	}
	if v := leaseRow(t, a, "job"); v != nil {
		t.Errorf("the lease row is %q after the check, want none", v)
	}
}

// leaseRow returns the value of the lease called name, nil if none.
func leaseRow(t *testing.T, db *DB, name string) []byte {
	t.Helper()
	v, found, err := db.store.Get(metaLeaseKey(name), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !found {
		return nil
	}
	return v
}
