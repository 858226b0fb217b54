package e2e

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/engine"
	"github.com/dynago/dynago/local"
	"github.com/dynago/dynago/testserver"
)

// Transient states, when asked for: engine.Options.TransientDelay (dynago
// serve --transient-delay). The clock is driven by the test, so no case
// depends on timing, except the waiter test, whose deadlines are generous.
//
// Sources:
//   - [api] AWS's API reference (DeleteTable, TableDescription.TableStatus):
//     DeleteTable of a CREATING or UPDATING table is ResourceInUseException;
//     an UPDATING table "remains available for data operations". (It says
//     DeleteTable of a DELETING table is no error; [lab] recorded the
//     opposite, and is newer.)
//   - [dynalite] dynalite (createTableMs, updateTableMs, deleteTableMs),
//     whose tests are recorded against DynamoDB: item operations on a
//     CREATING or DELETING table answer ResourceNotFoundException "Requested
//     resource not found" (db/index.js getTable); DeleteTable of a CREATING
//     table "Attempt to change a resource which is still in use: Table is
//     being created: X" (actions/deleteTable.js); a DELETING table stays in
//     its table store, so CreateTable of its name is "Table already exists"
//     and ListTables lists it until it goes.
//   - [tf] hashicorp/terraform-provider-aws, internal/service/dynamodb's
//     deleteTable retry, quoting DynamoDB: "Attempt to change a resource
//     which is still in use: Table is being updated:" and "...: Table is
//     being deleted:".
//   - [ack] the ack-api-quirks catalogue of DynamoDB's answers, recorded
//     2026: DDB-TABLE-101 (TagResource during CREATING: "Table is being
//     created: X"), DDB-TABLE-236 (a change during DELETING: "Table is being
//     deleted: X").
//   - [lab] the ack-api-quirks DynamoDB lab, recorded in us-east-1 and
//     us-west-2 on 2026-10-08/09: a duplicate CreateTable while CREATING
//     "Table is being created: X" (DDB-TABLE-005); DeleteTable while
//     DELETING "Table is being deleted: X" (DDB-TABLE-006, -008), while
//     UPDATING "Table: X is in the process of being updated."
//     (DDB-TABLE-369); DeletionProtectionEnabled admitted while UPDATING
//     (DDB-TABLE-119, -369).
//   - [cfn] aws-cloudformation/cloudformation-coverage-roadmap issue 1075
//     (2022) quotes boto3 against DynamoDB: ValidationException "Cannot read
//     from backfilling global secondary index" (no index name).

const transientDelay = 10 * time.Second

// startTransient starts a server with a TransientDelay whose clock the
// test moves with the returned function.
func startTransient(t *testing.T) (local.API, func(time.Duration)) {
	t.Helper()
	var now atomic.Int64
	now.Store(fixedNow.UnixNano())
	s := testserver.Start(t,
		testserver.WithNow(func() time.Time { return time.Unix(0, now.Load()).UTC() }),
		testserver.WithEngineOptions(func(o *engine.Options) { o.TransientDelay = transientDelay }))
	return s.API, func(d time.Duration) { now.Add(int64(d)) }
}

func listTables(t *testing.T, c local.API) []string {
	t.Helper()
	out, err := c.ListTables(bg(), &dynamodb.ListTablesInput{})
	if err != nil {
		t.Fatalf("ListTables: %v", err)
	}
	return out.TableNames
}

func wantStatus(t *testing.T, c local.API, table string, want types.TableStatus) *types.TableDescription {
	t.Helper()
	d := describe(t, c, table)
	if d.TableStatus != want {
		t.Fatalf("DescribeTable %s: TableStatus %s, want %s", table, d.TableStatus, want)
	}
	return d
}

// itemOpsNotFound checks that every item operation on table answers as
// DynamoDB does for a table CREATING or DELETING [dynalite].
func itemOpsNotFound(t *testing.T, c local.API, table string) {
	t.Helper()
	const code, msg = "ResourceNotFoundException", "Requested resource not found"
	key := item{"pk": S("a")}
	_, err := c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String(table), Item: key})
	wantErr(t, err, code, msg)
	_, err = c.GetItem(bg(), &dynamodb.GetItemInput{TableName: aws.String(table), Key: key})
	wantErr(t, err, code, msg)
	_, err = c.UpdateItem(bg(), &dynamodb.UpdateItemInput{TableName: aws.String(table), Key: key})
	wantErr(t, err, code, msg)
	_, err = c.DeleteItem(bg(), &dynamodb.DeleteItemInput{TableName: aws.String(table), Key: key})
	wantErr(t, err, code, msg)
	_, err = c.Scan(bg(), &dynamodb.ScanInput{TableName: aws.String(table)})
	wantErr(t, err, code, msg)
	_, err = c.Query(bg(), &dynamodb.QueryInput{TableName: aws.String(table),
		KeyConditionExpression:    aws.String("pk = :v"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":v": S("a")}})
	wantErr(t, err, code, msg)
}

func TestTransientCreating(t *testing.T) {
	c, advance := startTransient(t)
	out, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{
		TableName:            aws.String("tcx"),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: defs("pk", "S", "g", "S"),
		KeySchema:            ks("pk"),
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
			IndexName:  aws.String("byg"),
			KeySchema:  ks("g"),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	// CreateTable answers CREATING, its GSIs CREATING too, without
	// Backfilling [api: TableStatus, IndexStatus; dynalite's CreateTable
	// answers so]. No recording shows Backfilling on such an index; chose
	// none, as it is set only for an index added to an existing table.
	if s := out.TableDescription.TableStatus; s != types.TableStatusCreating {
		t.Fatalf("CreateTable: TableStatus %s, want CREATING", s)
	}
	for _, d := range []*types.TableDescription{out.TableDescription, wantStatus(t, c, "tcx", types.TableStatusCreating)} {
		g := d.GlobalSecondaryIndexes[0]
		if g.IndexStatus != types.IndexStatusCreating || g.Backfilling != nil {
			t.Fatalf("GSI while the table is CREATING: %s, Backfilling %v; want CREATING, none", g.IndexStatus, g.Backfilling)
		}
	}
	itemOpsNotFound(t, c, "tcx")
	// [dynalite] actions/deleteTable.js; [ack] DDB-TABLE-101.
	_, err = c.DeleteTable(bg(), &dynamodb.DeleteTableInput{TableName: aws.String("tcx")})
	wantErr(t, err, "ResourceInUseException", "Attempt to change a resource which is still in use: Table is being created: tcx")
	// No recording of UpdateTable during CREATING; chose DeleteTable's answer.
	_, err = c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String("tcx"), DeletionProtectionEnabled: aws.Bool(true)})
	wantErr(t, err, "ResourceInUseException", "Attempt to change a resource which is still in use: Table is being created: tcx")
	// A duplicate CreateTable while CREATING names the state [lab]
	// DDB-TABLE-005 (was "Table already exists: tcx", which the lab
	// recorded only for ACTIVE and DELETING tables).
	_, err = c.CreateTable(bg(), &dynamodb.CreateTableInput{
		TableName: aws.String("tcx"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: defs("pk", "S"),
		KeySchema:            ks("pk"),
	})
	wantErr(t, err, "ResourceInUseException", "Attempt to change a resource which is still in use: Table is being created: tcx")
	if got := listTables(t, c); len(got) != 1 || got[0] != "tcx" {
		t.Fatalf("ListTables while CREATING: %v", got)
	}

	advance(transientDelay - time.Millisecond)
	wantStatus(t, c, "tcx", types.TableStatusCreating)
	advance(time.Millisecond)
	d := wantStatus(t, c, "tcx", types.TableStatusActive)
	if g := d.GlobalSecondaryIndexes[0]; g.IndexStatus != types.IndexStatusActive || g.Backfilling != nil {
		t.Fatalf("GSI once the table is ACTIVE: %s, Backfilling %v", g.IndexStatus, g.Backfilling)
	}
	put(t, c, "tcx", item{"pk": S("a"), "g": S("x")})
	if got := get(t, c, "tcx", item{"pk": S("a")}); got == nil {
		t.Fatal("item not found once ACTIVE")
	}
}

func TestTransientUpdating(t *testing.T) {
	c, advance := startTransient(t)
	createHash(t, c, "tux", types.ScalarAttributeTypeS)
	advance(transientDelay)
	put(t, c, "tux", item{"pk": S("a")})

	out, err := c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String("tux"), DeletionProtectionEnabled: aws.Bool(true)})
	if err != nil {
		t.Fatal(err)
	}
	if s := out.TableDescription.TableStatus; s != types.TableStatusUpdating {
		t.Fatalf("UpdateTable: TableStatus %s, want UPDATING", s)
	}
	wantStatus(t, c, "tux", types.TableStatusUpdating)
	// An UPDATING table serves items [api: TableStatus].
	put(t, c, "tux", item{"pk": S("b")})
	if got := get(t, c, "tux", item{"pk": S("a")}); got == nil {
		t.Fatal("item of an UPDATING table not found")
	}
	// [tf]: a change deletion protection does not admit.
	_, err = c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String("tux"), TableClass: types.TableClassStandardInfrequentAccess})
	wantErr(t, err, "ResourceInUseException", "Attempt to change a resource which is still in use: Table is being updated: tux")
	// DeleteTable of an UPDATING table [lab] DDB-TABLE-369 (was [tf]'s
	// "Table is being updated: tux").
	_, err = c.DeleteTable(bg(), &dynamodb.DeleteTableInput{TableName: aws.String("tux")})
	wantErr(t, err, "ResourceInUseException", "Attempt to change a resource which is still in use: Table: tux is in the process of being updated.")
	// Deletion protection is admitted while UPDATING [lab] DDB-TABLE-119,
	// -369 (was refused "Table is being updated: tux"), and joins the
	// running change: the table is ACTIVE when that ends.
	again, err := c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String("tux"), DeletionProtectionEnabled: aws.Bool(false)})
	if err != nil {
		t.Fatalf("DeletionProtectionEnabled while UPDATING: %v", err)
	}
	if s := again.TableDescription.TableStatus; s != types.TableStatusUpdating || aws.ToBool(again.TableDescription.DeletionProtectionEnabled) {
		t.Fatalf("DeletionProtectionEnabled while UPDATING: %s, protected %v; want UPDATING, false", s, aws.ToBool(again.TableDescription.DeletionProtectionEnabled))
	}
	advance(transientDelay - time.Millisecond)
	wantStatus(t, c, "tux", types.TableStatusUpdating)
	advance(time.Millisecond)
	wantStatus(t, c, "tux", types.TableStatusActive)

	if _, err := c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String("tux"), TableClass: types.TableClassStandardInfrequentAccess}); err != nil {
		t.Fatalf("UpdateTable once ACTIVE: %v", err)
	}
}

func TestTransientDeleting(t *testing.T) {
	c, advance := startTransient(t)
	createHash(t, c, "tdx", types.ScalarAttributeTypeS)
	advance(transientDelay)
	put(t, c, "tdx", item{"pk": S("a")})

	out, err := c.DeleteTable(bg(), &dynamodb.DeleteTableInput{TableName: aws.String("tdx")})
	if err != nil {
		t.Fatal(err)
	}
	if s := out.TableDescription.TableStatus; s != types.TableStatusDeleting {
		t.Fatalf("DeleteTable: TableStatus %s, want DELETING", s)
	}
	// DescribeTable answers DELETING until the table is gone, and
	// ListTables still lists it [dynalite: the entry stays in its table
	// store, DELETING, until deleteTableMs].
	wantStatus(t, c, "tdx", types.TableStatusDeleting)
	if got := listTables(t, c); len(got) != 1 || got[0] != "tdx" {
		t.Fatalf("ListTables while DELETING: %v", got)
	}
	// [dynalite] getTable. AWS's reference says DynamoDB "might continue to
	// accept" item operations during DELETING; dynago's rows are gone
	// already, so it answers as dynalite does.
	itemOpsNotFound(t, c, "tdx")
	// Already DELETING: ResourceInUseException [lab] DDB-TABLE-006, -008
	// (was no error, as [api] says); the table stays DELETING.
	_, err = c.DeleteTable(bg(), &dynamodb.DeleteTableInput{TableName: aws.String("tdx")})
	wantErr(t, err, "ResourceInUseException", "Attempt to change a resource which is still in use: Table is being deleted: tdx")
	wantStatus(t, c, "tdx", types.TableStatusDeleting)
	// [tf], [ack] DDB-TABLE-236.
	_, err = c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String("tdx"), DeletionProtectionEnabled: aws.Bool(true)})
	wantErr(t, err, "ResourceInUseException", "Attempt to change a resource which is still in use: Table is being deleted: tdx")
	// No recording of DynamoDB; chose dynalite's answer (its CreateTable
	// finds the DELETING entry).
	_, err = c.CreateTable(bg(), &dynamodb.CreateTableInput{
		TableName: aws.String("tdx"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: defs("pk", "S"),
		KeySchema:            ks("pk"),
	})
	wantErr(t, err, "ResourceInUseException", "Table already exists: tdx")

	advance(transientDelay)
	_, err = c.DescribeTable(bg(), &dynamodb.DescribeTableInput{TableName: aws.String("tdx")})
	wantErr(t, err, "ResourceNotFoundException", "Requested resource not found: Table: tdx not found")
	if got := listTables(t, c); len(got) != 0 {
		t.Fatalf("ListTables after the deletion: %v", got)
	}
	// The name is free again, and the new table starts empty.
	createHash(t, c, "tdx", types.ScalarAttributeTypeS)
	advance(transientDelay)
	if got := get(t, c, "tdx", item{"pk": S("a")}); got != nil {
		t.Fatalf("re-created table holds %v", got)
	}
}

func TestTransientIndexCreating(t *testing.T) {
	c, advance := startTransient(t)
	createHash(t, c, "tix", types.ScalarAttributeTypeS)
	advance(transientDelay)
	put(t, c, "tix", item{"pk": S("a"), "g": S("x")})

	out, err := c.UpdateTable(bg(), &dynamodb.UpdateTableInput{
		TableName:            aws.String("tix"),
		AttributeDefinitions: defs("g", "S"),
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{
			IndexName:  aws.String("byg"),
			KeySchema:  ks("g"),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
		}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	// The table is UPDATING and the index CREATING [api: TableStatus "The
	// table/index configuration is being updated"], Backfilling false
	// while its resources are allocated, in the UpdateTable answer too
	// ([ack] DDB-TABLE-148, -138, -165, recorded 2026-10-08; was
	// Backfilling true, from [api] GlobalSecondaryIndexDescription alone).
	for _, d := range []*types.TableDescription{out.TableDescription, wantStatus(t, c, "tix", types.TableStatusUpdating)} {
		if d.TableStatus != types.TableStatusUpdating {
			t.Fatalf("TableStatus %s, want UPDATING", d.TableStatus)
		}
		g := d.GlobalSecondaryIndexes[0]
		if g.IndexStatus != types.IndexStatusCreating || g.Backfilling == nil || *g.Backfilling {
			t.Fatalf("new GSI: %s, Backfilling %v; want CREATING, false", g.IndexStatus, g.Backfilling)
		}
	}
	query := func() error {
		_, err := c.Query(bg(), &dynamodb.QueryInput{TableName: aws.String("tix"), IndexName: aws.String("byg"),
			KeyConditionExpression:    aws.String("g = :v"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":v": S("x")}})
		return err
	}
	// [cfn]. The table itself serves items meanwhile [api].
	wantErr(t, query(), "ValidationException", "Cannot read from backfilling global secondary index")
	_, err = c.Scan(bg(), &dynamodb.ScanInput{TableName: aws.String("tix"), IndexName: aws.String("byg")})
	wantErr(t, err, "ValidationException", "Cannot read from backfilling global secondary index")
	if got := get(t, c, "tix", item{"pk": S("a")}); got == nil {
		t.Fatal("item not found while the index is CREATING")
	}

	advance(transientDelay)
	// Then the backfill phase: the table ACTIVE, the index CREATING with
	// Backfilling true and not readable ([lab] DDB-TABLE-148: minutes, on
	// DynamoDB), for the second delay, though dynago's backfill of one
	// item is long done.
	d := wantStatus(t, c, "tix", types.TableStatusActive)
	if g := d.GlobalSecondaryIndexes[0]; g.IndexStatus != types.IndexStatusCreating || g.Backfilling == nil || !*g.Backfilling {
		t.Fatalf("new GSI after the first delay: %s, Backfilling %v; want CREATING, true", g.IndexStatus, g.Backfilling)
	}
	wantErr(t, query(), "ValidationException", "Cannot read from backfilling global secondary index")

	advance(transientDelay)
	// The backfill runs in the background: wait for it, generously.
	deadline := time.Now().Add(30 * time.Second)
	for {
		d := describe(t, c, "tix")
		if d.TableStatus == types.TableStatusActive && d.GlobalSecondaryIndexes[0].IndexStatus == types.IndexStatusActive {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("index not ACTIVE: table %s, index %s", d.TableStatus, d.GlobalSecondaryIndexes[0].IndexStatus)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := query(); err != nil {
		t.Fatalf("Query once ACTIVE: %v", err)
	}
}

// TestTransientWaiters runs the SDK's waiters against a server on the real
// clock, with short poll delays and long deadlines.
func TestTransientWaiters(t *testing.T) {
	s := testserver.Start(t, testserver.WithEngineOptions(func(o *engine.Options) { o.TransientDelay = 300 * time.Millisecond }))
	c := s.API
	out := createHash(t, c, "twx", types.ScalarAttributeTypeS)
	if out.TableStatus != types.TableStatusCreating {
		t.Fatalf("CreateTable: TableStatus %s, want CREATING", out.TableStatus)
	}
	exists := dynamodb.NewTableExistsWaiter(c, func(o *dynamodb.TableExistsWaiterOptions) {
		o.MinDelay, o.MaxDelay = 20*time.Millisecond, 100*time.Millisecond
	})
	if err := exists.Wait(bg(), &dynamodb.DescribeTableInput{TableName: aws.String("twx")}, time.Minute); err != nil {
		t.Fatalf("TableExistsWaiter: %v", err)
	}
	put(t, c, "twx", item{"pk": S("a")})
	if _, err := c.DeleteTable(bg(), &dynamodb.DeleteTableInput{TableName: aws.String("twx")}); err != nil {
		t.Fatal(err)
	}
	notExists := dynamodb.NewTableNotExistsWaiter(c, func(o *dynamodb.TableNotExistsWaiterOptions) {
		o.MinDelay, o.MaxDelay = 20*time.Millisecond, 100*time.Millisecond
	})
	if err := notExists.Wait(bg(), &dynamodb.DescribeTableInput{TableName: aws.String("twx")}, time.Minute); err != nil {
		t.Fatalf("TableNotExistsWaiter: %v", err)
	}
}

// TestTransientZeroDelay: without a delay every table is ACTIVE at once,
// as before (docs/ARCHITECTURE.md's deliberate differences).
func TestTransientZeroDelay(t *testing.T) {
	_, c := startFixed(t)
	if d := createHash(t, c, "tzx", types.ScalarAttributeTypeS); d.TableStatus != types.TableStatusActive {
		t.Fatalf("CreateTable: %s", d.TableStatus)
	}
	out, err := c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String("tzx"), DeletionProtectionEnabled: aws.Bool(false)})
	if err != nil || out.TableDescription.TableStatus != types.TableStatusActive {
		t.Fatalf("UpdateTable: %v, %v", err, out)
	}
	if _, err := c.DeleteTable(bg(), &dynamodb.DeleteTableInput{TableName: aws.String("tzx")}); err != nil {
		t.Fatal(err)
	}
	_, err = c.DescribeTable(bg(), &dynamodb.DescribeTableInput{TableName: aws.String("tzx")})
	wantErr(t, err, "ResourceNotFoundException", "Requested resource not found: Table: tzx not found")
}

// createWithGSI creates a PROVISIONED table with the GSI "byg" on g and
// waits out its CREATING.
func createWithGSI(t *testing.T, c local.API, advance func(time.Duration), name string) {
	t.Helper()
	pt := &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(1), WriteCapacityUnits: aws.Int64(1)}
	_, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{
		TableName:             aws.String(name),
		ProvisionedThroughput: pt,
		AttributeDefinitions:  defs("pk", "S", "g", "S"),
		KeySchema:             ks("pk"),
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
			IndexName:             aws.String("byg"),
			KeySchema:             ks("g"),
			Projection:            &types.Projection{ProjectionType: types.ProjectionTypeAll},
			ProvisionedThroughput: pt,
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	advance(transientDelay)
}

// A GSI Delete: the index is DELETING and the table UPDATING for the
// delay, then the index is gone [ack] DDB-TABLE-148, -149, -376 (the
// UpdateTable answer already shows DELETING). Meanwhile DeleteTable is
// "Cannot delete table while indexes are being created, updated, or
// deleted." and a throughput change "Can't change table IOPS when an
// index is being deleted" [ack] DDB-TABLE-376. A read of the index: no
// recording found; chose the answer for an index the table does not
// have, as its rows are gone already.
func TestTransientIndexDeleting(t *testing.T) {
	c, advance := startTransient(t)
	createWithGSI(t, c, advance, "tgd")
	put(t, c, "tgd", item{"pk": S("a"), "g": S("x")})

	out, err := c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String("tgd"),
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Delete: &types.DeleteGlobalSecondaryIndexAction{IndexName: aws.String("byg")}}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []*types.TableDescription{out.TableDescription, wantStatus(t, c, "tgd", types.TableStatusUpdating)} {
		if d.TableStatus != types.TableStatusUpdating || len(d.GlobalSecondaryIndexes) != 1 || d.GlobalSecondaryIndexes[0].IndexStatus != types.IndexStatusDeleting {
			t.Fatalf("after the Delete: table %s, GSIs %+v; want UPDATING, byg DELETING", d.TableStatus, d.GlobalSecondaryIndexes)
		}
	}
	_, err = c.Query(bg(), &dynamodb.QueryInput{TableName: aws.String("tgd"), IndexName: aws.String("byg"),
		KeyConditionExpression:    aws.String("g = :v"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":v": S("x")}})
	wantErr(t, err, "ValidationException", "The table does not have the specified index: byg")
	_, err = c.DeleteTable(bg(), &dynamodb.DeleteTableInput{TableName: aws.String("tgd")})
	wantErr(t, err, "ResourceInUseException", "Attempt to change a resource which is still in use: Cannot delete table while indexes are being created, updated, or deleted.")
	_, err = c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String("tgd"),
		ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(2), WriteCapacityUnits: aws.Int64(2)}})
	wantErr(t, err, "ResourceInUseException", "Attempt to change a resource which is still in use: Can't change table IOPS when an index is being deleted. Table: tgd Indexes: [byg]")
	if got := get(t, c, "tgd", item{"pk": S("a")}); got == nil {
		t.Fatal("item not found while the index is DELETING")
	}

	advance(transientDelay)
	if d := wantStatus(t, c, "tgd", types.TableStatusActive); len(d.GlobalSecondaryIndexes) != 0 {
		t.Fatalf("GSIs once the deletion ended: %+v", d.GlobalSecondaryIndexes)
	}
	if _, err := c.DeleteTable(bg(), &dynamodb.DeleteTableInput{TableName: aws.String("tgd")}); err != nil {
		t.Fatalf("DeleteTable once the index is gone: %v", err)
	}
}

// A GSI throughput Update: the index is UPDATING for the delay while the
// table stays ACTIVE [ack] DDB-TABLE-148, -159 (dynalite's updateTable
// sets the index UPDATING too); DeleteTable meanwhile: DDB-TABLE-150 is
// recorded only through DeleteTable's ACTIVE path, which dynago does not
// check yet. A second Update of the index: no recording found; chose
// DDB-TABLE-376's wording with "updated".
func TestTransientIndexUpdating(t *testing.T) {
	c, advance := startTransient(t)
	createWithGSI(t, c, advance, "tgu")
	update := func() error {
		_, err := c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String("tgu"),
			GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Update: &types.UpdateGlobalSecondaryIndexAction{
				IndexName:             aws.String("byg"),
				ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(3), WriteCapacityUnits: aws.Int64(3)}}}}})
		return err
	}
	if err := update(); err != nil {
		t.Fatal(err)
	}
	d := wantStatus(t, c, "tgu", types.TableStatusActive)
	if g := d.GlobalSecondaryIndexes[0]; g.IndexStatus != types.IndexStatusUpdating || *g.ProvisionedThroughput.ReadCapacityUnits != 3 {
		t.Fatalf("GSI after the Update: %s, %+v", g.IndexStatus, g.ProvisionedThroughput)
	}
	wantErr(t, update(), "ResourceInUseException", "Attempt to change a resource which is still in use: Index is being updated. Table: tgu Index: byg")
	advance(transientDelay)
	d = wantStatus(t, c, "tgu", types.TableStatusActive)
	if g := d.GlobalSecondaryIndexes[0]; g.IndexStatus != types.IndexStatusActive {
		t.Fatalf("GSI once the update ended: %s", g.IndexStatus)
	}
}

// Tags and Time to Live during a transition [ack]: TagResource of a
// CREATING table "Table is being created" (DDB-TABLE-101), of a DELETING
// one "Table is being deleted" (DDB-TABLE-104); UntagResource of a
// CREATING table succeeds and ListTagsOfResource lists nothing until
// ACTIVE (DDB-TABLE-101); both of a DELETING table are
// ResourceNotFoundException (DDB-TABLE-104); an UPDATING table admits
// tags (DDB-TABLE-104) and UpdateTimeToLive (DDB-TABLE-116).
// UpdateTimeToLive of a CREATING or DELETING table: no recording found;
// chose DeleteTable's ResourceInUseException. dynago has no
// UpdateContinuousBackups.
func TestTransientOtherChanges(t *testing.T) {
	c, advance := startTransient(t)
	out, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{
		TableName: aws.String("tox"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: defs("pk", "S"),
		KeySchema:            ks("pk"),
		Tags:                 []types.Tag{{Key: aws.String("k0"), Value: aws.String("v0")}},
	})
	if err != nil {
		t.Fatal(err)
	}
	arn := out.TableDescription.TableArn
	tag := func() error {
		_, err := c.TagResource(bg(), &dynamodb.TagResourceInput{ResourceArn: arn, Tags: []types.Tag{{Key: aws.String("k"), Value: aws.String("v")}}})
		return err
	}
	untag := func() error {
		_, err := c.UntagResource(bg(), &dynamodb.UntagResourceInput{ResourceArn: arn, TagKeys: []string{"nope"}})
		return err
	}
	listTags := func() ([]types.Tag, error) {
		out, err := c.ListTagsOfResource(bg(), &dynamodb.ListTagsOfResourceInput{ResourceArn: arn})
		if err != nil {
			return nil, err
		}
		return out.Tags, nil
	}
	ttl := func(on bool) error {
		_, err := c.UpdateTimeToLive(bg(), &dynamodb.UpdateTimeToLiveInput{TableName: aws.String("tox"),
			TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String("exp"), Enabled: aws.Bool(on)}})
		return err
	}

	wantErr(t, tag(), "ResourceInUseException", "Attempt to change a resource which is still in use: Table is being created: tox")
	if err := untag(); err != nil {
		t.Fatalf("UntagResource while CREATING: %v", err)
	}
	if tags, err := listTags(); err != nil || len(tags) != 0 {
		t.Fatalf("ListTagsOfResource while CREATING: %v, %v", tags, err)
	}
	wantErr(t, ttl(true), "ResourceInUseException", "Attempt to change a resource which is still in use: Table is being created: tox")

	advance(transientDelay)
	if tags, err := listTags(); err != nil || len(tags) != 1 {
		t.Fatalf("ListTagsOfResource once ACTIVE: %v, %v", tags, err)
	}
	if _, err := c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String("tox"), DeletionProtectionEnabled: aws.Bool(false)}); err != nil {
		t.Fatal(err)
	}
	wantStatus(t, c, "tox", types.TableStatusUpdating)
	if err := tag(); err != nil {
		t.Fatalf("TagResource while UPDATING: %v", err)
	}
	if err := ttl(true); err != nil {
		t.Fatalf("UpdateTimeToLive while UPDATING: %v", err)
	}

	advance(transientDelay)
	if _, err := c.DeleteTable(bg(), &dynamodb.DeleteTableInput{TableName: aws.String("tox")}); err != nil {
		t.Fatal(err)
	}
	wantErr(t, tag(), "ResourceInUseException", "Attempt to change a resource which is still in use: Table is being deleted: tox")
	notFound := "Requested resource not found: ResourceArn: " + *arn + " not found"
	wantErr(t, untag(), "ResourceNotFoundException", notFound)
	_, err = listTags()
	wantErr(t, err, "ResourceNotFoundException", notFound)
	wantErr(t, ttl(false), "ResourceInUseException", "Attempt to change a resource which is still in use: Table is being deleted: tox")
}
