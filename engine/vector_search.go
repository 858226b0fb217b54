package engine

import (
	"bytes"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/internal/keys"
	"github.com/dynago/dynago/internal/storage"
	"github.com/dynago/dynago/internal/vector"
)

// Exact search of a vector index: every entry of the range searched (one
// HASH partition, or the whole index when it has no HASH element) is
// read, kept if its inline filter attributes equal the search's values,
// and scored with the index's metric; the best k are returned, best
// first. Equal scores are ordered by the item's key: its partition key
// value, then its sort key value, ascending (numbers by value, strings
// and binaries by their bytes), as a Query orders them. DynamoDB's own
// order of equal scores is not deterministic (dynoxide's captures,
// 2026-08-12), so any fixed order is one it could give.

// vectorSearch searches the range of ix that hash names (the whole index
// when it has no HASH element) for the k entries nearest q among those
// matching filters: exactly when its graph holds at most
// Options.VectorExactLimit nodes (one per entry), through the graph
// otherwise.
func (db *DB) vectorSearch(t *table, ix *index, q []float32, k int, hash *attr.Value, filters []searchEquality) (vectorSearchResult, error) {
	gk, err := vectorGraphKey(t, ix, hash)
	if err != nil {
		return vectorSearchResult{}, err
	}
	g, err := db.lockGraph(gk, ix)
	if err != nil {
		return vectorSearchResult{}, err
	}
	d := g.d
	g.mu.Unlock()
	if d.g.Len() <= max(db.opts.VectorExactLimit, 0) {
		return db.exactVectorSearch(t, ix, q, k, hash, filters)
	}
	return db.graphVectorSearch(ix, d, q, k, filters)
}

// graphVectorSearch is an approximate search through the graph d: the
// graph's search of breadth ef (Options.VectorSearchEF, at least k)
// finds ef candidates; their entries are read (one Get each, or one
// call on a store that reads many keys at once), kept if they match
// filters, and scored as the exact search scores them; the best k are
// returned in its order. When filters leave fewer than k, the search
// runs again with twice the breadth, on the candidates not read yet,
// until k match or the graph has no more to give. examined is the bytes
// of the vectors the graph's searches scored.
func (db *DB) graphVectorSearch(ix *index, d *graphData, q []float32, k int, filters []searchEquality) (vectorSearchResult, error) {
	var res vectorSearchResult
	n := d.g.Len()
	ef := max(db.opts.VectorSearchEF, k)
	read := map[string]bool{} // rows read: a row moved to a new node is read once
	m := ix.vec.metric
	var buf []float32
	for {
		found, scored, err := d.g.SearchScored(q, ef, ef)
		if err != nil {
			return res, err
		}
		res.examined += 4 * len(q) * scored
		var rows [][]byte
		for _, f := range found {
			if row := d.rowOf(f.ID); row != nil && !read[string(row)] {
				read[string(row)] = true
				rows = append(rows, row)
			}
		}
		vals, ok, err := db.getMany(rows)
		if err != nil {
			return res, err
		}
		for i, row := range rows {
			if !ok[i] {
				continue // deleted since the graph was read
			}
			e, err := parseVectorEntry(vals[i])
			if err != nil {
				return res, err
			}
			if e.dims() != len(q) {
				return res, errBadVectorEntry
			}
			if len(filters) > 0 {
				item, err := e.item()
				if err != nil {
					return res, err
				}
				if !matchesFilters(item, filters) {
					continue
				}
			}
			buf = e.vector(buf)
			_, _, _, order, err := keys.SplitRowKey(row)
			if err != nil {
				return res, err
			}
			res.hits = append(res.hits, vectorHit{score: m.Score(q, buf), order: order, vec: slices.Clone(buf), body: e.body})
		}
		if len(res.hits) >= k || ef >= n || len(found) < ef {
			break
		}
		ef = min(2*ef, n)
	}
	slices.SortFunc(res.hits, func(a, b vectorHit) int {
		switch {
		case hitBefore(m, a, b):
			return -1
		case hitBefore(m, b, a):
			return 1
		}
		return 0
	})
	res.hits = res.hits[:min(k, len(res.hits))]
	return res, nil
}

// getMany reads keys: in one call on a store that reads many at once,
// one by one otherwise.
func (db *DB) getMany(ks [][]byte) ([][]byte, []bool, error) {
	if mg, ok := db.store.(storage.MultiGetter); ok && len(ks) > 1 {
		return mg.GetMany(ks)
	}
	vals, found := make([][]byte, len(ks)), make([]bool, len(ks))
	for i, k := range ks {
		v, ok, err := db.store.Get(k, nil)
		if err != nil {
			return nil, nil, err
		}
		vals[i], found[i] = v, ok
	}
	return vals, found, nil
}

// vectorHit is one entry kept by a search.
type vectorHit struct {
	score float32
	// order is the entry's row key after its index header: the HASH
	// value, if any, then the item's key, in key order. Within a search
	// the HASH value is the same for every entry, so this orders by the
	// item's key.
	order []byte
	vec   []float32
	body  []byte // the projected item's encoding
}

// vectorSearchResult is what a search found: its hits, best first, and
// the bytes of vectors it examined (an exact search: every entry it
// read; an approximate one: every node its graph search scored).
type vectorSearchResult struct {
	hits     []vectorHit
	examined int
}

// exactVectorSearch searches the vector index ix of t for the k entries
// nearest q, in the HASH partition hash (nil for an index without a HASH
// element), among those whose inline filter attributes equal filters'
// values: of the same type and value, as DynamoDB compares an equality
// (an entry without the attribute does not match).
func (db *DB) exactVectorSearch(t *table, ix *index, q []float32, k int, hash *attr.Value, filters []searchEquality) (vectorSearchResult, error) {
	var res vectorSearchResult
	var lower []byte
	var err error
	if hash != nil {
		if lower, err = keys.PartitionPrefix(t.meta.ID, ix.meta.ID, []attr.Value{*hash}); err != nil {
			return res, err
		}
	} else {
		lower = keys.IndexPrefix(t.meta.ID, ix.meta.ID)
	}
	it, err := db.store.NewIter(lower, keys.PrefixEnd(lower))
	if err != nil {
		return res, err
	}
	closed := false
	defer func() {
		if !closed {
			it.Close()
		}
	}()
	m := ix.vec.metric
	var buf []float32
	// The whole index's range holds its graph's records too
	// (engine/vector_graph.go), which are no entries.
	gp := keys.VectorGraphPrefix(t.meta.ID, ix.meta.ID)
	for ok := it.First(); ok; ok = it.Next() {
		if hash == nil && bytes.HasPrefix(it.Key(), gp) && !it.SeekGE(keys.PrefixEnd(gp)) {
			break
		}
		e, err := parseVectorEntry(it.Value())
		if err != nil {
			return res, err
		}
		if e.dims() != len(q) {
			return res, errBadVectorEntry
		}
		res.examined += len(e.vec)
		if len(filters) > 0 {
			item, err := e.item()
			if err != nil {
				return res, err
			}
			if !matchesFilters(item, filters) {
				continue
			}
		}
		buf = e.vector(buf)
		score := m.Score(q, buf)
		_, _, _, order, err := keys.SplitRowKey(it.Key())
		if err != nil {
			return res, err
		}
		h := vectorHit{score: score, order: order}
		at := len(res.hits)
		for at > 0 && hitBefore(m, h, res.hits[at-1]) {
			at--
		}
		if at >= k {
			continue
		}
		h.order = bytes.Clone(order)
		h.vec = slices.Clone(buf)
		h.body = bytes.Clone(e.body)
		if len(res.hits) == k {
			res.hits = res.hits[:k-1]
		}
		res.hits = slices.Insert(res.hits, at, h)
	}
	closed = true
	return res, it.Close()
}

// hitBefore reports whether a ranks before b: a better score, or an equal
// one and a lower key.
func hitBefore(m vector.Metric, a, b vectorHit) bool {
	if m.Better(a.score, b.score) {
		return true
	}
	if m.Better(b.score, a.score) {
		return false
	}
	return bytes.Compare(a.order, b.order) < 0
}

// matchesFilters reports whether item holds every filter's value.
func matchesFilters(item attr.Item, filters []searchEquality) bool {
	for _, f := range filters {
		v, ok := item[f.name]
		if !ok || v.Type != f.value.Type || !attr.Equal(v, f.value) {
			return false
		}
	}
	return true
}

// vectorAttrValue is a stored vector as a search returns it: a list of
// numbers, each the float32 the index holds, written as its shortest
// decimal with a fractional part ("1.0" for 1, as DynamoDB returns it:
// the agent toolkit and dynoxide's capture, eu-west-2 2026-08-11).
func vectorAttrValue(vec []float32) attr.Value {
	l := make([]attr.Value, len(vec))
	for i, f := range vec {
		l[i] = attr.Value{Type: attr.TypeN, S: float32Number(f)}
	}
	return attr.Value{Type: attr.TypeL, L: l}
}

// float32Number writes f as the shortest decimal that reads back as f,
// with ".0" after an integer.
func float32Number(f float32) string {
	s := strconv.FormatFloat(float64(f), 'g', -1, 32)
	if i := strings.IndexByte(s, 'e'); i >= 0 {
		// "1e+20" -> "1E20", a number DynamoDB accepts.
		mant, exp := s[:i], s[i+1:]
		exp = strings.TrimPrefix(exp, "+")
		if strings.HasPrefix(exp, "-") {
			exp = "-" + strings.TrimLeft(exp[1:], "0")
		} else {
			exp = strings.TrimLeft(exp, "0")
		}
		return mant + "E" + exp
	}
	if !strings.ContainsAny(s, ".") && !math.IsInf(float64(f), 0) {
		s += ".0"
	}
	return s
}
