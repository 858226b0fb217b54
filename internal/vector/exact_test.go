package vector

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// Exact gives the first k of all scores sorted best first, equal scores
// by id ascending.
func TestExactMatchesSort(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	data := map[uint64][]float32{}
	for i := range 500 {
		v := make([]float32, 8)
		for j := range v {
			// Few distinct values make many equal scores.
			v[j] = float32(r.IntN(3) - 1)
		}
		data[uint64(r.Uint32())<<8|uint64(i)] = v
	}
	for _, m := range []Metric{Cosine, Euclidean, DotProduct} {
		for range 20 {
			q := make([]float32, 8)
			for j := range q {
				q[j] = float32(r.IntN(3) - 1)
			}
			var all []Result
			for id, v := range data {
				all = append(all, Result{id, m.Score(q, v)})
			}
			slices.SortFunc(all, func(a, b Result) int {
				switch {
				case m.Better(a.Score, b.Score):
					return -1
				case m.Better(b.Score, a.Score):
					return 1
				}
				return cmpID(a.ID, b.ID)
			})
			for _, k := range []int{1, 10, 499, 500, 600} {
				got, err := Exact(m, q, k, pairs(data))
				if err != nil {
					t.Fatal(err)
				}
				if want := all[:min(k, len(all))]; !slices.Equal(got, want) {
					t.Fatalf("%v k=%d:\n got %v\nwant %v", m, k, got, want)
				}
			}
		}
	}
}

func cmpID(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func TestExactErrors(t *testing.T) {
	data := map[uint64][]float32{1: {1, 2}, 2: {1, 2, 3}}
	if _, err := Exact(Cosine, []float32{1, 2}, 5, pairs(data)); err == nil {
		t.Error("a vector of another length accepted")
	}
	if _, err := Exact(Cosine, []float32{1, 2}, 0, pairs(data)); err == nil {
		t.Error("k 0 accepted")
	}
	if _, err := Exact(0, []float32{1, 2}, 1, pairs(data)); err == nil {
		t.Error("metric 0 accepted")
	}
	got, err := Exact(Euclidean, []float32{1, 2}, 3, pairs(map[uint64][]float32{}))
	if err != nil || len(got) != 0 {
		t.Errorf("no vectors: %v, %v", got, err)
	}
}
