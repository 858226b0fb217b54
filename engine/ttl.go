package engine

// Time to Live: UpdateTimeToLive, DescribeTimeToLive and the sweeper.
//
// A table's setting lives in its catalog entry (tableMeta.TTLEnabled,
// TTLAttribute, TTLUpdated) and changes at once: DescribeTimeToLive says
// ENABLED or DISABLED straight after UpdateTimeToLive, where DynamoDB may
// briefly say ENABLING or DISABLING.
//
// The sweeper walks the base rows of every table with TTL on and deletes
// the items whose TTL attribute is a Number of epoch seconds at or before
// now, through the normal write path (writeItemBy with byTTL), so index
// entries, counters and the stream record (with the TTL service identity)
// commit with the delete. Expired items that are not swept yet stay
// readable, as on DynamoDB.

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/internal/keys"
)

// DescribeTimeToLive's statuses. DynamoDB also has ENABLING and DISABLING;
// dynago's changes are immediate, so it never shows them.
const (
	ttlStatusEnabled  = "ENABLED"
	ttlStatusDisabled = "DISABLED"
)

const (
	// ttlSweepLoad bounds the sweeper's share of a core: after a sweep
	// that took d, the next starts no sooner than ttlSweepLoad*d later.
	ttlSweepLoad = 10
	// ttlSweepChunk is how many rows the sweeper reads with one iterator
	// before it deletes what it found and moves on.
	ttlSweepChunk = 1024
	// ttlMaxPastYears: items whose TTL is further in the past are not
	// expired.
	ttlMaxPastYears = 5
)

// UpdateTimeToLive turns Time to Live on or off for a table. The change
// is immediate. The checks and messages are DynamoDB's: enabling when
// enabled is refused ("already enabled", or "active on a different
// AttributeName" for another attribute), disabling needs the enabled
// attribute's name, and a change within the cooldown of the last one is
// refused; the state checks come before the cooldown check, as observed
// on DynamoDB.
//
// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_UpdateTimeToLive.html
func (db *DB) UpdateTimeToLive(in *dynamo.UpdateTimeToLiveInput) (*dynamo.UpdateTimeToLiveOutput, error) {
	return run(db, opUpdateTimeToLive, func() (*dynamo.UpdateTimeToLiveOutput, error) { return db.updateTimeToLive(in) })
}

func (db *DB) updateTimeToLive(in *dynamo.UpdateTimeToLiveInput) (*dynamo.UpdateTimeToLiveOutput, error) {
	if in.NoTableName {
		return nil, dynamo.Validation(dynamo.MsgTableNameRequired)
	}
	var c constraints
	c.tableOpName(in.TableName)
	spec := in.TimeToLiveSpecification
	if spec == nil {
		c.notNull("timeToLiveSpecification")
	} else {
		// Both members are required (AWS's API reference), attributeName
		// listed first (validation_order.go).
		if spec.AttributeName == "" && !spec.NoAttributeName {
			// Sent empty, not left out: its length, not null (the
			// ack-api-quirks catalogue, 2026-10-09, ttl_attr_empty_string).
			c.add("Value '' at 'timeToLiveSpecification.attributeName' failed to satisfy constraint: Member must have length greater than or equal to 1")
		} else {
			c.attributeName("timeToLiveSpecification.attributeName", spec.AttributeName)
		}
		if spec.NoEnabled {
			c.add(msgTTLEnabledNull)
		}
	}
	if err := c.err(); err != nil {
		return nil, err
	}

	db.ddl.Lock()
	defer db.ddl.Unlock()
	t, err := db.freshTable(in.TableName)
	if err != nil {
		return nil, err
	}
	// A CREATING or DELETING table refuses the change; an UPDATING one
	// takes it (engine/transient.go).
	if s := db.tableStatus(t); s == dynamo.TableStatusCreating || s == dynamo.TableStatusDeleting {
		return nil, db.inUse(t)
	}
	m := t.meta // copy; the old *table stays valid for readers holding it
	switch {
	case spec.Enabled && m.TTLEnabled && spec.AttributeName == m.TTLAttribute:
		return nil, dynamo.Validation("TimeToLive is already enabled")
	case !spec.Enabled && !m.TTLEnabled:
		return nil, dynamo.Validation("TimeToLive is already disabled")
	case m.TTLEnabled && spec.AttributeName != m.TTLAttribute:
		// Enabling another attribute, or disabling with the wrong name.
		return nil, dynamo.Validation("TimeToLive is active on a different AttributeName: current AttributeName is " + m.TTLAttribute)
	}
	now := db.now()
	if cd := db.ttlCooldown(); cd > 0 && !m.TTLUpdated.IsZero() && now.Before(m.TTLUpdated.Add(cd)) {
		return nil, dynamo.Validation("Time to live has been modified multiple times within a fixed interval")
	}
	m.TTLEnabled = spec.Enabled
	m.TTLAttribute = ""
	if spec.Enabled {
		m.TTLAttribute = spec.AttributeName
	}
	m.TTLUpdated = now

	b := db.store.NewBatch()
	defer b.Close()
	next, err := db.putTableLocked(b, newTable(m))
	if err != nil {
		return nil, err
	}
	if err := b.Commit(); err != nil {
		return nil, err
	}
	db.tables.Store(&next)
	return &dynamo.UpdateTimeToLiveOutput{TimeToLiveSpecification: dynamo.TimeToLiveSpecification{
		Enabled: spec.Enabled, AttributeName: spec.AttributeName,
	}}, nil
}

// ttlCooldown is the minimum time between two TTL changes of a table; 0
// or less means none.
func (db *DB) ttlCooldown() time.Duration { return db.opts.TTLChangeCooldown }

// DescribeTimeToLive reports a table's Time to Live setting: ENABLED with
// its attribute, or DISABLED without one (DynamoDB does not show the
// attribute of a disabled TTL, whether it was never enabled or disabled
// since).
//
// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DescribeTimeToLive.html
func (db *DB) DescribeTimeToLive(in *dynamo.DescribeTimeToLiveInput) (*dynamo.DescribeTimeToLiveOutput, error) {
	return run(db, opDescribeTimeToLive, func() (*dynamo.DescribeTimeToLiveOutput, error) { return db.describeTimeToLive(in) })
}

func (db *DB) describeTimeToLive(in *dynamo.DescribeTimeToLiveInput) (*dynamo.DescribeTimeToLiveOutput, error) {
	if in.NoTableName {
		return nil, dynamo.Validation(dynamo.MsgTableNameRequired)
	}
	var c constraints
	c.tableOpName(in.TableName)
	if err := c.err(); err != nil {
		return nil, err
	}
	t, err := db.freshTable(in.TableName)
	if err != nil {
		return nil, err
	}
	// A table CREATING or DELETING has no setting to show (the
	// ack-api-quirks catalogue, DDB-TABLE-442, answered live in us-east-1
	// and us-west-2 on 2026-10-09).
	if s := db.tableStatus(t); s == dynamo.TableStatusCreating || s == dynamo.TableStatusDeleting {
		return nil, dynamo.Validation("Cannot describe time to live while table is in " + s + " state: Current table state is " + s)
	}
	d := dynamo.TimeToLiveDescription{TimeToLiveStatus: ttlStatusDisabled}
	if t.meta.TTLEnabled {
		d.TimeToLiveStatus, d.AttributeName = ttlStatusEnabled, t.meta.TTLAttribute
	}
	return &dynamo.DescribeTimeToLiveOutput{TimeToLiveDescription: d}, nil
}

// startTTLSweeper starts the background sweeper, unless
// Options.TTLSweepInterval is negative. After a sweep that took d it
// waits max(interval, ttlSweepLoad*d), so sweeping never takes more than
// about a tenth of a core however large the tables.
func (db *DB) startTTLSweeper() {
	interval := db.opts.TTLSweepInterval
	if interval < 0 {
		return
	}
	db.bg.Add(1)
	go func() {
		defer db.bg.Done()
		timer := time.NewTimer(interval)
		defer timer.Stop()
		for {
			select {
			case <-db.bgStop:
				return
			case <-timer.C:
			}
			l, held := db.ttlLease()
			if !held {
				timer.Reset(interval) // another node sweeps
				continue
			}
			start := time.Now()
			n, err := db.sweepExpired(l)
			d := time.Since(start)
			switch {
			case errors.Is(err, errLeaseLost):
				db.log.Info("ttl sweep lease lost", "deleted", n, "duration", d)
			case err != nil && !errors.Is(err, ErrClosed):
				db.log.Error("ttl sweep", "err", err, "deleted", n, "duration", d)
			case n > 0:
				db.log.Debug("ttl sweep", "deleted", n, "duration", d)
			}
			timer.Reset(max(interval, ttlSweepLoad*d))
		}
	}()
}

// SweepExpired runs one Time to Live sweep now, over every table with TTL
// enabled, and returns how many items it deleted. The background sweeper
// calls it on its interval; tests call it to expire items on demand.
//
// An item is expired when its TTL attribute is a Number (N) of epoch
// seconds at or before now (compared exactly, fractions included) and no
// more than five years in the past: "To be considered for expiry and
// deletion, the TTL can't be more than five years in the past. If you use
// any other format, the TTL processes ignore the item."
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/time-to-live-ttl-before-you-start.html
// Other types, and items without the attribute, are never expired.
func (db *DB) SweepExpired() (int, error) { return db.sweepExpired(nil) }

// ttlLease takes, on a shared store, the lease under which one node at a
// time sweeps: held is false while another live node holds it. On a store
// only this process writes there is no lease (nil) and held is true.
func (db *DB) ttlLease() (l *lease, held bool) {
	if !db.shared {
		return nil, true
	}
	l, err := db.acquireLease("ttl")
	if err != nil {
		db.outage.warn("acquire lease", "lease", "ttl", "err", err)
		return nil, false
	}
	return l, l != nil
}

// sweepExpired is SweepExpired under the lease l (nil: none): every
// deletion expects it, so a node that lost the lease while it swept (it
// was cut off from the store, or paused, for the lease timeout) deletes
// nothing more, and the sweep ends with errLeaseLost.
//
// On a shared store it first reads the tables that have TTL on in the
// store but not in this node's catalog (refreshTTLTables), so TTL enabled
// through another node since the poller last read the catalog is swept
// at once.
func (db *DB) sweepExpired(l *lease) (int, error) {
	if db.closed.Load() {
		return 0, ErrClosed
	}
	if err := db.refreshTTLTables(); err != nil {
		return 0, err
	}
	w := db.ttlWindow(db.now())
	total := 0
	var errs []error
	for _, t := range *db.tables.Load() {
		if !t.meta.TTLEnabled {
			continue
		}
		n, err := db.sweepTable(t, w, l)
		total += n
		if errors.Is(err, errLeaseLost) {
			return total, err
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("table %q: %w", t.meta.Name, err))
		}
	}
	return total, errors.Join(errs...)
}

// refreshTTLTables reads into the catalog, on a shared store, every table
// whose entry in the store has TTL on and differs from this node's (TTL
// enabled, or the table created, through another node). It installs
// nothing else: the other entries are the poller's to bring up to date.
func (db *DB) refreshTTLTables() error {
	if !db.shared {
		return nil
	}
	lower := []byte{keys.NSMeta, metaTagTable}
	it, err := db.store.NewIter(lower, keys.PrefixEnd(lower))
	if err != nil {
		return err
	}
	cur := *db.tables.Load()
	var stale []string
	for ok := it.First(); ok; ok = it.Next() {
		name := string(it.Key()[2:])
		if o := cur[name]; o != nil && bytes.Equal(o.raw, it.Value()) {
			continue
		}
		t, err := decodeTable(it.Value())
		if err != nil {
			it.Close()
			return err
		}
		if t.meta.TTLEnabled {
			stale = append(stale, name)
		}
	}
	if err := errors.Join(it.Error(), it.Close()); err != nil {
		return fmt.Errorf("read the catalog: %w", err)
	}
	for _, name := range stale {
		if _, err := db.refreshTable(name); err != nil {
			return err
		}
	}
	return nil
}

// ttlWindow is the range of TTL values that are expired at one instant:
// from (inclusive) five years before it to (inclusive) it, in whole epoch
// seconds, as number text for attr.CompareNumbers.
type ttlWindow struct {
	oldest, now string
}

func (db *DB) ttlWindow(now time.Time) ttlWindow {
	return ttlWindow{
		oldest: strconv.FormatInt(now.UTC().AddDate(-ttlMaxPastYears, 0, 0).Unix(), 10),
		now:    strconv.FormatInt(now.Unix(), 10),
	}
}

// expired says whether a TTL attribute's number text is in the window.
func (w ttlWindow) expired(n string) bool {
	return attr.CompareNumbers(n, w.now) <= 0 && attr.CompareNumbers(n, w.oldest) >= 0
}

// sweepTable deletes t's expired items. It reads the base rows a chunk
// at a time (so no iterator stays open across the deletes) and stops
// early when the database is closing.
func (db *DB) sweepTable(t *table, w ttlWindow, l *lease) (int, error) {
	prefix := keys.IndexPrefix(t.meta.ID, keys.BaseIndexID)
	lower, upper := prefix, keys.PrefixEnd(prefix)
	deleted := 0
	for lower != nil {
		if db.stopping() {
			return deleted, nil
		}
		var rows [][]byte
		var err error
		rows, lower, err = db.ttlCandidates(t.meta.TTLAttribute, lower, upper, w)
		if err != nil {
			return deleted, err
		}
		for _, row := range rows {
			ok, err := db.expireRow(t.meta.Name, t.meta.ID, row, w, l)
			if err != nil {
				return deleted, err
			}
			if ok {
				deleted++
				db.meters.ttlDeleted.Add(1)
			}
		}
	}
	return deleted, nil
}

// ttlCandidates reads up to ttlSweepChunk rows of [lower, upper) and
// returns the keys of those whose attribute name is expired, and where to
// go on (nil at the end of the range).
func (db *DB) ttlCandidates(name string, lower, upper []byte, w ttlWindow) (rows [][]byte, next []byte, err error) {
	it, err := db.store.NewIter(lower, upper)
	if err != nil {
		return nil, nil, err
	}
	defer it.Close()
	n := 0
	ok := it.First()
	for ; ok && n < ttlSweepChunk; ok = it.Next() {
		n++
		s, err := parseRow(it.Value())
		if err != nil {
			return nil, nil, err
		}
		v, err := ttlNumber(&s, name)
		if err != nil {
			return nil, nil, err
		}
		if v != "" && w.expired(v) {
			rows = append(rows, slices.Clone(it.Key()))
		}
	}
	if ok { // stopped at the chunk size: the current row is the next start
		next = slices.Clone(it.Key())
	}
	return rows, next, it.Error()
}

// expireRow deletes the item at row key row of table name (id) if it is
// still expired: it re-reads the catalog and the item under the item's
// lock, so an item updated since it was listed (a new TTL, or the
// attribute removed), or a table whose TTL was turned off or which was
// deleted, is left alone. The deletion expects the sweep's lease l, if
// any. It reports whether it deleted the item.
func (db *DB) expireRow(name string, id uint64, row []byte, w ttlWindow, l *lease) (bool, error) {
	t := db.ttlTable(name, id)
	if t == nil {
		return false, nil
	}
	k, err := t.keyFromRow(row)
	if err != nil {
		return false, err
	}
	r, err := db.writeItemBy(t, k, byTTL, l, func(old *storedItem) (attr.Item, bool, error) {
		if !old.found {
			return nil, false, nil
		}
		cur := db.ttlTable(name, id)
		if cur == nil {
			return nil, false, nil
		}
		v, err := ttlNumber(old, cur.meta.TTLAttribute)
		if err != nil || v == "" || !w.expired(v) {
			return nil, false, err
		}
		return nil, true, nil
	})
	return r.wrote, err
}

// ttlTable returns the table name if it is still the table id and has TTL
// on, or nil.
func (db *DB) ttlTable(name string, id uint64) *table {
	// The catalog as this node has it, which the sweep started from.
	t := db.lookupCached(name)
	if t == nil || t.meta.ID != id || !t.meta.TTLEnabled {
		return nil
	}
	return t
}

// keyFromRow locates the item whose base row key is row.
func (t *table) keyFromRow(row []byte) (itemKey, error) {
	var skTypes []attr.Type
	if t.rangeName != "" {
		skTypes = []attr.Type{t.rangeType}
	}
	pk, sk, rest, err := keys.DecodeRowKey(row, []attr.Type{t.hashType}, skTypes)
	if err != nil {
		return itemKey{}, fmt.Errorf("decode row key: %w", err)
	}
	if len(rest) != 0 {
		return itemKey{}, fmt.Errorf("decode row key: %d bytes after the key", len(rest))
	}
	k := itemKey{pk: pk[0], row: row}
	if len(sk) > 0 {
		k.sk = sk[0]
	}
	return k, nil
}

// ttlNumber returns the text of the stored item's top-level attribute
// name if it is a Number, or "" (absent, or another type). It reads only
// what it must of the item's encoding (see attr.TopLevelNumber); should
// that fail, it decodes the whole item, which reports the corruption.
func ttlNumber(s *storedItem, name string) (string, error) {
	if !s.done {
		if v, ok := attr.TopLevelNumber(s.body, name); ok {
			return v, nil
		}
	}
	it, err := s.Item()
	if err != nil {
		return "", err
	}
	if v, ok := it[name]; ok && v.Type == attr.TypeN {
		return v.S, nil
	}
	return "", nil
}
