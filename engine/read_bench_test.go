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

var (
	pageTableOnce sync.Once
	pageTableDB   *DB
)

// pageTable returns a database holding table "pages": 1,500 items of
// about 1 KB each (more than one 1 MB page), keys pk = "p<i mod 100>",
// sk = i, with a string, numbers, a string set, a nested map with a list,
// and attribute cat = i mod 20.
func pageTable(b *testing.B) *DB {
	pageTableOnce.Do(func() {
		db, err := Open(Options{InMemory: true})
		if err != nil {
			b.Fatal(err)
		}
		mustCreate(b, db, "pages", true)
		data := attr.S(strings.Repeat("d", 900))
		for i := 0; i < 1500; i++ {
			it := attr.Item{
				"pk":    attr.S(fmt.Sprintf("p%d", i%benchPartitions)),
				"sk":    attr.N(fmt.Sprint(i)),
				"cat":   attr.N(fmt.Sprint(i % 20)),
				"name":  attr.S(fmt.Sprintf("item number %d", i)),
				"price": attr.N(fmt.Sprintf("%d.%02d", i, i%100)),
				"tags":  {Type: attr.TypeSS, SS: []string{"blue", "green", "red"}},
				"meta": {Type: attr.TypeM, M: map[string]attr.Value{
					"active": attr.Bool(i%2 == 0),
					"scores": {Type: attr.TypeL, L: []attr.Value{attr.N("1"), attr.N("2.5"), attr.S("x")}},
				}},
				"data": data,
			}
			if _, err := db.PutItem(&dynamo.PutItemInput{TableName: "pages", Item: it}); err != nil {
				b.Fatal(err)
			}
		}
		pageTableDB = db
	})
	if pageTableDB == nil {
		b.Fatal("no page table")
	}
	return pageTableDB
}

// BenchmarkScanPage reads the first page (1 MB of items of about 1 KB) of
// a Scan, whole or with a filter on a non-key attribute that keeps 5% of
// the items, the items decoded or (encoded) in their stored encoding, as
// the server asks for them; ns/item is per item read.
func BenchmarkScanPage(b *testing.B) {
	for _, c := range []struct {
		name              string
		filtered, encoded bool
	}{{"filtered=false", false, false}, {"filtered=true", true, false}, {"filtered=false,encoded", false, true}, {"filtered=true,encoded", true, true}} {
		filtered := c.filtered
		b.Run(c.name, func(b *testing.B) {
			db := pageTable(b)
			in := &dynamo.ScanInput{TableName: "pages", EncodedItems: c.encoded}
			if filtered {
				in.FilterExpression = "cat = :c"
				in.ExpressionAttributeValues = attr.Item{":c": attr.N("0")}
			}
			b.ReportAllocs()
			b.ResetTimer()
			read := 0
			for i := 0; i < b.N; i++ {
				out, err := db.Scan(in)
				if err != nil {
					b.Fatal(err)
				}
				if out.LastEvaluatedKey == nil || filtered && out.Count*10 > out.ScannedCount {
					b.Fatalf("scanned %d, kept %d", out.ScannedCount, out.Count)
				}
				read += out.ScannedCount
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(read), "ns/item")
		})
	}
}

// BenchmarkGetItemProjected reads two attributes, one top-level and one
// nested, of BenchmarkGetItem's items of about 1 KB.
func BenchmarkGetItemProjected(b *testing.B) {
	db := mustOpen(b, Options{InMemory: true})
	mustCreate(b, db, "bench", false)
	keys := make([]attr.Item, 1024)
	for i := range keys {
		pk := fmt.Sprintf("key-%d", i)
		if _, err := db.PutItem(&dynamo.PutItemInput{TableName: "bench", Item: item1KB(pk)}); err != nil {
			b.Fatal(err)
		}
		keys[i] = attr.Item{"pk": attr.S(pk)}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		out, err := db.GetItem(&dynamo.GetItemInput{TableName: "bench", Key: keys[i%len(keys)], ProjectionExpression: "price, dims.w"})
		if err != nil || len(out.Item) != 2 {
			b.Fatal(err)
		}
	}
}
