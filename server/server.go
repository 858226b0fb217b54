// Package server serves dynago's engine over HTTP with DynamoDB's JSON 1.0
// protocol: target routing, gzip and deflate request bodies, responses
// compressed when the client accepts it (from 4 KiB, as DynamoDB), the
// 16 MB body limit, x-amz-crc32 checksums, request ids and DynamoDB's
// other headers, its health check ("healthy: <host> ") and its answers
// to other methods and paths, CORS for web pages (see CORS), and
// shutdown. Listener makes what net/http answers by itself (oversized
// headers) DynamoDB's answer too. It holds no DynamoDB logic: requests
// are decoded and responses encoded by server/internal/protocol, and operations
// run in the engine.
//
// One endpoint serves both APIs: X-Amz-Target DynamoDB_20120810.<op> is
// DynamoDB, DynamoDBStreams_20120810.<op> is DynamoDB Streams (point the
// streams client at the same URL).
//
// Besides the AWS APIs, the server answers two administrative requests,
// for tests; they are not part of any AWS API:
//
//	POST /dynago/ttl/sweep
//
// deletes every item whose Time to Live has passed, now, instead of
// waiting for the background sweeper, and answers {"Deleted": N} with the
// number of items deleted.
//
//	GET, POST, DELETE /dynago/faults
//
// reads, sets and clears the fault plan (faults.go, docs/REHEARSAL.md),
// for loopback clients only, or signed ones under Auth. Requests under /dynago/ that a browser marks
// cross-site (Sec-Fetch-Site, or an Origin other than the Host) are
// refused with HTTP 403, so a web page cannot trigger them.
//
// Against hostile or broken clients (see Config): request bodies and
// encoded responses draw on one byte budget, and a request that cannot
// get its share in time is answered ThrottlingException; buffers over
// 64 KiB never go back to a pool; a body must arrive within
// BodyReadTimeout and a response be taken within WriteTimeout, or the
// connection is cut; and with CheckHost a Host header that is not a
// loopback name is refused (DNS rebinding). Connection counts and header
// timeouts belong to the http.Server and listener in front (dynago serve
// uses server/netlimit).
package server

import (
	"compress/zlib"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"log/slog"
	"math/rand/v2"
	"mime"
	"net/http"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/engine"
	"github.com/dynago/dynago/faults"
	"github.com/dynago/dynago/server/internal/protocol"
	"github.com/dynago/dynago/server/sigv4"
)

// DefaultMaxBodyBytes is DynamoDB's request size limit: 16 MB.
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html
const DefaultMaxBodyBytes = 16 << 20

// DefaultMaxBufferBytes is the default of Config.MaxBufferBytes: 256 MiB
// of request and response buffers across all requests.
const DefaultMaxBufferBytes = 256 << 20

// DefaultThrottleWait is the default of Config.ThrottleWait.
const DefaultThrottleWait = 2 * time.Second

// Config configures a Server.
type Config struct {
	// Logger receives request errors and internal faults. Default: discard.
	Logger *slog.Logger
	// MaxBodyBytes limits request bodies (after gzip decoding). Default
	// DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// MaxBufferBytes bounds the bytes of request bodies and encoded
	// responses held at once, over all requests (see budget). A request
	// that cannot get its share within ThrottleWait is answered with
	// ThrottlingException. Default DefaultMaxBufferBytes; it is raised
	// to MinBufferBytes(MaxBodyBytes) if lower.
	MaxBufferBytes int64
	// MaxBufferBytesPerSource bounds the part of MaxBufferBytes the
	// requests of one source address (an IPv4 address or an IPv6 /64)
	// hold at once, so that a few clients cannot hold what others need;
	// past it a request waits or is throttled while other sources pass.
	// Default a quarter of MaxBufferBytes; raised to
	// MinBufferBytes(MaxBodyBytes) if lower, and lowered to
	// MaxBufferBytes if higher.
	MaxBufferBytesPerSource int64
	// ThrottleWait is how long a request waits for buffer bytes before it
	// is throttled. Default DefaultThrottleWait.
	ThrottleWait time.Duration
	// BodyReadTimeout is the time a client has to send a request's whole
	// body, from the moment the server starts reading it. A client that
	// is slower gets HTTP 408 and its connection is closed. 0: no limit.
	BodyReadTimeout time.Duration
	// WriteTimeout is the time a client has to receive a response, from
	// the moment the server starts writing it. A client that does not
	// read it in time has its connection closed. 0: no limit.
	WriteTimeout time.Duration
	// CheckHost refuses, with HTTP 403, requests whose Host header names
	// neither localhost, nor a loopback IP address, nor one of
	// AllowedHosts: the defence against DNS rebinding, under which a web
	// page's script reaches a loopback server through a name of the
	// attacker's. Turn it on when the server listens on loopback only.
	CheckHost bool
	// AllowedHosts are further host names (or IP addresses) allowed by
	// CheckHost, matched case-insensitively, any port; "*" allows all.
	AllowedHosts []string
	// CORS says which web origins browsers may let call the DynamoDB API
	// on "/". nil: localhost and loopback origins (see CORS).
	CORS *CORS
	// Namespaces, when set, gives each request the database of the
	// access key and region its signature names (namespace.go), and the
	// db given to New serves no requests. nil: every request uses that db.
	Namespaces Namespaces
	// Metrics, when set, counts every API request answered (metrics.go);
	// serve them with Metrics.Handler. With Logger at debug level, every
	// API request is also logged, one line each (requestlog.go).
	Metrics *Metrics
	// Auth, when set, requires every API request (and every request
	// under /dynago/) to carry a valid AWS Signature Version 4 by one of
	// its credentials, answering DynamoDB's errors otherwise
	// (server/sigv4). nil: any signature, or none, is accepted.
	Auth *sigv4.Verifier
	// FaultSleep, when set, is how a Latency fault of the fault plan
	// (SetFaults) waits: tests give one that records the delay instead
	// of taking it. nil: a timer, ended early by the request's context.
	FaultSleep func(ctx context.Context, d time.Duration) error
}

// Server is an http.Handler answering DynamoDB API requests.
type Server struct {
	db  *engine.DB
	log *slog.Logger
	max int64
	ops map[string]opFunc
	// streamOps are the DynamoDB Streams operations.
	streamOps map[string]opFunc

	budget       *budget
	throttleWait time.Duration
	bodyTimeout  time.Duration
	writeTimeout time.Duration
	checkHost    bool
	allowedHosts map[string]bool
	crossOrigin  *http.CrossOriginProtection
	corsPolicy   *CORS
	namespaces   Namespaces
	metrics      *Metrics
	auth         *sigv4.Verifier
	// debug is set when the logger takes debug lines: one per request.
	debug bool
	// lastThrottleLog is when a throttled request was last logged, in
	// Unix nanoseconds, so that a flood logs once every few seconds.
	lastThrottleLog atomic.Int64
	// faults is the fault plan's injector (faults.go); nil, the
	// default, injects nothing.
	faults     atomic.Pointer[faults.Injector]
	faultSleep func(context.Context, time.Duration) error
}

// opFunc runs one operation: it decodes body, calls the engine, and appends
// the encoded response to dst.
type opFunc func(s *Server, c *inflight, body, dst []byte) ([]byte, error)

// inflight is one request in flight and the buffer bytes it holds.
type inflight struct {
	r *http.Request
	w http.ResponseWriter
	// held is the bytes this request holds of the server's budget;
	// bodyHeld is the part of it held for the body.
	held, bodyHeld int64
	// src is the request's source address in the budget.
	src *source
	// body is the request body once read; nil once it is released.
	body []byte
	// db is the database the request reads and writes.
	db *engine.DB
	// op is the operation's name (X-Amz-Target's part after the '.'),
	// and reqID the request's x-amzn-RequestId.
	op, reqID string
	// rawHash, with Auth on and a compressed body, hashes the body as it
	// arrives: what the signature covers (readBody).
	rawHash hash.Hash
	// caller, with Auth on, is who signed the request, once verified
	// (signed): the resource-based policies are applied to it
	// (authorize.go).
	caller engine.Caller
	signed bool
	// note, when requests are observed (requestlog.go), is what the
	// operation tells the log: table, index, units. It points to noted,
	// and the request's answer is then observed through answer: kept
	// here so that observing allocates nothing of its own.
	note   *requestNote
	noted  requestNote
	answer answer
	// pageBuf, for a page written as the engine read it, is the buffer
	// its answer lies in, a little past its start (PageWriter.Finish),
	// which dropBuf gives back whole.
	pageBuf []byte
}

// New returns a Server over db.
func New(db *engine.DB, cfg Config) *Server {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if cfg.MaxBufferBytes <= 0 {
		cfg.MaxBufferBytes = DefaultMaxBufferBytes
	}
	if least := MinBufferBytes(cfg.MaxBodyBytes); cfg.MaxBufferBytes < least {
		cfg.MaxBufferBytes = least
	}
	if cfg.ThrottleWait <= 0 {
		cfg.ThrottleWait = DefaultThrottleWait
	}
	s := &Server{
		db: db, log: cfg.Logger, max: cfg.MaxBodyBytes, ops: operations(), streamOps: streamOperations(),
		budget:       newBudget(cfg.MaxBufferBytes, perSourceBytes(cfg)),
		throttleWait: cfg.ThrottleWait,
		bodyTimeout:  cfg.BodyReadTimeout,
		writeTimeout: cfg.WriteTimeout,
		checkHost:    cfg.CheckHost,
		allowedHosts: map[string]bool{},
		crossOrigin:  http.NewCrossOriginProtection(),
		corsPolicy:   cfg.CORS,
		namespaces:   cfg.Namespaces,
		metrics:      cfg.Metrics,
		auth:         cfg.Auth,
		debug:        cfg.Logger.Enabled(context.Background(), slog.LevelDebug),
		faultSleep:   cfg.FaultSleep,
	}
	if s.faultSleep == nil {
		s.faultSleep = sleepFor
	}
	if cfg.Metrics != nil {
		cfg.Metrics.budget.Store(s.budget)
	}
	if s.corsPolicy == nil {
		s.corsPolicy = &CORS{}
	}
	for _, h := range cfg.AllowedHosts {
		if h = normalizeHost(h); h != "" {
			s.allowedHosts[h] = true
		}
	}
	return s
}

// MinBufferBytes is the least Config.MaxBufferBytes for a body limit: room
// for one largest request and one largest response (BatchGetItem's 16 MB)
// at once.
func MinBufferBytes(maxBody int64) int64 {
	return maxBody + 1 + maxResponseReserve + gzipReserve
}

const (
	targetPrefix       = "DynamoDB_20120810."
	streamTargetPrefix = "DynamoDBStreams_20120810."
	contentType        = "application/x-amz-json-1.0"
	// adminPrefix is the path of dynago's own requests, which are not
	// part of any AWS API; browsers may not send them cross-site.
	adminPrefix = "/dynago/"
	// healthTimeout bounds the store check of GET /.
	healthTimeout = 2 * time.Second
	// ttlSweepPath is the administrative request that runs the Time to
	// Live sweeper once.
	ttlSweepPath = adminPrefix + "ttl/sweep"
)

// The values of the headers every answer carries, shared by all answers:
// net/http only reads a header's values, and Header.Set or Add replace a
// value slice rather than write into it. Headers are stored under their
// canonical keys (what Header.Set would store) so that setting one costs
// neither a canonicalization nor an allocation.
var (
	serverValue    = []string{"Server"}
	keepAliveValue = []string{"keep-alive"}
	amzJSONValue   = []string{contentType}
	plainJSONValue = []string{contentTypeJSON}
)

// Buffers of up to pooledBufferBytes go back to a pool after a request;
// larger ones are left to the garbage collector, so a burst of large
// requests does not leave the pool holding their buffers for good.
const pooledBufferBytes = 64 << 10

// bufPool holds the buffers, each in a *[]byte box (what a sync.Pool
// keeps without allocating). The box of a buffer taken out goes to
// boxPool, and putBuf puts a buffer back in such a box, so that neither
// allocates once the pools are warm.
var (
	bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}
	boxPool = sync.Pool{New: func() any { return new([]byte) }}
)

// itemPool holds the buffers of itemBufBytes that a read copies the items
// it returns whole into (handleBuffered), boxed as bufPool's are: a page
// of 20 items of 1 KB fits in one, and a larger page takes one and then
// memory of the engine's.
var (
	itemPool    = sync.Pool{New: func() any { b := make([]byte, 0, itemBufBytes); return &b }}
	itemBoxPool = sync.Pool{New: func() any { return new([]byte) }}
)

const itemBufBytes = 64 << 10

// pagePool holds buffers of pageBufBytes, boxed as bufPool's are, for the
// answers to reads whose page may reach DynamoDB's 1 MB (a Query or Scan
// without a Limit, or with a large one): the items are written into one
// as the engine reads them (handleWith), so that such a page allocates
// neither its answer nor copies of its items (where it would allocate a
// megabyte or more for each and have the garbage collector reclaim
// them). A page buffer goes back to this pool, never to bufPool; like any
// sync.Pool's, the idle ones are dropped by the garbage collector's
// second cycle without use.
var pagePool = sync.Pool{New: func() any { b := make([]byte, 0, pageBufBytes); return &b }}

// pageBufBytes holds the JSON of a page of 1 MB of items, which wraps
// each value in its type's member.
const pageBufBytes = 3 << 19 // 1.5 MiB

func getItemBuf() []byte {
	box := itemPool.Get().(*[]byte)
	b := (*box)[:0]
	*box = nil
	itemBoxPool.Put(box)
	return b
}

func putItemBuf(b []byte) {
	box := itemBoxPool.Get().(*[]byte)
	*box = b[:0]
	itemPool.Put(box)
}

func getPageBuf() []byte {
	box := pagePool.Get().(*[]byte)
	b := (*box)[:0]
	*box = nil
	itemBoxPool.Put(box)
	return b
}

// putPageBuf gives back a buffer of getPageBuf, unless it grew past twice
// its size (a response far larger than its items), which is dropped.
func putPageBuf(b []byte) {
	if cap(b) > 2*pageBufBytes {
		return
	}
	box := itemBoxPool.Get().(*[]byte)
	*box = b[:0]
	pagePool.Put(box)
}

func getBuf() []byte {
	box := bufPool.Get().(*[]byte)
	b := (*box)[:0]
	*box = nil
	boxPool.Put(box)
	return b
}

func putBuf(b []byte) {
	if cap(b) >= pageBufBytes {
		putPageBuf(b)
		return
	}
	if cap(b) == 0 || cap(b) > pooledBufferBytes {
		return
	}
	box := boxPool.Get().(*[]byte)
	*box = b[:0]
	bufPool.Put(box)
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	reqID := newRequestID()
	h := w.Header()
	// The headers every DynamoDB answer carries, besides Date (net/http
	// adds it), Content-Length and x-amz-crc32 (added when the body is
	// sent). Recorded from the service in ScyllaDB issue #5050:
	// https://github.com/scylladb/scylladb/issues/5050
	h["Server"] = serverValue
	h["X-Amzn-Requestid"] = []string{reqID}
	h["Connection"] = keepAliveValue // net/http makes it "close" when it closes
	if !s.hostAllowed(r.Host) {
		s.log.Info(logHostRefused,
			"host", r.Host, "remote", r.RemoteAddr)
		s.writeErrorStatus(w, r, http.StatusForbidden, dynamo.AccessDenied(hostRefused(r.Host)))
		return
	}
	admin := strings.HasPrefix(r.URL.Path, adminPrefix)
	if r.URL.Path == faultsPath {
		s.serveFaults(w, r)
		return
	}
	if !admin {
		// CORS is for the DynamoDB API; dynago's own requests refuse
		// cross-origin browsers instead (below).
		allowed := s.cors(w, r, r.Method == http.MethodOptions)
		if r.Method == http.MethodOptions {
			s.options(w, r, allowed)
			return
		}
	}
	switch r.Method {
	case http.MethodPost:
	case http.MethodGet, http.MethodHead:
		if r.URL.Path == "/" {
			// DynamoDB answers GET / with "healthy: " and the host the
			// client addressed, then a space, and no Content-Type. A
			// node whose shared store does not answer says so, with
			// 503, so a load balancer stops sending it requests.
			ctx, cancel := context.WithTimeout(r.Context(), healthTimeout)
			err := s.ping(ctx)
			cancel()
			if err != nil {
				s.log.Warn("health check: store unreachable", "err", err)
				s.writePlain(w, r, http.StatusServiceUnavailable, "unhealthy: "+r.Host+" ")
				return
			}
			s.writePlain(w, r, http.StatusOK, "healthy: "+r.Host+" ")
			return
		}
		s.writePlain(w, r, http.StatusNotFound, pageNotFound)
		return
	default:
		s.writePlain(w, r, http.StatusNotFound, unknownOperationXML)
		return
	}
	if !admin && !jsonContentType(r.Header.Get("Content-Type")) && hasBody(r) {
		// DynamoDB answers a POST whose body is not declared JSON (a
		// Content-Type neither application/x-amz-json-1.0 nor
		// application/json, or none) with its 404 page, before it looks
		// at the target or the signature.
		s.writePlain(w, r, http.StatusNotFound, unknownOperationXML)
		return
	}
	c := &inflight{r: r, w: w, db: s.db, reqID: reqID, src: s.budget.join(sourceOf(r.RemoteAddr))}
	var ans *answer
	var opName string
	if s.observing() && !admin {
		c.answer.ResponseWriter = w
		ans = &c.answer
		w, c.w, c.note = ans, ans, &c.noted
	}
	defer func() {
		p := recover()
		if p != nil && p != http.ErrAbortHandler {
			s.log.Error("panic serving request", "request_id", reqID, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			s.writeError(w, r, dynamo.InternalServerError())
		}
		s.budget.release(c.src, c.held)
		s.budget.leave(c.src)
		if ans != nil {
			s.finish(ans, opName, reqID, c.note, start)
		}
		if p == http.ErrAbortHandler {
			// A dropped connection (writeFault): the connection is cut
			// without an answer.
			panic(p)
		}
	}()

	if admin {
		// dynago's own requests have no X-Amz-Target, so a browser could
		// send them cross-site as a plain form POST; refuse those.
		if err := s.crossOrigin.Check(r); err != nil {
			s.writeErrorStatus(w, r, http.StatusForbidden, crossOriginRefused(r.URL.Path))
			return
		}
	}
	if r.URL.Path == ttlSweepPath {
		if s.auth != nil {
			body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<16))
			if _, aerr := s.auth.Verify(r, body, s.auth.Now()); aerr != nil {
				s.writeError(w, r, aerr)
				return
			}
		}
		s.sweepTTL(w, r, reqID)
		return
	}

	target := r.Header.Get("X-Amz-Target")
	op, ok := s.route(target)
	if ok {
		c.op = target[strings.IndexByte(target, '.')+1:]
	}
	if ok && ans != nil {
		// Only names the server serves become metric labels.
		opName = c.op
	}
	if !ok {
		s.writeError(w, r, unknownOperation(target))
		return
	}
	if s.namespaces != nil && s.auth == nil {
		db, err := s.namespaceDB(r)
		if err != nil {
			s.writeFailure(w, r, err, "request_id", reqID, "target", target)
			return
		}
		c.db = db
	}

	if s.auth != nil && c.needsRawHash() {
		c.rawHash = sha256.New()
	}
	if err := s.readBody(c); err != nil {
		s.bodyFailed(w, c, err, reqID)
		return
	}
	defer func() { putBuf(c.body) }()
	if s.auth != nil {
		// After the target is routed (DynamoDB answers an unknown one
		// before looking at the signature) and the body read; a namespace
		// is opened only for a verified caller.
		var aerr *dynamo.Error
		var id sigv4.Identity
		if c.rawHash != nil {
			id, aerr = s.auth.VerifyPayloadHash(r, hex.EncodeToString(c.rawHash.Sum(nil)), s.auth.Now())
		} else {
			id, aerr = s.auth.Verify(r, c.body, s.auth.Now())
		}
		if aerr != nil {
			s.writeError(w, r, aerr)
			return
		}
		c.caller, c.signed = engine.Caller{AccountID: id.AccountID, AccessKeyID: id.AccessKeyID}, true
		if s.namespaces != nil {
			db, err := s.namespaceDB(r)
			if err != nil {
				s.writeFailure(w, r, err, "request_id", reqID, "target", target)
				return
			}
			c.db = db
		}
	}

	out, err := op(s, c, c.body, getBuf())
	s.releaseBody(c)
	if err != nil {
		s.dropBuf(c, out)
		s.writeFailure(w, r, err, "request_id", reqID, "target", target)
		return
	}
	// Account for the response's real size: encoding may have grown it
	// past what the operation reserved.
	if extra := int64(cap(out)) - c.held; extra > 0 {
		s.budget.force(c.src, extra)
		c.held += extra
	}
	s.write(w, r, http.StatusOK, out)
	s.dropBuf(c, out)
}

// Bodies DynamoDB answers with outside its JSON protocol, each recorded
// with its length and x-amz-crc32 by dynalite's test/connection.js, which
// runs against DynamoDB (https://github.com/architect/dynalite): a method
// other than POST, GET or HEAD on the API, and a GET of any path but "/".
const (
	unknownOperationXML = "<UnknownOperationException/>\n"
	pageNotFound        = `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en" lang="en">
<head>
  <title>Page Not Found</title>
</head>
<body>Page Not Found</body>
</html>`
)

// The media types of DynamoDB's JSON protocol: the one its SDKs send,
// and plain JSON, which DynamoDB also reads (dynalite's test/connection.js,
// recorded against DynamoDB).
const (
	contentTypeAmzJSON = contentType
	contentTypeJSON    = "application/json"
)

// jsonContentType reports whether a request's Content-Type declares a
// body DynamoDB reads: application/x-amz-json-1.0 or application/json.
// Parameters are allowed: a client that sent "application/json;
// charset=utf-8" had DynamoDB take its requests (issue #41 of
// github.com/jonsaw/amazon-cognito-identity-dart, a Query through
// DynamoDB's endpoint); no recording says whether DynamoDB reads the
// type case-insensitively, as RFC 9110 8.3.1 has it, and dynago does.
func jsonContentType(v string) bool {
	mt := mediaType(v)
	return mt == contentTypeAmzJSON || mt == contentTypeJSON
}

// mediaType is a Content-Type's type and subtype in lower case, without
// parameters; "" when there is none or it does not parse.
func mediaType(v string) string {
	if v == contentType {
		return v // what the SDKs send: no parsing
	}
	mt, _, err := mime.ParseMediaType(v)
	if err != nil {
		return ""
	}
	return mt
}

// hasBody reports whether a request has a body: a Content-Length over
// zero, or a body of unknown length (chunked), which is taken for one
// without reading it.
func hasBody(r *http.Request) bool { return r.ContentLength != 0 }

// responseContentType is the Content-Type of a JSON answer to r. DynamoDB
// answers application/x-amz-json-1.0 to a request of that type, and
// application/json to any other it serves (a request of type
// application/json, or without a body and of any type or none), as
// dynalite's test/connection.js records: "should return
// SerializationException if body is application/json but not JSON" and
// "should return UnknownOperationException if no target" answer
// application/json. dynago's own requests (under /dynago/) are answered
// application/x-amz-json-1.0 whatever they send.
func responseContentType(r *http.Request) string {
	if strings.HasPrefix(r.URL.Path, adminPrefix) || mediaType(r.Header.Get("Content-Type")) == contentTypeAmzJSON {
		return contentType
	}
	return contentTypeJSON
}

// options answers an OPTIONS request to the API. With an Origin DynamoDB
// answers 200 with an empty body and its CORS headers; dynago does so for
// an origin its CORS policy allows (cors has set the headers) and refuses
// others with 403, which browsers report as a CORS failure. Without an
// Origin it is no preflight, and DynamoDB answers as for any method it
// does not serve.
func (s *Server) options(w http.ResponseWriter, r *http.Request, allowed bool) {
	switch {
	case allowed:
		s.writePlain(w, r, http.StatusOK, "")
	case r.Header.Get("Origin") != "":
		s.writeErrorStatus(w, r, http.StatusForbidden, dynamo.AccessDenied(fmt.Sprintf("Origin %q is not allowed: dynago lets browsers call it from pages on localhost and loopback addresses only, unless started with --cors", r.Header.Get("Origin"))))
	default:
		s.writePlain(w, r, http.StatusNotFound, unknownOperationXML)
	}
}

// writePlain sends a body that is not JSON as DynamoDB does: with its
// x-amz-crc32 and no Content-Type.
func (s *Server) writePlain(w http.ResponseWriter, r *http.Request, status int, body string) {
	h := w.Header()
	h["Content-Type"] = nil // no sniffed type either
	h.Set("x-amz-crc32", strconv.FormatUint(uint64(crc32.ChecksumIEEE([]byte(body))), 10))
	s.writeRaw(w, r, status, []byte(body))
}

// releaseBody gives back the budget held for the request body, once it
// is decoded: the decoded input holds copies of what it needs. A large
// body is let go for the garbage collector at once; a small one returns
// to the pool when the request ends.
func (s *Server) releaseBody(c *inflight) {
	s.budget.release(c.src, c.bodyHeld)
	c.held -= c.bodyHeld
	c.bodyHeld = 0
	if cap(c.body) > pooledBufferBytes {
		c.body = nil
	}
}

// dropBuf gives an encoded response back: to the pool if small, and its
// bytes to the budget as far as the request holds them.
func (s *Server) dropBuf(c *inflight, buf []byte) {
	if c.pageBuf != nil {
		buf, c.pageBuf = c.pageBuf, nil
	}
	n := min(int64(cap(buf)), c.held)
	s.budget.release(c.src, n)
	c.held -= n
	putBuf(buf)
}

// take gets n bytes of the buffer budget for c, waiting up to the
// throttle wait; it returns a ThrottlingException when they do not come.
func (s *Server) take(c *inflight, n int64) error {
	if s.budget.acquire(c.r.Context(), c.src, n, s.throttleWait) {
		c.held += n
		return nil
	}
	s.logThrottle(c)
	return errThrottled
}

// logThrottle logs that requests are being throttled, once every ten
// seconds at most.
func (s *Server) logThrottle(c *inflight) {
	s.metrics.throttle()
	now := time.Now().UnixNano()
	if last := s.lastThrottleLog.Load(); now-last > int64(10*time.Second) && s.lastThrottleLog.CompareAndSwap(last, now) {
		s.log.Warn("throttling requests: the buffer memory limit (--max-buffer-memory) is in use by requests in flight",
			"limit_bytes", s.budget.limit, "remote", c.r.RemoteAddr)
	}
}

// errThrottled is DynamoDB's answer to a request it has no capacity for.
// SDKs retry it with backoff (the Go SDK's standard retryer and botocore
// list ThrottlingException among their throttling errors). The message
// is DynamoDB's for the control-plane throttling it reports this way.
var errThrottled = dynamo.Throttling("Rate of requests exceeds the allowed throughput.")

// bodyFailed answers a request whose body could not be read.
func (s *Server) bodyFailed(w http.ResponseWriter, c *inflight, err error, reqID string) {
	r := c.r
	switch {
	case errors.Is(err, errTooLarge):
		// DynamoDB answers a request over its size limit with HTTP 413.
		s.writeErrorStatus(w, r, http.StatusRequestEntityTooLarge, tooLarge(s.max))
		return
	case errors.Is(err, os.ErrDeadlineExceeded):
		s.log.Warn("client did not send its request body within --read-body-timeout; closing its connection",
			"remote", r.RemoteAddr, "timeout", s.bodyTimeout, "request_id", reqID)
		w.Header().Set("Connection", "close")
		s.writeErrorStatus(w, r, http.StatusRequestTimeout, dynamo.RequestTimeout(fmt.Sprintf("Request body not received within %v", s.bodyTimeout)))
		return
	}
	var e *dynamo.Error
	if errors.As(err, &e) {
		s.writeError(w, r, e)
		return
	}
	s.log.Debug("reading request body", "request_id", reqID, "err", err)
	s.writeError(w, r, unreadableBody())
}

// crossOriginRefused is the answer to a browser's cross-site request
// under /dynago/.
func crossOriginRefused(path string) *dynamo.Error {
	return dynamo.AccessDenied("Cross-origin request refused: " + path + " accepts requests only from non-browser clients or its own origin")
}

// unreadableBody is the answer to a request whose body could not be read.
func unreadableBody() *dynamo.Error { return dynamo.Serialization("Unable to read request body") }

// writeFailure answers an operation's error: DynamoDB's error when it is
// one, else a logged InternalServerError (HTTP 500).
func (s *Server) writeFailure(w http.ResponseWriter, r *http.Request, err error, logAttrs ...any) {
	if s.writeFault(w, r, err) {
		return
	}
	var e *dynamo.Error
	if errors.As(err, &e) {
		s.writeError(w, r, e)
		return
	}
	s.log.Error("internal error", append(logAttrs, "err", err)...)
	s.writeError(w, r, dynamo.InternalServerError())
}

// route finds the handler of an X-Amz-Target: DynamoDB's operations under
// DynamoDB_20120810., DynamoDB Streams' under DynamoDBStreams_20120810.
func (s *Server) route(target string) (opFunc, bool) {
	var ops map[string]opFunc
	var name string
	switch {
	case strings.HasPrefix(target, targetPrefix):
		ops, name = s.ops, target[len(targetPrefix):]
	case strings.HasPrefix(target, streamTargetPrefix):
		ops, name = s.streamOps, target[len(streamTargetPrefix):]
	default:
		return nil, false
	}
	op, ok := ops[name]
	return op, ok
}

// sweepTTL answers POST /dynago/ttl/sweep: it deletes the expired items
// now and answers {"Deleted":N}.
func (s *Server) sweepTTL(w http.ResponseWriter, r *http.Request, reqID string) {
	n, err := s.sweepExpired()
	if err != nil {
		s.writeFailure(w, r, err, "request_id", reqID, "op", "TTL sweep")
		return
	}
	body := strconv.AppendInt([]byte(`{"Deleted":`), int64(n), 10)
	s.write(w, r, http.StatusOK, append(body, '}'))
}

// errBadCoding reports a body whose Content-Encoding is unknown or whose
// compressed bytes are broken. DynamoDB answers both with HTTP 500
// InternalServerError (recorded in Alternator's
// test/alternator/test_compressed_request.py, which runs against
// DynamoDB); the message is dynago's.
var errBadCoding = dynamo.InternalServerErrorText("Unable to decode the request body: Content-Encoding must be gzip, deflate or identity, and the body encoded with it")

// newDecoder returns a reader decoding a gzip or deflate (zlib) body.
func newDecoder(coding string, src io.Reader) (io.ReadCloser, error) {
	if coding == codingGzip {
		return newGzipMembers(src)
	}
	return zlib.NewReader(src)
}

// decodeFailure maps an error of decoding a compressed body: the client
// too slow, the compressed body too large, or else a broken body.
func decodeFailure(err error) error {
	var mbe *http.MaxBytesError
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		return err
	case errors.As(err, &mbe):
		return errTooLarge
	}
	return errBadCoding
}

// tooLarge is the error body sent with HTTP 413 for a request over the
// size limit. DynamoDB's status for it is 413 (it has been observed by
// test suites that run against the service); the body's wording is
// dynago's.
func tooLarge(limit int64) *dynamo.Error {
	return dynamo.Validation(fmt.Sprintf("Request size exceeded %d bytes", limit))
}

func (s *Server) writeError(w http.ResponseWriter, r *http.Request, e *dynamo.Error) {
	noteError(w, e.Code)
	body, status := protocol.EncodeError(nil, e)
	s.write(w, r, status, body)
}

// writeErrorStatus is writeError with an HTTP status of its own.
func (s *Server) writeErrorStatus(w http.ResponseWriter, r *http.Request, status int, e *dynamo.Error) {
	noteError(w, e.Code)
	body, _ := protocol.EncodeError(nil, e)
	s.write(w, r, status, body)
}

// write sends a JSON body with DynamoDB's headers, including the CRC32 that
// the Python and older Go SDKs verify.
//
// A body of compressThreshold bytes or more is compressed when the
// client's Accept-Encoding allows gzip or deflate, as DynamoDB does; the
// CRC32 is then of the compressed bytes, as on DynamoDB (Alternator's
// test/alternator/test_crc.py, test_crc32_header_with_compression) and
// as the SDKs check it (aws-sdk-go-v2's DynamoDB checksum middleware
// reads the body before decompressing it). The compressed copy is
// charged to the buffer budget while it is sent.
func (s *Server) write(w http.ResponseWriter, r *http.Request, status int, body []byte) {
	h := w.Header()
	if responseContentType(r) == contentType {
		h["Content-Type"] = amzJSONValue
	} else {
		h["Content-Type"] = plainJSONValue
	}
	if len(body) >= compressThreshold {
		if coding := responseCoding(r.Header.Values("Accept-Encoding")); coding != "" {
			z := compress(getBuf(), coding, body)
			held := int64(cap(z))
			s.budget.force(nil, held)
			h.Set("Content-Encoding", coding)
			h.Set("x-amz-crc32", strconv.FormatUint(uint64(crc32.ChecksumIEEE(z)), 10))
			s.writeRaw(w, r, status, z)
			s.budget.release(nil, held)
			putBuf(z)
			return
		}
	}
	h["X-Amz-Crc32"] = []string{strconv.FormatUint(uint64(crc32.ChecksumIEEE(body)), 10)}
	s.writeRaw(w, r, status, body)
}

// writeRaw sends body with its Content-Length within the write timeout:
// a client that does not take the response in time has its connection
// cut, and the response's memory is freed, instead of the server holding
// both for as long as the client likes. The response is flushed before
// the deadline is lifted, so nothing is left for net/http to write
// without one.
func (s *Server) writeRaw(w http.ResponseWriter, r *http.Request, status int, body []byte) {
	w.Header()["Content-Length"] = []string{strconv.Itoa(len(body))}
	rc := http.NewResponseController(w)
	if s.writeTimeout > 0 {
		rc.SetWriteDeadline(time.Now().Add(s.writeTimeout))
	}
	w.WriteHeader(status)
	_, err := w.Write(body)
	if err == nil {
		err = rc.Flush()
	}
	if err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) {
			s.log.Warn("client did not read its response within --write-timeout; closing its connection",
				"remote", r.RemoteAddr, "timeout", s.writeTimeout, "bytes", len(body))
		} else {
			s.log.Debug("writing response", "remote", r.RemoteAddr, "err", err)
		}
		return
	}
	if s.writeTimeout > 0 {
		rc.SetWriteDeadline(time.Time{})
	}
}

// newRequestID returns a DynamoDB-style request id: 52 characters of
// upper-case letters and digits.
func newRequestID() string {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	var b [52]byte
	for i := 0; i < len(b); {
		r := rand.Uint64()
		for j := 0; j < 12 && i < len(b); j++ {
			b[i] = alphabet[r%uint64(len(alphabet))]
			r /= uint64(len(alphabet))
			i++
		}
	}
	return string(b[:])
}
