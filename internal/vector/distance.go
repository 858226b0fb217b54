package vector

import (
	"fmt"
	"math"
)

// Metric is a distance function, scored as DynamoDB scores it.
type Metric uint8

const (
	// Cosine scores 1 - cos(a, b): 0 for the same direction, 2 for
	// opposite ones, lower is better. A zero vector on either side scores
	// exactly 1.
	Cosine Metric = iota + 1
	// Euclidean scores the L2 distance (not squared), lower is better.
	Euclidean
	// DotProduct scores the inner product, higher is better; it can be
	// negative.
	DotProduct
)

// ParseMetric reads a metric by DynamoDB's name for it: COSINE,
// EUCLIDEAN or DOT_PRODUCT.
func ParseMetric(s string) (Metric, error) {
	switch s {
	case "COSINE":
		return Cosine, nil
	case "EUCLIDEAN":
		return Euclidean, nil
	case "DOT_PRODUCT":
		return DotProduct, nil
	}
	return 0, fmt.Errorf("vector: unknown metric %q", s)
}

// String gives DynamoDB's name of the metric.
func (m Metric) String() string {
	switch m {
	case Cosine:
		return "COSINE"
	case Euclidean:
		return "EUCLIDEAN"
	case DotProduct:
		return "DOT_PRODUCT"
	}
	return fmt.Sprintf("Metric(%d)", uint8(m))
}

func (m Metric) valid() bool { return m >= Cosine && m <= DotProduct }

// Better reports whether score a ranks strictly before score b: lower
// first for Cosine and Euclidean, higher first for DotProduct.
func (m Metric) Better(a, b float32) bool {
	if m == DotProduct {
		return a > b
	}
	return a < b
}

// Score gives the score of a against b under m, as DynamoDB reports it:
// elements are float32, sums are accumulated in float64, and the result
// saturates at ±math.MaxFloat32 rather than overflowing. a and b must
// have the same length and hold finite values.
func (m Metric) Score(a, b []float32) float32 {
	if len(a) != len(b) {
		panic("vector: Score of vectors of different lengths")
	}
	switch m {
	case Cosine:
		return cosineScore(dot(a, b), dot(a, a), dot(b, b))
	case Euclidean:
		return saturate(math.Sqrt(sqDist(a, b)))
	case DotProduct:
		return saturate(dot(a, b))
	}
	panic("vector: Score with an invalid metric")
}

// key turns a score into the graph's ordering key, lower first.
func (m Metric) key(score float32) float32 {
	if m == DotProduct {
		return -score
	}
	return score
}

// score turns an ordering key back into the score.
func (m Metric) score(key float32) float32 { return m.key(key) }

// cosineScore is 1 - cos from the dot product and the squared norms; a
// zero norm scores 1. The product of the squared norms is taken under one
// square root so that a vector against itself scores exactly 0.
func cosineScore(ab, aa, bb float64) float32 {
	if aa == 0 || bb == 0 {
		return 1
	}
	s := 1 - ab/math.Sqrt(aa*bb)
	if s < 0 {
		s = 0
	} else if s > 2 {
		s = 2
	}
	return float32(s)
}

func saturate(x float64) float32 {
	if x > math.MaxFloat32 {
		return math.MaxFloat32
	}
	if x < -math.MaxFloat32 {
		return -math.MaxFloat32
	}
	return float32(x)
}

// dot is the inner product in float64. The product of two float32 values
// is exact in float64, so the sums are the same with or without fused
// multiply-adds.
func dot(a, b []float32) float64 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += float64(a[i]) * float64(b[i])
		s1 += float64(a[i+1]) * float64(b[i+1])
		s2 += float64(a[i+2]) * float64(b[i+2])
		s3 += float64(a[i+3]) * float64(b[i+3])
	}
	for ; i < len(a); i++ {
		s0 += float64(a[i]) * float64(b[i])
	}
	return (s0 + s1) + (s2 + s3)
}

// sqDist is the squared L2 distance in float64. The conversions of the
// squares round them explicitly, which keeps fused multiply-adds out.
func sqDist(a, b []float32) float64 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(a); i += 4 {
		d0 := float64(a[i]) - float64(b[i])
		d1 := float64(a[i+1]) - float64(b[i+1])
		d2 := float64(a[i+2]) - float64(b[i+2])
		d3 := float64(a[i+3]) - float64(b[i+3])
		s0 += float64(d0 * d0)
		s1 += float64(d1 * d1)
		s2 += float64(d2 * d2)
		s3 += float64(d3 * d3)
	}
	for ; i < len(a); i++ {
		d := float64(a[i]) - float64(b[i])
		s0 += float64(d * d)
	}
	return (s0 + s1) + (s2 + s3)
}

// finite reports whether every element of v is finite.
func finite(v []float32) bool {
	for _, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return false
		}
	}
	return true
}
