package expr

import (
	"encoding/base64"
	"strconv"
	"strings"

	"github.com/dynago/dynago/attr"
)

// Every error this package returns is an *attr.Error whose Message is the
// text DynamoDB puts in the ValidationException it returns for the same
// input, so the engine can send it on as a ValidationException.
//
// Where the texts come from (see docs/EXPRESSIONS.md for the list):
// ValidationException messages quoted in AWS SDK and library issue
// reports, dynalite's and the dynamodb-conformance suites' expectations
// (both run against DynamoDB itself), and AWS's "Constraints" page for the
// limits. Messages that could not be found anywhere are marked "inferred"
// where they are built.

// Kind names an expression parameter of a request.
type Kind uint8

// The expression parameters.
const (
	KindCondition Kind = iota
	KindFilter
	KindKeyCondition
	KindProjection
	KindUpdate
	// KindSearchCondition is SearchVectors' SearchConditionExpression,
	// parsed with the condition grammar; the engine refuses what that
	// operation does not take (equality only, joined by AND).
	KindSearchCondition
	numKinds
)

// String returns the parameter's name as DynamoDB spells it in messages.
func (k Kind) String() string {
	switch k {
	case KindCondition:
		return "ConditionExpression"
	case KindFilter:
		return "FilterExpression"
	case KindKeyCondition:
		return "KeyConditionExpression"
	case KindProjection:
		return "ProjectionExpression"
	case KindUpdate:
		return "UpdateExpression"
	case KindSearchCondition:
		return "SearchConditionExpression"
	}
	return "Expression"
}

// isCondition reports whether k is parsed with the condition grammar.
func (k Kind) isCondition() bool {
	return k == KindCondition || k == KindFilter || k == KindKeyCondition || k == KindSearchCondition
}

func newErr(msg string) *attr.Error { return &attr.Error{Message: msg} }

// exprErr prefixes msg with "Invalid <Kind>: ".
func exprErr(k Kind, msg string) *attr.Error {
	return newErr(k.ErrPrefix() + msg)
}

// wording is how the errors of one expression are worded: after its
// kind's prefix ("Invalid ConditionExpression: ") for an expression a
// request sends as text, or bare, with the prefix beside it
// (attr.Error.Prefix), for one a statement language built as a tree
// (Tree, stmt), as a statement answers them.
type wording struct {
	kind Kind
	stmt bool
}

// err words msg.
func (w wording) err(msg string) *attr.Error {
	if w.stmt {
		return &attr.Error{Message: msg, Prefix: w.kind.ErrPrefix()}
	}
	return exprErr(w.kind, msg)
}

// ErrPrefix is what an error of an expression of kind k starts with, as
// DynamoDB words it: "Invalid ConditionExpression: ".
func (k Kind) ErrPrefix() string { return "Invalid " + k.String() + ": " }

// Messages shared by several checks.
const (
	msgEmpty           = "The expression can not be empty;"
	msgRedundantParens = "The expression has redundant parentheses;"

	// Update-time failures. They are not prefixed with "Invalid
	// UpdateExpression: " (dynalite's updateItem tests, run against
	// DynamoDB).
	MsgInvalidPathForUpdate = "The document path provided in the update expression is invalid for update"
	MsgMissingAttribute     = "The provided expression refers to an attribute that does not exist in the item"
	MsgIncorrectDataType    = "An operand in the update expression has an incorrect data type"
	// MsgLegacyTypeMismatch is the AttributeUpdates counterpart of
	// MsgIncorrectDataType.
	MsgLegacyTypeMismatch = "Type mismatch for attribute to update"
)

func syntaxErr(w wording, token, near string) *attr.Error {
	return w.err("Syntax error; token: \"" + token + "\", near: \"" + near + "\"")
}

func reservedErr(w wording, word string) *attr.Error {
	return w.err("Attribute name is a reserved keyword; reserved keyword: " + word)
}

func undefinedNameErr(w wording, name string) *attr.Error {
	return w.err("An expression attribute name used in the document path is not defined; attribute name: " + name)
}

func undefinedValueErr(w wording, name string) *attr.Error {
	return w.err("An expression attribute value used in expression is not defined; attribute value: " + name)
}

func operandCountErr(w wording, fn string, n int) *attr.Error {
	return w.err("Incorrect number of operands for operator or function; operator or function: " +
		fn + ", number of operands: " + strconv.Itoa(n))
}

func operandTypeErr(w wording, fn, typ string) *attr.Error {
	return w.err("Incorrect operand type for operator or function; operator or function: " + fn + ", operand type: " + typ)
}

func needsPathErr(w wording, fn string) *attr.Error {
	return w.err(MsgNeedsPath + fn)
}

func misusedFuncErr(w wording, fn string) *attr.Error {
	return w.err("The function is not allowed to be used this way in an expression; function: " + fn)
}

func distinctErr(w wording, op string, p []PathElem, b *binding) *attr.Error {
	return w.err("The first operand must be distinct from the remaining operands for this operator or function; operator: " +
		op + ", first operand: " + pathString(p, b))
}

// pathString renders a path the way DynamoDB's messages do: "[a, b, [2]]".
// Names are printed as they are, even when they look like an index.
func pathString(p []PathElem, b *binding) string {
	var sb strings.Builder
	sb.WriteByte('[')
	for i := range p {
		if i > 0 {
			sb.WriteString(", ")
		}
		if p[i].IsIndex {
			sb.WriteByte('[')
			sb.WriteString(strconv.Itoa(p[i].Index))
			sb.WriteByte(']')
		} else {
			sb.WriteString(b.name(&p[i]))
		}
	}
	sb.WriteByte(']')
	return sb.String()
}

// valueString renders a constant the way the BETWEEN messages do:
// "AttributeValue: {N:10}". Only S, N and B reach it. DynamoDB's rendering
// of binaries was not found; base64 is inferred.
func valueString(v attr.Value) string {
	var s string
	switch v.Type {
	case attr.TypeS, attr.TypeN:
		s = v.S
	case attr.TypeB:
		s = base64.StdEncoding.EncodeToString(v.B)
	}
	return "AttributeValue: {" + v.Type.String() + ":" + s + "}"
}

// longTypeName is the spelling of a type in the ADD and DELETE operand
// messages ("operand type: STRING").
func longTypeName(t attr.Type) string {
	switch t {
	case attr.TypeS:
		return "STRING"
	case attr.TypeN:
		return "NUMBER"
	case attr.TypeB:
		return "BINARY"
	case attr.TypeBOOL:
		return "BOOLEAN"
	case attr.TypeNULL:
		return "NULL"
	case attr.TypeM:
		return "MAP"
	case attr.TypeL:
		return "LIST"
	case attr.TypeSS:
		return "STRING_SET"
	case attr.TypeNS:
		return "NUMBER_SET"
	case attr.TypeBS:
		return "BINARY_SET"
	}
	return "UNKNOWN"
}

// The limits the parser and a statement's trees enforce alike, each
// followed by the figure that broke it.
const (
	msgListIndexRange    = "List index is not within the allowable range; index: "
	msgPathTooDeep       = "The document path has too many nesting levels; nesting levels: "
	msgTooManyINOperands = "The IN operator is provided with too many operands; number of operands: "
)
