package engine

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/internal/keys"
	"github.com/dynago/dynago/internal/storage"
)

// Vector index entries.
//
// An item is in a vector index when it has the index's vector attribute,
// a list of Dimensions numbers each within float32's range, and, if the
// index's search schema has a HASH element, that attribute with a value
// of its type that is not empty; a search-schema attribute of the wrong
// type also leaves it out. Such an item has one entry, written by
// maintainIndexes in the same batch as the item. Its row key is an
// index row key as a GSI's (keys.AppendIndexRowKey) with the HASH value
// as its partition and no sort key, followed by the item's key, so one
// HASH partition is one range read; in an index without a HASH element
// it is the item's own row key in the index's key range
// (keys.AppendRowKey), and the whole index is the range
// keys.IndexPrefix. The value is
//
//	version (1) | uvarint(entry size) | uvarint(dims) |
//	dims × float32, little-endian | attr item encoding
//
// The item is the projected item without the vector: the table's key
// attributes, the search schema's attributes the item has, and what the
// projection names (everything under ALL); the vector is read from its
// float32 array without parsing a decimal string. The entry size is
// DynamoDB's measure of an entry, what a write of it is billed
// (vectorEntrySize) and what the index's size counter adds. Do not change
// this layout: it is written to disk.

// vectorEntryV1 is the version byte of the layout above.
const vectorEntryV1 = 1

// maxVectorDims is the largest Dimensions a vector index may have.
const maxVectorDims = 4096

var errBadVectorEntry = errors.New("malformed vector index entry")

// appendVectorEntry encodes an entry's value.
func appendVectorEntry(dst []byte, vec []float32, size int, proj attr.Item) []byte {
	dst = append(dst, vectorEntryV1)
	dst = binary.AppendUvarint(dst, uint64(size))
	dst = binary.AppendUvarint(dst, uint64(len(vec)))
	for _, f := range vec {
		dst = binary.LittleEndian.AppendUint32(dst, math.Float32bits(f))
	}
	return attr.AppendItem(dst, proj)
}

// vectorEntry is an entry's value split into its parts; vec and body
// alias the value read.
type vectorEntry struct {
	size int
	vec  []byte // dims × 4 bytes
	body []byte // attr item encoding
}

// parseVectorEntry splits an entry's value, refusing anything the layout
// does not allow: another version, a truncated header or vector, a
// dimension count of 0 or above 4096, a non-finite element. The item is
// decoded by Item.
func parseVectorEntry(raw []byte) (vectorEntry, error) {
	if len(raw) < 1 || raw[0] != vectorEntryV1 {
		return vectorEntry{}, errBadVectorEntry
	}
	raw = raw[1:]
	size, n := binary.Uvarint(raw)
	if n <= 0 || size > math.MaxInt32 {
		return vectorEntry{}, errBadVectorEntry
	}
	raw = raw[n:]
	dims, n := binary.Uvarint(raw)
	if n <= 0 || dims < 1 || dims > maxVectorDims || uint64(len(raw)-n) < 4*dims {
		return vectorEntry{}, errBadVectorEntry
	}
	raw = raw[n:]
	e := vectorEntry{size: int(size), vec: raw[:4*dims], body: raw[4*dims:]}
	for i := 0; i < len(e.vec); i += 4 {
		f := math.Float32frombits(binary.LittleEndian.Uint32(e.vec[i:]))
		if math.IsInf(float64(f), 0) || math.IsNaN(float64(f)) {
			return vectorEntry{}, errBadVectorEntry
		}
	}
	return e, nil
}

// dims is the entry's number of elements.
func (e *vectorEntry) dims() int { return len(e.vec) / 4 }

// vector decodes the entry's vector into dst (grown as needed).
func (e *vectorEntry) vector(dst []float32) []float32 {
	dst = slices.Grow(dst[:0], e.dims())[:e.dims()]
	for i := range dst {
		dst[i] = math.Float32frombits(binary.LittleEndian.Uint32(e.vec[4*i:]))
	}
	return dst
}

// item decodes the entry's projected item.
func (e *vectorEntry) item() (attr.Item, error) {
	it, err := attr.DecodeItem(e.body)
	if err != nil {
		return nil, fmt.Errorf("decode vector index entry: %w", err)
	}
	return it, nil
}

// vectorEntrySize is the size DynamoDB gives an entry, the figure its
// write is billed from: four bytes an element, the vector attribute's
// name once, and the item size of the rest of the entry (dynoxide's
// captures, eu-west-2 2026-08-18, byte-exact for 3 to 512 dimensions).
func vectorEntrySize(ix *index, proj attr.Item) int {
	return 4*ix.vec.dims + len(ix.vec.attr) + attr.ItemSize(proj)
}

// Texts of a write's vector index refusals, quoted from DynamoDB's
// responses as the dynoxide emulator's authors captured them (nubo-db/
// dynoxide, src/actions/vector_index.rs, eu-west-2 and us-east-1,
// 2026-08-11 to 13), punctuation as captured.
func msgVectorNotList(a, index string) string {
	return fmt.Sprintf("One or more parameter values were invalid. Invalid type for parameter %s, Expected: 32-bit floating point number list IndexName: %s", a, index)
}

func msgVectorSize(a string, dims, n int, index string) string {
	return fmt.Sprintf("One or more parameter values were invalid. Invalid size for parameter %s, Expected: %d, Actual: %d IndexName: %s", a, dims, n, index)
}

func msgVectorElementType(a string, i int, got attr.Type, index string) string {
	return fmt.Sprintf("One or more parameter values were invalid. Invalid type for parameter %s[%d], Expected: 32-bit floating point number, Actual: %s. IndexName: %s", a, i, got, index)
}

func msgVectorElementRange(a string, i int, raw, index string) string {
	return fmt.Sprintf("One or more parameter values were invalid. Invalid value for parameter %s[%d], Value: %s is outside valid range [-3.4028235E38, 3.4028235E38]. IndexName: %s", a, i, raw, index)
}

func msgVectorSchemaType(a string, want, got attr.Type, index string) string {
	return fmt.Sprintf("One or more parameter values were invalid. Attribute '%s' type mismatch. Expected: %s, Actual: %s. IndexName: %s", a, want, got, index)
}

// vectorValues reads an item's vector attribute for an index of dims
// elements, in DynamoDB's order of checks: a list, of the index's size,
// then each element a number within float32's range. A number is
// rounded to the nearest float32, as the index stores it.
func vectorValues(v attr.Value, dims int, dst []float32) ([]float32, vectorProblem) {
	if v.Type != attr.TypeL {
		return nil, vectorProblem{kind: vecNotList}
	}
	if len(v.L) != dims {
		return nil, vectorProblem{kind: vecSize, n: len(v.L)}
	}
	dst = slices.Grow(dst[:0], dims)
	for i, e := range v.L {
		if e.Type != attr.TypeN {
			return nil, vectorProblem{kind: vecElemType, n: i, typ: e.Type}
		}
		f, err := strconv.ParseFloat(e.S, 32)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return nil, vectorProblem{kind: vecElemRange, n: i, raw: e.S}
		}
		dst = append(dst, float32(f))
	}
	return dst, vectorProblem{}
}

type vectorProblemKind uint8

const (
	vecOK vectorProblemKind = iota
	vecNotList
	vecSize
	vecElemType
	vecElemRange
)

// vectorProblem is why a value is not a vector of an index.
type vectorProblem struct {
	kind vectorProblemKind
	n    int // the size, or the element's position
	typ  attr.Type
	raw  string
}

func (p vectorProblem) err(ix *index) error {
	a, name := ix.vec.attr, ix.meta.Name
	switch p.kind {
	case vecNotList:
		return dynamo.Validation(msgVectorNotList(a, name))
	case vecSize:
		return dynamo.Validation(msgVectorSize(a, ix.vec.dims, p.n, name))
	case vecElemType:
		return dynamo.Validation(msgVectorElementType(a, p.n, p.typ, name))
	case vecElemRange:
		return dynamo.Validation(msgVectorElementRange(a, p.n, p.raw, name))
	}
	return nil
}

// checkVectors refuses an item a write would store whose values do not
// fit one of the table's vector indexes, with the first problem found:
// the indexes in name order, and in each its vector attribute, then its
// search schema's attributes in declaration order (the order of several
// problems was not recorded; this is dynoxide's choice). A missing
// attribute is no problem: the item is only left out of the index (a
// missing vector or HASH attribute) or indexed without it (a missing
// INLINE_FILTER attribute). On an update (before is the item as it was)
// only the attributes the update changed are checked, and an empty HASH
// value gets UpdateItem's text for an index key (captured by dynoxide,
// eu-west-2 and us-east-1, 2026-08-13); a put checks every attribute.
func (t *table) checkVectors(it, before attr.Item, update bool) error {
	if len(t.vectors) == 0 {
		return nil
	}
	changed := func(name string, v attr.Value) bool {
		if !update || before == nil {
			return true
		}
		old, ok := before[name]
		return !ok || !attr.Equal(old, v)
	}
	for _, ix := range t.vectors {
		if v, ok := it[ix.vec.attr]; ok && changed(ix.vec.attr, v) {
			if _, p := vectorValues(v, ix.vec.dims, nil); p.kind != vecOK {
				return p.err(ix)
			}
		}
		for _, e := range ix.meta.Vector.SearchSchema {
			v, ok := it[e.AttributeName]
			if !ok || !changed(e.AttributeName, v) {
				continue
			}
			want := ix.vec.schemaType(e.AttributeName)
			if v.Type != want {
				return dynamo.Validation(msgVectorSchemaType(e.AttributeName, want, v.Type, ix.meta.Name))
			}
			if e.ElementType != dynamo.SearchSchemaHash {
				continue
			}
			if kind, empty := emptyKind(v); empty {
				if update {
					return dynamo.Validation(msgTxUpdateIndexKeyEmpty(kind))
				}
				return dynamo.Validation(msgIndexKeyEmpty(kind, ix.meta.Name, e.AttributeName))
			}
		}
	}
	return nil
}

// schemaType is the type of a search schema attribute.
func (v *vectorSpec) schemaType(name string) attr.Type {
	if v.hash != nil && v.hash.name == name {
		return v.hash.typ
	}
	for _, f := range v.filters {
		if f.name == name {
			return f.typ
		}
	}
	return attr.TypeInvalid
}

// vectorEntryOf returns the entry of it in the vector index ix: its row
// key, vector, projected item and size, or a nil key when the item is
// not in the index (a missing or invalid vector, a missing or empty HASH
// value, a search schema value of the wrong type: the backfill skips
// such items, and a write has refused them already, checkVectors).
func (t *table) vectorEntryOf(ix *index, it attr.Item, k itemKey) (key []byte, vec []float32, proj attr.Item, size int, err error) {
	v, ok := it[ix.vec.attr]
	if !ok {
		return nil, nil, nil, 0, nil
	}
	vec, p := vectorValues(v, ix.vec.dims, nil)
	if p.kind != vecOK {
		return nil, nil, nil, 0, nil
	}
	var hv *attr.Value
	if h := ix.vec.hash; h != nil {
		x, ok := it[h.name]
		if _, empty := emptyKind(x); !ok || x.Type != h.typ || empty {
			return nil, nil, nil, 0, nil
		}
		hv = &x
	}
	for _, f := range ix.vec.filters {
		if x, ok := it[f.name]; ok && x.Type != f.typ {
			return nil, nil, nil, 0, nil
		}
	}
	bpk, bsk := t.baseKey(k)
	if hv != nil {
		key, err = keys.AppendIndexRowKey(nil, t.meta.ID, ix.meta.ID, []attr.Value{*hv}, nil, bpk, bsk)
	} else {
		key, err = keys.AppendRowKey(nil, t.meta.ID, ix.meta.ID, bpk, bsk)
	}
	if err != nil {
		return nil, nil, nil, 0, fmt.Errorf("encode vector index row key: %w", err)
	}
	proj = t.projectForVector(ix, it)
	return key, vec, proj, vectorEntrySize(ix, proj), nil
}

// projectForVector returns what a vector index entry keeps of it besides
// the vector: the table's key, the search schema's attributes and what
// the projection names; never the vector attribute, which the entry
// holds as float32s (and a search returns only when asked).
func (t *table) projectForVector(ix *index, it attr.Item) attr.Item {
	if ix.projType == dynamo.ProjectionAll {
		p := make(attr.Item, len(it))
		for n, v := range it {
			if n != ix.vec.attr {
				p[n] = v
			}
		}
		return p
	}
	p := make(attr.Item, 4+len(ix.include))
	keep := func(name string) {
		if name == ix.vec.attr {
			return
		}
		if v, ok := it[name]; ok {
			p[name] = v
		}
	}
	keep(t.hashName)
	if t.rangeName != "" {
		keep(t.rangeName)
	}
	for _, e := range ix.meta.Vector.SearchSchema {
		keep(e.AttributeName)
	}
	for _, name := range ix.include {
		keep(name)
	}
	return p
}

// maintainVectors adds to b the vector index changes that replacing old
// by next requires, as maintainIndexes does for the other indexes: the
// old entry goes if the item left the index or its HASH value changed,
// the new one is written if the item is in the index, and the index's
// counters follow. An index being backfilled has its old entry read, not
// assumed, until the backfill has passed the item.
func (db *DB) maintainVectors(b storage.Batch, vw *vecWork, t *table, k itemKey, oldItem, next attr.Item) error {
	for _, ix := range t.vectors {
		check := ix.meta.Backfilling && (db.shared || !db.backfillVisited(t.meta.ID, ix.meta.ID, k.row))
		var newKey, oldKey []byte
		var newVec, oldVec []float32
		var newProj attr.Item
		newSize, oldSize := 0, 0
		var err error
		if next != nil {
			if newKey, newVec, newProj, newSize, err = t.vectorEntryOf(ix, next, k); err != nil {
				return err
			}
		}
		if oldItem != nil {
			if oldKey, oldVec, _, oldSize, err = t.vectorEntryOf(ix, oldItem, k); err != nil {
				return err
			}
		}
		if err := t.stageVectorOps(vw, ix, oldItem, next, oldKey, newKey, oldVec, newVec, check); err != nil {
			return err
		}
		var newValue []byte
		if newKey != nil {
			newValue = appendVectorEntry(nil, newVec, newSize, newProj)
		}
		if err := db.stageEntry(b, t, ix, check, oldKey, oldSize, newKey, newValue, newSize, storedVectorEntrySize); err != nil {
			return err
		}
	}
	return nil
}

// storedVectorEntrySize is the size of a vector index entry as stored.
func storedVectorEntrySize(raw []byte) (int, error) {
	e, err := parseVectorEntry(raw)
	return e.size, err
}

// minVectorRequestBytes is the least a vector write or search is billed:
// 1 KB a request (AWS's agent toolkit, vector-search.md: "1 KB minimum
// per request").
const minVectorRequestBytes = 1024

// vectorWriteBytes is what a write that replaced old by next cost each
// vector index it changed, VectorWriteRequestBytes: an entry added or
// removed costs its size, a changed entry the larger of its two sizes, at
// least 1 KB each; an index whose entry is unchanged is absent
// (dynoxide's captures, eu-west-2 2026-08-11 and 18).
func (t *table) vectorWriteBytes(k itemKey, old, next attr.Item) map[string]float64 {
	if len(t.vectors) == 0 {
		return nil
	}
	var out map[string]float64
	for _, ix := range t.vectors {
		var oldKey, newKey []byte
		var oldVec, newVec []float32
		var oldProj, newProj attr.Item
		var oldSize, newSize int
		if old != nil {
			oldKey, oldVec, oldProj, oldSize, _ = t.vectorEntryOf(ix, old, k)
		}
		if next != nil {
			newKey, newVec, newProj, newSize, _ = t.vectorEntryOf(ix, next, k)
		}
		var n int
		switch {
		case oldKey == nil && newKey == nil:
			continue
		case oldKey == nil:
			n = newSize
		case newKey == nil:
			n = oldSize
		case bytes.Equal(oldKey, newKey) && slices.Equal(oldVec, newVec) && itemsEqual(oldProj, newProj):
			continue
		default:
			n = max(oldSize, newSize)
		}
		if out == nil {
			out = map[string]float64{}
		}
		out[ix.meta.Name] += float64(max(n, minVectorRequestBytes))
	}
	return out
}

// resultVectorBytes is vectorWriteBytes for a single-item write's
// result, computed only under INDEXES, the one mode that reports it
// (captured 2026-08-11: TOTAL shows no vector member).
func (db *DB) resultVectorBytes(t *table, k itemKey, r writeResult, mode string) map[string]float64 {
	if !r.wrote || mode != dynamo.ReturnConsumedCapacityIndexes || len(t.vectors) == 0 {
		return nil
	}
	return t.vectorWriteBytes(k, r.old, r.new)
}

// withVectorBytes adds a write's vector index bytes to its
// ConsumedCapacity, apart from its capacity units.
func withVectorBytes(c *dynamo.ConsumedCapacity, bytes map[string]float64) *dynamo.ConsumedCapacity {
	if c == nil || len(bytes) == 0 {
		return c
	}
	c.VectorIndexes = make(map[string]dynamo.VectorCapacity, len(bytes))
	for name, n := range bytes {
		c.VectorIndexes[name] = dynamo.VectorCapacity{VectorWriteRequestBytes: ptr(n)}
	}
	return c
}
