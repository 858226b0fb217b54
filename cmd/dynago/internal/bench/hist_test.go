package bench

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

func TestBucketsCoverValues(t *testing.T) {
	prev := -1
	check := func(v uint64) {
		i := bucketOf(v)
		if i < prev {
			t.Fatalf("bucketOf not monotone at %d: %d < %d", v, i, prev)
		}
		prev = i
		if i >= numBuckets {
			t.Fatalf("bucketOf(%d) = %d, out of range %d", v, i, numBuckets)
		}
		lo, hi := bucketBounds(i)
		if v < lo || v > hi {
			t.Fatalf("value %d outside its bucket %d [%d, %d]", v, i, lo, hi)
		}
		if lo > 0 && float64(hi-lo) > float64(lo)/subCount {
			t.Fatalf("bucket %d [%d, %d] too wide", i, lo, hi)
		}
	}
	for v := uint64(0); v < 100000; v++ {
		check(v)
	}
	for s := 17; s < 64; s++ {
		for _, d := range []uint64{0, 1, 12345} {
			check(uint64(1)<<s - 1 + d)
		}
	}
	prev = -1
	check(math.MaxInt64)
	check(math.MaxUint64)
}

func TestQuantilesMatchSortedSamples(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 2, 3, 10, 99, 1000, 54321} {
		var h Histogram
		samples := make([]time.Duration, n)
		for i := range samples {
			// Log-uniform between 1µs and 1s, plus a few exact small values.
			d := time.Duration(math.Exp(rng.Float64()*math.Log(1e6)) * 1e3)
			if i%97 == 0 {
				d = time.Duration(i % 50)
			}
			samples[i] = d
			h.Record(d)
		}
		slices.Sort(samples)
		if h.Count() != uint64(n) || h.Min() != samples[0] || h.Max() != samples[n-1] {
			t.Fatalf("n=%d: count/min/max = %d/%v/%v, want %d/%v/%v",
				n, h.Count(), h.Min(), h.Max(), n, samples[0], samples[n-1])
		}
		last := time.Duration(-1)
		for _, q := range []float64{0, 0.001, 0.1, 0.25, 0.5, 0.9, 0.99, 0.999, 1} {
			rank := max(int(math.Ceil(q*float64(n))), 1)
			want := samples[rank-1]
			got := h.Quantile(q)
			if diff := math.Abs(float64(got - want)); diff > float64(want)/100+1 {
				t.Errorf("n=%d q=%v: got %v, want %v (off by %.2f%%)",
					n, q, got, want, 100*diff/float64(want))
			}
			if got < last {
				t.Errorf("n=%d q=%v: quantile %v below previous %v", n, q, got, last)
			}
			last = got
		}
		if h.Quantile(1) != h.Max() {
			t.Errorf("n=%d: Quantile(1) = %v, want Max %v", n, h.Quantile(1), h.Max())
		}
	}
}

func TestMergeEqualsRecordingAll(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var all, a, b Histogram
	for i := 0; i < 10000; i++ {
		d := time.Duration(rng.Int64N(int64(50 * time.Millisecond)))
		all.Record(d)
		if i%3 == 0 {
			a.Record(d)
		} else {
			b.Record(d)
		}
	}
	var m Histogram
	m.Merge(&a)
	m.Merge(&b)
	m.Merge(&Histogram{})
	if m.Count() != all.Count() || m.Min() != all.Min() || m.Max() != all.Max() {
		t.Fatalf("merged count/min/max %d/%v/%v, want %d/%v/%v",
			m.Count(), m.Min(), m.Max(), all.Count(), all.Min(), all.Max())
	}
	for _, q := range []float64{0.5, 0.9, 0.99} {
		if m.Quantile(q) != all.Quantile(q) {
			t.Errorf("q=%v: merged %v, direct %v", q, m.Quantile(q), all.Quantile(q))
		}
	}
}

func TestEmptyHistogram(t *testing.T) {
	var h Histogram
	if h.Quantile(0.5) != 0 || h.Max() != 0 || h.Mean() != 0 || h.Count() != 0 {
		t.Fatal("empty histogram should report zeros")
	}
}
