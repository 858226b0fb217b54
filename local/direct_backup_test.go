package local

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"

	"github.com/dynago/dynago/dynamo"
)

// The backup and point-in-time recovery operations' conversions, checked
// without the engine: a request as the decoder reads the SDK's JSON for
// it (server/internal/protocol/backup_test.go pins the decoder on the
// same members), and an answer as the SDK decodes the JSON the encoder
// writes for it (the same test pins those bodies).

// cannedBody is an HTTP client that answers every request with one
// DynamoDB JSON body.
type cannedBody string

func (b cannedBody) Do(*http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/x-amz-json-1.0"}},
		Body: io.NopCloser(strings.NewReader(string(b))), ContentLength: int64(len(b))}, nil
}

// sdkReads returns the SDK's client that reads body as every answer. It
// skips the SDK's validation of its inputs, which runs before the HTTP
// call and is not what is tested.
func sdkReads(body string) *dynamodb.Client {
	return dynamodb.New(dynamodb.Options{Region: "us-east-1", BaseEndpoint: aws.String("http://127.0.0.1:1"),
		Credentials: aws.AnonymousCredentials{}, Retryer: aws.NopRetryer{}, HTTPClient: cannedBody(body),
		APIOptions: []func(*middleware.Stack) error{func(s *middleware.Stack) error {
			s.Initialize.Remove("OperationInputValidation") // none where nothing is required
			return nil
		}}})
}

// unset lists the members of v, at any depth, the conversion left unset
// (a nil pointer, slice or map, an empty enum), but those in skip.
func unset(v reflect.Value, path string, skip map[string]bool) []string {
	var out []string
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			out = unset(v.Elem(), path, skip)
		}
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			return nil
		}
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if !f.IsExported() || skip[f.Name] {
				continue
			}
			fv := v.Field(i)
			switch fv.Kind() {
			case reflect.Pointer, reflect.Slice, reflect.Map:
				if fv.IsNil() {
					out = append(out, path+"/"+f.Name)
					continue
				}
			case reflect.String:
				if fv.Len() == 0 {
					out = append(out, path+"/"+f.Name)
				}
			}
			out = append(out, unset(fv, path+"/"+f.Name, skip)...)
		}
	case reflect.Slice:
		for i := range v.Len() {
			out = append(out, unset(v.Index(i), path+"[]", skip)...)
		}
	}
	return out
}

// notServed are the SDK's members dynago has no counterpart of: an SSE
// key's inaccessibility (dynago holds no keys).
var notServed = map[string]bool{"ResultMetadata": true, "InaccessibleEncryptionDateTime": true}

func TestDirectBackupAnswers(t *testing.T) {
	ctx := context.Background()
	created := time.Unix(1700000000, 123e6)
	expiry := time.Unix(1700086400, 0)
	details := &dynamo.BackupDetails{BackupArn: "arn/b", BackupName: "b", BackupSizeBytes: new(int64(12)), BackupStatus: "AVAILABLE",
		BackupType: "USER", BackupCreationDateTime: created, BackupExpiryDateTime: &expiry}
	const detailsJSON = `{"BackupArn":"arn/b","BackupCreationDateTime":1.700000000123E9,"BackupExpiryDateTime":1.7000864E9,
		"BackupName":"b","BackupSizeBytes":12,"BackupStatus":"AVAILABLE","BackupType":"USER"}`
	ks := []dynamo.KeySchemaElement{{AttributeName: "pk", KeyType: "HASH"}}
	desc := &dynamo.BackupDescription{
		BackupDetails: details,
		SourceTableDetails: &dynamo.SourceTableDetails{TableName: "t", TableId: "id", TableArn: "arn/t", TableSizeBytes: 10, KeySchema: ks,
			TableCreationDateTime: created, ProvisionedThroughput: &dynamo.ProvisionedThroughput{ReadCapacityUnits: 5, WriteCapacityUnits: 6},
			OnDemandThroughput: &dynamo.OnDemandThroughput{MaxReadRequestUnits: new(int64(-1)), MaxWriteRequestUnits: new(int64(3))}, ItemCount: 2, BillingMode: "PROVISIONED"},
		SourceTableFeatureDetails: &dynamo.SourceTableFeatureDetails{
			LocalSecondaryIndexes: []dynamo.LocalSecondaryIndexInfo{{IndexName: "l", KeySchema: ks, Projection: dynamo.Projection{ProjectionType: "KEYS_ONLY", NonKeyAttributes: []string{}}}},
			GlobalSecondaryIndexes: []dynamo.GlobalSecondaryIndexInfo{{IndexName: "g", KeySchema: ks,
				Projection:            dynamo.Projection{ProjectionType: "INCLUDE", NonKeyAttributes: []string{"x"}},
				ProvisionedThroughput: &dynamo.ProvisionedThroughput{ReadCapacityUnits: 1, WriteCapacityUnits: 1},
				OnDemandThroughput:    &dynamo.OnDemandThroughput{MaxReadRequestUnits: new(int64(8)), MaxWriteRequestUnits: new(int64(9))}}},
			StreamDescription:     &dynamo.StreamSpecification{StreamEnabled: true, StreamViewType: "NEW_IMAGE"},
			TimeToLiveDescription: &dynamo.TimeToLiveDescription{TimeToLiveStatus: "ENABLED", AttributeName: "exp"},
			SSEDescription:        &dynamo.SSEDescription{Status: "ENABLED", SSEType: "KMS", KMSMasterKeyArn: "kms"},
			VectorIndexes: []dynamo.VectorIndexInfo{{IndexName: "v", VectorAttribute: &dynamo.VectorAttributeDefinition{AttributeName: "emb"},
				Dimensions: 3, DistanceFunction: "EUCLIDEAN", SearchSchema: []dynamo.SearchSchemaElement{{AttributeName: "u", SearchSchemaElementType: "INLINE_FILTER"}},
				Projection: dynamo.Projection{ProjectionType: "INCLUDE", NonKeyAttributes: []string{"y"}}}},
		},
	}
	const descJSON = `{"BackupDetails":` + detailsJSON + `,
		"SourceTableDetails":{"BillingMode":"PROVISIONED","ItemCount":2,"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
			"OnDemandThroughput":{"MaxReadRequestUnits":-1,"MaxWriteRequestUnits":3},"ProvisionedThroughput":{"ReadCapacityUnits":5,"WriteCapacityUnits":6},
			"TableArn":"arn/t","TableCreationDateTime":1.700000000123E9,"TableId":"id","TableName":"t","TableSizeBytes":10},
		"SourceTableFeatureDetails":{
			"GlobalSecondaryIndexes":[{"IndexName":"g","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"OnDemandThroughput":{"MaxReadRequestUnits":8,"MaxWriteRequestUnits":9},
				"Projection":{"NonKeyAttributes":["x"],"ProjectionType":"INCLUDE"},"ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":1}}],
			"LocalSecondaryIndexes":[{"IndexName":"l","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"Projection":{"NonKeyAttributes":[],"ProjectionType":"KEYS_ONLY"}}],
			"SSEDescription":{"KMSMasterKeyArn":"kms","SSEType":"KMS","Status":"ENABLED"},
			"StreamDescription":{"StreamEnabled":true,"StreamViewType":"NEW_IMAGE"},
			"TimeToLiveDescription":{"AttributeName":"exp","TimeToLiveStatus":"ENABLED"},
			"VectorIndexes":[{"Dimensions":3,"DistanceFunction":"EUCLIDEAN","IndexName":"v","Projection":{"NonKeyAttributes":["y"],"ProjectionType":"INCLUDE"},
				"SearchSchema":[{"AttributeName":"u","SearchSchemaElementType":"INLINE_FILTER"}],"VectorAttribute":{"AttributeName":"emb"}}]}}`
	summaries := []dynamo.BackupSummary{
		{TableName: "t", TableId: "id", TableArn: "arn/t", BackupArn: "arn/b", BackupName: "b", BackupCreationDateTime: created,
			BackupExpiryDateTime: &expiry, BackupStatus: "AVAILABLE", BackupType: "USER", BackupSizeBytes: new(int64(0))},
		{TableName: "t", BackupArn: "arn/c", BackupName: "c", BackupCreationDateTime: created, BackupStatus: "CREATING", BackupType: "SYSTEM"},
	}
	const summariesJSON = `[
		{"BackupArn":"arn/b","BackupCreationDateTime":1.700000000123E9,"BackupExpiryDateTime":1.7000864E9,"BackupName":"b","BackupSizeBytes":0,
		 "BackupStatus":"AVAILABLE","BackupType":"USER","TableArn":"arn/t","TableId":"id","TableName":"t"},
		{"BackupArn":"arn/c","BackupCreationDateTime":1.700000000123E9,"BackupName":"c","BackupStatus":"CREATING","BackupType":"SYSTEM","TableName":"t"}]`
	earliest, latest := time.Unix(1700000000, 0), time.Unix(1700003600, 500e6)
	pitr := &dynamo.ContinuousBackupsDescription{ContinuousBackupsStatus: "ENABLED",
		PointInTimeRecoveryDescription: &dynamo.PointInTimeRecoveryDescription{PointInTimeRecoveryStatus: "ENABLED",
			RecoveryPeriodInDays: new(int32(35)), EarliestRestorableDateTime: &earliest, LatestRestorableDateTime: &latest}}
	const pitrJSON = `{"ContinuousBackupsStatus":"ENABLED","PointInTimeRecoveryDescription":{
		"EarliestRestorableDateTime":1.7E9,"LatestRestorableDateTime":1.7000036005E9,"PointInTimeRecoveryStatus":"ENABLED","RecoveryPeriodInDays":35}}`
	restored := &dynamo.TableDescription{TableName: "r", TableStatus: "CREATING", CreationDateTime: created,
		RestoreSummary: &dynamo.RestoreSummary{SourceBackupArn: "arn/b", SourceTableArn: "arn/t", RestoreDateTime: created, RestoreInProgress: true}}
	const restoredJSON = `{"CreationDateTime":1.700000000123E9,"ItemCount":0,"RestoreSummary":{"RestoreDateTime":1.700000000123E9,
		"RestoreInProgress":true,"SourceBackupArn":"arn/b","SourceTableArn":"arn/t"},"TableName":"r","TableSizeBytes":0,"TableStatus":"CREATING"}`

	tests := []struct {
		name     string
		body     string
		complete bool // every member the SDK has is set
		direct   any
		sdk      func(c *dynamodb.Client) (any, error)
	}{
		{"CreateBackup", `{"BackupDetails":` + detailsJSON + `}`, true,
			&dynamodb.CreateBackupOutput{BackupDetails: fromBackupDetails(details)},
			func(c *dynamodb.Client) (any, error) { return c.CreateBackup(ctx, &dynamodb.CreateBackupInput{}) }},
		{"CreateBackup creating", `{"BackupDetails":{"BackupArn":"arn/b","BackupCreationDateTime":1.700000000123E9,"BackupName":"b","BackupStatus":"CREATING","BackupType":"USER"}}`, false,
			&dynamodb.CreateBackupOutput{BackupDetails: fromBackupDetails(&dynamo.BackupDetails{BackupArn: "arn/b", BackupName: "b",
				BackupStatus: "CREATING", BackupType: "USER", BackupCreationDateTime: created})},
			func(c *dynamodb.Client) (any, error) { return c.CreateBackup(ctx, &dynamodb.CreateBackupInput{}) }},
		{"DescribeBackup", `{"BackupDescription":` + descJSON + `}`, true,
			&dynamodb.DescribeBackupOutput{BackupDescription: fromBackupDescription(desc)},
			func(c *dynamodb.Client) (any, error) { return c.DescribeBackup(ctx, &dynamodb.DescribeBackupInput{}) }},
		{"DeleteBackup", `{"BackupDescription":` + descJSON + `}`, true,
			&dynamodb.DeleteBackupOutput{BackupDescription: fromBackupDescription(desc)},
			func(c *dynamodb.Client) (any, error) { return c.DeleteBackup(ctx, &dynamodb.DeleteBackupInput{}) }},
		{"DescribeBackup bare", `{"BackupDescription":{"SourceTableDetails":{"ItemCount":0,"TableName":"t","TableSizeBytes":0},"SourceTableFeatureDetails":{}}}`, false,
			&dynamodb.DescribeBackupOutput{BackupDescription: fromBackupDescription(&dynamo.BackupDescription{
				SourceTableDetails: &dynamo.SourceTableDetails{TableName: "t"}, SourceTableFeatureDetails: &dynamo.SourceTableFeatureDetails{}})},
			func(c *dynamodb.Client) (any, error) { return c.DescribeBackup(ctx, &dynamodb.DescribeBackupInput{}) }},
		{"ListBackups", `{"BackupSummaries":` + summariesJSON + `,"LastEvaluatedBackupArn":"arn/c"}`, false,
			&dynamodb.ListBackupsOutput{BackupSummaries: fromBackupSummaries(summaries), LastEvaluatedBackupArn: optString("arn/c")},
			func(c *dynamodb.Client) (any, error) { return c.ListBackups(ctx, &dynamodb.ListBackupsInput{}) }},
		{"ListBackups empty", `{"BackupSummaries":[]}`, false,
			&dynamodb.ListBackupsOutput{BackupSummaries: fromBackupSummaries(nil)},
			func(c *dynamodb.Client) (any, error) { return c.ListBackups(ctx, &dynamodb.ListBackupsInput{}) }},
		{"UpdateContinuousBackups", `{"ContinuousBackupsDescription":` + pitrJSON + `}`, true,
			&dynamodb.UpdateContinuousBackupsOutput{ContinuousBackupsDescription: fromContinuousBackups(pitr)},
			func(c *dynamodb.Client) (any, error) {
				return c.UpdateContinuousBackups(ctx, &dynamodb.UpdateContinuousBackupsInput{})
			}},
		{"DescribeContinuousBackups", `{"ContinuousBackupsDescription":` + pitrJSON + `}`, true,
			&dynamodb.DescribeContinuousBackupsOutput{ContinuousBackupsDescription: fromContinuousBackups(pitr)},
			func(c *dynamodb.Client) (any, error) {
				return c.DescribeContinuousBackups(ctx, &dynamodb.DescribeContinuousBackupsInput{})
			}},
		{"DescribeContinuousBackups disabled", `{"ContinuousBackupsDescription":{"ContinuousBackupsStatus":"DISABLED","PointInTimeRecoveryDescription":{"PointInTimeRecoveryStatus":"DISABLED"}}}`, false,
			&dynamodb.DescribeContinuousBackupsOutput{ContinuousBackupsDescription: fromContinuousBackups(&dynamo.ContinuousBackupsDescription{
				ContinuousBackupsStatus: "DISABLED", PointInTimeRecoveryDescription: &dynamo.PointInTimeRecoveryDescription{PointInTimeRecoveryStatus: "DISABLED"}})},
			func(c *dynamodb.Client) (any, error) {
				return c.DescribeContinuousBackups(ctx, &dynamodb.DescribeContinuousBackupsInput{})
			}},
		{"RestoreTableFromBackup", `{"TableDescription":` + restoredJSON + `}`, false,
			&dynamodb.RestoreTableFromBackupOutput{TableDescription: fromTable(restored)},
			func(c *dynamodb.Client) (any, error) {
				return c.RestoreTableFromBackup(ctx, &dynamodb.RestoreTableFromBackupInput{})
			}},
		{"RestoreTableToPointInTime", `{"TableDescription":` + restoredJSON + `}`, false,
			&dynamodb.RestoreTableToPointInTimeOutput{TableDescription: fromTable(restored)},
			func(c *dynamodb.Client) (any, error) {
				return c.RestoreTableToPointInTime(ctx, &dynamodb.RestoreTableToPointInTimeInput{})
			}},
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
			if missing := unset(reflect.ValueOf(tt.direct), "", notServed); len(missing) > 0 {
				t.Errorf("%s: members left unset: %v", tt.name, missing)
			}
		}
	}
	if r := fromTable(restored).RestoreSummary; r == nil || unset(reflect.ValueOf(r), "RestoreSummary", nil) != nil {
		t.Errorf("RestoreSummary not converted: %+v", r)
	}
}

// dump shows a value with its pointers followed, for a failure's message.
func dump(v any) string {
	var b bytes.Buffer
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer:
			if v.IsNil() {
				b.WriteString("nil")
				return
			}
			if v.Type() == reflect.TypeFor[*time.Time]() {
				b.WriteString(v.Interface().(*time.Time).String())
				return
			}
			b.WriteString("&")
			walk(v.Elem())
		case reflect.Struct:
			if t, ok := v.Interface().(time.Time); ok {
				b.WriteString(t.String())
				return
			}
			b.WriteString(v.Type().Name() + "{")
			for i := range v.NumField() {
				if f := v.Type().Field(i); f.IsExported() {
					b.WriteString(f.Name + ":")
					walk(v.Field(i))
					b.WriteString(" ")
				}
			}
			b.WriteString("}")
		case reflect.Slice:
			if v.IsNil() {
				b.WriteString("nil")
				return
			}
			b.WriteString("[")
			for i := range v.Len() {
				walk(v.Index(i))
				b.WriteString(" ")
			}
			b.WriteString("]")
		default:
			if v.CanInterface() {
				fmt.Fprint(&b, v.Interface())
			}
		}
	}
	walk(reflect.ValueOf(v))
	return b.String()
}

// TestDirectBackupRequests: the SDK's inputs become the requests the
// decoder reads from the SDK's JSON for them: a member left out is
// absent (its No* flag set where the request has one), an index
// override sent as [] is an empty, non-nil list, and a timestamp is read
// to the millisecond, in UTC.
func TestDirectBackupRequests(t *testing.T) {
	s := aws.String
	at := time.Date(2023, 11, 14, 22, 13, 20, 123456789, time.FixedZone("x", 3600))
	atWire := time.Unix(at.Unix(), 123e6).UTC()
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
	lsiIn := types.LocalSecondaryIndex{IndexName: s("l"), KeySchema: []types.KeySchemaElement{{AttributeName: s("pk"), KeyType: types.KeyTypeHash}},
		Projection: &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{"y"}}}
	lsi := dynamo.LocalSecondaryIndex{IndexName: "l", KeySchema: []dynamo.KeySchemaElement{{AttributeName: "pk", KeyType: "HASH"}},
		Projection: dynamo.Projection{ProjectionType: "INCLUDE", NonKeyAttributes: []string{"y"}}}
	vecIn := types.VectorIndex{IndexName: s("v"), VectorAttribute: &types.VectorAttributeDefinition{AttributeName: s("e")}, Dimensions: aws.Int64(3),
		DistanceFunction: types.VectorDistanceFunctionCosine, Projection: &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{"y"}},
		SearchSchema: []types.SearchSchemaElement{{AttributeName: s("u"), SearchSchemaElementType: types.SearchSchemaElementTypeHash}}}
	vec := dynamo.VectorIndex{IndexName: "v", VectorAttribute: &dynamo.VectorAttributeDefinition{AttributeName: "e"}, Dimensions: 3,
		DistanceFunction: "COSINE", Projection: dynamo.Projection{ProjectionType: "INCLUDE", NonKeyAttributes: []string{"y"}},
		SearchSchema: []dynamo.SearchSchemaElement{{AttributeName: "u", SearchSchemaElementType: "HASH"}}}
	overrides := dynamo.RestoreOverrides{
		VectorIndexOverride:           []dynamo.VectorIndex{vec},
		BillingModeOverride:           "PROVISIONED",
		GlobalSecondaryIndexOverride:  []dynamo.GlobalSecondaryIndex{gsi},
		LocalSecondaryIndexOverride:   []dynamo.LocalSecondaryIndex{lsi},
		ProvisionedThroughputOverride: &dynamo.ProvisionedThroughput{ReadCapacityUnits: 7, WriteCapacityUnits: 8},
		OnDemandThroughputOverride:    &dynamo.OnDemandThroughput{MaxReadRequestUnits: new(int64(9)), MaxWriteRequestUnits: new(int64(10))},
		SSESpecificationOverride:      &dynamo.SSESpecification{Enabled: aws.Bool(true), SSEType: "KMS", KMSMasterKeyId: "k"},
	}
	fromBackup := &dynamodb.RestoreTableFromBackupInput{TargetTableName: s("r"), BackupArn: s("arn/b"), BillingModeOverride: types.BillingModeProvisioned,
		GlobalSecondaryIndexOverride: []types.GlobalSecondaryIndex{gsiIn}, LocalSecondaryIndexOverride: []types.LocalSecondaryIndex{lsiIn},
		VectorIndexOverride:           []types.VectorIndex{vecIn},
		ProvisionedThroughputOverride: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(7), WriteCapacityUnits: aws.Int64(8)},
		OnDemandThroughputOverride:    &types.OnDemandThroughput{MaxReadRequestUnits: aws.Int64(9), MaxWriteRequestUnits: aws.Int64(10)},
		SSESpecificationOverride:      &types.SSESpecification{Enabled: aws.Bool(true), SSEType: types.SSETypeKms, KMSMasterKeyId: s("k")}}
	toPoint := &dynamodb.RestoreTableToPointInTimeInput{SourceTableArn: s("arn/t"), SourceTableName: s("t"), TargetTableName: s("r"),
		UseLatestRestorableTime: aws.Bool(false), RestoreDateTime: &at,
		BillingModeOverride: fromBackup.BillingModeOverride, GlobalSecondaryIndexOverride: fromBackup.GlobalSecondaryIndexOverride,
		LocalSecondaryIndexOverride: fromBackup.LocalSecondaryIndexOverride, ProvisionedThroughputOverride: fromBackup.ProvisionedThroughputOverride,
		OnDemandThroughputOverride: fromBackup.OnDemandThroughputOverride, SSESpecificationOverride: fromBackup.SSESpecificationOverride,
		VectorIndexOverride: fromBackup.VectorIndexOverride}

	tests := []struct {
		name     string
		got      func() (any, bool)
		want     any
		complete bool // every member of the request is set
	}{
		{"CreateBackup", func() (any, bool) {
			return createBackupRequest(&dynamodb.CreateBackupInput{TableName: s("t"), BackupName: s("b")}), true
		}, dynamo.CreateBackupInput{TableName: "t", BackupName: "b"}, true},
		{"CreateBackup absent", func() (any, bool) { return createBackupRequest(&dynamodb.CreateBackupInput{}), true },
			dynamo.CreateBackupInput{NoTableName: true, NoBackupName: true}, false},
		{"CreateBackup empty", func() (any, bool) {
			return createBackupRequest(&dynamodb.CreateBackupInput{TableName: s(""), BackupName: s("")}), true
		}, dynamo.CreateBackupInput{}, false},
		{"ListBackups", func() (any, bool) {
			return listBackupsRequest(&dynamodb.ListBackupsInput{TableName: s("t"), Limit: aws.Int32(3), TimeRangeLowerBound: &at, TimeRangeUpperBound: &at,
				ExclusiveStartBackupArn: s("arn/b"), BackupType: types.BackupTypeFilterAll})
		}, dynamo.ListBackupsInput{TableName: "t", Limit: aws.Int32(3), TimeRangeLowerBound: &atWire, TimeRangeUpperBound: &atWire,
			ExclusiveStartBackupArn: "arn/b", BackupType: "ALL"}, true},
		{"ListBackups absent", func() (any, bool) { return listBackupsRequest(&dynamodb.ListBackupsInput{}) }, dynamo.ListBackupsInput{}, false},
		{"RestoreTableFromBackup", func() (any, bool) { return restoreTableFromBackupRequest(fromBackup), true },
			dynamo.RestoreTableFromBackupInput{TargetTableName: "r", BackupArn: "arn/b", RestoreOverrides: overrides}, true},
		{"RestoreTableFromBackup absent", func() (any, bool) {
			return restoreTableFromBackupRequest(&dynamodb.RestoreTableFromBackupInput{}), true
		}, dynamo.RestoreTableFromBackupInput{NoTargetTableName: true, NoBackupArn: true}, false},
		{"RestoreTableFromBackup no indexes", func() (any, bool) {
			return restoreTableFromBackupRequest(&dynamodb.RestoreTableFromBackupInput{TargetTableName: s("r"), BackupArn: s("a"),
				GlobalSecondaryIndexOverride: []types.GlobalSecondaryIndex{}, LocalSecondaryIndexOverride: []types.LocalSecondaryIndex{},
				ProvisionedThroughputOverride: &types.ProvisionedThroughput{}, SSESpecificationOverride: &types.SSESpecification{KMSMasterKeyId: s("")}}), true
		}, dynamo.RestoreTableFromBackupInput{TargetTableName: "r", BackupArn: "a", RestoreOverrides: dynamo.RestoreOverrides{
			GlobalSecondaryIndexOverride: []dynamo.GlobalSecondaryIndex{}, LocalSecondaryIndexOverride: []dynamo.LocalSecondaryIndex{},
			ProvisionedThroughputOverride: &dynamo.ProvisionedThroughput{ReadNull: true, WriteNull: true},
			SSESpecificationOverride:      &dynamo.SSESpecification{KeyIDEmpty: true}}}, false},
		{"RestoreTableFromBackup index without members", func() (any, bool) {
			return restoreTableFromBackupRequest(&dynamodb.RestoreTableFromBackupInput{
				GlobalSecondaryIndexOverride: []types.GlobalSecondaryIndex{{}}, LocalSecondaryIndexOverride: []types.LocalSecondaryIndex{{}}}), true
		}, dynamo.RestoreTableFromBackupInput{NoTargetTableName: true, NoBackupArn: true, RestoreOverrides: dynamo.RestoreOverrides{
			GlobalSecondaryIndexOverride: []dynamo.GlobalSecondaryIndex{{NoIndexName: true, NoProjection: true}},
			LocalSecondaryIndexOverride:  []dynamo.LocalSecondaryIndex{{NoIndexName: true, NoProjection: true}}}}, false},
		{"UpdateContinuousBackups", func() (any, bool) {
			return updateContinuousBackupsRequest(&dynamodb.UpdateContinuousBackupsInput{TableName: s("t"),
				PointInTimeRecoverySpecification: &types.PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: aws.Bool(true), RecoveryPeriodInDays: aws.Int32(7)}}), true
		}, dynamo.UpdateContinuousBackupsInput{TableName: "t", PointInTimeRecoverySpecification: &dynamo.PointInTimeRecoverySpecification{
			PointInTimeRecoveryEnabled: true, RecoveryPeriodInDays: aws.Int32(7)}}, true},
		{"UpdateContinuousBackups absent", func() (any, bool) {
			return updateContinuousBackupsRequest(&dynamodb.UpdateContinuousBackupsInput{PointInTimeRecoverySpecification: &types.PointInTimeRecoverySpecification{}}), true
		}, dynamo.UpdateContinuousBackupsInput{NoTableName: true, PointInTimeRecoverySpecification: &dynamo.PointInTimeRecoverySpecification{
			NoPointInTimeRecoveryEnabled: true}}, false},
		{"UpdateContinuousBackups no specification", func() (any, bool) {
			return updateContinuousBackupsRequest(&dynamodb.UpdateContinuousBackupsInput{TableName: s("t")}), true
		}, dynamo.UpdateContinuousBackupsInput{TableName: "t"}, false},
		{"RestoreTableToPointInTime", func() (any, bool) { return restoreTableToPointInTimeRequest(toPoint) },
			dynamo.RestoreTableToPointInTimeInput{SourceTableArn: "arn/t", SourceTableName: "t", TargetTableName: "r",
				UseLatestRestorableTime: aws.Bool(false), RestoreDateTime: &atWire, RestoreOverrides: overrides}, true},
		{"RestoreTableToPointInTime absent", func() (any, bool) {
			return restoreTableToPointInTimeRequest(&dynamodb.RestoreTableToPointInTimeInput{})
		}, dynamo.RestoreTableToPointInTimeInput{NoTargetTableName: true}, false},
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
