package e2e

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// What UpdateTable admits while a global secondary index is created or
// deleted, by the phase it is in, to the letter. "The lab" is the
// ack-api-quirks DynamoDB lab (recorded 2026-10-08/09), its table-indexes
// and table-subresources pages. The backfill phase (the table ACTIVE, the
// index Backfilling) lasts as long as dynago's backfill, too short to meet
// here; engine/transient_test.go's TestGSIPhasesAdmission holds one up.

const oneOnlineIndex = "Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table"

var pt11 = &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(1), WriteCapacityUnits: aws.Int64(1)}

// gsiCreatePT is gsiCreate for a PROVISIONED table.
func gsiCreatePT(table, index string) *dynamodb.UpdateTableInput {
	in := gsiCreate(table, index)
	in.GlobalSecondaryIndexUpdates[0].Create.ProvisionedThroughput = pt11
	return in
}

func gsiDelete(table, index string) *dynamodb.UpdateTableInput {
	return &dynamodb.UpdateTableInput{TableName: aws.String(table),
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Delete: &types.DeleteGlobalSecondaryIndexAction{IndexName: aws.String(index)}}}}
}

func gsiUpdatePT(table, index string, n int64) *dynamodb.UpdateTableInput {
	return &dynamodb.UpdateTableInput{TableName: aws.String(table),
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Update: &types.UpdateGlobalSecondaryIndexAction{IndexName: aws.String(index),
			ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(n), WriteCapacityUnits: aws.Int64(n)}}}}}
}

func tablePT(table string, n int64) *dynamodb.UpdateTableInput {
	return &dynamodb.UpdateTableInput{TableName: aws.String(table),
		ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(n), WriteCapacityUnits: aws.Int64(n)}}
}

// gsiNamed returns d's GSI called name, or nil.
func gsiNamed(d *types.TableDescription, name string) *types.GlobalSecondaryIndexDescription {
	for i := range d.GlobalSecondaryIndexes {
		if aws.ToString(d.GlobalSecondaryIndexes[i].IndexName) == name {
			return &d.GlobalSecondaryIndexes[i]
		}
	}
	return nil
}

// TestGSIResourceAllocationPhase: a GSI that UpdateTable creates is
// CREATING with Backfilling false, the table UPDATING (the lab,
// DDB-TABLE-148, -138; the UpdateTable answer already so, -165).
// Meanwhile a Delete of it is refused (-149, the whole text recorded), an
// Update of it and a table throughput change are refused naming it, an
// Update of another GSI is admitted (-163), another index's Create or
// Delete is LimitExceededException (-159: "while one index is CREATING
// (both phases)"), and deletion protection is admitted (-458).
func TestGSIResourceAllocationPhase(t *testing.T) {
	c, advance := startTransient(t)
	createWithGSI(t, c, advance, "gal")
	out, err := c.UpdateTable(bg(), gsiCreatePT("gal", "gsi4"))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []*types.TableDescription{out.TableDescription, describe(t, c, "gal")} {
		g := gsiNamed(d, "gsi4")
		if d.TableStatus != types.TableStatusUpdating || g == nil || g.IndexStatus != types.IndexStatusCreating || g.Backfilling == nil || *g.Backfilling {
			t.Fatalf("during resource allocation: table %s, gsi4 %+v; want UPDATING, CREATING, Backfilling false", d.TableStatus, g)
		}
	}
	wantErr(t, updateTable(c, gsiDelete("gal", "gsi4")), "ResourceInUseException",
		inUsePrefix+"Index creation is in resource allocation phase. Retry deletion during backfilling phase or when the index is active. Table: gal Index: gsi4")
	wantErr(t, updateTable(c, gsiUpdatePT("gal", "gsi4", 2)), "ResourceInUseException",
		inUsePrefix+"Index is being created but is not backfilling yet. Table: gal Index: gsi4")
	wantErr(t, updateTable(c, tablePT("gal", 2)), "ResourceInUseException",
		inUsePrefix+"Can't change table IOPS when an index is being created. Table: gal Indexes: [gsi4]")
	wantErr(t, updateTable(c, gsiCreatePT("gal", "gsi5")), "LimitExceededException", oneOnlineIndex)
	wantErr(t, updateTable(c, gsiDelete("gal", "byg")), "LimitExceededException", oneOnlineIndex)
	if err := updateTable(c, gsiUpdatePT("gal", "byg", 2)); err != nil {
		t.Fatalf("Update of another GSI during resource allocation: %v", err)
	}
	if err := updateTable(c, protect("gal", true)); err != nil {
		t.Fatalf("deletion protection during resource allocation: %v", err)
	}
	// The delete refusal changed nothing.
	if g := gsiNamed(describe(t, c, "gal"), "gsi4"); g == nil || g.IndexStatus != types.IndexStatusCreating {
		t.Fatalf("gsi4 after the refused Delete: %+v", g)
	}
	advance(transientDelay)
	waitIndexActive(t, c, "gal")
}

// TestGSIDeletingPhase: while a GSI is DELETING, another action on it
// (a Create of its name, a second Delete: the lab, DDB-TABLE-163; an
// Update: -375, -376) is refused naming it, another index's Create or
// Delete is LimitExceededException (-163), a billing mode switch or a
// throughput change names the deletion (-376), and an Update of another
// GSI (-163) and deletion protection (-376) are admitted. On an on-demand
// table BillingMode PAY_PER_REQUEST sent again is admitted (-375).
func TestGSIDeletingPhase(t *testing.T) {
	c, advance := startTransient(t)
	createWithGSI(t, c, advance, "gdl")
	if err := updateTable(c, gsiCreatePT("gdl", "gsi2")); err != nil {
		t.Fatal(err)
	}
	advance(transientDelay)
	waitIndexActive(t, c, "gdl")
	if err := updateTable(c, gsiDelete("gdl", "byg")); err != nil {
		t.Fatal(err)
	}
	deleting := inUsePrefix + "Index is being deleted. Table: gdl Index: byg"
	in := gsiCreatePT("gdl", "byg")
	in.AttributeDefinitions = defs("g", "S")
	in.GlobalSecondaryIndexUpdates[0].Create.KeySchema = ks("g")
	wantErr(t, updateTable(c, in), "ResourceInUseException", deleting)
	wantErr(t, updateTable(c, gsiDelete("gdl", "byg")), "ResourceInUseException", deleting)
	wantErr(t, updateTable(c, gsiUpdatePT("gdl", "byg", 2)), "ResourceInUseException", deleting)
	wantErr(t, updateTable(c, gsiCreatePT("gdl", "gsi3")), "LimitExceededException", oneOnlineIndex)
	wantErr(t, updateTable(c, gsiDelete("gdl", "gsi2")), "LimitExceededException", oneOnlineIndex)
	iops := inUsePrefix + "Can't change table IOPS when an index is being deleted. Table: gdl Indexes: [byg]"
	wantErr(t, updateTable(c, tablePT("gdl", 2)), "ResourceInUseException", iops)
	wantErr(t, updateTable(c, &dynamodb.UpdateTableInput{TableName: aws.String("gdl"), BillingMode: types.BillingModePayPerRequest}), "ResourceInUseException", iops)
	if err := updateTable(c, gsiUpdatePT("gdl", "gsi2", 2)); err != nil {
		t.Fatalf("Update of another GSI while one is DELETING: %v", err)
	}
	if err := updateTable(c, protect("gdl", true)); err != nil {
		t.Fatalf("deletion protection while a GSI is DELETING: %v", err)
	}
	advance(transientDelay)
	if d := describe(t, c, "gdl"); gsiNamed(d, "byg") != nil || len(d.GlobalSecondaryIndexes) != 1 {
		t.Fatalf("GSIs once the deletion ended: %+v", d.GlobalSecondaryIndexes)
	}

	// On demand (-375).
	ppr := "gdp"
	createHash(t, c, ppr, types.ScalarAttributeTypeS)
	advance(transientDelay)
	if err := updateTable(c, gsiCreate(ppr, "gsi1")); err != nil {
		t.Fatal(err)
	}
	advance(transientDelay)
	waitIndexActive(t, c, ppr)
	if err := updateTable(c, gsiDelete(ppr, "gsi1")); err != nil {
		t.Fatal(err)
	}
	out, err := c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String(ppr), BillingMode: types.BillingModePayPerRequest})
	if err != nil {
		t.Fatalf("BillingMode PAY_PER_REQUEST again while a GSI is DELETING: %v", err)
	}
	if out.TableDescription.TableStatus != types.TableStatusUpdating {
		t.Fatalf("its answer: TableStatus %s, want UPDATING", out.TableDescription.TableStatus)
	}
	wantErr(t, updateTable(c, &dynamodb.UpdateTableInput{TableName: aws.String(ppr), BillingMode: types.BillingModeProvisioned, ProvisionedThroughput: pt11}),
		"ResourceInUseException", inUsePrefix+"Can't change table IOPS when an index is being deleted. Table: gdp Indexes: [gsi1]")
}
