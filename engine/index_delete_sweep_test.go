package engine

import (
	"fmt"
	"github.com/dynago/dynago/dynamo"
	"sync"
	"sync/atomic"
	"testing"
)

// TestIndexDeleteLeavesNothing deletes a GSI while four writers put items
// into its table, round after round, and checks that no entry of the
// deleted index and no counter of it remain in the store. A write reads
// the catalog under its item lock and commits a moment later, so without
// sweepDeletedIndexes an entry committed just after the Delete's batch
// would stay forever (a few rounds in 200 showed one). The sweep runs in
// the background after UpdateTable returns; the test waits for it. The index's ids
// are never reused, so such an entry is never read: what it costs is
// storage, and the promise that a deleted index leaves nothing.
func TestIndexDeleteLeavesNothing(t *testing.T) {
	db := mustOpen(t, Options{InMemory: true})
	createGSITable(t, db, "sweep")
	const rounds = 200
	left := 0
	for round := range rounds {
		name := fmt.Sprint("ix", round)
		addGSI(t, db, "sweep", name)
		waitActive(t, db, "sweep")
		tb := lookupOK(t, db, "sweep")
		id := tb.index(name).meta.ID
		var stop atomic.Bool
		var wg sync.WaitGroup
		for w := range 4 {
			wg.Go(func() {
				for i := 0; !stop.Load(); i++ {
					if _, err := db.PutItem(&dynamo.PutItemInput{TableName: "sweep", Item: gItem(w*100000+i, "g", i)}); err != nil {
						t.Error(err)
						return
					}
				}
			})
		}
		_, err := db.UpdateTable(&dynamo.UpdateTableInput{TableName: "sweep", GlobalSecondaryIndexUpdates: []dynamo.GlobalSecondaryIndexUpdate{
			{Delete: &dynamo.DeleteGlobalSecondaryIndexAction{IndexName: name}}}})
		stop.Store(true)
		wg.Wait()
		if err != nil {
			t.Fatal(err)
		}
		db.sweeps.Wait()
		entries := indexEntries(t, db, tb.meta.ID, id)
		_, stats, err := db.store.Get(metaIndexStatsKey(tb.meta.ID, id), nil)
		if err != nil {
			t.Fatal(err)
		}
		if entries > 0 || stats {
			left++
			t.Logf("round %d: %d entries of %s and its counter (%v) left after its deletion", round, entries, name, stats)
		}
	}
	if left > 0 {
		t.Errorf("%d of %d rounds left something of the deleted index", left, rounds)
	}
}
