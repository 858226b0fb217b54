package attr

import (
	"bytes"
	"iter"
	"maps"
	"slices"
)

// MaxDepth is the deepest nesting DynamoDB accepts. An item's attribute is at
// level 1 and each element of an M or L is one level below its container, so
// a scalar wrapped in 31 maps (at level 32) is accepted and one wrapped in 32
// maps is not.
const MaxDepth = 32

// MaxAttributeNameSize is the longest attribute name (or map key) DynamoDB
// accepts in an item, in UTF-8 bytes: 65,535, one less than the 64 KB its
// documentation gives (Alternator's test_limits.py, run against DynamoDB).
const MaxAttributeNameSize = 65535

// Key value size limits, in bytes of the value (the name does not count).
const (
	MaxPartitionKeySize = 2048
	MaxSortKeySize      = 1024
)

// Canonicalize validates v as an item attribute value, and every value nested
// in it, by DynamoDB's rules, and rewrites each number (N, NS members, at any
// depth) to its canonical text in place. It writes into v's maps and slices,
// which may be shared with the caller.
//
// The rules: exactly one type (not TypeInvalid); NULL must be true; numbers
// must be valid (see NormalizeNumber); sets must be non-empty and free of
// duplicates (NS members by value, so "1" and "1.0" collide); nesting at most
// MaxDepth levels. Empty strings and binaries are allowed: key attributes
// are checked separately by ValidateKeyValue.
//
// The error, if any, is an *Error. When a value breaks several rules the one
// reported is deterministic: map entries are examined in key order.
func (v *Value) Canonicalize() error {
	return v.canonicalizeAt(1)
}

// canonicalizeAt validates v at the given nesting level. It first walks maps
// in their random order (cheap), and only on failure walks again in key
// order to pick the error deterministically; the second walk repeats
// idempotent rewrites only.
func (v *Value) canonicalizeAt(level int) error {
	if err := v.canonicalize(level, false); err != nil {
		if err2 := v.canonicalize(level, true); err2 != nil {
			return err2
		}
		return err
	}
	return nil
}

// CanonicalizeItem canonicalizes every attribute of it as Value.Canonicalize
// does, and also rejects an attribute named "". Numbers are rewritten in place.
func CanonicalizeItem(it Item) error {
	if err := canonicalizeMap(it, 1, false); err != nil {
		if err2 := canonicalizeMap(it, 1, true); err2 != nil {
			return err2
		}
		return err
	}
	return nil
}

// Malformed returns a marker for a value the protocol decoder found
// malformed (empty, of several types, nested past its depth guard), msg
// being DynamoDB's message for it: a Value of TypeInvalid whose S is msg.
// Validation reports msg where it meets the marker, so a malformed value
// is reported at its own place among the request's other values.
func Malformed(msg string) Value { return Value{S: msg} }

// NumberProblem returns DynamoDB's message for s as the text of an N
// value, or "" if s is a valid number.
func NumberProblem(s string) string {
	if _, err := normalizeNumber(s); err != nil {
		return err.Message
	}
	return ""
}

// CheckNames checks the names of it as CanonicalizeItem does (none empty,
// none too long), in the same order, without looking at the values.
func CheckNames(it Item) error {
	bad := false
	for k := range it {
		if k == "" || len(k) > MaxAttributeNameSize {
			bad = true
			break
		}
	}
	if !bad {
		return nil
	}
	for _, k := range slices.Sorted(maps.Keys(it)) {
		if k == "" {
			return newError(MsgEmptyAttributeName)
		}
		if len(k) > MaxAttributeNameSize {
			return newError(MsgAttributeNameTooLarge)
		}
	}
	return nil
}

// canonicalizeMap canonicalizes the values of m, which sit at level. Item
// attribute names (level 1) must not be empty.
func canonicalizeMap(m map[string]Value, level int, sorted bool) *Error {
	if !sorted {
		// Go's map order, without collecting the keys: the common case,
		// an item that is valid.
		for k, e := range m {
			if err := canonicalizeMember(m, k, e, level, false); err != nil {
				return err
			}
		}
		return nil
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if err := canonicalizeMember(m, k, m[k], level, true); err != nil {
			return err
		}
	}
	return nil
}

// canonicalizeMember canonicalizes e, the value of m's member k.
func canonicalizeMember(m map[string]Value, k string, e Value, level int, sorted bool) *Error {
	if k == "" && level == 1 {
		return newError(MsgEmptyAttributeName)
	}
	if len(k) > MaxAttributeNameSize {
		return newError(MsgAttributeNameTooLarge)
	}
	old := e.S
	if err := e.canonicalize(level, sorted); err != nil {
		return err
	}
	// Nested maps and slices are shared with m's copy, so only a
	// rewritten N needs storing back.
	if e.Type == TypeN && e.S != old {
		m[k] = e
	}
	return nil
}

// MemberKeys yields the keys of a map value: in sorted order when sorted
// is true, so that the first problem found is the same on every run, and
// in Go's map order otherwise, which is cheaper.
func MemberKeys(m map[string]Value, sorted bool) iter.Seq[string] {
	if !sorted {
		return maps.Keys(m)
	}
	return slices.Values(slices.Sorted(maps.Keys(m)))
}

// canonicalize marks the problems of a value's own with their current
// layer's text (valueError); a Malformed marker and an empty value, which
// the protocol decoder finds, are not marked.
func (v *Value) canonicalize(level int, sorted bool) *Error {
	if level > MaxDepth {
		return valueError(newError(MsgNestingTooDeep))
	}
	switch v.Type {
	case TypeS, TypeB, TypeBOOL:
		return nil
	case TypeN:
		c, err := normalizeNumber(v.S)
		if err != nil {
			return valueError(err)
		}
		v.S = c
		return nil
	case TypeNULL:
		if !v.Bool {
			return valueError(newError(MsgNullNotTrue))
		}
		return nil
	case TypeM:
		return canonicalizeMap(v.M, level+1, sorted)
	case TypeL:
		for i := range v.L {
			if err := v.L[i].canonicalize(level+1, sorted); err != nil {
				return err
			}
		}
		return nil
	case TypeSS:
		if len(v.SS) == 0 {
			return valueError(newError(MsgEmptyStringSet))
		}
		if hasDuplicateStrings(v.SS) {
			return stringSetDuplicatesError(v.SS)
		}
		return nil
	case TypeNS:
		if len(v.SS) == 0 {
			return valueError(newError(MsgEmptyNumberSet))
		}
		for i, s := range v.SS {
			c, err := normalizeNumber(s)
			if err != nil {
				return valueError(err)
			}
			if c != s {
				v.SS[i] = c
			}
		}
		// Canonical texts are equal exactly when the values are.
		if hasDuplicateStrings(v.SS) {
			return &Error{Message: MsgNumberSetDuplicates, Current: msgNumberSetDuplicatesCurrent}
		}
		return nil
	case TypeBS:
		if len(v.BS) == 0 {
			return valueError(newError(MsgEmptyBinarySet))
		}
		if hasDuplicateBytes(v.BS) {
			return binarySetDuplicatesError(v.BS)
		}
		return nil
	}
	if v.Type == TypeInvalid && v.S != "" {
		return newError(v.S) // a Malformed marker
	}
	return newError(MsgEmptyValue)
}

// smallSet is the size up to which duplicate checks compare pairwise rather
// than build a map.
const smallSet = 16

func hasDuplicateStrings(ss []string) bool {
	if len(ss) <= smallSet {
		for i := 1; i < len(ss); i++ {
			for j := 0; j < i; j++ {
				if ss[i] == ss[j] {
					return true
				}
			}
		}
		return false
	}
	seen := make(map[string]struct{}, len(ss))
	for _, s := range ss {
		if _, ok := seen[s]; ok {
			return true
		}
		seen[s] = struct{}{}
	}
	return false
}

func hasDuplicateBytes(bs [][]byte) bool {
	if len(bs) <= smallSet {
		for i := 1; i < len(bs); i++ {
			for j := 0; j < i; j++ {
				if bytes.Equal(bs[i], bs[j]) {
					return true
				}
			}
		}
		return false
	}
	seen := make(map[string]struct{}, len(bs))
	for _, b := range bs {
		if _, ok := seen[string(b)]; ok {
			return true
		}
		seen[string(b)] = struct{}{}
	}
	return false
}

// ValidateKeyValue checks v as the value of the key attribute name, a
// partition key if isPartition and a sort key otherwise: it must be an S, N
// or B, S and B must not be empty, and the value may not exceed
// MaxPartitionKeySize or MaxSortKeySize bytes (numbers are sized as
// AttributeSize sizes them). Numbers are expected to be canonicalized
// already; their syntax is not checked here.
//
// It does not know the key's declared type. Callers check that first,
// because DynamoDB's message for a mismatch depends on the operation: see
// KeyTypeMismatchError (item writes) and MsgKeySchemaMismatch (key lookups).
// A non-scalar v gets MsgKeySchemaMismatch here.
func ValidateKeyValue(name string, v Value, isPartition bool) error {
	var size int
	switch v.Type {
	case TypeS:
		if v.S == "" {
			return newError("One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: " + name)
		}
		size = len(v.S)
	case TypeB:
		if len(v.B) == 0 {
			return newError("One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty binary value. Key: " + name)
		}
		size = len(v.B)
	case TypeN:
		size = numberSize(v.S)
	default:
		return newError(MsgKeySchemaMismatch)
	}
	if isPartition && size > MaxPartitionKeySize {
		return newError(MsgHashKeyTooLarge)
	}
	if !isPartition && size > MaxSortKeySize {
		return newError(MsgRangeKeyTooLarge)
	}
	return nil
}
