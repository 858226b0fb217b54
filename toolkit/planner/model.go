// Package planner chooses which index and keys answer a request, explains
// the choice, and runs it: one Query, or several in parallel merged
// newest-first, with pagination that is exact across the merge.
//
// It generalises the hand-written switch of seed 002 (product comments,
// filtered by language and any set of ratings). A Model declares the
// request's dimensions (product, language, rating...) and the indexes,
// each partitioned by some of those dimensions and sharing one sort key
// (the creation date). Given a request that fixes some dimensions to one
// value or a set of values, the planner picks the index whose partition
// key covers exactly the constrained dimensions with the fewest queries:
// a set of values becomes one query per value, and a set that is a
// dimension's whole domain (all five ratings) constrains nothing, so the
// planner uses an index without that dimension instead of a filter.
//
// Several queries are merged by the sort key, newest first. A Cursor
// records every branch's position, so paging through yields exactly the
// sequence a full sort of all matching items would give, with no
// duplicate and no gap, ties broken deterministically (by branch order);
// each page reads little more than it returns (not page size × branches),
// and branches whose counters say they are empty are not queried.
package planner

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Dimension is one way a request narrows what it reads.
type Dimension struct {
	Name string `json:"name"`
	// Values is the dimension's whole domain when it is finite (ratings
	// 1 to 5); empty for an open domain (languages, products).
	Values []string `json:"values,omitempty"`
}

// Index is a table or index that can answer requests.
type Index struct {
	// Name is the index name, "" for the table itself.
	Name string `json:"name"`
	// PartitionKey is the attribute holding the partition key.
	PartitionKey string `json:"partitionKey"`
	// Format builds the partition key from dimension values:
	// "PRODUCT#{product}/{language}". The dimensions it names are the
	// index's dimensions.
	Format string `json:"format"`

	dims []string
	lits []string
}

// Model is a declared table and its indexes.
type Model struct {
	Table string `json:"table"`
	// SortKey is the sort key attribute every index shares (a sortable
	// date string in seed 002); results come newest (greatest) first.
	SortKey    string      `json:"sortKey"`
	Dimensions []Dimension `json:"dimensions"`
	Indexes    []*Index    `json:"indexes"`
	// TableKeys are the base table's key attributes, which index items
	// always carry; with SortKey and the index partition key they form
	// the start key of a resumed query.
	TableKeys []string `json:"tableKeys"`
}

// ParseModel reads a Model from JSON and checks it.
func ParseModel(data []byte) (*Model, error) {
	var m Model
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("planner: model: %w", err)
	}
	if err := m.Check(); err != nil {
		return nil, err
	}
	return &m, nil
}

// Check validates the model and prepares its indexes.
func (m *Model) Check() error {
	if m.Table == "" || m.SortKey == "" || len(m.TableKeys) == 0 {
		return errors.New("planner: model needs table, sortKey and tableKeys")
	}
	known := map[string]bool{}
	for _, d := range m.Dimensions {
		if d.Name == "" || known[d.Name] {
			return fmt.Errorf("planner: dimension %q: empty or repeated", d.Name)
		}
		known[d.Name] = true
	}
	if len(m.Indexes) == 0 {
		return errors.New("planner: model has no index")
	}
	for _, ix := range m.Indexes {
		if ix.PartitionKey == "" {
			return fmt.Errorf("planner: index %q has no partitionKey", ix.Name)
		}
		if err := ix.parse(); err != nil {
			return err
		}
		for _, d := range ix.dims {
			if !known[d] {
				return fmt.Errorf("planner: index %q uses unknown dimension %q", ix.Name, d)
			}
		}
	}
	return nil
}

func (ix *Index) parse() error {
	ix.dims, ix.lits = nil, nil
	rest := ix.Format
	for {
		i := strings.IndexByte(rest, '{')
		if i < 0 {
			ix.lits = append(ix.lits, rest)
			break
		}
		j := strings.IndexByte(rest[i:], '}')
		if j < 2 {
			return fmt.Errorf("planner: index %q: bad format %q", ix.Name, ix.Format)
		}
		ix.lits = append(ix.lits, rest[:i])
		name := rest[i+1 : i+j]
		if slices.Contains(ix.dims, name) {
			return fmt.Errorf("planner: index %q names %s twice", ix.Name, name)
		}
		ix.dims = append(ix.dims, name)
		rest = rest[i+j+1:]
	}
	if len(ix.dims) == 0 {
		return fmt.Errorf("planner: index %q: format %q names no dimension", ix.Name, ix.Format)
	}
	return nil
}

// Dimensions returns the dimensions the index is partitioned by.
func (ix *Index) Dimensions() []string { return append([]string(nil), ix.dims...) }

// key builds a partition key value.
func (ix *Index) key(vals map[string]string) string {
	var b strings.Builder
	for i, d := range ix.dims {
		b.WriteString(ix.lits[i])
		b.WriteString(vals[d])
	}
	b.WriteString(ix.lits[len(ix.lits)-1])
	return b.String()
}

func (m *Model) dimension(name string) *Dimension {
	for i := range m.Dimensions {
		if m.Dimensions[i].Name == name {
			return &m.Dimensions[i]
		}
	}
	return nil
}

// Request asks for the items matching some dimension values, a page at a
// time. A dimension absent from Where is unconstrained; one listed with
// several values matches any of them.
type Request struct {
	Where    map[string][]string
	PageSize int
	Cursor   string // "" for the first page
}

// normalize drops constraints that constrain nothing (a whole finite
// domain), sorts and deduplicates values, and checks them.
func (m *Model) normalize(where map[string][]string) (map[string][]string, error) {
	out := map[string][]string{}
	for name, vals := range where {
		d := m.dimension(name)
		if d == nil {
			return nil, fmt.Errorf("planner: unknown dimension %q", name)
		}
		if len(vals) == 0 {
			return nil, fmt.Errorf("planner: dimension %q: no value", name)
		}
		vs := slices.Clone(vals)
		sort.Strings(vs)
		vs = slices.Compact(vs)
		if len(d.Values) > 0 {
			for _, v := range vs {
				if !slices.Contains(d.Values, v) {
					return nil, fmt.Errorf("planner: dimension %q has no value %q", name, v)
				}
			}
			if len(vs) == len(d.Values) {
				continue // the whole domain: no constraint at all
			}
		}
		out[name] = vs
	}
	return out, nil
}
