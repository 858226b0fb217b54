package vector

import (
	"math"
	"testing"
)

// The scores are DynamoDB's (developer guide, vector search: COSINE is
// 1 - cos from 0 to 2, lower better, and a zero vector scores 1;
// EUCLIDEAN the plain L2 distance, lower better; DOT_PRODUCT the inner
// product, higher better; sums saturate at the float32 range).
func TestScores(t *testing.T) {
	big := float32(math.MaxFloat32)
	cases := []struct {
		m    Metric
		a, b []float32
		want float32
	}{
		{Cosine, []float32{1, 0}, []float32{1, 0}, 0},
		{Cosine, []float32{1, 2, 3}, []float32{1, 2, 3}, 0},
		{Cosine, []float32{1, 0}, []float32{0, 1}, 1},
		{Cosine, []float32{1, 0}, []float32{-1, 0}, 2},
		{Cosine, []float32{1, 1}, []float32{1, 0}, float32(1 - 1/math.Sqrt2)},
		{Cosine, []float32{3, 4}, []float32{4, 3}, float32(1 - 24.0/25)},
		{Cosine, []float32{0, 0}, []float32{1, 2}, 1},
		{Cosine, []float32{1, 2}, []float32{0, 0}, 1},
		{Cosine, []float32{0, 0}, []float32{0, 0}, 1},
		{Cosine, []float32{1e-23, 0}, []float32{1, 0}, 0}, // tiny is not zero
		{Euclidean, []float32{1, 0, 0, 0}, []float32{10, 0, 0, 0}, 9},
		{Euclidean, []float32{0, 0}, []float32{3, 4}, 5},
		{Euclidean, []float32{1, 2, 3, 4, 5}, []float32{1, 2, 3, 4, 5}, 0},
		{Euclidean, []float32{0, 0}, []float32{0, 0}, 0},
		{Euclidean, []float32{-big, 0}, []float32{big, 0}, big},
		{DotProduct, []float32{1, 2, 3}, []float32{4, 5, 6}, 32},
		{DotProduct, []float32{1, 2, 3, 4, 5}, []float32{-1, -1, -1, -1, -1}, -15},
		{DotProduct, []float32{0, 0}, []float32{1, 2}, 0},
		{DotProduct, []float32{big, big}, []float32{big, -big}, 0},
		{DotProduct, []float32{big, big}, []float32{big, big}, big},
		{DotProduct, []float32{big, big}, []float32{-big, -big}, -big},
	}
	for _, c := range cases {
		if got := c.m.Score(c.a, c.b); got != c.want {
			t.Errorf("%v %v %v: %v, want %v", c.m, c.a, c.b, got, c.want)
		}
	}
}

func TestBetter(t *testing.T) {
	if !Cosine.Better(0.1, 0.2) || Cosine.Better(0.2, 0.1) || Cosine.Better(0.1, 0.1) {
		t.Error("COSINE: lower is better")
	}
	if !Euclidean.Better(1, 2) || Euclidean.Better(2, 1) {
		t.Error("EUCLIDEAN: lower is better")
	}
	if !DotProduct.Better(2, 1) || DotProduct.Better(-1, 1) || DotProduct.Better(1, 1) {
		t.Error("DOT_PRODUCT: higher is better")
	}
}

func TestParseMetric(t *testing.T) {
	for _, m := range []Metric{Cosine, Euclidean, DotProduct} {
		got, err := ParseMetric(m.String())
		if err != nil || got != m {
			t.Errorf("%v: %v, %v", m, got, err)
		}
	}
	if _, err := ParseMetric("cosine"); err == nil {
		t.Error("lower-case name accepted")
	}
}

// The unrolled loops agree with a plain loop for every length around
// the unrolling.
func TestKernels(t *testing.T) {
	for n := 0; n < 11; n++ {
		a, b := make([]float32, n), make([]float32, n)
		var d, e float64
		for i := range a {
			a[i], b[i] = float32(i)+0.5, float32(n-i)*0.25
			d += float64(a[i]) * float64(b[i])
			e += (float64(a[i]) - float64(b[i])) * (float64(a[i]) - float64(b[i]))
		}
		if got := dot(a, b); got != d {
			t.Errorf("dot %d: %v, want %v", n, got, d)
		}
		if got := sqDist(a, b); got != e {
			t.Errorf("sqDist %d: %v, want %v", n, got, e)
		}
	}
}
