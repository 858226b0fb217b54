// Package server serves dynago's engine over HTTP with DynamoDB's JSON 1.0
// protocol: target routing, gzip request bodies, the 16 MB body limit,
// x-amz-crc32 checksums, request ids, a health check, and shutdown. It holds
// no DynamoDB logic: requests are decoded and responses encoded by
// internal/protocol, and operations run in the engine.
//
// One endpoint serves both APIs: X-Amz-Target DynamoDB_20120810.<op> is
// DynamoDB, DynamoDBStreams_20120810.<op> is DynamoDB Streams (point the
// streams client at the same URL).
//
// Besides the AWS APIs, the server answers one administrative request,
// for tests; it is not part of any AWS API:
//
//	POST /dynago/ttl/sweep
//
// deletes every item whose Time to Live has passed, now, instead of
// waiting for the background sweeper, and answers {"Deleted": N} with the
// number of items deleted.
package server

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"

	"github.com/dynago/dynago/engine"
	"github.com/dynago/dynago/internal/protocol"
)

// DefaultMaxBodyBytes is DynamoDB's request size limit: 16 MB.
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html
const DefaultMaxBodyBytes = 16 << 20

// Config configures a Server.
type Config struct {
	// Logger receives request errors and internal faults. Default: discard.
	Logger *slog.Logger
	// MaxBodyBytes limits request bodies (after gzip decoding). Default
	// DefaultMaxBodyBytes.
	MaxBodyBytes int64
}

// Server is an http.Handler answering DynamoDB API requests.
type Server struct {
	db  *engine.DB
	log *slog.Logger
	max int64
	ops map[string]opFunc
	// streamOps are the DynamoDB Streams operations.
	streamOps map[string]opFunc
	bufs      sync.Pool
}

// opFunc runs one operation: it decodes body, calls the engine, and appends
// the encoded response to dst.
type opFunc func(s *Server, r *http.Request, body, dst []byte) ([]byte, error)

// New returns a Server over db.
func New(db *engine.DB, cfg Config) *Server {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = DefaultMaxBodyBytes
	}
	s := &Server{db: db, log: cfg.Logger, max: cfg.MaxBodyBytes, ops: operations(), streamOps: streamOperations()}
	s.bufs.New = func() any { b := make([]byte, 0, 4096); return &b }
	return s
}

const (
	targetPrefix       = "DynamoDB_20120810."
	streamTargetPrefix = "DynamoDBStreams_20120810."
	contentType        = "application/x-amz-json-1.0"
	// ttlSweepPath is the administrative request that runs the Time to
	// Live sweeper once.
	ttlSweepPath = "/dynago/ttl/sweep"
)

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	reqID := newRequestID()
	h := w.Header()
	h.Set("x-amzn-RequestId", reqID)
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		if r.URL.Path == "/" {
			h.Set("Content-Type", "text/plain")
			io.WriteString(w, "healthy: dynago\n")
			return
		}
		http.NotFound(w, r)
		return
	}
	if r.Method != http.MethodPost {
		h.Set("Allow", "GET, HEAD, POST")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("panic serving request", "request_id", reqID, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			s.writeError(w, &engine.Error{Code: engine.CodeInternalServerError, Message: "Internal server error"})
		}
	}()

	if r.URL.Path == ttlSweepPath {
		s.sweepTTL(w, reqID)
		return
	}

	target := r.Header.Get("X-Amz-Target")
	op, ok := s.route(target)
	if !ok {
		s.writeError(w, &engine.Error{Code: engine.CodeUnknownOperation})
		return
	}

	bufp := s.bufs.Get().(*[]byte)
	defer s.bufs.Put(bufp)
	body, err := s.readBody(r, (*bufp)[:0])
	*bufp = body[:0]
	if err != nil {
		if errors.Is(err, errTooLarge) {
			// DynamoDB answers a request over its size limit with HTTP 413.
			body, _ := protocol.EncodeError(nil, tooLarge(s.max))
			s.write(w, http.StatusRequestEntityTooLarge, body)
			return
		}
		var e *engine.Error
		if errors.As(err, &e) {
			s.writeError(w, e)
			return
		}
		s.log.Debug("reading request body", "request_id", reqID, "err", err)
		s.writeError(w, &engine.Error{Code: engine.CodeSerialization, Message: "Unable to read request body"})
		return
	}

	outp := s.bufs.Get().(*[]byte)
	defer s.bufs.Put(outp)
	out, err := op(s, r, body, (*outp)[:0])
	*outp = out[:0]
	if err != nil {
		s.writeFailure(w, err, "request_id", reqID, "target", target)
		return
	}
	s.write(w, http.StatusOK, out)
}

// writeFailure answers an operation's error: DynamoDB's error when it is
// one, else a logged InternalServerError (HTTP 500).
func (s *Server) writeFailure(w http.ResponseWriter, err error, logAttrs ...any) {
	var e *engine.Error
	if errors.As(err, &e) {
		s.writeError(w, e)
		return
	}
	s.log.Error("internal error", append(logAttrs, "err", err)...)
	s.writeError(w, &engine.Error{Code: engine.CodeInternalServerError, Message: "Internal server error"})
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
func (s *Server) sweepTTL(w http.ResponseWriter, reqID string) {
	n, err := s.db.SweepExpired()
	if err != nil {
		s.writeFailure(w, err, "request_id", reqID, "op", "TTL sweep")
		return
	}
	body := strconv.AppendInt([]byte(`{"Deleted":`), int64(n), 10)
	s.write(w, http.StatusOK, append(body, '}'))
}

// readBody reads the request body into dst, decoding gzip and enforcing
// the size limit without reading past it.
func (s *Server) readBody(r *http.Request, dst []byte) ([]byte, error) {
	if r.ContentLength > s.max {
		return dst, errTooLarge
	}
	var src io.Reader = http.MaxBytesReader(nil, r.Body, s.max+1)
	if enc := r.Header.Get("Content-Encoding"); enc != "" && !strings.EqualFold(enc, "identity") {
		if !strings.EqualFold(enc, "gzip") {
			return dst, &engine.Error{Code: engine.CodeSerialization, Message: "Unsupported Content-Encoding: " + enc}
		}
		zr, err := gzip.NewReader(src)
		if err != nil {
			return dst, &engine.Error{Code: engine.CodeSerialization, Message: "Unable to decompress gzip request body"}
		}
		defer zr.Close()
		src = zr
	}
	buf := bytes.NewBuffer(dst)
	n, err := buf.ReadFrom(io.LimitReader(src, s.max+1))
	if n > s.max {
		return buf.Bytes(), errTooLarge
	}
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return buf.Bytes(), errTooLarge
	}
	return buf.Bytes(), err
}

// errTooLarge reports a request body over the size limit.
var errTooLarge = errors.New("request body too large")

// tooLarge is the error body sent with HTTP 413 for a request over the
// size limit. DynamoDB's status for it is 413 (it has been observed by
// test suites that run against the service); the body's wording is
// dynago's.
func tooLarge(limit int64) *engine.Error {
	return &engine.Error{Code: engine.CodeValidation, Message: fmt.Sprintf("Request size exceeded %d bytes", limit)}
}

func (s *Server) writeError(w http.ResponseWriter, e *engine.Error) {
	body, status := protocol.EncodeError(nil, e)
	s.write(w, status, body)
}

// write sends a JSON body with DynamoDB's headers, including the CRC32 that
// the Python and older Go SDKs verify.
func (s *Server) write(w http.ResponseWriter, status int, body []byte) {
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("Content-Length", strconv.Itoa(len(body)))
	h.Set("x-amz-crc32", strconv.FormatUint(uint64(crc32.ChecksumIEEE(body)), 10))
	w.WriteHeader(status)
	w.Write(body)
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
