package engine

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
)

// Allocation ceilings of the engine's hot paths: GetItem, PutItem and a
// Query page of 20 items, on an in-memory database. Allocations per call
// are deterministic, unlike time, so these fail on a regression without
// timing anything; the many runs averaged dilute the odd allocation of
// the store's background work below one a call. Each ceiling is today's
// exact count: a change that adds an allocation fails here; a change that
// removes one should lower the ceiling to the new count (the failure
// message and -v print it).
func TestAllocsItemPaths(t *testing.T) {
	db := mustOpen(t, Options{InMemory: true})
	mustCreate(t, db, "bench", false)
	mustCreate(t, db, "reads", true)
	const keys = 64
	items := make([]attr.Item, keys)
	getKeys := make([]*dynamo.GetItemInput, keys)
	for i := range items {
		pk := fmt.Sprintf("key-%d", i)
		items[i] = item1KB(pk)
		if _, err := db.PutItem(&dynamo.PutItemInput{TableName: "bench", Item: items[i]}); err != nil {
			t.Fatal(err)
		}
		getKeys[i] = &dynamo.GetItemInput{TableName: "bench", Key: attr.Item{"pk": attr.S(pk)}}
	}
	// The table of the Query: one partition of 100 items of ~100 bytes,
	// as BenchmarkQueryLimit20's.
	pad := attr.S(strings.Repeat("v", 60))
	for i := range 100 {
		it := attr.Item{"pk": attr.S("p0"), "sk": attr.N(fmt.Sprint(i)), "pad": pad, "odd": attr.Bool(i%100 == 7)}
		if _, err := db.PutItem(&dynamo.PutItemInput{TableName: "reads", Item: it}); err != nil {
			t.Fatal(err)
		}
	}
	query := &dynamo.QueryInput{
		TableName:                 "reads",
		KeyConditionExpression:    "pk = :p",
		ExpressionAttributeValues: attr.Item{":p": attr.S("p0")},
		ScanIndexForward:          new(false),
		Limit:                     new(int32(20)),
	}
	var get, put int
	for _, c := range []struct {
		name    string
		ceiling float64
		fn      func()
	}{
		// Overwriting a ~1 KB item of a table without indexes or stream.
		{"PutItem", 5, func() {
			if _, err := db.PutItem(&dynamo.PutItemInput{TableName: "bench", Item: items[put%keys]}); err != nil {
				t.Fatal(err)
			}
			put++
		}},
		// Reading one back.
		{"GetItem", 11, func() {
			out, err := db.GetItem(getKeys[get%keys])
			if err != nil || out.Item == nil {
				t.Fatal(err)
			}
			get++
		}},
		// The newest 20 items of a partition.
		{"Query", 80, func() {
			out, err := db.Query(query)
			if err != nil || len(out.Items) != 20 {
				t.Fatal(err)
			}
		}},
	} {
		got := testing.AllocsPerRun(1000, c.fn)
		t.Logf("%s: %v allocs/op", c.name, got)
		if got > c.ceiling {
			t.Errorf("%s: %v allocations a call, ceiling %v", c.name, got, c.ceiling)
		}
	}
}
