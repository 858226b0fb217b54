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
