package protocol

import (
	"bytes"
	"encoding/json"
	"reflect"
	"sort"
	"testing"
	"time"

	"github.com/dynago/dynago/dynamo"
)

// The export and import decoders join the generic decoder tests.
func init() {
	decoders["ExportTableToPointInTime"] = wrap(DecodeExportTableToPointInTime)
	decoders["DescribeExport"] = wrap(DecodeDescribeExport)
	decoders["ListExports"] = wrap(DecodeListExports)
	decoders["ImportTable"] = wrap(DecodeImportTable)
	decoders["DescribeImport"] = wrap(DecodeDescribeImport)
	decoders["ListImports"] = wrap(DecodeListImports)
}

// The member names and types are those of the API reference's request
// syntax (API_ExportTableToPointInTime, API_DescribeExport,
// API_ListExports, API_ImportTable, API_DescribeImport, API_ListImports);
// ExportTime and the incremental bounds are numbers (epoch seconds), as
// in API_ExportTableToPointInTime's request syntax.
func TestDecodeExports(t *testing.T) {
	const tableArn = "arn:aws:dynamodb:us-east-1:000000000000:table/t"
	const exportArn = tableArn + "/export/01700000000123-abcdef01"
	const importArn = tableArn + "/import/01700000000123-abcdef01"
	at := time.Unix(1700000000, 250e6).UTC()
	from := time.Unix(1700000000, 0).UTC()
	to := time.Unix(1700000100, 500e6).UTC()
	ks := []dynamo.KeySchemaElement{{AttributeName: "pk", KeyType: "HASH"}}
	gsi := dynamo.GlobalSecondaryIndex{IndexName: "g", KeySchema: []dynamo.KeySchemaElement{{AttributeName: "g", KeyType: "HASH"}},
		Projection:            dynamo.Projection{ProjectionType: "INCLUDE", NonKeyAttributes: []string{"x"}},
		ProvisionedThroughput: &dynamo.ProvisionedThroughput{ReadCapacityUnits: 1, WriteCapacityUnits: 2},
		OnDemandThroughput:    &dynamo.OnDemandThroughput{MaxReadRequestUnits: ptr[int64](7)},
		WarmThroughput:        &dynamo.WarmThroughput{ReadUnitsPerSecond: ptr[int64](8)}}
	tests := []struct {
		op   string
		body string
		want any
	}{
		{"ExportTableToPointInTime", `{}`, &dynamo.ExportTableToPointInTimeInput{}},
		{"ExportTableToPointInTime", `{"TableArn":"` + tableArn + `","ExportTime":1.70000000025E9,"ClientToken":"c","S3Bucket":"b",
			"S3BucketOwner":"000000000000","S3Prefix":"p/","S3SseAlgorithm":"KMS","S3SseKmsKeyId":"k","ExportFormat":"ION",
			"ExportType":"INCREMENTAL_EXPORT","IncrementalExportSpecification":{"ExportFromTime":1700000000,"ExportToTime":1700000100.5,
			"ExportViewType":"NEW_IMAGE","x":[{}]},"y":{"z":1}}`,
			&dynamo.ExportTableToPointInTimeInput{TableArn: tableArn, ExportTime: &at, ClientToken: "c", S3Bucket: "b",
				S3BucketOwner: "000000000000", S3Prefix: "p/", S3SseAlgorithm: "KMS", S3SseKmsKeyId: "k", ExportFormat: "ION",
				ExportType: "INCREMENTAL_EXPORT", IncrementalExportSpecification: &dynamo.IncrementalExportSpecification{
					ExportFromTime: &from, ExportToTime: &to, ExportViewType: "NEW_IMAGE"}}},
		// null is absent, for every member.
		{"ExportTableToPointInTime", `{"TableArn":null,"ExportTime":null,"ClientToken":null,"S3Bucket":null,"S3BucketOwner":null,
			"S3Prefix":null,"S3SseAlgorithm":null,"S3SseKmsKeyId":null,"ExportFormat":null,"ExportType":null,"IncrementalExportSpecification":null}`,
			&dynamo.ExportTableToPointInTimeInput{}},
		// An empty specification is present, with nothing in it.
		{"ExportTableToPointInTime", `{"S3Bucket":"","IncrementalExportSpecification":{"ExportFromTime":null}}`,
			&dynamo.ExportTableToPointInTimeInput{IncrementalExportSpecification: &dynamo.IncrementalExportSpecification{}}},

		{"DescribeExport", `{"ExportArn":"` + exportArn + `"}`, &dynamo.DescribeExportInput{ExportArn: exportArn}},
		{"DescribeExport", `{"ExportArn":null,"TableArn":"x"}`, &dynamo.DescribeExportInput{}},
		{"ListExports", `{}`, &dynamo.ListExportsInput{}},
		{"ListExports", `{"TableArn":"` + tableArn + `","MaxResults":25,"NextToken":"n"}`,
			&dynamo.ListExportsInput{TableArn: tableArn, MaxResults: ptr[int32](25), NextToken: "n"}},
		// A fraction of an Integer member is truncated, as everywhere.
		{"ListExports", `{"MaxResults":1.9,"NextToken":null}`, &dynamo.ListExportsInput{MaxResults: ptr[int32](1)}},

		{"ImportTable", `{}`, &dynamo.ImportTableInput{}},
		{"ImportTable", `{"ClientToken":"c","S3BucketSource":{"S3BucketOwner":"000000000000","S3Bucket":"b","S3KeyPrefix":"p/"},
			"InputFormat":"CSV","InputFormatOptions":{"Csv":{"Delimiter":";","HeaderList":["pk","a"]}},"InputCompressionType":"GZIP",
			"TableCreationParameters":{"TableName":"t","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"g","AttributeType":"N"}],
				"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PROVISIONED",
				"ProvisionedThroughput":{"ReadCapacityUnits":3,"WriteCapacityUnits":4},
				"OnDemandThroughput":{"MaxReadRequestUnits":5,"MaxWriteRequestUnits":6},
				"SSESpecification":{"Enabled":true,"SSEType":"KMS","KMSMasterKeyId":"k"},
				"GlobalSecondaryIndexes":[{"IndexName":"g","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],
					"Projection":{"ProjectionType":"INCLUDE","NonKeyAttributes":["x"]},"ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":2},
					"OnDemandThroughput":{"MaxReadRequestUnits":7},"WarmThroughput":{"ReadUnitsPerSecond":8}}]}}`,
			&dynamo.ImportTableInput{ClientToken: "c", S3BucketSource: &dynamo.S3BucketSource{S3BucketOwner: "000000000000", S3Bucket: "b", S3KeyPrefix: "p/"},
				InputFormat: "CSV", InputFormatOptions: &dynamo.InputFormatOptions{Csv: &dynamo.CsvOptions{Delimiter: ";", HeaderList: []string{"pk", "a"}}},
				InputCompressionType: "GZIP",
				TableCreationParameters: &dynamo.TableCreationParameters{TableName: "t",
					AttributeDefinitions: []dynamo.AttributeDefinition{{AttributeName: "pk", AttributeType: "S"}, {AttributeName: "g", AttributeType: "N"}},
					KeySchema:            ks, BillingMode: "PROVISIONED",
					ProvisionedThroughput:  &dynamo.ProvisionedThroughput{ReadCapacityUnits: 3, WriteCapacityUnits: 4},
					OnDemandThroughput:     &dynamo.OnDemandThroughput{MaxReadRequestUnits: ptr[int64](5), MaxWriteRequestUnits: ptr[int64](6)},
					SSESpecification:       &dynamo.SSESpecification{Enabled: ptr(true), SSEType: "KMS", KMSMasterKeyId: "k"},
					GlobalSecondaryIndexes: []dynamo.GlobalSecondaryIndex{gsi}}}},
		{"ImportTable", `{"ClientToken":null,"S3BucketSource":null,"InputFormat":null,"InputFormatOptions":null,"InputCompressionType":null,
			"TableCreationParameters":null}`, &dynamo.ImportTableInput{}},
		// Empty structures are present; an empty list is a non-nil empty
		// list, apart from one left out.
		{"ImportTable", `{"S3BucketSource":{},"InputFormatOptions":{"Csv":{"HeaderList":[]}},"TableCreationParameters":{"GlobalSecondaryIndexes":[],
			"AttributeDefinitions":[],"KeySchema":[]}}`,
			&dynamo.ImportTableInput{S3BucketSource: &dynamo.S3BucketSource{},
				InputFormatOptions: &dynamo.InputFormatOptions{Csv: &dynamo.CsvOptions{HeaderList: []string{}}},
				TableCreationParameters: &dynamo.TableCreationParameters{GlobalSecondaryIndexes: []dynamo.GlobalSecondaryIndex{},
					AttributeDefinitions: []dynamo.AttributeDefinition{}, KeySchema: []dynamo.KeySchemaElement{}}}},
		// TableCreationParameters.VectorIndexes is read as CreateTable's
		// VectorIndexes (AWS's API reference).
		{"ImportTable", `{"TableCreationParameters":{"VectorIndexes":[{"IndexName":"v","VectorAttribute":{"AttributeName":"e"},"Dimensions":2.5,
			"DistanceFunction":"EUCLIDEAN","Projection":{"ProjectionType":"ALL"},"SearchSchema":[{"AttributeName":"k","SearchSchemaElementType":"HASH"}]},{}]}}`,
			&dynamo.ImportTableInput{TableCreationParameters: &dynamo.TableCreationParameters{VectorIndexes: []dynamo.VectorIndex{
				{IndexName: "v", VectorAttribute: &dynamo.VectorAttributeDefinition{AttributeName: "e"}, Dimensions: 2, DistanceFunction: "EUCLIDEAN",
					Projection: dynamo.Projection{ProjectionType: "ALL"}, SearchSchema: []dynamo.SearchSchemaElement{{AttributeName: "k", SearchSchemaElementType: "HASH"}}},
				{NoIndexName: true, NoProjection: true, NoDimensions: true}}}}},
		{"ImportTable", `{"TableCreationParameters":{"VectorIndexes":[]}}`,
			&dynamo.ImportTableInput{TableCreationParameters: &dynamo.TableCreationParameters{VectorIndexes: []dynamo.VectorIndex{}}}},
		{"ImportTable", `{"InputFormatOptions":{"Csv":null},"TableCreationParameters":{}}`,
			&dynamo.ImportTableInput{InputFormatOptions: &dynamo.InputFormatOptions{}, TableCreationParameters: &dynamo.TableCreationParameters{}}},
		// The table's definitions are read as CreateTable's: a GSI
		// without IndexName or Projection is marked so, an empty
		// throughput records both capacities as null, an AttributeType
		// or KMSMasterKeyId sent as "" is marked.
		{"ImportTable", `{"TableCreationParameters":{"GlobalSecondaryIndexes":[{}],"ProvisionedThroughput":{},
			"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":""}],"SSESpecification":{"KMSMasterKeyId":""}}}`,
			&dynamo.ImportTableInput{TableCreationParameters: &dynamo.TableCreationParameters{
				GlobalSecondaryIndexes: []dynamo.GlobalSecondaryIndex{{NoIndexName: true, NoProjection: true}},
				ProvisionedThroughput:  &dynamo.ProvisionedThroughput{ReadNull: true, WriteNull: true},
				AttributeDefinitions:   []dynamo.AttributeDefinition{{AttributeName: "pk", TypeEmpty: true}},
				SSESpecification:       &dynamo.SSESpecification{KeyIDEmpty: true}}}},

		{"DescribeImport", `{"ImportArn":"` + importArn + `"}`, &dynamo.DescribeImportInput{ImportArn: importArn}},
		{"DescribeImport", `{"ImportArn":null}`, &dynamo.DescribeImportInput{}},
		{"ListImports", `{}`, &dynamo.ListImportsInput{}},
		{"ListImports", `{"TableArn":"` + tableArn + `","PageSize":10,"NextToken":"n"}`,
			&dynamo.ListImportsInput{TableArn: tableArn, PageSize: ptr[int32](10), NextToken: "n"}},
		{"ListImports", `{"TableArn":null,"PageSize":null,"NextToken":null}`, &dynamo.ListImportsInput{}},
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
	// A list left out stays nil, apart from [].
	in, err := DecodeImportTable([]byte(`{"InputFormatOptions":{"Csv":{}},"TableCreationParameters":{"TableName":"t"}}`))
	if err != nil || in.TableCreationParameters.GlobalSecondaryIndexes != nil || in.TableCreationParameters.VectorIndexes != nil || in.InputFormatOptions.Csv.HeaderList != nil {
		t.Errorf("absent lists: %#v, %v", in, err)
	}
}

// Wrong JSON types get the SerializationExceptions every decoder gives
// them (decode.go; the same cases as the other operations' members of
// these Java types: String, Integer, Date, a structure, a list).
func TestDecodeExportsErrors(t *testing.T) {
	const ser = dynamo.CodeSerialization
	tests := []struct {
		op, body, code, msg string
	}{
		{"ExportTableToPointInTime", ``, ser, ""},
		{"ExportTableToPointInTime", `null`, ser, ""},
		{"ExportTableToPointInTime", `[]`, ser, "Unrecognized collection type class " + modelPrefix + "ExportTableToPointInTimeInput"},
		{"ExportTableToPointInTime", `{"TableArn":5}`, ser, "NUMBER_VALUE cannot be converted to String"},
		{"ExportTableToPointInTime", `{"S3Bucket":true}`, ser, "TRUE_VALUE cannot be converted to String"},
		{"ExportTableToPointInTime", `{"S3Prefix":["p"]}`, ser, "Unrecognized collection type class java.lang.String"},
		{"ExportTableToPointInTime", `{"ExportFormat":{}}`, ser, msgStartOfMap},
		{"ExportTableToPointInTime", `{"ExportType":1.5}`, ser, "DECIMAL_VALUE cannot be converted to String"},
		{"ExportTableToPointInTime", `{"ClientToken":false}`, ser, "FALSE_VALUE cannot be converted to String"},
		{"ExportTableToPointInTime", `{"ExportTime":"2024-01-01T00:00:00Z"}`, ser, "STRING_VALUE cannot be converted to Date"},
		{"ExportTableToPointInTime", `{"ExportTime":true}`, ser, "TRUE_VALUE cannot be converted to Date"},
		{"ExportTableToPointInTime", `{"ExportTime":{}}`, ser, msgStartOfMap},
		{"ExportTableToPointInTime", `{"ExportTime":1e300}`, ser, msgUnexpectedToken},
		{"ExportTableToPointInTime", `{"IncrementalExportSpecification":1}`, ser, msgUnexpectedField},
		{"ExportTableToPointInTime", `{"IncrementalExportSpecification":[]}`, ser, "Unrecognized collection type class " + modelPrefix + "IncrementalExportSpecification"},
		{"ExportTableToPointInTime", `{"IncrementalExportSpecification":{"ExportFromTime":"x"}}`, ser, "STRING_VALUE cannot be converted to Date"},
		{"ExportTableToPointInTime", `{"IncrementalExportSpecification":{"ExportToTime":[]}}`, ser, "Unrecognized collection type class java.lang.Date"},
		{"ExportTableToPointInTime", `{"IncrementalExportSpecification":{"ExportViewType":7}}`, ser, "NUMBER_VALUE cannot be converted to String"},
		{"ExportTableToPointInTime", `{"TableArn":"t"`, ser, ""},
		{"DescribeExport", `{"ExportArn":{}}`, ser, msgStartOfMap},
		{"DescribeExport", `[]`, ser, "Unrecognized collection type class " + modelPrefix + "DescribeExportInput"},
		{"ListExports", `{"MaxResults":"1"}`, ser, "STRING_VALUE cannot be converted to Integer"},
		{"ListExports", `{"TableArn":1}`, ser, "NUMBER_VALUE cannot be converted to String"},
		{"ListExports", `{"NextToken":[]}`, ser, "Unrecognized collection type class java.lang.String"},
		{"ImportTable", `[]`, ser, "Unrecognized collection type class " + modelPrefix + "ImportTableInput"},
		{"ImportTable", `{"ClientToken":1}`, ser, "NUMBER_VALUE cannot be converted to String"},
		{"ImportTable", `{"InputFormat":true}`, ser, "TRUE_VALUE cannot be converted to String"},
		{"ImportTable", `{"InputCompressionType":{}}`, ser, msgStartOfMap},
		{"ImportTable", `{"S3BucketSource":"b"}`, ser, msgUnexpectedField},
		{"ImportTable", `{"S3BucketSource":[]}`, ser, "Unrecognized collection type class " + modelPrefix + "S3BucketSource"},
		{"ImportTable", `{"S3BucketSource":{"S3Bucket":1}}`, ser, "NUMBER_VALUE cannot be converted to String"},
		{"ImportTable", `{"InputFormatOptions":[]}`, ser, "Unrecognized collection type class " + modelPrefix + "InputFormatOptions"},
		{"ImportTable", `{"InputFormatOptions":{"Csv":[]}}`, ser, "Unrecognized collection type class " + modelPrefix + "CsvOptions"},
		{"ImportTable", `{"InputFormatOptions":{"Csv":1}}`, ser, msgUnexpectedField},
		{"ImportTable", `{"InputFormatOptions":{"Csv":{"Delimiter":1}}}`, ser, "NUMBER_VALUE cannot be converted to String"},
		{"ImportTable", `{"InputFormatOptions":{"Csv":{"HeaderList":"a"}}}`, ser, msgUnexpectedField},
		{"ImportTable", `{"InputFormatOptions":{"Csv":{"HeaderList":{}}}}`, ser, msgStartOfMap},
		{"ImportTable", `{"InputFormatOptions":{"Csv":{"HeaderList":[1]}}}`, ser, "NUMBER_VALUE cannot be converted to String"},
		{"ImportTable", `{"TableCreationParameters":[]}`, ser, "Unrecognized collection type class " + modelPrefix + "TableCreationParameters"},
		{"ImportTable", `{"TableCreationParameters":true}`, ser, msgUnexpectedField},
		{"ImportTable", `{"TableCreationParameters":{"TableName":1}}`, ser, "NUMBER_VALUE cannot be converted to String"},
		{"ImportTable", `{"TableCreationParameters":{"BillingMode":[]}}`, ser, "Unrecognized collection type class java.lang.String"},
		{"ImportTable", `{"TableCreationParameters":{"AttributeDefinitions":{}}}`, ser, msgStartOfMap},
		{"ImportTable", `{"TableCreationParameters":{"AttributeDefinitions":[[]]}}`, ser, "Unrecognized collection type class " + modelPrefix + "AttributeDefinition"},
		{"ImportTable", `{"TableCreationParameters":{"KeySchema":"k"}}`, ser, msgUnexpectedField},
		{"ImportTable", `{"TableCreationParameters":{"KeySchema":[1]}}`, ser, msgUnexpectedValue},
		{"ImportTable", `{"TableCreationParameters":{"ProvisionedThroughput":[]}}`, ser, "Unrecognized collection type class " + modelPrefix + "ProvisionedThroughput"},
		{"ImportTable", `{"TableCreationParameters":{"ProvisionedThroughput":{"ReadCapacityUnits":"1"}}}`, ser, "STRING_VALUE cannot be converted to Long"},
		{"ImportTable", `{"TableCreationParameters":{"OnDemandThroughput":1}}`, ser, msgUnexpectedField},
		{"ImportTable", `{"TableCreationParameters":{"SSESpecification":[]}}`, ser, "Unrecognized collection type class " + modelPrefix + "SSESpecification"},
		{"ImportTable", `{"TableCreationParameters":{"SSESpecification":{"Enabled":"yes"}}}`, ser, msgUnexpectedToken},
		{"ImportTable", `{"TableCreationParameters":{"GlobalSecondaryIndexes":{}}}`, ser, msgStartOfMap},
		{"ImportTable", `{"TableCreationParameters":{"GlobalSecondaryIndexes":[[]]}}`, ser, "Unrecognized collection type class " + modelPrefix + "GlobalSecondaryIndex"},
		{"ImportTable", `{"TableCreationParameters":{"GlobalSecondaryIndexes":[{"IndexName":2}]}}`, ser, "NUMBER_VALUE cannot be converted to String"},
		{"ImportTable", `{"TableCreationParameters":{"VectorIndexes":{}}}`, ser, msgStartOfMap},
		{"ImportTable", `{"TableCreationParameters":{"VectorIndexes":[[]]}}`, ser, "Unrecognized collection type class " + modelPrefix + "VectorIndex"},
		{"DescribeImport", `{"ImportArn":1}`, ser, "NUMBER_VALUE cannot be converted to String"},
		{"DescribeImport", `null`, ser, ""},
		{"ListImports", `{"PageSize":"10"}`, ser, "STRING_VALUE cannot be converted to Integer"},
		{"ListImports", `{"PageSize":[]}`, ser, "Unrecognized collection type class java.lang.Integer"},
		{"ListImports", `{"TableArn":{}}`, ser, msgStartOfMap},
		{"ListImports", `{"NextToken":false}`, ser, "FALSE_VALUE cannot be converted to String"},
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

// keysSorted reports the first object of body, at any depth, whose
// members are not in alphabetical order, as DynamoDB writes them.
func keysSorted(t *testing.T, name string, body []byte) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(body))
	var walk func() error
	walk = func() error {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'):
			var keys []string
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return err
				}
				keys = append(keys, k.(string))
				if err := walk(); err != nil {
					return err
				}
			}
			if !sort.StringsAreSorted(keys) {
				t.Errorf("%s: members out of order %v in %s", name, keys, body)
			}
			_, err = dec.Token()
			return err
		case json.Delim('['):
			for dec.More() {
				if err := walk(); err != nil {
					return err
				}
			}
			_, err = dec.Token()
			return err
		}
		return nil
	}
	if err := walk(); err != nil {
		t.Errorf("%s: %v in %s", name, err, body)
	}
}

// The responses' members, with the names and types of the API
// reference's response syntax (API_ExportTableToPointInTime,
// API_DescribeExport, API_ListExports, API_ImportTable,
// API_DescribeImport, API_ListImports), in alphabetical order.
func TestEncodeExports(t *testing.T) {
	start, end := time.Unix(1700000001, 0), time.Unix(1700000002, 500e6)
	from, to := time.Unix(1699990000, 0), time.Unix(1699999000, 0)
	export := &dynamo.ExportDescription{ExportArn: "arn/e", ExportStatus: "COMPLETED", StartTime: &start, EndTime: &end,
		ExportManifest: "p/AWSDynamoDB/01/manifest-summary.json", TableArn: "arn/t", TableId: "id", ExportTime: &created, ClientToken: "c",
		S3Bucket: "b", S3BucketOwner: "000000000000", S3Prefix: "p", S3SseAlgorithm: "AES256", S3SseKmsKeyId: "k",
		FailureCode: "fc", FailureMessage: "fm", ExportFormat: "DYNAMODB_JSON", BilledSizeBytes: ptr[int64](0), ItemCount: ptr[int64](3),
		ExportType: "INCREMENTAL_EXPORT", IncrementalExportSpecification: &dynamo.IncrementalExportSpecification{
			ExportFromTime: &from, ExportToTime: &to, ExportViewType: "NEW_AND_OLD_IMAGES"}}
	const exportJSON = `{"BilledSizeBytes":0,"ClientToken":"c","EndTime":1700000002.5,"ExportArn":"arn/e","ExportFormat":"DYNAMODB_JSON",
		"ExportManifest":"p/AWSDynamoDB/01/manifest-summary.json","ExportStatus":"COMPLETED","ExportTime":1700000000.123,
		"ExportType":"INCREMENTAL_EXPORT","FailureCode":"fc","FailureMessage":"fm",
		"IncrementalExportSpecification":{"ExportFromTime":1699990000,"ExportToTime":1699999000,"ExportViewType":"NEW_AND_OLD_IMAGES"},
		"ItemCount":3,"S3Bucket":"b","S3BucketOwner":"000000000000","S3Prefix":"p","S3SseAlgorithm":"AES256","S3SseKmsKeyId":"k",
		"StartTime":1700000001,"TableArn":"arn/t","TableId":"id"}`
	body := EncodeExportTableToPointInTime(nil, &dynamo.ExportTableToPointInTimeOutput{ExportDescription: export})
	jsonEqual(t, "ExportTableToPointInTime", body, `{"ExportDescription":`+exportJSON+`}`)
	keysSorted(t, "ExportTableToPointInTime", body)
	jsonEqual(t, "DescribeExport", EncodeDescribeExport(nil, &dynamo.DescribeExportOutput{ExportDescription: export}), `{"ExportDescription":`+exportJSON+`}`)
	// An export under way has no end, size or count yet.
	jsonEqual(t, "DescribeExport in progress", EncodeDescribeExport(nil, &dynamo.DescribeExportOutput{ExportDescription: &dynamo.ExportDescription{
		ExportArn: "arn/e", ExportStatus: "IN_PROGRESS", StartTime: &start, ExportTime: &created}}),
		`{"ExportDescription":{"ExportArn":"arn/e","ExportStatus":"IN_PROGRESS","ExportTime":`+tsWire+`,"StartTime":1700000001}}`)
	jsonEqual(t, "ExportTableToPointInTime nil", EncodeExportTableToPointInTime(nil, nil), `{}`)
	jsonEqual(t, "DescribeExport nil", EncodeDescribeExport(nil, &dynamo.DescribeExportOutput{}), `{}`)

	jsonEqual(t, "ListExports nil", EncodeListExports(nil, nil), `{"ExportSummaries":[]}`)
	body = EncodeListExports(nil, &dynamo.ListExportsOutput{ExportSummaries: []dynamo.ExportSummary{
		{ExportArn: "arn/e", ExportStatus: "COMPLETED", ExportType: "FULL_EXPORT"}, {ExportArn: "arn/f", ExportStatus: "FAILED"}}, NextToken: "n"})
	jsonEqual(t, "ListExports", body, `{"ExportSummaries":[{"ExportArn":"arn/e","ExportStatus":"COMPLETED","ExportType":"FULL_EXPORT"},
		{"ExportArn":"arn/f","ExportStatus":"FAILED"}],"NextToken":"n"}`)
	keysSorted(t, "ListExports", body)

	params := &dynamo.TableCreationParameters{TableName: "t",
		AttributeDefinitions: []dynamo.AttributeDefinition{{AttributeName: "pk", AttributeType: "S"}, {AttributeName: "g", AttributeType: "N"}},
		KeySchema:            []dynamo.KeySchemaElement{{AttributeName: "pk", KeyType: "HASH"}}, BillingMode: "PROVISIONED",
		ProvisionedThroughput: &dynamo.ProvisionedThroughput{ReadCapacityUnits: 3, WriteCapacityUnits: 4},
		OnDemandThroughput:    &dynamo.OnDemandThroughput{MaxReadRequestUnits: ptr[int64](5), MaxWriteRequestUnits: ptr[int64](6)},
		SSESpecification:      &dynamo.SSESpecification{Enabled: ptr(false), SSEType: "KMS", KMSMasterKeyId: "k"},
		GlobalSecondaryIndexes: []dynamo.GlobalSecondaryIndex{{IndexName: "g", KeySchema: []dynamo.KeySchemaElement{{AttributeName: "g", KeyType: "HASH"}},
			Projection:            dynamo.Projection{ProjectionType: "INCLUDE", NonKeyAttributes: []string{"x"}},
			ProvisionedThroughput: &dynamo.ProvisionedThroughput{ReadCapacityUnits: 1, WriteCapacityUnits: 2},
			OnDemandThroughput:    &dynamo.OnDemandThroughput{MaxReadRequestUnits: ptr[int64](7)},
			WarmThroughput:        &dynamo.WarmThroughput{ReadUnitsPerSecond: ptr[int64](8), WriteUnitsPerSecond: ptr[int64](9)}}},
		// TableCreationParameters.VectorIndexes (AWS's API reference).
		VectorIndexes: []dynamo.VectorIndex{{IndexName: "v", VectorAttribute: &dynamo.VectorAttributeDefinition{AttributeName: "e"}, Dimensions: 3,
			DistanceFunction: "COSINE", Projection: dynamo.Projection{ProjectionType: "ALL"}}}}
	const paramsJSON = `{"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"g","AttributeType":"N"}],
		"BillingMode":"PROVISIONED",
		"GlobalSecondaryIndexes":[{"IndexName":"g","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],"OnDemandThroughput":{"MaxReadRequestUnits":7},
			"Projection":{"NonKeyAttributes":["x"],"ProjectionType":"INCLUDE"},"ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":2},
			"WarmThroughput":{"ReadUnitsPerSecond":8,"WriteUnitsPerSecond":9}}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"OnDemandThroughput":{"MaxReadRequestUnits":5,"MaxWriteRequestUnits":6},
		"ProvisionedThroughput":{"ReadCapacityUnits":3,"WriteCapacityUnits":4},"SSESpecification":{"Enabled":false,"KMSMasterKeyId":"k","SSEType":"KMS"},
		"TableName":"t","VectorIndexes":[{"Dimensions":3,"DistanceFunction":"COSINE","IndexName":"v","Projection":{"ProjectionType":"ALL"},
			"VectorAttribute":{"AttributeName":"e"}}]}`
	source := &dynamo.S3BucketSource{S3Bucket: "b", S3BucketOwner: "000000000000", S3KeyPrefix: "p/"}
	const sourceJSON = `{"S3Bucket":"b","S3BucketOwner":"000000000000","S3KeyPrefix":"p/"}`
	imp := &dynamo.ImportTableDescription{ImportArn: "arn/i", ImportStatus: "COMPLETED", TableArn: "arn/t", TableId: "id", ClientToken: "c",
		S3BucketSource: source, ErrorCount: 1, CloudWatchLogGroupArn: "arn/log", InputFormat: "CSV",
		InputFormatOptions:   &dynamo.InputFormatOptions{Csv: &dynamo.CsvOptions{Delimiter: ";", HeaderList: []string{"pk", "a"}}},
		InputCompressionType: "ZSTD", TableCreationParameters: params, StartTime: &start, EndTime: &end, ProcessedSizeBytes: ptr[int64](100),
		ProcessedItemCount: 4, ImportedItemCount: 3, FailureCode: "fc", FailureMessage: "fm"}
	const importJSON = `{"ClientToken":"c","CloudWatchLogGroupArn":"arn/log","EndTime":1700000002.5,"ErrorCount":1,"FailureCode":"fc",
		"FailureMessage":"fm","ImportArn":"arn/i","ImportStatus":"COMPLETED","ImportedItemCount":3,"InputCompressionType":"ZSTD","InputFormat":"CSV",
		"InputFormatOptions":{"Csv":{"Delimiter":";","HeaderList":["pk","a"]}},"ProcessedItemCount":4,"ProcessedSizeBytes":100,
		"S3BucketSource":` + sourceJSON + `,"StartTime":1700000001,"TableArn":"arn/t","TableCreationParameters":` + paramsJSON + `,"TableId":"id"}`
	body = EncodeImportTable(nil, &dynamo.ImportTableOutput{ImportTableDescription: imp})
	jsonEqual(t, "ImportTable", body, `{"ImportTableDescription":`+importJSON+`}`)
	keysSorted(t, "ImportTable", body)
	jsonEqual(t, "DescribeImport", EncodeDescribeImport(nil, &dynamo.DescribeImportOutput{ImportTableDescription: imp}), `{"ImportTableDescription":`+importJSON+`}`)
	// The counts are sent when 0; the rest is left out when absent.
	jsonEqual(t, "ImportTable bare", EncodeImportTable(nil, &dynamo.ImportTableOutput{ImportTableDescription: &dynamo.ImportTableDescription{
		ImportArn: "arn/i", ImportStatus: "IN_PROGRESS", InputFormatOptions: &dynamo.InputFormatOptions{},
		TableCreationParameters: &dynamo.TableCreationParameters{TableName: "t"}}}),
		`{"ImportTableDescription":{"ErrorCount":0,"ImportArn":"arn/i","ImportStatus":"IN_PROGRESS","ImportedItemCount":0,"InputFormatOptions":{},
		"ProcessedItemCount":0,"TableCreationParameters":{"TableName":"t"}}}`)
	jsonEqual(t, "ImportTable nil", EncodeImportTable(nil, nil), `{}`)
	jsonEqual(t, "DescribeImport nil", EncodeDescribeImport(nil, &dynamo.DescribeImportOutput{}), `{}`)

	jsonEqual(t, "ListImports nil", EncodeListImports(nil, nil), `{"ImportSummaryList":[]}`)
	body = EncodeListImports(nil, &dynamo.ListImportsOutput{ImportSummaryList: []dynamo.ImportSummary{
		{ImportArn: "arn/i", ImportStatus: "COMPLETED", TableArn: "arn/t", S3BucketSource: source, CloudWatchLogGroupArn: "arn/log",
			InputFormat: "ION", StartTime: &start, EndTime: &end},
		{ImportArn: "arn/j", ImportStatus: "IN_PROGRESS"}}, NextToken: "n"})
	jsonEqual(t, "ListImports", body, `{"ImportSummaryList":[{"CloudWatchLogGroupArn":"arn/log","EndTime":1700000002.5,"ImportArn":"arn/i",
		"ImportStatus":"COMPLETED","InputFormat":"ION","S3BucketSource":`+sourceJSON+`,"StartTime":1700000001,"TableArn":"arn/t"},
		{"ImportArn":"arn/j","ImportStatus":"IN_PROGRESS"}],"NextToken":"n"}`)
	keysSorted(t, "ListImports", body)
}

// TestExportImportRoundTrip: what the encoders write, the decoders read
// back to the same values (the request members an export or an import
// echoes, timestamps to the millisecond).
func TestExportImportRoundTrip(t *testing.T) {
	from, to := created.UTC(), time.Unix(1700000100, 999e6).UTC()
	spec := &dynamo.IncrementalExportSpecification{ExportFromTime: &from, ExportToTime: &to, ExportViewType: "NEW_IMAGE"}
	body := EncodeDescribeExport(nil, &dynamo.DescribeExportOutput{ExportDescription: &dynamo.ExportDescription{
		ExportTime: &from, IncrementalExportSpecification: spec}})
	var wire struct{ ExportDescription json.RawMessage }
	if err := json.Unmarshal(body, &wire); err != nil {
		t.Fatal(err)
	}
	in, err := DecodeExportTableToPointInTime(wire.ExportDescription)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(in, &dynamo.ExportTableToPointInTimeInput{ExportTime: &from, IncrementalExportSpecification: spec}) {
		t.Errorf("export round trip: %#v", in)
	}

	params := &dynamo.TableCreationParameters{TableName: "t", BillingMode: "PAY_PER_REQUEST",
		AttributeDefinitions:   []dynamo.AttributeDefinition{{AttributeName: "pk", AttributeType: "B"}},
		KeySchema:              []dynamo.KeySchemaElement{{AttributeName: "pk", KeyType: "HASH"}},
		OnDemandThroughput:     &dynamo.OnDemandThroughput{MaxWriteRequestUnits: ptr[int64](-1)},
		SSESpecification:       &dynamo.SSESpecification{Enabled: ptr(true)},
		GlobalSecondaryIndexes: []dynamo.GlobalSecondaryIndex{{IndexName: "g", KeySchema: []dynamo.KeySchemaElement{{AttributeName: "pk", KeyType: "HASH"}}, Projection: dynamo.Projection{ProjectionType: "KEYS_ONLY"}}}}
	want := &dynamo.ImportTableInput{ClientToken: "c", S3BucketSource: &dynamo.S3BucketSource{S3Bucket: "b"}, InputFormat: "CSV",
		InputFormatOptions:   &dynamo.InputFormatOptions{Csv: &dynamo.CsvOptions{HeaderList: []string{"pk"}}},
		InputCompressionType: "NONE", TableCreationParameters: params}
	body = EncodeDescribeImport(nil, &dynamo.DescribeImportOutput{ImportTableDescription: &dynamo.ImportTableDescription{
		ClientToken: want.ClientToken, S3BucketSource: want.S3BucketSource, InputFormat: want.InputFormat,
		InputFormatOptions: want.InputFormatOptions, InputCompressionType: want.InputCompressionType, TableCreationParameters: params}})
	var iwire struct{ ImportTableDescription json.RawMessage }
	if err := json.Unmarshal(body, &iwire); err != nil {
		t.Fatal(err)
	}
	imp, err := DecodeImportTable(iwire.ImportTableDescription)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(imp, want) {
		t.Errorf("import round trip:\n got %#v\nwant %#v", imp, want)
	}
}
