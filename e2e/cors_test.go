package e2e

// CORS on a real "dynago serve": which origins get their preflight
// answered and Access-Control-Allow-Origin on answers, by default and
// with --cors, and that the Host check and /dynago/'s refusal of
// cross-site requests still hold.
//
// Sources:
//   - [ddb-local]: DynamoDB Local's -cors option, "a comma-separated allow
//     list of specific domains ... The default setting for -cors is an
//     asterisk (*), which allows public access."
//     https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/DynamoDBLocal.UsageNotes.html
//   - [alt-cors]: test/alternator/test_cors.py of
//     https://github.com/scylladb/scylladb, run against DynamoDB: no CORS
//     headers without Origin; with one, Access-Control-Allow-Origin and
//     Access-Control-Expose-Headers on GET, POST and OPTIONS; the preflight
//     echoes the requested method and headers and alone carries
//     Access-Control-Max-Age.
//   - [dynalite]: test/connection.js of https://github.com/architect/dynalite
//     (recorded against DynamoDB): the preflight is 200 with an empty body
//     and Access-Control-Max-Age 172800.
//   - [alt-server]: alternator/server.cc, handle_CORS: "This is the list
//     that DynamoDB returns for expose headers":
//     x-amzn-RequestId,x-amzn-ErrorType,x-amzn-ErrorMessage,Date.
//   - dynago's own choice, no source: which origins are allowed by
//     default (loopback only, where DynamoDB and DynamoDB Local allow
//     any), echoing the origin with Vary: Origin instead of "*", the
//     403 to a preflight from an origin not allowed, and x-amz-crc32
//     added to the exposed headers.

import (
	"net/http"
	"strings"
	"testing"

	"github.com/dynago/dynago/testserver"
)

// sdkJSHeaders are the headers the AWS SDK for JavaScript v3 asks a
// preflight for when a page calls DynamoDB.
const sdkJSHeaders = "amz-sdk-invocation-id,amz-sdk-request,authorization,content-type,x-amz-content-sha256,x-amz-date,x-amz-security-token,x-amz-target,x-amz-user-agent"

// corsCase is one origin against one server.
type corsCase struct {
	origin  string
	allowed bool
	acao    string // Access-Control-Allow-Origin when allowed; "" means the origin itself
}

// checkCORS sends an origin a preflight, an API call and a health check,
// and checks the CORS headers of each.
func checkCORS(t *testing.T, url string, tc corsCase) {
	t.Helper()
	acao := tc.acao
	if acao == "" {
		acao = tc.origin
	}
	// The preflight a browser sends before a POST with X-Amz-Target.
	pre := rawDo(t, "OPTIONS", url+"/", http.Header{
		"Origin":                         {tc.origin},
		"Access-Control-Request-Method":  {"POST"},
		"Access-Control-Request-Headers": {sdkJSHeaders},
	}, nil)
	if tc.allowed {
		// [dynalite]: 200, empty body, Max-Age 172800; [alt-cors]: the
		// requested method and headers echoed.
		if pre.Status != 200 || len(pre.Body) != 0 {
			t.Errorf("%s: preflight %d %q, want 200 and no body", tc.origin, pre.Status, pre.Body)
		}
		for k, want := range map[string]string{
			"Access-Control-Allow-Origin":   acao,
			"Access-Control-Allow-Methods":  "POST",
			"Access-Control-Allow-Headers":  sdkJSHeaders,
			"Access-Control-Max-Age":        "172800",
			"Access-Control-Expose-Headers": "x-amzn-RequestId,x-amzn-ErrorType,x-amzn-ErrorMessage,Date,x-amz-crc32",
		} {
			if got := pre.Header.Get(k); got != want {
				t.Errorf("%s: preflight %s %q, want %q", tc.origin, k, got, want)
			}
		}
		checkFrontHeaders(t, tc.origin+" preflight", pre, "keep-alive")
	} else {
		if pre.Status != http.StatusForbidden || pre.Header.Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("%s: preflight %d, Access-Control-Allow-Origin %q: want 403 and none",
				tc.origin, pre.Status, pre.Header.Get("Access-Control-Allow-Origin"))
		}
		if !strings.Contains(string(pre.Body), "--cors") {
			t.Errorf("%s: preflight refusal %s does not name --cors", tc.origin, pre.Body)
		}
	}
	// The call itself and GET / [alt-cors]: Allow-Origin and
	// Expose-Headers when allowed, and no preflight-only headers.
	for _, res := range []rawResponse{
		rawDo(t, "POST", url+"/", apiHeaders("ListTables", "Origin", tc.origin), []byte(`{}`)),
		rawDo(t, "GET", url+"/", http.Header{"Origin": {tc.origin}}, nil),
	} {
		if res.Status != 200 {
			t.Errorf("%s: %d %s", tc.origin, res.Status, res.Body)
		}
		want := ""
		if tc.allowed {
			want = acao
		}
		if got := res.Header.Get("Access-Control-Allow-Origin"); got != want {
			t.Errorf("%s: Access-Control-Allow-Origin %q, want %q", tc.origin, got, want)
		}
		if got := res.Header.Get("Access-Control-Expose-Headers") != ""; got != tc.allowed {
			t.Errorf("%s: Access-Control-Expose-Headers present %v, want %v", tc.origin, got, tc.allowed)
		}
		for _, k := range []string{"Access-Control-Max-Age", "Access-Control-Allow-Methods", "Access-Control-Allow-Headers"} {
			if res.Header.Get(k) != "" {
				t.Errorf("%s: %s on a request that is no preflight", tc.origin, k)
			}
		}
		if tc.allowed && tc.acao == "" && !strings.EqualFold(res.Header.Get("Vary"), "Origin") {
			t.Errorf("%s: Vary %q, want Origin with an echoed origin", tc.origin, res.Header.Get("Vary"))
		}
	}
}

func TestCORSDefaultLoopback(t *testing.T) {
	needsWire(t)
	p := testserver.StartProcess(t, "--in-memory")
	for _, tc := range []corsCase{
		// dynago's default (no source; see above): pages on localhost and
		// loopback addresses, any scheme and port.
		{origin: "http://localhost:3000", allowed: true},
		{origin: "https://localhost", allowed: true},
		{origin: "http://127.0.0.1:5173", allowed: true},
		{origin: "http://127.8.9.10:8080", allowed: true},
		{origin: "http://[::1]:4200", allowed: true},
		{origin: "http://app.localhost:8080", allowed: true},
		{origin: "https://example.com", allowed: false},
		{origin: "http://localhost.example.com", allowed: false},
		{origin: "http://192.168.1.20:3000", allowed: false},
		{origin: "null", allowed: false},
		{origin: "file://", allowed: false},
	} {
		checkCORS(t, p.URL, tc)
	}
	// [alt-cors] test_cors_not_used: without Origin, no CORS header on
	// GET, POST or OPTIONS.
	for _, res := range []rawResponse{
		rawDo(t, "GET", p.URL+"/", nil, nil),
		rawDo(t, "POST", p.URL+"/", apiHeaders("ListTables"), []byte(`{}`)),
		rawDo(t, "OPTIONS", p.URL+"/", nil, nil),
	} {
		for k := range res.Header {
			if strings.HasPrefix(strings.ToLower(k), "access-control-") {
				t.Errorf("%s without Origin", k)
			}
		}
	}
}

func TestCORSFlag(t *testing.T) {
	needsWire(t)
	for _, tc := range []struct {
		flag  string
		cases []corsCase
	}{
		// [ddb-local]: -cors '*' allows every origin; [alt-cors]: DynamoDB
		// answers "Access-Control-Allow-Origin: *".
		{"*", []corsCase{
			{origin: "https://example.com", allowed: true, acao: "*"},
			{origin: "http://localhost:3000", allowed: true, acao: "*"},
		}},
		// dynago's own: none turns CORS off, loopback included.
		{"none", []corsCase{
			{origin: "http://localhost:3000", allowed: false},
			{origin: "https://example.com", allowed: false},
		}},
		// [ddb-local]: a comma-separated allow list. An origin matches
		// exactly (scheme, host and port), a bare host name any scheme and
		// port (dynago's own), and a list replaces the loopback default
		// unless it names "loopback".
		{"https://app.example.com, tools.internal", []corsCase{
			{origin: "https://app.example.com", allowed: true},
			{origin: "https://APP.example.com", allowed: true},
			{origin: "http://app.example.com", allowed: false},
			{origin: "https://app.example.com:8443", allowed: false},
			{origin: "http://tools.internal:9999", allowed: true},
			{origin: "http://localhost:3000", allowed: false},
		}},
		{"loopback,https://app.example.com", []corsCase{
			{origin: "https://app.example.com", allowed: true},
			{origin: "http://localhost:3000", allowed: true},
			{origin: "https://example.com", allowed: false},
		}},
	} {
		t.Run(tc.flag, func(t *testing.T) {
			p := testserver.StartProcess(t, "--in-memory", "--cors", tc.flag)
			for _, c := range tc.cases {
				checkCORS(t, p.URL, c)
			}
		})
	}
}

// TestCORSKeepsGuards checks that CORS opens nothing the Host check and
// /dynago/'s cross-origin refusal close (dynago's own guards, see
// docs/OPERATIONS.md; no DynamoDB source).
func TestCORSKeepsGuards(t *testing.T) {
	needsWire(t)
	p := testserver.StartProcess(t, "--in-memory", "--cors", "*")
	// DNS rebinding: an allowed origin does not make a foreign Host
	// acceptable.
	res := rawDo(t, "POST", p.URL+"/", apiHeaders("ListTables", "Origin", "http://evil.example", "Host", "evil.example:8000"), []byte(`{}`))
	if res.Status != http.StatusForbidden || !strings.Contains(string(res.Body), "AccessDeniedException") {
		t.Errorf("foreign Host with an Origin: %d %s, want 403 AccessDeniedException", res.Status, res.Body)
	}
	pre := rawDo(t, "OPTIONS", p.URL+"/", http.Header{"Origin": {"http://evil.example"}, "Host": {"evil.example:8000"},
		"Access-Control-Request-Method": {"POST"}}, nil)
	if pre.Status != http.StatusForbidden || pre.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("preflight for a foreign Host: %d, Access-Control-Allow-Origin %q", pre.Status, pre.Header.Get("Access-Control-Allow-Origin"))
	}
	// /dynago/ is not the DynamoDB API: no CORS there, even with '*', and
	// cross-origin browser requests stay refused.
	for _, origin := range []string{"http://localhost:3000", "https://example.com"} {
		res := rawDo(t, "POST", p.URL+"/dynago/ttl/sweep", http.Header{"Origin": {origin}}, nil)
		if res.Status != http.StatusForbidden || res.Header.Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("cross-origin POST /dynago/ttl/sweep from %s: %d, Access-Control-Allow-Origin %q", origin, res.Status, res.Header.Get("Access-Control-Allow-Origin"))
		}
		pre := rawDo(t, "OPTIONS", p.URL+"/dynago/ttl/sweep", http.Header{"Origin": {origin}, "Access-Control-Request-Method": {"POST"}}, nil)
		if pre.Status == 200 || pre.Header.Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("preflight of /dynago/ttl/sweep from %s: %d, Access-Control-Allow-Origin %q", origin, pre.Status, pre.Header.Get("Access-Control-Allow-Origin"))
		}
	}
	// Same-origin and non-browser requests to /dynago/ still work.
	if res := rawDo(t, "POST", p.URL+"/dynago/ttl/sweep", http.Header{"Origin": {p.URL}}, nil); res.Status != 200 {
		t.Errorf("same-origin POST /dynago/ttl/sweep: %d %s", res.Status, res.Body)
	}
	if res := rawDo(t, "POST", p.URL+"/dynago/ttl/sweep", nil, nil); res.Status != 200 {
		t.Errorf("POST /dynago/ttl/sweep: %d %s", res.Status, res.Body)
	}
}
