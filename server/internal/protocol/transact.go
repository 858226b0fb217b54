package protocol

import (
	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
)

// TransactWriteItems and TransactGetItems: decoders and encoders.

// optStr reads an optional string member and records whether it was
// present (not null).
func (d *decoder) optStr(dst *string, set *bool) *dynamo.Error {
	kind, text, err := d.token()
	if err != nil {
		return err
	}
	switch kind {
	case tkString:
		*dst, *set = string(text), true
		return nil
	case tkNull:
		return nil
	}
	return convError(kind, "String")
}

// txCommon is the members every write action shares.
type txCommon struct {
	table, cond, onFail *string
	names               *map[string]string
	values              *attr.Item
	empty               *dynamo.Exprs
	valuesErr           *error // where a malformed value of values goes
}

// member decodes one of the shared members; ok is false for others.
func (c txCommon) member(d *decoder, key []byte) (bool, *dynamo.Error) {
	switch string(key) {
	case "TableName":
		return true, d.str(c.table)
	case "ConditionExpression":
		return true, d.expression(c.cond, c.empty, dynamo.ExprCondition)
	case "ExpressionAttributeNames":
		return true, d.strMap(c.names)
	case "ExpressionAttributeValues":
		return true, d.placed(c.valuesErr, func() *dynamo.Error { return d.exprValues(c.values) })
	case "ReturnValuesOnConditionCheckFailure":
		return true, d.str(c.onFail)
	}
	return false, nil
}

func transactWriteItemElem(d *decoder, ti *dynamo.TransactWriteItem) *dynamo.Error {
	_, err := d.object("TransactWriteItem", atElement, func(key []byte) *dynamo.Error {
		switch string(key) {
		case "ConditionCheck":
			x := new(dynamo.TransactConditionCheck)
			c := txCommon{&x.TableName, &x.ConditionExpression, &x.ReturnValuesOnConditionCheckFailure, &x.ExpressionAttributeNames, &x.ExpressionAttributeValues, &x.EmptyExpressions, &ti.ExprValueError}
			ok, err := d.object("ConditionCheck", atField, func(key []byte) *dynamo.Error {
				if ok, err := c.member(d, key); ok {
					return err
				}
				if string(key) == "Key" {
					return d.placed(&ti.ValueError, func() *dynamo.Error { return d.item(&x.Key, atField) })
				}
				return d.skipValue()
			})
			if ok {
				ti.ConditionCheck = x
			}
			return err
		case "Put":
			x := new(dynamo.TransactPut)
			c := txCommon{&x.TableName, &x.ConditionExpression, &x.ReturnValuesOnConditionCheckFailure, &x.ExpressionAttributeNames, &x.ExpressionAttributeValues, &x.EmptyExpressions, &ti.ExprValueError}
			ok, err := d.object("Put", atField, func(key []byte) *dynamo.Error {
				if ok, err := c.member(d, key); ok {
					return err
				}
				if string(key) == "Item" {
					return d.placed(&ti.ValueError, func() *dynamo.Error { return d.item(&x.Item, atField) })
				}
				return d.skipValue()
			})
			if ok {
				ti.Put = x
			}
			return err
		case "Update":
			x := new(dynamo.TransactUpdate)
			c := txCommon{&x.TableName, &x.ConditionExpression, &x.ReturnValuesOnConditionCheckFailure, &x.ExpressionAttributeNames, &x.ExpressionAttributeValues, &x.EmptyExpressions, &ti.ExprValueError}
			ok, err := d.object("Update", atField, func(key []byte) *dynamo.Error {
				if ok, err := c.member(d, key); ok {
					return err
				}
				switch string(key) {
				case "Key":
					return d.placed(&ti.ValueError, func() *dynamo.Error { return d.item(&x.Key, atField) })
				case "UpdateExpression":
					return d.expression(&x.UpdateExpression, &x.EmptyExpressions, dynamo.ExprUpdate)
				}
				return d.skipValue()
			})
			if ok {
				ti.Update = x
			}
			return err
		case "Delete":
			x := new(dynamo.TransactDelete)
			c := txCommon{&x.TableName, &x.ConditionExpression, &x.ReturnValuesOnConditionCheckFailure, &x.ExpressionAttributeNames, &x.ExpressionAttributeValues, &x.EmptyExpressions, &ti.ExprValueError}
			ok, err := d.object("Delete", atField, func(key []byte) *dynamo.Error {
				if ok, err := c.member(d, key); ok {
					return err
				}
				if string(key) == "Key" {
					return d.placed(&ti.ValueError, func() *dynamo.Error { return d.item(&x.Key, atField) })
				}
				return d.skipValue()
			})
			if ok {
				ti.Delete = x
			}
			return err
		}
		return d.skipValue()
	})
	return err
}

// DecodeTransactWriteItems decodes a TransactWriteItems request body.
func DecodeTransactWriteItems(body []byte) (*dynamo.TransactWriteItemsInput, error) {
	in := new(dynamo.TransactWriteItemsInput)
	d := &decoder{data: body}
	err := d.root("TransactWriteItemsInput", func(key []byte) *dynamo.Error {
		switch string(key) {
		case "TransactItems":
			return decodeList(d, &in.TransactItems, atField, transactWriteItemElem)
		case "ReturnConsumedCapacity":
			return d.str(&in.ReturnConsumedCapacity)
		case "ReturnItemCollectionMetrics":
			return d.str(&in.ReturnItemCollectionMetrics)
		case "ClientRequestToken":
			return d.optStr(&in.ClientRequestToken, &in.ClientRequestTokenSet)
		}
		return d.skipValue()
	})
	if err != nil {
		return nil, err
	}
	return in, nil
}

func transactGetItemElem(d *decoder, ti *dynamo.TransactGetItem) *dynamo.Error {
	_, err := d.object("TransactGetItem", atElement, func(key []byte) *dynamo.Error {
		if string(key) != "Get" {
			return d.skipValue()
		}
		g := new(dynamo.TransactGet)
		ok, err := d.object("Get", atField, func(key []byte) *dynamo.Error {
			switch string(key) {
			case "TableName":
				return d.str(&g.TableName)
			case "Key":
				return d.placed(&g.ValueError, func() *dynamo.Error { return d.item(&g.Key, atField) })
			case "ProjectionExpression":
				return d.expression(&g.ProjectionExpression, &g.EmptyExpressions, dynamo.ExprProjection)
			case "ExpressionAttributeNames":
				return d.strMap(&g.ExpressionAttributeNames)
			}
			return d.skipValue()
		})
		if ok {
			ti.Get = g
		}
		return err
	})
	return err
}

// DecodeTransactGetItems decodes a TransactGetItems request body.
func DecodeTransactGetItems(body []byte) (*dynamo.TransactGetItemsInput, error) {
	in := new(dynamo.TransactGetItemsInput)
	d := &decoder{data: body}
	err := d.root("TransactGetItemsInput", func(key []byte) *dynamo.Error {
		switch string(key) {
		case "TransactItems":
			return decodeList(d, &in.TransactItems, atField, transactGetItemElem)
		case "ReturnConsumedCapacity":
			return d.str(&in.ReturnConsumedCapacity)
		}
		return d.skipValue()
	})
	if err != nil {
		return nil, err
	}
	return in, nil
}

// EncodeTransactWriteItems appends TransactWriteItems' response body to dst.
func EncodeTransactWriteItems(dst []byte, out *dynamo.TransactWriteItemsOutput) []byte {
	if out == nil {
		out = &dynamo.TransactWriteItemsOutput{}
	}
	dst = append(dst, '{')
	dst = consumedListMember(dst, out.ConsumedCapacity)
	if out.ItemCollectionMetrics != nil {
		var buf [8]string
		dst = append(member(dst, "ItemCollectionMetrics"), '{')
		for _, table := range sortedKeys(out.ItemCollectionMetrics, buf[:]) {
			dst = append(mapKey(dst, table), '[')
			list := out.ItemCollectionMetrics[table]
			for i := range list {
				dst = appendItemCollectionMetrics(comma(dst), &list[i])
			}
			dst = append(dst, ']')
		}
		dst = append(dst, '}')
	}
	return append(dst, '}')
}

// EncodeTransactGetItems appends TransactGetItems' response body to dst:
// Responses holds one object per Get, {} for an item that does not exist.
func EncodeTransactGetItems(dst []byte, out *dynamo.TransactGetItemsOutput) []byte {
	if out == nil {
		out = &dynamo.TransactGetItemsOutput{}
	}
	dst = append(dst, '{')
	dst = consumedListMember(dst, out.ConsumedCapacity)
	if out.Responses != nil {
		dst = append(member(dst, "Responses"), '[')
		for _, r := range out.Responses {
			dst = append(comma(dst), '{')
			dst = itemMember(dst, "Item", r.Item)
			dst = append(dst, '}')
		}
		dst = append(dst, ']')
	}
	return append(dst, '}')
}
