package protocol

import (
	"strconv"
	"unicode/utf8"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
)

// This file holds the typed readers the operation decoders are written
// with, and the SerializationException wording for a value of the wrong
// JSON type. See doc.go for where each message comes from.

// SerializationException messages DynamoDB sends for a value of the wrong
// JSON type.
const (
	msgStartOfMap       = "Start of structure or map found where not expected"
	msgUnexpectedField  = "Unexpected field type"
	msgUnexpectedValue  = "Unexpected value type in payload"
	msgUnexpectedToken  = "Unexpected token received from parser"
	msgBlobNotString    = "only base-64-encoded strings are convertible to bytes"
	msgBase64Length     = "Base64 encoded length is expected a multiple of 4 bytes but found: "
	msgBase64LastChar   = "Invalid last non-pad Base64 character dectected" // sic
	msgBase64InvalidChr = "Invalid Base64 character: "
	// msgCollectionCast is what DynamoDB's deserializer says when a list or
	// map that is itself an element of a collection (BatchWriteItem's
	// RequestItems values, BatchGetItem's Keys members) is given a scalar.
	msgCollectionCast = "class sun.reflect.generics.reflectiveObjects.ParameterizedTypeImpl cannot be cast to class java.lang.Class (sun.reflect.generics.reflectiveObjects.ParameterizedTypeImpl and java.lang.Class are in module java.base of loader 'bootstrap')"
)

// ValidationException messages the decoders raise.
const (
	msgAttrEmpty   = attr.MsgEmptyValue
	msgAttrMulti   = attr.MsgMultipleTypes
	msgAttrNesting = attr.MsgNestingTooDeep
)

// modelPrefix is the Java package of DynamoDB's request classes, which
// appears in some SerializationException messages.
const modelPrefix = "com.amazonaws.dynamodb.v20120810."

// Java type names of map values, for "Unrecognized collection type".
const (
	javaString         = "java.lang.String"
	javaAttributeValue = modelPrefix + "AttributeValue"
)

func serialization(msg string) *dynamo.Error {
	return dynamo.Serialization(msg)
}

// errSyntax is the error for a body that is not JSON. DynamoDB sends a
// SerializationException with no message at all for it.
func errSyntax() *dynamo.Error { return serialization("") }

// position is where a value sits in its parent; DynamoDB words a type error
// differently for a structure member and for a collection element.
type position uint8

const (
	atField   position = iota // a member of a structure
	atElement                 // an element of a list or a value of a map
	atRoot                    // the request body
)

// tokenName is DynamoDB's name for a scalar token in conversion errors.
func tokenName(kind int) string {
	switch kind {
	case tkString:
		return "STRING_VALUE"
	case tkNumber:
		return "NUMBER_VALUE"
	case tkDecimal:
		return "DECIMAL_VALUE"
	case tkTrue:
		return "TRUE_VALUE"
	}
	return "FALSE_VALUE"
}

// convError is the error for a token of the wrong kind where a scalar of
// the Java type java.lang.<javaName> was expected.
func convError(kind int, javaName string) *dynamo.Error {
	switch kind {
	case tkObject:
		return serialization(msgStartOfMap)
	case tkArray:
		return serialization("Unrecognized collection type class java.lang." + javaName)
	}
	return serialization(tokenName(kind) + " cannot be converted to " + javaName)
}

// str reads a string. null leaves dst unchanged.
func (d *decoder) str(dst *string) *dynamo.Error {
	kind, text, err := d.token()
	if err != nil {
		return err
	}
	switch kind {
	case tkString:
		*dst = string(text)
		return nil
	case tkNull:
		return nil
	}
	return convError(kind, "String")
}

// strPresent is str that also reports whether a string was present (not
// null), for a member whose absence DynamoDB answers apart from "".
func (d *decoder) strPresent(dst *string) (bool, *dynamo.Error) {
	kind, text, err := d.token()
	if err != nil {
		return false, err
	}
	switch kind {
	case tkString:
		*dst = string(text)
		return true, nil
	case tkNull:
		return false, nil
	}
	return false, convError(kind, "String")
}

// tableNameRequired is the answer of a table-management operation whose
// TableName was absent or null: DynamoDB gives it before any other
// validation error, though not before a SerializationException. err is
// the decoding's result; present says whether TableName was a string.
// The engine gives the same answer for NoTableName, for callers that do
// not come through the decoder; the decoder gives it too because some
// problems it finds itself (a tag without a Key, say) would otherwise be
// reported first.
func tableNameRequired(err error, present bool) error {
	if present {
		return err
	}
	if e, ok := err.(*dynamo.Error); ok && e.Code == dynamo.CodeSerialization {
		return err
	}
	return dynamo.Validation(dynamo.MsgTableNameRequired)
}

// expression reads an expression member (a string) and adds bit to
// empty when it is present but empty, which DynamoDB refuses where it
// ignores an absent or null one.
func (d *decoder) expression(dst *string, empty *dynamo.Exprs, bit dynamo.Exprs) *dynamo.Error {
	kind, text, err := d.token()
	if err != nil {
		return err
	}
	switch kind {
	case tkString:
		*dst = string(text)
		if len(text) == 0 {
			*empty |= bit
		}
		return nil
	case tkNull:
		return nil
	}
	return convError(kind, "String")
}

// boolean reads a boolean and reports whether one was present (not null).
// Like DynamoDB, it also takes the strings "true" and "false" in any case.
func (d *decoder) boolean(dst *bool) (bool, *dynamo.Error) {
	kind, text, err := d.token()
	if err != nil {
		return false, err
	}
	switch kind {
	case tkTrue, tkFalse:
		*dst = kind == tkTrue
		return true, nil
	case tkNull:
		return false, nil
	case tkString:
		switch {
		case equalFoldASCII(text, "true"):
			*dst = true
			return true, nil
		case equalFoldASCII(text, "false"):
			*dst = false
			return true, nil
		}
		return false, serialization(msgUnexpectedToken)
	}
	return false, convError(kind, "Boolean")
}

func (d *decoder) boolPtr(dst **bool) *dynamo.Error {
	var b bool
	ok, err := d.boolean(&b)
	if ok {
		*dst = new(b)
	}
	return err
}

func equalFoldASCII(b []byte, lower string) bool {
	if len(b) != len(lower) {
		return false
	}
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// integer reads a JSON number as an integer of the Java type javaName
// ("Integer" or "Long"): a fraction is truncated, as DynamoDB's
// TruncatingBigNumber does, and a value outside [lo, hi] saturates so the
// engine's range checks reject it. It reports whether a number was present.
func (d *decoder) integer(dst *int64, javaName string, lo, hi int64) (bool, *dynamo.Error) {
	kind, text, err := d.token()
	if err != nil {
		return false, err
	}
	switch kind {
	case tkNumber, tkDecimal:
		*dst = parseTruncSat(text, lo, hi)
		return true, nil
	case tkNull:
		return false, nil
	}
	return false, convError(kind, javaName)
}

func (d *decoder) long(dst *int64) *dynamo.Error {
	_, err := d.integer(dst, "Long", minInt64, maxInt64)
	return err
}

func (d *decoder) longPtr(dst **int64) *dynamo.Error {
	var v int64
	ok, err := d.integer(&v, "Long", minInt64, maxInt64)
	if ok {
		*dst = new(v)
	}
	return err
}

func (d *decoder) int32Ptr(dst **int32) *dynamo.Error {
	var v int64
	ok, err := d.integer(&v, "Integer", minInt32, maxInt32)
	if ok {
		*dst = new(int32(v))
	}
	return err
}

const (
	minInt32 = -1 << 31
	maxInt32 = 1<<31 - 1
	minInt64 = -1 << 63
	maxInt64 = 1<<63 - 1
)

// parseTruncSat converts a valid JSON number to an integer, truncating
// toward zero and saturating at lo and hi.
func parseTruncSat(text []byte, lo, hi int64) int64 {
	neg := false
	if text[0] == '-' {
		neg = true
		text = text[1:]
	}
	// Split into integer digits, fraction digits and exponent.
	i := skipDigits(text, 0)
	intPart := text[:i]
	var frac []byte
	if i < len(text) && text[i] == '.' {
		j := skipDigits(text, i+1)
		frac = text[i+1 : j]
		i = j
	}
	exp := 0
	if i < len(text) { // 'e' or 'E'
		i++
		expNeg := false
		if text[i] == '+' || text[i] == '-' {
			expNeg = text[i] == '-'
			i++
		}
		for ; i < len(text); i++ {
			if exp < 100000 {
				exp = exp*10 + int(text[i]-'0')
			}
		}
		if expNeg {
			exp = -exp
		}
	}
	// The value is digits × 10^(exp - len(frac)); keep its integer part.
	digits := make([]byte, 0, 24)
	digits = append(digits, intPart...)
	digits = append(digits, frac...)
	scale := exp - len(frac)
	// Drop leading zeros so the length tells the magnitude.
	for len(digits) > 0 && digits[0] == '0' {
		digits = digits[1:]
	}
	var mag uint64
	overflow := false
	switch {
	case len(digits) == 0 || len(digits)+scale <= 0:
		mag = 0
	case len(digits)+scale > 19:
		overflow = true
	default:
		n := len(digits) + scale // number of integer digits, 1..19
		for k := 0; k < n; k++ {
			c := byte('0')
			if k < len(digits) {
				c = digits[k]
			}
			mag = mag*10 + uint64(c-'0')
		}
	}
	if neg {
		if overflow || mag > uint64(-lo) {
			return lo
		}
		return -int64(mag)
	}
	if overflow || mag > uint64(hi) {
		return hi
	}
	return int64(mag)
}

// blob reads a base64 string. null leaves dst unchanged; an empty string
// gives an empty, non-nil slice.
func (d *decoder) blob(dst *[]byte) *dynamo.Error {
	kind, text, err := d.token()
	if err != nil {
		return err
	}
	switch kind {
	case tkString:
		b, err := decodeBase64(text)
		if err != nil {
			return err
		}
		*dst = b
		return nil
	case tkNull:
		return nil
	case tkObject:
		return serialization(msgStartOfMap)
	case tkArray:
		return serialization("Unrecognized collection type class java.nio.ByteBuffer")
	}
	return serialization(msgBlobNotString)
}

// b64 maps a standard-alphabet base64 character to its value, 0xFF if none.
var b64 = func() (t [256]byte) {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	for i := range t {
		t[i] = 0xFF
	}
	for i := 0; i < len(alphabet); i++ {
		t[alphabet[i]] = byte(i)
	}
	return t
}()

// decodeBase64 decodes padded standard base64 strictly, with DynamoDB's
// error messages: the length must be a multiple of 4, padding may only end
// the text, and the bits the padding discards must be zero.
func decodeBase64(s []byte) ([]byte, *dynamo.Error) {
	if len(s)%4 != 0 {
		return nil, serialization(msgBase64Length + strconv.Itoa(javaLength(s)))
	}
	out := make([]byte, 0, len(s)/4*3)
	for i := 0; i < len(s); i += 4 {
		var v [4]byte
		n := 4 // characters before the padding
		for j := 0; j < 4; j++ {
			c := s[i+j]
			if c == '=' {
				if i+4 != len(s) || j < 2 || (j == 2 && s[i+3] != '=') {
					return nil, serialization(msgBase64LastChar)
				}
				n = j
				break
			}
			if b64[c] == 0xFF {
				r, _ := utf8.DecodeRune(s[i+j:])
				return nil, serialization(msgBase64InvalidChr + "'" + string(r) + "'")
			}
			v[j] = b64[c]
		}
		switch n {
		case 4:
			out = append(out, v[0]<<2|v[1]>>4, v[1]<<4|v[2]>>2, v[2]<<6|v[3])
		case 3:
			if v[2]&0x03 != 0 {
				return nil, serialization(msgBase64LastChar)
			}
			out = append(out, v[0]<<2|v[1]>>4, v[1]<<4|v[2]>>2)
		case 2:
			if v[1]&0x0F != 0 {
				return nil, serialization(msgBase64LastChar)
			}
			out = append(out, v[0]<<2|v[1]>>4)
		}
	}
	return out, nil
}

// javaLength is the length of s as a Java string (UTF-16 code units), which
// is what DynamoDB reports in its base64 length error.
func javaLength(s []byte) int {
	n := 0
	for len(s) > 0 {
		r, size := utf8.DecodeRune(s)
		s = s[size:]
		n++
		if r > 0xFFFF {
			n++
		}
	}
	return n
}

// openStruct checks that the next value is an object for the structure
// typ (its name in DynamoDB's model) and reports whether it is one: false
// with a nil error means JSON null, which stands for an absent member.
// d.pos is left on the '{'.
func (d *decoder) openStruct(typ string, at position) (bool, *dynamo.Error) {
	kind, _, err := d.token()
	if err != nil {
		return false, err
	}
	switch kind {
	case tkObject:
		return true, nil
	case tkNull:
		return false, nil
	case tkArray:
		return false, serialization("Unrecognized collection type class " + modelPrefix + typ)
	}
	if at == atField {
		return false, serialization(msgUnexpectedField)
	}
	return false, serialization(msgUnexpectedValue)
}

// openList is openStruct for a list.
func (d *decoder) openList(at position) (bool, *dynamo.Error) {
	kind, _, err := d.token()
	if err != nil {
		return false, err
	}
	switch kind {
	case tkArray:
		return true, nil
	case tkNull:
		return false, nil
	case tkObject:
		return false, serialization(msgStartOfMap)
	}
	if at == atField {
		return false, serialization(msgUnexpectedField)
	}
	return false, serialization(msgCollectionCast)
}

// openMap is openStruct for a map whose values have the Java type
// valueType.
func (d *decoder) openMap(valueType string, at position) (bool, *dynamo.Error) {
	kind, _, err := d.token()
	if err != nil {
		return false, err
	}
	switch kind {
	case tkObject:
		return true, nil
	case tkNull:
		return false, nil
	case tkArray:
		return false, serialization("Unrecognized collection type java.util.Map<java.lang.String, " + valueType + ">")
	}
	if at == atField {
		return false, serialization(msgUnexpectedField)
	}
	return false, serialization(msgCollectionCast)
}

// members reads the object whose '{' is at d.pos, calling fn for each
// member with its name (valid only until fn reads a string). fn must
// consume exactly one value.
func (d *decoder) members(fn func(key []byte) *dynamo.Error) *dynamo.Error {
	d.pos++
	c := d.peek()
	if c == '}' {
		d.pos++
		return nil
	}
	for {
		if c != '"' {
			return errSyntax()
		}
		key, err := d.readString()
		if err != nil {
			return err
		}
		if d.peek() != ':' {
			return errSyntax()
		}
		d.pos++
		if err := fn(key); err != nil {
			return err
		}
		switch d.peek() {
		case ',':
			d.pos++
			c = d.peek()
		case '}':
			d.pos++
			return nil
		default:
			return errSyntax()
		}
	}
}

// elements reads the array whose '[' is at d.pos, calling fn once per
// element; fn must consume exactly one value.
func (d *decoder) elements(fn func() *dynamo.Error) *dynamo.Error {
	d.pos++
	if d.peek() == ']' {
		d.pos++
		return nil
	}
	for {
		if err := fn(); err != nil {
			return err
		}
		switch d.peek() {
		case ',':
			d.pos++
		case ']':
			d.pos++
			return nil
		default:
			return errSyntax()
		}
	}
}

// object reads a structure: openStruct, then members.
func (d *decoder) object(typ string, at position, fn func(key []byte) *dynamo.Error) (bool, *dynamo.Error) {
	ok, err := d.openStruct(typ, at)
	if !ok || err != nil {
		return false, err
	}
	return true, d.members(fn)
}

// decodeList reads a list whose elements elem decodes. A present list is
// never nil, so the engine can tell [] from an absent member.
func decodeList[T any](d *decoder, dst *[]T, at position, elem func(d *decoder, e *T) *dynamo.Error) *dynamo.Error {
	ok, err := d.openList(at)
	if !ok || err != nil {
		return err
	}
	out := []T{}
	err = d.elements(func() *dynamo.Error {
		var e T
		if err := elem(d, &e); err != nil {
			return err
		}
		out = append(out, e)
		return nil
	})
	*dst = out
	return err
}

// decodeMap reads a map whose values elem decodes; valueType is the values'
// Java type. A present map is never nil.
func decodeMap[T any](d *decoder, dst *map[string]T, valueType string, at position, elem func(d *decoder, e *T) *dynamo.Error) *dynamo.Error {
	ok, err := d.openMap(valueType, at)
	if !ok || err != nil {
		return err
	}
	out := map[string]T{}
	err = d.members(func(key []byte) *dynamo.Error {
		name := string(key)
		var e T
		if err := elem(d, &e); err != nil {
			return err
		}
		out[name] = e
		return nil
	})
	*dst = out
	return err
}

// Element readers for decodeList and decodeMap. A null element becomes the
// zero value (an empty string in a string set, for instance), which the
// engine then rejects with DynamoDB's message for an empty member.

func strElem(d *decoder, s *string) *dynamo.Error { return d.str(s) }

func blobElem(d *decoder, b *[]byte) *dynamo.Error {
	if err := d.blob(b); err != nil {
		return err
	}
	if *b == nil {
		*b = []byte{}
	}
	return nil
}

func (d *decoder) strList(dst *[]string) *dynamo.Error {
	return decodeList(d, dst, atField, strElem)
}

func (d *decoder) strMap(dst *map[string]string) *dynamo.Error {
	return decodeMap(d, dst, javaString, atField, strElem)
}

// root reads the request body as the input structure typ (its name in
// DynamoDB's model, such as "PutItemInput") and returns the decoding error
// as an error (nil when there is none).
func (d *decoder) root(typ string, fn func(key []byte) *dynamo.Error) error {
	if d.atEnd() {
		// DynamoDB answers an empty body with a bare SerializationException.
		return errSyntax()
	}
	ok, err := d.object(typ, atRoot, fn)
	if err == nil && !ok {
		// A body of JSON null is not an empty request (no recording
		// found; chose the empty body's answer).
		err = errSyntax()
	}
	if err == nil && !d.atEnd() {
		err = errSyntax()
	}
	if err != nil {
		return err
	}
	if d.deferred != nil {
		return d.deferred
	}
	return nil
}
