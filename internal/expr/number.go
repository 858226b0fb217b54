package expr

import (
	"strconv"

	"github.com/dynago/dynago/attr"
)

// addNumbers returns a+b (or a-b when sub) as canonical number text. a and
// b are valid number texts. The arithmetic and DynamoDB's rules for its
// result are attr.AddNumbers'.
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
	return attr.AddNumbers(a, b, sub)
}
