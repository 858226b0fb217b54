package dynamo

// The texts of DynamoDB's errors that more than one layer gives: the
// protocol decoder finds some problems before the engine sees the request
// and must word them as the engine does.

// msgTagKeyInvalid answers a tag key that is empty, longer than 128
// characters or has a character outside letters, digits, white space and
// + - = . _ : / @ ("Key: null" when the member is absent).
func MsgTagKeyInvalid(key string) string {
	return "The Tag Key provided is invalid, Key: " + key
}

// msgTagValueInvalid answers a tag value longer than 256 characters or
// with a character outside the same set ("Value: null" when the member is
// absent).
func MsgTagValueInvalid(value string) string {
	return "The Tag Value provided is invalid, Value: " + value
}

// MsgTagKeyNull and MsgTagValueNull are msgTagKeyInvalid and
// msgTagValueInvalid for a Tag without the member, which only the
// protocol decoder can tell from an empty one (DDB-TABLE-107 and -457:
// "The Tag Value provided is invalid, Value: null" for a key-only tag,
// "The Tag Key provided is invalid, Key: null" for {} or a value-only
// one).
var (
	MsgTagKeyNull   = MsgTagKeyInvalid("null")
	MsgTagValueNull = MsgTagValueInvalid("null")
)

// MsgTableNameRequired answers a table-management request (CreateTable,
// DeleteTable, DescribeTable, UpdateTable, DescribeTimeToLive,
// UpdateTimeToLive) that has no TableName, or a null one, before any
// member constraint: dynalite's tests against DynamoDB (test/createTable.js,
// deleteTable.js, describeTable.js, updateTable.js, describeTimeToLive.js,
// updateTimeToLive.js, "should return ValidationException for no
// TableName"), and applications' reports of DescribeTable (aws/aws-sdk-java
// issue 977, 2017) and UpdateTable (aws/aws-sdk-java pull 344, 2015). Item
// operations answer fmtConstraintNull instead (paritysuite's putItem
// error-messages test; Netflix-Skunkworks/iep-apps pull 527, GetItem, 2024).
const MsgTableNameRequired = "The parameter 'TableName' is required but was not present in the request"

// MsgStartKeyInvalidPrefix prefixes an empty or many-typed value in a
// Query's or Scan's ExclusiveStartKey, which the protocol decoder finds:
// "The provided starting key is invalid: Supplied AttributeValue is empty,
// must contain exactly one of the supported datatypes" (dynalite's query
// and scan tests against DynamoDB, "unsupported datatype in
// ExclusiveStartKey" and "multiple datatypes in ExclusiveStartKey").
const MsgStartKeyInvalidPrefix = MsgStartKeyInvalid + ": "

// msgInternalServerError is the text of every InternalServerError: a
// failure of dynago's own, which clients retry.
const MsgInternalServerError = "Internal server error"

// msgStartKeyInvalid answers an ExclusiveStartKey the engine refuses;
// the protocol decoder gives it too (MsgStartKeyInvalidPrefix).
const MsgStartKeyInvalid = "The provided starting key is invalid"

// MsgInvalidNextToken answers a NextToken no listing gave: an
// ExecuteStatement's (DynamoDB Local), ListExports' and ListImports'.
const MsgInvalidNextToken = "Invalid NextToken"

// MsgTableThroughputExceeded is a provisioned table's
// ProvisionedThroughputExceededException, as SDKs have shown it
// (source-cooperative/source.coop issue 12, 2024; quintilesims/layer0
// issue 229; mifi/dynamodump issue 20): enforced capacity gives it, and
// so does the fault plan.
const MsgTableThroughputExceeded = "The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API."

// MsgRequestLimitExceeded is RequestLimitExceeded's text in the
// developer guide's error list (Programming.Errors); no raw answer of
// DynamoDB's with it was found. Enforced capacity gives it past the
// account's quota, and so does the fault plan.
const MsgRequestLimitExceeded = "Throughput exceeds the current throughput limit for your account. To request a limit increase, contact AWS Support at https://aws.amazon.com/support."
