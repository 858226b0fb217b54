package e2e

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Sources cited below:
//   - alt-cond: ScyllaDB Alternator, test/alternator/test_condition_expression.py
//     (run against DynamoDB).
//   - alt-expected: Alternator, test/alternator/test_expected.py.
//   - dynalite: dynalite's validations and tests, run against DynamoDB.
//   - floci-2125: floci-io/floci pull request 2125 / issue 2126 (2026), a
//     matrix of legacy Expected answers recorded from DynamoDB.
//   - extenddb: ExtendDB's ConditionalOperator tests, dual-targeted at
//     DynamoDB (2026); DynamoDB Local's error codes carry the same texts.

const opTypeMsg = "Incorrect operand type for operator or function; operator or function: "

// TestComparisonOperandTypes: an ordering comparison whose constant has no
// order is a ValidationException in every condition parameter; the same
// type coming from the item is only false.
func TestComparisonOperandTypes(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "cmp", types.ScalarAttributeTypeS)
	put(t, c, "cmp", item{"pk": S("k"), "n": N("1"), "l": L(N("1")), "m": M(item{"a": N("1")})})

	cases := []struct {
		name, cond string
		vals       item
		msg        string // "" is a ConditionalCheckFailedException
	}{
		// alt-cond test_update_condition_lt: a list constant is a
		// ValidationException on either side; text as recorded from
		// DynamoDB ("operator or function: <=, operand type: M").
		{"lt list", "n < :v", item{":v": L(N("1"))}, opTypeMsg + "<, operand type: L"},
		{"lt list left", ":v < n", item{":v": L(N("1"))}, opTypeMsg + "<, operand type: L"},
		{"le map", "n <= :v", item{":v": M(item{"a": N("1")})}, opTypeMsg + "<=, operand type: M"},
		// alt-cond test_update_condition_gt / _ge: the same for > and >=;
		// sets, booleans and nulls have no order either (no recording of
		// those types' texts found; chose the same form).
		{"gt set", "n > :v", item{":v": SS("a")}, opTypeMsg + ">, operand type: SS"},
		{"ge bool", "n >= :v", item{":v": BOOL(true)}, opTypeMsg + ">=, operand type: BOOL"},
		{"ge null", "n >= :v", item{":v": NULL()}, opTypeMsg + ">=, operand type: NULL"},
		// alt-cond test_update_condition_between: list bounds are a
		// ValidationException.
		{"between lists", "n BETWEEN :a AND :b", item{":a": L(N("1")), ":b": L(N("2"))}, opTypeMsg + "BETWEEN, operand type: L"},
		// alt-cond: the unordered type from the item only makes it false.
		{"item list", "l < :v", item{":v": N("1")}, ""},
		{"item map between", "m BETWEEN :a AND :b", item{":a": N("1"), ":b": N("2")}, ""},
		// alt-cond test_update_condition_eq_different: = and <> take any type.
		{"eq list", "n = :v", item{":v": L(N("1"))}, ""},
		// dynalite: reversed bounds and bounds of different types.
		{"between reversed", "n BETWEEN :a AND :b", item{":a": N("2"), ":b": N("1")},
			"The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: AttributeValue: {N:2}, upper bound operand: AttributeValue: {N:1}"},
		{"between types", "n BETWEEN :a AND :b", item{":a": N("1"), ":b": S("a")},
			"The BETWEEN operator requires same data type for lower and upper bounds; lower bound operand: AttributeValue: {N:1}, upper bound operand: AttributeValue: {S:a}"},
		// alt-cond test_update_condition_in: IN's values may differ in type.
		{"in mixed", "n IN (:a, :b)", item{":a": S("dog"), ":b": N("7")}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("cmp"),
				Item: item{"pk": S("k"), "n": N("1"), "l": L(N("1")), "m": M(item{"a": N("1")})}, ConditionExpression: aws.String(tc.cond), ExpressionAttributeValues: tc.vals})
			if tc.msg == "" {
				wantCondFailed(t, err)
				return
			}
			// PutItem reports it inside the envelope, Query and Scan bare
			// (paritysuite/dynamodb-conformance,
			// captures/cross-region-latest.json: every ConditionExpression
			// problem probed in the single-item writes, eu-west-2 and
			// us-east-1, 2026-09-20).
			wantValidation(t, err, "1 validation error detected: Invalid ConditionExpression: "+tc.msg)

			// The same rule in FilterExpression, for Query and Scan.
			_, err = c.Scan(bg(), &dynamodb.ScanInput{TableName: aws.String("cmp"), FilterExpression: aws.String(tc.cond), ExpressionAttributeValues: tc.vals})
			wantValidation(t, err, "Invalid FilterExpression: "+tc.msg)
			vals := item{":pk": S("k")}
			for k, v := range tc.vals {
				vals[k] = v
			}
			_, err = c.Query(bg(), &dynamodb.QueryInput{TableName: aws.String("cmp"), KeyConditionExpression: aws.String("pk = :pk"),
				FilterExpression: aws.String(tc.cond), ExpressionAttributeValues: vals})
			wantValidation(t, err, "Invalid FilterExpression: "+tc.msg)
		})
	}
}

// TestKeyConditionOperandTypes: a sort-key comparison with an unordered
// constant is refused in a KeyConditionExpression too (alt-cond's rule
// applied to the key condition; no recording of the key-condition text
// found; chose the same form with its prefix).
func TestKeyConditionOperandTypes(t *testing.T) {
	_, c := start(t)
	createRange(t, c, "kcond", types.ScalarAttributeTypeN)
	_, err := c.Query(bg(), &dynamodb.QueryInput{TableName: aws.String("kcond"), KeyConditionExpression: aws.String("pk = :p AND sk < :v"),
		ExpressionAttributeValues: item{":p": S("a"), ":v": L(N("1"))}})
	wantValidation(t, err, "Invalid KeyConditionExpression: "+opTypeMsg+"<, operand type: L")
}

// TestLegacyConditionsExact pins the legacy Expected, QueryFilter and
// ScanFilter answers.
func TestLegacyConditionsExact(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "leg", types.ScalarAttributeTypeS)
	put(t, c, "leg", item{"pk": S("k"), "n": N("2"), "s": S("b")})
	eq := func(v types.AttributeValue) types.ExpectedAttributeValue {
		return types.ExpectedAttributeValue{ComparisonOperator: types.ComparisonOperatorEq, AttributeValueList: []types.AttributeValue{v}}
	}
	const inv = "One or more parameter values were invalid: "
	cases := []struct {
		name     string
		expected map[string]types.ExpectedAttributeValue
		op       types.ConditionalOperator
		msg      string // "" is success, "!" a failed condition
	}{
		// floci-2125: the Exists combinations carry "1 validation error
		// detected: " (dynalite's older tests did not).
		{"exists true no value", map[string]types.ExpectedAttributeValue{"n": {Exists: aws.Bool(true)}}, "",
			"1 validation error detected: " + inv + "Value must be provided when Exists is true for Attribute: n"},
		{"exists false with value", map[string]types.ExpectedAttributeValue{"n": {Exists: aws.Bool(false), Value: N("2")}}, "",
			"1 validation error detected: " + inv + "Value cannot be used when Exists is false for Attribute: n"},
		{"exists with operator", map[string]types.ExpectedAttributeValue{"n": {Exists: aws.Bool(true), ComparisonOperator: types.ComparisonOperatorEq, AttributeValueList: []types.AttributeValue{N("2")}}}, "",
			"1 validation error detected: " + inv + "Exists and ComparisonOperator cannot be used together for Attribute: n"},
		// floci-2125: Exists true with a Value compares it; Value with a
		// ComparisonOperator is accepted.
		{"exists true value", map[string]types.ExpectedAttributeValue{"n": {Exists: aws.Bool(true), Value: N("2")}}, "", ""},
		{"exists true stale value", map[string]types.ExpectedAttributeValue{"n": {Exists: aws.Bool(true), Value: N("3")}}, "", "!"},
		{"value with operator", map[string]types.ExpectedAttributeValue{"n": {Value: N("2"), ComparisonOperator: types.ComparisonOperatorEq}}, "", ""},
		// dynalite / alt-expected test_update_expected_1_*: argument
		// counts, inside the envelope as the newer paritysuite
		// tests/tier3/error-messages/deleteItem.test.ts ("every malformed
		// Expected condition", eu-west-2 and us-east-1, 2026-10-09)
		// records them in the single-item writes.
		{"eq two values", map[string]types.ExpectedAttributeValue{"n": {ComparisonOperator: types.ComparisonOperatorEq, AttributeValueList: []types.AttributeValue{N("2"), N("3")}}}, "",
			"1 validation error detected: " + inv + "Invalid number of argument(s) for the EQ ComparisonOperator"},
		{"null with value", map[string]types.ExpectedAttributeValue{"n": {ComparisonOperator: types.ComparisonOperatorNull, AttributeValueList: []types.AttributeValue{N("2")}}}, "",
			"1 validation error detected: " + inv + "Invalid number of argument(s) for the NULL ComparisonOperator"},
		{"between one", map[string]types.ExpectedAttributeValue{"n": {ComparisonOperator: types.ComparisonOperatorBetween, AttributeValueList: []types.AttributeValue{N("1")}}}, "",
			"1 validation error detected: " + inv + "Invalid number of argument(s) for the BETWEEN ComparisonOperator"},
		{"in empty", map[string]types.ExpectedAttributeValue{"n": {ComparisonOperator: types.ComparisonOperatorIn, AttributeValueList: []types.AttributeValue{}}}, "",
			"1 validation error detected: " + inv + "Invalid number of argument(s) for the IN ComparisonOperator"},
		// dynalite; alt-expected test_update_expected_1_in and _between:
		// mixed types and reversed bounds.
		{"in mixed", map[string]types.ExpectedAttributeValue{"n": {ComparisonOperator: types.ComparisonOperatorIn, AttributeValueList: []types.AttributeValue{N("3"), S("dog")}}}, "",
			inv + "AttributeValues inside AttributeValueList must be of same type"},
		{"between mixed", map[string]types.ExpectedAttributeValue{"n": {ComparisonOperator: types.ComparisonOperatorBetween, AttributeValueList: []types.AttributeValue{N("4"), S("dog")}}}, "",
			inv + "AttributeValues inside AttributeValueList must be of same type"},
		{"between reversed", map[string]types.ExpectedAttributeValue{"n": {ComparisonOperator: types.ComparisonOperatorBetween, AttributeValueList: []types.AttributeValue{N("4"), N("3")}}}, "",
			"The BETWEEN condition was provided a range where the lower bound is greater than the upper bound"},
		{"between sets", map[string]types.ExpectedAttributeValue{"n": {ComparisonOperator: types.ComparisonOperatorBetween, AttributeValueList: []types.AttributeValue{NS("1"), NS("2")}}}, "",
			inv + "ComparisonOperator BETWEEN is not valid for NS AttributeValue type"},
		// alt-expected test_update_expected_empty: an empty Expected is no
		// condition; with a ConditionalOperator it is refused (extenddb's
		// text); extenddb: one entry is not enough to combine.
		{"empty", map[string]types.ExpectedAttributeValue{}, "", ""},
		{"empty with operator", map[string]types.ExpectedAttributeValue{}, types.ConditionalOperatorOr,
			"ConditionalOperator cannot be used without Filter or Expected"},
		{"absent with operator", nil, types.ConditionalOperatorAnd,
			"ConditionalOperator cannot be used without Filter or Expected"},
		{"one with operator", map[string]types.ExpectedAttributeValue{"n": eq(N("2"))}, types.ConditionalOperatorAnd,
			"ConditionalOperator can only be used when Filter or Expected has two or more elements"},
		{"two with operator", map[string]types.ExpectedAttributeValue{"n": eq(N("2")), "s": eq(S("x"))}, types.ConditionalOperatorOr, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			check := func(op string, err error) {
				t.Helper()
				switch tc.msg {
				case "":
					if err != nil {
						t.Fatalf("%s: %v", op, err)
					}
				case "!":
					wantCondFailed(t, err)
				default:
					wantValidation(t, err, tc.msg)
				}
			}
			_, err := c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("leg"), Item: item{"pk": S("k"), "n": N("2"), "s": S("b")},
				Expected: tc.expected, ConditionalOperator: tc.op})
			check("PutItem", err)
			_, err = c.UpdateItem(bg(), &dynamodb.UpdateItemInput{TableName: aws.String("leg"), Key: item{"pk": S("k")},
				AttributeUpdates: map[string]types.AttributeValueUpdate{"z": {Action: types.AttributeActionPut, Value: N("1")}},
				Expected:         tc.expected, ConditionalOperator: tc.op})
			check("UpdateItem", err)
		})
	}
}

// TestLegacyFiltersExact: QueryFilter and ScanFilter counts, types and
// ConditionalOperator.
func TestLegacyFiltersExact(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "lfilt", types.ScalarAttributeTypeS)
	put(t, c, "lfilt", item{"pk": S("k"), "n": N("2")})
	cond := func(op types.ComparisonOperator, v ...types.AttributeValue) types.Condition {
		return types.Condition{ComparisonOperator: op, AttributeValueList: v}
	}
	const inv = "One or more parameter values were invalid: "
	cases := []struct {
		name   string
		filter map[string]types.Condition
		op     types.ConditionalOperator
		msg    string
	}{
		// dynalite's scan tests: counts and types.
		{"between three", map[string]types.Condition{"n": cond(types.ComparisonOperatorBetween, N("1"), N("2"), N("3"))}, "",
			inv + "Invalid number of argument(s) for the BETWEEN ComparisonOperator"},
		{"lt bool", map[string]types.Condition{"n": cond(types.ComparisonOperatorLt, BOOL(true))}, "",
			inv + "ComparisonOperator LT is not valid for BOOL AttributeValue type"},
		// dynalite: same type, then BETWEEN order.
		{"in mixed", map[string]types.Condition{"n": cond(types.ComparisonOperatorIn, N("1"), S("a"))}, "",
			inv + "AttributeValues inside AttributeValueList must be of same type"},
		{"between reversed", map[string]types.Condition{"n": cond(types.ComparisonOperatorBetween, S("b"), S("a"))}, "",
			"The BETWEEN condition was provided a range where the lower bound is greater than the upper bound"},
		// extenddb: ConditionalOperator needs two or more conditions.
		{"operator alone", nil, types.ConditionalOperatorAnd, "ConditionalOperator cannot be used without Filter or Expected"},
		{"operator empty", map[string]types.Condition{}, types.ConditionalOperatorOr, "ConditionalOperator cannot be used without Filter or Expected"},
		{"operator one", map[string]types.Condition{"n": cond(types.ComparisonOperatorNotNull)}, types.ConditionalOperatorAnd,
			"ConditionalOperator can only be used when Filter or Expected has two or more elements"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.Scan(bg(), &dynamodb.ScanInput{TableName: aws.String("lfilt"), ScanFilter: tc.filter, ConditionalOperator: tc.op})
			wantValidation(t, err, tc.msg)
			_, err = c.Query(bg(), &dynamodb.QueryInput{TableName: aws.String("lfilt"),
				KeyConditions: map[string]types.Condition{"pk": cond(types.ComparisonOperatorEq, S("k"))},
				QueryFilter:   tc.filter, ConditionalOperator: tc.op})
			wantValidation(t, err, tc.msg)
		})
	}
}
