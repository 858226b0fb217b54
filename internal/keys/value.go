package keys

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/dynago/dynago/attr"
)

var (
	// ErrKeyType reports a value or type other than S, N or B where a key
	// element is expected, or a value whose type differs from the schema.
	ErrKeyType = errors.New("keys: key attributes must be of type S, N or B")
	// ErrNumber reports N text that is not a valid DynamoDB number: not
	// decimal text, more than 38 significant digits, or out of range.
	ErrNumber = errors.New("keys: invalid number")
	// ErrCorrupt reports bytes that are not a valid encoding.
	ErrCorrupt = errors.New("keys: malformed key encoding")
	// ErrTupleSize reports a partition or sort tuple with a number of
	// elements outside the allowed range.
	ErrTupleSize = errors.New("keys: wrong number of key attributes")
)

func corrupt(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrCorrupt}, args...)...)
}

// AppendValue appends the order-preserving, self-delimiting encoding of v to
// dst and returns the extended slice. v must be S, N or B; an N value may be
// any decimal text DynamoDB accepts ("1.50", "-3e7"), and equal numbers
// encode identically. The encoding carries no type tag.
//
// It returns an error wrapping ErrKeyType for other types and ErrNumber for
// invalid numbers; dst is then returned unchanged.
func AppendValue(dst []byte, v attr.Value) ([]byte, error) {
	switch v.Type {
	case attr.TypeS:
		return appendEscaped(dst, v.S), nil
	case attr.TypeB:
		return appendEscaped(dst, v.B), nil
	case attr.TypeN:
		var d decimal
		if err := parseNumber(v.S, &d); err != nil {
			return dst, err
		}
		return appendNumber(dst, &d), nil
	}
	return dst, fmt.Errorf("%w: got %v", ErrKeyType, v.Type)
}

// appendEscaped appends the S/B encoding of b: 0x00 becomes 0x00 0xFF and
// the value ends with 0x00 0x01.
func appendEscaped[T string | []byte](dst []byte, b T) []byte {
	dst = appendEscapedPrefix(dst, b)
	return append(dst, escByte, escEnd)
}

// appendEscapedPrefix appends the S/B encoding of b without its terminator.
// Every value that starts with b has an encoding that starts with it.
func appendEscapedPrefix[T string | []byte](dst []byte, b T) []byte {
	for {
		i := indexZero(b)
		if i < 0 {
			return append(dst, b...)
		}
		dst = append(dst, b[:i]...)
		dst = append(dst, escByte, escZero)
		b = b[i+1:]
	}
}

// indexZero returns the index of the first 0x00 byte of b, or -1.
func indexZero[T string | []byte](b T) int {
	switch b := any(b).(type) {
	case string:
		return strings.IndexByte(b, escByte)
	case []byte:
		return bytes.IndexByte(b, escByte)
	}
	panic("unreachable")
}

// DecodeValue decodes one value of type t (S, N or B) from the front of src
// and returns it with the bytes that follow it. An N value comes back as
// DynamoDB's canonical text: plain decimal notation without exponent or
// redundant zeros ("-12.5", "100", "0.001", "0"). A B value never aliases
// src.
func DecodeValue(src []byte, t attr.Type) (attr.Value, []byte, error) {
	switch t {
	case attr.TypeS:
		s, rest, err := decodeString(src)
		if err != nil {
			return attr.Value{}, nil, err
		}
		return attr.Value{Type: attr.TypeS, S: s}, rest, nil
	case attr.TypeB:
		b, rest, err := decodeBinary(src)
		if err != nil {
			return attr.Value{}, nil, err
		}
		return attr.Value{Type: attr.TypeB, B: b}, rest, nil
	case attr.TypeN:
		var d decimal
		rest, err := decodeNumber(src, &d)
		if err != nil {
			return attr.Value{}, nil, err
		}
		var buf [maxNumberText]byte
		return attr.Value{Type: attr.TypeN, S: string(d.appendText(buf[:0]))}, rest, nil
	}
	return attr.Value{}, nil, fmt.Errorf("%w: got %v", ErrKeyType, t)
}

// scanEscaped finds the end of the S/B encoding at the front of src. It
// returns the length of the encoding, the length of the decoded value and
// whether the value has escaped 0x00 bytes.
func scanEscaped(src []byte) (encLen, valLen int, escaped bool, err error) {
	for i := 0; ; {
		j := bytes.IndexByte(src[i:], escByte)
		if j < 0 || i+j+1 >= len(src) {
			return 0, 0, false, corrupt("unterminated string or binary")
		}
		valLen += j
		i += j + 1
		switch src[i] {
		case escZero:
			valLen++
			escaped = true
			i++
		case escEnd:
			return i + 1, valLen, escaped, nil
		default:
			return 0, 0, false, corrupt("bad escape 0x00 0x%02x", src[i])
		}
	}
}

// unescape appends the value of the S/B encoding body (the encoding without
// its terminator) to dst.
func unescape(dst, body []byte) []byte {
	for {
		j := bytes.IndexByte(body, escByte)
		if j < 0 {
			return append(dst, body...)
		}
		dst = append(dst, body[:j]...)
		dst = append(dst, 0)
		body = body[j+2:]
	}
}

// decodeString decodes one S encoding with a single allocation.
func decodeString(src []byte) (string, []byte, error) {
	encLen, valLen, escaped, err := scanEscaped(src)
	if err != nil {
		return "", nil, err
	}
	body := src[:encLen-2]
	if !escaped {
		return string(body), src[encLen:], nil
	}
	var sb strings.Builder
	sb.Grow(valLen)
	for {
		j := bytes.IndexByte(body, escByte)
		if j < 0 {
			sb.Write(body)
			break
		}
		sb.Write(body[:j])
		sb.WriteByte(0)
		body = body[j+2:]
	}
	return sb.String(), src[encLen:], nil
}

// decodeBinary decodes one B encoding into a new slice.
func decodeBinary(src []byte) ([]byte, []byte, error) {
	encLen, valLen, _, err := scanEscaped(src)
	if err != nil {
		return nil, nil, err
	}
	return unescape(make([]byte, 0, valLen), src[:encLen-2]), src[encLen:], nil
}

// skipValue returns the bytes after one encoded value of type t without
// decoding it.
func skipValue(src []byte, t attr.Type) ([]byte, error) {
	switch t {
	case attr.TypeS, attr.TypeB:
		encLen, _, _, err := scanEscaped(src)
		if err != nil {
			return nil, err
		}
		return src[encLen:], nil
	case attr.TypeN:
		var d decimal
		return decodeNumber(src, &d)
	}
	return nil, fmt.Errorf("%w: got %v", ErrKeyType, t)
}

// AppendTuple appends the encodings of vals, in order. Because each
// encoding is prefix-free, the concatenation of two tuples of the same types
// sorts lexicographically, element by element.
func AppendTuple(dst []byte, vals []attr.Value) ([]byte, error) {
	orig := dst
	for _, v := range vals {
		var err error
		if dst, err = AppendValue(dst, v); err != nil {
			return orig, err
		}
	}
	return dst, nil
}

// DecodeTuple decodes len(types) values of the given types from the front
// of src and returns them with the bytes that follow. It returns nil values
// when types is empty.
func DecodeTuple(src []byte, types []attr.Type) ([]attr.Value, []byte, error) {
	if len(types) == 0 {
		return nil, src, nil
	}
	vals := make([]attr.Value, len(types))
	rest, err := decodeTupleInto(vals, src, types)
	if err != nil {
		return nil, nil, err
	}
	return vals, rest, nil
}

func decodeTupleInto(dst []attr.Value, src []byte, types []attr.Type) ([]byte, error) {
	for i, t := range types {
		v, rest, err := DecodeValue(src, t)
		if err != nil {
			return nil, err
		}
		dst[i] = v
		src = rest
	}
	return src, nil
}
