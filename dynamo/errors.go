package dynamo

import (
	"errors"
	"strings"

	"github.com/dynago/dynago/attr"
)

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
	CodeThrottling                 = "ThrottlingException"
	CodeRequestTimeout             = "RequestTimeoutException"

	// Backups and point-in-time recovery.
	CodeBackupNotFound                 = "BackupNotFoundException"
	CodeBackupInUse                    = "BackupInUseException"
	CodeTableNotFound                  = "TableNotFoundException"
	CodeTableAlreadyExists             = "TableAlreadyExistsException"
	CodeTableInUse                     = "TableInUseException"
	CodeContinuousBackupsUnavailable   = "ContinuousBackupsUnavailableException"
	CodePointInTimeRecoveryUnavailable = "PointInTimeRecoveryUnavailableException"
	CodeInvalidRestoreTime             = "InvalidRestoreTimeException"

	// Global tables (version 2017.11.29).
	CodeGlobalTableNotFound = "GlobalTableNotFoundException"
	// Resource-based policies.
	CodePolicyNotFound = "PolicyNotFoundException"
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
	// ThrottlingReasons is set on the throttling errors
	// (ProvisionedThroughputExceededException, ThrottlingException,
	// RequestLimitExceeded): why the request was throttled and which
	// table or index ran out.
	//
	// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ThrottlingReason.html
	ThrottlingReasons []ThrottlingReason

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

// ThrottlingReason is one reason a request was throttled: Reason is
// ResourceType+OperationType+LimitType (TableReadProvisionedThroughputExceeded,
// IndexWriteKeyRangeThroughputExceeded, ...) and Resource the ARN of the
// table or index that ran out.
type ThrottlingReason struct {
	Reason   string
	Resource string
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// Validation returns a ValidationException with the given message.
func Validation(msg string) *Error { return &Error{Code: CodeValidation, Message: msg} }

// NotFound returns a ResourceNotFoundException with the given message.
func NotFound(msg string) *Error { return &Error{Code: CodeResourceNotFound, Message: msg} }

// GlobalTableNotFound returns a GlobalTableNotFoundException.
func GlobalTableNotFound(msg string) *Error {
	return &Error{Code: CodeGlobalTableNotFound, Message: msg}
}

// PolicyNotFound returns a PolicyNotFoundException.
func PolicyNotFound(msg string) *Error { return &Error{Code: CodePolicyNotFound, Message: msg} }

// InternalServerError returns DynamoDB's answer to a failure of its own
// (HTTP 500, "Internal server error"), which SDKs retry: what a client
// gets for a store, disk or network fault, or a panic.
func InternalServerError() *Error {
	return &Error{Code: CodeInternalServerError, Message: MsgInternalServerError}
}

// internalFailure returns the message-less HTTP 500 InternalFailure.
func InternalFailure() *Error { return &Error{Code: CodeInternalFailure} }

// InUse returns a ResourceInUseException with the given message.
func InUse(msg string) *Error { return &Error{Code: CodeResourceInUse, Message: msg} }

// ValidationCurrent returns a ValidationException whose value problem has
// another text in DynamoDB's current validation layer (attr.Error.Current),
// which the operations that run that layer answer instead.
func ValidationCurrent(msg, current string) *Error {
	return &Error{Code: CodeValidation, Message: msg, current: current}
}

// Prefix is the expression-kind prefix ("Invalid UpdateExpression: ") of
// a problem found in a statement's expression tree, whose Message is bare
// (attr.Error.Prefix), or "".
func (e *Error) Prefix() string { return e.prefix }

// Current is the text of the error's value problem in DynamoDB's current
// validation layer, or "".
func (e *Error) Current() string { return e.current }

// attrError turns attr's validation errors into ValidationExceptions.
func AttrError(err error) error {
	if err == nil {
		return nil
	}
	var ae *attr.Error
	if errors.As(err, &ae) {
		return &Error{Code: CodeValidation, Message: ae.Message, current: ae.Current, prefix: ae.Prefix}
	}
	return err
}

// TransactionCanceled is DynamoDB's TransactionCanceledException: the
// message lists every action's code in request order, as in
//
//	Transaction cancelled, please refer cancellation reasons for specific reasons [None, ConditionalCheckFailed]
func TransactionCanceled(reasons []CancellationReason) error {
	codes := make([]string, len(reasons))
	for i, r := range reasons {
		codes[i] = r.Code
	}
	return &Error{
		Code:                CodeTransactionCanceled,
		Message:             msgTransactionCanceled(codes),
		CancellationReasons: reasons,
	}
}

// msgTransactionCanceled is the text of a TransactionCanceledException,
// listing every action's reason code in request order: "Transaction
// cancelled, please refer cancellation reasons for specific reasons
// [None, ConditionalCheckFailed]" (AWS's TransactWriteItems reference and
// every recorded cancellation).
func msgTransactionCanceled(codes []string) string {
	return "Transaction cancelled, please refer cancellation reasons for specific reasons [" + strings.Join(codes, ", ") + "]"
}

// A constructor for each of the other codes, so every client error is
// built the same way.

// ConditionalCheckFailed returns a ConditionalCheckFailedException.
func ConditionalCheckFailed(msg string) *Error {
	return &Error{Code: CodeConditionalCheckFailed, Message: msg}
}

// Serialization returns a SerializationException: a request body that is
// not the JSON of the operation's input.
func Serialization(msg string) *Error { return &Error{Code: CodeSerialization, Message: msg} }

// UnknownOperation returns the message-less UnknownOperationException,
// DynamoDB's answer to a target that names no operation of its API.
func UnknownOperation() *Error { return &Error{Code: CodeUnknownOperation} }

// UnknownOperationUnserved returns the UnknownOperationException DynamoDB
// gives for an operation of its API that an endpoint does not serve:
// "Unknown operation exception", as DynamoDB answered ListBackups in a
// region that did not serve it yet (https://github.com/boto/boto3/issues/1542).
func UnknownOperationUnserved() *Error {
	return &Error{Code: CodeUnknownOperation, Message: "Unknown operation exception"}
}

// LimitExceeded returns a LimitExceededException.
func LimitExceeded(msg string) *Error { return &Error{Code: CodeLimitExceeded, Message: msg} }

// InternalServerErrorText returns an InternalServerError with its own
// text, where DynamoDB words one.
func InternalServerErrorText(msg string) *Error {
	return &Error{Code: CodeInternalServerError, Message: msg}
}

// TransactionConflict returns a TransactionConflictException.
func TransactionConflict(msg string) *Error {
	return &Error{Code: CodeTransactionConflict, Message: msg}
}

// IdempotentParameterMismatch returns an
// IdempotentParameterMismatchException.
func IdempotentParameterMismatch(msg string) *Error {
	return &Error{Code: CodeIdempotentParameter, Message: msg}
}

// ItemCollectionSizeLimitExceeded returns an
// ItemCollectionSizeLimitExceededException.
func ItemCollectionSizeLimitExceeded(msg string) *Error {
	return &Error{Code: CodeItemCollectionSizeLimit, Message: msg}
}

// ProvisionedThroughputExceeded returns a
// ProvisionedThroughputExceededException.
func ProvisionedThroughputExceeded(msg string) *Error {
	return &Error{Code: CodeProvisionedThroughput, Message: msg}
}

// RequestLimitExceeded returns a RequestLimitExceeded error.
func RequestLimitExceeded(msg string) *Error {
	return &Error{Code: CodeRequestLimitExceeded, Message: msg}
}

// MissingAuthenticationToken returns a
// MissingAuthenticationTokenException.
func MissingAuthenticationToken(msg string) *Error {
	return &Error{Code: CodeMissingAuthenticationToken, Message: msg}
}

// AccessDenied returns an AccessDeniedException.
func AccessDenied(msg string) *Error { return &Error{Code: CodeAccessDenied, Message: msg} }

// ExpiredIterator returns an ExpiredIteratorException (streams).
func ExpiredIterator(msg string) *Error { return &Error{Code: CodeExpiredIterator, Message: msg} }

// TrimmedDataAccess returns a TrimmedDataAccessException (streams).
func TrimmedDataAccess(msg string) *Error { return &Error{Code: CodeTrimmedDataAccess, Message: msg} }

// DuplicateItem returns a DuplicateItemException (PartiQL's INSERT of an
// item that exists).
func DuplicateItem(msg string) *Error { return &Error{Code: CodeDuplicateItem, Message: msg} }

// Throttling returns a ThrottlingException: too many requests for the
// endpoint, not for a table's capacity.
func Throttling(msg string) *Error { return &Error{Code: CodeThrottling, Message: msg} }

// RequestTimeout returns a RequestTimeoutException: a request body that
// did not arrive in time.
func RequestTimeout(msg string) *Error { return &Error{Code: CodeRequestTimeout, Message: msg} }

// Backup returns one of the backup and restore errors (the Code* constants
// of backups and point-in-time recovery) with the given message.
func Backup(code, msg string) *Error { return &Error{Code: code, Message: msg} }
