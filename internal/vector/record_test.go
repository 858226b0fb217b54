package vector

import (
	"bytes"
	"fmt"
	"iter"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
)

// records is a store's copy of a graph: its header and node records.
type records struct {
	header []byte
	nodes  map[uint64][]byte
}

// encodeAll encodes every record of g.
func encodeAll(g *Graph) records {
	r := records{header: g.EncodeHeader(), nodes: map[uint64][]byte{}}
	for _, id := range g.IDs() {
		b, ok := g.EncodeNode(id)
		if !ok {
			panic(id)
		}
		r.nodes[id] = b
	}
	return r
}

// apply writes c into r as a caller's batch would.
func (r *records) apply(c *Changes) {
	if c.Header != nil {
		r.header = c.Header
	}
	for _, p := range c.Put {
		r.nodes[p.ID] = p.Data
	}
	for _, id := range c.Delete {
		delete(r.nodes, id)
	}
}

func (r records) seq() iter.Seq2[[]byte, error] {
	return func(yield func([]byte, error) bool) {
		for _, id := range slices.Sorted(maps.Keys(r.nodes)) {
			if !yield(r.nodes[id], nil) {
				return
			}
		}
	}
}

func (r records) equal(o records) error {
	if !bytes.Equal(r.header, o.header) {
		return fmt.Errorf("headers differ")
	}
	if len(r.nodes) != len(o.nodes) {
		return fmt.Errorf("%d node records, %d", len(r.nodes), len(o.nodes))
	}
	for id, b := range r.nodes {
		if !bytes.Equal(b, o.nodes[id]) {
			return fmt.Errorf("node %d differs", id)
		}
	}
	return nil
}

// sameSearches compares the results of both graphs for queries.
func sameSearches(t *testing.T, a, b *Graph, queries [][]float32) {
	t.Helper()
	for _, q := range queries {
		ra, err := a.Search(q, 10, 30)
		if err != nil {
			t.Fatal(err)
		}
		rb, err := b.Search(q, 10, 30)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(ra, rb) {
			t.Fatalf("searches differ:\n%v\n%v", ra, rb)
		}
	}
}

// A graph loaded from its records has the same structure, record for
// record, and answers every search the same.
func TestLoadRoundTrip(t *testing.T) {
	for _, m := range []Metric{Cosine, Euclidean, DotProduct} {
		vs := clustered(31, 2100, 24, 12)
		g, _ := New(Config{Metric: m, Dimensions: 24, M: 8, EFConstruction: 60, EFSearch: 40, Seed: 9})
		for i, v := range vs[:2000] {
			g.Insert(uint64(i)<<20, v)
		}
		for i := 0; i < 2000; i += 4 {
			g.Delete(uint64(i) << 20)
		}
		recs := encodeAll(g)
		h, err := Load(recs.header, recs.seq())
		if err != nil {
			t.Fatal(err)
		}
		if err := encodeAll(h).equal(recs); err != nil {
			t.Fatalf("%v: %v", m, err)
		}
		if err := checkStructure(h, true); err != nil {
			t.Fatalf("%v: %v", m, err)
		}
		if h.Config() != g.Config() || h.Len() != g.Len() {
			t.Fatalf("%v: config %+v, %+v; len %d, %d", m, h.Config(), g.Config(), h.Len(), g.Len())
		}
		sameSearches(t, g, h, vs[2000:])
		// Both go on the same way.
		for i, v := range vs[2000:2050] {
			cg, _ := g.Insert(uint64(i)+1, v)
			ch, _ := h.Insert(uint64(i)+1, v)
			if fmt.Sprint(cg) != fmt.Sprint(ch) {
				t.Fatalf("%v: an insert after loading changed other records", m)
			}
		}
		sameSearches(t, g, h, vs[2050:])
	}
}

// Writing only what each Insert and Delete reports keeps a copy of the
// records equal to encoding the whole graph: the reported changes are
// complete.
func TestChangesAreComplete(t *testing.T) {
	for _, m := range []Metric{Cosine, Euclidean, DotProduct} {
		vs := clustered(41, 900, 8, 6)
		g, _ := New(Config{Metric: m, Dimensions: 8, M: 4, EFConstruction: 20, Seed: 2})
		recs := records{header: g.EncodeHeader(), nodes: map[uint64][]byte{}}
		r := rand.New(rand.NewPCG(5, 6))
		var live []uint64
		for i, v := range vs {
			var c *Changes
			switch op := r.IntN(10); {
			case op < 3 && len(live) > 0:
				j := r.IntN(len(live))
				c = g.Delete(live[j])
				live = slices.Delete(live, j, j+1)
			case op < 4 && len(live) > 0:
				var err error
				if c, err = g.Insert(live[r.IntN(len(live))], v); err != nil {
					t.Fatal(err)
				}
			default:
				id := uint64(r.IntN(1 << 16))
				if slices.Contains(live, id) {
					continue
				}
				var err error
				if c, err = g.Insert(id, v); err != nil {
					t.Fatal(err)
				}
				live = append(live, id)
			}
			recs.apply(c)
			if i%150 == 149 {
				recs.apply(g.Reconnect())
			}
			if err := recs.equal(encodeAll(g)); err != nil {
				t.Fatalf("%v, after operation %d: %v", m, i, err)
			}
		}
		recs.apply(g.Reconnect())
		if err := recs.equal(encodeAll(g)); err != nil {
			t.Fatalf("%v, after reconnecting: %v", m, err)
		}
		if err := checkStructure(g, true); err != nil {
			t.Fatal(err)
		}
		h, err := Load(recs.header, recs.seq())
		if err != nil {
			t.Fatal(err)
		}
		sameSearches(t, g, h, vs[:100])
		// Deleting everything leaves the empty header and no record.
		for _, id := range live {
			recs.apply(g.Delete(id))
		}
		if len(recs.nodes) != 0 || !bytes.Equal(recs.header, g.EncodeHeader()) {
			t.Fatalf("%v: emptied graph left %d records", m, len(recs.nodes))
		}
		if _, err := Load(recs.header, recs.seq()); err != nil {
			t.Fatal(err)
		}
	}
}

// Load refuses records that do not make a whole graph.
func TestLoadRefuses(t *testing.T) {
	vs := clustered(51, 60, 4, 3)
	g, _ := New(Config{Metric: Euclidean, Dimensions: 4, M: 4, Seed: 1})
	for i, v := range vs {
		g.Insert(uint64(i+1), v)
	}
	good := encodeAll(g)
	if _, err := Load(good.header, good.seq()); err != nil {
		t.Fatal(err)
	}
	hdr, _ := DecodeHeader(good.header)
	variant := func(f func(r *records)) records {
		r := records{header: slices.Clone(good.header), nodes: maps.Clone(good.nodes)}
		f(&r)
		return r
	}
	some := uint64(0)
	for id := range good.nodes {
		if id != hdr.Entry {
			some = id
			break
		}
	}
	cases := map[string]records{
		"a node missing":    variant(func(r *records) { delete(r.nodes, some) }),
		"the entry missing": variant(func(r *records) { delete(r.nodes, hdr.Entry) }),
		"a node more": variant(func(r *records) {
			r.nodes[999] = Node{ID: 999, Vector: []float32{1, 2, 3, 4}, Links: [][]uint64{{1}}}.Encode()
		}),
		"a link to a missing node": variant(func(r *records) {
			n, _ := DecodeNode(r.nodes[some])
			n.Links[0] = append(n.Links[0][:len(n.Links[0])-1], 12345)
			r.nodes[some] = n.Encode()
		}),
		"a level above the top": variant(func(r *records) {
			n, _ := DecodeNode(r.nodes[some])
			n.Links = append(n.Links, make([][]uint64, hdr.TopLevel+1)...)
			r.nodes[some] = n.Encode()
		}),
		"another dimension": variant(func(r *records) {
			n, _ := DecodeNode(r.nodes[some])
			n.Vector = append(n.Vector, 1)
			r.nodes[some] = n.Encode()
		}),
		"a truncated header": variant(func(r *records) { r.header = r.header[:10] }),
		"another version":    variant(func(r *records) { r.header[0] = 2 }),
	}
	for name, r := range cases {
		if _, err := Load(r.header, r.seq()); err == nil {
			t.Errorf("%s: loaded", name)
		}
	}
	dup := func(yield func([]byte, error) bool) {
		for b := range good.seq() {
			if !yield(b, nil) || !yield(b, nil) {
				return
			}
		}
	}
	if _, err := Load(good.header, dup); err == nil {
		t.Error("a node twice: loaded")
	}
	failing := func(yield func([]byte, error) bool) { yield(nil, fmt.Errorf("store down")) }
	if _, err := Load(good.header, failing); err == nil || err.Error() != "store down" {
		t.Errorf("the iteration's error: %v", err)
	}
}

func TestDecodeNodeRefuses(t *testing.T) {
	good := Node{ID: 7, Vector: []float32{1, 2}, Links: [][]uint64{{1, 2}, {3}}}.Encode()
	if n, err := DecodeNode(good); err != nil || n.ID != 7 || len(n.Links) != 2 {
		t.Fatalf("%+v, %v", n, err)
	}
	for name, b := range map[string][]byte{
		"empty":            {},
		"short":            good[:len(good)-1],
		"long":             append(slices.Clone(good), 0),
		"version":          append([]byte{9}, good[1:]...),
		"self link":        Node{ID: 7, Vector: []float32{1, 2}, Links: [][]uint64{{7}}}.Encode(),
		"twice":            Node{ID: 7, Vector: []float32{1, 2}, Links: [][]uint64{{1, 1}}}.Encode(),
		"no dimension":     Node{ID: 7, Vector: nil, Links: [][]uint64{{1}}}.Encode(),
		"not finite":       Node{ID: 7, Vector: []float32{float32(nan())}, Links: [][]uint64{{1}}}.Encode(),
		"level above cap":  Node{ID: 7, Vector: []float32{1}, Links: make([][]uint64, maxLevel+2)}.Encode(),
		"too many at once": Node{ID: 7, Vector: []float32{1}, Links: [][]uint64{seqIDs(100, 2*MaxM+1)}}.Encode(),
	} {
		if _, err := DecodeNode(b); err == nil {
			t.Errorf("%s: decoded", name)
		}
	}
}

func seqIDs(from, n int) []uint64 {
	ids := make([]uint64, n)
	for i := range ids {
		ids[i] = uint64(from + i)
	}
	return ids
}

// DecodeNode never panics, and what it accepts encodes back to the same
// bytes.
func FuzzDecodeNode(f *testing.F) {
	f.Add(Node{ID: 7, Vector: []float32{1, 2}, Links: [][]uint64{{1, 2}, {3}}}.Encode())
	f.Add(Node{ID: 1, Vector: []float32{0.5}, Links: [][]uint64{{}}}.Encode())
	f.Fuzz(func(t *testing.T, b []byte) {
		n, err := DecodeNode(b)
		if err != nil {
			return
		}
		if !bytes.Equal(n.Encode(), b) {
			t.Fatalf("%x decodes to %+v, which encodes to %x", b, n, n.Encode())
		}
	})
}

// DecodeHeader never panics, and what it accepts loads as an empty graph
// or refuses the missing nodes.
func FuzzDecodeHeader(f *testing.F) {
	g, _ := New(Config{Metric: Cosine, Dimensions: 3})
	f.Add(g.EncodeHeader())
	g.Insert(1, []float32{1, 2, 3})
	f.Add(g.EncodeHeader())
	f.Fuzz(func(t *testing.T, b []byte) {
		h, err := DecodeHeader(b)
		if err != nil {
			return
		}
		_, err = Load(b, func(func([]byte, error) bool) {})
		if (err == nil) != (h.Count == 0) {
			t.Fatalf("%x: header %+v, load %v", b, h, err)
		}
	})
}
