package e2e

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/local"
)

// Table operations to the letter, third part: what UpdateTable and
// DeleteTable answer while another table change runs, by what runs. "The
// lab" is the ack-api-quirks DynamoDB lab (tableops_exact_test.go).

const inUsePrefix = "Attempt to change a resource which is still in use: "

func updateTable(c local.API, in *dynamodb.UpdateTableInput) error {
	_, err := c.UpdateTable(bg(), in)
	return err
}

func gsiCreate(table, index string) *dynamodb.UpdateTableInput {
	return &dynamodb.UpdateTableInput{TableName: aws.String(table),
		AttributeDefinitions: defs(index, "S"),
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{
			IndexName:  aws.String(index),
			KeySchema:  ks(index),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly},
		}}}}
}

func streamOn(table string) *dynamodb.UpdateTableInput {
	return &dynamodb.UpdateTableInput{TableName: aws.String(table),
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeKeysOnly}}
}

func onDemand(table string) *dynamodb.UpdateTableInput {
	return &dynamodb.UpdateTableInput{TableName: aws.String(table),
		OnDemandThroughput: &types.OnDemandThroughput{MaxReadRequestUnits: aws.Int64(100)}}
}

func protect(table string, on bool) *dynamodb.UpdateTableInput {
	return &dynamodb.UpdateTableInput{TableName: aws.String(table), DeletionProtectionEnabled: aws.Bool(on)}
}

func sseKMS(table string) *dynamodb.UpdateTableInput {
	return &dynamodb.UpdateTableInput{TableName: aws.String(table),
		SSESpecification: &types.SSESpecification{Enabled: aws.Bool(true), SSEType: types.SSETypeKms}}
}

func deleteTableErr(c local.API, table string) error {
	_, err := c.DeleteTable(bg(), &dynamodb.DeleteTableInput{TableName: aws.String(table)})
	return err
}

// TestTableOpsWhileIOPSChange: a provisioned throughput change keeps the
// table UPDATING; meanwhile (the lab, DDB-TABLE-369 for the throughput,
// stream, DeleteTable and deletion protection answers, -175 for the GSI
// Create) each change is refused naming the throughput change, and
// deletion protection is admitted.
func TestTableOpsWhileIOPSChange(t *testing.T) {
	c, advance := startTransient(t)
	createWithGSI(t, c, advance, "iops")
	pt := func(n int64) *dynamodb.UpdateTableInput {
		return &dynamodb.UpdateTableInput{TableName: aws.String("iops"),
			ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(n), WriteCapacityUnits: aws.Int64(n)}}
	}
	if err := updateTable(c, pt(2)); err != nil {
		t.Fatal(err)
	}
	wantStatus(t, c, "iops", types.TableStatusUpdating)
	wantErr(t, updateTable(c, pt(3)), "ResourceInUseException", inUsePrefix+"Table IOPS are currently being updated. Table: iops")
	// A billing switch likewise (-370).
	wantErr(t, updateTable(c, &dynamodb.UpdateTableInput{TableName: aws.String("iops"), BillingMode: types.BillingModePayPerRequest}),
		"ResourceInUseException", inUsePrefix+"Table IOPS are currently being updated. Table: iops")
	wantErr(t, updateTable(c, streamOn("iops")), "ResourceInUseException", inUsePrefix+"Can't enable or disable stream while table IOPS are being updated. Table: iops")
	wantErr(t, updateTable(c, gsiCreate("iops", "gsi2")), "ResourceInUseException", inUsePrefix+"Can't create or delete indexes while table IOPS are being updated. Table: iops")
	wantErr(t, deleteTableErr(c, "iops"), "ResourceInUseException", inUsePrefix+"Table: iops is in the process of being updated.")
	if err := updateTable(c, protect("iops", false)); err != nil {
		t.Fatalf("deletion protection while the throughput changes: %v", err)
	}
	advance(transientDelay)
	wantStatus(t, c, "iops", types.TableStatusActive)
	if err := updateTable(c, pt(3)); err != nil {
		t.Fatalf("throughput once ACTIVE: %v", err)
	}
}

// TestTableOpsWhileBillingSwitch: during a billing mode switch,
// OnDemandThroughput is judged by the mode the table had before it: after
// PAY_PER_REQUEST to PROVISIONED it is refused as in use, after
// PROVISIONED to PAY_PER_REQUEST as for a PROVISIONED table (the lab,
// DDB-TABLE-369).
func TestTableOpsWhileBillingSwitch(t *testing.T) {
	c, advance := startTransient(t)
	createHash(t, c, "bsw", types.ScalarAttributeTypeS)
	advance(transientDelay)
	toProvisioned := &dynamodb.UpdateTableInput{TableName: aws.String("bsw"), BillingMode: types.BillingModeProvisioned,
		ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(1), WriteCapacityUnits: aws.Int64(1)}}
	if err := updateTable(c, toProvisioned); err != nil {
		t.Fatal(err)
	}
	wantErr(t, updateTable(c, onDemand("bsw")), "ResourceInUseException", inUsePrefix+"OnDemandThroughput cannot be updated while BillingMode update is in progress")
	wantErr(t, deleteTableErr(c, "bsw"), "ResourceInUseException", inUsePrefix+"Table: bsw is in the process of being updated.")
	advance(transientDelay)
	if err := updateTable(c, &dynamodb.UpdateTableInput{TableName: aws.String("bsw"), BillingMode: types.BillingModePayPerRequest}); err != nil {
		t.Fatal(err)
	}
	wantErr(t, updateTable(c, toProvisioned), "ResourceInUseException", inUsePrefix+"Table IOPS are currently being updated. Table: bsw")
	wantErr(t, updateTable(c, onDemand("bsw")), "ValidationException",
		"One or more parameter values were invalid: MaxReadRequestUnits for OnDemandThroughput cannot be specified when the table BillingMode is PROVISIONED")
	advance(transientDelay)
	if err := updateTable(c, onDemand("bsw")); err != nil {
		t.Fatalf("OnDemandThroughput once ACTIVE: %v", err)
	}
}

// TestTableOpsWhileStreamSwitch: a stream switch keeps the table
// UPDATING; DeleteTable is refused naming the stream (the lab,
// DDB-TABLE-119) and so is a GSI Create (-175); encryption and deletion
// protection are admitted (-119).
func TestTableOpsWhileStreamSwitch(t *testing.T) {
	c, advance := startTransient(t)
	createHash(t, c, "ssw", types.ScalarAttributeTypeS)
	advance(transientDelay)
	if err := updateTable(c, streamOn("ssw")); err != nil {
		t.Fatal(err)
	}
	wantErr(t, deleteTableErr(c, "ssw"), "ResourceInUseException", inUsePrefix+"Cannot delete table while stream is being enabled/disabled.")
	wantErr(t, updateTable(c, gsiCreate("ssw", "gsi2")), "ResourceInUseException", inUsePrefix+"Can't create or delete an index when stream status is being updated.")
	if err := updateTable(c, sseKMS("ssw")); err != nil {
		t.Fatalf("encryption while the stream switches: %v", err)
	}
	if err := updateTable(c, protect("ssw", false)); err != nil {
		t.Fatalf("deletion protection while the stream switches: %v", err)
	}
	// The admitted changes leave the stream switch running.
	wantErr(t, deleteTableErr(c, "ssw"), "ResourceInUseException", inUsePrefix+"Cannot delete table while stream is being enabled/disabled.")
	advance(transientDelay)
	d := wantStatus(t, c, "ssw", types.TableStatusActive)
	if d.SSEDescription == nil || d.SSEDescription.SSEType != types.SSETypeKms {
		t.Fatalf("SSEDescription after the admitted change: %+v", d.SSEDescription)
	}
	if err := updateTable(c, gsiCreate("ssw", "gsi2")); err != nil {
		t.Fatalf("GSI Create once ACTIVE: %v", err)
	}
}

// TestTableOpsGSICreateBeside: a GSI Create while the table class
// changes is refused naming it; while encryption or deletion protection
// changes it is admitted (the lab, DDB-TABLE-175).
func TestTableOpsGSICreateBeside(t *testing.T) {
	c, advance := startTransient(t)
	for _, name := range []string{"cls", "enc", "dpr"} {
		createHash(t, c, name, types.ScalarAttributeTypeS)
	}
	advance(transientDelay)
	if err := updateTable(c, &dynamodb.UpdateTableInput{TableName: aws.String("cls"), TableClass: types.TableClassStandardInfrequentAccess}); err != nil {
		t.Fatal(err)
	}
	wantErr(t, updateTable(c, gsiCreate("cls", "gsi2")), "ResourceInUseException", inUsePrefix+"Can't create or delete an index when a table class update is in progress.")
	if err := updateTable(c, sseKMS("enc")); err != nil {
		t.Fatal(err)
	}
	if err := updateTable(c, protect("dpr", true)); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"enc", "dpr"} {
		if err := updateTable(c, gsiCreate(name, "gsi2")); err != nil {
			t.Fatalf("GSI Create on %s: %v", name, err)
		}
		d := wantStatus(t, c, name, types.TableStatusUpdating)
		if len(d.GlobalSecondaryIndexes) != 1 || d.GlobalSecondaryIndexes[0].IndexStatus != types.IndexStatusCreating {
			t.Fatalf("GSIs of %s: %+v", name, d.GlobalSecondaryIndexes)
		}
	}
}

// TestTableOpsWhileGSIInFlight: while a GSI is being created, a stream
// change and OnDemandThroughput are refused naming the index creation,
// encryption and deletion protection admitted (the lab, DDB-TABLE-458);
// while one is DELETING, OnDemandThroughput is refused naming the
// deletion, and once it is gone an Update of it is not found (-375).
func TestTableOpsWhileGSIInFlight(t *testing.T) {
	c, advance := startTransient(t)
	createHash(t, c, "gcr", types.ScalarAttributeTypeS)
	advance(transientDelay)
	if err := updateTable(c, gsiCreate("gcr", "gsi1")); err != nil {
		t.Fatal(err)
	}
	wantErr(t, updateTable(c, streamOn("gcr")), "ResourceInUseException", inUsePrefix+"Can't change stream status when an index is being created")
	wantErr(t, updateTable(c, onDemand("gcr")), "ResourceInUseException", inUsePrefix+"OnDemandThroughput cannot be updated while index creation is in progress for indexes: [gsi1]")
	if err := updateTable(c, sseKMS("gcr")); err != nil {
		t.Fatalf("encryption while the index is created: %v", err)
	}
	if err := updateTable(c, protect("gcr", false)); err != nil {
		t.Fatalf("deletion protection while the index is created: %v", err)
	}
	// Resource allocation, then the backfill phase, a delay each.
	advance(2 * transientDelay)
	waitIndexActive(t, c, "gcr")

	if err := updateTable(c, &dynamodb.UpdateTableInput{TableName: aws.String("gcr"),
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Delete: &types.DeleteGlobalSecondaryIndexAction{IndexName: aws.String("gsi1")}}}}); err != nil {
		t.Fatal(err)
	}
	wantErr(t, updateTable(c, onDemand("gcr")), "ResourceInUseException", inUsePrefix+"OnDemandThroughput cannot be updated while index deletion is in progress for indexes: [gsi1]")
	advance(transientDelay)
	// An Update of the vanished index (-375).
	err := updateTable(c, &dynamodb.UpdateTableInput{TableName: aws.String("gcr"),
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Update: &types.UpdateGlobalSecondaryIndexAction{
			IndexName: aws.String("gsi1"), OnDemandThroughput: &types.OnDemandThroughput{MaxReadRequestUnits: aws.Int64(5)}}}}})
	wantErr(t, err, "ResourceNotFoundException", "Requested resource not found: Index gsi1 for table gcr")
	if err := updateTable(c, onDemand("gcr")); err != nil {
		t.Fatalf("OnDemandThroughput once the index is gone: %v", err)
	}
}
