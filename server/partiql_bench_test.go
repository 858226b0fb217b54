package server

import (
	"fmt"
	"testing"
)

// BenchmarkServeSelectByKey is BenchmarkServeGetItem's reads as PartiQL
// statements: the server's cost per request of an ExecuteStatement SELECT
// by key, to compare with GetItem's (issue 16: within 20%).
func BenchmarkServeSelectByKey(b *testing.B) {
	h := benchServer(b)
	bodies := make([][]byte, 1000)
	for i := range bodies {
		bodies[i] = []byte(fmt.Sprintf(`{"Statement":"SELECT * FROM \"bench\" WHERE pk = ?","Parameters":[{"S":"key-%d"}]}`, i))
	}
	serveBench(b, h, "ExecuteStatement", bodies)
}
