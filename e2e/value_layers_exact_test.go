package e2e

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TestValueLayersExact: DynamoDB checks a value's own problems (a bad
// number, a set with a repeated member) in one of two layers, and the
// operation decides which. The current layer (PutItem, UpdateItem and
// DeleteItem inside the "1 validation error detected: " envelope; GetItem,
// BatchGetItem and Query bare) never wraps an expression value's problem,
// keeps ": " after the number text even when that text is empty, and
// quotes a set's members; the older layer (BatchWriteItem, the
// transactions, Scan) answers as dynalite recorded.
// paritysuite/dynamodb-conformance, tests/tier3/error-messages/
// valueLayers.test.ts (eu-west-2, us-east-1, eu-west-1 and us-west-2,
// 2026-10-09); each case names its test there. The transactions answer in
// the older layer in us-east-1 (eu-west-2 in the current one), pinned
// here as us-east-1.
func TestValueLayersExact(t *testing.T) {
	s, c := start(t)
	createHash(t, c, "vlx", types.ScalarAttributeTypeS)
	const (
		val        = nsValidation + "ValidationException"
		one        = "1 validation error detected: "
		overflow   = "Number overflow. Attempting to store a number with magnitude larger than supported range"
		underflow  = "Number underflow. Attempting to store a number with magnitude smaller than supported range"
		notNumeric = "The parameter cannot be converted to a numeric value"
		invalid    = "One or more parameter values were invalid: "
	)
	wrap := func(m, k string) string {
		return "ExpressionAttributeValues contains invalid value: " + m + " for key " + k
	}
	envelope := func(ms []string) []string {
		out := make([]string, len(ms))
		for i, m := range ms {
			out[i] = one + m
		}
		return out
	}

	// Numbers: four shapes, and each layer's answers to them.
	shapes := []string{"abc", "", "1e126"}
	current := []string{notNumeric + ": abc", notNumeric + ": ", overflow}
	older := []string{notNumeric + ": abc", notNumeric, overflow}
	n := func(v string) string { return `{"N":"` + v + `"}` }
	for _, tc := range []struct {
		name, op string
		body     func(v string) string
		want     []string
	}{
		// "PutItem refuses a malformed number set member and a nested
		// number inside the envelope".
		{"put item", "PutItem", func(v string) string { return `{"TableName":"vlx","Item":{"pk":{"S":"vl-n"},"n":` + n(v) + `}}` }, envelope(current)},
		{"put set member", "PutItem", func(v string) string {
			return `{"TableName":"vlx","Item":{"pk":{"S":"vl-n"},"n":{"NS":["1","` + v + `"]}}}`
		}, envelope(current)},
		{"put nested", "PutItem", func(v string) string {
			return `{"TableName":"vlx","Item":{"pk":{"S":"vl-n"},"n":{"M":{"x":{"L":[` + n(v) + `]}}}}}`
		}, envelope(current)},
		// "PutItem refuses a malformed number in a condition value inside
		// the envelope" and "PutItem checks the numbers in Expected values".
		{"put condition value", "PutItem", func(v string) string {
			return `{"TableName":"vlx","Item":{"pk":{"S":"vl-n"}},"ConditionExpression":"attribute_not_exists(pk) OR n = :v","ExpressionAttributeValues":{":v":` + n(v) + `}}`
		}, envelope(current)},
		{"put Expected value", "PutItem", func(v string) string {
			return `{"TableName":"vlx","Item":{"pk":{"S":"vl-n-expected"}},"Expected":{"n":{"Value":` + n(v) + `}}}`
		}, envelope(current)},
		// "UpdateItem refuses a malformed number in a value, in
		// AttributeUpdates and in the key inside the envelope".
		{"update value", "UpdateItem", func(v string) string {
			return `{"TableName":"vlx","Key":{"pk":{"S":"vl-n"}},"UpdateExpression":"SET n = :v","ExpressionAttributeValues":{":v":` + n(v) + `}}`
		}, envelope(current)},
		{"update AttributeUpdates", "UpdateItem", func(v string) string {
			return `{"TableName":"vlx","Key":{"pk":{"S":"vl-n"}},"AttributeUpdates":{"n":{"Action":"PUT","Value":` + n(v) + `}}}`
		}, envelope(current)},
		{"update key", "UpdateItem", func(v string) string {
			return `{"TableName":"vlx","Key":{"pk":` + n(v) + `},"UpdateExpression":"SET n = :o","ExpressionAttributeValues":{":o":{"N":"1"}}}`
		}, envelope(current)},
		// "DeleteItem refuses a malformed number in a condition value and
		// in the key inside the envelope, with no wrapper".
		{"delete condition value", "DeleteItem", func(v string) string {
			return `{"TableName":"vlx","Key":{"pk":{"S":"vl-n"}},"ConditionExpression":"n = :v","ExpressionAttributeValues":{":v":` + n(v) + `}}`
		}, envelope(current)},
		{"delete key", "DeleteItem", func(v string) string { return `{"TableName":"vlx","Key":{"pk":` + n(v) + `}}` }, envelope(current)},
		// "GetItem, BatchGetItem and Query refuse a malformed number bare,
		// in the current wording".
		{"get key", "GetItem", func(v string) string { return `{"TableName":"vlx","Key":{"pk":` + n(v) + `}}` }, current},
		{"batch get key", "BatchGetItem", func(v string) string { return `{"RequestItems":{"vlx":{"Keys":[{"pk":` + n(v) + `}]}}}` }, current},
		{"query filter value", "Query", func(v string) string {
			return `{"TableName":"vlx","KeyConditionExpression":"pk = :p","FilterExpression":"n = :v","ExpressionAttributeValues":{":p":{"S":"vl-n"},":v":` + n(v) + `}}`
		}, current},
		// "BatchWriteItem refuses a malformed number bare, in the older
		// wording" (its 1e2147483647, an underflow there, is pinned with
		// the transactions' in numberexp_exponent_test.go).
		{"batch write item", "BatchWriteItem", func(v string) string {
			return `{"RequestItems":{"vlx":[{"PutRequest":{"Item":{"pk":{"S":"vl-n"},"n":` + n(v) + `}}}]}}`
		}, older},
		// "TransactWriteItems refuses a malformed number in a Put item up
		// front", "... in an Update value up front", "TransactGetItems
		// refuses a malformed number in a key up front": us-east-1's
		// older layer.
		{"transact put item", "TransactWriteItems", func(v string) string {
			return `{"TransactItems":[{"Put":{"TableName":"vlx","Item":{"pk":{"S":"vl-n"},"n":` + n(v) + `}}}]}`
		}, older},
		{"transact update value", "TransactWriteItems", func(v string) string {
			return `{"TransactItems":[{"Update":{"TableName":"vlx","Key":{"pk":{"S":"vl-n"}},"UpdateExpression":"SET n = :v","ExpressionAttributeValues":{":v":` + n(v) + `}}}]}`
		}, []string{wrap(older[0], ":v"), wrap(older[1], ":v"), wrap(older[2], ":v")}},
		{"transact get key", "TransactGetItems", func(v string) string {
			return `{"TransactItems":[{"Get":{"TableName":"vlx","Key":{"pk":` + n(v) + `}}}]}`
		}, older},
	} {
		for i, sh := range shapes {
			t.Run("number "+tc.name+" "+sh, func(t *testing.T) {
				checkRaw(t, s.Raw(t, tc.op, tc.body(sh)), 400, val, tc.want[i])
			})
		}
	}
	// "PutItem refuses every malformed number in an item inside the
	// validation envelope".
	for _, tc := range []struct{ n, msg string }{
		{"1e99999999999", overflow}, {"-1e99999999999", overflow}, {"1e-99999999999", underflow},
		{"1e2147483648", overflow}, {"1e2147483647", overflow}, {"1e-2147483648", underflow},
		{"1e126", overflow}, {"1e-131", underflow},
		{"abc", notNumeric + ": abc"}, {"1.2.3", notNumeric + ": 1.2.3"}, {"", notNumeric + ": "},
		{" 1", notNumeric + ":  1"}, {"1 ", notNumeric + ": 1 "}, {"0x10", notNumeric + ": 0x10"},
		{"1e", notNumeric + ": 1e"}, {"NaN", notNumeric + ": NaN"}, {"Infinity", notNumeric + ": Infinity"},
		{"1234567890123456789012345678901234567890", "Attempting to store more than 38 significant digits in a Number"},
	} {
		t.Run("number put item "+tc.n, func(t *testing.T) {
			checkRaw(t, s.Raw(t, "PutItem", `{"TableName":"vlx","Item":{"pk":{"S":"vl-n"},"n":`+n(tc.n)+`}}`), 400, val, one+tc.msg)
		})
	}

	// Duplicate set members: SS b, a, b; BS /w==, AA==, AA==; NS 2, 1, 2.
	// The current layer lists the members before the first repeat in
	// byte order, then the repeat, then the rest as sent.
	sets := []string{`{"SS":["b","a","b"]}`, `{"BS":["/w==","AA==","AA=="]}`, `{"NS":["2","1","2"]}`}
	dupCurrent := []string{
		invalid + `Input collection ["a", "b", "b"] contains duplicates.`,
		invalid + `Input collection ["AA==","/w==","AA=="]of type BS contains duplicates.`,
		invalid + "Input collection contains duplicates.",
	}
	dupOlder := []string{
		invalid + "Input collection [b, a, b] contains duplicates.",
		invalid + "Input collection [/w==, AA==, AA==]of type BS contains duplicates.",
		"Input collection contains duplicates",
	}
	for _, tc := range []struct {
		name, op string
		body     func(d string) string
		want     []string
	}{
		// "PutItem refuses a duplicate in an item, a condition value and
		// an Expected value inside the envelope".
		{"put item", "PutItem", func(d string) string { return `{"TableName":"vlx","Item":{"pk":{"S":"vl-d"},"s":` + d + `}}` }, envelope(dupCurrent)},
		{"put condition value", "PutItem", func(d string) string {
			return `{"TableName":"vlx","Item":{"pk":{"S":"vl-d"}},"ConditionExpression":"attribute_not_exists(pk) OR s = :t","ExpressionAttributeValues":{":t":` + d + `}}`
		}, envelope(dupCurrent)},
		{"put Expected value", "PutItem", func(d string) string {
			return `{"TableName":"vlx","Item":{"pk":{"S":"vl-d"}},"Expected":{"s":{"Value":` + d + `}}}`
		}, envelope(dupCurrent)},
		// "UpdateItem refuses a duplicate in a condition value,
		// AttributeUpdates and the key inside the envelope".
		{"update condition value", "UpdateItem", func(d string) string {
			return `{"TableName":"vlx","Key":{"pk":{"S":"vl-d"}},"UpdateExpression":"SET o = :o","ConditionExpression":"attribute_not_exists(pk) OR s = :t","ExpressionAttributeValues":{":o":{"N":"1"},":t":` + d + `}}`
		}, envelope(dupCurrent)},
		{"update AttributeUpdates", "UpdateItem", func(d string) string {
			return `{"TableName":"vlx","Key":{"pk":{"S":"vl-d"}},"AttributeUpdates":{"s":{"Action":"PUT","Value":` + d + `}}}`
		}, envelope(dupCurrent)},
		{"update key", "UpdateItem", func(d string) string {
			return `{"TableName":"vlx","Key":{"pk":` + d + `},"UpdateExpression":"SET o = :o","ExpressionAttributeValues":{":o":{"N":"1"}}}`
		}, envelope(dupCurrent)},
		// "DeleteItem refuses a duplicate in the key inside the envelope".
		{"delete key", "DeleteItem", func(d string) string { return `{"TableName":"vlx","Key":{"pk":` + d + `}}` }, envelope(dupCurrent)},
		// "GetItem and BatchGetItem refuse a duplicate in the key bare, in
		// the current wording".
		{"get key", "GetItem", func(d string) string { return `{"TableName":"vlx","Key":{"pk":` + d + `}}` }, dupCurrent},
		{"batch get key", "BatchGetItem", func(d string) string { return `{"RequestItems":{"vlx":{"Keys":[{"pk":` + d + `}]}}}` }, dupCurrent},
		// "Query refuses a duplicate in a key value, a filter value,
		// ExclusiveStartKey and QueryFilter bare, with no wrapper".
		{"query key value", "Query", func(d string) string {
			return `{"TableName":"vlx","KeyConditionExpression":"pk = :t","ExpressionAttributeValues":{":t":` + d + `}}`
		}, dupCurrent},
		{"query filter value", "Query", func(d string) string {
			return `{"TableName":"vlx","KeyConditionExpression":"pk = :p","FilterExpression":"s = :t","ExpressionAttributeValues":{":p":{"S":"vl-d"},":t":` + d + `}}`
		}, dupCurrent},
		{"query start key", "Query", func(d string) string {
			return `{"TableName":"vlx","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"vl-d"}},"ExclusiveStartKey":{"pk":` + d + `}}`
		}, dupCurrent},
		{"query QueryFilter", "Query", func(d string) string {
			return `{"TableName":"vlx","KeyConditions":{"pk":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"vl-d"}]}},"QueryFilter":{"s":{"ComparisonOperator":"EQ","AttributeValueList":[` + d + `]}}}`
		}, dupCurrent},
		// "BatchWriteItem refuses a duplicate in an item and a delete key
		// bare, in the older wording".
		{"batch write item", "BatchWriteItem", func(d string) string {
			return `{"RequestItems":{"vlx":[{"PutRequest":{"Item":{"pk":{"S":"vl-d"},"s":` + d + `}}}]}}`
		}, dupOlder},
		{"batch write delete key", "BatchWriteItem", func(d string) string {
			return `{"RequestItems":{"vlx":[{"DeleteRequest":{"Key":{"pk":` + d + `}}}]}}`
		}, dupOlder},
		// "TransactWriteItems refuses a duplicate in a Put item and a
		// Delete key up front", "... in a condition or update value of
		// every action type up front", "TransactGetItems refuses a
		// duplicate in a key up front": us-east-1's older layer.
		{"transact put item", "TransactWriteItems", func(d string) string {
			return `{"TransactItems":[{"Put":{"TableName":"vlx","Item":{"pk":{"S":"vl-d"},"s":` + d + `}}}]}`
		}, dupOlder},
		{"transact delete key", "TransactWriteItems", func(d string) string {
			return `{"TransactItems":[{"Delete":{"TableName":"vlx","Key":{"pk":` + d + `}}}]}`
		}, dupOlder},
		{"transact condition check value", "TransactWriteItems", func(d string) string {
			return `{"TransactItems":[{"ConditionCheck":{"TableName":"vlx","Key":{"pk":{"S":"vl-d"}},"ConditionExpression":"attribute_not_exists(pk) OR s = :t","ExpressionAttributeValues":{":t":` + d + `}}}]}`
		}, []string{wrap(dupOlder[0], ":t"), wrap(dupOlder[1], ":t"), wrap(dupOlder[2], ":t")}},
		{"transact get key", "TransactGetItems", func(d string) string {
			return `{"TransactItems":[{"Get":{"TableName":"vlx","Key":{"pk":` + d + `}}}]}`
		}, dupOlder},
	} {
		for i, d := range sets {
			t.Run("duplicates "+tc.name+" "+strings.SplitN(d, `"`, 3)[1], func(t *testing.T) {
				checkRaw(t, s.Raw(t, tc.op, tc.body(d)), 400, val, tc.want[i])
			})
		}
	}
}
