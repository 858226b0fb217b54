package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TestValueOrderExact pins where DynamoDB reports a malformed attribute
// value the protocol decoder finds (an empty value, one nested past the
// decoder's depth guard) relative to the request's other problems, place
// by place: after the member constraints in the batch and transaction
// operations too, and in TransactWriteItems action by action, after the
// expressions and the item's names of its own action
// (engine/validation_order.go, placedValue). Every table is absent: each
// answer comes before the table is looked up.
func TestValueOrderExact(t *testing.T) {
	s, _ := start(t)
	const (
		val    = nsValidation + "ValidationException"
		nest   = "Nesting Levels have exceeded supported limits: Attributes in the item have nested levels beyond supported limit"
		noName = "One or more parameter values were invalid: Empty attribute name" // Alternator's test_limits.py against DynamoDB
		syntax = `Invalid ConditionExpression: Syntax error; token: "=", near: "= = b"`
		empty  = "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes"
		one    = "1 validation error detected: "
		rcc    = "Value 'BOGUS' at 'returnConsumedCapacity' failed to satisfy constraint: Member must satisfy enum value set: [INDEXES, TOTAL, NONE]"
		absent = `"TableName":"vo_absent"`
	)
	deep := nestedValue
	key := func(pk string) string { return `{"pk":` + pk + `,"sk":{"S":"1"}}` }
	put := func(item string) string { return `{"Put":{` + absent + `,"Item":` + item + `}}` }
	tx := func(actions ...string) string { return `{"TransactItems":[` + strings.Join(actions, ",") + `]}` }
	for _, tc := range []struct{ name, op, body, msg string }{
		// TransactWriteItems checks its actions one at a time, in request
		// order; a later action's problem never beats an earlier one's,
		// and within an action the expressions and the item's names come
		// before a key or item nested past the decoder's guard.
		// paritysuite/dynamodb-conformance,
		// tests/tier3/validation-ordering/deepRequests.test.ts ("Deep
		// requests - TransactWriteItems action order", 10 of 10 regions,
		// 2026-10-09).
		{"empty name before a later Put nested 100 levels", "TransactWriteItems",
			tx(put(`{"pk":{"S":"a"},"sk":{"S":"1"},"":{"S":"x"}}`), put(`{"pk":{"S":"b"},"sk":{"S":"1"},"d":`+deep(100)+`}`)), noName},
		{"empty name before a value nested 100 levels in the same item, name first", "TransactWriteItems",
			tx(put(`{"pk":{"S":"a"},"sk":{"S":"1"},"":{"S":"x"},"d":` + deep(100) + `}`)), noName},
		{"empty name before a value nested 100 levels in the same item, value first", "TransactWriteItems",
			tx(put(`{"pk":{"S":"a"},"sk":{"S":"1"},"d":` + deep(100) + `,"":{"S":"x"}}`)), noName},
		{"empty name before a later ConditionCheck value nested 100 levels", "TransactWriteItems",
			tx(put(`{"pk":{"S":"a"},"sk":{"S":"1"},"":{"S":"x"}}`),
				`{"ConditionCheck":{`+absent+`,"Key":`+key(`{"S":"b"}`)+`,"ConditionExpression":"d = :deep","ExpressionAttributeValues":{":deep":`+deep(100)+`}}}`), noName},
		{"syntax error before a later Delete key nested 100 levels", "TransactWriteItems",
			tx(`{"Put":{`+absent+`,"Item":`+key(`{"S":"a"}`)+`,"ConditionExpression":"a = = b"}}`,
				`{"Delete":{`+absent+`,"Key":`+key(deep(100))+`}}`), syntax},
		{"syntax error before the same Delete key nested 100 levels", "TransactWriteItems",
			tx(`{"Delete":{` + absent + `,"Key":` + key(deep(100)) + `,"ConditionExpression":"a = = b"}}`), syntax},
		{"oversized condition before the same Delete key nested 100 levels", "TransactWriteItems",
			tx(`{"Delete":{` + absent + `,"Key":` + key(deep(100)) + `,"ConditionExpression":"a = :v` + strings.Repeat(" AND a = :v", 373) + `","ExpressionAttributeValues":{":v":{"S":"x"}}}}`),
			"Invalid ConditionExpression: Expression size has exceeded the maximum allowed size; expression size: 4109"},
		// An UpdateExpression's size problem names no size.
		{"oversized UpdateExpression before a later ConditionCheck key nested 100 levels", "TransactWriteItems",
			tx(`{"Update":{`+absent+`,"Key":`+key(`{"S":"a"}`)+`,"UpdateExpression":"SET `+updateClauses(500)+`","ExpressionAttributeValues":{":v":{"S":"x"}}}}`,
				`{"ConditionCheck":{`+absent+`,"Key":`+key(deep(100))+`,"ConditionExpression":"attribute_exists(a)"}}`),
			"Invalid UpdateExpression: Expression size has exceeded the maximum allowed size;"},
		{"unused value before a later ConditionCheck key nested 100 levels", "TransactWriteItems",
			tx(`{"Update":{`+absent+`,"Key":`+key(`{"S":"a"}`)+`,"UpdateExpression":"SET a = :v","ExpressionAttributeValues":{":v":{"S":"x"},":u":{"S":"y"}}}}`,
				`{"ConditionCheck":{`+absent+`,"Key":`+key(deep(100))+`,"ConditionExpression":"attribute_exists(a)"}}`),
			"Value provided in ExpressionAttributeValues unused in expressions: keys: {:u}"},
		// The same file, values the engine finds too deep (40 levels):
		// still action by action.
		{"Put nested 40 levels before a later empty name", "TransactWriteItems",
			tx(put(`{"pk":{"S":"b"},"sk":{"S":"1"},"d":`+deep(40)+`}`), put(`{"pk":{"S":"a"},"sk":{"S":"1"},"":{"S":"x"}}`)), nest},
		{"nested 40 levels before an empty map key in the same item", "TransactWriteItems",
			tx(put(`{"pk":{"S":"a"},"sk":{"S":"1"},"m":{"M":{"":{"S":"x"}}},"d":` + deep(40) + `}`)), nest},
		{"Delete key nested 40 levels before a later syntax error", "TransactWriteItems",
			tx(`{"Delete":{`+absent+`,"Key":`+key(deep(40))+`}}`, `{"Put":{`+absent+`,"Item":`+key(`{"S":"a"}`)+`,"ConditionExpression":"a = = b"}}`), nest},
		// Eight of the ten regions name the value's key; eu-west-2 and
		// eu-north-1 answer bare. This pins the majority's answer.
		{"ConditionCheck value nested 40 levels before a later empty name", "TransactWriteItems",
			tx(`{"ConditionCheck":{`+absent+`,"Key":`+key(`{"S":"b"}`)+`,"ConditionExpression":"d = :deep","ExpressionAttributeValues":{":deep":`+deep(40)+`}}}`,
				put(`{"pk":{"S":"a"},"sk":{"S":"1"},"":{"S":"x"}}`)),
			"ExpressionAttributeValues contains invalid value: " + nest + " for key :deep"},

		// Member constraints come before anything else of a transaction
		// or a batch is read: paritysuite's
		// tests/tier3/validation-ordering/transactions.test.ts ("checked
		// before the request is read any further", us-east-1 and
		// eu-west-2, 2026-10-09) and batchOperations.test.ts ("Member
		// constraints are checked first"), with deepRequests.test.ts
		// above, where a value past the guard loses even to an earlier
		// action's empty name. No recording pairs an enum with an empty
		// value itself.
		{"transact write, enum before an empty item value", "TransactWriteItems",
			`{"TransactItems":[` + put(`{"pk":{"S":"a"},"x":{}}`) + `],"ReturnConsumedCapacity":"BOGUS"}`, one + rcc},
		{"transact get, enum before an empty key value", "TransactGetItems",
			`{"TransactItems":[{"Get":{` + absent + `,"Key":{"pk":{}}}}],"ReturnConsumedCapacity":"BOGUS"}`, one + rcc},
		{"batch write, enum before an empty item value", "BatchWriteItem",
			`{"RequestItems":{"vo_absent":[{"PutRequest":{"Item":{"pk":{"S":"a"},"x":{}}}}]},"ReturnConsumedCapacity":"BOGUS"}`, one + rcc},
		{"batch get, enum before an empty key value", "BatchGetItem",
			`{"RequestItems":{"vo_absent":{"Keys":[{"pk":{}}]}},"ReturnConsumedCapacity":"BOGUS"}`, one + rcc},
		// Alone, the value is still refused before the table is looked
		// up (dynalite's test/batchWriteItem.js and test/batchGetItem.js
		// against DynamoDB, "empty key type").
		{"batch write, empty item value alone", "BatchWriteItem",
			`{"RequestItems":{"vo_absent":[{"PutRequest":{"Item":{"a":{}}}}]}}`, empty},
		{"batch get, empty key value alone", "BatchGetItem",
			`{"RequestItems":{"vo_absent":{"Keys":[{"a":{}}]}}}`, empty},

		// Query's KeyConditions: an empty value in a condition before
		// the count of the conditions. dynalite's test/query.js against
		// DynamoDB ("bad key type", three conditions).
		{"query, KeyConditions value before the condition count", "Query",
			`{"TableName":"abc","KeyConditions":{"a":{"ComparisonOperator":"EQ","AttributeValueList":[{}]},"b":{"ComparisonOperator":"NULL"},"c":{"ComparisonOperator":"NULL"}}}`, empty},
		// Scan: a ScanFilter value nested 40 levels against
		// ConditionalOperator with one condition. deepRequests.test.ts:
		// seven of ten regions report the depth (pinned here); eu-west-2,
		// eu-central-1 and ap-southeast-2 the operator.
		{"scan, ScanFilter value nested 40 levels before ConditionalOperator", "Scan",
			`{` + absent + `,"ScanFilter":{"a":{"ComparisonOperator":"EQ","AttributeValueList":[` + deep(40) + `]}},"ConditionalOperator":"AND"}`, nest},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkRaw(t, s.Raw(t, tc.op, tc.body), 400, val, tc.msg)
		})
	}
}

// TestValueOrderQueryExact pins the order in which Query reports the
// values of its places, each malformed value at its own place: the
// QueryFilter's values and argument counts, then a name listed twice in
// AttributesToGet, then ExclusiveStartKey's values, then KeyConditions'
// values, in list order (engine/validation_order.go, queryFilterFirst).
// dynalite's test/query.js, newer version, against DynamoDB; each case
// is named after its test there.
func TestValueOrderQueryExact(t *testing.T) {
	s, _ := start(t)
	const (
		val      = nsValidation + "ValidationException"
		empty    = "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes"
		multi    = "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes"
		invalid  = "One or more parameter values were invalid: "
		startKey = "The provided starting key is invalid: "
		kc1      = `"KeyConditions":{"a":{"ComparisonOperator":"EQ","AttributeValueList":[{}]}}`
		kc2      = `"KeyConditions":{"a":{"ComparisonOperator":"EQ","AttributeValueList":[{},{}]}}`
		// An empty start key value, a name listed twice and an empty
		// KeyConditions value, all of which the QueryFilter beats.
		rest = `"TableName":"abc","ExclusiveStartKey":{"a":{}},"AttributesToGet":["a","a"],` + kc1
		// Every legacy parameter, each with a problem, and an OR over one
		// condition.
		legacy = `"TableName":"abc","QueryFilter":{"a":{"ComparisonOperator":"EQ","AttributeValueList":[{}]}},"AttributesToGet":["a","a"],"ExclusiveStartKey":{"a":{}},"ConditionalOperator":"OR","Select":"SPECIFIC_ATTRIBUTES"`
	)
	qf := func(list string) string {
		return `"QueryFilter":{"a":{"ComparisonOperator":"EQ","AttributeValueList":[` + list + `]}}`
	}
	for _, tc := range []struct{ name, body, msg string }{
		// Names and values no expression can use come first, before an
		// OR over one condition and every value.
		{"ExpressionAttributeNames but no expressions", `{` + legacy + `,"ExpressionAttributeNames":{},"ExpressionAttributeValues":{}}`,
			"ExpressionAttributeNames can only be specified when using expressions"},
		{"ExpressionAttributeValues but no expressions", `{` + legacy + `,"ExpressionAttributeValues":{}}`,
			"ExpressionAttributeValues can only be specified when using expressions: FilterExpression and KeyConditionExpression are null"},
		{"bad attribute values in QueryFilter", `{` + rest + `,` + qf(`{},{"S":""}`) + `}`, empty},
		{"invalid values in QueryFilter", `{` + rest + `,` + qf(`{"N":"1"},{"SS":[]},{}`) + `}`, invalid + "An string set  may not be empty"},
		// A value's N member before its count of types ("empty/invalid
		// numbers in QueryFilter", "... in ExclusiveStartKey", "... in
		// KeyConditions"; the empty number's wording is another matter).
		{"empty/invalid numbers in QueryFilter", `{` + rest + `,` + qf(`{"N":"1"},{"S":"a","N":"b"}`) + `}`, "The parameter cannot be converted to a numeric value: b"},
		{"empty/invalid numbers in ExclusiveStartKey, two types", `{"TableName":"abc",` + kc1 + `,"ExclusiveStartKey":{"a":{"S":"a","N":"b"}}}`, "The parameter cannot be converted to a numeric value: b"},
		{"empty/invalid numbers in KeyConditions", `{"TableName":"abc","KeyConditions":{"a":{"ComparisonOperator":"EQ","AttributeValueList":[{"N":"1"},{"S":"a","N":"b"}]}}}`, "The parameter cannot be converted to a numeric value: b"},
		{"multiple datatypes in QueryFilter", `{` + rest + `,` + qf(`{"N":"1"},{"S":"a","N":"1"}`) + `}`, multi},
		{"incorrect number of QueryFilter arguments", `{` + rest + `,"QueryFilter":{"a":{"ComparisonOperator":"EQ"}}}`,
			invalid + "Invalid number of argument(s) for the EQ ComparisonOperator"},
		{"incorrect number of QueryFilter arguments, three conditions", `{` + rest + `,"QueryFilter":{"a":{"ComparisonOperator":"EQ"},"b":{"ComparisonOperator":"NULL"},"c":{"ComparisonOperator":"NULL"}}}`,
			invalid + "Invalid number of argument(s) for the EQ ComparisonOperator"},
		{"duplicate values in AttributesToGet", `{"TableName":"abc","QueryFilter":{},"ExclusiveStartKey":{"a":{}},"AttributesToGet":["a","a"]}`,
			invalid + "Duplicate value in attribute name: a"},
		{"invalid values in ExclusiveStartKey, KeyConditions", `{"TableName":"abc",` + kc2 + `,"ExclusiveStartKey":{"a":{"SS":[]}}}`,
			startKey + invalid + "An string set  may not be empty"},
		{"invalid values in ExclusiveStartKey, KeyConditionExpression", `{"TableName":"abc","KeyConditionExpression":"","ExpressionAttributeNames":{},"ExpressionAttributeValues":{},"ExclusiveStartKey":{"a":{"SS":[]}}}`,
			startKey + invalid + "An string set  may not be empty"},
		// The start key's prefix goes with a value's shape only: "invalid
		// values in ExclusiveStartKey without provided message" and
		// "empty/invalid numbers in ExclusiveStartKey" are bare (so is a
		// duplicate, also in paritysuite's
		// tests/tier3/error-messages/valueLayers.test.ts, 2026-10-09,
		// whose wording of it is another matter).
		{"invalid values in ExclusiveStartKey without provided message", `{"TableName":"abc",` + kc2 + `,"ExclusiveStartKey":{"a":{"NS":[]}}}`,
			invalid + "An number set  may not be empty"},
		{"empty/invalid numbers in ExclusiveStartKey", `{"TableName":"abc",` + kc1 + `,"ExclusiveStartKey":{"a":{"N":"1e126"}}}`,
			"Number overflow. Attempting to store a number with magnitude larger than supported range"},
		{"empty/invalid numbers in ExclusiveStartKey, KeyConditionExpression", `{"TableName":"abc","KeyConditionExpression":"","ExpressionAttributeNames":{},"ExpressionAttributeValues":{},"ExclusiveStartKey":{"a":{"N":"-1e-131"}}}`,
			"Number underflow. Attempting to store a number with magnitude smaller than supported range"},
		{"multiple datatypes in ExclusiveStartKey", `{"TableName":"abc",` + kc1 + `,"ExclusiveStartKey":{"a":{"S":"a","N":"1"}}}`, startKey + multi},
		{"invalid values in KeyConditions", `{"TableName":"abc","KeyConditions":{"a":{"ComparisonOperator":"EQ","AttributeValueList":[{"N":"1"},{"SS":[]},{}]}}}`,
			invalid + "An string set  may not be empty"},
		// KeyConditions' argument counts, then their number, before the
		// table (absent here) is looked up.
		{"incorrect number of KeyConditions arguments", `{"TableName":"abc","QueryFilter":{},"KeyConditions":{"a":{"ComparisonOperator":"EQ"}}}`,
			invalid + "Invalid number of argument(s) for the EQ ComparisonOperator"},
		{"incorrect number of KeyConditions arguments, three conditions", `{"TableName":"abc","QueryFilter":{},"KeyConditions":{"a":{"ComparisonOperator":"EQ"},"b":{"ComparisonOperator":"NULL"},"c":{"ComparisonOperator":"NULL"}}}`,
			invalid + "Invalid number of argument(s) for the EQ ComparisonOperator"},
		{"incorrect number of KeyConditions, none", `{"TableName":"abc","QueryFilter":{},"KeyConditions":{}}`, "Conditions can be of length 1 or 2 only"},
		{"incorrect number of KeyConditions, three", `{"TableName":"abc","QueryFilter":{},"KeyConditions":{"a":{"ComparisonOperator":"NULL"},"b":{"ComparisonOperator":"NULL"},"c":{"ComparisonOperator":"NULL"}}}`,
			"Conditions can be of length 1 or 2 only"},
		{"bad attribute values in KeyConditions", `{"TableName":"abc","QueryFilter":{},"KeyConditions":{"a":{"ComparisonOperator":"EQ","AttributeValueList":[{},{"S":""}]}}}`, empty},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkRaw(t, s.Raw(t, "Query", tc.body), 400, val, tc.msg)
		})
	}
}

// TestValueOrderScanExact pins the order in which Scan reports the values
// of its places: ScanFilter's values, then its conditions' argument counts
// and operand types, all before the start key's values and before Segment
// without TotalSegments (engine/validation_order.go, scanFilterFirst); and
// a start key's prefix on a value's shape only (bareStartKeyValues).
// dynalite's test/scan.js, newer version, against DynamoDB; each case is
// named after its test there.
func TestValueOrderScanExact(t *testing.T) {
	s, _ := start(t)
	const (
		val     = nsValidation + "ValidationException"
		invalid = "One or more parameter values were invalid: "
		// An empty start key value and a Segment without TotalSegments,
		// which the ScanFilter beats.
		rest = `"TableName":"abc","Segment":1,"ExclusiveStartKey":{"a":{}}`
		// Expressions that do not fail before the start key.
		exprs = `"TableName":"abc","Segment":1,"FilterExpression":"","ExpressionAttributeNames":{},"ExpressionAttributeValues":{}`
	)
	sf := func(list string) string {
		return `"ScanFilter":{"a":{"ComparisonOperator":"EQ","AttributeValueList":[` + list + `]}}`
	}
	for _, tc := range []struct{ name, body, msg string }{
		{"empty/invalid numbers in ScanFilter", `{` + rest + `,` + sf(`{"N":"1"},{"N":"1e126"}`) + `}`,
			"Number overflow. Attempting to store a number with magnitude larger than supported range"},
		{"empty/invalid numbers in ScanFilter, two types", `{` + rest + `,` + sf(`{"N":"1"},{"S":"a","N":"b"}`) + `}`,
			"The parameter cannot be converted to a numeric value: b"},
		{"multiple datatypes in ScanFilter", `{` + rest + `,` + sf(`{"N":"1"},{"S":"a","N":"1"}`) + `}`,
			"Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes"},
		{"incorrect number of ScanFilter arguments", `{` + rest + `,"ScanFilter":{"a":{"ComparisonOperator":"EQ"}}}`,
			invalid + "Invalid number of argument(s) for the EQ ComparisonOperator"},
		{"invalid ComparisonOperator types", `{` + rest + `,"ScanFilter":{"a":{"ComparisonOperator":"LT","AttributeValueList":[{"BOOL":true}]}}}`,
			invalid + "ComparisonOperator LT is not valid for BOOL AttributeValue type"},
		{"ExclusiveStartKey if ScanFilter ok with EQ on type SS when table does not exist", `{` + rest + `,` + sf(`{"SS":["a"]}`) + `}`,
			"The provided starting key is invalid: Supplied AttributeValue is empty, must contain exactly one of the supported datatypes"},
		{"invalid values in ExclusiveStartKey with no provided message", `{` + exprs + `,"ExclusiveStartKey":{"a":{"NS":[]}}}`,
			invalid + "An number set  may not be empty"},
		{"empty/invalid numbers in ExclusiveStartKey", `{` + exprs + `,"ExclusiveStartKey":{"a":{"S":"a","N":"b"}}}`,
			"The parameter cannot be converted to a numeric value: b"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkRaw(t, s.Raw(t, "Scan", tc.body), 400, val, tc.msg)
		})
	}
}

// TestValueOrderPartiQLExact pins that a PartiQL parameter nested past the
// decoder's depth guard is reported in document order among the
// parameters' problems, and in BatchExecuteStatement as its statement's
// error (engine/validation_order.go, qlValueError).
// paritysuite/dynamodb-conformance,
// tests/tier3/error-messages/partiqlParameterNumbers.test.ts ("Too deep
// and unconvertible: the first problem in document order", nested 100
// levels; eu-west-2 and us-east-1, October 2026).
func TestValueOrderPartiQLExact(t *testing.T) {
	s, c := start(t)
	createRange(t, c, "voql", types.ScalarAttributeTypeS)
	const (
		val   = nsValidation + "ValidationException"
		nest  = "Nesting Levels have exceeded supported limits: Attributes in the item have nested levels beyond supported limit"
		bad   = "The parameter cannot be converted to a numeric value: abc"
		pair  = `"Statement":"SELECT * FROM \"voql\" WHERE pk = 'pq-pn' AND x = ? AND y = ?"`
		abc   = `{"N":"abc"}`
		upd   = `"Statement":"UPDATE \"voql\" SET x = ? SET y = ? WHERE pk = 'pq-pn' AND sk = '1'"`
		deep  = 100
		stmts = "BatchExecuteStatement"
	)
	d := nestedValue(deep)
	t.Run("a deep parameter before an unconvertible one", func(t *testing.T) {
		checkRaw(t, s.Raw(t, "ExecuteStatement", `{`+pair+`,"Parameters":[`+d+`,`+abc+`]}`), 400, val, nest)
	})
	t.Run("an unconvertible parameter before a deep one", func(t *testing.T) {
		checkRaw(t, s.Raw(t, "ExecuteStatement", `{`+pair+`,"Parameters":[`+abc+`,`+d+`]}`), 400, val, bad)
	})
	t.Run("a deep parameter before an unconvertible one, in ExecuteTransaction", func(t *testing.T) {
		checkRaw(t, s.Raw(t, "ExecuteTransaction", `{"TransactStatements":[{`+upd+`,"Parameters":[`+d+`,`+abc+`]}]}`), 400, val, nest)
	})
	t.Run("a deep parameter before an unconvertible one, in BatchExecuteStatement", func(t *testing.T) {
		res := s.Raw(t, stmts, `{"Statements":[{`+pair+`,"Parameters":[`+d+`,`+abc+`]}]}`)
		if res.Status != 200 {
			t.Fatalf("status %d: %s", res.Status, res.Body)
		}
		jsonEqual(t, res.Body, `{"Responses":[{"Error":{"Code":"ValidationError","Message":"`+nest+`"}}]}`)
	})
}

// TestValueOrderItemsExact pins where the single-item operations report a
// malformed value among their other problems: after names or values that
// no expression can use, before the expressions even when they are sent
// empty, and, in UpdateItem, a key's value before the legacy Expected and
// AttributeUpdates (engine/validation_order.go, valueLayer and
// keyValuesFirst). dynalite's test/getItem.js, test/putItem.js and
// test/updateItem.js, newer versions, against DynamoDB; each case is named
// after its test there.
func TestValueOrderItemsExact(t *testing.T) {
	s, _ := start(t)
	const (
		val    = nsValidation + "ValidationException"
		empty  = "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes"
		names  = "ExpressionAttributeNames can only be specified when using expressions"
		values = "ExpressionAttributeValues can only be specified when using expressions: "
		env    = "1 validation error detected: "
	)
	for _, tc := range []struct{ name, op, body, msg string }{
		{"get item, ExpressionAttributeNames but no ProjectionExpression", "GetItem",
			`{"TableName":"abc","Key":{"a":{}},"AttributesToGet":["a"],"ExpressionAttributeNames":{}}`, names},
		{"get item, unsupported datatype in Key", "GetItem",
			`{"TableName":"abc","Key":{"a":{}},"ProjectionExpression":"","ExpressionAttributeNames":{}}`, empty},
		{"get item, invalid values in Key", "GetItem",
			`{"TableName":"abc","Key":{"a":{"SS":[]}},"AttributesToGet":["a","a"]}`, "One or more parameter values were invalid: An string set  may not be empty"},
		// The writes envelope it (paritysuite/dynamodb-conformance,
		// tests/tier3/error-messages/putItem.test.ts and
		// deleteItem.test.ts, "request validation envelope", eu-west-2
		// and us-east-1, 2026-10-09, newer than dynalite's bare text).
		{"put item, ExpressionAttributeNames but no ConditionExpression", "PutItem",
			`{"TableName":"abc","Item":{"a":{}},"Expected":{"a":{}},"ExpressionAttributeNames":{},"ExpressionAttributeValues":{}}`, env + names},
		{"put item, unsupported datatype in Item", "PutItem",
			`{"TableName":"abc","Item":{"a":{}},"Expected":{"a":{}}}`, empty},
		// The value's own problem comes inside the envelope in the
		// writes (paritysuite's tests/tier3/error-messages/
		// valueLayers.test.ts, 2026-10-09, newer than dynalite's bare
		// text); its place among the others is dynalite's.
		{"put item, invalid values in Item", "PutItem",
			`{"TableName":"abc","Item":{"a":{"SS":[]}},"ExpressionAttributeNames":{},"ExpressionAttributeValues":{},"ConditionExpression":""}`,
			env + "One or more parameter values were invalid: An string set  may not be empty"},
		{"put item, item is too big with small attribute", "PutItem",
			`{"TableName":"aaa","Item":{"a":{"S":"k"},"b":{"S":"` + strings.Repeat("a", 400*1024) + `"}},"Expected":{"a":{}}}`,
			"Item size has exceeded the maximum allowed size"},
		{"update item, ExpressionAttributeNames but no ConditionExpression", "UpdateItem",
			`{"TableName":"abc","Key":{"a":{}},"Expected":{"a":{}},"ExpressionAttributeNames":{},"ExpressionAttributeValues":{}}`, env + names},
		{"update item, ExpressionAttributeValues but no ConditionExpression", "UpdateItem",
			`{"TableName":"abc","Key":{"a":{}},"Expected":{"a":{}},"ExpressionAttributeValues":{}}`, env + strings.TrimSuffix(values, ": ")},
		{"update item, unsupported datatype in Key", "UpdateItem",
			`{"TableName":"abc","Key":{"a":{}},"ConditionExpression":"","UpdateExpression":"","ExpressionAttributeNames":{},"ExpressionAttributeValues":{}}`, empty},
		{"update item, invalid values in Key", "UpdateItem",
			`{"TableName":"abc","Key":{"a":{"SS":[]}},"Expected":{"a":{}},"AttributeUpdates":{"a":{"x":"whatever"}}}`, env + "One or more parameter values were invalid: An string set  may not be empty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkRaw(t, s.Raw(t, tc.op, tc.body), 400, val, tc.msg)
		})
	}
}

// updateClauses is n SET clauses "a0 = :v, a1 = :v, ...".
func updateClauses(n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = fmt.Sprintf("a%d = :v", i)
	}
	return strings.Join(parts, ", ")
}
