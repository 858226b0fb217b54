package e2e

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Warm throughput in table descriptions, to the letter. "The lab" is the
// ack-api-quirks DynamoDB lab (recorded 2026-10-08), its table-indexes and
// table-throughput-billing pages.

func tableWarm(r, w int64) *types.TableWarmThroughputDescription {
	return &types.TableWarmThroughputDescription{ReadUnitsPerSecond: aws.Int64(r), WriteUnitsPerSecond: aws.Int64(w), Status: types.TableStatusActive}
}

func gsiWarm(r, w int64) *types.GlobalSecondaryIndexWarmThroughputDescription {
	return &types.GlobalSecondaryIndexWarmThroughputDescription{ReadUnitsPerSecond: aws.Int64(r), WriteUnitsPerSecond: aws.Int64(w), Status: types.IndexStatusActive}
}

// TestWarmThroughputOnDemand: an on-demand table and each of its GSIs
// report WarmThroughput 12000/4000, ACTIVE, never set, and the GSIs
// ProvisionedThroughput 0/0 (the lab, DDB-TABLE-134, -133); CreateTable's
// answer has no WarmThroughput, on the table or the GSIs (DDB-TABLE-138;
// the table-throughput-billing summary: "the CreateTable response lacks
// WarmThroughput (unless sent)"). UpdateTable's answer has it (-165: a
// GSI Create's answer is an immediate DescribeTable's).
func TestWarmThroughputOnDemand(t *testing.T) {
	_, c := startFixed(t)
	out, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{
		TableName: aws.String("wod"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: defs("pk", "S", "g", "S"),
		KeySchema:            ks("pk"),
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
			IndexName: aws.String("byg"), KeySchema: ks("g"),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if d := out.TableDescription; d.WarmThroughput != nil || d.GlobalSecondaryIndexes[0].WarmThroughput != nil {
		t.Fatalf("CreateTable's answer: table %+v, GSI %+v; want no WarmThroughput", d.WarmThroughput, d.GlobalSecondaryIndexes[0].WarmThroughput)
	}
	d := describe(t, c, "wod")
	deepEqual(t, "table WarmThroughput", d.WarmThroughput, tableWarm(12000, 4000))
	deepEqual(t, "GSI WarmThroughput", d.GlobalSecondaryIndexes[0].WarmThroughput, gsiWarm(12000, 4000))
	deepEqual(t, "GSI ProvisionedThroughput", d.GlobalSecondaryIndexes[0].ProvisionedThroughput, &types.ProvisionedThroughputDescription{
		NumberOfDecreasesToday: aws.Int64(0), ReadCapacityUnits: aws.Int64(0), WriteCapacityUnits: aws.Int64(0)})

	up, err := c.UpdateTable(bg(), gsiCreate("wod", "gsi2"))
	if err != nil {
		t.Fatal(err)
	}
	deepEqual(t, "UpdateTable's table WarmThroughput", up.TableDescription.WarmThroughput, tableWarm(12000, 4000))
	for _, name := range []string{"byg", "gsi2"} {
		deepEqual(t, "UpdateTable's WarmThroughput of "+name, gsiNamed(up.TableDescription, name).WarmThroughput, gsiWarm(12000, 4000))
	}
}

// TestWarmThroughputProvisioned: a PROVISIONED table's and GSI's
// WarmThroughput is their capacity units, and never drops: a GSI lowered
// from 13000/4500 to 1/1 keeps 13000/4500 (the lab, DDB-TABLE-134); a
// table raised 1/1, 2/2, 3/3 then lowered to 1/1 keeps 3/3; switched to
// PAY_PER_REQUEST it has 12000/4000, and keeps them switched back to
// PROVISIONED 1/1 (DDB-TABLE-061, -058).
func TestWarmThroughputProvisioned(t *testing.T) {
	_, c := startFixed(t)
	pt := func(r, w int64) *types.ProvisionedThroughput {
		return &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(r), WriteCapacityUnits: aws.Int64(w)}
	}
	if _, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{
		TableName: aws.String("wpr"), ProvisionedThroughput: pt(5, 5),
		AttributeDefinitions: defs("pk", "S", "g", "S", "h", "S"),
		KeySchema:            ks("pk"),
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{
			{IndexName: aws.String("big"), KeySchema: ks("g"), Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}, ProvisionedThroughput: pt(13000, 4500)},
			{IndexName: aws.String("one"), KeySchema: ks("h"), Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}, ProvisionedThroughput: pt(1, 1)},
		},
	}); err != nil {
		t.Fatal(err)
	}
	d := describe(t, c, "wpr")
	deepEqual(t, "table WarmThroughput", d.WarmThroughput, tableWarm(5, 5))
	deepEqual(t, "big's WarmThroughput", gsiNamed(d, "big").WarmThroughput, gsiWarm(13000, 4500))
	deepEqual(t, "one's WarmThroughput", gsiNamed(d, "one").WarmThroughput, gsiWarm(1, 1))
	if err := updateTable(c, gsiUpdatePT("wpr", "big", 1)); err != nil {
		t.Fatal(err)
	}
	d = describe(t, c, "wpr")
	deepEqual(t, "big's WarmThroughput after its decrease", gsiNamed(d, "big").WarmThroughput, gsiWarm(13000, 4500))
	if got := aws.ToInt64(gsiNamed(d, "big").ProvisionedThroughput.ReadCapacityUnits); got != 1 {
		t.Fatalf("big's ReadCapacityUnits %d after its decrease", got)
	}

	if _, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{
		TableName: aws.String("wtb"), AttributeDefinitions: defs("pk", "S"), KeySchema: ks("pk"), ProvisionedThroughput: pt(1, 1),
	}); err != nil {
		t.Fatal(err)
	}
	deepEqual(t, "table WarmThroughput", describe(t, c, "wtb").WarmThroughput, tableWarm(1, 1))
	for _, step := range []struct {
		in   *dynamodb.UpdateTableInput
		r, w int64
	}{
		{tablePT("wtb", 2), 2, 2},
		{tablePT("wtb", 3), 3, 3},
		{tablePT("wtb", 1), 3, 3},
		{&dynamodb.UpdateTableInput{TableName: aws.String("wtb"), ProvisionedThroughput: pt(2, 1)}, 3, 3},
		{&dynamodb.UpdateTableInput{TableName: aws.String("wtb"), BillingMode: types.BillingModePayPerRequest}, 12000, 4000},
		{&dynamodb.UpdateTableInput{TableName: aws.String("wtb"), BillingMode: types.BillingModeProvisioned, ProvisionedThroughput: pt(1, 1)}, 12000, 4000},
	} {
		out, err := c.UpdateTable(bg(), step.in)
		if err != nil {
			t.Fatal(err)
		}
		if out.TableDescription.WarmThroughput == nil {
			t.Fatal("UpdateTable's answer has no WarmThroughput")
		}
		deepEqual(t, "table WarmThroughput", describe(t, c, "wtb").WarmThroughput, tableWarm(step.r, step.w))
	}
}

// TestWarmThroughputBillingSwitchTransient: while a switch from
// PROVISIONED to PAY_PER_REQUEST keeps the table UPDATING, its
// WarmThroughput stays what it was; once ACTIVE it is 12000/4000 (the lab,
// DDB-TABLE-064's DescribeTable timeline).
func TestWarmThroughputBillingSwitchTransient(t *testing.T) {
	c, advance := startTransient(t)
	if _, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{
		TableName: aws.String("wsw"), AttributeDefinitions: defs("pk", "S"), KeySchema: ks("pk"),
		ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(2), WriteCapacityUnits: aws.Int64(2)},
	}); err != nil {
		t.Fatal(err)
	}
	advance(transientDelay)
	if err := updateTable(c, &dynamodb.UpdateTableInput{TableName: aws.String("wsw"), BillingMode: types.BillingModePayPerRequest}); err != nil {
		t.Fatal(err)
	}
	d := wantStatus(t, c, "wsw", types.TableStatusUpdating)
	deepEqual(t, "WarmThroughput during the switch", d.WarmThroughput, tableWarm(2, 2))
	advance(transientDelay)
	d = wantStatus(t, c, "wsw", types.TableStatusActive)
	deepEqual(t, "WarmThroughput after the switch", d.WarmThroughput, tableWarm(12000, 4000))
}
