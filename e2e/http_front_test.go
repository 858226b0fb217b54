package e2e

// DynamoDB's front door over raw HTTP, against a real "dynago serve"
// process (its listener and header limit are serve's, not the in-process
// test server's): the health check, the headers of every answer, methods
// and paths other than POST /, compressed requests and responses, and
// oversized request lines and headers.
//
// Sources, cited per case:
//   - [issue5050]: `curl -i` of DynamoDB's GET / and GET /aaa, in
//     https://github.com/scylladb/scylladb/issues/5050
//   - [dynalite]: test/connection.js of https://github.com/architect/dynalite,
//     whose expectations were recorded against DynamoDB (bodies, lengths
//     and x-amz-crc32 of its non-JSON answers)
//   - [alt-req]: test/alternator/test_compressed_request.py of
//     https://github.com/scylladb/scylladb, run against DynamoDB
//   - [alt-resp]: test/alternator/test_compressed_response.py, idem
//   - [alt-crc]: test/alternator/test_crc.py, idem
//   - [issue23438]: https://github.com/scylladb/scylladb/issues/23438 and
//     pull request #23442 (DynamoDB's 16 KB header limit, 400 Bad Request)
//   - [rusoto215]: https://github.com/rusoto/rusoto/issues/215, a curl of
//     DynamoDB with Content-Type application/x-amz-json-1.1 answered 404
//   - [cognito41]: https://github.com/jonsaw/amazon-cognito-identity-dart/issues/41,
//     a Query to DynamoDB sent as "application/json; charset=utf-8" served

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"fmt"
	"hash/crc32"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/testserver"
)

// rawClient sends requests as written: no Accept-Encoding of its own and
// no transparent decompression, so bodies are the bytes on the wire.
var rawClient = &http.Client{Transport: &http.Transport{DisableCompression: true}, Timeout: 30 * time.Second}

// rawResponse is an answer with its body as sent.
type rawResponse struct {
	Status int
	Header http.Header
	Body   []byte
}

// rawDo sends method url with headers h and body, and reads the answer.
func rawDo(t *testing.T, method, url string, h http.Header, body []byte) rawResponse {
	t.Helper()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range h {
		if strings.EqualFold(k, "Host") {
			req.Host = v[0]
			continue
		}
		req.Header[http.CanonicalHeaderKey(k)] = v
	}
	res, err := rawClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return rawResponse{Status: res.StatusCode, Header: res.Header, Body: data}
}

// apiHeaders are the headers of a DynamoDB API request for op.
func apiHeaders(op string, kv ...string) http.Header {
	h := http.Header{"Content-Type": {"application/x-amz-json-1.0"}, "X-Amz-Target": {"DynamoDB_20120810." + op}}
	for i := 0; i+1 < len(kv); i += 2 {
		h.Set(kv[i], kv[i+1])
	}
	return h
}

// checkFrontHeaders asserts the headers DynamoDB sends with every answer
// [issue5050]: Server: Server, a Date, Connection: keep-alive (unless
// closing), a 52-character x-amzn-RequestId, and x-amz-crc32 of the body
// as sent (compressed or not [alt-crc]).
func checkFrontHeaders(t *testing.T, what string, res rawResponse, connection string) {
	t.Helper()
	if got := res.Header.Get("Server"); got != "Server" {
		t.Errorf("%s: Server %q, want \"Server\"", what, got)
	}
	if _, err := http.ParseTime(res.Header.Get("Date")); err != nil {
		t.Errorf("%s: Date %q: %v", what, res.Header.Get("Date"), err)
	}
	if got := res.Header.Get("Connection"); got != connection {
		t.Errorf("%s: Connection %q, want %q", what, got, connection)
	}
	id := res.Header.Get("x-amzn-RequestId")
	if len(id) != 52 || strings.Trim(id, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") != "" {
		t.Errorf("%s: x-amzn-RequestId %q", what, id)
	}
	if got, want := res.Header.Get("x-amz-crc32"), strconv.FormatUint(uint64(crc32.ChecksumIEEE(res.Body)), 10); got != want {
		t.Errorf("%s: x-amz-crc32 %q, want %q (of the body as sent)", what, got, want)
	}
}

func TestFrontHealthAndMethods(t *testing.T) {
	needsWire(t)
	p := testserver.StartProcess(t, "--in-memory")
	host := strings.TrimPrefix(p.URL, "http://")
	for _, tc := range []struct {
		name, method, path, host string
		status                   int
		body                     string
		crc                      string // "" to compute
	}{
		// [issue5050]: GET / is 200 "healthy: <the host addressed>"
		// followed by one space (Content-Length 42 and x-amz-crc32
		// 1920725165 for dynamodb.us-west-2.amazonaws.com hold only with
		// the space), with no Content-Type.
		{"GET / by address", "GET", "/", "", 200, "healthy: " + host + " ", ""},
		{"GET / by name", "GET", "/", "localhost:" + p.URL[strings.LastIndex(p.URL, ":")+1:], 200,
			"healthy: localhost:" + p.URL[strings.LastIndex(p.URL, ":")+1:] + " ", ""},
		// HEAD: the same answer without its body (no source; chosen as
		// HTTP requires).
		{"HEAD /", "HEAD", "/", "", 200, "", ""},
		// [issue5050] GET of another path is 404 with 272 bytes;
		// [dynalite] records those bytes, a "Page Not Found" XHTML page,
		// and their x-amz-crc32.
		{"GET /aaa", "GET", "/aaa", "", 404, pageNotFoundHTML, "2548615100"},
		{"GET /health", "GET", "/health", "", 404, pageNotFoundHTML, "2548615100"},
		// [dynalite] "should return 404 if a PUT / a DELETE / OPTIONS with
		// no auth": 404 "<UnknownOperationException/>\n", 29 bytes,
		// x-amz-crc32 3552371480.
		{"PUT /", "PUT", "/", "", 404, "<UnknownOperationException/>\n", "3552371480"},
		{"DELETE /", "DELETE", "/", "", 404, "<UnknownOperationException/>\n", "3552371480"},
		{"OPTIONS / without Origin", "OPTIONS", "/", "", 404, "<UnknownOperationException/>\n", "3552371480"},
		// No source for PATCH; chosen as for PUT and DELETE.
		{"PATCH /", "PATCH", "/", "", 404, "<UnknownOperationException/>\n", "3552371480"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := http.Header{}
			if tc.host != "" {
				h.Set("Host", tc.host)
			}
			res := rawDo(t, tc.method, p.URL+tc.path, h, nil)
			if res.Status != tc.status || string(res.Body) != tc.body {
				t.Fatalf("%d %q, want %d %q", res.Status, res.Body, tc.status, tc.body)
			}
			if tc.method == "HEAD" {
				// The headers of GET /, its CRC32 included.
				res.Body = []byte("healthy: " + host + " ")
			}
			checkFrontHeaders(t, tc.name, res, "keep-alive")
			if ct, ok := res.Header["Content-Type"]; ok {
				t.Errorf("Content-Type %q: DynamoDB sends none with this answer [issue5050]", ct)
			}
			if tc.method == "HEAD" {
				want := strconv.Itoa(len("healthy: " + host + " "))
				if got := res.Header.Get("Content-Length"); got != want {
					t.Errorf("HEAD Content-Length %q, want %q", got, want)
				}
				return
			}
			if got := res.Header.Get("Content-Length"); got != strconv.Itoa(len(tc.body)) {
				t.Errorf("Content-Length %q, want %d", got, len(tc.body))
			}
			if tc.crc != "" && res.Header.Get("x-amz-crc32") != tc.crc {
				t.Errorf("x-amz-crc32 %q, want DynamoDB's %s", res.Header.Get("x-amz-crc32"), tc.crc)
			}
		})
	}
}

// pageNotFoundHTML is DynamoDB's answer to GET of a path other than "/"
// [dynalite].
const pageNotFoundHTML = `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en" lang="en">
<head>
  <title>Page Not Found</title>
</head>
<body>Page Not Found</body>
</html>`

// TestFrontAPIHeaders checks the headers of JSON answers, successes and
// errors alike [issue5050] (Server, Date, Connection, request id, CRC32)
// and their content type, application/x-amz-json-1.0 [dynalite].
func TestFrontAPIHeaders(t *testing.T) {
	needsWire(t)
	p := testserver.StartProcess(t, "--in-memory")
	for _, tc := range []struct {
		name, op, body string
		status         int
	}{
		{"success", "ListTables", `{}`, 200},
		{"service error", "DescribeTable", `{"TableName":"nope"}`, 400},
		{"unknown operation", "ListTable", `{}`, 400},
		{"serialization error", "ListTables", `{`, 400},
	} {
		res := rawDo(t, "POST", p.URL+"/", apiHeaders(tc.op), []byte(tc.body))
		if res.Status != tc.status {
			t.Errorf("%s: status %d, want %d: %s", tc.name, res.Status, tc.status, res.Body)
		}
		checkFrontHeaders(t, tc.name, res, "keep-alive")
		if got := res.Header.Get("Content-Type"); got != "application/x-amz-json-1.0" {
			t.Errorf("%s: Content-Type %q", tc.name, got)
		}
	}
}

// TestFrontContentType checks what DynamoDB makes of a request's
// Content-Type: a body it is not told is JSON gets its 404 page before
// anything else is looked at, and a JSON answer has the request's type
// when that is application/x-amz-json-1.0 and application/json
// otherwise.
func TestFrontContentType(t *testing.T) {
	needsWire(t)
	p := testserver.StartProcess(t, "--in-memory")
	createHash(t, p.Client(), "ctype", types.ScalarAttributeTypeS)
	put := `{"TableName":"ctype","Item":{"pk":{"S":"%s"}},"ReturnConsumedCapacity":"TOTAL"}`
	for _, tc := range []struct {
		name, contentType, target, body string
		status                          int
		respType                        string // "" for none
		want                            string // in the body
	}{
		// [dynalite] "should return UnknownOperationException if body is
		// application/json" (and ... application/x-amz-json-1.0): the
		// answer's Content-Type follows the request's.
		{"json, no target", "application/json", "", "{}", 400, "application/json", "#UnknownOperationException"},
		{"amz json, no target", "application/x-amz-json-1.0", "", "{}", 400, "application/x-amz-json-1.0", "#UnknownOperationException"},
		// [dynalite] "should return UnknownOperationException if no
		// target" and "... if incorrect target": no body and no
		// Content-Type, answered application/json.
		{"no type, no body", "", "", "", 400, "application/json", "#UnknownOperationException"},
		{"no type, no body, bad target", "", "whatever", "", 400, "application/json", "#UnknownOperationException"},
		// [dynalite]'s rule for every JSON answer (its recordings are of
		// errors): a request of type application/json is served, and
		// answered application/json.
		{"json, served", "application/json", "DynamoDB_20120810.PutItem", "json", 200, "application/json", "ConsumedCapacity"},
		// [cognito41]: with a charset parameter, still served.
		{"json with charset", "application/json; charset=utf-8", "DynamoDB_20120810.PutItem", "charset", 200, "application/json", "ConsumedCapacity"},
		// [dynalite] "should return 404 if body but no content-type" and
		// "... if body but incorrect content-type": 404
		// "<UnknownOperationException/>\n", x-amz-crc32 3552371480, with
		// a target or without, and nothing written.
		{"no type, body", "", "DynamoDB_20120810.PutItem", "none", 404, "", "<UnknownOperationException/>\n"},
		{"other type, body", "whatever", "DynamoDB_20120810.PutItem", "whatever", 404, "", "<UnknownOperationException/>\n"},
		{"form, body, no target", "application/x-www-form-urlencoded", "", "a=b", 404, "", "<UnknownOperationException/>\n"},
		// [rusoto215]: application/x-amz-json-1.1, DynamoDB's protocol's
		// neighbour, is 404 too.
		{"amz json 1.1", "application/x-amz-json-1.1", "DynamoDB_20120810.PutItem", "json11", 404, "", "<UnknownOperationException/>\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := http.Header{}
			if tc.contentType != "" {
				h.Set("Content-Type", tc.contentType)
			}
			if tc.target != "" {
				h.Set("X-Amz-Target", tc.target)
			}
			body := tc.body
			if strings.HasPrefix(tc.target, "DynamoDB_20120810.PutItem") {
				body = fmt.Sprintf(put, tc.body)
			}
			var raw []byte
			if body != "" {
				raw = []byte(body)
			}
			res := rawDo(t, "POST", p.URL+"/", h, raw)
			if res.Status != tc.status || !strings.Contains(string(res.Body), tc.want) {
				t.Fatalf("%d %s, want %d with %q", res.Status, res.Body, tc.status, tc.want)
			}
			checkFrontHeaders(t, tc.name, res, "keep-alive")
			if ct, ok := res.Header["Content-Type"]; tc.respType == "" && ok {
				t.Errorf("Content-Type %q, want none", ct)
			} else if tc.respType != "" && res.Header.Get("Content-Type") != tc.respType {
				t.Errorf("Content-Type %q, want %q", res.Header.Get("Content-Type"), tc.respType)
			}
			if tc.status == 404 && res.Header.Get("x-amz-crc32") != "3552371480" {
				t.Errorf("x-amz-crc32 %q, want DynamoDB's 3552371480", res.Header.Get("x-amz-crc32"))
			}
			if strings.HasPrefix(tc.target, "DynamoDB_20120810.PutItem") {
				written := get(t, p.Client(), "ctype", item{"pk": S(tc.body)}) != nil
				if written != (tc.status == 200) {
					t.Errorf("item written: %v, want %v", written, tc.status == 200)
				}
			}
		})
	}
}

func gzipBytes(s string) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	io.WriteString(zw, s)
	zw.Close()
	return b.Bytes()
}

func zlibBytes(s string) []byte {
	var b bytes.Buffer
	zw := zlib.NewWriter(&b)
	io.WriteString(zw, s)
	zw.Close()
	return b.Bytes()
}

func TestFrontCompressedRequests(t *testing.T) {
	needsWire(t)
	p := testserver.StartProcess(t, "--in-memory")
	c := p.Client()
	createHash(t, c, "zreq", types.ScalarAttributeTypeS)
	putBody := func(pk string) string {
		return `{"TableName":"zreq","Item":{"pk":{"S":"` + pk + `"},"v":{"S":"` + strings.Repeat("v", 3000) + `"}}}`
	}
	for _, tc := range []struct {
		name, encoding string
		body           func(pk string) []byte
		status         int
	}{
		// [alt-req] test_gzip_request_valid: a gzip body is accepted.
		{"gzip", "gzip", func(pk string) []byte { return gzipBytes(putBody(pk)) }, 200},
		// [alt-req] test_gzip_request_two_gzips: members concatenated.
		{"gzip two members", "gzip", func(pk string) []byte {
			b := putBody(pk)
			return append(gzipBytes(b[:10]), gzipBytes(b[10:])...)
		}, 200},
		// [alt-req] test_gzip_request_with_extra_junk: DynamoDB accepts
		// junk after a complete member (Alternator calls that a bug of
		// DynamoDB's; dynago does as DynamoDB does).
		{"gzip and junk", "gzip", func(pk string) []byte { return append(gzipBytes(putBody(pk)), "junk"...) }, 200},
		// No source for the coding's case; chosen case-insensitive, as
		// RFC 9110 8.4.1 makes codings.
		{"GZIP", "GZIP", func(pk string) []byte { return gzipBytes(putBody(pk)) }, 200},
		// [alt-req] test_deflate_request_valid: deflate is the zlib format.
		{"deflate", "deflate", func(pk string) []byte { return zlibBytes(putBody(pk)) }, 200},
		// identity is no coding at all (RFC 9110 8.4.1; no DynamoDB source).
		{"identity", "identity", func(pk string) []byte { return []byte(putBody(pk)) }, 200},
		// [alt-req] test_broken_gzip_content: DynamoDB answers a body that
		// is not gzip with HTTP 500 InternalServerError. A 5xx by
		// DynamoDB's choice, not a fault of dynago's.
		{"not gzip", "gzip", func(pk string) []byte { return []byte(putBody(pk)) }, 500},
		// [alt-req] test_gzip_request_with_missing_character: 500.
		{"gzip cut short", "gzip", func(pk string) []byte { b := gzipBytes(putBody(pk)); return b[:len(b)-1] }, 500},
		// [alt-req] test_gzip_request_empty: 500.
		{"gzip empty", "gzip", func(string) []byte { return []byte{} }, 500},
		// [alt-req] test_deflate_request_empty and
		// test_deflate_request_not_deflated: 500.
		{"deflate empty", "deflate", func(string) []byte { return []byte{} }, 500},
		{"not deflate", "deflate", func(pk string) []byte { return []byte(putBody(pk)) }, 500},
		// [alt-req] test_gzip_request_oversized: a small gzip body that
		// decompresses past 16 MB is refused, by DynamoDB with 500 (by
		// Alternator with 413, which that test also admits).
		{"gzip over 16 MB decompressed", "gzip", func(pk string) []byte {
			b := putBody(pk)
			return gzipBytes(b[:len(b)-1] + strings.Repeat(" ", 20<<20) + "}")
		}, 500},
		// [alt-req] test_garbage_content_encoding: an unknown coding is
		// 500 too.
		{"garbage coding", "garbage", func(pk string) []byte { return []byte(putBody(pk)) }, 500},
		{"br", "br", func(pk string) []byte { return []byte(putBody(pk)) }, 500},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pk := strings.ReplaceAll(tc.name, " ", "-")
			res := rawDo(t, "POST", p.URL+"/", apiHeaders("PutItem", "Content-Encoding", tc.encoding), tc.body(pk))
			if res.Status != tc.status {
				t.Fatalf("status %d, want %d: %s", res.Status, tc.status, res.Body)
			}
			checkFrontHeaders(t, tc.name, res, "keep-alive")
			written := get(t, c, "zreq", item{"pk": S(pk)}) != nil
			if written != (tc.status == 200) {
				t.Fatalf("item written: %v, want %v", written, tc.status == 200)
			}
			if tc.status == 500 && !bytes.Contains(res.Body, []byte(`#InternalServerError"`)) {
				t.Errorf("body %s, want an InternalServerError", res.Body)
			}
		})
	}
}

func TestFrontCompressedResponses(t *testing.T) {
	needsWire(t)
	p := testserver.StartProcess(t, "--in-memory")
	c := p.Client()
	createHash(t, c, "zresp", types.ScalarAttributeTypeS)
	// [alt-resp] test_compressed_response: DynamoDB's threshold is 4 KB;
	// an attribute of 4096-25 bytes alone stays under it, with its key
	// over it.
	x := strings.Repeat("x", 4096-25)
	put(t, c, "zresp", item{"pk": S("p1234567890"), "x": S(x)})
	getBody := func(proj string) []byte {
		return []byte(`{"TableName":"zresp","Key":{"pk":{"S":"p1234567890"}},"ProjectionExpression":"` + proj + `"}`)
	}
	plain := rawDo(t, "POST", p.URL+"/", apiHeaders("GetItem"), getBody("pk, x"))
	if plain.Status != 200 || len(plain.Body) < 4096 || plain.Header.Get("Content-Encoding") != "" {
		t.Fatalf("GetItem without Accept-Encoding: %d, %d bytes, Content-Encoding %q", plain.Status, len(plain.Body), plain.Header.Get("Content-Encoding"))
	}
	for _, tc := range []struct {
		accept string
		proj   string // default "pk, x": over the threshold
		want   string // coding, "" for none
	}{
		// Every case is [alt-resp] test_compressed_response and
		// test_compressed_response_accept_encodings, recorded against
		// DynamoDB.
		{"gzip", "", "gzip"},
		{"deflate", "", "deflate"},
		{"gzip", "x", ""}, // under 4 KiB: not compressed
		{"identity", "", ""},
		{"", "", ""},
		{"br", "", ""},
		{"zstd", "", ""},
		{"compress", "", ""},
		{"x-gzip", "", ""},
		{"gzip, deflate", "", "gzip"},
		{"br, identity, deflate, gzip", "", "deflate"},
		{"GZIP, identity", "", "gzip"},
		{"dog, gzip ,, cat", "", "gzip"},
		{"gzip;q=0.8, deflate;q=0.5", "", "gzip"},
		{"br, gzip;q=0, deflate; q = 0.5 , identity;q=0", "", "deflate"},
		{"*", "", "gzip"},
		{"*, deflate;q=0.5", "", "gzip"},
		{"*, deflate", "", "deflate"},
		{"*, identity", "", "gzip"},
		{"*, gzip;q=0.5", "", "deflate"},
		{"gzip ;q=0", "", ""},
		{"identity;q=0", "", ""},
		{"*;q=0", "", ""},
		{"*;q=0.5,identity", "", "gzip"},
		{"gzip;q=0.5,identity;q=0.8", "", "gzip"},
		{"br;q=0.8,identity;q=0.5,*;q=0", "", ""},
		{`"gzip"`, "", ""},
		{"gzip br", "", ""},
		{"gzip:q=1", "", ""},
		{"deflate;q=0.5, gzip;q=31", "", "gzip"},
		{"gzip;q=31,deflate;q=51", "", "gzip"},
		{"deflate;q=0.5, gzip;q=0.2", "", "deflate"},
		{"deflate;q=0.5, gzip;q=1;q=0.2", "", "gzip"},
		{"deflate;q=0.5,gzip;q=0.", "", "deflate"},
		{"deflate;q=0.5,gzip;q=0.x", "", "gzip"},
		{"deflate;q=-0.5,gzip;q=0.2", "", "gzip"},
		{"deflate;q=0.5,gzip;q=0. x", "", "gzip"},
		// [alt-resp]: a weight is read from the first parameter holding
		// "q=": "q= 0" and " q=0" weigh 0, "q =0" is passed over for the
		// "q=1" after it, and "nq=0" weighs 0.
		{"gzip;q= 0;q=1", "", ""},
		{"gzip;q =0;q=1", "", "gzip"},
		{"gzip; q=0;q=1", "", ""},
		{"gzip;nq=0;q=1", "", ""},
		{"gzip;q=0, gzip;q=1, gzip;q=0", "", "gzip"},
		{"br,identity;q=0.5,gzip;q=0.0001", "", "gzip"},
	} {
		proj := tc.proj
		if proj == "" {
			proj = "pk, x"
		}
		what := fmt.Sprintf("Accept-Encoding %q, projection %q", tc.accept, proj)
		res := rawDo(t, "POST", p.URL+"/", apiHeaders("GetItem", "Accept-Encoding", tc.accept), getBody(proj))
		if res.Status != 200 {
			t.Fatalf("%s: status %d: %s", what, res.Status, res.Body)
		}
		// [alt-crc] test_crc32_header_with_compression: the CRC32 is of
		// the compressed bytes.
		checkFrontHeaders(t, what, res, "keep-alive")
		if got := res.Header.Get("Content-Encoding"); got != tc.want {
			t.Errorf("%s: Content-Encoding %q, want %q", what, got, tc.want)
			continue
		}
		body := res.Body
		switch tc.want {
		case "gzip":
			if !bytes.HasPrefix(body, []byte{0x1f, 0x8b}) {
				t.Errorf("%s: body is not gzip", what)
				continue
			}
			zr, err := gzip.NewReader(bytes.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			body, err = io.ReadAll(zr)
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
		case "deflate":
			zr, err := zlib.NewReader(bytes.NewReader(body))
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			body, err = io.ReadAll(zr)
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
		}
		if tc.want != "" {
			// [alt-resp]: "check that compression actually happened".
			if len(body) <= 30*len(res.Body) {
				t.Errorf("%s: %d bytes compressed to %d", what, len(body), len(res.Body))
			}
			if !bytes.Equal(body, plain.Body) {
				t.Errorf("%s: decompressed body differs from the uncompressed answer", what)
			}
		}
	}

	// Several Accept-Encoding headers: [alt-resp]
	// test_multiple_accept_encoding_headers, against DynamoDB, which
	// reads only the first of them.
	for _, tc := range []struct {
		headers []string
		want    string
	}{
		{[]string{"gzip", "identity"}, "gzip"},
		{[]string{"identity", "gzip"}, ""},
	} {
		h := apiHeaders("GetItem")
		h["Accept-Encoding"] = tc.headers
		res := rawDo(t, "POST", p.URL+"/", h, getBody("pk, x"))
		if res.Status != 200 {
			t.Fatalf("Accept-Encoding headers %q: status %d: %s", tc.headers, res.Status, res.Body)
		}
		if got := res.Header.Get("Content-Encoding"); got != tc.want {
			t.Errorf("Accept-Encoding headers %q: Content-Encoding %q, want %q", tc.headers, got, tc.want)
		}
	}
}

// TestFrontOversizeHeaders sends request lines and headers past
// DynamoDB's 16 KB limit, which it answers with 400 Bad Request
// [issue23438] (net/http by itself says 431), and ones just under it,
// which are served.
func TestFrontOversizeHeaders(t *testing.T) {
	needsWire(t)
	p := testserver.StartProcess(t, "--in-memory")
	addr := strings.TrimPrefix(p.URL, "http://")
	send := func(path string, extra string) (int, http.Header, bool, string) {
		t.Helper()
		conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		conn.SetDeadline(time.Now().Add(30 * time.Second))
		body := `{}`
		fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/x-amz-json-1.0\r\nX-Amz-Target: DynamoDB_20120810.ListTables\r\n%sContent-Length: %d\r\n\r\n%s",
			path, addr, extra, len(body), body)
		res, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatalf("reading the answer: %v", err)
		}
		data, _ := io.ReadAll(res.Body)
		res.Body.Close()
		return res.StatusCode, res.Header, res.Close, string(data)
	}
	for _, tc := range []struct {
		name, path, extra string
		status            int
	}{
		// [issue23438] / PR #23442: a URL of 17,000 more bytes gets
		// "400 Bad Request" (not a signature error: DynamoDB never read
		// it all).
		{"long URL", "/" + strings.Repeat("x", 17000), "", 400},
		// [issue23438]: headers over 16 KB in all get 400.
		{"long header", "/", "X-Junk: " + strings.Repeat("j", 17000) + "\r\n", 400},
		{"many headers", "/", strings.Repeat("X-Junk: "+strings.Repeat("j", 100)+"\r\n", 170), 400},
		// Under the limit: served (DynamoDB's SDK headers with a session
		// token are about 3 KB).
		{"12 KB of headers", "/", "X-Junk: " + strings.Repeat("j", 12000) + "\r\n", 200},
	} {
		status, h, closing, body := send(tc.path, tc.extra)
		if status != tc.status {
			t.Errorf("%s: status %d, want %d: %s", tc.name, status, tc.status, body)
			continue
		}
		if got := h.Get("Server"); got != "Server" {
			t.Errorf("%s: Server %q", tc.name, got)
		}
		if len(h.Get("x-amzn-RequestId")) != 52 {
			t.Errorf("%s: x-amzn-RequestId %q", tc.name, h.Get("x-amzn-RequestId"))
		}
		if status == 400 && !closing {
			t.Errorf("%s: no Connection: close", tc.name)
		}
	}
	// The server still serves after them.
	if res := rawDo(t, "POST", p.URL+"/", apiHeaders("ListTables"), []byte(`{}`)); res.Status != 200 {
		t.Fatalf("ListTables after oversized requests: %d %s", res.Status, res.Body)
	}
}
