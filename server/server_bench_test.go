package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/dynago/dynago/engine"
)

// benchServer returns a handler over an in-memory table "bench" holding
// 1,000 items of about 1 KB, keys "key-0" to "key-999".
func benchServer(b testing.TB) *Server {
	return benchServerWith(b, func(*engine.DB) Config { return Config{} })
}

// benchServerWith is benchServer with the Config cfg returns for its
// database.
func benchServerWith(b testing.TB, cfg func(*engine.DB) Config) *Server {
	return benchServerOn(b, engine.Options{InMemory: true}, cfg)
}

// benchServerOn is benchServerWith on a database opened with opts.
func benchServerOn(b testing.TB, opts engine.Options, cfg func(*engine.DB) Config) *Server {
	db, err := engine.Open(opts)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	h := New(db, cfg(db))
	call(b, h, "CreateTable", `{"TableName":"bench","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`)
	for i := 0; i < 1000; i++ {
		call(b, h, "PutItem", putBody(i))
	}
	return h
}

func putBody(i int) string {
	return fmt.Sprintf(`{"TableName":"bench","Item":{"pk":{"S":"key-%d"},"n":{"N":"%d"},"data":{"S":%q}}}`, i, i, strings.Repeat("x", 1000))
}

func call(b testing.TB, h http.Handler, op, body string) {
	req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
	req.Header.Set("X-Amz-Target", targetPrefix+op)
	req.Header.Set("Content-Type", contentType)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		b.Fatalf("%s: %d %s", op, rec.Code, rec.Body)
	}
}

// BenchmarkServeGetItem and BenchmarkServePutItem measure the server's own
// cost per request, from HTTP request to response bytes, without the
// network or a client.
func BenchmarkServeGetItem(b *testing.B) {
	h := benchServer(b)
	bodies := make([][]byte, 1000)
	for i := range bodies {
		bodies[i] = []byte(fmt.Sprintf(`{"TableName":"bench","Key":{"pk":{"S":"key-%d"}}}`, i))
	}
	serveBench(b, h, "GetItem", bodies)
}

func BenchmarkServePutItem(b *testing.B) {
	h := benchServer(b)
	bodies := make([][]byte, 1000)
	for i := range bodies {
		bodies[i] = []byte(putBody(i))
	}
	serveBench(b, h, "PutItem", bodies)
}

type discardWriter struct {
	h    http.Header
	code int
}

func (w *discardWriter) Header() http.Header         { return w.h }
func (w *discardWriter) Write(p []byte) (int, error) { return len(p), nil }
func (w *discardWriter) WriteHeader(code int)        { w.code = code }

func serveBench(b *testing.B, h http.Handler, op string, bodies [][]byte) float64 {
	return serveBenchRefill(b, h, op, bodies, nil)
}

// serveBenchRefill is serveBench calling refill, if not nil, with the
// timer stopped, after each round of the bodies. Besides time it reports
// the process's CPU time per call (cpu-ns/op, on Unix), user and system,
// of all its threads: the store's background work and the garbage
// collector's included, and on a machine busy with other work a steadier
// figure than the time. It returns that CPU time per call, 0 if unknown.
func serveBenchRefill(b *testing.B, h http.Handler, op string, bodies [][]byte, refill func()) float64 {
	req := httptest.NewRequest(http.MethodPost, "/", nil)
	req.Header.Set("X-Amz-Target", targetPrefix+op)
	req.Header.Set("Content-Type", contentType)
	w := &discardWriter{h: http.Header{}}
	b.ReportAllocs()
	b.ResetTimer()
	var paused time.Duration // CPU time spent refilling
	cpu := processCPU()
	for i := 0; i < b.N; i++ {
		if refill != nil && i > 0 && i%len(bodies) == 0 {
			b.StopTimer()
			t := processCPU()
			refill()
			paused += processCPU() - t
			b.StartTimer()
		}
		body := bodies[i%len(bodies)]
		req.Body = readCloser{bytes.NewReader(body)}
		req.ContentLength = int64(len(body))
		w.code = 0
		clear(w.h)
		h.ServeHTTP(w, req)
		if w.code != 0 && w.code != http.StatusOK {
			b.Fatalf("status %d", w.code)
		}
	}
	// The process's CPU per call, the garbage collector's included: on a
	// busy machine a steadier figure than the time per call.
	if cpu <= 0 {
		return 0
	}
	perOp := float64(processCPU()-cpu-paused) / float64(b.N)
	b.ReportMetric(perOp, "cpu-ns/op")
	return perOp
}

type readCloser struct{ *bytes.Reader }

func (readCloser) Close() error { return nil }

// BenchmarkServeScan measures a Scan page of 1 MB, DynamoDB's default
// (no Limit), in memory and on disk (Pebble in a temporary folder): the
// first page of a table of 1,200 items of about 1 KB, which holds about
// 1,030 of them, whole or with a filter on a non-key attribute that keeps
// one item in 20 (dynago bench's scan and fscan workloads with
// --no-limit). Besides the figures per call it reports the items scanned
// a call and the process's CPU time per item scanned (cpu-ns/item).
func BenchmarkServeScan(b *testing.B) {
	bodies := map[string]string{
		"whole":    `{"TableName":"scan"}`,
		"filtered": `{"TableName":"scan","FilterExpression":"g = :g","ExpressionAttributeValues":{":g":{"S":"a"}}}`,
	}
	for _, st := range benchStores {
		for _, name := range []string{"whole", "filtered"} {
			b.Run(st.name+"/"+name, func(b *testing.B) {
				h := scanBenchServer(b, st.opts(b))
				body := []byte(bodies[name])
				scanned := scannedCount(b, h, body)
				cpu := serveBench(b, h, "Scan", [][]byte{body})
				b.ReportMetric(float64(scanned), "items/op")
				if cpu > 0 {
					b.ReportMetric(cpu/float64(scanned), "cpu-ns/item")
				}
			})
		}
	}
}

// benchStores are the stores the benchmarks run on: memory, and Pebble
// on disk in a temporary folder.
var benchStores = []struct {
	name string
	opts func(b *testing.B) engine.Options
}{
	{"memory", func(*testing.B) engine.Options { return engine.Options{InMemory: true} }},
	{"disk", func(b *testing.B) engine.Options { return engine.Options{Dir: b.TempDir()} }},
}

// scanBenchServer returns a handler over a database opened with opts
// holding the table "scan": 1,200 items of about 1 KB, keys "key-0" to
// "key-1199", each with a one-letter attribute g, "a" in one item in 20.
func scanBenchServer(b *testing.B, opts engine.Options) *Server {
	db, err := engine.Open(opts)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	h := New(db, Config{})
	call(b, h, "CreateTable", `{"TableName":"scan","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`)
	data := strings.Repeat("x", 1000)
	for i := 0; i < 1200; i++ {
		call(b, h, "PutItem", fmt.Sprintf(`{"TableName":"scan","Item":{"pk":{"S":"key-%d"},"g":{"S":"%c"},"data":{"S":%q}}}`,
			i, 'a'+i%20, data))
	}
	return h
}

// scannedCount returns the ScannedCount of a Scan with body, checking
// that its page is a 1 MB one, with a LastEvaluatedKey.
func scannedCount(b *testing.B, h http.Handler, body []byte) int {
	req := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(body))
	req.Header.Set("X-Amz-Target", targetPrefix+"Scan")
	req.Header.Set("Content-Type", contentType)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	var out struct {
		ScannedCount     int
		LastEvaluatedKey map[string]any
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil || rec.Code != http.StatusOK || out.LastEvaluatedKey == nil {
		b.Fatalf("scan: %d %.300s", rec.Code, rec.Body)
	}
	return out.ScannedCount
}

// BenchmarkServeQueryPage and BenchmarkServeScanPage measure the pages
// dynago bench reads (its query and scan workloads): the newest 20 items
// of a partition, and 20 items of a Scan from a start key, items of
// about 1 KB.
func BenchmarkServeQueryPage(b *testing.B) {
	h := benchServer(b)
	call(b, h, "CreateTable", `{"TableName":"pages","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}]}`)
	data := strings.Repeat("x", 1000)
	for p := 0; p < 10; p++ {
		for s := 0; s < 50; s++ {
			call(b, h, "PutItem", fmt.Sprintf(`{"TableName":"pages","Item":{"pk":{"S":"p%d"},"sk":{"S":"s%03d"},"data":{"S":%q}}}`, p, s, data))
		}
	}
	bodies := make([][]byte, 10)
	for i := range bodies {
		bodies[i] = []byte(fmt.Sprintf(`{"TableName":"pages","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"p%d"}},"ScanIndexForward":false,"Limit":20}`, i))
	}
	serveBench(b, h, "Query", bodies)
}

func BenchmarkServeScanPage(b *testing.B) {
	h := benchServer(b)
	bodies := make([][]byte, 100)
	for i := range bodies {
		bodies[i] = []byte(fmt.Sprintf(`{"TableName":"bench","Limit":20,"ExclusiveStartKey":{"pk":{"S":"key-%d"}}}`, i*10))
	}
	serveBench(b, h, "Scan", bodies)
}
