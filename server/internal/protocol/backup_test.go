package protocol

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/dynago/dynago/dynamo"
)

// The backup and point-in-time recovery decoders join the generic decoder
// tests.
func init() {
	decoders["CreateBackup"] = wrap(DecodeCreateBackup)
	decoders["DescribeBackup"] = wrap(DecodeDescribeBackup)
	decoders["ListBackups"] = wrap(DecodeListBackups)
	decoders["DeleteBackup"] = wrap(DecodeDeleteBackup)
	decoders["RestoreTableFromBackup"] = wrap(DecodeRestoreTableFromBackup)
	decoders["UpdateContinuousBackups"] = wrap(DecodeUpdateContinuousBackups)
	decoders["DescribeContinuousBackups"] = wrap(DecodeDescribeContinuousBackups)
	decoders["RestoreTableToPointInTime"] = wrap(DecodeRestoreTableToPointInTime)
}

// The member names and types are those of the API reference's request
// syntax (API_CreateBackup, API_DescribeBackup, API_ListBackups,
// API_DeleteBackup, API_RestoreTableFromBackup,
// API_UpdateContinuousBackups, API_DescribeContinuousBackups,
// API_RestoreTableToPointInTime); timestamps are numbers (epoch seconds),
// as ListBackups' TimeRangeLowerBound is in its request syntax.
func TestDecodeBackups(t *testing.T) {
	const arn = "arn:aws:dynamodb:us-east-1:000000000000:table/t/backup/01700000000123-abcdef01"
	lower := time.Unix(1700000000, 250e6).UTC()
	upper := time.Unix(1700000100, 0).UTC()
	ks := []dynamo.KeySchemaElement{{AttributeName: "g", KeyType: "HASH"}}
	gsi := dynamo.GlobalSecondaryIndex{IndexName: "g", KeySchema: ks, Projection: dynamo.Projection{ProjectionType: "ALL"},
		ProvisionedThroughput: &dynamo.ProvisionedThroughput{ReadCapacityUnits: 1, WriteCapacityUnits: 2}}
	lsi := dynamo.LocalSecondaryIndex{IndexName: "l", KeySchema: ks, Projection: dynamo.Projection{ProjectionType: "KEYS_ONLY"}}
	const overrides = `"BillingModeOverride":"PROVISIONED",
		"GlobalSecondaryIndexOverride":[{"IndexName":"g","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"},
			"ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":2}}],
		"LocalSecondaryIndexOverride":[{"IndexName":"l","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],"Projection":{"ProjectionType":"KEYS_ONLY"}}],
		"ProvisionedThroughputOverride":{"ReadCapacityUnits":3,"WriteCapacityUnits":4},
		"OnDemandThroughputOverride":{"MaxReadRequestUnits":5,"MaxWriteRequestUnits":6},
		"SSESpecificationOverride":{"Enabled":true,"SSEType":"KMS","KMSMasterKeyId":"k"},
		"VectorIndexOverride":[{"IndexName":"v","VectorAttribute":{"AttributeName":"emb"},"Dimensions":3.5,"DistanceFunction":"COSINE",
			"SearchSchema":[{"AttributeName":"u","SearchSchemaElementType":"HASH"}],"Projection":{"ProjectionType":"INCLUDE","NonKeyAttributes":["y"]}}]`
	// VectorIndexOverride (AWS's API reference: a list of VectorIndex,
	// read as CreateTable's VectorIndexes are).
	vec := dynamo.VectorIndex{IndexName: "v", VectorAttribute: &dynamo.VectorAttributeDefinition{AttributeName: "emb"}, Dimensions: 3,
		DistanceFunction: "COSINE", SearchSchema: []dynamo.SearchSchemaElement{{AttributeName: "u", SearchSchemaElementType: "HASH"}},
		Projection: dynamo.Projection{ProjectionType: "INCLUDE", NonKeyAttributes: []string{"y"}}}
	all := dynamo.RestoreOverrides{
		VectorIndexOverride:           []dynamo.VectorIndex{vec},
		BillingModeOverride:           "PROVISIONED",
		GlobalSecondaryIndexOverride:  []dynamo.GlobalSecondaryIndex{gsi},
		LocalSecondaryIndexOverride:   []dynamo.LocalSecondaryIndex{lsi},
		ProvisionedThroughputOverride: &dynamo.ProvisionedThroughput{ReadCapacityUnits: 3, WriteCapacityUnits: 4},
		OnDemandThroughputOverride:    &dynamo.OnDemandThroughput{MaxReadRequestUnits: ptr[int64](5), MaxWriteRequestUnits: ptr[int64](6)},
		SSESpecificationOverride:      &dynamo.SSESpecification{Enabled: ptr(true), SSEType: "KMS", KMSMasterKeyId: "k"},
	}
	tests := []struct {
		op   string
		body string
		want any
	}{
		{"CreateBackup", `{"TableName":"t","BackupName":"b","x":{"y":[1]}}`, &dynamo.CreateBackupInput{TableName: "t", BackupName: "b"}},
		{"CreateBackup", `{}`, &dynamo.CreateBackupInput{NoTableName: true, NoBackupName: true}},
		{"CreateBackup", `{"TableName":null,"BackupName":""}`, &dynamo.CreateBackupInput{NoTableName: true}},
		{"CreateBackup", `{"TableName":"","BackupName":null}`, &dynamo.CreateBackupInput{NoBackupName: true}},

		{"DescribeBackup", `{"BackupArn":"` + arn + `"}`, &dynamo.DescribeBackupInput{BackupArn: arn}},
		{"DescribeBackup", `{}`, &dynamo.DescribeBackupInput{NoBackupArn: true}},
		{"DescribeBackup", `{"BackupArn":""}`, &dynamo.DescribeBackupInput{}},
		{"DeleteBackup", `{"BackupArn":"` + arn + `"}`, &dynamo.DeleteBackupInput{BackupArn: arn}},
		{"DeleteBackup", `{"BackupArn":null}`, &dynamo.DeleteBackupInput{NoBackupArn: true}},

		{"ListBackups", `{}`, &dynamo.ListBackupsInput{}},
		{"ListBackups", `{"TableName":"t","Limit":2,"TimeRangeLowerBound":1.70000000025E9,"TimeRangeUpperBound":1700000100,
			"ExclusiveStartBackupArn":"` + arn + `","BackupType":"ALL"}`,
			&dynamo.ListBackupsInput{TableName: "t", Limit: ptr[int32](2), TimeRangeLowerBound: &lower, TimeRangeUpperBound: &upper,
				ExclusiveStartBackupArn: arn, BackupType: "ALL"}},
		{"ListBackups", `{"Limit":null,"TimeRangeLowerBound":null,"TimeRangeUpperBound":null}`, &dynamo.ListBackupsInput{}},
		// A fraction of a Limit is truncated, as every Integer member's.
		{"ListBackups", `{"Limit":0.9}`, &dynamo.ListBackupsInput{Limit: ptr[int32](0)}},

		{"RestoreTableFromBackup", `{"TargetTableName":"r","BackupArn":"` + arn + `"}`,
			&dynamo.RestoreTableFromBackupInput{TargetTableName: "r", BackupArn: arn}},
		{"RestoreTableFromBackup", `{}`, &dynamo.RestoreTableFromBackupInput{NoTargetTableName: true, NoBackupArn: true}},
		{"RestoreTableFromBackup", `{"TargetTableName":"r","BackupArn":"a",` + overrides + `}`,
			&dynamo.RestoreTableFromBackupInput{TargetTableName: "r", BackupArn: "a", RestoreOverrides: all}},
		// [] is no indexes (a non-nil empty list); null or absent keeps
		// the source's (nil).
		{"RestoreTableFromBackup", `{"TargetTableName":"r","BackupArn":"a","GlobalSecondaryIndexOverride":[],"LocalSecondaryIndexOverride":[]}`,
			&dynamo.RestoreTableFromBackupInput{TargetTableName: "r", BackupArn: "a", RestoreOverrides: dynamo.RestoreOverrides{
				GlobalSecondaryIndexOverride: []dynamo.GlobalSecondaryIndex{}, LocalSecondaryIndexOverride: []dynamo.LocalSecondaryIndex{}}}},
		{"RestoreTableFromBackup", `{"TargetTableName":"r","BackupArn":"a","VectorIndexOverride":[]}`,
			&dynamo.RestoreTableFromBackupInput{TargetTableName: "r", BackupArn: "a", RestoreOverrides: dynamo.RestoreOverrides{
				VectorIndexOverride: []dynamo.VectorIndex{}}}},
		{"RestoreTableFromBackup", `{"TargetTableName":"r","BackupArn":"a","GlobalSecondaryIndexOverride":null,"LocalSecondaryIndexOverride":null,"VectorIndexOverride":null,
			"ProvisionedThroughputOverride":null,"OnDemandThroughputOverride":null,"SSESpecificationOverride":null,"BillingModeOverride":null}`,
			&dynamo.RestoreTableFromBackupInput{TargetTableName: "r", BackupArn: "a"}},
		// An empty ProvisionedThroughputOverride records both capacities
		// as null, as CreateTable's does.
		{"RestoreTableFromBackup", `{"TargetTableName":"r","BackupArn":"a","ProvisionedThroughputOverride":{}}`,
			&dynamo.RestoreTableFromBackupInput{TargetTableName: "r", BackupArn: "a", RestoreOverrides: dynamo.RestoreOverrides{
				ProvisionedThroughputOverride: &dynamo.ProvisionedThroughput{ReadNull: true, WriteNull: true}}}},
		// An index override's definitions are read as CreateTable's.
		{"RestoreTableFromBackup", `{"GlobalSecondaryIndexOverride":[{}],"LocalSecondaryIndexOverride":[{"IndexName":"l"}]}`,
			&dynamo.RestoreTableFromBackupInput{NoTargetTableName: true, NoBackupArn: true, RestoreOverrides: dynamo.RestoreOverrides{
				GlobalSecondaryIndexOverride: []dynamo.GlobalSecondaryIndex{{NoIndexName: true, NoProjection: true}},
				LocalSecondaryIndexOverride:  []dynamo.LocalSecondaryIndex{{IndexName: "l", NoProjection: true}}}}},
		{"RestoreTableToPointInTime", `{"VectorIndexOverride":[{"IndexName":null,"VectorAttribute":{}}]}`,
			&dynamo.RestoreTableToPointInTimeInput{NoTargetTableName: true, RestoreOverrides: dynamo.RestoreOverrides{
				VectorIndexOverride: []dynamo.VectorIndex{{NoIndexName: true, NoProjection: true, NoDimensions: true,
					VectorAttribute: &dynamo.VectorAttributeDefinition{NoAttributeName: true}}}}}},

		{"UpdateContinuousBackups", `{"TableName":"t","PointInTimeRecoverySpecification":{"PointInTimeRecoveryEnabled":true,"RecoveryPeriodInDays":7}}`,
			&dynamo.UpdateContinuousBackupsInput{TableName: "t", PointInTimeRecoverySpecification: &dynamo.PointInTimeRecoverySpecification{
				PointInTimeRecoveryEnabled: true, RecoveryPeriodInDays: ptr[int32](7)}}},
		{"UpdateContinuousBackups", `{"TableName":"t","PointInTimeRecoverySpecification":{"PointInTimeRecoveryEnabled":"False"}}`,
			&dynamo.UpdateContinuousBackupsInput{TableName: "t", PointInTimeRecoverySpecification: &dynamo.PointInTimeRecoverySpecification{}}},
		{"UpdateContinuousBackups", `{"PointInTimeRecoverySpecification":{}}`,
			&dynamo.UpdateContinuousBackupsInput{NoTableName: true, PointInTimeRecoverySpecification: &dynamo.PointInTimeRecoverySpecification{
				NoPointInTimeRecoveryEnabled: true}}},
		{"UpdateContinuousBackups", `{"TableName":"t","PointInTimeRecoverySpecification":{"PointInTimeRecoveryEnabled":null,"RecoveryPeriodInDays":null}}`,
			&dynamo.UpdateContinuousBackupsInput{TableName: "t", PointInTimeRecoverySpecification: &dynamo.PointInTimeRecoverySpecification{
				NoPointInTimeRecoveryEnabled: true}}},
		{"UpdateContinuousBackups", `{"TableName":"t","PointInTimeRecoverySpecification":null}`, &dynamo.UpdateContinuousBackupsInput{TableName: "t"}},

		{"DescribeContinuousBackups", `{"TableName":"t"}`, &dynamo.DescribeContinuousBackupsInput{TableName: "t"}},
		{"DescribeContinuousBackups", `{"TableName":null}`, &dynamo.DescribeContinuousBackupsInput{NoTableName: true}},
		{"DescribeContinuousBackups", `{"TableName":""}`, &dynamo.DescribeContinuousBackupsInput{}},

		{"RestoreTableToPointInTime", `{"SourceTableName":"t","TargetTableName":"r","UseLatestRestorableTime":true}`,
			&dynamo.RestoreTableToPointInTimeInput{SourceTableName: "t", TargetTableName: "r", UseLatestRestorableTime: ptr(true)}},
		{"RestoreTableToPointInTime", `{}`, &dynamo.RestoreTableToPointInTimeInput{NoTargetTableName: true}},
		{"RestoreTableToPointInTime", `{"SourceTableArn":"arn:aws:dynamodb:us-east-1:000000000000:table/t","TargetTableName":"r",
			"UseLatestRestorableTime":false,"RestoreDateTime":1.70000000025E9,` + overrides + `}`,
			&dynamo.RestoreTableToPointInTimeInput{SourceTableArn: "arn:aws:dynamodb:us-east-1:000000000000:table/t", TargetTableName: "r",
				UseLatestRestorableTime: ptr(false), RestoreDateTime: &lower, RestoreOverrides: all}},
		{"RestoreTableToPointInTime", `{"TargetTableName":"r","GlobalSecondaryIndexOverride":[],"LocalSecondaryIndexOverride":[]}`,
			&dynamo.RestoreTableToPointInTimeInput{TargetTableName: "r", RestoreOverrides: dynamo.RestoreOverrides{
				GlobalSecondaryIndexOverride: []dynamo.GlobalSecondaryIndex{}, LocalSecondaryIndexOverride: []dynamo.LocalSecondaryIndex{}}}},
		{"RestoreTableToPointInTime", `{"TargetTableName":"r","RestoreDateTime":null,"UseLatestRestorableTime":null}`,
			&dynamo.RestoreTableToPointInTimeInput{TargetTableName: "r"}},
	}
	for _, tt := range tests {
		got, err := decoders[tt.op]([]byte(tt.body))
		if err != nil {
			t.Errorf("%s %s: %v", tt.op, tt.body, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s %s:\n got %#v\nwant %#v", tt.op, tt.body, got, tt.want)
		}
	}
	// An index override left out stays nil, apart from [].
	in, err := DecodeRestoreTableFromBackup([]byte(`{"TargetTableName":"r","BackupArn":"a"}`))
	if err != nil || in.GlobalSecondaryIndexOverride != nil || in.LocalSecondaryIndexOverride != nil || in.VectorIndexOverride != nil {
		t.Errorf("absent index overrides: %#v, %v", in, err)
	}
	in, err = DecodeRestoreTableFromBackup([]byte(`{"GlobalSecondaryIndexOverride":[],"LocalSecondaryIndexOverride":[]}`))
	if err != nil || in.GlobalSecondaryIndexOverride == nil || in.LocalSecondaryIndexOverride == nil {
		t.Errorf("empty index overrides: %#v, %v", in, err)
	}
}

// Wrong JSON types get the SerializationExceptions every decoder gives
// them (decode.go; the same cases as the other operations' members of
// these Java types). The texts for a timestamp member (Java Date) are
// those GetShardIterator's Timestamp has here; no recording of
// DynamoDB's was found.
func TestDecodeBackupsErrors(t *testing.T) {
	const ser = dynamo.CodeSerialization
	tests := []struct {
		op, body, code, msg string
	}{
		{"CreateBackup", ``, ser, ""},
		{"CreateBackup", `[]`, ser, "Unrecognized collection type class " + modelPrefix + "CreateBackupInput"},
		{"CreateBackup", `{"TableName":5}`, ser, "NUMBER_VALUE cannot be converted to String"},
		{"CreateBackup", `{"BackupName":true}`, ser, "TRUE_VALUE cannot be converted to String"},
		{"CreateBackup", `{"BackupName":["b"]}`, ser, "Unrecognized collection type class java.lang.String"},
		{"CreateBackup", `{"TableName":"t"`, ser, ""},
		{"DescribeBackup", `{"BackupArn":{}}`, ser, msgStartOfMap},
		{"DescribeBackup", `null`, ser, ""},
		{"DeleteBackup", `{"BackupArn":1.5}`, ser, "DECIMAL_VALUE cannot be converted to String"},
		{"DeleteBackup", `[]`, ser, "Unrecognized collection type class " + modelPrefix + "DeleteBackupInput"},
		{"ListBackups", `{"Limit":"1"}`, ser, "STRING_VALUE cannot be converted to Integer"},
		{"ListBackups", `{"TimeRangeLowerBound":"2024-01-01"}`, ser, "STRING_VALUE cannot be converted to Date"},
		{"ListBackups", `{"TimeRangeUpperBound":true}`, ser, "TRUE_VALUE cannot be converted to Date"},
		{"ListBackups", `{"TimeRangeUpperBound":1e300}`, ser, msgUnexpectedToken},
		{"ListBackups", `{"BackupType":false}`, ser, "FALSE_VALUE cannot be converted to String"},
		{"ListBackups", `{"ExclusiveStartBackupArn":{}}`, ser, msgStartOfMap},
		{"ListBackups", `{"TableName":[]}`, ser, "Unrecognized collection type class java.lang.String"},
		{"RestoreTableFromBackup", `{"TargetTableName":1}`, ser, "NUMBER_VALUE cannot be converted to String"},
		{"RestoreTableFromBackup", `{"BackupArn":[]}`, ser, "Unrecognized collection type class java.lang.String"},
		{"RestoreTableFromBackup", `{"BillingModeOverride":{}}`, ser, msgStartOfMap},
		{"RestoreTableFromBackup", `{"GlobalSecondaryIndexOverride":{}}`, ser, msgStartOfMap},
		{"RestoreTableFromBackup", `{"GlobalSecondaryIndexOverride":"x"}`, ser, msgUnexpectedField},
		{"RestoreTableFromBackup", `{"GlobalSecondaryIndexOverride":[1]}`, ser, msgUnexpectedValue},
		{"RestoreTableFromBackup", `{"GlobalSecondaryIndexOverride":[[]]}`, ser, "Unrecognized collection type class " + modelPrefix + "GlobalSecondaryIndex"},
		{"RestoreTableFromBackup", `{"LocalSecondaryIndexOverride":[{"IndexName":2}]}`, ser, "NUMBER_VALUE cannot be converted to String"},
		{"RestoreTableFromBackup", `{"LocalSecondaryIndexOverride":[[]]}`, ser, "Unrecognized collection type class " + modelPrefix + "LocalSecondaryIndex"},
		{"RestoreTableFromBackup", `{"VectorIndexOverride":[[]]}`, ser, "Unrecognized collection type class " + modelPrefix + "VectorIndex"},
		{"RestoreTableFromBackup", `{"VectorIndexOverride":[{"Dimensions":"3"}]}`, ser, "STRING_VALUE cannot be converted to Long"},
		{"RestoreTableFromBackup", `{"ProvisionedThroughputOverride":[]}`, ser, "Unrecognized collection type class " + modelPrefix + "ProvisionedThroughput"},
		{"RestoreTableFromBackup", `{"ProvisionedThroughputOverride":{"ReadCapacityUnits":"1"}}`, ser, "STRING_VALUE cannot be converted to Long"},
		{"RestoreTableFromBackup", `{"OnDemandThroughputOverride":1}`, ser, msgUnexpectedField},
		{"RestoreTableFromBackup", `{"OnDemandThroughputOverride":{"MaxReadRequestUnits":true}}`, ser, "TRUE_VALUE cannot be converted to Long"},
		{"RestoreTableFromBackup", `{"SSESpecificationOverride":[]}`, ser, "Unrecognized collection type class " + modelPrefix + "SSESpecification"},
		{"RestoreTableFromBackup", `{"SSESpecificationOverride":{"Enabled":"yes"}}`, ser, msgUnexpectedToken},
		{"UpdateContinuousBackups", `{"TableName":{}}`, ser, msgStartOfMap},
		{"UpdateContinuousBackups", `{"PointInTimeRecoverySpecification":1}`, ser, msgUnexpectedField},
		{"UpdateContinuousBackups", `{"PointInTimeRecoverySpecification":[]}`, ser, "Unrecognized collection type class " + modelPrefix + "PointInTimeRecoverySpecification"},
		{"UpdateContinuousBackups", `{"PointInTimeRecoverySpecification":{"PointInTimeRecoveryEnabled":"on"}}`, ser, msgUnexpectedToken},
		{"UpdateContinuousBackups", `{"PointInTimeRecoverySpecification":{"PointInTimeRecoveryEnabled":1}}`, ser, "NUMBER_VALUE cannot be converted to Boolean"},
		{"UpdateContinuousBackups", `{"PointInTimeRecoverySpecification":{"RecoveryPeriodInDays":"7"}}`, ser, "STRING_VALUE cannot be converted to Integer"},
		{"DescribeContinuousBackups", `{"TableName":5}`, ser, "NUMBER_VALUE cannot be converted to String"},
		{"DescribeContinuousBackups", `[]`, ser, "Unrecognized collection type class " + modelPrefix + "DescribeContinuousBackupsInput"},
		{"RestoreTableToPointInTime", `{"SourceTableName":1}`, ser, "NUMBER_VALUE cannot be converted to String"},
		{"RestoreTableToPointInTime", `{"SourceTableArn":{}}`, ser, msgStartOfMap},
		{"RestoreTableToPointInTime", `{"TargetTableName":false}`, ser, "FALSE_VALUE cannot be converted to String"},
		{"RestoreTableToPointInTime", `{"UseLatestRestorableTime":"maybe"}`, ser, msgUnexpectedToken},
		{"RestoreTableToPointInTime", `{"UseLatestRestorableTime":[]}`, ser, "Unrecognized collection type class java.lang.Boolean"},
		{"RestoreTableToPointInTime", `{"RestoreDateTime":"2024"}`, ser, "STRING_VALUE cannot be converted to Date"},
		{"RestoreTableToPointInTime", `{"RestoreDateTime":{}}`, ser, msgStartOfMap},
		{"RestoreTableToPointInTime", `{"GlobalSecondaryIndexOverride":{}}`, ser, msgStartOfMap},
		{"RestoreTableToPointInTime", `{"LocalSecondaryIndexOverride":7}`, ser, msgUnexpectedField},
		{"RestoreTableToPointInTime", `{"VectorIndexOverride":{}}`, ser, msgStartOfMap},
	}
	for _, tt := range tests {
		got, err := decoders[tt.op]([]byte(tt.body))
		if err == nil {
			t.Errorf("%s %q: no error, got %#v", tt.op, tt.body, got)
			continue
		}
		checkError(t, tt.op+" "+tt.body, err, tt.code, tt.msg)
	}
}

// The responses' members, in alphabetical order as DynamoDB writes them,
// with the names of the API reference's response syntax (API_CreateBackup,
// API_DescribeBackup, API_ListBackups, API_DescribeContinuousBackups,
// and RestoreSummary in API_TableDescription).
func TestEncodeBackups(t *testing.T) {
	expiry := time.Unix(1700086400, 0)
	details := &dynamo.BackupDetails{BackupArn: "arn/b", BackupName: "b", BackupSizeBytes: ptr[int64](12), BackupStatus: "AVAILABLE",
		BackupType: "USER", BackupCreationDateTime: created, BackupExpiryDateTime: &expiry}
	const detailsJSON = `{"BackupArn":"arn/b","BackupCreationDateTime":1700000000.123,"BackupExpiryDateTime":1700086400,
		"BackupName":"b","BackupSizeBytes":12,"BackupStatus":"AVAILABLE","BackupType":"USER"}`
	jsonEqual(t, "CreateBackup", EncodeCreateBackup(nil, &dynamo.CreateBackupOutput{BackupDetails: details}), `{"BackupDetails":`+detailsJSON+`}`)
	// A backup still being made has no size yet.
	jsonEqual(t, "CreateBackup creating", EncodeCreateBackup(nil, &dynamo.CreateBackupOutput{BackupDetails: &dynamo.BackupDetails{
		BackupArn: "arn/b", BackupName: "b", BackupStatus: "CREATING", BackupType: "USER", BackupCreationDateTime: created}}),
		`{"BackupDetails":{"BackupArn":"arn/b","BackupCreationDateTime":`+tsWire+`,"BackupName":"b","BackupStatus":"CREATING","BackupType":"USER"}}`)
	jsonEqual(t, "CreateBackup nil", EncodeCreateBackup(nil, nil), `{}`)

	ks := []dynamo.KeySchemaElement{{AttributeName: "pk", KeyType: "HASH"}}
	desc := &dynamo.BackupDescription{
		BackupDetails: details,
		SourceTableDetails: &dynamo.SourceTableDetails{TableName: "t", TableId: "id", TableArn: "arn/t", TableSizeBytes: 10, KeySchema: ks,
			TableCreationDateTime: created, ProvisionedThroughput: &dynamo.ProvisionedThroughput{ReadCapacityUnits: 5, WriteCapacityUnits: 6},
			OnDemandThroughput: &dynamo.OnDemandThroughput{MaxReadRequestUnits: ptr[int64](-1)}, ItemCount: 2, BillingMode: "PROVISIONED"},
		SourceTableFeatureDetails: &dynamo.SourceTableFeatureDetails{
			LocalSecondaryIndexes: []dynamo.LocalSecondaryIndexInfo{{IndexName: "l", KeySchema: ks, Projection: dynamo.Projection{ProjectionType: "KEYS_ONLY"}}},
			GlobalSecondaryIndexes: []dynamo.GlobalSecondaryIndexInfo{{IndexName: "g", KeySchema: ks,
				Projection:            dynamo.Projection{ProjectionType: "INCLUDE", NonKeyAttributes: []string{"x"}},
				ProvisionedThroughput: &dynamo.ProvisionedThroughput{ReadCapacityUnits: 1, WriteCapacityUnits: 1},
				OnDemandThroughput:    &dynamo.OnDemandThroughput{MaxWriteRequestUnits: ptr[int64](9)}}},
			StreamDescription:     &dynamo.StreamSpecification{StreamEnabled: true, StreamViewType: "NEW_IMAGE"},
			TimeToLiveDescription: &dynamo.TimeToLiveDescription{TimeToLiveStatus: "ENABLED", AttributeName: "exp"},
			SSEDescription:        &dynamo.SSEDescription{Status: "ENABLED", SSEType: "KMS", KMSMasterKeyArn: "kms"},
			// VectorIndexInfo: the definition, no status (AWS's API
			// reference).
			VectorIndexes: []dynamo.VectorIndexInfo{{IndexName: "v", VectorAttribute: &dynamo.VectorAttributeDefinition{AttributeName: "emb"},
				Dimensions: 3, DistanceFunction: "EUCLIDEAN", SearchSchema: []dynamo.SearchSchemaElement{{AttributeName: "u", SearchSchemaElementType: "INLINE_FILTER"}},
				Projection: dynamo.Projection{ProjectionType: "KEYS_ONLY"}}},
		},
	}
	const descJSON = `{"BackupDetails":` + detailsJSON + `,
		"SourceTableDetails":{"BillingMode":"PROVISIONED","ItemCount":2,"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
			"OnDemandThroughput":{"MaxReadRequestUnits":-1},"ProvisionedThroughput":{"ReadCapacityUnits":5,"WriteCapacityUnits":6},
			"TableArn":"arn/t","TableCreationDateTime":1700000000.123,"TableId":"id","TableName":"t","TableSizeBytes":10},
		"SourceTableFeatureDetails":{
			"GlobalSecondaryIndexes":[{"IndexName":"g","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"OnDemandThroughput":{"MaxWriteRequestUnits":9},
				"Projection":{"NonKeyAttributes":["x"],"ProjectionType":"INCLUDE"},"ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":1}}],
			"LocalSecondaryIndexes":[{"IndexName":"l","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"Projection":{"ProjectionType":"KEYS_ONLY"}}],
			"SSEDescription":{"KMSMasterKeyArn":"kms","SSEType":"KMS","Status":"ENABLED"},
			"StreamDescription":{"StreamEnabled":true,"StreamViewType":"NEW_IMAGE"},
			"TimeToLiveDescription":{"AttributeName":"exp","TimeToLiveStatus":"ENABLED"},
			"VectorIndexes":[{"Dimensions":3,"DistanceFunction":"EUCLIDEAN","IndexName":"v","Projection":{"ProjectionType":"KEYS_ONLY"},
				"SearchSchema":[{"AttributeName":"u","SearchSchemaElementType":"INLINE_FILTER"}],"VectorAttribute":{"AttributeName":"emb"}}]}}`
	jsonEqual(t, "DescribeBackup", EncodeDescribeBackup(nil, &dynamo.DescribeBackupOutput{BackupDescription: desc}), `{"BackupDescription":`+descJSON+`}`)
	jsonEqual(t, "DeleteBackup", EncodeDeleteBackup(nil, &dynamo.DeleteBackupOutput{BackupDescription: desc}), `{"BackupDescription":`+descJSON+`}`)
	// Features left out stay out; the counts are always sent.
	jsonEqual(t, "DescribeBackup bare", EncodeDescribeBackup(nil, &dynamo.DescribeBackupOutput{BackupDescription: &dynamo.BackupDescription{
		SourceTableDetails: &dynamo.SourceTableDetails{TableName: "t"}, SourceTableFeatureDetails: &dynamo.SourceTableFeatureDetails{}}}),
		`{"BackupDescription":{"SourceTableDetails":{"ItemCount":0,"TableName":"t","TableSizeBytes":0},"SourceTableFeatureDetails":{}}}`)
	jsonEqual(t, "DeleteBackup nil", EncodeDeleteBackup(nil, nil), `{}`)

	jsonEqual(t, "ListBackups empty", EncodeListBackups(nil, &dynamo.ListBackupsOutput{}), `{"BackupSummaries":[]}`)
	jsonEqual(t, "ListBackups nil", EncodeListBackups(nil, nil), `{"BackupSummaries":[]}`)
	jsonEqual(t, "ListBackups", EncodeListBackups(nil, &dynamo.ListBackupsOutput{
		BackupSummaries: []dynamo.BackupSummary{
			{TableName: "t", TableId: "id", TableArn: "arn/t", BackupArn: "arn/b", BackupName: "b", BackupCreationDateTime: created,
				BackupExpiryDateTime: &expiry, BackupStatus: "AVAILABLE", BackupType: "USER", BackupSizeBytes: ptr[int64](0)},
			{TableName: "t", BackupArn: "arn/c", BackupName: "c", BackupCreationDateTime: created, BackupStatus: "CREATING", BackupType: "SYSTEM"},
		},
		LastEvaluatedBackupArn: "arn/c",
	}), `{"BackupSummaries":[
		{"BackupArn":"arn/b","BackupCreationDateTime":1700000000.123,"BackupExpiryDateTime":1700086400,"BackupName":"b","BackupSizeBytes":0,
		 "BackupStatus":"AVAILABLE","BackupType":"USER","TableArn":"arn/t","TableId":"id","TableName":"t"},
		{"BackupArn":"arn/c","BackupCreationDateTime":1700000000.123,"BackupName":"c","BackupStatus":"CREATING","BackupType":"SYSTEM","TableName":"t"}],
		"LastEvaluatedBackupArn":"arn/c"}`)

	restored := sampleTable()
	restored.RestoreSummary = &dynamo.RestoreSummary{SourceBackupArn: "arn/b", SourceTableArn: "arn/t", RestoreDateTime: created, RestoreInProgress: true}
	wantTable := sampleTableJSON[:len(sampleTableJSON)-1] + `,"RestoreSummary":{"RestoreDateTime":1700000000.123,"RestoreInProgress":true,
		"SourceBackupArn":"arn/b","SourceTableArn":"arn/t"}}`
	jsonEqual(t, "RestoreTableFromBackup", EncodeRestoreTableFromBackup(nil, &dynamo.RestoreTableFromBackupOutput{TableDescription: restored}),
		`{"TableDescription":`+wantTable+`}`)
	jsonEqual(t, "RestoreTableToPointInTime", EncodeRestoreTableToPointInTime(nil, &dynamo.RestoreTableToPointInTimeOutput{TableDescription: restored}),
		`{"TableDescription":`+wantTable+`}`)
	jsonEqual(t, "RestoreTableFromBackup nil", EncodeRestoreTableFromBackup(nil, nil), `{}`)
	jsonEqual(t, "RestoreTableToPointInTime nil", EncodeRestoreTableToPointInTime(nil, &dynamo.RestoreTableToPointInTimeOutput{}), `{}`)
	// RestoreInProgress is sent when false too; a restore from a point
	// in time has no SourceBackupArn.
	jsonEqual(t, "RestoreSummary done", EncodeDescribeTable(nil, &dynamo.DescribeTableOutput{Table: &dynamo.TableDescription{TableName: "r",
		RestoreSummary: &dynamo.RestoreSummary{SourceTableArn: "arn/t", RestoreDateTime: created}}}),
		`{"Table":{"ItemCount":0,"RestoreSummary":{"RestoreDateTime":1700000000.123,"RestoreInProgress":false,"SourceTableArn":"arn/t"},
		"TableName":"r","TableSizeBytes":0}}`)
	// The member's place among the others: after ProvisionedThroughput,
	// before SSEDescription, in the alphabetical order of the rest.
	got := string(EncodeDescribeTable(nil, &dynamo.DescribeTableOutput{Table: restored}))
	if p, r, s := strings.Index(got, `"ProvisionedThroughput"`), strings.Index(got, `"RestoreSummary"`), strings.Index(got, `"SSEDescription"`); !(p < r && r < s) {
		t.Errorf("RestoreSummary out of place: %s", got)
	}

	earliest, latest := time.Unix(1700000000, 0), time.Unix(1700003600, 500e6)
	jsonEqual(t, "DescribeContinuousBackups on", EncodeDescribeContinuousBackups(nil, &dynamo.DescribeContinuousBackupsOutput{
		ContinuousBackupsDescription: &dynamo.ContinuousBackupsDescription{ContinuousBackupsStatus: "ENABLED",
			PointInTimeRecoveryDescription: &dynamo.PointInTimeRecoveryDescription{PointInTimeRecoveryStatus: "ENABLED",
				RecoveryPeriodInDays: ptr[int32](35), EarliestRestorableDateTime: &earliest, LatestRestorableDateTime: &latest}}}),
		`{"ContinuousBackupsDescription":{"ContinuousBackupsStatus":"ENABLED","PointInTimeRecoveryDescription":{
			"EarliestRestorableDateTime":1700000000,"LatestRestorableDateTime":1700003600.5,"PointInTimeRecoveryStatus":"ENABLED","RecoveryPeriodInDays":35}}}`)
	jsonEqual(t, "UpdateContinuousBackups off", EncodeUpdateContinuousBackups(nil, &dynamo.UpdateContinuousBackupsOutput{
		ContinuousBackupsDescription: &dynamo.ContinuousBackupsDescription{ContinuousBackupsStatus: "ENABLED",
			PointInTimeRecoveryDescription: &dynamo.PointInTimeRecoveryDescription{PointInTimeRecoveryStatus: "DISABLED"}}}),
		`{"ContinuousBackupsDescription":{"ContinuousBackupsStatus":"ENABLED","PointInTimeRecoveryDescription":{"PointInTimeRecoveryStatus":"DISABLED"}}}`)
	jsonEqual(t, "UpdateContinuousBackups nil", EncodeUpdateContinuousBackups(nil, nil), `{}`)
	jsonEqual(t, "DescribeContinuousBackups bare", EncodeDescribeContinuousBackups(nil, &dynamo.DescribeContinuousBackupsOutput{
		ContinuousBackupsDescription: &dynamo.ContinuousBackupsDescription{ContinuousBackupsStatus: "DISABLED"}}),
		`{"ContinuousBackupsDescription":{"ContinuousBackupsStatus":"DISABLED"}}`)
	// Timestamps are epoch seconds as numbers, to the millisecond.
	if got := string(EncodeCreateBackup(nil, &dynamo.CreateBackupOutput{BackupDetails: &dynamo.BackupDetails{BackupCreationDateTime: created}})); got != `{"BackupDetails":{"BackupCreationDateTime":`+tsWire+`}}` {
		t.Errorf("BackupCreationDateTime: %s", got)
	}
}

// TestBackupRoundTrip reads back, through the decoders, the timestamps
// the encoders write: a ListBackups page's creation time is the next
// request's bound.
func TestBackupRoundTrip(t *testing.T) {
	body := EncodeCreateBackup(nil, &dynamo.CreateBackupOutput{BackupDetails: &dynamo.BackupDetails{BackupCreationDateTime: created}})
	ts := body[len(`{"BackupDetails":{"BackupCreationDateTime":`) : len(body)-2]
	in, err := DecodeListBackups([]byte(`{"TimeRangeLowerBound":` + string(ts) + `}`))
	if err != nil {
		t.Fatal(err)
	}
	if in.TimeRangeLowerBound == nil || !in.TimeRangeLowerBound.Equal(created) {
		t.Errorf("round trip of %s: %v, want %v", ts, in.TimeRangeLowerBound, created)
	}
}
