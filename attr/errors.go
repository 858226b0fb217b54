package attr

import (
	"encoding/base64"
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
}

func (e *Error) Error() string { return e.Message }

func newError(msg string) *Error { return &Error{Message: msg} }

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
	// MsgEmptyAttributeName: an item attribute named "". Inferred: no
	// capture of DynamoDB's text for this case was found.
	MsgEmptyAttributeName = "One or more parameter values were invalid: An attribute name may not be empty"
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

// stringSetDuplicatesError lists the whole collection the way DynamoDB does:
// "[a, b, a]".
func stringSetDuplicatesError(ss []string) *Error {
	var b strings.Builder
	b.WriteString("One or more parameter values were invalid: Input collection [")
	for i, s := range ss {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(s)
	}
	b.WriteString("] contains duplicates.")
	return newError(b.String())
}

// binarySetDuplicatesError lists the collection base64-encoded, with
// DynamoDB's missing space before "of".
func binarySetDuplicatesError(bs [][]byte) *Error {
	var b strings.Builder
	b.WriteString("One or more parameter values were invalid: Input collection [")
	for i, v := range bs {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(base64.StdEncoding.EncodeToString(v))
	}
	b.WriteString("]of type BS contains duplicates.")
	return newError(b.String())
}

// KeyTypeMismatchError is PutItem's error (also BatchWriteItem's and
// TransactWriteItems' Put) for an item whose key attribute has the wrong
// type, e.g. "... Type mismatch for key pk expected: S actual: N".
// Key lookups (GetItem and the like) report MsgKeySchemaMismatch instead.
func KeyTypeMismatchError(name string, want, got Type) *Error {
	return newError("One or more parameter values were invalid: Type mismatch for key " +
		name + " expected: " + want.String() + " actual: " + got.String())
}
