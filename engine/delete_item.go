package engine

import (
	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/internal/expr"
)

// DeleteItem deletes one item by its key. Deleting a missing item succeeds
// and still costs one write unit.
//
// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DeleteItem.html
func (db *DB) DeleteItem(in *DeleteItemInput) (*DeleteItemOutput, error) {
	// On a shared store, a table another node has deleted and created
	// again under the same name since this node read it makes the
	// request run again on the new table (engine/shared.go).
	out, err := retryConflicts(db, func() (*DeleteItemOutput, error) { return db.deleteItem(in) })
	return out, currentLayer(err, true)
}

func (db *DB) deleteItem(in *DeleteItemInput) (*DeleteItemOutput, error) {
	deep := func() bool { return deepRequest(in.Key, in.ExpressionAttributeValues, in.Expected, nil) }
	if in.Key != nil {
		if err := frameworkFirst(in.TableName, in.NoTableName, in.ReturnValues, false, deep); err != nil {
			return nil, err
		}
		if err := expectedOperatorFirst(in.ConditionalOperator, len(in.Expected), deep); err != nil {
			return nil, err
		}
	}
	var c constraints
	c.itemTableName(in.TableName, in.NoTableName)
	if in.Key == nil {
		c.add(fmtConstraintNull, "key")
	}
	c.writeReturnValues(in.ReturnValues, in.ReturnConsumedCapacity, in.ReturnItemCollectionMetrics,
		in.Key != nil && genericReturnValues(in.ReturnValues, in.TableName, in.NoTableName, deep))
	c.returnValuesOnConditionCheckFailure(in.ReturnValuesOnConditionCheckFailure)
	c.conditionalOperator(in.ConditionalOperator)
	if err := c.err(); err != nil {
		return nil, err
	}
	if in.ReturnValues != "" && in.ReturnValues != ReturnValuesNone && in.ReturnValues != ReturnValuesAllOld {
		return nil, returnValuesOldOnly(deep)
	}
	if err := valueLayer(in.ValueError, in); err != nil {
		return nil, writeEnvelope(err, deep)
	}
	w, err := compileWrite(writeRequest{cache: db.opts.ParseCaches.expr,
		op: expr.OpDeleteItem, condition: in.ConditionExpression,
		names: in.ExpressionAttributeNames, values: in.ExpressionAttributeValues, empty: in.EmptyExpressions,
		expected: in.Expected, conditionalOperator: in.ConditionalOperator,
	})
	if err != nil {
		return nil, writeEnvelope(err, deep)
	}
	if err := canonicalize(in.Key); err != nil {
		return nil, err
	}
	t, err := db.tableOrNotFound(in.TableName)
	if err != nil {
		return nil, err
	}
	k, err := t.keyFromKey(in.Key)
	if err != nil {
		return nil, err
	}
	r, err := db.writeItem(t, k, func(old *storedItem) (attr.Item, bool, error) {
		if err := w.checkStored(old, in.ReturnValues == ReturnValuesAllOld, in.ReturnValuesOnConditionCheckFailure); err != nil {
			return nil, false, err
		}
		return nil, old.found, nil
	})
	if err != nil {
		return nil, err
	}
	out := &DeleteItemOutput{}
	if in.ReturnValues == ReturnValuesAllOld {
		out.Attributes = r.old
	}
	out.ConsumedCapacity = db.consumedWrite(t, in.ReturnConsumedCapacity, writeUnits(r.oldSize), db.resultIndexUnits(t, k, r, in.ReturnConsumedCapacity))
	out.ItemCollectionMetrics = t.collectionMetrics(in.ReturnItemCollectionMetrics, k)
	return out, nil
}
