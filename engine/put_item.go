package engine

import (
	"github.com/dynago/dynago/attr"
)

// PutItem creates or replaces an item.
//
// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_PutItem.html
func (db *DB) PutItem(in *PutItemInput) (*PutItemOutput, error) {
	var c constraints
	c.tableName("tableName", in.TableName)
	if in.Item == nil {
		c.add("Value null at 'item' failed to satisfy constraint: Member must not be null")
	}
	c.returnValues(in.ReturnValues)
	c.returnConsumedCapacity(in.ReturnConsumedCapacity)
	c.returnItemCollectionMetrics(in.ReturnItemCollectionMetrics)
	if err := c.err(); err != nil {
		return nil, err
	}
	if in.ReturnValues != "" && in.ReturnValues != ReturnValuesNone && in.ReturnValues != ReturnValuesAllOld {
		return nil, Validation("ReturnValues can only be ALL_OLD or NONE")
	}
	if err := checkExpressionParams(in.ConditionExpression, in.ExpressionAttributeNames, in.ExpressionAttributeValues); err != nil {
		return nil, err
	}
	if err := unsupportedConditions(in.ConditionExpression, in.Expected); err != nil {
		return nil, err
	}
	if err := canonicalize(in.Item); err != nil {
		return nil, err
	}
	// The size is checked before the table is looked up: DynamoDB refuses
	// an oversized item even for a table that does not exist.
	if attr.ItemSize(in.Item) > attr.MaxItemSize {
		return nil, errItemTooLarge
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
		if in.ReturnValues == ReturnValuesAllOld {
			if _, err := old.Item(); err != nil {
				return nil, false, err
			}
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
	out.ConsumedCapacity = consumed(t, in.ReturnConsumedCapacity, writeUnits(max(r.oldSize, r.newSize)))
	return out, nil
}

var errItemTooLarge = Validation("Item size has exceeded the maximum allowed size")

func (c *constraints) returnValues(v string) {
	// DynamoDB lists the values in this order.
	c.enum("returnValues", v, ReturnValuesAllNew, ReturnValuesUpdatedOld, ReturnValuesAllOld, ReturnValuesNone, ReturnValuesUpdatedNew)
}

// unsupportedConditions refuses condition parameters until the expression
// language lands, rather than ignoring a condition the caller relies on.
func unsupportedConditions(expr string, expected map[string]ExpectedAttributeValue) error {
	if expr != "" || expected != nil {
		return Validation("dynago does not support conditional writes yet")
	}
	return nil
}
