package engine

import (
	"github.com/dynago/dynago/dynamo"
	"math"
)

// Capacity units as DynamoDB bills them.
//
// A read unit covers up to 4 KB of an item read with strong consistency;
// an eventually consistent read costs half. A write unit covers up to 1 KB.
// Each item is rounded up on its own, and every request costs at least one
// unit (half for an eventually consistent read), even when no item is found.
//
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/read-write-operations.html
const (
	readUnitBytes  = 4096
	writeUnitBytes = 1024
)

// readUnits is the cost of reading one item of size bytes.
func readUnits(size int, consistent bool) float64 {
	u := math.Ceil(float64(size) / readUnitBytes)
	if u < 1 {
		u = 1
	}
	if !consistent {
		u /= 2
	}
	return u
}

// writeUnits is the cost of writing one item of size bytes.
func writeUnits(size int) float64 {
	u := math.Ceil(float64(size) / writeUnitBytes)
	if u < 1 {
		u = 1
	}
	return u
}

// consumed records the units a read charged to table t (engine/meter.go)
// and builds the ConsumedCapacity the request asked for, or nil for NONE.
func (db *DB) consumed(t *table, mode string, units float64) *dynamo.ConsumedCapacity {
	db.bill(t, units, nil, false)
	switch mode {
	case dynamo.ReturnConsumedCapacityTotal:
		return &dynamo.ConsumedCapacity{TableName: t.meta.Name, CapacityUnits: ptr(units)}
	case dynamo.ReturnConsumedCapacityIndexes:
		return &dynamo.ConsumedCapacity{TableName: t.meta.Name, CapacityUnits: ptr(units), Table: &dynamo.Capacity{CapacityUnits: ptr(units)}}
	}
	return nil
}

func ptr[T any](v T) *T { return &v }
