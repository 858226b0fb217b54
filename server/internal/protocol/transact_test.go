package protocol

import (
	"reflect"
	"testing"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
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
	want := &dynamo.TransactWriteItemsInput{
		ReturnConsumedCapacity: "TOTAL",
		ClientRequestTokenSet:  true,
		TransactItems: []dynamo.TransactWriteItem{
			{ConditionCheck: &dynamo.TransactConditionCheck{TableName: "t", Key: attr.Item{"k": s("a")},
				ReturnValuesOnConditionCheckFailure: "ALL_OLD", EmptyExpressions: dynamo.ExprCondition}},
			{Put: &dynamo.TransactPut{TableName: "t", Item: attr.Item{"k": s("b")}, ExpressionAttributeNames: map[string]string{"#a": "a"},
				ExpressionAttributeValues: attr.Item{":v": {Type: attr.TypeN, S: "1"}}}},
			{Update: &dynamo.TransactUpdate{TableName: "t", Key: attr.Item{"k": s("c")}, UpdateExpression: "SET a = :v", ConditionExpression: "x"}},
			{Delete: &dynamo.TransactDelete{TableName: "t", Key: attr.Item{"k": s("d")}}},
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
	want := &dynamo.TransactGetItemsInput{ReturnConsumedCapacity: "INDEXES", TransactItems: []dynamo.TransactGetItem{
		{Get: &dynamo.TransactGet{TableName: "t", Key: attr.Item{"k": {Type: attr.TypeS, S: "a"}},
			ProjectionExpression: "a, #b", ExpressionAttributeNames: map[string]string{"#b": "b"}}},
		{},
	}}
	if !reflect.DeepEqual(in, want) {
		t.Fatalf("got  %+v\nwant %+v", in, want)
	}
}

func TestEncodeTransactResponses(t *testing.T) {
	got := string(EncodeTransactGetItems(nil, &dynamo.TransactGetItemsOutput{Responses: []dynamo.ItemResponse{
		{Item: attr.Item{"k": {Type: attr.TypeS, S: "a"}}}, {},
	}}))
	if want := `{"Responses":[{"Item":{"k":{"S":"a"}}},{}]}`; got != want {
		t.Fatalf("TransactGetItems: %s, want %s", got, want)
	}
	got = string(EncodeTransactWriteItems(nil, &dynamo.TransactWriteItemsOutput{}))
	if got != `{}` {
		t.Fatalf("TransactWriteItems: %s", got)
	}
}
