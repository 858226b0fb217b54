package local_test

import (
	"bytes"
	"compress/gzip"
	"hash/crc32"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/dynago/dynago/local"
)

func rawRequest(t *testing.T, c *http.Client, method, target, body string, headers ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, local.Endpoint+"/", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if target != "" {
		req.Header.Set("X-Amz-Target", "DynamoDB_20120810."+target)
		req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := c.Do(req)
	if err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, data
}

// TestTransportHTTP checks what an http.Client sees through the
// transport: status, DynamoDB's headers, the CRC32 of the body as sent,
// and gzip exactly when asked for.
func TestTransportHTTP(t *testing.T) {
	db := open(t)
	c := &http.Client{Transport: db.HTTPClient()}

	res, body := rawRequest(t, c, http.MethodGet, "", "")
	if res.StatusCode != 200 || string(body) != "healthy: dynago.invalid " {
		t.Fatalf("GET /: %d %q", res.StatusCode, body)
	}
	if res.Header.Get("Date") == "" || res.Header.Get("x-amzn-RequestId") == "" || res.Header.Get("Content-Length") != strconv.Itoa(len(body)) {
		t.Fatalf("GET / headers: %v", res.Header)
	}
	res, body = rawRequest(t, c, http.MethodHead, "", "")
	if res.StatusCode != 200 || len(body) != 0 || res.ContentLength != int64(len("healthy: dynago.invalid ")) {
		t.Fatalf("HEAD /: %d, %d body bytes, ContentLength %d", res.StatusCode, len(body), res.ContentLength)
	}

	res, body = rawRequest(t, c, http.MethodPost, "ListTables", "{")
	if res.StatusCode != 400 || !strings.Contains(string(body), "SerializationException") {
		t.Fatalf("malformed ListTables: %d %s", res.StatusCode, body)
	}

	// A table with items large enough for a compressed Scan answer.
	res, body = rawRequest(t, c, http.MethodPost, "CreateTable", `{"TableName":"Tbl","AttributeDefinitions":[{"AttributeName":"k","AttributeType":"S"}],"KeySchema":[{"AttributeName":"k","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"}`)
	if res.StatusCode != 200 {
		t.Fatalf("CreateTable: %d %s", res.StatusCode, body)
	}
	pad := strings.Repeat("y", 3000)
	for _, k := range []string{"a", "b", "c"} {
		res, body = rawRequest(t, c, http.MethodPost, "PutItem", `{"TableName":"Tbl","Item":{"k":{"S":"`+k+`"},"v":{"S":"`+pad+`"}}}`)
		if res.StatusCode != 200 {
			t.Fatalf("PutItem: %d %s", res.StatusCode, body)
		}
	}
	checkCRC := func(res *http.Response, body []byte) {
		t.Helper()
		if got, want := res.Header.Get("x-amz-crc32"), strconv.FormatUint(uint64(crc32.ChecksumIEEE(body)), 10); got != want {
			t.Fatalf("x-amz-crc32 %s, CRC32 of the body as received %s", got, want)
		}
	}
	res, plain := rawRequest(t, c, http.MethodPost, "Scan", `{"TableName":"Tbl"}`)
	if res.StatusCode != 200 || res.Header.Get("Content-Encoding") != "" || !bytes.Contains(plain, []byte(pad)) {
		t.Fatalf("Scan without Accept-Encoding: %d, Content-Encoding %q", res.StatusCode, res.Header.Get("Content-Encoding"))
	}
	checkCRC(res, plain)
	res, zipped := rawRequest(t, c, http.MethodPost, "Scan", `{"TableName":"Tbl"}`, "Accept-Encoding", "gzip")
	if res.StatusCode != 200 || res.Header.Get("Content-Encoding") != "gzip" || len(zipped) >= len(plain) {
		t.Fatalf("Scan with gzip: %d, Content-Encoding %q, %d bytes (plain %d)", res.StatusCode, res.Header.Get("Content-Encoding"), len(zipped), len(plain))
	}
	checkCRC(res, zipped)
	zr, err := gzip.NewReader(bytes.NewReader(zipped))
	if err != nil {
		t.Fatal(err)
	}
	unzipped, err := io.ReadAll(zr)
	if err != nil || !bytes.Contains(unzipped, []byte(pad)) || len(unzipped) != len(plain) {
		t.Fatalf("gunzipped answer: %d bytes (plain %d), %v", len(unzipped), len(plain), err)
	}
}

// headerHandler changes its header after writing it, which net/http
// ignores.
type headerHandler struct{}

func (headerHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Before", r.Host+" "+r.RequestURI+" "+r.RemoteAddr)
	w.WriteHeader(http.StatusTeapot)
	w.Header().Set("X-After", "1")
	io.Copy(w, r.Body)
}

func TestTransportRecorder(t *testing.T) {
	tr := local.NewTransport(headerHandler{})
	req, _ := http.NewRequest(http.MethodPost, "http://example.invalid/p?q=1", strings.NewReader("echo"))
	res, err := tr.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusTeapot || res.Status != "418 I'm a teapot" || string(body) != "echo" || res.ContentLength != 4 {
		t.Fatalf("response %q %q, ContentLength %d", res.Status, body, res.ContentLength)
	}
	if got := res.Header.Get("X-Before"); got != "example.invalid /p?q=1 127.0.0.1:0" {
		t.Fatalf("X-Before %q", got)
	}
	if res.Header.Get("X-After") != "" {
		t.Fatal("a header set after WriteHeader was sent")
	}
	res.Body.Close()
	if n, err := res.Body.Read(make([]byte, 4)); n != 0 || err == nil {
		t.Fatalf("Read after Close: %d, %v; want an error", n, err)
	}
	if req.URL.Host != "example.invalid" || req.RequestURI != "" {
		t.Fatal("RoundTrip changed the caller's request")
	}
}
