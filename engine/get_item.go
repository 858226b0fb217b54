package engine

import (
	"fmt"
	"slices"
	"sync"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/internal/expr"
)

// GetItem reads one item by its key. Reads take no lock: they see the last
// committed version of the item, which makes every read strongly
// consistent; ConsistentRead changes only the bill, unless stale reads
// are on (Options.StaleReads, engine/lag.go).
//
// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_GetItem.html
func (db *DB) GetItem(in *dynamo.GetItemInput) (*dynamo.GetItemOutput, error) {
	return run(db, opGetItem, func() (*dynamo.GetItemOutput, error) { return db.getItem(in, nil) })
}

func (db *DB) getItem(in *dynamo.GetItemInput, trees *expr.Trees) (*dynamo.GetItemOutput, error) {
	// DynamoDB's order of the members (engine/validation_order.go).
	var c constraints
	c.returnConsumedCapacity(in.ReturnConsumedCapacity)
	c.attributesToGet(in.AttributesToGet)
	c.itemTableName(in.TableName, in.NoTableName)
	if in.Key == nil {
		c.add(fmtConstraintNull, "key")
	}
	if err := c.err(); err != nil {
		return nil, err
	}
	if err := valueLayer(in.ValueError, in); err != nil {
		return nil, err
	}
	// DynamoDB's order: expression parameters, then the key's values,
	// then the names in AttributesToGet.
	proj, err := checkGetProjection(db.opts.ParseCaches.expr, in.ProjectionExpression, in.EmptyExpressions, in.AttributesToGet, in.ExpressionAttributeNames, trees)
	if err != nil {
		return nil, err
	}
	if err := canonicalize(in.Key); err != nil {
		return nil, err
	}
	if err := checkAttributesToGet(in.AttributesToGet); err != nil {
		return nil, err
	}
	t, err := db.tableOrNotFound(in.TableName)
	if err != nil {
		return nil, err
	}
	k, err := t.primaryKey(in.Key, keyOfKey)
	if err != nil {
		return nil, err
	}
	db.noteItemKey(t, k)
	// A document path into a key attribute, after the key (dynalite's
	// getItem tests against DynamoDB). Not of a statement.
	if proj != nil && trees == nil {
		if err := t.checkKeyPaths(proj.NestedNames()); err != nil {
			return nil, err
		}
	}
	if e := db.admit(t, admission{row: k.row, eventual: !in.ConsistentRead}); e != nil {
		return nil, e
	}
	out := &dynamo.GetItemOutput{}
	var size int
	switch {
	case proj == nil && in.AttributesToGet == nil && in.EncodedItem:
		out.EncodedItem, size, err = db.readItemEncoded(t, k, in.ConsistentRead, in.EncodedBuffer)
	case proj == nil && in.AttributesToGet == nil:
		out.Item, size, err = db.readItem(t, k, in.ConsistentRead)
	default:
		// Only the attributes the projection reads are decoded.
		var names []string
		if proj != nil {
			names = proj.SortedTopLevel()
		} else {
			// Without duplicates (checkAttributesToGet).
			names = slices.Sorted(slices.Values(in.AttributesToGet))
		}
		var it attr.Item
		it, size, err = db.readItemAttributes(t, k, in.ConsistentRead, names)
		out.Item = shape(it, proj, in.AttributesToGet)
	}
	if err != nil {
		return nil, err
	}
	out.ConsumedCapacity = db.consumed(t, in.ReturnConsumedCapacity, readUnits(size, in.ConsistentRead))
	db.chargeKey(t, k.row, readUnits(size, in.ConsistentRead), false)
	return out, nil
}

// readItem returns the item at k (nil if none) and its size, as a read
// consistent or not sees it (DB.viewRow).
// The item is decoded straight from Pebble's buffer: attr.DecodeItem copies
// what it keeps.
func (db *DB) readItem(t *table, k itemKey, consistent bool) (attr.Item, int, error) {
	var it attr.Item
	var size int
	_, err := db.viewRow(t, k.row, consistent, func(raw []byte) error {
		s, err := parseRow(raw)
		if err != nil {
			return err
		}
		size = s.size
		it, err = s.Item()
		return err
	})
	if err != nil {
		return nil, 0, fmt.Errorf("table %q: %w", t.meta.Name, err)
	}
	return it, size, nil
}

// readItemEncoded is readItem giving the item in its stored encoding, nil
// if none: checked as attr.DecodeItem checks it, and copied, not decoded,
// into buf if it has room.
func (db *DB) readItemEncoded(t *table, k itemKey, consistent bool, buf []byte) ([]byte, int, error) {
	r := encodedReads.Get().(*encodedRead)
	r.b = buf[:0]
	found, err := db.viewRow(t, k.row, consistent, r.view)
	b, size := r.b, r.size
	*r = encodedRead{view: r.view}
	encodedReads.Put(r)
	if err != nil {
		return nil, 0, fmt.Errorf("table %q: %w", t.meta.Name, err)
	}
	if !found {
		return nil, 0, nil
	}
	return b, size, nil
}

// encodedRead is readItemEncoded's reading of a row: its view method,
// bound once and kept with it in a pool, is what storage's View calls,
// so that a read allocates no closure.
type encodedRead struct {
	b    []byte // the item's encoding, appended
	size int
	view func(raw []byte) error
}

var encodedReads = sync.Pool{New: func() any {
	r := new(encodedRead)
	r.view = r.read
	return r
}}

func (r *encodedRead) read(raw []byte) error {
	s, err := parseRow(raw)
	if err != nil {
		return err
	}
	if err := attr.CheckItem(s.body); err != nil {
		return fmt.Errorf("decode item: %w", err)
	}
	r.size, r.b = s.size, append(r.b, s.body...)
	return nil
}

// readItemAttributes is readItem decoding only the top-level attributes
// names lists (sorted, without duplicates): the item holds those it has,
// and is empty, not nil, when found without any of them.
func (db *DB) readItemAttributes(t *table, k itemKey, consistent bool, names []string) (attr.Item, int, error) {
	var it attr.Item
	var size int
	_, err := db.viewRow(t, k.row, consistent, func(raw []byte) error {
		s, err := parseRow(raw)
		if err != nil {
			return err
		}
		it = attr.Item{}
		if err := attr.DecodeAttributes(it, s.body, names); err != nil {
			return fmt.Errorf("decode item: %w", err)
		}
		size = s.size
		return nil
	})
	if err != nil {
		return nil, 0, fmt.Errorf("table %q: %w", t.meta.Name, err)
	}
	return it, size, nil
}

// attributesToGet checks the legacy AttributesToGet member.
func (c *constraints) attributesToGet(names []string) {
	if names != nil && len(names) == 0 {
		c.add("Value '[]' at 'attributesToGet' failed to satisfy constraint: Member must have length greater than or equal to 1")
	}
}

// checkGetProjection compiles the ProjectionExpression of GetItem or a
// BatchGetItem table, where ExpressionAttributeNames can only serve a
// ProjectionExpression. It returns nil when there is none.
func checkGetProjection(cache *expr.Cache, projection string, empty dynamo.Exprs, names []string, exprNames map[string]string, trees *expr.Trees) (*expr.Projection, error) {
	return compileProjection(cache, expr.OpGetItem, projection, empty, exprNames, names, trees)
}

// checkAttributesToGet refuses a name listed twice, empty, or longer
// than an attribute's name may be (Alternator's test_limits.py,
// test_limit_attribute_length_nonkey_bad and
// test_limit_attribute_length_nonkey_empty, run against DynamoDB: a
// ValidationException naming the limit, or holding "Empty attribute
// name"; the texts are an item's, attr.MsgAttributeNameTooLarge and
// attr.MsgEmptyAttributeName).
func checkAttributesToGet(names []string) error {
	seen := make(map[string]bool, len(names))
	for _, n := range names {
		if n == "" {
			return dynamo.Validation(attr.MsgEmptyAttributeName)
		}
		if len(n) > attr.MaxAttributeNameSize {
			return dynamo.Validation(attr.MsgAttributeNameTooLarge)
		}
		if seen[n] {
			return dynamo.Validation(msgDuplicateAttributeToGet(n))
		}
		seen[n] = true
	}
	return nil
}

// project keeps only the named top-level attributes; nil names keep all.
// An item left with no attribute is returned empty, not nil, as DynamoDB
// returns "Item": {} for a found item none of whose attributes were asked.
func project(it attr.Item, names []string) attr.Item {
	if it == nil || names == nil {
		return it
	}
	out := make(attr.Item, len(names))
	for _, n := range names {
		if v, ok := it[n]; ok {
			out[n] = v
		}
	}
	return out
}
