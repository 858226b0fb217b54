package engine

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/dynago/dynago/internal/storage"
)

// Eventual consistency, when asked (Options.GSILag, Options.StaleReads,
// and a table's dynago:gsi-lag and dynago:stale-reads tags).
//
// DynamoDB propagates a table's writes to its global secondary indexes
// asynchronously, and an eventually consistent read of a table may miss a
// recent write; a strongly consistent read, a local secondary index read
// and a transaction never do:
//
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.ReadConsistency.html
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/SecondaryIndexes.html
//
// dynago writes everything in one batch, so nothing it stores ever lags.
// The lag is an overlay on reads: after a write commits, each row key it
// changed that should lag (a GSI entry; the table's row, for stale reads)
// is recorded here with what it held before and the instant its new value
// becomes visible, drawn from a seeded generator. An eventually
// consistent read shows, for such a key, the value it had before; the
// stored rows are never changed, so durability, atomicity, streams and
// the integrity check are untouched, and after a restart everything is
// visible. The overlay lives in this process only: on a shared store,
// other nodes' writes do not lag here.
//
// Each key keeps its versions in order: a later write to a key never
// shows before an earlier one (its instant is at least the earlier's),
// and once a version shows it stays shown.

// maxLagKeys bounds the keys the overlay holds; past it, those whose
// versions are all visible go first, then those that become visible
// soonest, which are shown at once.
const maxLagKeys = 1 << 16

// lagOverlay is the DB's record of recent changes that reads do not see
// yet (DB.lag; nil when eventual consistency is off).
type lagOverlay struct {
	now func() time.Time

	mu  sync.Mutex
	rng *rand.Rand
	// keys holds the row keys with versions, sorted; hist their
	// versions.
	keys    []string
	hist    map[string]*lagHistory
	pruneAt int
}

// lagVersion is one value of a row key: found says whether the row
// exists, at when the version becomes visible.
type lagVersion struct {
	val   []byte
	found bool
	at    time.Time
}

// lagHistory is a row key's versions not all visible yet: base is what
// it held before the first of pending.
type lagHistory struct {
	base    lagVersion
	pending []lagVersion
	// gsi marks a global secondary index entry (for the metric of
	// entries still hidden).
	gsi bool
}

// visible returns the version of h a read at now sees, and false when
// that is the latest (what the store holds).
func (h *lagHistory) visible(now time.Time) (lagVersion, bool) {
	i := len(h.pending) - 1
	for i >= 0 && h.pending[i].at.After(now) {
		i--
	}
	switch {
	case i == len(h.pending)-1:
		return lagVersion{}, false
	case i < 0:
		return h.base, true
	}
	return h.pending[i], true
}

// settled reports whether every version of h is visible at now.
func (h *lagHistory) settled(now time.Time) bool {
	return !h.pending[len(h.pending)-1].at.After(now)
}

// lagChange is one row key a committed write changed, to record: its
// value before and after, and the mean lag (GSI entries: a delay drawn
// uniformly between 0 and twice it) or the window (table rows: a delay
// drawn uniformly below it). A change with withPrev shares the delay of
// the change before it (an index entry that moved: its old key goes
// when its new key comes).
type lagChange struct {
	key           []byte
	before, after []byte
	foundBefore   bool
	foundAfter    bool
	gsi           bool
	withPrev      bool
	span          time.Duration
}

func newLagOverlay(now func() time.Time, seed uint64) *lagOverlay {
	return &lagOverlay{
		now:     now,
		rng:     rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
		hist:    map[string]*lagHistory{},
		pruneAt: 1024,
	}
}

// draw returns the delay of a change: uniform in [0, 2×span) for a GSI
// entry (span is the mean), in [0, span) for a table row (span is the
// window). The caller holds o.mu.
func (o *lagOverlay) draw(c *lagChange) time.Duration {
	limit := c.span
	if c.gsi {
		limit *= 2
	}
	if limit <= 0 {
		return 0
	}
	return time.Duration(o.rng.Int64N(int64(limit)))
}

// record notes the changes of a committed write.
func (o *lagOverlay) record(changes []lagChange) {
	now := o.now()
	o.mu.Lock()
	defer o.mu.Unlock()
	var delay time.Duration
	for i := range changes {
		c := &changes[i]
		if !c.withPrev {
			delay = o.draw(c)
		}
		at := now.Add(delay)
		key := string(c.key)
		h := o.hist[key]
		if h != nil && !h.settled(now) {
			// A key not settled keeps its order: this version shows no
			// sooner than the one before it.
			if last := h.pending[len(h.pending)-1].at; at.Before(last) {
				at = last
			}
			h.pending = append(h.pending, lagVersion{c.after, c.foundAfter, at})
			continue
		}
		if !at.After(now) {
			// Visible at once: the store shows it.
			if h != nil {
				h.pending = append(h.pending[:0], lagVersion{c.after, c.foundAfter, at})
			}
			continue
		}
		if h == nil {
			h = &lagHistory{gsi: c.gsi}
			o.hist[key] = h
			i, _ := slices.BinarySearch(o.keys, key)
			o.keys = slices.Insert(o.keys, i, key)
		}
		h.base = lagVersion{val: c.before, found: c.foundBefore}
		h.pending = append(h.pending[:0], lagVersion{c.after, c.foundAfter, at})
	}
	if len(o.keys) >= o.pruneAt {
		o.prune(now)
	}
}

// prune drops the keys whose versions are all visible and, past
// maxLagKeys, those that become visible soonest. The caller holds o.mu.
func (o *lagOverlay) prune(now time.Time) {
	kept := o.keys[:0]
	for _, k := range o.keys {
		if o.hist[k].settled(now) {
			delete(o.hist, k)
			continue
		}
		kept = append(kept, k)
	}
	clear(o.keys[len(kept):])
	o.keys = kept
	if over := len(o.keys) - maxLagKeys*3/4; len(o.keys) >= maxLagKeys && over > 0 {
		byLast := slices.Clone(o.keys)
		sort.Slice(byLast, func(i, j int) bool {
			a, b := o.hist[byLast[i]].pending, o.hist[byLast[j]].pending
			return a[len(a)-1].at.Before(b[len(b)-1].at)
		})
		for _, k := range byLast[:over] {
			delete(o.hist, k)
		}
		o.keys = slices.DeleteFunc(o.keys, func(k string) bool { return o.hist[k] == nil })
	}
	o.pruneAt = min(max(1024, 2*len(o.keys)), maxLagKeys)
}

// lookup returns what an eventually consistent read sees of the row key:
// a value and whether the row exists, and false when the overlay has
// nothing older to show (the store's row is what the read sees).
func (o *lagOverlay) lookup(key []byte) (val []byte, found, ok bool) {
	now := o.now()
	o.mu.Lock()
	defer o.mu.Unlock()
	h := o.hist[string(key)]
	if h == nil {
		return nil, false, false
	}
	v, ok := h.visible(now)
	return v.val, v.found, ok
}

// lagEntry is a row key whose visible version is not the stored one, as
// a range read sees it.
type lagEntry struct {
	key   []byte
	val   []byte
	found bool
}

// inRange returns the row keys in [lower, upper) (upper nil: no bound)
// whose visible version is not the stored one, in key order, or nil.
func (o *lagOverlay) inRange(lower, upper []byte) []lagEntry {
	now := o.now()
	o.mu.Lock()
	defer o.mu.Unlock()
	i, _ := slices.BinarySearch(o.keys, string(lower))
	var out []lagEntry
	for ; i < len(o.keys); i++ {
		k := o.keys[i]
		if upper != nil && strings.Compare(k, string(upper)) >= 0 {
			break
		}
		if v, ok := o.hist[k].visible(now); ok {
			out = append(out, lagEntry{key: []byte(k), val: v.val, found: v.found})
		}
	}
	return out
}

// hiddenGSIEntries counts the GSI entries whose latest change is not
// visible yet.
func (o *lagOverlay) hiddenGSIEntries() int {
	now := o.now()
	o.mu.Lock()
	defer o.mu.Unlock()
	n := 0
	for _, h := range o.hist {
		if h.gsi && !h.settled(now) {
			n++
		}
	}
	return n
}

// lagRead is what a Query or Scan page sees of the overlay: the entries
// in its range, and whether any of them changed what it read.
type lagRead struct {
	entries []lagEntry
	used    bool
}

// lagIter merges a store iterator with a range's overlay entries: an
// entry's key shows the entry's value (or nothing, for a row that did not
// exist yet) in place of the stored row. It reads in the direction it was
// positioned in (First or SeekGE forwards, Last or SeekLT backwards), as
// a page does; turning around ends it.
type lagIter struct {
	it    storage.Iter
	lr    *lagRead
	i     int // the next entry, in the direction read
	cur   int // the entry shown, or -1 for the store's row
	rev   bool
	valid bool
}

func newLagIter(it storage.Iter, lr *lagRead) *lagIter {
	return &lagIter{it: it, lr: lr, cur: -1}
}

func (l *lagIter) First() bool {
	l.rev, l.i = false, 0
	return l.settle(l.it.First())
}

func (l *lagIter) Last() bool {
	l.rev, l.i = true, len(l.lr.entries)-1
	return l.settle(l.it.Last())
}

func (l *lagIter) SeekGE(key []byte) bool {
	l.rev, l.i = false, l.search(key)
	return l.settle(l.it.SeekGE(key))
}

func (l *lagIter) SeekLT(key []byte) bool {
	l.rev, l.i = true, l.search(key)-1
	return l.settle(l.it.SeekLT(key))
}

// search returns the first entry at or after key.
func (l *lagIter) search(key []byte) int {
	e := l.lr.entries
	return sort.Search(len(e), func(i int) bool { return bytes.Compare(e[i].key, key) >= 0 })
}

func (l *lagIter) Next() bool {
	if l.rev || !l.valid {
		l.valid = false
		return false
	}
	if l.cur < 0 {
		return l.settle(l.it.Next())
	}
	return l.settle(l.it.Valid())
}

func (l *lagIter) Prev() bool {
	if !l.rev || !l.valid {
		l.valid = false
		return false
	}
	if l.cur < 0 {
		return l.settle(l.it.Prev())
	}
	return l.settle(l.it.Valid())
}

// settle shows the next row in the direction read: the store's (stored
// says whether it is on one) or the next entry's, whichever comes first;
// an entry hides the store's row of its key, and shows nothing for a row
// that did not exist then.
func (l *lagIter) settle(stored bool) bool {
	e := l.lr.entries
	for {
		more := l.i >= 0 && l.i < len(e)
		if !more && !stored {
			l.valid = false
			return false
		}
		if more {
			c := -1
			if stored {
				c = bytes.Compare(e[l.i].key, l.it.Key())
				if l.rev {
					c = -c
				}
			}
			if c <= 0 {
				l.lr.used = true
				if c == 0 {
					if l.rev {
						stored = l.it.Prev()
					} else {
						stored = l.it.Next()
					}
				}
				j := l.i
				if l.rev {
					l.i--
				} else {
					l.i++
				}
				if !e[j].found {
					continue
				}
				l.cur, l.valid = j, true
				return true
			}
		}
		l.cur, l.valid = -1, true
		return true
	}
}

func (l *lagIter) Valid() bool { return l.valid }

func (l *lagIter) Key() []byte {
	if l.cur >= 0 {
		return l.lr.entries[l.cur].key
	}
	return l.it.Key()
}

func (l *lagIter) Value() []byte {
	if l.cur >= 0 {
		return l.lr.entries[l.cur].val
	}
	return l.it.Value()
}

func (l *lagIter) Error() error { return l.it.Error() }
func (l *lagIter) Close() error { return l.it.Close() }

// A table's own settings, as tags (dynago's own: DynamoDB keeps them as
// any other tag): a duration in Go's notation ("500ms", "2s"), which
// replaces the DB's GSILag or StaleReads for that table; "0s" turns it
// off there. A value that is not a duration is ignored.
const (
	TagGSILag     = "dynago:gsi-lag"
	TagStaleReads = "dynago:stale-reads"
)

// tableLag is what a table's tags set (nil: neither tag).
type tableLag struct {
	gsi, stale       time.Duration
	hasGSI, hasStale bool
}

func parseTableLag(tags []catTag) *tableLag {
	var l tableLag
	for _, tg := range tags {
		d, err := time.ParseDuration(tg.Value)
		if err != nil || d < 0 {
			continue
		}
		switch tg.Key {
		case TagGSILag:
			l.gsi, l.hasGSI = d, true
		case TagStaleReads:
			l.stale, l.hasStale = d, true
		}
	}
	if !l.hasGSI && !l.hasStale {
		return nil
	}
	return &l
}

// lagSpans returns the GSI lag and the stale-read window of writes to t,
// both 0 when neither is on.
func (db *DB) lagSpans(t *table) (gsi, stale time.Duration) {
	gsi, stale = db.opts.GSILag, db.opts.StaleReads
	if l := t.lag; l != nil {
		if l.hasGSI {
			gsi = l.gsi
		}
		if l.hasStale {
			stale = l.stale
		}
	}
	return gsi, stale
}

// lagOn returns the overlay, made on first use by a table whose tags
// turn it on.
func (db *DB) lagOn() *lagOverlay {
	if o := db.lag.Load(); o != nil {
		return o
	}
	if db.lag.CompareAndSwap(nil, newLagOverlay(db.opts.Now, db.lagSeed)) {
		db.log.Info("eventual consistency on for tables tagged "+TagGSILag+" or "+TagStaleReads, "consistency_seed", int64(db.lagSeed))
	}
	return db.lag.Load()
}

// stageLagRow records, for a write to t that has stale reads on, the
// table row k changes from old to row (nil: deleted), to show to
// eventually consistent reads once b commits.
func (b *writeBatch) stageLagRow(k itemKey, old *storedItem, row []byte, window time.Duration) {
	c := lagChange{key: slices.Clone(k.row), span: window, foundBefore: old.found, foundAfter: row != nil}
	if old.found {
		c.before = slices.Clone(old.raw)
	}
	if row != nil {
		c.after = slices.Clone(row)
	}
	b.lag = append(b.lag, c)
}

// stageLagEntry records, for a write with GSI lag mean, that a GSI entry
// changed: the old entry (oldKey, oldRow; nil when the item was not in
// the index) and the new one (newKey, newRow; nil when it is not).
func (b *writeBatch) stageLagEntry(oldKey, oldRow, newKey, newRow []byte, mean time.Duration) {
	same := oldKey != nil && newKey != nil && bytes.Equal(oldKey, newKey)
	if same && bytes.Equal(oldRow, newRow) {
		return // the entry did not change
	}
	first := true
	if oldKey != nil && !same {
		b.lag = append(b.lag, lagChange{key: slices.Clone(oldKey), before: slices.Clone(oldRow), foundBefore: true, gsi: true, span: mean})
		first = false
	}
	if newKey != nil {
		c := lagChange{key: slices.Clone(newKey), after: slices.Clone(newRow), foundAfter: true, gsi: true, span: mean, withPrev: !first}
		if same {
			c.before, c.foundBefore = slices.Clone(oldRow), true
		}
		b.lag = append(b.lag, c)
	}
}

// lagForRange returns what a Query or Scan page of ks over [lower,
// upper) sees of the overlay o, or nil when it reads the store as it is:
// a GSI always lags; a table only for an eventually consistent read; a
// local secondary index never (its reads are strongly consistent when
// asked, and dynago keeps them so).
func (db *DB) lagForRange(o *lagOverlay, ks keyspace, consistent bool, lower, upper []byte) *lagRead {
	if ks.isTable() && consistent || !ks.isTable() && !ks.ix.meta.Global {
		return nil
	}
	e := o.inRange(lower, upper)
	if e == nil {
		return nil
	}
	return &lagRead{entries: e}
}

// viewRow is the store's View of a table row for a read: an eventually
// consistent one, while the overlay is on, sees the row's earlier version
// if it shows one.
func (db *DB) viewRow(t *table, row []byte, consistent bool, fn func(value []byte) error) (bool, error) {
	if o := db.lag.Load(); o != nil && !consistent {
		if val, found, ok := o.lookup(row); ok {
			db.noteStaleRead(keyspace{t, t.primary})
			if !found {
				return false, nil
			}
			return true, fn(val)
		}
	}
	return db.store.View(row, fn)
}

// noteStaleRead counts a read that showed an earlier version of a row
// of ks (engine/meter.go).
func (db *DB) noteStaleRead(ks keyspace) {
	m := db.meters.table(ks.t.meta.Name)
	if ks.isTable() {
		m.staleReads.Add(1)
	} else {
		m.index(ks.ix.meta.Name).staleReads.Add(1)
	}
}
