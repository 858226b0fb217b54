package engine

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/internal/pgtest"
)

// A Time to Live sweep whose lease another node takes over while it runs
// deletes nothing more: each of its deletions expects the lease, so a node
// that was cut off from the store, or paused, for the lease timeout cannot
// delete what the node now sweeping owns. The new holder then sweeps.
func TestSharedTTLSweepExpectsLease(t *testing.T) {
	url, schema := pgtest.Schema(t)
	ha := &hookStore{Store: openPG(t, url, schema)}
	a := mustOpen(t, Options{Store: ha, TTLSweepInterval: -1})
	b := mustOpen(t, Options{Store: openPG(t, url, schema), TTLSweepInterval: -1})
	mustCreate(t, a, "exp", false)
	setTTL(t, a, "exp", true, "exp")
	past := time.Now().Unix() - 10
	var keys []attr.Item
	for i := range 3 {
		k := attr.Item{"pk": attr.S(fmt.Sprint("k", i))}
		keys = append(keys, k)
		ttlPut(t, a, "exp", attr.Item{"pk": k["pk"], "exp": ttlNum(past)})
	}

	la, held := a.ttlLease()
	if !held {
		t.Fatal("a did not take the free Time to Live lease")
	}
	// Once a has listed the expired items, b takes the lease over, as it
	// does when a's heartbeat has stood still for the lease timeout.
	var taken []byte
	ha.setClose(once(isItemRow, func() { taken = takeLeaseOver(t, b, la) }))
	n, err := a.sweepExpired(la)
	if !errors.Is(err, errLeaseLost) || n != 0 {
		t.Fatalf("a's sweep after losing its lease: deleted %d, err %v; want 0 and errLeaseLost", n, err)
	}
	if taken == nil {
		t.Fatal("the sweep listed no items")
	}
	for _, k := range keys {
		if !ttlExists(t, b, "exp", k) {
			t.Fatalf("%v deleted by a sweep that had lost its lease", k)
		}
	}
	if _, held := a.ttlLease(); held {
		t.Fatal("a holds the lease again while b lives")
	}

	lb, held := b.ttlLease()
	if !held || !bytes.Equal(lb.value, taken) {
		t.Fatalf("b does not hold the lease it took: %v", held)
	}
	if n, err := b.sweepExpired(lb); err != nil || n != len(keys) {
		t.Fatalf("b's sweep: deleted %d, err %v; want %d", n, err, len(keys))
	}
}

// takeLeaseOver makes node db the holder of the lease l names, with the
// next epoch, as acquireLease does for a holder presumed dead, and
// returns the lease row's new value.
func takeLeaseOver(t *testing.T, db *DB, l *lease) []byte {
	t.Helper()
	epoch := binary.BigEndian.Uint64(l.value[len(l.value)-8:])
	v := binary.BigEndian.AppendUint64(append([]byte(db.node.ident()), 0), epoch+1)
	bt := db.store.NewBatch()
	defer bt.Close()
	bt.Expect(metaLeaseKey(l.name), l.value, true)
	if err := bt.Set(metaLeaseKey(l.name), v); err != nil {
		t.Fatal(err)
	}
	if err := bt.Commit(); err != nil {
		t.Fatalf("take the lease over: %v", err)
	}
	return v
}
