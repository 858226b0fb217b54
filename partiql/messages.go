package partiql

import (
	"fmt"

	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/internal/expr"
)

// The texts of PartiQL's own errors, each written once here and referred
// to by name; the texts the operations a statement runs as give are the
// engine's (engine/messages.go) and the expression package's.

// PartiQL (ExecuteStatement, BatchExecuteStatement, ExecuteTransaction).
//
// Sources: AWS's answers recorded by paritysuite/dynamodb-conformance
// (tests/tier3/error-messages/partiqlGrammar.test.ts, partiqlFunctions.test.ts
// and partiqlParameterNumbers.test.ts, tests/tier2/partiql/*.test.ts;
// eu-west-2 and us-east-1, October 2026), marked "recorded"; the texts
// DynamoDB Local's PartiQL layer ships (its ValidationExceptionMessages),
// marked "DynamoDB Local", which agree with the recorded ones wherever
// both exist; moto's tests of ExecuteStatement and BatchExecuteStatement
// (tests/test_dynamodb/test_dynamodb_statements.py), marked "moto"; and
// "no recording" where a text was chosen.

const (
	// msgQLDuplicateItem: an INSERT of a key that exists (AWS's
	// developer guide, "PartiQL insert statements", and recorded answers
	// quoted in the AWS CLI and aws-sdk-go-v2 users' reports).
	msgQLDuplicateItem = "Duplicate primary key exists in table"
	// msgQLIncompleteKey: recorded (FROM ... SET without WHERE).
	msgQLIncompleteKey = "Where clause does not contain a mandatory equality on all key attributes"
	// msgQLMissingLiteral: DynamoDB Local.
	msgQLMissingLiteral = "MISSING must be compared using IS operator"
	// msgQLEmptyBag: recorded (set_add(ss, <<>>)).
	msgQLEmptyBag = "Empty bags are not supported"
	// msgQLBagType: DynamoDB Local.
	msgQLBagType = "Unsupported data type in Bag. DynamoDB only supports either numbers or strings in bags"
	// msgQLInOperator: DynamoDB Local.
	msgQLInOperator = "IN operator must have a left hand argument of type Variable Reference and right hand argument of type Seq with at least one member"
	// msgQLIsOperand: DynamoDB Local.
	msgQLIsOperand = "The left hand side argument to IS must be a Variable Reference, Literal, or Path"
	// msgQLIsInUpdate: DynamoDB Local.
	msgQLIsInUpdate = "IS operator is not supported in update expressions"
	// msgQLWhereBoolean: DynamoDB Local.
	msgQLWhereBoolean = "WHERE clause must contain an expression that resolves to a boolean"
	// msgQLInsertFormat: DynamoDB Local.
	msgQLInsertFormat = "Unsupported format in item expression. Please use struct format {...} to express item values for insert statement."
	// msgQLOnIndex: DynamoDB Local (an UPDATE or DELETE of "t"."i").
	msgQLOnIndex = "This operation is not supported on an index"
	// msgQLReturningInsert: DynamoDB Local.
	msgQLReturningInsert = "RETURNING is not supported in INSERT"
	// msgQLExistsOutsideTx: DynamoDB Local.
	msgQLExistsOutsideTx = "EXISTS can only be used in ExecuteTransaction write requests."
	// msgQLExistsNeedsCondition: recorded.
	msgQLExistsNeedsCondition = "EXISTS() must contain a single item read with additional condition"
	// msgQLTxSelectKey and msgQLBatchSelectKey: recorded.
	msgQLTxSelectKey    = "Select statements within ExecuteTransaction must specify the primary key in the where clause."
	msgQLBatchSelectKey = "Select statements within BatchExecuteStatement must specify the primary key in the where clause."
	// msgQLTxIndex and msgQLTxConditionIndex: DynamoDB Local.
	msgQLTxIndex          = "Reads on indices are not supported within transactions."
	msgQLTxConditionIndex = "Operations on indices are not supported in transactions"
	// msgQLTxMixed: recorded on DynamoDB Local (a transaction of a read
	// and a write).
	msgQLTxMixed = "ExecuteTransaction API does not support both read and write operations in the same request."
	// msgQLBatchMixed: no recording; AWS's developer guide says a batch
	// holds reads only or writes only.
	msgQLBatchMixed = "BatchExecuteStatement API does not support both read and write operations in the same request."
	// msgQLOrderBy*: DynamoDB Local.
	msgQLOrderByNoWhere   = "Must have WHERE clause in the statement when using ORDER BY clause."
	msgQLOrderByNoHash    = "Must have at least one non-optional hash key condition in WHERE clause when using ORDER BY clause."
	msgQLOrderByMultiHash = "Must have hash key in ORDER BY clause when more than one hash key condition specified in WHERE clause."
	// msgQLTooManyReads: DynamoDB Local; AWS's developer guide ("PartiQL
	// operators") allows 50 partition key values in an IN.
	msgQLTooManyReads = "Too many decomposed read operations for a given query."
	// msgQLConsistentGSI: DynamoDB Local.
	msgQLConsistentGSI = "Strongly consistent read is not supported on Global Secondary Indexes"
	// msgQLOverlap: recorded (OR branches on one partition key, one with
	// a sort key condition, one with a non-key condition).
	msgQLOverlap = "Overlapping conditions with range keys are not supported in where clause"
	// msgQLMultiKeyIndex: recorded
	// (partiqlMultiAttributeIndex.test.ts): a read of a GSI whose key has
	// several HASH or RANGE attributes.
	msgQLMultiKeyIndex = "PartiQL statements cannot be executed on tables with multi-attribute HASH keys or multi-attribute RANGE keys."
	// msgQLTxReturning: no recording (DynamoDB Local refuses RETURNING
	// in a transaction; its text was not recorded).
	msgQLTxReturning = "RETURNING is not supported in transactions"
	// msgQLNextToken* : DynamoDB Local.
	msgQLNextTokenInvalid  = dynamo.MsgInvalidNextToken
	msgQLNextTokenMismatch = "NextToken does not match request"
)

// msgQLUnsupportedType: recorded ("Unsupported data type: set_add under
// key root", followed by the position).
func msgQLUnsupportedType(what, at string) string {
	return "Unsupported data type: " + what + " under key " + at
}

// msgQLTupleKeyType and msgQLDuplicateTupleKey: DynamoDB Local.
func msgQLTupleKeyType(what, at string) string {
	return "Tuple keys must be of type String. Actual type: " + what + " under " + at
}

func msgQLDuplicateTupleKey(key, at string) string {
	return "Duplicate keys in tuple. Key: " + key + " under " + at
}

// msgQLOperands and msgQLNeedsPath: recorded (attribute_exists).
func msgQLOperands(fn string, n int) string {
	return fmt.Sprintf("Incorrect number of operands for operator or function; operator or function: %s, number of operands: %d", fn, n)
}

func msgQLNeedsPath(fn string) string {
	return expr.MsgNeedsPath + fn
}

// msgQLUnrecognizedFunction: recorded, followed by the position.
func msgQLUnrecognizedFunction(fn string) string { return "Unrecognized function: " + fn }

// msgQLConditionOp and msgQLUpdateOp: DynamoDB Local.
func msgQLConditionOp(op string) string {
	return "Unsupported operator in Condition Expression. Operator: " + op
}

func msgQLUpdateOp(op string) string {
	return "Unsupported operator in Update Expression. Operator: " + op
}

// msgQLIsType: DynamoDB Local.
func msgQLIsType(t string) string {
	return "Unsupported data type for IS operator: " + t + ". Supported data types are [MISSING, NULL, BOOLEAN, BLOB, STRING, NUMERIC, STRUCT, TUPLE, LIST]"
}

// msgQLMultipleKeyConditions: DynamoDB Local.
func msgQLMultipleKeyConditions(key string) string {
	return "Multiple conditions on same key " + key + ". Only single item Update/Insert/Delete are supported"
}

// msgQLSetArgs, msgQLSetFirstArg and msgQLSetSecondArg: recorded, each
// followed by a position.
func msgQLSetArgs(op string) string { return "SET_" + op + " must have exactly two arguments" }

func msgQLSetFirstArg(op string) string {
	return "The first argument to SET_" + op + " must equal the assignment value"
}

func msgQLSetSecondArg(op string) string {
	return "The second argument to SET_" + op + " must be a value with type SET"
}

// msgQLKeyAbsent and msgQLKeyType: DynamoDB Local.
func msgQLKeyAbsent(key string) string {
	return "Key attribute should be present in the item: Key " + key
}

func msgQLKeyType(key string) string {
	return "Key attribute's data type should match its data type in table's schema: Key " + key
}

// msgQLReturningDelete: DynamoDB Local.
func msgQLReturningDelete(r string) string {
	return "Invalid returning clause: RETURNING " + r + ". Only RETURNING ALL OLD * is allowed in DELETE statements."
}

// msgQLOrderByKey and msgQLOrderByType: DynamoDB Local.
func msgQLOrderByKey(name string) string {
	return "Variable reference " + name + " in ORDER BY clause must be part of the primary key"
}

func msgQLOrderByType(what string) string {
	return "Argument to ORDER BY must be of type VariableReference. Type: " + what
}

// msgQLTxStatement prefixes a statement's validation error in
// ExecuteTransaction: recorded ("Validation failed in
// TransactStatements[0]: ...").
func msgQLTxStatement(i int, msg string) string {
	return fmt.Sprintf("Validation failed in TransactStatements[%d]: %s", i, msg)
}
