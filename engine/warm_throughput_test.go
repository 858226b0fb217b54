package engine

import (
	"testing"
	"time"
)

// A warm throughput that UpdateTable raised, and one still rising under a
// TransientDelay, are in the catalog: both survive a restart, the rising
// one showing the value before, Status UPDATING, until the delay ends
// (the ack-api-quirks lab, DDB-TABLE-179 and -155, recorded 2026-10-08).
func TestWarmThroughputRequestSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	now := time.Date(2026, 10, 8, 0, 0, 0, 0, time.UTC)
	opts := Options{Dir: dir, TransientDelay: time.Minute, Now: func() time.Time { return now }}
	db := mustOpen(t, opts)
	n := func(v int64) *int64 { return &v }
	if _, err := db.CreateTable(&CreateTableInput{
		TableName: "warm", BillingMode: BillingModePayPerRequest,
		AttributeDefinitions: []AttributeDefinition{{AttributeName: "pk", AttributeType: "S"}, {AttributeName: "g", AttributeType: "S"}},
		KeySchema:            []KeySchemaElement{{AttributeName: "pk", KeyType: KeyTypeHash}},
		WarmThroughput:       &WarmThroughput{ReadUnitsPerSecond: n(13000)},
		GlobalSecondaryIndexes: []GlobalSecondaryIndex{{IndexName: "byg", KeySchema: []KeySchemaElement{{AttributeName: "g", KeyType: KeyTypeHash}},
			Projection: Projection{ProjectionType: ProjectionAll}}},
	}); err != nil {
		t.Fatal(err)
	}
	now = now.Add(time.Minute)
	if _, err := db.UpdateTable(&UpdateTableInput{TableName: "warm", GlobalSecondaryIndexUpdates: []GlobalSecondaryIndexUpdate{
		{Update: &UpdateGlobalSecondaryIndexAction{IndexName: "byg", WarmThroughput: &WarmThroughput{WriteUnitsPerSecond: n(5000)}}}}}); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = mustOpen(t, opts)
	describe := func() *TableDescription {
		out, err := db.DescribeTable(&DescribeTableInput{TableName: "warm"})
		if err != nil {
			t.Fatal(err)
		}
		return out.Table
	}
	d := describe()
	if w, want := *d.WarmThroughput, (WarmThroughputDescription{ReadUnitsPerSecond: 13000, WriteUnitsPerSecond: 4000, Status: TableStatusActive}); w != want {
		t.Fatalf("table WarmThroughput after a restart: %+v, want %+v", w, want)
	}
	if w, want := *d.GlobalSecondaryIndexes[0].WarmThroughput, (WarmThroughputDescription{ReadUnitsPerSecond: 12000, WriteUnitsPerSecond: 4000, Status: IndexStatusUpdating}); w != want {
		t.Fatalf("GSI WarmThroughput rising after a restart: %+v, want %+v", w, want)
	}
	now = now.Add(time.Minute)
	if w, want := *describe().GlobalSecondaryIndexes[0].WarmThroughput, (WarmThroughputDescription{ReadUnitsPerSecond: 12000, WriteUnitsPerSecond: 5000, Status: TableStatusActive}); w != want {
		t.Fatalf("GSI WarmThroughput risen: %+v, want %+v", w, want)
	}
}
