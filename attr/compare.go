package attr

import (
	"bytes"
	"strconv"
	"strings"
)

// Compare orders two scalar values of the same key type the way DynamoDB
// orders sort keys and evaluates <, <=, >, >= and BETWEEN: S bytewise by
// UTF-8 encoding, N by numeric value, B bytewise as unsigned bytes. It returns
// -1, 0 or +1 and ok=true; ok is false (and the int 0) when a and b differ in
// type or are of any other type, which DynamoDB does not order.
func Compare(a, b Value) (int, bool) {
	if a.Type != b.Type {
		return 0, false
	}
	switch a.Type {
	case TypeS:
		return strings.Compare(a.S, b.S), true
	case TypeN:
		return CompareNumbers(a.S, b.S), true
	case TypeB:
		return bytes.Compare(a.B, b.B), true
	}
	return 0, false
}

// Equal reports whether a and b are the same DynamoDB value, as the = and <>
// operators and conditions see it: same type; numbers equal by value ("1" and
// "1.0"); sets equal as sets (order ignored, NS members by value); maps with
// the same keys and Equal values; lists with Equal elements in order. A nil
// and an empty B, L, M or set are equal. Two TypeInvalid values are equal.
func Equal(a, b Value) bool {
	return equal(a, b)
}

// equal takes its values by value so that map entries stay on the stack.
func equal(a, b Value) bool {
	if a.Type != b.Type {
		return false
	}
	switch a.Type {
	case TypeS:
		return a.S == b.S
	case TypeN:
		return a.S == b.S || CompareNumbers(a.S, b.S) == 0
	case TypeB:
		return bytes.Equal(a.B, b.B)
	case TypeBOOL:
		return a.Bool == b.Bool
	case TypeNULL, TypeInvalid:
		return true
	case TypeM:
		if len(a.M) != len(b.M) {
			return false
		}
		for k, av := range a.M {
			bv, ok := b.M[k]
			if !ok || !equal(av, bv) {
				return false
			}
		}
		return true
	case TypeL:
		if len(a.L) != len(b.L) {
			return false
		}
		for i := range a.L {
			if !equal(a.L[i], b.L[i]) {
				return false
			}
		}
		return true
	case TypeSS:
		return sameSet(a.SS, b.SS, func(x, y string) bool { return x == y }, identity)
	case TypeNS:
		return sameSet(a.SS, b.SS, func(x, y string) bool { return x == y || CompareNumbers(x, y) == 0 }, numberKey)
	case TypeBS:
		return sameSet(a.BS, b.BS, bytes.Equal, func(x []byte) string { return string(x) })
	}
	return false
}

// sameSet reports whether every member of a is in b and every member of b is
// in a. Small sets are compared pairwise with eq; larger ones through maps of
// key, which must map members to equal strings exactly when eq holds. Both
// directions are checked so that duplicates in an invalid set cannot make
// unequal sets look equal.
func sameSet[T any](a, b []T, eq func(x, y T) bool, key func(T) string) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) <= smallSet {
		return subset(a, b, eq) && subset(b, a, eq)
	}
	ka := make(map[string]struct{}, len(a))
	for _, x := range a {
		ka[key(x)] = struct{}{}
	}
	kb := make(map[string]struct{}, len(b))
	for _, y := range b {
		k := key(y)
		if _, ok := ka[k]; !ok {
			return false
		}
		kb[k] = struct{}{}
	}
	return len(ka) == len(kb)
}

func subset[T any](a, b []T, eq func(x, y T) bool) bool {
next:
	for _, x := range a {
		for _, y := range b {
			if eq(x, y) {
				continue next
			}
		}
		return false
	}
	return true
}

func identity(s string) string { return s }

// numberKey maps number texts to strings that are equal exactly when
// CompareNumbers says the numbers are: sign, adjusted exponent and
// significant digits (compact even for out-of-range exponents), or for text
// that does not parse, the text behind a marker byte no other key starts
// with.
func numberKey(s string) string {
	n, ok := scanNumber(s)
	if !ok {
		return "\x00" + s
	}
	if n.isZero() {
		return "0"
	}
	b := make([]byte, 0, 24+n.digits())
	if n.neg {
		b = append(b, '-')
	}
	b = strconv.AppendInt(b, n.adj, 10)
	b = append(b, 'e')
	for k := 0; k < n.digits(); k++ {
		b = append(b, n.digit(n.first+k))
	}
	return string(b)
}
