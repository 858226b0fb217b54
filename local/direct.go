package local

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"reflect"
	"sync/atomic"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/middleware"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/engine"
	"github.com/dynago/dynago/server"
)

// Direct is a DynamoDB client with the method set of *dynamodb.Client
// (it satisfies API and the SDK's *APIClient interfaces, so paginators
// and waiters take it) that calls dynago's engine in the caller's
// goroutine without the SDK's HTTP stack: no middleware, signing, JSON or
// handler. Results and errors are the SDK's own types, as the SDK
// would have decoded them from the wire: a failed condition is a
// *types.ConditionalCheckFailedException, a ValidationException a
// *smithy.GenericAPIError, each wrapped in a *smithy.OperationError.
//
// Every operation is converted straight to the engine's request.
// Requests that use what the direct path does not convert go through the
// SDK's client on the in-process Transport instead, so that every
// request gets exactly the answer it gets over the network: the legacy
// Expected, AttributeUpdates, KeyConditions, QueryFilter and ScanFilter
// parameters, a tag without its key or value, a string that is not UTF-8
// (the SDK's JSON replaces its bad bytes), an attribute value the SDK
// would send in a form of its own (nil, an unknown union member, a nil
// set or blob, one nested past the decoder's depth guard), a request
// whose JSON could exceed 12 MB (the server refuses bodies over 16 MB),
// and DescribeEndpoints when the SDK client has no base endpoint to
// answer with.
//
// While the database has a fault plan (WithFaults), every request goes
// through the SDK's client, as the faults are the HTTP handler's.
//
// What differs from a *dynamodb.Client: the direct path does not retry
// (a throttled request fails at once, as with aws.NopRetryer) and ignores
// optFns (middleware, retryer, endpoint and logging options change
// nothing the engine sees). A request the engine refuses is checked with
// the SDK's own parameter validation first, so a missing required member
// is reported as the SDK reports it (smithy.InvalidParamsError), not as
// the server would. Outputs have no ResultMetadata (it describes an HTTP
// exchange). As the SDK's client does, a TransactWriteItems or
// ExecuteTransaction without a ClientRequestToken gets one made up and
// set in its input, so that sending the same input again is idempotent.
//
// A Direct is safe for concurrent use.
type Direct struct {
	conn[dynamodb.Client]
	db *engine.DB
	// tokens makes up the ClientRequestToken of a transaction that has
	// none, as the SDK's client does (its provider).
	tokens dynamodb.IdempotencyTokenProvider
	// host is the Host header of sdk's requests (endpointHost).
	host string
}

// conn is what Direct and DirectStreams share, over the SDK's client
// type C of their service: the clients the direct path hands requests
// to, and how it reports errors as that SDK does.
type conn[C any] struct {
	// sdk is the SDK's client on the in-process transport, for what the
	// direct path leaves to it.
	sdk *C
	// check is an SDK client whose operations stop after the SDK's
	// parameter validation (errChecked).
	check *C
	// limit bounds the JSON of the requests the direct path takes
	// (bodyLimit).
	limit int
	// closed, when set, is the closed flag of the database's transport:
	// once the database is closed, calls go through the SDK's path and
	// fail with ErrClosed as they do there.
	closed *atomic.Bool
	// viaSDK, when set, reports whether calls must go through the SDK's
	// path for now: while the database has a fault plan, whose faults
	// are injected by the HTTP handler.
	viaSDK func() bool
	// service is the SDK's ServiceID, named by the errors'
	// smithy.OperationError.
	service string
	// apiError is the SDK's error type for an engine error.
	apiError func(*dynamo.Error) error
}

func (c *conn[C]) isClosed() bool {
	return c.closed != nil && c.closed.Load() || c.viaSDK != nil && c.viaSDK()
}

// call is the envelope of every direct operation around its own steps:
// convert reads the operation's input in (an empty one for nil) into the
// engine's request, a variable of the operation's that run shares, and
// reports whether the direct path takes the input; run calls the engine
// and converts its answer into the SDK's output. An input the direct
// path does not take, and every one once the database is closed or
// while it has a fault plan (viaSDK), goes to
// sdk, the SDK's operation as a method expression
// ((*dynamodb.Client).GetItem) called on the SDK's client; a context
// done before the engine is called fails as the SDK's does; an error of
// the engine's becomes the SDK's (fail), op naming the operation.
//
// The request lives in the operation's frame and neither convert nor
// run escapes, so the envelope allocates nothing on the direct path.
func call[C, O, In, Out any](c *conn[C], ctx context.Context, op string, in *In, optFns []func(*O),
	sdk func(*C, context.Context, *In, ...func(*O)) (*Out, error),
	convert func(in *In) bool, run func() (*Out, error)) (*Out, error) {
	if in == nil {
		in = new(In)
	}
	if !convert(in) || c.isClosed() {
		return sdk(c.sdk, ctx, in, optFns...)
	}
	if err := ctx.Err(); err != nil {
		return nil, operationErrorOf(c.service, op, canceledError(err))
	}
	out, err := run()
	if err != nil {
		return nil, c.fail(op, err, func(v *C) error { _, err := sdk(v, ctx, in); return err })
	}
	return out, nil
}

// Direct returns a direct client for the database. The operations it
// leaves to the SDK go to a client of the database's (Client) with
// retries off.
func (db *DB) Direct() *Direct {
	d := NewDirect(db.engine, db.Client(func(o *dynamodb.Options) { o.Retryer = aws.NopRetryer{} }))
	d.limit = db.jsonLimit()
	d.closed = &db.transport.closed
	d.viaSDK = db.handler.FaultsOn
	return d
}

// jsonLimit is the bodyLimit of the database's direct clients: three
// quarters of its server's request size limit when that is below
// DynamoDB's.
func (db *DB) jsonLimit() int {
	if db.maxBody > 0 && db.maxBody < server.DefaultMaxBodyBytes {
		return int(db.maxBody * 3 / 4)
	}
	return bodyLimit
}

// NewDirect returns a direct client for the engine db. sdk is an SDK
// client of a server over the same engine (on the in-process Transport,
// usually) that gets the operations the direct path leaves to the SDK;
// it should not retry, as the direct path does not.
func NewDirect(db *engine.DB, sdk *dynamodb.Client) *Direct {
	opts := sdk.Options()
	opts.APIOptions = append(opts.APIOptions[:len(opts.APIOptions):len(opts.APIOptions)], func(s *middleware.Stack) error {
		// The SDK validates its input in the initialize step; stop at
		// the step's end.
		return s.Initialize.Add(middleware.InitializeMiddlewareFunc("dynagoChecked",
			func(context.Context, middleware.InitializeInput, middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
				return middleware.InitializeOutput{}, middleware.Metadata{}, errChecked
			}), middleware.After)
	})
	return &Direct{
		conn: conn[dynamodb.Client]{sdk: sdk, check: dynamodb.New(opts), limit: bodyLimit, service: dynamodb.ServiceID, apiError: apiError},
		db:   db, tokens: sdk.Options().IdempotencyTokenProvider, host: endpointHost(sdk),
	}
}

// errChecked ends a call of Direct.check once the SDK's validation has
// passed.
var errChecked = errors.New("local: parameters valid")

// fail turns err, the engine's answer to the operation op, into the error
// the SDK would have returned: the SDK's own validation error if the
// request fails it (validate calls the operation on the client it is
// given), otherwise the engine's error as the SDK decodes it.
func (c *conn[C]) fail(op string, err error, validate func(*C) error) error {
	if verr := validate(c.check); verr != nil && !errors.Is(verr, errChecked) {
		return verr
	}
	return operationErrorOf(c.service, op, responseError(err, c.apiError))
}

// token sets *dst to a new idempotency token when it is nil, as the
// SDK's client does before it validates a transaction's input.
func (c *Direct) token(op string, dst **string) error {
	if *dst != nil || c.tokens == nil {
		return nil
	}
	t, err := c.tokens.GetIdempotencyToken()
	if err != nil {
		return operationError(op, err)
	}
	*dst = &t
	return nil
}

func canceledError(err error) error { return &smithy.CanceledError{Err: err} }

func operationError(op string, err error) error {
	return &smithy.OperationError{ServiceID: dynamodb.ServiceID, OperationName: op, Err: err}
}

// operationErrorOf is operationError for the client of service (a
// ServiceID).
func operationErrorOf(service, op string, err error) error {
	return &smithy.OperationError{ServiceID: service, OperationName: op, Err: err}
}

// responseError wraps the API error for err as the SDK wraps what it
// decodes from a response: in an *awshttp.ResponseError with the HTTP
// status (500 for InternalServerError and InternalFailure, 400 otherwise)
// and a request id.
func responseError(err error, apiError func(*dynamo.Error) error) error {
	var e *dynamo.Error
	if !errors.As(err, &e) {
		e = dynamo.InternalServerError()
	}
	status := http.StatusBadRequest
	if e.Code == dynamo.CodeInternalServerError || e.Code == dynamo.CodeInternalFailure {
		status = http.StatusInternalServerError
	}
	id := requestID()
	return &awshttp.ResponseError{
		ResponseError: &smithyhttp.ResponseError{
			Response: &smithyhttp.Response{Response: &http.Response{
				StatusCode: status,
				Header:     http.Header{"X-Amzn-Requestid": {id}},
			}},
			Err: apiError(e),
		},
		RequestID: id,
	}
}

// apiError is the SDK's error type for e: the type the SDK's registry
// names for its code, with the message and (for a failed condition or a
// canceled transaction) the item and reasons, or a smithy.GenericAPIError
// for a code the SDK has no type for (ValidationException among them).
func apiError(e *dynamo.Error) error {
	var msg *string
	if e.Message != "" {
		msg = aws.String(e.Message)
	}
	switch e.Code {
	case dynamo.CodeConditionalCheckFailed:
		return &types.ConditionalCheckFailedException{Message: msg, Item: fromItem(e.Item)}
	case dynamo.CodeTransactionCanceled:
		x := &types.TransactionCanceledException{Message: msg}
		if e.CancellationReasons != nil {
			x.CancellationReasons = make([]types.CancellationReason, len(e.CancellationReasons))
			for i, r := range e.CancellationReasons {
				x.CancellationReasons[i] = types.CancellationReason{
					Code: optString(r.Code), Message: optString(r.Message), Item: fromItem(r.Item),
				}
			}
		}
		return x
	case dynamo.CodeResourceNotFound:
		return &types.ResourceNotFoundException{Message: msg}
	case dynamo.CodeResourceInUse:
		return &types.ResourceInUseException{Message: msg}
	case dynamo.CodeProvisionedThroughput:
		return &types.ProvisionedThroughputExceededException{Message: msg, ThrottlingReasons: throttlingReasons(e.ThrottlingReasons)}
	case dynamo.CodeThrottling:
		return &types.ThrottlingException{Message: msg, ThrottlingReasons: throttlingReasons(e.ThrottlingReasons)}
	case dynamo.CodeRequestLimitExceeded:
		return &types.RequestLimitExceeded{Message: msg, ThrottlingReasons: throttlingReasons(e.ThrottlingReasons)}
	case dynamo.CodeInternalServerError:
		return &types.InternalServerError{Message: msg}
	}
	return registryError(dynamodb.TypeRegistry, "com.amazonaws.dynamodb#", e)
}

// throttlingReasons are a throttling error's reasons in the SDK's type,
// nil for none.
func throttlingReasons(rs []dynamo.ThrottlingReason) []types.ThrottlingReason {
	if rs == nil {
		return nil
	}
	out := make([]types.ThrottlingReason, len(rs))
	for i, r := range rs {
		out[i] = types.ThrottlingReason{Reason: optString(r.Reason), Resource: optString(r.Resource)}
	}
	return out
}

// registryError is the error type the SDK's registry reg names for e's
// code (its shape names start with namespace), with e's message, or a
// smithy.GenericAPIError when it names none (InternalFailure among them),
// whose message is "UnknownError" when e has none, as the SDK's decoder
// of a response's error fills it in.
func registryError(reg *smithy.TypeRegistry, namespace string, e *dynamo.Error) error {
	if entry, ok := reg.Entries[namespace+e.Code]; ok {
		v := entry.New()
		if f := reflect.ValueOf(v).Elem().FieldByName("Message"); f.IsValid() && f.Type() == reflect.TypeFor[*string]() {
			f.Set(reflect.ValueOf(optString(e.Message)))
			if err, ok := v.(error); ok {
				return err
			}
		}
	}
	msg := e.Message
	if msg == "" {
		msg = sdkNoMessage
	}
	return &smithy.GenericAPIError{Code: e.Code, Message: msg}
}

// sdkNoMessage is the message the SDK gives an error response without one
// whose code it has no type for.
const sdkNoMessage = "UnknownError"

// requestID returns a request id like the server's: 52 upper-case
// letters and digits.
func requestID() string {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	var b [52]byte
	for i := range b {
		b[i] = alphabet[rand.IntN(len(alphabet))]
	}
	return string(b[:])
}

// optString is the SDK's reading of an optional string member: absent
// (nil) when empty, as the server leaves empty strings out.
func optString(s string) *string {
	if s == "" {
		return nil
	}
	return aws.String(s)
}

// str reads an optional string of the SDK's input: present reports a
// non-nil one.
func str(p *string) (s string, present bool) {
	if p == nil {
		return "", false
	}
	return *p, true
}

// expr reads an expression member, adding bit to *empty when it is
// present but empty, as the decoder does.
func expr(p *string, empty *dynamo.Exprs, bit dynamo.Exprs) string {
	if p == nil {
		return ""
	}
	if *p == "" {
		*empty |= bit
	}
	return *p
}

func boolValue(p *bool) bool { return p != nil && *p }
