package engine

import (
	"bytes"

	"fmt"
	"sort"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/internal/keys"
	"github.com/dynago/dynago/internal/storage"
)

// maxCheckProblems is how many problems Check reports before it stops.
const maxCheckProblems = 20

// Check proves the database consistent with itself, in one snapshot of
// the store: every item's row key is its key's, every secondary-index
// entry is the one its item makes (same key, same projected attributes,
// same size) and every item has the entries it makes, and each table's
// and index's counters (DescribeTable's ItemCount, TableSizeBytes,
// IndexSizeBytes) equal what its rows add up to. It returns nil when all
// of that holds, or an error listing the first problems found. Tables
// being deleted and indexes still being backfilled are left out: their
// rows are on their way in or out.
//
// Check reads everything; it is for tests and for an operator's
// suspicion, not for a live server's every request. Writes that commit
// while it runs are not in its snapshot and do not disturb it.
func (db *DB) Check() error {
	if db.closed.Load() {
		return ErrClosed
	}
	snap, err := db.store.NewSnapshot()
	if err != nil {
		return err
	}
	defer snap.Close()
	c := &checker{db: db, r: snap}
	tables := *db.tables.Load()
	names := make([]string, 0, len(tables))
	for n := range tables {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		t := tables[n]
		if t.meta.Transition == dynamo.TableStatusDeleting {
			continue
		}
		if err := c.table(t); err != nil {
			return err
		}
		if len(c.problems) >= maxCheckProblems {
			break
		}
	}
	if len(c.problems) == 0 {
		return nil
	}
	return fmt.Errorf("engine: check failed:\n%s", joinLines(c.problems))
}

// checker gathers Check's problems.
type checker struct {
	db       *DB
	r        storage.Reader
	problems []string
}

func (c *checker) problem(format string, args ...any) {
	if len(c.problems) < maxCheckProblems {
		c.problems = append(c.problems, fmt.Sprintf(format, args...))
	}
}

// indexTally is what the items of a table add up to in one index.
type indexTally struct {
	ix           *index
	count, bytes int64
}

// table checks one table's items, their index entries and its counters.
// An error is one of the store's; a mismatch is a problem.
func (c *checker) table(t *table) error {
	var tallies []*indexTally
	for _, ix := range t.indexes {
		if !ix.meta.Backfilling {
			tallies = append(tallies, &indexTally{ix: ix})
		}
	}
	var count, size int64
	lower := keys.IndexPrefix(t.meta.ID, keys.BaseIndexID)
	it, err := c.r.NewIter(lower, keys.PrefixEnd(lower))
	if err != nil {
		return err
	}
	for ok := it.First(); ok; ok = it.Next() {
		row, err := parseRow(it.Value())
		if err != nil {
			c.problem("table %s: row %x: %v", t.meta.Name, it.Key(), err)
			continue
		}
		item, err := row.Item()
		if err != nil {
			c.problem("table %s: row %x: %v", t.meta.Name, it.Key(), err)
			continue
		}
		count++
		size += int64(row.size)
		if got := attr.ItemSize(item); got != row.size {
			c.problem("table %s: item %x is %d bytes, its row says %d", t.meta.Name, it.Key(), got, row.size)
		}
		k, err := t.primaryKey(item, keyOfItem)
		if err != nil {
			c.problem("table %s: item %x has no valid key: %v", t.meta.Name, it.Key(), err)
			continue
		}
		if !bytes.Equal(k.row, it.Key()) {
			c.problem("table %s: item stored at %x has the key of %x", t.meta.Name, it.Key(), k.row)
		}
		for _, x := range tallies {
			if err := c.entry(t, x, item, k); err != nil {
				it.Close()
				return err
			}
		}
	}
	if err := it.Close(); err != nil {
		return err
	}
	counters, err := c.r.Counters(metaStatsKey(t.meta.ID), 2)
	if err != nil {
		return err
	}
	if counters[0] != count || counters[1] != size {
		c.problem("table %s: counters say %d items of %d bytes, its rows are %d of %d", t.meta.Name, counters[0], counters[1], count, size)
	}
	for _, x := range tallies {
		if err := c.indexRows(t, x); err != nil {
			return err
		}
	}
	for _, ix := range t.vectors {
		if !ix.meta.Backfilling {
			if err := c.vectorGraphs(t, ix); err != nil {
				return err
			}
		}
	}
	return nil
}

// vectorGraphs checks the graphs of a vector index against its entries:
// the graph of every range that has entries holds one node per entry,
// with the entry's vector, and its records load (engine/vector_graph.go).
func (c *checker) vectorGraphs(t *table, ix *index) error {
	lower := keys.IndexPrefix(t.meta.ID, ix.meta.ID)
	gp := keys.VectorGraphPrefix(t.meta.ID, ix.meta.ID)
	it, err := c.r.NewIter(lower, keys.PrefixEnd(lower))
	if err != nil {
		return err
	}
	ranges := map[string]map[string][]float32{} // graph key → row → vector
	for ok := it.First(); ok; ok = it.Next() {
		if bytes.HasPrefix(it.Key(), gp) && !it.SeekGE(keys.PrefixEnd(gp)) {
			break
		}
		e, err := parseVectorEntry(it.Value())
		var item attr.Item
		if err == nil {
			item, err = e.item()
		}
		var gk string
		if err == nil {
			gk, err = t.graphKeyOf(ix, item)
		}
		if err != nil {
			c.problem("table %s vector index %s: entry %x: %v", t.meta.Name, ix.meta.Name, it.Key(), err)
			continue
		}
		if ranges[gk] == nil {
			ranges[gk] = map[string][]float32{}
		}
		ranges[gk][string(it.Key())] = e.vector(nil)
	}
	if err := it.Close(); err != nil {
		return err
	}
	for gk, entries := range ranges {
		g := &vgraph{key: gk}
		if err := loadGraphFrom(c.r, g, ix); err != nil {
			c.problem("table %s vector index %s: graph %x: %v", t.meta.Name, ix.meta.Name, gk, err)
			continue
		}
		if n := g.d.g.Len(); n != len(entries) {
			c.problem("table %s vector index %s: graph %x holds %d nodes, its range %d entries", t.meta.Name, ix.meta.Name, gk, n, len(entries))
		}
		for id, row := range g.d.rows {
			if v, ok := entries[string(row)]; !ok || !g.d.g.HasVector(id, v) {
				c.problem("table %s vector index %s: graph %x: node %d is not the entry %x", t.meta.Name, ix.meta.Name, gk, id, row)
			}
		}
	}
	return nil
}

// entry checks that the index entry item makes in x's index is stored as
// it should be, and adds it to the tally.
func (c *checker) entry(t *table, x *indexTally, item attr.Item, k itemKey) error {
	key, proj, err := t.indexEntry(x.ix, item, k, false)
	if err != nil {
		c.problem("table %s index %s: item %x: %v", t.meta.Name, x.ix.meta.Name, k.row, err)
		return nil
	}
	if key == nil {
		return nil // the item is not in this index (sparse)
	}
	want := attr.ItemSize(proj)
	x.count++
	x.bytes += int64(want)
	raw, found, err := c.r.Get(key, nil)
	if err != nil {
		return err
	}
	if !found {
		c.problem("table %s index %s: item %x has no entry", t.meta.Name, x.ix.meta.Name, k.row)
		return nil
	}
	row, err := parseRow(raw)
	if err == nil {
		var got attr.Item
		if got, err = row.Item(); err == nil && (row.size != want || !itemsEqual(got, proj)) {
			err = fmt.Errorf("its entry holds %d bytes %v, the item projects %d bytes %v", row.size, got, want, proj)
		}
	}
	if err != nil {
		c.problem("table %s index %s: item %x: %v", t.meta.Name, x.ix.meta.Name, k.row, err)
	}
	return nil
}

// indexRows counts x's index rows and compares them and the index's
// counters with what the items make: with every entry an item makes
// found (entry), equal counts mean no entry without its item.
func (c *checker) indexRows(t *table, x *indexTally) error {
	lower := keys.IndexPrefix(t.meta.ID, x.ix.meta.ID)
	it, err := c.r.NewIter(lower, keys.PrefixEnd(lower))
	if err != nil {
		return err
	}
	// A vector index's graphs are not entries (engine/vector_graph.go).
	gp := keys.VectorGraphPrefix(t.meta.ID, x.ix.meta.ID)
	var rows int64
	for ok := it.First(); ok; ok = it.Next() {
		if bytes.HasPrefix(it.Key(), gp) && !it.SeekGE(keys.PrefixEnd(gp)) {
			break
		}
		rows++
	}
	if err := it.Close(); err != nil {
		return err
	}
	if rows != x.count {
		c.problem("table %s index %s: %d entries are stored, the items make %d", t.meta.Name, x.ix.meta.Name, rows, x.count)
	}
	counters, err := c.r.Counters(metaIndexStatsKey(t.meta.ID, x.ix.meta.ID), 2)
	if err != nil {
		return err
	}
	if counters[0] != x.count || counters[1] != x.bytes {
		c.problem("table %s index %s: counters say %d entries of %d bytes, the items make %d of %d",
			t.meta.Name, x.ix.meta.Name, counters[0], counters[1], x.count, x.bytes)
	}
	return nil
}

func joinLines(lines []string) string {
	var b bytes.Buffer
	for _, l := range lines {
		b.WriteString("  ")
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String()
}
