package sigv4

import (
	"bytes"
	"hash/crc32"
	"io"
	"net/http"
	"strconv"

	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/server/internal/protocol"
)

// maxMiddlewareBody is the largest body Handler reads: DynamoDB's 16 MB
// request limit, past which the server behind answers 413 anyway.
const maxMiddlewareBody = 16 << 20

// Handler returns next behind signature verification, for a server that
// does not call Verify itself: it checks what it can before the body
// (Precheck), reads the body (at most 16 MB, as received), verifies it
// with v.Now, answers a failure as DynamoDB does and otherwise hands next
// the request with its body restored. A body over 16 MB gets 413 and one
// that cannot be read 500: nothing unverified reaches next. Requests
// Exempt names pass unchecked. The server's own ServeHTTP should rather
// call Verify on the body it has read (see docs/AUTH.md).
func (v *Verifier) Handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if Exempt(r) {
			next.ServeHTTP(w, r)
			return
		}
		if r.ContentLength > maxMiddlewareBody {
			w.WriteHeader(http.StatusRequestEntityTooLarge)
			return
		}
		// What can be checked without the body is checked first, so
		// that an unsigned request costs no body.
		if aerr := v.Precheck(r, v.Now()); aerr != nil {
			WriteError(w, aerr)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, maxMiddlewareBody+1))
		r.Body.Close()
		switch {
		case err != nil:
			// A body that cannot be read cannot be verified either; the
			// server answers a broken body so.
			WriteError(w, dynamo.InternalServerError())
			return
		case len(body) > maxMiddlewareBody:
			// Never hand on what was not verified; DynamoDB answers an
			// oversized request 413 with no body.
			w.WriteHeader(http.StatusRequestEntityTooLarge)
			return
		}
		if _, aerr := v.Verify(r, body, v.Now()); aerr != nil {
			WriteError(w, aerr)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		next.ServeHTTP(w, r)
	})
}

// WriteError answers err as DynamoDB does: its JSON error body, HTTP 400,
// Content-Type application/x-amz-json-1.0 and x-amz-crc32. A server with
// its own error writer should use that instead.
func WriteError(w http.ResponseWriter, err *dynamo.Error) {
	body, status := protocol.EncodeError(nil, err)
	h := w.Header()
	h.Set("Content-Type", "application/x-amz-json-1.0")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	h.Set("x-amz-crc32", strconv.FormatUint(uint64(crc32.ChecksumIEEE(body)), 10))
	w.WriteHeader(status)
	w.Write(body)
}
