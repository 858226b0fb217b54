package expr

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/dynago/dynago/attr"
)

// Condition is a compiled condition: a ConditionExpression,
// FilterExpression or KeyConditionExpression bound to one request's names
// and values, or a converted legacy condition. It is safe for concurrent
// use.
type Condition struct {
	kind Kind
	root *Cond
	b    binding
}

// Kind returns the parameter the condition came from.
func (c *Condition) Kind() Kind { return c.kind }

// Root returns the condition's syntax tree, for code that inspects it
// (Query's key conditions). The tree is shared and must not be modified;
// use Name and Value to read its placeholders.
func (c *Condition) Root() *Cond { return c.root }

// Name returns the attribute name of a path element of the tree, with
// placeholders substituted.
func (c *Condition) Name(e *PathElem) string { return c.b.name(e) }

// Value returns the value of an OperandValue of the tree.
func (c *Condition) Value(o *Operand) attr.Value { return c.b.values[o.Value] }

// Eval evaluates the condition on item; a nil item is an item that does
// not exist (every path is missing). It allocates nothing for comparisons,
// BETWEEN, IN and the functions other than size.
func (c *Condition) Eval(item attr.Item) bool { return evalCond(c.root, mapSource(item), &c.b) }

// EvalEncoded is Eval on an item read lazily from its encoding: only the
// top-level attributes the condition names are decoded, each when it is
// first needed, and no map is built. The result is Eval's on the decoded
// item; if the encoding is malformed where it was read, the result means
// nothing and item.Err() reports the error.
func (c *Condition) EvalEncoded(item *attr.Encoded) bool {
	return evalCond(c.root, (*encodedSource)(item), &c.b)
}

// source gives an evaluation the top-level attributes of its item.
type source interface {
	top(name string) (attr.Value, bool)
}

// mapSource is a decoded item.
type mapSource attr.Item

func (m mapSource) top(name string) (attr.Value, bool) {
	v, ok := m[name]
	return v, ok
}

// encodedSource is an encoded item, read lazily.
type encodedSource attr.Encoded

func (e *encodedSource) top(name string) (attr.Value, bool) { return (*attr.Encoded)(e).Get(name) }

// lookup returns the value at path in item, and whether it exists.
func lookup(item attr.Item, path []PathElem, b *binding) (attr.Value, bool) {
	return lookupIn(mapSource(item), path, b)
}

// lookupIn is lookup in the item src gives.
func lookupIn(src source, path []PathElem, b *binding) (attr.Value, bool) {
	v, ok := src.top(b.name(&path[0]))
	if !ok {
		return attr.Value{}, false
	}
	for i := 1; i < len(path); i++ {
		e := &path[i]
		if e.IsIndex {
			if v.Type != attr.TypeL || e.Index >= len(v.L) {
				return attr.Value{}, false
			}
			v = v.L[e.Index]
			continue
		}
		if v.Type != attr.TypeM {
			return attr.Value{}, false
		}
		if v, ok = v.M[b.name(e)]; !ok {
			return attr.Value{}, false
		}
	}
	return v, true
}

// operandValue evaluates a condition operand; ok is false when it has no
// value (a missing path, or size of a value that has no size).
func operandValue(o *Operand, item source, b *binding) (attr.Value, bool) {
	switch o.Kind {
	case OperandPath:
		return lookupIn(item, o.Path, b)
	case OperandValue:
		return b.values[o.Value], true
	case OperandFunc:
		if o.fn == fnSize {
			v, ok := operandValue(o.Args[0], item, b)
			if !ok {
				return attr.Value{}, false
			}
			n, ok := sizeOf(v)
			if !ok {
				return attr.Value{}, false
			}
			return attr.Value{Type: attr.TypeN, S: strconv.Itoa(n)}, true
		}
	}
	return attr.Value{}, false
}

// sizeOf is the size() function: bytes of a string (UTF-8) or binary,
// members of a set, elements of a list or map. Numbers, booleans and
// nulls have no size, and a condition using one is false.
// utf16Len is the length of s in UTF-16 code units, which is what
// DynamoDB's size() counts for a string: a character above U+FFFF counts
// two, any other one. Checked against DynamoDB: size of "é𝄞" is 3
// (ExtendDB issue 60 and pull request 67, 2026).
func utf16Len(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c < 0x80:
			n++ // ASCII, one byte
		case c >= 0xF0:
			n += 2 // lead byte of a four-byte sequence: a surrogate pair
		case c >= 0xC0:
			n++ // lead byte of a two- or three-byte sequence
		}
		// continuation bytes (0x80–0xBF) count nothing
	}
	return n
}

func sizeOf(v attr.Value) (int, bool) {
	switch v.Type {
	case attr.TypeS:
		return utf16Len(v.S), true
	case attr.TypeB:
		return len(v.B), true
	case attr.TypeSS, attr.TypeNS:
		return len(v.SS), true
	case attr.TypeBS:
		return len(v.BS), true
	case attr.TypeL:
		return len(v.L), true
	case attr.TypeM:
		return len(v.M), true
	}
	return 0, false
}

func evalCond(c *Cond, item source, b *binding) bool {
	switch c.Kind {
	case CondAnd:
		return evalCond(c.Left, item, b) && evalCond(c.Right, item, b)
	case CondOr:
		return evalCond(c.Left, item, b) || evalCond(c.Right, item, b)
	case CondNot:
		return !evalCond(c.Left, item, b)
	case CondCompare:
		x, okx := operandValue(c.Operands[0], item, b)
		y, oky := operandValue(c.Operands[1], item, b)
		if c.Op == OpNE {
			// A missing operand is unequal to everything.
			return !okx || !oky || !attr.Equal(x, y)
		}
		if !okx || !oky {
			return false
		}
		if c.Op == OpEQ {
			return attr.Equal(x, y)
		}
		r, ok := attr.Compare(x, y)
		if !ok {
			return false
		}
		switch c.Op {
		case OpLT:
			return r < 0
		case OpLE:
			return r <= 0
		case OpGT:
			return r > 0
		}
		return r >= 0
	case CondBetween:
		x, ok := operandValue(c.Operands[0], item, b)
		if !ok {
			return false
		}
		lo, ok1 := operandValue(c.Operands[1], item, b)
		hi, ok2 := operandValue(c.Operands[2], item, b)
		if !ok1 || !ok2 {
			return false
		}
		r1, ok1 := attr.Compare(lo, x)
		r2, ok2 := attr.Compare(x, hi)
		return ok1 && ok2 && r1 <= 0 && r2 <= 0
	case CondIn:
		x, ok := operandValue(c.Operands[0], item, b)
		if !ok {
			return false
		}
		for _, o := range c.Operands[1:] {
			if y, ok := operandValue(o, item, b); ok && attr.Equal(x, y) {
				return true
			}
		}
		return false
	case CondFunc:
		return evalFunc(c, item, b)
	}
	return false
}

func evalFunc(c *Cond, item source, b *binding) bool {
	args := c.Operands
	switch c.fn {
	case fnAttributeExists:
		_, ok := lookupIn(item, args[0].Path, b)
		return ok
	case fnAttributeNotExists:
		_, ok := lookupIn(item, args[0].Path, b)
		return !ok
	case fnAttributeType:
		v, ok := operandValue(args[0], item, b)
		t, okt := operandValue(args[1], item, b)
		return ok && okt && t.Type == attr.TypeS && v.Type.String() == t.S
	case fnBeginsWith:
		v, ok := operandValue(args[0], item, b)
		p, okp := operandValue(args[1], item, b)
		if !ok || !okp || v.Type != p.Type {
			return false
		}
		switch v.Type {
		case attr.TypeS:
			return strings.HasPrefix(v.S, p.S)
		case attr.TypeB:
			return bytes.HasPrefix(v.B, p.B)
		}
		return false
	case fnContains:
		v, ok := operandValue(args[0], item, b)
		x, okx := operandValue(args[1], item, b)
		return ok && okx && contains(v, x)
	}
	return false
}

// contains is the contains() function: a substring of a string, a byte
// substring of a binary, a member of a set (of the matching type), or an
// element of a list.
func contains(v, x attr.Value) bool {
	switch v.Type {
	case attr.TypeS:
		return x.Type == attr.TypeS && strings.Contains(v.S, x.S)
	case attr.TypeB:
		return x.Type == attr.TypeB && bytes.Contains(v.B, x.B)
	case attr.TypeSS:
		if x.Type != attr.TypeS {
			return false
		}
		for _, s := range v.SS {
			if s == x.S {
				return true
			}
		}
	case attr.TypeNS:
		if x.Type != attr.TypeN {
			return false
		}
		for _, s := range v.SS {
			if s == x.S || attr.CompareNumbers(s, x.S) == 0 {
				return true
			}
		}
	case attr.TypeBS:
		if x.Type != attr.TypeB {
			return false
		}
		for _, m := range v.BS {
			if bytes.Equal(m, x.B) {
				return true
			}
		}
	case attr.TypeL:
		for i := range v.L {
			if attr.Equal(v.L[i], x) {
				return true
			}
		}
	}
	return false
}

// NestedNames returns the first names of the condition's document paths
// of more than one element ("a.b", "a[0]"), names substituted, in the
// tree's order.
func (c *Condition) NestedNames() []string {
	var names []string
	var cond func(n *Cond)
	cond = func(n *Cond) {
		if n == nil {
			return
		}
		for _, o := range n.Operands {
			names = nestedOperandNames(names, o, &c.b)
		}
		cond(n.Left)
		cond(n.Right)
	}
	cond(c.root)
	return names
}

// nestedOperandNames appends to names the first names of o's paths of
// more than one element, o's arguments included.
func nestedOperandNames(names []string, o *Operand, b *binding) []string {
	if o == nil {
		return names
	}
	if o.Kind == OperandPath && len(o.Path) > 1 {
		names = append(names, b.name(&o.Path[0]))
	}
	for _, a := range o.Args {
		names = nestedOperandNames(names, a, b)
	}
	return names
}
