package engine

import (
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/internal/expr"
	"github.com/dynago/dynago/internal/keys"
)

// Scan reads a table in hash order, one page at a time. Segment i of
// TotalSegments n reads hash range i of n, so the segments are even,
// disjoint, and together the whole table.
//
// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_Scan.html
func (db *DB) Scan(in *dynamo.ScanInput) (*dynamo.ScanOutput, error) {
	return run(db, opScan, func() (*dynamo.ScanOutput, error) { return db.scan(in, nil) })
}

func (db *DB) scan(in *dynamo.ScanInput, trees *expr.Trees) (*dynamo.ScanOutput, error) {
	var c constraints
	c.itemTableName(in.TableName, in.NoTableName)
	c.indexName(in.IndexName)
	c.attributesToGet(in.AttributesToGet)
	c.limit(in.Limit)
	c.selectValue(in.Select)
	c.conditionalOperator(in.ConditionalOperator)
	c.returnConsumedCapacity(in.ReturnConsumedCapacity)
	if in.Segment != nil {
		c.minValue("segment", *in.Segment, 0)
		c.maxValue("segment", *in.Segment, 999999)
	}
	if in.TotalSegments != nil {
		c.minValue("totalSegments", *in.TotalSegments, 1)
		c.maxValue("totalSegments", *in.TotalSegments, 1000000)
	}
	if err := c.err(); err != nil {
		return nil, err
	}
	// Layers 2 and 3 as far as they go before the Segment rules
	// (dynalite's scan tests against DynamoDB: the mix, a name listed twice
	// in AttributesToGet, then ScanFilter's and ExclusiveStartKey's values,
	// each ahead of Segment without TotalSegments).
	if err := MixedParamsError(in); err != nil {
		return nil, err
	}
	if err := checkAttributesToGet(in.AttributesToGet); err != nil {
		return nil, err
	}
	// Each malformed value at its place (scanFilterFirst in
	// validation_order.go).
	if err := scanFilterFirst(in); err != nil {
		return nil, err
	}
	if err := bareStartKeyValues(in.ExclusiveStartKey); err != nil {
		return nil, err
	}
	switch {
	case in.Segment != nil && in.TotalSegments == nil:
		return nil, dynamo.Validation(msgSegmentWithoutTotal)
	case in.Segment == nil && in.TotalSegments != nil:
		return nil, dynamo.Validation(msgTotalWithoutSegment)
	case in.Segment != nil && *in.Segment >= *in.TotalSegments:
		return nil, dynamo.Validation(msgSegmentNotLess(*in.Segment, *in.TotalSegments))
	}
	if err := checkSelect(in.Select, in.IndexName, in.AttributesToGet, in.ProjectionExpression, false); err != nil {
		return nil, err
	}
	x, err := compileRead(readRequest{cache: db.opts.ParseCaches.expr,
		op: expr.OpScan, filter: in.FilterExpression, projection: in.ProjectionExpression,
		names: in.ExpressionAttributeNames, values: in.ExpressionAttributeValues, empty: in.EmptyExpressions,
		attributesToGet: in.AttributesToGet, filterParam: "ScanFilter", legacyFilter: in.ScanFilter,
		conditionalOperator: in.ConditionalOperator, trees: trees,
	})
	if err != nil {
		return nil, err
	}
	ks, err := db.readTarget(opNameScan, in.TableName, in.IndexName, in.Select, in.ConsistentRead)
	if err != nil {
		return nil, err
	}
	if err := ks.checkProjected(x.proj, in.AttributesToGet); err != nil {
		return nil, err
	}
	r := ks.scanRange(in.Segment, in.TotalSegments)
	if ks.isTable() {
		r.bill = newPartitionBill(scanPartitions(&ks.t.meta))
	}
	var fetchUnits float64
	db.shapeRead(ks, &r, in.Select, in.Limit, x, in.AttributesToGet, in.ConsistentRead, &fetchUnits)
	r.encoded = in.EncodedItems && r.project == nil && r.fetch == nil && !r.countOnly
	r.buffer = in.EncodedBuffer
	if in.ExclusiveStartKey != nil {
		// A table's Scan has the long text, an index's the short one
		// (ExtendDB's index helpers, 2026).
		bad := dynamo.MsgStartKeyInvalid
		if ks.isTable() {
			bad = msgScanStartKeyInvalid
		}
		_, _, row, err := ks.startKey(in.ExclusiveStartKey, dynamo.Validation(bad))
		if err != nil {
			return nil, err
		}
		if in.Segment != nil {
			_, _, hash, _, err := keys.SplitRowKey(row)
			if err != nil {
				return nil, err
			}
			if keys.SegmentOf(hash, int(*in.TotalSegments)) != int(*in.Segment) {
				return nil, dynamo.Validation(msgStartKeyWrongSegment(*in.TotalSegments, *in.Segment))
			}
		}
		r.resume(row)
	}
	// A document path into a key attribute, after the start key and
	// its segment (dynalite's scan tests against DynamoDB). Not of a
	// statement.
	if trees == nil {
		if err := x.checkKeyPaths(ks.t); err != nil {
			return nil, err
		}
	}
	return db.readPage(ks, r, in.ReturnConsumedCapacity, in.ConsistentRead, &fetchUnits)
}
