package e2e

import (
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
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

// The texts of refused WarmThroughput requests (the lab; each test cites
// its entries).
const (
	warmDecreaseTable = "One or more parameter values were invalid: Requested ReadUnitsPerSecond for WarmThroughput for table is lower than current WarmThroughput, decreasing WarmThroughput is not supported"
	warmBelowOnDemand = "One or more parameter values were invalid: Requested ReadUnitsPerSecond for WarmThroughput for table is lower than initial throughput for OnDemand. See: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/on-demand-capacity-mode.html#on-demand-capacity-mode-initial"
)

func warmIn(r, w int64) *types.WarmThroughput {
	return &types.WarmThroughput{ReadUnitsPerSecond: aws.Int64(r), WriteUnitsPerSecond: aws.Int64(w)}
}

func tableWarmIn(table string, w *types.WarmThroughput) *dynamodb.UpdateTableInput {
	return &dynamodb.UpdateTableInput{TableName: aws.String(table), WarmThroughput: w}
}

func gsiWarmIn(table, index string, w *types.WarmThroughput) *dynamodb.UpdateTableInput {
	return &dynamodb.UpdateTableInput{TableName: aws.String(table), GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{
		{Update: &types.UpdateGlobalSecondaryIndexAction{IndexName: aws.String(index), WarmThroughput: w}}}}
}

// TestWarmThroughputUpdateTable: UpdateTable's WarmThroughput alone is a
// change. On an on-demand table 12001/4001 is accepted, the table ACTIVE;
// the same again is accepted; a write member alone keeps the read one;
// anything lower is refused (the lab, DDB-TABLE-179, -049). On a
// PROVISIONED table raised to 3/3 and lowered to 1/1, 1/1 is a decrease
// and 50/50 accepted (DDB-TABLE-061, -059). The write member's text is the
// read one's with the member's name (no recording of it alone). Without a
// TransientDelay the new value shows at once, ACTIVE.
func TestWarmThroughputUpdateTable(t *testing.T) {
	_, c := startFixed(t)
	if _, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{TableName: aws.String("wup"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: defs("pk", "S"), KeySchema: ks("pk")}); err != nil {
		t.Fatal(err)
	}
	out, err := c.UpdateTable(bg(), tableWarmIn("wup", warmIn(12001, 4001)))
	if err != nil {
		t.Fatal(err)
	}
	if out.TableDescription.TableStatus != types.TableStatusActive {
		t.Fatalf("TableStatus %s, want ACTIVE", out.TableDescription.TableStatus)
	}
	deepEqual(t, "UpdateTable's WarmThroughput", out.TableDescription.WarmThroughput, tableWarm(12001, 4001))
	deepEqual(t, "WarmThroughput", describe(t, c, "wup").WarmThroughput, tableWarm(12001, 4001))
	if err := updateTable(c, tableWarmIn("wup", warmIn(12001, 4001))); err != nil {
		t.Fatalf("the same WarmThroughput again: %v", err)
	}
	if err := updateTable(c, tableWarmIn("wup", &types.WarmThroughput{WriteUnitsPerSecond: aws.Int64(4002)})); err != nil {
		t.Fatal(err)
	}
	deepEqual(t, "WarmThroughput after a write member", describe(t, c, "wup").WarmThroughput, tableWarm(12001, 4002))
	wantValidation(t, updateTable(c, tableWarmIn("wup", warmIn(12000, 4000))), warmDecreaseTable)
	wantValidation(t, updateTable(c, tableWarmIn("wup", warmIn(12001, 4000))),
		"One or more parameter values were invalid: Requested WriteUnitsPerSecond for WarmThroughput for table is lower than current WarmThroughput, decreasing WarmThroughput is not supported")
	deepEqual(t, "WarmThroughput after the refusals", describe(t, c, "wup").WarmThroughput, tableWarm(12001, 4002))

	if _, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{TableName: aws.String("wuq"), AttributeDefinitions: defs("pk", "S"), KeySchema: ks("pk"),
		ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(3), WriteCapacityUnits: aws.Int64(3)}}); err != nil {
		t.Fatal(err)
	}
	if err := updateTable(c, tablePT("wuq", 1)); err != nil {
		t.Fatal(err)
	}
	wantValidation(t, updateTable(c, tableWarmIn("wuq", warmIn(1, 1))), warmDecreaseTable)
	if err := updateTable(c, tableWarmIn("wuq", warmIn(50, 50))); err != nil {
		t.Fatal(err)
	}
	d := describe(t, c, "wuq")
	deepEqual(t, "WarmThroughput", d.WarmThroughput, tableWarm(50, 50))
	if got := aws.ToInt64(d.ProvisionedThroughput.ReadCapacityUnits); got != 1 {
		t.Fatalf("ReadCapacityUnits %d, want 1", got)
	}
	// Lowering the throughput after leaves the warm throughput as it is.
	if err := updateTable(c, tablePT("wuq", 2)); err != nil {
		t.Fatal(err)
	}
	deepEqual(t, "WarmThroughput after a throughput change", describe(t, c, "wuq").WarmThroughput, tableWarm(50, 50))
}

// TestWarmThroughputOneChange: WarmThroughput is the only change of its
// UpdateTable (the lab, DDB-TABLE-433: "WarmThroughput must be the only
// operation in the request" beside anything else; encryption, the table
// class and deletion protection are named before it; beside
// OnDemandThroughput the OnDemandThroughput text), and beside a GSI
// Create DynamoDB names the Create (DDB-TABLE-174). Nothing is applied.
func TestWarmThroughputOneChange(t *testing.T) {
	_, c := startFixed(t)
	if _, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{TableName: aws.String("wone"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: defs("pk", "S"), KeySchema: ks("pk")}); err != nil {
		t.Fatal(err)
	}
	const prefix = "One or more parameter values were invalid: "
	with := func(f func(in *dynamodb.UpdateTableInput)) *dynamodb.UpdateTableInput {
		in := tableWarmIn("wone", warmIn(13000, 5000))
		f(in)
		return in
	}
	for _, tc := range []struct {
		name string
		in   *dynamodb.UpdateTableInput
		msg  string
	}{
		{"deletion protection", with(func(in *dynamodb.UpdateTableInput) { in.DeletionProtectionEnabled = aws.Bool(true) }),
			prefix + "DeletionProtection modification must be the only operation in the request"},
		{"encryption", with(func(in *dynamodb.UpdateTableInput) {
			in.SSESpecification = &types.SSESpecification{Enabled: aws.Bool(true), SSEType: types.SSETypeKms}
		}), prefix + "Server-Side Encryption modification must be the only operation in the request"},
		{"table class", with(func(in *dynamodb.UpdateTableInput) { in.TableClass = types.TableClassStandardInfrequentAccess }),
			prefix + "TableClass modification must be the only operation in the request"},
		{"on-demand throughput", with(func(in *dynamodb.UpdateTableInput) {
			in.OnDemandThroughput = &types.OnDemandThroughput{MaxReadRequestUnits: aws.Int64(100)}
		}), prefix + "OnDemandThroughput can only be combined with BillingMode in an UpdateTable request"},
		{"stream", with(func(in *dynamodb.UpdateTableInput) {
			in.StreamSpecification = &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeKeysOnly}
		}), prefix + "WarmThroughput must be the only operation in the request"},
		{"billing mode", with(func(in *dynamodb.UpdateTableInput) { in.BillingMode = types.BillingModePayPerRequest }),
			prefix + "WarmThroughput must be the only operation in the request"},
		{"GSI Create", with(func(in *dynamodb.UpdateTableInput) {
			g := gsiCreate("wone", "gsi2")
			in.AttributeDefinitions, in.GlobalSecondaryIndexUpdates = g.AttributeDefinitions, g.GlobalSecondaryIndexUpdates
		}), prefix + "Create global secondary index cannot be specified when updating WarmThroughput"},
	} {
		wantValidation(t, updateTable(c, tc.in), tc.msg)
	}
	d := describe(t, c, "wone")
	deepEqual(t, "WarmThroughput", d.WarmThroughput, tableWarm(12000, 4000))
	if len(d.GlobalSecondaryIndexes) != 0 || d.StreamSpecification != nil || aws.ToBool(d.DeletionProtectionEnabled) {
		t.Fatalf("a refused UpdateTable changed the table: %+v", d)
	}
}

// TestWarmThroughputCreateTable: CreateTable's WarmThroughput (the lab,
// DDB-TABLE-039): on demand, 1/1 and 0/0 are below the initial
// throughput; the read member alone is accepted, the write one 4000; {}
// is accepted; on a PROVISIONED 10/10 table 5/5 is below the capacity
// units. A WarmThroughput sent is in CreateTable's answer (the
// table-throughput-billing page's summary, DDB-TABLE-032), ACTIVE without
// a TransientDelay. A GSI's is judged alike, "for index <name>" as a GSI
// Update's decrease words it (DDB-TABLE-155; no recording of a GSI's at
// CreateTable).
func TestWarmThroughputCreateTable(t *testing.T) {
	_, c := startFixed(t)
	ppr := func(name string, w *types.WarmThroughput) *dynamodb.CreateTableInput {
		return &dynamodb.CreateTableInput{TableName: aws.String(name), BillingMode: types.BillingModePayPerRequest,
			AttributeDefinitions: defs("pk", "S"), KeySchema: ks("pk"), WarmThroughput: w}
	}
	_, err := c.CreateTable(bg(), ppr("wc1", warmIn(1, 1)))
	wantValidation(t, err, warmBelowOnDemand)
	_, err = c.CreateTable(bg(), ppr("wc1", warmIn(0, 0)))
	wantValidation(t, err, warmBelowOnDemand)
	_, err = c.CreateTable(bg(), &dynamodb.CreateTableInput{TableName: aws.String("wc1"), AttributeDefinitions: defs("pk", "S"), KeySchema: ks("pk"),
		ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(10), WriteCapacityUnits: aws.Int64(10)}, WarmThroughput: warmIn(5, 5)})
	wantValidation(t, err, "One or more parameter values were invalid: Requested ReadUnitsPerSecond for WarmThroughput for table is lower than ReadCapacityUnits of ProvisionedThroughput")
	if len(listTables(t, c)) != 0 {
		t.Fatal("a refused CreateTable created a table")
	}

	out, err := c.CreateTable(bg(), ppr("wc2", &types.WarmThroughput{ReadUnitsPerSecond: aws.Int64(12001)}))
	if err != nil {
		t.Fatal(err)
	}
	deepEqual(t, "CreateTable's WarmThroughput", out.TableDescription.WarmThroughput, tableWarm(12001, 4000))
	deepEqual(t, "WarmThroughput", describe(t, c, "wc2").WarmThroughput, tableWarm(12001, 4000))
	if _, err := c.CreateTable(bg(), ppr("wc3", &types.WarmThroughput{})); err != nil {
		t.Fatal(err)
	}
	deepEqual(t, "WarmThroughput", describe(t, c, "wc3").WarmThroughput, tableWarm(12000, 4000))
	// UpdateTable judges against the value CreateTable set.
	wantValidation(t, updateTable(c, tableWarmIn("wc2", warmIn(12000, 4000))), warmDecreaseTable)

	gsi := func(name string, w *types.WarmThroughput) *dynamodb.CreateTableInput {
		in := ppr(name, nil)
		in.AttributeDefinitions = defs("pk", "S", "g", "S")
		in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{{IndexName: aws.String("byg"), KeySchema: ks("g"),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}, WarmThroughput: w}}
		return in
	}
	_, err = c.CreateTable(bg(), gsi("wc4", warmIn(1, 1)))
	wantValidation(t, err, "One or more parameter values were invalid: Requested ReadUnitsPerSecond for WarmThroughput for index byg is lower than initial throughput for OnDemand. See: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/on-demand-capacity-mode.html#on-demand-capacity-mode-initial")
	out, err = c.CreateTable(bg(), gsi("wc4", warmIn(13000, 5000)))
	if err != nil {
		t.Fatal(err)
	}
	if out.TableDescription.WarmThroughput != nil {
		t.Fatalf("CreateTable's answer has the table's WarmThroughput %+v, not sent", out.TableDescription.WarmThroughput)
	}
	deepEqual(t, "CreateTable's GSI WarmThroughput", out.TableDescription.GlobalSecondaryIndexes[0].WarmThroughput, gsiWarm(13000, 5000))
	d := describe(t, c, "wc4")
	deepEqual(t, "table WarmThroughput", d.WarmThroughput, tableWarm(12000, 4000))
	deepEqual(t, "GSI WarmThroughput", d.GlobalSecondaryIndexes[0].WarmThroughput, gsiWarm(13000, 5000))
}

// TestWarmThroughputGSIUpdate: a GSI Update's WarmThroughput on an
// on-demand table (the lab, DDB-TABLE-155): 100/100 on a 12000/4000 GSI
// is a decrease, "for index gsi1"; 12000/4000 again is accepted;
// 12001/4001 is accepted with the index and the table ACTIVE; a read
// member alone keeps the write one. A GSI that UpdateTable creates takes
// a WarmThroughput as CreateTable's GSIs do (no recording; CreateTable's
// rules, DDB-TABLE-039).
func TestWarmThroughputGSIUpdate(t *testing.T) {
	_, c := startFixed(t)
	if _, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{TableName: aws.String("wgu"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: defs("pk", "S", "g", "S"), KeySchema: ks("pk"),
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("gsi1"), KeySchema: ks("g"),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}}}); err != nil {
		t.Fatal(err)
	}
	wantValidation(t, updateTable(c, gsiWarmIn("wgu", "gsi1", warmIn(100, 100))),
		"One or more parameter values were invalid: Requested ReadUnitsPerSecond for WarmThroughput for index gsi1 is lower than current WarmThroughput, decreasing WarmThroughput is not supported")
	if err := updateTable(c, gsiWarmIn("wgu", "gsi1", warmIn(12000, 4000))); err != nil {
		t.Fatalf("the current value again: %v", err)
	}
	out, err := c.UpdateTable(bg(), gsiWarmIn("wgu", "gsi1", warmIn(12001, 4001)))
	if err != nil {
		t.Fatal(err)
	}
	if out.TableDescription.TableStatus != types.TableStatusActive || out.TableDescription.GlobalSecondaryIndexes[0].IndexStatus != types.IndexStatusActive {
		t.Fatalf("TableStatus %s, IndexStatus %s; want both ACTIVE", out.TableDescription.TableStatus, out.TableDescription.GlobalSecondaryIndexes[0].IndexStatus)
	}
	deepEqual(t, "GSI WarmThroughput", gsiNamed(describe(t, c, "wgu"), "gsi1").WarmThroughput, gsiWarm(12001, 4001))
	if err := updateTable(c, gsiWarmIn("wgu", "gsi1", &types.WarmThroughput{ReadUnitsPerSecond: aws.Int64(12002)})); err != nil {
		t.Fatal(err)
	}
	d := describe(t, c, "wgu")
	deepEqual(t, "GSI WarmThroughput after a read member", gsiNamed(d, "gsi1").WarmThroughput, gsiWarm(12002, 4001))
	deepEqual(t, "table WarmThroughput", d.WarmThroughput, tableWarm(12000, 4000))

	in := gsiCreate("wgu", "gsi2")
	in.GlobalSecondaryIndexUpdates[0].Create.WarmThroughput = warmIn(14000, 6000)
	if err := updateTable(c, in); err != nil {
		t.Fatal(err)
	}
	deepEqual(t, "new GSI's WarmThroughput", gsiNamed(describe(t, c, "wgu"), "gsi2").WarmThroughput, gsiWarm(14000, 6000))
}

// TestWarmThroughputTransient: under a TransientDelay a warm throughput
// increase leaves the table and the GSI ACTIVE, shows the value before
// with Status UPDATING, in UpdateTable's answer too, then the new one,
// ACTIVE (the lab, DDB-TABLE-179 for a table, -155 for a GSI; -061: the
// table ACTIVE); a value sent meanwhile is judged against the one shown
// (DDB-TABLE-049). CreateTable's answer shows a WarmThroughput sent with
// Status UPDATING (DDB-TABLE-032).
func TestWarmThroughputTransient(t *testing.T) {
	c, advance := startTransient(t)
	out, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{TableName: aws.String("wtr"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: defs("pk", "S", "g", "S"), KeySchema: ks("pk"), WarmThroughput: warmIn(12001, 4001),
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("gsi1"), KeySchema: ks("g"),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}}})
	if err != nil {
		t.Fatal(err)
	}
	if w := out.TableDescription.WarmThroughput; w == nil || w.Status != types.TableStatusUpdating {
		t.Fatalf("CreateTable's WarmThroughput %+v, want Status UPDATING", w)
	}
	advance(transientDelay)
	deepEqual(t, "WarmThroughput once created", wantStatus(t, c, "wtr", types.TableStatusActive).WarmThroughput, tableWarm(12001, 4001))

	up, err := c.UpdateTable(bg(), tableWarmIn("wtr", warmIn(12002, 4002)))
	if err != nil {
		t.Fatal(err)
	}
	updating := &types.TableWarmThroughputDescription{ReadUnitsPerSecond: aws.Int64(12001), WriteUnitsPerSecond: aws.Int64(4001), Status: types.TableStatusUpdating}
	if up.TableDescription.TableStatus != types.TableStatusActive {
		t.Fatalf("UpdateTable's TableStatus %s, want ACTIVE", up.TableDescription.TableStatus)
	}
	deepEqual(t, "UpdateTable's WarmThroughput", up.TableDescription.WarmThroughput, updating)
	deepEqual(t, "WarmThroughput while it rises", wantStatus(t, c, "wtr", types.TableStatusActive).WarmThroughput, updating)
	if err := updateTable(c, tableWarmIn("wtr", warmIn(12001, 4001))); err != nil {
		t.Fatalf("the value shown, sent while a rise runs: %v", err)
	}
	wantValidation(t, updateTable(c, tableWarmIn("wtr", warmIn(12000, 4000))), warmDecreaseTable)
	if err := updateTable(c, tableWarmIn("wtr", warmIn(12003, 4003))); err != nil {
		t.Fatal(err)
	}
	advance(transientDelay)
	deepEqual(t, "WarmThroughput risen", wantStatus(t, c, "wtr", types.TableStatusActive).WarmThroughput, tableWarm(12003, 4003))

	up, err = c.UpdateTable(bg(), gsiWarmIn("wtr", "gsi1", warmIn(12001, 4001)))
	if err != nil {
		t.Fatal(err)
	}
	gsiUpdating := &types.GlobalSecondaryIndexWarmThroughputDescription{ReadUnitsPerSecond: aws.Int64(12000), WriteUnitsPerSecond: aws.Int64(4000), Status: types.IndexStatusUpdating}
	deepEqual(t, "UpdateTable's GSI WarmThroughput", gsiNamed(up.TableDescription, "gsi1").WarmThroughput, gsiUpdating)
	g := gsiNamed(wantStatus(t, c, "wtr", types.TableStatusActive), "gsi1")
	if g.IndexStatus != types.IndexStatusActive {
		t.Fatalf("IndexStatus %s, want ACTIVE", g.IndexStatus)
	}
	deepEqual(t, "GSI WarmThroughput while it rises", g.WarmThroughput, gsiUpdating)
	advance(transientDelay)
	deepEqual(t, "GSI WarmThroughput risen", gsiNamed(describe(t, c, "wtr"), "gsi1").WarmThroughput, gsiWarm(12001, 4001))
}

// TestWarmThroughputDuringIndexAllocation: a table WarmThroughput change
// while a new GSI's resources are allocated (the table UPDATING,
// Backfilling false) is HTTP 500 InternalServerError "Table is under
// system maintenance, please try again later" (the lab, DDB-TABLE-458),
// and nothing changes.
func TestWarmThroughputDuringIndexAllocation(t *testing.T) {
	c, advance := startTransient(t)
	if _, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{TableName: aws.String("wal"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: defs("pk", "S"), KeySchema: ks("pk")}); err != nil {
		t.Fatal(err)
	}
	advance(transientDelay)
	if err := updateTable(c, gsiCreate("wal", "gsi1")); err != nil {
		t.Fatal(err)
	}
	_, err := c.UpdateTable(bg(), tableWarmIn("wal", warmIn(13000, 5000)), func(o *dynamodb.Options) { o.Retryer = aws.NopRetryer{} })
	wantErr(t, err, "InternalServerError", "Table is under system maintenance, please try again later")
	deepEqual(t, "WarmThroughput", wantStatus(t, c, "wal", types.TableStatusUpdating).WarmThroughput, tableWarm(12000, 4000))
}

// noRetry turns the SDK's retries off: it retries an HTTP 500.
func noRetry(o *dynamodb.Options) { o.Retryer = aws.NopRetryer{} }

// wantInternalFailure checks for DynamoDB's HTTP 500 InternalFailure
// without a message: the SDK, which has no type for the code, reads a
// missing message as "UnknownError".
func wantInternalFailure(t *testing.T, err error) {
	t.Helper()
	wantErr(t, err, "InternalFailure", "UnknownError")
	var re *awshttp.ResponseError
	if !errors.As(err, &re) || re.HTTPStatusCode() != 500 {
		t.Fatalf("%v: want HTTP 500", err)
	}
}

// TestWarmThroughputEmptyStructs: an empty WarmThroughput or
// OnDemandThroughput, the live rows of the ack-api-quirks lab's
// DDB-TABLE-456 (recorded 2026-10-09) on an idle PAY_PER_REQUEST table,
// with -437 and -178 for the members sent alone. DynamoDB itself answers
// some of these with an HTTP 5xx, InternalFailure without a message:
// UpdateTable with nothing but an empty WarmThroughput or
// OnDemandThroughput (-437, -178), and a GSI Update's WarmThroughput with
// values naming an index the table lacks (-456's
// gsi_update_warm_ghost_valid_values, -161). Beside any other member the
// empty struct counts as absent: 200, nothing changed, no "must be the
// only operation" refusal (ut_odt_empty_plus_billing,
// ut_warm_empty_plus_tableclass; the finding's DeletionProtectionEnabled
// false), and beside ProvisionedThroughput on an on-demand table the
// throughput's refusal answers. A GSI Update's empty WarmThroughput is
// refused before the table or the index is looked up; its empty
// OnDemandThroughput, or its name alone, is no change on an on-demand
// table, unless the index is missing; OnDemandThroughput -1/-1 is
// accepted. CreateTable takes a GSI's empty WarmThroughput or
// OnDemandThroughput as none (ct_gsi_warm_empty, ct_gsi_odt_empty).
func TestWarmThroughputEmptyStructs(t *testing.T) {
	s, c := startFixed(t)
	const table = "wem"
	if _, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{TableName: aws.String(table), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: defs("pk", "S", "g", "S"), KeySchema: ks("pk"),
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("gsi1"), KeySchema: ks("g"),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}}}); err != nil {
		t.Fatal(err)
	}
	const prefix = "One or more parameter values were invalid: "
	warmEmptyGSI := func(index string) string {
		return prefix + "WarmThroughput must have at least one of ReadUnitsPerSecond or WriteUnitsPerSecond specified for index: " + index
	}
	const onlyUpdates = prefix + "The only Updates for index: gsi1 when TableThroughputMode is PAY_PER_REQUEST can be to OnDemandThroughput, WarmThroughput"
	update := func(in *dynamodb.UpdateTableInput) error {
		if in.TableName == nil {
			in.TableName = aws.String(table)
		}
		_, err := c.UpdateTable(bg(), in, noRetry)
		return err
	}
	gsiUpdate := func(a types.UpdateGlobalSecondaryIndexAction) *dynamodb.UpdateTableInput {
		return &dynamodb.UpdateTableInput{GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Update: &a}}}
	}

	// Alone: HTTP 500 (DDB-TABLE-437, -178). The SDK sends the empty
	// struct as {}; the raw request shows the wire form.
	wantInternalFailure(t, update(&dynamodb.UpdateTableInput{WarmThroughput: &types.WarmThroughput{}}))
	wantInternalFailure(t, update(&dynamodb.UpdateTableInput{OnDemandThroughput: &types.OnDemandThroughput{}}))
	for _, body := range []string{`{"TableName":"wem","WarmThroughput":{}}`, `{"TableName":"wem","OnDemandThroughput":{}}`} {
		checkRaw(t, s.Raw(t, "UpdateTable", body), 500, "com.amazon.coral.service#InternalFailure", "")
	}

	// Beside another member: absent (DDB-TABLE-456).
	for _, in := range []*dynamodb.UpdateTableInput{
		{WarmThroughput: &types.WarmThroughput{}, DeletionProtectionEnabled: aws.Bool(false)},
		{WarmThroughput: &types.WarmThroughput{}, TableClass: types.TableClassStandard},
		{OnDemandThroughput: &types.OnDemandThroughput{}, BillingMode: types.BillingModePayPerRequest},
	} {
		if err := update(in); err != nil {
			t.Fatalf("%+v: %v", in, err)
		}
	}
	wantValidation(t, update(&dynamodb.UpdateTableInput{WarmThroughput: &types.WarmThroughput{},
		ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(1), WriteCapacityUnits: aws.Int64(1)}}),
		prefix+"Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST")
	d := describe(t, c, table)
	deepEqual(t, "WarmThroughput", d.WarmThroughput, tableWarm(12000, 4000))
	if d.OnDemandThroughput != nil || d.TableClassSummary != nil || aws.ToBool(d.DeletionProtectionEnabled) {
		t.Fatalf("an empty struct changed the table: %+v", d)
	}

	// A GSI Update's empty WarmThroughput: refused for a real index, a
	// missing one, on a missing table, and beside the table class
	// (ut_tableclass_plus_warm_empty_gsi).
	wantValidation(t, update(gsiUpdate(types.UpdateGlobalSecondaryIndexAction{IndexName: aws.String("gsi1"), WarmThroughput: &types.WarmThroughput{}})), warmEmptyGSI("gsi1"))
	wantValidation(t, update(gsiUpdate(types.UpdateGlobalSecondaryIndexAction{IndexName: aws.String("ghost"), WarmThroughput: &types.WarmThroughput{}})), warmEmptyGSI("ghost"))
	missing := gsiUpdate(types.UpdateGlobalSecondaryIndexAction{IndexName: aws.String("ghost"), WarmThroughput: &types.WarmThroughput{}})
	missing.TableName = aws.String("wem-missing")
	wantValidation(t, update(missing), warmEmptyGSI("ghost"))
	withClass := gsiUpdate(types.UpdateGlobalSecondaryIndexAction{IndexName: aws.String("gsi1"), WarmThroughput: &types.WarmThroughput{}})
	withClass.TableClass = types.TableClassStandard
	wantValidation(t, update(withClass), warmEmptyGSI("gsi1"))

	// The name alone, or an empty OnDemandThroughput, is no change of an
	// on-demand table's index (gsi_update_name_only_real,
	// gsi_update_odt_empty_real); for a missing index that is answered
	// first (gsi_update_odt_empty_ghost).
	wantValidation(t, update(gsiUpdate(types.UpdateGlobalSecondaryIndexAction{IndexName: aws.String("gsi1")})), onlyUpdates)
	wantValidation(t, update(gsiUpdate(types.UpdateGlobalSecondaryIndexAction{IndexName: aws.String("gsi1"), OnDemandThroughput: &types.OnDemandThroughput{}})), onlyUpdates)
	wantErr(t, update(gsiUpdate(types.UpdateGlobalSecondaryIndexAction{IndexName: aws.String("ghost"), OnDemandThroughput: &types.OnDemandThroughput{}})),
		"ResourceNotFoundException", "Requested resource not found: Index ghost for table wem")

	// Negative warm throughput is a decrease (gsi_update_warm_neg_real);
	// OnDemandThroughput -1/-1 is accepted (gsi_update_odt_neg_real).
	wantValidation(t, update(gsiUpdate(types.UpdateGlobalSecondaryIndexAction{IndexName: aws.String("gsi1"), WarmThroughput: warmIn(-1, -1)})),
		prefix+"Requested ReadUnitsPerSecond for WarmThroughput for index gsi1 is lower than current WarmThroughput, decreasing WarmThroughput is not supported")
	if err := update(gsiUpdate(types.UpdateGlobalSecondaryIndexAction{IndexName: aws.String("gsi1"),
		OnDemandThroughput: &types.OnDemandThroughput{MaxReadRequestUnits: aws.Int64(-1), MaxWriteRequestUnits: aws.Int64(-1)}})); err != nil {
		t.Fatalf("GSI OnDemandThroughput -1/-1: %v", err)
	}

	// WarmThroughput with values for a missing index: HTTP 500
	// (gsi_update_warm_ghost_valid_values).
	wantInternalFailure(t, update(gsiUpdate(types.UpdateGlobalSecondaryIndexAction{IndexName: aws.String("ghost"), WarmThroughput: warmIn(13000, 5000)})))
	deepEqual(t, "GSI WarmThroughput", gsiNamed(describe(t, c, table), "gsi1").WarmThroughput, gsiWarm(12000, 4000))

	// An empty ProvisionedThroughput in a GSI Update names both null
	// members (gsi_update_pt_empty_real; the recording cuts the text
	// inside the second, the read member by the first's pattern). The SDK
	// refuses the shape itself.
	checkRaw(t, s.Raw(t, "UpdateTable", `{"TableName":"wem","GlobalSecondaryIndexUpdates":[{"Update":{"IndexName":"gsi1","ProvisionedThroughput":{}}}]}`),
		400, "com.amazon.coral.validate#ValidationException", "2 validation errors detected: "+
			"Value null at 'globalSecondaryIndexUpdates.1.member.update.provisionedThroughput.writeCapacityUnits' failed to satisfy constraint: Member must not be null; "+
			"Value null at 'globalSecondaryIndexUpdates.1.member.update.provisionedThroughput.readCapacityUnits' failed to satisfy constraint: Member must not be null")

	// CreateTable: a GSI's empty WarmThroughput or OnDemandThroughput is
	// none (ct_gsi_warm_empty, ct_gsi_odt_empty).
	for _, tc := range []struct {
		name string
		g    types.GlobalSecondaryIndex
	}{
		{"wem-warm", types.GlobalSecondaryIndex{WarmThroughput: &types.WarmThroughput{}}},
		{"wem-odt", types.GlobalSecondaryIndex{OnDemandThroughput: &types.OnDemandThroughput{}}},
	} {
		g := tc.g
		g.IndexName, g.KeySchema, g.Projection = aws.String("gsi1"), ks("g"), &types.Projection{ProjectionType: types.ProjectionTypeAll}
		if _, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{TableName: aws.String(tc.name), BillingMode: types.BillingModePayPerRequest,
			AttributeDefinitions: defs("pk", "S", "g", "S"), KeySchema: ks("pk"), GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{g}}); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		x := gsiNamed(describe(t, c, tc.name), "gsi1")
		deepEqual(t, tc.name+"'s GSI WarmThroughput", x.WarmThroughput, gsiWarm(12000, 4000))
		if x.OnDemandThroughput != nil {
			t.Fatalf("%s's GSI OnDemandThroughput %+v, want none", tc.name, x.OnDemandThroughput)
		}
	}
}
