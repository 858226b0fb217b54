package partiql

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/engine"
	"github.com/dynago/dynago/internal/expr"
)

// This file turns the parts of a parsed PartiQL statement into what the
// item operations take: attribute values for literals and parameters, and
// DynamoDB expressions (with ExpressionAttributeNames and Values
// placeholders) for conditions, projections and updates, built as trees
// (expr.Tree) beside the texts they stand for. A statement thus runs
// through exactly the code, the checks and the bill of the operation it
// stands for, without its expressions being parsed again.

// qlError turns a parser error into a ValidationException.
func qlError(err error) error {
	var pe *Error
	if errors.As(err, &pe) {
		return dynamo.Validation(pe.Message)
	}
	return err
}

// binder converts literals and parameters to attribute values.
type binder struct {
	params []attr.Value
}

// bindParams checks the parameters (engine.CheckParameters) and binds
// them.
func bindParams(params []attr.Value, want int) (*binder, error) {
	b := &binder{}
	if err := b.bind(params, want); err != nil {
		return nil, err
	}
	return b, nil
}

// bind is bindParams into b.
func (b *binder) bind(params []attr.Value, want int) error {
	if err := dynamo.CheckParameters(params, want); err != nil {
		return err
	}
	b.params = params
	return nil
}

// value converts e, found under at ("root", "root.k", "root[1]"), to an
// attribute value.
func (b *binder) value(e Expr, at string) (attr.Value, error) {
	switch x := e.(type) {
	case *Literal:
		switch x.Kind {
		case LitString:
			return attr.S(x.Text), nil
		case LitNumber:
			n, err := attr.NormalizeNumber(x.Text)
			if err != nil {
				return attr.Value{}, dynamo.Validation(err.Error() + " under " + at)
			}
			return attr.N(n), nil
		case LitBool:
			return attr.Bool(x.Bool), nil
		case LitNull:
			return attr.Value{Type: attr.TypeNULL, Bool: true}, nil
		case LitMissing:
			return attr.Value{}, dynamo.Validation(msgQLMissingLiteral)
		}
	case *Param:
		return b.params[x.N], nil
	case *List:
		l := make([]attr.Value, len(x.Elems))
		for i, el := range x.Elems {
			v, err := b.value(el, at+"["+strconv.Itoa(i)+"]")
			if err != nil {
				return attr.Value{}, err
			}
			l[i] = v
		}
		return attr.Value{Type: attr.TypeL, L: l}, nil
	case *Map:
		return b.mapValue(x, at)
	case *Bag:
		return b.bag(x, at)
	case *Call:
		return attr.Value{}, dynamo.Validation(msgQLUnsupportedType(x.Name, at) + At(x.Pos))
	}
	return attr.Value{}, dynamo.Validation(msgQLUnsupportedType(exprName(e), at))
}

// mapValue converts a tuple literal to an M value.
func (b *binder) mapValue(x *Map, at string) (attr.Value, error) {
	m := make(map[string]attr.Value, len(x.Keys))
	for i, k := range x.Keys {
		key, ok := k.(*Literal)
		if !ok || key.Kind != LitString {
			return attr.Value{}, dynamo.Validation(msgQLTupleKeyType(exprName(k), at))
		}
		if _, dup := m[key.Text]; dup {
			return attr.Value{}, dynamo.Validation(msgQLDuplicateTupleKey(key.Text, at))
		}
		v, err := b.value(x.Vals[i], at+"."+key.Text)
		if err != nil {
			return attr.Value{}, err
		}
		m[key.Text] = v
	}
	return attr.Value{Type: attr.TypeM, M: m}, nil
}

// bag converts a set literal: strings make an SS, numbers an NS.
func (b *binder) bag(x *Bag, at string) (attr.Value, error) {
	if len(x.Elems) == 0 {
		return attr.Value{}, dynamo.Validation(msgQLEmptyBag)
	}
	var out attr.Value
	for i, el := range x.Elems {
		v, err := b.value(el, at+"["+strconv.Itoa(i)+"]")
		if err != nil {
			return attr.Value{}, err
		}
		var t attr.Type
		switch v.Type {
		case attr.TypeS:
			t = attr.TypeSS
		case attr.TypeN:
			t = attr.TypeNS
		case attr.TypeB:
			t = attr.TypeBS
		default:
			return attr.Value{}, dynamo.Validation(msgQLBagType)
		}
		if i == 0 {
			out.Type = t
		} else if out.Type != t {
			return attr.Value{}, dynamo.Validation(msgQLBagType)
		}
		if t == attr.TypeBS {
			out.BS = append(out.BS, v.B)
		} else {
			out.SS = append(out.SS, v.S)
		}
	}
	if err := out.Canonicalize(); err != nil {
		// A value's own problem, as the engine words it (a duplicate).
		var ae *attr.Error
		if errors.As(err, &ae) {
			err = dynamo.Validation(ae.Message)
		}
		return attr.Value{}, err
	}
	return out, nil
}

// exprName names an expression's kind for messages.
func exprName(e Expr) string {
	switch x := e.(type) {
	case *Path:
		return "path"
	case *Literal:
		switch x.Kind {
		case LitNumber:
			return "DECIMAL"
		case LitBool:
			return "BOOL"
		case LitNull:
			return "NULL"
		case LitMissing:
			return "MISSING"
		}
		return "STRING"
	case *Call:
		return x.Name
	case *Binary:
		return x.Op
	}
	return "expression"
}

// exprText builds a statement's expressions as the trees the item
// operations take (expr.Tree) and the texts they stand for, which size
// them, mark them present and are what EXPLAIN shows; the expressions
// share their placeholders.
//
// The values are recorded in vals, a parameter as its number, so that
// the expressions can be kept with the statement (qlTemplate,
// qlWriteTemplate) and each request binds only its parameters
// (bindVals). A value that is a list, map or set holding a parameter is
// bound with b, the request's binder, and marks the expressions noCache;
// so is any value that is not a scalar, which the operation could
// canonicalize in place.
type exprText struct {
	names  map[string]string
	nameIx map[string]string
	b      *binder

	vals    []qlVal
	nv      int
	noCache bool
}

// qlVal is a placeholder of a template, or an attribute of a key: a
// parameter (src >= 0), the partition key value of a Query (srcHash) or a
// constant (srcConst, v).
type qlVal struct {
	ph  string
	src int
	v   attr.Value
}

const (
	srcConst = -1
	srcHash  = -2
)

// slot returns a placeholder bound per request to src.
func (x *exprText) slot(src int) string {
	ph := ":v" + strconv.Itoa(x.nv)
	x.nv++
	x.vals = append(x.vals, qlVal{ph: ph, src: src})
	return ph
}

func newExprText(b *binder) *exprText { return &exprText{b: b} }

// name returns the placeholder for an attribute name.
func (x *exprText) name(n string) string {
	if ph, ok := x.nameIx[n]; ok {
		return ph
	}
	if x.names == nil {
		x.names, x.nameIx = map[string]string{}, map[string]string{}
	}
	ph := "#n" + strconv.Itoa(len(x.names))
	x.names[ph], x.nameIx[n] = n, ph
	return ph
}

// value returns a placeholder for v.
func (x *exprText) value(v attr.Value) string {
	ph := ":v" + strconv.Itoa(x.nv)
	x.nv++
	x.constant(v)
	x.vals = append(x.vals, qlVal{ph: ph, src: srcConst, v: v})
	return ph
}

// constant marks the expressions noCache when v, a constant of theirs,
// is not a scalar.
func (x *exprText) constant(v attr.Value) {
	switch v.Type {
	case attr.TypeS, attr.TypeN, attr.TypeBOOL, attr.TypeNULL:
	default:
		x.noCache = true
	}
}

// bindVals puts vals in m, bound for one request: a parameter's value
// from b, hash for srcHash, or the constant.
func bindVals(m attr.Item, vals []qlVal, b *binder, hash attr.Value) attr.Item {
	for _, v := range vals {
		switch v.src {
		case srcConst:
			m[v.ph] = v.v
		case srcHash:
			m[v.ph] = hash
		default:
			m[v.ph] = b.params[v.src]
		}
	}
	return m
}

// valueOperand is the operand of a value placeholder.
func valueOperand(ph string) *expr.Operand {
	return &expr.Operand{Kind: expr.OperandValue, ValueName: ph}
}

// nameOperand is the operand of a top-level attribute's placeholder.
func nameOperand(ph string) *expr.Operand {
	return &expr.Operand{Kind: expr.OperandPath, Path: []expr.PathElem{{Name: ph}}}
}

// path writes a document path with placeholders.
func (x *exprText) path(p *Path) (string, []expr.PathElem) {
	var sb strings.Builder
	elems := make([]expr.PathElem, len(p.Elems))
	for i, el := range p.Elems {
		switch {
		case el.IsIndex:
			sb.WriteString("[" + strconv.Itoa(el.Index) + "]")
			elems[i] = expr.PathElem{IsIndex: true, Index: el.Index}
		case i == 0:
			ph := x.name(el.Name)
			sb.WriteString(ph)
			elems[i] = expr.PathElem{Name: ph}
		default:
			ph := x.name(el.Name)
			sb.WriteString("." + ph)
			elems[i] = expr.PathElem{Name: ph}
		}
	}
	return sb.String(), elems
}

// pathOperand writes a document path as an operand.
func (x *exprText) pathOperand(p *Path) (string, *expr.Operand) {
	s, elems := x.path(p)
	return s, &expr.Operand{Kind: expr.OperandPath, Path: elems}
}

// projection writes a SELECT's projection, or "" and nil for *.
func (x *exprText) projection(st *Statement) (string, *expr.Tree) {
	if st.Star {
		return "", nil
	}
	parts := make([]string, len(st.Projection))
	paths := make([][]expr.PathElem, len(st.Projection))
	for i, p := range st.Projection {
		parts[i], paths[i] = x.path(p)
	}
	return strings.Join(parts, ", "), expr.ProjectionTree(paths)
}

// operand writes an operand of a condition.
func (x *exprText) operand(e Expr) (string, *expr.Operand, error) {
	switch y := e.(type) {
	case *Path:
		s, o := x.pathOperand(y)
		return s, o, nil
	case *Literal:
		if y.Kind == LitMissing {
			return "", nil, dynamo.Validation(msgQLMissingLiteral)
		}
	case *Call:
		if y.Name == "size" {
			if len(y.Args) != 1 {
				return "", nil, dynamo.Validation(msgQLOperands("size", len(y.Args)))
			}
			a, ao, err := x.operand(y.Args[0])
			if err != nil {
				return "", nil, err
			}
			return "size(" + a + ")", &expr.Operand{Kind: expr.OperandFunc, Func: "size", Args: []*expr.Operand{ao}}, nil
		}
		return "", nil, dynamo.Validation(msgQLUnrecognizedFunction(y.Name) + At(y.Pos))
	case *Binary:
		return "", nil, dynamo.Validation(msgQLConditionOp(y.Op))
	case *Neg:
		return "", nil, dynamo.Validation(msgQLConditionOp("-"))
	}
	if !IsValue(e) {
		return "", nil, dynamo.Validation(msgQLConditionOp(exprName(e)))
	}
	return x.valueOperand(e)
}

// valueOperand writes a value: a parameter's placeholder bound per
// request, or a constant's.
func (x *exprText) valueOperand(e Expr) (string, *expr.Operand, error) {
	if p, ok := e.(*Param); ok {
		ph := x.slot(p.N)
		return ph, valueOperand(ph), nil
	}
	v, err := x.b.value(e, "root")
	if err != nil {
		return "", nil, err
	}
	ph := x.value(v)
	return ph, valueOperand(ph), nil
}

// isTypes maps the type names of IS to DynamoDB's attribute types.
var isTypes = map[string]string{
	"BOOL": "BOOL", "BOOLEAN": "BOOL",
	"STRING": "S", "VARCHAR": "S", "CHAR": "S", "CHARACTER VARYING": "S", "CHARACTER": "S", "SYMBOL": "S",
	"NUMERIC": "N", "DECIMAL": "N", "DEC": "N", "INT": "N", "INTEGER": "N", "INT2": "N", "INT4": "N", "INT8": "N",
	"SMALLINT": "N", "BIGINT": "N", "FLOAT": "N", "REAL": "N", "DOUBLE PRECISION": "N",
	"BLOB": "B", "STRUCT": "M", "TUPLE": "M", "LIST": "L",
}

// compareOps are the comparators of conditions.
var compareOps = map[string]expr.CompareOp{"=": expr.OpEQ, "<>": expr.OpNE, "<": expr.OpLT, "<=": expr.OpLE, ">": expr.OpGT, ">=": expr.OpGE}

// parens marks a condition its text writes in parentheses.
func parens(c *expr.Cond) *expr.Cond {
	c.Parens = true
	return c
}

// funcCond is a function condition.
func funcCond(name string, args ...*expr.Operand) *expr.Cond {
	return &expr.Cond{Kind: expr.CondFunc, Func: name, Operands: args}
}

// cond writes a condition.
func (x *exprText) cond(e Expr) (string, *expr.Cond, error) {
	switch y := e.(type) {
	case *Binary:
		switch y.Op {
		case "AND", "OR":
			l, lc, err := x.cond(y.L)
			if err != nil {
				return "", nil, err
			}
			r, rc, err := x.cond(y.R)
			if err != nil {
				return "", nil, err
			}
			kind := expr.CondAnd
			if y.Op == "OR" {
				kind = expr.CondOr
			}
			return "(" + l + ") " + y.Op + " (" + r + ")", &expr.Cond{Kind: kind, Left: parens(lc), Right: parens(rc)}, nil
		case "=", "<>", "<", "<=", ">", ">=":
			if c, ok := boolTest(y); ok {
				return x.cond(c)
			}
			l, lo, err := x.operand(y.L)
			if err != nil {
				return "", nil, err
			}
			r, ro, err := x.operand(y.R)
			if err != nil {
				return "", nil, err
			}
			return l + " " + y.Op + " " + r, &expr.Cond{Kind: expr.CondCompare, Op: compareOps[y.Op], Operands: []*expr.Operand{lo, ro}}, nil
		}
		return "", nil, dynamo.Validation(msgQLConditionOp(y.Op))
	case *Not:
		c, cc, err := x.cond(y.X)
		if err != nil {
			return "", nil, err
		}
		return "NOT (" + c + ")", &expr.Cond{Kind: expr.CondNot, Left: parens(cc)}, nil
	case *Between:
		parts := make([]string, 3)
		ops := make([]*expr.Operand, 3)
		for i, o := range []Expr{y.X, y.Lo, y.Hi} {
			s, so, err := x.operand(o)
			if err != nil {
				return "", nil, err
			}
			parts[i], ops[i] = s, so
		}
		s := parts[0] + " BETWEEN " + parts[1] + " AND " + parts[2]
		c := &expr.Cond{Kind: expr.CondBetween, Operands: ops}
		if y.Negated {
			s, c = "NOT ("+s+")", &expr.Cond{Kind: expr.CondNot, Left: parens(c)}
		}
		return s, c, nil
	case *In:
		if _, ok := y.X.(*Path); !ok || !y.Seq || len(y.List) == 0 {
			return "", nil, dynamo.Validation(msgQLInOperator)
		}
		l, lo, _ := x.operand(y.X)
		vals := make([]string, len(y.List))
		ops := make([]*expr.Operand, 1, 1+len(y.List))
		ops[0] = lo
		for i, o := range y.List {
			s, so, err := x.operand(o)
			if err != nil {
				return "", nil, err
			}
			vals[i] = s
			ops = append(ops, so)
		}
		s := l + " IN (" + strings.Join(vals, ", ") + ")"
		c := &expr.Cond{Kind: expr.CondIn, Operands: ops}
		if y.Negated {
			s, c = "NOT ("+s+")", &expr.Cond{Kind: expr.CondNot, Left: parens(c)}
		}
		return s, c, nil
	case *Is:
		p, ok := y.X.(*Path)
		if !ok {
			return "", nil, dynamo.Validation(msgQLIsOperand)
		}
		ph, elems := x.path(p)
		po := func() *expr.Operand { return &expr.Operand{Kind: expr.OperandPath, Path: elems} }
		switch y.Type {
		case "MISSING":
			if y.Negated {
				return "attribute_exists(" + ph + ")", funcCond("attribute_exists", po()), nil
			}
			return "attribute_not_exists(" + ph + ")", funcCond("attribute_not_exists", po()), nil
		case "NULL":
			// PartiQL: a MISSING value IS NULL too.
			t := x.value(attr.S("NULL"))
			if y.Negated {
				return "attribute_exists(" + ph + ") AND NOT attribute_type(" + ph + ", " + t + ")",
					&expr.Cond{Kind: expr.CondAnd, Left: funcCond("attribute_exists", po()),
						Right: &expr.Cond{Kind: expr.CondNot, Left: funcCond("attribute_type", po(), valueOperand(t))}}, nil
			}
			return "attribute_not_exists(" + ph + ") OR attribute_type(" + ph + ", " + t + ")",
				&expr.Cond{Kind: expr.CondOr, Left: funcCond("attribute_not_exists", po()), Right: funcCond("attribute_type", po(), valueOperand(t))}, nil
		}
		typ, ok := isTypes[y.Type]
		if !ok {
			return "", nil, dynamo.Validation(msgQLIsType(y.Type))
		}
		t := x.value(attr.S(typ))
		s, c := "attribute_type("+ph+", "+t+")", funcCond("attribute_type", po(), valueOperand(t))
		if y.Negated {
			s, c = "NOT "+s, &expr.Cond{Kind: expr.CondNot, Left: c}
		}
		return s, c, nil
	case *Call:
		return x.call(y)
	}
	return "", nil, dynamo.Validation(msgQLWhereBoolean)
}

// boolTest rewrites `f(...) = TRUE` and its variants, where f is a
// condition function, as the condition itself or its negation.
func boolTest(b *Binary) (Expr, bool) {
	if b.Op != "=" && b.Op != "<>" {
		return nil, false
	}
	call, lit := b.L, b.R
	if _, ok := call.(*Call); !ok {
		call, lit = b.R, b.L
	}
	c, ok := call.(*Call)
	l, isLit := lit.(*Literal)
	if !ok || !isLit || l.Kind != LitBool {
		return nil, false
	}
	switch c.Name {
	case "attribute_exists", "attribute_not_exists", "begins_with", "contains", "attribute_type":
	default:
		return nil, false
	}
	if l.Bool == (b.Op == "=") {
		return c, true
	}
	return &Not{X: c, Pos: b.Pos}, true
}

// call writes a function of a condition.
func (x *exprText) call(c *Call) (string, *expr.Cond, error) {
	switch c.Name {
	case "attribute_exists", "attribute_not_exists":
		if len(c.Args) != 1 {
			return "", nil, dynamo.Validation(msgQLOperands(c.Name, len(c.Args)))
		}
		p, ok := c.Args[0].(*Path)
		if !ok {
			return "", nil, dynamo.Validation(msgQLNeedsPath(c.Name))
		}
		s, o := x.pathOperand(p)
		return c.Name + "(" + s + ")", funcCond(c.Name, o), nil
	case "begins_with", "contains", "attribute_type":
		if len(c.Args) != 2 {
			return "", nil, dynamo.Validation(msgQLOperands(c.Name, len(c.Args)))
		}
		a, ao, err := x.operand(c.Args[0])
		if err != nil {
			return "", nil, err
		}
		b, bo, err := x.operand(c.Args[1])
		if err != nil {
			return "", nil, err
		}
		return c.Name + "(" + a + ", " + b + ")", funcCond(c.Name, ao, bo), nil
	}
	return "", nil, dynamo.Validation(msgQLUnrecognizedFunction(c.Name) + At(c.Pos))
}

// and joins conditions with AND, each in parentheses when there are
// several.
func and(parts []string, conds []*expr.Cond) (string, *expr.Cond) {
	if len(parts) == 1 {
		return parts[0], conds[0]
	}
	c := parens(conds[0])
	for i, p := range parts {
		parts[i] = "(" + p + ")"
		if i > 0 {
			c = &expr.Cond{Kind: expr.CondAnd, Left: c, Right: parens(conds[i])}
		}
	}
	return strings.Join(parts, " AND "), c
}

// errIncompleteKey is the one error of a WHERE without the whole key.
var errIncompleteKey = dynamo.Validation(msgQLIncompleteKey)

// whereKey finds a write's key in its WHERE: one equality for each key
// attribute. It returns the key, each attribute named by its qlVal's ph
// and bound per request (bindVals), and the other conjuncts.
func (x *exprText) whereKey(t *engine.Schema, where Expr) ([]qlVal, []Expr, error) {
	var key []qlVal
	var rest []Expr
	names := []string{t.Hash}
	if t.Range != "" {
		names = append(names, t.Range)
	}
	for _, c := range Conjuncts(where, nil) {
		matched := false
		for _, n := range names {
			v := KeyEquality(c, n)
			if v == nil {
				continue
			}
			if slices.ContainsFunc(key, func(k qlVal) bool { return k.ph == n }) {
				return nil, nil, dynamo.Validation(msgQLMultipleKeyConditions(n))
			}
			if p, ok := v.(*Param); ok {
				key = append(key, qlVal{ph: n, src: p.N})
			} else {
				val, err := x.b.value(v, "root")
				if err != nil {
					return nil, nil, err
				}
				x.constant(val)
				key = append(key, qlVal{ph: n, src: srcConst, v: val})
			}
			matched = true
			break
		}
		if !matched {
			rest = append(rest, c)
		}
	}
	if len(key) != len(names) {
		return nil, nil, errIncompleteKey
	}
	return key, rest, nil
}

// update writes an UPDATE's actions as an update expression.
func (x *exprText) update(acts []Action) (string, *expr.Tree, error) {
	var set, remove, add, del []string
	var sets, removes, adds, dels []expr.Action
	for _, a := range acts {
		target, path := x.path(a.Path)
		if a.Value == nil {
			remove = append(remove, target)
			removes = append(removes, expr.Action{Kind: expr.ActionRemove, Path: path})
			continue
		}
		if c, ok := a.Value.(*Call); ok && (c.Name == "set_add" || c.Name == "set_delete") {
			op := strings.ToUpper(strings.TrimPrefix(c.Name, "set_"))
			if len(c.Args) != 2 {
				return "", nil, dynamo.Validation(msgQLSetArgs(op) + At(c.Pos))
			}
			first, ok := c.Args[0].(*Path)
			if !ok || !samePath(first, a.Path) {
				return "", nil, dynamo.Validation(msgQLSetFirstArg(op) + At(c.Pos))
			}
			v, err := x.setOperand(c.Args[1])
			if err != nil {
				return "", nil, err
			}
			if v.Type != attr.TypeSS && v.Type != attr.TypeNS && v.Type != attr.TypeBS {
				return "", nil, dynamo.Validation(msgQLSetSecondArg(op) + At(first.Pos))
			}
			ph := x.value(v)
			if op == "ADD" {
				add = append(add, target+" "+ph)
				adds = append(adds, expr.Action{Kind: expr.ActionAdd, Path: path, Value: valueOperand(ph)})
			} else {
				del = append(del, target+" "+ph)
				dels = append(dels, expr.Action{Kind: expr.ActionDelete, Path: path, Value: valueOperand(ph)})
			}
			continue
		}
		v, vo, err := x.updateValue(a.Value)
		if err != nil {
			return "", nil, err
		}
		set = append(set, target+" = "+v)
		sets = append(sets, expr.Action{Kind: expr.ActionSet, Path: path, Value: vo})
	}
	var parts []string
	for _, s := range []struct {
		kw   string
		list []string
	}{{"SET", set}, {"REMOVE", remove}, {"ADD", add}, {"DELETE", del}} {
		if len(s.list) > 0 {
			parts = append(parts, s.kw+" "+strings.Join(s.list, ", "))
		}
	}
	actions := slices.Concat(sets, removes, adds, dels)
	return strings.Join(parts, " "), expr.UpdateTree(actions), nil
}

// setOperand converts the second argument of set_add or set_delete; a
// value that is not a set is reported by the caller.
func (x *exprText) setOperand(e Expr) (attr.Value, error) {
	if !IsValue(e) {
		return attr.Value{}, nil
	}
	return x.b.value(e, "root")
}

// samePath reports whether two paths are the same.
func samePath(a, b *Path) bool {
	if len(a.Elems) != len(b.Elems) {
		return false
	}
	for i := range a.Elems {
		if a.Elems[i] != b.Elems[i] {
			return false
		}
	}
	return true
}

// updateValue writes the right-hand side of a SET.
func (x *exprText) updateValue(e Expr) (string, *expr.Operand, error) {
	switch y := e.(type) {
	case *Path:
		s, o := x.pathOperand(y)
		return s, o, nil
	case *Binary:
		if y.Op != "+" && y.Op != "-" {
			return "", nil, dynamo.Validation(msgQLUpdateOp(y.Op))
		}
		l, lo, err := x.updateValue(y.L)
		if err != nil {
			return "", nil, err
		}
		r, ro, err := x.updateValue(y.R)
		if err != nil {
			return "", nil, err
		}
		kind := expr.OperandPlus
		if y.Op == "-" {
			kind = expr.OperandMinus
		}
		return l + " " + y.Op + " " + r, &expr.Operand{Kind: kind, Args: []*expr.Operand{lo, ro}}, nil
	case *Call:
		switch y.Name {
		case "list_append", "if_not_exists":
			args := make([]string, len(y.Args))
			ops := make([]*expr.Operand, len(y.Args))
			for i, a := range y.Args {
				s, so, err := x.updateValue(a)
				if err != nil {
					return "", nil, err
				}
				args[i], ops[i] = s, so
			}
			return y.Name + "(" + strings.Join(args, ", ") + ")", &expr.Operand{Kind: expr.OperandFunc, Func: y.Name, Args: ops}, nil
		}
		return "", nil, dynamo.Validation(msgQLUnrecognizedFunction(y.Name) + At(y.Pos))
	case *Is:
		return "", nil, dynamo.Validation(msgQLIsInUpdate)
	}
	if !IsValue(e) {
		return "", nil, dynamo.Validation(msgQLUpdateOp(exprName(e)))
	}
	return x.valueOperand(e)
}

// item converts an INSERT's VALUE to an item.
func (b *binder) item(e Expr) (attr.Item, error) {
	switch x := e.(type) {
	case *Map:
		it := make(attr.Item, len(x.Keys))
		for i, k := range x.Keys {
			key, ok := k.(*Literal)
			if !ok || key.Kind != LitString {
				return nil, dynamo.Validation(msgQLTupleKeyType(exprName(k), "root"))
			}
			if _, dup := it[key.Text]; dup {
				return nil, dynamo.Validation(msgQLDuplicateTupleKey(key.Text, "root"))
			}
			v, err := b.value(x.Vals[i], "root")
			if err != nil {
				return nil, err
			}
			it[key.Text] = v
		}
		return it, nil
	case *Param:
		if v := b.params[x.N]; v.Type == attr.TypeM {
			it := make(attr.Item, len(v.M))
			for k, val := range v.M {
				it[k] = val
			}
			return it, nil
		}
	}
	return nil, dynamo.Validation(msgQLInsertFormat)
}

// checkInsertKey checks an INSERT's item for its table's key.
func checkInsertKey(t *engine.Schema, it attr.Item) error {
	names := []string{t.Hash}
	types := []attr.Type{t.HashType}
	if t.Range != "" {
		names, types = append(names, t.Range), append(types, t.RangeType)
	}
	for i, n := range names {
		v, ok := it[n]
		if !ok {
			return dynamo.Validation(msgQLKeyAbsent(n))
		}
		if v.Type != types[i] {
			return dynamo.Validation(msgQLKeyType(n))
		}
	}
	return nil
}
