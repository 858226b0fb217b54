package engine

import (
	"fmt"
	"github.com/dynago/dynago/dynamo"
	"strings"
)

// constraints collects violations of the API's declared member constraints
// (lengths, patterns, ranges, required members). DynamoDB reports all of
// them at once, before any semantic check, as
//
//	1 validation error detected: Value 'ab' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 3
//
// with several joined by "; " under "N validation errors detected", at
// most maxViolations of them, N counting only those listed (dynalite's
// test/createTable.js against DynamoDB, "should return ValidationException
// for 12": nine empty local indexes, 27 violations, answered "10
// validation errors detected" and ten listed).
type constraints []string

// maxViolations is how many violations DynamoDB lists at most.
const maxViolations = 10

func (c *constraints) add(format string, args ...any) {
	*c = append(*c, fmt.Sprintf(format, args...))
}

func (c constraints) err() error {
	if len(c) == 0 {
		return nil
	}
	if len(c) > maxViolations {
		c = c[:maxViolations]
	}
	word := "error"
	if len(c) > 1 {
		word = "errors"
	}
	return dynamo.Validation(fmt.Sprintf("%d validation %s detected: %s", len(c), word, strings.Join(c, "; ")))
}

// length checks a string member's length, in bytes as DynamoDB counts
// them for names, ARNs and ids.
func (c *constraints) length(field, v string, min, max int) {
	if len(v) < min {
		c.add(fmtConstraintMinLength, v, field, min)
	} else if len(v) > max {
		c.add(fmtConstraintMaxLength, v, field, max)
	}
}

// notNull reports a required member that is absent.
func (c *constraints) notNull(field string) { c.add(fmtConstraintNull, field) }

// minValue and maxValue check a number member's range.
func (c *constraints) minValue(field string, v, min int32) {
	if v < min {
		c.add(fmtConstraintMinValue, v, field, min)
	}
}

func (c *constraints) maxValue(field string, v, max int32) {
	if v > max {
		c.add(fmtConstraintMaxValue, v, field, max)
	}
}

// tableNameConstraints checks a TableName member named field ("tableName"
// in most operations). DynamoDB accepts a table's ARN wherever it accepts
// its name, so the limit is 1024 characters; a plain name is 3-255 of
// [a-zA-Z0-9_.-].
func (c *constraints) tableName(field, name string) {
	if name == "" {
		c.notNull(field)
		return
	}
	if strings.HasPrefix(name, "arn:") {
		c.length(field, name, 0, 1024)
		return
	}
	c.length(field, name, 3, 255)
	if !validTableChars(name) {
		c.add(fmtConstraintPattern, name, field, "[a-zA-Z0-9_.-]+")
	}
}

// itemTableName checks the TableName of an item operation (PutItem,
// GetItem, UpdateItem, DeleteItem, Query, Scan). absent is the input's
// NoTableName: an absent or null name is "must not be null", while an
// empty one fails only the minimum length of 1 (msgItemTableNameEmpty).
func (c *constraints) itemTableName(name string, absent bool) {
	switch {
	case absent:
		c.notNull("tableName")
	case name == "":
		c.add(msgItemTableNameEmpty)
	default:
		c.tableName("tableName", name)
	}
}

// tableOpName checks the TableName of DescribeTable, DeleteTable,
// UpdateTable, DescribeTimeToLive and UpdateTimeToLive, whose absent one
// is answered MsgTableNameRequired before this: an empty name fails both
// the minimum length of 3 and the pattern (msgTableOpNameEmpty).
func (c *constraints) tableOpName(name string) {
	if name == "" {
		*c = append(*c, msgTableOpNameEmpty...)
		return
	}
	c.tableName("tableName", name)
}

func validTableChars(s string) bool {
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch >= 'a' && ch <= 'z', ch >= 'A' && ch <= 'Z', ch >= '0' && ch <= '9', ch == '_', ch == '.', ch == '-':
		default:
			return false
		}
	}
	return true
}

// enum checks an optional enumerated member.
func (c *constraints) enum(field, value string, allowed ...string) {
	if value == "" {
		return
	}
	for _, a := range allowed {
		if value == a {
			return
		}
	}
	c.add("Value '%s' at '%s' failed to satisfy constraint: Member must satisfy enum value set: [%s]", value, field, strings.Join(allowed, ", "))
}

// clientRequestToken checks a transaction's ClientRequestToken, when the
// request has one: 1 to 36 characters (TransactWriteItems and
// ExecuteTransaction alike).
func (c *constraints) clientRequestToken(token string, set bool) {
	if !set {
		return
	}
	switch n := len(token); {
	case n < 1:
		c.add(msgClientTokenEmpty)
	case n > maxClientTokenLength:
		c.add(fmtClientTokenTooLong, token)
	}
}

// returnConsumedCapacity checks the common ReturnConsumedCapacity member.
func (c *constraints) returnConsumedCapacity(v string) {
	c.enum("returnConsumedCapacity", v, dynamo.ReturnConsumedCapacityIndexes, dynamo.ReturnConsumedCapacityTotal, dynamo.ReturnConsumedCapacityNone)
}

// returnItemCollectionMetrics checks the common ReturnItemCollectionMetrics member.
func (c *constraints) returnItemCollectionMetrics(v string) {
	c.enum("returnItemCollectionMetrics", v, dynamo.ReturnItemCollectionMetricsSize, dynamo.ReturnItemCollectionMetricsNone)
}

// tableARN is a TableName given as an ARN,
// arn:PARTITION:dynamodb:REGION:ACCOUNT:table/NAME.
type tableARN struct {
	region, account, name string
}

// parseTableARN parses a TableName that starts with "arn:". ok is false
// for anything but a table's own ARN: a malformed ARN, another service's,
// or one naming a part of a table (".../table/T/index/I",
// ".../table/T/stream/LABEL").
func parseTableARN(s string) (a tableARN, ok bool) {
	f := strings.SplitN(s, ":", 6)
	if len(f) != 6 || f[0] != "arn" || f[1] == "" || f[2] != "dynamodb" || f[3] == "" || f[4] == "" {
		return a, false
	}
	name, found := strings.CutPrefix(f[5], "table/")
	if !found || len(name) < 3 || len(name) > 255 || !validTableChars(name) {
		return a, false
	}
	return tableARN{region: f[3], account: f[4], name: name}, true
}

// invalidTableARN is the error for a TableName that starts with "arn:"
// but is not a table's ARN. DynamoDB refuses an index ARN, a stream ARN
// and a malformed ARN in TableName with a ValidationException (ExtendDB
// pull request 200, which recorded Amazon DynamoDB's answers through the
// AWS CLI); its message for TableName is not recorded, so it has the
// words DynamoDB uses for the same mistake in a ResourceArn ("Invalid
// TableArn: Invalid ResourceArn provided as input
// arn:aws:dynamodb:us-east-1:797456418907:table/T/index/gsi", ScyllaDB's
// Alternator tests against DynamoDB).
func invalidTableARN(s string) error {
	return dynamo.Validation(msgInvalidTableArn(s))
}

// badTableARN reports whether name is an ARN but not a table's.
func badTableARN(name string) bool {
	if !strings.HasPrefix(name, "arn:") {
		return false
	}
	_, ok := parseTableARN(name)
	return !ok
}

// tableNameFromARN returns the table name an ARN or plain name refers to.
func tableNameFromARN(s string) string {
	if !strings.HasPrefix(s, "arn:") {
		return s
	}
	if i := strings.Index(s, ":table/"); i >= 0 {
		rest := s[i+len(":table/"):]
		if j := strings.IndexByte(rest, '/'); j >= 0 {
			rest = rest[:j]
		}
		return rest
	}
	return s
}

// enumOrEmpty is enum for a member the request may have sent as "", which
// DynamoDB refuses as outside the enum rather than reading it as absent
// (the ack-api-quirks catalogue, 2026-10-09: a BillingMode of "").
func (c *constraints) enumOrEmpty(field, value string, empty bool, allowed ...string) {
	if empty {
		c.add("Value '' at '%s' failed to satisfy constraint: Member must satisfy enum value set: [%s]", field, strings.Join(allowed, ", "))
		return
	}
	c.enum(field, value, allowed...)
}

// sseKeyID checks an SSESpecification's KMSMasterKeyId sent as "": its
// minimum length is 1 (the ack-api-quirks catalogue, 2026-10-09,
// ct_ and ut_sse_kms_key_empty).
func (c *constraints) sseKeyID(s *dynamo.SSESpecification) {
	if s != nil && s.KeyIDEmpty {
		c.add("Value '' at 'sSESpecification.kMSMasterKeyId' failed to satisfy constraint: Member must have length greater than or equal to 1")
	}
}
