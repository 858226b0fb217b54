// Package itemsize sizes items of the AWS SDK's types as DynamoDB counts
// them for its limits and its capacity units, and bills writes as
// DynamoDB bills them, so that a tool can say before it writes what the
// writes will cost.
//
// The sizes follow "DynamoDB item sizes and formats"
// (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html):
// an attribute is its name's UTF-8 length plus its value's size; S is its
// UTF-8 bytes, B its raw bytes; BOOL and NULL one byte; M and L three
// bytes plus, for each element, one byte and the element's size (an M
// element's name included); a set is the sum of its members. A number is
// one byte plus its significant digits two to a byte, aligned on the
// decimal point, one byte more when negative: the rule dynalite's tests
// pinned against DynamoDB, where the guide gives "1 byte per two
// significant digits, plus 1 byte".
package itemsize

import (
	"math"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Item returns the size of it in bytes.
func Item(it map[string]types.AttributeValue) int {
	n := 0
	for name, v := range it {
		n += len(name) + Value(v)
	}
	return n
}

// Value returns the size of one value, without an attribute name.
func Value(v types.AttributeValue) int {
	switch x := v.(type) {
	case *types.AttributeValueMemberS:
		return len(x.Value)
	case *types.AttributeValueMemberN:
		return Number(x.Value)
	case *types.AttributeValueMemberB:
		return len(x.Value)
	case *types.AttributeValueMemberBOOL, *types.AttributeValueMemberNULL:
		return 1
	case *types.AttributeValueMemberM:
		n := 3
		for k, e := range x.Value {
			n += 1 + len(k) + Value(e)
		}
		return n
	case *types.AttributeValueMemberL:
		n := 3
		for _, e := range x.Value {
			n += 1 + Value(e)
		}
		return n
	case *types.AttributeValueMemberSS:
		n := 0
		for _, s := range x.Value {
			n += len(s)
		}
		return n
	case *types.AttributeValueMemberNS:
		n := 0
		for _, s := range x.Value {
			n += Number(s)
		}
		return n
	case *types.AttributeValueMemberBS:
		n := 0
		for _, b := range x.Value {
			n += len(b)
		}
		return n
	}
	return 0
}

// Number returns the size of a number given as DynamoDB's text: one
// exponent byte, the significant digits in pairs aligned on the decimal
// point (one byte more when their count and the exponent are both even),
// and a terminating byte when negative; zero takes one byte. Text that is
// not a number is sized as if each byte were a digit.
func Number(s string) int {
	i, neg := 0, false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	var digits []byte
	intLen := 0
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		digits = append(digits, s[i])
		intLen++
	}
	if i < len(s) && s[i] == '.' {
		i++
	}
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		digits = append(digits, s[i])
	}
	exp := 0
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		eneg := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			eneg = s[i] == '-'
			i++
		}
		start := i
		for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			if exp < math.MaxInt32/10 {
				exp = exp*10 + int(s[i]-'0')
			}
		}
		if i == start {
			return 1 + (len(s)+1)/2
		}
		if eneg {
			exp = -exp
		}
	}
	if len(digits) == 0 || i != len(s) {
		return 1 + (len(s)+1)/2
	}
	first, last := -1, -1
	for k, d := range digits {
		if d != '0' {
			if first < 0 {
				first = k
			}
			last = k
		}
	}
	if first < 0 {
		return 1 // zero
	}
	d := last - first + 1
	adj := intLen - 1 - first + exp // the exponent of d.ddd × 10^adj
	size := 1 + (d+1)/2
	if d%2 == 0 && adj%2 == 0 {
		size++
	}
	if neg {
		size++
	}
	return size
}

// WriteUnits is what writing an item of size bytes costs: one unit per
// KB started, at least one
// (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/read-write-operations.html).
func WriteUnits(size int) float64 {
	return max(1, math.Ceil(float64(size)/1024))
}
