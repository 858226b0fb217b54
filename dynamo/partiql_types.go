package dynamo

import "github.com/dynago/dynago/attr"

// Request and response shapes of ExecuteStatement, BatchExecuteStatement
// and ExecuteTransaction, field for field as in DynamoDB's API reference.

// CodeDuplicateItem is the error of a PartiQL INSERT whose key exists.
//
// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ExecuteStatement.html#API_ExecuteStatement_Errors
const CodeDuplicateItem = "DuplicateItemException"

// ExecuteStatementInput is ExecuteStatement's request.
type ExecuteStatementInput struct {
	Statement string
	// NoStatement records a request without the Statement member.
	NoStatement                         bool
	Parameters                          []attr.Value
	ConsistentRead                      bool
	NextToken                           string
	NextTokenSet                        bool
	Limit                               *int32
	ReturnConsumedCapacity              string
	ReturnValuesOnConditionCheckFailure string
	// ValueError: see ValueError in validation_order.go.
	ValueError error
}

// ExecuteStatementOutput is ExecuteStatement's response. Items is never
// nil: DynamoDB always sends the list.
type ExecuteStatementOutput struct {
	Items            []attr.Item
	NextToken        string
	LastEvaluatedKey attr.Item
	ConsumedCapacity *ConsumedCapacity
}

// BatchStatementRequest is one statement of a BatchExecuteStatement.
type BatchStatementRequest struct {
	Statement                           string
	NoStatement                         bool
	Parameters                          []attr.Value
	ConsistentRead                      bool
	ReturnValuesOnConditionCheckFailure string
	// Denied, set by a server that applies resource-based policies, is
	// the AccessDeniedException of a statement its signer may not run:
	// the statement's slot answers it (code AccessDenied) and it is not
	// run.
	Denied error
}

// BatchExecuteStatementInput is BatchExecuteStatement's request.
type BatchExecuteStatementInput struct {
	Statements             []BatchStatementRequest
	ReturnConsumedCapacity string
	// ValueError: see ValueError in validation_order.go.
	ValueError error
}

// BatchStatementError is the error of one statement of a batch.
type BatchStatementError struct {
	Code    string
	Message string
	Item    attr.Item
}

// BatchStatementResponse is the answer to one statement of a batch.
type BatchStatementResponse struct {
	Error     *BatchStatementError
	TableName string
	Item      attr.Item
}

// BatchExecuteStatementOutput is BatchExecuteStatement's response.
type BatchExecuteStatementOutput struct {
	Responses        []BatchStatementResponse
	ConsumedCapacity []ConsumedCapacity
}

// ParameterizedStatement is one statement of an ExecuteTransaction.
type ParameterizedStatement struct {
	Statement                           string
	NoStatement                         bool
	Parameters                          []attr.Value
	ReturnValuesOnConditionCheckFailure string
}

// ExecuteTransactionInput is ExecuteTransaction's request.
type ExecuteTransactionInput struct {
	TransactStatements     []ParameterizedStatement
	ClientRequestToken     string
	ClientRequestTokenSet  bool
	ReturnConsumedCapacity string
	// ValueError: see ValueError in validation_order.go.
	ValueError error
}

// ExecuteTransactionOutput is ExecuteTransaction's response: one
// ItemResponse per statement of a transaction of reads, none for one of
// writes (DynamoDB sends an empty list).
type ExecuteTransactionOutput struct {
	Responses        []ItemResponse
	ConsumedCapacity []ConsumedCapacity
}
