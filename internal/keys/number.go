package keys

import "fmt"

// decimal is a DynamoDB number in normalized form: zero, or
// sign × 0.d1d2…dn × 10^exp with d1 ≠ 0, dn ≠ 0 and n ≤ MaxNumberDigits.
// digits holds the digit values 0-9, not ASCII.
type decimal struct {
	neg    bool
	n      int // number of digits; 0 means the value is zero
	exp    int
	digits [MaxNumberDigits]byte
}

// maxExpMagnitude is the largest exponent magnitude this parser reads in
// number text; anything wider is out of range whatever the digits.
const maxExpMagnitude = 1<<31 - 1

// parseNumber parses decimal text: an optional sign, digits with an optional
// decimal point (at least one digit), and an optional exponent (e or E, an
// optional sign, at least one digit). It rejects text whose value needs more
// than MaxNumberDigits significant digits or lies outside DynamoDB's range.
// It does not allocate on success.
func parseNumber(s string, d *decimal) error {
	*d = decimal{}
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		d.neg = s[i] == '-'
		i++
	}
	var (
		sawDigit   bool
		afterPoint bool
		started    bool // a nonzero digit was seen
		zeros      int  // zeros seen since the last nonzero significant digit
		exp        int
	)
	for ; i < len(s); i++ {
		c := s[i]
		if c == '.' {
			if afterPoint {
				return numberError(s, "more than one decimal point")
			}
			afterPoint = true
			continue
		}
		if c < '0' || c > '9' {
			break
		}
		sawDigit = true
		if !started {
			if c == '0' {
				if afterPoint {
					exp--
				}
				continue
			}
			started = true
		}
		if !afterPoint {
			exp++
		}
		if c == '0' {
			zeros++
			continue
		}
		if d.n+zeros+1 > MaxNumberDigits {
			return numberError(s, "more than 38 significant digits")
		}
		d.n += zeros // digits array is zeroed already
		zeros = 0
		d.digits[d.n] = c - '0'
		d.n++
	}
	if !sawDigit {
		return numberError(s, "no digits")
	}
	if i < len(s) {
		if s[i] != 'e' && s[i] != 'E' {
			return numberError(s, "unexpected character")
		}
		i++
		eneg := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			eneg = s[i] == '-'
			i++
		}
		if i == len(s) {
			return numberError(s, "exponent has no digits")
		}
		e := 0
		for ; i < len(s); i++ {
			c := s[i]
			if c < '0' || c > '9' {
				return numberError(s, "unexpected character in exponent")
			}
			e = e*10 + int(c-'0')
			if e > maxExpMagnitude {
				return numberError(s, "exponent out of range")
			}
		}
		if eneg {
			e = -e
		}
		exp += e
	}
	if d.n == 0 {
		// Zero is range-checked by its exponent, BigDecimal's (the
		// written one less the digits after the point, which is what exp
		// holds here), as attr's parser does: "0e126" overflows,
		// "0e-131" underflows.
		if exp > MaxNumberExp-1 {
			return numberError(s, "zero's exponent is larger than 125")
		}
		if exp < MinNumberExp-1 {
			return numberError(s, "zero's exponent is smaller than -130")
		}
		*d = decimal{}
		return nil
	}
	d.exp = exp
	if exp < MinNumberExp {
		return numberError(s, "magnitude is smaller than 1E-130")
	}
	if exp > MaxNumberExp {
		return numberError(s, "magnitude is larger than 9.9999999999999999999999999999999999999E+125")
	}
	return nil
}

func numberError(s string, why string) error {
	return fmt.Errorf("%w: %q: %s", ErrNumber, s, why)
}

// appendNumber appends the order-preserving encoding of d.
func appendNumber(dst []byte, d *decimal) []byte {
	if d.n == 0 {
		return append(dst, numZero)
	}
	var mask byte
	lead := numPos
	if d.neg {
		mask = 0xFF
		lead = numNeg
	}
	dst = append(dst, lead, byte(d.exp+numExpBias)^mask)
	i := 0
	for ; i+1 < d.n; i += 2 {
		dst = append(dst, ((d.digits[i]+1)<<4|(d.digits[i+1]+1))^mask)
	}
	if i < d.n {
		// One digit left: it shares a byte with the terminator.
		dst = append(dst, ((d.digits[i]+1)<<4)^mask)
	} else {
		// Terminator and pad.
		dst = append(dst, mask)
	}
	return dst
}

// decodeNumber decodes one N encoding from the front of src. It accepts only
// canonical encodings, the ones appendNumber produces.
func decodeNumber(src []byte, d *decimal) (rest []byte, err error) {
	*d = decimal{}
	if len(src) == 0 {
		return nil, corrupt("empty number")
	}
	var mask byte
	switch src[0] {
	case numZero:
		return src[1:], nil
	case numPos:
	case numNeg:
		mask = 0xFF
		d.neg = true
	default:
		return nil, corrupt("bad number sign byte 0x%02x", src[0])
	}
	if len(src) < 2 {
		return nil, corrupt("truncated number")
	}
	d.exp = int(src[1]^mask) - numExpBias
	for i := 2; i < len(src); i++ {
		b := src[i] ^ mask
		hi, lo := b>>4, b&0x0F
		if hi == 0 {
			if lo != 0 {
				return nil, corrupt("bad number padding")
			}
			return d.finish(src[i+1:])
		}
		if hi > 10 {
			return nil, corrupt("bad number digit")
		}
		if d.n == MaxNumberDigits {
			return nil, corrupt("number has too many digits")
		}
		d.digits[d.n] = hi - 1
		d.n++
		if lo == 0 {
			return d.finish(src[i+1:])
		}
		if lo > 10 {
			return nil, corrupt("bad number digit")
		}
		if d.n == MaxNumberDigits {
			return nil, corrupt("number has too many digits")
		}
		d.digits[d.n] = lo - 1
		d.n++
	}
	return nil, corrupt("unterminated number")
}

// finish checks that a decoded nonzero number is normalized.
func (d *decimal) finish(rest []byte) ([]byte, error) {
	if d.n == 0 || d.digits[0] == 0 || d.digits[d.n-1] == 0 {
		return nil, corrupt("number is not normalized")
	}
	return rest, nil
}

// maxNumberText is the longest canonical text: a sign, "0.", 129 zeros and
// 38 digits.
const maxNumberText = 1 + 2 + (-MinNumberExp) + MaxNumberDigits

// appendText appends DynamoDB's canonical text for d: plain notation
// without an exponent, no leading zeros before the first integer digit, no
// trailing zeros after the decimal point, "0" for zero.
func (d *decimal) appendText(dst []byte) []byte {
	if d.n == 0 {
		return append(dst, '0')
	}
	if d.neg {
		dst = append(dst, '-')
	}
	switch {
	case d.exp <= 0:
		dst = append(dst, '0', '.')
		for i := 0; i < -d.exp; i++ {
			dst = append(dst, '0')
		}
		for _, c := range d.digits[:d.n] {
			dst = append(dst, '0'+c)
		}
	case d.exp < d.n:
		for _, c := range d.digits[:d.exp] {
			dst = append(dst, '0'+c)
		}
		dst = append(dst, '.')
		for _, c := range d.digits[d.exp:d.n] {
			dst = append(dst, '0'+c)
		}
	default:
		for _, c := range d.digits[:d.n] {
			dst = append(dst, '0'+c)
		}
		for i := d.n; i < d.exp; i++ {
			dst = append(dst, '0')
		}
	}
	return dst
}

// CanonicalNumber returns DynamoDB's canonical text for the number s (see
// DecodeValue), or an error wrapping ErrNumber if s is not a valid DynamoDB
// number.
func CanonicalNumber(s string) (string, error) {
	var d decimal
	if err := parseNumber(s, &d); err != nil {
		return "", err
	}
	var buf [maxNumberText]byte
	return string(d.appendText(buf[:0])), nil
}
