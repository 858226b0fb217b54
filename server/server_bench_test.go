package server

import (
	"bytes"
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

func serveBench(b *testing.B, h http.Handler, op string, bodies [][]byte) {
	serveBenchRefill(b, h, op, bodies, nil)
}

// serveBenchRefill is serveBench calling refill, if not nil, with the
// timer stopped, after each round of the bodies. Besides time it reports
// the process's CPU time per call (cpu-ns/op, on Unix), user and system,
// of all its threads: the store's background work and the garbage
// collector's included, and on a machine busy with other work a steadier
// figure than the time.
func serveBenchRefill(b *testing.B, h http.Handler, op string, bodies [][]byte, refill func()) {
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
	if cpu > 0 {
		b.ReportMetric(float64(processCPU()-cpu-paused)/float64(b.N), "cpu-ns/op")
	}
}

type readCloser struct{ *bytes.Reader }

func (readCloser) Close() error { return nil }

// BenchmarkServeScan measures a Scan's first page (1 MB of the bench
// table's items of about 1 KB), whole or with a filter on a non-key
// attribute that keeps 5% of them.
func BenchmarkServeScan(b *testing.B) {
	bodies := map[string]string{
		"whole":    `{"TableName":"bench"}`,
		"filtered": `{"TableName":"bench","FilterExpression":"n < :x","ExpressionAttributeValues":{":x":{"N":"50"}}}`,
	}
	for _, name := range []string{"whole", "filtered"} {
		b.Run(name, func(b *testing.B) {
			h := benchServer(b)
			serveBench(b, h, "Scan", [][]byte{[]byte(bodies[name])})
		})
	}
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
