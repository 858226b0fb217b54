package attr

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"slices"
	"strings"
)

// Error is a validation failure. Message is exactly the text DynamoDB puts in
// the ValidationException it returns for the same input, so the protocol
// layer can send it on verbatim.
//
// Where a message was captured from DynamoDB (rather than inferred), the test
// that pins it names its source.
type Error struct {
	Message string
	// Current is set on the problems of a value's own (a number, a set,
	// NULL, nesting) that the value checks find: the text of the same
	// problem in DynamoDB's current validation layer, which PutItem,
	// UpdateItem, DeleteItem, GetItem, BatchGetItem and Query run, where
	// Message is the older layer's, which BatchWriteItem, the transactions
	// and Scan still run (paritysuite/dynamodb-conformance,
	// tests/tier3/error-messages/valueLayers.test.ts, eu-west-2, us-east-1,
	// eu-west-1 and us-west-2, 2026-10-09). The two differ for a number
	// that is empty text (": " follows the current one) and for duplicate
	// set members (see setDuplicatesError); otherwise Current is Message.
	// The current layer also reports them with no
	// "ExpressionAttributeValues contains invalid value" wrapping, which
	// internal/expr keeps out of Current.
	Current string
	// Prefix is set on the problems internal/expr finds in an expression
	// a statement language built as a tree (expr.Tree): Message is then
	// worded bare, as a statement answers it, and Prefix is what the same
	// problem of a request's expression parameter starts with ("Invalid
	// UpdateExpression: "), for the operations that report their
	// expressions' problems in an envelope naming the parameter.
	Prefix string
}

func (e *Error) Error() string { return e.Message }

func newError(msg string) *Error { return &Error{Message: msg} }

// valueError marks err, a problem found in a value by the value checks,
// with its current layer's text (Error.Current).
func valueError(err *Error) *Error {
	if err == nil || err.Current != "" {
		return err
	}
	cur := err.Message
	if cur == MsgNumberSyntax {
		// Empty text: the current layer keeps the colon and a space.
		cur = MsgNumberSyntax + ": "
	}
	return &Error{Message: err.Message, Current: cur}
}

// DynamoDB's ValidationException messages for attribute values.
//
// Recent DynamoDB regions have started to wrap some of these in a
// "1 validation error detected: " envelope and to quote the members they
// list; the texts here are the unwrapped ones that most regions (and
// us-east-1) still return.
const (
	// MsgNumberPrecision: more than 38 significant digits.
	MsgNumberPrecision = "Attempting to store more than 38 significant digits in a Number"
	// MsgNumberOverflow: magnitude above 9.9999999999999999999999999999999999999E+125.
	MsgNumberOverflow = "Number overflow. Attempting to store a number with magnitude larger than supported range"
	// MsgNumberUnderflow: non-zero magnitude below 1E-130.
	MsgNumberUnderflow = "Number underflow. Attempting to store a number with magnitude smaller than supported range"
	// MsgNumberSyntax is the text for N (or NS) values that are not
	// numbers at all. DynamoDB appends ": " and the offending text when that
	// text is not empty (see numberSyntaxError).
	//
	// DynamoDB Local says "A value provided cannot be converted into a
	// number" instead; the service itself says this.
	MsgNumberSyntax = "The parameter cannot be converted to a numeric value"

	// MsgEmptyValue: a value with no type (TypeInvalid).
	MsgEmptyValue = "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes"
	// MsgMultipleTypes: a value with more than one type set, which the
	// protocol decoder finds (attr.Value holds one type).
	MsgMultipleTypes = "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes"
	// MsgNullNotTrue: {"NULL": false}.
	MsgNullNotTrue = "One or more parameter values were invalid: Null attribute value types must have the value of true"
	// MsgEmptyStringSet, MsgEmptyNumberSet and MsgEmptyBinarySet: empty
	// sets. The grammar and the double space are DynamoDB's own.
	MsgEmptyStringSet = "One or more parameter values were invalid: An string set  may not be empty"
	MsgEmptyNumberSet = "One or more parameter values were invalid: An number set  may not be empty"
	MsgEmptyBinarySet = "One or more parameter values were invalid: Binary sets should not be empty"
	// MsgNumberSetDuplicates: an NS with two members of equal value
	// ("1" and "1.0"). Unlike SS and BS, DynamoDB neither prefixes nor
	// lists the members.
	MsgNumberSetDuplicates = "Input collection contains duplicates"
	// MsgNestingTooDeep: a document nested deeper than MaxDepth levels.
	MsgNestingTooDeep = "Nesting Levels have exceeded supported limits: Attributes in the item have nested levels beyond supported limit"
	// MsgEmptyAttributeName: an attribute named "" (an item's, an
	// AttributeUpdates member's, an AttributesToGet entry's). DynamoDB's
	// answer holds "Empty attribute name" (Alternator's test_limits.py,
	// test_limit_attribute_length_nonkey_empty, run against DynamoDB,
	// 2026-03, which matches only that part); the prefix is inferred.
	MsgEmptyAttributeName = "One or more parameter values were invalid: Empty attribute name"
	// MsgAttributeNameTooLarge: an attribute name, or a map key at any
	// depth, longer than MaxAttributeNameSize bytes. DynamoDB's answer to
	// PutItem (top level and nested) and UpdateItem (SET of such a name or
	// of a map holding one), measured 2026-09-16 (ExtendDB/extenddb issue
	// 365); the number it names is one more than the longest name it
	// accepts (Alternator's test_limits.py, test_limit_attribute_length_nonkey_*).
	MsgAttributeNameTooLarge = "1 validation error detected: Attribute name is too large, must be less than 65536 bytes"

	// MsgHashKeyTooLarge: partition key value above MaxPartitionKeySize
	// bytes. "of2048" (no space) is DynamoDB's text.
	MsgHashKeyTooLarge = "One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of2048 bytes"
	// MsgRangeKeyTooLarge: sort key value above MaxSortKeySize bytes.
	MsgRangeKeyTooLarge = "One or more parameter values were invalid: Aggregated size of all range keys has exceeded the size limit of 1024 bytes"
	// MsgKeySchemaMismatch: a key value that is not a scalar of the key's
	// type, in GetItem, UpdateItem, DeleteItem and BatchGetItem keys.
	MsgKeySchemaMismatch = "The provided key element does not match the schema"
)

// numberSyntaxError is DynamoDB's error for text that does not parse as a
// number: the text is echoed after a colon unless it is empty.
func numberSyntaxError(s string) *Error {
	if s == "" {
		return newError(MsgNumberSyntax)
	}
	return newError(MsgNumberSyntax + ": " + s)
}

// stringSetDuplicatesError lists the whole collection the way DynamoDB
// does: the older layer as sent, unquoted, "[b, a, b]"; the current layer
// quoted and in setDuplicatesOrder, "[\"a\", \"b\", \"b\"]"
// (valueLayers.test.ts, Error.Current).
func stringSetDuplicatesError(ss []string) *Error {
	var older, cur strings.Builder
	older.WriteString(msgDuplicatesPrefix + "[")
	cur.WriteString(msgDuplicatesPrefix + "[")
	for i, s := range ss {
		if i > 0 {
			older.WriteString(", ")
		}
		older.WriteString(s)
	}
	for i, s := range setDuplicatesOrder(ss, func(a, b string) int { return strings.Compare(a, b) }) {
		if i > 0 {
			cur.WriteString(", ")
		}
		writeQuoted(&cur, s)
	}
	older.WriteString("] contains duplicates.")
	cur.WriteString("] contains duplicates.")
	return &Error{Message: older.String(), Current: cur.String()}
}

// binarySetDuplicatesError lists the collection base64-encoded, with
// DynamoDB's missing space before "of"; the current layer quotes the
// members, in setDuplicatesOrder, with no space after the commas
// ("[\"AA==\",\"/w==\",\"AA==\"]of type BS", valueLayers.test.ts).
func binarySetDuplicatesError(bs [][]byte) *Error {
	var older, cur strings.Builder
	older.WriteString(msgDuplicatesPrefix + "[")
	cur.WriteString(msgDuplicatesPrefix + "[")
	for i, v := range bs {
		if i > 0 {
			older.WriteString(", ")
		}
		older.WriteString(base64.StdEncoding.EncodeToString(v))
	}
	for i, v := range setDuplicatesOrder(bs, bytes.Compare) {
		if i > 0 {
			cur.WriteByte(',')
		}
		writeQuoted(&cur, base64.StdEncoding.EncodeToString(v))
	}
	older.WriteString("]of type BS contains duplicates.")
	cur.WriteString("]of type BS contains duplicates.")
	return &Error{Message: older.String(), Current: cur.String()}
}

const msgDuplicatesPrefix = "One or more parameter values were invalid: Input collection "

// msgNumberSetDuplicatesCurrent is the current layer's text for
// MsgNumberSetDuplicates: the prefix and a full stop, still no members
// (valueLayers.test.ts).
const msgNumberSetDuplicatesCurrent = "One or more parameter values were invalid: Input collection contains duplicates."

// setDuplicatesOrder is the order the current layer lists a set with a
// repeated member in: the members before the first repeat in byte order,
// then the repeat, then the rest as sent (valueLayers.test.ts: SS b, a, b
// is listed a, b, b; BS /w==, AA==, AA== is listed AA==, /w==, AA==).
func setDuplicatesOrder[T any](members []T, cmp func(a, b T) int) []T {
	var seen []T
	for i, m := range members {
		at, found := slices.BinarySearchFunc(seen, m, cmp)
		if found {
			out := append(seen, m)
			return append(out, members[i+1:]...)
		}
		seen = slices.Insert(seen, at, m)
	}
	return seen
}

// writeQuoted writes s in double quotes, escaped as JSON.
func writeQuoted(b *strings.Builder, s string) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	b.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}

// KeyTypeMismatchError is PutItem's error (also BatchWriteItem's and
// TransactWriteItems' Put) for an item whose key attribute has the wrong
// type, e.g. "... Type mismatch for key pk expected: S actual: N".
// Key lookups (GetItem and the like) report MsgKeySchemaMismatch instead.
func KeyTypeMismatchError(name string, want, got Type) *Error {
	return newError("One or more parameter values were invalid: Type mismatch for key " +
		name + " expected: " + want.String() + " actual: " + got.String())
}
