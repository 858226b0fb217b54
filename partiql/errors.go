package partiql

import "strconv"

// Error is a statement DynamoDB refuses: Message is the whole text of the
// ValidationException DynamoDB sends, Pos the token it is about.
type Error struct {
	Message string
	Pos     Pos
}

func (e *Error) Error() string { return e.Message }

// Messages. Their sources: AWS answers recorded by the
// paritysuite/dynamodb-conformance suite (tests/tier3/error-messages/
// partiqlGrammar.test.ts and partiqlFunctions.test.ts, eu-west-2,
// October 2026), and the validation texts DynamoDB Local ships
// (ValidationExceptionMessages), which match them where both exist.
const (
	// MsgNotWellFormed prefixes every syntax error; the detail follows,
	// and is empty for a token that cannot be read at all (a # comment,
	// an unterminated comment or string, a number whose exponent does
	// not fit 32 bits).
	MsgNotWellFormed = "Statement wasn't well formed, can't be processed: "

	detailLeftover     = "Unexpected token after expression"
	detailTerm         = "Unexpected term"
	detailKeyword      = "Unexpected keyword"
	detailOperator     = "Unexpected operator"
	detailMissingRHS   = "Missing right-hand side expression of infix operator"
	detailSimplePath   = "Expected identifier for simple path"
	detailTypeName     = "Expected type name"
	detailPathDot      = "Invalid path dot component"
	detailDML          = "Expected data manipulation"
	detailTooDeep      = "Expression nesting is too deep" // no recording: a guard of dynago's
	detailListIndex    = "Expected a list index"          // no recording
	detailMapSeparator = "Expected ':' in struct"         // no recording

	// MsgAliasing answers a table alias on SELECT, UPDATE and DELETE.
	MsgAliasing = "Aliasing is not supported"
	// MsgWildcard answers a[*] paths.
	MsgWildcard = "Wildcard path component like a[*].b are not supported"
	// MsgUnpivot answers a.* paths.
	MsgUnpivot = "Unpivot path component like a.*.b are not supported"
	// MsgReturningSyntax answers a RETURNING clause that is not one of
	// the four DynamoDB knows.
	MsgReturningSyntax = "Expected '*' after ( MODIFIED | ALL ) ( NEW | OLD ) in RETURNING clause"
	// MsgInsertMany answers INSERT ... VALUES and INSERT of a bag.
	MsgInsertMany = `Unsupported operation: Inserting multiple items in a single statement is not supported, use "INSERT INTO tableName VALUE item" instead`
	// MsgIsTypeStatement answers a statement that is an IS type test and
	// nothing else (recorded: partiqlGrammar.test.ts, "IS %s parses as a
	// type test").
	MsgIsTypeStatement = "Unsupported operation: IsType"
	// MsgPathComponent, with the place of the item, answers a projection
	// item that is not a path (recorded for attribute_exists(ss):
	// partiqlFunctions.test.ts; for COUNT(*) no recording shows the text).
	MsgPathComponent = "Unexpected path component"
	// MsgStarAndOthers answers SELECT *, a.
	MsgStarAndOthers = "Other attributes should not be present in the projection when '*' is used."
)

// At formats a position as DynamoDB appends it to some messages:
// " at line:column:length".
func At(p Pos) string {
	return " at " + strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Col) + ":" + strconv.Itoa(p.Len)
}

func malformed(detail string, p Pos) *Error {
	return &Error{Message: MsgNotWellFormed + detail, Pos: p}
}
