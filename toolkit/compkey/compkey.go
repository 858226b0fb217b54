// Package compkey builds and parses composite key strings: several typed
// values joined into one DynamoDB string attribute, such as
// "USER#alex#ORDER#00042" or "SHIPPED#2023-01-15T00:00:00.000Z".
//
// A Key is declared once as an ordered list of parts:
//
//	order := compkey.MustNew('#',
//		compkey.Literal("USER#"), compkey.String("user"),
//		compkey.Literal("ORDER#"), compkey.Int("id", 5))
//	sk, _ := order.Build("alex", 42)          // "USER#alex#ORDER#00042"
//	vals, _ := order.Parse(sk)                // ["alex", 42]
//	p, _ := order.Prefix("alex")              // "USER#alex#ORDER#", for begins_with
//
// Two guarantees hold for every Key, and are fuzz-tested:
//
//   - Parse(Build(v)) == v, whatever the values hold, separators included.
//   - Build(a) < Build(b), compared as DynamoDB compares strings (by UTF-8
//     bytes), exactly when the tuple a sorts before b part by part (strings
//     by bytes, integers and times by value). So a Query's sort key order,
//     begins_with and BETWEEN work on the parts as if they were separate
//     attributes.
//
// The second guarantee is why values are escaped rather than written raw:
// in "a#x" against "a!#x" a plain join would put "a!" first, since '!'
// sorts before '#'. Here every byte at or below the escape byte (the
// separator's successor) is written as the escape byte and a letter, so
// the separator sorts below any content and the order of the parts
// survives. Typical values (letters, digits, '-', '_', '.', ':') are
// written unchanged.
package compkey

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Kind is the kind of a part.
type Kind uint8

// Part kinds.
const (
	KindLiteral Kind = iota // fixed text, such as "ORDER#"
	KindString              // any string, escaped
	KindInt                 // a non-negative integer, zero-padded to a width
	KindTime                // a time, as fixed-width ISO-8601 UTC with milliseconds
)

// Part is one element of a Key.
type Part struct {
	Kind  Kind
	Name  string // for messages; the text itself for a literal
	Width int    // KindInt: number of digits
}

// Literal is a fixed part, written as is. It carries its own delimiters:
// Literal("ORDER#"), Literal("dog:command:").
func Literal(text string) Part { return Part{Kind: KindLiteral, Name: text} }

// String is a string part.
func String(name string) Part { return Part{Kind: KindString, Name: name} }

// Int is a non-negative integer part of width digits (1 to 19).
func Int(name string, width int) Part { return Part{Kind: KindInt, Name: name, Width: width} }

// Time is a time part, written in UTC as 2006-01-02T15:04:05.000Z. Times
// are truncated to the millisecond; years must be 0 to 9999.
func Time(name string) Part { return Part{Kind: KindTime, Name: name} }

// timeLayout is fixed-width, so string order is time order.
const timeLayout = "2006-01-02T15:04:05.000Z"

// Key is a declared composite key.
type Key struct {
	parts []Part
	sep   byte
	esc   byte
}

// New declares a key. sep follows every variable part (String, Int, Time)
// that is not the last part of the key, so a parser knows where a string
// ends. It must be ASCII punctuation from '!' to '>' ('#' and ':' are
// usual; '|' is not allowed), so that escapes stay printable ASCII. A key
// needs at least one variable part.
func New(sep byte, parts ...Part) (*Key, error) {
	if sep < '!' || sep >= '?' || (sep >= '0' && sep <= '9') {
		return nil, fmt.Errorf("compkey: separator %q: want ASCII punctuation from '!' to '>'", sep)
	}
	k := &Key{parts: parts, sep: sep, esc: sep + 1}
	vars := 0
	for i, p := range parts {
		switch p.Kind {
		case KindLiteral:
			if p.Name == "" {
				return nil, fmt.Errorf("compkey: part %d: empty literal", i)
			}
			if !utf8.ValidString(p.Name) {
				return nil, fmt.Errorf("compkey: part %d: literal is not UTF-8", i)
			}
		case KindString, KindTime:
			vars++
		case KindInt:
			if p.Width < 1 || p.Width > 19 {
				return nil, fmt.Errorf("compkey: part %q: width %d: want 1 to 19", p.Name, p.Width)
			}
			vars++
		default:
			return nil, fmt.Errorf("compkey: part %d: unknown kind %d", i, p.Kind)
		}
	}
	if vars == 0 {
		return nil, errors.New("compkey: a key needs at least one String, Int or Time part")
	}
	return k, nil
}

// MustNew is New for declarations known to be valid; it panics otherwise.
func MustNew(sep byte, parts ...Part) *Key {
	k, err := New(sep, parts...)
	if err != nil {
		panic(err)
	}
	return k
}

// Parts returns the declared parts.
func (k *Key) Parts() []Part { return append([]Part(nil), k.parts...) }

// NumValues is the number of values Build takes: the variable parts.
func (k *Key) NumValues() int {
	n := 0
	for _, p := range k.parts {
		if p.Kind != KindLiteral {
			n++
		}
	}
	return n
}

// Build joins values, one per variable part in order: string for String,
// a non-negative int, int64 or uint64 for Int, time.Time for Time.
func (k *Key) Build(values ...any) (string, error) {
	if len(values) != k.NumValues() {
		return "", fmt.Errorf("compkey: %d values for %d parts", len(values), k.NumValues())
	}
	return k.encode(values, false)
}

// Prefix returns the text every key whose first len(values) variable parts
// equal values starts with: the argument of begins_with. It includes the
// separator and any literal that follow the last given part, so "alex"
// does not match "alexandra". With no values it is the key's leading
// literal, if any.
func (k *Key) Prefix(values ...any) (string, error) {
	if len(values) > k.NumValues() {
		return "", fmt.Errorf("compkey: %d values for %d parts", len(values), k.NumValues())
	}
	return k.encode(values, true)
}

// Between returns bounds for BETWEEN on the variable part that follows
// fixed: every key whose first parts equal fixed and whose next part lies
// in [lo, hi] (inclusive, whatever parts follow) sorts within [lower,
// upper]. upper ends in U+10FFFF when more parts follow, which sorts after
// any continuation that does not itself contain U+10FFFF.
func (k *Key) Between(fixed []any, lo, hi any) (lower, upper string, err error) {
	n := len(fixed) + 1
	if n > k.NumValues() {
		return "", "", fmt.Errorf("compkey: %d values for %d parts", n, k.NumValues())
	}
	lowVals := append(append([]any(nil), fixed...), lo)
	hiVals := append(append([]any(nil), fixed...), hi)
	if n == k.NumValues() {
		if lower, err = k.encode(lowVals, false); err != nil {
			return "", "", err
		}
		upper, err = k.encode(hiVals, false)
		return lower, upper, err
	}
	if lower, err = k.encode(lowVals, true); err != nil {
		return "", "", err
	}
	if upper, err = k.encode(hiVals, true); err != nil {
		return "", "", err
	}
	return lower, upper + "\U0010FFFF", nil
}

// encode writes the parts up to and including the last of values. As a
// prefix it goes on through the separator and literals that follow.
func (k *Key) encode(values []any, prefix bool) (string, error) {
	var b strings.Builder
	vi := 0
	for i, p := range k.parts {
		if p.Kind == KindLiteral {
			b.WriteString(p.Name)
			continue
		}
		if vi == len(values) {
			if prefix {
				return b.String(), nil
			}
			break
		}
		if err := k.appendValue(&b, p, values[vi]); err != nil {
			return "", err
		}
		vi++
		if k.hasVariableAfter(i) {
			b.WriteByte(k.sep)
		}
	}
	return b.String(), nil
}

// hasVariableAfter reports whether a separator follows variable part i:
// whether any part comes after it.
func (k *Key) hasVariableAfter(i int) bool { return i < len(k.parts)-1 }

func (k *Key) appendValue(b *strings.Builder, p Part, v any) error {
	switch p.Kind {
	case KindString:
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("compkey: part %q: want a string, got %T", p.Name, v)
		}
		if !utf8.ValidString(s) {
			return fmt.Errorf("compkey: part %q: not UTF-8", p.Name)
		}
		for i := 0; i < len(s); i++ {
			c := s[i]
			if c <= k.esc {
				b.WriteByte(k.esc)
				b.WriteByte('@' + c)
				continue
			}
			b.WriteByte(c)
		}
	case KindInt:
		var n uint64
		switch x := v.(type) {
		case int:
			if x < 0 {
				return fmt.Errorf("compkey: part %q: negative %d", p.Name, x)
			}
			n = uint64(x)
		case int64:
			if x < 0 {
				return fmt.Errorf("compkey: part %q: negative %d", p.Name, x)
			}
			n = uint64(x)
		case uint64:
			n = x
		default:
			return fmt.Errorf("compkey: part %q: want an integer, got %T", p.Name, v)
		}
		s := strconv.FormatUint(n, 10)
		if len(s) > p.Width {
			return fmt.Errorf("compkey: part %q: %d has more than %d digits", p.Name, n, p.Width)
		}
		b.WriteString(strings.Repeat("0", p.Width-len(s)))
		b.WriteString(s)
	case KindTime:
		t, ok := v.(time.Time)
		if !ok {
			return fmt.Errorf("compkey: part %q: want a time.Time, got %T", p.Name, v)
		}
		t = t.UTC()
		if t.Year() < 0 || t.Year() > 9999 {
			return fmt.Errorf("compkey: part %q: year %d out of 0-9999", p.Name, t.Year())
		}
		b.WriteString(t.Format(timeLayout))
	}
	return nil
}

// Parse splits a built key back into its values: string, uint64 and
// time.Time for String, Int and Time parts.
func (k *Key) Parse(s string) ([]any, error) {
	var out []any
	rest := s
	for i, p := range k.parts {
		switch p.Kind {
		case KindLiteral:
			if !strings.HasPrefix(rest, p.Name) {
				return nil, fmt.Errorf("compkey: %q: want %q at offset %d", s, p.Name, len(s)-len(rest))
			}
			rest = rest[len(p.Name):]
			continue
		case KindString:
			var b strings.Builder
			j := 0
			for ; j < len(rest); j++ {
				c := rest[j]
				if c == k.sep {
					break
				}
				if c == k.esc {
					if j+1 >= len(rest) || rest[j+1] < '@' || rest[j+1] > '@'+k.esc {
						return nil, fmt.Errorf("compkey: %q: bad escape at offset %d", s, len(s)-len(rest)+j)
					}
					b.WriteByte(rest[j+1] - '@')
					j++
					continue
				}
				if c < k.esc {
					return nil, fmt.Errorf("compkey: %q: unescaped byte %q at offset %d", s, c, len(s)-len(rest)+j)
				}
				b.WriteByte(c)
			}
			out = append(out, b.String())
			rest = rest[j:]
		case KindInt:
			if len(rest) < p.Width {
				return nil, fmt.Errorf("compkey: %q: part %q: want %d digits", s, p.Name, p.Width)
			}
			digits := rest[:p.Width]
			for _, c := range []byte(digits) {
				if c < '0' || c > '9' {
					return nil, fmt.Errorf("compkey: %q: part %q: %q is not %d digits", s, p.Name, digits, p.Width)
				}
			}
			n, err := strconv.ParseUint(digits, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("compkey: %q: part %q: %w", s, p.Name, err)
			}
			out = append(out, n)
			rest = rest[p.Width:]
		case KindTime:
			if len(rest) < len(timeLayout) {
				return nil, fmt.Errorf("compkey: %q: part %q: want a time", s, p.Name)
			}
			t, err := time.Parse(timeLayout, rest[:len(timeLayout)])
			if err != nil {
				return nil, fmt.Errorf("compkey: %q: part %q: %w", s, p.Name, err)
			}
			out = append(out, t)
			rest = rest[len(timeLayout):]
		}
		if k.hasVariableAfter(i) {
			if rest == "" || rest[0] != k.sep {
				return nil, fmt.Errorf("compkey: %q: want %q after part %q", s, k.sep, p.Name)
			}
			rest = rest[1:]
		}
	}
	if rest != "" {
		return nil, fmt.Errorf("compkey: %q: %d unexpected bytes at the end", s, len(rest))
	}
	return out, nil
}
