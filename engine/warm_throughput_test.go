package engine

import (
	"github.com/dynago/dynago/dynamo"
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
	if _, err := db.CreateTable(&dynamo.CreateTableInput{
		TableName: "warm", BillingMode: dynamo.BillingModePayPerRequest,
		AttributeDefinitions: []dynamo.AttributeDefinition{{AttributeName: "pk", AttributeType: "S"}, {AttributeName: "g", AttributeType: "S"}},
		KeySchema:            []dynamo.KeySchemaElement{{AttributeName: "pk", KeyType: dynamo.KeyTypeHash}},
		WarmThroughput:       &dynamo.WarmThroughput{ReadUnitsPerSecond: n(13000)},
		GlobalSecondaryIndexes: []dynamo.GlobalSecondaryIndex{{IndexName: "byg", KeySchema: []dynamo.KeySchemaElement{{AttributeName: "g", KeyType: dynamo.KeyTypeHash}},
			Projection: dynamo.Projection{ProjectionType: dynamo.ProjectionAll}}},
	}); err != nil {
		t.Fatal(err)
	}
	now = now.Add(time.Minute)
	if _, err := db.UpdateTable(&dynamo.UpdateTableInput{TableName: "warm", GlobalSecondaryIndexUpdates: []dynamo.GlobalSecondaryIndexUpdate{
		{Update: &dynamo.UpdateGlobalSecondaryIndexAction{IndexName: "byg", WarmThroughput: &dynamo.WarmThroughput{WriteUnitsPerSecond: n(5000)}}}}}); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = mustOpen(t, opts)
	describe := func() *dynamo.TableDescription {
		out, err := db.DescribeTable(&dynamo.DescribeTableInput{TableName: "warm"})
		if err != nil {
			t.Fatal(err)
		}
		return out.Table
	}
	d := describe()
	if w, want := *d.WarmThroughput, (dynamo.WarmThroughputDescription{ReadUnitsPerSecond: 13000, WriteUnitsPerSecond: 4000, Status: dynamo.TableStatusActive}); w != want {
		t.Fatalf("table WarmThroughput after a restart: %+v, want %+v", w, want)
	}
	if w, want := *d.GlobalSecondaryIndexes[0].WarmThroughput, (dynamo.WarmThroughputDescription{ReadUnitsPerSecond: 12000, WriteUnitsPerSecond: 4000, Status: IndexStatusUpdating}); w != want {
		t.Fatalf("GSI WarmThroughput rising after a restart: %+v, want %+v", w, want)
	}
	now = now.Add(time.Minute)
	if w, want := *describe().GlobalSecondaryIndexes[0].WarmThroughput, (dynamo.WarmThroughputDescription{ReadUnitsPerSecond: 12000, WriteUnitsPerSecond: 5000, Status: dynamo.TableStatusActive}); w != want {
		t.Fatalf("GSI WarmThroughput risen: %+v, want %+v", w, want)
	}
}
