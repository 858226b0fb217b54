package expr

import "github.com/dynago/dynago/attr"

// The syntax trees below are shared: a parsed expression is cached and
// reused by every request with the same text, so nothing in them depends
// on a request's ExpressionAttributeNames or ExpressionAttributeValues.
// Placeholders are numbered slots; a compiled expression pairs the tree
// with a binding that maps the slots to the request's names and values.
// Trees are never modified after parsing.

// PathElem is one element of a document path: an attribute or map key
// name, or a list index.
type PathElem struct {
	// Name is the name as written: an attribute name, or a "#placeholder"
	// when Ref >= 0.
	Name string
	// Ref is the name placeholder slot, -1 for a literal name.
	Ref int32
	// IsIndex marks a list index element; Index is its value.
	IsIndex bool
	Index   int
}

// OperandKind is the kind of an Operand.
type OperandKind uint8

// Operand kinds.
const (
	OperandPath  OperandKind = iota // a document path
	OperandValue                    // a :placeholder
	OperandFunc                     // a function call: size, if_not_exists, list_append
	OperandPlus                     // Args[0] + Args[1] (update SET only)
	OperandMinus                    // Args[0] - Args[1] (update SET only)
)

// Operand is a value in an expression.
type Operand struct {
	Kind OperandKind
	Path []PathElem // OperandPath
	// Value is the value placeholder slot (OperandValue); ValueName is the
	// placeholder as written.
	Value     int32
	ValueName string
	Func      string     // OperandFunc: the function name as written
	Args      []*Operand // OperandFunc, OperandPlus, OperandMinus
	// Parens marks an operand written inside parentheses.
	Parens bool
	// fn is the function of an OperandFunc.
	fn funcID
}

// CondKind is the kind of a Cond node.
type CondKind uint8

// Condition node kinds.
const (
	CondCompare CondKind = iota // Operands[0] Op Operands[1]
	CondBetween                 // Operands[0] BETWEEN Operands[1] AND Operands[2]
	CondIn                      // Operands[0] IN (Operands[1:]...)
	CondFunc                    // Func(Operands...): a boolean function
	CondAnd                     // Left AND Right
	CondOr                      // Left OR Right
	CondNot                     // NOT Left
)

// CompareOp is a comparator.
type CompareOp uint8

// Comparators.
const (
	OpEQ CompareOp = iota
	OpNE
	OpLT
	OpLE
	OpGT
	OpGE
)

// String returns the comparator as written in expressions.
func (o CompareOp) String() string {
	return [...]string{"=", "<>", "<", "<=", ">", ">="}[o]
}

// Cond is a node of a condition (ConditionExpression, FilterExpression,
// KeyConditionExpression, or a converted legacy condition).
type Cond struct {
	Kind     CondKind
	Op       CompareOp  // CondCompare
	Func     string     // CondFunc: the function name as written
	Operands []*Operand // CondCompare, CondBetween, CondIn, CondFunc
	Left     *Cond      // CondAnd, CondOr, CondNot
	Right    *Cond      // CondAnd, CondOr
	// Parens marks a condition written inside parentheses.
	Parens bool
	// fn is the function of a CondFunc.
	fn funcID
}

// ActionKind is the clause of an update action.
type ActionKind uint8

// Update action kinds.
const (
	ActionSet ActionKind = iota
	ActionRemove
	ActionAdd
	ActionDelete
)

// String returns the clause keyword.
func (a ActionKind) String() string {
	return [...]string{"SET", "REMOVE", "ADD", "DELETE"}[a]
}

// Action is one action of an update expression.
type Action struct {
	Kind  ActionKind
	Path  []PathElem
	Value *Operand // SET: the value; ADD, DELETE: the :placeholder operand
}

// funcID identifies a function.
type funcID uint8

const (
	fnUnknown funcID = iota
	fnAttributeExists
	fnAttributeNotExists
	fnAttributeType
	fnBeginsWith
	fnContains
	fnSize
	fnIfNotExists
	fnListAppend
)

// lookupFunc maps a function name to its id. Names are case-sensitive:
// DynamoDB answers "Invalid function name; function: attRIbute_exIsts"
// (dynalite's scan tests).
func lookupFunc(name string) funcID {
	switch name {
	case "attribute_exists":
		return fnAttributeExists
	case "attribute_not_exists":
		return fnAttributeNotExists
	case "attribute_type":
		return fnAttributeType
	case "begins_with":
		return fnBeginsWith
	case "contains":
		return fnContains
	case "size":
		return fnSize
	case "if_not_exists":
		return fnIfNotExists
	case "list_append":
		return fnListAppend
	}
	return fnUnknown
}

// funcArity is the number of operands each function takes.
var funcArity = [...]int{
	fnAttributeExists:    1,
	fnAttributeNotExists: 1,
	fnAttributeType:      2,
	fnBeginsWith:         2,
	fnContains:           2,
	fnSize:               1,
	fnIfNotExists:        2,
	fnListAppend:         2,
}

// binding maps a tree's placeholder slots to one request's names and
// values.
type binding struct {
	names  []string
	values []attr.Value
}

// name returns the attribute name of a (non-index) path element.
func (b *binding) name(e *PathElem) string {
	if e.Ref >= 0 {
		return b.names[e.Ref]
	}
	return e.Name
}
