package console_test

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/dynago/dynago/local"
	"github.com/dynago/dynago/server/console"
)

// newSite serves the console beside a real dynago server over a fresh
// in-memory database, as "dynago serve" will.
func newSite(t *testing.T, opts console.Options) *httptest.Server {
	t.Helper()
	db, err := local.Open()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	site := httptest.NewServer(console.With(db.Handler(), opts))
	t.Cleanup(site.Close)
	return site
}

func get(t *testing.T, url string) (*http.Response, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func post(t *testing.T, url, body string, header ...string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func TestAssets(t *testing.T) {
	site := newSite(t, console.Options{})
	for _, tc := range []struct {
		path, contentType, contains string
	}{
		{"/console/", "text/html; charset=utf-8", `<script type="module" src="app.js">`},
		{"/console/index.html", "text/html; charset=utf-8", "<title>dynago console</title>"},
		{"/console/app.js", "text/javascript; charset=utf-8", "function route()"},
		{"/console/api.js", "text/javascript; charset=utf-8", "X-Amz-Target"},
		{"/console/av.js", "text/javascript; charset=utf-8", "export function parseJSON"},
		{"/console/console.css", "text/css; charset=utf-8", "table.grid"},
		{"/console/favicon.svg", "image/svg+xml", "<svg "},
	} {
		t.Run(tc.path, func(t *testing.T) {
			resp, body := get(t, site.URL+tc.path)
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("status %d, body %q", resp.StatusCode, body)
			}
			if got := resp.Header.Get("Content-Type"); got != tc.contentType {
				t.Errorf("Content-Type %q, want %q", got, tc.contentType)
			}
			if !strings.Contains(body, tc.contains) {
				t.Errorf("body lacks %q", tc.contains)
			}
			if got := resp.Header.Get("X-Content-Type-Options"); got != "nosniff" {
				t.Errorf("X-Content-Type-Options %q", got)
			}
			if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "connect-src 'self'") || !strings.Contains(csp, "script-src 'self'") {
				t.Errorf("Content-Security-Policy %q", csp)
			}
		})
	}
}

func TestRoutes(t *testing.T) {
	site := newSite(t, console.Options{})
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Get(site.URL + "/console")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMovedPermanently || resp.Header.Get("Location") != "/console/" {
		t.Errorf("/console: %d to %q, want 301 to /console/", resp.StatusCode, resp.Header.Get("Location"))
	}
	if resp, _ := get(t, site.URL+"/console/nothing.js"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("missing asset: %d, want 404", resp.StatusCode)
	}
	if resp, _ := post(t, site.URL+"/console/app.js", "{}"); resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST to an asset: %d, want 405", resp.StatusCode)
	}
	// Everything else is the API's, answered as the API answers it.
	if resp, body := get(t, site.URL+"/"); resp.StatusCode != http.StatusOK || !strings.HasPrefix(body, "healthy:") {
		t.Errorf("GET /: %d %q", resp.StatusCode, body)
	}
	if resp, body := get(t, site.URL+"/consoles"); resp.StatusCode != http.StatusNotFound || resp.Header.Get("x-amzn-RequestId") == "" {
		t.Errorf("GET /consoles: %d %q, want the API's 404", resp.StatusCode, body)
	}
	resp, body := post(t, site.URL+"/", `{}`, "Content-Type", "application/x-amz-json-1.0", "X-Amz-Target", "DynamoDB_20120810.ListTables")
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, `"TableNames":[]`) {
		t.Errorf("ListTables: %d %q", resp.StatusCode, body)
	}
}

func decode(t *testing.T, body string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(body), &m); err != nil {
		t.Fatalf("%v in %q", err, body)
	}
	return m
}

const model = `{"table": "Comments", "sortKey": "GSISK", "tableKeys": ["PK", "SK"],
 "dimensions": [{"name": "product"}, {"name": "language"}, {"name": "rating", "values": ["1","2","3","4","5"]}],
 "indexes": [
  {"name": "all", "partitionKey": "GSI4PK", "format": "PRODUCT#{product}"},
  {"name": "byLang", "partitionKey": "GSI2PK", "format": "PRODUCT#{product}/{language}"},
  {"name": "byRating", "partitionKey": "GSI3PK", "format": "PRODUCT#{product}/{rating}"},
  {"name": "byLangAndRating", "partitionKey": "GSIPK", "format": "PRODUCT#{product}/{language}/{rating}"}]}`

func TestPlan(t *testing.T) {
	site := newSite(t, console.Options{})
	for _, tc := range []struct {
		name, where string
		status      int
		want        []string
	}{
		{"one rating", `{"product": ["42"], "rating": ["5"]}`, 200, []string{`"Index":"byRating"`, `"Keys":["PRODUCT#42/5"]`, `Query index byRating where GSI3PK = \"PRODUCT#42/5\"`}},
		{"two ratings", `{"product": ["42"], "language": ["en"], "rating": ["4", "5"]}`, 200, []string{`"Index":"byLangAndRating"`, `2 parallel Queries`}},
		{"all ratings", `{"product": ["42"], "rating": ["1","2","3","4","5"]}`, 200, []string{`"Index":"all"`}},
		{"unknown dimension", `{"colour": ["red"]}`, 400, []string{`"__type":"ValidationException"`, `unknown dimension \"colour\"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := post(t, site.URL+"/console/api/plan", `{"model": `+model+`, "where": `+tc.where+`, "pageSize": 10}`)
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tc.status, body)
			}
			for _, w := range tc.want {
				if !strings.Contains(body, w) {
					t.Errorf("answer lacks %s: %s", w, body)
				}
			}
		})
	}
	if resp, body := post(t, site.URL+"/console/api/plan", `{"model": {"table": "T"}}`); resp.StatusCode != 400 || decode(t, body)["__type"] != "ValidationException" {
		t.Errorf("bad model: %d %s", resp.StatusCode, body)
	}
	if resp, body := post(t, site.URL+"/console/api/plan", `{"model": `); resp.StatusCode != 400 || decode(t, body)["__type"] != "SerializationException" {
		t.Errorf("broken JSON: %d %s", resp.StatusCode, body)
	}
	for _, name := range []string{"plan", "info", "explain", "capacity", "insights"} {
		if resp, _ := get(t, site.URL+"/console/api/"+name); resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != "POST" {
			t.Errorf("GET %s: %d, want 405", name, resp.StatusCode)
		}
	}
}

func TestOptionalEndpoints(t *testing.T) {
	bare := newSite(t, console.Options{})
	if _, body := post(t, bare.URL+"/console/api/info", "{}"); body != "{\"capacity\":false,\"explain\":false,\"insights\":false,\"namespaces\":\"shared\",\"plan\":true,\"signatures\":false}\n" {
		t.Errorf("info: %q", body)
	}
	if resp, body := post(t, bare.URL+"/console/api/explain", `{"statement": "SELECT * FROM t"}`); resp.StatusCode != http.StatusNotImplemented {
		t.Errorf("explain without a function: %d %s", resp.StatusCode, body)
	}
	if resp, body := post(t, bare.URL+"/console/api/capacity", "{}"); resp.StatusCode != http.StatusNotImplemented {
		t.Errorf("capacity without a function: %d %s", resp.StatusCode, body)
	}
	if resp, body := post(t, bare.URL+"/console/api/insights", `{"table": "T"}`); resp.StatusCode != http.StatusNotImplemented {
		t.Errorf("insights without a function: %d %s", resp.StatusCode, body)
	}
	if resp, _ := post(t, bare.URL+"/console/api/nothing", "{}"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("unknown endpoint: %d", resp.StatusCode)
	}

	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	full := newSite(t, console.Options{
		Explain: func(_ *http.Request, stmt string, consistent bool) (any, error) {
			switch {
			case strings.Contains(stmt, "bad"):
				return nil, errors.New("Statement wasn't well formed")
			case strings.Contains(stmt, "typed"):
				return nil, &console.Error{Type: "ResourceNotFoundException", Message: "Requested resource not found"}
			}
			return explained{Operation: "Query", Statement: stmt, Consistent: consistent}, nil
		},
		Capacity: func(*http.Request) ([]console.CapacitySample, error) {
			return []console.CapacitySample{{Time: at, Table: "T", Index: "byX", ReadUnits: 1.5}}, nil
		},
		TopKeys: func(_ *http.Request, table, index string) (any, error) {
			if table != "T" {
				return nil, &console.Error{Type: "ResourceNotFoundException", Message: "Requested resource not found: Table: " + table + " not found"}
			}
			return map[string]string{"table": table, "index": index}, nil
		},
		Signatures: true,
		PerAccount: true,
	})
	if _, body := post(t, full.URL+"/console/api/info", "{}"); body != "{\"capacity\":true,\"explain\":true,\"insights\":true,\"namespaces\":\"account-region\",\"plan\":true,\"signatures\":true}\n" {
		t.Errorf("info: %q", body)
	}
	if resp, body := post(t, full.URL+"/console/api/explain", `{"statement": "SELECT * FROM t", "consistentRead": true}`); resp.StatusCode != 200 || body != `{"explain":{"operation":"Query","statement":"SELECT * FROM t","consistent":true},"text":"Query: SELECT * FROM t"}`+"\n" {
		t.Errorf("explain: %d %s", resp.StatusCode, body)
	}
	if resp, body := post(t, full.URL+"/console/api/explain", `{"statement": "bad"}`); resp.StatusCode != 400 || body != `{"__type":"ValidationException","message":"Statement wasn't well formed"}`+"\n" {
		t.Errorf("explain error: %d %s", resp.StatusCode, body)
	}
	if resp, body := post(t, full.URL+"/console/api/explain", `{"statement": "typed"}`); resp.StatusCode != 400 || body != `{"__type":"ResourceNotFoundException","message":"Requested resource not found"}`+"\n" {
		t.Errorf("explain's typed error: %d %s", resp.StatusCode, body)
	}
	if resp, body := post(t, full.URL+"/console/api/explain", `{"statement": " "}`); resp.StatusCode != 400 {
		t.Errorf("empty statement: %d %s", resp.StatusCode, body)
	}
	if _, body := post(t, full.URL+"/console/api/capacity", "{}"); body != `{"samples":[{"time":"2026-01-02T03:04:05Z","table":"T","index":"byX","readUnits":1.5,"writeUnits":0}]}`+"\n" {
		t.Errorf("capacity: %s", body)
	}
	if resp, body := post(t, full.URL+"/console/api/insights", `{"table": "T", "index": "byX"}`); resp.StatusCode != 200 || body != `{"index":"byX","table":"T"}`+"\n" {
		t.Errorf("insights: %d %s", resp.StatusCode, body)
	}
	if resp, body := post(t, full.URL+"/console/api/insights", `{"table": "U"}`); resp.StatusCode != 400 || body != `{"__type":"ResourceNotFoundException","message":"Requested resource not found: Table: U not found"}`+"\n" {
		t.Errorf("insights' typed error: %d %s", resp.StatusCode, body)
	}
	if resp, body := post(t, full.URL+"/console/api/insights", `{}`); resp.StatusCode != 400 {
		t.Errorf("insights without a table: %d %s", resp.StatusCode, body)
	}
}

// explained is an explanation as the Explain option may return one.
type explained struct {
	Operation  string `json:"operation"`
	Statement  string `json:"statement"`
	Consistent bool   `json:"consistent"`
}

func (e explained) String() string { return e.Operation + ": " + e.Statement }

func TestAPIGuards(t *testing.T) {
	site := newSite(t, console.Options{HostAllowed: func(host string) bool { return strings.HasPrefix(host, "127.0.0.1:") }})
	// A browser's cross-site POST is refused.
	resp, body := post(t, site.URL+"/console/api/plan", `{"model": `+model+`}`, "Sec-Fetch-Site", "cross-site")
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("cross-site plan: %d %s", resp.StatusCode, body)
	}
	resp, body = post(t, site.URL+"/console/api/plan", `{"model": `+model+`, "where": {"product": ["1"]}}`, "Sec-Fetch-Site", "same-origin")
	if resp.StatusCode != http.StatusOK {
		t.Errorf("same-origin plan: %d %s", resp.StatusCode, body)
	}
	req, _ := http.NewRequest(http.MethodPost, site.URL+"/console/api/info", strings.NewReader("{}"))
	req.Host = "rebound.example"
	r, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	r.Body.Close()
	if r.StatusCode != http.StatusForbidden {
		t.Errorf("foreign Host: %d, want 403", r.StatusCode)
	}
	if resp, _ := post(t, site.URL+"/console/api/plan", `{"model": "`+strings.Repeat("x", 1<<20)+`"}`); resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("large body: %d, want 413", resp.StatusCode)
	}
}
