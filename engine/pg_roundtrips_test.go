package engine

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/internal/pgtest"
	"github.com/dynago/dynago/internal/storage"
)

// pgTraffic is what a shared PostgreSQL store has sent: round trips
// (a statement, or a pipeline of them) and statements.
type pgTraffic struct{ trips, statements int64 }

func readPGTraffic(t testing.TB, st storage.Store) pgTraffic {
	t.Helper()
	v := map[string]int64{}
	for _, s := range st.(storage.Statter).Stats() {
		v[s.Name] = int64(s.Value)
	}
	return pgTraffic{
		trips:      v["pg_statements_total"],
		statements: v["pg_statements_total"] - v["pg_pipelines_total"] + v["pg_pipelined_statements_total"],
	}
}

// TestPostgresRoundTrips pins the round trips and statements each item
// operation costs on PostgreSQL, once its statements are prepared. A
// node's background work (heartbeats, the catalog poller) shares the
// store's counters, so each operation runs several times and the least
// count is taken: background work only ever adds to it.
func TestPostgresRoundTrips(t *testing.T) {
	url, schema := pgtest.Schema(t)
	st := openPG(t, url, schema)
	db := mustOpen(t, Options{Store: st})
	mustCreate(t, db, "plain", false)
	mustCreate(t, db, "sorted", true)
	if _, err := db.CreateTable(&dynamo.CreateTableInput{
		TableName:   "indexed",
		BillingMode: dynamo.BillingModePayPerRequest,
		AttributeDefinitions: []dynamo.AttributeDefinition{
			{AttributeName: "pk", AttributeType: "S"}, {AttributeName: "name", AttributeType: "S"}},
		KeySchema: []dynamo.KeySchemaElement{{AttributeName: "pk", KeyType: dynamo.KeyTypeHash}},
		GlobalSecondaryIndexes: []dynamo.GlobalSecondaryIndex{{IndexName: "byname",
			KeySchema:  []dynamo.KeySchemaElement{{AttributeName: "name", KeyType: dynamo.KeyTypeHash}},
			Projection: dynamo.Projection{ProjectionType: dynamo.ProjectionAll}}},
	}); err != nil {
		t.Fatal(err)
	}
	for i := range 50 {
		it := item1KB("p")
		it["sk"] = attr.N(fmt.Sprint(i))
		if _, err := db.PutItem(&dynamo.PutItemInput{TableName: "sorted", Item: it}); err != nil {
			t.Fatal(err)
		}
	}
	must := func(_ any, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	seq := 0
	fresh := func() string { seq++; return fmt.Sprintf("k%d", seq) }
	batch := func() *dynamo.BatchWriteItemInput {
		var reqs []dynamo.WriteRequest
		for range 25 {
			reqs = append(reqs, dynamo.WriteRequest{PutRequest: &dynamo.PutRequest{Item: item1KB(fresh())}})
		}
		return &dynamo.BatchWriteItemInput{RequestItems: map[string][]dynamo.WriteRequest{"plain": reqs}}
	}

	cases := []struct {
		name string
		// want is the round trips and statements of one call.
		want pgTraffic
		// setup runs before each measured call, outside the count.
		setup func() string
		op    func(key string)
	}{
		{"PutItem (overwrite)", pgTraffic{2, 6}, func() string {
			k := fresh()
			must(db.PutItem(&dynamo.PutItemInput{TableName: "plain", Item: item1KB(k)}))
			return k
		}, func(k string) {
			must(db.PutItem(&dynamo.PutItemInput{TableName: "plain", Item: item1KB(k)}))
		}},
		{"PutItem (new item)", pgTraffic{2, 8}, fresh, func(k string) {
			must(db.PutItem(&dynamo.PutItemInput{TableName: "plain", Item: item1KB(k)}))
		}},
		{"PutItem, one GSI (overwrite)", pgTraffic{2, 7}, func() string {
			k := fresh()
			must(db.PutItem(&dynamo.PutItemInput{TableName: "indexed", Item: item1KB(k)}))
			return k
		}, func(k string) {
			must(db.PutItem(&dynamo.PutItemInput{TableName: "indexed", Item: item1KB(k)}))
		}},
		{"GetItem", pgTraffic{1, 1}, func() string {
			k := fresh()
			must(db.PutItem(&dynamo.PutItemInput{TableName: "plain", Item: item1KB(k)}))
			return k
		}, func(k string) {
			out, err := db.GetItem(&dynamo.GetItemInput{TableName: "plain", Key: attr.Item{"pk": attr.S(k)}})
			if err != nil || out.Item == nil {
				t.Fatal(out, err)
			}
		}},
		{"Query page of 20", pgTraffic{1, 1}, func() string { return "" }, func(string) {
			limit := int32(20)
			out, err := db.Query(&dynamo.QueryInput{TableName: "sorted", Limit: &limit,
				KeyConditionExpression:    "pk = :p",
				ExpressionAttributeValues: attr.Item{":p": attr.S("p")}})
			if err != nil || len(out.Items) != 20 {
				t.Fatal(out, err)
			}
		}},
		{"Query page of 20, backward", pgTraffic{1, 1}, func() string { return "" }, func(string) {
			limit := int32(20)
			forward := false
			out, err := db.Query(&dynamo.QueryInput{TableName: "sorted", Limit: &limit, ScanIndexForward: &forward,
				KeyConditionExpression:    "pk = :p",
				ExpressionAttributeValues: attr.Item{":p": attr.S("p")}})
			if err != nil || len(out.Items) != 20 {
				t.Fatal(out, err)
			}
		}},
		{"UpdateItem", pgTraffic{2, 6}, func() string {
			k := fresh()
			must(db.PutItem(&dynamo.PutItemInput{TableName: "plain", Item: item1KB(k)}))
			return k
		}, func(k string) {
			must(db.UpdateItem(&dynamo.UpdateItemInput{TableName: "plain", Key: attr.Item{"pk": attr.S(k)},
				UpdateExpression:          "SET stock = :s",
				ExpressionAttributeValues: attr.Item{":s": attr.N("7")}}))
		}},
		{"DeleteItem", pgTraffic{2, 11}, func() string {
			k := fresh()
			must(db.PutItem(&dynamo.PutItemInput{TableName: "plain", Item: item1KB(k)}))
			return k
		}, func(k string) {
			must(db.DeleteItem(&dynamo.DeleteItemInput{TableName: "plain", Key: attr.Item{"pk": attr.S(k)}}))
		}},
		{"TransactWriteItems of 2 updates", pgTraffic{2, 8}, func() string {
			k := fresh()
			for _, side := range []string{"a", "b"} {
				must(db.PutItem(&dynamo.PutItemInput{TableName: "plain", Item: item1KB(k + side)}))
			}
			return k
		}, func(k string) {
			var acts []dynamo.TransactWriteItem
			for _, side := range []string{"a", "b"} {
				acts = append(acts, dynamo.TransactWriteItem{Update: &dynamo.TransactUpdate{TableName: "plain",
					Key:                       attr.Item{"pk": attr.S(k + side)},
					UpdateExpression:          "ADD stock :d",
					ConditionExpression:       "attribute_exists(pk)",
					ExpressionAttributeValues: attr.Item{":d": attr.N("1")}}})
			}
			must(db.TransactWriteItems(&dynamo.TransactWriteItemsInput{TransactItems: acts}))
		}},
		{"BatchWriteItem of 25 puts", pgTraffic{2, 7}, func() string { return "" }, func(string) {
			must(db.BatchWriteItem(batch()))
		}},
	}
	var table strings.Builder
	fmt.Fprintf(&table, "\n| operation | round trips | statements |\n|---|---|---|\n")
	for _, c := range cases {
		c.op(c.setup()) // prepares the statements
		best := pgTraffic{trips: 1 << 62}
		for range 15 {
			k := c.setup()
			before := readPGTraffic(t, st)
			c.op(k)
			after := readPGTraffic(t, st)
			if d := after.trips - before.trips; d < best.trips || d == best.trips && after.statements-before.statements < best.statements {
				best = pgTraffic{trips: d, statements: after.statements - before.statements}
			}
		}
		fmt.Fprintf(&table, "| %s | %d | %d |\n", c.name, best.trips, best.statements)
		if best != c.want {
			t.Errorf("%s: %d round trips and %d statements, want %d and %d", c.name, best.trips, best.statements, c.want.trips, c.want.statements)
		}
	}
	t.Log(table.String())
}
