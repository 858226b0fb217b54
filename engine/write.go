package engine

import (
	"fmt"

	"github.com/dynago/dynago/attr"
)

// writeResult is what a single-item write saw and did.
type writeResult struct {
	old     attr.Item // the old item if decide decoded it; nil otherwise
	oldSize int
	new     attr.Item // nil when the write deleted the item or changed nothing
	newSize int
	wrote   bool
}

// decide computes the new item from the current one, which it decodes only
// if it needs to (old.Item()). It returns the item to store (nil to delete)
// and whether to write at all; an error aborts the write with nothing
// changed. It runs under the item's lock, so what it reads cannot change
// before the write commits: this is where conditions and update
// expressions plug in.
type decide func(old *storedItem) (next attr.Item, write bool, err error)

// writeItem is the single-item write path: lock the item, read it, decide,
// and commit the row and the table's counters in one batch.
func (db *DB) writeItem(t *table, k itemKey, f decide) (writeResult, error) {
	var r writeResult
	stripe := db.locks.lock(k.row)
	defer db.locks.unlock(stripe)

	raw, found, err := db.store.Get(k.row, nil)
	if err != nil {
		return r, err
	}
	var old storedItem
	if found {
		if old, err = parseRow(raw); err != nil {
			return r, fmt.Errorf("table %q: %w", t.meta.Name, err)
		}
		r.oldSize = old.size
	}
	next, write, err := f(&old)
	if old.done {
		r.old = old.item
	}
	if err != nil || !write {
		return r, err
	}
	b := db.store.NewBatch()
	defer b.Close()
	var countDelta int64
	if next == nil {
		if !found {
			return r, nil // deleting nothing writes nothing
		}
		if err := b.Delete(k.row); err != nil {
			return r, err
		}
		countDelta = -1
	} else {
		r.newSize = attr.ItemSize(next)
		if err := b.Set(k.row, appendRow(nil, next, r.newSize)); err != nil {
			return r, err
		}
		if !found {
			countDelta = 1
		}
	}
	if err := b.AddCounters(metaStatsKey(t.meta.ID), countDelta, int64(r.newSize-r.oldSize)); err != nil {
		return r, err
	}
	if err := b.Commit(); err != nil {
		return r, err
	}
	r.new, r.wrote = next, true
	return r, nil
}
