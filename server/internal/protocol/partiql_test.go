package protocol

import (
	"reflect"
	"testing"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
)

// The PartiQL decoders join the generic decoder tests and the fuzzer.
func init() {
	decoders["ExecuteStatement"] = wrap(DecodeExecuteStatement)
	decoders["BatchExecuteStatement"] = wrap(DecodeBatchExecuteStatement)
	decoders["ExecuteTransaction"] = wrap(DecodeExecuteTransaction)
}

func TestDecodeExecuteStatement(t *testing.T) {
	in, err := DecodeExecuteStatement([]byte(`{"Statement":"SELECT * FROM t WHERE a = ?","Parameters":[{"S":"x"},{"N":"1"}],
		"ConsistentRead":true,"NextToken":"tok","Limit":5,"ReturnConsumedCapacity":"TOTAL","ReturnValuesOnConditionCheckFailure":"ALL_OLD","Other":1}`))
	if err != nil {
		t.Fatal(err)
	}
	want := &dynamo.ExecuteStatementInput{Statement: "SELECT * FROM t WHERE a = ?",
		Parameters:     []attr.Value{{Type: attr.TypeS, S: "x"}, {Type: attr.TypeN, S: "1"}},
		ConsistentRead: true, NextToken: "tok", NextTokenSet: true, Limit: ptr32(5),
		ReturnConsumedCapacity: "TOTAL", ReturnValuesOnConditionCheckFailure: "ALL_OLD"}
	if !reflect.DeepEqual(in, want) {
		t.Fatalf("got %+v\nwant %+v", in, want)
	}
	if in, err = DecodeExecuteStatement([]byte(`{"Statement":null}`)); err != nil || !in.NoStatement {
		t.Fatalf("null Statement: %+v %v", in, err)
	}
}

func ptr32(v int32) *int32 { return &v }

func TestDecodeBatchAndTransaction(t *testing.T) {
	b, err := DecodeBatchExecuteStatement([]byte(`{"Statements":[{"Statement":"s1","Parameters":[{"BOOL":true}],"ConsistentRead":true},{}],"ReturnConsumedCapacity":"NONE"}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Statements) != 2 || b.Statements[0].Statement != "s1" || b.Statements[0].NoStatement || !b.Statements[0].ConsistentRead ||
		len(b.Statements[0].Parameters) != 1 || !b.Statements[1].NoStatement || b.ReturnConsumedCapacity != "NONE" {
		t.Fatalf("batch: %+v", b)
	}
	x, err := DecodeExecuteTransaction([]byte(`{"TransactStatements":[{"Statement":"s","ReturnValuesOnConditionCheckFailure":"NONE"}],"ClientRequestToken":"t1"}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(x.TransactStatements) != 1 || x.TransactStatements[0].Statement != "s" || x.ClientRequestToken != "t1" || !x.ClientRequestTokenSet {
		t.Fatalf("transaction: %+v", x)
	}
}

func TestEncodePartiQL(t *testing.T) {
	got := string(EncodeExecuteStatement(nil, &dynamo.ExecuteStatementOutput{Items: []attr.Item{}}))
	if got != `{"Items":[]}` {
		t.Fatalf("empty: %s", got)
	}
	got = string(EncodeExecuteStatement(nil, &dynamo.ExecuteStatementOutput{Items: []attr.Item{{"a": attr.S("x")}},
		NextToken: "n", LastEvaluatedKey: attr.Item{"a": attr.S("x")}}))
	if got != `{"Items":[{"a":{"S":"x"}}],"LastEvaluatedKey":{"a":{"S":"x"}},"NextToken":"n"}` {
		t.Fatalf("page: %s", got)
	}
	got = string(EncodeBatchExecuteStatement(nil, &dynamo.BatchExecuteStatementOutput{Responses: []dynamo.BatchStatementResponse{
		{TableName: "t", Item: attr.Item{"a": attr.S("x")}},
		{Error: &dynamo.BatchStatementError{Code: "ConditionalCheckFailed", Message: "m", Item: attr.Item{"a": attr.S("y")}}},
	}}))
	if got != `{"Responses":[{"Item":{"a":{"S":"x"}},"TableName":"t"},{"Error":{"Code":"ConditionalCheckFailed","Item":{"a":{"S":"y"}},"Message":"m"}}]}` {
		t.Fatalf("batch: %s", got)
	}
	got = string(EncodeExecuteTransaction(nil, &dynamo.ExecuteTransactionOutput{Responses: []dynamo.ItemResponse{}}))
	if got != `{"Responses":[]}` {
		t.Fatalf("transaction: %s", got)
	}
}
