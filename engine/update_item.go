package engine

import (
	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/internal/expr"
)

// UpdateItem edits an item's attributes, creating the item when it does
// not exist (an upsert), under the item's lock: the condition is checked
// and the update applied to the item as it is at that moment, so
// concurrent counters never lose an increment.
//
// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_UpdateItem.html
func (db *DB) UpdateItem(in *dynamo.UpdateItemInput) (*dynamo.UpdateItemOutput, error) {
	return run(db, opUpdateItem, func() (*dynamo.UpdateItemOutput, error) { return db.updateItem(in, nil) })
}

func (db *DB) updateItem(in *dynamo.UpdateItemInput, st *statementExprs) (*dynamo.UpdateItemOutput, error) {
	t, k, w, err := db.startWrite(in, &itemWrite{kind: writeUpdate, item: in.Key, valueError: in.ValueError,
		tableName: in.TableName, noTableName: in.NoTableName,
		returnValues: in.ReturnValues, consumedCapacity: in.ReturnConsumedCapacity, collectionMetrics: in.ReturnItemCollectionMetrics,
		returnValuesOnConditionCheckFailure: in.ReturnValuesOnConditionCheckFailure,
		expr: writeRequest{op: expr.OpUpdateItem, condition: in.ConditionExpression, update: in.UpdateExpression,
			names: in.ExpressionAttributeNames, values: in.ExpressionAttributeValues, empty: in.EmptyExpressions,
			expected: in.Expected, conditionalOperator: in.ConditionalOperator,
			attributeUpdates: in.AttributeUpdates, trees: st.exprs(0),
		},
	})
	if err != nil {
		return nil, err
	}
	if w.update != nil {
		keyNames := []string{t.hashName}
		if t.rangeName != "" {
			keyNames = append(keyNames, t.rangeName)
		}
		if err := w.update.CheckKeys(keyNames...); err != nil {
			return nil, dynamo.AttrError(err)
		}
		if err := t.checkWrittenIndexKeys(w.update); err != nil {
			return nil, err
		}
		// A document path into a key attribute, which CheckKeys has
		// refused already where the update writes the table's key
		// (dynalite's updateItem tests against DynamoDB). Not of a
		// statement.
		if st == nil {
			if err := t.checkKeyPaths(w.update.NestedNames()); err != nil {
				return nil, err
			}
		}
	}
	if st == nil {
		if err := w.checkConditionKeyPaths(t, nil); err != nil {
			return nil, err
		}
	}
	if w.update != nil && in.UpdateExpression != "" && st == nil {
		// Charged from the request alone, before the condition is read.
		// A PartiQL UPDATE is not: it sizes the finished item alone,
		// and stores a 409,600-byte item at a one-byte key (paritysuite's
		// tests/tier3/limits/itemSizeBySurface.test.ts, "a PartiQL
		// UPDATE does not inherit the exclusion", eu-west-2).
		if updateCharge(w.update.Actions(), in.ExpressionAttributeNames, in.ExpressionAttributeValues) > attr.MaxItemSize {
			return nil, dynamo.Validation(msgUpdatedItemTooLarge)
		}
	}
	r, err := db.writeItem(t, k, func(old *storedItem) (attr.Item, bool, error) {
		cur, err := old.Item()
		if err != nil {
			return nil, false, err
		}
		if err := w.check(cur, in.ReturnValuesOnConditionCheckFailure); err != nil {
			return nil, false, err
		}
		base := cur
		if base == nil {
			// A new item starts as its key.
			base = t.keyItem(k)
		}
		next := base
		if w.update != nil {
			switch {
			case cur == nil:
				// A REMOVE of a nested path on a missing item does
				// nothing (expr.Update.ApplyMissing).
				next, err = w.update.ApplyMissing(base)
			case in.ReturnValues == dynamo.ReturnValuesAllOld || in.ReturnValues == dynamo.ReturnValuesUpdatedOld || len(t.indexes) > 0 || len(t.vectors) > 0:
				// The old item is returned, billed per index, or compared
				// with the new by the vector indexes' checks.
				next, err = w.update.Apply(base)
			default:
				// Nothing needs the old item: the update is written
				// into it, which the write forgets (the upkeep of an
				// index created since decodes it again from its
				// stored bytes).
				old.forget()
				next, err = w.update.ApplyInPlace(base)
			}
			if err != nil {
				return nil, false, dynamo.AttrError(err)
			}
		}
		if cur == nil && w.update != nil && len(w.update.Actions()) > 0 && len(next) == len(base) {
			// The update's actions left a missing item as nothing but
			// its key ("REMOVE a", "REMOVE a.b", or DELETE from a set
			// that is not there): DynamoDB creates no item, returns no
			// ALL_NEW attributes and writes no stream record (ScyllaDB
			// Alternator's test_item.py, test_update_item_non_existent,
			// run against DynamoDB). An update of no actions (an empty
			// AttributeUpdates) creates the key-only item, as a request
			// with no update member does (the same test).
			return nil, false, nil
		}
		if err := checkUpdatedItem(next); err != nil {
			return nil, false, err
		}
		if err := t.checkVectors(next, cur, true); err != nil {
			return nil, false, err
		}
		return next, true, nil
	})
	if err != nil {
		return nil, err
	}
	out := &dynamo.UpdateItemOutput{}
	switch in.ReturnValues {
	case dynamo.ReturnValuesAllOld:
		out.Attributes = r.old
	case dynamo.ReturnValuesAllNew:
		out.Attributes = r.new
	case dynamo.ReturnValuesUpdatedOld, dynamo.ReturnValuesUpdatedNew:
		src := r.new
		if in.ReturnValues == dynamo.ReturnValuesUpdatedOld {
			src = r.old
		}
		if w.update != nil && src != nil {
			out.Attributes = w.update.UpdatedPaths().Apply(src)
		}
	}
	if len(out.Attributes) == 0 {
		out.Attributes = nil
	}
	out.ConsumedCapacity = withVectorBytes(db.consumedWrite(t, in.ReturnConsumedCapacity, writeUnits(max(r.oldSize, r.newSize)), db.resultIndexUnits(t, k, r, in.ReturnConsumedCapacity)), db.resultVectorBytes(t, k, r, in.ReturnConsumedCapacity))
	db.chargeKey(t, k.row, writeUnits(max(r.oldSize, r.newSize)), true)
	out.ItemCollectionMetrics = t.collectionMetrics(in.ReturnItemCollectionMetrics, k)
	return out, nil
}

// checkUpdatedItem applies the limits a written item must meet to the
// result of an update: nesting depth and values as any item, and the size
// limit with UpdateItem's message.
func checkUpdatedItem(it attr.Item) error {
	if err := canonicalize(it); err != nil {
		return err
	}
	if attr.ItemSize(it) > attr.MaxItemSize {
		return dynamo.Validation(msgUpdatedItemTooLarge)
	}
	return nil
}
