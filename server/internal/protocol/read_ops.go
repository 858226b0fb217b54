package protocol

import (
	"slices"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
)

// Query and Scan.

func conditionElem(d *decoder, c *dynamo.Condition) *dynamo.Error {
	_, err := d.object("Condition", atElement, func(key []byte) *dynamo.Error {
		switch string(key) {
		case "ComparisonOperator":
			return d.str(&c.ComparisonOperator)
		case "AttributeValueList":
			return decodeList(d, &c.AttributeValueList, atField, attrElem)
		}
		return d.skipValue()
	})
	return err
}

func (d *decoder) conditions(dst *map[string]dynamo.Condition) *dynamo.Error {
	return decodeMap(d, dst, modelPrefix+"Condition", atField, conditionElem)
}

// DecodeScan decodes a Scan request body.
func DecodeScan(body []byte) (*dynamo.ScanInput, error) {
	in := &dynamo.ScanInput{NoTableName: true}
	d := &decoder{data: body}
	err := d.root("ScanInput", func(key []byte) *dynamo.Error {
		switch string(key) {
		case "TableName":
			present, err := d.strPresent(&in.TableName)
			in.NoTableName = !present
			return err
		case "IndexName":
			return d.str(&in.IndexName)
		case "AttributesToGet":
			return d.strList(&in.AttributesToGet)
		case "Limit":
			return d.int32Ptr(&in.Limit)
		case "Select":
			return d.str(&in.Select)
		case "ScanFilter":
			return d.conditions(&in.ScanFilter)
		case "ConditionalOperator":
			return d.str(&in.ConditionalOperator)
		case "ExclusiveStartKey":
			d.startKey = true
			err := d.item(&in.ExclusiveStartKey, atField)
			d.startKey = false
			return err
		case "ReturnConsumedCapacity":
			return d.str(&in.ReturnConsumedCapacity)
		case "TotalSegments":
			return d.int32Ptr(&in.TotalSegments)
		case "Segment":
			return d.int32Ptr(&in.Segment)
		case "ProjectionExpression":
			return d.expression(&in.ProjectionExpression, &in.EmptyExpressions, dynamo.ExprProjection)
		case "FilterExpression":
			return d.expression(&in.FilterExpression, &in.EmptyExpressions, dynamo.ExprFilter)
		case "ExpressionAttributeNames":
			return d.strMap(&in.ExpressionAttributeNames)
		case "ExpressionAttributeValues":
			return d.exprValues(&in.ExpressionAttributeValues)
		case "ConsistentRead":
			_, err := d.boolean(&in.ConsistentRead)
			return err
		}
		return d.skipValue()
	})
	err = d.handOver(err, &in.ValueError)
	if err != nil {
		return nil, err
	}
	return in, nil
}

// DecodeQuery decodes a Query request body.
func DecodeQuery(body []byte) (*dynamo.QueryInput, error) {
	in := &dynamo.QueryInput{NoTableName: true}
	d := &decoder{data: body}
	err := d.root("QueryInput", func(key []byte) *dynamo.Error {
		switch string(key) {
		case "TableName":
			present, err := d.strPresent(&in.TableName)
			in.NoTableName = !present
			return err
		case "IndexName":
			return d.str(&in.IndexName)
		case "Select":
			return d.str(&in.Select)
		case "AttributesToGet":
			return d.strList(&in.AttributesToGet)
		case "Limit":
			return d.int32Ptr(&in.Limit)
		case "ConsistentRead":
			_, err := d.boolean(&in.ConsistentRead)
			return err
		case "KeyConditions":
			return d.conditions(&in.KeyConditions)
		case "QueryFilter":
			return d.conditions(&in.QueryFilter)
		case "ConditionalOperator":
			return d.str(&in.ConditionalOperator)
		case "ScanIndexForward":
			return d.boolPtr(&in.ScanIndexForward)
		case "ExclusiveStartKey":
			d.startKey = true
			err := d.item(&in.ExclusiveStartKey, atField)
			d.startKey = false
			return err
		case "ReturnConsumedCapacity":
			return d.str(&in.ReturnConsumedCapacity)
		case "ProjectionExpression":
			return d.expression(&in.ProjectionExpression, &in.EmptyExpressions, dynamo.ExprProjection)
		case "FilterExpression":
			return d.expression(&in.FilterExpression, &in.EmptyExpressions, dynamo.ExprFilter)
		case "KeyConditionExpression":
			return d.expression(&in.KeyConditionExpression, &in.EmptyExpressions, dynamo.ExprKeyCondition)
		case "ExpressionAttributeNames":
			return d.strMap(&in.ExpressionAttributeNames)
		case "ExpressionAttributeValues":
			return d.exprValues(&in.ExpressionAttributeValues)
		}
		return d.skipValue()
	})
	err = d.handOver(err, &in.ValueError)
	if err != nil {
		return nil, err
	}
	return in, nil
}

// appendPage appends the members Query and Scan responses share. Items is
// left out for Select COUNT (nil), as DynamoDB leaves it out.
// Items given in attr's encoding (encoded, not nil) are written from it.
func appendPage(dst []byte, items []attr.Item, encoded [][]byte, count, scanned int, last attr.Item, cc *dynamo.ConsumedCapacity) []byte {
	dst = append(dst, '{')
	dst = consumedMember(dst, cc)
	dst = intMember(dst, "Count", int64(count))
	if encoded != nil {
		// Room for the items at once, rather than regrowing a page's
		// megabyte: their JSON is their encoding with the types' and
		// names' wrapping, a little larger.
		n := 0
		for _, b := range encoded {
			n += len(b)
		}
		dst = slices.Grow(dst, n+n/4+64*len(encoded))
		dst = append(member(dst, "Items"), '[')
		for _, b := range encoded {
			r := attr.RawItem(b)
			dst = appendRawItem(comma(dst), &r)
		}
		dst = append(dst, ']')
	} else if items != nil {
		dst = append(member(dst, "Items"), '[')
		for _, it := range items {
			dst = appendItem(comma(dst), it)
		}
		dst = append(dst, ']')
	}
	dst = itemMember(dst, "LastEvaluatedKey", last)
	dst = intMember(dst, "ScannedCount", int64(scanned))
	return append(dst, '}')
}

// EncodeScan appends Scan's response body to dst.
func EncodeScan(dst []byte, out *dynamo.ScanOutput) []byte {
	if out == nil {
		out = &dynamo.ScanOutput{}
	}
	return appendPage(dst, out.Items, out.EncodedItems, out.Count, out.ScannedCount, out.LastEvaluatedKey, out.ConsumedCapacity)
}

// EncodeQuery appends Query's response body to dst.
func EncodeQuery(dst []byte, out *dynamo.QueryOutput) []byte {
	if out == nil {
		out = &dynamo.QueryOutput{}
	}
	return appendPage(dst, out.Items, out.EncodedItems, out.Count, out.ScannedCount, out.LastEvaluatedKey, out.ConsumedCapacity)
}
