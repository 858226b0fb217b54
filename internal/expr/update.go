package expr

import (
	"bytes"
	"maps"

	"github.com/dynago/dynago/attr"
)

// Update is a compiled UpdateExpression, bound to one request's names and
// values, or converted legacy AttributeUpdates. It is safe for concurrent
// use.
type Update struct {
	actions []Action     // shared with the parse cache
	b       binding      // the request's names and values
	paths   [][]PathElem // action paths, names substituted
	root    *pathNode    // tree of paths; leaves name their action
	legacy  bool         // AttributeUpdates: legacy messages, ADD of lists
}

// Actions returns the update's actions in the order written. Their paths
// may hold placeholders; Paths has them substituted. They must not be
// modified.
func (u *Update) Actions() []Action { return u.actions }

// Paths returns the paths the update writes, one per action, names
// substituted. They must not be modified.
func (u *Update) Paths() [][]PathElem { return u.paths }

// CheckKeys refuses an update that writes (sets, removes, adds to or
// deletes from, at any depth) one of the key attributes, with DynamoDB's
// message for the first such action.
func (u *Update) CheckKeys(keyNames ...string) error {
	for _, p := range u.paths {
		for _, k := range keyNames {
			if p[0].Name == k {
				return newErr("One or more parameter values were invalid: Cannot update attribute " + k +
					". This attribute is part of the key")
			}
		}
	}
	return nil
}

// WrittenType returns the type the top-level attribute name gets from
// the update whatever the item holds, and false when the update does not
// write name as a whole or the type depends on the item: a SET of a
// :value (its type), of a + b or a - b (N) or of list_append (L), an ADD
// of a :value (its type), and the legacy PUT and ADD of a Value (its
// type). The first action writing name decides.
func (u *Update) WrittenType(name string) (attr.Type, bool) {
	for i, p := range u.paths {
		if len(p) != 1 || p[0].IsIndex || p[0].Name != name {
			continue
		}
		a := &u.actions[i]
		if a.Value == nil {
			return 0, false
		}
		switch a.Kind {
		case ActionAdd:
			return u.b.values[a.Value.Value].Type, true
		case ActionSet:
			switch o := a.Value; o.Kind {
			case OperandValue:
				return u.b.values[o.Value].Type, true
			case OperandPlus, OperandMinus:
				return attr.TypeN, true
			case OperandFunc:
				if o.fn == fnListAppend {
					return attr.TypeL, true
				}
			}
		}
		return 0, false
	}
	return 0, false
}

// NestedNames returns the first names of the update's document paths of
// more than one element ("a.b", "a[0]"), the paths it writes and those
// its SET values read, names substituted, in the order written.
func (u *Update) NestedNames() []string {
	var names []string
	for i, p := range u.paths {
		if len(p) > 1 {
			names = append(names, p[0].Name)
		}
		if a := &u.actions[i]; a.Kind == ActionSet {
			names = nestedOperandNames(names, a.Value, &u.b)
		}
	}
	return names
}

// UpdatedPaths returns the projection of the paths the update writes.
// DynamoDB's ReturnValues UPDATED_OLD is this projection of the old item,
// and UPDATED_NEW of the new one: for "SET a.b = :x, l[4] = :y" it holds
// a.b and l[4] only, not the whole of a and l (dynalite's updateItem
// tests, run against DynamoDB). A removed path has no new value, so
// UPDATED_NEW leaves it out; an appended list element is found at its
// written index only if the list was long enough.
func (u *Update) UpdatedPaths() *Projection { return newProjection(u.paths) }

// Apply returns the item the update makes of old (nil or empty: the item
// does not exist yet, which the engine represents by its key attributes).
// All operands are read from old before anything is written, so
// "SET a = b, b = a" swaps. old is not modified; the new item shares the
// values the update did not touch with old, so neither may be modified in
// place afterwards. On error nothing is changed.
func (u *Update) Apply(old attr.Item) (attr.Item, error) { return u.apply(old, false, false) }

// ApplyInPlace is Apply writing the new item into old itself, which it
// returns (a new map if old is nil), for a caller that has no further use
// for old: the copy of its top level is saved. The nested maps and lists
// the update changes are new ones, as with Apply. On error old is
// unchanged.
func (u *Update) ApplyInPlace(old attr.Item) (attr.Item, error) {
	return u.apply(old, false, old != nil)
}

// ApplyMissing is Apply for an item that does not exist, given as its key
// attributes. On such an item a REMOVE of a nested path ("REMOVE a.b",
// "REMOVE a[0]") does nothing, where on an existing item without a it is
// refused as SET is (ScyllaDB Alternator's test_update_expression.py,
// test_nested_attribute_remove_from_missing_item and
// test_nested_attribute_update_bad_path_dot, run against DynamoDB).
func (u *Update) ApplyMissing(key attr.Item) (attr.Item, error) { return u.apply(key, true, false) }

// apply is Apply; missing tells that old is the key of a missing item,
// inPlace that the new item is written into old (ApplyInPlace).
func (u *Update) apply(old attr.Item, missing, inPlace bool) (attr.Item, error) {
	var buf [8]attr.Value
	vals := buf[:0]
	if len(u.actions) > len(buf) {
		vals = make([]attr.Value, 0, len(u.actions))
	}
	for i := range u.actions {
		a := &u.actions[i]
		var v attr.Value
		switch a.Kind {
		case ActionSet:
			var err error
			if v, err = u.eval(a.Value, old); err != nil {
				return nil, err
			}
		case ActionAdd, ActionDelete:
			if a.Value != nil {
				v = u.b.values[a.Value.Value]
			}
		}
		vals = append(vals, v)
	}
	out, err := u.applyMap(old, u.root.kids, vals, missing, inPlace)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// eval computes a SET value from the old item.
func (u *Update) eval(o *Operand, old attr.Item) (attr.Value, error) {
	switch o.Kind {
	case OperandValue:
		return u.b.values[o.Value], nil
	case OperandPath:
		v, ok := lookup(old, o.Path, &u.b)
		if !ok {
			return attr.Value{}, newErr(MsgMissingAttribute)
		}
		return v, nil
	case OperandPlus, OperandMinus:
		x, err := u.eval(o.Args[0], old)
		if err != nil {
			return attr.Value{}, err
		}
		y, err := u.eval(o.Args[1], old)
		if err != nil {
			return attr.Value{}, err
		}
		if x.Type != attr.TypeN || y.Type != attr.TypeN {
			return attr.Value{}, newErr(MsgIncorrectDataType)
		}
		s, err := addNumbers(x.S, y.S, o.Kind == OperandMinus)
		if err != nil {
			return attr.Value{}, err
		}
		return attr.N(s), nil
	}
	switch o.fn {
	case fnIfNotExists:
		if v, ok := lookup(old, o.Args[0].Path, &u.b); ok {
			return v, nil
		}
		return u.eval(o.Args[1], old)
	case fnListAppend:
		x, err := u.eval(o.Args[0], old)
		if err != nil {
			return attr.Value{}, err
		}
		y, err := u.eval(o.Args[1], old)
		if err != nil {
			return attr.Value{}, err
		}
		if x.Type != attr.TypeL || y.Type != attr.TypeL {
			return attr.Value{}, newErr(MsgIncorrectDataType)
		}
		l := make([]attr.Value, 0, len(x.L)+len(y.L))
		l = append(append(l, x.L...), y.L...)
		return attr.Value{Type: attr.TypeL, L: l}, nil
	}
	return attr.Value{}, newErr(MsgIncorrectDataType)
}

func invalidPath() error { return newErr(MsgInvalidPathForUpdate) }

// applyMap applies the tree nodes kids to a copy of old.
// missing tells that old is the key of a missing item.
func (u *Update) applyMap(old map[string]attr.Value, kids []*pathNode, vals []attr.Value, missing, inPlace bool) (map[string]attr.Value, error) {
	// Every kid's new value is worked out before any is written, so
	// that an error leaves old as it was when the map is old itself.
	// Kids have distinct names: each reads only the member it writes.
	type change struct {
		v    attr.Value
		keep bool
	}
	var buf [8]change
	changes := buf[:0]
	if len(kids) > len(buf) {
		changes = make([]change, 0, len(kids))
	}
	for _, k := range kids {
		ov, exists := old[k.name]
		nv, keep, err := u.applyNode(ov, exists, k, vals, missing)
		if err != nil {
			return nil, err
		}
		changes = append(changes, change{nv, keep})
	}
	out := old
	if !inPlace {
		out = make(map[string]attr.Value, len(old)+len(kids))
		maps.Copy(out, old)
	}
	for i, k := range kids {
		if changes[i].keep {
			out[k.name] = changes[i].v
		} else {
			delete(out, k.name)
		}
	}
	return out, nil
}

// applyNode applies node n to the value ov found at its place (exists is
// false if there is none). keep is false when the place is to be emptied.
// missing tells that the item does not exist.
func (u *Update) applyNode(ov attr.Value, exists bool, n *pathNode, vals []attr.Value, missing bool) (nv attr.Value, keep bool, err error) {
	if n.leaf {
		return u.leaf(ov, exists, n.action, vals)
	}
	// A path that goes through a missing attribute, or through a value
	// that is not a map (list) where it names a key (an index), cannot be
	// updated: SET, REMOVE, ADD and DELETE all fail (dynalite's tests:
	// "remove y.a" with y missing, "set c[1] = :a" with c a map). On a
	// missing item, paths that are only removed are ignored (ApplyMissing).
	if !exists {
		if missing && u.onlyRemoves(n) {
			return attr.Value{}, false, nil
		}
		return attr.Value{}, false, invalidPath()
	}
	if n.kids[0].isIndex {
		if ov.Type != attr.TypeL {
			return attr.Value{}, false, invalidPath()
		}
		l, err := u.applyList(ov.L, n.kids, vals)
		if err != nil {
			return attr.Value{}, false, err
		}
		return attr.Value{Type: attr.TypeL, L: l}, true, nil
	}
	if ov.Type != attr.TypeM {
		return attr.Value{}, false, invalidPath()
	}
	m, err := u.applyMap(ov.M, n.kids, vals, false, false)
	if err != nil {
		return attr.Value{}, false, err
	}
	return attr.Value{Type: attr.TypeM, M: m}, true, nil
}

// applyList applies index nodes (sorted by index) to a copy of old. Every
// index means the element at that position in the old list, so "REMOVE
// l[0], l[1]" removes the first two elements. SET and ADD at or past the
// end append, in index order; REMOVE and DELETE there do nothing.
func (u *Update) applyList(old []attr.Value, kids []*pathNode, vals []attr.Value) ([]attr.Value, error) {
	out := make([]attr.Value, 0, len(old)+len(kids))
	ki := 0
	for i := range old {
		if ki < len(kids) && kids[ki].index == i {
			nv, keep, err := u.applyNode(old[i], true, kids[ki], vals, false)
			if err != nil {
				return nil, err
			}
			if keep {
				out = append(out, nv)
			}
			ki++
			continue
		}
		out = append(out, old[i])
	}
	for ; ki < len(kids); ki++ {
		k := kids[ki]
		if !k.leaf {
			return nil, invalidPath()
		}
		nv, keep, err := u.leaf(attr.Value{}, false, k.action, vals)
		if err != nil {
			return nil, err
		}
		if keep {
			out = append(out, nv)
		}
	}
	return out, nil
}

// onlyRemoves reports whether every action under n is a REMOVE.
func (u *Update) onlyRemoves(n *pathNode) bool {
	if n.leaf {
		return u.actions[n.action].Kind == ActionRemove
	}
	for _, k := range n.kids {
		if !u.onlyRemoves(k) {
			return false
		}
	}
	return true
}

func (u *Update) typeErr() error {
	if u.legacy {
		return newErr(MsgLegacyTypeMismatch)
	}
	return newErr(MsgIncorrectDataType)
}

// leaf applies action i to the value ov at its target.
func (u *Update) leaf(ov attr.Value, exists bool, i int, vals []attr.Value) (attr.Value, bool, error) {
	a := &u.actions[i]
	v := vals[i]
	switch a.Kind {
	case ActionSet:
		return v, true, nil
	case ActionRemove:
		return attr.Value{}, false, nil
	case ActionAdd:
		if !exists {
			return v, true, nil
		}
		switch {
		case ov.Type == attr.TypeN && v.Type == attr.TypeN:
			s, err := addNumbers(ov.S, v.S, false)
			if err != nil {
				return attr.Value{}, false, err
			}
			return attr.N(s), true, nil
		case ov.Type == v.Type && isSet(v.Type):
			return setUnion(ov, v), true, nil
		case u.legacy && ov.Type == attr.TypeL && v.Type == attr.TypeL:
			l := make([]attr.Value, 0, len(ov.L)+len(v.L))
			l = append(append(l, ov.L...), v.L...)
			return attr.Value{Type: attr.TypeL, L: l}, true, nil
		}
		return attr.Value{}, false, u.typeErr()
	}
	// DELETE.
	if a.Value == nil { // legacy DELETE without a value: remove the attribute
		return attr.Value{}, false, nil
	}
	if !exists {
		return attr.Value{}, false, nil
	}
	if ov.Type != v.Type || !isSet(v.Type) {
		return attr.Value{}, false, u.typeErr()
	}
	r, nonEmpty := setDifference(ov, v)
	return r, nonEmpty, nil
}

func isSet(t attr.Type) bool { return t == attr.TypeSS || t == attr.TypeNS || t == attr.TypeBS }

func sameMember(t attr.Type, a, b string) bool {
	return a == b || t == attr.TypeNS && attr.CompareNumbers(a, b) == 0
}

// memberKey is the identity of a set member: its text, with numbers in
// canonical form so that "1" and "1.0" are one member.
func memberKey(t attr.Type, x string) string {
	if t == attr.TypeNS {
		if c, err := attr.NormalizeNumber(x); err == nil {
			return c
		}
	}
	return x
}

// smallSets is the product of member counts up to which set operations
// compare members pairwise rather than through a map.
const smallSets = 256

// setUnion returns a ∪ b: a's members, then b's members a lacks.
func setUnion(a, b attr.Value) attr.Value {
	if a.Type == attr.TypeBS {
		out := append([][]byte(nil), a.BS...)
		have := bytesIndex(a.BS, len(a.BS)*len(b.BS))
		for _, x := range b.BS {
			if !hasBytes(a.BS, have, x) {
				out = append(out, x)
			}
		}
		return attr.Value{Type: attr.TypeBS, BS: out}
	}
	out := append([]string(nil), a.SS...)
	have := stringIndex(a.Type, a.SS, len(a.SS)*len(b.SS))
	for _, x := range b.SS {
		if !hasString(a.Type, a.SS, have, x) {
			out = append(out, x)
		}
	}
	return attr.Value{Type: a.Type, SS: out}
}

// setDifference returns a \ b, and false if it is empty.
func setDifference(a, b attr.Value) (attr.Value, bool) {
	if a.Type == attr.TypeBS {
		var out [][]byte
		drop := bytesIndex(b.BS, len(a.BS)*len(b.BS))
		for _, x := range a.BS {
			if !hasBytes(b.BS, drop, x) {
				out = append(out, x)
			}
		}
		return attr.Value{Type: attr.TypeBS, BS: out}, len(out) > 0
	}
	var out []string
	drop := stringIndex(a.Type, b.SS, len(a.SS)*len(b.SS))
	for _, x := range a.SS {
		if !hasString(a.Type, b.SS, drop, x) {
			out = append(out, x)
		}
	}
	return attr.Value{Type: a.Type, SS: out}, len(out) > 0
}

// stringIndex returns a map of the members of set when the operation is
// large enough (work is the pairwise cost) to be worth one, else nil.
func stringIndex(t attr.Type, set []string, work int) map[string]struct{} {
	if work <= smallSets {
		return nil
	}
	idx := make(map[string]struct{}, len(set))
	for _, x := range set {
		idx[memberKey(t, x)] = struct{}{}
	}
	return idx
}

func hasString(t attr.Type, set []string, idx map[string]struct{}, x string) bool {
	if idx != nil {
		_, ok := idx[memberKey(t, x)]
		return ok
	}
	for _, y := range set {
		if sameMember(t, x, y) {
			return true
		}
	}
	return false
}

func bytesIndex(set [][]byte, work int) map[string]struct{} {
	if work <= smallSets {
		return nil
	}
	idx := make(map[string]struct{}, len(set))
	for _, x := range set {
		idx[string(x)] = struct{}{}
	}
	return idx
}

func hasBytes(set [][]byte, idx map[string]struct{}, x []byte) bool {
	if idx != nil {
		_, ok := idx[string(x)]
		return ok
	}
	for _, y := range set {
		if bytes.Equal(x, y) {
			return true
		}
	}
	return false
}
