package partiql

// The syntax tree. The parser is recursive descent, one function per
// production of the grammar in docs/PARTIQL.md. It knows nothing of
// tables: it returns a Statement whose expressions the planner and
// compile.go turn into DynamoDB's item operations. Errors are *Error
// values carrying DynamoDB's message text and the position of the token
// they are about.

import "sync/atomic"

// Pos is a position in a statement: line and column from 1, counted in
// characters, and the length of the token there. DynamoDB writes positions
// as "line:column:length".
type Pos struct {
	Line, Col, Len int
}

// Kind is the kind of a statement.
type Kind uint8

// Statement kinds.
const (
	Select Kind = iota + 1
	Insert
	Update
	Delete
	Exists // EXISTS(SELECT ...), a condition check in a transaction
)

// String names the kind as its keyword.
func (k Kind) String() string {
	switch k {
	case Select:
		return "SELECT"
	case Insert:
		return "INSERT"
	case Update:
		return "UPDATE"
	case Delete:
		return "DELETE"
	case Exists:
		return "EXISTS"
	}
	return "?"
}

// Returning is an UPDATE's or DELETE's RETURNING clause.
type Returning uint8

// RETURNING clauses.
const (
	ReturnNone Returning = iota
	ReturnAllOld
	ReturnModifiedOld
	ReturnAllNew
	ReturnModifiedNew
)

// String writes the clause as it is written in a statement.
func (r Returning) String() string {
	switch r {
	case ReturnAllOld:
		return "ALL OLD *"
	case ReturnModifiedOld:
		return "MODIFIED OLD *"
	case ReturnAllNew:
		return "ALL NEW *"
	case ReturnModifiedNew:
		return "MODIFIED NEW *"
	}
	return ""
}

// Statement is one parsed statement.
type Statement struct {
	Kind Kind
	// Table and Index name the source: FROM "table" or "table"."index".
	Table, Index string
	TablePos     Pos

	// SELECT: the projection (nil with Star) and ORDER BY.
	Star       bool
	Projection []*Path
	OrderBy    []OrderTerm
	// Aggregate is a COUNT(*) in the projection. It is not a path, but
	// DynamoDB refuses it only once it knows the source: after a GSI
	// with a multi-attribute key (PlanAggregate).
	Aggregate *Call

	// Where is the WHERE condition, or nil.
	Where Expr

	// INSERT: the item.
	Value Expr

	// UPDATE: the SET and REMOVE actions, in the order written.
	Actions []Action

	Returning Returning

	// Params is the number of ? in the statement.
	Params int

	// Compiled is execution's: what it made of the statement for a
	// table (a SELECT's plan and expressions, a write's key and
	// expressions), kept here because a cached statement is shared by
	// every request that sends its text.
	Compiled atomic.Value
}

// OrderTerm is one ORDER BY key.
type OrderTerm struct {
	Key  Expr
	Desc bool
}

// Action is one SET or REMOVE of an UPDATE: Value is nil for REMOVE.
type Action struct {
	Path  *Path
	Value Expr
}

// Expr is an expression node.
type Expr interface {
	Position() Pos
}

// PathElem is one element of a path: a name, or a list index.
type PathElem struct {
	Name    string
	Index   int
	IsIndex bool
}

// Path is a document path: a top-level name followed by names and list
// indexes.
type Path struct {
	Elems []PathElem
	Pos   Pos
}

// LitKind is the kind of a literal.
type LitKind uint8

// Literal kinds.
const (
	LitString LitKind = iota + 1
	LitNumber
	LitBool
	LitNull
	LitMissing
)

// Literal is a scalar literal. Text holds a string or a number as written
// (the number with its sign); Bool a boolean.
type Literal struct {
	Kind LitKind
	Text string
	Bool bool
	Pos  Pos
}

// Param is a ? placeholder; N counts from 0 in the order written.
type Param struct {
	N   int
	Pos Pos
}

// List is a list literal [...].
type List struct {
	Elems []Expr
	Pos   Pos
}

// Bag is a set literal <<...>>.
type Bag struct {
	Elems []Expr
	Pos   Pos
}

// Map is a map (tuple) literal {'k': v, ...}. Keys are expressions, as
// PartiQL allows; DynamoDB accepts only strings.
type Map struct {
	Keys []Expr
	Vals []Expr
	Pos  Pos
}

// Binary is a binary operator: AND, OR, =, <>, <, <=, >, >=, +, -, *, /,
// % or ||. != is written <>.
type Binary struct {
	Op   string
	L, R Expr
	Pos  Pos // the operator's
}

// Not is NOT x.
type Not struct {
	X   Expr
	Pos Pos
}

// Neg is -x where x is not a number literal.
type Neg struct {
	X   Expr
	Pos Pos
}

// Between is x [NOT] BETWEEN lo AND hi.
type Between struct {
	X, Lo, Hi Expr
	Negated   bool
	Pos       Pos
}

// In is x [NOT] IN list; List is the elements of the list or bag written.
type In struct {
	X       Expr
	List    []Expr
	Negated bool
	// Seq reports that the right-hand side was a list, bag or
	// parenthesised list; otherwise List holds the one operand written.
	Seq bool
	Pos Pos
}

// Is is x IS [NOT] type; Type is upper case (MISSING, NULL, STRING...).
type Is struct {
	X       Expr
	Type    string
	Negated bool
	Pos     Pos
}

// Call is a function call; Name is lower case.
type Call struct {
	Name string
	Args []Expr
	Star bool // COUNT(*): no Args
	Pos  Pos  // the name's
}

// Position methods.

func (p *Path) Position() Pos    { return p.Pos }
func (l *Literal) Position() Pos { return l.Pos }
func (p *Param) Position() Pos   { return p.Pos }
func (l *List) Position() Pos    { return l.Pos }
func (b *Bag) Position() Pos     { return b.Pos }
func (m *Map) Position() Pos     { return m.Pos }
func (b *Binary) Position() Pos  { return b.Pos }
func (n *Not) Position() Pos     { return n.Pos }
func (n *Neg) Position() Pos     { return n.Pos }
func (b *Between) Position() Pos { return b.Pos }
func (i *In) Position() Pos      { return i.Pos }
func (i *Is) Position() Pos      { return i.Pos }
func (c *Call) Position() Pos    { return c.Pos }

// Name returns the top-level attribute a path starts with.
func (p *Path) Name() string { return p.Elems[0].Name }

// TopLevel reports whether the path is a single name.
func (p *Path) TopLevel() bool { return len(p.Elems) == 1 }
