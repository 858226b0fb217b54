package server

import (
	"strings"
	"testing"
	"time"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/engine"
)

// TestCapacityHistoryRecordsEachInterval checks that each reading holds
// what was consumed since the one before, per table, and that only the
// last keep intervals are kept.
func TestCapacityHistoryRecordsEachInterval(t *testing.T) {
	db, err := engine.Open(engine.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// A long interval: the test takes its readings itself.
	h := NewCapacityHistory(func() []*engine.DB { return []*engine.DB{db} }, time.Hour, 2)
	defer h.Close()
	if _, err := db.CreateTable(&engine.CreateTableInput{
		TableName:            "charted",
		BillingMode:          engine.BillingModePayPerRequest,
		AttributeDefinitions: []engine.AttributeDefinition{{AttributeName: "pk", AttributeType: "S"}},
		KeySchema:            []engine.KeySchemaElement{{AttributeName: "pk", KeyType: engine.KeyTypeHash}},
	}); err != nil {
		t.Fatal(err)
	}
	put := func(n int) {
		for i := 0; i < n; i++ {
			if _, err := db.PutItem(&engine.PutItemInput{TableName: "charted", Item: attr.Item{"pk": attr.S(strings.Repeat("k", i+1))}}); err != nil {
				t.Fatal(err)
			}
		}
	}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	put(3)
	h.Sample(t0)
	put(2)
	h.Sample(t0.Add(time.Minute))
	h.Sample(t0.Add(2 * time.Minute))
	got := h.Samples()
	if len(got) != 2 {
		t.Fatalf("kept %d samples, want the last 2 intervals' (one table each): %+v", len(got), got)
	}
	if got[0].Time != t0.Add(time.Minute) || got[0].Table != "charted" || got[0].WriteUnits != 2 {
		t.Errorf("second interval %+v, want 2 write units at t0+1m", got[0])
	}
	if got[1].WriteUnits != 0 || got[1].ReadUnits != 0 {
		t.Errorf("idle interval %+v, want zero", got[1])
	}
}
