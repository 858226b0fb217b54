package engine

import (
	"slices"
	"strings"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/internal/expr"
	"github.com/dynago/dynago/internal/keys"
)

// Translation of a KeyConditionExpression into a keyCondition. The
// expression package parses and binds it like any condition; the rules
// that make it a key condition live here. DynamoDB checks them in two
// steps: the shape of the expression (operators, operands, one condition
// per key) before it looks the table up, the key schema after. Within
// the first step, a disallowed operator anywhere is reported first, then
// each condition in the order written.
//
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Query.KeyConditionExpressions.html

// keyCondition is a Query's key condition on the key of the keyspace it
// reads (the table's, index 0, or a secondary index's), however it was
// written: every HASH value, equality on the leading RANGE attributes (of
// a multi-attribute key), and an optional condition on the next one.
type keyCondition struct {
	pk, eq keyTuple
	op     keys.Op // keys.OpAny: no condition beyond eq
	a, b   attr.Value
}

// keyTuple holds the values of up to maxIndexKeyAttrsEach key attributes
// in place, so that a key condition or a start key allocates nothing.
type keyTuple struct {
	n int
	v [maxIndexKeyAttrsEach]attr.Value
}

func (kt *keyTuple) add(v attr.Value) { kt.v[kt.n] = v; kt.n++ }

func (kt *keyTuple) values() []attr.Value { return kt.v[:kt.n] }

// keyCondition checks a Query's key condition, compiled (x.key, its parts
// already checked for shape) or legacy (KeyConditions), against ix's key.
//
// On a single-attribute key DynamoDB walks the key's attributes, HASH
// then RANGE, and checks for each the start key's value (esk, when
// given: startKeyPiece) before that attribute's condition, so a start
// key without the HASH attribute is reported before a condition that
// misses it, and a RANGE condition's problem before the start key's
// RANGE value (dynalite's test/query.js against DynamoDB, "if
// ExclusiveStartKey does not match hash schema", "if hash in
// ExclusiveStartKey but not in query", "if hash in ExclusiveStartKey and
// KeyConditions but range has incorrect schema"). A multi-attribute key's
// start key is checked after its condition.
func (ix *index) keyCondition(compiled bool, parts []keyPart, legacy map[string]dynamo.Condition, esk attr.Item) (keyCondition, error) {
	if ix.multi() {
		if !compiled {
			var err error
			if parts, err = legacyParts(legacy); err != nil {
				return keyCondition{}, err
			}
		}
		return ix.multiKeyCondition(parts)
	}
	if compiled {
		return ix.keyConditionFromParts(parts, esk)
	}
	return ix.legacyKeyCondition(legacy, esk)
}

// startKeyPiece checks esk's value of key attribute a, when there is a
// start key: there ("The provided starting key is invalid") and of a's
// type ("The provided key element does not match the schema", bare).
func startKeyPiece(esk attr.Item, a keyAttr) error {
	if esk == nil {
		return nil
	}
	v, ok := esk[a.name]
	if !ok {
		return dynamo.Validation(dynamo.MsgStartKeyInvalid)
	}
	if v.Type != a.typ {
		return errKeySchema
	}
	return nil
}

// hashKey and rangeKey are a single-attribute key's attributes; rangeKey
// is the zero keyAttr (no name) when the key has no RANGE attribute.
func (ix *index) hashKey() keyAttr { return ix.hash[0] }

func (ix *index) rangeKey() keyAttr {
	if len(ix.rng) == 0 {
		return keyAttr{}
	}
	return ix.rng[0]
}

// keyPart is one condition on one key attribute.
type keyPart struct {
	name string
	op   keys.Op
	a, b attr.Value
}

// keyConditionParts checks the shape of a compiled KeyConditionExpression,
// which needs no key schema, and returns its conditions in the order
// written.
func keyConditionParts(c *expr.Condition) ([]keyPart, error) {
	if op := invalidKeyOperator(c.Root()); op != "" {
		return nil, dynamo.Validation(msgKeyInvalidOperator(op))
	}
	var parts []keyPart
	var walk func(n *expr.Cond) error
	walk = func(n *expr.Cond) error {
		if n.Kind == expr.CondAnd {
			if err := walk(n.Left); err != nil {
				return err
			}
			return walk(n.Right)
		}
		p, err := keyPartOf(c, n)
		if err != nil {
			return err
		}
		parts = append(parts, p)
		return nil
	}
	if err := walk(c.Root()); err != nil {
		return nil, err
	}
	seen := make(map[string]bool, len(parts))
	for _, p := range parts {
		if seen[p.name] {
			return nil, dynamo.Validation(msgKeyOneConditionPerKey)
		}
		seen[p.name] = true
	}
	return parts, nil
}

// invalidKeyOperator returns the first operator or function (in
// pre-order) a key condition may not use, or "".
func invalidKeyOperator(n *expr.Cond) string {
	switch n.Kind {
	case expr.CondAnd:
		if op := invalidKeyOperator(n.Left); op != "" {
			return op
		}
		return invalidKeyOperator(n.Right)
	case expr.CondOr:
		return "OR"
	case expr.CondNot:
		return "NOT"
	case expr.CondIn:
		return "IN"
	case expr.CondCompare:
		if n.Op == expr.OpNE {
			return "<>"
		}
	case expr.CondFunc:
		if n.Func != "begins_with" {
			return n.Func
		}
	}
	return ""
}

// keyConditionFromParts checks a key condition's parts against a
// single-attribute key and returns the key condition, each attribute's
// start key value (startKeyPiece) before its condition. The HASH
// condition's operand type is checked before its operator (dynalite's
// test/query.js against DynamoDB, "mismatching param type": ":a > a"
// with a number on a string key).
func (ix *index) keyConditionFromParts(parts []keyPart, esk attr.Item) (keyCondition, error) {
	var kc keyCondition
	h, r := ix.hashKey(), ix.rangeKey()
	nkeys := 1
	if r.name != "" {
		nkeys = 2
	}
	if len(parts) > nkeys {
		return kc, dynamo.Validation(msgTooManyConditions(len(parts), nkeys))
	}
	var hash, rng *keyPart
	for i := range parts {
		switch parts[i].name {
		case h.name:
			hash = &parts[i]
		case r.name:
			rng = &parts[i]
		}
	}
	if err := startKeyPiece(esk, h); err != nil {
		return kc, err
	}
	if hash == nil {
		return kc, dynamo.Validation(msgMissedKeyElement(h.name))
	}
	if hash.a.Type != h.typ || (hash.op == keys.OpBetween && hash.b.Type != h.typ) {
		return kc, dynamo.Validation(msgKeyTypeMismatch)
	}
	if hash.op != keys.OpEQ {
		return kc, dynamo.Validation(msgKeyConditionNotSupp)
	}
	if err := checkKeyValue(h.name, hash.a, true, msgEmptyKeyItem); err != nil {
		return kc, err
	}
	kc.pk.add(hash.a)
	if r.name == "" {
		return kc, nil
	}
	if err := startKeyPiece(esk, r); err != nil {
		return kc, err
	}
	if len(parts) == 2 && rng == nil {
		return kc, dynamo.Validation(msgMissedKeyElement(r.name))
	}
	if rng == nil {
		return kc, nil
	}
	if rng.a.Type != r.typ || (rng.op == keys.OpBetween && rng.b.Type != r.typ) {
		return kc, dynamo.Validation(msgKeyTypeMismatch)
	}
	if rng.op == keys.OpBeginsWith && r.typ == attr.TypeN {
		// Unreachable through expressions, whose begins_with refuses a
		// number operand before this; kept for safety.
		return kc, dynamo.Validation(msgKeyOperandType("begins_with", "N"))
	}
	kc.op, kc.a, kc.b = rng.op, rng.a, rng.b
	return kc, nil
}

// legacyKeyCondition turns the legacy KeyConditions parameter into a key
// condition on a single-attribute key, with DynamoDB's checks in
// DynamoDB's order: operand counts and the number of conditions, then
// each key attribute, HASH then RANGE: its start key value
// (startKeyPiece), a condition on it, its operator indexable, its
// operands' type, and equality on the HASH attribute. A condition on an
// attribute outside the key is reported as the key attribute it leaves
// without one ("Query condition missed key schema element"), or, beside
// the HASH condition of a key without RANGE, as "Query key condition not
// supported" (dynalite's test/query.js against DynamoDB: "if hash in
// ExclusiveStartKey but not in query", "for missing range element",
// "if querying with unsupported conditions", "for unsupported comparison
// on range").
//
// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_Query.html#DDB-Query-request-KeyConditions
func (ix *index) legacyKeyCondition(conds map[string]dynamo.Condition, esk attr.Item) (keyCondition, error) {
	var kc keyCondition
	h, r := ix.hashKey(), ix.rangeKey()
	names := sortedConditionNames(conds)
	for _, name := range names {
		cond := conds[name]
		if err := expr.CheckOperandCount(cond.ComparisonOperator, len(cond.AttributeValueList)); err != nil {
			return kc, dynamo.AttrError(err)
		}
	}
	if len(conds) > 2 {
		return kc, dynamo.Validation(msgKeyConditionsLength)
	}
	ofType := func(c dynamo.Condition, t attr.Type) bool {
		for _, v := range c.AttributeValueList {
			if v.Type != t {
				return false
			}
		}
		return true
	}
	if err := startKeyPiece(esk, h); err != nil {
		return kc, err
	}
	if r.name == "" && len(conds) > 1 {
		return kc, dynamo.Validation(msgKeyConditionNotSupp)
	}
	hash, ok := conds[h.name]
	if !ok {
		return kc, dynamo.Validation(msgMissedKeyElement(h.name))
	}
	if _, ok := legacyKeyOps[hash.ComparisonOperator]; !ok {
		return kc, dynamo.Validation(msgKeyNotIndexable)
	}
	if !ofType(hash, h.typ) {
		return kc, dynamo.Validation(msgKeyTypeMismatch)
	}
	if hash.ComparisonOperator != "EQ" {
		return kc, dynamo.Validation(msgKeyConditionNotSupp)
	}
	if err := checkKeyValue(h.name, hash.AttributeValueList[0], true, msgEmptyKeyItem); err != nil {
		return kc, err
	}
	kc.pk.add(hash.AttributeValueList[0])
	if r.name == "" {
		return kc, nil
	}
	if err := startKeyPiece(esk, r); err != nil {
		return kc, err
	}
	rng, hasRange := conds[r.name]
	if !hasRange {
		if len(conds) > 1 {
			return kc, dynamo.Validation(msgMissedKeyElement(r.name))
		}
		return kc, nil
	}
	spec, ok := legacyKeyOps[rng.ComparisonOperator]
	if !ok {
		return kc, dynamo.Validation(msgKeyNotIndexable)
	}
	if !ofType(rng, r.typ) {
		return kc, dynamo.Validation(msgKeyTypeMismatch)
	}
	if spec.op == keys.OpBeginsWith && r.typ == attr.TypeN {
		return kc, dynamo.Validation("One or more parameter values were invalid: ComparisonOperator BEGINS_WITH is not valid for N AttributeValue type")
	}
	kc.op, kc.a = spec.op, rng.AttributeValueList[0]
	if spec.nargs == 2 {
		kc.b = rng.AttributeValueList[1]
	}
	return kc, nil
}

// multiKeyCondition checks the parts of a key condition on a
// multi-attribute index key: equality on every HASH attribute, and on
// the RANGE attributes left to right with no gap, only the last one
// allowed another operator. Legacy KeyConditions come here too
// (legacyParts): DynamoDB accepts them on these indexes, with the same
// rules (getmoto/moto tests/test_dynamodb/test_dynamodb_multi_attribute_gsi.py,
// marked aws_verified).
func (ix *index) multiKeyCondition(parts []keyPart) (keyCondition, error) {
	var ic keyCondition
	if n := len(ix.hash) + len(ix.rng); len(parts) > n {
		return ic, dynamo.Validation(msgTooManyConditions(len(parts), n))
	}
	byName := map[string]*keyPart{}
	for i := range parts {
		byName[parts[i].name] = &parts[i]
	}
	used := 0
	for _, a := range ix.hash {
		p := byName[a.name]
		if p == nil {
			return ic, dynamo.Validation(msgMissedKeyElement(a.name))
		}
		if p.op != keys.OpEQ {
			return ic, dynamo.Validation(msgKeyConditionNotSupp)
		}
		if p.a.Type != a.typ {
			return ic, dynamo.Validation(msgKeyTypeMismatch)
		}
		if err := checkKeyValue(a.name, p.a, true, msgEmptyKeyItem); err != nil {
			return ic, err
		}
		ic.pk.add(p.a)
		used++
	}
	// Every RANGE attribute named needs an equality on each one before
	// it (msgRangeNeedsEquality); so the RANGE attributes named are a
	// prefix of the key schema, all but the last compared for equality.
	rng := make([]*keyPart, len(ix.rng))
	for i, a := range ix.rng {
		rng[i] = byName[a.name]
	}
	for j := range rng {
		if rng[j] == nil {
			continue
		}
		for i := range j {
			if rng[i] == nil || rng[i].op != keys.OpEQ {
				return ic, dynamo.Validation(msgRangeNeedsEquality(ix.rng[i].name, ix.rng[j].name))
			}
		}
	}
	for i, a := range ix.rng {
		p := rng[i]
		if p == nil {
			break
		}
		used++
		if p.a.Type != a.typ || (p.op == keys.OpBetween && p.b.Type != a.typ) {
			return ic, dynamo.Validation(msgKeyTypeMismatch)
		}
		if p.op == keys.OpEQ {
			ic.eq.add(p.a)
			continue
		}
		if p.op == keys.OpBeginsWith && a.typ == attr.TypeN {
			return ic, dynamo.Validation(msgKeyOperandType("begins_with", "N"))
		}
		ic.op, ic.a, ic.b = p.op, p.a, p.b
	}
	if used != len(parts) {
		for _, p := range parts {
			if !slices.ContainsFunc(append(slices.Clone(ix.hash), ix.rng...), func(a keyAttr) bool { return a.name == p.name }) {
				return ic, dynamo.Validation(msgMissedKeyElement(firstMissing(ix, byName)))
			}
		}
	}
	// The last equality is the condition on its element when nothing
	// follows: SortKeyRange treats eq as a prefix either way.
	return ic, nil
}

func firstMissing(ix *index, byName map[string]*keyPart) string {
	for _, a := range append(slices.Clone(ix.hash), ix.rng...) {
		if byName[a.name] == nil {
			return a.name
		}
	}
	return ix.hash[0].name
}

// legacyParts turns legacy KeyConditions into key parts, for a
// multi-attribute index.
func legacyParts(conds map[string]dynamo.Condition) ([]keyPart, error) {
	var parts []keyPart
	for _, name := range sortedConditionNames(conds) {
		cond := conds[name]
		if err := expr.CheckOperandCount(cond.ComparisonOperator, len(cond.AttributeValueList)); err != nil {
			return nil, dynamo.AttrError(err)
		}
		spec, ok := legacyKeyOps[cond.ComparisonOperator]
		if !ok {
			return nil, dynamo.Validation(msgKeyNotIndexable)
		}
		p := keyPart{name: name, op: spec.op, a: cond.AttributeValueList[0]}
		if spec.nargs == 2 {
			p.b = cond.AttributeValueList[1]
		}
		parts = append(parts, p)
	}
	return parts, nil
}

// partitionMatches reports whether the HASH values pk are the
// condition's.
func (kc *keyCondition) partitionMatches(pk []attr.Value) bool {
	if len(pk) != kc.pk.n {
		return false
	}
	for i := range pk {
		if !attr.Equal(pk[i], kc.pk.v[i]) {
			return false
		}
	}
	return true
}

// sortMatches reports whether the RANGE values sk satisfy the condition.
func (kc *keyCondition) sortMatches(sk []attr.Value) bool {
	if len(sk) < kc.eq.n {
		return false
	}
	for i := range kc.eq.n {
		if !attr.Equal(sk[i], kc.eq.v[i]) {
			return false
		}
	}
	if kc.op == keys.OpAny {
		return true
	}
	if len(sk) <= kc.eq.n {
		return false
	}
	return kc.lastMatches(sk[kc.eq.n])
}

// lastMatches reports whether the condition beyond eq accepts the value
// sk of the RANGE attribute it is on.
func (kc *keyCondition) lastMatches(sk attr.Value) bool {
	switch kc.op {
	case keys.OpAny:
		return true
	case keys.OpEQ:
		return cmp(sk, kc.a) == 0
	case keys.OpLT:
		return cmp(sk, kc.a) < 0
	case keys.OpLE:
		return cmp(sk, kc.a) <= 0
	case keys.OpGT:
		return cmp(sk, kc.a) > 0
	case keys.OpGE:
		return cmp(sk, kc.a) >= 0
	case keys.OpBetween:
		return cmp(sk, kc.a) >= 0 && cmp(sk, kc.b) <= 0
	case keys.OpBeginsWith:
		switch sk.Type {
		case attr.TypeS:
			return strings.HasPrefix(sk.S, kc.a.S)
		case attr.TypeB:
			return strings.HasPrefix(string(sk.B), string(kc.a.B))
		}
	}
	return false
}

// keyPartOf reads one condition of a key condition: path op value (or
// value op path), path BETWEEN value AND value, or begins_with(path,
// value), where path is a top-level attribute. Operand checks go left to
// right, as DynamoDB reports them.
func keyPartOf(c *expr.Condition, n *expr.Cond) (keyPart, error) {
	var p keyPart
	// key checks the operand that must name the key attribute.
	key := func(o *expr.Operand) error {
		if o.Kind == expr.OperandFunc {
			return dynamo.Validation(msgKeyNestedOperation)
		}
		if len(o.Path) != 1 || o.Path[0].IsIndex {
			return dynamo.Validation(msgKeyNested)
		}
		p.name = c.Name(&o.Path[0])
		return nil
	}
	// value checks an operand that must be a value; op names the operator
	// in the message for a value no key can be compared with.
	value := func(o *expr.Operand, op string, ordered bool) (attr.Value, error) {
		switch o.Kind {
		case expr.OperandPath:
			return attr.Value{}, dynamo.Validation(msgKeyMultipleNames)
		case expr.OperandFunc:
			return attr.Value{}, dynamo.Validation(msgKeyNestedOperation)
		}
		v := c.Value(o)
		if ordered && v.Type != attr.TypeS && v.Type != attr.TypeN && v.Type != attr.TypeB {
			// Quoted from DynamoDB's answers for a BOOL operand of <, >=
			// and BETWEEN in a key condition.
			return v, dynamo.Validation(msgKeyOperandType(op, v.Type.String()))
		}
		return v, nil
	}
	var err error
	switch n.Kind {
	case expr.CondCompare:
		l, r := n.Operands[0], n.Operands[1]
		op := n.Op
		if l.Kind == expr.OperandValue {
			if r.Kind == expr.OperandValue {
				return p, dynamo.Validation(msgKeyNoKeyAttribute)
			}
			// value op path: mirror it.
			l, r, op = r, l, mirror(op)
		}
		if err = key(l); err != nil {
			return p, err
		}
		if p.a, err = value(r, n.Op.String(), op != expr.OpEQ); err != nil {
			return p, err
		}
		p.op = map[expr.CompareOp]keys.Op{expr.OpEQ: keys.OpEQ, expr.OpLT: keys.OpLT, expr.OpLE: keys.OpLE, expr.OpGT: keys.OpGT, expr.OpGE: keys.OpGE}[op]
		return p, nil
	case expr.CondBetween:
		if n.Operands[0].Kind == expr.OperandValue {
			return p, dynamo.Validation(msgKeyFirstOperand("BETWEEN"))
		}
		if err = key(n.Operands[0]); err != nil {
			return p, err
		}
		if p.a, err = value(n.Operands[1], "BETWEEN", true); err != nil {
			return p, err
		}
		if p.b, err = value(n.Operands[2], "BETWEEN", true); err != nil {
			return p, err
		}
		p.op = keys.OpBetween
		return p, nil
	case expr.CondFunc: // begins_with; other functions were refused before
		if n.Operands[0].Kind == expr.OperandValue {
			return p, dynamo.Validation(msgKeyFirstOperand(n.Func))
		}
		if err = key(n.Operands[0]); err != nil {
			return p, err
		}
		if p.a, err = value(n.Operands[1], n.Func, false); err != nil {
			return p, err
		}
		p.op = keys.OpBeginsWith
		return p, nil
	}
	return p, dynamo.Validation(msgKeyConditionNotSupp)
}

// mirror turns "a op b" into "b op' a".
func mirror(op expr.CompareOp) expr.CompareOp {
	switch op {
	case expr.OpLT:
		return expr.OpGT
	case expr.OpLE:
		return expr.OpGE
	case expr.OpGT:
		return expr.OpLT
	case expr.OpGE:
		return expr.OpLE
	}
	return op
}
