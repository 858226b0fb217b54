package attr

import (
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
// DynamoDB has been seen to accept "+3", ".123", "0001.23", "1e+5" and
// "0e1000" and to reject "NaN", "Infinity", " 1", "1 ", "+e2", "1+2" and
// "1.2.3" (ScyllaDB's Alternator tests, dynoxide PR #113). A trailing point
// as in "5." is inferred from Java's BigDecimal, whose grammar DynamoDB's
// matches.
//
// An exponent of any length is syntax; one whose magnitude exceeds
// maxExponent (the signed 32-bit range) is out of range, not a syntax
// error: "1E+9999999999" is MsgNumberOverflow and "1E-9999999999"
// MsgNumberUnderflow, like any number beyond DynamoDB's range. Zero is
// accepted with any exponent within that range ("0e1000", recorded by
// Alternator's test_invalid_numbers), but zero with an exponent beyond it
// ("0E-999999999999") is refused the same way as a non-zero number with
// that exponent: no recording of DynamoDB's answer was found; chosen so
// that no exponent wider than 32 bits is ever accepted, which is where
// BigDecimal, DynamoDB's parser, gives up.
const maxExponent = 1<<31 - 1

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
	adj                int64 // adjusted exponent: value = d.ddd × 10^adj
	// wideExp is +1 or -1 when the written exponent's magnitude exceeds
	// maxExponent (its sign), else 0. adj is then saturated.
	wideExp int8
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
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		eneg := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			eneg = s[i] == '-'
			i++
		}
		start := i
		for i < len(s) && isDigit(s[i]) {
			if exp <= maxExponent {
				exp = exp*10 + int64(s[i]-'0')
			}
			i++
		}
		if i == start {
			return n, false
		}
		if exp > maxExponent {
			// Saturate: far beyond DynamoDB's range either way, and
			// small enough that adj cannot overflow below.
			exp = maxExponent + 1
			n.wideExp = 1
			if eneg {
				n.wideExp = -1
			}
		}
		if eneg {
			exp = -exp
		}
	}
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
		return n, true
	}
	for n.digit(n.last) == '0' {
		n.last--
	}
	n.adj = int64(intLen-1-n.first) + exp
	return n, true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// check applies DynamoDB's precision and range rules. Precision is checked
// first; which error DynamoDB reports for text breaking both rules has not
// been captured. Zero is in range unless its exponent is wider than 32 bits
// (see maxExponent).
func (n *number) check() *Error {
	if n.isZero() {
		switch n.wideExp {
		case 1:
			return newError(MsgNumberOverflow)
		case -1:
			return newError(MsgNumberUnderflow)
		}
		return nil
	}
	switch {
	case n.digits() > MaxNumberDigits:
		return newError(MsgNumberPrecision)
	case n.adj > maxAdjExponent:
		return newError(MsgNumberOverflow)
	case n.adj < minAdjExponent:
		return newError(MsgNumberUnderflow)
	}
	return nil
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
// than 38 significant digits MsgNumberPrecision (the input rule applied
// to the result; range first, as the overflowing sum above has 39
// digits too).
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
		return "", newError(MsgNumberPrecision)
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
