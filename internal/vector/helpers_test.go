package vector

import (
	"fmt"
	"iter"
	"math/rand/v2"
	"slices"
)

// clustered makes n vectors of dim dimensions in clusters Gaussian
// clusters, from a seeded generator: the centres are standard normal,
// and each vector is a centre chosen at random plus normal noise of
// standard deviation 0.3 in every dimension. Queries are taken from the
// same call, so they come from the same clusters.
func clustered(seed uint64, n, dim, clusters int) [][]float32 {
	r := rand.New(rand.NewPCG(seed, 1))
	centres := make([][]float32, clusters)
	for i := range centres {
		c := make([]float32, dim)
		for j := range c {
			c[j] = float32(r.NormFloat64())
		}
		centres[i] = c
	}
	out := make([][]float32, n)
	for i := range out {
		c := centres[r.IntN(clusters)]
		v := make([]float32, dim)
		for j := range v {
			v[j] = c[j] + float32(0.3*r.NormFloat64())
		}
		out[i] = v
	}
	return out
}

// pairs iterates the (id, vector) pairs of m.
func pairs(m map[uint64][]float32) iter.Seq2[uint64, []float32] {
	return func(yield func(uint64, []float32) bool) {
		for id, v := range m {
			if !yield(id, v) {
				return
			}
		}
	}
}

// recall is the mean fraction of the exact top k that the graph finds.
func recall(g *Graph, data map[uint64][]float32, queries [][]float32, k, ef int) (float64, error) {
	hit, all := 0, 0
	for _, q := range queries {
		want, err := Exact(g.cfg.Metric, q, k, pairs(data))
		if err != nil {
			return 0, err
		}
		got, err := g.Search(q, k, ef)
		if err != nil {
			return 0, err
		}
		ids := map[uint64]bool{}
		for _, r := range got {
			ids[r.ID] = true
		}
		for _, r := range want {
			if ids[r.ID] {
				hit++
			}
		}
		all += len(want)
	}
	return float64(hit) / float64(all), nil
}

// checkStructure proves the graph's invariants: every link names a live
// node present on the link's level, once, never the node itself; lists
// keep to their sizes; the reverse lists and in-degrees match the lists;
// the entry point is a node of the highest level; and, with reach, every
// node is reachable from the entry point on level 0.
func checkStructure(g *Graph, reach bool) error {
	g.mu.RLock()
	defer g.mu.RUnlock()
	live, top := 0, -1
	rev := make([][]uint32, len(g.ids))
	in0 := make([]uint32, len(g.ids))
	for s, ls := range g.links {
		if ls == nil {
			continue
		}
		live++
		if got, ok := g.slot[g.ids[s]]; !ok || got != uint32(s) {
			return fmt.Errorf("slot %d (id %d) not in the id map", s, g.ids[s])
		}
		if len(ls) != g.levelOf(g.ids[s])+1 {
			return fmt.Errorf("node %d has %d levels, its draw %d", g.ids[s], len(ls), g.levelOf(g.ids[s])+1)
		}
		top = max(top, len(ls)-1)
		for l, list := range ls {
			if len(list) > g.maxLinks(l) {
				return fmt.Errorf("node %d has %d links on level %d", g.ids[s], len(list), l)
			}
			for i, t := range list {
				if int(t) >= len(g.links) || g.links[t] == nil {
					return fmt.Errorf("node %d links to a deleted slot %d", g.ids[s], t)
				}
				if len(g.links[t]) <= l || t == uint32(s) || slices.Contains(list[:i], t) {
					return fmt.Errorf("node %d has a bad link to %d on level %d", g.ids[s], g.ids[t], l)
				}
				rev[t] = append(rev[t], uint32(s))
				if l == 0 {
					in0[t]++
				}
			}
		}
	}
	if live != len(g.slot) {
		return fmt.Errorf("%d live slots, %d ids", live, len(g.slot))
	}
	for s := range rev {
		a, b := slices.Sorted(slices.Values(rev[s])), slices.Sorted(slices.Values(g.rev[s]))
		if !slices.Equal(a, b) || in0[s] != g.in0[s] {
			return fmt.Errorf("slot %d: reverse links %v, kept %v; in-degree %d, kept %d", s, a, b, in0[s], g.in0[s])
		}
	}
	if live == 0 {
		if g.hasEntry {
			return fmt.Errorf("an entry point in an empty graph")
		}
		return nil
	}
	if !g.hasEntry || g.links[g.entry] == nil || len(g.links[g.entry])-1 != top || g.top != top {
		return fmt.Errorf("entry point not a node of the top level %d", top)
	}
	if !reach {
		return nil
	}
	seen := map[uint32]bool{g.entry: true}
	queue := []uint32{g.entry}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		for _, t := range g.links[s][0] {
			if !seen[t] {
				seen[t] = true
				queue = append(queue, t)
			}
		}
	}
	if len(seen) != live {
		return fmt.Errorf("%d of %d nodes reachable on level 0", len(seen), live)
	}
	return nil
}
