package engine

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
)

// BenchmarkBatchWriteItem measures BatchWriteItem of 25 items of about
// 1 KB over 10,000 keys by 16 concurrent writers, in memory and on disk
// (without Sync: every commit still reaches the operating system before
// it returns). ns/op is the wall time per request across the writers;
// items/s the items written per second.
//
//	go test ./engine -run XXX -bench BatchWriteItem -benchmem
func BenchmarkBatchWriteItem(b *testing.B) {
	const keys, batch, writers = 10000, 25, 16
	for _, where := range []string{"memory", "disk"} {
		b.Run(where, func(b *testing.B) {
			o := Options{InMemory: true}
			if where == "disk" {
				o = Options{Dir: b.TempDir()}
			}
			db := mustOpen(b, o)
			mustCreate(b, db, "bench", false)
			pks := make([]string, keys)
			for i := range pks {
				pks[i] = fmt.Sprintf("key-%05d", i)
			}
			var next atomic.Int64
			b.ReportAllocs()
			b.ResetTimer()
			b.SetParallelism(max(1, writers/runtime.GOMAXPROCS(0)))
			b.RunParallel(func(pb *testing.PB) {
				// Each writer's own items, whose keys change: the engine
				// canonicalizes an item in place.
				reqs := make([]dynamo.WriteRequest, batch)
				items := make([]attr.Item, batch)
				for j := range items {
					items[j] = item1KB("")
				}
				for pb.Next() {
					// 25 distinct keys spread over the key space.
					first := int(next.Add(1) * 7919 % keys)
					for j, it := range items {
						it["pk"] = attr.S(pks[(first+j*(keys/batch))%keys])
						reqs[j] = dynamo.WriteRequest{PutRequest: &dynamo.PutRequest{Item: it}}
					}
					if _, err := db.BatchWriteItem(&dynamo.BatchWriteItemInput{
						RequestItems: map[string][]dynamo.WriteRequest{"bench": reqs},
					}); err != nil {
						b.Error(err)
						return
					}
				}
			})
			b.ReportMetric(float64(b.N*batch)/b.Elapsed().Seconds(), "items/s")
		})
	}
}
