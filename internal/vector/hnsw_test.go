package vector

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
)

// recallData is the recall tests' data: clustered vectors to insert,
// queries from the same clusters, and more vectors for after deletes.
var recallN = map[bool]int{false: 10000, true: 2000}[raceEnabled]

const (
	recallDim      = 64
	recallClusters = 50
	recallQueries  = 200
)

// HNSW against exact search, recall at 10 at the default ef (100), for
// each metric: after building, and again after deleting a third of the
// nodes and inserting as many new ones, with the structure checked each
// time (no link to a deleted node, every node reachable on level 0).
func TestRecall(t *testing.T) {
	for _, m := range []Metric{Cosine, Euclidean, DotProduct} {
		t.Run(m.String(), func(t *testing.T) {
			all := clustered(11, recallN+recallQueries+recallN/3, recallDim, recallClusters)
			vs, qs, more := all[:recallN], all[recallN:recallN+recallQueries], all[recallN+recallQueries:]
			g, err := New(Config{Metric: m, Dimensions: recallDim, EFConstruction: 100, Seed: 5})
			if err != nil {
				t.Fatal(err)
			}
			data := map[uint64][]float32{}
			for i, v := range vs {
				id := uint64(i)*7919 + 1
				if _, err := g.Insert(id, v); err != nil {
					t.Fatal(err)
				}
				data[id] = v
			}
			check := func(when string) {
				t.Helper()
				if err := checkStructure(g, true); err != nil {
					t.Fatalf("%s: %v", when, err)
				}
				if g.Len() != len(data) {
					t.Fatalf("%s: %d nodes, want %d", when, g.Len(), len(data))
				}
				r, err := recall(g, data, qs, 10, 0)
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("%s: recall@10 %.4f", when, r)
				if r < 0.95 {
					t.Errorf("%s: recall@10 %.4f, want >= 0.95", when, r)
				}
			}
			check("built")
			var deleted []uint64
			for i := range vs {
				if i%3 == 0 {
					id := uint64(i)*7919 + 1
					g.Delete(id)
					delete(data, id)
					deleted = append(deleted, id)
				}
			}
			for i, v := range more {
				id := uint64(recallN+i)*7919 + 1
				if _, err := g.Insert(id, v); err != nil {
					t.Fatal(err)
				}
				data[id] = v
			}
			for _, id := range deleted {
				if g.Contains(id) {
					t.Fatalf("deleted node %d still in the graph", id)
				}
			}
			check("after deletes and inserts")
		})
	}
}

func TestGraphSmall(t *testing.T) {
	g, err := New(Config{Metric: Euclidean, Dimensions: 2})
	if err != nil {
		t.Fatal(err)
	}
	if c := g.Config(); c.M != DefaultM || c.EFConstruction != DefaultEFConstruction || c.EFSearch != DefaultEFSearch {
		t.Errorf("defaults not applied: %+v", c)
	}
	if got, err := g.Search([]float32{0, 0}, 3, 0); err != nil || len(got) != 0 {
		t.Errorf("empty graph: %v, %v", got, err)
	}
	if _, err := g.Insert(1, []float32{1, 2, 3}); err == nil {
		t.Error("a vector of another length accepted")
	}
	if _, err := g.Insert(1, []float32{float32(nan()), 0}); err == nil {
		t.Error("NaN accepted")
	}
	if _, err := g.Search([]float32{1}, 3, 0); err == nil {
		t.Error("a query of another length accepted")
	}
	if _, err := g.Search([]float32{1, 1}, 0, 0); err == nil {
		t.Error("k 0 accepted")
	}
	for i := range 10 {
		if _, err := g.Insert(uint64(i), []float32{float32(i), 0}); err != nil {
			t.Fatal(err)
		}
	}
	got, _ := g.Search([]float32{3.4, 0}, 3, 0)
	want := []Result{{3, 0.4}, {4, 0.6}, {2, 1.4}}
	for i := range want {
		if got[i].ID != want[i].ID || got[i].Score != Euclidean.Score([]float32{3.4, 0}, []float32{float32(want[i].ID), 0}) {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
	// Equal scores come by id ascending.
	got, _ = g.Search([]float32{4.5, 0}, 2, 0)
	if got[0].ID != 4 || got[1].ID != 5 || got[0].Score != got[1].Score {
		t.Errorf("tie: %v", got)
	}
	// Re-inserting the same vector changes nothing; a new vector moves it.
	if c, _ := g.Insert(3, []float32{3, 0}); !c.Empty() {
		t.Errorf("same vector: %+v", c)
	}
	if _, err := g.Insert(3, []float32{100, 0}); err != nil {
		t.Fatal(err)
	}
	got, _ = g.Search([]float32{99, 0}, 1, 0)
	if got[0].ID != 3 || g.Len() != 10 {
		t.Errorf("moved node: %v, %d nodes", got, g.Len())
	}
	if c := g.Delete(77); !c.Empty() {
		t.Errorf("deleting a missing id: %+v", c)
	}
	for i := range 10 {
		g.Delete(uint64(i))
		if err := checkStructure(g, true); err != nil {
			t.Fatalf("after deleting %d: %v", i, err)
		}
	}
	if got, _ := g.Search([]float32{0, 0}, 3, 0); len(got) != 0 || g.Len() != 0 {
		t.Errorf("emptied graph: %v", got)
	}
	if _, err := g.Insert(5, []float32{1, 1}); err != nil {
		t.Fatal(err)
	}
	if got, _ := g.Search([]float32{0, 0}, 3, 0); len(got) != 1 || got[0].ID != 5 {
		t.Errorf("refilled graph: %v", got)
	}
}

func nan() float64 { var z float64; return z / z }

func TestConfigLimits(t *testing.T) {
	bad := []Config{
		{Metric: 0, Dimensions: 2},
		{Metric: 4, Dimensions: 2},
		{Metric: Cosine, Dimensions: 0},
		{Metric: Cosine, Dimensions: MaxDimensions + 1},
		{Metric: Cosine, Dimensions: 2, M: 1},
		{Metric: Cosine, Dimensions: 2, M: MaxM + 1},
		{Metric: Cosine, Dimensions: 2, EFConstruction: -1},
		{Metric: Cosine, Dimensions: 2, EFSearch: MaxEF + 1},
	}
	for _, c := range bad {
		if _, err := New(c); err == nil {
			t.Errorf("%+v accepted", c)
		}
	}
}

// Searches run while one writer inserts and deletes; run with -race.
func TestConcurrentSearches(t *testing.T) {
	const dim = 16
	vs := clustered(21, 1500, dim, 10)
	g, _ := New(Config{Metric: Cosine, Dimensions: dim, EFConstruction: 40, Seed: 1})
	for i, v := range vs[:500] {
		g.Insert(uint64(i), v)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 0))
			for range 200 {
				got, err := g.Search(vs[r.IntN(len(vs))], 5, 20)
				if err == nil && !slices.IsSortedFunc(got, func(a, b Result) int {
					if Cosine.Better(a.Score, b.Score) {
						return -1
					}
					return 0
				}) {
					err = fmt.Errorf("unsorted results %v", got)
				}
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	for i, v := range vs[500:] {
		g.Insert(uint64(500+i), v)
		if i%2 == 0 {
			g.Delete(uint64(i))
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if err := checkStructure(g, true); err != nil {
		t.Error(err)
	}
}

// With a small M, low-dimensional well-separated clusters and many
// deletes, the heuristic cuts level 0 between clusters; Reconnect makes
// every node reachable again, and then changes nothing more.
func TestReconnect(t *testing.T) {
	for _, m := range []Metric{Cosine, Euclidean, DotProduct} {
		vs := clustered(41, 2000, 8, 6)
		g, _ := New(Config{Metric: m, Dimensions: 8, M: 4, EFConstruction: 40, Seed: 2})
		for i, v := range vs {
			g.Insert(uint64(i), v)
		}
		for i := 0; i < len(vs); i += 3 {
			g.Delete(uint64(i))
		}
		before := checkStructure(g, true)
		t.Logf("%v before: %v", m, before)
		c := g.Reconnect()
		if err := checkStructure(g, true); err != nil {
			t.Fatalf("%v: %v", m, err)
		}
		if before != nil && len(c.Links) == 0 {
			t.Errorf("%v: reconnecting reported no change", m)
		}
		if c := g.Reconnect(); !c.Empty() {
			t.Errorf("%v: a connected graph changed: %+v", m, c)
		}
	}
}
