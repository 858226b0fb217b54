package e2e

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/local"
)

// Helpers shared by the expression tests (expressions_test.go,
// update_test.go, query_test.go).

// names builds ExpressionAttributeNames from pairs: names("#a", "a", ...).
func names(kv ...string) map[string]string {
	m := make(map[string]string, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

// msgCondFailed is DynamoDB's ConditionalCheckFailedException message.
const msgCondFailed = "The conditional request failed"

// wantCondFailed checks for a ConditionalCheckFailedException, through
// the SDK's typed error, and returns it.
func wantCondFailed(t *testing.T, err error) *types.ConditionalCheckFailedException {
	t.Helper()
	wantErr(t, err, "ConditionalCheckFailedException", msgCondFailed)
	var ccf *types.ConditionalCheckFailedException
	if !errorsAs(err, &ccf) {
		t.Fatalf("%v is not a *types.ConditionalCheckFailedException", err)
	}
	return ccf
}

// update runs an UpdateItem with an UpdateExpression and returns its
// output and error.
func update(c local.API, table string, key item, expr string, n map[string]string, v item, rv types.ReturnValue) (*dynamodb.UpdateItemOutput, error) {
	return c.UpdateItem(bg(), &dynamodb.UpdateItemInput{
		TableName: aws.String(table), Key: key, UpdateExpression: aws.String(expr),
		ExpressionAttributeNames: n, ExpressionAttributeValues: v, ReturnValues: rv,
	})
}

// mustUpdate runs update and fails the test on an error.
func mustUpdate(t *testing.T, c local.API, table string, key item, expr string, n map[string]string, v item, rv types.ReturnValue) item {
	t.Helper()
	out, err := update(c, table, key, expr, n, v, rv)
	if err != nil {
		t.Fatalf("UpdateItem %q: %v", expr, err)
	}
	return out.Attributes
}

// query runs a Query and fails the test on an error.
func query(t *testing.T, c local.API, in *dynamodb.QueryInput) *dynamodb.QueryOutput {
	t.Helper()
	out, err := c.Query(bg(), in)
	if err != nil {
		t.Fatalf("Query %q: %v", aws.ToString(in.KeyConditionExpression), err)
	}
	return out
}

// keysOf returns the values of attribute name in items, rendered, in order.
func keysOf(items []item, name string) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = render(it[name])
	}
	return out
}

// writeWording is msg as PutItem, UpdateItem and DeleteItem word a problem
// of their expression parameters: inside the "1 validation error
// detected: " envelope (paritysuite/dynamodb-conformance,
// captures/cross-region-latest.json, eu-west-2 and us-east-1, 2026-09-20:
// syntax errors, undefined and unused names and values, empty
// expressions, redundant parentheses, the expression/legacy mix; the
// reads answer the same texts bare). The problems found applying the
// update to the item keep their bare texts.
func writeWording(msg string) string {
	const env = "1 validation error detected: "
	for _, p := range []string{"Invalid UpdateExpression: ", "Invalid ConditionExpression: ", "Value provided in ExpressionAttribute",
		"ExpressionAttributeNames contains invalid ", "ExpressionAttributeValues contains invalid key", "Can not use both expression"} {
		if strings.HasPrefix(msg, p) {
			return env + msg
		}
	}
	return msg
}
