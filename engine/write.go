package engine

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"
	"time"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/internal/storage"
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

// writer says who made a change: it shows in the change's stream record.
type writer uint8

const (
	byUser    writer = iota // a request
	byTTL                   // the Time to Live sweeper
	byReplica               // the replication of a change made in another region (engine/replicas.go)
)

// writeBatch is a storage batch that carries item writes. Besides the rows
// it holds the stream sequence numbers its records took, which stay
// invisible to stream readers until release: call release after Commit
// (or instead of it), normally deferred.
type writeBatch struct {
	storage.Batch
	db      *DB
	tickets []streamTicket
	// undo holds the versions the batch's writes leave in undo logs,
	// staged at Commit under one time (engine/undo.go).
	undo []undoEntry
	// solo marks a batch of a restore's or an import's job, which writes
	// a CREATING table nobody else may write: on a shared store its rows
	// need no expectation each (the job's own entry, expected by every
	// chunk, orders the chunks), and the table's once (soloTable).
	solo bool
	// versioned marks a batch whose versions expect no newer ones
	// (commitUndo).
	versioned bool
	// counters sums what the batch's writes add to each table's counters
	// (item count, total size), staged at Commit: one counter update per
	// table and batch, where a batch of many items had one per item.
	counters []tableCounters
	// countersBuf backs counters for a batch of one or two tables.
	countersBuf [2]tableCounters
	// lag holds the row keys the batch's writes change that reads see
	// late (GSI lag, stale reads), recorded once it commits
	// (engine/lag.go).
	lag []lagChange
	// vec holds the changes of vector graphs the batch's writes make,
	// applied at Commit (engine/vector_graph.go).
	vec vecWork
	// repl holds the stamps of the batch's changes of replicated
	// tables' items, recorded once it commits (engine/replicas.go).
	repl []replVersion
}

// tableCounters is what a batch adds to one table's counters.
type tableCounters struct {
	key         []byte // the table's statsKey
	count, size int64
}

// addTableCounters adds count items and size bytes to the counters of
// table t, at Commit.
func (wb *writeBatch) addTableCounters(t *table, count, size int64) {
	for i := range wb.counters {
		if c := &wb.counters[i]; bytes.Equal(c.key, t.statsKey) {
			c.count += count
			c.size += size
			return
		}
	}
	if wb.counters == nil {
		wb.counters = wb.countersBuf[:0]
	}
	wb.counters = append(wb.counters, tableCounters{key: t.statsKey, count: count, size: size})
}

// soloTable makes b a solo batch for t (see writeBatch.solo).
func (db *DB) soloTable(b *writeBatch, t *table) {
	b.solo = true
	db.expectTable(b, t)
}

func (db *DB) newWriteBatch() *writeBatch {
	return &writeBatch{Batch: db.store.NewBatch(), db: db}
}

// Commit stages the batch's table counters, commits it and counts the
// stream records it carried (engine/meter.go).
func (wb *writeBatch) Commit() error {
	for _, c := range wb.counters {
		// Items replaced by ones of their size (overwrites, most
		// updates) change neither counter: adding zeros would only
		// cost the store a write.
		if c.count == 0 && c.size == 0 {
			continue
		}
		if err := wb.AddCounters(c.key, c.count, c.size); err != nil {
			return err
		}
	}
	wb.counters = nil
	if err := wb.db.commitUndo(wb); err != nil {
		return err
	}
	if len(wb.vec.ops) > 0 {
		return wb.commitWithGraphs()
	}
	if err := wb.Batch.Commit(); err != nil {
		if wb.versioned && errorsIsConflict(err) {
			wb.db.undoConflict()
		}
		return err
	}
	wb.committed()
	return nil
}

// committed counts the stream records a committed batch wrote, records
// the changes reads see late (engine/lag.go) and the stamps of
// replicated tables' changes (engine/replicas.go).
func (wb *writeBatch) committed() {
	wb.db.meters.streamRecordsWritten.Add(uint64(len(wb.tickets)))
	if len(wb.lag) > 0 {
		wb.db.lagOn().record(wb.lag)
		wb.lag = nil
	}
	if len(wb.repl) > 0 {
		wb.db.commitReplicated(wb)
	}
}

// commitWithGraphs is Commit's last step for a batch that changes vector
// graphs: their writer locks are held from applying the changes until
// the commit has succeeded or failed.
func (wb *writeBatch) commitWithGraphs() error {
	err := wb.vec.apply(wb.db, wb.Batch)
	if err == nil {
		err = wb.Batch.Commit()
	}
	wb.vec.finish(err == nil)
	if err != nil {
		if wb.versioned && errorsIsConflict(err) {
			wb.db.undoConflict()
		}
		return err
	}
	wb.committed()
	return nil
}

// release closes the batch if it was not committed and lets stream
// readers see (or skip) the sequence numbers it took.
func (wb *writeBatch) release() {
	wb.Close()
	for _, t := range wb.tickets {
		t.s.release(t.seq)
	}
	wb.tickets = nil
	if wb.repl != nil {
		wb.repl = nil
		wb.db.repl.poke() // the changes' records are readable now
	}
}

// writeItem is the single-item write path: lock the item, read it, decide,
// and commit the row, the table's counters, index entries and stream
// record in one batch.
func (db *DB) writeItem(t *table, k itemKey, f decide) (writeResult, error) {
	return db.writeItemBy(t, k, byUser, nil, f)
}

// writeItemBy is writeItem for a change made by w. Background work that
// runs under a lease (Time to Live sweeps) passes it as l: the write then
// commits only while this node holds it, and fails with errLeaseLost
// once another node has taken it over.
func (db *DB) writeItemBy(t *table, k itemKey, w writer, l *lease, f decide) (writeResult, error) {
	stripe := db.locks.lock(k.row)
	defer db.locks.unlock(stripe)
	for attempt := 0; ; attempt++ {
		r, err := db.writeItemOnce(t, k, w, l, f)
		if !errorsIsConflict(err) || attempt >= conflictAttempts {
			return r, err
		}
		if l != nil {
			if err := db.stillHolds(l); err != nil {
				return r, err
			}
		}
		// Another node changed the item or the table since it was
		// read: read the table again (a new index, a stream) and run
		// the write again on the item as it is now.
		nt, err := db.refreshTable(t.meta.Name)
		if err != nil {
			return r, err
		}
		if nt == nil {
			return r, dynamo.NotFound(msgResourceNotFound)
		}
		if nt.meta.ID != t.meta.ID {
			// A new table under the same name: the request starts
			// again on it, from its own validation.
			return r, errTableReplaced
		}
		t = nt
		db.meters.conflictRetries.Add(1)
		conflictBackoff(attempt)
	}
}

// writeItemOnce is one attempt of writeItemBy, under k's lock.
func (db *DB) writeItemOnce(t *table, k itemKey, w writer, l *lease, f decide) (writeResult, error) {
	var r writeResult

	// The old row is read into a pooled buffer, given back once the
	// batch that may refer to it (an expectation, an undo entry) is
	// done: the deferred calls run in reverse order. What r returns of
	// the old item is decoded, and does not alias it.
	buf := getRowBuf()
	old, grown, err := db.loadForWriteInto(t, k, (*buf)[:0])
	defer putRowBuf(buf, grown)
	if err != nil {
		return r, err
	}
	r.oldSize = old.size
	next, write, err := f(&old)
	if old.done {
		r.old = old.item
	}
	if err != nil || !write {
		return r, err
	}

	if next == nil && !old.found {
		return r, nil // deleting nothing writes nothing
	}
	b := db.newWriteBatch()
	defer b.release()
	if r.newSize, err = db.stageWrite(b, t, k, &old, next, w); err != nil {
		return r, err
	}
	if old.done { // maintainIndexes decodes the old item of a table with indexes
		r.old = old.item
	}
	if l != nil {
		l.expect(b)
	}
	if err := b.Commit(); err != nil {
		return r, err
	}
	r.new, r.wrote = next, true
	return r, nil
}

// loadManyForWrite reads the current rows of a transaction's items, which
// it has locked: in one call on a store that reads many keys at once
// (PostgreSQL: one round trip), one by one otherwise.
func (db *DB) loadManyForWrite(acts []*txAction, buf *[]byte) ([]storedItem, error) {
	return db.loadRowsForWrite(len(acts), func(i int) (*table, itemKey) { return acts[i].t, acts[i].k }, buf)
}

// loadRowsForWrite reads the current rows of n items, item i's table and
// key given by at(i), which the caller has locked, as loadManyForWrite
// does. Rows read one by one are appended to *buf (a pooled buffer, which
// the caller gives back once its batch is done) and alias it.
func (db *DB) loadRowsForWrite(n int, at func(i int) (*table, itemKey), buf *[]byte) ([]storedItem, error) {
	olds := make([]storedItem, n)
	mg, ok := db.store.(storage.MultiGetter)
	if !ok || n < 2 {
		for i := range n {
			t, k := at(i)
			old, grown, err := db.loadForWriteInto(t, k, *buf)
			if err != nil {
				return nil, err
			}
			*buf = grown
			olds[i] = old
		}
		return olds, nil
	}
	keys := make([][]byte, n)
	for i := range n {
		_, k := at(i)
		keys[i] = k.row
	}
	vals, found, err := mg.GetMany(keys)
	if err != nil {
		return nil, err
	}
	for i := range n {
		if !found[i] {
			continue
		}
		if olds[i], err = parseRow(vals[i]); err != nil {
			t, _ := at(i)
			return nil, fmt.Errorf("table %q: %w", t.meta.Name, err)
		}
	}
	return olds, nil
}

// loadForWrite reads the current row of k for a write that holds k's lock.
func (db *DB) loadForWrite(t *table, k itemKey) (storedItem, error) {
	old, _, err := db.loadForWriteInto(t, k, nil)
	return old, err
}

// loadForWriteInto is loadForWrite appending the row to dst, which it
// returns grown; the row's raw and body alias it, and end where the next
// row appended would begin.
func (db *DB) loadForWriteInto(t *table, k itemKey, dst []byte) (storedItem, []byte, error) {
	b, found, err := db.store.Get(k.row, dst)
	if err != nil || !found {
		return storedItem{}, dst, err
	}
	old, err := parseRow(b[len(dst):len(b):len(b)])
	if err != nil {
		return storedItem{}, b, fmt.Errorf("table %q: %w", t.meta.Name, err)
	}
	return old, b, nil
}

// stageWrite adds to b everything that replacing the item at k (old, as
// loaded under k's lock) by next (nil: delete it) changes: the row, the
// table's counters and, through maintainIndexes, the secondary index
// entries. Every write path (single items, batches, transactions) stages
// its items this way, so an item and everything derived from it commit
// in one atomic batch. w is who made the change. It returns next's size.
func (db *DB) stageWrite(b *writeBatch, t *table, k itemKey, old *storedItem, next attr.Item, w writer) (int, error) {
	if db.shared && !b.solo {
		b.Expect(k.row, old.raw, old.found)
		db.expectTable(b, t)
	}
	var countDelta int64
	newSize := 0
	var newBody []byte // next's attr encoding, inside its row value
	// The GSI lag and stale-read window of this write (engine/lag.go);
	// a restore's or an import's table is read by nobody yet.
	var gsiLag, staleWindow time.Duration
	if !b.solo {
		gsiLag, staleWindow = db.lagSpans(t)
	}
	if next == nil {
		if err := b.Delete(k.row); err != nil {
			return 0, err
		}
		countDelta = -1
		if staleWindow > 0 {
			b.stageLagRow(k, old, nil, staleWindow)
		}
	} else {
		newSize = attr.ItemSize(next)
		// The row is encoded in a pooled buffer: the batch copies it,
		// and the stream record below is its last reader. The
		// encoding is the item's size plus a few bytes per attribute.
		buf := getRowBuf()
		row := slices.Grow((*buf)[:0], newSize+8*len(next)+16)
		row = binary.AppendUvarint(row, uint64(newSize))
		hdr := len(row)
		row = attr.AppendItem(row, next)
		defer putRowBuf(buf, row)
		newBody = row[hdr:]
		if err := b.Set(k.row, row); err != nil {
			return 0, err
		}
		if staleWindow > 0 {
			b.stageLagRow(k, old, row, staleWindow)
		}
		if !old.found {
			countDelta = 1
		}
	}
	if !old.found && next == nil {
		countDelta = 0
	}
	if err := db.maintainIndexes(b, t, k, old, next, gsiLag); err != nil {
		return 0, err
	}
	if err := db.stageStreamRecord(b, t, k, old, newBody, newSize, w); err != nil {
		return 0, err
	}
	db.stageUndo(b, t, k.row, old)
	b.addTableCounters(t, countDelta, int64(newSize-old.size))
	return newSize, nil
}
