package expr

import (
	"slices"

	"github.com/dynago/dynago/attr"
)

// Projection is a compiled ProjectionExpression or AttributesToGet: a list
// of document paths with placeholders substituted. It is safe for
// concurrent use.
type Projection struct {
	paths [][]PathElem
	root  *pathNode
}

// pathNode is a node of a tree of non-overlapping, non-conflicting paths:
// either a leaf (the path ends here) or an inner node whose children are
// all names or all indexes. Index children are sorted by index.
type pathNode struct {
	name    string
	index   int
	isIndex bool
	leaf    bool
	action  int // update trees: the action at a leaf
	kids    []*pathNode
	// names, at the root of a tree kept with its parse only, are the
	// kids' names, sorted (sortedNames).
	names []string
}

// buildTree builds the tree of paths, which must neither overlap nor
// conflict. Names in paths are already substituted.
func buildTree(paths [][]PathElem) *pathNode {
	root := &pathNode{}
	for i, p := range paths {
		n := root
		for j := range p {
			e := &p[j]
			var kid *pathNode
			for _, k := range n.kids {
				if k.isIndex == e.IsIndex && (e.IsIndex && k.index == e.Index || !e.IsIndex && k.name == e.Name) {
					kid = k
					break
				}
			}
			if kid == nil {
				kid = &pathNode{name: e.Name, index: e.Index, isIndex: e.IsIndex, action: -1}
				n.kids = append(n.kids, kid)
			}
			n = kid
		}
		n.leaf = true
		n.action = i
	}
	sortKids(root)
	return root
}

// sortedNames returns the names of n's kids, sorted.
func sortedNames(n *pathNode) []string {
	names := make([]string, len(n.kids))
	for i, k := range n.kids {
		names[i] = k.name
	}
	slices.Sort(names)
	return names
}

func sortKids(n *pathNode) {
	if len(n.kids) > 1 && n.kids[0].isIndex {
		slices.SortFunc(n.kids, func(a, b *pathNode) int { return a.index - b.index })
	}
	for _, k := range n.kids {
		sortKids(k)
	}
}

// resolvePaths copies paths with their placeholders replaced by names.
func resolvePaths(paths [][]PathElem, b *binding) [][]PathElem {
	out := make([][]PathElem, len(paths))
	for i, p := range paths {
		q := make([]PathElem, len(p))
		for j := range p {
			q[j] = p[j]
			if q[j].Ref >= 0 {
				q[j].Name = b.names[q[j].Ref]
				q[j].Ref = -1
			}
		}
		out[i] = q
	}
	return out
}

func newProjection(paths [][]PathElem) *Projection {
	return &Projection{paths: paths, root: buildTree(paths)}
}

// Paths returns the projected paths, names substituted. They must not be
// modified.
func (p *Projection) Paths() [][]PathElem { return p.paths }

// TopLevel returns the distinct top-level attribute names the projection
// reads, in the order first written.
func (p *Projection) TopLevel() []string {
	names := make([]string, 0, len(p.root.kids))
	for _, k := range p.root.kids {
		names = append(names, k.name)
	}
	return names
}

// SortedTopLevel returns the distinct top-level attribute names the
// projection reads, sorted. They must not be modified.
func (p *Projection) SortedTopLevel() []string {
	if p.root.names != nil {
		return p.root.names
	}
	return sortedNames(p.root)
}

// Apply returns the parts of item the projection names. Nested paths keep
// their structure: "a.b" gives {a: {b: ...}}; the elements a list path
// selects are kept in index order and packed ("l[3], l[1]" gives a list of
// l[1] then l[3]). Paths that do not exist are left out, and so are maps
// and lists none of whose selected parts exist. A nil item gives nil; an
// item with none of the paths gives an empty item. Values are shared with
// item, not copied.
func (p *Projection) Apply(item attr.Item) attr.Item {
	if item == nil {
		return nil
	}
	out := make(attr.Item, len(p.root.kids))
	for _, k := range p.root.kids {
		if v, ok := item[k.name]; ok {
			if pv, ok := project(v, k); ok {
				out[k.name] = pv
			}
		}
	}
	return out
}

func project(v attr.Value, n *pathNode) (attr.Value, bool) {
	if n.leaf {
		return v, true
	}
	if n.kids[0].isIndex {
		if v.Type != attr.TypeL {
			return attr.Value{}, false
		}
		var l []attr.Value
		for _, k := range n.kids {
			if k.index < len(v.L) {
				if pv, ok := project(v.L[k.index], k); ok {
					l = append(l, pv)
				}
			}
		}
		if l == nil {
			return attr.Value{}, false
		}
		return attr.Value{Type: attr.TypeL, L: l}, true
	}
	if v.Type != attr.TypeM {
		return attr.Value{}, false
	}
	var m map[string]attr.Value
	for _, k := range n.kids {
		if e, ok := v.M[k.name]; ok {
			if pv, ok := project(e, k); ok {
				if m == nil {
					m = make(map[string]attr.Value, len(n.kids))
				}
				m[k.name] = pv
			}
		}
	}
	if m == nil {
		return attr.Value{}, false
	}
	return attr.Value{Type: attr.TypeM, M: m}, true
}

// ProjectionFromAttributesToGet converts the legacy AttributesToGet list:
// top-level attribute names, no placeholders, no reserved-word check.
// A repeated name is refused as DynamoDB does.
func ProjectionFromAttributesToGet(names []string) (*Projection, error) {
	paths := make([][]PathElem, len(names))
	for i, n := range names {
		for _, m := range names[:i] {
			if m == n {
				return nil, newErr(MsgDuplicateName + n)
			}
		}
		paths[i] = []PathElem{{Name: n, Ref: -1}}
	}
	return newProjection(paths), nil
}

// NestedNames returns the first names of the projection's paths of more
// than one element ("a.b", "a[0]"), in the order written.
func (p *Projection) NestedNames() []string {
	var names []string
	for _, path := range p.paths {
		if len(path) > 1 {
			names = append(names, path[0].Name)
		}
	}
	return names
}
