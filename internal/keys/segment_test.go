package keys

import (
	"bytes"
	"fmt"
	"math"
	"testing"

	"github.com/dynago/dynago/attr"
)

func TestSegmentBoundsCover(t *testing.T) {
	for _, n := range []int{1, 2, 3, 4, 7, 10, 64, 1000, 999983, 1000000} {
		prefix := IndexPrefix(5, 2)
		end := PrefixEnd(prefix)
		var prevUpper []byte
		check := func(i int) {
			lo, hi := SegmentBounds(5, 2, i, n)
			if bytes.Compare(lo, hi) >= 0 {
				t.Fatalf("n=%d segment %d empty: [%x, %x)", n, i, lo, hi)
			}
			if i == 0 && bytes.Compare(lo, append(bytes.Clone(prefix), 0, 0, 0, 0, 0, 0, 0, 0)) != 0 {
				t.Fatalf("n=%d: first segment starts at %x", n, lo)
			}
			if i == n-1 && !bytes.Equal(hi, end) {
				t.Fatalf("n=%d: last segment ends at %x, want %x", n, hi, end)
			}
			if prevUpper != nil && !bytes.Equal(prevUpper, lo) {
				t.Fatalf("n=%d: segment %d starts at %x, previous ended at %x", n, i, lo, prevUpper)
			}
			if !bytes.HasPrefix(lo, prefix) {
				t.Fatalf("n=%d: lower bound %x outside index", n, lo)
			}
			prevUpper = hi
		}
		if n <= 1000 {
			for i := range n {
				check(i)
			}
		} else {
			// Spot checks: contiguity of a few neighbours and both ends.
			for _, i := range []int{0, 1, n / 2, n/2 + 1, n - 2, n - 1} {
				if i == n/2 || i == n-2 || i == 0 {
					prevUpper = nil
				}
				check(i)
			}
		}
	}
}

func TestSegmentBoundsPanics(t *testing.T) {
	for _, c := range [][2]int{{0, 0}, {-1, 4}, {4, 4}, {0, -1}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("SegmentBounds(%d, %d) did not panic", c[0], c[1])
				}
			}()
			SegmentBounds(1, 0, c[0], c[1])
		}()
	}
}

func TestSegmentOf(t *testing.T) {
	r := newRand(t)
	for _, n := range []int{1, 3, 4, 7, 1000, 1000000, math.MaxInt32} {
		hashes := []uint64{0, 1, math.MaxUint64, math.MaxUint64 - 1}
		for range 2000 {
			hashes = append(hashes, r.Uint64())
		}
		for _, s := range []int{0, n / 3, n - 1} {
			lo, hi := SegmentBounds(1, 1, s, n)
			hashes = append(hashes, hashOfBound(lo), hashOfBound(lo)-1)
			if s < n-1 {
				hashes = append(hashes, hashOfBound(hi), hashOfBound(hi)-1)
			}
		}
		for _, h := range hashes {
			s := SegmentOf(h, n)
			lo, hi := SegmentBounds(1, 1, s, n)
			key := append(IndexPrefix(1, 1), bigEndian(h)...)
			key = append(key, 'x')
			if bytes.Compare(key, lo) < 0 || bytes.Compare(key, hi) >= 0 {
				t.Fatalf("n=%d: SegmentOf(%#x) = %d, but [%x, %x) does not hold it", n, h, s, lo, hi)
			}
		}
	}
}

func hashOfBound(b []byte) uint64 {
	_, _, h, _, _ := SplitRowKey(b)
	return h
}

func bigEndian(h uint64) []byte {
	return []byte{byte(h >> 56), byte(h >> 48), byte(h >> 40), byte(h >> 32), byte(h >> 24), byte(h >> 16), byte(h >> 8), byte(h)}
}

// TestSegmentEvenness places 10,000 random partitions of several kinds and
// checks that each segment gets within 10% of its share.
func TestSegmentEvenness(t *testing.T) {
	r := newRandSeed(t, 20260101)
	kinds := map[string]func(i int) []attr.Value{
		"random S": func(int) []attr.Value { return []attr.Value{attr.S(randS(r) + fmt.Sprint(r.Uint64()))} },
		"sequential S": func(i int) []attr.Value {
			return []attr.Value{attr.S(fmt.Sprintf("user#%06d", i))}
		},
		"sequential N": func(i int) []attr.Value { return []attr.Value{attr.N(fmt.Sprint(i))} },
		"random B": func(int) []attr.Value {
			b := make([]byte, 16)
			for j := range b {
				b[j] = byte(r.Uint32())
			}
			return []attr.Value{attr.B(b)}
		},
		"multi-attribute": func(i int) []attr.Value {
			return []attr.Value{attr.S("tenant"), attr.N(fmt.Sprint(i % 100)), attr.S(fmt.Sprint(i / 100))}
		},
	}
	const total = 10000
	for name, gen := range kinds {
		for _, n := range []int{4, 7} {
			counts := make([]int, n)
			for i := range total {
				key, err := AppendRowKey(nil, 3, 0, gen(i), nil)
				if err != nil {
					t.Fatal(err)
				}
				placed := false
				for s := range n {
					lo, hi := SegmentBounds(3, 0, s, n)
					if bytes.Compare(key, lo) >= 0 && bytes.Compare(key, hi) < 0 {
						if placed {
							t.Fatalf("%s: key in two segments", name)
						}
						counts[s]++
						placed = true
					}
				}
				if !placed {
					t.Fatalf("%s: key %x in no segment of %d", name, key, n)
				}
			}
			share := float64(total) / float64(n)
			for s, c := range counts {
				if dev := math.Abs(float64(c)-share) / share; dev > 0.10 {
					t.Errorf("%s, %d segments: segment %d has %d keys, share %.0f (off by %.1f%%)", name, n, s, c, share, 100*dev)
				}
			}
			t.Logf("%s, %d segments: %v", name, n, counts)
		}
	}
}

// TestHashEvenness measures how evenly Hash spreads partitions over the top
// bits (which decide segments): a chi-squared test over 256 buckets of the
// top 8 bits for 200,000 sequential and 200,000 random keys.
func TestHashEvenness(t *testing.T) {
	r := newRandSeed(t, 7)
	const keys, buckets = 200000, 256
	for _, kind := range []string{"sequential", "random"} {
		var counts [buckets]int
		for i := range keys {
			var v attr.Value
			if kind == "sequential" {
				v = attr.S(fmt.Sprintf("item-%d", i))
			} else {
				b := make([]byte, 12)
				for j := range b {
					b[j] = byte(r.Uint32())
				}
				v = attr.B(b)
			}
			counts[Hash(mustAppendValue(t, v))>>56]++
		}
		exp := float64(keys) / buckets
		chi2 := 0.0
		for _, c := range counts {
			d := float64(c) - exp
			chi2 += d * d / exp
		}
		// 255 degrees of freedom: the 0.1% critical value is about 330.
		t.Logf("%s: chi-squared %.1f over %d buckets", kind, chi2, buckets)
		if chi2 > 330 {
			t.Errorf("%s keys: chi-squared %.1f exceeds 330", kind, chi2)
		}
	}
}
