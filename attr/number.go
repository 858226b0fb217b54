package attr

import (
	"math"
	"math/big"
	"strconv"
	"strings"
)

// DynamoDB numbers are decimals of at most MaxNumberDigits significant
// digits whose magnitude, unless zero, lies between 1E-130 and
// 9.9999999999999999999999999999999999999E+125.
const (
	MaxNumberDigits = 38
	maxAdjExponent  = 125  // adjusted exponent of the largest magnitude
	minAdjExponent  = -130 // adjusted exponent of the smallest magnitude
)

// Accepted syntax:
//
//	[+|-] ( digits [. [digits]] | . digits ) [ (e|E) [+|-] digits ]
//
// ASCII digits only, no spaces anywhere, no "NaN" or "Infinity", no hex.
// DynamoDB has been seen to accept "+3", ".123", "0001.23" and "1e+5" and
// to reject "NaN", "Infinity", " 1", "1 ", "+e2", "1+2" and "1.2.3"
// (ScyllaDB's Alternator tests, dynoxide PR #113). A trailing point as in
// "5." is inferred from Java's BigDecimal, whose grammar DynamoDB's
// matches.
//
// The exponent is read in full as a 64-bit integer before the range is
// checked (paritysuite/dynamodb-conformance, tests/tier3/limits/
// numberExponent.test.ts, eu-west-2, October 2026): one that does not fit
// ("1e9223372036854775808") cannot be converted, MsgNumberSyntax and the
// text, like text that is not a number, on zero too (not recorded for
// zero: the exponent is read first); one that fits is range-checked with
// the rest of the number, however wide: "1e99999999999" and
// "1e2147483648" are MsgNumberOverflow, "1e-99999999999"
// MsgNumberUnderflow.
//
// Zero is range-checked by the exponent it is written with, like any
// other number (the same recording: "0e125" is stored as 0, "0e126" is
// MsgNumberOverflow, "0e-131" MsgNumberUnderflow; it supersedes
// Alternator's older test_invalid_numbers, where DynamoDB accepted
// "0e1000"). Its exponent is BigDecimal's for a zero: the written
// exponent less the digits written after the point ("0.0e126" is
// 0E+125 and accepted), inferred from the Java parser DynamoDB's grammar
// matches; only whole zeros are recorded. internal/keys' number parser
// applies the same rule.
//
// The older validation layer (BatchWriteItem, the transactions; see
// Error.Current) reads a number as Java's BigDecimal does and checks its
// magnitude as precision less scale in 32-bit arithmetic, which wraps
// negative for a magnitude near 10^(2^31): there "1e2147483647" is
// MsgNumberUnderflow where the current layer says MsgNumberOverflow
// (tests/tier3/error-messages/valueLayers.test.ts, 2026-10-09). See
// olderLayerWraps.
const (
	// expClamp bounds the exponent used to compute adj, far beyond the
	// range and far from overflowing int64 once the mantissa's offset is
	// added.
	expClamp = 1 << 50
)

// number is a parsed number that still points into its text: the mantissa's
// digits are the integer digits s[intStart:intEnd] followed by the fraction
// digits s[fracStart:fracEnd], and first..last index the significant digits
// within that virtual digit string.
type number struct {
	s                  string
	neg                bool
	intStart, intEnd   int
	fracStart, fracEnd int
	first, last        int   // significant digits; first > last for zero
	adj                int64 // adjusted exponent: value = d.ddd × 10^adj; for zero, BigDecimal's exponent
	// exp is the written exponent (0 if none), clamped to ±expClamp.
	exp int64
	// unconvertible: the written exponent does not fit 64 bits.
	unconvertible bool
	// scaleFits: the scale (fraction digits less the exponent) and the
	// exponent fit 32 bits, so BigDecimal can read the number.
	scaleFits bool
}

// digit returns the i-th digit of the mantissa.
func (n *number) digit(i int) byte {
	if il := n.intEnd - n.intStart; i >= il {
		return n.s[n.fracStart+i-il]
	}
	return n.s[n.intStart+i]
}

func (n *number) isZero() bool { return n.first > n.last }

// digits is the number of significant digits; 0 for zero.
func (n *number) digits() int { return n.last - n.first + 1 }

// scanNumber parses s without allocating. ok is false if s is not number
// syntax; range and precision are not checked.
func scanNumber(s string) (n number, ok bool) {
	n.s = s
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		n.neg = s[i] == '-'
		i++
	}
	n.intStart = i
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	n.intEnd = i
	if i < len(s) && s[i] == '.' {
		i++
	}
	n.fracStart = i
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	n.fracEnd = i
	intLen, fracLen := n.intEnd-n.intStart, n.fracEnd-n.fracStart
	if intLen+fracLen == 0 {
		return n, false
	}
	var exp int64
	n.scaleFits = true
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		eneg := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			eneg = s[i] == '-'
			i++
		}
		start := i
		var mag uint64 // the exponent's magnitude, saturated above 2^63
		for i < len(s) && isDigit(s[i]) {
			switch {
			case mag > (math.MaxUint64-9)/10:
				mag = math.MaxUint64 // beyond 2^63 already
			default:
				mag = mag*10 + uint64(s[i]-'0')
			}
			i++
		}
		if i == start {
			return n, false
		}
		switch {
		case mag > 1<<63 || mag == 1<<63 && !eneg:
			n.unconvertible = true
			exp = expClamp
		case mag > expClamp:
			exp = expClamp
		default:
			exp = int64(mag)
		}
		if eneg {
			exp = -exp
		}
		scale := int64(fracLen) - exp
		n.scaleFits = mag <= math.MaxInt32+1 && (mag <= math.MaxInt32 || eneg) &&
			scale >= math.MinInt32 && scale <= math.MaxInt32
	}
	n.exp = exp
	if i != len(s) {
		return n, false
	}
	total := intLen + fracLen
	n.first, n.last = 0, total-1
	for n.first < total && n.digit(n.first) == '0' {
		n.first++
	}
	if n.first == total { // zero
		n.first, n.last = 1, 0
		n.adj = exp - int64(fracLen) // BigDecimal's exponent for a zero
		return n, true
	}
	for n.digit(n.last) == '0' {
		n.last--
	}
	n.adj = int64(intLen-1-n.first) + exp
	return n, true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// check applies DynamoDB's rules: an exponent that cannot be converted
// first, then precision, then range. Which error DynamoDB reports for
// text breaking both precision and range has not been captured. Zero is
// range-checked by its exponent, adj.
// The error's Message is the older layer's answer and Current the
// current layer's where they differ (olderLayerWraps).
func (n *number) check() *Error {
	if n.unconvertible {
		return numberSyntaxError(n.s)
	}
	if n.isZero() {
		switch {
		case n.adj > maxAdjExponent:
			return newError(MsgNumberOverflow)
		case n.adj < minAdjExponent:
			return newError(MsgNumberUnderflow)
		}
		return nil
	}
	switch {
	case n.digits() > MaxNumberDigits:
		return newError(MsgNumberPrecision)
	case n.adj > maxAdjExponent:
		if n.olderLayerWraps() {
			return &Error{Message: MsgNumberUnderflow, Current: MsgNumberOverflow}
		}
		return newError(MsgNumberOverflow)
	case n.adj < minAdjExponent:
		return newError(MsgNumberUnderflow)
	}
	return nil
}

// olderLayerWraps reports a non-zero number that the older validation
// layer calls an underflow although it is far too large: BigDecimal can
// read it (its exponent and scale fit 32 bits), and its precision less
// its scale, which is adj+1, does not fit a 32-bit integer, so the
// layer's 32-bit sum wraps negative.
func (n *number) olderLayerWraps() bool {
	return n.scaleFits && n.adj+1 > math.MaxInt32
}

// maxCanonicalLen bounds the canonical text of a valid number:
// "-0." + 129 zeros + 38 digits.
const maxCanonicalLen = 3 + (-minAdjExponent - 1) + MaxNumberDigits

// appendCanonical appends the canonical text of a checked number.
//
// DynamoDB returns numbers in plain notation, never with an exponent, with
// no leading zeros (but one before the point of a fraction), no trailing
// fraction zeros, no '+' and no negative zero: "1E+2" reads back "100",
// 1E+125 as "1" and 125 zeros, "1e-20" as "0.00000000000000000001",
// "-0.0" as "0".
func (n *number) appendCanonical(dst []byte) []byte {
	if n.isZero() {
		return append(dst, '0')
	}
	if n.neg {
		dst = append(dst, '-')
	}
	nd := n.digits()
	if n.adj < 0 {
		dst = append(dst, '0', '.')
		for k := int64(-1); k > n.adj; k-- {
			dst = append(dst, '0')
		}
		for k := 0; k < nd; k++ {
			dst = append(dst, n.digit(n.first+k))
		}
		return dst
	}
	intDigits := int(n.adj) + 1
	for k := 0; k < nd; k++ {
		if k == intDigits {
			dst = append(dst, '.')
		}
		dst = append(dst, n.digit(n.first+k))
	}
	for k := nd; k < intDigits; k++ {
		dst = append(dst, '0')
	}
	return dst
}

// parseNumber scans and checks s.
func parseNumber(s string) (number, *Error) {
	n, ok := scanNumber(s)
	if !ok {
		return n, numberSyntaxError(s)
	}
	if err := n.check(); err != nil {
		return n, err
	}
	return n, nil
}

// NormalizeNumber validates s as a DynamoDB number and returns its canonical
// text: what DynamoDB returns when the number is read back ("-12.50" gives
// "-12.5", "1.5e3" gives "1500", "-0" gives "0"). Errors are *Error with
// DynamoDB's message. If s is already canonical it is returned as is, without
// allocating.
func NormalizeNumber(s string) (string, error) {
	c, err := normalizeNumber(s)
	if err != nil {
		return "", err
	}
	return c, nil
}

// normalizeNumber is NormalizeNumber with a concrete error type.
func normalizeNumber(s string) (string, *Error) {
	n, err := parseNumber(s)
	if err != nil {
		return "", err
	}
	var buf [maxCanonicalLen]byte
	out := n.appendCanonical(buf[:0])
	if string(out) == s {
		return s, nil
	}
	return string(out), nil
}

// AddNumbers returns a+b, or a-b when sub, as canonical number text. a
// and b must be valid numbers (NormalizeNumber accepts them); the error,
// an *Error with DynamoDB's message, says why either is not or why the
// result is not a number DynamoDB can store.
//
// The sum is exact (two valid numbers span at most 126+130+38 decimal
// places, so no rounding is ever needed), and then DynamoDB's number rules
// are applied to it: a magnitude above 9.9999999999999999999999999999999999999E+125
// is MsgNumberOverflow (ExtendDB issue 94 quotes DynamoDB's answer to
// 9.99...E+125 + 1E+125), one below 1E-130 MsgNumberUnderflow, and more
// than 38 significant digits MsgNumberOverflow too, not the input's
// MsgNumberPrecision: DynamoDB answers 1e50 + 1 and 1e50 - 1 with "Number
// overflow" (ScyllaDB Alternator's test_number.py,
// test_update_expression_plus_imprecise, run against DynamoDB, whose
// comment quotes the text).
func AddNumbers(a, b string, sub bool) (string, error) {
	x, err := parseNumber(a)
	if err != nil {
		return "", err
	}
	y, err := parseNumber(b)
	if err != nil {
		return "", err
	}
	if sub {
		y.neg = !y.neg
	}
	switch {
	case y.isZero():
		return canonical(&x), nil
	case x.isZero():
		return canonical(&y), nil
	}
	// value = coefficient × 10^exp for each; align on the smaller exponent.
	cx, ex := x.coefficient(), x.adj-int64(x.digits()-1)
	cy, ey := y.coefficient(), y.adj-int64(y.digits()-1)
	e := min(ex, ey)
	var scale big.Int
	if ex > e {
		cx.Mul(cx, scale.Exp(big.NewInt(10), big.NewInt(ex-e), nil))
	}
	if ey > e {
		cy.Mul(cy, scale.Exp(big.NewInt(10), big.NewInt(ey-e), nil))
	}
	if x.neg {
		cx.Neg(cx)
	}
	if y.neg {
		cy.Neg(cy)
	}
	sum := cx.Add(cx, cy)
	if sum.Sign() == 0 {
		return "0", nil
	}
	digits := sum.Text(10) // a leading '-' when negative
	neg := digits[0] == '-'
	if neg {
		digits = digits[1:]
	}
	trimmed := strings.TrimRight(digits, "0")
	e += int64(len(digits) - len(trimmed))
	adj := e + int64(len(trimmed)) - 1
	switch {
	case adj > maxAdjExponent:
		return "", newError(MsgNumberOverflow)
	case adj < minAdjExponent:
		return "", newError(MsgNumberUnderflow)
	case len(trimmed) > MaxNumberDigits:
		return "", newError(MsgNumberOverflow)
	}
	text := trimmed + "E" + strconv.FormatInt(e, 10)
	if neg {
		text = "-" + text
	}
	out, nerr := normalizeNumber(text)
	if nerr != nil {
		return "", nerr // unreachable: checked above
	}
	return out, nil
}

// coefficient returns the significant digits of a non-zero number as an
// integer (the sign apart).
func (n *number) coefficient() *big.Int {
	var buf [MaxNumberDigits]byte
	nd := n.digits()
	for k := 0; k < nd; k++ {
		buf[k] = n.digit(n.first + k)
	}
	c, _ := new(big.Int).SetString(string(buf[:nd]), 10) // ASCII digits only
	return c
}

// canonical returns the canonical text of a checked number.
func canonical(n *number) string {
	var buf [maxCanonicalLen]byte
	return string(n.appendCanonical(buf[:0]))
}

// CompareNumbers compares a and b by decimal value, canonical or not: -1 if
// a < b, 0 if equal, +1 if a > b. Range and precision are not checked. Text
// that is not number syntax orders before every number, and two such texts
// order bytewise.
func CompareNumbers(a, b string) int {
	na, oka := scanNumber(a)
	nb, okb := scanNumber(b)
	switch {
	case !oka && !okb:
		return strings.Compare(a, b)
	case !oka:
		return -1
	case !okb:
		return 1
	}
	return compareNumbers(&na, &nb)
}

func (n *number) sign() int {
	switch {
	case n.isZero():
		return 0
	case n.neg:
		return -1
	}
	return 1
}

func compareNumbers(a, b *number) int {
	sa, sb := a.sign(), b.sign()
	if sa != sb {
		if sa < sb {
			return -1
		}
		return 1
	}
	if sa == 0 {
		return 0
	}
	c := compareMagnitudes(a, b)
	if sa < 0 {
		return -c
	}
	return c
}

func compareMagnitudes(a, b *number) int {
	if a.adj != b.adj {
		if a.adj < b.adj {
			return -1
		}
		return 1
	}
	da, db := a.digits(), b.digits()
	for k := 0; k < da || k < db; k++ {
		ca, cb := byte('0'), byte('0')
		if k < da {
			ca = a.digit(a.first + k)
		}
		if k < db {
			cb = b.digit(b.first + k)
		}
		if ca != cb {
			if ca < cb {
				return -1
			}
			return 1
		}
	}
	return 0
}

// numberSize is DynamoDB's storage size of a number. DynamoDB stores a
// number as one exponent byte followed by its significant digits in pairs
// (base 100) aligned on the decimal point, and a negative number has one
// terminating byte more:
//
//	size = 1 + ceil(d/2) + (1 if d and the adjusted exponent are both even)
//	         + (1 if negative)
//
// where d is the count of significant digits; zero takes 1 byte. This is
// dynalite's valSize (architect/dynalite db/index.js, commit 5c013d0),
// whose item-size tests were written against DynamoDB; the AWS developer
// guide ("Item sizes and formats") gives only the approximation "1 byte per
// two significant digits, plus 1 byte". Text that does not parse is sized
// as if each of its bytes were a digit of a positive number.
func numberSize(s string) int {
	n, ok := scanNumber(s)
	if !ok {
		return 1 + (len(s)+1)/2
	}
	if n.isZero() {
		return 1
	}
	d := n.digits()
	size := 1 + (d+1)/2
	if d%2 == 0 && n.adj%2 == 0 {
		size++
	}
	if n.neg {
		size++
	}
	return size
}

// NumberFits reports whether a number's exponent and scale fit 32-bit
// integers, as Java's BigDecimal needs to read it. DynamoDB reads PartiQL
// literals and number parameters that way (package partiql, and the
// engine's checks of a statement's parameters).
func NumberFits(s string) bool {
	mant, exp, _ := strings.Cut(strings.ToLower(s), "e")
	frac := 0
	if _, f, ok := strings.Cut(mant, "."); ok {
		frac = len(f)
	}
	e := int64(0)
	if exp != "" {
		digits := strings.TrimLeft(exp, "+-")
		digits = strings.TrimLeft(digits, "0")
		if len(digits) > 11 {
			return false
		}
		v, err := strconv.ParseInt(strings.TrimLeft(exp, "+"), 10, 64)
		if err != nil && digits != "" {
			return false
		}
		e = v
	}
	if e > math.MaxInt32 || e < math.MinInt32 {
		return false
	}
	scale := int64(frac) - e
	return scale <= math.MaxInt32 && scale >= math.MinInt32
}
