package local

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"

	"github.com/dynago/dynago/dynamo"
)

// The export and import operations' conversions, checked without the
// engine, as the backup operations' are (direct_backup_test.go): a
// request as the decoder reads the SDK's JSON for it
// (server/internal/protocol/export_test.go pins the decoder on the same
// members), and an answer as the SDK decodes the JSON the encoder writes
// for it (the same test pins those bodies).

// notServedExport adds to the members nothing serves the export's
// filter, which dynago has no counterpart of.
var notServedExport = map[string]bool{"ResultMetadata": true, "FilterSpecification": true}

func TestDirectExportAnswers(t *testing.T) {
	ctx := context.Background()
	created := time.Unix(1700000000, 123e6)
	start, end := time.Unix(1700000001, 0), time.Unix(1700000002, 500e6)
	from, to := time.Unix(1699990000, 0), time.Unix(1699999000, 0)
	export := &dynamo.ExportDescription{ExportArn: "arn/e", ExportStatus: "COMPLETED", StartTime: &start, EndTime: &end,
		ExportManifest: "p/manifest-summary.json", TableArn: "arn/t", TableId: "id", ExportTime: &created, ClientToken: "c",
		S3Bucket: "b", S3BucketOwner: "000000000000", S3Prefix: "p", S3SseAlgorithm: "KMS", S3SseKmsKeyId: "k",
		FailureCode: "fc", FailureMessage: "fm", ExportFormat: "ION", BilledSizeBytes: new(int64(0)), ItemCount: new(int64(3)),
		ExportType: "INCREMENTAL_EXPORT", IncrementalExportSpecification: &dynamo.IncrementalExportSpecification{
			ExportFromTime: &from, ExportToTime: &to, ExportViewType: "NEW_AND_OLD_IMAGES"}}
	const exportJSON = `{"BilledSizeBytes":0,"ClientToken":"c","EndTime":1.7000000025E9,"ExportArn":"arn/e","ExportFormat":"ION",
		"ExportManifest":"p/manifest-summary.json","ExportStatus":"COMPLETED","ExportTime":1.700000000123E9,
		"ExportType":"INCREMENTAL_EXPORT","FailureCode":"fc","FailureMessage":"fm",
		"IncrementalExportSpecification":{"ExportFromTime":1.69999E9,"ExportToTime":1.699999E9,"ExportViewType":"NEW_AND_OLD_IMAGES"},
		"ItemCount":3,"S3Bucket":"b","S3BucketOwner":"000000000000","S3Prefix":"p","S3SseAlgorithm":"KMS","S3SseKmsKeyId":"k",
		"StartTime":1.700000001E9,"TableArn":"arn/t","TableId":"id"}`
	params := &dynamo.TableCreationParameters{TableName: "t",
		AttributeDefinitions: []dynamo.AttributeDefinition{{AttributeName: "pk", AttributeType: "S"}, {AttributeName: "g", AttributeType: "N"}},
		KeySchema:            []dynamo.KeySchemaElement{{AttributeName: "pk", KeyType: "HASH"}}, BillingMode: "PROVISIONED",
		ProvisionedThroughput: &dynamo.ProvisionedThroughput{ReadCapacityUnits: 3, WriteCapacityUnits: 4},
		OnDemandThroughput:    &dynamo.OnDemandThroughput{MaxReadRequestUnits: new(int64(5)), MaxWriteRequestUnits: new(int64(6))},
		SSESpecification:      &dynamo.SSESpecification{Enabled: aws.Bool(false), SSEType: "KMS", KMSMasterKeyId: "k"},
		GlobalSecondaryIndexes: []dynamo.GlobalSecondaryIndex{{IndexName: "g", KeySchema: []dynamo.KeySchemaElement{{AttributeName: "g", KeyType: "HASH"}},
			Projection:            dynamo.Projection{ProjectionType: "INCLUDE", NonKeyAttributes: []string{"x"}},
			ProvisionedThroughput: &dynamo.ProvisionedThroughput{ReadCapacityUnits: 1, WriteCapacityUnits: 2},
			OnDemandThroughput:    &dynamo.OnDemandThroughput{MaxReadRequestUnits: new(int64(7)), MaxWriteRequestUnits: new(int64(-1))},
			WarmThroughput:        &dynamo.WarmThroughput{ReadUnitsPerSecond: new(int64(8)), WriteUnitsPerSecond: new(int64(9))}}},
		VectorIndexes: []dynamo.VectorIndex{{IndexName: "v", VectorAttribute: &dynamo.VectorAttributeDefinition{AttributeName: "e"}, Dimensions: 3,
			DistanceFunction: "DOT_PRODUCT", SearchSchema: []dynamo.SearchSchemaElement{{AttributeName: "g", SearchSchemaElementType: "HASH"}},
			Projection: dynamo.Projection{ProjectionType: "INCLUDE", NonKeyAttributes: []string{"y"}}}}}
	const paramsJSON = `{"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"g","AttributeType":"N"}],
		"BillingMode":"PROVISIONED",
		"GlobalSecondaryIndexes":[{"IndexName":"g","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],"OnDemandThroughput":{"MaxReadRequestUnits":7,"MaxWriteRequestUnits":-1},
			"Projection":{"NonKeyAttributes":["x"],"ProjectionType":"INCLUDE"},"ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":2},
			"WarmThroughput":{"ReadUnitsPerSecond":8,"WriteUnitsPerSecond":9}}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"OnDemandThroughput":{"MaxReadRequestUnits":5,"MaxWriteRequestUnits":6},
		"ProvisionedThroughput":{"ReadCapacityUnits":3,"WriteCapacityUnits":4},"SSESpecification":{"Enabled":false,"KMSMasterKeyId":"k","SSEType":"KMS"},
		"TableName":"t","VectorIndexes":[{"Dimensions":3,"DistanceFunction":"DOT_PRODUCT","IndexName":"v","Projection":{"NonKeyAttributes":["y"],"ProjectionType":"INCLUDE"},
			"SearchSchema":[{"AttributeName":"g","SearchSchemaElementType":"HASH"}],"VectorAttribute":{"AttributeName":"e"}}]}`
	source := &dynamo.S3BucketSource{S3Bucket: "b", S3BucketOwner: "000000000000", S3KeyPrefix: "p/"}
	const sourceJSON = `{"S3Bucket":"b","S3BucketOwner":"000000000000","S3KeyPrefix":"p/"}`
	imp := &dynamo.ImportTableDescription{ImportArn: "arn/i", ImportStatus: "COMPLETED", TableArn: "arn/t", TableId: "id", ClientToken: "c",
		S3BucketSource: source, ErrorCount: 1, CloudWatchLogGroupArn: "arn/log", InputFormat: "CSV",
		InputFormatOptions:   &dynamo.InputFormatOptions{Csv: &dynamo.CsvOptions{Delimiter: ";", HeaderList: []string{"pk", "a"}}},
		InputCompressionType: "ZSTD", TableCreationParameters: params, StartTime: &start, EndTime: &end, ProcessedSizeBytes: new(int64(100)),
		ProcessedItemCount: 4, ImportedItemCount: 3, FailureCode: "fc", FailureMessage: "fm"}
	const importJSON = `{"ClientToken":"c","CloudWatchLogGroupArn":"arn/log","EndTime":1.7000000025E9,"ErrorCount":1,"FailureCode":"fc",
		"FailureMessage":"fm","ImportArn":"arn/i","ImportStatus":"COMPLETED","ImportedItemCount":3,"InputCompressionType":"ZSTD","InputFormat":"CSV",
		"InputFormatOptions":{"Csv":{"Delimiter":";","HeaderList":["pk","a"]}},"ProcessedItemCount":4,"ProcessedSizeBytes":100,
		"S3BucketSource":` + sourceJSON + `,"StartTime":1.700000001E9,"TableArn":"arn/t","TableCreationParameters":` + paramsJSON + `,"TableId":"id"}`
	bare := &dynamo.ImportTableDescription{ImportArn: "arn/i", ImportStatus: "IN_PROGRESS", InputFormatOptions: &dynamo.InputFormatOptions{},
		TableCreationParameters: &dynamo.TableCreationParameters{TableName: "t", AttributeDefinitions: []dynamo.AttributeDefinition{},
			GlobalSecondaryIndexes: []dynamo.GlobalSecondaryIndex{}, SSESpecification: &dynamo.SSESpecification{}}}
	const bareJSON = `{"ErrorCount":0,"ImportArn":"arn/i","ImportStatus":"IN_PROGRESS","ImportedItemCount":0,"InputFormatOptions":{},
		"ProcessedItemCount":0,"TableCreationParameters":{"AttributeDefinitions":[],"GlobalSecondaryIndexes":[],"SSESpecification":{},"TableName":"t"}}`
	imports := []dynamo.ImportSummary{
		{ImportArn: "arn/i", ImportStatus: "COMPLETED", TableArn: "arn/t", S3BucketSource: source, CloudWatchLogGroupArn: "arn/log",
			InputFormat: "ION", StartTime: &start, EndTime: &end},
		{ImportArn: "arn/j", ImportStatus: "IN_PROGRESS"}}
	const importsJSON = `[{"CloudWatchLogGroupArn":"arn/log","EndTime":1.7000000025E9,"ImportArn":"arn/i","ImportStatus":"COMPLETED",
		"InputFormat":"ION","S3BucketSource":` + sourceJSON + `,"StartTime":1.700000001E9,"TableArn":"arn/t"},{"ImportArn":"arn/j","ImportStatus":"IN_PROGRESS"}]`

	tests := []struct {
		name     string
		body     string
		complete bool // every member the SDK has is set
		direct   any
		sdk      func(c *dynamodb.Client) (any, error)
	}{
		{"ExportTableToPointInTime", `{"ExportDescription":` + exportJSON + `}`, true,
			&dynamodb.ExportTableToPointInTimeOutput{ExportDescription: fromExportDescription(export)},
			func(c *dynamodb.Client) (any, error) {
				return c.ExportTableToPointInTime(ctx, &dynamodb.ExportTableToPointInTimeInput{})
			}},
		{"DescribeExport", `{"ExportDescription":` + exportJSON + `}`, true,
			&dynamodb.DescribeExportOutput{ExportDescription: fromExportDescription(export)},
			func(c *dynamodb.Client) (any, error) { return c.DescribeExport(ctx, &dynamodb.DescribeExportInput{}) }},
		{"DescribeExport in progress", `{"ExportDescription":{"ExportArn":"arn/e","ExportStatus":"IN_PROGRESS","ExportTime":1.700000000123E9}}`, false,
			&dynamodb.DescribeExportOutput{ExportDescription: fromExportDescription(&dynamo.ExportDescription{ExportArn: "arn/e",
				ExportStatus: "IN_PROGRESS", ExportTime: &created})},
			func(c *dynamodb.Client) (any, error) { return c.DescribeExport(ctx, &dynamodb.DescribeExportInput{}) }},
		{"ListExports", `{"ExportSummaries":[{"ExportArn":"arn/e","ExportStatus":"COMPLETED","ExportType":"FULL_EXPORT"},{"ExportArn":"arn/f"}],"NextToken":"n"}`, false,
			&dynamodb.ListExportsOutput{ExportSummaries: fromExportSummaries([]dynamo.ExportSummary{
				{ExportArn: "arn/e", ExportStatus: "COMPLETED", ExportType: "FULL_EXPORT"}, {ExportArn: "arn/f"}}), NextToken: optString("n")},
			func(c *dynamodb.Client) (any, error) { return c.ListExports(ctx, &dynamodb.ListExportsInput{}) }},
		{"ListExports empty", `{"ExportSummaries":[]}`, false,
			&dynamodb.ListExportsOutput{ExportSummaries: fromExportSummaries(nil)},
			func(c *dynamodb.Client) (any, error) { return c.ListExports(ctx, &dynamodb.ListExportsInput{}) }},
		{"ImportTable", `{"ImportTableDescription":` + importJSON + `}`, true,
			&dynamodb.ImportTableOutput{ImportTableDescription: fromImportDescription(imp)},
			func(c *dynamodb.Client) (any, error) { return c.ImportTable(ctx, &dynamodb.ImportTableInput{}) }},
		{"DescribeImport", `{"ImportTableDescription":` + importJSON + `}`, true,
			&dynamodb.DescribeImportOutput{ImportTableDescription: fromImportDescription(imp)},
			func(c *dynamodb.Client) (any, error) { return c.DescribeImport(ctx, &dynamodb.DescribeImportInput{}) }},
		{"DescribeImport bare", `{"ImportTableDescription":` + bareJSON + `}`, false,
			&dynamodb.DescribeImportOutput{ImportTableDescription: fromImportDescription(bare)},
			func(c *dynamodb.Client) (any, error) { return c.DescribeImport(ctx, &dynamodb.DescribeImportInput{}) }},
		{"ListImports", `{"ImportSummaryList":` + importsJSON + `,"NextToken":"n"}`, false,
			&dynamodb.ListImportsOutput{ImportSummaryList: fromImportSummaries(imports), NextToken: optString("n")},
			func(c *dynamodb.Client) (any, error) { return c.ListImports(ctx, &dynamodb.ListImportsInput{}) }},
		{"ListImports empty", `{"ImportSummaryList":[]}`, false,
			&dynamodb.ListImportsOutput{ImportSummaryList: fromImportSummaries(nil)},
			func(c *dynamodb.Client) (any, error) { return c.ListImports(ctx, &dynamodb.ListImportsInput{}) }},
	}
	for _, tt := range tests {
		got, err := tt.sdk(sdkReads(tt.body))
		if err != nil {
			t.Errorf("%s: the SDK did not read the body: %v", tt.name, err)
			continue
		}
		reflect.ValueOf(got).Elem().FieldByName("ResultMetadata").Set(reflect.ValueOf(middleware.Metadata{}))
		if !reflect.DeepEqual(got, tt.direct) {
			t.Errorf("%s:\ndirect %s\n   SDK %s", tt.name, dump(tt.direct), dump(got))
		}
		if tt.complete {
			if missing := unset(reflect.ValueOf(tt.direct), "", notServedExport); len(missing) > 0 {
				t.Errorf("%s: members left unset: %v", tt.name, missing)
			}
		}
	}
	// Every member of a summary is set when the engine gives it.
	if missing := unset(reflect.ValueOf(fromImportSummaries(imports[:1])), "", nil); len(missing) > 0 {
		t.Errorf("ImportSummary: members left unset: %v", missing)
	}
	if missing := unset(reflect.ValueOf(fromExportSummaries([]dynamo.ExportSummary{{ExportArn: "a", ExportStatus: "s", ExportType: "t"}})), "", nil); len(missing) > 0 {
		t.Errorf("ExportSummary: members left unset: %v", missing)
	}
}

// TestDirectExportRequests: the SDK's inputs become the requests the
// decoder reads from the SDK's JSON for them: a member left out is
// absent, a list sent as [] is an empty, non-nil list, and a timestamp
// is read to the millisecond, in UTC.
func TestDirectExportRequests(t *testing.T) {
	s := aws.String
	at := time.Date(2023, 11, 14, 22, 13, 20, 123456789, time.FixedZone("x", 3600))
	atWire := time.Unix(at.Unix(), 123e6).UTC()
	later := at.Add(time.Hour)
	laterWire := atWire.Add(time.Hour)
	gsiIn := types.GlobalSecondaryIndex{IndexName: s("g"), KeySchema: []types.KeySchemaElement{{AttributeName: s("g"), KeyType: types.KeyTypeHash}},
		Projection:            &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{"x"}},
		ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(1), WriteCapacityUnits: aws.Int64(2)},
		OnDemandThroughput:    &types.OnDemandThroughput{MaxReadRequestUnits: aws.Int64(3), MaxWriteRequestUnits: aws.Int64(4)},
		WarmThroughput:        &types.WarmThroughput{ReadUnitsPerSecond: aws.Int64(5), WriteUnitsPerSecond: aws.Int64(6)}}
	gsi := dynamo.GlobalSecondaryIndex{IndexName: "g", KeySchema: []dynamo.KeySchemaElement{{AttributeName: "g", KeyType: "HASH"}},
		Projection:            dynamo.Projection{ProjectionType: "INCLUDE", NonKeyAttributes: []string{"x"}},
		ProvisionedThroughput: &dynamo.ProvisionedThroughput{ReadCapacityUnits: 1, WriteCapacityUnits: 2},
		OnDemandThroughput:    &dynamo.OnDemandThroughput{MaxReadRequestUnits: new(int64(3)), MaxWriteRequestUnits: new(int64(4))},
		WarmThroughput:        &dynamo.WarmThroughput{ReadUnitsPerSecond: new(int64(5)), WriteUnitsPerSecond: new(int64(6))}}
	importIn := &dynamodb.ImportTableInput{ClientToken: s("c"),
		S3BucketSource: &types.S3BucketSource{S3Bucket: s("b"), S3BucketOwner: s("000000000000"), S3KeyPrefix: s("p/")},
		InputFormat:    types.InputFormatCsv, InputCompressionType: types.InputCompressionTypeGzip,
		InputFormatOptions: &types.InputFormatOptions{Csv: &types.CsvOptions{Delimiter: s(";"), HeaderList: []string{"pk", "a"}}},
		TableCreationParameters: &types.TableCreationParameters{TableName: s("t"),
			AttributeDefinitions:   []types.AttributeDefinition{{AttributeName: s("pk"), AttributeType: types.ScalarAttributeTypeS}},
			KeySchema:              []types.KeySchemaElement{{AttributeName: s("pk"), KeyType: types.KeyTypeHash}},
			BillingMode:            types.BillingModeProvisioned,
			ProvisionedThroughput:  &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(7), WriteCapacityUnits: aws.Int64(8)},
			OnDemandThroughput:     &types.OnDemandThroughput{MaxReadRequestUnits: aws.Int64(9), MaxWriteRequestUnits: aws.Int64(10)},
			SSESpecification:       &types.SSESpecification{Enabled: aws.Bool(true), SSEType: types.SSETypeKms, KMSMasterKeyId: s("k")},
			GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{gsiIn},
			VectorIndexes: []types.VectorIndex{{IndexName: s("v"), VectorAttribute: &types.VectorAttributeDefinition{AttributeName: s("e")}, Dimensions: aws.Int64(3),
				DistanceFunction: types.VectorDistanceFunctionCosine, Projection: &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{"y"}},
				SearchSchema: []types.SearchSchemaElement{{AttributeName: s("u"), SearchSchemaElementType: types.SearchSchemaElementTypeHash}}}}}}
	importWant := dynamo.ImportTableInput{ClientToken: "c",
		S3BucketSource: &dynamo.S3BucketSource{S3Bucket: "b", S3BucketOwner: "000000000000", S3KeyPrefix: "p/"},
		InputFormat:    "CSV", InputCompressionType: "GZIP",
		InputFormatOptions: &dynamo.InputFormatOptions{Csv: &dynamo.CsvOptions{Delimiter: ";", HeaderList: []string{"pk", "a"}}},
		TableCreationParameters: &dynamo.TableCreationParameters{TableName: "t",
			AttributeDefinitions:   []dynamo.AttributeDefinition{{AttributeName: "pk", AttributeType: "S"}},
			KeySchema:              []dynamo.KeySchemaElement{{AttributeName: "pk", KeyType: "HASH"}},
			BillingMode:            "PROVISIONED",
			ProvisionedThroughput:  &dynamo.ProvisionedThroughput{ReadCapacityUnits: 7, WriteCapacityUnits: 8},
			OnDemandThroughput:     &dynamo.OnDemandThroughput{MaxReadRequestUnits: new(int64(9)), MaxWriteRequestUnits: new(int64(10))},
			SSESpecification:       &dynamo.SSESpecification{Enabled: aws.Bool(true), SSEType: "KMS", KMSMasterKeyId: "k"},
			GlobalSecondaryIndexes: []dynamo.GlobalSecondaryIndex{gsi},
			VectorIndexes: []dynamo.VectorIndex{{IndexName: "v", VectorAttribute: &dynamo.VectorAttributeDefinition{AttributeName: "e"}, Dimensions: 3,
				DistanceFunction: "COSINE", Projection: dynamo.Projection{ProjectionType: "INCLUDE", NonKeyAttributes: []string{"y"}},
				SearchSchema: []dynamo.SearchSchemaElement{{AttributeName: "u", SearchSchemaElementType: "HASH"}}}}}}

	tests := []struct {
		name     string
		got      func() (any, bool)
		want     any
		complete bool // every member of the request is set
	}{
		{"ExportTableToPointInTime", func() (any, bool) {
			return exportTableRequest(&dynamodb.ExportTableToPointInTimeInput{TableArn: s("arn/t"), ExportTime: &at, ClientToken: s("c"),
				S3Bucket: s("b"), S3BucketOwner: s("000000000000"), S3Prefix: s("p"), S3SseAlgorithm: types.S3SseAlgorithmKms,
				S3SseKmsKeyId: s("k"), ExportFormat: types.ExportFormatIon, ExportType: types.ExportTypeIncrementalExport,
				IncrementalExportSpecification: &types.IncrementalExportSpecification{ExportFromTime: &at, ExportToTime: &later,
					ExportViewType: types.ExportViewTypeNewImage},
				FilterSpecification: &types.FilterSpecification{}})
		}, dynamo.ExportTableToPointInTimeInput{TableArn: "arn/t", ExportTime: &atWire, ClientToken: "c", S3Bucket: "b",
			S3BucketOwner: "000000000000", S3Prefix: "p", S3SseAlgorithm: "KMS", S3SseKmsKeyId: "k", ExportFormat: "ION",
			ExportType: "INCREMENTAL_EXPORT", IncrementalExportSpecification: &dynamo.IncrementalExportSpecification{
				ExportFromTime: &atWire, ExportToTime: &laterWire, ExportViewType: "NEW_IMAGE"}}, true},
		{"ExportTableToPointInTime absent", func() (any, bool) {
			return exportTableRequest(&dynamodb.ExportTableToPointInTimeInput{})
		}, dynamo.ExportTableToPointInTimeInput{}, false},
		{"ExportTableToPointInTime empty specification", func() (any, bool) {
			return exportTableRequest(&dynamodb.ExportTableToPointInTimeInput{S3Bucket: s(""),
				IncrementalExportSpecification: &types.IncrementalExportSpecification{}})
		}, dynamo.ExportTableToPointInTimeInput{IncrementalExportSpecification: &dynamo.IncrementalExportSpecification{}}, false},
		{"ImportTable", func() (any, bool) { return importTableRequest(importIn), true }, importWant, true},
		{"ImportTable absent", func() (any, bool) { return importTableRequest(&dynamodb.ImportTableInput{}), true },
			dynamo.ImportTableInput{}, false},
		{"ImportTable empty", func() (any, bool) {
			return importTableRequest(&dynamodb.ImportTableInput{S3BucketSource: &types.S3BucketSource{},
				InputFormatOptions: &types.InputFormatOptions{Csv: &types.CsvOptions{HeaderList: []string{}}},
				TableCreationParameters: &types.TableCreationParameters{GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{}},
					AttributeDefinitions: []types.AttributeDefinition{}, KeySchema: []types.KeySchemaElement{},
					ProvisionedThroughput: &types.ProvisionedThroughput{}, SSESpecification: &types.SSESpecification{KMSMasterKeyId: s("")}}}), true
		}, dynamo.ImportTableInput{S3BucketSource: &dynamo.S3BucketSource{},
			InputFormatOptions: &dynamo.InputFormatOptions{Csv: &dynamo.CsvOptions{HeaderList: []string{}}},
			TableCreationParameters: &dynamo.TableCreationParameters{
				GlobalSecondaryIndexes: []dynamo.GlobalSecondaryIndex{{NoIndexName: true, NoProjection: true}},
				AttributeDefinitions:   []dynamo.AttributeDefinition{}, KeySchema: []dynamo.KeySchemaElement{},
				ProvisionedThroughput: &dynamo.ProvisionedThroughput{ReadNull: true, WriteNull: true},
				SSESpecification:      &dynamo.SSESpecification{KeyIDEmpty: true}}}, false},
		{"ImportTable no CSV options", func() (any, bool) {
			return importTableRequest(&dynamodb.ImportTableInput{InputFormatOptions: &types.InputFormatOptions{}}), true
		}, dynamo.ImportTableInput{InputFormatOptions: &dynamo.InputFormatOptions{}}, false},
	}
	for _, tt := range tests {
		got, ok := tt.got()
		if !ok {
			t.Errorf("%s: not taken by the direct path", tt.name)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s:\n got %s\nwant %s", tt.name, dump(got), dump(tt.want))
		}
		if tt.complete {
			if missing := unset(reflect.ValueOf(got), "", nil); len(missing) > 0 {
				t.Errorf("%s: members left unset: %v", tt.name, missing)
			}
		}
	}
}
