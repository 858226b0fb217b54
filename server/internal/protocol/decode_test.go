package protocol

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
)

// decoders maps each operation to its decoder, with results as any.
var decoders = map[string]func([]byte) (any, error){
	"CreateTable":        wrap(DecodeCreateTable),
	"DescribeTable":      wrap(DecodeDescribeTable),
	"DeleteTable":        wrap(DecodeDeleteTable),
	"ListTables":         wrap(DecodeListTables),
	"UpdateTable":        wrap(DecodeUpdateTable),
	"TagResource":        wrap(DecodeTagResource),
	"UntagResource":      wrap(DecodeUntagResource),
	"ListTagsOfResource": wrap(DecodeListTagsOfResource),
	"DescribeLimits":     func(b []byte) (any, error) { return nil, DecodeDescribeLimits(b) },
	"DescribeEndpoints":  func(b []byte) (any, error) { return nil, DecodeDescribeEndpoints(b) },
	"PutItem":            wrap(DecodePutItem),
	"GetItem":            wrap(DecodeGetItem),
	"DeleteItem":         wrap(DecodeDeleteItem),
	"UpdateItem":         wrap(DecodeUpdateItem),
	"BatchGetItem":       wrap(DecodeBatchGetItem),
	"BatchWriteItem":     wrap(DecodeBatchWriteItem),
	"Query":              wrap(DecodeQuery),
	"Scan":               wrap(DecodeScan),
	"SearchVectors":      wrap(DecodeSearchVectors),
}

func wrap[T any](f func([]byte) (*T, error)) func([]byte) (any, error) {
	return func(b []byte) (any, error) {
		v, err := f(b)
		if err != nil {
			if v != nil {
				return v, errors.New("decoder returned a value with an error")
			}
			return nil, err
		}
		// A malformed attribute value is handed to the engine in the
		// input's ValueError (engine/validation_order.go): it is the
		// decoder's answer all the same.
		if f := reflect.ValueOf(v).Elem().FieldByName("ValueError"); f.IsValid() && !f.IsNil() {
			return nil, f.Interface().(error)
		}
		// The batch operations keep it with the place it was found in.
		if err := placedError(v); err != nil {
			return nil, err
		}
		return v, nil
	}
}

// placedError returns a malformed value the decoder kept with its place
// in a batch or transaction request (server/internal/protocol.placed).
func placedError(v any) error {
	switch in := v.(type) {
	case *dynamo.BatchGetItemInput:
		for _, ka := range in.RequestItems {
			if ka.ValueError != nil {
				return ka.ValueError
			}
		}
	case *dynamo.BatchWriteItemInput:
		for _, reqs := range in.RequestItems {
			for _, w := range reqs {
				if w.ValueError != nil {
					return w.ValueError
				}
			}
		}
	case *dynamo.TransactWriteItemsInput:
		for _, ti := range in.TransactItems {
			if ti.ExprValueError != nil {
				return ti.ExprValueError
			}
			if ti.ValueError != nil {
				return ti.ValueError
			}
		}
	case *dynamo.TransactGetItemsInput:
		for _, ti := range in.TransactItems {
			if ti.Get != nil && ti.Get.ValueError != nil {
				return ti.Get.ValueError
			}
		}
	}
	return nil
}

func ptr[T any](v T) *T { return &v }

func TestDecodeRequests(t *testing.T) {
	tests := []struct {
		op   string
		body string
		want any
	}{
		{"CreateTable", `{
			"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"N"},{"AttributeName":"g","AttributeType":"B"}],
			"BillingMode":"PROVISIONED",
			"DeletionProtectionEnabled":false,
			"GlobalSecondaryIndexes":[{"IndexName":"gsi","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],
				"Projection":{"ProjectionType":"INCLUDE","NonKeyAttributes":["a","b"]},
				"ProvisionedThroughput":{"ReadCapacityUnits":3,"WriteCapacityUnits":4},
				"OnDemandThroughput":{"MaxReadRequestUnits":10,"MaxWriteRequestUnits":-1}}],
			"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],
			"LocalSecondaryIndexes":[{"IndexName":"lsi","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"g","KeyType":"RANGE"}],"Projection":{"ProjectionType":"KEYS_ONLY"}}],
			"ProvisionedThroughput":{"ReadCapacityUnits":5,"WriteCapacityUnits":6},
			"SSESpecification":{"Enabled":true,"SSEType":"KMS","KMSMasterKeyId":"k"},
			"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_IMAGE"},
			"TableClass":"STANDARD",
			"TableName":"t1",
			"Tags":[{"Key":"k","Value":"v"}]}`,
			&dynamo.CreateTableInput{
				TableName: "t1",
				AttributeDefinitions: []dynamo.AttributeDefinition{
					{AttributeName: "pk", AttributeType: "S"}, {AttributeName: "sk", AttributeType: "N"}, {AttributeName: "g", AttributeType: "B"},
				},
				KeySchema: []dynamo.KeySchemaElement{{AttributeName: "pk", KeyType: "HASH"}, {AttributeName: "sk", KeyType: "RANGE"}},
				LocalSecondaryIndexes: []dynamo.LocalSecondaryIndex{{
					IndexName:  "lsi",
					KeySchema:  []dynamo.KeySchemaElement{{AttributeName: "pk", KeyType: "HASH"}, {AttributeName: "g", KeyType: "RANGE"}},
					Projection: dynamo.Projection{ProjectionType: "KEYS_ONLY"},
				}},
				GlobalSecondaryIndexes: []dynamo.GlobalSecondaryIndex{{
					IndexName:             "gsi",
					KeySchema:             []dynamo.KeySchemaElement{{AttributeName: "g", KeyType: "HASH"}},
					Projection:            dynamo.Projection{ProjectionType: "INCLUDE", NonKeyAttributes: []string{"a", "b"}},
					ProvisionedThroughput: &dynamo.ProvisionedThroughput{ReadCapacityUnits: 3, WriteCapacityUnits: 4},
					OnDemandThroughput:    &dynamo.OnDemandThroughput{MaxReadRequestUnits: ptr[int64](10), MaxWriteRequestUnits: ptr[int64](-1)},
				}},
				BillingMode:               "PROVISIONED",
				ProvisionedThroughput:     &dynamo.ProvisionedThroughput{ReadCapacityUnits: 5, WriteCapacityUnits: 6},
				StreamSpecification:       &dynamo.StreamSpecification{StreamEnabled: true, StreamViewType: "NEW_IMAGE"},
				SSESpecification:          &dynamo.SSESpecification{Enabled: ptr(true), SSEType: "KMS", KMSMasterKeyId: "k"},
				Tags:                      []dynamo.Tag{{Key: "k", Value: "v"}},
				TableClass:                "STANDARD",
				DeletionProtectionEnabled: ptr(false),
			}},
		{"CreateTable", `{"TableName":"t","OnDemandThroughput":{},"Tags":[],"KeySchema":null,"Unknown":{"deep":[1,{"x":null}]}}`,
			&dynamo.CreateTableInput{TableName: "t", OnDemandThroughput: &dynamo.OnDemandThroughput{}, Tags: []dynamo.Tag{}}},
		{"CreateTable", `{"TableName":"t","WarmThroughput":{"ReadUnitsPerSecond":12001,"Other":1},
			"GlobalSecondaryIndexes":[{"IndexName":"g","WarmThroughput":{"WriteUnitsPerSecond":4001}}]}`,
			&dynamo.CreateTableInput{TableName: "t", WarmThroughput: &dynamo.WarmThroughput{ReadUnitsPerSecond: ptr[int64](12001)},
				GlobalSecondaryIndexes: []dynamo.GlobalSecondaryIndex{{IndexName: "g", NoProjection: true,
					WarmThroughput: &dynamo.WarmThroughput{WriteUnitsPerSecond: ptr[int64](4001)}}}}},
		{"UpdateTable", `{"TableName":"t","WarmThroughput":{},"GlobalSecondaryIndexUpdates":[
				{"Create":{"IndexName":"g1","WarmThroughput":{"ReadUnitsPerSecond":1,"WriteUnitsPerSecond":2}}},
				{"Update":{"IndexName":"g2","WarmThroughput":{"ReadUnitsPerSecond":3}}}]}`,
			&dynamo.UpdateTableInput{TableName: "t", WarmThroughput: &dynamo.WarmThroughput{},
				GlobalSecondaryIndexUpdates: []dynamo.GlobalSecondaryIndexUpdate{
					{Create: &dynamo.GlobalSecondaryIndex{IndexName: "g1", NoProjection: true,
						WarmThroughput: &dynamo.WarmThroughput{ReadUnitsPerSecond: ptr[int64](1), WriteUnitsPerSecond: ptr[int64](2)}}},
					{Update: &dynamo.UpdateGlobalSecondaryIndexAction{IndexName: "g2", WarmThroughput: &dynamo.WarmThroughput{ReadUnitsPerSecond: ptr[int64](3)}}},
				}}},
		// Vector indexes (AWS's API reference: VectorIndex,
		// CreateVectorIndexAction, VectorIndexUpdate); a fractional
		// Dimensions truncates, as DynamoDB takes 3.5 for 3 (dynoxide's
		// capture, eu-west-2 2026-08-12).
		{"CreateTable", `{"TableName":"t","VectorIndexes":[{"IndexName":"v","VectorAttribute":{"AttributeName":"emb"},
			"SearchSchema":[{"AttributeName":"u","SearchSchemaElementType":"HASH"},{"AttributeName":"c"}],
			"Projection":{"ProjectionType":"KEYS_ONLY"},"Dimensions":3.5,"DistanceFunction":"COSINE"},{"VectorAttribute":{}}]}`,
			&dynamo.CreateTableInput{TableName: "t", VectorIndexes: []dynamo.VectorIndex{
				{IndexName: "v", VectorAttribute: &dynamo.VectorAttributeDefinition{AttributeName: "emb"},
					SearchSchema: []dynamo.SearchSchemaElement{{AttributeName: "u", SearchSchemaElementType: "HASH"}, {AttributeName: "c", NoElementType: true}},
					Projection:   dynamo.Projection{ProjectionType: "KEYS_ONLY"}, Dimensions: 3, DistanceFunction: "COSINE"},
				{NoIndexName: true, NoProjection: true, NoDimensions: true, VectorAttribute: &dynamo.VectorAttributeDefinition{NoAttributeName: true}},
			}}},
		{"UpdateTable", `{"TableName":"t","VectorIndexUpdates":[
				{"Create":{"IndexName":"v","VectorAttribute":{"AttributeName":"emb"},"Projection":{"ProjectionType":"ALL"},"Dimensions":4,"DistanceFunction":"EUCLIDEAN"}},
				{"Delete":{"IndexName":"w"}},{"Delete":{}},{}]}`,
			&dynamo.UpdateTableInput{TableName: "t", VectorIndexUpdates: []dynamo.VectorIndexUpdate{
				{Create: &dynamo.VectorIndex{IndexName: "v", VectorAttribute: &dynamo.VectorAttributeDefinition{AttributeName: "emb"},
					Projection: dynamo.Projection{ProjectionType: "ALL"}, Dimensions: 4, DistanceFunction: "EUCLIDEAN"}},
				{Delete: &dynamo.DeleteVectorIndexAction{IndexName: "w"}},
				{Delete: &dynamo.DeleteVectorIndexAction{NoIndexName: true}},
				{},
			}}},
		{"DescribeTable", `{"TableName":"t\u00e9"}`, &dynamo.DescribeTableInput{TableName: "té"}},
		{"DeleteTable", `{"TableName":"t"}`, &dynamo.DeleteTableInput{TableName: "t"}},
		{"ListTables", `{}`, &dynamo.ListTablesInput{}},
		{"ListTables", `{"ExclusiveStartTableName":"a","Limit":10}`, &dynamo.ListTablesInput{ExclusiveStartTableName: "a", ExclusiveStartTableNameSet: true, Limit: ptr[int32](10)}},
		{"ListTables", `{"Limit":1.9}`, &dynamo.ListTablesInput{Limit: ptr[int32](1)}},
		{"ListTables", `{"Limit":-2.5e0}`, &dynamo.ListTablesInput{Limit: ptr[int32](-2)}},
		{"ListTables", `{"Limit":1e2}`, &dynamo.ListTablesInput{Limit: ptr[int32](100)}},
		{"ListTables", `{"Limit":2147483648}`, &dynamo.ListTablesInput{Limit: ptr[int32](2147483647)}},
		{"ListTables", `{"Limit":-1e300}`, &dynamo.ListTablesInput{Limit: ptr[int32](-2147483648)}},
		{"ListTables", `{"Limit":0.0001e4}`, &dynamo.ListTablesInput{Limit: ptr[int32](1)}},
		{"ListTables", `{"Limit":null}`, &dynamo.ListTablesInput{}},
		{"UpdateTable", `{"TableName":"t","AttributeDefinitions":[{"AttributeName":"g","AttributeType":"S"}],"BillingMode":"PAY_PER_REQUEST",
			"GlobalSecondaryIndexUpdates":[
				{"Create":{"IndexName":"g1","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}},
				{"Update":{"IndexName":"g2","ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":2}}},
				{"Delete":{"IndexName":"g3"}}],
			"StreamSpecification":{"StreamEnabled":false},"SSESpecification":{"Enabled":false},"TableClass":"STANDARD_INFREQUENT_ACCESS",
			"DeletionProtectionEnabled":true,"ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":1},"OnDemandThroughput":{"MaxReadRequestUnits":5}}`,
			&dynamo.UpdateTableInput{
				TableName:            "t",
				AttributeDefinitions: []dynamo.AttributeDefinition{{AttributeName: "g", AttributeType: "S"}},
				BillingMode:          "PAY_PER_REQUEST",
				GlobalSecondaryIndexUpdates: []dynamo.GlobalSecondaryIndexUpdate{
					{Create: &dynamo.GlobalSecondaryIndex{IndexName: "g1", KeySchema: []dynamo.KeySchemaElement{{AttributeName: "g", KeyType: "HASH"}}, Projection: dynamo.Projection{ProjectionType: "ALL"}}},
					{Update: &dynamo.UpdateGlobalSecondaryIndexAction{IndexName: "g2", ProvisionedThroughput: &dynamo.ProvisionedThroughput{ReadCapacityUnits: 1, WriteCapacityUnits: 2}}},
					{Delete: &dynamo.DeleteGlobalSecondaryIndexAction{IndexName: "g3"}},
				},
				StreamSpecification:       &dynamo.StreamSpecification{},
				SSESpecification:          &dynamo.SSESpecification{Enabled: ptr(false)},
				TableClass:                "STANDARD_INFREQUENT_ACCESS",
				DeletionProtectionEnabled: ptr(true),
				ProvisionedThroughput:     &dynamo.ProvisionedThroughput{ReadCapacityUnits: 1, WriteCapacityUnits: 1},
				OnDemandThroughput:        &dynamo.OnDemandThroughput{MaxReadRequestUnits: ptr[int64](5)},
			}},
		{"TagResource", `{"ResourceArn":"arn:aws:dynamodb:us-east-1:000000000000:table/t","Tags":[{"Key":"a","Value":""}]}`,
			&dynamo.TagResourceInput{ResourceArn: "arn:aws:dynamodb:us-east-1:000000000000:table/t", Tags: []dynamo.Tag{{Key: "a"}}}},
		{"UntagResource", `{"ResourceArn":"arn","TagKeys":["a","b"]}`, &dynamo.UntagResourceInput{ResourceArn: "arn", TagKeys: []string{"a", "b"}}},
		{"ListTagsOfResource", `{"ResourceArn":"arn","NextToken":"n"}`, &dynamo.ListTagsOfResourceInput{ResourceArn: "arn", NextToken: "n"}},
		{"DescribeLimits", `{}`, nil},
		{"DescribeLimits", ` {"x":[]} `, nil},
		{"DescribeEndpoints", `{}`, nil},
		{"PutItem", `{"TableName":"t","Item":{
				"s":{"S":"x\"y\\z\n\u2603\ud83d\ude00"},"n":{"N":"1.5"},"b":{"B":"AQID"},"t":{"BOOL":true},"f":{"BOOL":false},
				"z":{"NULL":true},"m":{"M":{"a":{"S":"b"},"e":{"M":{}}}},"l":{"L":[{"N":"1"},{"L":[]}]},
				"ss":{"SS":["a","b"]},"ns":{"NS":["1","2"]},"bs":{"BS":["","AA=="]},"eb":{"B":""}},
			"ConditionExpression":"attribute_not_exists(#p)","ExpressionAttributeNames":{"#p":"pk"},
			"ExpressionAttributeValues":{":v":{"S":"v"}},"ReturnValues":"ALL_OLD","ReturnConsumedCapacity":"TOTAL",
			"ReturnItemCollectionMetrics":"SIZE","ReturnValuesOnConditionCheckFailure":"ALL_OLD","ConditionalOperator":"AND",
			"Expected":{"a":{"Value":{"S":"1"},"Exists":true},"b":{"ComparisonOperator":"BETWEEN","AttributeValueList":[{"N":"1"},{"N":"2"}]}}}`,
			&dynamo.PutItemInput{
				TableName: "t",
				Item: attr.Item{
					"s":  attr.S("x\"y\\z\n☃😀"),
					"n":  attr.N("1.5"),
					"b":  attr.B([]byte{1, 2, 3}),
					"t":  attr.Bool(true),
					"f":  attr.Bool(false),
					"z":  attr.Null(),
					"m":  {Type: attr.TypeM, M: map[string]attr.Value{"a": attr.S("b"), "e": {Type: attr.TypeM, M: map[string]attr.Value{}}}},
					"l":  {Type: attr.TypeL, L: []attr.Value{attr.N("1"), {Type: attr.TypeL, L: []attr.Value{}}}},
					"ss": {Type: attr.TypeSS, SS: []string{"a", "b"}},
					"ns": {Type: attr.TypeNS, SS: []string{"1", "2"}},
					"bs": {Type: attr.TypeBS, BS: [][]byte{{}, {0}}},
					"eb": attr.B([]byte{}),
				},
				ConditionExpression:       "attribute_not_exists(#p)",
				ExpressionAttributeNames:  map[string]string{"#p": "pk"},
				ExpressionAttributeValues: attr.Item{":v": attr.S("v")},
				Expected: map[string]dynamo.ExpectedAttributeValue{
					"a": {Value: ptr(attr.S("1")), Exists: ptr(true)},
					"b": {ComparisonOperator: "BETWEEN", AttributeValueList: []attr.Value{attr.N("1"), attr.N("2")}},
				},
				ConditionalOperator:                 "AND",
				ReturnValues:                        "ALL_OLD",
				ReturnConsumedCapacity:              "TOTAL",
				ReturnItemCollectionMetrics:         "SIZE",
				ReturnValuesOnConditionCheckFailure: "ALL_OLD",
			}},
		// Unknown members of an AttributeValue are ignored; null members are absent.
		{"PutItem", `{"TableName":"t","Item":{"a":{"S":"x","Q":[1,2],"N":null},"b":{"NULL":false}}}`,
			&dynamo.PutItemInput{TableName: "t", Item: attr.Item{"a": attr.S("x"), "b": {Type: attr.TypeNULL}}}},
		// Booleans may be the strings "true"/"false"; null set members are empty.
		{"PutItem", `{"Item":{"a":{"BOOL":"TRUE"},"b":{"SS":["x",null]}}}`,
			&dynamo.PutItemInput{NoTableName: true, Item: attr.Item{"a": attr.Bool(true), "b": {Type: attr.TypeSS, SS: []string{"x", ""}}}}},
		// Duplicate members: the last wins.
		{"PutItem", `{"TableName":"a","TableName":"b","Item":{"k":{"S":"1","S":"2"}}}`,
			&dynamo.PutItemInput{TableName: "b", Item: attr.Item{"k": attr.S("2")}}},
		{"PutItem", `{"Item":{}}`, &dynamo.PutItemInput{NoTableName: true, Item: attr.Item{}}},
		{"GetItem", `{"TableName":"t","Key":{"pk":{"S":"a"},"sk":{"N":"-1e5"}},"ConsistentRead":true,"AttributesToGet":["a"],
			"ProjectionExpression":"#a","ExpressionAttributeNames":{"#a":"a"},"ReturnConsumedCapacity":"INDEXES"}`,
			&dynamo.GetItemInput{TableName: "t", Key: attr.Item{"pk": attr.S("a"), "sk": attr.N("-1e5")}, ConsistentRead: true,
				AttributesToGet: []string{"a"}, ProjectionExpression: "#a", ExpressionAttributeNames: map[string]string{"#a": "a"},
				ReturnConsumedCapacity: "INDEXES"}},
		{"DeleteItem", `{"TableName":"t","Key":{"pk":{"S":"a"}},"ConditionExpression":"c","ExpressionAttributeNames":{"#a":"a"},
			"ExpressionAttributeValues":{":a":{"N":"1"}},"ReturnValues":"ALL_OLD","ReturnConsumedCapacity":"TOTAL",
			"ReturnItemCollectionMetrics":"SIZE","ReturnValuesOnConditionCheckFailure":"NONE","Expected":{"x":{"Exists":false}},"ConditionalOperator":"OR"}`,
			&dynamo.DeleteItemInput{TableName: "t", Key: attr.Item{"pk": attr.S("a")}, ConditionExpression: "c",
				ExpressionAttributeNames: map[string]string{"#a": "a"}, ExpressionAttributeValues: attr.Item{":a": attr.N("1")},
				Expected: map[string]dynamo.ExpectedAttributeValue{"x": {Exists: ptr(false)}}, ConditionalOperator: "OR",
				ReturnValues: "ALL_OLD", ReturnConsumedCapacity: "TOTAL", ReturnItemCollectionMetrics: "SIZE", ReturnValuesOnConditionCheckFailure: "NONE"}},
		{"UpdateItem", `{"TableName":"t","Key":{"pk":{"S":"a"}},"UpdateExpression":"SET #a = :v","ConditionExpression":"c",
			"ExpressionAttributeNames":{"#a":"a"},"ExpressionAttributeValues":{":v":{"L":[{"S":"x"}]}},
			"AttributeUpdates":{"a":{"Action":"PUT","Value":{"N":"3"}},"b":{"Action":"DELETE"}},
			"Expected":{"c":{"Value":{"B":"AA=="}}},"ConditionalOperator":"AND","ReturnValues":"UPDATED_NEW",
			"ReturnConsumedCapacity":"NONE","ReturnItemCollectionMetrics":"NONE","ReturnValuesOnConditionCheckFailure":"ALL_OLD"}`,
			&dynamo.UpdateItemInput{TableName: "t", Key: attr.Item{"pk": attr.S("a")}, UpdateExpression: "SET #a = :v", ConditionExpression: "c",
				ExpressionAttributeNames:  map[string]string{"#a": "a"},
				ExpressionAttributeValues: attr.Item{":v": {Type: attr.TypeL, L: []attr.Value{attr.S("x")}}},
				AttributeUpdates: map[string]dynamo.AttributeValueUpdate{
					"a": {Action: "PUT", Value: ptr(attr.N("3"))},
					"b": {Action: "DELETE"},
				},
				Expected:            map[string]dynamo.ExpectedAttributeValue{"c": {Value: ptr(attr.B([]byte{0}))}},
				ConditionalOperator: "AND", ReturnValues: "UPDATED_NEW", ReturnConsumedCapacity: "NONE",
				ReturnItemCollectionMetrics: "NONE", ReturnValuesOnConditionCheckFailure: "ALL_OLD"}},
		{"BatchGetItem", `{"RequestItems":{"t1":{"Keys":[{"pk":{"S":"a"}},{"pk":{"S":"b"}}],"ConsistentRead":true,
			"ProjectionExpression":"#p","ExpressionAttributeNames":{"#p":"pk"},"AttributesToGet":["x"]},"t2":{"Keys":[]}},
			"ReturnConsumedCapacity":"TOTAL"}`,
			&dynamo.BatchGetItemInput{RequestItems: map[string]dynamo.KeysAndAttributes{
				"t1": {Keys: []attr.Item{{"pk": attr.S("a")}, {"pk": attr.S("b")}}, ConsistentRead: true, ProjectionExpression: "#p",
					ExpressionAttributeNames: map[string]string{"#p": "pk"}, AttributesToGet: []string{"x"}},
				"t2": {Keys: []attr.Item{}},
			}, ReturnConsumedCapacity: "TOTAL"}},
		// Empty expressions are told from absent and null ones.
		{"PutItem", `{"ConditionExpression":""}`, &dynamo.PutItemInput{NoTableName: true, EmptyExpressions: dynamo.ExprCondition}},
		{"PutItem", `{"ConditionExpression":null}`, &dynamo.PutItemInput{NoTableName: true}},
		{"UpdateItem", `{"UpdateExpression":"","ConditionExpression":"c"}`,
			&dynamo.UpdateItemInput{NoTableName: true, ConditionExpression: "c", EmptyExpressions: dynamo.ExprUpdate}},
		{"DeleteItem", `{"ConditionExpression":""}`, &dynamo.DeleteItemInput{NoTableName: true, EmptyExpressions: dynamo.ExprCondition}},
		{"GetItem", `{"ProjectionExpression":""}`, &dynamo.GetItemInput{NoTableName: true, EmptyExpressions: dynamo.ExprProjection}},
		{"BatchGetItem", `{"RequestItems":{"t":{"ProjectionExpression":""}}}`,
			&dynamo.BatchGetItemInput{RequestItems: map[string]dynamo.KeysAndAttributes{"t": {EmptyExpressions: dynamo.ExprProjection}}}},
		{"Query", `{"KeyConditionExpression":"","FilterExpression":"","ProjectionExpression":"p"}`,
			&dynamo.QueryInput{NoTableName: true, ProjectionExpression: "p", EmptyExpressions: dynamo.ExprKeyCondition | dynamo.ExprFilter}},
		{"Scan", `{"FilterExpression":"f","ProjectionExpression":""}`,
			&dynamo.ScanInput{NoTableName: true, FilterExpression: "f", EmptyExpressions: dynamo.ExprProjection}},
		{"BatchWriteItem", `{"RequestItems":{"t":[{"PutRequest":{"Item":{"pk":{"S":"a"},"v":{"N":"1"}}}},{"DeleteRequest":{"Key":{"pk":{"S":"b"}}}},{}]},
			"ReturnConsumedCapacity":"TOTAL","ReturnItemCollectionMetrics":"SIZE"}`,
			&dynamo.BatchWriteItemInput{RequestItems: map[string][]dynamo.WriteRequest{"t": {
				{PutRequest: &dynamo.PutRequest{Item: attr.Item{"pk": attr.S("a"), "v": attr.N("1")}}},
				{DeleteRequest: &dynamo.DeleteRequest{Key: attr.Item{"pk": attr.S("b")}}},
				{},
			}}, ReturnConsumedCapacity: "TOTAL", ReturnItemCollectionMetrics: "SIZE"}},
	}
	for _, tt := range tests {
		got, err := decoders[tt.op]([]byte(tt.body))
		if err != nil {
			t.Errorf("%s %s: %v", tt.op, tt.body, err)
			continue
		}
		if tt.want == nil {
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s %s:\n got %#v\nwant %#v", tt.op, tt.body, got, tt.want)
		}
	}
}

// TestDecodeNestingDepth checks that attribute values nested deeper than
// maxAttrDepth are rejected with DynamoDB's nesting message and that a
// huge depth cannot overflow the stack.
func TestDecodeNestingDepth(t *testing.T) {
	nested := func(n int) string {
		return `{"Item":{"a":` + strings.Repeat(`{"M":{"a":`, n) + `{"S":"x"}` + strings.Repeat(`}}`, n) + `}}`
	}
	decodePut := decoders["PutItem"]
	if _, err := decodePut([]byte(nested(maxAttrDepth - 1))); err != nil {
		t.Errorf("depth %d: %v", maxAttrDepth-1, err)
	}
	for _, n := range []int{maxAttrDepth, 200000} {
		_, err := decodePut([]byte(nested(n)))
		checkError(t, "nested", err, dynamo.CodeValidation, msgAttrNesting)
	}
	// Lists nest the same way.
	deepList := `{"Item":{"a":` + strings.Repeat(`{"L":[`, 200000) + `{"S":"x"}` + strings.Repeat(`]}`, 200000) + `}}`
	_, err := decodePut([]byte(deepList))
	checkError(t, "deep list", err, dynamo.CodeValidation, msgAttrNesting)
	// Too deep and also malformed: the SerializationException wins.
	_, err = decodePut([]byte(nested(200000)[:1000000]))
	checkError(t, "deep truncated", err, dynamo.CodeSerialization, "")
	// Deep garbage in an unknown member is skipped without recursion.
	_, err = decodePut([]byte(`{"X":` + strings.Repeat(`[{"a":`, 100000) + "1" + strings.Repeat("}]", 100000) + `}`))
	if err != nil {
		t.Errorf("deep unknown member: %v", err)
	}
	_, err = decodePut([]byte(`{"X":` + strings.Repeat(`[{"a":`, 100000) + "1" + strings.Repeat("]}", 100000) + `}`))
	checkError(t, "deep malformed unknown member", err, dynamo.CodeSerialization, "")
}

func checkError(t *testing.T, name string, err error, code, msg string) {
	t.Helper()
	var e *dynamo.Error
	if !errors.As(err, &e) {
		t.Errorf("%s: error %v (%T), want *engine.Error %s", name, err, err, code)
		return
	}
	if e.Code != code || e.Message != msg {
		t.Errorf("%s: got %s %q, want %s %q", name, e.Code, e.Message, code, msg)
	}
}

func TestDecodeErrors(t *testing.T) {
	const (
		ser = dynamo.CodeSerialization
		val = dynamo.CodeValidation
	)
	tests := []struct {
		op, body  string
		code, msg string
	}{
		// Not JSON at all: DynamoDB sends no message.
		{"PutItem", ``, ser, ""},
		{"PutItem", `   `, ser, ""},
		{"PutItem", `hi`, ser, ""},
		{"PutItem", `{`, ser, ""},
		{"PutItem", `{"TableName":"t"`, ser, ""},
		{"PutItem", `{"TableName":"t",}`, ser, ""},
		{"PutItem", `{"TableName" "t"}`, ser, ""},
		{"PutItem", `{"TableName":"t"}}`, ser, ""},
		{"PutItem", `{"TableName":"t"} x`, ser, ""},
		{"PutItem", `{'a':1}`, ser, ""},
		{"PutItem", `{"a":01}`, ser, ""},
		{"PutItem", `{"a":1.}`, ser, ""},
		{"PutItem", `{"a":-}`, ser, ""},
		{"PutItem", `{"a":1e}`, ser, ""},
		{"PutItem", `{"a":+1}`, ser, ""},
		{"PutItem", `{"a":tru}`, ser, ""},
		{"PutItem", `{"a":[1,]}`, ser, ""},
		{"PutItem", `{"a":[1 2]}`, ser, ""},
		{"PutItem", `{"a":{"b":1]}`, ser, ""},
		{"PutItem", `{"a":"\x"}`, ser, ""},
		{"PutItem", `{"a":"\u12G4"}`, ser, ""},
		{"PutItem", "{\"a\":\"\x01\"}", ser, ""},
		{"PutItem", "{\"a\":\"\xff\"}", ser, ""},
		{"PutItem", "{\"TableName\":\"\xc3\"}", ser, ""},
		// An escaped surrogate that is not half of a pair: no evidence of
		// DynamoDB's answer was found, so it is refused as invalid UTF-8 is
		// (e2e/badinput_unicode_test.go).
		{"PutItem", `{"a":"\ud800"}`, ser, ""},
		{"PutItem", `{"a":"x\udfffy"}`, ser, ""},
		{"PutItem", `{"a":"\ud800\u0041"}`, ser, ""},
		{"PutItem", `{"a":"\ud800\ud800"}`, ser, ""},
		{"PutItem", `{"a":"\ude00\ud83d"}`, ser, ""},
		{"PutItem", `{"a":"\ud83d"}`, ser, ""},
		{"PutItem", `{"a":"\ud83d\`, ser, ""},
		{"PutItem", `{"Item":{"\udc00":{"S":"x"}}}`, ser, ""},
		{"PutItem", `{"TableName":"abc`, ser, ""},
		{"PutItem", `{"TableName":"a\`, ser, ""},
		{"PutItem", "\x00", ser, ""},
		{"PutItem", `{,}`, ser, ""},
		{"PutItem", `{{}}`, ser, ""},
		{"PutItem", strings.Repeat("{", 10000) + strings.Repeat("}", 9999), ser, ""},
		// The body is not an object.
		{"PutItem", `null`, ser, ""},
		{"PutItem", `[]`, ser, "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.PutItemInput"},
		{"PutItem", `7`, ser, msgUnexpectedValue},
		{"PutItem", `"x"`, ser, msgUnexpectedValue},
		{"DescribeEndpoints", `[]`, ser, "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.DescribeEndpointsRequest"},
		// A string member of the wrong type.
		{"PutItem", `{"TableName":5}`, ser, "NUMBER_VALUE cannot be converted to String"},
		{"PutItem", `{"TableName":-2147483648}`, ser, "NUMBER_VALUE cannot be converted to String"},
		{"PutItem", `{"TableName":34.56}`, ser, "DECIMAL_VALUE cannot be converted to String"},
		{"PutItem", `{"TableName":1e3}`, ser, "DECIMAL_VALUE cannot be converted to String"},
		{"PutItem", `{"TableName":true}`, ser, "TRUE_VALUE cannot be converted to String"},
		{"PutItem", `{"TableName":false}`, ser, "FALSE_VALUE cannot be converted to String"},
		{"PutItem", `{"TableName":[]}`, ser, "Unrecognized collection type class java.lang.String"},
		{"PutItem", `{"TableName":{}}`, ser, msgStartOfMap},
		{"PutItem", `{"TableName":5,"Item":[]}`, ser, "NUMBER_VALUE cannot be converted to String"},
		// A scalar token is read before its type is checked; like a
		// streaming parser, the decoder reports the type error before it
		// looks past the token.
		{"PutItem", `{"TableName":-x}`, ser, ""},
		{"PutItem", `{"TableName":12x}`, ser, "NUMBER_VALUE cannot be converted to String"},
		// Booleans.
		{"GetItem", `{"ConsistentRead":"23"}`, ser, msgUnexpectedToken},
		{"GetItem", `{"ConsistentRead":23}`, ser, "NUMBER_VALUE cannot be converted to Boolean"},
		{"GetItem", `{"ConsistentRead":34.56}`, ser, "DECIMAL_VALUE cannot be converted to Boolean"},
		{"GetItem", `{"ConsistentRead":[]}`, ser, "Unrecognized collection type class java.lang.Boolean"},
		{"GetItem", `{"ConsistentRead":{}}`, ser, msgStartOfMap},
		// Integers and longs.
		{"ListTables", `{"Limit":"x"}`, ser, "STRING_VALUE cannot be converted to Integer"},
		{"ListTables", `{"Limit":true}`, ser, "TRUE_VALUE cannot be converted to Integer"},
		{"ListTables", `{"Limit":false}`, ser, "FALSE_VALUE cannot be converted to Integer"},
		{"ListTables", `{"Limit":[]}`, ser, "Unrecognized collection type class java.lang.Integer"},
		{"ListTables", `{"Limit":{}}`, ser, msgStartOfMap},
		{"CreateTable", `{"ProvisionedThroughput":{"ReadCapacityUnits":"23"}}`, ser, "STRING_VALUE cannot be converted to Long"},
		{"CreateTable", `{"ProvisionedThroughput":{"WriteCapacityUnits":[]}}`, ser, "Unrecognized collection type class java.lang.Long"},
		// Structures as members and as elements.
		{"CreateTable", `{"ProvisionedThroughput":"23"}`, ser, msgUnexpectedField},
		{"CreateTable", `{"ProvisionedThroughput":23}`, ser, msgUnexpectedField},
		{"CreateTable", `{"ProvisionedThroughput":[]}`, ser, "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.ProvisionedThroughput"},
		{"CreateTable", `{"StreamSpecification":[]}`, ser, "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.StreamSpecification"},
		{"CreateTable", `{"KeySchema":[true]}`, ser, msgUnexpectedValue},
		{"CreateTable", `{"KeySchema":[[]]}`, ser, "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.KeySchemaElement"},
		{"CreateTable", `{"LocalSecondaryIndexes":[{"Projection":5}]}`, ser, msgUnexpectedField},
		{"CreateTable", `{"LocalSecondaryIndexes":[{"Projection":[]}]}`, ser, "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.Projection"},
		{"CreateTable", `{"GlobalSecondaryIndexes":[[]]}`, ser, "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.GlobalSecondaryIndex"},
		{"UpdateTable", `{"GlobalSecondaryIndexUpdates":[{"Create":[]}]}`, ser, "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.CreateGlobalSecondaryIndexAction"},
		{"UpdateTable", `{"GlobalSecondaryIndexUpdates":[{"Delete":1}]}`, ser, msgUnexpectedField},
		{"CreateTable", `{"VectorIndexes":[[]]}`, ser, "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.VectorIndex"},
		{"CreateTable", `{"VectorIndexes":[{"VectorAttribute":[]}]}`, ser, "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.VectorAttributeDefinition"},
		{"CreateTable", `{"VectorIndexes":[{"SearchSchema":[[]]}]}`, ser, "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.SearchSchemaElement"},
		{"CreateTable", `{"VectorIndexes":[{"Dimensions":"3"}]}`, ser, "STRING_VALUE cannot be converted to Long"},
		{"UpdateTable", `{"VectorIndexUpdates":[{"Create":[]}]}`, ser, "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.CreateVectorIndexAction"},
		{"UpdateTable", `{"VectorIndexUpdates":[{"Delete":1}]}`, ser, msgUnexpectedField},
		{"TagResource", `{"Tags":[1]}`, ser, msgUnexpectedValue},
		// Lists.
		{"CreateTable", `{"KeySchema":"23"}`, ser, msgUnexpectedField},
		{"CreateTable", `{"KeySchema":{}}`, ser, msgStartOfMap},
		{"GetItem", `{"AttributesToGet":34.56}`, ser, msgUnexpectedField},
		{"GetItem", `{"AttributesToGet":[1]}`, ser, "NUMBER_VALUE cannot be converted to String"},
		{"BatchWriteItem", `{"RequestItems":{"t":"23"}}`, ser, msgCollectionCast},
		{"BatchWriteItem", `{"RequestItems":{"t":{}}}`, ser, msgStartOfMap},
		{"BatchWriteItem", `{"RequestItems":{"t":[5]}}`, ser, msgUnexpectedValue},
		{"BatchWriteItem", `{"RequestItems":{"t":[[]]}}`, ser, "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.WriteRequest"},
		{"BatchWriteItem", `{"RequestItems":{"t":[{"PutRequest":true}]}}`, ser, msgUnexpectedField},
		{"BatchWriteItem", `{"RequestItems":{"t":[{"DeleteRequest":[]}]}}`, ser, "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.DeleteRequest"},
		{"BatchWriteItem", `{"RequestItems":{"t":[{"PutRequest":{"Item":[]}}]}}`, ser, "Unrecognized collection type java.util.Map<java.lang.String, com.amazonaws.dynamodb.v20120810.AttributeValue>"},
		// Maps.
		{"PutItem", `{"Item":[]}`, ser, "Unrecognized collection type java.util.Map<java.lang.String, com.amazonaws.dynamodb.v20120810.AttributeValue>"},
		{"PutItem", `{"Item":"23"}`, ser, msgUnexpectedField},
		{"PutItem", `{"Item":2147483648}`, ser, msgUnexpectedField},
		{"PutItem", `{"ExpressionAttributeNames":[]}`, ser, "Unrecognized collection type java.util.Map<java.lang.String, java.lang.String>"},
		{"PutItem", `{"ExpressionAttributeNames":{"#a":5}}`, ser, "NUMBER_VALUE cannot be converted to String"},
		{"PutItem", `{"Expected":[]}`, ser, "Unrecognized collection type java.util.Map<java.lang.String, com.amazonaws.dynamodb.v20120810.ExpectedAttributeValue>"},
		{"PutItem", `{"Expected":{"a":5}}`, ser, msgUnexpectedValue},
		{"PutItem", `{"Expected":{"a":{"Value":5}}}`, ser, msgUnexpectedField},
		{"PutItem", `{"Expected":{"a":{"Value":[]}}}`, ser, "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.AttributeValue"},
		{"PutItem", `{"Expected":{"a":{"AttributeValueList":[5]}}}`, ser, msgUnexpectedValue},
		{"UpdateItem", `{"AttributeUpdates":[]}`, ser, "Unrecognized collection type java.util.Map<java.lang.String, com.amazonaws.dynamodb.v20120810.AttributeValueUpdate>"},
		{"UpdateItem", `{"AttributeUpdates":{"a":{"Value":true}}}`, ser, msgUnexpectedField},
		{"BatchGetItem", `{"RequestItems":[]}`, ser, "Unrecognized collection type java.util.Map<java.lang.String, com.amazonaws.dynamodb.v20120810.KeysAndAttributes>"},
		{"BatchGetItem", `{"RequestItems":{"t":5}}`, ser, msgUnexpectedValue},
		{"BatchGetItem", `{"RequestItems":{"t":[]}}`, ser, "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.KeysAndAttributes"},
		{"BatchGetItem", `{"RequestItems":{"t":{"Keys":5}}}`, ser, msgUnexpectedField},
		{"BatchGetItem", `{"RequestItems":{"t":{"Keys":["23"]}}}`, ser, msgCollectionCast},
		{"BatchGetItem", `{"RequestItems":{"t":{"Keys":[[]]}}}`, ser, "Unrecognized collection type java.util.Map<java.lang.String, com.amazonaws.dynamodb.v20120810.AttributeValue>"},
		{"BatchWriteItem", `{"RequestItems":[]}`, ser, "Unrecognized collection type java.util.Map<java.lang.String, java.util.List<com.amazonaws.dynamodb.v20120810.WriteRequest>>"},
		// Attribute values.
		{"PutItem", `{"Item":{"a":"23"}}`, ser, msgUnexpectedValue},
		{"PutItem", `{"Item":{"a":true}}`, ser, msgUnexpectedValue},
		{"PutItem", `{"Item":{"a":[]}}`, ser, "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.AttributeValue"},
		{"PutItem", `{"Item":{"a":{"S":5}}}`, ser, "NUMBER_VALUE cannot be converted to String"},
		{"PutItem", `{"Item":{"a":{"N":5}}}`, ser, "NUMBER_VALUE cannot be converted to String"},
		{"PutItem", `{"Item":{"a":{"N":1.5}}}`, ser, "DECIMAL_VALUE cannot be converted to String"},
		{"PutItem", `{"Item":{"a":{"S":{"S":"x"}}}}`, ser, msgStartOfMap},
		{"PutItem", `{"Item":{"a":{"S":["x"]}}}`, ser, "Unrecognized collection type class java.lang.String"},
		{"PutItem", `{"Item":{"a":{"BOOL":"yes"}}}`, ser, msgUnexpectedToken},
		{"PutItem", `{"Item":{"a":{"NULL":1}}}`, ser, "NUMBER_VALUE cannot be converted to Boolean"},
		{"PutItem", `{"Item":{"a":{"NULL":[]}}}`, ser, "Unrecognized collection type class java.lang.Boolean"},
		{"PutItem", `{"Item":{"a":{"M":"23"}}}`, ser, msgUnexpectedField},
		{"PutItem", `{"Item":{"a":{"M":[]}}}`, ser, "Unrecognized collection type java.util.Map<java.lang.String, com.amazonaws.dynamodb.v20120810.AttributeValue>"},
		{"PutItem", `{"Item":{"a":{"M":{"b":5}}}}`, ser, msgUnexpectedValue},
		{"PutItem", `{"Item":{"a":{"L":{}}}}`, ser, msgStartOfMap},
		{"PutItem", `{"Item":{"a":{"L":true}}}`, ser, msgUnexpectedField},
		{"PutItem", `{"Item":{"a":{"L":[5]}}}`, ser, msgUnexpectedValue},
		{"PutItem", `{"Item":{"a":{"L":[[]]}}}`, ser, "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.AttributeValue"},
		{"PutItem", `{"Item":{"a":{"SS":"a"}}}`, ser, msgUnexpectedField},
		{"PutItem", `{"Item":{"a":{"SS":{}}}}`, ser, msgStartOfMap},
		{"PutItem", `{"Item":{"a":{"NS":[1]}}}`, ser, "NUMBER_VALUE cannot be converted to String"},
		{"PutItem", `{"Item":{"a":{"BS":[true]}}}`, ser, msgBlobNotString},
		{"PutItem", `{"Item":{"a":{"BS":34.56}}}`, ser, msgUnexpectedField},
		// Binary values.
		{"PutItem", `{"Item":{"a":{"B":true}}}`, ser, msgBlobNotString},
		{"PutItem", `{"Item":{"a":{"B":23}}}`, ser, msgBlobNotString},
		{"PutItem", `{"Item":{"a":{"B":34.56}}}`, ser, msgBlobNotString},
		{"PutItem", `{"Item":{"a":{"B":[]}}}`, ser, "Unrecognized collection type class java.nio.ByteBuffer"},
		{"PutItem", `{"Item":{"a":{"B":{}}}}`, ser, msgStartOfMap},
		{"PutItem", `{"Item":{"a":{"B":"23456"}}}`, ser, "Base64 encoded length is expected a multiple of 4 bytes but found: 5"},
		{"PutItem", `{"Item":{"a":{"B":"AQI"}}}`, ser, "Base64 encoded length is expected a multiple of 4 bytes but found: 3"},
		{"PutItem", `{"Item":{"a":{"B":"é"}}}`, ser, "Base64 encoded length is expected a multiple of 4 bytes but found: 1"},
		{"PutItem", `{"Item":{"a":{"B":"=+/="}}}`, ser, msgBase64LastChar},
		{"PutItem", `{"Item":{"a":{"B":"+/+="}}}`, ser, msgBase64LastChar},
		{"PutItem", `{"Item":{"a":{"B":"AB=="}}}`, ser, msgBase64LastChar},
		{"PutItem", `{"Item":{"a":{"B":"A==="}}}`, ser, msgBase64LastChar},
		{"PutItem", `{"Item":{"a":{"B":"AA=A"}}}`, ser, msgBase64LastChar},
		{"PutItem", `{"Item":{"a":{"B":"AA==AAAA"}}}`, ser, msgBase64LastChar},
		{"PutItem", `{"Item":{"a":{"B":"AA!A"}}}`, ser, "Invalid Base64 character: '!'"},
		{"PutItem", `{"Item":{"a":{"B":"AA-_"}}}`, ser, "Invalid Base64 character: '-'"},
		{"PutItem", `{"Item":{"a":{"B":"AAé"}}}`, ser, "Invalid Base64 character: 'é'"},
		{"PutItem", `{"Item":{"a":{"BS":["AQI"]}}}`, ser, "Base64 encoded length is expected a multiple of 4 bytes but found: 3"},
		// Empty and ambiguous AttributeValues are ValidationExceptions.
		{"PutItem", `{"Item":{"a":{}}}`, val, msgAttrEmpty},
		{"PutItem", `{"Item":{"a":{"x":""}}}`, val, msgAttrEmpty},
		{"PutItem", `{"Item":{"a":{"S":null}}}`, val, msgAttrEmpty},
		{"PutItem", `{"Item":{"a":null}}`, val, msgAttrEmpty},
		{"PutItem", `{"Item":{"a":{"M":{"a":{}}}}}`, val, msgAttrEmpty},
		{"PutItem", `{"Item":{"a":{"L":[{}]}}}`, val, msgAttrEmpty},
		{"PutItem", `{"Item":{"a":{"L":[{"a":{}}]}}}`, val, msgAttrEmpty},
		{"PutItem", `{"Item":{"a":{"L":[null]}}}`, val, msgAttrEmpty},
		{"PutItem", `{"Item":{"a":{"S":"a","N":"1"}}}`, val, msgAttrMulti},
		{"PutItem", `{"Item":{"a":{"NULL":true,"BOOL":false}}}`, val, msgAttrMulti},
		{"PutItem", `{"Item":{"a":{"L":[],"M":{}}}}`, val, msgAttrMulti},
		// Wrapped with its key, as DynamoDB reports it (applications' recorded
		// answers; see e2e/attrvalues_exact_test.go).
		{"PutItem", `{"ExpressionAttributeValues":{":a":{}}}`, val, "ExpressionAttributeValues contains invalid value: " + msgAttrEmpty + " for key :a"},
		{"GetItem", `{"Key":{"a":{"SS":["x"],"NS":["1"]}}}`, val, msgAttrMulti},
		{"DeleteItem", `{"Key":{"a":{}}}`, val, msgAttrEmpty},
		{"UpdateItem", `{"AttributeUpdates":{"a":{"Value":{}}}}`, val, msgAttrEmpty},
		{"BatchGetItem", `{"RequestItems":{"t":{"Keys":[{"a":{}}]}}}`, val, msgAttrEmpty},
		{"BatchWriteItem", `{"RequestItems":{"t":[{"PutRequest":{"Item":{"a":{"B":"","S":""}}}}]}}`, val, msgAttrMulti},
		// The first ValidationException is reported...
		{"PutItem", `{"Item":{"a":{"S":"a","N":"1"},"b":{}}}`, val, msgAttrMulti},
		// ...but only if the body deserializes completely.
		{"PutItem", `{"Item":{"a":{}},"TableName":5}`, ser, "NUMBER_VALUE cannot be converted to String"},
		{"PutItem", `{"Item":{"a":{}}`, ser, ""},
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

// TestDecodeParameterMemberOrder: in a PartiQL parameter, a map keeps only
// the first member whose binding fails in the body's order, so that the
// engine, walking a map in key order, reports that one; nothing else
// changes.
func TestDecodeParameterMemberOrder(t *testing.T) {
	deep := strings.Repeat(`{"M":{"n":`, 40) + `{"S":"leaf"}` + strings.Repeat(`}}`, 40)
	for _, tc := range []struct {
		name, param string
		keys        []string // the map parameter's members after decoding
	}{
		{"deep first", `{"M":{"d":` + deep + `,"bad":{"N":"abc"},"ok":{"N":"1"}}}`, []string{"d", "ok"}},
		{"number first", `{"M":{"z":{"N":"abc"},"a":` + deep + `}}`, []string{"z"}},
		{"empty value first", `{"M":{"z":{},"a":{"N":"1e99999999999"},"b":{"SS":[]}}}`, []string{"z"}},
		{"null element first", `{"M":{"z":{"L":[null]},"a":{"N":"abc"}}}`, []string{"z"}},
		{"one problem", `{"M":{"a":{"N":"abc"},"b":{"S":"x"}}}`, []string{"a", "b"}},
		{"no problem", `{"M":{"a":{"N":"1"},"b":{"NS":["1","2"]},"c":{"L":[{"N":"1e5"}]}}}`, []string{"a", "b", "c"}},
		// A member named twice: nothing is dropped.
		{"duplicate member", `{"M":{"a":{"N":"abc"},"b":{"N":"abc"},"a":{"N":"1"}}}`, []string{"a", "b"}},
		// At level 32 a value is fine, at 33 it is too deep.
		{"32 levels", `{"M":{"z":` + strings.Repeat(`{"M":{"n":`, 30) + `{"S":"leaf"}` + strings.Repeat(`}}`, 30) + `,"a":{"N":"abc"}}}`, []string{"a", "z"}},
		{"33 levels", `{"M":{"z":` + strings.Repeat(`{"M":{"n":`, 31) + `{"S":"leaf"}` + strings.Repeat(`}}`, 31) + `,"a":{"N":"abc"}}}`, []string{"z"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in, err := DecodeExecuteStatement([]byte(`{"Statement":"SELECT * FROM t","Parameters":[` + tc.param + `]}`))
			if err != nil {
				t.Fatal(err)
			}
			var keys []string
			for k := range in.Parameters[0].M {
				keys = append(keys, k)
			}
			if !sameKeys(keys, tc.keys) {
				t.Fatalf("members %q, want %q", keys, tc.keys)
			}
		})
	}
	// Elsewhere a map keeps every member.
	in, err := DecodePutItem([]byte(`{"TableName":"t","Item":{"m":{"M":{"z":{"N":"abc"},"a":{"N":"abc"}}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(in.Item["m"].M); n != 2 {
		t.Fatalf("PutItem's map kept %d members", n)
	}
}

func sameKeys(got, want []string) bool {
	if len(got) != len(want) {
		return false
	}
	seen := map[string]bool{}
	for _, k := range got {
		seen[k] = true
	}
	for _, k := range want {
		if !seen[k] {
			return false
		}
	}
	return true
}
