package server

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
)

// Allocation ceilings of the whole server path of GetItem, a Scan page and
// the single-item and transactional writes, from the HTTP request to the
// response bytes, through ServeHTTP without a socket (the setup of
// BenchmarkServeGetItem, BenchmarkServePutItem, BenchmarkServeScanPage and
// BenchmarkServeWrite).
// Allocations per call are deterministic, unlike time, so these fail on a
// regression without timing anything; the many runs averaged dilute the
// odd allocation of the store's background work below one a call. Each
// ceiling is today's exact count: a change that adds an allocation fails
// here; a change that removes one should lower the ceiling to the new
// count (the failure message and -v print it).
func TestAllocsServe(t *testing.T) {
	h := benchServer(t)
	call(t, h, "PutItem", putBody(1000))
	getBodies := make([][]byte, 64)
	putBodies := make([][]byte, 64)
	scanBodies := make([][]byte, 64)
	for i := range getBodies {
		getBodies[i] = []byte(fmt.Sprintf(`{"TableName":"bench","Key":{"pk":{"S":"key-%d"}}}`, i))
		putBodies[i] = []byte(putBody(i))
		scanBodies[i] = []byte(fmt.Sprintf(`{"TableName":"bench","Limit":20,"ExclusiveStartKey":{"pk":{"S":"key-%d"}}}`, i*10))
	}
	for _, c := range []struct {
		op      string
		ceiling float64
		bodies  [][]byte
	}{
		// Overwriting an item of ~1 KB.
		{"PutItem", 27, putBodies},
		// Reading one back.
		{"GetItem", 22, getBodies},
		// 20 of those items from a start key.
		{"Scan", 40, scanBodies},
		// SET v = :v ADD n :one on an item that must exist.
		{"UpdateItem", 39, writeBodies("UpdateItem", 64)},
		// Two updates in one transaction, ADD bal :d each, with the
		// same condition.
		{"TransactWriteItems", 68, writeBodies("TransactWriteItems", 64)},
		// Deleting an item that exists: each of the 1,001 calls (the
		// first is a warm-up) deletes another of key-0 to key-1000.
		{"DeleteItem", 25, writeBodies("DeleteItem", 1001)},
	} {
		req := httptest.NewRequest(http.MethodPost, "/", nil)
		req.Header.Set("X-Amz-Target", targetPrefix+c.op)
		req.Header.Set("Content-Type", contentType)
		w := &discardWriter{h: http.Header{}}
		i := 0
		got := testing.AllocsPerRun(1000, func() {
			body := c.bodies[i%len(c.bodies)]
			i++
			req.Body = readCloser{bytes.NewReader(body)}
			req.ContentLength = int64(len(body))
			w.code = 0
			clear(w.h)
			h.ServeHTTP(w, req)
			if w.code != 0 && w.code != http.StatusOK {
				t.Fatalf("%s: status %d", c.op, w.code)
			}
		})
		t.Logf("%s: %v allocs/op", c.op, got)
		if got > c.ceiling {
			t.Errorf("%s: %v allocations a call, ceiling %v", c.op, got, c.ceiling)
		}
	}
}
