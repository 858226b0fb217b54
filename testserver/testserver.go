// Package testserver runs a real dynago server for tests: an in-memory
// engine behind the HTTP front end on a loopback port, with an AWS SDK
// client pointed at it and a helper for hand-made HTTP requests. Tests use
// it to drive dynago exactly as applications do. For restart and crash
// tests, StartProcess runs a real "dynago serve" as a subprocess of the
// test binary instead.
//
// It is the helper of dynago's own suites (end to end, the commands, the
// toolkit, the examples), kept at the top of the tree with the other test
// helpers because it stands on the server and package local. Programs
// testing their own code want package dynagotest instead.
package testserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"

	"github.com/dynago/dynago/engine"
	"github.com/dynago/dynago/exports"
	"github.com/dynago/dynago/internal/sdkhttp"
	"github.com/dynago/dynago/internal/storage"
	"github.com/dynago/dynago/local"
	"github.com/dynago/dynago/server"
	"github.com/dynago/dynago/server/sigv4"
)

// Region and AccountID are the ones the test server puts in ARNs.
const (
	Region    = engine.DefaultRegion
	AccountID = engine.DefaultAccountID
)

// Server is a running dynago server.
type Server struct {
	// URL is the server's base URL, http://127.0.0.1:PORT.
	URL string
	// S3Dir is the folder standing for S3 where exports go and imports
	// come from (bucket B is its sub-folder B); "" when the test gave
	// the engine an Exchange of its own.
	S3Dir string
	// Client is an AWS SDK client for the server over TCP. Retries are
	// off, so an error surfaces from the first attempt.
	Client *dynamodb.Client
	// API is the client the tests asked for with DYNAGO_TEST_CLIENT
	// (ClientKind): Client itself over TCP (the default), the SDK's
	// client on the in-process transport to the server's handler, or
	// local's direct client on the engine. All three reach the same
	// database, without retries.
	API local.API
	// Streams is a DynamoDB Streams client for the server over TCP,
	// retry-free too.
	Streams *dynamodbstreams.Client
	// StreamsAPI is the Streams client DYNAGO_TEST_CLIENT asks for, as
	// API is: Streams, the SDK's client on the in-process transport, or
	// local's direct Streams client.
	StreamsAPI local.StreamsAPI
	// DB is the engine behind the server.
	DB *engine.DB

	http *httptest.Server
}

// Option changes how Start configures the server.
type Option func(*engine.Options, *server.Config)

// WithNow makes the engine read the time from now.
func WithNow(now func() time.Time) Option {
	return func(o *engine.Options, _ *server.Config) { o.Now = now }
}

// WithEngineOptions lets set change the engine's options, such as
// StreamShardDuration, TTLSweepInterval or TTLChangeCooldown.
func WithEngineOptions(set func(*engine.Options)) Option {
	return func(o *engine.Options, _ *server.Config) { set(o) }
}

// WithAuth makes the server take only requests signed with one of
// creds, as dynago serve --auth does.
func WithAuth(creds *sigv4.Credentials) Option {
	return func(_ *engine.Options, c *server.Config) { c.Auth = sigv4.NewVerifier(creds) }
}

// WithMaxBodyBytes sets the server's request size limit.
func WithMaxBodyBytes(n int64) Option {
	return func(_ *engine.Options, c *server.Config) { c.MaxBodyBytes = n }
}

// WithStore runs the server on st instead of the store the suite picks
// (Pebble in memory, or PostgreSQL under DYNAGO_TEST_STORE), such as a
// store wrapped to fail chosen calls. The engine takes it over and
// closes it.
func WithStore(st storage.Store) Option {
	return func(o *engine.Options, _ *server.Config) { o.Store = st }
}

// Start starts a server on a loopback port with an empty in-memory
// database. It is shut down, and the database closed, when the test ends.
func Start(t testing.TB, opts ...Option) *Server {
	t.Helper()
	eo := engine.Options{InMemory: true, Region: Region, AccountID: AccountID}
	var sc server.Config
	for _, o := range opts {
		o(&eo, &sc)
	}
	if eo.Store == nil {
		eo.Store = openTestStore(t)
	}
	s3dir := ""
	if eo.Exchange == nil {
		// Exports and imports go to a folder of the test's standing for
		// S3: bucket B is its sub-folder B.
		s3dir = t.TempDir()
		eo.Exchange = exports.New(exports.Config{Dir: s3dir})
	}
	db, err := engine.Open(eo)
	if err != nil {
		t.Fatalf("open engine: %v", err)
	}
	h := server.New(db, sc)
	hs := httptest.NewServer(h)
	s := &Server{URL: hs.URL, DB: db, http: hs, S3Dir: s3dir}
	s.Client = NewClient(hs.URL)
	s.API = newAPI(t, s.Client, db, h, hs.URL)
	s.Streams = NewStreamsClient(hs.URL)
	s.StreamsAPI = newStreamsAPI(t, s.Streams, db, h, hs.URL)
	t.Cleanup(func() {
		hs.Close()
		// Whatever the test did, the database it leaves must agree with
		// itself: every index entry its item's, every item with its
		// entries, the counters what the rows add up to. A test that
		// closed the database itself has nothing to check.
		if err := db.Check(); err != nil && !errors.Is(err, engine.ErrClosed) {
			t.Errorf("integrity check of the test's database: %v", err)
		}
		if err := db.Close(); err != nil {
			t.Errorf("close engine: %v", err)
		}
	})
	return s
}

// NewClient returns an SDK client for the dynago server at url, with static
// credentials, region us-east-1 and no retries (through sdkhttp, so no
// spurious connection errors either).
func NewClient(url string) *dynamodb.Client {
	return dynamodb.New(dynamodb.Options{
		Region:       Region,
		BaseEndpoint: aws.String(url),
		Credentials:  credentials.NewStaticCredentialsProvider("AKIDTEST", "SECRETTEST", ""),
		Retryer:      aws.NopRetryer{},
		HTTPClient:   sdkhttp.Client{},
	})
}

// The clients DYNAGO_TEST_CLIENT selects for Server.API.
const (
	ClientTCP       = "tcp"
	ClientInProcess = "inprocess"
	ClientDirect    = "direct"
)

// ClientKind returns the client the environment variable
// DYNAGO_TEST_CLIENT asks the tests to use: tcp (the default when unset),
// inprocess or direct. Any other value is an error.
func ClientKind() (string, error) {
	switch k := os.Getenv("DYNAGO_TEST_CLIENT"); k {
	case "", ClientTCP:
		return ClientTCP, nil
	case ClientInProcess, ClientDirect:
		return k, nil
	default:
		return "", fmt.Errorf("DYNAGO_TEST_CLIENT=%q: want tcp, inprocess or direct", k)
	}
}

// newAPI returns the client ClientKind selects for a server at url whose
// handler is h over the engine db; tcp is the TCP client c.
func newAPI(t testing.TB, c *dynamodb.Client, db *engine.DB, h http.Handler, url string) local.API {
	kind, err := ClientKind()
	if err != nil {
		t.Fatal(err)
	}
	switch kind {
	case ClientInProcess:
		return NewInProcessClient(h, url)
	case ClientDirect:
		return local.NewDirect(db, NewInProcessClient(h, url))
	}
	return c
}

// newStreamsAPI is newAPI for DynamoDB Streams.
func newStreamsAPI(t testing.TB, c *dynamodbstreams.Client, db *engine.DB, h http.Handler, url string) local.StreamsAPI {
	kind, err := ClientKind()
	if err != nil {
		t.Fatal(err)
	}
	switch kind {
	case ClientInProcess:
		return NewInProcessStreamsClient(h, url)
	case ClientDirect:
		return local.NewDirectStreams(db, NewInProcessStreamsClient(h, url))
	}
	return c
}

// NewInProcessStreamsClient is NewInProcessClient for DynamoDB Streams.
func NewInProcessStreamsClient(h http.Handler, url string) *dynamodbstreams.Client {
	return dynamodbstreams.New(dynamodbstreams.Options{
		Region:       Region,
		BaseEndpoint: aws.String(url),
		Credentials:  credentials.NewStaticCredentialsProvider("AKIDTEST", "SECRETTEST", ""),
		Retryer:      aws.NopRetryer{},
		HTTPClient:   local.NewTransport(h),
	})
}

// NewInProcessClient returns an SDK client configured as NewClient whose
// requests go to the handler h through local's in-process transport, with
// url as the base endpoint (so the Host header is the server's).
func NewInProcessClient(h http.Handler, url string) *dynamodb.Client {
	return dynamodb.New(dynamodb.Options{
		Region:       Region,
		BaseEndpoint: aws.String(url),
		Credentials:  credentials.NewStaticCredentialsProvider("AKIDTEST", "SECRETTEST", ""),
		Retryer:      aws.NopRetryer{},
		HTTPClient:   local.NewTransport(h),
	})
}

// NewStreamsClient returns a DynamoDB Streams SDK client for the dynago
// server at url, configured as NewClient: static credentials, region
// us-east-1, no retries.
func NewStreamsClient(url string) *dynamodbstreams.Client {
	return dynamodbstreams.New(dynamodbstreams.Options{
		Region:       Region,
		BaseEndpoint: aws.String(url),
		Credentials:  credentials.NewStaticCredentialsProvider("AKIDTEST", "SECRETTEST", ""),
		Retryer:      aws.NopRetryer{},
		HTTPClient:   sdkhttp.Client{},
	})
}

// SweepTTL asks the server at url to delete its expired items now (POST
// /dynago/ttl/sweep, dynago's own request) and returns how many it
// deleted.
func SweepTTL(url string) (int, error) {
	res, err := sdkhttp.Client{}.Do(mustRequest(url + "/dynago/ttl/sweep"))
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		return 0, err
	}
	if res.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("POST /dynago/ttl/sweep: status %d: %s", res.StatusCode, body)
	}
	var out struct{ Deleted *int }
	if err := json.Unmarshal(body, &out); err != nil || out.Deleted == nil {
		return 0, fmt.Errorf("POST /dynago/ttl/sweep: unexpected answer %q", body)
	}
	return *out.Deleted, nil
}

func mustRequest(url string) *http.Request {
	req, err := http.NewRequest(http.MethodPost, url, nil)
	if err != nil {
		panic(err)
	}
	return req
}

// Response is the answer to a raw request.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// Raw POSTs body to the server as the DynamoDB operation op (the
// X-Amz-Target is "DynamoDB_20120810."+op; an empty op sends no target),
// with the JSON 1.0 content type and any extra headers given as name,
// value pairs.
func (s *Server) Raw(t testing.TB, op, body string, headers ...string) Response {
	t.Helper()
	h := http.Header{"Content-Type": {"application/x-amz-json-1.0"}}
	if op != "" {
		h.Set("X-Amz-Target", "DynamoDB_20120810."+op)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		h.Set(headers[i], headers[i+1])
	}
	return s.Do(t, http.MethodPost, h, strings.NewReader(body))
}

// Do sends a request with the given method, headers and body to the
// server's root path and reads the whole response.
func (s *Server) Do(t testing.TB, method string, h http.Header, body io.Reader) Response {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, s.URL+"/", body)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range h {
		req.Header[k] = v
	}
	res, err := s.http.Client().Do(req)
	if err != nil {
		t.Fatalf("%s request: %v", method, err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("read response: %v", err)
	}
	return Response{Status: res.StatusCode, Header: res.Header, Body: data}
}
