package engine

import (
	"bytes"
	"encoding/binary"
	"slices"
	"sync/atomic"
	"time"

	"github.com/dynago/dynago/internal/keys"
	"github.com/dynago/dynago/internal/storage"
)

// The undo log: what lets a backup copy a table as it was at one instant
// while writes go on, and a point-in-time restore rebuild a table as it
// was at any moment of its recovery window.
//
// While a table's log is on (tableMeta.UndoLog is its id), every write of
// an item also records, in the same batch, the item as it was before the
// write (or that it did not exist) under the time of the write:
//
//	NSData | log id(8) | 0(4) | the item's row key after its table and index ids | time(8, µs) -> 0 (no item) or 1 | old row value
//
// So the versions of one item lie together, oldest first. The table as it
// was at a time T is then, item by item: the old image of the item's first
// version after T if there is one (the item did not change between T and
// that write), else the item as it is now. No base snapshot is kept: the
// live table is the newest one, and the log walks it back. Versions older
// than every time still wanted (the start of the recovery window, the
// instant of a backup being copied, the time of a restore in progress) are
// dropped by pruneUndo; the log's size is bounded by the writes of the
// window.
//
// Times come from one clock per process that never repeats or goes back
// (undoClock), taken when the batch commits, under the locks of its items:
// the versions of an item are in the order of its writes, and a
// transaction's versions share one time, so no restore shows half of one.
// On a shared store each write also reads its items' newest versions and
// takes a later time than theirs, so nodes whose clocks differ still keep
// each item's versions in order; across items, a restore to T is as exact
// as the nodes' clocks agree.

// rowSuffixAt is where a base-table row key's item part starts: after
// NSData, the table id and the index id.
var rowSuffixAt = len(keys.IndexPrefix(0, 0))

// undoEntry is one version a write batch records at its commit.
type undoEntry struct {
	log    uint64
	suffix []byte // the item's row key after rowSuffixAt
	old    []byte // the old row value; nil when there was no item
}

// undoKey is the key of an item's version at time at (µs).
func undoKey(log uint64, suffix []byte, at int64) []byte {
	k := make([]byte, 0, rowSuffixAt+len(suffix)+8)
	k = append(k, keys.IndexPrefix(log, 0)...)
	k = append(k, suffix...)
	return binary.BigEndian.AppendUint64(k, uint64(at))
}

// undoValue encodes a version's old image.
func undoValue(old []byte) []byte {
	if old == nil {
		return []byte{0}
	}
	return append([]byte{1}, old...)
}

// undoLogOf returns the id of t's undo log, 0 when it has none. On a store
// only this process writes, the catalog installed now decides, so that a
// write whose table was read before the log started still records its
// version once it holds its item's lock (startUndo waits out the writes
// that hold one); on a shared store the write expects t's catalog entry,
// so t is current when it commits.
func (db *DB) undoLogOf(t *table) uint64 {
	if db.shared {
		return t.meta.UndoLog
	}
	if cur := (*db.tables.Load())[t.meta.Name]; cur != nil && cur.meta.ID == t.meta.ID {
		return cur.meta.UndoLog
	}
	return t.meta.UndoLog
}

// stageUndo records in b the version a write of the item at row, which
// held old, leaves in t's undo log, if t has one.
func (db *DB) stageUndo(b *writeBatch, t *table, row []byte, old *storedItem) {
	log := db.undoLogOf(t)
	if log == 0 {
		return
	}
	e := undoEntry{log: log, suffix: slices.Clone(row[rowSuffixAt:])}
	if old.found {
		e.old = old.raw
	}
	b.undo = append(b.undo, e)
}

// undoClock hands out times in µs that never repeat or go back.
type undoClock struct {
	last atomic.Int64
	// clampUntil (µs), on a shared store, is until when writes read
	// their items' newest versions before they take a time, because a
	// write met a newer version than its clock gave (commitUndo).
	clampUntil atomic.Int64
}

// undoClampFor is how long writes read their newest versions first
// after a write with a version met a conflict.
const undoClampFor = time.Minute

// next returns a time after every one handed out before, at least now.
func (c *undoClock) next(now int64) int64 {
	for {
		last := c.last.Load()
		at := max(now, last+1)
		if c.last.CompareAndSwap(last, at) {
			return at
		}
	}
}

// commitUndo stages the versions b recorded, all under one time.
//
// Versions of an item must be in the order of its writes. One process
// hands out increasing times (undoClock); on a shared store another
// node's clock may be ahead, so each version also expects that its item
// has none at or after its time: a write that meets one fails with
// ErrConflict and runs again, and, for undoClampFor, writes first read
// their items' newest versions and take a time after them (one more read
// per item, which the expectation spares writes otherwise).
func (db *DB) commitUndo(b *writeBatch) error {
	if len(b.undo) == 0 {
		return nil
	}
	floor := db.now().UnixMicro()
	clamp := db.shared && db.undo.clampUntil.Load() > floor
	if clamp {
		for _, e := range b.undo {
			newest, err := db.newestVersion(e.log, e.suffix)
			if err != nil {
				return err
			}
			floor = max(floor, newest+1)
		}
	}
	at := db.undo.next(floor)
	for _, e := range b.undo {
		k := undoKey(e.log, e.suffix, at)
		if err := b.Set(k, undoValue(e.old)); err != nil {
			return err
		}
		if db.shared {
			b.ExpectNone(k, keys.PrefixEnd(k[:len(k)-8]))
			b.versioned = true
		}
	}
	b.undo = nil
	return nil
}

// undoConflict notes that a batch with versions failed with a conflict:
// for a while, writes read their newest versions first (commitUndo).
func (db *DB) undoConflict() {
	db.undo.clampUntil.Store(db.now().Add(undoClampFor).UnixMicro())
}

// newestVersion returns the time of the newest version of an item in a
// log, 0 when it has none.
func (db *DB) newestVersion(log uint64, suffix []byte) (int64, error) {
	lower := append(keys.IndexPrefix(log, 0), suffix...)
	it, err := db.store.NewIter(lower, keys.PrefixEnd(lower))
	if err != nil {
		return 0, err
	}
	var at int64
	if it.Last() && len(it.Key()) == len(lower)+8 {
		at = int64(binary.BigEndian.Uint64(it.Key()[len(lower):]))
	}
	return at, it.Close()
}

// pastItem is one item of a table as it was at some time.
type pastItem struct {
	suffix []byte // the row key after rowSuffixAt
	row    []byte // the row value
}

// itemsAt reads, from r, up to n items (and up to about copyChunkBytes of
// rows) of the table whose rows are under source (a table id or a
// backup's data id), as they were at time at (µs) by the undo log log (0:
// the rows as they are), in row-key order, after the row suffix after
// (nil: from the first). It reports whether it read the last one.
func itemsAt(r storage.Reader, source, log uint64, at int64, after []byte, n int) ([]pastItem, bool, error) {
	live, err := newSuffixIter(r, source, after, false)
	if err != nil {
		return nil, false, err
	}
	defer live.close()
	var past *suffixIter
	if log != 0 {
		if past, err = newSuffixIter(r, log, after, true); err != nil {
			return nil, false, err
		}
		defer past.close()
	}
	var out []pastItem
	size := 0
	for len(out) < n && size < copyChunkBytes {
		lv, pv := live.valid(), past != nil && past.valid()
		if !lv && !pv {
			break
		}
		var it pastItem
		switch c := compareSuffixes(live, past, lv, pv); {
		case c < 0: // no version: the item is as it is now
			it = pastItem{slices.Clone(live.suffix()), slices.Clone(live.it.Value())}
			live.next()
		default:
			suffix := slices.Clone(past.suffix())
			row, changed, err := past.stateAt(suffix, at)
			if err != nil {
				return nil, false, err
			}
			if !changed && c == 0 {
				row = slices.Clone(live.it.Value())
			}
			if c == 0 {
				live.next()
			}
			if row == nil {
				continue // no such item at that time
			}
			it = pastItem{suffix, row}
		}
		out = append(out, it)
		size += len(it.suffix) + len(it.row)
	}
	if err := live.err(); err != nil {
		return nil, false, err
	}
	if past != nil {
		if err := past.err(); err != nil {
			return nil, false, err
		}
	}
	done := !live.valid() && (past == nil || !past.valid())
	return out, done, nil
}

// compareSuffixes orders the items the two iterators are on; a finished
// iterator comes last.
func compareSuffixes(live, past *suffixIter, lv, pv bool) int {
	switch {
	case !pv:
		return -1
	case !lv:
		return 1
	}
	return bytes.Compare(live.suffix(), past.suffix())
}

// suffixIter walks the rows of one id's index 0 (a table's rows, a
// backup's, or the versions of an undo log), giving each key's part after
// rowSuffixAt.
type suffixIter struct {
	it  storage.Iter
	ok  bool
	log bool // the keys end with a version's time
}

func newSuffixIter(r storage.Reader, id uint64, after []byte, log bool) (*suffixIter, error) {
	prefix := keys.IndexPrefix(id, 0)
	lower := prefix
	if after != nil {
		// Past every key starting with after: the item and, in a log,
		// all its versions.
		lower = keys.PrefixEnd(append(slices.Clone(prefix), after...))
	}
	it, err := r.NewIter(lower, keys.PrefixEnd(prefix))
	if err != nil {
		return nil, err
	}
	s := &suffixIter{it: it, log: log}
	s.ok = it.First()
	return s, nil
}

func (s *suffixIter) valid() bool { return s.ok }
func (s *suffixIter) next()       { s.ok = s.it.Next() }
func (s *suffixIter) err() error  { return s.it.Error() }
func (s *suffixIter) close()      { _ = s.it.Close() }

// suffix is the key's item part; in a log, without the version's time.
func (s *suffixIter) suffix() []byte {
	k := s.it.Key()[rowSuffixAt:]
	if s.log {
		return k[:len(k)-8]
	}
	return k
}

// stateAt walks the versions of the item suffix, on which the log
// iterator stands, to the next item, and returns the item as it was at
// time at: the old image of its first version after at (row nil when
// there was no item then), or changed false when no version is after at.
func (s *suffixIter) stateAt(suffix []byte, at int64) (row []byte, changed bool, err error) {
	for ; s.ok && bytes.Equal(s.suffix(), suffix); s.next() {
		k := s.it.Key()
		t := int64(binary.BigEndian.Uint64(k[len(k)-8:]))
		if changed || t <= at {
			continue
		}
		changed = true
		if v := s.it.Value(); len(v) > 0 && v[0] == 1 {
			row = slices.Clone(v[1:])
		}
	}
	return row, changed, s.err()
}
