package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/local"
)

// Sources cited below:
//   - quirks: the ack-api-quirks lab's recordings of DynamoDB in us-west-2
//     (backup and table-restore catalogues, DDB-TABLE-086, -100, -215,
//     -216, -219, -272, -273, -275, -457; 2026-10-08/09);
//   - steampipe: turbot/steampipe-plugin-aws issue 1913, quoting
//     DescribeBackup's answer for a deleted backup;
//   - scoutsuite: nccgroup/ScoutSuite issue 1533, quoting
//     DescribeContinuousBackups' answer for a missing table;
//   - moto-export: getmoto/moto's aws_verified export tests, for the text
//     of PointInTimeRecoveryUnavailableException;
//   - the API reference of each operation.

// createBackupSource makes a table with a sort key and a sparse GSI on g,
// holding n items, half of them in the GSI.
func createBackupSource(t *testing.T, c local.API, name string, n int) map[string]map[string]types.AttributeValue {
	t.Helper()
	_, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{
		TableName:   aws.String(name),
		BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("sk"), AttributeType: types.ScalarAttributeTypeN},
			{AttributeName: aws.String("g"), AttributeType: types.ScalarAttributeTypeS},
		},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange},
		},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
			IndexName:  aws.String("byG"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("g"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	items := map[string]map[string]types.AttributeValue{}
	for i := 0; i < n; i++ {
		it := map[string]types.AttributeValue{"pk": S(fmt.Sprintf("p%d", i%7)), "sk": N(fmt.Sprint(i)), "v": S(strings.Repeat("v", i%50))}
		if i%2 == 0 {
			it["g"] = S(fmt.Sprintf("g%d", i%3))
		}
		if _, err := c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String(name), Item: it}); err != nil {
			t.Fatal(err)
		}
		items[fmt.Sprint(i)] = it
	}
	return items
}

// scanItems reads a table's items by their sk, and counts its GSI.
func scanItems(t *testing.T, c local.API, name string) (map[string]map[string]types.AttributeValue, int) {
	t.Helper()
	got := map[string]map[string]types.AttributeValue{}
	p := dynamodb.NewScanPaginator(c, &dynamodb.ScanInput{TableName: aws.String(name)})
	for p.HasMorePages() {
		out, err := p.NextPage(bg())
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range out.Items {
			got[it["sk"].(*types.AttributeValueMemberN).Value] = it
		}
	}
	n := 0
	gp := dynamodb.NewScanPaginator(c, &dynamodb.ScanInput{TableName: aws.String(name), IndexName: aws.String("byG"), Select: types.SelectCount})
	for gp.HasMorePages() {
		out, err := gp.NextPage(bg())
		if err != nil {
			t.Fatal(err)
		}
		n += int(out.Count)
	}
	return got, n
}

// sameRestored fails unless table name holds exactly want, GSI included.
func sameRestored(t *testing.T, c local.API, name string, want map[string]map[string]types.AttributeValue) {
	t.Helper()
	got, gsi := scanItems(t, c, name)
	if len(got) != len(want) {
		t.Fatalf("%s: %d items, want %d", name, len(got), len(want))
	}
	wantGSI := 0
	for k, w := range want {
		if _, ok := w["g"]; ok {
			wantGSI++
		}
		deepEqual(t, name+" item "+k, got[k], w)
	}
	if gsi != wantGSI {
		t.Fatalf("%s: GSI holds %d, want %d", name, gsi, wantGSI)
	}
}

// waitTableActive waits for a restored table to turn ACTIVE, checking
// that it shows its RestoreSummary only while CREATING (quirks,
// DDB-TABLE-216).
func waitTableActive(t *testing.T, c local.API, name string) *types.TableDescription {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		d := describe(t, c, name)
		if d.TableStatus == types.TableStatusActive {
			if d.RestoreSummary != nil {
				t.Fatalf("%s: ACTIVE with a RestoreSummary", name)
			}
			return d
		}
		if d.TableStatus != types.TableStatusCreating || d.RestoreSummary == nil || !aws.ToBool(d.RestoreSummary.RestoreInProgress) {
			t.Fatalf("%s: %s, RestoreSummary %+v", name, d.TableStatus, d.RestoreSummary)
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s still CREATING", name)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// waitBackupAvailable waits for a backup to be AVAILABLE.
func waitBackupAvailable(t *testing.T, c local.API, arn string) *types.BackupDescription {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		out, err := c.DescribeBackup(bg(), &dynamodb.DescribeBackupInput{BackupArn: aws.String(arn)})
		if err != nil {
			t.Fatal(err)
		}
		if out.BackupDescription.BackupDetails.BackupStatus == types.BackupStatusAvailable {
			return out.BackupDescription
		}
		if time.Now().After(deadline) {
			t.Fatalf("backup still %s", out.BackupDescription.BackupDetails.BackupStatus)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestOnDemandBackups takes a backup, lists, describes and restores it
// (to a table equal to the source at the backup's instant, indexes
// rebuilt, also after the source is deleted), and deletes it.
func TestOnDemandBackups(t *testing.T) {
	s, c := start(t)
	want := createBackupSource(t, c, "music", 60)
	out, err := c.CreateBackup(bg(), &dynamodb.CreateBackupInput{TableName: aws.String("music"), BackupName: aws.String("before-change")})
	if err != nil {
		t.Fatal(err)
	}
	d := out.BackupDetails
	arn := aws.ToString(d.BackupArn)
	// The ARN: the table's, then /backup/<14-digit milliseconds>-<8 hex>
	// (the CLI reference's example, and steampipe's recorded one).
	prefix := tableARN("music") + "/backup/"
	if !strings.HasPrefix(arn, prefix) || len(arn) != len(prefix)+14+1+8 {
		t.Fatalf("backup ARN %q", arn)
	}
	if d.BackupStatus != types.BackupStatusCreating && d.BackupStatus != types.BackupStatusAvailable {
		t.Fatalf("CreateBackup status %s", d.BackupStatus)
	}
	if d.BackupType != types.BackupTypeUser || aws.ToString(d.BackupName) != "before-change" {
		t.Fatalf("CreateBackup details %+v", d)
	}
	// Writes after the backup are not in it.
	for i := 0; i < 10; i++ {
		if _, err := c.DeleteItem(bg(), &dynamodb.DeleteItemInput{TableName: aws.String("music"),
			Key: map[string]types.AttributeValue{"pk": S(fmt.Sprintf("p%d", i%7)), "sk": N(fmt.Sprint(i))}}); err != nil {
			t.Fatal(err)
		}
	}
	desc := waitBackupAvailable(t, c, arn)
	src := desc.SourceTableDetails
	if aws.ToString(src.TableName) != "music" || aws.ToInt64(src.ItemCount) != int64(len(want)) || aws.ToString(src.TableArn) != tableARN("music") {
		t.Fatalf("SourceTableDetails %+v", src)
	}
	if f := desc.SourceTableFeatureDetails; f == nil || len(f.GlobalSecondaryIndexes) != 1 || aws.ToString(f.GlobalSecondaryIndexes[0].IndexName) != "byG" {
		t.Fatalf("SourceTableFeatureDetails %+v", desc.SourceTableFeatureDetails)
	}

	list, err := c.ListBackups(bg(), &dynamodb.ListBackupsInput{TableName: aws.String("music")})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.BackupSummaries) != 1 || aws.ToString(list.BackupSummaries[0].BackupArn) != arn || list.LastEvaluatedBackupArn != nil {
		t.Fatalf("ListBackups %+v", list)
	}

	if _, err := c.DeleteTable(bg(), &dynamodb.DeleteTableInput{TableName: aws.String("music")}); err != nil {
		t.Fatal(err)
	}
	// Backups outlive their table (quirks, backup catalogue).
	r, err := c.RestoreTableFromBackup(bg(), &dynamodb.RestoreTableFromBackupInput{TargetTableName: aws.String("music2"), BackupArn: aws.String(arn)})
	if err != nil {
		t.Fatal(err)
	}
	if r.TableDescription.TableStatus != types.TableStatusCreating && r.TableDescription.TableStatus != types.TableStatusActive {
		t.Fatalf("restore answered %s", r.TableDescription.TableStatus)
	}
	if rs := r.TableDescription.RestoreSummary; rs == nil || aws.ToString(rs.SourceBackupArn) != arn || aws.ToString(rs.SourceTableArn) != tableARN("music") {
		t.Fatalf("RestoreSummary %+v", r.TableDescription.RestoreSummary)
	}
	restored := waitTableActive(t, c, "music2")
	if len(restored.GlobalSecondaryIndexes) != 1 || restored.GlobalSecondaryIndexes[0].IndexStatus != types.IndexStatusActive {
		t.Fatalf("restored GSIs %+v", restored.GlobalSecondaryIndexes)
	}
	sameRestored(t, c, "music2", want)

	del, err := c.DeleteBackup(bg(), &dynamodb.DeleteBackupInput{BackupArn: aws.String(arn)})
	if err != nil {
		t.Fatal(err)
	}
	if del.BackupDescription.BackupDetails.BackupStatus != types.BackupStatusDeleted {
		t.Fatalf("DeleteBackup status %s", del.BackupDescription.BackupDetails.BackupStatus)
	}
	_, err = c.DescribeBackup(bg(), &dynamodb.DescribeBackupInput{BackupArn: aws.String(arn)})
	wantErr(t, err, "BackupNotFoundException", "Backup not found: "+arn) // steampipe
	_ = s
}

// TestBackupErrors: each backup operation's refusals, in DynamoDB's words.
func TestBackupErrors(t *testing.T) {
	s, c := start(t)
	createBackupSource(t, c, "src", 3)
	createHash(t, c, "taken", types.ScalarAttributeTypeS)
	missing := tableARN("src") + "/backup/01700000000000-0badc0de"

	_, err := c.CreateBackup(bg(), &dynamodb.CreateBackupInput{TableName: aws.String("nope"), BackupName: aws.String("bk1")})
	wantErr(t, err, "TableNotFoundException", "Table not found: nope") // quirks; API reference
	_, err = c.CreateBackup(bg(), &dynamodb.CreateBackupInput{TableName: aws.String("src"), BackupName: aws.String("")})
	wantConstraints(t, err, // quirks, backup catalogue
		"Value '' at 'backupName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+",
		"Value '' at 'backupName' failed to satisfy constraint: Member must have length greater than or equal to 3")
	_, err = c.DescribeBackup(bg(), &dynamodb.DescribeBackupInput{BackupArn: aws.String(missing)})
	wantErr(t, err, "BackupNotFoundException", "Backup not found: "+missing) // steampipe
	_, err = c.DeleteBackup(bg(), &dynamodb.DeleteBackupInput{BackupArn: aws.String(missing)})
	wantErr(t, err, "BackupNotFoundException", "Backup not found: "+missing)
	_, err = c.DescribeBackup(bg(), &dynamodb.DescribeBackupInput{BackupArn: aws.String("")})
	wantValidation(t, err, "Invalid Backup ARN") // quirks
	_, err = c.DescribeBackup(bg(), &dynamodb.DescribeBackupInput{BackupArn: aws.String(tableARN("src"))})
	wantValidation(t, err, "Invalid Backup ARN") // quirks: a table's ARN
	_, err = c.ListBackups(bg(), &dynamodb.ListBackupsInput{Limit: aws.Int32(101)})
	wantConstraints(t, err, "Value '101' at 'limit' failed to satisfy constraint: Member must have value less than or equal to 100")
	lo, hi := time.Now(), time.Now().Add(-time.Hour)
	_, err = c.ListBackups(bg(), &dynamodb.ListBackupsInput{TimeRangeLowerBound: &lo, TimeRangeUpperBound: &hi})
	wantValidation(t, err, "Time range lower bound must be less than or equal to upper bound") // quirks

	out, err := c.CreateBackup(bg(), &dynamodb.CreateBackupInput{TableName: aws.String("src"), BackupName: aws.String("bk1")})
	if err != nil {
		t.Fatal(err)
	}
	arn := aws.ToString(out.BackupDetails.BackupArn)
	waitBackupAvailable(t, c, arn)
	_, err = c.RestoreTableFromBackup(bg(), &dynamodb.RestoreTableFromBackupInput{TargetTableName: aws.String("taken"), BackupArn: aws.String(arn)})
	wantErr(t, err, "TableAlreadyExistsException", "Table already exists: taken") // quirks, DDB-TABLE-275
	_, err = c.RestoreTableFromBackup(bg(), &dynamodb.RestoreTableFromBackupInput{TargetTableName: aws.String("bad name!"), BackupArn: aws.String(arn)})
	wantConstraints(t, err, "Value 'bad name!' at 'targetTableName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+")
	_, err = c.RestoreTableFromBackup(bg(), &dynamodb.RestoreTableFromBackupInput{TargetTableName: aws.String(""), BackupArn: aws.String(arn)})
	wantValidation(t, err, "TableName must be at least 3 characters long and at most 255 characters long") // quirks
	_, err = c.RestoreTableFromBackup(bg(), &dynamodb.RestoreTableFromBackupInput{TargetTableName: aws.String("new1"), BackupArn: aws.String(arn),
		BillingModeOverride: types.BillingModeProvisioned})
	wantValidation(t, err, "Must override ProvisionedThroughput if BillingMode is overridden to PROVISIONED") // quirks, DDB-TABLE-273
	_, err = c.RestoreTableFromBackup(bg(), &dynamodb.RestoreTableFromBackupInput{TargetTableName: aws.String("new1"), BackupArn: aws.String(arn),
		GlobalSecondaryIndexOverride: []types.GlobalSecondaryIndex{{IndexName: aws.String("other"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("g"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}}})
	wantValidation(t, err, "Index other does not match a secondary index that existed in the source table and cannot be created during the restore operation") // quirks, DDB-TABLE-273

	// GlobalSecondaryIndexOverride: [] restores no index (quirks,
	// DDB-TABLE-215); a provisioned override applies.
	r, err := c.RestoreTableFromBackup(bg(), &dynamodb.RestoreTableFromBackupInput{TargetTableName: aws.String("new2"), BackupArn: aws.String(arn),
		GlobalSecondaryIndexOverride:  []types.GlobalSecondaryIndex{},
		BillingModeOverride:           types.BillingModeProvisioned,
		ProvisionedThroughputOverride: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(3), WriteCapacityUnits: aws.Int64(4)}})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.TableDescription.GlobalSecondaryIndexes) != 0 {
		t.Fatalf("GSIs %+v", r.TableDescription.GlobalSecondaryIndexes)
	}
	d := waitTableActive(t, c, "new2")
	if aws.ToInt64(d.ProvisionedThroughput.ReadCapacityUnits) != 3 || d.BillingModeSummary == nil || d.BillingModeSummary.BillingMode != types.BillingModeProvisioned {
		t.Fatalf("restored billing %+v %+v", d.ProvisionedThroughput, d.BillingModeSummary)
	}

	// The raw protocol, for members the SDK will not send empty.
	res := s.Raw(t, "CreateBackup", `{"TableName":"src"}`)
	checkRaw(t, res, 400, "com.amazon.coral.validate#ValidationException",
		"1 validation error detected: Value null at 'backupName' failed to satisfy constraint: Member must not be null")
}

// TestListBackupsPages: newest last, Limit pages with
// LastEvaluatedBackupArn, absent on the last page (quirks: a Limit equal
// to the matches answers none).
func TestListBackupsPages(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "tb1", types.ScalarAttributeTypeS)
	var arns []string
	for i := 0; i < 3; i++ {
		out, err := c.CreateBackup(bg(), &dynamodb.CreateBackupInput{TableName: aws.String("tb1"), BackupName: aws.String("same")})
		if err != nil {
			t.Fatal(err)
		}
		arns = append(arns, aws.ToString(out.BackupDetails.BackupArn))
	}
	var got []string
	var start *string
	pages := 0
	for {
		out, err := c.ListBackups(bg(), &dynamodb.ListBackupsInput{Limit: aws.Int32(2), ExclusiveStartBackupArn: start})
		if err != nil {
			t.Fatal(err)
		}
		pages++
		for _, b := range out.BackupSummaries {
			got = append(got, aws.ToString(b.BackupArn))
			if aws.ToString(b.TableName) != "tb1" || aws.ToString(b.BackupName) != "same" {
				t.Fatalf("summary %+v", b)
			}
		}
		if start = out.LastEvaluatedBackupArn; start == nil {
			break
		}
	}
	if pages != 2 || strings.Join(got, ",") != strings.Join(arns, ",") {
		t.Fatalf("%d pages: %v\nwant %v", pages, got, arns)
	}
	out, err := c.ListBackups(bg(), &dynamodb.ListBackupsInput{Limit: aws.Int32(3)})
	if err != nil || len(out.BackupSummaries) != 3 || out.LastEvaluatedBackupArn != nil {
		t.Fatalf("Limit 3: %+v %v", out, err)
	}
	// SYSTEM backups only: none.
	out, err = c.ListBackups(bg(), &dynamodb.ListBackupsInput{BackupType: types.BackupTypeFilterSystem})
	if err != nil || len(out.BackupSummaries) != 0 {
		t.Fatalf("SYSTEM: %+v %v", out, err)
	}
}

// TestPointInTimeRecovery turns PITR on, restores to a moment between
// writes and to the latest time, and checks the refusals.
func TestPointInTimeRecovery(t *testing.T) {
	s, c := start(t)
	want := createBackupSource(t, c, "orders", 30)

	// Never enabled: ENABLED continuous backups, PITR DISABLED, nothing
	// else (quirks; scoutsuite; API reference).
	cb, err := c.DescribeContinuousBackups(bg(), &dynamodb.DescribeContinuousBackupsInput{TableName: aws.String("orders")})
	if err != nil {
		t.Fatal(err)
	}
	if d := cb.ContinuousBackupsDescription; d.ContinuousBackupsStatus != types.ContinuousBackupsStatusEnabled ||
		d.PointInTimeRecoveryDescription.PointInTimeRecoveryStatus != types.PointInTimeRecoveryStatusDisabled ||
		d.PointInTimeRecoveryDescription.EarliestRestorableDateTime != nil || d.PointInTimeRecoveryDescription.RecoveryPeriodInDays != nil {
		t.Fatalf("never enabled: %+v", d.PointInTimeRecoveryDescription)
	}
	_, err = c.DescribeContinuousBackups(bg(), &dynamodb.DescribeContinuousBackupsInput{TableName: aws.String("nope")})
	wantErr(t, err, "TableNotFoundException", "Table not found: nope") // scoutsuite
	latest := true
	_, err = c.RestoreTableToPointInTime(bg(), &dynamodb.RestoreTableToPointInTimeInput{SourceTableName: aws.String("orders"), TargetTableName: aws.String("or2"), UseLatestRestorableTime: &latest})
	wantErr(t, err, "PointInTimeRecoveryUnavailableException", "Point in time recovery is not enabled for table 'orders'") // quirks, DDB-TABLE-100; moto-export

	for _, tc := range []struct {
		body, msg string
	}{
		// quirks, DDB-TABLE-457
		{`{"TableName":"orders","PointInTimeRecoverySpecification":{"PointInTimeRecoveryEnabled":true,"RecoveryPeriodInDays":36}}`,
			"1 validation error detected: Value '36' at 'pointInTimeRecoverySpecification.recoveryPeriodInDays' failed to satisfy constraint: Member must have value less than or equal to 35"},
		{`{"TableName":"orders","PointInTimeRecoverySpecification":{"PointInTimeRecoveryEnabled":true,"RecoveryPeriodInDays":0}}`,
			"1 validation error detected: Value '0' at 'pointInTimeRecoverySpecification.recoveryPeriodInDays' failed to satisfy constraint: Member must have value greater than or equal to 1"},
		{`{"TableName":"orders","PointInTimeRecoverySpecification":{"PointInTimeRecoveryEnabled":false,"RecoveryPeriodInDays":7}}`,
			"Invalid Request: Cannot specify RecoveryPeriodInDays when disabling point-in-time recovery."},
		{`{"TableName":"orders","PointInTimeRecoverySpecification":{}}`,
			"1 validation error detected: Value null at 'pointInTimeRecoverySpecification.pointInTimeRecoveryEnabled' failed to satisfy constraint: Member must not be null"},
	} {
		checkRaw(t, s.Raw(t, "UpdateContinuousBackups", tc.body), 400, "com.amazon.coral.validate#ValidationException", tc.msg)
	}
	_, err = c.UpdateContinuousBackups(bg(), &dynamodb.UpdateContinuousBackupsInput{TableName: aws.String("nope"),
		PointInTimeRecoverySpecification: &types.PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: aws.Bool(true)}})
	wantErr(t, err, "TableNotFoundException", "Table not found: nope")

	up, err := c.UpdateContinuousBackups(bg(), &dynamodb.UpdateContinuousBackupsInput{TableName: aws.String("orders"),
		PointInTimeRecoverySpecification: &types.PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: aws.Bool(true)}})
	if err != nil {
		t.Fatal(err)
	}
	enabled := time.Now() // after the window's start
	pd := up.ContinuousBackupsDescription.PointInTimeRecoveryDescription
	if pd.PointInTimeRecoveryStatus != types.PointInTimeRecoveryStatusEnabled || aws.ToInt32(pd.RecoveryPeriodInDays) != 35 ||
		pd.EarliestRestorableDateTime == nil || pd.LatestRestorableDateTime == nil {
		t.Fatalf("enabled: %+v", pd)
	}
	// A moment between writes: the clock past the enabling and every
	// acknowledged write by a millisecond (the wire carries
	// milliseconds), then more writes once the clock is past it too.
	at := waitClockPast(enabled).Truncate(time.Millisecond)
	waitClockPast(at)
	for i := 0; i < 10; i++ {
		if _, err := c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("orders"),
			Item: map[string]types.AttributeValue{"pk": S("p1"), "sk": N(fmt.Sprint(1000 + i)), "g": S("new")}}); err != nil {
			t.Fatal(err)
		}
		if _, err := c.DeleteItem(bg(), &dynamodb.DeleteItemInput{TableName: aws.String("orders"),
			Key: map[string]types.AttributeValue{"pk": S(fmt.Sprintf("p%d", i%7)), "sk": N(fmt.Sprint(i))}}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.RestoreTableToPointInTime(bg(), &dynamodb.RestoreTableToPointInTimeInput{
		SourceTableName: aws.String("orders"), TargetTableName: aws.String("orders-at"), RestoreDateTime: &at}); err != nil {
		t.Fatal(err)
	}
	waitTableActive(t, c, "orders-at")
	sameRestored(t, c, "orders-at", want)

	r, err := c.RestoreTableToPointInTime(bg(), &dynamodb.RestoreTableToPointInTimeInput{
		SourceTableArn: aws.String(tableARN("orders")), TargetTableName: aws.String("orders-now"), UseLatestRestorableTime: &latest})
	if err != nil {
		t.Fatal(err)
	}
	if rs := r.TableDescription.RestoreSummary; rs == nil || rs.SourceBackupArn != nil || aws.ToString(rs.SourceTableArn) != tableARN("orders") {
		t.Fatalf("RestoreSummary %+v", r.TableDescription.RestoreSummary)
	}
	waitTableActive(t, c, "orders-now")
	now, _ := scanItems(t, c, "orders")
	sameRestored(t, c, "orders-now", now)

	// Refusals, in DynamoDB's order: shape, source, PITR, time, target
	// (quirks, table-restore catalogue).
	past := time.Now().Add(-48 * time.Hour)
	for _, tc := range []struct {
		name      string
		in        dynamodb.RestoreTableToPointInTimeInput
		code, msg string
	}{
		{"both sources", dynamodb.RestoreTableToPointInTimeInput{SourceTableName: aws.String("orders"), SourceTableArn: aws.String(tableARN("orders")), TargetTableName: aws.String("x01"), UseLatestRestorableTime: &latest},
			"ValidationException", "Must provide exactly one of: sourceTableArn, sourceTableName"},
		{"both times", dynamodb.RestoreTableToPointInTimeInput{SourceTableName: aws.String("orders"), TargetTableName: aws.String("x01"), UseLatestRestorableTime: &latest, RestoreDateTime: &at},
			"ValidationException", "Invalid Request: Both RestoreDateTime and UseLatestRestorableTime cannot be set for point-in-time restore request. Please specify either RestoreDateTime time or UseLatestRestorableTime"},
		{"no time", dynamodb.RestoreTableToPointInTimeInput{SourceTableName: aws.String("orders"), TargetTableName: aws.String("x01")},
			"ValidationException", "Invalid Request: Either one of RestoreDateTime or UseLatestRestorableTime must be specified, but not both"},
		{"missing source, target taken", dynamodb.RestoreTableToPointInTimeInput{SourceTableName: aws.String("gone"), TargetTableName: aws.String("orders-at"), UseLatestRestorableTime: &latest},
			"TableNotFoundException", "Table not found: gone"},
		{"target taken", dynamodb.RestoreTableToPointInTimeInput{SourceTableName: aws.String("orders"), TargetTableName: aws.String("orders-at"), UseLatestRestorableTime: &latest},
			"TableAlreadyExistsException", "Table already exists: orders-at"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.RestoreTableToPointInTime(bg(), &tc.in)
			wantErr(t, err, tc.code, tc.msg)
		})
	}
	_, err = c.RestoreTableToPointInTime(bg(), &dynamodb.RestoreTableToPointInTimeInput{SourceTableName: aws.String("orders"), TargetTableName: aws.String("orders-at"), RestoreDateTime: &past})
	wantErrPrefix(t, err, "InvalidRestoreTimeException", "RestoreDateTime '"+past.UTC().Format("2006-01-02T15:04:05Z")+"' must be within EarliestRestorableDateTime '"+pd.EarliestRestorableDateTime.UTC().Format("2006-01-02T15:04:05Z")+"' and LatestRestorableDateTime '")

	// Disabled again: the window is gone.
	if _, err := c.UpdateContinuousBackups(bg(), &dynamodb.UpdateContinuousBackupsInput{TableName: aws.String("orders"),
		PointInTimeRecoverySpecification: &types.PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: aws.Bool(false)}}); err != nil {
		t.Fatal(err)
	}
	cb, err = c.DescribeContinuousBackups(bg(), &dynamodb.DescribeContinuousBackupsInput{TableName: aws.String("orders")})
	if err != nil || cb.ContinuousBackupsDescription.PointInTimeRecoveryDescription.PointInTimeRecoveryStatus != types.PointInTimeRecoveryStatusDisabled {
		t.Fatalf("after disabling: %+v %v", cb, err)
	}
}

// wantErrPrefix checks the error code and the start of its message.
func wantErrPrefix(t *testing.T, err error, code, prefix string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want %s", code)
	}
	msg := err.Error()
	if !strings.Contains(msg, code) || !strings.Contains(msg, prefix) {
		t.Fatalf("got %v\nwant %s: %s...", err, code, prefix)
	}
}

// waitClockPast waits until the clock is past t by a millisecond, and
// returns the time then. It waits for a condition of the clock, not for
// a duration of work.
func waitClockPast(t time.Time) time.Time {
	for {
		now := time.Now()
		if now.After(t.Add(time.Millisecond)) {
			return now
		}
		time.Sleep(100 * time.Microsecond)
	}
}

// TestPointInTimeRestoresMatchModel runs random puts, updates, deletes and
// two-item transactions, notes a dozen moments between them with the
// table as the writes left it, and restores the table to each: every
// restore holds exactly the items acknowledged before its moment, and its
// GSI exactly those of them with a g.
func TestPointInTimeRestoresMatchModel(t *testing.T) {
	_, c := start(t)
	model := createBackupSource(t, c, "hist", 40)
	if _, err := c.UpdateContinuousBackups(bg(), &dynamodb.UpdateContinuousBackupsInput{TableName: aws.String("hist"),
		PointInTimeRecoverySpecification: &types.PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: aws.Bool(true)}}); err != nil {
		t.Fatal(err)
	}
	clone := func() map[string]map[string]types.AttributeValue {
		m := make(map[string]map[string]types.AttributeValue, len(model))
		for k, v := range model {
			m[k] = v
		}
		return m
	}
	item := func(sk int, v int) map[string]types.AttributeValue {
		it := map[string]types.AttributeValue{"pk": S(fmt.Sprintf("p%d", sk%7)), "sk": N(fmt.Sprint(sk)), "v": N(fmt.Sprint(v))}
		if v%3 != 0 {
			it["g"] = S(fmt.Sprintf("g%d", v%4))
		}
		return it
	}
	type point struct {
		at   time.Time
		want map[string]map[string]types.AttributeValue
	}
	var points []point
	last := waitClockPast(time.Now())
	seed := uint64(17)
	rnd := func(n int) int {
		seed = seed*6364136223846793005 + 1442695040888963407
		return int((seed >> 33) % uint64(n))
	}
	for i := 0; len(points) < 12; i++ {
		if i%25 == 24 {
			at := waitClockPast(last).Truncate(time.Millisecond)
			points = append(points, point{at, clone()})
			waitClockPast(at)
		}
		sk := rnd(60)
		switch r := rnd(10); {
		case r < 5:
			it := item(sk, rnd(1000))
			if _, err := c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("hist"), Item: it}); err != nil {
				t.Fatal(err)
			}
			model[fmt.Sprint(sk)] = it
		case r < 7:
			// An update of a stored item: SET v, and g as it goes.
			old, ok := model[fmt.Sprint(sk)]
			if !ok {
				continue
			}
			it := item(sk, rnd(1000))
			expr, vals := "SET v = :v REMOVE g", map[string]types.AttributeValue{":v": it["v"]}
			if g, ok := it["g"]; ok {
				expr, vals[":g"] = "SET v = :v, g = :g", g
			}
			if _, err := c.UpdateItem(bg(), &dynamodb.UpdateItemInput{TableName: aws.String("hist"),
				Key: map[string]types.AttributeValue{"pk": old["pk"], "sk": old["sk"]}, UpdateExpression: aws.String(expr), ExpressionAttributeValues: vals}); err != nil {
				t.Fatal(err)
			}
			model[fmt.Sprint(sk)] = it
		case r < 8:
			it := item(sk, 0)
			if _, err := c.DeleteItem(bg(), &dynamodb.DeleteItemInput{TableName: aws.String("hist"),
				Key: map[string]types.AttributeValue{"pk": it["pk"], "sk": it["sk"]}}); err != nil {
				t.Fatal(err)
			}
			delete(model, fmt.Sprint(sk))
		default:
			sk2 := (sk + 1 + rnd(58)) % 60
			a, b := item(sk, rnd(1000)), item(sk2, rnd(1000))
			if _, err := c.TransactWriteItems(bg(), &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
				{Put: &types.Put{TableName: aws.String("hist"), Item: a}},
				{Put: &types.Put{TableName: aws.String("hist"), Item: b}},
			}}); err != nil {
				t.Fatal(err)
			}
			model[fmt.Sprint(sk)], model[fmt.Sprint(sk2)] = a, b
		}
		last = time.Now()
	}
	for i, p := range points {
		name := fmt.Sprintf("hist-at-%02d", i)
		at := p.at
		if _, err := c.RestoreTableToPointInTime(bg(), &dynamodb.RestoreTableToPointInTimeInput{
			SourceTableName: aws.String("hist"), TargetTableName: aws.String(name), RestoreDateTime: &at}); err != nil {
			t.Fatal(err)
		}
	}
	for i, p := range points {
		name := fmt.Sprintf("hist-at-%02d", i)
		waitTableActive(t, c, name)
		sameRestored(t, c, name, p.want)
	}
}
