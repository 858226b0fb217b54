package engine

import (
	"math"

	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/internal/keys"
)

// A Scan of a table is billed partition by partition: the page reads each
// storage partition of its hash range in turn, from the one holding its
// start to the one where it stops, and each partition's read is rounded up
// to 4 KB on its own, at least one unit (half for an eventually consistent
// read) even when that partition holds no item. So a Scan of a new
// on-demand table that holds one small item costs 4 units strongly
// consistent and 2 eventually consistent, where a Query or GetItem of the
// same item costs 1 and 0.5 (ScyllaDB Alternator's
// test/alternator/test_returnconsumedcapacity.py, test_scan_consumed_capacity
// and test_query_consumed_capacity, which pass against DynamoDB).
//
// The partitions are the table's hash space cut into scanPartitions equal
// ranges, as parallel-scan segments are (keys.SegmentOf). A Scan of a
// table pays this way, and so does a PartiQL SELECT that scans one (it is a
// Scan); a Query reads one partition, and a Scan of a secondary index keeps
// the bill of the bytes read, rounded once per page, for want of a
// recording.

// onDemandPartitions is how many partitions a Scan of an on-demand table
// crosses: a new on-demand table serves up to 4,000 writes a second at
// 1,000 per partition, and its one-item Scan bills 4 units (above).
const onDemandPartitions = 4

// scanPartitions is how many partitions a Scan of table m crosses: four
// for an on-demand table, and for a provisioned one the number DynamoDB's
// guide gave for a table's throughput, ReadCapacityUnits / 3,000 +
// WriteCapacityUnits / 1,000 rounded up, at least one (developer guide,
// "Guidelines for working with tables", partitions; data size, which also
// splits partitions, is not counted).
func scanPartitions(m *tableMeta) int {
	if m.BillingMode == dynamo.BillingModePayPerRequest {
		return onDemandPartitions
	}
	n := int(math.Ceil(float64(m.Throughput.ReadCapacityUnits)/3000 + float64(m.Throughput.WriteCapacityUnits)/1000))
	return max(n, 1)
}

// partitionBill accumulates the bytes a Scan page read in each partition.
type partitionBill struct {
	n     int   // the table's partitions; 0 when the page is billed whole
	bytes []int // bytes read in each partition
	last  int   // the partition of the last row read
}

func newPartitionBill(n int) *partitionBill {
	return &partitionBill{n: n, bytes: make([]int, n)}
}

// add counts a row of size bytes whose row key is key.
func (b *partitionBill) add(key []byte, size int) {
	_, _, hash, _, err := keys.SplitRowKey(key)
	if err != nil {
		return
	}
	b.last = keys.SegmentOf(hash, b.n)
	b.bytes[b.last] += size
}

// units is the bill of a page over [lower, upper) that stopped after its
// last row (stopped) or ran to upper: each partition from the one holding
// lower to the one where the page ended, rounded on its own.
func (b *partitionBill) units(lower, upper []byte, stopped, consistent bool) float64 {
	first := 0
	if _, _, h, _, err := keys.SplitRowKey(lower); err == nil {
		first = keys.SegmentOf(h, b.n)
	}
	last := b.n - 1
	switch {
	case stopped:
		last = b.last
	default:
		// A segment's upper bound is the first hash of the next
		// segment; the last index's bound is shorter than a row header.
		if _, _, h, _, err := keys.SplitRowKey(upper); err == nil && h > 0 {
			last = keys.SegmentOf(h-1, b.n)
		}
	}
	var u float64
	for p := first; p <= last; p++ {
		u += readUnits(b.bytes[p], consistent)
	}
	return u
}
