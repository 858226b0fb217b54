package engine

import (
	"bytes"
	"container/list"
	"encoding/binary"
	"errors"
	"fmt"
	"iter"
	"slices"
	"sync"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/internal/keys"
	"github.com/dynago/dynago/internal/storage"
	"github.com/dynago/dynago/internal/vector"
)

// The approximate index of a vector index: one HNSW graph
// (internal/vector) per range a search reads, that is per HASH value of
// the search schema, or one for the whole index when the schema has no
// HASH element. Every graph holds one node per entry of its range: every
// write that adds, changes or removes an entry changes the graph in the
// same batch. A search reads the graph only when it holds more than
// Options.VectorExactLimit nodes (engine/vector_search.go); below that it
// reads the entries, as an exact search.
//
// The records live under keys.VectorGraphPrefix of the index (GP), which
// the index's entry ranges never include, and go with the index's rows
// (DeleteTable, an index's deletion and its sweep). With gid the
// encoded HASH value (keys.AppendTuple of one value, which no other
// value's encoding starts with), or nothing for an index without a HASH
// element:
//
//	GP | gid | 'h'              the graph's header: version (1) |
//	                            writes (8) | next id (8) | the graph
//	                            package's header record
//	GP | gid | 'v' | id (8, BE) uvarint(len(record)) | the node's vector
//	                            record | the entry's row key
//	GP | gid | 'l' | id (8, BE) the node's links record
//
// Integers in the header are little-endian. writes counts the batches
// that changed the graph, so that a node sharing the store can tell its
// copy is stale (one Get), and expects the header it read in every batch
// that changes the graph. Node ids come from next id, one per node
// inserted, never reused; an entry whose vector changes gets a new node
// (its vector record is written once). A search's node leads to its
// entry by the row key kept with its vector, with one Get.
//
// A write stages its graph operations (vecWork) while it stages the
// item and its entries, and applies them when the batch commits: it
// takes the graphs' writer locks in key order (after the item locks the
// write holds), brings each graph up to date, changes it in memory and
// adds its changed records to the batch. If the batch fails, the graphs
// it changed are dropped, to be loaded again from the store. Graphs are
// loaded on first use and kept in a cache that drops the least recently
// used ones past Options.VectorCacheNodes nodes.

const (
	graphHeaderV1 = 1
	graphHeadLen  = 1 + 8 + 8

	graphRecHeader = 'h'
	graphRecVector = 'v'
	graphRecLinks  = 'l'

	// graphSeed chooses the graphs' node levels (vector.Config.Seed).
	graphSeed = 0x64796e61676f
)

var errBadGraphRecord = errors.New("malformed vector graph record")

// vectorGraphKey returns the key of the graph of ix that holds the
// entry of an item whose HASH value is hash (nil for an index without
// a HASH element).
func vectorGraphKey(t *table, ix *index, hash *attr.Value) (string, error) {
	k := keys.VectorGraphPrefix(t.meta.ID, ix.meta.ID)
	if hash != nil {
		var err error
		if k, err = keys.AppendTuple(k, []attr.Value{*hash}); err != nil {
			return "", err
		}
	}
	return string(k), nil
}

func graphRecKey(gk string, kind byte, id uint64) []byte {
	k := make([]byte, 0, len(gk)+9)
	k = append(append(k, gk...), kind)
	if kind != graphRecHeader {
		k = binary.BigEndian.AppendUint64(k, id)
	}
	return k
}

// graphData is a loaded graph: the graph and its nodes' entries. A
// search keeps the one it started with even if the graph is reloaded or
// dropped meanwhile.
type graphData struct {
	g     *vector.Graph
	mu    sync.RWMutex // guards byRow and rows
	byRow map[string]uint64
	rows  map[uint64][]byte
}

func (d *graphData) rowOf(id uint64) []byte {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return d.rows[id]
}

// vgraph is one graph in the cache.
type vgraph struct {
	key string
	// mu is the graph's writer lock: a batch holds it from applying its
	// changes until its commit has succeeded or failed; loading takes it
	// too.
	mu      sync.Mutex
	d       *graphData // nil: not loaded
	evicted bool       // dropped from the cache: get it again
	header  []byte     // the header record as stored; nil: none
	writes  uint64
	nextID  uint64
	// pending is the header a batch holding mu is committing.
	pending []byte
	elem    *list.Element
	nodes   int // counted in the cache's budget
}

// graphCache holds the loaded graphs, least recently used last.
type graphCache struct {
	mu     sync.Mutex
	m      map[string]*vgraph
	lru    list.List
	nodes  int
	budget int
}

// get returns the cache's graph for key, made if missing, and marks it
// used.
func (c *graphCache) get(key string) *vgraph {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]*vgraph{}
	}
	g := c.m[key]
	if g == nil {
		g = &vgraph{key: key}
		g.elem = c.lru.PushFront(g)
		c.m[key] = g
	} else {
		c.lru.MoveToFront(g.elem)
	}
	return g
}

// resize records that g holds n nodes, and drops least recently used
// graphs, other than g and those in use by a writer, while the cache
// holds more than its budget.
func (c *graphCache) resize(g *vgraph, n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if g.evicted {
		return
	}
	c.nodes += n - g.nodes
	g.nodes = n
	for e := c.lru.Back(); e != nil && c.nodes > c.budget; {
		v := e.Value.(*vgraph)
		e = e.Prev()
		if v == g || !v.mu.TryLock() {
			continue
		}
		v.evicted, v.d = true, nil
		c.lru.Remove(v.elem)
		delete(c.m, v.key)
		c.nodes -= v.nodes
		v.mu.Unlock()
	}
}

// lockGraph returns the graph of key locked and loaded, current with the
// store when others write it. ix is the index whose graph it is.
func (db *DB) lockGraph(key string, ix *index) (*vgraph, error) {
	var stored []byte
	var found bool
	if db.shared {
		var err error
		if stored, found, err = db.store.Get(graphRecKey(key, graphRecHeader, 0), nil); err != nil {
			return nil, err
		}
	}
	for {
		g := db.graphs.get(key)
		g.mu.Lock()
		if g.evicted {
			g.mu.Unlock()
			continue
		}
		if g.d == nil || db.shared && (found != (g.header != nil) || !bytes.Equal(stored, g.header)) {
			if err := db.loadGraph(g, ix); err != nil {
				g.d = nil
				g.mu.Unlock()
				return nil, err
			}
			db.graphs.resize(g, g.d.g.Len())
		}
		return g, nil
	}
}

// loadGraph reads g from the store, from one snapshot, under g.mu.
func (db *DB) loadGraph(g *vgraph, ix *index) error {
	snap, err := db.store.NewSnapshot()
	if err != nil {
		return err
	}
	defer snap.Close()
	return loadGraphFrom(snap, g, ix)
}

// loadGraphFrom reads g from snap, a consistent view of the store.
func loadGraphFrom(snap storage.Reader, g *vgraph, ix *index) error {
	raw, found, err := snap.Get(graphRecKey(g.key, graphRecHeader, 0), nil)
	if err != nil {
		return err
	}
	d := &graphData{byRow: map[string]uint64{}, rows: map[uint64][]byte{}}
	if !found {
		if d.g, err = vector.New(vector.Config{Metric: ix.vec.metric, Dimensions: ix.vec.dims, Seed: graphSeed}); err != nil {
			return err
		}
		g.d, g.header, g.writes, g.nextID = d, nil, 0, 1
		return nil
	}
	if len(raw) < graphHeadLen || raw[0] != graphHeaderV1 {
		return errBadGraphRecord
	}
	writes := binary.LittleEndian.Uint64(raw[1:])
	next := binary.LittleEndian.Uint64(raw[9:])
	var iterErr error
	vectors := func(yield func([]byte, error) bool) {
		for k, v := range graphRange(snap, g.key, graphRecVector, &iterErr) {
			n, w := binary.Uvarint(v)
			if w <= 0 || n > uint64(len(v)-w) {
				yield(nil, errBadGraphRecord)
				return
			}
			rec, row := v[w:w+int(n)], bytes.Clone(v[w+int(n):])
			id := binary.BigEndian.Uint64(k[len(k)-8:])
			d.byRow[string(row)] = id
			d.rows[id] = row
			if !yield(rec, nil) {
				return
			}
		}
		if iterErr != nil {
			yield(nil, iterErr)
		}
	}
	links := func(yield func([]byte, error) bool) {
		for _, v := range graphRange(snap, g.key, graphRecLinks, &iterErr) {
			if !yield(v, nil) {
				return
			}
		}
		if iterErr != nil {
			yield(nil, iterErr)
		}
	}
	gr, err := vector.Load(raw[graphHeadLen:], vectors, links)
	if err != nil {
		return fmt.Errorf("load vector graph: %w", err)
	}
	if gr.Config().Metric != ix.vec.metric || gr.Config().Dimensions != ix.vec.dims {
		return errBadGraphRecord
	}
	d.g = gr
	g.d, g.header, g.writes, g.nextID = d, raw, writes, next
	return nil
}

// graphRange iterates the records of one kind of the graph key, in key
// order; an error ends it and is left in *errp.
func graphRange(r storage.Reader, key string, kind byte, errp *error) iter.Seq2[[]byte, []byte] {
	return func(yield func([]byte, []byte) bool) {
		lower := append([]byte(key), kind)
		it, err := r.NewIter(lower, keys.PrefixEnd(lower))
		if err != nil {
			*errp = err
			return
		}
		for ok := it.First(); ok; ok = it.Next() {
			if len(it.Key()) != len(lower)+8 {
				*errp = errBadGraphRecord
				it.Close()
				return
			}
			if !yield(it.Key(), it.Value()) {
				break
			}
		}
		*errp = it.Close()
	}
}

// vecOp is one change a write makes to a graph: the entry at row is
// added with vec or moved to it (vec nil: removed).
type vecOp struct {
	ix  *index
	key string // the graph's
	row []byte
	vec []float32
}

// vecWork is what one batch changes in the graphs: staged with its
// items, applied at its commit, finished after it.
type vecWork struct {
	ops  []vecOp
	held []*vgraph
}

func (w *vecWork) stage(op vecOp) { w.ops = append(w.ops, op) }

// apply locks the graphs the batch changes, in key order, applies its
// operations to them and adds their changed records to b, which the
// caller commits next; finish follows in any case.
func (w *vecWork) apply(db *DB, b storage.Batch) error {
	if len(w.ops) == 0 {
		return nil
	}
	order := make([]int, len(w.ops))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int { return compareStrings(w.ops[i].key, w.ops[j].key) })
	var g *vgraph
	var ops []vecOp
	for n, i := range order {
		op := w.ops[i]
		if g == nil || g.key != op.key {
			var err error
			if g, err = db.lockGraph(op.key, op.ix); err != nil {
				return err
			}
			w.held = append(w.held, g)
		}
		ops = append(ops, op)
		if n+1 == len(order) || w.ops[order[n+1]].key != op.key {
			if err := db.applyGraphOps(b, g, ops); err != nil {
				return err
			}
			ops = ops[:0]
		}
	}
	return nil
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// applyGraphOps applies ops to g, which the caller holds, and stages the
// records they change.
func (db *DB) applyGraphOps(b storage.Batch, g *vgraph, ops []vecOp) error {
	d := g.d
	changed := false
	put := func(c *vector.Changes) error {
		for _, r := range c.Vectors {
			row := d.rows[r.ID]
			v := make([]byte, 0, binary.MaxVarintLen32+len(r.Data)+len(row))
			v = binary.AppendUvarint(v, uint64(len(r.Data)))
			v = append(append(v, r.Data...), row...)
			if err := b.Set(graphRecKey(g.key, graphRecVector, r.ID), v); err != nil {
				return err
			}
		}
		for _, r := range c.Links {
			if err := b.Set(graphRecKey(g.key, graphRecLinks, r.ID), r.Data); err != nil {
				return err
			}
		}
		for _, id := range c.Delete {
			if err := b.Delete(graphRecKey(g.key, graphRecVector, id)); err != nil {
				return err
			}
			if err := b.Delete(graphRecKey(g.key, graphRecLinks, id)); err != nil {
				return err
			}
		}
		changed = changed || !c.Empty()
		return nil
	}
	for _, op := range ops {
		id, had := d.byRow[string(op.row)]
		if had && op.vec != nil && d.g.HasVector(id, op.vec) {
			continue
		}
		if had {
			c := d.g.Delete(id)
			d.mu.Lock()
			delete(d.byRow, string(op.row))
			delete(d.rows, id)
			d.mu.Unlock()
			if err := put(c); err != nil {
				return err
			}
		}
		if op.vec == nil {
			continue
		}
		id = g.nextID
		g.nextID++
		row := bytes.Clone(op.row)
		d.mu.Lock()
		d.byRow[string(row)] = id
		d.rows[id] = row
		d.mu.Unlock()
		c, err := d.g.Insert(id, op.vec)
		if err != nil {
			return err
		}
		db.meters.vectorGraphInserts.Add(1)
		if err := put(c); err != nil {
			return err
		}
		changed = true
	}
	if !changed {
		return nil
	}
	h := make([]byte, 0, graphHeadLen+64)
	h = append(h, graphHeaderV1)
	h = binary.LittleEndian.AppendUint64(h, g.writes+1)
	h = binary.LittleEndian.AppendUint64(h, g.nextID)
	h = append(h, d.g.EncodeHeader()...)
	hk := graphRecKey(g.key, graphRecHeader, 0)
	if db.shared {
		b.Expect(hk, g.header, g.header != nil)
	}
	if err := b.Set(hk, h); err != nil {
		return err
	}
	g.pending = h
	db.graphs.resize(g, d.g.Len())
	return nil
}

// finish releases the graphs apply locked: after a commit, each keeps
// what it became; otherwise each is dropped, to be loaded again, since
// it is ahead of the store.
func (w *vecWork) finish(committed bool) {
	for _, g := range w.held {
		switch {
		case committed && g.pending != nil:
			g.header, g.pending = g.pending, nil
			g.writes++
		case !committed:
			g.d, g.pending = nil, nil
		}
		g.mu.Unlock()
	}
	w.held = nil
	w.ops = nil
}

// stageVectorOps stages the graph changes of an item whose entry in ix
// goes from oldKey (vector oldVec) to newKey (newVec); a nil key is no
// entry. check says the old entry may be missing (a backfill has not
// passed the item), so the new one is staged even if it looks unchanged.
func (t *table) stageVectorOps(w *vecWork, ix *index, oldItem, next attr.Item, oldKey, newKey []byte, oldVec, newVec []float32, check bool) error {
	if oldKey != nil && (newKey == nil || !bytes.Equal(oldKey, newKey)) {
		gk, err := t.graphKeyOf(ix, oldItem)
		if err != nil {
			return err
		}
		w.stage(vecOp{ix: ix, key: gk, row: oldKey})
	}
	if newKey != nil && (check || oldKey == nil || !bytes.Equal(oldKey, newKey) || !slices.Equal(oldVec, newVec)) {
		gk, err := t.graphKeyOf(ix, next)
		if err != nil {
			return err
		}
		w.stage(vecOp{ix: ix, key: gk, row: newKey, vec: newVec})
	}
	return nil
}

// graphKeyOf is the key of the graph of ix that holds it's entry (it
// has one).
func (t *table) graphKeyOf(ix *index, it attr.Item) (string, error) {
	if h := ix.vec.hash; h != nil {
		v := it[h.name]
		return vectorGraphKey(t, ix, &v)
	}
	return vectorGraphKey(t, ix, nil)
}
