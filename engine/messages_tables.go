package engine

import (
	"fmt"
	"strings"
)

// The texts of the errors of the table operations (CreateTable,
// UpdateTable, DeleteTable, the tag operations) and of the item-level
// problems of TransactWriteItems and TransactGetItems. As in messages.go,
// each says where it comes from; "no recording" marks a text chosen
// without a recorded answer of DynamoDB.
//
// "The ack-api-quirks catalogue" below is the DynamoDB lab of the
// ack-api-quirks project: findings captured live against DynamoDB in
// us-east-1 and us-west-2 and dated 2026-10-08/09, among them a
// catalogue of ValidationException texts (DDB-TABLE-442) and the tag
// findings DDB-TABLE-070, -071, -105 to -108 and -372.

// Transactions.

// msgTxUpdateIndexKeyEmpty is the top-level ValidationException of a
// transactional Update that would give a secondary index key an empty
// string or binary value (kind is "string" or "binary"). The paritysuite
// DynamoDB conformance suite, tests/tier3/error-messages/
// transactIndexKeys.test.ts, captured against eu-west-2.
func msgTxUpdateIndexKeyEmpty(kind string) string {
	return "One or more parameter values are not valid. The update expression attempted to update a secondary index key to a value that is not supported. The AttributeValue for a key attribute cannot contain an empty " + kind + " value."
}

// msgTxEmptyKey is the top-level ValidationException of an empty string
// or binary value (kind "string" or "binary") of key attribute name, in a
// Put's item and in the Key of an Update, Delete or ConditionCheck alike:
// PutItem's wording, "are not valid", where GetItem says "were invalid".
// The paritysuite conformance suite, tests/tier3/error-messages/
// transactWriteItems.test.ts, the same in four regions (2026-06-23).
// TransactGetItems' Key: no recording; chose the same.
func msgTxEmptyKey(kind, name string) string {
	return msgEmptyKeyItem + "The AttributeValue for a key attribute cannot contain an empty " + kind + " value. Key: " + name
}

// UpdateTable.

// msgUpdateTableNothing answers an UpdateTable with no updatable member
// (an empty GlobalSecondaryIndexUpdates counts as absent). The
// ack-api-quirks catalogue (DDB-TABLE-015 and -442, both regions, the
// same text). DynamoDB names the members it would have accepted; dynago
// names them all.
const msgUpdateTableNothing = "At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, GlobalSecondaryIndexUpdates, SSESpecification, ReplicaUpdates, MultiAccountReplicaReady, ReplicaTransitRoleArn, MultiRegionConsistency, DeletionProtectionEnabled, OnDemandThroughput, WarmThroughput or TableClass is required"

// msgThroughputUnchanged answers an UpdateTable whose ProvisionedThroughput
// equals the table's, with or without BillingMode PROVISIONED. Dynalite's
// updateTable test against DynamoDB and the ack-api-quirks catalogue
// (DDB-TABLE-442, -164), which agree to the letter.
func msgThroughputUnchanged(curRead, read, curWrite, write int64) string {
	return fmt.Sprintf("The provisioned throughput for the table will not change. The requested value equals the current value. Current ReadCapacityUnits provisioned for the table: %d. Requested ReadCapacityUnits: %d. Current WriteCapacityUnits provisioned for the table: %d. Requested WriteCapacityUnits: %d. Refer to the Amazon DynamoDB Developer Guide for current limits and how to request higher limits.",
		curRead, read, curWrite, write)
}

// msgStreamAlreadyEnabled and msgNoStreamToDisable answer a
// StreamSpecification that would not change the stream. The
// ack-api-quirks catalogue (DDB-TABLE-442); the second was also answered
// live in both regions on 2026-10-09 ("Table has no stream to disable:
// TableName: ackq-e3283a-emr-e1").
func msgStreamAlreadyEnabled(table string) string {
	return "Table already has an enabled stream: TableName: " + table
}

func msgNoStreamToDisable(table string) string {
	return "Table has no stream to disable: TableName: " + table
}

// CreateTable.

// msgAttributeNameDuplicated answers AttributeDefinitions naming an
// attribute twice, whatever the types. The ack-api-quirks catalogue
// (DDB-TABLE-127 and -442: "Attribute Name is duplicated: pk").
func msgAttributeNameDuplicated(name string) string {
	return "Attribute Name is duplicated: " + name
}

// msgAttributeDefinitionsUnused answers a CreateTable with secondary
// indexes whose AttributeDefinitions name an attribute no key schema uses
// (without indexes the text is "Number of attributes in KeySchema does not
// exactly match ..."). The ack-api-quirks catalogue (DDB-TABLE-127:
// "Some AttributeDefinitions are not used. AttributeDefinitions: [sk, a,
// b, pk, c], keys used: [a, sk, pk]"). defs is in request order; used in
// the order of the Java hash set DynamoDB prints (javaHashSetOrder), which
// reproduces the recorded "[a, sk, pk]".
func msgAttributeDefinitionsUnused(defs, used []string) string {
	return "One or more parameter values were invalid: Some AttributeDefinitions are not used. AttributeDefinitions: [" +
		strings.Join(defs, ", ") + "], keys used: [" + strings.Join(used, ", ") + "]"
}

// Tags. Every tag rule is a ValidationException with these texts, for
// TagResource, UntagResource and CreateTable's Tags alike: the
// ack-api-quirks findings DDB-TABLE-105 to -108 and -372 (2026-10-08/09),
// which replace the member-constraint wording and the
// LimitExceededException for the 50-tag limit.

// msgTagKeyInvalid answers a tag key that is empty, longer than 128
// characters or has a character outside letters, digits, white space and
// + - = . _ : / @ ("Key: null" when the member is absent).
func msgTagKeyInvalid(key string) string {
	return "The Tag Key provided is invalid, Key: " + key
}

// msgTagValueInvalid answers a tag value longer than 256 characters or
// with a character outside the same set ("Value: null" when the member is
// absent).
func msgTagValueInvalid(value string) string {
	return "The Tag Value provided is invalid, Value: " + value
}

// MsgTagKeyNull and MsgTagValueNull are msgTagKeyInvalid and
// msgTagValueInvalid for a Tag without the member, which only the
// protocol decoder can tell from an empty one (DDB-TABLE-107 and -457:
// "The Tag Value provided is invalid, Value: null" for a key-only tag,
// "The Tag Key provided is invalid, Key: null" for {} or a value-only
// one).
var (
	MsgTagKeyNull   = msgTagKeyInvalid("null")
	MsgTagValueNull = msgTagValueInvalid("null")
)

// msgTagKeyAWSPrefix answers a key beginning with "aws:" in any case, in
// TagResource and UntagResource (DDB-TABLE-105: "Tag Key cannot be
// prefixed with aws:, Key: AWS:foo").
func msgTagKeyAWSPrefix(key string) string {
	return "Tag Key cannot be prefixed with aws:, Key: " + key
}

// msgTagKeyDuplicate answers one request naming a tag key twice
// (DDB-TABLE-107).
func msgTagKeyDuplicate(key string) string {
	return "Duplicate Tag Keys provided as input: Duplicate Tag Key found " + key
}

// Texts of the tag operations that take no argument (DDB-TABLE-107, -108):
// more than 50 tags after the merge (also more than 50 keys in one
// UntagResource, and more than 50 tags in CreateTable), and empty lists.
const (
	msgTooManyTags   = "Number of Tags exceed the current limit for the provided ResourceArn"
	msgNoTags        = "Atleast one Tag needs to be provided as Input."
	msgNoTagKeys     = "Atleast one Tag Key needs to be provided as Input."
	msgArnNotAllowed = "Access is denied"
)

// The answers to a ResourceArn that names no table of this account and
// region. The ack-api-quirks catalogue and DDB-TABLE-071: a string not
// starting with "arn:" (a bare table name included); an ARN of another
// kind of resource (recorded for a backup ARN, DDB-BACKUP-013); an
// index's ARN (also ScyllaDB Alternator's test_tag.py, whose newest
// recording, of January 2026, has this text); another region's ARN
// (ValidationException with the older text); another account's
// (AccessDeniedException, msgArnNotAllowed); and a well-formed ARN of a
// table that does not exist (ResourceNotFoundException, DDB-TABLE-070,
// which spells "ResourceArn" where older answers said "ResourcArn").
func msgArnNoPrefix(arn string) string {
	return "One or more parameter values were invalid: ARNs must start with 'arn:': " + arn
}

func msgArnNotDynamoDB(arn string) string {
	return "One or more parameter values were invalid: Provided Arn is not a DynamoDB resource arn: " + arn
}

func msgArnNotTableOrStream(arn string) string {
	return "One or more parameter values were invalid: Invalid resource arn provided, only table or stream is accepted. Provided resource arn: " + arn
}

func msgArnOtherRegion(arn string) string {
	return "Invalid TableArn: Invalid ResourceArn provided as input " + arn
}

func msgArnNotFound(arn string) string {
	return "Requested resource not found: ResourceArn: " + arn + " not found"
}
