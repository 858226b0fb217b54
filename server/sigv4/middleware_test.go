package sigv4

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// recorder is a next handler that records what reached it.
type recorder struct {
	calls int
	body  string
}

func (h *recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.calls++
	b, _ := io.ReadAll(r.Body)
	h.body = string(b)
	w.WriteHeader(http.StatusOK)
}

func serve(v *Verifier, next http.Handler, r *http.Request) *httptest.ResponseRecorder {
	w := httptest.NewRecorder()
	v.Handler(next).ServeHTTP(w, r)
	return w
}

func fixedVerifier(t *testing.T) *Verifier {
	v := testVerifier(t)
	v.Now = func() time.Time { return testNow }
	return v
}

func TestHandlerPassesVerifiedBody(t *testing.T) {
	v := fixedVerifier(t)
	next := &recorder{}
	w := serve(v, next, signed(t))
	if w.Code != 200 || next.calls != 1 || next.body != testBody {
		t.Fatalf("HTTP %d, %d calls, body %q", w.Code, next.calls, next.body)
	}
}

func TestHandlerRefuses(t *testing.T) {
	v := fixedVerifier(t)
	next := &recorder{}
	w := serve(v, next, newRequest("DynamoDB_20120810.ListTables"))
	const want = `{"__type":"com.amazon.coral.service#MissingAuthenticationTokenException","message":"Request is missing Authentication Token"}`
	if w.Code != 400 || w.Body.String() != want || next.calls != 0 {
		t.Fatalf("HTTP %d %s, %d calls", w.Code, w.Body, next.calls)
	}
	if ct := w.Header().Get("Content-Type"); ct != "application/x-amz-json-1.0" {
		t.Fatalf("Content-Type %q", ct)
	}
}

func TestHandlerExempts(t *testing.T) {
	v := fixedVerifier(t)
	for _, m := range []string{http.MethodGet, http.MethodHead, http.MethodOptions} {
		next := &recorder{}
		r := httptest.NewRequest(m, "http://localhost:8000/", nil)
		r.Header.Set("Origin", "http://example.test")
		if w := serve(v, next, r); w.Code != 200 || next.calls != 1 {
			t.Fatalf("%s: HTTP %d, %d calls", m, w.Code, next.calls)
		}
	}
}

// A compressed body is signed as sent: the handler verifies the bytes
// that arrived and hands them on still compressed.
func TestHandlerVerifiesCompressedBodyAsSent(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(testBody))
	zw.Close()
	r := httptest.NewRequest(http.MethodPost, "http://localhost:8000/", bytes.NewReader(gz.Bytes()))
	r.Header.Set("Content-Encoding", "gzip")
	r.Header.Set("X-Amz-Target", "DynamoDB_20120810.ListTables")
	s := defaultSigning()
	s.payloadHash = hashHex(gz.String())
	sdkSign(t, r, s)
	next := &recorder{}
	if w := serve(fixedVerifier(t), next, r); w.Code != 200 || next.body != gz.String() {
		t.Fatalf("HTTP %d %s", w.Code, w.Body)
	}
}

func TestHandlerRefusesOversizedBody(t *testing.T) {
	r := httptest.NewRequest(http.MethodPost, "http://localhost:8000/", strings.NewReader(strings.Repeat(" ", maxMiddlewareBody+1)))
	next := &recorder{}
	if w := serve(fixedVerifier(t), next, r); w.Code != http.StatusRequestEntityTooLarge || next.calls != 0 {
		t.Fatalf("HTTP %d, %d calls", w.Code, next.calls)
	}
}

type failingBody struct{}

func (failingBody) Read([]byte) (int, error) { return 0, io.ErrUnexpectedEOF }
func (failingBody) Close() error             { return nil }

func TestHandlerRefusesUnreadableBody(t *testing.T) {
	r := signed(t)
	r.Body = failingBody{}
	next := &recorder{}
	if w := serve(fixedVerifier(t), next, r); w.Code != http.StatusInternalServerError || next.calls != 0 {
		t.Fatalf("HTTP %d, %d calls", w.Code, next.calls)
	}
}
