package server

import (
	"fmt"
	"strings"
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

// benchPartitions adds to h a table "parts" of 20 partitions of 100
// items of about 100 bytes, pk "p0" to "p19", sk 0 to 99.
func benchPartitions(b *testing.B) *Server {
	h := benchServer(b)
	call(b, h, "CreateTable", `{"TableName":"parts","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"N"}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}]}`)
	for p := 0; p < 20; p++ {
		for s := 0; s < 100; s++ {
			call(b, h, "PutItem", fmt.Sprintf(`{"TableName":"parts","Item":{"pk":{"S":"p%d"},"sk":{"N":"%d"},"pad":{"S":%q}}}`, p, s, strings.Repeat("v", 80)))
		}
	}
	return h
}

// BenchmarkServeSelectByPartition and BenchmarkServeQueryPartition read
// a page of 10 items (Limit 10) of a partition, as a PartiQL SELECT and
// as a Query (issue 16: within 20%).
func BenchmarkServeSelectByPartition(b *testing.B) {
	h := benchPartitions(b)
	bodies := make([][]byte, 20)
	for i := range bodies {
		bodies[i] = []byte(fmt.Sprintf(`{"Statement":"SELECT * FROM \"parts\" WHERE pk = ?","Parameters":[{"S":"p%d"}],"Limit":10}`, i))
	}
	serveBench(b, h, "ExecuteStatement", bodies)
}

func BenchmarkServeQueryPartition(b *testing.B) {
	h := benchPartitions(b)
	bodies := make([][]byte, 20)
	for i := range bodies {
		bodies[i] = []byte(fmt.Sprintf(`{"TableName":"parts","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"p%d"}},"Limit":10}`, i))
	}
	serveBench(b, h, "Query", bodies)
}
