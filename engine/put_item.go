package engine

import (
	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/internal/expr"
)

// PutItem creates or replaces an item.
//
// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_PutItem.html
func (db *DB) PutItem(in *PutItemInput) (*PutItemOutput, error) {
	// On a shared store, a table another node has deleted and created
	// again under the same name since this node read it makes the
	// request run again on the new table (engine/shared.go).
	out, err := retryConflicts(db, func() (*PutItemOutput, error) { return db.putItem(in) })
	return out, currentLayer(err, true)
}

func (db *DB) putItem(in *PutItemInput) (*PutItemOutput, error) {
	deep := func() bool { return deepRequest(in.Item, in.ExpressionAttributeValues, in.Expected, nil) }
	if in.Item != nil {
		if err := frameworkFirst(in.TableName, in.NoTableName, in.ReturnValues, false, deep); err != nil {
			return nil, err
		}
		if err := expectedOperatorFirst(in.ConditionalOperator, len(in.Expected), deep); err != nil {
			return nil, err
		}
	}
	var c constraints
	c.itemTableName(in.TableName, in.NoTableName)
	if in.Item == nil {
		c.add(fmtConstraintNull, "item")
	}
	c.writeReturnValues(in.ReturnValues, in.ReturnConsumedCapacity, in.ReturnItemCollectionMetrics,
		in.Item != nil && genericReturnValues(in.ReturnValues, in.TableName, in.NoTableName, deep))
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
	if err := itemValuesFirst(in, in.Item); err != nil {
		return nil, writeEnvelope(err, deep)
	}
	// The size is checked before the table is looked up: DynamoDB refuses
	// an oversized item even for a table that does not exist, and before
	// the legacy Expected (itemValuesFirst).
	if attr.ItemSize(in.Item) > attr.MaxItemSize {
		return nil, errItemTooLarge
	}
	w, err := compileWrite(writeRequest{cache: db.opts.ParseCaches.expr,
		op: expr.OpPutItem, condition: in.ConditionExpression,
		names: in.ExpressionAttributeNames, values: in.ExpressionAttributeValues, empty: in.EmptyExpressions,
		expected: in.Expected, conditionalOperator: in.ConditionalOperator,
	})
	if err != nil {
		return nil, writeEnvelope(err, deep)
	}
	t, err := db.tableOrNotFound(in.TableName)
	if err != nil {
		return nil, err
	}
	k, err := t.keyFromItem(in.Item)
	if err != nil {
		return nil, err
	}
	r, err := db.writeItem(t, k, func(old *storedItem) (attr.Item, bool, error) {
		if err := w.checkStored(old, in.ReturnValues == ReturnValuesAllOld, in.ReturnValuesOnConditionCheckFailure); err != nil {
			return nil, false, err
		}
		return in.Item, true, nil
	})
	if err != nil {
		return nil, err
	}
	out := &PutItemOutput{}
	if in.ReturnValues == ReturnValuesAllOld {
		out.Attributes = r.old
	}
	out.ConsumedCapacity = db.consumedWrite(t, in.ReturnConsumedCapacity, writeUnits(max(r.oldSize, r.newSize)), db.resultIndexUnits(t, k, r, in.ReturnConsumedCapacity))
	out.ItemCollectionMetrics = t.collectionMetrics(in.ReturnItemCollectionMetrics, k)
	return out, nil
}

var errItemTooLarge = Validation(msgItemTooLarge)

func (c *constraints) returnValues(v string) {
	// DynamoDB lists the values in this order.
	c.enum("returnValues", v, ReturnValuesAllNew, ReturnValuesUpdatedOld, ReturnValuesAllOld, ReturnValuesNone, ReturnValuesUpdatedNew)
}
