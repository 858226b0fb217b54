package vector

import (
	"fmt"
	"iter"
	"slices"
)

// Result is one neighbour found: the caller's id and its score under the
// search's metric.
type Result struct {
	ID    uint64
	Score float32
}

// cand is a candidate in a search: its ordering key (lower first), id and
// slot. Candidates order by key, then by id ascending.
type cand struct {
	key  float32
	id   uint64
	slot uint32
}

func (a cand) less(b cand) bool {
	return a.key < b.key || a.key == b.key && a.id < b.id
}

func cmpCand(a, b cand) int {
	switch {
	case a.less(b):
		return -1
	case b.less(a):
		return 1
	}
	return 0
}

// minHeap keeps the best candidate (lowest key, then id) on top.
type minHeap []cand

func (h *minHeap) push(c cand) { *h = append(*h, c); siftUp(*h, len(*h)-1, false) }
func (h *minHeap) pop() cand   { return popTop((*[]cand)(h), false) }

// maxHeap keeps the worst candidate (highest key, then id) on top.
type maxHeap []cand

func (h *maxHeap) push(c cand) { *h = append(*h, c); siftUp(*h, len(*h)-1, true) }
func (h *maxHeap) pop() cand   { return popTop((*[]cand)(h), true) }

// fix0 restores the heap after its top was replaced.
func (h maxHeap) fix0() { siftDown(h, 0, true) }

// above reports whether a belongs above b in a heap: the better of the
// two in a heap of the best on top, the worse with worst set.
func (a cand) above(b cand, worst bool) bool {
	if worst {
		return b.less(a)
	}
	return a.less(b)
}

// siftUp moves s[i] up to its place in the heap s.
func siftUp(s []cand, i int, worst bool) {
	for i > 0 {
		p := (i - 1) / 2
		if !s[i].above(s[p], worst) {
			return
		}
		s[i], s[p] = s[p], s[i]
		i = p
	}
}

// siftDown moves s[i] down to its place in the heap s.
func siftDown(s []cand, i int, worst bool) {
	n := len(s)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		c := l
		if r := l + 1; r < n && s[r].above(s[l], worst) {
			c = r
		}
		if !s[c].above(s[i], worst) {
			return
		}
		s[i], s[c] = s[c], s[i]
		i = c
	}
}

// popTop removes and returns the top of the heap *h.
func popTop(h *[]cand, worst bool) cand {
	s := *h
	top := s[0]
	n := len(s) - 1
	s[0] = s[n]
	s = s[:n]
	siftDown(s, 0, worst)
	*h = s
	return top
}

// Exact returns the k vectors of vectors nearest to query under m, best
// first; equal scores are ordered by id ascending, which is dynago's tie
// order (DynamoDB's own order of equal scores is not deterministic). It
// reads every vector once and keeps the best k in a bounded heap. A
// vector whose length differs from the query's is an error; vectors and
// query must hold finite values.
func Exact(m Metric, query []float32, k int, vectors iter.Seq2[uint64, []float32]) ([]Result, error) {
	if !m.valid() {
		return nil, fmt.Errorf("vector: invalid metric %d", m)
	}
	if k < 1 {
		return nil, fmt.Errorf("vector: k %d is below 1", k)
	}
	qq := dot(query, query)
	h := make(maxHeap, 0, min(k, 1024))
	var err error
	for id, v := range vectors {
		if len(v) != len(query) {
			err = fmt.Errorf("vector: vector %d has %d dimensions, the query %d", id, len(v), len(query))
			break
		}
		var s float32
		if m == Cosine {
			s = cosineScore(dot(query, v), qq, dot(v, v))
		} else {
			s = m.Score(query, v)
		}
		c := cand{key: m.key(s), id: id}
		if len(h) < k {
			h.push(c)
		} else if c.less(h[0]) {
			h[0] = c
			h.fix0()
		}
	}
	if err != nil {
		return nil, err
	}
	return results(m, h), nil
}

// results sorts cs best first and turns them into results.
func results(m Metric, cs []cand) []Result {
	slices.SortFunc(cs, cmpCand)
	out := make([]Result, len(cs))
	for i, c := range cs {
		out[i] = Result{ID: c.id, Score: m.score(c.key)}
	}
	return out
}
