package local

import (
	"errors"
	"io"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// ErrClosed is the error of a request sent through a Transport after its
// database was closed, as a refused connection is for a stopped server.
var ErrClosed = errors.New("local: database is closed")

// Transport carries HTTP requests to an http.Handler in the same process:
// no socket, no port, no goroutine. It is an http.RoundTripper (for an
// http.Client of your own) and has the Do method of the SDK's
// aws.HTTPClient, so it can be any SDK client's HTTPClient.
//
// The handler runs in the caller's goroutine with a copy of the request
// made to look like one net/http's server hands a handler (Host,
// RequestURI, RemoteAddr, protocol, a non-nil body), and writes into a
// recorder that keeps what net/http's server would send: the status and
// the headers as they were when the handler wrote its header (changes
// after it are ignored, as by net/http), a Date and a Content-Length when
// the handler set none, and the body, which a HEAD request and the
// statuses that have none do not get. The response arrives complete, as
// dynago's server writes every answer in one piece; its body is read from
// memory. Like http.Transport, it adds no Accept-Encoding of its own, so a
// response is compressed exactly when the caller asks for it (the DynamoDB
// client does with its EnableAcceptEncodingGzip option, and checks the
// x-amz-crc32 of the compressed bytes).
type Transport struct {
	handler http.Handler
	closed  atomic.Bool
}

// NewTransport returns a Transport serving requests with h.
func NewTransport(h http.Handler) *Transport { return &Transport{handler: h} }

// Do implements the SDK's aws.HTTPClient.
func (t *Transport) Do(req *http.Request) (*http.Response, error) { return t.RoundTrip(req) }

// RoundTrip implements http.RoundTripper.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		defer req.Body.Close()
	}
	if t.closed.Load() {
		return nil, ErrClosed
	}
	if req.URL == nil {
		return nil, errors.New("local: request has no URL")
	}
	if err := req.Context().Err(); err != nil {
		return nil, err
	}
	// The server's view of the request: a shallow copy, as the
	// RoundTripper must not change the caller's.
	sr := req.WithContext(req.Context())
	u := *req.URL
	u.Scheme, u.Host, u.User = "", "", nil
	sr.URL = &u
	sr.RequestURI = req.URL.RequestURI()
	if sr.Host == "" {
		sr.Host = req.URL.Host
	}
	sr.RemoteAddr = remoteAddr
	sr.Proto, sr.ProtoMajor, sr.ProtoMinor = "HTTP/1.1", 1, 1
	if sr.Method == "" {
		sr.Method = http.MethodGet
	}
	if sr.Body == nil {
		sr.Body = http.NoBody
	}
	sr.Close = false

	w := &recorder{header: make(http.Header, 8), head: sr.Method == http.MethodHead}
	if err := serve(t.handler, w, sr); err != nil {
		return nil, err
	}
	return w.response(req), nil
}

// ErrDropped is the error of a request whose connection the server cut
// without answering (a DropConnection fault of its fault plan): what a
// client over TCP sees as a connection closed before the response. The
// SDK's retryer retries it, as any error of its HTTP client.
var ErrDropped = errors.New("local: connection closed by the server before it answered")

// serve runs the handler, turning its abort (http.ErrAbortHandler, by
// which a handler cuts its connection) into ErrDropped.
func serve(h http.Handler, w http.ResponseWriter, r *http.Request) (err error) {
	defer func() {
		if p := recover(); p != nil {
			if p != http.ErrAbortHandler {
				panic(p)
			}
			err = ErrDropped
		}
	}()
	h.ServeHTTP(w, r)
	return nil
}

// remoteAddr is the RemoteAddr the handler sees: the loopback address a
// process's own client would have, with port 0 for "no connection".
const remoteAddr = "127.0.0.1:0"

// close makes later requests fail with ErrClosed.
func (t *Transport) close() { t.closed.Store(true) }

// recorder is the http.ResponseWriter of an in-process request.
type recorder struct {
	header http.Header
	// sent is the header as it was when the handler wrote its status.
	sent   http.Header
	status int
	body   []byte
	head   bool
}

func (w *recorder) Header() http.Header { return w.header }

func (w *recorder) WriteHeader(code int) {
	if w.sent != nil {
		return
	}
	if code < 100 || code > 999 {
		panic("local: invalid WriteHeader code " + strconv.Itoa(code))
	}
	if code < 200 && code != http.StatusSwitchingProtocols {
		return // informational answers are not the response
	}
	w.status = code
	w.sent = w.header.Clone()
	if w.sent == nil {
		w.sent = http.Header{}
	}
}

func (w *recorder) Write(p []byte) (int, error) {
	if w.sent == nil {
		w.WriteHeader(http.StatusOK)
	}
	if !bodyAllowed(w.status) {
		return 0, http.ErrBodyNotAllowed
	}
	if w.head {
		return len(p), nil
	}
	if w.body == nil {
		// The body's size is known when the handler announced it (dynago's
		// server always does): one allocation of that size.
		size := len(p)
		if n, err := strconv.Atoi(w.sent.Get("Content-Length")); err == nil && n > size {
			size = n
		}
		w.body = getBuf(size)
	}
	w.body = append(w.body, p...)
	return len(p), nil
}

// Flush lets http.ResponseController's Flush succeed: everything written
// is already with the client.
func (w *recorder) Flush() {}

// SetReadDeadline and SetWriteDeadline let http.ResponseController's
// deadlines succeed; with no connection there is nothing to time out.
func (w *recorder) SetReadDeadline(time.Time) error  { return nil }
func (w *recorder) SetWriteDeadline(time.Time) error { return nil }

func bodyAllowed(status int) bool {
	return status >= 200 && status != http.StatusNoContent && status != http.StatusNotModified
}

// response turns what the handler wrote into the client's response.
func (w *recorder) response(req *http.Request) *http.Response {
	if w.sent == nil {
		w.WriteHeader(http.StatusOK) // a handler that wrote nothing answers 200
	}
	h := w.sent
	if _, ok := h["Date"]; !ok {
		h["Date"] = []string{time.Now().UTC().Format(http.TimeFormat)}
	}
	n := int64(len(w.body))
	hasBody := bodyAllowed(w.status) && req.Method != http.MethodHead
	if cl := h.Get("Content-Length"); cl != "" {
		if v, err := strconv.ParseInt(cl, 10, 64); err == nil {
			n = v
		}
	} else if hasBody {
		h["Content-Length"] = []string{strconv.FormatInt(n, 10)}
	}
	res := &http.Response{
		Status:        strconv.Itoa(w.status) + " " + http.StatusText(w.status),
		StatusCode:    w.status,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        h,
		ContentLength: n,
		Request:       req,
		Body:          http.NoBody,
	}
	if !hasBody {
		if !bodyAllowed(w.status) {
			res.ContentLength = 0
		}
		return res
	}
	res.Body = &body{data: w.body}
	res.ContentLength = int64(len(w.body))
	return res
}

// Response bodies of up to pooledBody bytes are recycled once closed.
const pooledBody = 64 << 10

var bodyPool sync.Pool // of *[]byte

func getBuf(size int) []byte {
	if size <= pooledBody {
		if b, ok := bodyPool.Get().(*[]byte); ok && cap(*b) >= size {
			return (*b)[:0]
		}
		return make([]byte, 0, max(size, 4096))
	}
	return make([]byte, 0, size)
}

// body is a response body read from memory. Its buffer goes back to a
// pool when it is closed, so it hands out copies only (Read, no WriteTo),
// and reads nothing after Close.
type body struct {
	data []byte
	off  int
}

func (b *body) Read(p []byte) (int, error) {
	if b.data == nil {
		return 0, errBodyClosed
	}
	if b.off >= len(b.data) {
		return 0, io.EOF
	}
	n := copy(p, b.data[b.off:])
	b.off += n
	return n, nil
}

func (b *body) Close() error {
	if b.data != nil && cap(b.data) <= pooledBody {
		buf := b.data[:0]
		bodyPool.Put(&buf)
	}
	b.data = nil
	return nil
}

var errBodyClosed = errors.New("local: read of a closed response body")
