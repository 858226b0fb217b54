package local_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/local"
)

// TestDirectMissingMembers takes a valid request of each kind that
// changes the database (and of the backup, export and import operations) and, one at a time, leaves out each of its
// members at any depth (a nil pointer, slice, map or attribute value):
// the direct client must answer every such request as the SDK's client
// does, the SDK's own validation of required members included, and
// change the database only when the SDK's does.
func TestDirectMissingMembers(t *testing.T) {
	ctx := context.Background()
	str := func(s string) *string { return aws.String(s) }
	key := func(pk string) map[string]types.AttributeValue { return dkey(pk, "1") }
	values := map[string]types.AttributeValue{":v": &types.AttributeValueMemberS{Value: "x"}}
	const backupArn = "arn:aws:dynamodb:us-east-1:000000000000:table/Tab/backup/01700000000123-abcdef01"
	const tableArn = "arn:aws:dynamodb:us-east-1:000000000000:table/Tab"
	const kinesisArn = "arn:aws:kinesis:us-east-1:000000000000:stream/changes"
	requests := map[string]func() (any, func(local.API, any) error){
		"PutItem": func() (any, func(local.API, any) error) {
			return &dynamodb.PutItemInput{TableName: str("Tab"), Item: key("n"), ConditionExpression: str("attribute_not_exists(v) OR v <> :v"),
					ExpressionAttributeValues: values, ExpressionAttributeNames: map[string]string{"#v": "v"}},
				func(c local.API, in any) error { _, err := c.PutItem(ctx, in.(*dynamodb.PutItemInput)); return err }
		},
		"UpdateItem": func() (any, func(local.API, any) error) {
			return &dynamodb.UpdateItemInput{TableName: str("Tab"), Key: key("a"), UpdateExpression: str("SET v = :v"), ExpressionAttributeValues: values},
				func(c local.API, in any) error {
					_, err := c.UpdateItem(ctx, in.(*dynamodb.UpdateItemInput))
					return err
				}
		},
		"DeleteItem": func() (any, func(local.API, any) error) {
			return &dynamodb.DeleteItemInput{TableName: str("Tab"), Key: key("a"), ConditionExpression: str("attribute_exists(pk)")},
				func(c local.API, in any) error {
					_, err := c.DeleteItem(ctx, in.(*dynamodb.DeleteItemInput))
					return err
				}
		},
		"TransactWriteItems": func() (any, func(local.API, any) error) {
			return &dynamodb.TransactWriteItemsInput{ClientRequestToken: str("token"), TransactItems: []types.TransactWriteItem{
					{Put: &types.Put{TableName: str("Tab"), Item: key("p"), ConditionExpression: str("attribute_not_exists(pk)")}},
					{Update: &types.Update{TableName: str("Tab"), Key: key("u"), UpdateExpression: str("SET v = :v"), ExpressionAttributeValues: values}},
					{Delete: &types.Delete{TableName: str("Tab"), Key: key("d")}},
					{ConditionCheck: &types.ConditionCheck{TableName: str("Tab"), Key: key("a"), ConditionExpression: str("attribute_exists(pk)")}},
				}},
				func(c local.API, in any) error {
					_, err := c.TransactWriteItems(ctx, in.(*dynamodb.TransactWriteItemsInput))
					return err
				}
		},
		"TransactGetItems": func() (any, func(local.API, any) error) {
			return &dynamodb.TransactGetItemsInput{TransactItems: []types.TransactGetItem{{Get: &types.Get{TableName: str("Tab"), Key: key("a"), ProjectionExpression: str("pk")}}}},
				func(c local.API, in any) error {
					_, err := c.TransactGetItems(ctx, in.(*dynamodb.TransactGetItemsInput))
					return err
				}
		},
		"CreateTable": func() (any, func(local.API, any) error) {
			return &dynamodb.CreateTableInput{TableName: str("New"),
					AttributeDefinitions: []types.AttributeDefinition{{AttributeName: str("pk"), AttributeType: types.ScalarAttributeTypeS}, {AttributeName: str("g"), AttributeType: types.ScalarAttributeTypeS}},
					KeySchema:            []types.KeySchemaElement{{AttributeName: str("pk"), KeyType: types.KeyTypeHash}},
					GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: str("gsi"), KeySchema: []types.KeySchemaElement{{AttributeName: str("g"), KeyType: types.KeyTypeHash}},
						Projection:            &types.Projection{ProjectionType: types.ProjectionTypeAll},
						ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(1), WriteCapacityUnits: aws.Int64(1)}}},
					ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(1), WriteCapacityUnits: aws.Int64(1)},
					StreamSpecification:   &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeKeysOnly},
					SSESpecification:      &types.SSESpecification{Enabled: aws.Bool(true), KMSMasterKeyId: str("key")},
					Tags:                  []types.Tag{{Key: str("k"), Value: str("v")}}},
				func(c local.API, in any) error {
					_, err := c.CreateTable(ctx, in.(*dynamodb.CreateTableInput))
					return err
				}
		},
		"UpdateTable": func() (any, func(local.API, any) error) {
			return &dynamodb.UpdateTableInput{TableName: str("Tab"),
					AttributeDefinitions: []types.AttributeDefinition{{AttributeName: str("g"), AttributeType: types.ScalarAttributeTypeS}},
					GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{IndexName: str("gsi"),
						KeySchema:  []types.KeySchemaElement{{AttributeName: str("g"), KeyType: types.KeyTypeHash}},
						Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}}}}},
				func(c local.API, in any) error {
					_, err := c.UpdateTable(ctx, in.(*dynamodb.UpdateTableInput))
					return err
				}
		},
		"UpdateTimeToLive": func() (any, func(local.API, any) error) {
			return &dynamodb.UpdateTimeToLiveInput{TableName: str("Tab"), TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: str("ttl"), Enabled: aws.Bool(true)}},
				func(c local.API, in any) error {
					_, err := c.UpdateTimeToLive(ctx, in.(*dynamodb.UpdateTimeToLiveInput))
					return err
				}
		},
		"CreateBackup": func() (any, func(local.API, any) error) {
			return &dynamodb.CreateBackupInput{TableName: str("Tab"), BackupName: str("b")},
				func(c local.API, in any) error {
					_, err := c.CreateBackup(ctx, in.(*dynamodb.CreateBackupInput))
					return err
				}
		},
		"DescribeBackup": func() (any, func(local.API, any) error) {
			return &dynamodb.DescribeBackupInput{BackupArn: str(backupArn)},
				func(c local.API, in any) error {
					_, err := c.DescribeBackup(ctx, in.(*dynamodb.DescribeBackupInput))
					return err
				}
		},
		"ListBackups": func() (any, func(local.API, any) error) {
			return &dynamodb.ListBackupsInput{TableName: str("Tab"), Limit: aws.Int32(2), TimeRangeLowerBound: aws.Time(time.Unix(1700000000, 0)),
					TimeRangeUpperBound: aws.Time(time.Unix(1700000100, 0)), ExclusiveStartBackupArn: str(backupArn), BackupType: types.BackupTypeFilterAll},
				func(c local.API, in any) error {
					_, err := c.ListBackups(ctx, in.(*dynamodb.ListBackupsInput))
					return err
				}
		},
		"DeleteBackup": func() (any, func(local.API, any) error) {
			return &dynamodb.DeleteBackupInput{BackupArn: str(backupArn)},
				func(c local.API, in any) error {
					_, err := c.DeleteBackup(ctx, in.(*dynamodb.DeleteBackupInput))
					return err
				}
		},
		"RestoreTableFromBackup": func() (any, func(local.API, any) error) {
			return &dynamodb.RestoreTableFromBackupInput{TargetTableName: str("Restored"), BackupArn: str(backupArn),
					BillingModeOverride: types.BillingModeProvisioned,
					GlobalSecondaryIndexOverride: []types.GlobalSecondaryIndex{{IndexName: str("gsi"), KeySchema: []types.KeySchemaElement{{AttributeName: str("g"), KeyType: types.KeyTypeHash}},
						Projection:            &types.Projection{ProjectionType: types.ProjectionTypeAll},
						ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(1), WriteCapacityUnits: aws.Int64(1)}}},
					LocalSecondaryIndexOverride: []types.LocalSecondaryIndex{{IndexName: str("lsi"), KeySchema: []types.KeySchemaElement{{AttributeName: str("pk"), KeyType: types.KeyTypeHash}, {AttributeName: str("l"), KeyType: types.KeyTypeRange}},
						Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}}},
					ProvisionedThroughputOverride: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(1), WriteCapacityUnits: aws.Int64(1)},
					SSESpecificationOverride:      &types.SSESpecification{Enabled: aws.Bool(true), KMSMasterKeyId: str("key")}},
				func(c local.API, in any) error {
					_, err := c.RestoreTableFromBackup(ctx, in.(*dynamodb.RestoreTableFromBackupInput))
					return err
				}
		},
		"UpdateContinuousBackups": func() (any, func(local.API, any) error) {
			return &dynamodb.UpdateContinuousBackupsInput{TableName: str("Tab"), PointInTimeRecoverySpecification: &types.PointInTimeRecoverySpecification{
					PointInTimeRecoveryEnabled: aws.Bool(true), RecoveryPeriodInDays: aws.Int32(7)}},
				func(c local.API, in any) error {
					_, err := c.UpdateContinuousBackups(ctx, in.(*dynamodb.UpdateContinuousBackupsInput))
					return err
				}
		},
		"DescribeContributorInsights": func() (any, func(local.API, any) error) {
			return &dynamodb.DescribeContributorInsightsInput{TableName: str("Tab"), IndexName: str("gsi")},
				func(c local.API, in any) error {
					_, err := c.DescribeContributorInsights(ctx, in.(*dynamodb.DescribeContributorInsightsInput))
					return err
				}
		},
		"UpdateContributorInsights": func() (any, func(local.API, any) error) {
			return &dynamodb.UpdateContributorInsightsInput{TableName: str("Tab"), IndexName: str("gsi"),
					ContributorInsightsAction: types.ContributorInsightsActionEnable, ContributorInsightsMode: types.ContributorInsightsModeThrottledKeys},
				func(c local.API, in any) error {
					_, err := c.UpdateContributorInsights(ctx, in.(*dynamodb.UpdateContributorInsightsInput))
					return err
				}
		},
		"PutResourcePolicy": func() (any, func(local.API, any) error) {
			return &dynamodb.PutResourcePolicyInput{ResourceArn: str("arn:aws:dynamodb:us-east-1:852375281893:table/Tab"), Policy: str("{}"),
					ExpectedRevisionId: str("1"), ConfirmRemoveSelfResourceAccess: true},
				func(c local.API, in any) error {
					_, err := c.PutResourcePolicy(ctx, in.(*dynamodb.PutResourcePolicyInput))
					return err
				}
		},
		"GetResourcePolicy": func() (any, func(local.API, any) error) {
			return &dynamodb.GetResourcePolicyInput{ResourceArn: str("arn:aws:dynamodb:us-east-1:852375281893:table/Tab")},
				func(c local.API, in any) error {
					_, err := c.GetResourcePolicy(ctx, in.(*dynamodb.GetResourcePolicyInput))
					return err
				}
		},
		"DeleteResourcePolicy": func() (any, func(local.API, any) error) {
			return &dynamodb.DeleteResourcePolicyInput{ResourceArn: str("arn:aws:dynamodb:us-east-1:852375281893:table/Tab"), ExpectedRevisionId: str("1")},
				func(c local.API, in any) error {
					_, err := c.DeleteResourcePolicy(ctx, in.(*dynamodb.DeleteResourcePolicyInput))
					return err
				}
		},
		"ListContributorInsights": func() (any, func(local.API, any) error) {
			return &dynamodb.ListContributorInsightsInput{TableName: str("Tab"), NextToken: str("Tab/"), MaxResults: 5},
				func(c local.API, in any) error {
					_, err := c.ListContributorInsights(ctx, in.(*dynamodb.ListContributorInsightsInput))
					return err
				}
		},
		"DescribeGlobalTable": func() (any, func(local.API, any) error) {
			return &dynamodb.DescribeGlobalTableInput{GlobalTableName: str("Tab")},
				func(c local.API, in any) error {
					_, err := c.DescribeGlobalTable(ctx, in.(*dynamodb.DescribeGlobalTableInput))
					return err
				}
		},
		"DescribeGlobalTableSettings": func() (any, func(local.API, any) error) {
			return &dynamodb.DescribeGlobalTableSettingsInput{GlobalTableName: str("Tab")},
				func(c local.API, in any) error {
					_, err := c.DescribeGlobalTableSettings(ctx, in.(*dynamodb.DescribeGlobalTableSettingsInput))
					return err
				}
		},
		"ListGlobalTables": func() (any, func(local.API, any) error) {
			return &dynamodb.ListGlobalTablesInput{ExclusiveStartGlobalTableName: str("Tab"), Limit: aws.Int32(1), RegionName: str("us-east-1")},
				func(c local.API, in any) error {
					_, err := c.ListGlobalTables(ctx, in.(*dynamodb.ListGlobalTablesInput))
					return err
				}
		},
		"DescribeTableReplicaAutoScaling": func() (any, func(local.API, any) error) {
			return &dynamodb.DescribeTableReplicaAutoScalingInput{TableName: str("Tab")},
				func(c local.API, in any) error {
					_, err := c.DescribeTableReplicaAutoScaling(ctx, in.(*dynamodb.DescribeTableReplicaAutoScalingInput))
					return err
				}
		},
		"EnableKinesisStreamingDestination": func() (any, func(local.API, any) error) {
			return &dynamodb.EnableKinesisStreamingDestinationInput{TableName: str("Tab"), StreamArn: str(kinesisArn),
					EnableKinesisStreamingConfiguration: &types.EnableKinesisStreamingConfiguration{ApproximateCreationDateTimePrecision: types.ApproximateCreationDateTimePrecisionMicrosecond}},
				func(c local.API, in any) error {
					_, err := c.EnableKinesisStreamingDestination(ctx, in.(*dynamodb.EnableKinesisStreamingDestinationInput))
					return err
				}
		},
		"UpdateKinesisStreamingDestination": func() (any, func(local.API, any) error) {
			return &dynamodb.UpdateKinesisStreamingDestinationInput{TableName: str("Tab"), StreamArn: str(kinesisArn),
					UpdateKinesisStreamingConfiguration: &types.UpdateKinesisStreamingConfiguration{ApproximateCreationDateTimePrecision: types.ApproximateCreationDateTimePrecisionMicrosecond}},
				func(c local.API, in any) error {
					_, err := c.UpdateKinesisStreamingDestination(ctx, in.(*dynamodb.UpdateKinesisStreamingDestinationInput))
					return err
				}
		},
		"UpdateTableReplicaAutoScaling": func() (any, func(local.API, any) error) {
			settings := func() *types.AutoScalingSettingsUpdate {
				return &types.AutoScalingSettingsUpdate{MinimumUnits: aws.Int64(1), MaximumUnits: aws.Int64(5), AutoScalingDisabled: aws.Bool(false),
					AutoScalingRoleArn: str("arn:aws:iam::000000000000:role/r"), ScalingPolicyUpdate: &types.AutoScalingPolicyUpdate{PolicyName: str("p"),
						TargetTrackingScalingPolicyConfiguration: &types.AutoScalingTargetTrackingScalingPolicyConfigurationUpdate{TargetValue: aws.Float64(70)}}}
			}
			return &dynamodb.UpdateTableReplicaAutoScalingInput{TableName: str("Tab"), ProvisionedWriteCapacityAutoScalingUpdate: settings(),
					GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexAutoScalingUpdate{{IndexName: str("gsi"), ProvisionedWriteCapacityAutoScalingUpdate: settings()}},
					ReplicaUpdates: []types.ReplicaAutoScalingUpdate{{RegionName: str("us-west-2"), ReplicaProvisionedReadCapacityAutoScalingUpdate: settings(),
						ReplicaGlobalSecondaryIndexUpdates: []types.ReplicaGlobalSecondaryIndexAutoScalingUpdate{{IndexName: str("gsi"), ProvisionedReadCapacityAutoScalingUpdate: settings()}}}}},
				func(c local.API, in any) error {
					_, err := c.UpdateTableReplicaAutoScaling(ctx, in.(*dynamodb.UpdateTableReplicaAutoScalingInput))
					return err
				}
		},
		"DescribeContinuousBackups": func() (any, func(local.API, any) error) {
			return &dynamodb.DescribeContinuousBackupsInput{TableName: str("Tab")},
				func(c local.API, in any) error {
					_, err := c.DescribeContinuousBackups(ctx, in.(*dynamodb.DescribeContinuousBackupsInput))
					return err
				}
		},
		"RestoreTableToPointInTime": func() (any, func(local.API, any) error) {
			return &dynamodb.RestoreTableToPointInTimeInput{SourceTableName: str("Tab"), TargetTableName: str("Restored"),
					RestoreDateTime: aws.Time(time.Unix(1700000000, 0)), BillingModeOverride: types.BillingModePayPerRequest,
					GlobalSecondaryIndexOverride: []types.GlobalSecondaryIndex{}, OnDemandThroughputOverride: &types.OnDemandThroughput{MaxReadRequestUnits: aws.Int64(5)}},
				func(c local.API, in any) error {
					_, err := c.RestoreTableToPointInTime(ctx, in.(*dynamodb.RestoreTableToPointInTimeInput))
					return err
				}
		},
		"ExportTableToPointInTime": func() (any, func(local.API, any) error) {
			return &dynamodb.ExportTableToPointInTimeInput{TableArn: str(tableArn), ExportTime: aws.Time(time.Unix(1700000000, 0)), ClientToken: str("c"),
					S3Bucket: str("b"), S3BucketOwner: str("000000000000"), S3Prefix: str("p"), S3SseAlgorithm: types.S3SseAlgorithmKms, S3SseKmsKeyId: str("k"),
					ExportFormat: types.ExportFormatDynamodbJson, ExportType: types.ExportTypeIncrementalExport,
					IncrementalExportSpecification: &types.IncrementalExportSpecification{ExportFromTime: aws.Time(time.Unix(1700000000, 0)),
						ExportToTime: aws.Time(time.Unix(1700001000, 0)), ExportViewType: types.ExportViewTypeNewImage}},
				func(c local.API, in any) error {
					_, err := c.ExportTableToPointInTime(ctx, in.(*dynamodb.ExportTableToPointInTimeInput))
					return err
				}
		},
		"DescribeExport": func() (any, func(local.API, any) error) {
			return &dynamodb.DescribeExportInput{ExportArn: str(tableArn + "/export/01700000000123-abcdef01")},
				func(c local.API, in any) error {
					_, err := c.DescribeExport(ctx, in.(*dynamodb.DescribeExportInput))
					return err
				}
		},
		"ListExports": func() (any, func(local.API, any) error) {
			return &dynamodb.ListExportsInput{TableArn: str(tableArn), MaxResults: aws.Int32(5), NextToken: str("n")},
				func(c local.API, in any) error {
					_, err := c.ListExports(ctx, in.(*dynamodb.ListExportsInput))
					return err
				}
		},
		"ImportTable": func() (any, func(local.API, any) error) {
			return &dynamodb.ImportTableInput{ClientToken: str("c"), S3BucketSource: &types.S3BucketSource{S3Bucket: str("b"), S3BucketOwner: str("000000000000"), S3KeyPrefix: str("p/")},
					InputFormat: types.InputFormatCsv, InputCompressionType: types.InputCompressionTypeNone,
					InputFormatOptions: &types.InputFormatOptions{Csv: &types.CsvOptions{Delimiter: str(","), HeaderList: []string{"pk", "sk"}}},
					TableCreationParameters: &types.TableCreationParameters{TableName: str("Imported"),
						AttributeDefinitions:  []types.AttributeDefinition{{AttributeName: str("pk"), AttributeType: types.ScalarAttributeTypeS}, {AttributeName: str("g"), AttributeType: types.ScalarAttributeTypeS}},
						KeySchema:             []types.KeySchemaElement{{AttributeName: str("pk"), KeyType: types.KeyTypeHash}},
						BillingMode:           types.BillingModeProvisioned,
						ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(1), WriteCapacityUnits: aws.Int64(1)},
						SSESpecification:      &types.SSESpecification{Enabled: aws.Bool(true), KMSMasterKeyId: str("key")},
						GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: str("gsi"), KeySchema: []types.KeySchemaElement{{AttributeName: str("g"), KeyType: types.KeyTypeHash}},
							Projection:            &types.Projection{ProjectionType: types.ProjectionTypeAll},
							ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(1), WriteCapacityUnits: aws.Int64(1)}}}}},
				func(c local.API, in any) error {
					_, err := c.ImportTable(ctx, in.(*dynamodb.ImportTableInput))
					return err
				}
		},
		"DescribeImport": func() (any, func(local.API, any) error) {
			return &dynamodb.DescribeImportInput{ImportArn: str(tableArn + "/import/01700000000123-abcdef01")},
				func(c local.API, in any) error {
					_, err := c.DescribeImport(ctx, in.(*dynamodb.DescribeImportInput))
					return err
				}
		},
		"ListImports": func() (any, func(local.API, any) error) {
			return &dynamodb.ListImportsInput{TableArn: str(tableArn), PageSize: aws.Int32(5), NextToken: str("n")},
				func(c local.API, in any) error {
					_, err := c.ListImports(ctx, in.(*dynamodb.ListImportsInput))
					return err
				}
		},
		"UntagResource": func() (any, func(local.API, any) error) {
			return &dynamodb.UntagResourceInput{ResourceArn: str("arn:aws:dynamodb:us-east-1:" + local.AccountID + ":table/Tab"), TagKeys: []string{"k"}},
				func(c local.API, in any) error {
					_, err := c.UntagResource(ctx, in.(*dynamodb.UntagResourceInput))
					return err
				}
		},
		"ExecuteTransaction": func() (any, func(local.API, any) error) {
			return &dynamodb.ExecuteTransactionInput{ClientRequestToken: str("token"), TransactStatements: []types.ParameterizedStatement{
					{Statement: str(`UPDATE "Tab" SET v = ? WHERE pk = 'a' AND sk = 1`), Parameters: []types.AttributeValue{&types.AttributeValueMemberS{Value: "y"}}}}},
				func(c local.API, in any) error {
					_, err := c.ExecuteTransaction(ctx, in.(*dynamodb.ExecuteTransactionInput))
					return err
				}
		},
		"BatchExecuteStatement": func() (any, func(local.API, any) error) {
			return &dynamodb.BatchExecuteStatementInput{Statements: []types.BatchStatementRequest{
					{Statement: str(`INSERT INTO "Tab" VALUE {'pk': ?, 'sk': 2}`), Parameters: []types.AttributeValue{&types.AttributeValueMemberS{Value: "b"}}}}},
				func(c local.API, in any) error {
					_, err := c.BatchExecuteStatement(ctx, in.(*dynamodb.BatchExecuteStatementInput))
					return err
				}
		},
	}
	names := make([]string, 0, len(requests))
	for name := range requests {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		mk := requests[name]
		in, _ := mk()
		n := len(nilable(reflect.ValueOf(in), ""))
		for i := range n {
			inD, call := mk()
			inS, _ := mk()
			path := nilable(reflect.ValueOf(inD), "")[i]
			path.set()
			nilable(reflect.ValueOf(inS), "")[i].set()
			t.Run(name+path.name, func(t *testing.T) {
				d, _ := directFixture(t)
				_, s := directFixture(t)
				for _, c := range []local.API{d, s} {
					if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Tab"), Item: dkey("a", "1")}); err != nil {
						t.Fatal(err)
					}
				}
				errD, errS := call(d, inD), call(s, inS)
				if errD == nil && errS == nil {
					stateD, stateS := scanAll(t, d), scanAll(t, s)
					if !reflect.DeepEqual(stateD, stateS) {
						t.Errorf("the databases differ afterwards:\ndirect %v\nSDK    %v", stateD, stateS)
					}
					return
				}
				sameError(t, name+path.name, errD, errS)
			})
		}
	}
}

// scanAll returns the database's tables and items, as text.
func scanAll(t *testing.T, c local.API) []string {
	ctx := context.Background()
	tables, err := c.ListTables(ctx, &dynamodb.ListTablesInput{})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, name := range tables.TableNames {
		// A table an ImportTable made is CREATING until its import ends
		// in the background: wait for that, so both databases are
		// compared as their requests left them.
		deadline := time.Now().Add(time.Minute)
		desc, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
		for err == nil && desc.Table.TableStatus == types.TableStatusCreating && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
			desc, err = c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
		}
		var nf *types.ResourceNotFoundException
		if errors.As(err, &nf) {
			continue // its import failed, and took it away
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("table %s %d gsi %d", name, len(desc.Table.KeySchema), len(desc.Table.GlobalSecondaryIndexes)))
		scan, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String(name)})
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range scan.Items {
			var attrs []string
			for k, v := range it {
				attrs = append(attrs, fmt.Sprintf("%s=%T%+v", k, v, reflect.ValueOf(v).Elem().Interface()))
			}
			sort.Strings(attrs)
			out = append(out, fmt.Sprintf("%s %v", name, attrs))
		}
	}
	sort.Strings(out)
	return out
}

// location is a member of an input that can be left out.
type location struct {
	name string
	set  func()
}

// nilable lists the members of v (structs' exported fields, slices'
// elements, at any depth) that a nil can be stored in.
func nilable(v reflect.Value, name string) []location {
	var out []location
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			out = append(out, nilable(v.Elem(), name)...)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if !f.IsExported() || f.Name == "ResultMetadata" {
				continue
			}
			fv := v.Field(i)
			switch fv.Kind() {
			case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
				if !fv.IsNil() {
					out = append(out, location{name + "/" + f.Name, func() { fv.Set(reflect.Zero(fv.Type())) }})
				}
			}
			out = append(out, nilable(fv, name+"/"+f.Name)...)
		}
	case reflect.Slice:
		for i := range v.Len() {
			e := v.Index(i)
			switch e.Kind() {
			case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
				if !e.IsNil() {
					out = append(out, location{fmt.Sprintf("%s[%d]", name, i), func() { e.Set(reflect.Zero(e.Type())) }})
				}
			}
			out = append(out, nilable(e, fmt.Sprintf("%s[%d]", name, i))...)
		}
	}
	return out
}
