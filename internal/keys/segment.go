package keys

import (
	"encoding/binary"
	"fmt"
	"math/bits"
)

// segmentStart returns the first hash of segment i of n: floor(i × 2^64 / n).
// It is 2^64 (reported as ok == false) for i == n.
func segmentStart(i, n uint64) (start uint64, ok bool) {
	if i >= n {
		return 0, false
	}
	q, _ := bits.Div64(i, 0, n) // (i << 64) / n; i < n so it cannot overflow
	return q, true
}

// SegmentBounds returns the key range [lower, upper) of parallel-scan
// segment `segment` of `totalSegments` over one index. The hash space
// [0, 2^64) is cut into totalSegments contiguous ranges of equal width (to
// within one): segment i holds the rows whose hash h satisfies
// floor(i×2^64/n) ≤ h < floor((i+1)×2^64/n). Segments are disjoint, in
// order, and together cover every row of the index; upper of the last
// segment is PrefixEnd(IndexPrefix(tableID, indexID)).
//
// It panics unless 1 ≤ totalSegments and 0 ≤ segment < totalSegments; the
// caller validates requests first.
func SegmentBounds(tableID uint64, indexID uint32, segment, totalSegments int) (lower, upper []byte) {
	if totalSegments < 1 || segment < 0 || segment >= totalSegments {
		panic(fmt.Sprintf("keys: segment %d of %d", segment, totalSegments))
	}
	n := uint64(totalSegments)
	lo, _ := segmentStart(uint64(segment), n)
	lower = binary.BigEndian.AppendUint64(appendIndexPrefix(make([]byte, 0, headerLen), tableID, indexID), lo)
	if hi, ok := segmentStart(uint64(segment)+1, n); ok {
		upper = binary.BigEndian.AppendUint64(appendIndexPrefix(make([]byte, 0, headerLen), tableID, indexID), hi)
	} else {
		upper = PrefixEnd(IndexPrefix(tableID, indexID))
	}
	return lower, upper
}

// SegmentOf returns the segment of totalSegments that holds rows with the
// given partition hash; it agrees with SegmentBounds. It panics unless
// totalSegments ≥ 1.
func SegmentOf(hash uint64, totalSegments int) int {
	if totalSegments < 1 {
		panic(fmt.Sprintf("keys: %d segments", totalSegments))
	}
	n := uint64(totalSegments)
	// The candidate floor(hash × n / 2^64) never exceeds the answer but may
	// be one below it, since segment starts are rounded down; settle it
	// against the real starts.
	s, _ := bits.Mul64(hash, n)
	for s > 0 {
		if start, _ := segmentStart(s, n); start <= hash {
			break
		}
		s--
	}
	for s+1 < n {
		if start, _ := segmentStart(s+1, n); start > hash {
			break
		}
		s++
	}
	return int(s)
}
