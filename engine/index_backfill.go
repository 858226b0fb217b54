package engine

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/internal/keys"
	"github.com/dynago/dynago/internal/storage"
)

// Backfill: a GSI created on a populated table indexes the items that
// were there before it, in the background, while writes go on.
//
// UpdateTable installs the index in the catalog as CREATING (Backfilling;
// under a TransientDelay its description says Backfilling false for the
// delay, then Backfilling true for another, however soon the backfill
// ends, engine/transient.go).
// The backfill first waits until every write that may have read the
// catalog before that has finished (it takes and releases each lock
// stripe in turn); every later write knows the index. It then walks the
// base rows in key order, a chunk at a time, and publishes a cursor: the
// last row key it has passed.
//
// A write (under its item's lock) maintains a backfilling index like any
// other, but for an item after the cursor it first records the item as
// touched and reads whether the old entry is really there, since the
// backfill may not have indexed the item yet. The backfill indexes a
// chunk holding the locks of the rows it listed, reading them after it
// took the locks; a row that a write touched it indexes only if its entry
// is missing, and rows inserted since the listing (all touched, so
// already maintained by their writes) it leaves alone. It commits the
// entries, counters and cursor in one batch, then publishes the cursor
// and releases the locks. So every item is indexed once, and kept in
// step by every write after that: when the walk ends the index equals a
// recomputation from the table, and it turns ACTIVE.
//
// The persisted cursor is in the catalog namespace; Open reloads it and
// resumes the walk after it. Chunks commit atomically with the cursor,
// so a crash loses at most the chunk in progress. Writes before the
// restart may have indexed rows after the cursor; the set of touched
// rows is in memory only, so a resumed backfill checks every entry.

// cursorKey names a backfill in DB.cursors.
type cursorKey struct {
	table uint64
	index uint32
}

// backfillState is the progress of one backfill as writes see it.
type backfillState struct {
	cursor atomic.Pointer[backfillCursor]
	// touched holds the row keys after the cursor that writes changed.
	touched sync.Map
	// checkAll makes the backfill check every entry before writing it
	// (a backfill resumed after a restart, or on a shared store).
	checkAll bool
	// lease is held by the backfill on a shared store; its chunks expect
	// it (engine/shared.go).
	lease *lease
}

// backfillCursor is a published cursor.
type backfillCursor struct {
	last []byte // the last row passed; nil: none yet
	done bool   // every row passed
}

// backfill returns the state of a backfill.
func (db *DB) backfillState(tableID uint64, indexID uint32) *backfillState {
	v, _ := db.cursors.LoadOrStore(cursorKey{tableID, indexID}, new(backfillState))
	return v.(*backfillState)
}

// backfillVisited reports whether the backfill of an index has passed the
// row key row; if not, it records row as touched. The caller holds row's
// lock and is about to maintain the index for it.
func (db *DB) backfillVisited(tableID uint64, indexID uint32, row []byte) bool {
	st := db.backfillState(tableID, indexID)
	c := st.cursor.Load()
	if c != nil && (c.done || bytes.Compare(row, c.last) <= 0) {
		return true
	}
	st.touched.Store(string(row), struct{}{})
	return false
}

// backfillChunk is the number of base rows a backfill indexes per batch.
const backfillChunk = 512

// startBackfills starts the backfills of every CREATING index; Open calls
// it to resume them after a restart.
func (db *DB) startBackfills() {
	if db.shared {
		return // the node's poller starts them, each under its lease
	}
	for _, t := range *db.tables.Load() {
		for _, ix := range t.everyIndex() {
			if ix.meta.Backfilling {
				db.startBackfill(t, ix.meta.ID, true)
			}
		}
	}
}

// startBackfill starts the backfill of index indexID of t, the catalog
// entry in which it is CREATING.
func (db *DB) startBackfill(t *table, indexID uint32, resumed bool) {
	name, tableID := t.meta.Name, t.meta.ID
	if db.shared {
		db.runLeased(backfillLeaseName(tableID, indexID), t, func(l *lease) {
			db.runBackfill(name, tableID, indexID, true, l)
		})
		return
	}
	db.bg.Add(1)
	go func() {
		defer db.bg.Done()
		db.runBackfill(name, tableID, indexID, resumed, nil)
	}()
}

// indexName names a table's index for the log: its IndexName, or its
// internal id when the table no longer has it.
func (db *DB) indexName(table string, indexID uint32) string {
	if t := (*db.tables.Load())[table]; t != nil {
		for _, ix := range t.meta.Indexes {
			if ix.ID == indexID {
				return ix.Name
			}
		}
	}
	return fmt.Sprintf("#%d", indexID)
}

func backfillLeaseName(tableID uint64, indexID uint32) string {
	return fmt.Sprintf("backfill/%d/%d", tableID, indexID)
}

// runBackfill runs a backfill from its persisted cursor. On a shared
// store it runs under l, and checks every entry: writes made through
// other nodes are not in this node's touched set.
func (db *DB) runBackfill(name string, tableID uint64, indexID uint32, resumed bool, l *lease) {
	st := db.backfillState(tableID, indexID)
	st.checkAll = resumed || db.shared
	st.lease = l
	if err := db.loadBackfillCursor(st, tableID, indexID); err != nil {
		db.log.Error("backfill cursor", "table", name, "index", db.indexName(name, indexID), "err", err)
		return
	}
	// Wait out the writes that may not know the index.
	for i := range itemLockStripes {
		db.locks.stripes[i].Lock()
		db.locks.stripes[i].Unlock()
	}
	err := db.backfill(name, tableID, indexID)
	switch {
	case errors.Is(err, errLeaseLost):
	case err != nil:
		db.log.Error("backfill failed", "table", name, "index", db.indexName(name, indexID), "err", err)
	case l != nil:
		db.releaseLease(l)
	}
}

// loadBackfillCursor publishes the persisted cursor of a backfill.
func (db *DB) loadBackfillCursor(st *backfillState, tableID uint64, indexID uint32) error {
	last, found, err := db.store.Get(metaBackfillKey(tableID, indexID), nil)
	if err != nil {
		return err
	}
	if found {
		st.cursor.Store(&backfillCursor{last: last})
	} else {
		st.cursor.Store(nil)
	}
	return nil
}

// backfillTarget returns the table and index a backfill works on, or nil
// when the index is gone or no longer backfilling.
func (db *DB) backfillTarget(name string, tableID uint64, indexID uint32) (*table, *index) {
	// The catalog as this node has it: the backfill started from it,
	// and on a shared store the poller keeps it current.
	t := db.lookupCached(name)
	if t == nil || t.meta.ID != tableID {
		return nil, nil
	}
	for _, ix := range t.everyIndex() {
		if ix.meta.ID == indexID && ix.meta.Backfilling {
			return t, ix
		}
	}
	return nil, nil
}

func (db *DB) stopping() bool {
	select {
	case <-db.bgStop:
		return true
	default:
		return false
	}
}

func (db *DB) backfill(name string, tableID uint64, indexID uint32) error {
	for chunk := 0; ; chunk++ {
		if db.stopping() {
			return nil
		}
		if h := db.backfillHook; h != nil && !h(tableID, indexID, chunk) {
			return nil
		}
		t, ix := db.backfillTarget(name, tableID, indexID)
		if t == nil {
			return nil
		}
		rows, err := db.nextBackfillRows(tableID, indexID)
		if err != nil {
			return err
		}
		if len(rows) == 0 {
			err = db.finishBackfill(name, tableID, indexID)
		} else {
			err = db.backfillRows(t, ix, rows)
		}
		if err == nil && len(rows) == 0 {
			return nil
		}
		if errorsIsConflict(err) {
			// Another node wrote a row of the chunk, changed the table
			// or took the lease over: start again from what the store
			// says, if the lease is still this node's.
			if err := db.backfillConflict(name, tableID, indexID); err != nil {
				return err
			}
			continue
		}
		if err != nil {
			return err
		}
	}
}

// backfillConflict prepares a backfill on a shared store to go on after
// a conflict: the catalog and the cursor are read again, and the lease
// checked. It returns errLeaseLost when another node holds the lease now.
func (db *DB) backfillConflict(name string, tableID uint64, indexID uint32) error {
	if err := db.reloadCatalog(); err != nil {
		return err
	}
	st := db.backfillState(tableID, indexID)
	if st.lease != nil {
		if err := db.stillHolds(st.lease); err != nil {
			if errors.Is(err, errLeaseLost) {
				db.log.Info("backfill lease lost", "table", name, "index", db.indexName(name, indexID))
			}
			return err
		}
	}
	return db.loadBackfillCursor(st, tableID, indexID)
}

// errLeaseLost stops a job whose lease another node took over.
var errLeaseLost = errors.New("lease taken over by another node")

// nextBackfillRows returns the keys of the next chunk of base rows after
// the cursor.
func (db *DB) nextBackfillRows(tableID uint64, indexID uint32) ([][]byte, error) {
	lower := keys.IndexPrefix(tableID, 0)
	if c := db.backfillState(tableID, indexID).cursor.Load(); c != nil {
		lower = keys.Successor(c.last)
	}
	it, err := db.store.NewIter(lower, keys.PrefixEnd(keys.IndexPrefix(tableID, 0)))
	if err != nil {
		return nil, err
	}
	defer it.Close()
	var rows [][]byte
	for ok := it.First(); ok && len(rows) < backfillChunk; ok = it.Next() {
		rows = append(rows, slices.Clone(it.Key()))
	}
	return rows, it.Error()
}

// backfillRows indexes the rows of one chunk, or of its first part. It
// takes the rows' locks without waiting (TryLock) and stops the chunk
// before the first row whose lock is busy; if that is the first row, it
// waits for that one lock alone. So it never waits while holding a lock.
func (db *DB) backfillRows(t *table, ix *index, rows [][]byte) error {
	st := db.backfillState(t.meta.ID, ix.meta.ID)
	held := map[int]bool{}
	defer func() {
		for s := range held {
			db.locks.unlock(s)
		}
	}()
	n := 0
	for _, r := range rows {
		s := db.locks.stripe(r)
		if !held[s] {
			if !db.locks.stripes[s].TryLock() {
				break
			}
			held[s] = true
		}
		n++
	}
	if n == 0 {
		held[db.locks.lock(rows[0])] = true
		n = 1
	}
	last := rows[n-1]
	b := db.store.NewBatch()
	defer b.Close()
	if st.lease != nil {
		st.lease.expect(b)
		db.expectTable(b, t)
	}
	var vw vecWork
	var indexed uint64
	// Read the rows now that they are locked. Rows inserted since the
	// listing are touched: their writes maintained the index.
	it, err := db.store.NewIter(rows[0], keys.Successor(last))
	if err != nil {
		return err
	}
	defer it.Close()
	for ok := it.First(); ok; ok = it.Next() {
		row := it.Key()
		if !held[db.locks.stripe(row)] {
			continue
		}
		_, touched := st.touched.Load(string(row))
		if db.shared {
			b.Expect(row, it.Value(), true)
		}
		if err := db.backfillRow(b, &vw, t, ix, it.Value(), touched || st.checkAll); err != nil {
			return err
		}
		indexed++
	}
	if err := it.Error(); err != nil {
		return err
	}
	if err := b.Set(metaBackfillKey(t.meta.ID, ix.meta.ID), last); err != nil {
		return err
	}
	if h := backfillBeforeCommit; h != nil {
		h(db, t.meta.ID, ix.meta.ID)
	}
	if stopped, err := db.commitChunk(b, &vw, t, ix); stopped || err != nil {
		return err
	}
	db.meters.backfillItems.Add(indexed)
	st.cursor.Store(&backfillCursor{last: last})
	st.touched.Range(func(k, _ any) bool {
		if k.(string) <= string(last) {
			st.touched.Delete(k)
		}
		return true
	})
	return nil
}

// backfillBeforeCommit, set by tests, runs before each chunk's commit,
// with the chunk's row locks held.
var backfillBeforeCommit func(db *DB, tableID uint64, indexID uint32)

// commitChunk commits a chunk's batch unless the index is no longer
// backfilling (UpdateTable deleted it, or the table is gone), and reports
// whether it stopped so. On a store only this process writes, the catalog
// is checked under ddl, so no catalog change commits between the check
// and the commit: a Delete of the index, whose batch removes the index's
// rows, counters and cursor, comes either before the check (nothing of
// the chunk is written) or after the commit (it removes the chunk with
// the rest). The caller holds the chunk's row locks; nothing that holds
// ddl waits for a row lock. On a shared store the batch expects the
// table's catalog entry instead.
// A vector index's graph changes are applied to the batch here, under
// the graph's writer lock until the commit is done.
func (db *DB) commitChunk(b storage.Batch, vw *vecWork, t *table, ix *index) (stopped bool, err error) {
	if !db.shared {
		db.ddl.Lock()
		defer db.ddl.Unlock()
		if nt, _ := db.backfillTarget(t.meta.Name, t.meta.ID, ix.meta.ID); nt == nil {
			return true, nil
		}
	}
	if len(vw.ops) == 0 {
		return false, b.Commit()
	}
	err = vw.apply(db, b)
	if err == nil {
		err = b.Commit()
	}
	vw.finish(err == nil)
	return false, err
}

// backfillRow stages the index entry of a base row whose value is raw,
// unless check finds it there already. The caller holds the row's lock.
func (db *DB) backfillRow(b storage.Batch, vw *vecWork, t *table, ix *index, raw []byte, check bool) error {
	s, err := parseRow(raw)
	if err != nil {
		return err
	}
	it, err := s.Item()
	if err != nil {
		return err
	}
	k := itemKey{pk: it[t.hashName]}
	if t.rangeName != "" {
		k.sk = it[t.rangeName]
	}
	if ix.vec != nil {
		return db.backfillVectorRow(b, vw, t, ix, it, k, check)
	}
	key, proj, err := t.indexEntry(ix, it, k, false)
	if err != nil || key == nil {
		return err
	}
	if check {
		if _, found, err := db.store.Get(key, nil); err != nil || found {
			return err
		}
		b.Expect(key, nil, false)
	}
	size := attr.ItemSize(proj)
	if err := b.Set(key, appendRow(nil, proj, size)); err != nil {
		return err
	}
	return b.AddCounters(metaIndexStatsKey(t.meta.ID, ix.meta.ID), 1, int64(size))
}

// backfillVectorRow is backfillRow for a vector index: it stages the
// index's entry of the item it (key k) and its counters, unless check
// finds the entry there already. The caller holds the row's lock. An
// item whose vector or search schema values a write would refuse is
// skipped, not refused: DynamoDB's backfill leaves such items out and
// turns the index ACTIVE without them (dynoxide's capture, eu-west-2
// 2026-08-12).
func (db *DB) backfillVectorRow(b storage.Batch, vw *vecWork, t *table, ix *index, it attr.Item, k itemKey, check bool) error {
	key, vec, proj, size, err := t.vectorEntryOf(ix, it, k)
	if err != nil || key == nil {
		return err
	}
	if check {
		if _, found, err := db.store.Get(key, nil); err != nil || found {
			return err
		}
		b.Expect(key, nil, false)
	}
	if err := b.Set(key, appendVectorEntry(nil, vec, size, proj)); err != nil {
		return err
	}
	if err := t.stageVectorOps(vw, ix, nil, it, nil, key, nil, vec, false); err != nil {
		return err
	}
	return b.AddCounters(metaIndexStatsKey(t.meta.ID, ix.meta.ID), 1, int64(size))
}

// finishBackfill turns the index ACTIVE once the walk has passed the last
// row. A row inserted after the cursor from now on is touched, so its
// write maintains the index.
func (db *DB) finishBackfill(name string, tableID uint64, indexID uint32) error {
	db.ddl.Lock()
	defer db.ddl.Unlock()
	t, _ := db.backfillTarget(name, tableID, indexID)
	if t == nil {
		return nil
	}
	st := db.backfillState(tableID, indexID)
	st.cursor.Store(&backfillCursor{done: true})
	st.touched.Clear()
	m := t.meta
	m.Indexes = slices.Clone(m.Indexes)
	for i := range m.Indexes {
		if m.Indexes[i].ID == indexID {
			m.Indexes[i].Backfilling = false
		}
	}
	b := db.store.NewBatch()
	defer b.Close()
	if st.lease != nil {
		st.lease.expect(b)
	}
	if err := b.Delete(metaBackfillKey(tableID, indexID)); err != nil {
		return err
	}
	next, err := db.putTableLocked(b, newTable(m))
	if err != nil {
		return err
	}
	if err := b.Commit(); err != nil {
		return err
	}
	db.tables.Store(&next)
	db.log.Info("index active", "table", name, "index", db.indexName(name, indexID))
	return nil
}

// sweepDeletedIndexes deletes, a second time, what the indexes ids of
// table tableID left in the store: their entries, counters and backfill
// cursors. UpdateTable deletes them in the batch that drops the index, but
// a write that read the catalog under its item lock just before that may
// commit an entry of the index just after it. Taking every item lock
// stripe in turn waits those writes out (a later write reads the new
// catalog), so the sweep leaves nothing behind. It runs after the catalog
// lock is released, in the background (startSweep): a backfill chunk
// holds stripes while it waits for that lock, and UpdateTable need not
// wait for busy items. On a shared store such a write conflicts instead,
// as its batch expects the catalog entry it read.
func (db *DB) sweepDeletedIndexes(name string, tableID uint64, ids []uint32) {
	for i := range itemLockStripes {
		db.locks.stripes[i].Lock()
		db.locks.stripes[i].Unlock()
	}
	b := db.store.NewBatch()
	defer b.Close()
	for _, id := range ids {
		db.cursors.Delete(cursorKey{tableID, id})
		lower := keys.IndexPrefix(tableID, id)
		if err := b.DeleteRange(lower, keys.PrefixEnd(lower)); err != nil {
			db.log.Error("sweep of a deleted index", "table", name, "err", err)
			return
		}
		if err := b.Delete(metaIndexStatsKey(tableID, id)); err != nil {
			db.log.Error("sweep of a deleted index", "table", name, "err", err)
			return
		}
		if err := b.Delete(metaBackfillKey(tableID, id)); err != nil {
			db.log.Error("sweep of a deleted index", "table", name, "err", err)
			return
		}
	}
	if err := b.Commit(); err != nil {
		db.log.Error("sweep of a deleted index", "table", name, "err", err)
	}
}

// startSweep runs sweepDeletedIndexes in the background; Close waits for
// it, and so do tests, through db.sweeps.
func (db *DB) startSweep(name string, tableID uint64, ids []uint32) {
	db.bg.Add(1)
	db.sweeps.Add(1)
	go func() {
		defer db.bg.Done()
		defer db.sweeps.Done()
		db.sweepDeletedIndexes(name, tableID, ids)
	}()
}
