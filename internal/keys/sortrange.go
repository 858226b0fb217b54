package keys

import (
	"bytes"
	"fmt"

	"github.com/dynago/dynago/attr"
)

// Op is a Query key condition on one sort key element.
type Op uint8

// The sort key conditions of a Query.
const (
	// OpAny places no condition on the element.
	OpAny Op = iota
	// OpEQ is sk = a.
	OpEQ
	// OpLT is sk < a.
	OpLT
	// OpLE is sk <= a.
	OpLE
	// OpGT is sk > a.
	OpGT
	// OpGE is sk >= a.
	OpGE
	// OpBetween is sk BETWEEN a AND b (both ends inclusive).
	OpBetween
	// OpBeginsWith is begins_with(sk, a); a is S or B.
	OpBeginsWith
)

// String returns the operator as written in a key condition expression.
func (op Op) String() string {
	switch op {
	case OpAny:
		return "any"
	case OpEQ:
		return "="
	case OpLT:
		return "<"
	case OpLE:
		return "<="
	case OpGT:
		return ">"
	case OpGE:
		return ">="
	case OpBetween:
		return "BETWEEN"
	case OpBeginsWith:
		return "begins_with"
	}
	return fmt.Sprintf("Op(%d)", uint8(op))
}

// SortKeyRange returns the key range [lower, upper) of the rows of one
// partition that satisfy a Query sort key condition.
//
// partition is the PartitionPrefix of the queried partition. eq holds the
// values the leading sort key elements must equal (empty for a single
// sort key attribute); op applies to the element after them, with operand a
// and, for OpBetween, b. OpAny with an empty eq yields the whole partition.
// The element types must match the schema; the caller checks that.
//
// For OpBeginsWith, a must be S or B: the range starts at the escaped bytes
// of a without a terminator, so every value that begins with a falls inside.
// For OpBetween with a > b the range is empty (lower == upper).
//
// The range works for base-table rows and for index rows alike, since a
// condition on an element is decided before the bytes that follow it.
func SortKeyRange(partition []byte, eq []attr.Value, op Op, a, b attr.Value) (lower, upper []byte, err error) {
	n := len(eq)
	if op != OpAny {
		n++
	}
	if n > MaxKeyAttrs {
		return nil, nil, fmt.Errorf("%w: condition on %d sort key values", ErrTupleSize, n)
	}
	base := make([]byte, len(partition), len(partition)+32)
	copy(base, partition)
	if base, err = AppendTuple(base, eq); err != nil {
		return nil, nil, err
	}
	// withValue returns base followed by the encoding of v.
	withValue := func(v attr.Value) ([]byte, error) {
		k := make([]byte, len(base), len(base)+32)
		copy(k, base)
		return AppendValue(k, v)
	}
	var x []byte
	switch op {
	case OpAny:
		lower, upper = base, PrefixEnd(base)
	case OpEQ:
		if x, err = withValue(a); err == nil {
			lower, upper = x, PrefixEnd(x)
		}
	case OpLT:
		if x, err = withValue(a); err == nil {
			lower, upper = base, x
		}
	case OpLE:
		if x, err = withValue(a); err == nil {
			lower, upper = base, PrefixEnd(x)
		}
	case OpGT:
		if x, err = withValue(a); err == nil {
			lower, upper = PrefixEnd(x), PrefixEnd(base)
		}
	case OpGE:
		if x, err = withValue(a); err == nil {
			lower, upper = x, PrefixEnd(base)
		}
	case OpBetween:
		var y []byte
		if x, err = withValue(a); err == nil {
			if y, err = withValue(b); err == nil {
				lower, upper = x, PrefixEnd(y)
			}
		}
	case OpBeginsWith:
		switch a.Type {
		case attr.TypeS:
			x = appendEscapedPrefix(base, a.S)
		case attr.TypeB:
			x = appendEscapedPrefix(base, a.B)
		default:
			return nil, nil, fmt.Errorf("%w: begins_with needs S or B, got %v", ErrKeyType, a.Type)
		}
		lower, upper = x, PrefixEnd(x)
	default:
		return nil, nil, fmt.Errorf("keys: unknown sort key operator %v", op)
	}
	if err != nil {
		return nil, nil, err
	}
	if upper != nil && bytes.Compare(lower, upper) > 0 {
		upper = lower
	}
	return lower, upper, nil
}

// ResumeAfter narrows [lower, upper) for a forward read (Scan, or Query
// with ScanIndexForward true) that resumes after the row key last: the new
// lower bound is the greater of lower and Successor(last).
func ResumeAfter(lower, upper, last []byte) (newLower, newUpper []byte) {
	s := Successor(last)
	if bytes.Compare(s, lower) > 0 {
		lower = s
	}
	if upper != nil && bytes.Compare(lower, upper) > 0 {
		lower = upper
	}
	return lower, upper
}

// ResumeBefore narrows [lower, upper) for a backward read (Query with
// ScanIndexForward false) that resumes before the row key last: the new
// upper bound is the smaller of upper and last.
func ResumeBefore(lower, upper, last []byte) (newLower, newUpper []byte) {
	if upper == nil || bytes.Compare(last, upper) < 0 {
		upper = last
	}
	if bytes.Compare(lower, upper) > 0 {
		upper = lower
	}
	return lower, upper
}
