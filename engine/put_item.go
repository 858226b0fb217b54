package engine

import (
	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/internal/expr"
)

// PutItem creates or replaces an item.
//
// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_PutItem.html
func (db *DB) PutItem(in *dynamo.PutItemInput) (*dynamo.PutItemOutput, error) {
	return run(db, opPutItem, func() (*dynamo.PutItemOutput, error) { return db.putItem(in, nil) })
}

func (db *DB) putItem(in *dynamo.PutItemInput, trees *expr.Trees) (*dynamo.PutItemOutput, error) {
	t, k, w, err := db.startWrite(in, &itemWrite{kind: writePut, item: in.Item, valueError: in.ValueError,
		tableName: in.TableName, noTableName: in.NoTableName,
		returnValues: in.ReturnValues, consumedCapacity: in.ReturnConsumedCapacity, collectionMetrics: in.ReturnItemCollectionMetrics,
		returnValuesOnConditionCheckFailure: in.ReturnValuesOnConditionCheckFailure,
		expr: writeRequest{op: expr.OpPutItem, condition: in.ConditionExpression,
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
		// Where a GSI's key is checked (maintainIndexes), after the
		// condition.
		if err := t.checkVectors(in.Item, nil, false); err != nil {
			return nil, false, err
		}
		return in.Item, true, nil
	})
	if err != nil {
		return nil, err
	}
	out := &dynamo.PutItemOutput{}
	if in.ReturnValues == dynamo.ReturnValuesAllOld {
		out.Attributes = r.old
	}
	out.ConsumedCapacity = withVectorBytes(db.consumedWrite(t, in.ReturnConsumedCapacity, writeUnits(max(r.oldSize, r.newSize)), db.resultIndexUnits(t, k, r, in.ReturnConsumedCapacity)), db.resultVectorBytes(t, k, r, in.ReturnConsumedCapacity))
	db.chargeKey(t, k.row, writeUnits(max(r.oldSize, r.newSize)), true)
	out.ItemCollectionMetrics = t.collectionMetrics(in.ReturnItemCollectionMetrics, k)
	return out, nil
}

var errItemTooLarge = dynamo.Validation(msgItemTooLarge)

func (c *constraints) returnValues(v string) {
	// DynamoDB lists the values in this order.
	c.enum("returnValues", v, dynamo.ReturnValuesAllNew, dynamo.ReturnValuesUpdatedOld, dynamo.ReturnValuesAllOld, dynamo.ReturnValuesNone, dynamo.ReturnValuesUpdatedNew)
}
