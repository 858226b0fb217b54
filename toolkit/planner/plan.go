package planner

import (
	"fmt"
	"slices"
	"strings"
)

// Plan is the planner's choice for a request: which index, which
// partition keys, and what it expects to read.
type Plan struct {
	Index        string // "" for the table
	PartitionKey string // the attribute queried
	// Keys are the partition key values to query, one query (branch) each,
	// in the order that breaks ties between branches.
	Keys []string
	// Skipped are keys whose counters say they hold nothing; they are not
	// queried. Filled by Planner.Plan when counters are configured.
	Skipped  []string
	PageSize int
	// ExpectedReads is what the first round of a page reads: an even
	// share of the page from each branch, plus one to look past it. A
	// branch holding more than its share of the newest items is read
	// again for what the page still needs.
	ExpectedReads int
	Reason        string
}

// String explains the plan in a line or two, like a database's EXPLAIN.
func (p *Plan) String() string {
	var b strings.Builder
	ix := p.Index
	if ix == "" {
		ix = "the table"
	} else {
		ix = "index " + ix
	}
	if len(p.Keys) == 1 {
		fmt.Fprintf(&b, "Query %s where %s = %q, newest first, Limit %d", ix, p.PartitionKey, p.Keys[0], p.PageSize)
	} else {
		fmt.Fprintf(&b, "%d parallel Queries on %s where %s in {%s}, merged newest first, pages of %d", len(p.Keys), ix, p.PartitionKey, quoteAll(p.Keys), p.PageSize)
	}
	if len(p.Skipped) > 0 {
		fmt.Fprintf(&b, "; skipping empty {%s}", quoteAll(p.Skipped))
	}
	fmt.Fprintf(&b, "; expects to read about %d items per page", p.ExpectedReads)
	if p.Reason != "" {
		b.WriteString(" (" + p.Reason + ")")
	}
	return b.String()
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}

// choose picks the index for a normalized request: one whose partition
// dimensions include every constrained dimension (no filter needed) and
// whose other dimensions have finite domains (they can be enumerated),
// with the fewest branches; ties go to the index declared first.
func (m *Model) choose(where map[string][]string, pageSize int) (*Plan, error) {
	var best *Index
	bestBranches := 0
	for _, ix := range m.Indexes {
		branches, ok := 1, true
		for d := range where {
			if !slices.Contains(ix.dims, d) {
				ok = false
			}
		}
		for _, d := range ix.dims {
			if vals, c := where[d]; c {
				branches *= len(vals)
			} else if dom := m.dimension(d).Values; len(dom) > 0 {
				branches *= len(dom)
			} else {
				ok = false // an open domain cannot be enumerated
			}
		}
		if ok && (best == nil || branches < bestBranches) {
			best, bestBranches = ix, branches
		}
	}
	if best == nil {
		var dims []string
		for d := range where {
			dims = append(dims, d)
		}
		slices.Sort(dims)
		return nil, fmt.Errorf("planner: no index is partitioned by %s (and only finite dimensions besides): this request would need a filter", strings.Join(dims, ", "))
	}
	p := &Plan{Index: best.Name, PartitionKey: best.PartitionKey, PageSize: pageSize}
	// Enumerate the branches: the cartesian product of the values of the
	// index's dimensions, in a fixed order.
	combos := []map[string]string{{}}
	for _, d := range best.dims {
		vals := where[d]
		if vals == nil {
			vals = m.dimension(d).Values
		}
		var next []map[string]string
		for _, c := range combos {
			for _, v := range vals {
				n := make(map[string]string, len(c)+1)
				for k, x := range c {
					n[k] = x
				}
				n[d] = v
				next = append(next, n)
			}
		}
		combos = next
	}
	for _, c := range combos {
		p.Keys = append(p.Keys, best.key(c))
	}
	var reasons []string
	for _, d := range m.Dimensions {
		if _, c := where[d.Name]; !c && len(d.Values) > 0 && !slices.Contains(best.dims, d.Name) {
			reasons = append(reasons, "any "+d.Name)
		}
	}
	if len(reasons) > 0 {
		p.Reason = strings.Join(reasons, ", ") + ": no query per value needed"
	}
	return p, nil
}
