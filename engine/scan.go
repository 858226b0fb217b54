package engine

import (
	"fmt"

	"github.com/dynago/dynago/internal/expr"
	"github.com/dynago/dynago/internal/keys"
)

// Scan reads a table in hash order, one page at a time. Segment i of
// TotalSegments n reads hash range i of n, so the segments are even,
// disjoint, and together the whole table.
//
// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_Scan.html
func (db *DB) Scan(in *ScanInput) (*ScanOutput, error) {
	var c constraints
	c.tableName("tableName", in.TableName)
	c.indexName(in.IndexName)
	c.attributesToGet(in.AttributesToGet)
	c.limit(in.Limit)
	c.selectValue(in.Select)
	c.conditionalOperator(in.ConditionalOperator)
	c.returnConsumedCapacity(in.ReturnConsumedCapacity)
	if in.Segment != nil && (*in.Segment < 0 || *in.Segment > 999999) {
		if *in.Segment < 0 {
			c.add("Value '%d' at 'segment' failed to satisfy constraint: Member must have value greater than or equal to 0", *in.Segment)
		} else {
			c.add("Value '%d' at 'segment' failed to satisfy constraint: Member must have value less than or equal to 999999", *in.Segment)
		}
	}
	if in.TotalSegments != nil && (*in.TotalSegments < 1 || *in.TotalSegments > 1000000) {
		if *in.TotalSegments < 1 {
			c.add("Value '%d' at 'totalSegments' failed to satisfy constraint: Member must have value greater than or equal to 1", *in.TotalSegments)
		} else {
			c.add("Value '%d' at 'totalSegments' failed to satisfy constraint: Member must have value less than or equal to 1000000", *in.TotalSegments)
		}
	}
	if err := c.err(); err != nil {
		return nil, err
	}
	switch {
	case in.Segment != nil && in.TotalSegments == nil:
		return nil, Validation("The TotalSegments parameter is required but was not present in the request when Segment parameter is present")
	case in.Segment == nil && in.TotalSegments != nil:
		return nil, Validation("The Segment parameter is required but was not present in the request when parameter TotalSegments is present")
	case in.Segment != nil && *in.Segment >= *in.TotalSegments:
		return nil, Validation(fmt.Sprintf("The Segment parameter is zero-based and must be less than parameter TotalSegments: Segment: %d is not less than TotalSegments: %d", *in.Segment, *in.TotalSegments))
	}
	if err := checkSelect(in.Select, in.IndexName, in.AttributesToGet, in.ProjectionExpression); err != nil {
		return nil, err
	}
	x, err := compileRead(readRequest{
		op: expr.OpScan, filter: in.FilterExpression, projection: in.ProjectionExpression,
		names: in.ExpressionAttributeNames, values: in.ExpressionAttributeValues, empty: in.EmptyExpressions,
		attributesToGet: in.AttributesToGet, filterParam: "ScanFilter", legacyFilter: in.ScanFilter,
		conditionalOperator: in.ConditionalOperator,
	})
	if err != nil {
		return nil, err
	}
	if in.ExclusiveStartKey != nil {
		if err := canonicalize(in.ExclusiveStartKey); err != nil {
			return nil, err
		}
	}
	t, err := db.tableOrNotFound(in.TableName)
	if err != nil {
		return nil, err
	}
	ix, err := t.readIndex(in.IndexName, in.Select, in.ConsistentRead)
	if err != nil {
		return nil, err
	}
	var indexID uint32
	if ix != nil {
		indexID = ix.meta.ID
	}

	r := rangeRead{countOnly: in.Select == SelectCount}
	if in.Limit != nil {
		r.limit = int(*in.Limit)
	}
	x.apply(&r, in.AttributesToGet)
	var fetchUnits float64
	if t.lsiFetch(ix, in.Select, x, in.AttributesToGet) {
		r.fetch = db.fetcher(t, in.ConsistentRead, &fetchUnits)
	}
	if in.Segment != nil {
		r.lower, r.upper = keys.SegmentBounds(t.meta.ID, indexID, int(*in.Segment), int(*in.TotalSegments))
	} else {
		r.lower = keys.IndexPrefix(t.meta.ID, indexID)
		r.upper = keys.PrefixEnd(r.lower)
	}
	if in.ExclusiveStartKey != nil {
		bad := Validation("The provided starting key is invalid: The provided key element does not match the schema")
		var row []byte
		if ix != nil {
			if _, _, row, err = t.indexStartKey(ix, in.ExclusiveStartKey, bad); err != nil {
				return nil, err
			}
		} else {
			k, err := t.startKey(in.ExclusiveStartKey, bad)
			if err != nil {
				return nil, err
			}
			row = k.row
		}
		if in.Segment != nil {
			_, _, hash, _, err := keys.SplitRowKey(row)
			if err != nil {
				return nil, err
			}
			if keys.SegmentOf(hash, int(*in.TotalSegments)) != int(*in.Segment) {
				// The message real DynamoDB gives, as reported in
				// https://github.com/scylladb/scylladb/pull/9270.
				return nil, Validation(fmt.Sprintf("The provided starting key is invalid: Invalid ExclusiveStartKey. Please use ExclusiveStartKey with correct Segment. TotalSegments: %d Segment: %d", *in.TotalSegments, *in.Segment))
			}
		}
		r.resume(row)
	}
	return db.readPage(t, ix, r, in.ReturnConsumedCapacity, in.ConsistentRead, &fetchUnits)
}
