package e2e

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TestParamsLegacyWithExpressions pins which legacy parameters DynamoDB
// refuses beside which expression parameters. KeyConditions is the
// exception: it is refused only beside KeyConditionExpression, and goes
// with FilterExpression and ProjectionExpression (dynalite's
// validateExpressionParams, written against DynamoDB).
func TestParamsLegacyWithExpressions(t *testing.T) {
	s, c := start(t)
	createHash(t, c, "pmx", types.ScalarAttributeTypeS)
	put(t, c, "pmx", item{"pk": S("a"), "x": S("keep"), "y": S("y")})
	const (
		mix = "Can not use both expression and non-expression parameters in the same request: "
		env = "1 validation error detected: "
	)
	kc := `"KeyConditions":{"pk":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"a"}]}}`
	for _, tc := range []struct {
		name, op, body string
		status         int
		want           string // message, or the body on success
	}{
		// dynalite's validateExpressionParams: KeyConditions without
		// KeyConditionExpression is not a non-expression parameter.
		{"KeyConditions with FilterExpression", "Query", `{"TableName":"pmx",` + kc + `,"FilterExpression":"x = :v","ExpressionAttributeValues":{":v":{"S":"keep"}}}`,
			200, `{"Count":1,"Items":[{"pk":{"S":"a"},"x":{"S":"keep"},"y":{"S":"y"}}],"ScannedCount":1}`},
		{"KeyConditions with ProjectionExpression", "Query", `{"TableName":"pmx",` + kc + `,"ProjectionExpression":"#x","ExpressionAttributeNames":{"#x":"x"}}`,
			200, `{"Count":1,"Items":[{"x":{"S":"keep"}}],"ScannedCount":1}`},
		{"KeyConditions with a filter that drops the item", "Query", `{"TableName":"pmx",` + kc + `,"FilterExpression":"x = :v","ExpressionAttributeValues":{":v":{"S":"other"}}}`,
			200, `{"Count":0,"Items":[],"ScannedCount":1}`},
		// ... but beside KeyConditionExpression it is listed (DynamoDB
		// Local and every recorded emulator; dynalite's query test lists
		// it with all four legacy parameters).
		{"KeyConditions with KeyConditionExpression", "Query", `{"TableName":"pmx",` + kc + `,"KeyConditionExpression":"pk = :v","ExpressionAttributeValues":{":v":{"S":"a"}}}`,
			400, mix + "Non-expression parameters: {KeyConditions} Expression parameters: {KeyConditionExpression}"},
		{"KeyConditions with KeyConditionExpression and FilterExpression", "Query", `{"TableName":"pmx",` + kc + `,"KeyConditionExpression":"pk = :v","FilterExpression":"x = :v","ExpressionAttributeValues":{":v":{"S":"a"}}}`,
			400, mix + "Non-expression parameters: {KeyConditions} Expression parameters: {FilterExpression, KeyConditionExpression}"},
		{"Query all of them", "Query", `{"TableName":"pmx","AttributesToGet":["x"],"QueryFilter":{},"ConditionalOperator":"OR","KeyConditions":{},"ProjectionExpression":"","FilterExpression":"","KeyConditionExpression":""}`,
			400, mix + "Non-expression parameters: {AttributesToGet, QueryFilter, ConditionalOperator, KeyConditions} Expression parameters: {ProjectionExpression, FilterExpression, KeyConditionExpression}"},
		// Recorded against live DynamoDB (floci's DynamoDB notes, 2026).
		{"QueryFilter with KeyConditionExpression", "Query", `{"TableName":"pmx","QueryFilter":{"x":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"a"}]}},"KeyConditionExpression":"pk = :v","ExpressionAttributeValues":{":v":{"S":"a"}}}`,
			400, mix + "Non-expression parameters: {QueryFilter} Expression parameters: {KeyConditionExpression}"},
		// dynalite's KeyConditions special case: with KeyConditions and a
		// FilterExpression, QueryFilter alone is the non-expression side.
		{"KeyConditions, QueryFilter and FilterExpression", "Query", `{"TableName":"pmx",` + kc + `,"QueryFilter":{"x":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"a"}]}},"FilterExpression":"x = :v","ExpressionAttributeValues":{":v":{"S":"a"}}}`,
			400, mix + "Non-expression parameters: {QueryFilter} Expression parameters: {FilterExpression}"},
		// dynalite's scan and getItem tests.
		{"Scan", "Scan", `{"TableName":"pmx","AttributesToGet":["x"],"ScanFilter":{},"ConditionalOperator":"OR","ProjectionExpression":"","FilterExpression":""}`,
			400, mix + "Non-expression parameters: {AttributesToGet, ScanFilter, ConditionalOperator} Expression parameters: {ProjectionExpression, FilterExpression}"},
		{"GetItem", "GetItem", `{"TableName":"pmx","Key":{"pk":{"S":"a"}},"AttributesToGet":["x"],"ProjectionExpression":"x"}`,
			400, mix + "Non-expression parameters: {AttributesToGet} Expression parameters: {ProjectionExpression}"},
		{"BatchGetItem table", "BatchGetItem", `{"RequestItems":{"pmx":{"Keys":[{"pk":{"S":"a"}}],"AttributesToGet":["x"],"ProjectionExpression":"x"}}}`,
			400, mix + "Non-expression parameters: {AttributesToGet} Expression parameters: {ProjectionExpression}"},
		// dynalite's updateItem test (against DynamoDB): the mix is
		// reported before the empty value in Key and before the empty
		// ExpressionAttributeNames and ExpressionAttributeValues. The
		// single-item writes report it inside the envelope
		// (paritysuite/dynamodb-conformance,
		// captures/cross-region-latest.json, b_put_mix_expr and
		// u_upd_mix, eu-west-2 and us-east-1, 2026-09-20; newer than
		// dynalite's bare text).
		{"UpdateItem mix before an empty key value", "UpdateItem", `{"TableName":"pmx","Key":{"a":{}},"Expected":{"a":{}},"AttributeUpdates":{},"ExpressionAttributeNames":{},"ExpressionAttributeValues":{},"ConditionExpression":"","UpdateExpression":""}`,
			400, env + mix + "Non-expression parameters: {AttributeUpdates, Expected} Expression parameters: {UpdateExpression, ConditionExpression}"},
		// No recording found for PutItem and DeleteItem with an empty
		// value; chose the same order as UpdateItem's.
		{"PutItem mix before an empty item value", "PutItem", `{"TableName":"pmx","Item":{"pk":{"S":"a"},"x":{}},"Expected":{"x":{"Exists":false}},"ConditionExpression":"attribute_exists(x)"}`,
			400, env + mix + "Non-expression parameters: {Expected} Expression parameters: {ConditionExpression}"},
		{"DeleteItem mix before an empty key value", "DeleteItem", `{"TableName":"pmx","Key":{"pk":{}},"Expected":{"x":{"Exists":false}},"ConditionExpression":"attribute_exists(x)"}`,
			400, env + mix + "Non-expression parameters: {Expected} Expression parameters: {ConditionExpression}"},
		{"GetItem mix before an empty key value", "GetItem", `{"TableName":"pmx","Key":{"pk":{}},"AttributesToGet":["x"],"ProjectionExpression":"x"}`,
			400, mix + "Non-expression parameters: {AttributesToGet} Expression parameters: {ProjectionExpression}"},
		{"Scan mix before an empty ExclusiveStartKey value", "Scan", `{"TableName":"pmx","ExclusiveStartKey":{"pk":{}},"ScanFilter":{},"FilterExpression":"x = x"}`,
			400, mix + "Non-expression parameters: {ScanFilter} Expression parameters: {FilterExpression}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := s.Raw(t, tc.op, tc.body)
			if tc.status == 200 {
				if res.Status != 200 {
					t.Fatalf("status %d: %s", res.Status, res.Body)
				}
				jsonEqual(t, res.Body, tc.want)
				return
			}
			checkRaw(t, res, tc.status, nsValidation+"ValidationException", tc.want)
		})
	}
}

// TestParamsNamesAndValuesWithoutExpressions pins the answers to
// ExpressionAttributeNames or ExpressionAttributeValues that no expression
// of the request can use, and to names or values it does not use, for
// every operation that takes them.
func TestParamsNamesAndValuesWithoutExpressions(t *testing.T) {
	s, c := start(t)
	createHash(t, c, "pnv", types.ScalarAttributeTypeS)
	const (
		noNames = "ExpressionAttributeNames can only be specified when using expressions"
		noVals  = "ExpressionAttributeValues can only be specified when using expressions: "
		env     = "1 validation error detected: "
	)
	key := `"Key":{"pk":{"S":"a"}}`
	for _, tc := range []struct{ name, op, body, msg string }{
		// dynalite's tests of each operation (against DynamoDB).
		{"GetItem names", "GetItem", `{"TableName":"pnv",` + key + `,"ExpressionAttributeNames":{"#a":"x"}}`, noNames},
		// The single-item writes: enveloped, and no suffix after the
		// values' text (paritysuite/dynamodb-conformance,
		// tests/tier3/error-messages/putItem.test.ts and
		// deleteItem.test.ts, "request validation envelope", eu-west-2
		// and us-east-1, 2026-10-09, newer than dynalite's).
		{"PutItem names", "PutItem", `{"TableName":"pnv","Item":{"pk":{"S":"a"}},"ExpressionAttributeNames":{"#a":"x"}}`, env + noNames},
		{"PutItem values", "PutItem", `{"TableName":"pnv","Item":{"pk":{"S":"a"}},"ExpressionAttributeValues":{":a":{"S":"x"}}}`, env + "ExpressionAttributeValues can only be specified when using expressions"},
		{"DeleteItem values", "DeleteItem", `{"TableName":"pnv",` + key + `,"ExpressionAttributeValues":{":a":{"S":"x"}}}`, env + "ExpressionAttributeValues can only be specified when using expressions"},
		{"UpdateItem values", "UpdateItem", `{"TableName":"pnv",` + key + `,"ExpressionAttributeValues":{":a":{"S":"x"}}}`, env + "ExpressionAttributeValues can only be specified when using expressions"},
		{"Query values with KeyConditions", "Query", `{"TableName":"pnv","KeyConditions":{"pk":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"a"}]}},"ExpressionAttributeValues":{":a":{"S":"x"}}}`, noVals + "FilterExpression and KeyConditionExpression are null"},
		{"Query names with KeyConditions", "Query", `{"TableName":"pnv","KeyConditions":{"pk":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"a"}]}},"ExpressionAttributeNames":{"#a":"x"}}`, noNames},
		{"Scan values with only a projection", "Scan", `{"TableName":"pnv","ProjectionExpression":"x","ExpressionAttributeValues":{":a":{"S":"x"}}}`, noVals + "FilterExpression is null"},
		{"BatchGetItem names", "BatchGetItem", `{"RequestItems":{"pnv":{"Keys":[{"pk":{"S":"a"}}],"ExpressionAttributeNames":{"#a":"x"}}}}`, noNames},
		{"TransactGetItems names", "TransactGetItems", `{"TransactItems":[{"Get":{"TableName":"pnv",` + key + `,"ExpressionAttributeNames":{"#a":"x"}}}]}`, noNames},
		{"TransactWriteItems Put values", "TransactWriteItems", `{"TransactItems":[{"Put":{"TableName":"pnv","Item":{"pk":{"S":"a"}},"ExpressionAttributeValues":{":a":{"S":"x"}}}}]}`, noVals + "ConditionExpression is null"},
		// Unused names and values: recorded against live DynamoDB
		// (floci's DynamoDB notes: "Value provided in
		// ExpressionAttributeNames unused in expressions: keys: {#st}");
		// the values' text is dynalite's, against DynamoDB.
		{"Scan unused name", "Scan", `{"TableName":"pnv","FilterExpression":"x = :a","ExpressionAttributeValues":{":a":{"S":"x"}},"ExpressionAttributeNames":{"#st":"x"}}`, "Value provided in ExpressionAttributeNames unused in expressions: keys: {#st}"},
		{"Scan unused value", "Scan", `{"TableName":"pnv","FilterExpression":"x = :a","ExpressionAttributeValues":{":a":{"S":"x"},":b":{"S":"y"}}}`, "Value provided in ExpressionAttributeValues unused in expressions: keys: {:b}"},
		{"Query with KeyConditions unused value", "Query", `{"TableName":"pnv","KeyConditions":{"pk":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"a"}]}},"FilterExpression":"x = :a","ExpressionAttributeValues":{":a":{"S":"x"},":b":{"S":"y"}}}`, "Value provided in ExpressionAttributeValues unused in expressions: keys: {:b}"},
		{"BatchGetItem unused name", "BatchGetItem", `{"RequestItems":{"pnv":{"Keys":[{"pk":{"S":"a"}}],"ExpressionAttributeNames":{"#a":"x","#b":"y"},"ProjectionExpression":"#a"}}}`, "Value provided in ExpressionAttributeNames unused in expressions: keys: {#b}"},
		{"TransactGetItems unused name", "TransactGetItems", `{"TransactItems":[{"Get":{"TableName":"pnv",` + key + `,"ExpressionAttributeNames":{"#a":"x","#b":"y"},"ProjectionExpression":"#a"}}]}`, "Value provided in ExpressionAttributeNames unused in expressions: keys: {#b}"},
		{"TransactWriteItems Update unused value", "TransactWriteItems", `{"TransactItems":[{"Update":{"TableName":"pnv",` + key + `,"UpdateExpression":"SET x = :a","ExpressionAttributeValues":{":a":{"S":"x"},":b":{"S":"x"}}}}]}`, "Value provided in ExpressionAttributeValues unused in expressions: keys: {:b}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkRaw(t, s.Raw(t, tc.op, tc.body), 400, nsValidation+"ValidationException", tc.msg)
		})
	}
}
