package partiql

import (
	"fmt"
	"sync"
	"testing"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/engine"
)

// TestStatementsConcurrent runs the same statements from several
// goroutines, sharing their cached plans, texts and pooled maps (run it
// with -race), and checks every answer.
func TestStatementsConcurrent(t *testing.T) {
	db, err := engine.Open(engine.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	mustCreate(t, db, "conc", true)
	for p := 0; p < 4; p++ {
		for s := 0; s < 30; s++ {
			it := attr.Item{"pk": attr.S(fmt.Sprint("p", p)), "sk": attr.N(fmt.Sprint(s)), "odd": attr.Bool(s%2 == 1)}
			if _, err := db.PutItem(&dynamo.PutItemInput{TableName: "conc", Item: it}); err != nil {
				t.Fatal(err)
			}
		}
	}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				p := attr.S(fmt.Sprint("p", (g+i)%4))
				out, err := ExecuteStatement(db, &dynamo.ExecuteStatementInput{Statement: `SELECT * FROM "conc" WHERE pk = ? AND sk = ?`,
					Parameters: []attr.Value{p, attr.N(fmt.Sprint(i % 30))}})
				if err != nil || len(out.Items) != 1 || !attr.Equal(out.Items[0]["pk"], p) {
					t.Errorf("by key: %v %v", err, out)
					return
				}
				// A partition, 7 at a time, with a filter: 15 odd items.
				in := &dynamo.ExecuteStatementInput{Statement: `SELECT sk FROM "conc" WHERE pk = ? AND sk >= ? AND odd = ?`,
					Parameters: []attr.Value{p, attr.N("0"), attr.Bool(true)}, Limit: ptr(int32(7))}
				n := 0
				for {
					out, err := ExecuteStatement(db, in)
					if err != nil {
						t.Errorf("partition: %v", err)
						return
					}
					n += len(out.Items)
					if out.NextToken == "" {
						break
					}
					in.NextToken, in.NextTokenSet = out.NextToken, true
				}
				if n != 15 {
					t.Errorf("partition: %d items", n)
					return
				}
				out, err = ExecuteStatement(db, &dynamo.ExecuteStatementInput{Statement: `SELECT pk FROM "conc" WHERE sk = ?`, Parameters: []attr.Value{attr.N(fmt.Sprint(i % 30))}})
				if err != nil || len(out.Items) != 4 {
					t.Errorf("scan: %v %d", err, len(out.Items))
					return
				}
			}
		}()
	}
	wg.Wait()
}
