package protocol

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
)

// jsonEqual reports whether got is valid JSON equal to want.
func jsonEqual(t *testing.T, name string, got []byte, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Errorf("%s: invalid JSON %s: %v", name, got, err)
		return
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("%s: bad expectation %s: %v", name, want, err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("%s:\n got %s\nwant %s", name, got, want)
	}
}

var (
	created = time.Unix(1700000000, 123e6)
	tsWire  = "1.700000000123E9"
)

func sampleItem() attr.Item {
	return attr.Item{
		"s":  attr.S("x"),
		"n":  attr.N("-1.5E+3"),
		"b":  attr.B([]byte{1, 2, 3}),
		"t":  attr.Bool(true),
		"f":  attr.Bool(false),
		"z":  attr.Null(),
		"m":  {Type: attr.TypeM, M: map[string]attr.Value{"a": attr.S("b"), "e": {Type: attr.TypeM}}},
		"l":  {Type: attr.TypeL, L: []attr.Value{attr.N("1"), {Type: attr.TypeL}}},
		"ss": {Type: attr.TypeSS, SS: []string{"a", "b"}},
		"ns": {Type: attr.TypeNS, SS: []string{"1", "2"}},
		"bs": {Type: attr.TypeBS, BS: [][]byte{{}, {0}}},
	}
}

const sampleItemJSON = `{"s":{"S":"x"},"n":{"N":"-1.5E+3"},"b":{"B":"AQID"},"t":{"BOOL":true},"f":{"BOOL":false},
	"z":{"NULL":true},"m":{"M":{"a":{"S":"b"},"e":{"M":{}}}},"l":{"L":[{"N":"1"},{"L":[]}]},
	"ss":{"SS":["a","b"]},"ns":{"NS":["1","2"]},"bs":{"BS":["","AA=="]}}`

func sampleTable() *dynamo.TableDescription {
	return &dynamo.TableDescription{
		AttributeDefinitions: []dynamo.AttributeDefinition{{AttributeName: "pk", AttributeType: "S"}},
		TableName:            "t",
		KeySchema:            []dynamo.KeySchemaElement{{AttributeName: "pk", KeyType: "HASH"}},
		TableStatus:          "ACTIVE",
		CreationDateTime:     created,
		ProvisionedThroughput: &dynamo.ProvisionedThroughputDescription{
			LastIncreaseDateTime: created, NumberOfDecreasesToday: 0, ReadCapacityUnits: 5, WriteCapacityUnits: 6,
		},
		TableSizeBytes: 10,
		ItemCount:      2,
		TableArn:       "arn:aws:dynamodb:us-east-1:000000000000:table/t",
		TableId:        "id",
		BillingModeSummary: &dynamo.BillingModeSummary{
			BillingMode: "PROVISIONED", LastUpdateToPayPerRequestDateTime: time.Unix(1, 0),
		},
		LocalSecondaryIndexes: []dynamo.LocalSecondaryIndexDescription{{
			IndexName: "l", KeySchema: []dynamo.KeySchemaElement{{AttributeName: "pk", KeyType: "HASH"}},
			Projection: dynamo.Projection{ProjectionType: "KEYS_ONLY"}, IndexArn: "arn/l",
		}},
		GlobalSecondaryIndexes: []dynamo.GlobalSecondaryIndexDescription{{
			IndexName: "g", KeySchema: []dynamo.KeySchemaElement{{AttributeName: "g", KeyType: "HASH"}},
			Projection:  dynamo.Projection{ProjectionType: "INCLUDE", NonKeyAttributes: []string{"x"}},
			IndexStatus: "CREATING", Backfilling: ptr(true), IndexSizeBytes: 3, ItemCount: 1, IndexArn: "arn/g",
			ProvisionedThroughput: &dynamo.ProvisionedThroughputDescription{ReadCapacityUnits: 1, WriteCapacityUnits: 1},
			OnDemandThroughput:    &dynamo.OnDemandThroughput{MaxReadRequestUnits: ptr[int64](-1)},
			WarmThroughput:        &dynamo.WarmThroughputDescription{ReadUnitsPerSecond: 13000, WriteUnitsPerSecond: 4500, Status: "UPDATING"},
		}},
		VectorIndexes: []dynamo.VectorIndexDescription{{
			IndexName: "v", IndexArn: "arn/v", VectorAttribute: &dynamo.VectorAttributeDefinition{AttributeName: "emb"},
			Dimensions: 3, DistanceFunction: "DOT_PRODUCT",
			SearchSchema: []dynamo.SearchSchemaElement{{AttributeName: "u", SearchSchemaElementType: "HASH"}},
			Projection:   dynamo.Projection{ProjectionType: "ALL"}, IndexStatus: "CREATING", Backfilling: ptr(false), IndexSizeBytes: 4, ItemCount: 2,
		}},
		StreamSpecification:       &dynamo.StreamSpecification{StreamEnabled: true, StreamViewType: "KEYS_ONLY"},
		LatestStreamLabel:         "label",
		LatestStreamArn:           "arn/stream",
		SSEDescription:            &dynamo.SSEDescription{Status: "ENABLED", SSEType: "KMS", KMSMasterKeyArn: "kms"},
		TableClassSummary:         &dynamo.TableClassSummary{TableClass: "STANDARD", LastUpdateDateTime: created},
		DeletionProtectionEnabled: ptr(false),
		OnDemandThroughput:        &dynamo.OnDemandThroughput{MaxReadRequestUnits: ptr[int64](1), MaxWriteRequestUnits: ptr[int64](2)},
		WarmThroughput:            &dynamo.WarmThroughputDescription{ReadUnitsPerSecond: 5, WriteUnitsPerSecond: 6, Status: "ACTIVE"},
	}
}

const sampleTableJSON = `{
	"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
	"BillingModeSummary":{"BillingMode":"PROVISIONED","LastUpdateToPayPerRequestDateTime":1.0},
	"CreationDateTime":1700000000.123,
	"DeletionProtectionEnabled":false,
	"GlobalSecondaryIndexes":[{"Backfilling":true,"IndexArn":"arn/g","IndexName":"g","IndexSizeBytes":3,"IndexStatus":"CREATING","ItemCount":1,
		"KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],"OnDemandThroughput":{"MaxReadRequestUnits":-1},
		"Projection":{"NonKeyAttributes":["x"],"ProjectionType":"INCLUDE"},
		"ProvisionedThroughput":{"NumberOfDecreasesToday":0,"ReadCapacityUnits":1,"WriteCapacityUnits":1},
		"WarmThroughput":{"ReadUnitsPerSecond":13000,"Status":"UPDATING","WriteUnitsPerSecond":4500}}],
	"ItemCount":2,
	"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
	"LatestStreamArn":"arn/stream","LatestStreamLabel":"label",
	"LocalSecondaryIndexes":[{"IndexArn":"arn/l","IndexName":"l","IndexSizeBytes":0,"ItemCount":0,
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"Projection":{"ProjectionType":"KEYS_ONLY"}}],
	"OnDemandThroughput":{"MaxReadRequestUnits":1,"MaxWriteRequestUnits":2},
	"ProvisionedThroughput":{"LastIncreaseDateTime":1700000000.123,"NumberOfDecreasesToday":0,"ReadCapacityUnits":5,"WriteCapacityUnits":6},
	"SSEDescription":{"KMSMasterKeyArn":"kms","SSEType":"KMS","Status":"ENABLED"},
	"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"KEYS_ONLY"},
	"TableArn":"arn:aws:dynamodb:us-east-1:000000000000:table/t",
	"TableClassSummary":{"LastUpdateDateTime":1700000000.123,"TableClass":"STANDARD"},
	"TableId":"id","TableName":"t","TableSizeBytes":10,"TableStatus":"ACTIVE",
	"VectorIndexes":[{"Backfilling":false,"Dimensions":3,"DistanceFunction":"DOT_PRODUCT","IndexArn":"arn/v","IndexName":"v","IndexSizeBytes":4,
		"IndexStatus":"CREATING","ItemCount":2,"Projection":{"ProjectionType":"ALL"},
		"SearchSchema":[{"AttributeName":"u","SearchSchemaElementType":"HASH"}],"VectorAttribute":{"AttributeName":"emb"}}],
	"WarmThroughput":{"ReadUnitsPerSecond":5,"Status":"ACTIVE","WriteUnitsPerSecond":6}}`

func capacity() *dynamo.ConsumedCapacity {
	return &dynamo.ConsumedCapacity{
		TableName:              "t",
		CapacityUnits:          ptr(1.5),
		ReadCapacityUnits:      ptr(0.5),
		WriteCapacityUnits:     ptr(1.0),
		Table:                  &dynamo.Capacity{CapacityUnits: ptr(1.0)},
		GlobalSecondaryIndexes: map[string]dynamo.Capacity{"g": {ReadCapacityUnits: ptr(0.5)}},
		LocalSecondaryIndexes:  map[string]dynamo.Capacity{},
	}
}

const capacityJSON = `{"CapacityUnits":1.5,"GlobalSecondaryIndexes":{"g":{"ReadCapacityUnits":0.5}},"LocalSecondaryIndexes":{},
	"ReadCapacityUnits":0.5,"Table":{"CapacityUnits":1.0},"TableName":"t","WriteCapacityUnits":1.0}`

func TestEncodeResponses(t *testing.T) {
	metrics := &dynamo.ItemCollectionMetrics{ItemCollectionKey: attr.Item{"pk": attr.S("a")}, SizeEstimateRangeGB: []float64{0, 1}}
	const metricsJSON = `{"ItemCollectionKey":{"pk":{"S":"a"}},"SizeEstimateRangeGB":[0.0,1.0]}`
	tests := []struct {
		name string
		got  []byte
		want string
	}{
		{"CreateTable", EncodeCreateTable(nil, &dynamo.CreateTableOutput{TableDescription: sampleTable()}), `{"TableDescription":` + sampleTableJSON + `}`},
		{"CreateTable nil", EncodeCreateTable(nil, nil), `{}`},
		{"DescribeTable", EncodeDescribeTable(nil, &dynamo.DescribeTableOutput{Table: sampleTable()}), `{"Table":` + sampleTableJSON + `}`},
		{"DescribeTable minimal", EncodeDescribeTable(nil, &dynamo.DescribeTableOutput{Table: &dynamo.TableDescription{TableName: "t"}}),
			`{"Table":{"ItemCount":0,"TableName":"t","TableSizeBytes":0}}`},
		{"DeleteTable", EncodeDeleteTable(nil, &dynamo.DeleteTableOutput{TableDescription: &dynamo.TableDescription{TableName: "t", TableStatus: "DELETING"}}),
			`{"TableDescription":{"ItemCount":0,"TableName":"t","TableSizeBytes":0,"TableStatus":"DELETING"}}`},
		{"UpdateTable", EncodeUpdateTable(nil, &dynamo.UpdateTableOutput{TableDescription: sampleTable()}), `{"TableDescription":` + sampleTableJSON + `}`},
		{"ListTables empty", EncodeListTables(nil, &dynamo.ListTablesOutput{}), `{"TableNames":[]}`},
		{"ListTables", EncodeListTables(nil, &dynamo.ListTablesOutput{TableNames: []string{"a", "b"}, LastEvaluatedTableName: "b"}),
			`{"LastEvaluatedTableName":"b","TableNames":["a","b"]}`},
		{"ListTagsOfResource empty", EncodeListTagsOfResource(nil, &dynamo.ListTagsOfResourceOutput{}), `{"Tags":[]}`},
		{"ListTagsOfResource", EncodeListTagsOfResource(nil, &dynamo.ListTagsOfResourceOutput{Tags: []dynamo.Tag{{Key: "k", Value: ""}}, NextToken: "n"}),
			`{"NextToken":"n","Tags":[{"Key":"k","Value":""}]}`},
		{"DescribeLimits", EncodeDescribeLimits(nil, &dynamo.DescribeLimitsOutput{AccountMaxReadCapacityUnits: 80000, AccountMaxWriteCapacityUnits: 80000, TableMaxReadCapacityUnits: 40000, TableMaxWriteCapacityUnits: 40000}),
			`{"AccountMaxReadCapacityUnits":80000,"AccountMaxWriteCapacityUnits":80000,"TableMaxReadCapacityUnits":40000,"TableMaxWriteCapacityUnits":40000}`},
		{"DescribeEndpoints", EncodeDescribeEndpoints(nil, &dynamo.DescribeEndpointsOutput{Endpoints: []dynamo.Endpoint{{Address: "localhost:8000", CachePeriodInMinutes: 1440}}}),
			`{"Endpoints":[{"Address":"localhost:8000","CachePeriodInMinutes":1440}]}`},
		{"DescribeEndpoints empty", EncodeDescribeEndpoints(nil, &dynamo.DescribeEndpointsOutput{}), `{"Endpoints":[]}`},
		{"PutItem empty", EncodePutItem(nil, &dynamo.PutItemOutput{}), `{}`},
		{"PutItem", EncodePutItem(nil, &dynamo.PutItemOutput{Attributes: sampleItem(), ConsumedCapacity: capacity(), ItemCollectionMetrics: metrics}),
			`{"Attributes":` + sampleItemJSON + `,"ConsumedCapacity":` + capacityJSON + `,"ItemCollectionMetrics":` + metricsJSON + `}`},
		{"DeleteItem", EncodeDeleteItem(nil, &dynamo.DeleteItemOutput{Attributes: attr.Item{}}), `{"Attributes":{}}`},
		{"UpdateItem", EncodeUpdateItem(nil, &dynamo.UpdateItemOutput{Attributes: attr.Item{"a": attr.N("1")}, ConsumedCapacity: &dynamo.ConsumedCapacity{TableName: "t", CapacityUnits: ptr(1.0)}}),
			`{"Attributes":{"a":{"N":"1"}},"ConsumedCapacity":{"CapacityUnits":1.0,"TableName":"t"}}`},
		{"GetItem miss", EncodeGetItem(nil, &dynamo.GetItemOutput{}), `{}`},
		{"GetItem miss with capacity", EncodeGetItem(nil, &dynamo.GetItemOutput{ConsumedCapacity: &dynamo.ConsumedCapacity{TableName: "t", CapacityUnits: ptr(0.5)}}),
			`{"ConsumedCapacity":{"CapacityUnits":0.5,"TableName":"t"}}`},
		{"GetItem", EncodeGetItem(nil, &dynamo.GetItemOutput{Item: sampleItem()}), `{"Item":` + sampleItemJSON + `}`},
		{"BatchGetItem empty", EncodeBatchGetItem(nil, &dynamo.BatchGetItemOutput{}), `{"Responses":{},"UnprocessedKeys":{}}`},
		{"BatchGetItem", EncodeBatchGetItem(nil, &dynamo.BatchGetItemOutput{
			Responses: map[string][]attr.Item{"t1": {{"a": attr.S("1")}, {"a": attr.S("2")}}, "t2": {}},
			UnprocessedKeys: map[string]dynamo.KeysAndAttributes{"t3": {
				Keys: []attr.Item{{"a": attr.S("3")}}, ConsistentRead: true, ProjectionExpression: "#a",
				ExpressionAttributeNames: map[string]string{"#a": "a"}, AttributesToGet: []string{"a"},
			}},
			ConsumedCapacity: []dynamo.ConsumedCapacity{{TableName: "t1", CapacityUnits: ptr(1.0)}},
		}), `{"ConsumedCapacity":[{"CapacityUnits":1.0,"TableName":"t1"}],
			"Responses":{"t1":[{"a":{"S":"1"}},{"a":{"S":"2"}}],"t2":[]},
			"UnprocessedKeys":{"t3":{"AttributesToGet":["a"],"ConsistentRead":true,"ExpressionAttributeNames":{"#a":"a"},"Keys":[{"a":{"S":"3"}}],"ProjectionExpression":"#a"}}}`},
		{"BatchWriteItem empty", EncodeBatchWriteItem(nil, &dynamo.BatchWriteItemOutput{}), `{"UnprocessedItems":{}}`},
		{"BatchWriteItem", EncodeBatchWriteItem(nil, &dynamo.BatchWriteItemOutput{
			UnprocessedItems: map[string][]dynamo.WriteRequest{"t": {
				{PutRequest: &dynamo.PutRequest{Item: attr.Item{"a": attr.S("1")}}},
				{DeleteRequest: &dynamo.DeleteRequest{Key: attr.Item{"a": attr.S("2")}}},
			}},
			ConsumedCapacity:      []dynamo.ConsumedCapacity{},
			ItemCollectionMetrics: map[string][]dynamo.ItemCollectionMetrics{"t": {*metrics}},
		}), `{"ConsumedCapacity":[],"ItemCollectionMetrics":{"t":[` + metricsJSON + `]},
			"UnprocessedItems":{"t":[{"PutRequest":{"Item":{"a":{"S":"1"}}}},{"DeleteRequest":{"Key":{"a":{"S":"2"}}}}]}}`},
	}
	for _, tt := range tests {
		jsonEqual(t, tt.name, tt.got, tt.want)
	}
	if got := EncodeTagResource(nil); len(got) != 0 {
		t.Errorf("TagResource body %q, want empty", got)
	}
	if got := EncodeUntagResource([]byte("x")); string(got) != "x" {
		t.Errorf("UntagResource appended %q", got)
	}
}

// TestEncodeExact pins byte-exact output where the form matters: the
// number formats, member order, and appending to a non-empty dst.
func TestEncodeExact(t *testing.T) {
	out := &dynamo.DescribeTableOutput{Table: &dynamo.TableDescription{TableName: "t", CreationDateTime: created, ItemCount: 1}}
	got := string(EncodeDescribeTable([]byte("prefix"), out))
	want := `prefix{"Table":{"CreationDateTime":` + tsWire + `,"ItemCount":1,"TableName":"t","TableSizeBytes":0}}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	got = string(EncodeGetItem(nil, &dynamo.GetItemOutput{Item: attr.Item{"b": attr.S("2"), "a": attr.N("1"), "c": {Type: attr.TypeM, M: map[string]attr.Value{"z": attr.Null(), "y": attr.Bool(false)}}}}))
	want = `{"Item":{"a":{"N":"1"},"b":{"S":"2"},"c":{"M":{"y":{"BOOL":false},"z":{"NULL":true}}}}}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestAppendDouble(t *testing.T) {
	tests := []struct {
		f    float64
		want string
	}{
		{0, "0.0"},
		{1, "1.0"},
		{0.5, "0.5"},
		{1.5, "1.5"},
		{25, "25.0"},
		{0.001, "0.001"},
		{0.0001, "1.0E-4"},
		{1234567.5, "1234567.5"},
		{1e7, "1.0E7"},
		{1.7e9, "1.7E9"},
		{1700000000.123, "1.700000000123E9"},
		{1363728080.07, "1.36372808007E9"},
		{-2.5e-7, "-2.5E-7"},
		{1e300, "1.0E300"},
		{math.Inf(1), "0.0"},
		{math.NaN(), "0.0"},
	}
	for _, tt := range tests {
		if got := string(appendDouble(nil, tt.f)); got != tt.want {
			t.Errorf("appendDouble(%v) = %s, want %s", tt.f, got, tt.want)
		}
	}
	if got := string(appendTime(nil, time.Unix(1700000000, 0))); got != "1.7E9" {
		t.Errorf("appendTime = %s", got)
	}
	// Sub-millisecond precision is dropped, as DynamoDB keeps milliseconds.
	if got := string(appendTime(nil, time.Unix(1700000000, 123456789))); got != tsWire {
		t.Errorf("appendTime = %s", got)
	}
}

func TestAppendString(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"", `""`},
		{"plain", `"plain"`},
		{`q"b\s/`, `"q\"b\\s/"`},
		{"\b\f\n\r\t", `"\b\f\n\r\t"`},
		{"\x00\x01\x1f\x7f", `"\u0000\u0001\u001f` + "\x7f" + `"`},
		{"<&>", `"<&>"`},
		{"é☃😀", `"é☃😀"`},
		{"a\u2028b\u2029c", `"a\u2028b\u2029c"`},
		{"bad\xffutf8\xc3", `"bad\ufffdutf8\ufffd"`},
		{"\xed\xa0\x80", `"\ufffd\ufffd\ufffd"`},
	}
	for _, tt := range tests {
		got := string(appendString(nil, tt.in))
		if got != tt.want {
			t.Errorf("appendString(%q) = %s, want %s", tt.in, got, tt.want)
		}
		// It reads back as what encoding/json would have written: the
		// same string, with each invalid byte replaced by U+FFFD.
		var back, refBack string
		if err := json.Unmarshal([]byte(got), &back); err != nil {
			t.Errorf("appendString(%q): invalid JSON %s: %v", tt.in, got, err)
			continue
		}
		ref, _ := json.Marshal(tt.in)
		_ = json.Unmarshal(ref, &refBack)
		if back != refBack {
			t.Errorf("appendString(%q) reads back as %q, encoding/json's as %q", tt.in, back, refBack)
		}
		if utf8.ValidString(tt.in) && back != tt.in {
			t.Errorf("appendString(%q) reads back as %q", tt.in, back)
		}
	}
}

// TestRoundTrip decodes what it encodes: items written by the encoder read
// back identically through the decoder.
func TestRoundTrip(t *testing.T) {
	item := sampleItem()
	item["weird name \"\\\n\u2028\x01"] = attr.S("v\u2029\x7f")
	body := EncodeGetItem(nil, &dynamo.GetItemOutput{Item: item})
	// GetItem's {"Item":...} is a valid PutItem body as well.
	req := append([]byte(`{"TableName":"t",`), body[1:]...)
	in, err := DecodePutItem(req)
	if err != nil {
		t.Fatal(err)
	}
	// The decoder produces empty non-nil collections where the encoder
	// wrote {} or [] for nil ones.
	want := sampleItem()
	want["weird name \"\\\n\u2028\x01"] = attr.S("v\u2029\x7f")
	want["m"].M["e"] = attr.Value{Type: attr.TypeM, M: map[string]attr.Value{}}
	want["l"].L[1] = attr.Value{Type: attr.TypeL, L: []attr.Value{}}
	if !reflect.DeepEqual(in.Item, want) {
		t.Errorf("round trip:\n got %#v\nwant %#v", in.Item, want)
	}
}

// TestEncodeInternalFailure: DynamoDB's InternalFailure is HTTP 500 in the
// framework's namespace, without a message (the ack-api-quirks lab,
// DDB-TABLE-437, -178 and -456).
func TestEncodeInternalFailure(t *testing.T) {
	body, status := EncodeError(nil, &dynamo.Error{Code: dynamo.CodeInternalFailure})
	if status != 500 || string(body) != `{"__type":"com.amazon.coral.service#InternalFailure"}` {
		t.Fatalf("status %d, body %s", status, body)
	}
}
