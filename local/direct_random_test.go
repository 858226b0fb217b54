package local_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/local"
)

// TestDirectRandomValues writes items of random attribute values, valid
// and not (odd numbers, empty and duplicated sets, empty strings and
// blobs, NULL false, deep nesting), with PutItem, UpdateItem and a
// condition through the direct client on one database and the SDK's on
// another, and checks that every answer and every item read back agree.
func TestDirectRandomValues(t *testing.T) {
	ctx := context.Background()
	d, _ := directFixture(t)
	_, s := directFixture(t)
	r := rand.New(rand.NewPCG(7, 11))
	numbers := []string{"0", "-0", "1", "01", "1.50", "1e2", "1E-130", "1e126", "9.9999999999999999999999999999999999999E+125",
		"1e-131", "1e127", "NaN", "Infinity", " 1", "1 ", "", "+1", ".5", "5.", "1e", "0x10", "12345678901234567890123456789012345678",
		"123456789012345678901234567890123456789"}
	strs := []string{"", "a", "é", "\u0000", "\U0001F600", "x y"}
	var value func(depth int) types.AttributeValue
	value = func(depth int) types.AttributeValue {
		switch k := r.IntN(12); {
		case k == 0:
			return &types.AttributeValueMemberS{Value: strs[r.IntN(len(strs))]}
		case k == 1:
			return &types.AttributeValueMemberN{Value: numbers[r.IntN(len(numbers))]}
		case k == 2:
			return &types.AttributeValueMemberB{Value: make([]byte, r.IntN(3))}
		case k == 3:
			return &types.AttributeValueMemberBOOL{Value: r.IntN(2) == 0}
		case k == 4:
			return &types.AttributeValueMemberNULL{Value: r.IntN(4) != 0}
		case k == 5:
			n := r.IntN(3)
			ss := make([]string, n)
			for i := range ss {
				ss[i] = strs[r.IntN(3)]
			}
			return &types.AttributeValueMemberSS{Value: ss}
		case k == 6:
			n := r.IntN(3)
			ns := make([]string, n)
			for i := range ns {
				ns[i] = numbers[r.IntN(6)]
			}
			return &types.AttributeValueMemberNS{Value: ns}
		case k == 7:
			n := r.IntN(3)
			bs := make([][]byte, n)
			for i := range bs {
				bs[i] = make([]byte, r.IntN(2))
			}
			return &types.AttributeValueMemberBS{Value: bs}
		case k <= 9 && depth < 40:
			n := r.IntN(3)
			l := make([]types.AttributeValue, n)
			for i := range l {
				l[i] = value(depth + 1)
			}
			return &types.AttributeValueMemberL{Value: l}
		case depth < 40:
			n := r.IntN(3)
			m := map[string]types.AttributeValue{}
			for i := range n {
				m[fmt.Sprint("m", i)] = value(depth + 1)
			}
			return &types.AttributeValueMemberM{Value: m}
		}
		return &types.AttributeValueMemberS{Value: "leaf"}
	}
	failed := 0
	for i := range 300 {
		pk := fmt.Sprint("r", i%20)
		item := dkey(pk, "1")
		for j := range r.IntN(4) {
			item[fmt.Sprint("a", j)] = value(0)
		}
		vals := map[string]types.AttributeValue{":v": value(0)}
		calls := []func(c local.API) (any, error){
			func(c local.API) (any, error) {
				return c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Tab"), Item: item, ReturnValues: types.ReturnValueAllOld})
			},
			func(c local.API) (any, error) {
				return c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("Tab"), Key: dkey(pk, "1"),
					UpdateExpression: aws.String("SET u = :v"), ExpressionAttributeValues: vals, ReturnValues: types.ReturnValueAllNew})
			},
			func(c local.API) (any, error) {
				return c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("Tab"), Key: dkey(pk, "1"),
					ConditionExpression: aws.String("u = :v OR attribute_not_exists(u)"), ExpressionAttributeValues: vals,
					ReturnValues: types.ReturnValueAllOld, ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld})
			},
			func(c local.API) (any, error) {
				return c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("Tab"), KeyConditionExpression: aws.String("pk = :p"),
					FilterExpression:          aws.String("contains(a0, :v) OR a1 = :v"),
					ExpressionAttributeValues: map[string]types.AttributeValue{":p": &types.AttributeValueMemberS{Value: pk}, ":v": vals[":v"]}})
			},
		}
		call := calls[r.IntN(len(calls))]
		outD, errD := call(d)
		outS, errS := call(s)
		if errD != nil || errS != nil {
			sameError(t, fmt.Sprint("call ", i), errD, errS)
			failed++
			continue
		}
		clearMetadata(outD)
		clearMetadata(outS)
		if !reflect.DeepEqual(outD, outS) {
			t.Fatalf("call %d: direct %#v\nSDK %#v", i, outD, outS)
		}
	}
	// Both kinds of answer must be well represented for the comparison
	// to mean something.
	if failed < 30 || failed > 270 {
		t.Errorf("%d of 300 calls failed; the generator needs rebalancing", failed)
	}
	t.Logf("%d of 300 calls failed alike, the others answered alike", failed)
}
