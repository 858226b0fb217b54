package expr

import (
	"github.com/dynago/dynago/attr"
)

// Expected is one entry of a legacy condition map: Expected (PutItem,
// UpdateItem, DeleteItem), QueryFilter, ScanFilter or KeyConditions. Value
// and Exists exist in Expected only.
type Expected struct {
	Value              *attr.Value
	Exists             *bool
	ComparisonOperator string
	AttributeValueList []attr.Value
}

// AttributeUpdate is one entry of UpdateItem's legacy AttributeUpdates.
type AttributeUpdate struct {
	Action string // PUT (the default), ADD or DELETE
	Value  *attr.Value
}

const invalidParams = InvalidParams

// legacyArity is the number of values each ComparisonOperator takes; -1
// is "one or more".
var legacyArity = map[string]int{
	"EQ": 1, "NE": 1, "LE": 1, "LT": 1, "GE": 1, "GT": 1,
	"CONTAINS": 1, "NOT_CONTAINS": 1, "BEGINS_WITH": 1,
	"NULL": 0, "NOT_NULL": 0,
	"IN": -1, "BETWEEN": 2,
}

// CheckOperandCount refuses a legacy condition whose AttributeValueList
// holds the wrong number of values for its ComparisonOperator, with
// DynamoDB's message. An unknown operator passes: the member constraints
// report it.
func CheckOperandCount(op string, n int) *attr.Error {
	arity, ok := legacyArity[op]
	if ok && (arity >= 0 && n != arity || arity < 0 && n == 0) {
		return newErr(MsgLegacyArgumentCount + op + " ComparisonOperator")
	}
	return nil
}

// ConditionFromExpected converts a legacy condition map into a Condition,
// with DynamoDB's validation messages (dynalite's putItem, scan and query
// tests, run against DynamoDB). param is the parameter's name: "Expected"
// (whose entries may use Value and Exists), "QueryFilter", "ScanFilter" or
// "KeyConditions". conditionalOperator is "AND" (also when empty) or
// "OR". Entries are checked in attribute-name order. An empty map gives a
// nil Condition: no condition.
func ConditionFromExpected(param string, conds map[string]Expected, conditionalOperator string) (*Condition, error) {
	if len(conds) == 0 {
		return nil, nil
	}
	kind := KindCondition
	switch param {
	case "QueryFilter", "ScanFilter":
		kind = KindFilter
	case "KeyConditions":
		kind = KindKeyCondition
	}
	join := CondAnd
	switch conditionalOperator {
	case "", "AND":
	case "OR":
		join = CondOr
	default:
		return nil, newErr("1 validation error detected: Value '" + conditionalOperator +
			"' at 'conditionalOperator' failed to satisfy constraint: Member must satisfy enum value set: [OR, AND]")
	}
	c := &Condition{kind: kind}
	for _, name := range sortedKeys(conds) {
		if len(name) > attr.MaxAttributeNameSize {
			// As a name of an expression (binding.nameTooLarge).
			return nil, newErr(attr.MsgAttributeNameTooLarge)
		}
		n, err := legacyCond(param, name, conds[name], &c.b)
		if err != nil {
			return nil, err
		}
		if c.root == nil {
			c.root = n
		} else {
			c.root = &Cond{Kind: join, Left: c.root, Right: n}
		}
	}
	return c, nil
}

func (b *binding) addValue(v attr.Value) *Operand {
	b.values = append(b.values, v)
	return &Operand{Kind: OperandValue, Value: int32(len(b.values) - 1)}
}

func scalarType(t attr.Type) bool { return t == attr.TypeS || t == attr.TypeN || t == attr.TypeB }

func legacyCond(param, name string, e Expected, b *binding) (*Cond, *attr.Error) {
	forAttr := " for Attribute: " + name
	path := &Operand{Kind: OperandPath, Path: []PathElem{{Name: name, Ref: -1}}}
	fn := func(f funcID, fname string, args ...*Operand) *Cond {
		return &Cond{Kind: CondFunc, fn: f, Func: fname, Operands: append([]*Operand{path}, args...)}
	}
	if e.Value != nil && e.AttributeValueList != nil {
		return nil, newErr(MsgLegacyValueAndList + forAttr)
	}
	op := e.ComparisonOperator
	if op == "" {
		if param != "Expected" {
			return nil, newErr("1 validation error detected: Value null at '" + param + "." + name +
				".member.comparisonOperator' failed to satisfy constraint: Member must not be null")
		}
		switch {
		case e.AttributeValueList != nil:
			return nil, newErr(msgListWithoutOperator + name)
		case e.Exists != nil && !*e.Exists:
			if e.Value != nil {
				return nil, newErr(msgExistsFalseValue + name)
			}
			return fn(fnAttributeNotExists, "attribute_not_exists"), nil
		case e.Value == nil && e.Exists != nil:
			return nil, newErr(msgExistsTrueNoValue + name)
		case e.Value == nil:
			return nil, newErr(msgExistsNullNoValue + name)
		}
		return &Cond{Kind: CondCompare, Op: OpEQ, Operands: []*Operand{path, b.addValue(*e.Value)}}, nil
	}
	if e.Exists != nil {
		return nil, newErr(msgExistsAndOperator + name)
	}
	arity, ok := legacyArity[op]
	if !ok {
		return nil, newErr("1 validation error detected: Value '" + op + "' at '" + param + "." + name +
			".member.comparisonOperator' failed to satisfy constraint: Member must satisfy enum value set: " +
			"[IN, NULL, BETWEEN, LT, NOT_CONTAINS, EQ, GT, NOT_NULL, NE, LE, BEGINS_WITH, GE, CONTAINS]")
	}
	args := e.AttributeValueList
	if e.Value != nil {
		args = []attr.Value{*e.Value}
	}
	if param == "Expected" && arity != 0 && e.Value == nil && e.AttributeValueList == nil {
		return nil, newErr(MsgLegacyOperatorNeedsV + op + forAttr)
	}
	if err := CheckOperandCount(op, len(args)); err != nil {
		return nil, err
	}
	// The values must share a type (dynalite's validations: checked after
	// the count, before the operator's types).
	for i := 1; i < len(args); i++ {
		if args[i].Type != args[0].Type {
			return nil, newErr(MsgLegacySameType)
		}
	}
	for _, v := range args {
		okType := true
		switch op {
		case "LT", "LE", "GT", "GE", "IN", "BETWEEN":
			okType = scalarType(v.Type)
		case "CONTAINS", "NOT_CONTAINS":
			okType = !isSet(v.Type) && v.Type != attr.TypeM && v.Type != attr.TypeL
		case "BEGINS_WITH":
			okType = v.Type == attr.TypeS || v.Type == attr.TypeB
		}
		if !okType {
			return nil, newErr(invalidParams + "ComparisonOperator " + op + " is not valid for " + v.Type.String() + " AttributeValue type")
		}
	}
	if op == "BETWEEN" {
		if r, ok := attr.Compare(args[0], args[1]); ok && r > 0 {
			return nil, newErr(MsgLegacyBetweenOrder)
		}
	}
	vals := make([]*Operand, len(args))
	for i, v := range args {
		vals[i] = b.addValue(v)
	}
	switch op {
	case "NULL":
		return fn(fnAttributeNotExists, "attribute_not_exists"), nil
	case "NOT_NULL":
		return fn(fnAttributeExists, "attribute_exists"), nil
	case "CONTAINS":
		return fn(fnContains, "contains", vals[0]), nil
	case "NOT_CONTAINS":
		// Inferred: an absent attribute neither contains nor fails to
		// contain the value, so the condition is false for it.
		return &Cond{Kind: CondAnd,
			Left:  fn(fnAttributeExists, "attribute_exists"),
			Right: &Cond{Kind: CondNot, Left: fn(fnContains, "contains", vals[0])}}, nil
	case "BEGINS_WITH":
		return fn(fnBeginsWith, "begins_with", vals[0]), nil
	case "IN":
		return &Cond{Kind: CondIn, Operands: append([]*Operand{path}, vals...)}, nil
	case "BETWEEN":
		return &Cond{Kind: CondBetween, Operands: []*Operand{path, vals[0], vals[1]}}, nil
	}
	var cmp CompareOp
	switch op {
	case "NE":
		cmp = OpNE
	case "LT":
		cmp = OpLT
	case "LE":
		cmp = OpLE
	case "GT":
		cmp = OpGT
	case "GE":
		cmp = OpGE
	}
	return &Cond{Kind: CondCompare, Op: cmp, Operands: []*Operand{path, vals[0]}}, nil
}

// UpdateFromAttributeUpdates converts UpdateItem's legacy AttributeUpdates,
// in attribute-name order, with DynamoDB's validation messages (dynalite's
// updateItem tests). PUT sets the attribute; DELETE without a value
// removes it, with a set value removes those members; ADD adds to a
// number, unites sets, and (unlike the ADD of update expressions) appends
// to a list. At apply time a type mismatch fails with "Type mismatch for
// attribute to update". The values are expected to be validated already.
func UpdateFromAttributeUpdates(upd map[string]AttributeUpdate) (*Update, error) {
	u := &Update{legacy: true}
	names := sortedKeys(upd)
	u.actions = make([]Action, 0, len(names))
	u.paths = make([][]PathElem, 0, len(names))
	for _, name := range names {
		e := upd[name]
		action := e.Action
		if action == "" {
			action = "PUT"
		}
		if e.Value == nil && action != "DELETE" {
			return nil, newErr(invalidParams + "Only DELETE action is allowed when no attribute value is specified")
		}
		path := []PathElem{{Name: name, Ref: -1}}
		a := Action{Path: path}
		switch action {
		case "PUT":
			a.Kind = ActionSet
		case "ADD":
			t := e.Value.Type
			if t != attr.TypeN && t != attr.TypeL && !isSet(t) {
				return nil, newErr(invalidParams + "ADD action is not supported for the type " + t.String())
			}
			a.Kind = ActionAdd
		case "DELETE":
			if e.Value != nil && !isSet(e.Value.Type) {
				return nil, newErr(invalidParams + "DELETE action with value is not supported for the type " + e.Value.Type.String())
			}
			a.Kind = ActionDelete
		default:
			return nil, newErr("1 validation error detected: Value '" + e.Action + "' at 'attributeUpdates." + name +
				".member.action' failed to satisfy constraint: Member must satisfy enum value set: [ADD, PUT, DELETE]")
		}
		if e.Value != nil {
			a.Value = u.b.addValue(*e.Value)
		}
		u.actions = append(u.actions, a)
		u.paths = append(u.paths, path)
	}
	u.root = buildTree(u.paths)
	return u, nil
}
