package engine

import (
	"github.com/dynago/dynago/dynamo"
	"maps"
	"slices"
	"sort"
	"time"
)

// Transient states, when asked for (Options.TransientDelay).
//
// DynamoDB answers CreateTable with a CREATING table, UpdateTable with an
// UPDATING one and DeleteTable with a DELETING one, and the table becomes
// ACTIVE (or disappears) seconds to minutes later; a global secondary
// index that UpdateTable creates is CREATING meanwhile, Backfilling false
// (its resource allocation phase), then CREATING, Backfilling true, with
// the table ACTIVE, while its backfill runs (DDB-TABLE-148, -138).
// With a TransientDelay, dynago does the same for that long; a new GSI
// goes through both phases, each for the delay: resource allocation, then
// backfill, reported so (and admitting what DynamoDB admits then) even
// when dynago's own backfill has ended. The change itself is made at
// once, as without a delay; only the answers differ:
//
//   - item operations on a CREATING or DELETING table: ResourceNotFoundException
//     "Requested resource not found" (an UPDATING table serves them);
//   - UpdateTable of a table not ACTIVE (but for what an UPDATING table
//     admits, updatingRefusal), DeleteTable of a table not ACTIVE:
//     ResourceInUseException, worded by what runs;
//   - CreateTable of a CREATING table's name: "Table is being created";
//     of an UPDATING or DELETING one's: "Table already exists";
//   - a read of an index still CREATING: "Cannot read from backfilling
//     global secondary index" (engine/index_read.go);
//   - a GSI deleted by UpdateTable stays in the description, DELETING (the
//     table UPDATING), its rows gone: reads of it answer as for an index
//     the table does not have; a GSI whose throughput changed is UPDATING
//     (the table ACTIVE); DeleteTable meanwhile is refused;
//   - TagResource of a CREATING or DELETING table, UpdateTimeToLive of
//     one: ResourceInUseException; an UPDATING table admits both;
//   - a transition beyond maxTablesInTransition: LimitExceededException.
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
	return dynamo.TableStatusActive
}

// gone reports whether t, once DELETING, has finished being deleted.
func (db *DB) gone(t *table) bool {
	return t.meta.Transition == dynamo.TableStatusDeleting && !db.now().Before(t.meta.TransitionEnds)
}

// startTransition puts m in status for the TransientDelay from now, or
// clears its transition when there is no delay.
func (db *DB) startTransition(m *tableMeta, status string, now time.Time) {
	m.TransitionCause = ""
	if db.opts.TransientDelay <= 0 {
		m.Transition, m.TransitionEnds = "", time.Time{}
		return
	}
	m.Transition, m.TransitionEnds = status, now.Add(db.opts.TransientDelay)
}

// Index statuses of a transition.
const (
	IndexStatusUpdating = "UPDATING"
	IndexStatusDeleting = "DELETING"
)

// maxTablesInTransition is how many tables may be CREATING, UPDATING or
// DELETING at once: "up to 500 simultaneous table operations are allowed
// per account" (AWS's API reference, LimitExceededException).
const maxTablesInTransition = 500

// indexTransition is a global secondary index UPDATING (its throughput
// changed) or DELETING (Deleted is its definition; its rows are gone
// already) until Ends.
type indexTransition struct {
	Status  string     `json:"status"`
	Ends    time.Time  `json:"ends"`
	Deleted *indexMeta `json:"deleted,omitempty"`
}

// Causes of an UPDATING table.
const (
	causeBilling  = "billing"  // a billing mode switch
	causeIOPS     = "iops"     // a provisioned throughput change
	causeStream   = "stream"   // a stream enabled or disabled
	causeClass    = "class"    // a table class change
	causeSSE      = "sse"      // an encryption change
	causeProtect  = "protect"  // deletion protection
	causeIndex    = "index"    // a GSI created or deleted
	causeOnDemand = "ondemand" // OnDemandThroughput
)

// updateCause returns what in changes first, as updatingCause reads it,
// for a table whose billing mode was oldMode.
func updateCause(in *dynamo.UpdateTableInput, oldMode string) string {
	if onlineIndexOps(in) > 0 {
		return causeIndex
	}
	switch {
	case in.BillingMode != "" && in.BillingMode != oldMode:
		return causeBilling
	case in.ProvisionedThroughput != nil:
		return causeIOPS
	case in.StreamSpecification != nil:
		return causeStream
	case in.TableClass != "":
		return causeClass
	case in.SSESpecification != nil:
		return causeSSE
	case in.OnDemandThroughput != nil:
		return causeOnDemand
	}
	return causeProtect
}

// setCause records cause as what m's UPDATING transition is for.
func setCause(m *tableMeta, cause string) {
	if m.Transition != dynamo.TableStatusUpdating {
		return
	}
	m.TransitionCause = cause
}

// updatingCause returns the cause of t's UPDATING, or "" when t is not
// UPDATING or its cause is unknown.
func (db *DB) updatingCause(t *table) string {
	if db.tableStatus(t) != dynamo.TableStatusUpdating {
		return ""
	}
	return t.meta.TransitionCause
}

// indexTransitions returns m's index transitions that have not ended at
// now, in a new map, or nil.
func indexTransitions(m *tableMeta, now time.Time) map[string]indexTransition {
	var out map[string]indexTransition
	for name, x := range m.IndexTransitions {
		if now.Before(x.Ends) {
			if out == nil {
				out = map[string]indexTransition{}
			}
			out[name] = x
		}
	}
	return out
}

// deletingIndexes returns the sorted names of t's indexes DELETING now.
func (db *DB) deletingIndexes(t *table) []string {
	var names []string
	for name, x := range indexTransitions(&t.meta, db.now()) {
		if x.Status == IndexStatusDeleting {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}

// inUse returns the ResourceInUseException of a table change (DeleteTable,
// UpdateTimeToLive) that meets t in a transient state, or nil when t and
// its indexes are ACTIVE. An index in flight is named before an UPDATING
// table (DDB-TABLE-376: DeleteTable while a GSI is DELETING).
func (db *DB) inUse(t *table) error {
	switch db.tableStatus(t) {
	case dynamo.TableStatusCreating:
		return dynamo.InUse(msgTableBeingCreated(t.meta.Name))
	case dynamo.TableStatusDeleting:
		return dynamo.InUse(msgTableBeingDeleted(t.meta.Name))
	}
	if len(db.pendingIndexes(t)) > 0 || len(indexTransitions(&t.meta, db.now())) > 0 {
		return dynamo.InUse(msgIndexesInFlight)
	}
	if db.tableStatus(t) == dynamo.TableStatusUpdating {
		// DeleteTable (DDB-TABLE-369; -119 while the stream is switched).
		if db.updatingCause(t) == causeStream {
			return dynamo.InUse(msgDeleteWhileStream)
		}
		return dynamo.InUse(msgTableInProcessOfUpdate(t.meta.Name))
	}
	return nil
}

// updateInUse is inUse for UpdateTable, by the phase of the global
// secondary index change that runs (the ack-api-quirks lab, recorded
// 2026-10-08/09):
//
//   - while a GSI is DELETING, any action on that index is refused with
//     it named (DDB-TABLE-375, -376: an Update; -163: a Create of the
//     same name, a second Delete), a billing mode switch or throughput
//     change names the deletion (-375, -376; a re-sent BillingMode that
//     switches nothing is admitted, -375), and so is OnDemandThroughput
//     (-375);
//   - while a GSI is in its resource allocation phase (CREATING,
//     Backfilling false: dynago's TransientDelay window), a Delete or an
//     Update of it is refused (-149, -163), a throughput change names the
//     creation (-163), a stream change and OnDemandThroughput are refused
//     (-458);
//   - in either phase a Create or Delete of another index is
//     LimitExceededException (-159, -163); once the new index backfills
//     (the table ACTIVE: the second TransientDelay after its Create, or
//     while dynago's backfill runs, applyGSIUpdates) its own Delete is
//     admitted (-149), and so are a table throughput change and
//     deletion protection (-163), while another's Create or Delete still
//     is not.
//
// Then an UPDATING table refuses what its running change rules out
// (updatingRefusal), and an Update of an index UPDATING is refused.
func (db *DB) updateInUse(t *table, in *dynamo.UpdateTableInput) error {
	switch db.tableStatus(t) {
	case dynamo.TableStatusCreating, dynamo.TableStatusDeleting:
		return db.inUse(t)
	}
	trans := indexTransitions(&t.meta, db.now())
	odt := in.OnDemandThroughput != nil && onDemandMember(in.OnDemandThroughput) != ""
	switching := in.BillingMode != "" && in.BillingMode != t.meta.BillingMode
	deleting := db.deletingIndexes(t)
	if len(deleting) > 0 {
		for _, u := range in.GlobalSecondaryIndexUpdates {
			if name := gsiActionName(u); slices.Contains(deleting, name) {
				return dynamo.InUse(msgIndexBeingDeleted(t.meta.Name, name))
			}
		}
		for _, u := range in.VectorIndexUpdates {
			if name := vectorActionName(u); slices.Contains(deleting, name) {
				return dynamo.InUse(msgIndexBeingDeleted(t.meta.Name, name))
			}
		}
		if switching || in.ProvisionedThroughput != nil {
			return dynamo.InUse(msgIOPSIndexDeleting(t.meta.Name, deleting))
		}
		if odt && t.meta.BillingMode == dynamo.BillingModePayPerRequest {
			return dynamo.InUse(msgOnDemandWhileIndex("deletion", deleting))
		}
	}
	// A vector index Create of the name of an index being created
	// (ExtendDB measured it against DynamoDB, 2026-08-06), and a Delete
	// of one in its resource allocation phase (2026-08-19), as for GSIs.
	pending := db.allocatingIndexes(t)
	for _, u := range in.VectorIndexUpdates {
		switch {
		case u.Create != nil && db.creatingIndex(t, u.Create.IndexName):
			return dynamo.InUse(msgIndexBeingCreated(t.meta.Name, u.Create.IndexName))
		case u.Delete != nil && pending[u.Delete.IndexName]:
			return dynamo.InUse(msgDeleteInAllocation(t.meta.Name, u.Delete.IndexName))
		}
	}
	if len(pending) > 0 {
		names := slices.Sorted(maps.Keys(pending))
		for _, u := range in.GlobalSecondaryIndexUpdates {
			switch {
			case u.Delete != nil && pending[u.Delete.IndexName]:
				return dynamo.InUse(msgDeleteInAllocation(t.meta.Name, u.Delete.IndexName))
			case u.Update != nil && pending[u.Update.IndexName]:
				return dynamo.InUse(msgIndexNotBackfilling(t.meta.Name, u.Update.IndexName))
			}
		}
		if in.ProvisionedThroughput != nil {
			return dynamo.InUse(msgIOPSIndexCreating(t.meta.Name, names))
		}
		if in.StreamSpecification != nil {
			return dynamo.InUse(msgStreamWhileIndex)
		}
		if odt && t.meta.BillingMode == dynamo.BillingModePayPerRequest {
			return dynamo.InUse(msgOnDemandWhileIndex("creation", names))
		}
		// A WarmThroughput change then is an HTTP 500 (the ack-api-quirks
		// lab, DDB-TABLE-458, a table's, recorded whole).
		if in.WarmThroughput != nil {
			return dynamo.InternalServerErrorText(msgWarmDuringAllocation)
		}
	}
	backfilling := db.backfillingIndexes(t)
	if len(deleting) > 0 || len(pending) > 0 || len(backfilling) > 0 {
		for _, u := range in.GlobalSecondaryIndexUpdates {
			if u.Create != nil || u.Delete != nil && !backfilling[u.Delete.IndexName] {
				return dynamo.LimitExceeded(msgOneOnlineIndex)
			}
		}
		for _, u := range in.VectorIndexUpdates {
			if u.Create != nil || u.Delete != nil && !backfilling[u.Delete.IndexName] {
				return dynamo.LimitExceeded(msgOneOnlineIndex)
			}
		}
	}
	if db.tableStatus(t) == dynamo.TableStatusUpdating {
		if err := db.updatingRefusal(t, in); err != nil {
			return err
		}
	}
	for _, u := range in.GlobalSecondaryIndexUpdates {
		if u.Update != nil && trans[u.Update.IndexName].Status == IndexStatusUpdating {
			return dynamo.InUse(msgIndexBeingUpdated(t.meta.Name, u.Update.IndexName))
		}
	}
	return nil
}

// vectorActionName returns the index a VectorIndexUpdate names.
func vectorActionName(u dynamo.VectorIndexUpdate) string {
	switch {
	case u.Create != nil:
		return u.Create.IndexName
	case u.Delete != nil:
		return u.Delete.IndexName
	}
	return ""
}

// creatingIndex reports whether t's index name is CREATING: in either
// phase of a TransientDelay, or while its backfill runs.
func (db *DB) creatingIndex(t *table, name string) bool {
	if db.pendingIndexes(t)[name] {
		return true
	}
	for _, ix := range t.everyIndex() {
		if ix.meta.Name == name && ix.meta.Backfilling {
			return true
		}
	}
	return false
}

// gsiActionName returns the index a GlobalSecondaryIndexUpdate names.
func gsiActionName(u dynamo.GlobalSecondaryIndexUpdate) string {
	switch {
	case u.Create != nil:
		return u.Create.IndexName
	case u.Update != nil:
		return u.Update.IndexName
	case u.Delete != nil:
		return u.Delete.IndexName
	}
	return ""
}

// updatingRefusal is UpdateTable's answer on an UPDATING table, by what
// keeps it UPDATING (the ack-api-quirks lab, recorded 2026-10-08/09):
//
//   - deletion protection is admitted whatever runs (DDB-TABLE-119, -369,
//     -376, -458), and so is an encryption change during a stream switch
//     or a GSI creation (DDB-TABLE-119, -458);
//   - a GSI Create is admitted during an encryption or deletion
//     protection change (DDB-TABLE-175), a GSI Update of another index
//     while one is created or deleted (DDB-TABLE-163), and the billing
//     mode the table has while one is DELETING (DDB-TABLE-375);
//   - during a throughput or billing mode change: throughput or billing
//     mode "Table IOPS are currently being updated", a stream "Can't
//     enable or disable stream while table IOPS are being updated", a
//     GSI Create or Delete "Can't create or delete indexes while table
//     IOPS are being updated" (DDB-TABLE-369, -175), and during a billing
//     mode switch OnDemandThroughput is judged by the mode the table had
//     before the switch, then "cannot be updated while BillingMode update
//     is in progress" (DDB-TABLE-369);
//   - during a stream switch or a table class change, a GSI Create or
//     Delete names that change (DDB-TABLE-175);
//   - anything else: "Table is being updated: X" (no recording of each
//     pair; the lab quotes the other texts it saw only in part).
func (db *DB) updatingRefusal(t *table, in *dynamo.UpdateTableInput) error {
	cause := db.updatingCause(t)
	createOrDelete, creates := onlineIndexOps(in) > 0, false
	for _, u := range in.GlobalSecondaryIndexUpdates {
		if u.Create != nil {
			creates = true
		}
	}
	for _, u := range in.VectorIndexUpdates {
		if u.Create != nil {
			creates = true
		}
	}
	odt := in.OnDemandThroughput != nil && onDemandMember(in.OnDemandThroughput) != ""
	onlyProtect := in.DeletionProtectionEnabled != nil && in.BillingMode == "" && in.ProvisionedThroughput == nil &&
		in.StreamSpecification == nil && in.SSESpecification == nil && in.TableClass == "" && !odt &&
		len(in.GlobalSecondaryIndexUpdates) == 0
	onlySSE := in.SSESpecification != nil && in.DeletionProtectionEnabled == nil && in.BillingMode == "" &&
		in.ProvisionedThroughput == nil && in.StreamSpecification == nil && in.TableClass == "" && !odt &&
		len(in.GlobalSecondaryIndexUpdates) == 0
	gsiUpdatesOnly := len(in.GlobalSecondaryIndexUpdates) > 0 && !createOrDelete && in.BillingMode == "" &&
		in.ProvisionedThroughput == nil && in.StreamSpecification == nil && in.SSESpecification == nil &&
		in.TableClass == "" && in.DeletionProtectionEnabled == nil && !odt
	sameBillingOnly := in.BillingMode != "" && in.BillingMode == t.meta.BillingMode && in.ProvisionedThroughput == nil &&
		in.StreamSpecification == nil && in.SSESpecification == nil && in.TableClass == "" &&
		in.DeletionProtectionEnabled == nil && !odt && len(in.GlobalSecondaryIndexUpdates) == 0
	switch {
	case onlyProtect:
		return nil
	case onlySSE && (cause == causeStream || cause == causeIndex && len(db.allocatingIndexes(t)) > 0):
		return nil
	case gsiUpdatesOnly && cause == causeIndex:
		// An Update of another GSI while one is created or deleted
		// (DDB-TABLE-163); updateInUse refused those of that index.
		return nil
	case sameBillingOnly && cause == causeIndex && len(db.deletingIndexes(t)) > 0:
		// The billing mode the table has, re-sent while a GSI is
		// DELETING (DDB-TABLE-375).
		return nil
	}
	switch cause {
	case causeSSE, causeProtect:
		if creates {
			return nil
		}
	case causeBilling, causeIOPS:
		switch {
		case in.BillingMode != "" || in.ProvisionedThroughput != nil:
			return dynamo.InUse(msgIOPSBeingUpdated(t.meta.Name))
		case in.StreamSpecification != nil:
			return dynamo.InUse(msgStreamWhileIOPS(t.meta.Name))
		case createOrDelete:
			return dynamo.InUse(msgIndexWhileIOPS(t.meta.Name))
		case odt && cause == causeBilling:
			if t.meta.BillingMode == dynamo.BillingModePayPerRequest {
				// Before the switch the table was PROVISIONED.
				return invalid("%s for OnDemandThroughput cannot be specified when the table BillingMode is PROVISIONED", onDemandMember(in.OnDemandThroughput))
			}
			return dynamo.InUse(msgOnDemandWhileBilling)
		}
	case causeStream:
		if createOrDelete {
			return dynamo.InUse(msgIndexWhileStream)
		}
	case causeClass:
		if createOrDelete {
			return dynamo.InUse(msgIndexWhileClass)
		}
	}
	return dynamo.InUse(msgTableBeingUpdated(t.meta.Name))
}

// gsiThroughputOnly reports whether in changes only GSI throughput: the
// table stays ACTIVE and the index goes UPDATING (DDB-TABLE-148).
func gsiThroughputOnly(in *dynamo.UpdateTableInput) bool {
	if in.BillingMode != "" || in.ProvisionedThroughput != nil || in.StreamSpecification != nil ||
		in.SSESpecification != nil || in.TableClass != "" || in.DeletionProtectionEnabled != nil ||
		in.OnDemandThroughput != nil || len(in.GlobalSecondaryIndexUpdates) == 0 {
		return false
	}
	for _, u := range in.GlobalSecondaryIndexUpdates {
		if u.Update == nil || u.Create != nil || u.Delete != nil {
			return false
		}
	}
	return true
}

// tooManyTransitions returns LimitExceededException when t would start a
// transition while maxTablesInTransition tables are in one already. Only
// with a TransientDelay: without one no table is ever in transition.
func (db *DB) tooManyTransitions(cur map[string]*table, t *table) error {
	now := db.now()
	if db.opts.TransientDelay <= 0 || t.meta.Transition == "" || !now.Before(t.meta.TransitionEnds) {
		return nil
	}
	if old := cur[t.meta.Name]; old != nil && old.meta.ID == t.meta.ID && db.tableStatus(old) != dynamo.TableStatusActive {
		return nil // already counted
	}
	n := 0
	for _, o := range cur {
		if o.meta.Transition != "" && now.Before(o.meta.TransitionEnds) {
			n++
		}
	}
	if n >= maxTablesInTransition {
		return dynamo.LimitExceeded(msgTooManyTransitions)
	}
	return nil
}

// pendingIndexes returns the names of t's indexes still CREATING by
// their IndexesActiveAt, in either phase, or nil.
func (db *DB) pendingIndexes(t *table) map[string]bool {
	return db.indexesIn(t, phaseAllocation, phaseBackfill)
}

// allocatingIndexes returns the names of t's indexes in their resource
// allocation phase, or nil.
func (db *DB) allocatingIndexes(t *table) map[string]bool {
	return db.indexesIn(t, phaseAllocation)
}

// backfillingIndexes returns the names of t's indexes in their reported
// backfill phase, or nil. An index whose backfill still runs after that
// is backfilling by the catalog (indexMeta.Backfilling).
func (db *DB) backfillingIndexes(t *table) map[string]bool {
	return db.indexesIn(t, phaseBackfill)
}

// Phases of a GSI that UpdateTable created under a TransientDelay: its
// IndexesActiveAt is twice the delay after the Create, the first delay
// its resource allocation, the second its backfill.
const (
	phaseNone = iota
	phaseAllocation
	phaseBackfill
)

// indexPhase returns the phase, by at (its IndexesActiveAt), of an index
// at now.
func (db *DB) indexPhase(at, now time.Time) int {
	switch {
	case !now.Before(at):
		return phaseNone
	case now.Before(at.Add(-db.opts.TransientDelay)):
		return phaseAllocation
	}
	return phaseBackfill
}

// indexesIn returns the names of t's indexes in one of phases now, or nil.
func (db *DB) indexesIn(t *table, phases ...int) map[string]bool {
	if len(t.meta.IndexesActiveAt) == 0 {
		return nil
	}
	now := db.now()
	var p map[string]bool
	for name, at := range t.meta.IndexesActiveAt {
		if slices.Contains(phases, db.indexPhase(at, now)) {
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
// exist, plus created (an index id, 0 for none) when there is a delay,
// twice the delay from now: its resource allocation phase, then its
// backfill phase (indexPhase). The old map is shared with readers and is
// not changed.
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
			keep(im.Name, now.Add(2*db.opts.TransientDelay))
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
	case dynamo.TableStatusCreating, dynamo.TableStatusDeleting:
		return nil, dynamo.NotFound(msgTableNotActive)
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
// Backfilling), and those UpdateTable created that are not yet due
// CREATING, Backfilling false for the first delay (resource allocation),
// then CREATING, Backfilling true for the second (the backfill phase,
// whether or not dynago's backfill has ended): the ack-api-quirks lab,
// DDB-TABLE-148, -138 and -165 (the UpdateTable answer too), recorded
// 2026-10-08. After that an index still backfilling is CREATING,
// Backfilling true (describeIndexes).
func (db *DB) transientIndexStatus(t *table, d *dynamo.TableDescription) {
	if t.meta.Transition == "" && len(t.meta.IndexesActiveAt) == 0 && len(t.meta.IndexTransitions) == 0 {
		return
	}
	creating := db.tableStatus(t) == dynamo.TableStatusCreating
	now := db.now()
	phases := map[string]int{}
	for name, at := range t.meta.IndexesActiveAt {
		phases[name] = db.indexPhase(at, now)
	}
	trans := indexTransitions(&t.meta, now)
	// Vector indexes: CREATING without Backfilling while CreateTable's
	// table is, and an index UpdateTable created CREATING, Backfilling
	// false then true, as a GSI (the facts of issue 30: dynoxide's
	// capture, eu-west-2 2026-08-11, and ExtendDB's measure, us-east-1
	// 2026-08-06).
	for i := range d.VectorIndexes {
		v := &d.VectorIndexes[i]
		switch {
		case creating:
			v.IndexStatus, v.Backfilling = dynamo.IndexStatusCreating, nil
		case phases[v.IndexName] == phaseAllocation:
			v.IndexStatus, v.Backfilling = dynamo.IndexStatusCreating, ptr(false)
		case phases[v.IndexName] == phaseBackfill:
			v.IndexStatus, v.Backfilling = dynamo.IndexStatusCreating, ptr(true)
		}
	}
	for i := range d.GlobalSecondaryIndexes {
		g := &d.GlobalSecondaryIndexes[i]
		switch {
		case creating:
			g.IndexStatus, g.Backfilling = dynamo.IndexStatusCreating, nil
		case phases[g.IndexName] == phaseAllocation:
			g.IndexStatus, g.Backfilling = dynamo.IndexStatusCreating, ptr(false)
		case phases[g.IndexName] == phaseBackfill:
			g.IndexStatus, g.Backfilling = dynamo.IndexStatusCreating, ptr(true)
		case trans[g.IndexName].Status == IndexStatusUpdating:
			g.IndexStatus = IndexStatusUpdating
		}
	}
	// A deleted index stays in the description, DELETING and empty,
	// until its transition ends (DDB-TABLE-148, -149, -376).
	added := false
	for name, x := range trans {
		if x.Status != IndexStatusDeleting || x.Deleted == nil {
			continue
		}
		im := x.Deleted
		if im.vector() {
			v := vectorDescription(im, t.arn(db)+"/index/"+name)
			v.IndexStatus = IndexStatusDeleting
			d.VectorIndexes = append(d.VectorIndexes, v)
			sort.Slice(d.VectorIndexes, func(i, j int) bool { return d.VectorIndexes[i].IndexName < d.VectorIndexes[j].IndexName })
			continue
		}
		g := dynamo.GlobalSecondaryIndexDescription{
			IndexName: name, KeySchema: apiKeys(im.KeySchema), Projection: im.Projection.api(),
			IndexStatus: IndexStatusDeleting, OnDemandThroughput: im.OnDemand.api(),
			IndexArn:              t.arn(db) + "/index/" + name,
			ProvisionedThroughput: &dynamo.ProvisionedThroughputDescription{},
		}
		if im.Throughput != nil {
			tp := im.Throughput.api()
			g.ProvisionedThroughput = &tp
		}
		d.GlobalSecondaryIndexes = append(d.GlobalSecondaryIndexes, g)
		added = true
	}
	if added {
		sort.Slice(d.GlobalSecondaryIndexes, func(i, j int) bool {
			return d.GlobalSecondaryIndexes[i].IndexName < d.GlobalSecondaryIndexes[j].IndexName
		})
	}
}

// purgeDeleted drops from the catalog the tables whose deletion has
// ended. Open and ListTables call it, and every catalog change drops them
// too (putTableLocked); until then lookup and ListTables skip them. The
// caller holds db.ddl, or is Open.
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
		b.Expect(metaTableKey(name), cur[name].raw, true)
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
