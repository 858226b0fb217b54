package protocol

import (
	"reflect"
	"testing"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/engine"
)

// The transaction decoders join the generic decoder tests and the fuzzer.
func init() {
	decoders["TransactWriteItems"] = wrap(DecodeTransactWriteItems)
	decoders["TransactGetItems"] = wrap(DecodeTransactGetItems)
}

func TestDecodeTransactWriteItems(t *testing.T) {
	in, err := DecodeTransactWriteItems([]byte(`{"ClientRequestToken":"","ReturnConsumedCapacity":"TOTAL","TransactItems":[
		{"ConditionCheck":{"TableName":"t","Key":{"k":{"S":"a"}},"ConditionExpression":"","ReturnValuesOnConditionCheckFailure":"ALL_OLD"}},
		{"Put":{"TableName":"t","Item":{"k":{"S":"b"}},"ExpressionAttributeNames":{"#a":"a"},"ExpressionAttributeValues":{":v":{"N":"1"}}}},
		{"Update":{"TableName":"t","Key":{"k":{"S":"c"}},"UpdateExpression":"SET a = :v","ConditionExpression":"x"}},
		{"Delete":{"TableName":"t","Key":{"k":{"S":"d"}}},"Unknown":1},
		{"Put":null}]}`))
	if err != nil {
		t.Fatal(err)
	}
	s := func(v string) attr.Value { return attr.Value{Type: attr.TypeS, S: v} }
	want := &engine.TransactWriteItemsInput{
		ReturnConsumedCapacity: "TOTAL",
		ClientRequestTokenSet:  true,
		TransactItems: []engine.TransactWriteItem{
			{ConditionCheck: &engine.TransactConditionCheck{TableName: "t", Key: attr.Item{"k": s("a")},
				ReturnValuesOnConditionCheckFailure: "ALL_OLD", EmptyExpressions: engine.ExprCondition}},
			{Put: &engine.TransactPut{TableName: "t", Item: attr.Item{"k": s("b")}, ExpressionAttributeNames: map[string]string{"#a": "a"},
				ExpressionAttributeValues: attr.Item{":v": {Type: attr.TypeN, S: "1"}}}},
			{Update: &engine.TransactUpdate{TableName: "t", Key: attr.Item{"k": s("c")}, UpdateExpression: "SET a = :v", ConditionExpression: "x"}},
			{Delete: &engine.TransactDelete{TableName: "t", Key: attr.Item{"k": s("d")}}},
			{},
		},
	}
	if !reflect.DeepEqual(in, want) {
		t.Fatalf("got  %+v\nwant %+v", in, want)
	}
}

func TestDecodeTransactGetItems(t *testing.T) {
	in, err := DecodeTransactGetItems([]byte(`{"TransactItems":[{"Get":{"TableName":"t","Key":{"k":{"S":"a"}},
		"ProjectionExpression":"a, #b","ExpressionAttributeNames":{"#b":"b"}}},{}],"ReturnConsumedCapacity":"INDEXES"}`))
	if err != nil {
		t.Fatal(err)
	}
	want := &engine.TransactGetItemsInput{ReturnConsumedCapacity: "INDEXES", TransactItems: []engine.TransactGetItem{
		{Get: &engine.TransactGet{TableName: "t", Key: attr.Item{"k": {Type: attr.TypeS, S: "a"}},
			ProjectionExpression: "a, #b", ExpressionAttributeNames: map[string]string{"#b": "b"}}},
		{},
	}}
	if !reflect.DeepEqual(in, want) {
		t.Fatalf("got  %+v\nwant %+v", in, want)
	}
}

func TestEncodeTransactResponses(t *testing.T) {
	got := string(EncodeTransactGetItems(nil, &engine.TransactGetItemsOutput{Responses: []engine.ItemResponse{
		{Item: attr.Item{"k": {Type: attr.TypeS, S: "a"}}}, {},
	}}))
	if want := `{"Responses":[{"Item":{"k":{"S":"a"}}},{}]}`; got != want {
		t.Fatalf("TransactGetItems: %s, want %s", got, want)
	}
	got = string(EncodeTransactWriteItems(nil, &engine.TransactWriteItemsOutput{}))
	if got != `{}` {
		t.Fatalf("TransactWriteItems: %s", got)
	}
}
