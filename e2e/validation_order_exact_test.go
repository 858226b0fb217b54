package e2e

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// nestedValue is a string nested in depth single-key maps, as JSON.
func nestedValue(depth int) string {
	return strings.Repeat(`{"M":{"n":`, depth) + `{"S":"leaf"}` + strings.Repeat(`}}`, depth)
}

// TestValidationOrderExact sends requests with two or more problems in
// different layers (member constraints; parameter combinations; attribute
// values; the table's existence; checks against the table) and checks
// that the one DynamoDB reports is the one dynago reports, with members
// in DynamoDB's order inside one "N validation errors detected" message.
func TestValidationOrderExact(t *testing.T) {
	s, c := start(t)
	createHash(t, c, "vot", types.ScalarAttributeTypeS)
	createRange(t, c, "vocomp", types.ScalarAttributeTypeS)
	const (
		val = nsValidation + "ValidationException"
		rnf = "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException"
		one = "1 validation error detected: "

		enumRCC     = "Value 'BOGUS' at 'returnConsumedCapacity' failed to satisfy constraint: Member must satisfy enum value set: [INDEXES, TOTAL, NONE]"
		enumRICM    = "Value 'BOGUS2' at 'returnItemCollectionMetrics' failed to satisfy constraint: Member must satisfy enum value set: [SIZE, NONE]"
		enumRV      = "Value 'BOGUS' at 'returnValues' failed to satisfy constraint: Member must satisfy enum value set: [ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW]"
		enumXOR     = "Value 'XOR' at 'conditionalOperator' failed to satisfy constraint: Member must satisfy enum value set: [OR, AND]"
		noKey       = "Value null at 'key' failed to satisfy constraint: Member must not be null"
		emptyName   = "Value '' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 1"
		attrEmpty   = "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes"
		startKeyBad = "The provided starting key is invalid: "
		noTotal     = "The TotalSegments parameter is required but was not present in the request when Segment parameter is present"
	)
	for _, tc := range []struct {
		name, op, body string
		typ, msg       string
	}{
		// Layer 1 alone, in DynamoDB's member order.

		// UpdateItem: ReturnConsumedCapacity, tableName, ReturnValues,
		// key; and ConditionalOperator ahead of key, in the older
		// per-value enum form. paritysuite/dynamodb-conformance,
		// tests/tier3/validation-ordering/updateItem.test.ts (eu-west-2
		// and us-east-1, 2026-10-09).
		{"update item, member order", "UpdateItem",
			`{"TableName":"","UpdateExpression":"SET a = :a","ExpressionAttributeValues":{":a":{"S":"x"}},"ReturnConsumedCapacity":"INVALID","ReturnValues":"INVALID"}`, val,
			"4 validation errors detected: " +
				"Value 'INVALID' at 'returnConsumedCapacity' failed to satisfy constraint: Member must satisfy enum value set: [INDEXES, TOTAL, NONE]; " +
				emptyName + "; " +
				"Value 'INVALID' at 'returnValues' failed to satisfy constraint: Member must satisfy enum value set: [ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW]; " +
				noKey},
		{"update item, XOR before missing key", "UpdateItem",
			`{"TableName":"vo_missing","AttributeUpdates":{"x":{"Action":"PUT","Value":{"S":"1"}}},"Expected":{"a":{"Exists":false},"b":{"Exists":false}},"ConditionalOperator":"XOR"}`, val,
			"2 validation errors detected: " + enumXOR + "; " + noKey},
		// GetItem: ReturnConsumedCapacity, attributesToGet, tableName,
		// key. dynalite's test/getItem.js against DynamoDB ("should
		// return ValidationException for incorrect attributes").
		{"get item, member order", "GetItem", `{"TableName":"abc;","ReturnConsumedCapacity":"hi","AttributesToGet":[]}`, val,
			"4 validation errors detected: " +
				"Value 'hi' at 'returnConsumedCapacity' failed to satisfy constraint: Member must satisfy enum value set: [INDEXES, TOTAL, NONE]; " +
				"Value '[]' at 'attributesToGet' failed to satisfy constraint: Member must have length greater than or equal to 1; " +
				"Value 'abc;' at 'tableName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+; " +
				noKey},
		// BatchWriteItem: ReturnConsumedCapacity, then
		// ReturnItemCollectionMetrics; a table name failing its pattern
		// gives way to them and is not reported. paritysuite's
		// tests/tier3/validation-ordering/batchOperations.test.ts
		// (us-east-1 and eu-west-2, 2026-10-09); dynalite's
		// test/batchWriteItem.js ("incorrect attributes", whose 'aa;'
		// table is likewise not reported), which also puts a request's
		// deleteRequest.key before its putRequest.item.
		{"batch write, both enums", "BatchWriteItem",
			`{"RequestItems":{"vot":[{"PutRequest":{"Item":{"pk":{"S":"vo-bw-both"}}}}]},"ReturnConsumedCapacity":"BOGUS","ReturnItemCollectionMetrics":"BOGUS2"}`, val,
			"2 validation errors detected: " + enumRCC + "; " + enumRICM},
		{"batch write, enum over a bad table name", "BatchWriteItem",
			`{"RequestItems":{"bad!name":[{"PutRequest":{"Item":{"pk":{"S":"a"}}}}]},"ReturnConsumedCapacity":"BOGUS"}`, val, one + enumRCC},
		{"batch write, enums and requests", "BatchWriteItem",
			`{"RequestItems":{"aa;":[{"PutRequest":{},"DeleteRequest":{}}]},"ReturnConsumedCapacity":"hi","ReturnItemCollectionMetrics":"hi"}`, val,
			"4 validation errors detected: " +
				"Value 'hi' at 'returnConsumedCapacity' failed to satisfy constraint: Member must satisfy enum value set: [INDEXES, TOTAL, NONE]; " +
				"Value 'hi' at 'returnItemCollectionMetrics' failed to satisfy constraint: Member must satisfy enum value set: [SIZE, NONE]; " +
				"Value null at 'requestItems.aa;.member.1.member.deleteRequest.key' failed to satisfy constraint: Member must not be null; " +
				"Value null at 'requestItems.aa;.member.1.member.putRequest.item' failed to satisfy constraint: Member must not be null"},

		// Layer 1 before layer 4 and before the duplicate-target rule:
		// paritysuite's batchOperations.test.ts and
		// tests/tier3/validation-ordering/transactions.test.ts (us-east-1
		// and eu-west-2, 2026-10-09).
		{"batch write, enum before missing table", "BatchWriteItem",
			`{"RequestItems":{"vo_missing":[{"PutRequest":{"Item":{"pk":{"S":"a"}}}}]},"ReturnConsumedCapacity":"BOGUS"}`, val, one + enumRCC},
		{"batch get, enum before missing table", "BatchGetItem",
			`{"RequestItems":{"vo_missing":{"Keys":[{"pk":{"S":"a"}}]}},"ReturnConsumedCapacity":"BOGUS"}`, val, one + enumRCC},
		{"transact write, enum before missing table", "TransactWriteItems",
			`{"TransactItems":[{"Put":{"TableName":"vo_missing","Item":{"pk":{"S":"a"}}}}],"ReturnConsumedCapacity":"BOGUS"}`, val, one + enumRCC},
		{"transact write, enum before duplicate target", "TransactWriteItems",
			`{"TransactItems":[{"Put":{"TableName":"vot","Item":{"pk":{"S":"vo-tx-dup"}}}},{"Delete":{"TableName":"vot","Key":{"pk":{"S":"vo-tx-dup"}}}}],"ReturnConsumedCapacity":"BOGUS"}`, val, one + enumRCC},
		{"transact write, both enums", "TransactWriteItems",
			`{"TransactItems":[{"Put":{"TableName":"vot","Item":{"pk":{"S":"vo-tx-both"}}}}],"ReturnConsumedCapacity":"BOGUS","ReturnItemCollectionMetrics":"BOGUS2"}`, val,
			"2 validation errors detected: " + enumRCC + "; " + enumRICM},
		{"transact get, enum before missing table", "TransactGetItems",
			`{"TransactItems":[{"Get":{"TableName":"vo_missing","Key":{"pk":{"S":"a"}}}}],"ReturnConsumedCapacity":"BOGUS"}`, val, one + enumRCC},
		{"transact get, enum before duplicate target", "TransactGetItems",
			`{"TransactItems":[{"Get":{"TableName":"vot","Key":{"pk":{"S":"a"}}}},{"Get":{"TableName":"vot","Key":{"pk":{"S":"a"}}}}],"ReturnConsumedCapacity":"BOGUS"}`, val, one + enumRCC},

		// Layer 1 before layer 3: a member constraint beats a value
		// nested past every limit. paritysuite's
		// tests/tier3/validation-ordering/deepRequests.test.ts (eu-west-2
		// and us-east-1, 2026-10-09; every table absent).
		{"put item, XOR before a value nested 100 levels", "PutItem",
			`{"TableName":"vo_missing","Item":{"pk":{"S":"a"}},"Expected":{"a":{"Value":` + nestedValue(100) + `},"b":{"Exists":false}},"ConditionalOperator":"XOR"}`, val, one + enumXOR},
		{"update item, XOR before a value nested 100 levels", "UpdateItem",
			`{"TableName":"vo_missing","Key":{"pk":{"S":"a"}},"AttributeUpdates":{"x":{"Action":"PUT","Value":{"S":"1"}}},"Expected":{"a":{"Value":` + nestedValue(100) + `},"b":{"Exists":false}},"ConditionalOperator":"XOR"}`, val, one + enumXOR},
		{"delete item, ReturnValues before a key nested 100 levels", "DeleteItem",
			`{"TableName":"vo_missing","Key":{"pk":` + nestedValue(100) + `},"ReturnValues":"BOGUS"}`, val, one + enumRV},
		{"delete item, ReturnValues before a condition value nested 63 levels", "DeleteItem",
			`{"TableName":"vo_missing","Key":{"pk":{"S":"a"}},"ConditionExpression":"#d = :deep","ExpressionAttributeNames":{"#d":"d"},"ExpressionAttributeValues":{":deep":` + nestedValue(63) + `},"ReturnValues":"BOGUS"}`, val, one + enumRV},
		{"delete item, ReturnValues before an Expected value nested 63 levels", "DeleteItem",
			`{"TableName":"vo_missing","Key":{"pk":{"S":"a"}},"Expected":{"d":{"Value":` + nestedValue(63) + `}},"ReturnValues":"BOGUS"}`, val, one + enumRV},
		// The same rule for the values the decoder finds empty (no
		// recording of these pairs; they follow the recorded ones
		// above).
		{"get item, enum before an empty key value", "GetItem",
			`{"TableName":"vot","Key":{"pk":{}},"ReturnConsumedCapacity":"BOGUS"}`, val, one + enumRCC},
		// (Query's Limit in its newer words: paritysuite's
		// tests/tier3/error-messages/query.test.ts, "Limit of 0",
		// 2026-04-25.)
		{"query, Limit before an empty expression value", "Query",
			`{"TableName":"vot","KeyConditionExpression":"pk = :v","ExpressionAttributeValues":{":v":{}},"Limit":0}`, val,
			one + "Value at 'Limit' failed to satisfy constraint: Member must have value greater than or equal to 1"},
		// (Select's values in DynamoDB's order: dynalite's scan test
		// against DynamoDB, "incorrect attributes".)
		{"scan, Select before an empty start key value", "Scan",
			`{"TableName":"vot","ExclusiveStartKey":{"pk":{}},"Select":"BOGUS"}`, val,
			one + "Value 'BOGUS' at 'select' failed to satisfy constraint: Member must satisfy enum value set: [SPECIFIC_ATTRIBUTES, COUNT, ALL_ATTRIBUTES, ALL_PROJECTED_ATTRIBUTES]"},

		// Scan: a name listed twice in AttributesToGet, then ScanFilter's
		// and ExclusiveStartKey's values, each before Segment without
		// TotalSegments, which comes before the expressions. dynalite's
		// test/scan.js against DynamoDB ("duplicate values in
		// AttributesToGet", "bad attribute values in ScanFilter",
		// "unsupported datatype in ExclusiveStartKey", "multiple
		// datatypes in ExclusiveStartKey", "missing TotalSegments").
		{"scan, duplicate name before values and Segment", "Scan",
			`{"TableName":"abc","Segment":1,"ScanFilter":{"a":{"ComparisonOperator":"EQ","AttributeValueList":[{},{"a":""},{"S":""}]}},"ExclusiveStartKey":{"a":{}},"AttributesToGet":["a","a"]}`, val,
			"One or more parameter values were invalid: Duplicate value in attribute name: a"},
		{"scan, ScanFilter value before start key and Segment", "Scan",
			`{"TableName":"abc","Segment":1,"ScanFilter":{"a":{"ComparisonOperator":"EQ","AttributeValueList":[{},{"S":""}]}},"ExclusiveStartKey":{"a":{}}}`, val, attrEmpty},
		{"scan, empty start key value before Segment", "Scan",
			`{"TableName":"abc","Segment":1,"FilterExpression":"","ExpressionAttributeNames":{},"ExpressionAttributeValues":{},"ExclusiveStartKey":{"a":{}}}`, val, startKeyBad + attrEmpty},
		{"scan, many-typed start key value before Segment", "Scan",
			`{"TableName":"abc","TotalSegments":1,"FilterExpression":"","ExpressionAttributeNames":{},"ExpressionAttributeValues":{},"ExclusiveStartKey":{"a":{"S":"a","N":"1"}}}`, val,
			startKeyBad + "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes"},
		{"scan, Segment before the expressions", "Scan",
			`{"TableName":"abc","Segment":1,"FilterExpression":"","ExpressionAttributeNames":{},"ExpressionAttributeValues":{}}`, val, noTotal},

		// Query: an empty ExclusiveStartKey value is reported with the
		// start-key prefix, ahead of an empty KeyConditionExpression and
		// ahead of KeyConditions' argument count. dynalite's
		// test/query.js against DynamoDB ("unsupported datatype in
		// ExclusiveStartKey").
		{"query, start key before an empty key condition", "Query",
			`{"TableName":"abc","KeyConditionExpression":"","ExpressionAttributeNames":{},"ExpressionAttributeValues":{},"ExclusiveStartKey":{"a":{}}}`, val, startKeyBad + attrEmpty},
		{"query, start key before the KeyConditions argument count", "Query",
			`{"TableName":"abc","KeyConditions":{"a":{"ComparisonOperator":"EQ"}},"ExclusiveStartKey":{"a":{}}}`, val, startKeyBad + attrEmpty},
		// The mix of legacy and expression parameters before every value
		// (dynalite's test/query.js, "all expressions and
		// non-expression").
		{"query, mix before values", "Query",
			`{"TableName":"abc","ExclusiveStartKey":{"a":{}},"Select":"SPECIFIC_ATTRIBUTES","AttributesToGet":["a","a"],"QueryFilter":{"a":{"ComparisonOperator":"EQ","AttributeValueList":[{}]}},"ConditionalOperator":"OR","KeyConditions":{"a":{"ComparisonOperator":"EQ","AttributeValueList":[{}]}},"ProjectionExpression":"","FilterExpression":"","KeyConditionExpression":"","ExpressionAttributeNames":{},"ExpressionAttributeValues":{}}`, val,
			"Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {AttributesToGet, QueryFilter, ConditionalOperator, KeyConditions} Expression parameters: {ProjectionExpression, FilterExpression, KeyConditionExpression}"},

		// Query's key condition: its clauses in the order written, and
		// an operand type before the table is looked up (layer 3 before
		// 4). paritysuite's
		// tests/tier3/validation-ordering/queryKeyCondition.test.ts
		// (eu-west-2, October 2026), which checks the texts with
		// toContain.
		{"query, undefined value written first", "Query",
			`{"TableName":"vocomp","KeyConditionExpression":"pk = :missing AND begins_with(sk, :n)","ExpressionAttributeValues":{":n":{"N":"1"}}}`, val,
			"Invalid KeyConditionExpression: An expression attribute value used in expression is not defined; attribute value: :missing"},
		{"query, bad operand written first", "Query",
			`{"TableName":"vocomp","KeyConditionExpression":"begins_with(sk, :n) AND pk = :missing","ExpressionAttributeValues":{":n":{"N":"1"}}}`, val,
			"Invalid KeyConditionExpression: Incorrect operand type for operator or function; operator or function: begins_with, operand type: N"},
		{"query, bad operand before a third condition", "Query",
			`{"TableName":"vocomp","KeyConditionExpression":"pk = :p AND begins_with(sk, :n) AND sk > :s","ExpressionAttributeValues":{":p":{"S":"q"},":n":{"N":"1"},":s":{"S":"a"}}}`, val,
			"Invalid KeyConditionExpression: Incorrect operand type for operator or function; operator or function: begins_with, operand type: N"},
		{"query, bad operand before missing table", "Query",
			`{"TableName":"vo_missing","KeyConditionExpression":"pk = :p AND begins_with(sk, :n)","ExpressionAttributeValues":{":p":{"S":"q"},":n":{"N":"1"}}}`, val,
			"Invalid KeyConditionExpression: Incorrect operand type for operator or function; operator or function: begins_with, operand type: N"},
		{"query, well-formed condition on missing table", "Query",
			`{"TableName":"vo_missing","KeyConditionExpression":"pk = :p AND begins_with(sk, :s)","ExpressionAttributeValues":{":p":{"S":"q"},":s":{"S":"a"}}}`, rnf,
			"Requested resource not found"},

		// TransactWriteItems: a malformed condition and an unused value
		// on any action come before a missing table on any action, and
		// before a duplicate target. paritysuite's transactions.test.ts
		// (us-east-1 and eu-west-2, 2026-10-09).
		{"transact write, syntax error before earlier missing table", "TransactWriteItems",
			`{"TransactItems":[{"Put":{"TableName":"vo_missing","Item":{"pk":{"S":"a"}}}},{"ConditionCheck":{"TableName":"vot","Key":{"pk":{"S":"c"}},"ConditionExpression":"attribute_not_exists("}}]}`, val,
			`Invalid ConditionExpression: Syntax error; token: "<EOF>", near: "("`},
		{"transact write, unused value before earlier missing table", "TransactWriteItems",
			`{"TransactItems":[{"Put":{"TableName":"vo_missing","Item":{"pk":{"S":"a"}}}},{"ConditionCheck":{"TableName":"vot","Key":{"pk":{"S":"c"}},"ConditionExpression":"attribute_not_exists(pk)","ExpressionAttributeValues":{":v":{"S":"x"}}}}]}`, val,
			"Value provided in ExpressionAttributeValues unused in expressions: keys: {:v}"},
		{"transact write, unused value before later missing table", "TransactWriteItems",
			`{"TransactItems":[{"ConditionCheck":{"TableName":"vot","Key":{"pk":{"S":"c"}},"ConditionExpression":"attribute_not_exists(pk)","ExpressionAttributeValues":{":v":{"S":"x"}}}},{"Put":{"TableName":"vo_missing","Item":{"pk":{"S":"a"}}}}]}`, val,
			"Value provided in ExpressionAttributeValues unused in expressions: keys: {:v}"},
		{"transact write, unused value before duplicate target", "TransactWriteItems",
			`{"TransactItems":[{"Put":{"TableName":"vot","Item":{"pk":{"S":"c"}}}},{"ConditionCheck":{"TableName":"vot","Key":{"pk":{"S":"c"}},"ConditionExpression":"attribute_not_exists(pk)","ExpressionAttributeValues":{":v":{"S":"x"}}}}]}`, val,
			"Value provided in ExpressionAttributeValues unused in expressions: keys: {:v}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkRaw(t, s.Raw(t, tc.op, tc.body), 400, tc.typ, tc.msg)
		})
	}

	// BatchGetItem: a table name failing its pattern is a constraint on
	// RequestItems' keys and is reported with the enum, first.
	// paritysuite's batchOperations.test.ts (us-east-1 and eu-west-2,
	// 2026-10-09). The rendering of the map inside the quotes is another
	// matter; this checks the order.
	t.Run("batch get, bad table name before enum", func(t *testing.T) {
		res := s.Raw(t, "BatchGetItem", `{"RequestItems":{"bad!name":{"Keys":[{"pk":{"S":"a"}}]}},"ReturnConsumedCapacity":"BOGUS"}`)
		var body struct {
			Type    string `json:"__type"`
			Message string `json:"message"`
		}
		if err := json.Unmarshal(res.Body, &body); err != nil || res.Status != 400 || body.Type != val {
			t.Fatalf("status %d body %s", res.Status, res.Body)
		}
		want := `^2 validation errors detected: Value '.+' at 'requestItems' failed to satisfy constraint: Map keys must satisfy constraint: \[Member must have length less than or equal to 255, Member must have length greater than or equal to 3, Member must satisfy regular expression pattern: \[a-zA-Z0-9_\.-\]\+\]; ` +
			regexp.QuoteMeta(enumRCC) + `$`
		if !regexp.MustCompile(want).MatchString(body.Message) {
			t.Fatalf("message %q\nwant %s", body.Message, want)
		}
	})

	// Nothing of a refused write was written.
	for _, pk := range []string{"vo-bw-both", "vo-tx-dup", "vo-tx-both", "c"} {
		if it := get(t, c, "vot", item{"pk": S(pk)}); it != nil {
			t.Fatalf("refused request wrote %v", it)
		}
	}
}
