package protocol

import (
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/internal/expr"
	"unicode/utf16"
	"unicode/utf8"
)

// This file is the byte-level JSON scanner the decoders are built on: it
// finds tokens in the request body without building any intermediate tree.
// Every function reports malformed JSON as errSyntax(); none of them panics
// on any input.

// Token kinds, as returned by decoder.token.
const (
	tkString  = iota + 1
	tkNumber  // an integral JSON number: Jackson's VALUE_NUMBER_INT
	tkDecimal // a number with a fraction or an exponent: VALUE_NUMBER_FLOAT
	tkTrue
	tkFalse
	tkNull
	tkObject // '{' seen, not consumed
	tkArray  // '[' seen, not consumed
)

// strPlain[c] is true for the bytes that stand for themselves inside a JSON
// string: printable ASCII other than the quote and the backslash.
var strPlain = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// decoder reads one request body.
type decoder struct {
	data []byte
	pos  int
	// avDepth is the nesting depth of the attribute value being decoded.
	avDepth int
	// deferred is the first ValidationException found while decoding. It
	// is returned only if the whole body deserializes, because DynamoDB
	// validates after it has read the request: a malformed body is a
	// SerializationException even if an earlier value was invalid.
	deferred *dynamo.Error
	// scratch holds the unescaped text of the last string that had
	// escapes. A slice returned by readString is valid until the next call.
	scratch []byte
	// valueKey is the ExpressionAttributeValues key whose value is being
	// decoded, "" elsewhere: a problem with that value is reported as
	// DynamoDB reports it there (see deferAttr).
	valueKey string
	// startKey is set while a Query's or Scan's ExclusiveStartKey is
	// decoded: DynamoDB prefixes an empty or many-typed value there with
	// msgStartKeyPrefix (see deferAttr).
	startKey bool
	// qlParams is set while a PartiQL statement's Parameters are decoded:
	// a map there keeps only the first member whose binding fails in
	// document order (see qlCheck), which the engine, walking a map in
	// key order, then reports as DynamoDB reports it.
	qlParams bool
	// qlBad, under qlParams, tells whether the last value decoded fails
	// its binding.
	qlBad bool
}

func (d *decoder) deferValidation(msg string) {
	if d.deferred == nil {
		d.deferred = dynamo.Validation(msg)
	}
}

// deferAttr defers a problem with an attribute value. Inside
// ExpressionAttributeValues DynamoDB names the value's key, as it does for
// the engine's checks of those values.
func (d *decoder) deferAttr(msg string) {
	if d.deferred != nil {
		return
	}
	if d.valueKey != "" {
		msg = expr.MsgInvalidValue(msg, d.valueKey)
	}
	if d.startKey && msg != msgAttrNesting {
		msg = dynamo.MsgStartKeyInvalidPrefix + msg
	}
	d.deferValidation(msg)
}

// peek skips whitespace and returns the next byte, or 0 at the end of the
// body (a NUL byte in the body is never valid JSON either).
func (d *decoder) peek() byte {
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		if c > ' ' {
			return c
		}
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return c
		}
		d.pos++
	}
	return 0
}

// atEnd reports whether only whitespace is left.
func (d *decoder) atEnd() bool {
	d.peek()
	return d.pos >= len(d.data)
}

// token reads the next scalar token, or reports the container that starts
// at d.pos without consuming it. For tkString, text is the unescaped string
// (valid until the next string is read); for numbers it is the number's
// text.
func (d *decoder) token() (kind int, text []byte, err *dynamo.Error) {
	switch c := d.peek(); c {
	case '{':
		return tkObject, nil, nil
	case '[':
		return tkArray, nil, nil
	case '"':
		s, err := d.readString()
		return tkString, s, err
	case 't':
		return tkTrue, nil, d.literal("true")
	case 'f':
		return tkFalse, nil, d.literal("false")
	case 'n':
		return tkNull, nil, d.literal("null")
	default:
		if c == '-' || (c >= '0' && c <= '9') {
			num, decimal, err := d.readNumber()
			if decimal {
				return tkDecimal, num, err
			}
			return tkNumber, num, err
		}
		return 0, nil, errSyntax()
	}
}

func (d *decoder) literal(lit string) *dynamo.Error {
	end := d.pos + len(lit)
	if end > len(d.data) || string(d.data[d.pos:end]) != lit {
		return errSyntax()
	}
	d.pos = end
	return nil
}

// readString reads the string whose opening quote is at d.pos. Strings
// without escapes are returned as a sub-slice of the body; others are
// unescaped into d.scratch. Invalid UTF-8, raw control characters and
// an escaped surrogate that is not half of a pair ("\ud800") are syntax
// errors: a string must be valid Unicode, or two different strings could
// decode to the same text (Go's encoding/json turns a lone surrogate into
// U+FFFD, so "\ud800" and "\udfff" would name the same key).
func (d *decoder) readString() ([]byte, *dynamo.Error) {
	data := d.data
	start := d.pos + 1
	// The plain bytes first, eight at a time: most strings are nothing
	// else up to their closing quote.
	i := start + plainRun(data[start:])
	for i < len(data) {
		c := data[i]
		if strPlain[c] {
			i++
			continue
		}
		switch {
		case c == '"':
			d.pos = i + 1
			return data[start:i], nil
		case c == '\\':
			return d.readEscaped(start, i)
		case c < 0x20:
			return nil, errSyntax()
		default:
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size == 1 {
				return nil, errSyntax()
			}
			i += size
		}
	}
	return nil, errSyntax()
}

// readEscaped continues readString from the first backslash at i.
func (d *decoder) readEscaped(start, i int) ([]byte, *dynamo.Error) {
	data := d.data
	buf := append(d.scratch[:0], data[start:i]...)
	for i < len(data) {
		c := data[i]
		if strPlain[c] {
			buf = append(buf, c)
			i++
			continue
		}
		switch {
		case c == '"':
			d.pos = i + 1
			d.scratch = buf
			return buf, nil
		case c == '\\':
			if i+1 >= len(data) {
				return nil, errSyntax()
			}
			e := data[i+1]
			i += 2
			switch e {
			case '"', '\\', '/':
				buf = append(buf, e)
			case 'b':
				buf = append(buf, '\b')
			case 'f':
				buf = append(buf, '\f')
			case 'n':
				buf = append(buf, '\n')
			case 'r':
				buf = append(buf, '\r')
			case 't':
				buf = append(buf, '\t')
			case 'u':
				r, ok := hex4(data, i)
				if !ok {
					return nil, errSyntax()
				}
				i += 4
				if utf16.IsSurrogate(r) {
					low := rune(-1)
					if i+6 <= len(data) && data[i] == '\\' && data[i+1] == 'u' {
						if x, ok := hex4(data, i+2); ok {
							low = x
						}
					}
					pair := utf16.DecodeRune(r, low)
					if pair == utf8.RuneError {
						return nil, errSyntax()
					}
					r = pair
					i += 6
				}
				buf = utf8.AppendRune(buf, r)
			default:
				return nil, errSyntax()
			}
		case c < 0x20:
			return nil, errSyntax()
		default:
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size == 1 {
				return nil, errSyntax()
			}
			buf = append(buf, data[i:i+size]...)
			i += size
		}
	}
	return nil, errSyntax()
}

// hex4 decodes the four hex digits at data[i:].
func hex4(data []byte, i int) (rune, bool) {
	if i+4 > len(data) {
		return 0, false
	}
	var r rune
	for _, c := range data[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// readNumber reads the JSON number at d.pos (RFC 8259 grammar: no leading
// zeros, no '+', digits on both sides of the point). decimal reports a
// fraction or an exponent.
func (d *decoder) readNumber() (text []byte, decimal bool, err *dynamo.Error) {
	data := d.data
	start := d.pos
	i := start
	if i < len(data) && data[i] == '-' {
		i++
	}
	switch {
	case i < len(data) && data[i] == '0':
		i++
	case i < len(data) && data[i] >= '1' && data[i] <= '9':
		i = skipDigits(data, i+1)
	default:
		return nil, false, errSyntax()
	}
	if i < len(data) && data[i] == '.' {
		decimal = true
		j := skipDigits(data, i+1)
		if j == i+1 {
			return nil, false, errSyntax()
		}
		i = j
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		decimal = true
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		j := skipDigits(data, i)
		if j == i {
			return nil, false, errSyntax()
		}
		i = j
	}
	d.pos = i
	return data[start:i], decimal, nil
}

func skipDigits(data []byte, i int) int {
	for i < len(data) && data[i] >= '0' && data[i] <= '9' {
		i++
	}
	return i
}

// skipValue reads and discards one complete value, checking its syntax.
// It is iterative, so a deeply nested value cannot exhaust the goroutine
// stack; its own stack costs one byte per level, bounded by the body size.
func (d *decoder) skipValue() *dynamo.Error {
	var stackBuf [32]byte
	stack := stackBuf[:0] // '{' or '[' per open container
	for {
		// A value is expected here.
		switch c := d.peek(); c {
		case '{':
			d.pos++
			stack = append(stack, '{')
			if d.peek() == '}' {
				d.pos++
				stack = stack[:len(stack)-1]
				break
			}
			if err := d.skipKey(); err != nil {
				return err
			}
			continue
		case '[':
			d.pos++
			stack = append(stack, '[')
			if d.peek() == ']' {
				d.pos++
				stack = stack[:len(stack)-1]
				break
			}
			continue
		default:
			if _, _, err := d.token(); err != nil {
				return err
			}
		}
		// A value just ended: close containers or move to the next member.
		for {
			if len(stack) == 0 {
				return nil
			}
			top := stack[len(stack)-1]
			c := d.peek()
			if c == ',' {
				d.pos++
				if top == '{' {
					if err := d.skipKey(); err != nil {
						return err
					}
				}
				break
			}
			if (c == '}' && top == '{') || (c == ']' && top == '[') {
				d.pos++
				stack = stack[:len(stack)-1]
				continue
			}
			return errSyntax()
		}
	}
}

// skipKey reads a member name and its colon.
func (d *decoder) skipKey() *dynamo.Error {
	if d.peek() != '"' {
		return errSyntax()
	}
	if _, err := d.readString(); err != nil {
		return err
	}
	if d.peek() != ':' {
		return errSyntax()
	}
	d.pos++
	return nil
}
