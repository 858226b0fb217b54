package engine

import (
	"github.com/dynago/dynago/attr"
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
		return nil, Validation(msgKeyInvalidOperator(op))
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
			return nil, Validation(msgKeyOneConditionPerKey)
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

// keyConditionFromParts checks a key condition's parts against the key
// schema and returns the key condition.
func (t *table) keyConditionFromParts(parts []keyPart) (keyCondition, error) {
	var kc keyCondition
	nkeys := 1
	if t.rangeName != "" {
		nkeys = 2
	}
	if len(parts) > nkeys {
		return kc, Validation(msgTooManyConditions(len(parts), nkeys))
	}
	var hash, rng *keyPart
	for i := range parts {
		switch parts[i].name {
		case t.hashName:
			hash = &parts[i]
		case t.rangeName:
			rng = &parts[i]
		}
	}
	if hash == nil {
		return kc, Validation(msgMissedKeyElement(t.hashName))
	}
	if len(parts) == 2 && rng == nil {
		return kc, Validation(msgMissedKeyElement(t.rangeName))
	}
	if hash.op != keys.OpEQ {
		return kc, Validation(msgKeyConditionNotSupp)
	}
	if hash.a.Type != t.hashType {
		return kc, Validation(msgKeyTypeMismatch)
	}
	kc.pk = hash.a
	if err := checkKeyValue(t.hashName, kc.pk, true, msgEmptyKeyItem); err != nil {
		return kc, err
	}
	if rng == nil {
		return kc, nil
	}
	if rng.a.Type != t.rangeType || (rng.op == keys.OpBetween && rng.b.Type != t.rangeType) {
		return kc, Validation(msgKeyTypeMismatch)
	}
	if rng.op == keys.OpBeginsWith && t.rangeType == attr.TypeN {
		// Unreachable through expressions, whose begins_with refuses a
		// number operand before this; kept for safety.
		return kc, Validation(msgKeyOperandType("begins_with", "N"))
	}
	kc.op, kc.a, kc.b = rng.op, rng.a, rng.b
	return kc, nil
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
			return Validation(msgKeyNestedOperation)
		}
		if len(o.Path) != 1 || o.Path[0].IsIndex {
			return Validation(msgKeyNested)
		}
		p.name = c.Name(&o.Path[0])
		return nil
	}
	// value checks an operand that must be a value; op names the operator
	// in the message for a value no key can be compared with.
	value := func(o *expr.Operand, op string, ordered bool) (attr.Value, error) {
		switch o.Kind {
		case expr.OperandPath:
			return attr.Value{}, Validation(msgKeyMultipleNames)
		case expr.OperandFunc:
			return attr.Value{}, Validation(msgKeyNestedOperation)
		}
		v := c.Value(o)
		if ordered && v.Type != attr.TypeS && v.Type != attr.TypeN && v.Type != attr.TypeB {
			// Quoted from DynamoDB's answers for a BOOL operand of <, >=
			// and BETWEEN in a key condition.
			return v, Validation(msgKeyOperandType(op, v.Type.String()))
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
				return p, Validation(msgKeyNoKeyAttribute)
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
			return p, Validation(msgKeyFirstOperand("BETWEEN"))
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
			return p, Validation(msgKeyFirstOperand(n.Func))
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
	return p, Validation(msgKeyConditionNotSupp)
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
