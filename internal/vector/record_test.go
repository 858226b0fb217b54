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

// records is a store's copy of a graph: its header, vector and links
// records.
type records struct {
	header  []byte
	vectors map[uint64][]byte
	links   map[uint64][]byte
}

func newRecords(header []byte) records {
	return records{header: header, vectors: map[uint64][]byte{}, links: map[uint64][]byte{}}
}

// encodeAll encodes every record of g.
func encodeAll(g *Graph) records {
	r := newRecords(g.EncodeHeader())
	for _, id := range g.IDs() {
		v, ok := g.EncodeVector(id)
		l, ok2 := g.EncodeLinks(id)
		if !ok || !ok2 {
			panic(id)
		}
		r.vectors[id], r.links[id] = v, l
	}
	return r
}

// apply writes c into r as a caller's batch would.
func (r *records) apply(c *Changes) {
	if c.Header != nil {
		r.header = c.Header
	}
	for _, p := range c.Vectors {
		r.vectors[p.ID] = p.Data
	}
	for _, p := range c.Links {
		r.links[p.ID] = p.Data
	}
	for _, id := range c.Delete {
		delete(r.vectors, id)
		delete(r.links, id)
	}
}

func seqOf(m map[uint64][]byte) iter.Seq2[[]byte, error] {
	return func(yield func([]byte, error) bool) {
		for _, id := range slices.Sorted(maps.Keys(m)) {
			if !yield(m[id], nil) {
				return
			}
		}
	}
}

func (r records) load() (*Graph, error) { return Load(r.header, seqOf(r.vectors), seqOf(r.links)) }

func (r records) clone() records {
	return records{header: slices.Clone(r.header), vectors: maps.Clone(r.vectors), links: maps.Clone(r.links)}
}

func (r records) equal(o records) error {
	if !bytes.Equal(r.header, o.header) {
		return fmt.Errorf("headers differ")
	}
	for _, kind := range []struct {
		name string
		a, b map[uint64][]byte
	}{{"vector", r.vectors, o.vectors}, {"links", r.links, o.links}} {
		if len(kind.a) != len(kind.b) {
			return fmt.Errorf("%d %s records, %d", len(kind.a), kind.name, len(kind.b))
		}
		for id, b := range kind.a {
			if !bytes.Equal(b, kind.b[id]) {
				return fmt.Errorf("node %d's %s record differs", id, kind.name)
			}
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
		h, err := recs.load()
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
		recs := newRecords(g.EncodeHeader())
		r := rand.New(rand.NewPCG(5, 6))
		var live []uint64
		for i, v := range vs {
			var c *Changes
			var inserted []uint64 // the one vector record c may write
			switch op := r.IntN(10); {
			case op < 3 && len(live) > 0:
				j := r.IntN(len(live))
				c = g.Delete(live[j])
				live = slices.Delete(live, j, j+1)
			case op < 4 && len(live) > 0:
				id := live[r.IntN(len(live))]
				var err error
				if c, err = g.Insert(id, v); err != nil {
					t.Fatal(err)
				}
				inserted = []uint64{id}
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
				inserted = []uint64{id}
			}
			// A vector record is written only when its node is
			// inserted: a link change never rewrites a vector.
			var wrote []uint64
			for _, p := range c.Vectors {
				wrote = append(wrote, p.ID)
			}
			if !slices.Equal(wrote, inserted) {
				t.Fatalf("%v, operation %d: vector records of %v, inserted %v", m, i, wrote, inserted)
			}
			recs.apply(c)
			if i%150 == 149 {
				c := g.Reconnect()
				if len(c.Vectors) != 0 {
					t.Fatalf("%v: reconnecting rewrote %d vectors", m, len(c.Vectors))
				}
				recs.apply(c)
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
		h, err := recs.load()
		if err != nil {
			t.Fatal(err)
		}
		sameSearches(t, g, h, vs[:100])
		// Deleting everything leaves the empty header and no record.
		for _, id := range live {
			recs.apply(g.Delete(id))
		}
		if len(recs.vectors)+len(recs.links) != 0 || !bytes.Equal(recs.header, g.EncodeHeader()) {
			t.Fatalf("%v: emptied graph left %d records", m, len(recs.vectors)+len(recs.links))
		}
		if _, err := recs.load(); err != nil {
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
	if _, err := good.load(); err != nil {
		t.Fatal(err)
	}
	hdr, _ := DecodeHeader(good.header)
	variant := func(f func(r *records)) records {
		r := good.clone()
		f(&r)
		return r
	}
	some := uint64(0)
	for id := range good.links {
		if id != hdr.Entry {
			some = id
			break
		}
	}
	editLinks := func(f func(n *Links)) func(r *records) {
		return func(r *records) {
			n, _ := DecodeLinks(r.links[some])
			f(&n)
			r.links[some] = n.Encode()
		}
	}
	cases := map[string]records{
		"a node missing":         variant(func(r *records) { delete(r.vectors, some); delete(r.links, some) }),
		"a vector missing":       variant(func(r *records) { delete(r.vectors, some) }),
		"a links record missing": variant(func(r *records) { delete(r.links, some) }),
		"the entry missing":      variant(func(r *records) { delete(r.vectors, hdr.Entry); delete(r.links, hdr.Entry) }),
		"a node more": variant(func(r *records) {
			r.vectors[999] = Vector{ID: 999, Values: []float32{1, 2, 3, 4}}.Encode()
			r.links[999] = Links{ID: 999, Levels: [][]uint64{{1}}}.Encode()
		}),
		"links of no node": variant(func(r *records) {
			r.links[999] = Links{ID: 999, Levels: [][]uint64{{1}}}.Encode()
		}),
		"a link to a missing node": variant(editLinks(func(n *Links) {
			n.Levels[0] = append(n.Levels[0][:len(n.Levels[0])-1], 12345)
		})),
		"a level above the top": variant(editLinks(func(n *Links) {
			n.Levels = append(n.Levels, make([][]uint64, hdr.TopLevel+1)...)
		})),
		"another dimension": variant(func(r *records) {
			v, _ := DecodeVector(r.vectors[some])
			v.Values = append(v.Values, 1)
			r.vectors[some] = v.Encode()
		}),
		"a truncated header": variant(func(r *records) { r.header = r.header[:10] }),
		"another version":    variant(func(r *records) { r.header[0] = 1 }),
	}
	for name, r := range cases {
		if _, err := r.load(); err == nil {
			t.Errorf("%s: loaded", name)
		}
	}
	dup := func(seq iter.Seq2[[]byte, error]) iter.Seq2[[]byte, error] {
		return func(yield func([]byte, error) bool) {
			for b := range seq {
				if !yield(b, nil) || !yield(b, nil) {
					return
				}
			}
		}
	}
	if _, err := Load(good.header, dup(seqOf(good.vectors)), seqOf(good.links)); err == nil {
		t.Error("a vector twice: loaded")
	}
	if _, err := Load(good.header, seqOf(good.vectors), dup(seqOf(good.links))); err == nil {
		t.Error("links twice: loaded")
	}
	failing := func(yield func([]byte, error) bool) { yield(nil, fmt.Errorf("store down")) }
	if _, err := Load(good.header, failing, seqOf(good.links)); err == nil || err.Error() != "store down" {
		t.Errorf("the vector iteration's error: %v", err)
	}
	if _, err := Load(good.header, seqOf(good.vectors), failing); err == nil || err.Error() != "store down" {
		t.Errorf("the links iteration's error: %v", err)
	}
}

func TestDecodeVectorRefuses(t *testing.T) {
	good := Vector{ID: 7, Values: []float32{1, 2}}.Encode()
	if v, err := DecodeVector(good); err != nil || v.ID != 7 || !slices.Equal(v.Values, []float32{1, 2}) {
		t.Fatalf("%+v, %v", v, err)
	}
	for name, b := range map[string][]byte{
		"empty":        {},
		"short":        good[:len(good)-1],
		"long":         append(slices.Clone(good), 0),
		"version":      append([]byte{1}, good[1:]...),
		"no dimension": Vector{ID: 7}.Encode(),
		"not finite":   Vector{ID: 7, Values: []float32{float32(nan())}}.Encode(),
	} {
		if _, err := DecodeVector(b); err == nil {
			t.Errorf("%s: decoded", name)
		}
	}
}

func TestDecodeLinksRefuses(t *testing.T) {
	good := Links{ID: 7, Levels: [][]uint64{{1, 2}, {3}}}.Encode()
	if n, err := DecodeLinks(good); err != nil || n.ID != 7 || len(n.Levels) != 2 {
		t.Fatalf("%+v, %v", n, err)
	}
	for name, b := range map[string][]byte{
		"empty":            {},
		"short":            good[:len(good)-1],
		"long":             append(slices.Clone(good), 0),
		"version":          append([]byte{1}, good[1:]...),
		"self link":        Links{ID: 7, Levels: [][]uint64{{7}}}.Encode(),
		"twice":            Links{ID: 7, Levels: [][]uint64{{1, 1}}}.Encode(),
		"level above cap":  Links{ID: 7, Levels: make([][]uint64, maxLevel+2)}.Encode(),
		"too many at once": Links{ID: 7, Levels: [][]uint64{seqIDs(100, 2*MaxM+1)}}.Encode(),
	} {
		if _, err := DecodeLinks(b); err == nil {
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

// DecodeVector never panics, and what it accepts encodes back to the
// same bytes.
func FuzzDecodeVector(f *testing.F) {
	f.Add(Vector{ID: 7, Values: []float32{1, 2}}.Encode())
	f.Add(Vector{ID: 1, Values: []float32{0.5}}.Encode())
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := DecodeVector(b)
		if err != nil {
			return
		}
		if !bytes.Equal(v.Encode(), b) {
			t.Fatalf("%x decodes to %+v, which encodes to %x", b, v, v.Encode())
		}
	})
}

// DecodeLinks never panics, and what it accepts encodes back to the same
// bytes.
func FuzzDecodeLinks(f *testing.F) {
	f.Add(Links{ID: 7, Levels: [][]uint64{{1, 2}, {3}}}.Encode())
	f.Add(Links{ID: 1, Levels: [][]uint64{{}}}.Encode())
	f.Fuzz(func(t *testing.T, b []byte) {
		n, err := DecodeLinks(b)
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
		none := func(func([]byte, error) bool) {}
		_, err = Load(b, none, none)
		if (err == nil) != (h.Count == 0) {
			t.Fatalf("%x: header %+v, load %v", b, h, err)
		}
	})
}
