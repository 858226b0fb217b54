package engine

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
)

// Read-path benchmarks. Tables are built once per size and shared by the
// benchmarks of one run (building a million items takes seconds).

var (
	benchTablesMu sync.Mutex
	benchTables   = map[int]*DB{}
)

// benchPartitions is the number of partitions of a bench table: a table
// of n items has n/benchPartitions items per partition, so partitions grow
// with the table.
const benchPartitions = 100

// benchTable returns a database holding table "reads" with n items of
// about 100 bytes, keys pk = "p<i mod 100>", sk = i.
func benchTable(b *testing.B, n int) *DB {
	benchTablesMu.Lock()
	defer benchTablesMu.Unlock()
	if db := benchTables[n]; db != nil {
		return db
	}
	db, err := Open(Options{InMemory: true})
	if err != nil {
		b.Fatal(err)
	}
	mustCreate(b, db, "reads", true)
	pad := attr.S(strings.Repeat("v", 60))
	var wg sync.WaitGroup
	const workers = 4
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < n; i += workers {
				it := attr.Item{"pk": attr.S(fmt.Sprintf("p%d", i%benchPartitions)), "sk": attr.N(fmt.Sprint(i)), "pad": pad, "odd": attr.Bool(i%100 == 7)}
				if _, err := db.PutItem(&dynamo.PutItemInput{TableName: "reads", Item: it}); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	benchTables[n] = db
	return db
}

// BenchmarkQueryLimit20 reads the newest 20 items of a partition. Its time
// should not grow with the table.
func BenchmarkQueryLimit20(b *testing.B) {
	for _, n := range []int{10_000, 100_000, 1_000_000} {
		b.Run(fmt.Sprintf("items=%d", n), func(b *testing.B) {
			db := benchTable(b, n)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				out, err := db.Query(&dynamo.QueryInput{
					TableName:                 "reads",
					KeyConditionExpression:    "pk = :p",
					ExpressionAttributeValues: attr.Item{":p": attr.S(fmt.Sprintf("p%d", i%benchPartitions))},
					ScanIndexForward:          new(false),
					Limit:                     new(int32(20)),
				})
				if err != nil || len(out.Items) != 20 {
					b.Fatalf("%v, %d items", err, len(out.Items))
				}
			}
		})
	}
}

// BenchmarkScan reads a whole table of 100,000 items page by page, with
// and without a filter that keeps 1% of them; items/s is items read.
func BenchmarkScan(b *testing.B) {
	const n = 100_000
	for _, filtered := range []bool{false, true} {
		b.Run(fmt.Sprintf("filtered=%v", filtered), func(b *testing.B) {
			db := benchTable(b, n)
			b.ReportAllocs()
			b.ResetTimer()
			read := 0
			for i := 0; i < b.N; i++ {
				in := &dynamo.ScanInput{TableName: "reads"}
				if filtered {
					in.FilterExpression = "odd = :t"
					in.ExpressionAttributeValues = attr.Item{":t": attr.Bool(true)}
				}
				kept := 0
				for {
					out, err := db.Scan(in)
					if err != nil {
						b.Fatal(err)
					}
					read += out.ScannedCount
					kept += out.Count
					if out.LastEvaluatedKey == nil {
						break
					}
					in.ExclusiveStartKey = out.LastEvaluatedKey
				}
				if filtered && kept != n/100 || !filtered && kept != n {
					b.Fatalf("kept %d", kept)
				}
			}
			b.ReportMetric(float64(read)/b.Elapsed().Seconds(), "items/s")
		})
	}
}
