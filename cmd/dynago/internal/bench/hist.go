package bench

import (
	"math"
	"math/bits"
	"time"
)

// subBits sets the histogram's precision: each power-of-two range of values
// is split into 2^subBits equal sub-buckets, so a bucket is at most
// 1/2^subBits of its lower bound wide (1.6% for 6 bits) and a reported
// percentile, the bucket's midpoint, is within half of that of a true sample.
const subBits = 6

const (
	subCount = 1 << subBits
	// Values below 2*subCount get one bucket each; above, each doubling
	// adds subCount buckets. 64-bit values need at most this many.
	numBuckets = (64-subBits)<<subBits + 2*subCount
)

// Histogram records non-negative durations in logarithmic buckets, in
// nanoseconds. Its size is fixed (about 30 KB) whatever the number of
// samples. The zero value is ready to use. It is not safe for concurrent
// use; give each goroutine its own and Merge them.
type Histogram struct {
	counts   [numBuckets]uint64
	n        uint64
	sum      float64
	min, max int64
}

// bucketOf maps a value to its bucket. Values below 2^(subBits+1) map to
// themselves; larger values keep their top subBits+1 significant bits.
func bucketOf(v uint64) int {
	shift := bits.Len64(v) - subBits - 1
	if shift < 0 {
		shift = 0
	}
	return shift<<subBits + int(v>>uint(shift))
}

// bucketBounds returns the smallest and largest value of bucket i.
func bucketBounds(i int) (lo, hi uint64) {
	if i < 2*subCount {
		return uint64(i), uint64(i)
	}
	shift := i>>subBits - 1
	top := uint64(i - shift<<subBits)
	lo = top << uint(shift)
	return lo, lo + (uint64(1) << uint(shift)) - 1
}

// Record adds one sample. Negative durations count as zero.
func (h *Histogram) Record(d time.Duration) {
	v := int64(d)
	if v < 0 {
		v = 0
	}
	if h.n == 0 || v < h.min {
		h.min = v
	}
	if v > h.max {
		h.max = v
	}
	h.counts[bucketOf(uint64(v))]++
	h.n++
	h.sum += float64(v)
}

// Merge adds all of o's samples to h.
func (h *Histogram) Merge(o *Histogram) {
	if o.n == 0 {
		return
	}
	if h.n == 0 || o.min < h.min {
		h.min = o.min
	}
	if o.max > h.max {
		h.max = o.max
	}
	for i, c := range o.counts {
		h.counts[i] += c
	}
	h.n += o.n
	h.sum += o.sum
}

// Count returns the number of samples.
func (h *Histogram) Count() uint64 { return h.n }

// Min returns the smallest sample, exactly; 0 if empty.
func (h *Histogram) Min() time.Duration { return time.Duration(h.min) }

// Max returns the largest sample, exactly; 0 if empty.
func (h *Histogram) Max() time.Duration { return time.Duration(h.max) }

// Mean returns the average sample; 0 if empty.
func (h *Histogram) Mean() time.Duration {
	if h.n == 0 {
		return 0
	}
	return time.Duration(h.sum / float64(h.n))
}

// Quantile returns an estimate of the q-quantile (0 <= q <= 1) by the
// nearest-rank rule: the sample of rank ceil(q*n) in sorted order. The
// estimate is the midpoint of that sample's bucket, clamped to [Min, Max],
// so it is within 1% of the true sample and Quantile is monotone in q with
// Quantile(1) == Max. It returns 0 if the histogram is empty.
func (h *Histogram) Quantile(q float64) time.Duration {
	if h.n == 0 {
		return 0
	}
	rank := uint64(math.Ceil(q * float64(h.n)))
	if rank < 1 {
		rank = 1
	}
	if rank >= h.n {
		return time.Duration(h.max)
	}
	var seen uint64
	for i, c := range h.counts {
		seen += c
		if seen >= rank {
			lo, hi := bucketBounds(i)
			v := int64(lo + (hi-lo)/2)
			v = max(v, h.min)
			v = min(v, h.max)
			return time.Duration(v)
		}
	}
	return time.Duration(h.max)
}
