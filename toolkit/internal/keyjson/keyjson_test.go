package keyjson

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func TestRoundTrip(t *testing.T) {
	k := map[string]types.AttributeValue{
		"s": &types.AttributeValueMemberS{Value: "a\x00é"},
		"n": &types.AttributeValueMemberN{Value: "-1.5E+3"},
		"b": &types.AttributeValueMemberB{Value: []byte{0, 0xFF}},
		"e": &types.AttributeValueMemberS{Value: ""},
	}
	j, err := From(k)
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(j)
	if err != nil {
		t.Fatal(err)
	}
	var back Key
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if got := back.To(); !reflect.DeepEqual(got, k) {
		t.Fatalf("round trip: %#v", got)
	}
	if _, err := From(map[string]types.AttributeValue{"x": &types.AttributeValueMemberBOOL{Value: true}}); err == nil {
		t.Fatal("a BOOL key was accepted")
	}
	if k, _ := From(nil); k != nil || Key(nil).To() != nil {
		t.Fatal("nil did not stay nil")
	}
}
