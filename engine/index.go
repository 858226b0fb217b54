package engine

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/internal/expr"
	"github.com/dynago/dynago/internal/keys"
	"github.com/dynago/dynago/internal/storage"
	"github.com/dynago/dynago/internal/vector"
)

// Secondary indexes.
//
// An index row lives in the index's own key range of its table:
//
//	NSData | tableID | indexID | hash(enc(index pk)) | enc(index pk) |
//	enc(index sk) | enc(base pk) | enc(base sk)
//
// (keys.AppendIndexRowKey), so a Query on an index is one bounded range
// read, ties between equal index keys are broken by the base key as in
// DynamoDB, and a Scan of a GSI runs in the index's hash order. The value
// is a base row's value (uvarint size | attr item) holding the projected
// item: the table's and the index's key attributes plus what the
// projection names. Index rows are written by maintainIndexes in the same
// batch as the item, so an index is never stale.

// Vector indexes are indexes like the others in the catalog: an
// indexMeta whose Vector holds the vector spec (catVector), with an id
// from the table's LastIndexID, its stats counters (metaIndexStatsKey),
// its Backfilling flag, backfill cursor (metaBackfillKey) and its key
// range, which a Delete clears and sweepDeletedIndexes sweeps, like a
// GSI's. In memory they are not among table.indexes, which are the
// secondary indexes a Query, Scan, PartiQL statement or item write keys
// by (GSIs and LSIs): newTable puts them in table.vectors, each an index
// with no key schema and its parsed spec (index.vec). So no loop over
// t.indexes ever takes a vector index for a GSI or an LSI; the loops over
// meta.Indexes tell them apart with indexMeta.vector().

// Limits. https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html
const (
	maxLocalIndexes      = 5
	maxGlobalIndexes     = 20
	maxProjectedAttrs    = 100
	maxIndexKeyAttrsEach = 4 // HASH and RANGE attributes of a multi-attribute GSI key
)

// indexMeta is an index's definition as stored in the catalog (JSON).
type indexMeta struct {
	Name       string         `json:"name"`
	ID         uint32         `json:"id"`
	Global     bool           `json:"global"`
	KeySchema  []catKey       `json:"keySchema"`
	Projection catProjection  `json:"projection"`
	Throughput *catThroughput `json:"throughput,omitempty"`
	OnDemand   *catOnDemand   `json:"onDemand,omitempty"`
	// Backfilling is true from UpdateTable's Create until the backfill
	// has indexed every item; the index is CREATING meanwhile.
	Backfilling bool `json:"backfilling,omitempty"`
	// Warm is the GSI's warm throughput high-water mark
	// (engine/describe_table.go).
	Warm warmUnits `json:"warm,omitzero"`
	// Vector is set on a vector index: its vector attribute, dimensions,
	// distance function and search schema. A vector index has no
	// KeySchema, throughput or warm throughput.
	Vector *catVector `json:"vector,omitempty"`
}

// vector reports whether m is a vector index.
func (m *indexMeta) vector() bool { return m.Vector != nil }

// vectorSpec is a vector index's definition parsed for the write and
// search paths: the attribute holding the vector, its length, the
// distance function, the search schema's partition attribute (nil when
// it has none) and its inline filter attributes, typed from the table's
// AttributeDefinitions, in declaration order.
type vectorSpec struct {
	attr    string
	dims    int
	metric  vector.Metric
	hash    *keyAttr
	filters []keyAttr
}

func newVectorSpec(c *catVector, types map[string]attr.Type) *vectorSpec {
	v := &vectorSpec{attr: c.Attribute, dims: int(c.Dimensions)}
	v.metric, _ = vector.ParseMetric(c.Distance) // checked when the index was created
	for _, e := range c.SearchSchema {
		a := keyAttr{e.AttributeName, types[e.AttributeName]}
		if e.ElementType == dynamo.SearchSchemaHash {
			v.hash = &a
		} else {
			v.filters = append(v.filters, a)
		}
	}
	return v
}

// keyAttr is one key attribute of an index (or of the table, index 0).
type keyAttr struct {
	name string
	typ  attr.Type
}

// index is the in-memory form of an index, or of the table itself as
// index 0 (table.primary: ID 0, no name, all attributes projected). Its
// key is lists of HASH and RANGE attributes, one of each at most but on
// a multi-attribute GSI key.
type index struct {
	meta     indexMeta
	hash     []keyAttr
	rng      []keyAttr
	projType string
	include  []string
	// rowKey is what keys a row of the index: its key attributes, then
	// the table's not among them (rowKeyOf, set by newTable). A start key
	// holds exactly these, and so does a LastEvaluatedKey.
	rowKey []keyAttr
	// rowKeyNames are rowKey's names, sorted: the attributes a page's
	// last item is decoded for, its LastEvaluatedKey.
	rowKeyNames []string
	// vec is a vector index's spec, nil for any other index. A vector
	// index has no hash, rng or rowKey; projType and include are its
	// Projection.
	vec *vectorSpec
}

// multi reports whether the index key has more than one HASH or RANGE
// attribute (a multi-attribute GSI key).
func (ix *index) multi() bool { return len(ix.hash) > 1 || len(ix.rng) > 1 }

func newIndex(m indexMeta, types map[string]attr.Type) *index {
	ix := &index{meta: m, projType: m.Projection.ProjectionType, include: m.Projection.NonKeyAttributes}
	if m.Vector != nil {
		ix.vec = newVectorSpec(m.Vector, types)
		return ix
	}
	for _, k := range m.KeySchema {
		a := keyAttr{k.AttributeName, types[k.AttributeName]}
		if k.KeyType == dynamo.KeyTypeHash {
			ix.hash = append(ix.hash, a)
		} else {
			ix.rng = append(ix.rng, a)
		}
	}
	return ix
}

// index returns the named index, or nil.
func (t *table) index(name string) *index {
	for _, ix := range t.indexes {
		if ix.meta.Name == name {
			return ix
		}
	}
	return nil
}

// backfillable returns the indexes a backfill may build: the secondary
// indexes, then the vector indexes. Only the backfill and DDL loops that
// treat every kind alike use it.
func (t *table) everyIndex() []*index {
	if len(t.vectors) == 0 {
		return t.indexes
	}
	return append(slices.Clip(t.indexes), t.vectors...)
}

// vectorIndex returns the named vector index, or nil.
func (t *table) vectorIndex(name string) *index {
	for _, ix := range t.vectors {
		if ix.meta.Name == name {
			return ix
		}
	}
	return nil
}

func (t *table) indexArn(db *DB, ix *index) string {
	return t.arn(db) + "/index/" + ix.meta.Name
}

// metaIndexStatsKey is the counters key of an index: item count, bytes.
func metaIndexStatsKey(tableID uint64, indexID uint32) []byte {
	k := []byte{keys.NSMeta, metaTagIndexStats}
	k = binary.BigEndian.AppendUint64(k, tableID)
	return binary.BigEndian.AppendUint32(k, indexID)
}

// metaBackfillKey holds a running backfill's cursor: the last base row
// key it indexed.
func metaBackfillKey(tableID uint64, indexID uint32) []byte {
	k := []byte{keys.NSMeta, metaTagBackfill}
	k = binary.BigEndian.AppendUint64(k, tableID)
	return binary.BigEndian.AppendUint32(k, indexID)
}

// indexStats returns an index's item count and size.
func (db *DB) indexStats(t *table, ix *index) (count, size int64, err error) {
	c, err := db.store.Counters(metaIndexStatsKey(t.meta.ID, ix.meta.ID), 2)
	if err != nil {
		return 0, 0, err
	}
	return c[0], c[1], nil
}

// Messages of index key values in writes. The type mismatch text is
// quoted from DynamoDB's response in dynamoose issue 296; the empty
// string text from a response quoted in praetorian-inc/chariot-ui issue
// 353 (the binary variant is inferred from the base key's).
func msgIndexKeyType(name string, want, got attr.Type, index string) string {
	return fmt.Sprintf("One or more parameter values were invalid: Type mismatch for Index Key %s Expected: %s Actual: %s IndexName: %s", name, want, got, index)
}

func msgIndexKeyEmpty(kind, index, name string) string {
	return fmt.Sprintf("One or more parameter values are not valid. A value specified for a secondary index key is not supported. The AttributeValue for a key attribute cannot contain an empty %s value. IndexName: %s, IndexKey: %s", kind, index, name)
}

// checkIndexKeySize applies the key size limits to one index key value:
// 2048 bytes for a partition key attribute, 1024 for a sort key one, with
// DynamoDB's message (msgIndexKeyTooLarge).
//
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html#limits-partition-sort-keys
func checkIndexKeySize(index, name string, v attr.Value, partition bool) error {
	size := len(v.S)
	if v.Type == attr.TypeB {
		size = len(v.B)
	}
	if v.Type == attr.TypeN {
		return nil // a number is at most 22 bytes (numberSize)
	}
	limit := maxSortKeyBytes
	if partition {
		limit = maxPartitionKeyBytes
	}
	if size > limit {
		return dynamo.Validation(msgIndexKeyTooLarge(name, size, limit, index))
	}
	return nil
}

// checkWrittenIndexKeys refuses an update that gives an index key
// attribute a value of another type than the key's, where the update
// alone decides that type (expr.Update.WrittenType: a :value, a + b,
// list_append, an ADD), before the item is read: DynamoDB answers
// msgIndexKeyType, not an operand's type error nor a failed condition,
// for "SET c = a + :n" and "ADD c :n" of a string key c on an item that
// does not exist (dynalite's updateItem.js, "should return
// ValidationException if trying to update wrong type on index", recorded
// against DynamoDB). Indexes are taken in checkIndexKeys' order.
func (t *table) checkWrittenIndexKeys(u *expr.Update) error {
	for _, ix := range t.indexes {
		for _, keys := range [2][]keyAttr{ix.hash, ix.rng} {
			for _, k := range keys {
				if typ, ok := u.WrittenType(k.name); ok && typ != k.typ {
					return dynamo.Validation(msgIndexKeyType(k.name, k.typ, typ, ix.meta.Name))
				}
			}
		}
	}
	return nil
}

// checkKeyPaths refuses an expression with a document path into a key
// attribute of the table or of any of its indexes ("a.b", "a[0]"; nested
// lists the first names of such paths, expr's NestedNames): key
// attributes are scalars. The table's partition and sort key come first,
// then the indexes in checkIndexKeys' order, whatever the order written
// (dynalite's tests against DynamoDB: GetItem's ProjectionExpression,
// Query's and Scan's FilterExpression, UpdateItem's UpdateExpression; the
// change request extends it to every projection and condition).
func (t *table) checkKeyPaths(nested []string) error {
	if len(nested) == 0 {
		return nil
	}
	for _, keys := range [2][]keyAttr{t.primary.hash, t.primary.rng} {
		for _, k := range keys {
			if slices.Contains(nested, k.name) {
				return dynamo.Validation(msgKeyNotScalar("Key", k.name))
			}
		}
	}
	for _, ix := range t.indexes {
		for _, keys := range [2][]keyAttr{ix.hash, ix.rng} {
			for _, k := range keys {
				if slices.Contains(nested, k.name) {
					return dynamo.Validation(msgKeyNotScalar("IndexKey", k.name))
				}
			}
		}
	}
	return nil
}

// checkIndexKeys refuses an item whose index key attributes have the
// wrong type or are empty, naming the alphabetically first index.
func (t *table) checkIndexKeys(it attr.Item) error {
	var buf [2 * maxIndexKeyAttrsEach]attr.Value
	for _, ix := range t.indexes {
		if _, _, err := ix.keyOf(it, keyOfEntry, nil, buf[:0]); err != nil {
			return err
		}
	}
	return nil
}

// baseKey returns the base key tuples of k.
func (t *table) baseKey(k itemKey) (pk, sk []attr.Value) {
	pk = []attr.Value{k.pk}
	if t.rangeName != "" {
		sk = []attr.Value{k.sk}
	}
	return pk, sk
}

// indexEntry returns the index row key and projected item of it, or a nil
// key when it is absent from the index.
func (t *table) indexEntry(ix *index, it attr.Item, k itemKey, strict bool) ([]byte, attr.Item, error) {
	mode := keyOfEntryLenient
	if strict {
		mode = keyOfEntry
	}
	var buf [2 * maxIndexKeyAttrsEach]attr.Value
	vals, ok, err := ix.keyOf(it, mode, nil, buf[:0])
	if err != nil || !ok {
		return nil, nil, err
	}
	bpk, bsk := t.baseKey(k)
	row, err := keys.AppendIndexRowKey(nil, t.meta.ID, ix.meta.ID, vals[:len(ix.hash)], vals[len(ix.hash):], bpk, bsk)
	if err != nil {
		return nil, nil, fmt.Errorf("encode index row key: %w", err)
	}
	return row, t.projectForIndex(ix, it), nil
}

// projectForIndex returns the attributes of it that ix stores.
func (t *table) projectForIndex(ix *index, it attr.Item) attr.Item {
	if ix.projType == dynamo.ProjectionAll {
		return it
	}
	p := make(attr.Item, 4+len(ix.include))
	for _, a := range ix.rowKey {
		if v, ok := it[a.name]; ok {
			p[a.name] = v
		}
	}
	for _, name := range ix.include {
		if v, ok := it[name]; ok {
			p[name] = v
		}
	}
	return p
}

// rowKeyOf returns the index's key attributes followed by the base
// table's, without repeats.
func (t *table) rowKeyOf(ix *index) []keyAttr {
	key := make([]keyAttr, 0, 4)
	key = append(append(key, ix.hash...), ix.rng...)
	for _, list := range [2][]keyAttr{t.primary.hash, t.primary.rng} {
		for _, a := range list {
			if !slices.ContainsFunc(key, func(k keyAttr) bool { return k.name == a.name }) {
				key = append(key, a)
			}
		}
	}
	return key
}

// isKey reports whether name is in the index's row key: one of its key
// attributes, or of its table's.
func (ix *index) isKey(name string) bool {
	for _, a := range ix.rowKey {
		if a.name == name {
			return true
		}
	}
	return false
}

// projects reports whether ix stores the top-level attribute name.
func (t *table) projects(ix *index, name string) bool {
	return ix.projType == dynamo.ProjectionAll || ix.isKey(name) || slices.Contains(ix.include, name)
}

// maintainIndexes adds to b the secondary-index changes that replacing old
// by next requires: for each index, the old entry goes if the item left
// the index or its index key changed, and the new entry is written if the
// item is in the index. A next whose index key attribute has the wrong
// type (or is empty) is refused, and the caller commits nothing. For an
// index being backfilled, an item the backfill has not passed yet is
// recorded as touched and its old entry's presence is read, not assumed
// (see index_backfill.go). With gsiLag, each GSI entry changed is staged
// in wb to lag (engine/lag.go).
func (db *DB) maintainIndexes(wb *writeBatch, t *table, k itemKey, old *storedItem, next attr.Item, gsiLag time.Duration) error {
	b, vw := wb.Batch, &wb.vec
	// The caller holds k's lock. Use the catalog as it is now, not as
	// the request found it: an index created since then is being
	// backfilled, and the backfill takes this lock before it indexes
	// this item, so either it sees this write or this write sees the
	// index.
	// On a shared store the batch expects t's catalog entry instead: the
	// definition the index work uses must be the one the commit checks,
	// and a cached entry may be older or newer than it.
	if !db.shared {
		if cur := db.lookupCached(t.meta.Name); cur != nil && cur.meta.ID == t.meta.ID {
			t = cur
		}
	}
	if len(t.indexes) == 0 && len(t.vectors) == 0 {
		return nil
	}
	oldItem, err := old.Item()
	if err != nil {
		return err
	}
	if len(t.vectors) > 0 {
		if err := db.maintainVectors(b, vw, t, k, oldItem, next); err != nil {
			return err
		}
	}
	for _, ix := range t.indexes {
		// Before the backfill has passed this item, its entry may or
		// may not be there yet: read it rather than assume it.
		// On a shared store another node may run the backfill: always
		// read, and expect what was read.
		check := ix.meta.Backfilling && (db.shared || !db.backfillVisited(t.meta.ID, ix.meta.ID, k.row))
		var newKey, oldKey []byte
		var newProj, oldProj attr.Item
		if next != nil {
			// strict: a wrong-typed or empty index key refuses the write
			// (the indexes are in name order, so the first is named).
			if newKey, newProj, err = t.indexEntry(ix, next, k, true); err != nil {
				return err
			}
		}
		if oldItem != nil {
			if oldKey, oldProj, err = t.indexEntry(ix, oldItem, k, false); err != nil {
				return err
			}
		}
		oldSize, newSize := 0, 0
		if oldKey != nil && !check {
			oldSize = attr.ItemSize(oldProj)
		}
		var newValue []byte
		if newKey != nil {
			newSize = attr.ItemSize(newProj)
			newValue = appendRow(nil, newProj, newSize)
		}
		if err := db.stageEntry(b, t, ix, check, oldKey, oldSize, newKey, newValue, newSize, storedRowSize); err != nil {
			return err
		}
		if gsiLag > 0 && ix.meta.Global && !ix.meta.Backfilling {
			// Not backfilling, so the old entry was not read: it is the
			// old item's projection, as stageEntry counted it.
			var oldRaw []byte
			if oldKey != nil {
				oldRaw = appendRow(nil, oldProj, oldSize)
			}
			wb.stageLagEntry(oldKey, oldRaw, newKey, newValue, gsiLag)
		}
	}
	return nil
}

// stageEntry adds to b the change of one item's entry in the index ix,
// for the index kinds alike: the old entry at oldKey (nil: none) of
// oldSize bytes goes if the item left the index or its key changed, the
// new one (newKey, nil: none; newValue of newSize bytes) is written, and
// the index's counters follow. With check, the old entry may not be
// there (a backfill has not passed the item): it is read, and expected,
// and its size taken from it by storedSize.
func (db *DB) stageEntry(b storage.Batch, t *table, ix *index, check bool, oldKey []byte, oldSize int, newKey, newValue []byte, newSize int, storedSize func([]byte) (int, error)) error {
	oldExists := oldKey != nil
	if oldExists && check {
		raw, found, err := db.store.Get(oldKey, nil)
		if err != nil {
			return err
		}
		b.Expect(oldKey, raw, found)
		oldExists = found
		if found {
			if oldSize, err = storedSize(raw); err != nil {
				return err
			}
		}
	}
	if !oldExists {
		oldSize = 0
	}
	if oldExists && (newKey == nil || !bytes.Equal(oldKey, newKey)) {
		if err := b.Delete(oldKey); err != nil {
			return err
		}
	}
	if newKey != nil {
		if err := b.Set(newKey, newValue); err != nil {
			return err
		}
	} else {
		newSize = 0
	}
	var dc int64
	if newKey != nil {
		dc++
	}
	if oldExists {
		dc--
	}
	if dc != 0 || newSize != oldSize {
		return b.AddCounters(metaIndexStatsKey(t.meta.ID, ix.meta.ID), dc, int64(newSize-oldSize))
	}
	return nil
}

// storedRowSize is the size of a GSI or LSI entry as stored.
func storedRowSize(raw []byte) (int, error) {
	s, err := parseRow(raw)
	return s.size, err
}

// indexWriteUnits is what a write that replaced old by next cost each
// index it touched: a put for an entry added, a delete for one removed,
// both for one whose index key changed, and one write of the larger entry
// for one whose projected attributes changed in place. An index whose
// entry did not change costs nothing.
//
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html#GSI.ThroughputConsiderations.Writes
func (t *table) indexWriteUnits(k itemKey, old, next attr.Item) map[string]float64 {
	if len(t.indexes) == 0 {
		return nil
	}
	units := map[string]float64{}
	for _, ix := range t.indexes {
		var oldKey, newKey []byte
		var oldProj, newProj attr.Item
		if old != nil {
			oldKey, oldProj, _ = t.indexEntry(ix, old, k, false)
		}
		if next != nil {
			newKey, newProj, _ = t.indexEntry(ix, next, k, false)
		}
		var u float64
		switch {
		case oldKey == nil && newKey == nil:
		case oldKey == nil:
			u = writeUnits(attr.ItemSize(newProj))
		case newKey == nil:
			u = writeUnits(attr.ItemSize(oldProj))
		case !bytes.Equal(oldKey, newKey):
			u = writeUnits(attr.ItemSize(oldProj)) + writeUnits(attr.ItemSize(newProj))
		case !itemsEqual(oldProj, newProj):
			u = writeUnits(max(attr.ItemSize(oldProj), attr.ItemSize(newProj)))
		}
		if u > 0 {
			units[ix.meta.Name] = u
		}
	}
	return units
}

// itemsEqual reports whether two projected items hold the same values.
func itemsEqual(a, b attr.Item) bool {
	return attr.Equal(attr.Value{Type: attr.TypeM, M: a}, attr.Value{Type: attr.TypeM, M: b})
}

// resultIndexUnits is indexWriteUnits for a single-item write's result,
// computed only when the request asked for its capacity, the DB meters
// index writes (Options.MeterIndexWrites) or enforces t's capacity.
func (db *DB) resultIndexUnits(t *table, k itemKey, r writeResult, mode string) map[string]float64 {
	if !r.wrote || (mode != dynamo.ReturnConsumedCapacityTotal && mode != dynamo.ReturnConsumedCapacityIndexes && !db.opts.MeterIndexWrites && !db.enforcing(t)) {
		return nil
	}
	return t.indexWriteUnits(k, r.old, r.new)
}

// consumedWrite builds a write's ConsumedCapacity: the table's units plus
// those of each index it touched, broken down with INDEXES.
func (db *DB) consumedWrite(t *table, mode string, tableUnits float64, perIndex map[string]float64) *dynamo.ConsumedCapacity {
	return db.consumedSplit(t, mode, tableUnits, perIndex, true)
}

// consumedSplit records the units a request charged to table t and its
// indexes (engine/meter.go), reads or writes, and builds a
// ConsumedCapacity from them: their sum with TOTAL, also broken down with
// INDEXES.
func (db *DB) consumedSplit(t *table, mode string, tableUnits float64, perIndex map[string]float64, write bool) *dynamo.ConsumedCapacity {
	db.bill(t, tableUnits, perIndex, write)
	if mode != dynamo.ReturnConsumedCapacityTotal && mode != dynamo.ReturnConsumedCapacityIndexes {
		return nil
	}
	total := tableUnits
	names := make([]string, 0, len(perIndex))
	for name, u := range perIndex {
		total += u
		names = append(names, name)
	}
	sort.Strings(names)
	switch mode {
	case dynamo.ReturnConsumedCapacityTotal:
		return &dynamo.ConsumedCapacity{TableName: t.meta.Name, CapacityUnits: ptr(total)}
	case dynamo.ReturnConsumedCapacityIndexes:
		c := &dynamo.ConsumedCapacity{TableName: t.meta.Name, CapacityUnits: ptr(total), Table: &dynamo.Capacity{CapacityUnits: ptr(tableUnits)}}
		for _, name := range names {
			ix := t.index(name)
			if ix == nil {
				continue
			}
			if ix.meta.Global {
				if c.GlobalSecondaryIndexes == nil {
					c.GlobalSecondaryIndexes = map[string]dynamo.Capacity{}
				}
				c.GlobalSecondaryIndexes[name] = dynamo.Capacity{CapacityUnits: ptr(perIndex[name])}
			} else {
				if c.LocalSecondaryIndexes == nil {
					c.LocalSecondaryIndexes = map[string]dynamo.Capacity{}
				}
				c.LocalSecondaryIndexes[name] = dynamo.Capacity{CapacityUnits: ptr(perIndex[name])}
			}
		}
		return c
	}
	return nil
}

// collectionMetrics is a write's ItemCollectionMetrics: with SIZE, on a
// table with local secondary indexes, the item collection's partition key
// and DynamoDB's estimate of its size in GB. dynago does not measure
// collections; it reports the range [0, 1] GB DynamoDB gives for any
// collection under 1 GB.
//
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/LSI.html#LSI.ItemCollections
func (t *table) collectionMetrics(mode string, k itemKey) *dynamo.ItemCollectionMetrics {
	if mode != dynamo.ReturnItemCollectionMetricsSize {
		return nil
	}
	for _, ix := range t.indexes {
		if !ix.meta.Global {
			return &dynamo.ItemCollectionMetrics{ItemCollectionKey: attr.Item{t.hashName: k.pk}, SizeEstimateRangeGB: []float64{0, 1}}
		}
	}
	return nil
}
