package expr

import (
	"strconv"

	"github.com/cockroachdb/apd/v3"
	"github.com/dynago/dynago/attr"
)

// DynamoDB adds and subtracts numbers exactly and then applies its number
// rules to the result: a magnitude above 9.9999999999999999999999999999999999999E+125
// fails with "Number overflow. Attempting to store a number with magnitude
// larger than supported range" (ExtendDB issue 94, which quotes DynamoDB's
// answer to 9.99...E+125 + 1E+125), one below 1E-130 with the underflow
// message, and a result needing more than 38 significant digits with
// "Attempting to store more than 38 significant digits in a Number"
// (inferred: the input rule applied to the result, range first since the
// overflowing sum above also has 39 digits).

// arithContext is exact for any two valid numbers: their digits span at
// most 126+130+38 places.
var arithContext = apd.Context{
	Precision:   400,
	MaxExponent: apd.MaxExponent,
	MinExponent: apd.MinExponent,
	Traps:       apd.DefaultTraps,
}

const (
	maxAdjExponent = 125
	minAdjExponent = -130
)

// addNumbers returns a+b (or a-b when sub) as canonical number text. a and
// b are valid number texts.
func addNumbers(a, b string, sub bool) (string, error) {
	// Fast path: integers that cannot overflow int64 (counters).
	if len(a) <= 18 && len(b) <= 18 {
		if x, err := strconv.ParseInt(a, 10, 64); err == nil {
			if y, err := strconv.ParseInt(b, 10, 64); err == nil {
				if sub {
					y = -y
				}
				return strconv.FormatInt(x+y, 10), nil
			}
		}
	}
	x, err := attr.ParseNumber(a)
	if err != nil {
		return "", err
	}
	y, err := attr.ParseNumber(b)
	if err != nil {
		return "", err
	}
	var r apd.Decimal
	if sub {
		_, err = arithContext.Sub(&r, x, y)
	} else {
		_, err = arithContext.Add(&r, x, y)
	}
	if err != nil {
		return "", newErr(attr.MsgNumberOverflow)
	}
	if r.IsZero() {
		return "0", nil
	}
	r.Reduce(&r)
	digits := int64(r.NumDigits())
	adj := int64(r.Exponent) + digits - 1
	switch {
	case adj > maxAdjExponent:
		return "", newErr(attr.MsgNumberOverflow)
	case adj < minAdjExponent:
		return "", newErr(attr.MsgNumberUnderflow)
	case digits > attr.MaxNumberDigits:
		return "", newErr(attr.MsgNumberPrecision)
	}
	return attr.NormalizeNumber(r.Text('f'))
}
