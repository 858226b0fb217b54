package engine

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/internal/partiql"
)

// This file turns the parts of a parsed PartiQL statement into what the
// item operations take: attribute values for literals and parameters, and
// DynamoDB expressions (with ExpressionAttributeNames and Values
// placeholders) for conditions, projections and updates. A statement thus
// runs through exactly the code, the checks and the bill of the operation
// it stands for.

// qlError turns a parser error into a ValidationException.
func qlError(err error) error {
	var pe *partiql.Error
	if errors.As(err, &pe) {
		return Validation(pe.Message)
	}
	return err
}

// binder converts literals and parameters to attribute values.
type binder struct {
	params []attr.Value
}

// bindParams validates the parameters in order, as DynamoDB does before
// it reads the statement's literals.
func bindParams(params []attr.Value, want int) (*binder, error) {
	b := &binder{}
	if err := b.bind(params, want); err != nil {
		return nil, err
	}
	return b, nil
}

// bind is bindParams into b.
func (b *binder) bind(params []attr.Value, want int) error {
	for i := range params {
		if err := qlParamError(&params[i]); err != nil {
			return err
		}
	}
	if len(params) != want {
		return Validation(msgQLParamCount)
	}
	b.params = params
	return nil
}

// qlParamError checks v, a parameter, and canonicalizes its numbers in
// place. It reports the first problem in document order: DynamoDB "reports
// whichever it reaches first in document order"
// (paritysuite/dynamodb-conformance,
// tests/tier3/error-messages/partiqlParameterNumbers.test.ts, eu-west-2 and
// us-east-1, October 2026: a member of a map nested 40 or 100 levels before
// an unconvertible one, and the reverse). A list's elements are checked in
// order; a map's members in key order, as a Go map keeps no other: the
// protocol decoder leaves in a map only the first member with a problem in
// the request's order (engine.QLParamLeafFails), so the key order then
// picks that one. A first walk takes the maps in their own order (cheap);
// only on failure does a second, in key order, pick the problem, repeating
// idempotent rewrites only.
func qlParamError(v *attr.Value) error {
	if err := qlValueCheck(v, 1, false); err != nil {
		if err2 := qlValueCheck(v, 1, true); err2 != nil {
			return err2
		}
		return err
	}
	return nil
}

// qlValueCheck checks v at level (a parameter is at level 1), walking
// maps in key order if sorted.
func qlValueCheck(v *attr.Value, level int, sorted bool) error {
	if level > attr.MaxDepth {
		return attrError(&attr.Error{Message: attr.MsgNestingTooDeep, Current: attr.MsgNestingTooDeep})
	}
	switch v.Type {
	case attr.TypeM:
		return qlMembersError(v.M, level, sorted)
	case attr.TypeL:
		for i := range v.L {
			if err := qlValueCheck(&v.L[i], level+1, sorted); err != nil {
				return err
			}
		}
		return nil
	}
	return qlLeafError(v)
}

// qlMembersError checks the members of a map at level, in key order if
// sorted.
func qlMembersError(m map[string]attr.Value, level int, sorted bool) error {
	visit := func(k string) error {
		if len(k) > attr.MaxAttributeNameSize {
			return attrError(&attr.Error{Message: attr.MsgAttributeNameTooLarge})
		}
		e := m[k]
		old := e.S
		if err := qlValueCheck(&e, level+1, sorted); err != nil {
			return err
		}
		if e.Type == attr.TypeN && e.S != old {
			m[k] = e // nested maps and slices are shared with m's copy
		}
		return nil
	}
	for k := range attr.MemberKeys(m, sorted) {
		if err := visit(k); err != nil {
			return err
		}
	}
	return nil
}

// qlLeafError checks a parameter's value that is neither a map nor a list
// (or a marker of the protocol decoder's, attr.Malformed) and canonicalizes
// its numbers in place: a number DynamoDB cannot read as a BigDecimal, then
// one whose magnitude check wraps, then the value checks of an item's
// values.
func qlLeafError(v *attr.Value) error {
	if v.Type == attr.TypeN && canonicalInteger(v.S) {
		return nil // fits, and Canonicalize would leave it as it is
	}
	if text, ok := unconvertible(*v); ok {
		return Validation(attr.MsgNumberSyntax + ": " + text)
	}
	if magnitudeWraps(*v) {
		return Validation(attr.MsgNumberUnderflow)
	}
	return attrError(v.Canonicalize())
}

// QLParamLeafFails reports whether a PartiQL parameter's value v, neither
// a map nor a list, or a marker of the protocol decoder's, is one whose
// binding fails, leaving v as it is. The protocol decoder uses it to find
// a map parameter's first member with a problem in document order
// (qlParamError).
func QLParamLeafFails(v attr.Value) bool {
	if v.Type == attr.TypeNS {
		v.SS = slices.Clone(v.SS) // Canonicalize rewrites members in place
	}
	return qlLeafError(&v) != nil
}

// canonicalInteger reports a number written as Canonicalize writes it,
// an integer of at most 38 digits without leading zeros ("0", "507",
// "-12"): the common parameter, which needs no work.
func canonicalInteger(s string) bool {
	d := s
	if len(d) > 0 && d[0] == '-' {
		d = d[1:]
		if d == "0" {
			return false
		}
	}
	if len(d) == 0 || len(d) > 38 || d[0] == '0' && len(d) > 1 {
		return false
	}
	for i := 0; i < len(d); i++ {
		if d[i] < '0' || d[i] > '9' {
			return false
		}
	}
	return true
}

// unconvertible finds a number in v, an N or NS value, that DynamoDB
// cannot read as a BigDecimal (recorded: partiqlParameterNumbers.test.ts).
func unconvertible(v attr.Value) (string, bool) {
	switch v.Type {
	case attr.TypeN:
		return v.S, v.S != "" && !partiql.NumberFits(v.S)
	case attr.TypeNS:
		for _, s := range v.SS {
			if s != "" && !partiql.NumberFits(s) {
				return s, true
			}
		}
	}
	return "", false
}

// magnitudeWraps finds a number in v that DynamoDB calls an underflow
// although it is far too large: it checks a parameter's magnitude as
// precision less scale in 32-bit arithmetic, and for an exponent near
// 2^31 that sum wraps negative, so 1e2147483647 is an underflow where
// 1e2147483646 is an overflow (recorded: partiqlParameterNumbers.test.ts,
// "the parameter 1e2147483647 in %s underflows"). v holds only numbers
// that unconvertible passed, whose exponent and scale fit 32 bits.
func magnitudeWraps(v attr.Value) bool {
	switch v.Type {
	case attr.TypeN:
		return numberWraps(v.S)
	case attr.TypeNS:
		return slices.ContainsFunc(v.SS, numberWraps)
	}
	return false
}

// numberWraps reports a number whose precision (the digits of its
// unscaled value) less its scale (the digits after the point less the
// exponent) is above the largest 32-bit integer.
func numberWraps(s string) bool {
	mant, exp, ok := strings.Cut(strings.ToLower(s), "e")
	if !ok {
		return false
	}
	e, err := strconv.ParseInt(strings.TrimPrefix(exp, "+"), 10, 64)
	if err != nil {
		return false
	}
	whole, frac, _ := strings.Cut(strings.TrimLeft(mant, "+-"), ".")
	digits := strings.TrimLeft(whole+frac, "0")
	if digits == "" {
		return false // zero has no magnitude to check
	}
	return int64(len(digits))-(int64(len(frac))-e) > math.MaxInt32
}

// value converts e, found under at ("root", "root.k", "root[1]"), to an
// attribute value.
func (b *binder) value(e partiql.Expr, at string) (attr.Value, error) {
	switch x := e.(type) {
	case *partiql.Literal:
		switch x.Kind {
		case partiql.LitString:
			return attr.S(x.Text), nil
		case partiql.LitNumber:
			n, err := attr.NormalizeNumber(x.Text)
			if err != nil {
				return attr.Value{}, Validation(err.Error() + " under " + at)
			}
			return attr.N(n), nil
		case partiql.LitBool:
			return attr.Bool(x.Bool), nil
		case partiql.LitNull:
			return attr.Value{Type: attr.TypeNULL, Bool: true}, nil
		case partiql.LitMissing:
			return attr.Value{}, Validation(msgQLMissingLiteral)
		}
	case *partiql.Param:
		return b.params[x.N], nil
	case *partiql.List:
		l := make([]attr.Value, len(x.Elems))
		for i, el := range x.Elems {
			v, err := b.value(el, at+"["+strconv.Itoa(i)+"]")
			if err != nil {
				return attr.Value{}, err
			}
			l[i] = v
		}
		return attr.Value{Type: attr.TypeL, L: l}, nil
	case *partiql.Map:
		return b.mapValue(x, at)
	case *partiql.Bag:
		return b.bag(x, at)
	case *partiql.Call:
		return attr.Value{}, Validation(msgQLUnsupportedType(x.Name, at) + partiql.At(x.Pos))
	}
	return attr.Value{}, Validation(msgQLUnsupportedType(exprName(e), at))
}

// mapValue converts a tuple literal to an M value.
func (b *binder) mapValue(x *partiql.Map, at string) (attr.Value, error) {
	m := make(map[string]attr.Value, len(x.Keys))
	for i, k := range x.Keys {
		key, ok := k.(*partiql.Literal)
		if !ok || key.Kind != partiql.LitString {
			return attr.Value{}, Validation(msgQLTupleKeyType(exprName(k), at))
		}
		if _, dup := m[key.Text]; dup {
			return attr.Value{}, Validation(msgQLDuplicateTupleKey(key.Text, at))
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
func (b *binder) bag(x *partiql.Bag, at string) (attr.Value, error) {
	if len(x.Elems) == 0 {
		return attr.Value{}, Validation(msgQLEmptyBag)
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
			return attr.Value{}, Validation(msgQLBagType)
		}
		if i == 0 {
			out.Type = t
		} else if out.Type != t {
			return attr.Value{}, Validation(msgQLBagType)
		}
		if t == attr.TypeBS {
			out.BS = append(out.BS, v.B)
		} else {
			out.SS = append(out.SS, v.S)
		}
	}
	if err := out.Canonicalize(); err != nil {
		return attr.Value{}, attrError(err)
	}
	return out, nil
}

// exprName names an expression's kind for messages.
func exprName(e partiql.Expr) string {
	switch x := e.(type) {
	case *partiql.Path:
		return "path"
	case *partiql.Literal:
		switch x.Kind {
		case partiql.LitNumber:
			return "DECIMAL"
		case partiql.LitBool:
			return "BOOL"
		case partiql.LitNull:
			return "NULL"
		case partiql.LitMissing:
			return "MISSING"
		}
		return "STRING"
	case *partiql.Call:
		return x.Name
	case *partiql.Binary:
		return x.Op
	}
	return "expression"
}

// exprText builds one request's expressions, sharing their placeholders.
//
// In template mode (tmpl) the values are recorded in vals instead of
// values, a parameter as its number, so that the text can be kept with
// the statement's plan and each request binds only its parameters
// (qlTemplate). A value that is a list, map or set holding a parameter
// is bound for this request and marks the text noCache; so is any value
// that is not a scalar, which the operation could canonicalize in place.
type exprText struct {
	names  map[string]string
	nameIx map[string]string
	values attr.Item
	b      *binder

	tmpl    bool
	vals    []qlVal
	nv      int
	noCache bool
}

// qlVal is a placeholder of a template: a parameter (src >= 0), the
// partition key value of a Query (srcHash) or a constant (srcConst, v).
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
	if x.tmpl {
		switch v.Type {
		case attr.TypeS, attr.TypeN, attr.TypeBOOL, attr.TypeNULL:
		default:
			x.noCache = true
		}
		x.vals = append(x.vals, qlVal{ph: ph, src: srcConst, v: v})
		return ph
	}
	if x.values == nil {
		x.values = attr.Item{}
	}
	x.values[ph] = v
	return ph
}

// path writes a document path with placeholders.
func (x *exprText) path(p *partiql.Path) string {
	var sb strings.Builder
	for i, el := range p.Elems {
		switch {
		case el.IsIndex:
			sb.WriteString("[" + strconv.Itoa(el.Index) + "]")
		case i == 0:
			sb.WriteString(x.name(el.Name))
		default:
			sb.WriteString("." + x.name(el.Name))
		}
	}
	return sb.String()
}

// projection writes a SELECT's projection, or "" for *.
func (x *exprText) projection(st *partiql.Statement) string {
	if st.Star {
		return ""
	}
	parts := make([]string, len(st.Projection))
	for i, p := range st.Projection {
		parts[i] = x.path(p)
	}
	return strings.Join(parts, ", ")
}

// operand writes an operand of a condition.
func (x *exprText) operand(e partiql.Expr) (string, error) {
	switch y := e.(type) {
	case *partiql.Path:
		return x.path(y), nil
	case *partiql.Literal:
		if y.Kind == partiql.LitMissing {
			return "", Validation(msgQLMissingLiteral)
		}
	case *partiql.Call:
		if y.Name == "size" {
			if len(y.Args) != 1 {
				return "", Validation(msgQLOperands("size", len(y.Args)))
			}
			a, err := x.operand(y.Args[0])
			if err != nil {
				return "", err
			}
			return "size(" + a + ")", nil
		}
		return "", Validation(msgQLUnrecognizedFunction(y.Name) + partiql.At(y.Pos))
	case *partiql.Binary:
		return "", Validation(msgQLConditionOp(y.Op))
	case *partiql.Neg:
		return "", Validation(msgQLConditionOp("-"))
	}
	if !partiql.IsValue(e) {
		return "", Validation(msgQLConditionOp(exprName(e)))
	}
	if x.tmpl {
		if p, ok := e.(*partiql.Param); ok {
			return x.slot(p.N), nil
		}
	}
	v, err := x.b.value(e, "root")
	if err != nil {
		return "", err
	}
	return x.value(v), nil
}

// isTypes maps the type names of IS to DynamoDB's attribute types.
var isTypes = map[string]string{
	"BOOL": "BOOL", "BOOLEAN": "BOOL",
	"STRING": "S", "VARCHAR": "S", "CHAR": "S", "CHARACTER VARYING": "S", "CHARACTER": "S", "SYMBOL": "S",
	"NUMERIC": "N", "DECIMAL": "N", "DEC": "N", "INT": "N", "INTEGER": "N", "INT2": "N", "INT4": "N", "INT8": "N",
	"SMALLINT": "N", "BIGINT": "N", "FLOAT": "N", "REAL": "N", "DOUBLE PRECISION": "N",
	"BLOB": "B", "STRUCT": "M", "TUPLE": "M", "LIST": "L",
}

// cond writes a condition.
func (x *exprText) cond(e partiql.Expr) (string, error) {
	switch y := e.(type) {
	case *partiql.Binary:
		switch y.Op {
		case "AND", "OR":
			l, err := x.cond(y.L)
			if err != nil {
				return "", err
			}
			r, err := x.cond(y.R)
			if err != nil {
				return "", err
			}
			return "(" + l + ") " + y.Op + " (" + r + ")", nil
		case "=", "<>", "<", "<=", ">", ">=":
			if c, ok := boolTest(y); ok {
				return x.cond(c)
			}
			l, err := x.operand(y.L)
			if err != nil {
				return "", err
			}
			r, err := x.operand(y.R)
			if err != nil {
				return "", err
			}
			return l + " " + y.Op + " " + r, nil
		}
		return "", Validation(msgQLConditionOp(y.Op))
	case *partiql.Not:
		c, err := x.cond(y.X)
		if err != nil {
			return "", err
		}
		return "NOT (" + c + ")", nil
	case *partiql.Between:
		parts := make([]string, 3)
		for i, o := range []partiql.Expr{y.X, y.Lo, y.Hi} {
			s, err := x.operand(o)
			if err != nil {
				return "", err
			}
			parts[i] = s
		}
		s := parts[0] + " BETWEEN " + parts[1] + " AND " + parts[2]
		if y.Negated {
			s = "NOT (" + s + ")"
		}
		return s, nil
	case *partiql.In:
		if _, ok := y.X.(*partiql.Path); !ok || !y.Seq || len(y.List) == 0 {
			return "", Validation(msgQLInOperator)
		}
		l, _ := x.operand(y.X)
		vals := make([]string, len(y.List))
		for i, o := range y.List {
			s, err := x.operand(o)
			if err != nil {
				return "", err
			}
			vals[i] = s
		}
		s := l + " IN (" + strings.Join(vals, ", ") + ")"
		if y.Negated {
			s = "NOT (" + s + ")"
		}
		return s, nil
	case *partiql.Is:
		p, ok := y.X.(*partiql.Path)
		if !ok {
			return "", Validation(msgQLIsOperand)
		}
		ph := x.path(p)
		var s string
		switch y.Type {
		case "MISSING":
			s = "attribute_not_exists(" + ph + ")"
			if y.Negated {
				s = "attribute_exists(" + ph + ")"
			}
			return s, nil
		case "NULL":
			// PartiQL: a MISSING value IS NULL too.
			t := x.value(attr.S("NULL"))
			if y.Negated {
				return "attribute_exists(" + ph + ") AND NOT attribute_type(" + ph + ", " + t + ")", nil
			}
			return "attribute_not_exists(" + ph + ") OR attribute_type(" + ph + ", " + t + ")", nil
		}
		typ, ok := isTypes[y.Type]
		if !ok {
			return "", Validation(msgQLIsType(y.Type))
		}
		s = "attribute_type(" + ph + ", " + x.value(attr.S(typ)) + ")"
		if y.Negated {
			s = "NOT " + s
		}
		return s, nil
	case *partiql.Call:
		return x.call(y)
	}
	return "", Validation(msgQLWhereBoolean)
}

// boolTest rewrites `f(...) = TRUE` and its variants, where f is a
// condition function, as the condition itself or its negation.
func boolTest(b *partiql.Binary) (partiql.Expr, bool) {
	if b.Op != "=" && b.Op != "<>" {
		return nil, false
	}
	call, lit := b.L, b.R
	if _, ok := call.(*partiql.Call); !ok {
		call, lit = b.R, b.L
	}
	c, ok := call.(*partiql.Call)
	l, isLit := lit.(*partiql.Literal)
	if !ok || !isLit || l.Kind != partiql.LitBool {
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
	return &partiql.Not{X: c, Pos: b.Pos}, true
}

// call writes a function of a condition.
func (x *exprText) call(c *partiql.Call) (string, error) {
	switch c.Name {
	case "attribute_exists", "attribute_not_exists":
		if len(c.Args) != 1 {
			return "", Validation(msgQLOperands(c.Name, len(c.Args)))
		}
		p, ok := c.Args[0].(*partiql.Path)
		if !ok {
			return "", Validation(msgQLNeedsPath(c.Name))
		}
		return c.Name + "(" + x.path(p) + ")", nil
	case "begins_with", "contains", "attribute_type":
		if len(c.Args) != 2 {
			return "", Validation(msgQLOperands(c.Name, len(c.Args)))
		}
		a, err := x.operand(c.Args[0])
		if err != nil {
			return "", err
		}
		b, err := x.operand(c.Args[1])
		if err != nil {
			return "", err
		}
		return c.Name + "(" + a + ", " + b + ")", nil
	}
	return "", Validation(msgQLUnrecognizedFunction(c.Name) + partiql.At(c.Pos))
}

// and joins conditions with AND.
func and(parts []string) string {
	if len(parts) == 1 {
		return parts[0]
	}
	for i, p := range parts {
		parts[i] = "(" + p + ")"
	}
	return strings.Join(parts, " AND ")
}

// errIncompleteKey is the one error of a WHERE without the whole key.
var errIncompleteKey = Validation(msgQLIncompleteKey)

// whereKey finds a write's key in its WHERE: one equality for each key
// attribute. It returns the key and the other conjuncts.
func (x *exprText) whereKey(t *table, where partiql.Expr) (attr.Item, []partiql.Expr, error) {
	key := attr.Item{}
	var rest []partiql.Expr
	names := []string{t.hashName}
	if t.rangeName != "" {
		names = append(names, t.rangeName)
	}
	for _, c := range partiql.Conjuncts(where, nil) {
		matched := false
		for _, n := range names {
			v := partiql.KeyEquality(c, n)
			if v == nil {
				continue
			}
			if _, dup := key[n]; dup {
				return nil, nil, Validation(msgQLMultipleKeyConditions(n))
			}
			val, err := x.b.value(v, "root")
			if err != nil {
				return nil, nil, err
			}
			key[n] = val
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

// update writes an UPDATE's actions as an UpdateExpression.
func (x *exprText) update(acts []partiql.Action) (string, error) {
	var set, remove, add, del []string
	for _, a := range acts {
		target := x.path(a.Path)
		if a.Value == nil {
			remove = append(remove, target)
			continue
		}
		if c, ok := a.Value.(*partiql.Call); ok && (c.Name == "set_add" || c.Name == "set_delete") {
			op := strings.ToUpper(strings.TrimPrefix(c.Name, "set_"))
			if len(c.Args) != 2 {
				return "", Validation(msgQLSetArgs(op) + partiql.At(c.Pos))
			}
			first, ok := c.Args[0].(*partiql.Path)
			if !ok || !samePath(first, a.Path) {
				return "", Validation(msgQLSetFirstArg(op) + partiql.At(c.Pos))
			}
			v, err := x.setOperand(c.Args[1])
			if err != nil {
				return "", err
			}
			if v.Type != attr.TypeSS && v.Type != attr.TypeNS && v.Type != attr.TypeBS {
				return "", Validation(msgQLSetSecondArg(op) + partiql.At(first.Pos))
			}
			if op == "ADD" {
				add = append(add, target+" "+x.value(v))
			} else {
				del = append(del, target+" "+x.value(v))
			}
			continue
		}
		v, err := x.updateValue(a.Value)
		if err != nil {
			return "", err
		}
		set = append(set, target+" = "+v)
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
	return strings.Join(parts, " "), nil
}

// setOperand converts the second argument of set_add or set_delete; a
// value that is not a set is reported by the caller.
func (x *exprText) setOperand(e partiql.Expr) (attr.Value, error) {
	if !partiql.IsValue(e) {
		return attr.Value{}, nil
	}
	return x.b.value(e, "root")
}

// samePath reports whether two paths are the same.
func samePath(a, b *partiql.Path) bool {
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
func (x *exprText) updateValue(e partiql.Expr) (string, error) {
	switch y := e.(type) {
	case *partiql.Path:
		return x.path(y), nil
	case *partiql.Binary:
		if y.Op != "+" && y.Op != "-" {
			return "", Validation(msgQLUpdateOp(y.Op))
		}
		l, err := x.updateValue(y.L)
		if err != nil {
			return "", err
		}
		r, err := x.updateValue(y.R)
		if err != nil {
			return "", err
		}
		return l + " " + y.Op + " " + r, nil
	case *partiql.Call:
		switch y.Name {
		case "list_append", "if_not_exists":
			args := make([]string, len(y.Args))
			for i, a := range y.Args {
				s, err := x.updateValue(a)
				if err != nil {
					return "", err
				}
				args[i] = s
			}
			return y.Name + "(" + strings.Join(args, ", ") + ")", nil
		}
		return "", Validation(msgQLUnrecognizedFunction(y.Name) + partiql.At(y.Pos))
	case *partiql.Is:
		return "", Validation(msgQLIsInUpdate)
	}
	if !partiql.IsValue(e) {
		return "", Validation(msgQLUpdateOp(exprName(e)))
	}
	v, err := x.b.value(e, "root")
	if err != nil {
		return "", err
	}
	return x.value(v), nil
}

// item converts an INSERT's VALUE to an item.
func (b *binder) item(e partiql.Expr) (attr.Item, error) {
	switch x := e.(type) {
	case *partiql.Map:
		it := make(attr.Item, len(x.Keys))
		for i, k := range x.Keys {
			key, ok := k.(*partiql.Literal)
			if !ok || key.Kind != partiql.LitString {
				return nil, Validation(msgQLTupleKeyType(exprName(k), "root"))
			}
			if _, dup := it[key.Text]; dup {
				return nil, Validation(msgQLDuplicateTupleKey(key.Text, "root"))
			}
			v, err := b.value(x.Vals[i], "root")
			if err != nil {
				return nil, err
			}
			it[key.Text] = v
		}
		return it, nil
	case *partiql.Param:
		if v := b.params[x.N]; v.Type == attr.TypeM {
			it := make(attr.Item, len(v.M))
			for k, val := range v.M {
				it[k] = val
			}
			return it, nil
		}
	}
	return nil, Validation(msgQLInsertFormat)
}

// checkInsertKey checks an INSERT's item for its table's key.
func checkInsertKey(t *table, it attr.Item) error {
	names := []string{t.hashName}
	types := []attr.Type{t.hashType}
	if t.rangeName != "" {
		names, types = append(names, t.rangeName), append(types, t.rangeType)
	}
	for i, n := range names {
		v, ok := it[n]
		if !ok {
			return Validation(msgQLKeyAbsent(n))
		}
		if v.Type != types[i] {
			return Validation(msgQLKeyType(n))
		}
	}
	return nil
}
