package partiql

import "github.com/dynago/dynago/attr"

// leafPaths gives the projection of a SELECT whose nested paths DynamoDB
// answers under their own last name (SELECT m.a FROM t answers {a: ...},
// not {m: {a: ...}}), or nil where the engine's projection is the answer
// as it is. It does so only where every path is a chain of map member
// names and no two paths give the same name: what a projected list
// element, or a leaf named as another projected attribute, is called in
// DynamoDB's answer no recording shows, so those projections keep the
// nested shape of a ProjectionExpression.
func leafPaths(st *Statement) []*Path {
	nested := false
	for _, p := range st.Projection {
		if len(p.Elems) > 1 {
			nested = true
		}
		for _, e := range p.Elems {
			if e.IsIndex {
				return nil
			}
		}
	}
	if !nested {
		return nil
	}
	seen := make(map[string]bool, len(st.Projection))
	for _, p := range st.Projection {
		name := p.Elems[len(p.Elems)-1].Name
		if seen[name] {
			return nil
		}
		seen[name] = true
	}
	return st.Projection
}

// leafItem reshapes item it, as the engine projected it, to the answer
// of a SELECT of paths (leafPaths): each path's value under its last
// name, and nothing for a path the item lacks.
func leafItem(paths []*Path, it attr.Item) attr.Item {
	if it == nil {
		return nil
	}
	out := make(attr.Item, len(paths))
	for _, p := range paths {
		v, ok := it[p.Elems[0].Name]
		for _, e := range p.Elems[1:] {
			if !ok || v.Type != attr.TypeM {
				ok = false
				break
			}
			v, ok = v.M[e.Name]
		}
		if ok {
			out[p.Elems[len(p.Elems)-1].Name] = v
		}
	}
	return out
}

// leafItems reshapes the items of a SELECT's answer in place (leafItem).
func leafItems(paths []*Path, items []attr.Item) {
	for i, it := range items {
		items[i] = leafItem(paths, it)
	}
}
