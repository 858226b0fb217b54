package server

import (
	"fmt"
	"testing"

	"github.com/dynago/dynago/engine"
)

// The bodies of the write benchmarks and allocation ceilings, on the
// bench table of benchServer. An update sets a short string and counts
// in n, on an item that must exist; a transaction moves a unit of bal
// from one item to another, both of which must exist (the update and
// transact workloads of dynago bench).
func updateBody(i int) string {
	return fmt.Sprintf(`{"TableName":"bench","Key":{"pk":{"S":"key-%d"}},"UpdateExpression":"SET v = :v ADD n :one",`+
		`"ConditionExpression":"attribute_exists(pk)","ExpressionAttributeValues":{":v":{"S":"updated"},":one":{"N":"1"}}}`, i)
}

func deleteBody(i int) string {
	return fmt.Sprintf(`{"TableName":"bench","Key":{"pk":{"S":"key-%d"}}}`, i)
}

func transactBody(from, to int) string {
	update := func(i int, d string) string {
		return fmt.Sprintf(`{"Update":{"TableName":"bench","Key":{"pk":{"S":"key-%d"}},"UpdateExpression":"ADD bal :d",`+
			`"ConditionExpression":"attribute_exists(pk)","ExpressionAttributeValues":{":d":{"N":"%s"}}}}`, i, d)
	}
	return `{"TransactItems":[` + update(from, "-1") + "," + update(to, "1") + `]}`
}

// writeBodies returns n bodies of op on items 0 to n-1 of the bench
// table.
func writeBodies(op string, n int) [][]byte {
	bodies := make([][]byte, n)
	for i := range bodies {
		var s string
		switch op {
		case "PutItem":
			s = putBody(i)
		case "UpdateItem":
			s = updateBody(i)
		case "DeleteItem":
			s = deleteBody(i)
		case "TransactWriteItems":
			s = transactBody(i, (i+1)%n)
		default:
			panic(op)
		}
		bodies[i] = []byte(s)
	}
	return bodies
}

// BenchmarkServeWrite measures the server's own cost per write, from HTTP
// request to response bytes, without the network or a client, on the
// bench table's items of about 1 KB, in memory and on disk (Pebble in a
// temporary folder). Each DeleteItem deletes an item that exists: after
// each round of the 1,000 items, the benchmark, its timer stopped, puts
// them back.
func BenchmarkServeWrite(b *testing.B) {
	for _, st := range benchStores {
		for _, op := range []string{"PutItem", "UpdateItem", "DeleteItem", "TransactWriteItems"} {
			b.Run(st.name+"/"+op, func(b *testing.B) {
				h := benchServerOn(b, st.opts(b), func(*engine.DB) Config { return Config{} })
				bodies := writeBodies(op, 1000)
				var refill func()
				if op == "DeleteItem" {
					puts := writeBodies("PutItem", 1000)
					refill = func() {
						for _, p := range puts {
							call(b, h, "PutItem", string(p))
						}
					}
				}
				serveBenchRefill(b, h, op, bodies, refill)
			})
		}
	}
}
