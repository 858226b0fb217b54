package vector

import (
	"encoding/binary"
	"errors"
	"fmt"
	"iter"
	"math"
	"slices"
)

// Record versions. A decoder refuses any other.
const (
	headerVersion = 1
	nodeVersion   = 1
)

// headerSize is the length of a version-1 header record.
const headerSize = 1 + 1 + 4 + 4 + 4 + 4 + 8 + 8 + 1 + 8 + 1

// Changes is what one Insert or Delete changed in the graph's records:
// written in the same batch as the item that caused it, it keeps a
// store's records equal to the graph's.
type Changes struct {
	// Header is the new header record, nil when it did not change.
	Header []byte
	// Put holds the node records to write, by id ascending: the inserted
	// node and every node whose neighbour lists changed.
	Put []Record
	// Delete holds the ids whose records to delete, ascending.
	Delete []uint64
}

// Empty reports whether nothing changed.
func (c *Changes) Empty() bool { return c.Header == nil && len(c.Put) == 0 && len(c.Delete) == 0 }

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
	c.Put = make([]Record, len(ids))
	for i, id := range ids {
		c.Put[i] = Record{ID: id, Data: g.encodeNode(g.slot[id])}
	}
	for _, id := range g.w.removed {
		if _, ok := g.slot[id]; !ok && !slices.Contains(c.Delete, id) {
			c.Delete = append(c.Delete, id)
		}
	}
	slices.Sort(c.Delete)
	g.w.dirty = nil
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

// Node is the content of a node record.
type Node struct {
	ID     uint64
	Vector []float32
	// Links holds the node's neighbour ids on each level, 0 first; the
	// node's level is len(Links)-1.
	Links [][]uint64
}

// EncodeNode returns the record of node id, or false when id is not in
// the graph.
func (g *Graph) EncodeNode(id uint64) ([]byte, bool) {
	g.mu.RLock()
	defer g.mu.RUnlock()
	s, ok := g.slot[id]
	if !ok {
		return nil, false
	}
	return g.encodeNode(s), true
}

// The node record, little-endian: version (1 byte), id (8), level (1),
// dimensions (4), the vector (4 each, float32 bits), then for each level
// from 0 up its neighbour count (2) and neighbour ids (8 each).
func (g *Graph) encodeNode(s uint32) []byte {
	return appendNode(nil, g.ids[s], g.vec(s), len(g.links[s]), func(l int) []uint64 {
		ids := make([]uint64, len(g.links[s][l]))
		for i, t := range g.links[s][l] {
			ids[i] = g.ids[t]
		}
		return ids
	})
}

// Encode returns the node's record, as EncodeNode writes it.
func (n Node) Encode() []byte {
	return appendNode(nil, n.ID, n.Vector, len(n.Links), func(l int) []uint64 { return n.Links[l] })
}

func appendNode(b []byte, id uint64, v []float32, levels int, links func(level int) []uint64) []byte {
	b = append(b, nodeVersion)
	b = binary.LittleEndian.AppendUint64(b, id)
	b = append(b, byte(levels-1))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(v)))
	for _, x := range v {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
	}
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

// DecodeNode reads a node record, refusing anything malformed: a wrong
// version or length, a level above the cap, no or too many dimensions, a
// value that is not finite, more than 2*MaxM neighbours on a level, a
// node linked to itself or to one neighbour twice on a level.
func DecodeNode(b []byte) (Node, error) {
	var n Node
	const fixed = 1 + 8 + 1 + 4
	if len(b) < fixed {
		return n, fmt.Errorf("vector: node record of %d bytes", len(b))
	}
	if b[0] != nodeVersion {
		return n, fmt.Errorf("vector: node record version %d", b[0])
	}
	le := binary.LittleEndian
	n.ID = le.Uint64(b[1:])
	level := int(b[9])
	if level > maxLevel {
		return n, fmt.Errorf("vector: node %d has level %d", n.ID, level)
	}
	dim := le.Uint32(b[10:])
	if dim < 1 || dim > MaxDimensions {
		return n, fmt.Errorf("vector: node %d has %d dimensions", n.ID, dim)
	}
	b = b[fixed:]
	if uint64(len(b)) < 4*uint64(dim) {
		return n, fmt.Errorf("vector: node %d record is short", n.ID)
	}
	n.Vector = make([]float32, dim)
	for i := range n.Vector {
		n.Vector[i] = math.Float32frombits(le.Uint32(b[4*i:]))
	}
	if !finite(n.Vector) {
		return n, fmt.Errorf("vector: node %d vector is not finite", n.ID)
	}
	b = b[4*dim:]
	n.Links = make([][]uint64, level+1)
	for l := range n.Links {
		if len(b) < 2 {
			return n, fmt.Errorf("vector: node %d record is short", n.ID)
		}
		c := int(le.Uint16(b))
		b = b[2:]
		if c > 2*MaxM {
			return n, fmt.Errorf("vector: node %d has %d neighbours on level %d", n.ID, c, l)
		}
		if len(b) < 8*c {
			return n, fmt.Errorf("vector: node %d record is short", n.ID)
		}
		ids := make([]uint64, c)
		for i := range ids {
			ids[i] = le.Uint64(b[8*i:])
			if ids[i] == n.ID || slices.Contains(ids[:i], ids[i]) {
				return n, fmt.Errorf("vector: node %d has a bad neighbour %d on level %d", n.ID, ids[i], l)
			}
		}
		n.Links[l] = ids
		b = b[8*c:]
	}
	if len(b) != 0 {
		return n, fmt.Errorf("vector: node %d record has %d bytes too many", n.ID, len(b))
	}
	return n, nil
}

// Load rebuilds a graph from its header record and all its node
// records, in any order, as EncodeHeader and EncodeNode (or the Changes
// of Insert and Delete) wrote them. No neighbour list is recomputed. It
// refuses records that do not make a whole graph: a count that differs,
// a node twice, a link to a node that is missing or below the link's
// level, a list longer than the level allows, an entry point that is
// missing or not of the top level.
func Load(header []byte, nodes iter.Seq2[[]byte, error]) (*Graph, error) {
	h, err := DecodeHeader(header)
	if err != nil {
		return nil, err
	}
	g := newGraph(h.Config)
	var links [][][]uint64
	for rec, err := range nodes {
		if err != nil {
			return nil, err
		}
		n, err := DecodeNode(rec)
		if err != nil {
			return nil, err
		}
		if len(n.Vector) != h.Dimensions {
			return nil, fmt.Errorf("vector: node %d has %d dimensions, the header %d", n.ID, len(n.Vector), h.Dimensions)
		}
		if _, dup := g.slot[n.ID]; dup {
			return nil, fmt.Errorf("vector: node %d appears twice", n.ID)
		}
		if uint64(len(g.slot)) >= h.Count {
			return nil, fmt.Errorf("vector: more node records than the header's %d", h.Count)
		}
		level := len(n.Links) - 1
		if level > h.TopLevel {
			return nil, fmt.Errorf("vector: node %d has level %d, above the top %d", n.ID, level, h.TopLevel)
		}
		s := g.alloc(n.ID, level)
		copy(g.vec(s), n.Vector)
		g.norms[s] = dot(n.Vector, n.Vector)
		links = append(links, n.Links)
	}
	if uint64(len(g.slot)) != h.Count {
		return nil, fmt.Errorf("vector: %d node records, the header says %d", len(g.slot), h.Count)
	}
	for s, ls := range links {
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
