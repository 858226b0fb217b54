package engine

import (
	"flag"
	"fmt"
	"testing"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
)

// BenchmarkPutItemGSIs measures PutItem (a new 1 KB item each time) on a
// table with 0, 1, 5 and 20 GSIs, each keyed on an attribute every item
// has and projecting KEYS_ONLY.
func BenchmarkPutItemGSIs(b *testing.B) {
	for _, n := range []int{0, 1, 5, 20} {
		b.Run(fmt.Sprintf("gsis=%d", n), func(b *testing.B) {
			db := mustOpen(b, Options{InMemory: true})
			in := &dynamo.CreateTableInput{
				TableName:            "bench",
				BillingMode:          dynamo.BillingModePayPerRequest,
				AttributeDefinitions: []dynamo.AttributeDefinition{{AttributeName: "pk", AttributeType: "S"}},
				KeySchema:            []dynamo.KeySchemaElement{{AttributeName: "pk", KeyType: dynamo.KeyTypeHash}},
			}
			for i := range n {
				name := fmt.Sprintf("g%02d", i)
				in.AttributeDefinitions = append(in.AttributeDefinitions, dynamo.AttributeDefinition{AttributeName: name, AttributeType: "S"})
				in.GlobalSecondaryIndexes = append(in.GlobalSecondaryIndexes, dynamo.GlobalSecondaryIndex{
					IndexName: "idx" + name, KeySchema: []dynamo.KeySchemaElement{{AttributeName: name, KeyType: dynamo.KeyTypeHash}},
					Projection: dynamo.Projection{ProjectionType: dynamo.ProjectionKeysOnly},
				})
			}
			if _, err := db.CreateTable(in); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				it := item1KB(fmt.Sprint("k", i))
				for j := range n {
					it[fmt.Sprintf("g%02d", j)] = attr.S(fmt.Sprint("v", i%97))
				}
				if _, err := db.PutItem(&dynamo.PutItemInput{TableName: "bench", Item: it}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkBackfill measures a GSI backfill over a table of one million
// small items (loading them takes a while); run it with -benchtime=1x.
func BenchmarkBackfill(b *testing.B) {
	items := backfillBenchItems
	db := mustOpen(b, Options{InMemory: true})
	createGSITable(b, db, "bfill")
	batch := make([]dynamo.WriteRequest, 0, 25)
	flush := func() {
		if len(batch) == 0 {
			return
		}
		if _, err := db.BatchWriteItem(&dynamo.BatchWriteItemInput{RequestItems: map[string][]dynamo.WriteRequest{"bfill": batch}}); err != nil {
			b.Fatal(err)
		}
		batch = batch[:0]
	}
	for i := range items {
		batch = append(batch, dynamo.WriteRequest{PutRequest: &dynamo.PutRequest{Item: gItem(i, fmt.Sprint("g", i%1000), i)}})
		if len(batch) == 25 {
			flush()
		}
	}
	flush()
	b.ResetTimer()
	for i := range b.N {
		name := fmt.Sprint("byg", i)
		addGSI(b, db, "bfill", name)
		waitActive(b, db, "bfill")
	}
	b.ReportMetric(float64(items*b.N)/b.Elapsed().Seconds(), "items/s")
}

// backfillBenchItems is the table size of BenchmarkBackfill;
// -backfill-items changes it.
var backfillBenchItems = 1_000_000

func init() {
	flag.IntVar(&backfillBenchItems, "backfill-items", backfillBenchItems, "items in BenchmarkBackfill's table")
}
