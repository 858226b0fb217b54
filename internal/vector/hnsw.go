package vector

import (
	"fmt"
	"math"
	"slices"
	"sync"
)

// Defaults of Config's zero fields.
const (
	DefaultM              = 16
	DefaultEFConstruction = 200
	DefaultEFSearch       = 100
)

// Limits of Config.
const (
	MaxDimensions = 65535
	MaxM          = 128
	MaxEF         = 1 << 16
	// maxLevel caps a node's level; with M = 2 a level above it has a
	// chance of about 2^-32.
	maxLevel = 32
)

// Config is a graph's parameters. Zero fields take their defaults.
type Config struct {
	Metric     Metric
	Dimensions int
	// M is the number of neighbours a node is given on each level above
	// 0 (at most); level 0 allows 2*M.
	M int
	// EFConstruction is the breadth of the search that finds a new
	// node's neighbours.
	EFConstruction int
	// EFSearch is the breadth of a search when Search is given ef <= 0.
	EFSearch int
	// Seed chooses node levels: a node's level is a function of the seed
	// and its id alone.
	Seed uint64
}

func (c *Config) resolve() error {
	if !c.Metric.valid() {
		return fmt.Errorf("vector: invalid metric %d", c.Metric)
	}
	if c.Dimensions < 1 || c.Dimensions > MaxDimensions {
		return fmt.Errorf("vector: dimensions %d not in 1..%d", c.Dimensions, MaxDimensions)
	}
	if c.M == 0 {
		c.M = DefaultM
	}
	if c.EFConstruction == 0 {
		c.EFConstruction = DefaultEFConstruction
	}
	if c.EFSearch == 0 {
		c.EFSearch = DefaultEFSearch
	}
	if c.M < 2 || c.M > MaxM {
		return fmt.Errorf("vector: M %d not in 2..%d", c.M, MaxM)
	}
	if c.EFConstruction < 1 || c.EFConstruction > MaxEF {
		return fmt.Errorf("vector: efConstruction %d not in 1..%d", c.EFConstruction, MaxEF)
	}
	if c.EFSearch < 1 || c.EFSearch > MaxEF {
		return fmt.Errorf("vector: efSearch %d not in 1..%d", c.EFSearch, MaxEF)
	}
	return nil
}

// Graph is an HNSW graph over vectors identified by the caller's uint64
// ids. Searches run concurrently; Insert and Delete take the graph for
// themselves.
type Graph struct {
	mu    sync.RWMutex
	cfg   Config
	build Metric // the metric that chooses links
	m0    int
	mL    float64

	// Slots hold the nodes; a freed slot (links nil) is reused.
	ids   []uint64
	slot  map[uint64]uint32
	vecs  []float32 // slot*dim
	norms []float64 // squared norms, for Cosine
	links [][][]uint32
	rev   [][]uint32 // rev[s]: the slots whose lists hold s, once per level
	in0   []uint32   // in0[s]: how many level-0 lists hold s
	free  []uint32

	hasEntry bool
	entry    uint32
	top      int // the entry's level

	visits sync.Pool // *visited
	w      writer    // the writer's scratch, under mu
}

// New returns an empty graph.
func New(cfg Config) (*Graph, error) {
	if err := cfg.resolve(); err != nil {
		return nil, err
	}
	return newGraph(cfg), nil
}

func newGraph(cfg Config) *Graph {
	return &Graph{
		cfg:   cfg,
		build: buildMetric(cfg.Metric),
		m0:    2 * cfg.M,
		mL:    1 / math.Log(float64(cfg.M)),
		slot:  map[uint64]uint32{},
	}
}

// Config returns the graph's parameters, defaults filled in.
func (g *Graph) Config() Config { return g.cfg }

// Len returns the number of nodes.
func (g *Graph) Len() int {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return len(g.slot)
}

// HasVector reports whether id is in the graph with the vector v.
func (g *Graph) HasVector(id uint64, v []float32) bool {
	g.mu.RLock()
	defer g.mu.RUnlock()
	s, ok := g.slot[id]
	return ok && slices.Equal(g.vec(s), v)
}

// Contains reports whether id is in the graph.
func (g *Graph) Contains(id uint64) bool {
	g.mu.RLock()
	defer g.mu.RUnlock()
	_, ok := g.slot[id]
	return ok
}

// levelOf draws a node's level from the exponentially decaying
// distribution of the method (mL = 1/ln M), using a hash of the seed and
// the id as the random number: the same id always gets the same level,
// so a graph rebuilt from its records needs no generator state.
func (g *Graph) levelOf(id uint64) int {
	h := splitmix64(splitmix64(g.cfg.Seed) ^ id)
	u := float64(h>>11+1) / (1 << 53) // (0, 1]
	l := int(-math.Log(u) * g.mL)
	return min(l, maxLevel)
}

func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

func (g *Graph) vec(s uint32) []float32 {
	d := g.cfg.Dimensions
	return g.vecs[int(s)*d : int(s)*d+d : int(s)*d+d]
}

func (g *Graph) maxLinks(level int) int {
	if level == 0 {
		return g.m0
	}
	return g.cfg.M
}

// keyTo is the ordering key of slot s against query q (whose squared
// norm is qq).
func (g *Graph) keyTo(m Metric, q []float32, qq float64, s uint32) float32 {
	v := g.vec(s)
	switch m {
	case Cosine:
		return cosineScore(dot(q, v), qq, g.norms[s])
	case Euclidean:
		return saturate(math.Sqrt(sqDist(q, v)))
	default:
		return -saturate(dot(q, v))
	}
}

func (g *Graph) keyBetween(a, b uint32) float32 {
	return g.keyTo(g.build, g.vec(a), g.norms[a], b)
}

// visited marks the slots a search has seen, by generation.
type visited struct {
	marks []uint32
	gen   uint32
	// scored counts the nodes a search scored against its query.
	scored int
	cands  minHeap
	found  maxHeap
}

func (v *visited) reset(n int) {
	if len(v.marks) < n {
		v.marks = make([]uint32, n+n/4)
		v.gen = 0
	}
	v.gen++
	if v.gen == 0 {
		clear(v.marks)
		v.gen = 1
	}
}

func (v *visited) seen(s uint32) bool {
	if v.marks[s] == v.gen {
		return true
	}
	v.marks[s] = v.gen
	return false
}

// searchLayer is the method's SEARCH-LAYER: the ef nearest nodes to q on
// level lc found by a best-first walk from eps. It returns them in
// arbitrary order, in a slice owned by vis.
func (g *Graph) searchLayer(m Metric, vis *visited, q []float32, qq float64, eps []cand, ef, lc int) []cand {
	vis.reset(len(g.ids))
	cands := vis.cands[:0]
	found := vis.found[:0]
	for _, e := range eps {
		if vis.seen(e.slot) {
			continue
		}
		cands.push(e)
		found.push(e)
		if len(found) > ef {
			found.pop()
		}
	}
	for len(cands) > 0 {
		c := cands.pop()
		if len(found) >= ef && found[0].less(c) {
			break
		}
		for _, n := range g.links[c.slot][lc] {
			if vis.seen(n) {
				continue
			}
			vis.scored++
			e := cand{key: g.keyTo(m, q, qq, n), id: g.ids[n], slot: n}
			if len(found) < ef || e.less(found[0]) {
				cands.push(e)
				found.push(e)
				if len(found) > ef {
					found.pop()
				}
			}
		}
	}
	vis.cands, vis.found = cands, found
	return found
}

// descend walks from the entry point down to level stop+1 greedily and
// returns the entry point for level stop.
func (g *Graph) descend(m Metric, vis *visited, q []float32, qq float64, stop int) []cand {
	ep := []cand{{key: g.keyTo(m, q, qq, g.entry), id: g.ids[g.entry], slot: g.entry}}
	for lc := g.top; lc > stop; lc-- {
		w := g.searchLayer(m, vis, q, qq, ep, 1, lc)
		ep[0] = w[0]
	}
	return ep
}

// Search returns the k nodes nearest to query found by a search of
// breadth ef (the graph's EFSearch when ef <= 0; at least k), best first,
// equal scores by id ascending. Scores are as Metric.Score gives them.
func (g *Graph) Search(query []float32, k, ef int) ([]Result, error) {
	r, _, err := g.SearchScored(query, k, ef)
	return r, err
}

// SearchScored is Search, and also reports how many nodes the search
// scored against the query (the entry point and every neighbour it
// visited): a measure of the vector data it examined.
func (g *Graph) SearchScored(query []float32, k, ef int) ([]Result, int, error) {
	if len(query) != g.cfg.Dimensions {
		return nil, 0, fmt.Errorf("vector: query has %d dimensions, the graph %d", len(query), g.cfg.Dimensions)
	}
	if k < 1 {
		return nil, 0, fmt.Errorf("vector: k %d is below 1", k)
	}
	if ef <= 0 {
		ef = g.cfg.EFSearch
	}
	ef = max(ef, k)
	qq := dot(query, query)
	g.mu.RLock()
	defer g.mu.RUnlock()
	if !g.hasEntry {
		return nil, 0, nil
	}
	vis, _ := g.visits.Get().(*visited)
	if vis == nil {
		vis = new(visited)
	}
	defer g.visits.Put(vis)
	vis.scored = 1 // the entry point
	ep := g.descend(g.cfg.Metric, vis, query, qq, 0)
	w := g.searchLayer(g.cfg.Metric, vis, query, qq, ep, ef, 0)
	slices.SortFunc(w, cmpCand)
	w = w[:min(k, len(w))]
	out := make([]Result, len(w))
	for i, c := range w {
		out[i] = Result{ID: c.id, Score: g.cfg.Metric.score(c.key)}
	}
	return out, vis.scored, nil
}

// writer is the state of one Insert or Delete: its scratch and what it
// changed.
type writer struct {
	vis      visited
	dirty    map[uint64]bool
	inserted map[uint64]bool // the nodes whose vector record to write
	removed  []uint64
	orphans  []uint32
	scratch  []uint32
	cands    []cand
}

// selectNeighbours is the method's heuristic (SELECT-NEIGHBORS-HEURISTIC,
// without extending the candidates or keeping pruned ones): cs sorted by
// key against the base, each candidate is kept when it is nearer the
// base than every candidate kept before it, up to max.
func (g *Graph) selectNeighbours(cs []cand, max int, out []uint32) []uint32 {
	out = out[:0]
	for _, c := range cs {
		if len(out) >= max {
			break
		}
		keep := true
		for _, r := range out {
			if g.keyBetween(c.slot, r) < c.key {
				keep = false
				break
			}
		}
		if keep {
			out = append(out, c.slot)
		}
	}
	return out
}

// setLinks replaces s's list on level lc by list, keeping the reverse
// lists and level-0 in-degrees, and marks s dirty.
func (g *Graph) setLinks(s uint32, lc int, list []uint32) {
	old := g.links[s][lc]
	for _, o := range old {
		if !slices.Contains(list, o) {
			g.unrev(o, s)
			if lc == 0 {
				g.in0[o]--
				if g.in0[o] == 0 {
					g.w.orphans = append(g.w.orphans, o)
				}
			}
		}
	}
	for _, n := range list {
		if !slices.Contains(old, n) {
			g.rev[n] = append(g.rev[n], s)
			if lc == 0 {
				g.in0[n]++
			}
		}
	}
	if cap(old) < len(list) {
		old = make([]uint32, 0, max(len(list), g.maxLinks(lc)))
	}
	g.links[s][lc] = append(old[:0], list...)
	g.w.dirty[g.ids[s]] = true
}

// unrev removes one occurrence of from in rev[of].
func (g *Graph) unrev(of, from uint32) {
	r := g.rev[of]
	i := slices.Index(r, from)
	r[i] = r[len(r)-1]
	g.rev[of] = r[:len(r)-1]
}

func (g *Graph) begin() {
	g.w.dirty = map[uint64]bool{}
	g.w.inserted = map[uint64]bool{}
	g.w.removed = g.w.removed[:0]
	g.w.orphans = g.w.orphans[:0]
}

// Insert adds the node id with vector v, or replaces its vector when id
// is already in the graph (a delete then an insert). It returns the
// records to write to keep a store in step (see Changes).
func (g *Graph) Insert(id uint64, v []float32) (*Changes, error) {
	if len(v) != g.cfg.Dimensions {
		return nil, fmt.Errorf("vector: vector has %d dimensions, the graph %d", len(v), g.cfg.Dimensions)
	}
	if !finite(v) {
		return nil, fmt.Errorf("vector: vector of node %d is not finite", id)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	before := g.encodeHeader()
	g.begin()
	if s, ok := g.slot[id]; ok {
		if slices.Equal(g.vec(s), v) {
			return &Changes{}, nil
		}
		g.remove(s)
	}
	g.insert(id, v)
	g.fixOrphans()
	return g.changes(before), nil
}

// Delete removes the node id, reconnecting the nodes that linked to it.
// It returns the records to write and delete (see Changes); deleting an
// id not in the graph changes nothing.
func (g *Graph) Delete(id uint64) *Changes {
	g.mu.Lock()
	defer g.mu.Unlock()
	s, ok := g.slot[id]
	if !ok {
		return &Changes{}
	}
	before := g.encodeHeader()
	g.begin()
	g.remove(s)
	g.fixOrphans()
	return g.changes(before)
}

func (g *Graph) alloc(id uint64, level int) uint32 {
	var s uint32
	if n := len(g.free); n > 0 {
		s = g.free[n-1]
		g.free = g.free[:n-1]
		g.ids[s] = id
	} else {
		s = uint32(len(g.ids))
		g.ids = append(g.ids, id)
		g.vecs = append(g.vecs, make([]float32, g.cfg.Dimensions)...)
		g.norms = append(g.norms, 0)
		g.links = append(g.links, nil)
		g.rev = append(g.rev, nil)
		g.in0 = append(g.in0, 0)
	}
	g.slot[id] = s
	ls := make([][]uint32, level+1)
	for l := range ls {
		ls[l] = make([]uint32, 0, g.maxLinks(l))
	}
	g.links[s] = ls
	return s
}

func (g *Graph) insert(id uint64, v []float32) {
	level := g.levelOf(id)
	s := g.alloc(id, level)
	copy(g.vec(s), v)
	g.norms[s] = dot(v, v)
	g.w.dirty[id] = true
	g.w.inserted[id] = true
	if !g.hasEntry {
		g.hasEntry, g.entry, g.top = true, s, level
		return
	}
	q, qq := g.vec(s), g.norms[s]
	vis := &g.w.vis
	ep := g.descend(g.build, vis, q, qq, level)
	for lc := min(level, g.top); lc >= 0; lc-- {
		w := g.searchLayer(g.build, vis, q, qq, ep, g.cfg.EFConstruction, lc)
		slices.SortFunc(w, cmpCand)
		ep = append(ep[:0], w...)
		g.w.scratch = g.selectNeighbours(ep, g.cfg.M, g.w.scratch)
		sel := slices.Clone(g.w.scratch)
		g.setLinks(s, lc, sel)
		for _, e := range sel {
			g.link(e, s, lc)
		}
	}
	if level > g.top {
		g.entry, g.top = s, level
	}
}

// link adds s to e's list on level lc, shrinking the list with the
// heuristic when it is full.
func (g *Graph) link(e, s uint32, lc int) {
	list := g.links[e][lc]
	if len(list) < g.maxLinks(lc) {
		g.setLinks(e, lc, append(slices.Clip(list), s))
		return
	}
	cs := g.w.cands[:0]
	for _, n := range list {
		cs = append(cs, cand{key: g.keyBetween(e, n), id: g.ids[n], slot: n})
	}
	cs = append(cs, cand{key: g.keyBetween(e, s), id: g.ids[s], slot: s})
	slices.SortFunc(cs, cmpCand)
	g.w.cands = cs
	g.w.scratch = g.selectNeighbours(cs, g.maxLinks(lc), g.w.scratch)
	g.setLinks(e, lc, g.w.scratch)
}

// remove takes slot s out of the graph: each node that linked to it on a
// level gets a new list chosen by the heuristic among its other
// neighbours and s's neighbours on that level.
func (g *Graph) remove(s uint32) {
	id := g.ids[s]
	for lc := range g.links[s] {
		var ins []uint32
		for _, n := range g.rev[s] {
			if lc < len(g.links[n]) && slices.Contains(g.links[n][lc], s) && !slices.Contains(ins, n) {
				ins = append(ins, n)
			}
		}
		outs := g.links[s][lc]
		for _, n := range ins {
			cs := g.w.cands[:0]
			add := func(c uint32) {
				if c == s || c == n {
					return
				}
				for _, x := range cs {
					if x.slot == c {
						return
					}
				}
				cs = append(cs, cand{key: g.keyBetween(n, c), id: g.ids[c], slot: c})
			}
			for _, c := range g.links[n][lc] {
				add(c)
			}
			for _, c := range outs {
				add(c)
			}
			slices.SortFunc(cs, cmpCand)
			g.w.cands = cs
			g.w.scratch = g.selectNeighbours(cs, g.maxLinks(lc), g.w.scratch)
			g.setLinks(n, lc, g.w.scratch)
		}
		g.setLinks(s, lc, nil)
	}
	if len(g.rev[s]) != 0 {
		panic("vector: a deleted node is still linked")
	}
	delete(g.w.dirty, id)
	delete(g.w.inserted, id)
	g.w.removed = append(g.w.removed, id)
	delete(g.slot, id)
	g.links[s] = nil
	g.rev[s] = nil
	g.in0[s] = 0
	clear(g.vec(s))
	g.norms[s] = 0
	g.free = append(g.free, s)
	if g.hasEntry && g.entry == s {
		g.pickEntry()
	}
}

// pickEntry makes the node of the highest level the entry point, the
// lowest id among equals.
func (g *Graph) pickEntry() {
	g.hasEntry = false
	for s, ls := range g.links {
		if ls == nil {
			continue
		}
		l := len(ls) - 1
		if !g.hasEntry || l > g.top || l == g.top && g.ids[s] < g.ids[g.entry] {
			g.hasEntry, g.entry, g.top = true, uint32(s), l
		}
	}
	if !g.hasEntry {
		g.top = 0
	}
}

// fixOrphans gives each node that lost its last level-0 in-link during
// the operation one again: the nearest of its own neighbours takes it
// into its list, in a free place or in place of its farthest neighbour
// that has another in-link. This keeps every node reachable on level 0
// in practice, where the heuristic's pruning alone can strand nodes.
func (g *Graph) fixOrphans() {
	for i := 0; i < len(g.w.orphans); i++ {
		b := g.w.orphans[i]
		if g.links[b] == nil || g.in0[b] > 0 || (g.hasEntry && g.entry == b) {
			continue
		}
		cs := g.w.cands[:0]
		for _, a := range g.links[b][0] {
			cs = append(cs, cand{key: g.keyBetween(b, a), id: g.ids[a], slot: a})
		}
		if len(cs) == 0 && g.hasEntry {
			vis := &g.w.vis
			q, qq := g.vec(b), g.norms[b]
			ep := g.descend(g.build, vis, q, qq, 0)
			cs = append(cs, g.searchLayer(g.build, vis, q, qq, ep, g.cfg.EFConstruction, 0)...)
		}
		slices.SortFunc(cs, cmpCand)
		g.w.cands = cs
		for _, c := range cs {
			if c.slot != b && g.adopt(c.slot, b) {
				break
			}
		}
	}
}

// adopt puts b into a's level-0 list if it can without orphaning another.
func (g *Graph) adopt(a, b uint32) bool {
	list := g.links[a][0]
	if slices.Contains(list, b) {
		return true
	}
	if len(list) < g.m0 {
		g.setLinks(a, 0, append(slices.Clip(list), b))
		return true
	}
	worst, wk := -1, float32(0)
	for i, n := range list {
		if g.in0[n] < 2 {
			continue
		}
		k := g.keyBetween(a, n)
		if worst < 0 || k > wk || k == wk && g.ids[n] > g.ids[list[worst]] {
			worst, wk = i, k
		}
	}
	if worst < 0 {
		return false
	}
	nl := slices.Clone(list)
	nl[worst] = b
	g.setLinks(a, 0, nl)
	return true
}

// buildMetric is the metric that chooses a graph's links: the search's
// own, but Euclidean for DotProduct, whose negated inner product is no
// distance (a node is not nearest to itself) and makes poor links.
func buildMetric(m Metric) Metric {
	if m == DotProduct {
		return Euclidean
	}
	return m
}

// Reconnect makes every node reachable from the entry point on level 0,
// which the method does not promise: the heuristic can cut all the
// level-0 links between two well-separated clusters, more often the
// smaller M is. For each node it cannot reach (lowest id first) it
// searches level 0 from a reachable node near it (the entry point, or
// where the upper levels lead if that is reachable), which finds only
// reachable nodes, and links the nearest one found with a free place in its list
// to the node. It returns the records to write, like Insert. It walks
// the whole graph, so it is for now and then (after many deletes, in an
// integrity check), not for every write.
func (g *Graph) Reconnect() *Changes {
	g.mu.Lock()
	defer g.mu.Unlock()
	before := g.encodeHeader()
	g.begin()
	if g.hasEntry {
		reached := make([]bool, len(g.ids))
		g.reach(reached, g.entry)
		for _, id := range g.sortedIDs() {
			u := g.slot[id]
			if reached[u] {
				continue
			}
			vis := &g.w.vis
			q, qq := g.vec(u), g.norms[u]
			ep := g.descend(g.build, vis, q, qq, 0)
			if !reached[ep[0].slot] {
				ep[0] = cand{key: g.keyTo(g.build, q, qq, g.entry), id: g.ids[g.entry], slot: g.entry}
			}
			w := g.searchLayer(g.build, vis, q, qq, ep, g.cfg.EFConstruction, 0)
			slices.SortFunc(w, cmpCand)
			for _, c := range w {
				if list := g.links[c.slot][0]; len(list) < g.m0 {
					g.setLinks(c.slot, 0, append(slices.Clip(list), u))
					g.reach(reached, u)
					break
				}
			}
		}
	}
	return g.changes(before)
}

// reach marks what level 0 reaches from s.
func (g *Graph) reach(reached []bool, s uint32) {
	reached[s] = true
	stack := []uint32{s}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, t := range g.links[n][0] {
			if !reached[t] {
				reached[t] = true
				stack = append(stack, t)
			}
		}
	}
}

func (g *Graph) sortedIDs() []uint64 {
	ids := make([]uint64, 0, len(g.slot))
	for id := range g.slot {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}
