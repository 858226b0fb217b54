package protocol

import (
	"net/http"

	"github.com/dynago/dynago/dynamo"
)

// wireError says how DynamoDB sends one error code.
type wireError struct {
	// namespace is the __type prefix before the '#'.
	namespace string
	// messageKey is the member holding the message. DynamoDB is not
	// consistent: most errors say "message", a few say "Message". SDKs
	// accept both.
	messageKey string
	status     int
}

// Namespaces of the __type field.
const (
	// nsDynamoDB is DynamoDB's own service errors.
	nsDynamoDB = "com.amazonaws.dynamodb.v20120810#"
	// nsCoralService is the errors of the framework in front of the
	// service: deserialization, routing and authentication.
	nsCoralService = "com.amazon.coral.service#"
	// nsCoralValidate is the framework's request validation.
	nsCoralValidate = "com.amazon.coral.validate#"
	// nsCoralAvailability is the framework's throttling.
	nsCoralAvailability = "com.amazon.coral.availability#"
)

// wireErrors is the one table mapping error codes to the wire. The
// prefixes and message keys are those of DynamoDB's responses as recorded
// by dynalite's test suite, which runs against the real service
// (https://github.com/architect/dynalite, test/helpers.js and
// test/connection.js), and by AWS SDK issue threads quoting raw responses
// (https://github.com/aws/aws-sdk-net/issues/1292,
// https://github.com/pynamodb/PynamoDB/pull/1144). Codes not listed get
// nsDynamoDB, "message" and 400.
var wireErrors = map[string]wireError{
	// {"__type":"com.amazon.coral.validate#ValidationException","message":...}
	dynamo.CodeValidation: {nsCoralValidate, "message", http.StatusBadRequest},
	// {"__type":"com.amazon.coral.service#SerializationException","Message":...};
	// no message at all when the body is not JSON.
	dynamo.CodeSerialization: {nsCoralService, "Message", http.StatusBadRequest},
	// {"__type":"com.amazon.coral.service#UnknownOperationException"}
	dynamo.CodeUnknownOperation: {nsCoralService, "message", http.StatusBadRequest},
	// {"__type":"com.amazon.coral.service#MissingAuthenticationTokenException",
	//  "message":"Request is missing Authentication Token"}
	dynamo.CodeMissingAuthenticationToken: {nsCoralService, "message", http.StatusBadRequest},
	// {"__type":"com.amazon.coral.service#AccessDeniedException","Message":...}
	dynamo.CodeAccessDenied:           {nsCoralService, "Message", http.StatusBadRequest},
	"IncompleteSignatureException":    {nsCoralService, "message", http.StatusBadRequest},
	"InvalidSignatureException":       {nsCoralService, "message", http.StatusBadRequest},
	"UnrecognizedClientException":     {nsCoralService, "message", http.StatusBadRequest},
	"ThrottlingException":             {nsCoralAvailability, "message", http.StatusBadRequest},
	dynamo.CodeTransactionCanceled:    {nsDynamoDB, "Message", http.StatusBadRequest},
	dynamo.CodeInternalServerError:    {nsDynamoDB, "message", http.StatusInternalServerError},
	dynamo.CodeResourceNotFound:       {nsDynamoDB, "message", http.StatusBadRequest},
	dynamo.CodeResourceInUse:          {nsDynamoDB, "message", http.StatusBadRequest},
	dynamo.CodeConditionalCheckFailed: {nsDynamoDB, "message", http.StatusBadRequest},
	// The Streams API's own errors are in DynamoDB's namespace too; SDKs
	// read only the part after the '#'.
	dynamo.CodeExpiredIterator:   {nsDynamoDB, "message", http.StatusBadRequest},
	dynamo.CodeTrimmedDataAccess: {nsDynamoDB, "message", http.StatusBadRequest},
	// {"__type":"com.amazon.coral.service#InternalFailure"}, HTTP 500,
	// for request shapes DynamoDB fails on (the ack-api-quirks lab,
	// DDB-TABLE-437, -178 and -456: InternalFailure, HTTP 500, an empty
	// message), in the framework's namespace as clients matching
	// DynamoDB's raw answers spell it.
	dynamo.CodeInternalFailure: {nsCoralService, "message", http.StatusInternalServerError},
}

func lookupWireError(code string) wireError {
	if w, ok := wireErrors[code]; ok {
		return w
	}
	return wireError{nsDynamoDB, "message", http.StatusBadRequest}
}

// EncodeError appends the response body for err to dst and returns it with
// the HTTP status: {"__type":"<namespace>#<Code>","message":"..."}, 400 for
// client errors and 500 for InternalServerError and InternalFailure. An
// empty message is omitted, as DynamoDB omits it for a body that is not
// JSON and for an InternalFailure.
// ConditionalCheckFailedException carries Item when set;
// TransactionCanceledException carries CancellationReasons; the throttling
// errors carry their ThrottlingReasons. A nil err is
// encoded as an InternalServerError.
func EncodeError(dst []byte, err *dynamo.Error) (body []byte, status int) {
	if err == nil {
		err = dynamo.InternalServerError()
	}
	w := lookupWireError(err.Code)
	dst = append(dst, '{')
	dst = member(dst, "__type")
	dst = appendString(dst, w.namespace+err.Code)
	if err.CancellationReasons != nil {
		dst = append(member(dst, "CancellationReasons"), '[')
		for i := range err.CancellationReasons {
			r := &err.CancellationReasons[i]
			dst = append(comma(dst), '{')
			dst = strMember(dst, "Code", r.Code)
			dst = itemMember(dst, "Item", r.Item)
			dst = strMember(dst, "Message", r.Message)
			dst = append(dst, '}')
		}
		dst = append(dst, ']')
	}
	if err.ThrottlingReasons != nil {
		// ThrottlingException spells the member in lower camel case,
		// the other throttling errors as ThrottlingReasons (the
		// service model's ThrottlingException.throttlingReasons and
		// ProvisionedThroughputExceededException.ThrottlingReasons);
		// each reason's members are reason and resource.
		// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ThrottlingReason.html
		name := "ThrottlingReasons"
		if err.Code == dynamo.CodeThrottling {
			name = "throttlingReasons"
		}
		dst = append(member(dst, name), '[')
		for i := range err.ThrottlingReasons {
			r := &err.ThrottlingReasons[i]
			dst = append(comma(dst), '{')
			dst = strMember(dst, "reason", r.Reason)
			dst = strMember(dst, "resource", r.Resource)
			dst = append(dst, '}')
		}
		dst = append(dst, ']')
	}
	dst = itemMember(dst, "Item", err.Item)
	dst = strMember(dst, w.messageKey, err.Message)
	return append(dst, '}'), w.status
}
