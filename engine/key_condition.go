package engine

import (
	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/internal/expr"
	"github.com/dynago/dynago/internal/keys"
)

// Translation of a KeyConditionExpression into a keyCondition. The
// expression package parses and binds it like any condition; the rules
// that make it a key condition live here, because they need the key
// schema.
//
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Query.KeyConditionExpressions.html

// Messages. "one condition per key" is quoted from DynamoDB's responses in
// public bug reports; the others are DynamoDB's as best known and are
// pinned in tests so a correction is one place.
const (
	msgKeyOneConditionPerKey = "Invalid KeyConditionExpression: KeyConditionExpressions must only contain one condition per key"
	msgKeyConditionNotSupp   = "Query key condition not supported"
	msgKeyTypeMismatch       = "One or more parameter values were invalid: Condition parameter type does not match schema type"
	msgKeyNested             = "Invalid KeyConditionExpression: Nested attributes are not supported in key conditions"
)

func msgKeyInvalidOperator(op string) string {
	return "Invalid KeyConditionExpression: Invalid operator used in KeyConditionExpression: " + op
}

// keyPart is one condition on one key attribute.
type keyPart struct {
	name string
	op   keys.Op
	a, b attr.Value
}

// keyConditionFromExpression checks a compiled KeyConditionExpression
// against the table's key schema and returns the key condition.
func (t *table) keyConditionFromExpression(c *expr.Condition) (keyCondition, error) {
	var kc keyCondition
	var parts []keyPart
	var walk func(n *expr.Cond) error
	walk = func(n *expr.Cond) error {
		switch n.Kind {
		case expr.CondAnd:
			if err := walk(n.Left); err != nil {
				return err
			}
			return walk(n.Right)
		case expr.CondOr:
			return Validation(msgKeyInvalidOperator("OR"))
		case expr.CondNot:
			return Validation(msgKeyInvalidOperator("NOT"))
		case expr.CondIn:
			return Validation(msgKeyInvalidOperator("IN"))
		}
		p, err := keyPartOf(c, n)
		if err != nil {
			return err
		}
		parts = append(parts, p)
		return nil
	}
	if err := walk(c.Root()); err != nil {
		return kc, err
	}
	seen := map[string]bool{}
	for _, p := range parts {
		if seen[p.name] {
			return kc, Validation(msgKeyOneConditionPerKey)
		}
		seen[p.name] = true
	}
	if len(parts) > 2 {
		return kc, Validation(msgKeyOneConditionPerKey)
	}
	var hash, rng *keyPart
	for i := range parts {
		switch parts[i].name {
		case t.hashName:
			hash = &parts[i]
		case t.rangeName:
			rng = &parts[i]
		default:
			return kc, Validation("Query condition missed key schema element: " + t.missingKeyName(seen))
		}
	}
	if hash == nil {
		return kc, Validation("Query condition missed key schema element: " + t.hashName)
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
		if rng.op == keys.OpBeginsWith && rng.a.Type == attr.TypeN {
			return kc, Validation("Invalid KeyConditionExpression: Incorrect operand type for operator or function; operator or function: begins_with, operand type: N")
		}
		return kc, Validation(msgKeyTypeMismatch)
	}
	if rng.op == keys.OpBeginsWith && t.rangeType == attr.TypeN {
		return kc, Validation("Invalid KeyConditionExpression: Incorrect operand type for operator or function; operator or function: begins_with, operand type: N")
	}
	kc.op, kc.a, kc.b = rng.op, rng.a, rng.b
	return kc, nil
}

// missingKeyName names the key attribute a key condition lacks.
func (t *table) missingKeyName(seen map[string]bool) string {
	if !seen[t.hashName] || t.rangeName == "" {
		return t.hashName
	}
	return t.rangeName
}

// keyPartOf reads one leaf of a key condition: path op value, value op
// path, path BETWEEN value AND value, or begins_with(path, value).
func keyPartOf(c *expr.Condition, n *expr.Cond) (keyPart, error) {
	var p keyPart
	path := func(o *expr.Operand) (string, bool, error) {
		if o.Kind != expr.OperandPath {
			return "", false, nil
		}
		if len(o.Path) != 1 || o.Path[0].IsIndex {
			return "", false, Validation(msgKeyNested)
		}
		return c.Name(&o.Path[0]), true, nil
	}
	value := func(o *expr.Operand) (attr.Value, bool) {
		if o.Kind != expr.OperandValue {
			return attr.Value{}, false
		}
		return c.Value(o), true
	}
	switch n.Kind {
	case expr.CondCompare:
		if n.Op == expr.OpNE {
			return p, Validation(msgKeyInvalidOperator("<>"))
		}
		l, r := n.Operands[0], n.Operands[1]
		op := n.Op
		name, ok, err := path(l)
		if err != nil {
			return p, err
		}
		if !ok {
			// value op path: mirror it.
			l, r = r, l
			op = mirror(op)
			if name, ok, err = path(l); err != nil {
				return p, err
			}
		}
		v, isValue := value(r)
		if !ok || !isValue {
			return p, Validation(msgKeyConditionNotSupp)
		}
		p.name, p.a = name, v
		p.op = map[expr.CompareOp]keys.Op{expr.OpEQ: keys.OpEQ, expr.OpLT: keys.OpLT, expr.OpLE: keys.OpLE, expr.OpGT: keys.OpGT, expr.OpGE: keys.OpGE}[op]
		return p, nil
	case expr.CondBetween:
		name, ok, err := path(n.Operands[0])
		if err != nil {
			return p, err
		}
		a, okA := value(n.Operands[1])
		b, okB := value(n.Operands[2])
		if !ok || !okA || !okB {
			return p, Validation(msgKeyConditionNotSupp)
		}
		p.name, p.op, p.a, p.b = name, keys.OpBetween, a, b
		return p, nil
	case expr.CondFunc:
		if n.Func != "begins_with" {
			return p, Validation(msgKeyInvalidOperator(n.Func))
		}
		name, ok, err := path(n.Operands[0])
		if err != nil {
			return p, err
		}
		a, okA := value(n.Operands[1])
		if !ok || !okA {
			return p, Validation(msgKeyConditionNotSupp)
		}
		p.name, p.op, p.a = name, keys.OpBeginsWith, a
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
