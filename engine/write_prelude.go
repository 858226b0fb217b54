package engine

import (
	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
)

// writeKind tells the single-item writes apart where their preludes
// differ.
type writeKind uint8

const (
	writePut writeKind = iota
	writeDelete
	writeUpdate
)

// itemWrite is what PutItem, DeleteItem and UpdateItem share of their
// requests: what their prelude (DB.startWrite) checks and looks up before
// the item is locked.
type itemWrite struct {
	kind        writeKind
	tableName   string
	noTableName bool
	// item is PutItem's Item, or the Key of DeleteItem and UpdateItem.
	item                                attr.Item
	valueError                          error
	returnValues                        string
	consumedCapacity                    string
	collectionMetrics                   string
	returnValuesOnConditionCheckFailure string
	// expr is the request's expression part (and its legacy
	// parameters); startWrite gives it the DB's cache.
	expr writeRequest
}

// deep reports whether the request is read past the depth guard
// (deepRequest).
func (w *itemWrite) deep() bool {
	return deepRequest(w.item, w.expr.values, w.expr.expected, w.expr.attributeUpdates)
}

// startWrite runs what the single-item writes check before they lock
// their item, in DynamoDB's order (engine/validation_order.go): the
// framework's first answers, the member constraints, the value layer and
// the request's parameters, the expressions, the table and the key. It
// returns the table, the item's key and the compiled condition and
// update. in is the request itself, for the checks that read all of it;
// it is not a field of w, as escape analysis follows a struct's fields as
// one, and would move every request to the heap.
func (db *DB) startWrite(in any, w *itemWrite) (*table, itemKey, writeExprs, error) {
	var none writeExprs
	deep := w.deep
	if w.item != nil {
		if err := frameworkFirst(w.tableName, w.noTableName, w.returnValues, w.kind == writeUpdate, deep); err != nil {
			return nil, itemKey{}, none, err
		}
		if err := expectedOperatorFirst(w.expr.conditionalOperator, len(w.expr.expected), deep); err != nil {
			return nil, itemKey{}, none, err
		}
	}
	if err := w.members(deep); err != nil {
		return nil, itemKey{}, none, err
	}
	if w.kind != writeUpdate && w.returnValues != "" && w.returnValues != dynamo.ReturnValuesNone && w.returnValues != dynamo.ReturnValuesAllOld {
		return nil, itemKey{}, none, returnValuesOldOnly(deep)
	}
	if err := valueLayer(w.valueError, in); err != nil {
		return nil, itemKey{}, none, writeEnvelope(err, deep)
	}
	if w.kind != writeDelete {
		if err := itemValuesFirst(in, w.item); err != nil {
			return nil, itemKey{}, none, writeEnvelope(err, deep)
		}
	}
	// PutItem's size is checked before the table is looked up: DynamoDB
	// refuses an oversized item even for a table that does not exist,
	// and before the legacy Expected (itemValuesFirst).
	if w.kind == writePut && attr.ItemSize(w.item) > attr.MaxItemSize {
		return nil, itemKey{}, none, errItemTooLarge
	}
	w.expr.cache = db.opts.ParseCaches.expr
	x, err := compileWrite(w.expr)
	if err != nil {
		return nil, itemKey{}, none, writeEnvelope(err, deep)
	}
	if w.kind == writeDelete {
		if err := canonicalize(w.item); err != nil {
			return nil, itemKey{}, none, err
		}
	}
	t, err := db.tableOrNotFound(w.tableName)
	if err != nil {
		return nil, itemKey{}, none, err
	}
	var k itemKey
	if w.kind == writePut {
		k, err = t.primaryKey(w.item, keyOfItem)
	} else {
		k, err = t.primaryKey(w.item, keyOfKey)
	}
	if err != nil {
		return nil, itemKey{}, none, err
	}
	db.noteItemKey(t, k)
	// A condition's document path into a key attribute, after the key;
	// UpdateItem checks it after its update (DB.updateItem). Not of a
	// statement.
	if w.kind != writeUpdate {
		if err := x.checkConditionKeyPaths(t, w.expr.trees); err != nil {
			return nil, itemKey{}, none, err
		}
	}
	// Enforced capacity, once the request is valid (engine/throttle.go).
	if e := db.admit(t, admission{write: true, row: k.row}); e != nil {
		return nil, itemKey{}, none, e
	}
	return t, k, x, nil
}

// members checks the request's member constraints, in the operation's
// order of members.
func (w *itemWrite) members(deep func() bool) error {
	var c constraints
	if w.kind == writeUpdate {
		// DynamoDB's order of UpdateItem's members
		// (engine/validation_order.go).
		c.returnConsumedCapacity(w.consumedCapacity)
		c.itemTableName(w.tableName, w.noTableName)
		c.returnItemCollectionMetrics(w.collectionMetrics)
		c.returnValues(w.returnValues)
		c.returnValuesOnConditionCheckFailure(w.returnValuesOnConditionCheckFailure)
		c.conditionalOperator(w.expr.conditionalOperator)
		for _, name := range sortedKeys(w.expr.attributeUpdates) {
			c.enum("attributeUpdates."+name+".member.action", w.expr.attributeUpdates[name].Action, "ADD", "PUT", "DELETE")
		}
		if w.item == nil {
			c.add(fmtConstraintNull, "key")
		}
		return c.err()
	}
	c.itemTableName(w.tableName, w.noTableName)
	if w.item == nil {
		member := "key"
		if w.kind == writePut {
			member = "item"
		}
		c.add(fmtConstraintNull, member)
	}
	c.writeReturnValues(w.returnValues, w.consumedCapacity, w.collectionMetrics,
		w.item != nil && genericReturnValues(w.returnValues, w.tableName, w.noTableName, deep))
	c.returnValuesOnConditionCheckFailure(w.returnValuesOnConditionCheckFailure)
	c.conditionalOperator(w.expr.conditionalOperator)
	return c.err()
}
