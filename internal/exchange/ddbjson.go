package exchange

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/dynago/dynago/attr"
)

// AppendItemJSON appends it in DynamoDB JSON ({"name":{"S":"x"},...}),
// its attribute names in byte order so that equal items give equal text.
func AppendItemJSON(dst []byte, it attr.Item) []byte {
	return appendMapJSON(dst, it)
}

func appendMapJSON(dst []byte, m map[string]attr.Value) []byte {
	dst = append(dst, '{')
	for i, k := range sortedKeys(m) {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendJSONString(dst, k)
		dst = append(dst, ':')
		dst = AppendValueJSON(dst, m[k])
	}
	return append(dst, '}')
}

func sortedKeys(m map[string]attr.Value) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// AppendValueJSON appends v in DynamoDB JSON: an object whose one member
// names the type.
func AppendValueJSON(dst []byte, v attr.Value) []byte {
	dst = append(dst, '{')
	dst = appendJSONString(dst, v.Type.String())
	dst = append(dst, ':')
	switch v.Type {
	case attr.TypeS, attr.TypeN:
		dst = appendJSONString(dst, v.S)
	case attr.TypeB:
		dst = append(dst, '"')
		dst = base64.StdEncoding.AppendEncode(dst, v.B)
		dst = append(dst, '"')
	case attr.TypeBOOL:
		dst = strconv.AppendBool(dst, v.Bool)
	case attr.TypeNULL:
		dst = append(dst, "true"...)
	case attr.TypeM:
		dst = appendMapJSON(dst, v.M)
	case attr.TypeL:
		dst = append(dst, '[')
		for i, e := range v.L {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = AppendValueJSON(dst, e)
		}
		dst = append(dst, ']')
	case attr.TypeSS, attr.TypeNS:
		dst = append(dst, '[')
		for i, s := range v.SS {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendJSONString(dst, s)
		}
		dst = append(dst, ']')
	case attr.TypeBS:
		dst = append(dst, '[')
		for i, b := range v.BS {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, '"')
			dst = base64.StdEncoding.AppendEncode(dst, b)
			dst = append(dst, '"')
		}
		dst = append(dst, ']')
	default:
		dst = append(dst, "null"...)
	}
	return append(dst, '}')
}

const hexDigits = "0123456789abcdef"

// appendJSONString appends s as a JSON string, escaping what JSON
// requires (and invalid UTF-8 as U+FFFD), leaving other characters as
// they are.
func appendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				dst = append(dst, '\\', c)
			case c == '\n':
				dst = append(dst, '\\', 'n')
			case c == '\r':
				dst = append(dst, '\\', 'r')
			case c == '\t':
				dst = append(dst, '\\', 't')
			case c < 0x20:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			default:
				dst = append(dst, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, `\ufffd`...)
		} else {
			dst = append(dst, s[i:i+size]...)
		}
		i += size
	}
	return append(dst, '"')
}

// ParseItemJSON reads an item in DynamoDB JSON, checks it as DynamoDB
// checks an item it is given (attr.CanonicalizeItem: one type per value,
// valid numbers, non-empty sets without duplicates, nesting depth) and
// returns it with its numbers in canonical form.
func ParseItemJSON(data []byte) (attr.Item, error) {
	var raw map[string]json.RawMessage
	if err := unmarshalObject(data, &raw); err != nil {
		return nil, err
	}
	it, err := itemFromRaw(raw, 0)
	if err != nil {
		return nil, err
	}
	if err := attr.CanonicalizeItem(it); err != nil {
		return nil, err
	}
	return it, nil
}

// maxJSONDepth bounds the nesting of a value read, well past DynamoDB's
// own limit (attr.CanonicalizeItem reports that one in its words).
const maxJSONDepth = 64

func unmarshalObject(data []byte, v *map[string]json.RawMessage) error {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] != '{' {
		return errors.New("not a JSON object")
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("malformed JSON: %v", err)
	}
	return nil
}

func itemFromRaw(raw map[string]json.RawMessage, depth int) (attr.Item, error) {
	it := make(attr.Item, len(raw))
	for name, r := range raw {
		v, err := valueFromRaw(r, depth+1)
		if err != nil {
			return nil, fmt.Errorf("attribute %q: %w", name, err)
		}
		it[name] = v
	}
	return it, nil
}

func valueFromRaw(r json.RawMessage, depth int) (attr.Value, error) {
	if depth > maxJSONDepth {
		return attr.Value{}, errors.New("nested too deep")
	}
	var obj map[string]json.RawMessage
	if err := unmarshalObject(r, &obj); err != nil {
		return attr.Value{}, errors.New("an attribute value must be an object naming its type, such as {\"S\":\"x\"}")
	}
	if len(obj) != 1 {
		return attr.Value{}, fmt.Errorf("an attribute value must name exactly one type, it names %d", len(obj))
	}
	for typ, body := range obj {
		return typedValue(typ, body, depth)
	}
	panic("unreachable")
}

func typedValue(typ string, body json.RawMessage, depth int) (attr.Value, error) {
	bad := func(want string) (attr.Value, error) {
		return attr.Value{}, fmt.Errorf("%s wants %s", typ, want)
	}
	switch t := attr.ParseType(typ); t {
	case attr.TypeS, attr.TypeN:
		var s string
		if json.Unmarshal(body, &s) != nil {
			return bad("a string")
		}
		return attr.Value{Type: t, S: s}, nil
	case attr.TypeB:
		b, err := base64JSON(body)
		if err != nil {
			return bad("a base64 string")
		}
		return attr.B(b), nil
	case attr.TypeBOOL:
		var b bool
		if json.Unmarshal(body, &b) != nil {
			return bad("true or false")
		}
		return attr.Bool(b), nil
	case attr.TypeNULL:
		var b bool
		if json.Unmarshal(body, &b) != nil || !b {
			return bad("true")
		}
		return attr.Null(), nil
	case attr.TypeM:
		var m map[string]json.RawMessage
		if unmarshalObject(body, &m) != nil {
			return bad("an object")
		}
		it, err := itemFromRaw(m, depth)
		if err != nil {
			return attr.Value{}, err
		}
		return attr.Value{Type: attr.TypeM, M: it}, nil
	case attr.TypeL:
		var l []json.RawMessage
		if json.Unmarshal(body, &l) != nil || l == nil {
			return bad("an array")
		}
		vs := make([]attr.Value, len(l))
		for i, e := range l {
			v, err := valueFromRaw(e, depth+1)
			if err != nil {
				return attr.Value{}, fmt.Errorf("element %d: %w", i, err)
			}
			vs[i] = v
		}
		return attr.Value{Type: attr.TypeL, L: vs}, nil
	case attr.TypeSS, attr.TypeNS:
		var ss []string
		if json.Unmarshal(body, &ss) != nil || ss == nil {
			return bad("an array of strings")
		}
		return attr.Value{Type: t, SS: ss}, nil
	case attr.TypeBS:
		var l []json.RawMessage
		if json.Unmarshal(body, &l) != nil || l == nil {
			return bad("an array of base64 strings")
		}
		bs := make([][]byte, len(l))
		for i, e := range l {
			b, err := base64JSON(e)
			if err != nil {
				return bad("an array of base64 strings")
			}
			bs[i] = b
		}
		return attr.Value{Type: attr.TypeBS, BS: bs}, nil
	}
	return attr.Value{}, fmt.Errorf("unknown attribute type %q", typ)
}

func base64JSON(body json.RawMessage) ([]byte, error) {
	var s string
	if err := json.Unmarshal(body, &s); err != nil {
		return nil, err
	}
	return base64.StdEncoding.DecodeString(s)
}

type jsonRaw = json.RawMessage

func decodeBase64(s string) ([]byte, error) { return base64.StdEncoding.DecodeString(s) }
