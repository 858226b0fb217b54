package protocol

import (
	"errors"
	"reflect"
	"testing"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
)

func TestDecodeSearchVectors(t *testing.T) {
	in, err := DecodeSearchVectors([]byte(`{"TableName":"t","IndexName":"vix",
		"SearchVector":[{"N":"0.1"},{"N":"-3"}],"TopK":5,
		"SearchConditionExpression":"#t = :t","ExpressionAttributeNames":{"#t":"tenant"},
		"ExpressionAttributeValues":{":t":{"S":"a"}},"ProjectionExpression":"","ReturnConsumedCapacity":"TOTAL"}`))
	if err != nil {
		t.Fatal(err)
	}
	want := &dynamo.SearchVectorsInput{TableName: "t", IndexName: "vix",
		SearchVector: []attr.Value{attr.N("0.1"), attr.N("-3")}, TopK: new(int32(5)),
		SearchConditionExpression: "#t = :t", ExpressionAttributeNames: map[string]string{"#t": "tenant"},
		ExpressionAttributeValues: attr.Item{":t": attr.S("a")}, ReturnConsumedCapacity: "TOTAL",
		EmptyExpressions: dynamo.ExprProjection}
	if !reflect.DeepEqual(in, want) {
		t.Errorf("decoded\n%#v\nwant\n%#v", in, want)
	}

	// Absent or null members are told apart from empty ones.
	in, err = DecodeSearchVectors([]byte(`{"IndexName":null,"SearchVector":null,"TopK":null}`))
	if err != nil {
		t.Fatal(err)
	}
	if !in.NoTableName || !in.NoIndexName || in.SearchVector != nil || in.TopK != nil {
		t.Errorf("absent members: %#v", in)
	}
	in, err = DecodeSearchVectors([]byte(`{"TableName":"t","IndexName":"","SearchVector":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	if in.NoTableName || in.NoIndexName || in.SearchVector == nil || len(in.SearchVector) != 0 {
		t.Errorf("empty members: %#v", in)
	}
}

func TestDecodeSearchVectorsErrors(t *testing.T) {
	for _, c := range []struct {
		name, body string
		code       string
		msg        string
	}{
		// A fractional TopK: the search front's JSON reader refuses it
		// (nubo-db/dynoxide, tests/http_server.rs, captured from DynamoDB
		// in eu-west-2 and us-east-1, 2026-08-13: "invalid type: floating
		// point `3.5`, expected i32 at line 1 column"); the column's
		// number is where the number ends, not recorded.
		{"fractional TopK", `{"TopK":3.5}`, dynamo.CodeSerialization, "invalid type: floating point `3.5`, expected i32 at line 1 column 11"},
		{"exponent TopK", "{\n \"TopK\": 3e0 }", dynamo.CodeSerialization, "invalid type: floating point `3.0`, expected i32 at line 2 column 12"},
		{"negative fraction", `{"TableName":"t","TopK":-0.5}`, dynamo.CodeSerialization, "invalid type: floating point `-0.5`, expected i32 at line 1 column 28"},
		// Wrong JSON types are answered as for the other operations'
		// members (decode.go).
		{"TopK string", `{"TopK":"1"}`, dynamo.CodeSerialization, "STRING_VALUE cannot be converted to Integer"},
		{"SearchVector L value", `{"SearchVector":{"L":[{"N":"1"}]}}`, dynamo.CodeSerialization, msgStartOfMap},
		{"IndexName number", `{"IndexName":5}`, dynamo.CodeSerialization, "NUMBER_VALUE cannot be converted to String"},
		{"not JSON", `{"TopK":}`, dynamo.CodeSerialization, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := DecodeSearchVectors([]byte(c.body))
			var e *dynamo.Error
			if !errors.As(err, &e) || e.Code != c.code || e.Message != c.msg {
				t.Errorf("got %v, want %s %q", err, c.code, c.msg)
			}
		})
	}
}

func TestEncodeSearchVectors(t *testing.T) {
	bytes := 41714.0
	for _, c := range []struct {
		name string
		out  *dynamo.SearchVectorsOutput
		want string
	}{
		// An empty result is an empty list (nubo-db/dynoxide,
		// tests/search_vectors.rs, "empty_table_search_returns_an_empty_
		// search_results_array", from its captures).
		{"empty", &dynamo.SearchVectorsOutput{}, `{"SearchResults":[]}`},
		{"nil", nil, `{"SearchResults":[]}`},
		// Scores are doubles (the service model's SearchResultItem.Score);
		// 9.0 and 0.0 as the agent toolkit's recorded example gives them
		// (aws/agent-toolkit-for-aws, vector-search.md: "[10,0,0,0] ranks
		// tied-first under COSINE (0.0) and last under EUCLIDEAN (9.0)").
		// The capacity is a VectorCapacity (AWS's developer guide,
		// VectorSearchMonitoring: {"VectorSearchRequestBytes":41714.0}).
		{"results", &dynamo.SearchVectorsOutput{
			SearchResults: []dynamo.SearchResultItem{
				{Item: attr.Item{"pk": attr.S("a")}, Score: 0},
				{Item: attr.Item{"pk": attr.S("b")}, Score: 9},
				{Item: attr.Item{}, Score: -0.25},
			},
			ConsumedCapacity: &dynamo.VectorCapacity{VectorSearchRequestBytes: &bytes},
		}, `{"ConsumedCapacity":{"VectorSearchRequestBytes":41714.0},"SearchResults":[{"Item":{"pk":{"S":"a"}},"Score":0.0},{"Item":{"pk":{"S":"b"}},"Score":9.0},{"Item":{},"Score":-0.25}]}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := string(EncodeSearchVectors(nil, c.out)); got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}
