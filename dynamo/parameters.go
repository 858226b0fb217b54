package dynamo

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/dynago/dynago/attr"
)

// The checks of a PartiQL statement's Parameters: the statement language
// above the engine (package partiql) binds a statement's parameters
// through CheckParameters, and the protocol decoder asks QLParamLeafFails
// which member of a map parameter fails first.

// CheckParameters validates a statement's parameters in order, as
// DynamoDB does before it reads the statement's literals, canonicalizing
// their numbers in place, then their number against want, the
// statement's ? count.
func CheckParameters(params []attr.Value, want int) error {
	for i := range params {
		if err := qlParamError(&params[i]); err != nil {
			return err
		}
	}
	if len(params) != want {
		return Validation(msgQLParamCount)
	}
	return nil
}

// msgQLParamCount: recorded by moto (a batch statement with more
// parameters than ?) and DynamoDB Local (fewer).
const msgQLParamCount = "Number of parameters in request and statement don't match."

// qlParamError checks v, a parameter, and canonicalizes its numbers in
// place. It reports the first problem in document order: DynamoDB "reports
// whichever it reaches first in document order"
// (paritysuite/dynamodb-conformance,
// tests/tier3/error-messages/partiqlParameterNumbers.test.ts, eu-west-2 and
// us-east-1, October 2026: a member of a map nested 40 or 100 levels before
// an unconvertible one, and the reverse). A list's elements are checked in
// order; a map's members in key order, as a Go map keeps no other: the
// protocol decoder leaves in a map only the first member with a problem in
// the request's order (QLParamLeafFails), so the key order then picks
// that one. A first walk takes the maps in their own order (cheap);
// only on failure does a second, in key order, pick the problem, repeating
// idempotent rewrites only.
func qlParamError(v *attr.Value) error {
	if err := qlValueCheck(v, 1, false); err != nil {
		if err2 := qlValueCheck(v, 1, true); err2 != nil {
			return err2
		}
		return err
	}
	return nil
}

// qlValueCheck checks v at level (a parameter is at level 1), walking
// maps in key order if sorted.
func qlValueCheck(v *attr.Value, level int, sorted bool) error {
	if level > attr.MaxDepth {
		return AttrError(&attr.Error{Message: attr.MsgNestingTooDeep, Current: attr.MsgNestingTooDeep})
	}
	switch v.Type {
	case attr.TypeM:
		return qlMembersError(v.M, level, sorted)
	case attr.TypeL:
		for i := range v.L {
			if err := qlValueCheck(&v.L[i], level+1, sorted); err != nil {
				return err
			}
		}
		return nil
	}
	return qlLeafError(v)
}

// qlMembersError checks the members of a map at level, in key order if
// sorted.
func qlMembersError(m map[string]attr.Value, level int, sorted bool) error {
	visit := func(k string) error {
		if len(k) > attr.MaxAttributeNameSize {
			return AttrError(&attr.Error{Message: attr.MsgAttributeNameTooLarge})
		}
		e := m[k]
		old := e.S
		if err := qlValueCheck(&e, level+1, sorted); err != nil {
			return err
		}
		if e.Type == attr.TypeN && e.S != old {
			m[k] = e // nested maps and slices are shared with m's copy
		}
		return nil
	}
	for k := range attr.MemberKeys(m, sorted) {
		if err := visit(k); err != nil {
			return err
		}
	}
	return nil
}

// qlLeafError checks a parameter's value that is neither a map nor a list
// (or a marker of the protocol decoder's, attr.Malformed) and canonicalizes
// its numbers in place: a number DynamoDB cannot read as a BigDecimal, then
// one whose magnitude check wraps, then the value checks of an item's
// values.
func qlLeafError(v *attr.Value) error {
	if v.Type == attr.TypeN && canonicalInteger(v.S) {
		return nil // fits, and Canonicalize would leave it as it is
	}
	if text, ok := unconvertible(*v); ok {
		return Validation(attr.MsgNumberSyntax + ": " + text)
	}
	if magnitudeWraps(*v) {
		return Validation(attr.MsgNumberUnderflow)
	}
	return AttrError(v.Canonicalize())
}

// QLParamLeafFails reports whether a PartiQL parameter's value v, neither
// a map nor a list, or a marker of the protocol decoder's, is one whose
// binding fails, leaving v as it is. The protocol decoder uses it to find
// a map parameter's first member with a problem in document order
// (qlParamError).
func QLParamLeafFails(v attr.Value) bool {
	if v.Type == attr.TypeNS {
		v.SS = slices.Clone(v.SS) // Canonicalize rewrites members in place
	}
	return qlLeafError(&v) != nil
}

// canonicalInteger reports a number written as Canonicalize writes it,
// an integer of at most 38 digits without leading zeros ("0", "507",
// "-12"): the common parameter, which needs no work.
func canonicalInteger(s string) bool {
	d := s
	if len(d) > 0 && d[0] == '-' {
		d = d[1:]
		if d == "0" {
			return false
		}
	}
	if len(d) == 0 || len(d) > 38 || d[0] == '0' && len(d) > 1 {
		return false
	}
	for i := 0; i < len(d); i++ {
		if d[i] < '0' || d[i] > '9' {
			return false
		}
	}
	return true
}

// unconvertible finds a number in v, an N or NS value, that DynamoDB
// cannot read as a BigDecimal (recorded: partiqlParameterNumbers.test.ts).
func unconvertible(v attr.Value) (string, bool) {
	switch v.Type {
	case attr.TypeN:
		return v.S, v.S != "" && !attr.NumberFits(v.S)
	case attr.TypeNS:
		for _, s := range v.SS {
			if s != "" && !attr.NumberFits(s) {
				return s, true
			}
		}
	}
	return "", false
}

// magnitudeWraps finds a number in v that DynamoDB calls an underflow
// although it is far too large: it checks a parameter's magnitude as
// precision less scale in 32-bit arithmetic, and for an exponent near
// 2^31 that sum wraps negative, so 1e2147483647 is an underflow where
// 1e2147483646 is an overflow (recorded: partiqlParameterNumbers.test.ts,
// "the parameter 1e2147483647 in %s underflows"). v holds only numbers
// that unconvertible passed, whose exponent and scale fit 32 bits.
func magnitudeWraps(v attr.Value) bool {
	switch v.Type {
	case attr.TypeN:
		return numberWraps(v.S)
	case attr.TypeNS:
		return slices.ContainsFunc(v.SS, numberWraps)
	}
	return false
}

// numberWraps reports a number whose precision (the digits of its
// unscaled value) less its scale (the digits after the point less the
// exponent) is above the largest 32-bit integer.
func numberWraps(s string) bool {
	mant, exp, ok := strings.Cut(strings.ToLower(s), "e")
	if !ok {
		return false
	}
	e, err := strconv.ParseInt(strings.TrimPrefix(exp, "+"), 10, 64)
	if err != nil {
		return false
	}
	whole, frac, _ := strings.Cut(strings.TrimLeft(mant, "+-"), ".")
	digits := strings.TrimLeft(whole+frac, "0")
	if digits == "" {
		return false // zero has no magnitude to check
	}
	return int64(len(digits))-(int64(len(frac))-e) > math.MaxInt32
}
