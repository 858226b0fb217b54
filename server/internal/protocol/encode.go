package protocol

import (
	"encoding/base64"
	"math"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/dynago/dynago/attr"
)

// This file holds the append-style JSON writers the encoders use.
//
// Objects are written by appending '{', then members with member(), then
// '}': member() puts the comma in by looking at the previous byte, so no
// writer has to track whether it is on the first member.

// member appends the name of a member whose name needs no escaping.
func member(dst []byte, name string) []byte {
	dst = comma(dst)
	dst = append(dst, '"')
	dst = append(dst, name...)
	return append(dst, '"', ':')
}

// mapKey appends an arbitrary string as a member name.
func mapKey(dst []byte, name string) []byte {
	dst = appendString(comma(dst), name)
	return append(dst, ':')
}

// comma appends the separator needed before the next member or element.
func comma(dst []byte) []byte {
	if n := len(dst); n > 0 && dst[n-1] != '{' && dst[n-1] != '[' {
		dst = append(dst, ',')
	}
	return dst
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string. It escapes what Go's
// encoding/json escapes, except that it leaves '<', '>' and '&' alone
// (DynamoDB does not escape them): quote, backslash, control characters
// (\b \f \n \r \t, or \u00XX), U+2028 and U+2029; invalid UTF-8 becomes
// \ufffd.
func appendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		i += plainRun(s[i:])
		if i == len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i++
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

func appendBase64(dst []byte, b []byte) []byte {
	dst = append(dst, '"')
	dst = base64.StdEncoding.AppendEncode(dst, b)
	return append(dst, '"')
}

func appendBool(dst []byte, b bool) []byte {
	if b {
		return append(dst, "true"...)
	}
	return append(dst, "false"...)
}

// appendDouble appends f the way DynamoDB's Java service prints a double
// (Double.toString): the shortest digits that read back as f, plain
// notation with at least one fractional digit for 1e-3 <= |f| < 1e7
// ("0.5", "1.0"), and otherwise a mantissa with at least one fractional
// digit and an unpadded exponent ("1.700000000123E9"). Non-finite values,
// which the engine never produces, are written as 0.0 to keep the JSON
// valid.
func appendDouble(dst []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) || f == 0 {
		return append(dst, "0.0"...)
	}
	if a := math.Abs(f); a >= 1e-3 && a < 1e7 {
		start := len(dst)
		dst = strconv.AppendFloat(dst, f, 'f', -1, 64)
		if !slices.Contains(dst[start:], '.') {
			dst = append(dst, '.', '0')
		}
		return dst
	}
	var buf [32]byte
	s := strconv.AppendFloat(buf[:0], f, 'e', -1, 64) // "1.5e+09", "1e-05"
	e := slices.Index(s, 'e')
	mant, exp := s[:e], s[e+1:]
	dst = append(dst, mant...)
	if !slices.Contains(mant, '.') {
		dst = append(dst, '.', '0')
	}
	dst = append(dst, 'E')
	if exp[0] == '-' {
		dst = append(dst, '-')
	}
	exp = exp[1:]
	for len(exp) > 1 && exp[0] == '0' {
		exp = exp[1:]
	}
	return append(dst, exp...)
}

// appendTime appends t as DynamoDB sends timestamps: epoch seconds with
// millisecond precision, as a Java double (1.700000000123E9).
func appendTime(dst []byte, t time.Time) []byte {
	return appendDouble(dst, float64(t.UnixMilli())/1000)
}

// sortedKeys returns the keys of m in order, using buf when it is large
// enough. DynamoDB does not order map members; sorting makes dynago's
// responses deterministic.
func sortedKeys[V any](m map[string]V, buf []string) []string {
	keys := buf[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// appendItem appends a map of attribute values. A nil map is written as {}.
func appendItem(dst []byte, item map[string]attr.Value) []byte {
	var buf [16]string
	dst = append(dst, '{')
	for _, k := range sortedKeys(item, buf[:]) {
		dst = mapKey(dst, k)
		v := item[k]
		dst = appendValue(dst, &v)
	}
	return append(dst, '}')
}

// appendValue appends one AttributeValue. A value of no valid type, which
// the engine never returns, is written as {}.
func appendValue(dst []byte, v *attr.Value) []byte {
	switch v.Type {
	case attr.TypeS:
		dst = append(dst, `{"S":`...)
		dst = appendString(dst, v.S)
	case attr.TypeN:
		dst = append(dst, `{"N":`...)
		dst = appendString(dst, v.S)
	case attr.TypeB:
		dst = append(dst, `{"B":`...)
		dst = appendBase64(dst, v.B)
	case attr.TypeBOOL:
		dst = append(dst, `{"BOOL":`...)
		dst = appendBool(dst, v.Bool)
	case attr.TypeNULL:
		dst = append(dst, `{"NULL":true`...)
	case attr.TypeM:
		dst = append(dst, `{"M":`...)
		dst = appendItem(dst, v.M)
	case attr.TypeL:
		dst = append(dst, `{"L":[`...)
		for i := range v.L {
			dst = comma(dst)
			dst = appendValue(dst, &v.L[i])
		}
		dst = append(dst, ']')
	case attr.TypeSS:
		dst = append(dst, `{"SS":`...)
		dst = appendStrings(dst, v.SS)
	case attr.TypeNS:
		dst = append(dst, `{"NS":`...)
		dst = appendStrings(dst, v.SS)
	case attr.TypeBS:
		dst = append(dst, `{"BS":[`...)
		for _, b := range v.BS {
			dst = appendBase64(comma(dst), b)
		}
		dst = append(dst, ']')
	default:
		return append(dst, '{', '}')
	}
	return append(dst, '}')
}

// appendStrings appends a list of strings; nil is written as [].
func appendStrings(dst []byte, list []string) []byte {
	dst = append(dst, '[')
	for _, s := range list {
		dst = appendString(comma(dst), s)
	}
	return append(dst, ']')
}

// appendRawItem appends the item r reads (attr's encoding) as appendItem
// appends it decoded: the encoding keeps names and set members in the
// order appendItem sorts them into, so the bytes are the same. It makes
// the checks attr.Raw asks for, so that r.Malformed then tells whether
// the item was well formed (when it was not, what was appended means
// nothing).
func appendRawItem(dst []byte, r *attr.Raw) []byte { return appendRawMap(dst, r, 0) }

// appendRawMap appends a map whose own depth is depth (0 for the item).
func appendRawMap(dst []byte, r *attr.Raw, depth int) []byte {
	dst = append(dst, '{')
	var prev []byte
	for i, n := 0, r.Count(); i < n; i++ {
		name := r.Bytes()
		if i > 0 {
			r.CheckOrder(prev, name)
		}
		prev = name
		dst = appendStringBytes(comma(dst), name)
		dst = append(dst, ':')
		dst = appendRawValue(dst, r, depth+1)
	}
	return append(dst, '}')
}

// appendRawValue appends the value r reads, at depth depth, as
// appendValue appends it decoded.
func appendRawValue(dst []byte, r *attr.Raw, depth int) []byte {
	r.CheckDepth(depth)
	switch t := r.Type(); t {
	case attr.TypeS:
		dst = append(dst, `{"S":`...)
		dst = appendStringBytes(dst, r.Bytes())
	case attr.TypeN:
		dst = append(dst, `{"N":`...)
		dst = appendStringBytes(dst, r.Bytes())
	case attr.TypeB:
		dst = append(dst, `{"B":`...)
		dst = appendBase64(dst, r.Bytes())
	case attr.TypeBOOL:
		dst = append(dst, `{"BOOL":`...)
		dst = appendBool(dst, r.Bool())
	case attr.TypeNULL:
		dst = append(dst, `{"NULL":true`...)
	case attr.TypeM:
		dst = append(dst, `{"M":`...)
		dst = appendRawMap(dst, r, depth)
	case attr.TypeL:
		dst = append(dst, `{"L":[`...)
		for n := r.Count(); n > 0; n-- {
			dst = appendRawValue(comma(dst), r, depth+1)
		}
		dst = append(dst, ']')
	case attr.TypeSS, attr.TypeNS:
		dst = append(dst, `{"`...)
		dst = append(dst, t.String()...)
		dst = append(dst, `":[`...)
		var prev []byte
		for i, n := 0, r.Count(); i < n; i++ {
			m := r.Bytes()
			if i > 0 {
				r.CheckOrder(prev, m)
			}
			prev = m
			dst = appendStringBytes(comma(dst), m)
		}
		dst = append(dst, ']')
	case attr.TypeBS:
		dst = append(dst, `{"BS":[`...)
		var prev []byte
		for i, n := 0, r.Count(); i < n; i++ {
			m := r.Bytes()
			if i > 0 {
				r.CheckOrder(prev, m)
			}
			prev = m
			dst = appendBase64(comma(dst), m)
		}
		dst = append(dst, ']')
	default:
		return append(dst, '{', '}')
	}
	return append(dst, '}')
}

// appendStringBytes is appendString for bytes: those that need no escape,
// the common case, are appended as they are, without a string's copy.
func appendStringBytes(dst []byte, b []byte) []byte {
	if plainRun(b) < len(b) {
		return appendString(dst, string(b))
	}
	dst = append(dst, '"')
	dst = append(dst, b...)
	return append(dst, '"')
}

// plainRun returns the length of the run of bytes at the start of s that
// stand for themselves in a JSON string (strPlain), reading eight bytes
// at a time: a word has none of the others when no byte is under 0x20,
// none has its high bit set, and none is a quote or a backslash (a byte
// of the word xor that byte repeated is zero). Each test subtracts 1 (or
// 0x20) from every byte and keeps the high bits that the subtraction set
// in bytes where it was clear: a borrow can set one only in a byte above
// a byte that tested true, so a word tests true exactly when one of its
// bytes does.
func plainRun[T string | []byte](s T) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; len(s)-i >= 8; i += 8 {
		t := s[i : i+8]
		w := uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24 |
			uint64(t[4])<<32 | uint64(t[5])<<40 | uint64(t[6])<<48 | uint64(t[7])<<56
		q := w ^ (ones * '"')
		b := w ^ (ones * '\\')
		if (w|(w-ones*0x20)&^w|(q-ones)&^q|(b-ones)&^b)&highs != 0 {
			break
		}
	}
	for i < len(s) && strPlain[s[i]] {
		i++
	}
	return i
}
