package expr

// Texts of the legacy-condition and comparison checks, each with where it
// was recorded. The texts built elsewhere in this package are listed in
// errors.go.

const (
	// msgValidationPrefix opens the legacy Expected errors about Exists and
	// Value. A script run against DynamoDB in 2026 (floci-io/floci pull
	// request 2125 and issue 2126) recorded "1 validation error detected:
	// One or more parameter values were invalid: Value must be provided
	// when Exists is true for Attribute: ..." and the same prefix on "Value
	// cannot be used when Exists is false" and "Exists and
	// ComparisonOperator cannot be used together"; dynalite's older tests
	// lacked it. The thread reports "Value must be provided when Exists is
	// null" and AttributeValueList without a ComparisonOperator among the
	// same answers; their prefix is taken to be the same.
	msgValidationPrefix = "1 validation error detected: "

	msgExistsTrueNoValue   = msgValidationPrefix + invalidParams + "Value must be provided when Exists is true for Attribute: "
	msgExistsNullNoValue   = msgValidationPrefix + invalidParams + "Value must be provided when Exists is null for Attribute: "
	msgExistsFalseValue    = msgValidationPrefix + invalidParams + "Value cannot be used when Exists is false for Attribute: "
	msgExistsAndOperator   = msgValidationPrefix + invalidParams + "Exists and ComparisonOperator cannot be used together for Attribute: "
	msgListWithoutOperator = msgValidationPrefix + invalidParams + "AttributeValueList can only be used with a ComparisonOperator for Attribute: "

	// MsgLegacySameType refuses an AttributeValueList whose values differ in
	// type (IN, BETWEEN). dynalite's validations, run against DynamoDB;
	// ScyllaDB Alternator's test_expected.py (test_update_expected_1_in,
	// test_update_expected_1_between) records a ValidationException for
	// it.
	MsgLegacySameType = invalidParams + "AttributeValues inside AttributeValueList must be of same type"

	// MsgLegacyBetweenOrder refuses a legacy BETWEEN whose lower bound is
	// greater than its upper bound. dynalite's validations, run against
	// DynamoDB; Alternator's test_update_expected_1_between records the
	// ValidationException.
	MsgLegacyBetweenOrder = "The BETWEEN condition was provided a range where the lower bound is greater than the upper bound"

	// MsgConditionalOperatorAlone and MsgConditionalOperatorOne refuse a
	// ConditionalOperator with no legacy condition (Expected, QueryFilter,
	// ScanFilter absent or empty) or with just one. ExtendDB's
	// test_conditional_operator tests, run against DynamoDB (2026);
	// DynamoDB Local's error codes COND_OP_WITHOUT_FILTER_OR_EXPECTED and
	// COND_OP_WITH_ONE_ELEMENT have the same texts.
	MsgConditionalOperatorAlone = "ConditionalOperator cannot be used without Filter or Expected"
	MsgConditionalOperatorOne   = "ConditionalOperator can only be used when Filter or Expected has two or more elements"
)

// CheckConditionalOperator refuses a ConditionalOperator ("" is absent)
// that has fewer than two legacy conditions to combine (n: the entries of
// Expected, QueryFilter or ScanFilter).
func CheckConditionalOperator(op string, n int) error {
	switch {
	case op == "":
		return nil
	case n == 0:
		return newErr(MsgConditionalOperatorAlone)
	case n == 1:
		return newErr(MsgConditionalOperatorOne)
	}
	return nil
}

// Texts the engine gives too, for the same problems found before an
// expression is compiled; it refers to these (engine/messages.go).
const (
	// InvalidParams opens many of DynamoDB's parameter errors.
	InvalidParams = "One or more parameter values were invalid: "

	// Names and values sent without an expression that could use them,
	// or sent empty (dynalite's tests against DynamoDB).
	MsgNamesWithoutExpressions  = "ExpressionAttributeNames can only be specified when using expressions"
	MsgValuesWithoutExpressions = "ExpressionAttributeValues can only be specified when using expressions"
	MsgNamesEmpty               = "ExpressionAttributeNames must not be empty"
	MsgValuesEmpty              = "ExpressionAttributeValues must not be empty"

	// MsgInvalidValuePrefix opens the problem with one value of
	// ExpressionAttributeValues (MsgInvalidValue).
	MsgInvalidValuePrefix = "ExpressionAttributeValues contains invalid value: "

	// The legacy conditions' malformed entries (dynalite's tests
	// against DynamoDB).
	MsgLegacyArgumentCount  = InvalidParams + "Invalid number of argument(s) for the "
	MsgLegacyValueAndList   = InvalidParams + "Value and AttributeValueList cannot be used together"
	MsgLegacyOperatorNeedsV = InvalidParams + "Value or AttributeValueList must be used with ComparisonOperator: "

	// MsgDuplicateName opens the answer to a name listed twice in a
	// projection or AttributesToGet (dynalite's tests against DynamoDB).
	MsgDuplicateName = InvalidParams + "Duplicate value in attribute name: "

	// MsgNeedsPath opens the answer to a function given a value where it
	// takes a document path.
	MsgNeedsPath = "Operator or function requires a document path; operator or function: "
)

// MsgInvalidValue wraps the problem with the value of key in
// ExpressionAttributeValues as DynamoDB reports it: "ExpressionAttributeValues
// contains invalid value: <problem> for key :v1".
func MsgInvalidValue(inner, key string) string {
	return MsgInvalidValuePrefix + inner + " for key " + key
}
