package expr

import (
	"github.com/dynago/dynago/attr"
)

// bind resolves p's placeholders against a request's names and values and
// runs the checks that depend on them. It returns the first error DynamoDB
// would report for this expression.
// wording is how p's errors are worded.
func (p *parsed) wording() wording { return wording{kind: p.kind, stmt: p.stmt} }

func bind(p *parsed, names map[string]string, values attr.Item) (binding, *attr.Error) {
	var b binding
	if p.static != nil {
		return b, p.static
	}
	if n := len(p.nameRefs); n > 0 {
		b.names = make([]string, n)
		for i, ref := range p.nameRefs {
			b.names[i] = names[ref]
		}
	}
	if n := len(p.valueRefs); n > 0 {
		b.values = make([]attr.Value, n)
		for i, ref := range p.valueRefs {
			b.values[i] = values[ref]
		}
	}
	if p.kind.isCondition() {
		c := condCheck{w: p.wording(), b: &b, names: names, values: values, p: p}
		c.cond(p.cond)
		return b, c.condition
	}
	// undef is the first undefined placeholder in the order written.
	var undef *attr.Error
	for _, r := range p.refOrder {
		if r >= 0 {
			if _, ok := names[p.nameRefs[r]]; !ok {
				undef = undefinedNameErr(p.wording(), p.nameRefs[r])
				break
			}
		} else if _, ok := values[p.valueRefs[-1-r]]; !ok {
			undef = undefinedValueErr(p.wording(), p.valueRefs[-1-r])
			break
		}
	}
	if undef != nil {
		return b, undef
	}
	if p.kind == KindUpdate {
		return b, checkUpdate(p, &b)
	}
	return b, checkPaths(p.wording(), p.paths, &b)
}

// nameTooLarge refuses a name placeholder that stands for a name longer
// than attr.MaxAttributeNameSize bytes, in any expression: an item could
// not hold such an attribute. DynamoDB refuses one in a
// ProjectionExpression, a ConditionExpression and an UpdateExpression
// with a ValidationException naming the limit (Alternator's
// test_limits.py, test_limit_attribute_length_nonkey_bad, run against
// DynamoDB); its text is the one DynamoDB gives an UpdateExpression's SET
// of such a name (attr.MsgAttributeNameTooLarge). It is the expression's
// last check.
func (b *binding) nameTooLarge() *attr.Error {
	for _, n := range b.names {
		if len(n) > attr.MaxAttributeNameSize {
			return newErr(attr.MsgAttributeNameTooLarge)
		}
	}
	return nil
}

// condCheck validates a condition the way DynamoDB ranks its errors
// (dynalite's filter-expression tests against DynamoDB): it walks the
// tree in post-order, remembering the first error of each category, and
// at each comparison, BETWEEN, IN or function condition, if no error has
// been chosen yet, chooses the first of: undefined placeholder, wrong
// operand count, repeated operand, wrong operand type. So
// "begins_with(:hello, #a, #b)" reports :hello, and
// "attribute_type(a, size(a)) and a=a" reports the operand type, not the
// repeated a.
type condCheck struct {
	w      wording
	p      *parsed
	b      *binding
	names  map[string]string
	values attr.Item

	undef, count, distinct, typ *attr.Error
	condition                   *attr.Error
}

func (c *condCheck) checkpoint() {
	if c.condition != nil {
		return
	}
	for _, e := range [...]*attr.Error{c.undef, c.count, c.distinct, c.typ} {
		if e != nil {
			c.condition = e
			return
		}
	}
}

func (c *condCheck) cond(n *Cond) {
	switch n.Kind {
	case CondAnd, CondOr:
		c.cond(n.Left)
		c.cond(n.Right)
		return
	case CondNot:
		c.cond(n.Left)
		return
	}
	for _, o := range n.Operands {
		c.operand(o)
	}
	switch n.Kind {
	case CondCompare:
		c.checkDistinct(n.Op.String(), n.Operands)
		if n.Op != OpEQ && n.Op != OpNE {
			c.checkOrderable(n.Op.String(), n.Operands)
		}
	case CondBetween:
		c.checkOrderable("BETWEEN", n.Operands)
		c.checkBetween(n.Operands[1], n.Operands[2])
	case CondFunc:
		c.function(n.fn, n.Func, n.Operands)
	}
	c.checkpoint()
}

func (c *condCheck) operand(o *Operand) {
	switch o.Kind {
	case OperandPath:
		if c.undef == nil {
			for i := range o.Path {
				if e := &o.Path[i]; e.Ref >= 0 {
					if _, ok := c.names[e.Name]; !ok {
						c.undef = undefinedNameErr(c.w, e.Name)
						break
					}
				}
			}
		}
	case OperandValue:
		if _, ok := c.values[o.ValueName]; !ok && c.undef == nil {
			c.undef = undefinedValueErr(c.w, o.ValueName)
		}
	case OperandFunc:
		for _, a := range o.Args {
			c.operand(a)
		}
		c.function(o.fn, o.Func, o.Args)
	}
}

// staticType is the type of an operand known before evaluation: that of a
// defined value, or N for size(); "" when unknown.
func (c *condCheck) staticType(o *Operand) string {
	switch o.Kind {
	case OperandValue:
		if v, ok := c.values[o.ValueName]; ok {
			return v.Type.String()
		}
	case OperandFunc:
		if o.fn == fnSize {
			return "N"
		}
	}
	return ""
}

func (c *condCheck) function(fn funcID, name string, args []*Operand) {
	if fn == fnUnknown || fn == fnIfNotExists || fn == fnListAppend {
		return // reported by the static checks
	}
	if len(args) != funcArity[fn] {
		if c.count == nil {
			c.count = operandCountErr(c.w, name, len(args))
		}
		return
	}
	if len(args) == 2 {
		c.checkDistinct(name, args)
	}
	if c.typ != nil {
		return
	}
	switch fn {
	case fnAttributeExists, fnAttributeNotExists:
		if args[0].Kind != OperandPath {
			c.typ = needsPathErr(c.w, name)
		}
	case fnBeginsWith:
		for _, a := range args {
			if t := c.staticType(a); t != "" && t != "S" && t != "B" {
				c.typ = operandTypeErr(c.w, name, t)
				return
			}
		}
	case fnAttributeType:
		t := c.staticType(args[1])
		if t != "S" {
			if t == "" {
				// A path's type is any of them. DynamoDB lists the set in
				// an order that varies; this is one of them.
				t = "{NS,SS,L,BS,N,M,B,BOOL,NULL,S}"
			}
			c.typ = operandTypeErr(c.w, name, t)
			return
		}
		v := c.values[args[1].ValueName]
		if attr.ParseType(v.S) == attr.TypeInvalid {
			c.typ = c.w.err("Invalid attribute type name found; type: " + v.S +
				", valid types: {B,NULL,SS,BOOL,L,BS,N,NS,S,M}")
		}
	case fnSize:
		switch t := c.staticType(args[0]); t {
		case "N", "BOOL", "NULL":
			c.typ = operandTypeErr(c.w, name, t)
		}
	}
}

// checkDistinct reports an operator or two-operand function whose operands
// are the same document path: "a = a", "contains(#a, #a)".
func (c *condCheck) checkDistinct(op string, args []*Operand) {
	if c.distinct != nil || len(args) != 2 || args[0].Kind != OperandPath || args[1].Kind != OperandPath {
		return
	}
	if samePath(args[0].Path, args[1].Path, c.b) {
		c.distinct = distinctErr(c.w, op, args[0].Path, c.b)
	}
}

// checkOrderable refuses an ordering comparison (<, <=, >, >=, BETWEEN)
// with a constant of a type that has no order (a list, map, set, boolean
// or null): "Invalid ConditionExpression: Incorrect operand type for
// operator or function; operator or function: <, operand type: M". The
// same type coming from the item only makes the comparison false.
// ScyllaDB Alternator's test_condition_expression.py
// (test_update_condition_lt, _le, _gt, _ge, _between), run against
// DynamoDB, records the ValidationException; the text was recorded from
// DynamoDB in a published project's test double ("operator or function:
// <=, operand type: M") and has the form of the other operand-type errors.
func (c *condCheck) checkOrderable(op string, args []*Operand) {
	if c.typ != nil {
		return
	}
	for _, a := range args {
		switch t := c.staticType(a); t {
		case "", "S", "N", "B":
		default:
			c.typ = operandTypeErr(c.w, op, t)
			return
		}
	}
}

// checkBetween compares constant bounds: they must be of one type, and the
// lower may not exceed the upper.
func (c *condCheck) checkBetween(lo, hi *Operand) {
	if c.typ != nil || lo.Kind != OperandValue || hi.Kind != OperandValue {
		return
	}
	lv, ok1 := c.values[lo.ValueName]
	hv, ok2 := c.values[hi.ValueName]
	if !ok1 || !ok2 {
		return
	}
	if lv.Type != hv.Type {
		c.typ = c.w.err("The BETWEEN operator requires same data type for lower and upper bounds; lower bound operand: " +
			valueString(lv) + ", upper bound operand: " + valueString(hv))
		return
	}
	if r, ok := attr.Compare(lv, hv); ok && r > 0 {
		c.typ = c.w.err("The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: " +
			valueString(lv) + ", upper bound operand: " + valueString(hv))
	}
}

// samePath reports whether two paths name the same element.
func samePath(a, b []PathElem, bd *binding) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].IsIndex != b[i].IsIndex {
			return false
		}
		if a[i].IsIndex {
			if a[i].Index != b[i].Index {
				return false
			}
		} else if bd.name(&a[i]) != bd.name(&b[i]) {
			return false
		}
	}
	return true
}

// checkPaths reports the first two paths that overlap (one is a prefix of
// the other, or they are equal), then the first two that conflict (they
// part where one has a name and the other an index). All pairs are
// checked for overlaps before any for conflicts: dynalite's tests show
// DynamoDB reporting the overlap in "set d[1] = a, d.b = a, c[1].a = a,
// #c = ..." although d[1] and d.b conflict earlier. Path one is the one
// written first.
func checkPaths(w wording, paths [][]PathElem, b *binding) *attr.Error {
	for j := 1; j < len(paths); j++ {
		for i := 0; i < j; i++ {
			if rel := relate(paths[i], paths[j], b); rel == relOverlap {
				return w.err("Two document paths overlap with each other; must remove or rewrite one of these paths; path one: " +
					pathString(paths[i], b) + ", path two: " + pathString(paths[j], b))
			}
		}
	}
	for j := 1; j < len(paths); j++ {
		for i := 0; i < j; i++ {
			if rel := relate(paths[i], paths[j], b); rel == relConflict {
				return w.err("Two document paths conflict with each other; must remove or rewrite one of these paths; path one: " +
					pathString(paths[i], b) + ", path two: " + pathString(paths[j], b))
			}
		}
	}
	return nil
}

const (
	relDisjoint = iota
	relOverlap
	relConflict
)

func relate(a, c []PathElem, b *binding) int {
	n := min(len(a), len(c))
	for i := 0; i < n; i++ {
		x, y := &a[i], &c[i]
		if x.IsIndex != y.IsIndex {
			return relConflict
		}
		if x.IsIndex {
			if x.Index != y.Index {
				return relDisjoint
			}
		} else if b.name(x) != b.name(y) {
			return relDisjoint
		}
	}
	return relOverlap
}

// checkUpdate runs the update checks that follow placeholder resolution,
// in DynamoDB's order (dynalite's updateItem tests): ADD and DELETE value
// types, then overlapping and conflicting paths, then the functions and
// arithmetic of SET values.
func checkUpdate(p *parsed, b *binding) *attr.Error {
	w := p.wording()
	for i := range p.actions {
		a := &p.actions[i]
		if a.Kind != ActionAdd && a.Kind != ActionDelete {
			continue
		}
		t := b.values[a.Value.Value].Type
		ok := t == attr.TypeSS || t == attr.TypeNS || t == attr.TypeBS || (a.Kind == ActionAdd && t == attr.TypeN)
		if !ok {
			// "Invalid UpdateExpression: Incorrect operand type for
			// operator or function; operator: ADD, operand type: STRING,
			// typeSet: ALLOWED_FOR_ADD_OPERAND" (reported against
			// DynamoDB in several SDK and library issues).
			return w.err("Incorrect operand type for operator or function; operator: " + a.Kind.String() +
				", operand type: " + longTypeName(t) + ", typeSet: ALLOWED_FOR_" + a.Kind.String() + "_OPERAND")
		}
	}
	if err := checkPaths(w, p.actionPaths, b); err != nil {
		return err
	}
	for i := range p.actions {
		if a := &p.actions[i]; a.Kind == ActionSet {
			if _, err := checkSetOperand(a.Value, b, w); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkSetOperand checks the functions and arithmetic of a SET value and
// returns the value's type when it is known before evaluation ("" if not).
func checkSetOperand(o *Operand, b *binding, w wording) (string, *attr.Error) {
	switch o.Kind {
	case OperandValue:
		return b.values[o.Value].Type.String(), nil
	case OperandPath:
		return "", nil
	case OperandPlus, OperandMinus:
		op := "+"
		if o.Kind == OperandMinus {
			op = "-"
		}
		var types [2]string
		for i, a := range o.Args {
			t, err := checkSetOperand(a, b, w)
			if err != nil {
				return "", err
			}
			types[i] = t
		}
		for _, t := range types {
			if t != "" && t != "N" {
				return "", operandTypeErr(w, op, t)
			}
		}
		return "N", nil
	}
	// OperandFunc: if_not_exists or list_append (others are static errors).
	types := make([]string, len(o.Args))
	for i, a := range o.Args {
		t, err := checkSetOperand(a, b, w)
		if err != nil {
			return "", err
		}
		types[i] = t
	}
	if len(o.Args) != funcArity[o.fn] {
		return "", operandCountErr(w, o.Func, len(o.Args))
	}
	if o.fn == fnIfNotExists {
		if o.Args[0].Kind != OperandPath {
			return "", needsPathErr(w, o.Func)
		}
		return "", nil
	}
	for _, t := range types {
		if t != "" && t != "L" {
			return "", operandTypeErr(w, o.Func, t)
		}
	}
	return "L", nil
}
