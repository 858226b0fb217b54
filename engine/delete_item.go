package engine

import (
	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/internal/expr"
)

// DeleteItem deletes one item by its key. Deleting a missing item succeeds
// and still costs one write unit.
//
// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DeleteItem.html
func (db *DB) DeleteItem(in *dynamo.DeleteItemInput) (*dynamo.DeleteItemOutput, error) {
	return run(db, opDeleteItem, func() (*dynamo.DeleteItemOutput, error) { return db.deleteItem(in, nil) })
}

func (db *DB) deleteItem(in *dynamo.DeleteItemInput, trees *expr.Trees) (*dynamo.DeleteItemOutput, error) {
	t, k, w, err := db.startWrite(in, &itemWrite{kind: writeDelete, item: in.Key, valueError: in.ValueError,
		tableName: in.TableName, noTableName: in.NoTableName,
		returnValues: in.ReturnValues, consumedCapacity: in.ReturnConsumedCapacity, collectionMetrics: in.ReturnItemCollectionMetrics,
		returnValuesOnConditionCheckFailure: in.ReturnValuesOnConditionCheckFailure,
		expr: writeRequest{op: expr.OpDeleteItem, condition: in.ConditionExpression,
			names: in.ExpressionAttributeNames, values: in.ExpressionAttributeValues, empty: in.EmptyExpressions,
			expected: in.Expected, conditionalOperator: in.ConditionalOperator, trees: trees,
		},
	})
	if err != nil {
		return nil, err
	}
	r, err := db.writeItem(t, k, func(old *storedItem) (attr.Item, bool, error) {
		if err := w.checkStored(old, in.ReturnValues == dynamo.ReturnValuesAllOld, in.ReturnValuesOnConditionCheckFailure); err != nil {
			return nil, false, err
		}
		return nil, old.found, nil
	})
	if err != nil {
		return nil, err
	}
	out := &dynamo.DeleteItemOutput{}
	if in.ReturnValues == dynamo.ReturnValuesAllOld {
		out.Attributes = r.old
	}
	out.ConsumedCapacity = withVectorBytes(db.consumedWrite(t, in.ReturnConsumedCapacity, writeUnits(r.oldSize), db.resultIndexUnits(t, k, r, in.ReturnConsumedCapacity)), db.resultVectorBytes(t, k, r, in.ReturnConsumedCapacity))
	db.chargeKey(t, k.row, writeUnits(r.oldSize), true)
	out.ItemCollectionMetrics = t.collectionMetrics(in.ReturnItemCollectionMetrics, k)
	return out, nil
}
