package engine

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/internal/keys"
	"github.com/dynago/dynago/internal/storage"
)

// Catalog rows live in the keys.NSMeta namespace:
//
//	NSMeta 't' name       -> JSON tableMeta
//	NSMeta 'q'            -> counter: last table id handed out
//	NSMeta 's' id(8 BE)   -> counters: item count, total item bytes
//	NSMeta 'x' id(8 BE) indexID(4 BE) -> counters: index entry count, bytes
//	NSMeta 'f' id(8 BE) indexID(4 BE) -> a running backfill's cursor
//
// The tags are in engine/keytags.go.

func metaTableKey(name string) []byte {
	return append([]byte{keys.NSMeta, metaTagTable}, name...)
}

func metaSeqKey() []byte { return []byte{keys.NSMeta, metaTagSeq} }

func metaStatsKey(id uint64) []byte {
	k := []byte{keys.NSMeta, metaTagStats, 0, 0, 0, 0, 0, 0, 0, 0}
	binary.BigEndian.PutUint64(k[2:], id)
	return k
}

// tableMeta is a table's definition as stored in the catalog. It is JSON on
// disk: small, rarely written, and easy to evolve by adding fields.
type tableMeta struct {
	Name                 string        `json:"name"`
	ID                   uint64        `json:"id"`
	UUID                 string        `json:"uuid"`
	Created              time.Time     `json:"created"`
	AttributeDefinitions []catAttr     `json:"attributeDefinitions"`
	KeySchema            []catKey      `json:"keySchema"`
	BillingMode          string        `json:"billingMode"`
	BillingModeSet       bool          `json:"billingModeSet,omitempty"`
	PayPerRequestSince   time.Time     `json:"payPerRequestSince,omitzero"`
	Throughput           catThroughput `json:"throughput"`
	OnDemand             *catOnDemand  `json:"onDemand,omitempty"`
	Stream               *catStream    `json:"stream,omitempty"`
	StreamLabel          string        `json:"streamLabel,omitempty"`
	// StreamID is the enabled stream's id (engine/streams.go); 0 when the
	// table's stream is off.
	StreamID uint64 `json:"streamID,omitempty"`
	// Replicas is the table's replica group (engine/replicas.go): every
	// region with a replica, this one included, sorted; none for a table
	// without replicas.
	Replicas []string `json:"replicas,omitempty"`
	// Time to Live (engine/ttl.go). TTLAttribute is cleared when TTL is
	// disabled: DescribeTimeToLive then shows no attribute.
	TTLEnabled         bool      `json:"ttlEnabled,omitempty"`
	TTLAttribute       string    `json:"ttlAttribute,omitempty"`
	TTLUpdated         time.Time `json:"ttlUpdated,omitzero"`
	SSE                *catSSE   `json:"sse,omitempty"`
	TableClass         string    `json:"tableClass,omitempty"`
	TableClassUpdated  time.Time `json:"tableClassUpdated,omitzero"`
	DeletionProtection bool      `json:"deletionProtection"`
	Tags               []catTag  `json:"tags,omitempty"`
	// Indexes are the table's secondary indexes; LastIndexID is the last
	// index id handed out, so an id is never reused within a table.
	Indexes     []indexMeta `json:"indexes,omitempty"`
	LastIndexID uint32      `json:"lastIndexID,omitempty"`
	// Transition is CREATING, UPDATING or DELETING when the last
	// CreateTable, UpdateTable or DeleteTable left the table in that state
	// until TransitionEnds (Options.TransientDelay); the status is
	// computed from the clock, so a restart mid-transition ends in the
	// right state. A DELETING table's rows are gone already; its catalog
	// entry stays until TransitionEnds (engine/transient.go).
	Transition     string    `json:"transition,omitempty"`
	TransitionEnds time.Time `json:"transitionEnds,omitzero"`
	// TransitionCause is what an UPDATING Transition is for (one of the
	// cause constants of engine/transient.go), so that a request meeting
	// it is refused in the words DynamoDB uses for that change.
	TransitionCause string `json:"transitionCause,omitempty"`
	// IndexesActiveAt holds, for each global secondary index UpdateTable
	// created under a TransientDelay, when it stops being CREATING at the
	// earliest (its backfill must have ended too).
	IndexesActiveAt map[string]time.Time `json:"indexesActiveAt,omitempty"`
	// IndexTransitions holds, under a TransientDelay, the global secondary
	// indexes UpdateTable deleted (DELETING) or whose throughput it
	// changed (UPDATING), until each ends (engine/transient.go).
	IndexTransitions map[string]indexTransition `json:"indexTransitions,omitempty"`
	// Warm is the table's warm throughput high-water mark
	// (engine/describe_table.go).
	Warm warmUnits `json:"warm,omitzero"`
	// WarmJobs holds, under a TransientDelay, the warm throughput changes
	// still running, of the table (key "") and of its GSIs (by name)
	// (engine/warm_throughput.go).
	WarmJobs map[string]warmJob `json:"warmJobs,omitempty"`
	// UndoLog is the id of the table's undo log, 0 when it has none
	// (engine/undo.go): it is on while point-in-time recovery is, or a
	// backup of the table is being copied.
	UndoLog uint64 `json:"undoLog,omitempty"`
	// PITR is the table's point-in-time recovery (engine/pitr.go).
	PITR *pitrMeta `json:"pitr,omitempty"`
	// Restore is set on a table made by a restore (engine/restore.go).
	Restore *restoreMeta `json:"restore,omitempty"`
	// Insights holds Contributor Insights' state of the table (key "")
	// and of its global secondary indexes (by name), for those
	// UpdateContributorInsights has set (engine/insights.go).
	Insights map[string]insightsMeta `json:"insights,omitempty"`
	// Policies holds the resource-based policies of the table (key "")
	// and of its streams (by stream label) (engine/policy.go).
	// PolicyRevision is the last revision id handed out to any of them,
	// so a revision id is never given twice within the table.
	Policies       map[string]policyMeta `json:"policies,omitempty"`
	PolicyRevision int64                 `json:"policyRevision,omitempty"`
	// Kinesis holds the table's Kinesis streaming destinations, newest
	// first (engine/kinesis.go).
	Kinesis []kinesisMeta `json:"kinesis,omitempty"`
}

// table is the in-memory form of a table: its meta plus what the data path
// needs precomputed. A *table is immutable; DDL replaces it in the catalog.
type table struct {
	meta tableMeta
	// raw is the catalog entry meta was read from or written as; on a
	// shared store writes expect it (engine/shared.go).
	raw []byte

	hashName  string
	hashType  attr.Type
	rangeName string // "" when the table has no sort key
	rangeType attr.Type

	// indexes are the secondary indexes (GSIs and LSIs), sorted by name.
	indexes []*index
	// vectors are the vector indexes, sorted by name (engine/index.go).
	vectors []*index
	// primary is the table itself as index 0: its key, all attributes
	// projected. A read goes through it or one of indexes (keyspace).
	primary *index

	// schema describes the table to a statement planner (TableSchema).
	schema *Schema
	// statsKey is the key of the table's item count and bytes
	// (metaStatsKey), which every item write adds to.
	statsKey []byte
	// denies are the Deny statements of the table's and its streams'
	// resource-based policies, by the key of meta.Policies; nil when the
	// table has no policy (engine/policy.go).
	denies map[string][]denyRule
	// lag is what the table's dynago:gsi-lag and dynago:stale-reads
	// tags set, nil without them (engine/lag.go).
	lag *tableLag
	// enforce is the table's dynago:enforce-capacity tag: 1 on, -1 off,
	// 0 as the DB's Options.EnforceCapacity (engine/throttle.go).
	enforce int8
}

func newTable(m tableMeta) *table {
	t := &table{meta: m, statsKey: metaStatsKey(m.ID), lag: parseTableLag(m.Tags)}
	types := map[string]attr.Type{}
	for _, d := range m.AttributeDefinitions {
		types[d.AttributeName] = attr.ParseType(d.AttributeType)
	}
	for _, k := range m.KeySchema {
		switch k.KeyType {
		case dynamo.KeyTypeHash:
			t.hashName, t.hashType = k.AttributeName, types[k.AttributeName]
		case dynamo.KeyTypeRange:
			t.rangeName, t.rangeType = k.AttributeName, types[k.AttributeName]
		}
	}
	t.primary = newIndex(indexMeta{KeySchema: m.KeySchema, Projection: catProjection{ProjectionType: dynamo.ProjectionAll}}, types)
	for _, im := range m.Indexes {
		if im.vector() {
			t.vectors = append(t.vectors, newIndex(im, types))
			continue
		}
		t.indexes = append(t.indexes, newIndex(im, types))
	}
	sort.Slice(t.indexes, func(i, j int) bool { return t.indexes[i].meta.Name < t.indexes[j].meta.Name })
	sort.Slice(t.vectors, func(i, j int) bool { return t.vectors[i].meta.Name < t.vectors[j].meta.Name })
	for _, ix := range append([]*index{t.primary}, t.indexes...) {
		ix.rowKey = t.rowKeyOf(ix)
		for _, a := range ix.rowKey {
			ix.rowKeyNames = append(ix.rowKeyNames, a.name)
		}
		slices.Sort(ix.rowKeyNames)
	}
	t.schema = schemaOf(t)
	t.denies = compilePolicies(m.Policies)
	t.enforce = tagEnforcement(m.Tags)
	return t
}

func (t *table) arn(db *DB) string {
	return fmt.Sprintf("arn:aws:dynamodb:%s:%s:table/%s", db.opts.Region, db.opts.AccountID, t.meta.Name)
}

// loadCatalog reads every table definition into memory.
func (db *DB) loadCatalog() error {
	m := map[string]*table{}
	lower := []byte{keys.NSMeta, metaTagTable}
	it, err := db.store.NewIter(lower, keys.PrefixEnd(lower))
	if err != nil {
		return err
	}
	defer it.Close()
	for ok := it.First(); ok; ok = it.Next() {
		t, err := decodeTable(it.Value())
		if err != nil {
			return fmt.Errorf("table %q: %w", it.Key()[2:], err)
		}
		m[t.meta.Name] = t
	}
	if err := it.Error(); err != nil {
		return err
	}
	db.tables.Store(&m)
	return db.purgeDeleted()
}

// lookup returns the named table (name may be an ARN), or nil when there
// is none. On a shared store a table this node does not know is read from
// the store; an error reading it is returned, never taken for a missing
// table (the server answers it with a 500, which clients retry).
//
// A TableName may be the table's ARN. Only an ARN of this database's
// region and account names one of its tables: an ARN of another region or
// account names a table that is not here, and one that is not a table's
// own ARN names none.
func (db *DB) lookup(name string) (*table, error) {
	t := db.lookupCached(name)
	if t == nil && db.shared && name != "" {
		// Another node may have created it: read the store.
		if err := db.refreshShared(name); err != nil {
			return nil, err
		}
		t = db.lookupCached(name)
	}
	return t, nil
}

// lookupFresh is lookup for an operation that must decide on the table's
// current definition: on a shared store it reads the table from the store
// first, whether or not this node knows it. It is called after the
// request's validation, so an invalid request is answered as such while
// the store is unreachable, as DynamoDB validates before it looks.
func (db *DB) lookupFresh(name string) (*table, error) {
	if err := db.refreshShared(name); err != nil {
		return nil, err
	}
	return db.lookupCached(name), nil
}

// freshTable is lookupFresh for a table-management request: the table,
// or the ResourceNotFoundException that names it when there is none.
func (db *DB) freshTable(name string) (*table, error) {
	t, err := db.lookupFresh(name)
	if err == nil && t == nil {
		err = tableNotFound(name)
	}
	return t, err
}

// lookupCached is lookup in this process's catalog only.
func (db *DB) lookupCached(name string) *table {
	if strings.HasPrefix(name, "arn:") {
		a, ok := parseTableARN(name)
		if !ok || a.region != db.opts.Region || a.account != db.opts.AccountID {
			return nil
		}
		name = a.name
	}
	t := (*db.tables.Load())[name]
	if t != nil && t.meta.Transition == dynamo.TableStatusDeleting && db.gone(t) {
		return nil
	}
	return t
}

// tableOrNotFound returns the table or DynamoDB's item-operation error for
// a missing one.
func (db *DB) tableOrNotFound(name string) (*table, error) {
	if db.closed.Load() {
		return nil, ErrClosed
	}
	t, err := db.lookup(name)
	if err != nil {
		return nil, err
	}
	if t == nil {
		if badTableARN(name) {
			return nil, invalidTableARN(name)
		}
		return nil, dynamo.NotFound(msgResourceNotFound)
	}
	if t.meta.Transition != "" || len(t.meta.IndexesActiveAt) > 0 {
		return db.transientItemView(t)
	}
	return t, nil
}

// putTableLocked persists meta in b and returns the catalog with t
// installed. The caller holds db.ddl and commits b, then calls
// installCatalog. A transition t starts may exceed the limit of tables in
// transition (engine/transient.go). The entries of tables whose deletion
// has ended go in the same batch, so they do not pile up until a restart.
func (db *DB) putTableLocked(b storage.Batch, t *table) (map[string]*table, error) {
	cur := *db.tables.Load()
	if err := db.tooManyTransitions(cur, t); err != nil {
		return nil, err
	}
	raw, err := json.Marshal(&t.meta)
	if err != nil {
		return nil, fmt.Errorf("encode table meta: %w", err)
	}
	next := maps.Clone(cur)
	// On a shared store the entry must still be what this node read, or
	// absent for a new table: another node's change conflicts.
	if prev := cur[t.meta.Name]; prev != nil {
		b.Expect(metaTableKey(t.meta.Name), prev.raw, true)
	} else {
		b.Expect(metaTableKey(t.meta.Name), nil, false)
	}
	t.raw = raw
	for name, o := range cur {
		if name != t.meta.Name && db.gone(o) {
			b.Expect(metaTableKey(name), o.raw, true)
			if err := b.Delete(metaTableKey(name)); err != nil {
				return nil, err
			}
			delete(next, name)
		}
	}
	if err := b.Set(metaTableKey(t.meta.Name), raw); err != nil {
		return nil, err
	}
	next[t.meta.Name] = t
	return next, nil
}

// nextTableIDLocked allocates a table id that was never used before, so a
// re-created table never sees rows of its predecessor.
func (db *DB) nextTableIDLocked(b storage.Batch) (uint64, error) {
	return db.nextNumber(b, metaSeqKey())
}

// nextNumber stages in b taking the next number of the sequence kept at
// key, and returns it. The row is read, expected and rewritten, so two
// processes on a shared store never take the same number; it is written
// only by DDL, which is rare, so it is no hot row. (Pebble stores before
// this kept the sequence as a merged counter, whose value reads the same.)
func (db *DB) nextNumber(b storage.Batch, key []byte) (uint64, error) {
	raw, found, err := db.store.Get(key, nil)
	if err != nil {
		return 0, err
	}
	var n uint64
	if found && len(raw) == 8 {
		n = binary.BigEndian.Uint64(raw)
	}
	b.Expect(key, raw, found)
	if err := b.Set(key, binary.BigEndian.AppendUint64(nil, n+1)); err != nil {
		return 0, err
	}
	return n + 1, nil
}

// stats returns a table's item count and total item size.
func (db *DB) stats(t *table) (count, size int64, err error) {
	c, err := db.store.Counters(metaStatsKey(t.meta.ID), 2)
	if err != nil {
		return 0, 0, err
	}
	return c[0], c[1], nil
}

func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
