package engine

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"strings"
	"sync"
	"time"

	"github.com/dynago/dynago/internal/keys"
	"github.com/dynago/dynago/internal/storage"
)

// Several processes on one shared store.
//
// When Options.Store is shared (PostgreSQL: storage.Store.Shared), any
// number of dynago processes ("nodes") serve the same tables. What one
// process did with mutexes and memory, they do through the store:
//
//   - Item writes. A write still takes its item's lock in this process,
//     reads the item, decides and commits; its batch also expects the row
//     it read, and the catalog entry of the table as this node knows it
//     (storage.Batch.Expect). If another node changed either in between,
//     the commit fails with storage.ErrConflict with nothing applied; the
//     node refreshes the table from the store and runs the write again.
//     So conditional writes and transactions are linearizable across
//     nodes, and no node can write an item without the indexes another
//     node has just added.
//   - The catalog. Each node caches the catalog. A table it does not know
//     is read from the store at once, DDL expects the entry it changes,
//     and a poller re-reads the catalog every catalogPollInterval, so a
//     change made through another node is seen at once by writes (they
//     conflict) and within the interval by reads.
//   - Transaction tokens are rows, expected absent or as read, so two
//     nodes cannot both apply a transaction with one token.
//   - Stream sequence numbers come from each node's hybrid clock, above
//     the item's previous record, and readers see only what every live
//     node's published watermark has settled (engine/shared_streams.go).
//   - Background work that must run once (an index backfill, a Time to
//     Live sweep) runs under a lease: a row naming the node that holds it.
//     Every node writes a heartbeat row; a node whose heartbeat has not
//     changed for Options.NodeLeaseTimeout, as measured by the node that
//     watches it, is presumed dead and its leases are taken over. A
//     backfill chunk and a sweep's deletion expect their lease, so a node
//     that lost its lease while paused (or cut off from the store) cannot
//     commit another chunk or deletion.
//   - Counters (item counts and sizes) are added blindly; the store sums
//     them without a shared row (storage.Batch.AddCounters).

// catalogPollInterval is how often a node re-reads the catalog of a
// shared store.
const catalogPollInterval = 250 * time.Millisecond

// Meta rows of a shared store:
//
//	NSMeta 'N' node id -> heartbeat: a counter the node increments, and
//	                        its stream watermark (engine/shared_streams.go)
//	NSMeta 'L' lease name -> node id | 0 | epoch (8 BE)
//
// The tags are in engine/keytags.go.

func metaNodeKey(id string) []byte { return append([]byte{keys.NSMeta, metaTagNode}, id...) }

func metaLeaseKey(name string) []byte { return append([]byte{keys.NSMeta, metaTagLease}, name...) }

// node is this process on a shared store.
type node struct {
	db *DB
	id string

	mu sync.Mutex
	// beats counts the heartbeats written.
	beats uint64
	// ready is held while the node joins again after a fence: no number
	// is handed out under an id without a heartbeat row.
	ready sync.RWMutex
	// seen records, per other node, its last heartbeat value and when
	// (on this node's monotonic clock) it last changed.
	seen map[string]heartbeat
	// running names the leased jobs this node runs now.
	running map[string]bool
	// last is the last stream number this node handed out or saw
	// published, and inflight the numbers of its batches not yet settled
	// (engine/shared_streams.go).
	last     uint64
	inflight []uint64
}

type heartbeat struct {
	value   string
	changed time.Time
}

func newNode(db *DB) *node {
	return &node{db: db, id: newNodeID(), seen: map[string]heartbeat{}, running: map[string]bool{}}
}

func newNodeID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// errorsIsConflict reports whether err is a store conflict: the write read
// something another node changed before it committed.
func errorsIsConflict(err error) bool { return errors.Is(err, storage.ErrConflict) }

// conflictAttempts bounds how often one request runs again after
// conflicts. Each conflict means another write committed, so the
// system makes progress; a request that loses this often answers
// InternalServerError rather than spin.
const conflictAttempts = 1000

// conflictBackoff sleeps a little after a conflict, more after repeated
// ones, so writers that keep meeting on one item spread out.
func conflictBackoff(attempt int) {
	if attempt < 2 {
		return
	}
	d := time.Duration(min(attempt, 20)) * 50 * time.Microsecond
	var b [1]byte
	_, _ = rand.Read(b[:])
	time.Sleep(d + time.Duration(b[0])*time.Microsecond)
}

// expectTable makes b expect t's catalog entry as this node knows it, so
// a write made with a stale catalog conflicts instead of committing.
func (db *DB) expectTable(b storage.Batch, t *table) {
	if db.shared {
		b.Expect(metaTableKey(t.meta.Name), t.raw, t.raw != nil)
	}
}

// refreshTable reads the table called name from the store into the
// catalog and returns it (nil when the store has none). On a store only
// this process writes it returns the catalog's entry.
func (db *DB) refreshTable(name string) (*table, error) {
	if !db.shared {
		return db.lookupCached(name), nil
	}
	raw, found, err := db.store.Get(metaTableKey(name), nil)
	if err != nil {
		return nil, err
	}
	var t *table
	if found {
		if t, err = decodeTable(raw); err != nil {
			return nil, err
		}
	}
	for {
		curp := db.tables.Load()
		cur := *curp
		if o := cur[name]; o != nil && t != nil && bytes.Equal(o.raw, t.raw) {
			return db.lookupCached(name), nil
		}
		if cur[name] == nil && t == nil {
			return nil, nil
		}
		next := maps.Clone(cur)
		if t == nil {
			delete(next, name)
		} else {
			next[name] = t
		}
		if db.tables.CompareAndSwap(curp, &next) {
			break
		}
	}
	if t != nil {
		if err := db.ensureStream(t.meta.StreamID); err != nil {
			return nil, err
		}
	}
	return db.lookupCached(name), nil
}

// decodeTable builds a table from its catalog entry.
func decodeTable(raw []byte) (*table, error) {
	var tm tableMeta
	if err := json.Unmarshal(raw, &tm); err != nil {
		return nil, fmt.Errorf("decode table: %w", err)
	}
	t := newTable(tm)
	t.raw = bytes.Clone(raw)
	return t, nil
}

// reloadCatalog re-reads the whole catalog of a shared store, keeping the
// tables whose entries did not change.
func (db *DB) reloadCatalog() error {
	if !db.shared {
		return nil
	}
	lower := []byte{keys.NSMeta, metaTagTable}
	it, err := db.store.NewIter(lower, keys.PrefixEnd(lower))
	if err != nil {
		return err
	}
	fresh := map[string][]byte{}
	for ok := it.First(); ok; ok = it.Next() {
		fresh[string(it.Key()[2:])] = bytes.Clone(it.Value())
	}
	// A read that failed midway is no catalog: the cached one is kept
	// whole rather than replaced by the part read (or by nothing).
	if err := errors.Join(it.Error(), it.Close()); err != nil {
		return fmt.Errorf("read the catalog: %w", err)
	}
	for {
		curp := db.tables.Load()
		cur := *curp
		next := make(map[string]*table, len(fresh))
		changed := len(cur) != len(fresh)
		for name, raw := range fresh {
			if o := cur[name]; o != nil && bytes.Equal(o.raw, raw) {
				next[name] = o
				continue
			}
			t, err := decodeTable(raw)
			if err != nil {
				return err
			}
			next[name] = t
			changed = true
		}
		if !changed {
			return nil
		}
		if db.tables.CompareAndSwap(curp, &next) {
			break
		}
	}
	for _, t := range *db.tables.Load() {
		if err := db.ensureStream(t.meta.StreamID); err != nil {
			return err
		}
	}
	return nil
}

// ensureStream loads stream id from the store if this node does not know
// it: another node enabled it.
func (db *DB) ensureStream(id uint64) error {
	if id == 0 {
		return nil
	}
	if _, ok := db.streams.Load(id); ok {
		return nil
	}
	raw, found, err := db.store.Get(metaStreamKey(id), nil)
	if err != nil || !found {
		return err
	}
	s := &stream{db: db}
	if err := json.Unmarshal(raw, &s.meta); err != nil {
		return fmt.Errorf("decode stream: %w", err)
	}
	if err := db.loadStreamState(s); err != nil {
		return err
	}
	db.streams.LoadOrStore(id, s)
	return nil
}

// startShared starts a node's heartbeat, catalog poller and lease
// watcher.
func (db *DB) startShared() {
	db.bg.Add(1)
	go func() {
		defer db.bg.Done()
		beat := time.NewTicker(heartbeatEvery)
		defer beat.Stop()
		for {
			select {
			case <-db.bgStop:
				return
			case <-beat.C:
			}
			if err := db.node.heartbeat(); err != nil {
				db.outage.heartbeatFailed("node heartbeat", "node", db.node.ident(), "err", err)
			} else {
				db.outage.heartbeatOK()
			}
		}
	}()
	db.bg.Add(1)
	go func() {
		defer db.bg.Done()
		poll := time.NewTicker(catalogPollInterval)
		defer poll.Stop()
		for {
			if err := db.reloadCatalog(); err != nil {
				db.outage.warn("catalog refresh", "err", err)
			} else {
				// Only on a catalog just read: one that a node cut off
				// from the store still holds would start again the
				// backfills another node has finished meanwhile.
				db.startLeasedBackfills()
				if err := db.resumeJobs(); err != nil {
					db.outage.warn("resume backups and restores", "err", err)
				}
			}
			select {
			case <-db.bgStop:
				return
			case <-poll.C:
			}
		}
	}()
}

// alive reports whether node id is presumed alive: its heartbeat changed
// within the lease timeout, as this node saw it. A node seen for the
// first time gets a full timeout from now.
func (n *node) alive(id string) (bool, error) {
	if id == n.ident() {
		return true, nil
	}
	v, _, err := n.db.store.Get(metaNodeKey(id), nil)
	if err != nil {
		return false, err
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	now := time.Now()
	h, ok := n.seen[id]
	if !ok || h.value != string(v) {
		n.seen[id] = heartbeat{value: string(v), changed: now}
		return true, nil
	}
	return now.Sub(h.changed) < n.db.leaseTimeout(), nil
}

func (db *DB) leaseTimeout() time.Duration { return db.opts.NodeLeaseTimeout }

// lease is a held lease: the row's value while this node holds it.
type lease struct {
	name  string
	value []byte
}

// acquireLease takes the lease called name if it is free, held by this
// node already, or held by a node presumed dead; it returns nil when a
// live node holds it.
func (db *DB) acquireLease(name string) (*lease, error) { return db.acquireLeaseFor(name, nil) }

// acquireLeaseFor is acquireLease for a job that is due only while the
// catalog entry of table due is as this node has it (a backfill: while
// the entry says the index is CREATING; nil: always due). Taking the
// lease expects the entry, so a node whose catalog is older than the
// job's end (the poller read it just before another node finished the
// job and gave the lease back) does not take the lease of a finished
// job; it returns nil, as when another node took it first.
func (db *DB) acquireLeaseFor(name string, due *table) (*lease, error) {
	key := metaLeaseKey(name)
	cur, found, err := db.store.Get(key, nil)
	if err != nil {
		return nil, err
	}
	var epoch uint64
	if found {
		i := bytes.IndexByte(cur, 0)
		if i < 0 || len(cur) != i+9 {
			return nil, fmt.Errorf("lease %q: malformed row", name)
		}
		holder := string(cur[:i])
		epoch = binary.BigEndian.Uint64(cur[i+1:])
		if holder == db.node.ident() {
			return &lease{name: name, value: cur}, nil
		}
		alive, err := db.node.alive(holder)
		if err != nil || alive {
			return nil, err
		}
		db.log.Info("taking over lease", "lease", name, "from", holder, "node", db.node.ident())
	}
	v := binary.BigEndian.AppendUint64(append([]byte(db.node.ident()), 0), epoch+1)
	b := db.store.NewBatch()
	defer b.Close()
	b.Expect(key, cur, found)
	if due != nil {
		db.expectTable(b, due)
	}
	if err := b.Set(key, v); err != nil {
		return nil, err
	}
	if err := b.Commit(); err != nil {
		if errorsIsConflict(err) {
			return nil, nil // another node took it first, or the job is over
		}
		return nil, err
	}
	db.log.Info("lease acquired", "lease", name, "node", db.node.ident(), "epoch", epoch+1)
	return &lease{name: name, value: v}, nil
}

// expect makes b commit only while this node still holds l.
func (l *lease) expect(b storage.Batch) { b.Expect(metaLeaseKey(l.name), l.value, true) }

// stillHolds returns nil if this node still holds l as it was taken, and
// errLeaseLost if the lease row is no longer l: another node took it
// over, or took it over and gave it back when its job was done. It only
// reads the row: a node that lost a lease does not take it again to
// find out (the job that held l stops, and the next run, if the job is
// still due, takes the lease as any node would).
func (db *DB) stillHolds(l *lease) error {
	cur, found, err := db.store.Get(metaLeaseKey(l.name), nil)
	if err != nil {
		return err
	}
	if !found || !bytes.Equal(cur, l.value) {
		return errLeaseLost
	}
	return nil
}

// release gives l up, unless another node has taken it since.
func (db *DB) releaseLease(l *lease) {
	b := db.store.NewBatch()
	defer b.Close()
	l.expect(b)
	if err := b.Delete(metaLeaseKey(l.name)); err == nil {
		if err := b.Commit(); err != nil && !errorsIsConflict(err) {
			db.log.Warn("release lease", "lease", l.name, "err", err)
		}
	}
}

// runLeased runs job in the background under the lease called name,
// unless this node runs it already, a live node holds the lease, or the
// catalog entry of table due (nil: none) is no longer as this node has
// it (acquireLeaseFor). job gets the lease to expect in its commits.
func (db *DB) runLeased(name string, due *table, job func(l *lease)) {
	n := db.node
	n.mu.Lock()
	if n.running[name] {
		n.mu.Unlock()
		return
	}
	n.running[name] = true
	n.mu.Unlock()
	done := func() {
		n.mu.Lock()
		delete(n.running, name)
		n.mu.Unlock()
	}
	l, err := db.acquireLeaseFor(name, due)
	if err != nil || l == nil {
		if err != nil {
			db.outage.warn("acquire lease", "lease", name, "err", err)
		}
		done()
		return
	}
	db.bg.Add(1)
	go func() {
		defer db.bg.Done()
		defer done()
		job(l)
	}()
}

// startLeasedBackfills runs, under a lease each, the backfills of the
// catalog's CREATING indexes that no live node runs.
func (db *DB) startLeasedBackfills() {
	if db.stopping() {
		return
	}
	for _, t := range *db.tables.Load() {
		for _, ix := range t.everyIndex() {
			if !ix.meta.Backfilling {
				continue
			}
			name, tableID, indexID := t.meta.Name, t.meta.ID, ix.meta.ID
			db.runLeased(backfillLeaseName(tableID, indexID), t, func(l *lease) {
				db.runBackfill(name, tableID, indexID, true, l)
			})
		}
	}
}

// refreshShared reads the table called name (a name or an ARN) from a
// shared store into the catalog before an operation that must decide on
// its current definition. An error reading the store is returned: the
// operation cannot tell whether the table exists, and the catalog keeps
// what it had.
func (db *DB) refreshShared(name string) error {
	if !db.shared || name == "" {
		return nil
	}
	if strings.HasPrefix(name, "arn:") {
		a, ok := parseTableARN(name)
		if !ok {
			return nil
		}
		name = a.name
	}
	if _, err := db.refreshTable(name); err != nil {
		return fmt.Errorf("read table %q from the store: %w", name, err)
	}
	return nil
}

// loadAllStreams loads the streams of a shared store this node does not
// know yet, for listing.
func (db *DB) loadAllStreams() error {
	if !db.shared {
		return nil
	}
	lower := []byte{keys.NSMeta, metaTagStream}
	it, err := db.store.NewIter(lower, keys.PrefixEnd(lower))
	if err != nil {
		return err
	}
	var ids []uint64
	for ok := it.First(); ok; ok = it.Next() {
		var m streamMeta
		if json.Unmarshal(it.Value(), &m) == nil {
			ids = append(ids, m.ID)
		}
	}
	if err := errors.Join(it.Error(), it.Close()); err != nil {
		return err
	}
	for _, id := range ids {
		if err := db.ensureStream(id); err != nil {
			return err
		}
	}
	return nil
}

// leaseHeld reports whether this node holds, or has just taken, the
// lease called name; on a store only this process writes it is always
// true. Periodic work that must run on one node at a time (stream
// trimming) checks it before each run and keeps the lease while the node
// lives; Time to Live sweeps take theirs with ttlLease, to expect it.
func (db *DB) leaseHeld(name string) bool {
	if !db.shared {
		return true
	}
	l, err := db.acquireLease(name)
	if err != nil {
		db.outage.warn("acquire lease", "lease", name, "err", err)
		return false
	}
	return l != nil
}

// Ping reports whether the database can serve requests: on a shared
// store, whether the store answers now.
func (db *DB) Ping(ctx context.Context) error {
	if db.closed.Load() {
		return ErrClosed
	}
	return db.store.Ping(ctx)
}

// staleIndex reports, on a shared store, whether the store's definition
// of t differs from this node's, after a read named an index that t
// lacks or that is still backfilling: the catalog is then refreshed, and
// the caller looks the table up again.
//
// An error reading the store is returned: the index may exist there, so
// the read's own error (no such index) would be a guess.
func (db *DB) staleIndex(t *table, name string) (bool, error) {
	if !db.shared || name == "" {
		return false, nil
	}
	fresh, err := db.refreshTable(t.meta.Name)
	if err != nil {
		return false, err
	}
	return fresh != nil && !bytes.Equal(fresh.raw, t.raw), nil
}

// errTableReplaced stops a write whose table another node deleted and
// created again under the same name: the operation runs again from the
// start on the new table (run treats it as a conflict).
var errTableReplaced = fmt.Errorf("table replaced by another node: %w", storage.ErrConflict)
