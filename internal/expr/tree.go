package expr

import (
	"math"
	"strconv"

	"github.com/dynago/dynago/attr"
)

// A statement language (package partiql) does not write its statements'
// conditions, projections and updates as text for this package to parse:
// it builds them as trees, the very trees the parser makes of the text
// it shows for them (EXPLAIN), and a request carries them beside that
// text (Input.Trees), which then only sizes the expression. Compile
// checks a tree as it checks a parse of its text, in the same order and
// with the same results, except that the errors are worded bare, as a
// statement answers them, with the expression's prefix beside
// (attr.Error.Prefix) for an operation that reports it.

// Tree is an expression built as a syntax tree: a condition
// (ConditionTree), an update (UpdateTree) or a projection
// (ProjectionTree). It is immutable once built, and may serve any number
// of requests with the same names and values placeholders.
type Tree struct {
	p parsed
	// The first placeholders' slots, in the tree's own allocation: a
	// statement's expressions have few.
	names, values [4]string
	order         [8]int32
}

// Trees are the expressions of one request built as trees; nil for an
// expression the request sends as text, or not at all.
type Trees struct {
	Condition, Filter, KeyCondition, Projection, Update *Tree
}

// tree returns the tree of kind k, or nil.
func (t *Trees) tree(k Kind) *Tree {
	if t == nil {
		return nil
	}
	switch k {
	case KindCondition:
		return t.Condition
	case KindFilter:
		return t.Filter
	case KindKeyCondition:
		return t.KeyCondition
	case KindProjection:
		return t.Projection
	case KindSearchCondition:
		return nil
	}
	return t.Update
}

// The builders below take nodes as the parser makes them from the text
// the tree stands for: a "#name" placeholder is a PathElem whose Name is
// the placeholder (its Ref is set here), a ":value" placeholder an
// OperandValue whose ValueName is the placeholder (its Value is set
// here), Parens is set where the text has parentheses, a function's node
// carries its name, and the nodes are the builder's from then on. An
// update's actions are in the order of the text: its SET actions, then
// REMOVE, ADD and DELETE. What the parser would refuse in that text (a
// list index past 32 bits, a path deeper than MaxPathDepth, an IN list
// of more than MaxInOperands, arithmetic where the update grammar has
// none) the tree is refused with, at the same place.

// ConditionTree builds a condition of kind k (KindCondition, KindFilter
// or KindKeyCondition).
func ConditionTree(k Kind, root *Cond) *Tree {
	t := &Tree{}
	w := newTreeWalk(t, k)
	w.cond(root)
	t.p.cond = root
	return w.finish(t)
}

// UpdateTree builds an update expression.
func UpdateTree(actions []Action) *Tree {
	t := &Tree{}
	w := newTreeWalk(t, KindUpdate)
	for i := range actions {
		a := &actions[i]
		w.path(a.Path)
		switch a.Kind {
		case ActionSet:
			w.operands(a.Value, true)
		case ActionAdd, ActionDelete:
			w.operand(a.Value)
		}
	}
	t.p.actions = actions
	t.p.actionPaths = actionPaths(actions)
	return w.finish(t)
}

// ProjectionTree builds a projection expression.
func ProjectionTree(paths [][]PathElem) *Tree {
	t := &Tree{}
	w := newTreeWalk(t, KindProjection)
	for _, p := range paths {
		w.path(p)
	}
	t.p.paths = paths
	return w.finish(t)
}

// treeWalk visits a tree in the order of its text, doing what the parser
// does as it reads it: numbering the placeholders, counting the
// operators and keeping the first error it would stop at.
type treeWalk struct {
	out      *parsed
	ops      int
	reserved string
	err      *attr.Error
	wd       wording
}

func newTreeWalk(t *Tree, k Kind) treeWalk {
	out := &t.p
	out.kind, out.stmt = k, true
	out.nameRefs, out.valueRefs, out.refOrder = t.names[:0], t.values[:0], t.order[:0]
	return treeWalk{out: out, wd: wording{kind: k, stmt: true}}
}

// fail keeps the first error the parser would stop at.
func (w *treeWalk) fail(msg string) {
	if w.err == nil {
		w.err = w.wd.err(msg)
	}
}

// finish completes t, whose parse the walk filled: as a parse stopped
// by the walk's error, or with its static checks.
func (w *treeWalk) finish(t *Tree) *Tree {
	if w.err != nil {
		t.p = parsed{kind: w.out.kind, stmt: true, err: w.err}
		t.names, t.values, t.order = [4]string{}, [4]string{}, [8]int32{}
		return t
	}
	w.out.static = staticCheck(w.out, w.ops, w.reserved, nil)
	return t
}

// slot returns ref's slot in refs, adding it, and notes the occurrence
// (code(slot)) in refOrder. A statement's expressions have few
// placeholders: a search beats a map.
func (w *treeWalk) slot(refs *[]string, ref string, code func(int32) int32) int32 {
	s := int32(len(*refs))
	for i, r := range *refs {
		if r == ref {
			s = int32(i)
			break
		}
	}
	if int(s) == len(*refs) {
		*refs = append(*refs, ref)
	}
	w.out.refOrder = append(w.out.refOrder, code(s))
	return s
}

func nameCode(s int32) int32  { return s }
func valueCode(s int32) int32 { return -1 - s }

func (w *treeWalk) nameSlot(ref string) int32  { return w.slot(&w.out.nameRefs, ref, nameCode) }
func (w *treeWalk) valueSlot(ref string) int32 { return w.slot(&w.out.valueRefs, ref, valueCode) }

// path numbers a path's name placeholders (parsePathRest).
func (w *treeWalk) path(p []PathElem) {
	for i := range p {
		e := &p[i]
		switch {
		case e.IsIndex:
			e.Ref = -1
			if e.Index > math.MaxInt32 {
				w.fail(msgListIndexRange + strconv.Itoa(e.Index))
			}
		case len(e.Name) > 0 && e.Name[0] == '#':
			e.Ref = w.nameSlot(e.Name)
		default:
			e.Ref = -1
			if w.reserved == "" && isReserved(e.Name) {
				w.reserved = e.Name
			}
		}
	}
	if len(p) > MaxPathDepth {
		w.fail(msgPathTooDeep + strconv.Itoa(len(p)))
	}
}

// operand visits one operand: a path, a value or a function call.
func (w *treeWalk) operand(o *Operand) {
	switch o.Kind {
	case OperandPath:
		w.path(o.Path)
	case OperandValue:
		o.Value = w.valueSlot(o.ValueName)
	case OperandFunc:
		w.ops++
		o.fn = lookupFunc(o.Func)
		for _, a := range o.Args {
			w.operands(a, false)
		}
	default:
		w.operands(o, false)
	}
}

// operands visits an operand where the grammar takes one (arith false:
// a comparison's or a function's) or one with at most one + or - (arith:
// an update's SET value). The text of a tree with more has an operator
// the parser does not expect there: the syntax error names it and the
// tokens either side.
func (w *treeWalk) operands(o *Operand, arith bool) {
	if o.Kind != OperandPlus && o.Kind != OperandMinus {
		w.operand(o)
		return
	}
	var seqBuf [4]*Operand
	var opsBuf [4]OperandKind
	seq, ops := flatten(o, seqBuf[:0], opsBuf[:0])
	w.operand(seq[0])
	at := 0
	if arith && len(ops) > 0 {
		w.ops++
		w.operand(seq[1])
		at = 1
	}
	if len(ops) > at {
		tok := "+"
		if ops[at] == OperandMinus {
			tok = "-"
		}
		if w.err == nil {
			w.err = syntaxErr(w.wd, tok, lastToken(seq[at])+" "+tok+" "+firstToken(seq[at+1]))
		}
	}
}

// flatten appends the operands and the + and - of an arithmetic operand
// to seq and ops, in the order of its text.
func flatten(o *Operand, seq []*Operand, ops []OperandKind) ([]*Operand, []OperandKind) {
	if o.Kind == OperandPlus || o.Kind == OperandMinus {
		seq, ops = flatten(o.Args[0], seq, ops)
		ops = append(ops, o.Kind)
		return flatten(o.Args[1], seq, ops)
	}
	return append(seq, o), ops
}

// firstToken and lastToken are the first and last tokens of an
// operand's text.
func firstToken(o *Operand) string {
	switch o.Kind {
	case OperandPath:
		return o.Path[0].Name
	case OperandValue:
		return o.ValueName
	case OperandFunc:
		return o.Func
	}
	return firstToken(o.Args[0])
}

func lastToken(o *Operand) string {
	switch o.Kind {
	case OperandPath:
		if e := o.Path[len(o.Path)-1]; !e.IsIndex {
			return e.Name
		}
		return "]"
	case OperandValue:
		return o.ValueName
	case OperandFunc:
		return ")"
	}
	return lastToken(o.Args[1])
}

// cond visits a condition (parseOr).
func (w *treeWalk) cond(c *Cond) {
	switch c.Kind {
	case CondAnd, CondOr:
		w.cond(c.Left)
		w.cond(c.Right)
	case CondNot:
		w.cond(c.Left)
	case CondFunc:
		w.ops++
		c.fn = lookupFunc(c.Func)
		for _, o := range c.Operands {
			w.operands(o, false)
		}
	default:
		w.ops++
		for _, o := range c.Operands {
			w.operands(o, false)
		}
		if n := len(c.Operands) - 1; c.Kind == CondIn && n > MaxInOperands {
			w.fail(msgTooManyINOperands + strconv.Itoa(n))
		}
	}
}
