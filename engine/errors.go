package engine

import "github.com/dynago/dynago/attr"

// DynamoDB error codes, as sent in the "__type" field after the '#'.
const (
	CodeValidation                 = "ValidationException"
	CodeResourceNotFound           = "ResourceNotFoundException"
	CodeResourceInUse              = "ResourceInUseException"
	CodeConditionalCheckFailed     = "ConditionalCheckFailedException"
	CodeSerialization              = "SerializationException"
	CodeUnknownOperation           = "UnknownOperationException"
	CodeLimitExceeded              = "LimitExceededException"
	CodeInternalServerError        = "InternalServerError"
	CodeTransactionCanceled        = "TransactionCanceledException"
	CodeTransactionConflict        = "TransactionConflictException"
	CodeIdempotentParameter        = "IdempotentParameterMismatchException"
	CodeItemCollectionSizeLimit    = "ItemCollectionSizeLimitExceededException"
	CodeProvisionedThroughput      = "ProvisionedThroughputExceededException"
	CodeRequestLimitExceeded       = "RequestLimitExceeded"
	CodeMissingAuthenticationToken = "MissingAuthenticationTokenException"
	CodeAccessDenied               = "AccessDeniedException"
	// CodeInternalFailure is the HTTP 500 of the framework in front of
	// DynamoDB, sent without a message, for request shapes the service
	// fails on (the ack-api-quirks lab, DDB-TABLE-437, -178 and -456).
	CodeInternalFailure = "InternalFailure"
)

// Error is an error DynamoDB reports to its clients: a code from the list
// above and DynamoDB's exact message. Every error the engine returns that a
// client should see is an *Error; anything else is an internal fault.
type Error struct {
	Code    string
	Message string
	// Item is the item that failed a condition, set on
	// ConditionalCheckFailedException when the request asked for
	// ReturnValuesOnConditionCheckFailure=ALL_OLD.
	Item attr.Item
	// CancellationReasons is set on TransactionCanceledException, one per
	// action in request order.
	CancellationReasons []CancellationReason

	// current is the text of a value's own problem in DynamoDB's
	// current validation layer (attr.Error.Current), which the
	// operations that run that layer answer instead (currentLayer).
	current string
	// prefix is attr.Error.Prefix: set on a problem of a statement's
	// expression, worded bare, which writeEnvelope envelopes with it.
	prefix string
}

// CancellationReason explains why one action of a transaction failed.
type CancellationReason struct {
	Code    string // "None" for actions that did not fail
	Message string
	Item    attr.Item
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// Validation returns a ValidationException with the given message.
func Validation(msg string) *Error { return &Error{Code: CodeValidation, Message: msg} }

// NotFound returns a ResourceNotFoundException with the given message.
func NotFound(msg string) *Error { return &Error{Code: CodeResourceNotFound, Message: msg} }

// InternalServerError returns DynamoDB's answer to a failure of its own
// (HTTP 500, "Internal server error"), which SDKs retry: what a client
// gets for a store, disk or network fault, or a panic.
func InternalServerError() *Error {
	return &Error{Code: CodeInternalServerError, Message: msgInternalServerError}
}

// internalFailure returns the message-less HTTP 500 InternalFailure.
func internalFailure() *Error { return &Error{Code: CodeInternalFailure} }

// InUse returns a ResourceInUseException with the given message.
func InUse(msg string) *Error { return &Error{Code: CodeResourceInUse, Message: msg} }
