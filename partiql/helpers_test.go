package partiql

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/engine"
)

// The engine's test helpers these tests use (engine_test.go's mustCreate,
// read_bench_test.go's benchTable), on the engine's exported API.

// mustCreate creates table name, keyed pk (S) and, withSort, sk (N).
func mustCreate(t testing.TB, db *engine.DB, name string, withSort bool) {
	t.Helper()
	in := &dynamo.CreateTableInput{
		TableName:            name,
		BillingMode:          dynamo.BillingModePayPerRequest,
		AttributeDefinitions: []dynamo.AttributeDefinition{{AttributeName: "pk", AttributeType: "S"}},
		KeySchema:            []dynamo.KeySchemaElement{{AttributeName: "pk", KeyType: dynamo.KeyTypeHash}},
	}
	if withSort {
		in.AttributeDefinitions = append(in.AttributeDefinitions, dynamo.AttributeDefinition{AttributeName: "sk", AttributeType: "N"})
		in.KeySchema = append(in.KeySchema, dynamo.KeySchemaElement{AttributeName: "sk", KeyType: dynamo.KeyTypeRange})
	}
	if _, err := db.CreateTable(in); err != nil {
		t.Fatalf("create table: %v", err)
	}
}

var (
	benchTablesMu sync.Mutex
	benchTables   = map[int]*engine.DB{}
)

// benchPartitions is the number of partitions of a bench table.
const benchPartitions = 100

// benchTable returns a database holding table "reads" with n items of
// about 100 bytes, keys pk = "p<i mod 100>", sk = i.
func benchTable(b *testing.B, n int) *engine.DB {
	benchTablesMu.Lock()
	defer benchTablesMu.Unlock()
	if db := benchTables[n]; db != nil {
		return db
	}
	db, err := engine.Open(engine.Options{InMemory: true})
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
