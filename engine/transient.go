package engine

import (
	"maps"
	"time"
)

// Transient states, when asked for (Options.TransientDelay).
//
// DynamoDB answers CreateTable with a CREATING table, UpdateTable with an
// UPDATING one and DeleteTable with a DELETING one, and the table becomes
// ACTIVE (or disappears) seconds to minutes later; a global secondary
// index that UpdateTable creates is CREATING, Backfilling, meanwhile.
// With a TransientDelay, dynago does the same for that long. The change
// itself is made at once, as without a delay; only the answers differ:
//
//   - item operations on a CREATING or DELETING table: ResourceNotFoundException
//     "Requested resource not found" (an UPDATING table serves them);
//   - UpdateTable of a table not ACTIVE, DeleteTable of a CREATING or
//     UPDATING table: ResourceInUseException;
//   - DeleteTable of a DELETING table: its description again, no error;
//   - CreateTable of a DELETING table's name: "Table already exists";
//   - a read of an index still CREATING: "Cannot read from backfilling
//     global secondary index" (engine/index_read.go).
//
// The state is the catalog entry's Transition and TransitionEnds (and
// IndexesActiveAt); the status is computed from db.now, so tests can
// drive it with Options.Now, and a restart mid-transition ends in the
// right state. Sources are cited in e2e/transient_test.go.

// tableStatus returns t's TableStatus now.
func (db *DB) tableStatus(t *table) string {
	if t.meta.Transition != "" && db.now().Before(t.meta.TransitionEnds) {
		return t.meta.Transition
	}
	return TableStatusActive
}

// gone reports whether t, once DELETING, has finished being deleted.
func (db *DB) gone(t *table) bool {
	return t.meta.Transition == TableStatusDeleting && !db.now().Before(t.meta.TransitionEnds)
}

// startTransition puts m in status for the TransientDelay from now, or
// clears its transition when there is no delay.
func (db *DB) startTransition(m *tableMeta, status string, now time.Time) {
	if db.opts.TransientDelay <= 0 {
		m.Transition, m.TransitionEnds = "", time.Time{}
		return
	}
	m.Transition, m.TransitionEnds = status, now.Add(db.opts.TransientDelay)
}

// inUse returns the ResourceInUseException of a table change that meets
// t in a transient state, or nil when t is ACTIVE.
func (db *DB) inUse(t *table) error {
	switch db.tableStatus(t) {
	case TableStatusCreating:
		return InUse(msgTableBeingCreated(t.meta.Name))
	case TableStatusUpdating:
		return InUse(msgTableBeingUpdated(t.meta.Name))
	case TableStatusDeleting:
		return InUse(msgTableBeingDeleted(t.meta.Name))
	}
	return nil
}

// pendingIndexes returns the names of t's indexes still CREATING by
// their IndexesActiveAt, or nil.
func (db *DB) pendingIndexes(t *table) map[string]bool {
	if len(t.meta.IndexesActiveAt) == 0 {
		return nil
	}
	now := db.now()
	var p map[string]bool
	for name, at := range t.meta.IndexesActiveAt {
		if now.Before(at) {
			if p == nil {
				p = map[string]bool{}
			}
			p[name] = true
		}
	}
	return p
}

// indexesActiveAt returns the IndexesActiveAt of a table whose indexes
// are now m's: the entries still ahead of now, of indexes that still
// exist, plus created (an index id, 0 for none) from now on when there
// is a delay. The old map is shared with readers and is not changed.
func (db *DB) indexesActiveAt(m *tableMeta, created uint32, now time.Time) map[string]time.Time {
	var next map[string]time.Time
	keep := func(name string, at time.Time) {
		if next == nil {
			next = map[string]time.Time{}
		}
		next[name] = at
	}
	for _, im := range m.Indexes {
		if at, ok := m.IndexesActiveAt[im.Name]; ok && now.Before(at) {
			keep(im.Name, at)
		}
		if created != 0 && im.ID == created && db.opts.TransientDelay > 0 {
			keep(im.Name, now.Add(db.opts.TransientDelay))
		}
	}
	return next
}

// transientItemView is tableOrNotFound's answer for a table with a
// transition: not found while CREATING or DELETING; otherwise t, with
// the indexes still CREATING marked as backfilling so reads refuse them.
// Writes maintain indexes through the catalog's own table (lookup), not
// this view.
func (db *DB) transientItemView(t *table) (*table, error) {
	switch db.tableStatus(t) {
	case TableStatusCreating, TableStatusDeleting:
		return nil, NotFound(msgTableNotActive)
	}
	pending := db.pendingIndexes(t)
	if len(pending) == 0 {
		return t, nil
	}
	v := *t
	v.indexes = make([]*index, len(t.indexes))
	for i, ix := range t.indexes {
		v.indexes[i] = ix
		if pending[ix.meta.Name] && !ix.meta.Backfilling {
			c := *ix
			c.meta.Backfilling = true
			v.indexes[i] = &c
		}
	}
	return &v, nil
}

// transientIndexStatus sets the status of d's global secondary indexes
// by t's transition: all CREATING while the table is (without
// Backfilling), and CREATING, Backfilling, those UpdateTable created
// that are not yet due.
func (db *DB) transientIndexStatus(t *table, d *TableDescription) {
	if t.meta.Transition == "" && len(t.meta.IndexesActiveAt) == 0 {
		return
	}
	creating := db.tableStatus(t) == TableStatusCreating
	pending := db.pendingIndexes(t)
	for i := range d.GlobalSecondaryIndexes {
		g := &d.GlobalSecondaryIndexes[i]
		switch {
		case creating:
			g.IndexStatus, g.Backfilling = IndexStatusCreating, nil
		case pending[g.IndexName]:
			g.IndexStatus, g.Backfilling = IndexStatusCreating, ptr(true)
		}
	}
}

// purgeDeleted drops from the catalog the tables whose deletion has
// ended. Open calls it; until then lookup and ListTables skip them.
func (db *DB) purgeDeleted() error {
	cur := *db.tables.Load()
	var done []string
	for name, t := range cur {
		if db.gone(t) {
			done = append(done, name)
		}
	}
	if len(done) == 0 {
		return nil
	}
	b := db.store.NewBatch()
	defer b.Close()
	next := maps.Clone(cur)
	for _, name := range done {
		if err := b.Delete(metaTableKey(name)); err != nil {
			return err
		}
		delete(next, name)
	}
	if err := b.Commit(); err != nil {
		return err
	}
	db.tables.Store(&next)
	return nil
}
