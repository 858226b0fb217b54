package vector

import (
	"encoding/binary"
	"errors"
	"fmt"
	"iter"
	"math"
	"slices"
)

// Record versions. A decoder refuses any other. Version 1 kept a node's
// vector and its links in one record; version 2 splits them, so that a
// link change rewrites only the small links record.
const (
	headerVersion = 2
	vectorVersion = 2
	linksVersion  = 2
)

// headerSize is the length of a header record.
const headerSize = 1 + 1 + 4 + 4 + 4 + 4 + 8 + 8 + 1 + 8 + 1

// Changes is what one Insert, Delete or Reconnect changed in the graph's
// records: written in the same batch as the item that caused it, it
// keeps a store's records equal to the graph's.
type Changes struct {
	// Header is the new header record, nil when it did not change.
	Header []byte
	// Vectors holds the vector records to write, by id ascending: those
	// of the nodes inserted (or whose vector an Insert replaced). A
	// node's vector record is written once, when it is inserted.
	Vectors []Record
	// Links holds the links records to write, by id ascending: the
	// inserted nodes' and those of every node whose lists changed.
	Links []Record
	// Delete holds the ids whose records, vector and links, to delete,
	// ascending.
	Delete []uint64
}

// Empty reports whether nothing changed.
func (c *Changes) Empty() bool {
	return c.Header == nil && len(c.Vectors) == 0 && len(c.Links) == 0 && len(c.Delete) == 0
}

// Record is one node's record and its id.
type Record struct {
	ID   uint64
	Data []byte
}

// changes gathers the writer's changes; before is the header before the
// operation.
func (g *Graph) changes(before []byte) *Changes {
	c := &Changes{}
	if h := g.encodeHeader(); !slices.Equal(h, before) {
		c.Header = h
	}
	ids := make([]uint64, 0, len(g.w.dirty))
	for id := range g.w.dirty {
		if _, ok := g.slot[id]; ok {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	c.Links = make([]Record, len(ids))
	for i, id := range ids {
		c.Links[i] = Record{ID: id, Data: g.encodeLinks(g.slot[id])}
		if g.w.inserted[id] {
			c.Vectors = append(c.Vectors, Record{ID: id, Data: g.encodeVector(g.slot[id])})
		}
	}
	for _, id := range g.w.removed {
		if _, ok := g.slot[id]; !ok && !slices.Contains(c.Delete, id) {
			c.Delete = append(c.Delete, id)
		}
	}
	slices.Sort(c.Delete)
	g.w.dirty = nil
	g.w.inserted = nil
	return c
}

// Header is the content of a graph's header record.
type Header struct {
	Config
	// Count is the number of nodes.
	Count uint64
	// HasEntry says whether there is an entry point (false when empty).
	HasEntry bool
	// Entry is the entry point's id and TopLevel its level.
	Entry    uint64
	TopLevel int
}

// EncodeHeader returns the graph's header record.
func (g *Graph) EncodeHeader() []byte {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return g.encodeHeader()
}

// The header record, little-endian: version (1 byte), metric (1),
// dimensions, M, efConstruction, efSearch (4 each), seed, count (8
// each), has-entry (1: 0 or 1), entry id (8), top level (1).
func (g *Graph) encodeHeader() []byte {
	b := make([]byte, 0, headerSize)
	b = append(b, headerVersion, byte(g.cfg.Metric))
	b = binary.LittleEndian.AppendUint32(b, uint32(g.cfg.Dimensions))
	b = binary.LittleEndian.AppendUint32(b, uint32(g.cfg.M))
	b = binary.LittleEndian.AppendUint32(b, uint32(g.cfg.EFConstruction))
	b = binary.LittleEndian.AppendUint32(b, uint32(g.cfg.EFSearch))
	b = binary.LittleEndian.AppendUint64(b, g.cfg.Seed)
	b = binary.LittleEndian.AppendUint64(b, uint64(len(g.slot)))
	var entry uint64
	has := byte(0)
	if g.hasEntry {
		has, entry = 1, g.ids[g.entry]
	}
	b = append(b, has)
	b = binary.LittleEndian.AppendUint64(b, entry)
	return append(b, byte(g.top))
}

// DecodeHeader reads a header record, refusing anything malformed.
func DecodeHeader(b []byte) (Header, error) {
	var h Header
	if len(b) != headerSize {
		return h, fmt.Errorf("vector: header record of %d bytes, want %d", len(b), headerSize)
	}
	if b[0] != headerVersion {
		return h, fmt.Errorf("vector: header record version %d", b[0])
	}
	h.Metric = Metric(b[1])
	le := binary.LittleEndian
	h.Dimensions = int(le.Uint32(b[2:]))
	h.M = int(le.Uint32(b[6:]))
	h.EFConstruction = int(le.Uint32(b[10:]))
	h.EFSearch = int(le.Uint32(b[14:]))
	if h.M == 0 || h.EFConstruction == 0 || h.EFSearch == 0 {
		return h, errors.New("vector: header record with a zero parameter")
	}
	if err := h.Config.resolve(); err != nil {
		return h, err
	}
	h.Seed = le.Uint64(b[18:])
	h.Count = le.Uint64(b[26:])
	switch b[34] {
	case 0:
	case 1:
		h.HasEntry = true
	default:
		return h, errors.New("vector: header record with a bad entry flag")
	}
	h.Entry = le.Uint64(b[35:])
	h.TopLevel = int(b[43])
	if h.TopLevel > maxLevel {
		return h, fmt.Errorf("vector: header record with top level %d", h.TopLevel)
	}
	if h.HasEntry != (h.Count > 0) || !h.HasEntry && (h.Entry != 0 || h.TopLevel != 0) {
		return h, errors.New("vector: header record with an inconsistent entry point")
	}
	return h, nil
}

// Vector is the content of a vector record: a node's id and vector.
type Vector struct {
	ID     uint64
	Values []float32
}

// Links is the content of a links record: a node's neighbour ids on
// each level, 0 first; the node's level is len(Levels)-1.
type Links struct {
	ID     uint64
	Levels [][]uint64
}

// EncodeVector returns the vector record of node id, or false when id
// is not in the graph.
func (g *Graph) EncodeVector(id uint64) ([]byte, bool) {
	g.mu.RLock()
	defer g.mu.RUnlock()
	s, ok := g.slot[id]
	if !ok {
		return nil, false
	}
	return g.encodeVector(s), true
}

// EncodeLinks returns the links record of node id, or false when id is
// not in the graph.
func (g *Graph) EncodeLinks(id uint64) ([]byte, bool) {
	g.mu.RLock()
	defer g.mu.RUnlock()
	s, ok := g.slot[id]
	if !ok {
		return nil, false
	}
	return g.encodeLinks(s), true
}

// The vector record, little-endian: version (1 byte), id (8),
// dimensions (4), the vector (4 each, float32 bits).
func (g *Graph) encodeVector(s uint32) []byte {
	return appendVector(nil, g.ids[s], g.vec(s))
}

// The links record, little-endian: version (1 byte), id (8), level (1),
// then for each level from 0 up its neighbour count (2) and neighbour
// ids (8 each).
func (g *Graph) encodeLinks(s uint32) []byte {
	return appendLinks(nil, g.ids[s], len(g.links[s]), func(l int) []uint64 {
		ids := make([]uint64, len(g.links[s][l]))
		for i, t := range g.links[s][l] {
			ids[i] = g.ids[t]
		}
		return ids
	})
}

// Encode returns the vector record, as EncodeVector writes it.
func (v Vector) Encode() []byte { return appendVector(nil, v.ID, v.Values) }

// Encode returns the links record, as EncodeLinks writes it.
func (n Links) Encode() []byte {
	return appendLinks(nil, n.ID, len(n.Levels), func(l int) []uint64 { return n.Levels[l] })
}

func appendVector(b []byte, id uint64, v []float32) []byte {
	b = slices.Grow(b, 1+8+4+4*len(v))
	b = append(b, vectorVersion)
	b = binary.LittleEndian.AppendUint64(b, id)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(v)))
	for _, x := range v {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
	}
	return b
}

func appendLinks(b []byte, id uint64, levels int, links func(level int) []uint64) []byte {
	b = append(b, linksVersion)
	b = binary.LittleEndian.AppendUint64(b, id)
	b = append(b, byte(levels-1))
	for l := range levels {
		ids := links(l)
		b = binary.LittleEndian.AppendUint16(b, uint16(len(ids)))
		for _, t := range ids {
			b = binary.LittleEndian.AppendUint64(b, t)
		}
	}
	return b
}

// IDs returns the ids of the graph's nodes, ascending.
func (g *Graph) IDs() []uint64 {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return g.sortedIDs()
}

// DecodeVector reads a vector record, refusing anything malformed: a
// wrong version or length, no or too many dimensions, a value that is
// not finite.
func DecodeVector(b []byte) (Vector, error) {
	var v Vector
	const fixed = 1 + 8 + 4
	if len(b) < fixed {
		return v, fmt.Errorf("vector: vector record of %d bytes", len(b))
	}
	if b[0] != vectorVersion {
		return v, fmt.Errorf("vector: vector record version %d", b[0])
	}
	le := binary.LittleEndian
	v.ID = le.Uint64(b[1:])
	dim := le.Uint32(b[9:])
	if dim < 1 || dim > MaxDimensions {
		return v, fmt.Errorf("vector: node %d has %d dimensions", v.ID, dim)
	}
	b = b[fixed:]
	if uint64(len(b)) != 4*uint64(dim) {
		return v, fmt.Errorf("vector: node %d vector record of %d bytes for %d dimensions", v.ID, len(b), dim)
	}
	v.Values = make([]float32, dim)
	for i := range v.Values {
		v.Values[i] = math.Float32frombits(le.Uint32(b[4*i:]))
	}
	if !finite(v.Values) {
		return v, fmt.Errorf("vector: node %d vector is not finite", v.ID)
	}
	return v, nil
}

// DecodeLinks reads a links record, refusing anything malformed: a
// wrong version or length, a level above the cap, more than 2*MaxM
// neighbours on a level, a node linked to itself or to one neighbour
// twice on a level.
func DecodeLinks(b []byte) (Links, error) {
	var n Links
	const fixed = 1 + 8 + 1
	if len(b) < fixed {
		return n, fmt.Errorf("vector: links record of %d bytes", len(b))
	}
	if b[0] != linksVersion {
		return n, fmt.Errorf("vector: links record version %d", b[0])
	}
	le := binary.LittleEndian
	n.ID = le.Uint64(b[1:])
	level := int(b[9])
	if level > maxLevel {
		return n, fmt.Errorf("vector: node %d has level %d", n.ID, level)
	}
	b = b[fixed:]
	n.Levels = make([][]uint64, level+1)
	for l := range n.Levels {
		if len(b) < 2 {
			return n, fmt.Errorf("vector: node %d links record is short", n.ID)
		}
		c := int(le.Uint16(b))
		b = b[2:]
		if c > 2*MaxM {
			return n, fmt.Errorf("vector: node %d has %d neighbours on level %d", n.ID, c, l)
		}
		if len(b) < 8*c {
			return n, fmt.Errorf("vector: node %d links record is short", n.ID)
		}
		ids := make([]uint64, c)
		for i := range ids {
			ids[i] = le.Uint64(b[8*i:])
			if ids[i] == n.ID || slices.Contains(ids[:i], ids[i]) {
				return n, fmt.Errorf("vector: node %d has a bad neighbour %d on level %d", n.ID, ids[i], l)
			}
		}
		n.Levels[l] = ids
		b = b[8*c:]
	}
	if len(b) != 0 {
		return n, fmt.Errorf("vector: node %d links record has %d bytes too many", n.ID, len(b))
	}
	return n, nil
}

// Load rebuilds a graph from its header record, all its vector records
// and all its links records, each sequence in any order, as
// EncodeHeader, EncodeVector and EncodeLinks (or the Changes of Insert,
// Delete and Reconnect) wrote them: a store reads each kind as one range.
// No neighbour list is recomputed and nothing is inserted. It refuses
// records that do not make a whole graph: a count that differs, a node
// twice, a node without its links record or links without a vector, a
// link to a node that is missing or below the link's level, a list
// longer than the level allows, an entry point that is missing or not of
// the top level.
func Load(header []byte, vectors, links iter.Seq2[[]byte, error]) (*Graph, error) {
	h, err := DecodeHeader(header)
	if err != nil {
		return nil, err
	}
	g := newGraph(h.Config)
	for rec, err := range vectors {
		if err != nil {
			return nil, err
		}
		v, err := DecodeVector(rec)
		if err != nil {
			return nil, err
		}
		if len(v.Values) != h.Dimensions {
			return nil, fmt.Errorf("vector: node %d has %d dimensions, the header %d", v.ID, len(v.Values), h.Dimensions)
		}
		if _, dup := g.slot[v.ID]; dup {
			return nil, fmt.Errorf("vector: node %d appears twice", v.ID)
		}
		if uint64(len(g.slot)) >= h.Count {
			return nil, fmt.Errorf("vector: more vector records than the header's %d", h.Count)
		}
		s := g.alloc(v.ID, -1)
		copy(g.vec(s), v.Values)
		g.norms[s] = dot(v.Values, v.Values)
	}
	if uint64(len(g.slot)) != h.Count {
		return nil, fmt.Errorf("vector: %d vector records, the header says %d", len(g.slot), h.Count)
	}
	lists := make([][][]uint64, len(g.ids))
	for rec, err := range links {
		if err != nil {
			return nil, err
		}
		n, err := DecodeLinks(rec)
		if err != nil {
			return nil, err
		}
		s, ok := g.slot[n.ID]
		if !ok {
			return nil, fmt.Errorf("vector: links of node %d, which has no vector", n.ID)
		}
		if lists[s] != nil {
			return nil, fmt.Errorf("vector: links of node %d appear twice", n.ID)
		}
		level := len(n.Levels) - 1
		if level > h.TopLevel {
			return nil, fmt.Errorf("vector: node %d has level %d, above the top %d", n.ID, level, h.TopLevel)
		}
		lists[s] = n.Levels
		ls := make([][]uint32, level+1)
		for l := range ls {
			ls[l] = make([]uint32, 0, g.maxLinks(l))
		}
		g.links[s] = ls
	}
	for s, ls := range lists {
		if ls == nil {
			return nil, fmt.Errorf("vector: node %d has no links record", g.ids[s])
		}
		for l, ids := range ls {
			if len(ids) > g.maxLinks(l) {
				return nil, fmt.Errorf("vector: node %d has %d neighbours on level %d", g.ids[s], len(ids), l)
			}
			list := g.links[s][l]
			for _, id := range ids {
				t, ok := g.slot[id]
				if !ok || len(g.links[t]) <= l {
					return nil, fmt.Errorf("vector: node %d links to %d, missing on level %d", g.ids[s], id, l)
				}
				list = append(list, t)
				g.rev[t] = append(g.rev[t], uint32(s))
				if l == 0 {
					g.in0[t]++
				}
			}
			g.links[s][l] = list
		}
	}
	if h.HasEntry {
		e, ok := g.slot[h.Entry]
		if !ok || len(g.links[e])-1 != h.TopLevel {
			return nil, fmt.Errorf("vector: entry point %d missing or not of level %d", h.Entry, h.TopLevel)
		}
		g.hasEntry, g.entry, g.top = true, e, h.TopLevel
	}
	return g, nil
}
