package e2e

import (
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// What UpdateTable admits while a global secondary index is created or
// deleted, by the phase it is in, to the letter. "The lab" is the
// ack-api-quirks DynamoDB lab (recorded 2026-10-08/09), its table-indexes
// and table-subresources pages. Under a TransientDelay a new GSI is in
// its resource allocation phase for the delay, then in its backfill phase
// (the table ACTIVE, the index Backfilling) for another, however soon
// dynago's own backfill ends.

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
	advance(2 * transientDelay) // allocation, then backfill
	waitIndexActive(t, c, "gal")
}

// TestGSIBackfillPhase: after its resource allocation, a GSI that
// UpdateTable creates is CREATING with Backfilling true and the table
// ACTIVE (the lab, DDB-TABLE-148: for 7 to 16 minutes on DynamoDB; here
// the second delay, though three items are indexed at once). Meanwhile it
// cannot be read ("Cannot read from backfilling global secondary index":
// aws-cloudformation/cloudformation-coverage-roadmap issue 1075, quoting
// DynamoDB; -148 for the phase), DeleteTable is refused (-150: "with
// TableStatus=ACTIVE", the whole build), another index's Create or
// Delete is LimitExceededException (-159, -163), while UpdateTimeToLive,
// TagResource, a table throughput change (the table goes UPDATING, and a
// stream change right after it is refused for the IOPS change), an
// Update of another GSI and deletion protection are admitted (-163), and
// so is a Delete of the new index, answered UPDATING and DELETING
// (-149). After the second delay the index is ACTIVE and readable.
func TestGSIBackfillPhase(t *testing.T) {
	c, advance := startTransient(t)
	tables := []string{"gbf", "gbu", "gbd"}
	for _, name := range tables {
		createWithGSI(t, c, func(time.Duration) {}, name)
	}
	advance(transientDelay)
	for _, name := range tables {
		for _, pk := range []string{"a", "b", "c"} {
			put(t, c, name, item{"pk": S(pk), "g": S("x"), "gsi4": S("y")})
		}
		if err := updateTable(c, gsiCreatePT(name, "gsi4")); err != nil {
			t.Fatal(err)
		}
	}
	advance(transientDelay)
	backfilling := func(d *types.TableDescription) {
		t.Helper()
		g := gsiNamed(d, "gsi4")
		if g == nil || g.IndexStatus != types.IndexStatusCreating || g.Backfilling == nil || !*g.Backfilling {
			t.Fatalf("%s's gsi4 in the backfill phase: %+v; want CREATING, Backfilling true", aws.ToString(d.TableName), g)
		}
	}
	for _, name := range tables {
		d := describe(t, c, name)
		if d.TableStatus != types.TableStatusActive {
			t.Fatalf("%s in the backfill phase: %s, want ACTIVE", name, d.TableStatus)
		}
		backfilling(d)
	}
	query := func() error {
		_, err := c.Query(bg(), &dynamodb.QueryInput{TableName: aws.String("gbf"), IndexName: aws.String("gsi4"),
			KeyConditionExpression:    aws.String("gsi4 = :v"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":v": S("y")}})
		return err
	}
	const refused = "Cannot read from backfilling global secondary index"
	wantErr(t, query(), "ValidationException", refused)
	_, err := c.Scan(bg(), &dynamodb.ScanInput{TableName: aws.String("gbf"), IndexName: aws.String("gsi4")})
	wantErr(t, err, "ValidationException", refused)
	_, err = c.DeleteTable(bg(), &dynamodb.DeleteTableInput{TableName: aws.String("gbf")})
	wantErr(t, err, "ResourceInUseException", inUsePrefix+"Cannot delete table while indexes are being created, updated, or deleted.")
	wantErr(t, updateTable(c, gsiCreatePT("gbf", "gsi5")), "LimitExceededException", oneOnlineIndex)
	wantErr(t, updateTable(c, gsiDelete("gbf", "byg")), "LimitExceededException", oneOnlineIndex)
	if _, err := c.UpdateTimeToLive(bg(), &dynamodb.UpdateTimeToLiveInput{TableName: aws.String("gbf"),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{Enabled: aws.Bool(true), AttributeName: aws.String("ttl")}}); err != nil {
		t.Fatalf("UpdateTimeToLive in the backfill phase: %v", err)
	}
	d := describe(t, c, "gbf")
	if _, err := c.TagResource(bg(), &dynamodb.TagResourceInput{ResourceArn: d.TableArn, Tags: []types.Tag{{Key: aws.String("k"), Value: aws.String("v")}}}); err != nil {
		t.Fatalf("TagResource in the backfill phase: %v", err)
	}
	out, err := c.UpdateTable(bg(), tablePT("gbf", 2))
	if err != nil {
		t.Fatalf("table throughput in the backfill phase: %v", err)
	}
	if out.TableDescription.TableStatus != types.TableStatusUpdating {
		t.Fatalf("its answer: TableStatus %s, want UPDATING", out.TableDescription.TableStatus)
	}
	backfilling(out.TableDescription)
	wantErr(t, updateTable(c, streamOn("gbf")), "ResourceInUseException", inUsePrefix+"Can't enable or disable stream while table IOPS are being updated. Table: gbf")

	if err := updateTable(c, gsiUpdatePT("gbu", "byg", 2)); err != nil {
		t.Fatalf("Update of another GSI in the backfill phase: %v", err)
	}
	if err := updateTable(c, protect("gbu", true)); err != nil {
		t.Fatalf("deletion protection in the backfill phase: %v", err)
	}
	backfilling(describe(t, c, "gbu"))

	out, err = c.UpdateTable(bg(), gsiDelete("gbd", "gsi4"))
	if err != nil {
		t.Fatalf("Delete of the new GSI in the backfill phase: %v", err)
	}
	if g := gsiNamed(out.TableDescription, "gsi4"); out.TableDescription.TableStatus != types.TableStatusUpdating || g == nil || g.IndexStatus != types.IndexStatusDeleting {
		t.Fatalf("its answer: table %s, gsi4 %+v; want UPDATING, DELETING", out.TableDescription.TableStatus, g)
	}

	advance(transientDelay)
	waitIndexActive(t, c, "gbf")
	if err := query(); err != nil {
		t.Fatalf("Query once ACTIVE: %v", err)
	}
	if d := describe(t, c, "gbd"); gsiNamed(d, "gsi4") != nil {
		t.Fatalf("gbd's gsi4 after its deletion: %+v", gsiNamed(d, "gsi4"))
	}
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
	advance(2 * transientDelay)
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
	advance(2 * transientDelay)
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
