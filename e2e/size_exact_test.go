package e2e

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TestSizeOfStringCountsUTF16 checks that size() of a string counts UTF-16
// code units, as DynamoDB does: "é𝄞" is 3 (é one unit, 𝄞 a surrogate
// pair), not its 6 UTF-8 bytes nor its 2 characters. Source: ExtendDB
// issue 60 and pull request 67 (2026), checked against DynamoDB with
// exactly this condition.
func TestSizeOfStringCountsUTF16(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "sizes", types.ScalarAttributeTypeS)
	put(t, c, "sizes", item{"pk": S("p"), "s": S("é𝄞"), "a": S("abc"), "k": S("日本")})
	for _, tc := range []struct {
		attr, n string
		holds   bool
	}{
		{"s", "3", true},
		{"s", "6", false},
		{"s", "2", false},
		{"a", "3", true},
		{"k", "2", true}, // three UTF-8 bytes each, one UTF-16 unit each
	} {
		_, err := c.UpdateItem(bg(), &dynamodb.UpdateItemInput{
			TableName:                 aws.String("sizes"),
			Key:                       item{"pk": S("p")},
			UpdateExpression:          aws.String("SET touched = :n"),
			ConditionExpression:       aws.String("size(#a) = :n"),
			ExpressionAttributeNames:  map[string]string{"#a": tc.attr},
			ExpressionAttributeValues: item{":n": &types.AttributeValueMemberN{Value: tc.n}},
		})
		if tc.holds && err != nil {
			t.Errorf("size(%s) = %s: %v", tc.attr, tc.n, err)
		}
		if !tc.holds {
			wantErr(t, err, "ConditionalCheckFailedException", "The conditional request failed")
		}
	}
}
