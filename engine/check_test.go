package engine

import (
	"strings"
	"testing"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/internal/storage"
)

// Check passes on a table whose items, sparse index entries and counters
// agree, on both stores, and finds each kind of disagreement planted
// under it: an entry without its item, an item without its entry, an
// entry with other attributes than its item projects, and counters that
// do not add up.
func TestCheck(t *testing.T) {
	forEachStore(t, func(t *testing.T, open func() *DB) {
		db := open()
		createGSITable(t, db, "chk")
		addGSI(t, db, "chk", "byG")
		waitActive(t, db, "chk")
		for i := range 30 {
			g := "g"
			if i%3 == 0 {
				g = "" // not in the index
			}
			if _, err := db.PutItem(&dynamo.PutItemInput{TableName: "chk", Item: gItem(i, g, i)}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := db.DeleteItem(&dynamo.DeleteItemInput{TableName: "chk", Key: attr.Item{"pk": attr.S("item00001")}}); err != nil {
			t.Fatal(err)
		}
		if err := db.Check(); err != nil {
			t.Fatalf("a consistent database: %v", err)
		}
		tb := lookupOK(t, db, "chk")
		ix := tb.index("byG")
		entryOf := func(i int) ([]byte, attr.Item) {
			it := gItem(i, "g", i)
			k, err := tb.primaryKey(it, keyOfItem)
			if err != nil {
				t.Fatal(err)
			}
			key, proj, err := tb.indexEntry(ix, it, k, false)
			if err != nil || key == nil {
				t.Fatalf("entry of item %d: %v", i, err)
			}
			return key, proj
		}
		plant := func(f func(b storage.Batch)) {
			t.Helper()
			b := db.store.NewBatch()
			defer b.Close()
			f(b)
			if err := b.Commit(); err != nil {
				t.Fatal(err)
			}
		}
		want := func(parts ...string) {
			t.Helper()
			err := db.Check()
			if err == nil {
				t.Fatalf("Check found nothing; want %q", parts)
			}
			for _, p := range parts {
				if !strings.Contains(err.Error(), p) {
					t.Errorf("Check: %v\nwant it to say %q", err, p)
				}
			}
		}

		// An entry whose item was deleted (item 1).
		stray, proj := entryOf(1)
		plant(func(b storage.Batch) { b.Set(stray, appendRow(nil, proj, attr.ItemSize(proj))) })
		want("index byG: 20 entries are stored, the items make 19")
		plant(func(b storage.Batch) { b.Delete(stray) })

		// An item whose entry is gone (item 2).
		gone, proj2 := entryOf(2)
		plant(func(b storage.Batch) { b.Delete(gone) })
		want("has no entry", "18 entries are stored, the items make 19")

		// An entry that projects what its item no longer holds.
		proj2 = attr.Item{"pk": proj2["pk"], "g": proj2["g"], "r": proj2["r"], "v": attr.S("stale")}
		plant(func(b storage.Batch) { b.Set(gone, appendRow(nil, proj2, attr.ItemSize(proj2))) })
		want("its entry holds")
		_, fresh := entryOf(2)
		plant(func(b storage.Batch) { b.Set(gone, appendRow(nil, fresh, attr.ItemSize(fresh))) })
		if err := db.Check(); err != nil {
			t.Fatalf("after the repairs: %v", err)
		}

		// Counters that do not add up.
		plant(func(b storage.Batch) { b.AddCounters(metaStatsKey(tb.meta.ID), 1, 0) })
		want("table chk: counters say 30 items of", "its rows are 29 of")
	})
}
