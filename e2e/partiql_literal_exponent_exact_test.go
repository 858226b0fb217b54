package e2e

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TestPartiQLLiteralExponentExact: a number literal whose precision less
// scale passes 32 bits is an underflow, as the same number is when sent
// as a parameter (paritysuite/dynamodb-conformance,
// tests/tier3/error-messages/partiqlParameterNumbers.test.ts, eu-west-2,
// October 2026, "the parameter 1e2147483647 in %s underflows"). Not
// recorded for a literal: inferred from DynamoDB reading literals with
// the same BigDecimal. A literal one power of ten below overflows.
func TestPartiQLLiteralExponentExact(t *testing.T) {
	_, c := start(t)
	createRange(t, c, "qlexp", types.ScalarAttributeTypeS)
	const (
		overflow  = "Number overflow. Attempting to store a number with magnitude larger than supported range"
		underflow = "Number underflow. Attempting to store a number with magnitude smaller than supported range"
	)
	for _, tc := range []struct{ stmt, msg string }{
		{`SELECT * FROM "qlexp" WHERE pk = 1e2147483647`, underflow + " under root"},
		{`INSERT INTO "qlexp" VALUE {'pk': 'a', 'sk': 's', 'm': {'x': 1e2147483647}}`, underflow + " under root.x"},
		{`SELECT * FROM "qlexp" WHERE pk = 1e2147483646`, overflow + " under root"},
	} {
		t.Run(tc.stmt, func(t *testing.T) {
			_, err := ql(c, tc.stmt)
			wantValidation(t, err, tc.msg)
		})
	}
}
