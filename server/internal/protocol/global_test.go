package protocol

import (
	"reflect"
	"testing"

	"github.com/dynago/dynago/dynamo"
)

func init() {
	decoders["DescribeGlobalTable"] = wrap(DecodeDescribeGlobalTable)
	decoders["DescribeGlobalTableSettings"] = wrap(DecodeDescribeGlobalTableSettings)
	decoders["ListGlobalTables"] = wrap(DecodeListGlobalTables)
	decoders["DescribeTableReplicaAutoScaling"] = wrap(DecodeDescribeTableReplicaAutoScaling)
}

// The members of the API reference's request syntax
// (API_DescribeGlobalTable, API_DescribeGlobalTableSettings,
// API_ListGlobalTables, API_DescribeTableReplicaAutoScaling).
func TestDecodeGlobalTables(t *testing.T) {
	for _, tt := range []struct {
		op, body string
		want     any
	}{
		{"DescribeGlobalTable", `{"GlobalTableName":"g"}`, &dynamo.DescribeGlobalTableInput{GlobalTableName: "g"}},
		{"DescribeGlobalTable", `{}`, &dynamo.DescribeGlobalTableInput{NoGlobalTableName: true}},
		{"DescribeGlobalTableSettings", `{"GlobalTableName":null}`, &dynamo.DescribeGlobalTableSettingsInput{NoGlobalTableName: true}},
		{"ListGlobalTables", `{"ExclusiveStartGlobalTableName":"g","Limit":2,"RegionName":"us-east-1"}`,
			&dynamo.ListGlobalTablesInput{ExclusiveStartGlobalTableName: "g", Limit: ptr[int32](2), RegionName: "us-east-1"}},
		{"DescribeTableReplicaAutoScaling", `{"TableName":"t"}`, &dynamo.DescribeTableReplicaAutoScalingInput{TableName: "t"}},
	} {
		got, err := decoders[tt.op]([]byte(tt.body))
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s %s: %#v, %v; want %#v", tt.op, tt.body, got, err, tt.want)
		}
	}
	for _, tt := range []struct{ op, body, msg string }{
		{"DescribeGlobalTable", `{"GlobalTableName":5}`, "NUMBER_VALUE cannot be converted to String"},
		{"ListGlobalTables", `{"Limit":"1"}`, "STRING_VALUE cannot be converted to Integer"},
		{"DescribeTableReplicaAutoScaling", `{"TableName":true}`, "TRUE_VALUE cannot be converted to String"},
	} {
		_, err := decoders[tt.op]([]byte(tt.body))
		checkError(t, tt.op+" "+tt.body, err, dynamo.CodeSerialization, tt.msg)
	}
	jsonEqual(t, "ListGlobalTables", EncodeListGlobalTables(nil, &dynamo.ListGlobalTablesOutput{}), `{"GlobalTables":[]}`)
}
