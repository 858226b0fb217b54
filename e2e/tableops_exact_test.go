package e2e

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/local"
	"github.com/dynago/dynago/testserver"
)

// Table operations to the letter, second part: DeleteTable while an
// index is in flight, UpdateTable's one-change-a-call rules, the GSI
// Update rules, and Time to Live's answers.
//
// "The lab" is the DynamoDB lab of the ack-api-quirks project, whose
// findings (DDB-TABLE-nnn) were recorded against DynamoDB in us-east-1
// and us-west-2 on 2026-10-08/09; "Alternator" is ScyllaDB's
// test/alternator, run against DynamoDB.

const msgIndexesInFlightWant = "Attempt to change a resource which is still in use: Cannot delete table while indexes are being created, updated, or deleted."

// TestTableOpsDeleteWhileIndexInFlight: DeleteTable is refused while a
// GSI is CREATING, UPDATING or DELETING, even when the table itself is
// ACTIVE (the lab, DDB-TABLE-150: "every DeleteTable call ... failed"
// during the backfill with TableStatus ACTIVE, and while an index was
// UPDATING; -376 for DELETING, pinned in transient_test.go).
func TestTableOpsDeleteWhileIndexInFlight(t *testing.T) {
	t.Run("index UPDATING, table ACTIVE", func(t *testing.T) {
		c, advance := startTransient(t)
		createWithGSI(t, c, advance, "inflight")
		_, err := c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String("inflight"),
			GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Update: &types.UpdateGlobalSecondaryIndexAction{
				IndexName:             aws.String("byg"),
				ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(2), WriteCapacityUnits: aws.Int64(2)}}}}})
		if err != nil {
			t.Fatal(err)
		}
		d := wantStatus(t, c, "inflight", types.TableStatusActive)
		if s := d.GlobalSecondaryIndexes[0].IndexStatus; s != types.IndexStatusUpdating {
			t.Fatalf("GSI %s, want UPDATING", s)
		}
		_, err = c.DeleteTable(bg(), &dynamodb.DeleteTableInput{TableName: aws.String("inflight")})
		wantErr(t, err, "ResourceInUseException", msgIndexesInFlightWant)
		wantStatus(t, c, "inflight", types.TableStatusActive)
		advance(transientDelay)
		if _, err := c.DeleteTable(bg(), &dynamodb.DeleteTableInput{TableName: aws.String("inflight")}); err != nil {
			t.Fatalf("DeleteTable once the index is ACTIVE: %v", err)
		}
	})

	t.Run("index CREATING, table UPDATING", func(t *testing.T) {
		c, advance := startTransient(t)
		createHash(t, c, "growing", types.ScalarAttributeTypeS)
		advance(transientDelay)
		createGSIOn(t, c, "growing")
		wantStatus(t, c, "growing", types.TableStatusUpdating)
		_, err := c.DeleteTable(bg(), &dynamodb.DeleteTableInput{TableName: aws.String("growing")})
		wantErr(t, err, "ResourceInUseException", msgIndexesInFlightWant)
	})

	t.Run("index backfilling, table ACTIVE", func(t *testing.T) {
		// The backfill of a few thousand items runs in the background
		// while DeleteTable arrives; a run where it ended first proves
		// nothing, so try again with a fresh table, a few times.
		_, c := start(t)
		for attempt := range 4 {
			name := fmt.Sprint("backfilling", attempt)
			createHash(t, c, name, types.ScalarAttributeTypeS)
			fill(t, c, name, 3000*(attempt+1))
			out := createGSIOn(t, c, name)
			if g := out.GlobalSecondaryIndexes[0]; g.IndexStatus != types.IndexStatusCreating {
				t.Fatalf("UpdateTable answered the GSI %s", g.IndexStatus)
			}
			_, err := c.DeleteTable(bg(), &dynamodb.DeleteTableInput{TableName: aws.String(name)})
			if err == nil {
				continue // the backfill had ended: the table is gone
			}
			wantErr(t, err, "ResourceInUseException", msgIndexesInFlightWant)
			if d := describe(t, c, name); d.TableStatus != types.TableStatusActive {
				t.Fatalf("table %s after the refused DeleteTable", d.TableStatus)
			}
			return
		}
		t.Fatal("DeleteTable was never refused while the index backfilled")
	})
}

// createGSIOn adds GSI "byg" on g (S) to table and returns the answer.
func createGSIOn(t *testing.T, c local.API, table string) *types.TableDescription {
	t.Helper()
	out, err := c.UpdateTable(bg(), &dynamodb.UpdateTableInput{
		TableName:            aws.String(table),
		AttributeDefinitions: defs("g", "S"),
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{
			IndexName:  aws.String("byg"),
			KeySchema:  ks("g"),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
		}}},
	})
	if err != nil {
		t.Fatalf("UpdateTable creating byg: %v", err)
	}
	return out.TableDescription
}

// fill writes n items with a g attribute to table, 25 a call.
func fill(t *testing.T, c local.API, table string, n int) {
	t.Helper()
	for i := 0; i < n; i += 25 {
		var reqs []types.WriteRequest
		for j := i; j < min(i+25, n); j++ {
			reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: item{
				"pk": S(fmt.Sprint("p", j)), "g": S(fmt.Sprint("g", j%7)), "pad": S(strings.Repeat("x", 200))}}})
		}
		out, err := c.BatchWriteItem(bg(), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{table: reqs}})
		if err != nil || len(out.UnprocessedItems) > 0 {
			t.Fatalf("BatchWriteItem: %v, %d unprocessed", err, len(out.UnprocessedItems))
		}
	}
}

// TestTableOpsUpdateOneChangeExact: UpdateTable takes one change a call.
// The lab, DDB-TABLE-433 and -382 (every pair of members sent to idle
// PROVISIONED and PAY_PER_REQUEST tables, nothing applied when refused,
// SSE named before TableClass before DeletionProtection), -174 (a GSI
// Create with another member), -359 (an empty GlobalSecondaryIndexUpdates
// beside a change), and -442's catalogue for the full texts.
func TestTableOpsUpdateOneChangeExact(t *testing.T) {
	_, c := start(t)
	pt := func(r, w int64) *types.ProvisionedThroughput {
		return &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(r), WriteCapacityUnits: aws.Int64(w)}
	}
	_, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{
		TableName:             aws.String("prov"),
		AttributeDefinitions:  defs("pk", "S", "g", "S"),
		KeySchema:             ks("pk"),
		ProvisionedThroughput: pt(10, 10),
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("gsi1"), KeySchema: ks("g"),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}, ProvisionedThroughput: pt(2, 2)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	createHash(t, c, "ppr", types.ScalarAttributeTypeS)

	const prefix = "One or more parameter values were invalid: "
	const (
		sse      = prefix + "Server-Side Encryption modification must be the only operation in the request"
		class    = prefix + "TableClass modification must be the only operation in the request"
		dp       = prefix + "DeletionProtection modification must be the only operation in the request"
		odt      = prefix + "OnDemandThroughput can only be combined with BillingMode in an UpdateTable request"
		streamIO = prefix + "You cannot modify stream status while updating table IOPS"
		indexIO  = prefix + "You cannot create or delete index while updating table IOPS"
		indexSt  = prefix + "You cannot create or delete index while changing stream status"
		empty    = prefix + "List of GlobalSecondaryIndexUpdates is empty"
	)
	on := &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewImage}
	enc := &types.SSESpecification{Enabled: aws.Bool(true), SSEType: types.SSETypeKms}
	odtv := &types.OnDemandThroughput{MaxReadRequestUnits: aws.Int64(100)}
	create := []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{
		IndexName: aws.String("gsi2"), KeySchema: ks("g"),
		Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}, ProvisionedThroughput: pt(1, 1)}}}
	drop := []types.GlobalSecondaryIndexUpdate{{Delete: &types.DeleteGlobalSecondaryIndexAction{IndexName: aws.String("gsi1")}}}

	for _, tc := range []struct {
		name string
		in   dynamodb.UpdateTableInput
		msg  string
	}{
		{"DP and SSE", dynamodb.UpdateTableInput{TableName: aws.String("prov"), DeletionProtectionEnabled: aws.Bool(true), SSESpecification: enc}, sse},
		{"DP and TableClass", dynamodb.UpdateTableInput{TableName: aws.String("prov"), DeletionProtectionEnabled: aws.Bool(true), TableClass: types.TableClassStandardInfrequentAccess}, class},
		{"SSE and TableClass", dynamodb.UpdateTableInput{TableName: aws.String("prov"), SSESpecification: enc, TableClass: types.TableClassStandardInfrequentAccess}, sse},
		{"DP and throughput", dynamodb.UpdateTableInput{TableName: aws.String("prov"), DeletionProtectionEnabled: aws.Bool(true), ProvisionedThroughput: pt(11, 11)}, dp},
		{"DP and BillingMode", dynamodb.UpdateTableInput{TableName: aws.String("prov"), DeletionProtectionEnabled: aws.Bool(true), BillingMode: types.BillingModePayPerRequest}, dp},
		{"DP and stream", dynamodb.UpdateTableInput{TableName: aws.String("prov"), DeletionProtectionEnabled: aws.Bool(true), StreamSpecification: on}, dp},
		{"TableClass and stream", dynamodb.UpdateTableInput{TableName: aws.String("prov"), TableClass: types.TableClassStandardInfrequentAccess, StreamSpecification: on}, class},
		{"SSE and throughput", dynamodb.UpdateTableInput{TableName: aws.String("prov"), SSESpecification: enc, ProvisionedThroughput: pt(11, 11)}, sse},
		{"OnDemandThroughput and stream", dynamodb.UpdateTableInput{TableName: aws.String("ppr"), OnDemandThroughput: odtv, StreamSpecification: on}, odt},
		{"DP and OnDemandThroughput", dynamodb.UpdateTableInput{TableName: aws.String("ppr"), DeletionProtectionEnabled: aws.Bool(true), OnDemandThroughput: odtv}, dp},
		{"throughput and stream", dynamodb.UpdateTableInput{TableName: aws.String("prov"), ProvisionedThroughput: pt(11, 11), StreamSpecification: on}, streamIO},
		{"PROVISIONED, throughput and stream", dynamodb.UpdateTableInput{TableName: aws.String("prov"), BillingMode: types.BillingModeProvisioned,
			ProvisionedThroughput: pt(11, 11), StreamSpecification: on}, streamIO},
		{"GSI Create and throughput", dynamodb.UpdateTableInput{TableName: aws.String("prov"), AttributeDefinitions: defs("g", "S"),
			GlobalSecondaryIndexUpdates: create, ProvisionedThroughput: pt(11, 11)}, indexIO},
		{"GSI Delete and throughput", dynamodb.UpdateTableInput{TableName: aws.String("prov"), GlobalSecondaryIndexUpdates: drop, ProvisionedThroughput: pt(11, 11)}, indexIO},
		{"GSI Create and stream", dynamodb.UpdateTableInput{TableName: aws.String("prov"), AttributeDefinitions: defs("g", "S"),
			GlobalSecondaryIndexUpdates: create, StreamSpecification: on}, indexSt},
		{"GSI Create and DP", dynamodb.UpdateTableInput{TableName: aws.String("prov"), AttributeDefinitions: defs("g", "S"),
			GlobalSecondaryIndexUpdates: create, DeletionProtectionEnabled: aws.Bool(true)}, dp},
		{"GSI Create and TableClass", dynamodb.UpdateTableInput{TableName: aws.String("prov"), AttributeDefinitions: defs("g", "S"),
			GlobalSecondaryIndexUpdates: create, TableClass: types.TableClassStandardInfrequentAccess}, class},
		{"empty GSI updates and DP", dynamodb.UpdateTableInput{TableName: aws.String("prov"), DeletionProtectionEnabled: aws.Bool(true),
			GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{}}, empty},
		{"empty GSI updates and PAY_PER_REQUEST again", dynamodb.UpdateTableInput{TableName: aws.String("ppr"), BillingMode: types.BillingModePayPerRequest,
			GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{}}, empty},
		{"empty GSI updates and OnDemandThroughput", dynamodb.UpdateTableInput{TableName: aws.String("ppr"), OnDemandThroughput: odtv,
			GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{}}, empty},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.UpdateTable(bg(), &tc.in)
			wantValidation(t, err, tc.msg)
		})
	}

	// The lab, DDB-TABLE-015 and -070: a request that changes nothing is
	// refused before the table is looked up; one that changes something
	// is ResourceNotFoundException on a missing table.
	t.Run("missing table", func(t *testing.T) {
		_, err := c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String("nosuch")})
		wantValidation(t, err, "At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, GlobalSecondaryIndexUpdates, SSESpecification, ReplicaUpdates, MultiAccountReplicaReady, ReplicaTransitRoleArn, MultiRegionConsistency, DeletionProtectionEnabled, OnDemandThroughput, WarmThroughput or TableClass is required")
		_, err = c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String("nosuch"), DeletionProtectionEnabled: aws.Bool(true)})
		wantErr(t, err, "ResourceNotFoundException", "Requested resource not found: Table: nosuch not found")
	})

	// Nothing of a refused call was applied.
	d := describe(t, c, "prov")
	if aws.ToBool(d.DeletionProtectionEnabled) || d.StreamSpecification != nil || d.SSEDescription != nil || d.TableClassSummary != nil ||
		*d.ProvisionedThroughput.ReadCapacityUnits != 10 || len(d.GlobalSecondaryIndexes) != 1 {
		t.Fatalf("a refused UpdateTable changed the table: %+v", d)
	}

	// The pairs DynamoDB takes (DDB-TABLE-433, -382): BillingMode
	// PAY_PER_REQUEST with a stream change, and with OnDemandThroughput;
	// DDB-TABLE-174: a GSI Create with a GSI Update; DDB-TABLE-456: an
	// empty OnDemandThroughput counts as absent.
	t.Run("accepted pairs", func(t *testing.T) {
		if _, err := c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String("ppr"),
			DeletionProtectionEnabled: aws.Bool(false), OnDemandThroughput: &types.OnDemandThroughput{}}); err != nil {
			t.Fatalf("an empty OnDemandThroughput beside DeletionProtectionEnabled: %v", err)
		}
		out, err := c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String("ppr"),
			BillingMode: types.BillingModePayPerRequest, OnDemandThroughput: odtv})
		if err != nil {
			t.Fatal(err)
		}
		if o := out.TableDescription.OnDemandThroughput; o == nil || aws.ToInt64(o.MaxReadRequestUnits) != 100 {
			t.Fatalf("OnDemandThroughput %+v", o)
		}
		_, err = c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String("prov"), AttributeDefinitions: defs("g", "S"),
			GlobalSecondaryIndexUpdates: append(create, types.GlobalSecondaryIndexUpdate{Update: &types.UpdateGlobalSecondaryIndexAction{
				IndexName: aws.String("gsi1"), ProvisionedThroughput: pt(3, 3)}})})
		if err != nil {
			t.Fatal(err)
		}
		waitIndexActive(t, c, "prov")
		out, err = c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String("prov"),
			BillingMode: types.BillingModePayPerRequest, StreamSpecification: on})
		if err != nil {
			t.Fatal(err)
		}
		d := out.TableDescription
		if d.BillingModeSummary == nil || d.BillingModeSummary.BillingMode != types.BillingModePayPerRequest ||
			d.StreamSpecification == nil || !aws.ToBool(d.StreamSpecification.StreamEnabled) {
			t.Fatalf("after PAY_PER_REQUEST with a stream: %+v, %+v", d.BillingModeSummary, d.StreamSpecification)
		}
	})
}

// TestTableOpsThroughputRulesExact: the throughput rules of UpdateTable
// for the table and its GSIs. The lab, DDB-TABLE-164 (BillingMode
// PROVISIONED alone on a PROVISIONED table; a GSI's throughput sent
// again) and -152 (a GSI throughput Update on an on-demand table).
func TestTableOpsThroughputRulesExact(t *testing.T) {
	_, c := start(t)
	pt := func(r, w int64) *types.ProvisionedThroughput {
		return &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(r), WriteCapacityUnits: aws.Int64(w)}
	}
	for _, name := range []string{"prov", "ppr"} {
		in := &dynamodb.CreateTableInput{
			TableName:            aws.String(name),
			AttributeDefinitions: defs("pk", "S", "g", "S"),
			KeySchema:            ks("pk"),
			GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("gsi1"), KeySchema: ks("g"),
				Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}}},
		}
		if name == "prov" {
			in.ProvisionedThroughput, in.GlobalSecondaryIndexes[0].ProvisionedThroughput = pt(1, 1), pt(2, 2)
		} else {
			in.BillingMode = types.BillingModePayPerRequest
		}
		if _, err := c.CreateTable(bg(), in); err != nil {
			t.Fatal(err)
		}
	}
	gsiUpdate := func(table string, p *types.ProvisionedThroughput) error {
		_, err := c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String(table),
			GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Update: &types.UpdateGlobalSecondaryIndexAction{
				IndexName: aws.String("gsi1"), ProvisionedThroughput: p}}}})
		return err
	}

	_, err := c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String("prov"), BillingMode: types.BillingModeProvisioned})
	wantValidation(t, err, "One or more parameter values were invalid: ProvisionedThroughput must be specified when BillingMode is PROVISIONED")
	// The recording quotes the text up to "Requested ReadCapacityUnits:
	// 2. Current WriteCapacityUnits"; the rest is the table's wording.
	wantValidation(t, gsiUpdate("prov", pt(2, 2)),
		"The provisioned throughput for the index gsi1 will not change. The requested value equals the current value. "+
			"Current ReadCapacityUnits provisioned for index gsi1: 2. Requested ReadCapacityUnits: 2. "+
			"Current WriteCapacityUnits provisioned for index gsi1: 2. Requested WriteCapacityUnits: 2. "+
			"Refer to the Amazon DynamoDB Developer Guide for current limits and how to request higher limits.")
	// A change of one of the two is taken.
	if err := gsiUpdate("prov", pt(2, 3)); err != nil {
		t.Fatal(err)
	}
	wantValidation(t, gsiUpdate("ppr", pt(2, 2)),
		"One or more parameter values were invalid: The only Updates for index: gsi1 when TableThroughputMode is PAY_PER_REQUEST can be to OnDemandThroughput, WarmThroughput")
}

// TestTableOpsTimeToLiveExact: UpdateTimeToLive's refusals with their
// texts, and DescribeTimeToLive of a table not ACTIVE.
func TestTableOpsTimeToLiveExact(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "ttlx", types.ScalarAttributeTypeS)

	// The lab, DDB-TABLE-442 (catalogue) and -147; Alternator
	// test_ttl_disable_errors: disabling what was never enabled.
	_, err := updateTTL(c, "ttlx", "exp", false)
	wantValidation(t, err, "TimeToLive is already disabled")
	// Alternator test_update_ttl_errors: the name's length, 1 to 255.
	_, err = updateTTL(c, "ttlx", strings.Repeat("x", 256), true)
	wantValidation(t, err, "1 validation error detected: Value '"+strings.Repeat("x", 256)+
		"' at 'timeToLiveSpecification.attributeName' failed to satisfy constraint: Member must have length less than or equal to 255")
	if _, err := updateTTL(c, "ttlx", strings.Repeat("x", 255), true); err != nil {
		t.Fatalf("a name of 255: %v", err)
	}
	// The lab, DDB-TABLE-442, answered live in both regions: enabling
	// another attribute while one is enabled; Alternator
	// test_ttl_disable_errors: disabling with another name. Both come
	// before the cooldown (DDB-TABLE-143).
	_, err = updateTTL(c, "ttlx", "other", true)
	wantValidation(t, err, "TimeToLive is active on a different AttributeName: current AttributeName is "+strings.Repeat("x", 255))
	_, err = updateTTL(c, "ttlx", "dog", false)
	wantValidation(t, err, "TimeToLive is active on a different AttributeName: current AttributeName is "+strings.Repeat("x", 255))

	// The lab, DDB-TABLE-442, answered live in both regions:
	// DescribeTimeToLive of a CREATING table; the catalogue gives the
	// DELETING text alike.
	tc, advance := startTransient(t)
	createHash(t, tc, "young", types.ScalarAttributeTypeS)
	_, err = tc.DescribeTimeToLive(bg(), &dynamodb.DescribeTimeToLiveInput{TableName: aws.String("young")})
	wantValidation(t, err, "Cannot describe time to live while table is in CREATING state: Current table state is CREATING")
	advance(transientDelay)
	if d := describeTTL(t, tc, "young"); d.TimeToLiveStatus != types.TimeToLiveStatusDisabled {
		t.Fatalf("once ACTIVE: %s", d.TimeToLiveStatus)
	}
	if _, err := tc.DeleteTable(bg(), &dynamodb.DeleteTableInput{TableName: aws.String("young")}); err != nil {
		t.Fatal(err)
	}
	_, err = tc.DescribeTimeToLive(bg(), &dynamodb.DescribeTimeToLiveInput{TableName: aws.String("young")})
	wantValidation(t, err, "Cannot describe time to live while table is in DELETING state: Current table state is DELETING")
	advance(transientDelay)
	_, err = tc.DescribeTimeToLive(bg(), &dynamodb.DescribeTimeToLiveInput{TableName: aws.String("young")})
	wantErr(t, err, "ResourceNotFoundException", "Requested resource not found: Table: young not found")
}

// TestTableOpsIndexUpdatesExact: GlobalSecondaryIndexUpdates against an
// on-demand and a provisioned table. The lab: DDB-TABLE-169 (the 21st
// GSI is a quota through UpdateTable), -152 (a Create without throughput
// on a PROVISIONED table), -456 (an Update with nothing to change), -162
// (AttributeDefinitions beside another change is ignored).
func TestTableOpsIndexUpdatesExact(t *testing.T) {
	_, c := start(t)
	pt := func(r, w int64) *types.ProvisionedThroughput {
		return &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(r), WriteCapacityUnits: aws.Int64(w)}
	}
	var gsis []types.GlobalSecondaryIndex
	for i := range 20 {
		gsis = append(gsis, types.GlobalSecondaryIndex{IndexName: aws.String(fmt.Sprintf("g%02d", i)), KeySchema: ks("g"),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}})
	}
	if _, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{TableName: aws.String("twenty"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: defs("pk", "S", "g", "S"), KeySchema: ks("pk"), GlobalSecondaryIndexes: gsis}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{TableName: aws.String("prov"), ProvisionedThroughput: pt(1, 1),
		AttributeDefinitions: defs("pk", "S"), KeySchema: ks("pk")}); err != nil {
		t.Fatal(err)
	}
	newGSI := func(name string, p *types.ProvisionedThroughput) []types.GlobalSecondaryIndexUpdate {
		return []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{IndexName: aws.String(name), KeySchema: ks("h"),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}, ProvisionedThroughput: p}}}
	}
	update := func(table string, u types.UpdateGlobalSecondaryIndexAction) error {
		_, err := c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String(table),
			GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Update: &u}}})
		return err
	}

	_, err := c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String("twenty"), AttributeDefinitions: defs("h", "S"),
		GlobalSecondaryIndexUpdates: newGSI("g20", nil)})
	wantErr(t, err, "LimitExceededException", "Subscriber limit exceeded: Number of global secondary indexes exceeds per-table limit of 20")
	_, err = c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String("prov"), AttributeDefinitions: defs("h", "S"),
		GlobalSecondaryIndexUpdates: newGSI("nopt", nil)})
	wantValidation(t, err, "One or more parameter values were invalid: Both ReadCapacityUnits and WriteCapacityUnits must be specified for index: nopt")

	const onlyODT = "One or more parameter values were invalid: The only Updates for index: g00 when TableThroughputMode is PAY_PER_REQUEST can be to OnDemandThroughput, WarmThroughput"
	wantValidation(t, update("twenty", types.UpdateGlobalSecondaryIndexAction{IndexName: aws.String("g00")}), onlyODT)
	wantValidation(t, update("twenty", types.UpdateGlobalSecondaryIndexAction{IndexName: aws.String("g00"),
		OnDemandThroughput: &types.OnDemandThroughput{}}), onlyODT)
	if err := update("twenty", types.UpdateGlobalSecondaryIndexAction{IndexName: aws.String("g00"),
		OnDemandThroughput: &types.OnDemandThroughput{MaxReadRequestUnits: aws.Int64(50)}}); err != nil {
		t.Fatalf("an OnDemandThroughput Update: %v", err)
	}

	// -442's catalogue: a Create without AttributeDefinitions; an Update
	// naming an LSI.
	_, err = c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String("prov"), GlobalSecondaryIndexUpdates: newGSI("nodefs", pt(1, 1))})
	wantValidation(t, err, "One or more parameter values were invalid: AttributeDefinitions is not specified for index: nodefs")
	if _, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{TableName: aws.String("withlsi"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: defs("pk", "S", "sk", "S", "l", "S"), KeySchema: ks("pk", "sk"),
		LocalSecondaryIndexes: []types.LocalSecondaryIndex{{IndexName: aws.String("bylsi"), KeySchema: ks("pk", "l"),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}}}}); err != nil {
		t.Fatal(err)
	}
	wantValidation(t, update("withlsi", types.UpdateGlobalSecondaryIndexAction{IndexName: aws.String("bylsi"),
		OnDemandThroughput: &types.OnDemandThroughput{MaxReadRequestUnits: aws.Int64(50)}}),
		"Cannot update an index that is not a GlobalSecondaryIndex: bylsi")

	// DDB-TABLE-162: a stale or type-changing definition beside another
	// change is taken and ignored.
	if _, err := c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String("prov"),
		AttributeDefinitions: defs("pk", "N", "stale", "S"), DeletionProtectionEnabled: aws.Bool(true)}); err != nil {
		t.Fatal(err)
	}
	d := describe(t, c, "prov")
	deepEqual(t, "AttributeDefinitions", d.AttributeDefinitions, defs("pk", "S"))
	if !aws.ToBool(d.DeletionProtectionEnabled) {
		t.Fatal("DeletionProtectionEnabled not applied")
	}
}

// TestTableOpsCreateIndexesExact: CreateTable's index rules not pinned
// elsewhere. The lab: DDB-TABLE-043 (empty index lists refused, an empty
// Tags list taken), -129 (six LSIs; a GSI named like the table, one
// keyed like the table, an LSI on the table's sort key are taken), -126
// (a repeated NonKeyAttribute; one naming the table key is taken), -129
// (a GSI named like an LSI), -128
// (a GSI throughput on an on-demand table).
func TestTableOpsCreateIndexesExact(t *testing.T) {
	_, c := start(t)
	base := func(name string) *dynamodb.CreateTableInput {
		return &dynamodb.CreateTableInput{TableName: aws.String(name), BillingMode: types.BillingModePayPerRequest,
			AttributeDefinitions: defs("pk", "S", "sk", "S", "a", "S"), KeySchema: ks("pk", "sk")}
	}
	lsi := func(name, rangeKey string) types.LocalSecondaryIndex {
		return types.LocalSecondaryIndex{IndexName: aws.String(name), KeySchema: ks("pk", rangeKey),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}}
	}
	gsi := func(name string, k []types.KeySchemaElement, p *types.Projection) types.GlobalSecondaryIndex {
		return types.GlobalSecondaryIndex{IndexName: aws.String(name), KeySchema: k, Projection: p}
	}
	all := &types.Projection{ProjectionType: types.ProjectionTypeAll}
	const prefix = "One or more parameter values were invalid: "
	for _, tc := range []struct {
		name string
		edit func(in *dynamodb.CreateTableInput)
		msg  string // "" when taken
	}{
		{"empty GSI list", func(in *dynamodb.CreateTableInput) {
			in.AttributeDefinitions = defs("pk", "S", "sk", "S")
			in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{}
		}, prefix + "List of GlobalSecondaryIndexes is empty"},
		{"empty LSI list", func(in *dynamodb.CreateTableInput) {
			in.AttributeDefinitions = defs("pk", "S", "sk", "S")
			in.LocalSecondaryIndexes = []types.LocalSecondaryIndex{}
		}, prefix + "List of LocalSecondaryIndexes is empty"},
		{"six LSIs", func(in *dynamodb.CreateTableInput) {
			for i := range 6 {
				in.LocalSecondaryIndexes = append(in.LocalSecondaryIndexes, lsi(fmt.Sprint("lsi", i), "a"))
			}
		}, prefix + "Number of LocalSecondaryIndexes exceeds per-table limit of 5"},
		{"repeated NonKeyAttribute", func(in *dynamodb.CreateTableInput) {
			in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{gsi("gsi", ks("a"),
				&types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{"x", "y", "x"}})}
		}, prefix + "Duplicate element in NonKeyAttributes: x"},
		{"GSI named like an LSI", func(in *dynamodb.CreateTableInput) {
			in.LocalSecondaryIndexes = []types.LocalSecondaryIndex{lsi("dup", "a")}
			in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{gsi("dup", ks("a"), all)}
		}, prefix + "Duplicate index name: dup"},
		{"GSI throughput on demand", func(in *dynamodb.CreateTableInput) {
			g := gsi("g-a", ks("a"), all)
			g.ProvisionedThroughput = &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(1), WriteCapacityUnits: aws.Int64(1)}
			in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{g}
		}, prefix + "ProvisionedThroughput should not be specified for index: g-a when BillingMode is PAY_PER_REQUEST"},
		{"GSI and LSI shapes taken", func(in *dynamodb.CreateTableInput) {
			in.LocalSecondaryIndexes = []types.LocalSecondaryIndex{lsi("onsk", "sk"), lsi("ona", "a")}
			in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{
				gsi("taken", ks("pk", "sk"), all),
				gsi("tablekey", ks("a"), &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{"pk", "a", "z"}}),
			}
			in.Tags = []types.Tag{}
		}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := base("taken")
			tc.edit(in)
			_, err := c.CreateTable(bg(), in)
			if tc.msg != "" {
				wantValidation(t, err, tc.msg)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			d := describe(t, c, "taken")
			if len(d.GlobalSecondaryIndexes) != 2 || len(d.LocalSecondaryIndexes) != 2 {
				t.Fatalf("indexes: %d GSIs, %d LSIs", len(d.GlobalSecondaryIndexes), len(d.LocalSecondaryIndexes))
			}
		})
	}
}

// TestTableOpsEncryptionExact: SSESpecification's rules in CreateTable
// and UpdateTable. The SSEType enum and the AES256 text are DynamoDB's
// answers quoted in a public project's notes; the rest is the lab:
// DDB-TABLE-044 ({SSEType: KMS} alone enables KMS, {} does not), -442's
// catalogue (Enabled false with a type or a key; a re-send that changes
// nothing: the default encryption again, or the table's own key ARN)
// and -036/-079 (SSEDescription is absent once disabled).
func TestTableOpsEncryptionExact(t *testing.T) {
	_, c := start(t)
	create := func(name string, s *types.SSESpecification) (*types.TableDescription, error) {
		out, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{TableName: aws.String(name), BillingMode: types.BillingModePayPerRequest,
			AttributeDefinitions: defs("pk", "S"), KeySchema: ks("pk"), SSESpecification: s})
		if err != nil {
			return nil, err
		}
		return out.TableDescription, nil
	}
	const prefix = "One or more parameter values were invalid: "
	for _, tc := range []struct {
		name string
		sse  *types.SSESpecification
		msg  string
	}{
		{"unknown type", &types.SSESpecification{Enabled: aws.Bool(true), SSEType: "AES-256"},
			"1 validation error detected: Value 'AES-256' at 'sSESpecification.sSEType' failed to satisfy constraint: Member must satisfy enum value set: [AES256, KMS]"},
		{"AES256", &types.SSESpecification{Enabled: aws.Bool(true), SSEType: types.SSETypeAes256}, prefix + "SSEType AES256 is not supported"},
		{"type while disabled", &types.SSESpecification{Enabled: aws.Bool(false), SSEType: types.SSETypeKms}, prefix + "SSEType can not be specified if Enabled is false"},
		{"key while disabled", &types.SSESpecification{Enabled: aws.Bool(false), KMSMasterKeyId: aws.String("k")}, prefix + "KMSMasterKeyId can not be specified if Enabled is false"},
		// The lab's message catalogue, DDB-TABLE-442.
		{"key without type", &types.SSESpecification{Enabled: aws.Bool(true), KMSMasterKeyId: aws.String("k")}, prefix + "SSEType KMS is required if KMSMasterKeyId is specified"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := create("sse", tc.sse)
			wantValidation(t, err, tc.msg)
		})
	}

	d, err := create("kmsonly", &types.SSESpecification{SSEType: types.SSETypeKms})
	if err != nil {
		t.Fatal(err)
	}
	if s := d.SSEDescription; s == nil || s.Status != types.SSEStatusEnabled || s.SSEType != types.SSETypeKms || s.KMSMasterKeyArn == nil {
		t.Fatalf("{SSEType: KMS}: %+v", s)
	}
	d, err = create("plain", &types.SSESpecification{})
	if err != nil {
		t.Fatal(err)
	}
	if d.SSEDescription != nil {
		t.Fatalf("{}: %+v", d.SSEDescription)
	}

	update := func(name string, s *types.SSESpecification) (*types.TableDescription, error) {
		out, err := c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String(name), SSESpecification: s})
		if err != nil {
			return nil, err
		}
		return out.TableDescription, nil
	}
	_, err = update("plain", &types.SSESpecification{})
	wantValidation(t, err, prefix+"Table is already encrypted by default")
	_, err = update("plain", &types.SSESpecification{Enabled: aws.Bool(false)})
	wantValidation(t, err, prefix+"Table is already encrypted by default")
	_, err = update("plain", &types.SSESpecification{Enabled: aws.Bool(true), SSEType: types.SSETypeAes256})
	wantValidation(t, err, prefix+"SSEType AES256 is not supported")
	if d, err = update("plain", &types.SSESpecification{Enabled: aws.Bool(true), SSEType: types.SSETypeKms}); err != nil {
		t.Fatal(err)
	}
	arn := aws.ToString(d.SSEDescription.KMSMasterKeyArn)
	_, err = update("plain", &types.SSESpecification{Enabled: aws.Bool(true), SSEType: types.SSETypeKms, KMSMasterKeyId: aws.String(arn)})
	wantValidation(t, err, prefix+"Table is already encrypted with given KMSMasterKeyId. Use KMSMasterKeyId parameter if you want to change Master Key")
	if d, err = update("plain", &types.SSESpecification{Enabled: aws.Bool(false)}); err != nil {
		t.Fatal(err)
	}
	if d.SSEDescription != nil || describe(t, c, "plain").SSEDescription != nil {
		t.Fatalf("after disabling: %+v", d.SSEDescription)
	}
}

// TestTableOpsTableClassExact: an unknown TableClass is refused with
// DynamoDB's own text, not the enum constraint (the lab, DDB-TABLE-442's
// catalogue, for CreateTable and UpdateTable; a CloudFormation lint rule
// quotes the same CreateTable answer).
func TestTableOpsTableClassExact(t *testing.T) {
	_, c := start(t)
	const msg = "Invalid table-class parameter provided. Please try again with a valid table-class value: [STANDARD, STANDARD_INFREQUENT_ACCESS]."
	_, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{TableName: aws.String("cls"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: defs("pk", "S"), KeySchema: ks("pk"), TableClass: "GLACIER"})
	wantValidation(t, err, msg)
	createHash(t, c, "cls", types.ScalarAttributeTypeS)
	_, err = c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String("cls"), TableClass: "standard_infrequent_access"})
	wantValidation(t, err, msg)
	// STANDARD on a table never given a class changes nothing: no
	// TableClassSummary (the lab's table-streams-encryption-class
	// summary, DDB-TABLE-283/-365).
	if _, err := c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String("cls"), TableClass: types.TableClassStandard}); err != nil {
		t.Fatal(err)
	}
	if s := describe(t, c, "cls").TableClassSummary; s != nil {
		t.Fatalf("TableClassSummary after STANDARD on a table without a class: %+v", s)
	}
	out, err := c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String("cls"), TableClass: types.TableClassStandardInfrequentAccess})
	if err != nil {
		t.Fatal(err)
	}
	if s := out.TableDescription.TableClassSummary; s == nil || s.TableClass != types.TableClassStandardInfrequentAccess {
		t.Fatalf("TableClassSummary %+v", s)
	}
}

// TestTableOpsStreamSpecificationExact: a stream enabled without a view
// type, or disabled with one, in DynamoDB's words, which call the member
// UpdateViewType (the lab: DDB-TABLE-050 and -437 for UpdateTable,
// -442's catalogue for both operations); a view type cannot change in
// place (DDB-TABLE-050).
func TestTableOpsStreamSpecificationExact(t *testing.T) {
	_, c := start(t)
	const prefix = "One or more parameter values were invalid: "
	create := func(s *types.StreamSpecification) error {
		_, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{TableName: aws.String("stx"), BillingMode: types.BillingModePayPerRequest,
			AttributeDefinitions: defs("pk", "S"), KeySchema: ks("pk"), StreamSpecification: s})
		return err
	}
	wantValidation(t, create(&types.StreamSpecification{StreamEnabled: aws.Bool(true)}),
		prefix+"Table is being created with a stream enabled, UpdateViewType is required")
	wantValidation(t, create(&types.StreamSpecification{StreamEnabled: aws.Bool(false), StreamViewType: types.StreamViewTypeKeysOnly}),
		prefix+"Table is being created with a stream disabled, UpdateViewType should not be specified")

	createHash(t, c, "stx", types.ScalarAttributeTypeS)
	update := func(s *types.StreamSpecification) error {
		_, err := c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String("stx"), StreamSpecification: s})
		return err
	}
	wantValidation(t, update(&types.StreamSpecification{StreamEnabled: aws.Bool(true)}),
		prefix+"If stream is being enabled then UpdateViewType is required")
	if err := update(&types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewImage}); err != nil {
		t.Fatal(err)
	}
	wantValidation(t, update(&types.StreamSpecification{StreamEnabled: aws.Bool(false), StreamViewType: types.StreamViewTypeKeysOnly}),
		prefix+"If stream is being disabled, then UpdateViewType must not be specified")
	wantValidation(t, update(&types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages}),
		"Table already has an enabled stream: TableName: stx")
}

// TestTableOpsOnDemandThroughputExact: OnDemandThroughput's rules. The
// lab: DDB-TABLE-039 (CreateTable: 0, -1 and -2 out of range, one member
// or none taken), -128 (CreateTable on a PROVISIONED table; a GSI's
// range), -051 (UpdateTable: members merged, -1 taken, 0 and -2 out of
// range), -059 and -153 (UpdateTable on a PROVISIONED table; a switch to
// PROVISIONED drops it).
func TestTableOpsOnDemandThroughputExact(t *testing.T) {
	_, c := start(t)
	const prefix = "One or more parameter values were invalid: "
	odt := func(r, w *int64) *types.OnDemandThroughput {
		return &types.OnDemandThroughput{MaxReadRequestUnits: r, MaxWriteRequestUnits: w}
	}
	create := func(name string, mode types.BillingMode, o *types.OnDemandThroughput, gsiODT *types.OnDemandThroughput) (*types.TableDescription, error) {
		in := &dynamodb.CreateTableInput{TableName: aws.String(name), BillingMode: mode,
			AttributeDefinitions: defs("pk", "S"), KeySchema: ks("pk"), OnDemandThroughput: o}
		if mode == types.BillingModeProvisioned {
			in.ProvisionedThroughput = &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(1), WriteCapacityUnits: aws.Int64(1)}
		}
		if gsiODT != nil {
			in.AttributeDefinitions = defs("pk", "S", "g", "S")
			in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{{IndexName: aws.String("g-a"), KeySchema: ks("g"),
				Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}, OnDemandThroughput: gsiODT}}
		}
		out, err := c.CreateTable(bg(), in)
		if err != nil {
			return nil, err
		}
		return out.TableDescription, nil
	}
	ppr := types.BillingModePayPerRequest
	for _, tc := range []struct {
		name string
		o    *types.OnDemandThroughput
		msg  string
	}{
		{"zero", odt(aws.Int64(0), aws.Int64(0)), prefix + "Requested MaxReadRequestUnits for OnDemandThroughput for table is outside of valid range"},
		{"minus one", odt(aws.Int64(-1), aws.Int64(-1)), prefix + "Requested MaxReadRequestUnits for OnDemandThroughput for table is outside of valid range"},
		{"write zero", odt(nil, aws.Int64(0)), prefix + "Requested MaxWriteRequestUnits for OnDemandThroughput for table is outside of valid range"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := create("odt", ppr, tc.o, nil)
			wantValidation(t, err, tc.msg)
		})
	}
	_, err := create("odt", types.BillingModeProvisioned, odt(aws.Int64(10), aws.Int64(10)), nil)
	wantValidation(t, err, prefix+"MaxReadRequestUnits for OnDemandThroughput cannot be specified when table BillingMode is PROVISIONED.")
	_, err = create("odt", ppr, nil, odt(aws.Int64(0), nil))
	wantValidation(t, err, prefix+"Requested MaxReadRequestUnits for OnDemandThroughput for index : g-a is outside of valid range")
	d, err := create("odt", ppr, odt(aws.Int64(100), nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	if o := d.OnDemandThroughput; o == nil || aws.ToInt64(o.MaxReadRequestUnits) != 100 || o.MaxWriteRequestUnits != nil {
		t.Fatalf("read-only OnDemandThroughput: %+v", o)
	}

	update := func(in dynamodb.UpdateTableInput) (*types.TableDescription, error) {
		in.TableName = aws.String("odt")
		out, err := c.UpdateTable(bg(), &in)
		if err != nil {
			return nil, err
		}
		return out.TableDescription, nil
	}
	if d, err = update(dynamodb.UpdateTableInput{OnDemandThroughput: odt(nil, aws.Int64(500))}); err != nil {
		t.Fatal(err)
	}
	if o := d.OnDemandThroughput; aws.ToInt64(o.MaxReadRequestUnits) != 100 || aws.ToInt64(o.MaxWriteRequestUnits) != 500 {
		t.Fatalf("after merging the write member: %+v", o)
	}
	_, err = update(dynamodb.UpdateTableInput{OnDemandThroughput: odt(nil, aws.Int64(0))})
	wantValidation(t, err, prefix+"Requested MaxWriteRequestUnits for OnDemandThroughput for table is outside of valid range")
	_, err = update(dynamodb.UpdateTableInput{OnDemandThroughput: odt(aws.Int64(-2), nil)})
	wantValidation(t, err, prefix+"Requested MaxReadRequestUnits for OnDemandThroughput for table is outside of valid range")
	if d, err = update(dynamodb.UpdateTableInput{OnDemandThroughput: odt(nil, aws.Int64(-1))}); err != nil {
		t.Fatal(err)
	}
	if o := d.OnDemandThroughput; aws.ToInt64(o.MaxReadRequestUnits) != 100 || aws.ToInt64(o.MaxWriteRequestUnits) != -1 {
		t.Fatalf("after -1: %+v", o)
	}
	_, err = update(dynamodb.UpdateTableInput{BillingMode: types.BillingModeProvisioned,
		ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(1), WriteCapacityUnits: aws.Int64(1)},
		OnDemandThroughput:    odt(aws.Int64(10), nil)})
	wantValidation(t, err, prefix+"MaxReadRequestUnits for OnDemandThroughput cannot be specified when the table BillingMode is PROVISIONED")
	if d, err = update(dynamodb.UpdateTableInput{BillingMode: types.BillingModeProvisioned,
		ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(1), WriteCapacityUnits: aws.Int64(1)}}); err != nil {
		t.Fatal(err)
	}
	if d.OnDemandThroughput != nil || describe(t, c, "odt").OnDemandThroughput != nil {
		t.Fatalf("OnDemandThroughput kept after the switch to PROVISIONED: %+v", d.OnDemandThroughput)
	}
}

// TestTableOpsProjectedAttributesExact: at most 100 NonKeyAttributes
// summed over a table's secondary indexes, an attribute projected into
// two indexes counting twice (AWS's developer guide, service quotas);
// the text is CreateTable's failure as a public project's CloudFormation
// lint rule quotes it. UpdateTable counts the existing indexes too.
func TestTableOpsProjectedAttributesExact(t *testing.T) {
	_, c := start(t)
	include := func(n int) *types.Projection {
		attrs := make([]string, n)
		for i := range attrs {
			attrs[i] = fmt.Sprint("a", i) // the same names in every index
		}
		return &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: attrs}
	}
	gsis := func(count, each int) []types.GlobalSecondaryIndex {
		var out []types.GlobalSecondaryIndex
		for i := range count {
			out = append(out, types.GlobalSecondaryIndex{IndexName: aws.String(fmt.Sprint("gsi", i)), KeySchema: ks("g"), Projection: include(each)})
		}
		return out
	}
	create := func(name string, g []types.GlobalSecondaryIndex) error {
		_, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{TableName: aws.String(name), BillingMode: types.BillingModePayPerRequest,
			AttributeDefinitions: defs("pk", "S", "g", "S"), KeySchema: ks("pk"), GlobalSecondaryIndexes: g})
		return err
	}
	const msg = "One or more parameter values were invalid: Number of projected attributes in all indexes exceeds limit of 100"
	wantValidation(t, create("proj", gsis(6, 17)), msg)
	if err := create("proj", gsis(5, 20)); err != nil {
		t.Fatalf("100 projected attributes: %v", err)
	}
	_, err := c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String("proj"), AttributeDefinitions: defs("g", "S"),
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{
			IndexName: aws.String("one-more"), KeySchema: ks("g"), Projection: include(1)}}}})
	wantValidation(t, err, msg)
}

// TestTableOpsTagShapesExact: tag lengths are counted in characters, not
// bytes (Alternator test_tag.py: test_tag_key_length_128_allowed and
// test_tag_value_length_256_allowed, whose non-ASCII cases DynamoDB
// passes); whitespace alone is a valid key or value and removing a key
// the table lacks is no error (test_tag_resource_basic); '!' is refused
// in a key and in a value (test_tag_forbidden_chars); ResourceArns that
// are not ARNs are refused whatever they hold (test_tag_resource_incorrect,
// with the text the lab, DDB-TABLE-071, recorded for a plain name).
func TestTableOpsTagShapesExact(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "tagshape", types.ScalarAttributeTypeS)
	arn := tableARN("tagshape")
	tag := func(k, v string) error {
		_, err := c.TagResource(bg(), &dynamodb.TagResourceInput{ResourceArn: aws.String(arn),
			Tags: []types.Tag{{Key: aws.String(k), Value: aws.String(v)}}})
		return err
	}
	for _, ok := range [][2]string{{strings.Repeat("א", 128), "dog"}, {"long", strings.Repeat("א", 256)}, {" ", "9"}, {"7", " "}} {
		if err := tag(ok[0], ok[1]); err != nil {
			t.Fatalf("tag %q=%q: %v", ok[0], ok[1], err)
		}
	}
	wantValidation(t, tag(strings.Repeat("א", 129), "dog"), "The Tag Key provided is invalid, Key: "+strings.Repeat("א", 129))
	wantValidation(t, tag("dog", strings.Repeat("א", 257)), "The Tag Value provided is invalid, Value: "+strings.Repeat("א", 257))
	wantValidation(t, tag("hi!", "dog"), "The Tag Key provided is invalid, Key: hi!")
	wantValidation(t, tag("dog", "hi!"), "The Tag Value provided is invalid, Value: hi!")
	if _, err := c.UntagResource(bg(), &dynamodb.UntagResourceInput{ResourceArn: aws.String(arn), TagKeys: []string{"7", "non-existent"}}); err != nil {
		t.Fatal(err)
	}
	out, err := c.ListTagsOfResource(bg(), &dynamodb.ListTagsOfResourceInput{ResourceArn: aws.String(arn)})
	if err != nil || len(out.Tags) != 3 {
		t.Fatalf("%d tags, %v", len(out.Tags), err)
	}
	// An unknown NextToken is ignored: the first page again (the lab,
	// DDB-TABLE-073 in its table summary).
	out, err = c.ListTagsOfResource(bg(), &dynamodb.ListTagsOfResourceInput{ResourceArn: aws.String(arn), NextToken: aws.String("bogus")})
	if err != nil || len(out.Tags) != 3 || out.NextToken != nil {
		t.Fatalf("with a bogus NextToken: %d tags, NextToken %v, %v", len(out.Tags), out.NextToken, err)
	}
	for _, bad := range []string{strings.Repeat("x", 125), " ", "незаконные буквы"} {
		_, err := c.TagResource(bg(), &dynamodb.TagResourceInput{ResourceArn: aws.String(bad), Tags: []types.Tag{{Key: aws.String("x"), Value: aws.String("y")}}})
		wantValidation(t, err, "One or more parameter values were invalid: ARNs must start with 'arn:': "+bad)
	}
}

// TestTableOpsManagedKeyExact: the AWS managed key is one key per account
// and region: {SSEType: KMS} alone, {Enabled: true} and KMSMasterKeyId
// alias/aws/dynamodb name the same KMSMasterKeyArn, on every table and
// again on a re-send (the lab, DDB-TABLE-044 and -437).
func TestTableOpsManagedKeyExact(t *testing.T) {
	_, c := start(t)
	keyOf := func(name string, s *types.SSESpecification) string {
		out, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{TableName: aws.String(name), BillingMode: types.BillingModePayPerRequest,
			AttributeDefinitions: defs("pk", "S"), KeySchema: ks("pk"), SSESpecification: s})
		if err != nil {
			t.Fatal(err)
		}
		return aws.ToString(out.TableDescription.SSEDescription.KMSMasterKeyArn)
	}
	a := keyOf("mk1", &types.SSESpecification{SSEType: types.SSETypeKms})
	b := keyOf("mk2", &types.SSESpecification{Enabled: aws.Bool(true)})
	d := keyOf("mk3", &types.SSESpecification{Enabled: aws.Bool(true), SSEType: types.SSETypeKms, KMSMasterKeyId: aws.String("alias/aws/dynamodb")})
	if !strings.HasPrefix(a, "arn:aws:kms:"+testserver.Region+":"+testserver.AccountID+":key/") || a != b || a != d {
		t.Fatalf("managed key ARNs differ: %s, %s, %s", a, b, d)
	}
	out, err := c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String("mk1"), SSESpecification: &types.SSESpecification{Enabled: aws.Bool(true)}})
	if err != nil {
		t.Fatal(err)
	}
	if got := aws.ToString(out.TableDescription.SSEDescription.KMSMasterKeyArn); got != a {
		t.Fatalf("after a re-send: %s, want %s", got, a)
	}
}

// TestTableOpsDecreaseBudgetExact: provisioned throughput decreases, four
// a UTC day and then one each 3600 seconds after the last, per table and
// per GSI, with the quota's text; the count starts again at midnight UTC
// (the lab: DDB-TABLE-326 and -184 for the texts, -185 for midnight,
// -157 for separate table and GSI budgets; a call lowering one unit and
// raising the other is a decrease).
func TestTableOpsDecreaseBudgetExact(t *testing.T) {
	var clock atomic.Int64
	clock.Store(time.Date(2026, 10, 9, 0, 21, 34, 0, time.UTC).UnixNano())
	s := testserver.Start(t, testserver.WithNow(func() time.Time { return time.Unix(0, clock.Load()).UTC() }))
	c := client(t, s)
	advance := func(d time.Duration) { clock.Add(int64(d)) }
	pt := func(r, w int64) *types.ProvisionedThroughput {
		return &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(r), WriteCapacityUnits: aws.Int64(w)}
	}
	create := func(name string) {
		if _, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{TableName: aws.String(name), ProvisionedThroughput: pt(10, 10),
			AttributeDefinitions: defs("pk", "S", "g", "S"), KeySchema: ks("pk"),
			GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("gsi1"), KeySchema: ks("g"),
				Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}, ProvisionedThroughput: pt(10, 10)}}}); err != nil {
			t.Fatal(err)
		}
	}
	table := func(name string, p *types.ProvisionedThroughput) error {
		_, err := c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String(name), ProvisionedThroughput: p})
		return err
	}
	index := func(name string, p *types.ProvisionedThroughput) error {
		_, err := c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String(name),
			GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Update: &types.UpdateGlobalSecondaryIndexAction{
				IndexName: aws.String("gsi1"), ProvisionedThroughput: p}}}})
		return err
	}
	decreases := func(name string) int64 {
		return aws.ToInt64(describe(t, c, name).ProvisionedThroughput.NumberOfDecreasesToday)
	}
	const head = "Subscriber limit exceeded: Provisioned throughput decreases are limited within a given UTC day. " +
		"After the first 4 decreases, each subsequent decrease in the same UTC day can be performed at most once every 3600 seconds. "

	create("budget")
	for i, p := range []*types.ProvisionedThroughput{pt(9, 9), pt(9, 8), pt(8, 8), pt(7, 8)} {
		if err := table("budget", p); err != nil {
			t.Fatalf("decrease %d: %v", i+1, err)
		}
	}
	if n := decreases("budget"); n != 4 {
		t.Fatalf("NumberOfDecreasesToday %d, want 4", n)
	}
	fifth := head + "Number of decreases today: 4. Last decrease at Friday, October 9, 2026 at 12:21:34 AM Coordinated Universal Time. " +
		"Next decrease can be made at Friday, October 9, 2026 at 1:21:34 AM Coordinated Universal Time"
	wantErr(t, table("budget", pt(6, 8)), "LimitExceededException", fifth)
	wantErr(t, table("budget", pt(6, 20)), "LimitExceededException", fifth)
	if err := table("budget", pt(20, 20)); err != nil {
		t.Fatalf("an increase with the budget spent: %v", err)
	}
	// The GSI has a budget of its own.
	if err := index("budget", pt(9, 9)); err != nil {
		t.Fatalf("a GSI decrease: %v", err)
	}
	advance(3599 * time.Second)
	wantErr(t, table("budget", pt(6, 8)), "LimitExceededException", fifth)
	advance(time.Second)
	if err := table("budget", pt(6, 8)); err != nil {
		t.Fatalf("the decrease an hour later: %v", err)
	}
	wantErr(t, table("budget", pt(5, 8)), "LimitExceededException", head+
		"Number of decreases today: 5. Last decrease at Friday, October 9, 2026 at 1:21:34 AM Coordinated Universal Time. "+
		"Next decrease can be made at Friday, October 9, 2026 at 2:21:34 AM Coordinated Universal Time")

	// Late in the day the next one is at midnight, when the count starts
	// again.
	clock.Store(time.Date(2026, 10, 9, 23, 20, 48, 0, time.UTC).UnixNano())
	create("late")
	for i := range 4 {
		if err := table("late", pt(int64(9-i), 10)); err != nil {
			t.Fatalf("decrease %d: %v", i+1, err)
		}
	}
	wantErr(t, table("late", pt(5, 10)), "LimitExceededException", head+
		"Number of decreases today: 4. Last decrease at Friday, October 9, 2026 at 11:20:48 PM Coordinated Universal Time. "+
		"Next decrease can be made at Saturday, October 10, 2026 at 12:00:00 AM Coordinated Universal Time")
	advance(39*time.Minute + 12*time.Second)
	if n := decreases("late"); n != 0 {
		t.Fatalf("NumberOfDecreasesToday after midnight: %d", n)
	}
	for i := range 3 {
		if err := table("late", pt(int64(5-i), 10)); err != nil {
			t.Fatalf("decrease %d after midnight: %v", i+1, err)
		}
	}
	if n := decreases("late"); n != 3 {
		t.Fatalf("NumberOfDecreasesToday %d, want 3", n)
	}
}
