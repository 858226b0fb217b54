package e2e

import (
	"testing"
)

// TestValidationOrderExact3 goes on from TestValidationOrderExact2: checks
// DynamoDB makes before it looks the table up, and the texts of its
// member constraints, each pinned to a recording against DynamoDB.
func TestValidationOrderExact3(t *testing.T) {
	s, _ := start(t)
	const (
		val     = nsValidation + "ValidationException"
		invalid = "One or more parameter values were invalid: "
	)
	for _, tc := range []struct {
		name, op, body string
		typ, msg       string
	}{
		// Query: the operand types of each KeyConditions condition are
		// checked before the table is looked up (the table "abc" is
		// absent). dynalite's test/query.js, newer version, run against
		// DynamoDB: "invalid ComparisonOperator types", "invalid CONTAINS
		// ComparisonOperator types", "invalid BETWEEN ComparisonOperator
		// types", "invalid BEGINS_WITH ComparisonOperator types",
		// "AttributeValueList has different types", "BETWEEN arguments are
		// in the incorrect order".
		{"query, LT on a BOOL key condition", "Query",
			`{"TableName":"abc","KeyConditions":{"a":{"ComparisonOperator":"LT","AttributeValueList":[{"BOOL":true}]}}}`,
			val, invalid + "ComparisonOperator LT is not valid for BOOL AttributeValue type"},
		{"query, GE on an SS key condition", "Query",
			`{"TableName":"abc","KeyConditions":{"a":{"ComparisonOperator":"GE","AttributeValueList":[{"SS":["a"]}]}}}`,
			val, invalid + "ComparisonOperator GE is not valid for SS AttributeValue type"},
		{"query, IN on an M key condition", "Query",
			`{"TableName":"abc","KeyConditions":{"a":{"ComparisonOperator":"IN","AttributeValueList":[{"M":{}}]}}}`,
			val, invalid + "ComparisonOperator IN is not valid for M AttributeValue type"},
		{"query, CONTAINS on an NS key condition", "Query",
			`{"TableName":"abc","KeyConditions":{"a":{"ComparisonOperator":"CONTAINS","AttributeValueList":[{"NS":["1"]}]}}}`,
			val, invalid + "ComparisonOperator CONTAINS is not valid for NS AttributeValue type"},
		{"query, NOT_CONTAINS on an L key condition", "Query",
			`{"TableName":"abc","KeyConditions":{"a":{"ComparisonOperator":"NOT_CONTAINS","AttributeValueList":[{"L":[]}]}}}`,
			val, invalid + "ComparisonOperator NOT_CONTAINS is not valid for L AttributeValue type"},
		{"query, BETWEEN on NULL key conditions", "Query",
			`{"TableName":"abc","KeyConditions":{"a":{"ComparisonOperator":"BETWEEN","AttributeValueList":[{"NULL":true},{"NULL":true}]}}}`,
			val, invalid + "ComparisonOperator BETWEEN is not valid for NULL AttributeValue type"},
		{"query, BEGINS_WITH on an N key condition", "Query",
			`{"TableName":"abc","KeyConditions":{"a":{"ComparisonOperator":"BEGINS_WITH","AttributeValueList":[{"N":"1"}]}}}`,
			val, invalid + "ComparisonOperator BEGINS_WITH is not valid for N AttributeValue type"},
		{"query, BEGINS_WITH on a BS key condition", "Query",
			`{"TableName":"abc","KeyConditions":{"a":{"ComparisonOperator":"BEGINS_WITH","AttributeValueList":[{"BS":["abcd"]}]}}}`,
			val, invalid + "ComparisonOperator BEGINS_WITH is not valid for BS AttributeValue type"},
		{"query, IN with mixed types in a key condition", "Query",
			`{"TableName":"abc","KeyConditions":{"a":{"ComparisonOperator":"IN","AttributeValueList":[{"S":"b"},{"N":"1"}]}}}`,
			val, invalid + "AttributeValues inside AttributeValueList must be of same type"},
		{"query, BETWEEN out of order in a key condition", "Query",
			`{"TableName":"abc","KeyConditions":{"a":{"ComparisonOperator":"BETWEEN","AttributeValueList":[{"S":"b"},{"S":"a"}]}}}`,
			val, "The BETWEEN condition was provided a range where the lower bound is greater than the upper bound"},

		// UpdateTable: a capacity past 1000000000000 and the shape of
		// GlobalSecondaryIndexUpdates are refused before the table is
		// looked up ("abc" is absent); an index's capacity past it is
		// not. dynalite's test/updateTable.js, run against DynamoDB: "high
		// ProvisionedThroughput.ReadCapacityUnits" (and "second", and
		// WriteCapacityUnits), "empty index struct", "too many empty
		// GlobalSecondaryIndexUpdates", "repeated
		// GlobalSecondaryIndexUpdates", "high index ReadCapacityUnits when
		// table does not exist".
		{"update table, read capacity out of bounds", "UpdateTable",
			`{"TableName":"abc","ProvisionedThroughput":{"ReadCapacityUnits":1000000000001,"WriteCapacityUnits":1000000000001}}`,
			val, "Given value 1000000000001 for ReadCapacityUnits is out of bounds"},
		{"update table, read capacity out of bounds, write first", "UpdateTable",
			`{"TableName":"abc","ProvisionedThroughput":{"WriteCapacityUnits":1000000000001,"ReadCapacityUnits":1000000000001}}`,
			val, "Given value 1000000000001 for ReadCapacityUnits is out of bounds"},
		{"update table, write capacity out of bounds", "UpdateTable",
			`{"TableName":"abc","ProvisionedThroughput":{"ReadCapacityUnits":1000000000000,"WriteCapacityUnits":1000000000001}}`,
			val, "Given value 1000000000001 for WriteCapacityUnits is out of bounds"},
		{"update table, empty index update", "UpdateTable",
			`{"TableName":"abc","GlobalSecondaryIndexUpdates":[{}]}`,
			val, invalid + "One of GlobalSecondaryIndexUpdate.Update, GlobalSecondaryIndexUpdate.Create, GlobalSecondaryIndexUpdate.Delete must not be null"},
		{"update table, six empty index updates", "UpdateTable",
			`{"TableName":"abc","GlobalSecondaryIndexUpdates":[{},{},{},{},{},{}]}`,
			val, invalid + "One of GlobalSecondaryIndexUpdate.Update, GlobalSecondaryIndexUpdate.Create, GlobalSecondaryIndexUpdate.Delete must not be null"},
		{"update table, an index updated twice", "UpdateTable",
			`{"TableName":"abc","GlobalSecondaryIndexUpdates":[{"Delete":{"IndexName":"abc"}},{"Delete":{"IndexName":"abc"}}]}`,
			val, invalid + "Only one global secondary index update per index is allowed simultaneously. Index: abc"},
		{"update table, index capacity out of bounds on a missing table", "UpdateTable",
			`{"TableName":"abc","GlobalSecondaryIndexUpdates":[{"Update":{"IndexName":"abc","ProvisionedThroughput":{"ReadCapacityUnits":1000000000001,"WriteCapacityUnits":1000000000001}}}]}`,
			nsService + "ResourceNotFoundException", "Requested resource not found: Table: abc not found"},

		// CreateTable: the same bounds, before the key schema (its
		// attribute has no definition). dynalite's test/createTable.js,
		// run against DynamoDB: "high ProvisionedThroughput.ReadCapacityUnits"
		// (and "second", and WriteCapacityUnits).
		{"create table, read capacity out of bounds", "CreateTable",
			`{"TableName":"abc","AttributeDefinitions":[],"KeySchema":[{"KeyType":"HASH","AttributeName":"a"}],"ProvisionedThroughput":{"ReadCapacityUnits":1000000000001,"WriteCapacityUnits":1000000000001}}`,
			val, "Given value 1000000000001 for ReadCapacityUnits is out of bounds"},
		{"create table, write capacity out of bounds", "CreateTable",
			`{"TableName":"abc","AttributeDefinitions":[],"KeySchema":[{"KeyType":"HASH","AttributeName":"a"}],"ProvisionedThroughput":{"ReadCapacityUnits":1000000000000,"WriteCapacityUnits":1000000000001}}`,
			val, "Given value 1000000000001 for WriteCapacityUnits is out of bounds"},

		// Select's enum is listed SPECIFIC_ATTRIBUTES, COUNT,
		// ALL_ATTRIBUTES, ALL_PROJECTED_ATTRIBUTES, by Query and Scan.
		// paritysuite/dynamodb-conformance,
		// tests/tier3/error-messages/query.test.ts, "invalid Select
		// value" (2026-04-25); dynalite's test/query.js and test/scan.js,
		// "incorrect attributes", against DynamoDB.
		{"query, unknown Select", "Query",
			`{"TableName":"abc","KeyConditionExpression":"pk = :v","ExpressionAttributeValues":{":v":{"S":"val"}},"Select":"INVALID_VALUE"}`,
			val, "1 validation error detected: Value 'INVALID_VALUE' at 'select' failed to satisfy constraint: Member must satisfy enum value set: [SPECIFIC_ATTRIBUTES, COUNT, ALL_ATTRIBUTES, ALL_PROJECTED_ATTRIBUTES]"},
		{"scan, unknown Select", "Scan",
			`{"TableName":"abc","Select":"hi"}`,
			val, "1 validation error detected: Value 'hi' at 'select' failed to satisfy constraint: Member must satisfy enum value set: [SPECIFIC_ATTRIBUTES, COUNT, ALL_ATTRIBUTES, ALL_PROJECTED_ATTRIBUTES]"},

		// Limit 0: Query names it without its value, Scan with it.
		// paritysuite/dynamodb-conformance, tests/tier3/error-messages/
		// query.test.ts and scan.test.ts, "Limit of 0" (2026-04-25).
		{"query, Limit 0", "Query",
			`{"TableName":"abc","KeyConditionExpression":"pk = :v","ExpressionAttributeValues":{":v":{"S":"val"}},"Limit":0}`,
			val, "1 validation error detected: Value at 'Limit' failed to satisfy constraint: Member must have value greater than or equal to 1"},
		{"scan, Limit 0", "Scan",
			`{"TableName":"abc","Limit":0}`,
			val, "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkRaw(t, s.Raw(t, tc.op, tc.body), 400, tc.typ, tc.msg)
		})
	}
}
