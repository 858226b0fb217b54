package e2e

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TestValidationOrderExact2 goes on from TestValidationOrderExact: pairs
// of problems in one request, and which one DynamoDB reports, or in which
// order it lists them inside one "N validation errors detected" message.
func TestValidationOrderExact2(t *testing.T) {
	s, c := start(t)
	createHash(t, c, "vo2t", types.ScalarAttributeTypeS)
	const (
		val = nsValidation + "ValidationException"
		one = "1 validation error detected: "

		enumRCC = "Value 'BOGUS' at 'returnConsumedCapacity' failed to satisfy constraint: Member must satisfy enum value set: [INDEXES, TOTAL, NONE]"
		// Select's values in DynamoDB's order: dynalite's query and scan
		// tests against DynamoDB, paritysuite's
		// tests/tier3/error-messages/query.test.ts (2026-04-25).
		enumSelect = "Value 'BOGUS' at 'select' failed to satisfy constraint: Member must satisfy enum value set: [SPECIFIC_ATTRIBUTES, COUNT, ALL_ATTRIBUTES, ALL_PROJECTED_ATTRIBUTES]"
		enumXOR    = "Value 'XOR' at 'conditionalOperator' failed to satisfy constraint: Member must satisfy enum value set: [OR, AND]"
		startKey   = "The provided starting key is invalid: "
		xorApplied = "Failed to satisfy constraint: Member must satisfy enum value set: [ALL, OR]"
	)
	token := strings.Repeat("x", 37)
	indexTooShort := func(name, member string) string {
		return "Value '" + name + "' at '" + member + ".1.member.indexName' failed to satisfy constraint: Member must have length greater than or equal to 3"
	}
	const (
		ctBase = `"TableName":"vo2_ct_index_names","BillingMode":"PAY_PER_REQUEST",` +
			`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"}],` +
			`"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}]`
		lsiBody = `{"IndexName":"%s","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"lr","KeyType":"RANGE"}],"Projection":{"ProjectionType":"ALL"}}`
		gsiBody = `{"IndexName":"%s","KeySchema":[{"AttributeName":"gh","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}`
	)
	lsi := func(name string) string { return strings.Replace(lsiBody, "%s", name, 1) }
	gsi := func(name string) string { return strings.Replace(gsiBody, "%s", name, 1) }

	for _, tc := range []struct {
		name, op, body string
		typ, msg       string
	}{
		// Query: an unknown ConditionalOperator that a QueryFilter of two
		// conditions would apply is answered bare, in the [ALL, OR]
		// wording, and alone: the unknown Select is not joined to it.
		// paritysuite/dynamodb-conformance,
		// tests/tier3/validation-ordering/query.test.ts ("reports XOR
		// with two QueryFilter conditions before an unknown Select",
		// eu-west-2 and us-east-1, 2026-10-09; the table is absent).
		{"query, XOR with two filter conditions before Select", "Query",
			`{"TableName":"vo2_missing","KeyConditions":{"pk":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"a"}]}},"QueryFilter":{"b":{"ComparisonOperator":"NULL"},"c":{"ComparisonOperator":"NULL"}},"ConditionalOperator":"XOR","Select":"BOGUS"}`,
			val, xorApplied},
		// The same on its own, and ahead of a member constraint on the
		// table name (no recording of these; they follow the rule).
		{"query, XOR with two filter conditions alone", "Query",
			`{"TableName":"vo2_missing","KeyConditions":{"pk":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"a"}]}},"QueryFilter":{"b":{"ComparisonOperator":"NULL"},"c":{"ComparisonOperator":"NULL"}},"ConditionalOperator":"XOR"}`,
			val, xorApplied},
		{"query, XOR with two filter conditions before a bad table name", "Query",
			`{"TableName":"bad!name","KeyConditions":{"pk":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"a"}]}},"QueryFilter":{"b":{"ComparisonOperator":"NULL"},"c":{"ComparisonOperator":"NULL"}},"ConditionalOperator":"XOR","Select":"BOGUS"}`,
			val, xorApplied},
		// Without a QueryFilter to apply it to, ConditionalOperator stays
		// a member constraint, in the per-value form
		// (the form of paritysuite's updateItem.test.ts and dynalite's
		// query test against DynamoDB).
		{"query, XOR without a filter is a member constraint", "Query",
			`{"TableName":"vo2_missing","KeyConditions":{"pk":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"a"}]}},"ConditionalOperator":"XOR"}`,
			val, one + enumXOR},
		// A valid ConditionalOperator leaves Select to layer 1.
		{"query, OR with two filter conditions leaves Select", "Query",
			`{"TableName":"vo2_missing","KeyConditions":{"pk":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"a"}]}},"QueryFilter":{"b":{"ComparisonOperator":"NULL"},"c":{"ComparisonOperator":"NULL"}},"ConditionalOperator":"OR","Select":"BOGUS"}`,
			val, one + enumSelect},

		// TransactWriteItems: a ClientRequestToken over 36 characters is
		// listed before an unknown ReturnConsumedCapacity. paritysuite's
		// tests/tier3/validation-ordering/transactions.test.ts
		// ("reports a ClientRequestToken over 36 characters ahead of an
		// unknown ReturnConsumedCapacity"; us-east-1's echoed form,
		// 2026-10-09).
		{"transact write, token before ReturnConsumedCapacity", "TransactWriteItems",
			`{"TransactItems":[{"Put":{"TableName":"vo2t","Item":{"pk":{"S":"vo2-tx-token"}}}}],"ClientRequestToken":"` + token + `","ReturnConsumedCapacity":"BOGUS"}`,
			val, "2 validation errors detected: Value '" + token + "' at 'clientRequestToken' failed to satisfy constraint: Member must have length less than or equal to 36; " + enumRCC},

		// CreateTable: a global secondary index's member errors before a
		// local one's, whichever the request lists first and whatever
		// the names sort to. paritysuite's
		// tests/tier3/validation-ordering/createTable.test.ts ("index
		// name errors across index kinds", eu-west-2 and us-east-1,
		// 2026-10-09).
		{"create table, GSI name before LSI name", "CreateTable",
			`{` + ctBase + `,"LocalSecondaryIndexes":[` + lsi("l1") + `],"GlobalSecondaryIndexes":[` + gsi("g1") + `]}`,
			val, "2 validation errors detected: " + indexTooShort("g1", "globalSecondaryIndexes") + "; " + indexTooShort("l1", "localSecondaryIndexes")},
		{"create table, GSI name first though the LSI name sorts first", "CreateTable",
			`{` + ctBase + `,"LocalSecondaryIndexes":[` + lsi("aa") + `],"GlobalSecondaryIndexes":[` + gsi("zz") + `]}`,
			val, "2 validation errors detected: " + indexTooShort("zz", "globalSecondaryIndexes") + "; " + indexTooShort("aa", "localSecondaryIndexes")},

		// Member order of the table and TTL operations, and which of a
		// name's two constraints comes first: the ack-api-quirks
		// catalogue, DDB-TABLE-457 (2026-10-09), whose rows are named
		// here. It supersedes dynalite's older recordings, which list a
		// tableName's pattern first everywhere.
		// describe_table_empty_name: a table operation's tableName,
		// length first.
		{"describe table, empty name, length first", "DescribeTable", `{"TableName":""}`, val,
			"2 validation errors detected: Value '' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 3; " +
				"Value '' at 'tableName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+"},
		// list_tables_start_empty: ListTables' exclusiveStartTableName,
		// pattern first, and an empty one is refused, not taken as absent.
		{"list tables, empty start name, pattern first", "ListTables", `{"ExclusiveStartTableName":""}`, val,
			"2 validation errors detected: Value '' at 'exclusiveStartTableName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+; " +
				"Value '' at 'exclusiveStartTableName' failed to satisfy constraint: Member must have length greater than or equal to 3"},
		{"list tables, short bad start name, pattern first", "ListTables", `{"ExclusiveStartTableName":"a;"}`, val,
			"2 validation errors detected: Value 'a;' at 'exclusiveStartTableName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+; " +
				"Value 'a;' at 'exclusiveStartTableName' failed to satisfy constraint: Member must have length greater than or equal to 3"},
		// ct_attrdefs_empty_entry and ut_attrdefs_empty_entry_plus_dp:
		// an attribute definition's attributeType before its
		// attributeName, in CreateTable and UpdateTable alike.
		{"create table, attribute definition members", "CreateTable",
			`{"TableName":"vo2_ct_defs","AttributeDefinitions":[{}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"}`, val,
			"2 validation errors detected: Value null at 'attributeDefinitions.1.member.attributeType' failed to satisfy constraint: Member must not be null; " +
				"Value null at 'attributeDefinitions.1.member.attributeName' failed to satisfy constraint: Member must not be null"},
		{"update table, attribute definition members", "UpdateTable",
			`{"TableName":"vo2t","AttributeDefinitions":[{}],"DeletionProtectionEnabled":false}`, val,
			"2 validation errors detected: Value null at 'attributeDefinitions.1.member.attributeType' failed to satisfy constraint: Member must not be null; " +
				"Value null at 'attributeDefinitions.1.member.attributeName' failed to satisfy constraint: Member must not be null"},
		// ct_keyschema_empty_entry: a key schema element's attributeName
		// before its keyType.
		{"create table, key schema element members", "CreateTable",
			`{"TableName":"vo2_ct_keys","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{}],"BillingMode":"PAY_PER_REQUEST"}`, val,
			"2 validation errors detected: Value null at 'keySchema.1.member.attributeName' failed to satisfy constraint: Member must not be null; " +
				"Value null at 'keySchema.1.member.keyType' failed to satisfy constraint: Member must not be null"},
		// ttl_empty_struct: attributeName before enabled.
		{"update ttl, specification members", "UpdateTimeToLive",
			`{"TableName":"vo2t","TimeToLiveSpecification":{}}`, val,
			"2 validation errors detected: Value null at 'timeToLiveSpecification.attributeName' failed to satisfy constraint: Member must not be null; " +
				"Value null at 'timeToLiveSpecification.enabled' failed to satisfy constraint: Member must not be null"},

		// A start key value the engine finds malformed (not the decoder)
		// carries the start-key prefix too, and comes before Segment
		// without TotalSegments and before an empty key condition.
		// dynalite's test/scan.js and test/query.js against DynamoDB
		// ("invalid values in ExclusiveStartKey").
		{"scan, empty SS in start key", "Scan",
			`{"TableName":"abc","Segment":1,"FilterExpression":"","ExpressionAttributeNames":{},"ExpressionAttributeValues":{},"ExclusiveStartKey":{"a":{"SS":[]}}}`, val,
			startKey + "One or more parameter values were invalid: An string set  may not be empty"},
		{"scan, NULL false in start key", "Scan",
			`{"TableName":"abc","Segment":1,"FilterExpression":"","ExpressionAttributeNames":{},"ExpressionAttributeValues":{},"ExclusiveStartKey":{"a":{"NULL":false}}}`, val,
			startKey + "One or more parameter values were invalid: Null attribute value types must have the value of true"},
		{"query, empty BS in start key", "Query",
			`{"TableName":"abc","KeyConditionExpression":"","ExpressionAttributeNames":{},"ExpressionAttributeValues":{},"ExclusiveStartKey":{"a":{"BS":[]}}}`, val,
			startKey + "One or more parameter values were invalid: Binary sets should not be empty"},
		{"query, NULL false in start key", "Query",
			`{"TableName":"abc","KeyConditionExpression":"","ExpressionAttributeNames":{},"ExpressionAttributeValues":{},"ExclusiveStartKey":{"a":{"NULL":false}}}`, val,
			startKey + "One or more parameter values were invalid: Null attribute value types must have the value of true"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkRaw(t, s.Raw(t, tc.op, tc.body), 400, tc.typ, tc.msg)
		})
	}

	// Nothing of a refused write was written.
	if it := get(t, c, "vo2t", item{"pk": S("vo2-tx-token")}); it != nil {
		t.Fatalf("refused request wrote %v", it)
	}
}
