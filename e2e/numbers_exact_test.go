package e2e

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// The byte size of a number is DynamoDB's formula over its significant
// digits, not its text: 1 exponent byte, the digits in pairs aligned on the
// decimal point, one byte more for a negative number, 1 byte for zero
// (dynalite's valSize, architect/dynalite db/index.js, commit 5c013d0).
// Each item below sits on the 1 KB write-unit boundary, so the bill of a
// PutItem tells the number's size.
func TestNumberSizeCapacity(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "nsize", types.ScalarAttributeTypeS)
	// pk: 2+1 bytes; "n": 1 + number; "s": 1 + pad.
	cases := []struct {
		name string
		n    string
		pad  int
		want float64
	}{
		// dynalite: zero is 1 byte, so 3+2+1+1018 = 1024 is one unit.
		{"zero is one byte", "0", 1018, 1},
		// dynalite: "-1" is 3 bytes (terminator), so 3+4+1+1017 = 1025.
		{"negative adds a byte", "-1", 1017, 2},
		// dynalite: "1.2" (two digits, even exponent) is 3 bytes.
		{"exponent parity", "1.2", 1017, 2},
		// dynalite: "12" (two digits, odd exponent) is 2 bytes: 3+3+1+1017.
		{"odd exponent pairs", "12", 1017, 1},
		// dynalite's test/putItem.js, run against DynamoDB: 38 digits
		// at exponent 125 take 20 bytes: 3+21+1+999 = 1024.
		{"38 digits", strings.Repeat("1", 38) + strings.Repeat("0", 88), 999, 1},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// A new key each time: a replaced item bills the larger of
			// the two.
			out, err := c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("nsize"),
				Item:                   item{"pk": S(string(rune('a' + i))), "n": N(tc.n), "s": S(strings.Repeat("x", tc.pad))},
				ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
			if err != nil {
				t.Fatal(err)
			}
			if got := *out.ConsumedCapacity.CapacityUnits; got != tc.want {
				t.Fatalf("CapacityUnits = %v, want %v", got, tc.want)
			}
		})
	}
}

// Numbers out of DynamoDB's range, in items, keys and expression values.
func TestNumberRangeErrors(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "nrange", types.ScalarAttributeTypeS)
	createHash(t, c, "nkey", types.ScalarAttributeTypeN)
	const (
		overflow  = "Number overflow. Attempting to store a number with magnitude larger than supported range"
		underflow = "Number underflow. Attempting to store a number with magnitude smaller than supported range"
		precision = "Attempting to store more than 38 significant digits in a Number"
	)
	cases := []struct {
		name, n, msg string
	}{
		// dynalite's test/putItem.js ("empty/invalid numbers in Item"),
		// run against DynamoDB.
		{"1e126", "1e126", overflow},
		{"-1e-131", "-1e-131", underflow},
		{"39 digits", "123456789012345678901234567890123456789", precision},
		// An exponent wider than 32 bits that fits 64 is range-checked
		// (paritysuite/dynamodb-conformance, tests/tier3/limits/
		// numberExponent.test.ts, eu-west-2, October 2026; the texts
		// beyond 64 bits are in numberexp_exponent_test.go). Zero is
		// range-checked by its exponent like any number, the same file
		// ("zero with an exponent above the range overflows", "... below
		// the range underflows"); past 32 bits by the same rule.
		{"exponent beyond int32", "1E+9999999999", overflow},
		{"negative exponent beyond int32", "1E-9999999999", underflow},
		{"zero with exponent above the range", "0e126", overflow},
		{"zero with exponent below the range", "0e-131", underflow},
		{"zero with exponent beyond int32", "0E-999999999999", underflow},
		{"zero with positive exponent beyond int32", "0E+999999999999", overflow},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// PutItem inside the envelope, GetItem bare
			// (paritysuite/dynamodb-conformance, tests/tier3/
			// error-messages/valueLayers.test.ts, 2026-10-09).
			_, err := c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("nrange"), Item: item{"pk": S("k"), "n": N(tc.n)}})
			wantValidation(t, err, "1 validation error detected: "+tc.msg)
			_, err = c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("nkey"), Item: item{"pk": N(tc.n)}})
			wantValidation(t, err, "1 validation error detected: "+tc.msg)
			_, err = c.GetItem(bg(), &dynamodb.GetItemInput{TableName: aws.String("nkey"), Key: item{"pk": N(tc.n)}})
			wantValidation(t, err, tc.msg)
		})
	}
	// Zero with an exponent inside DynamoDB's range is stored, and reads
	// back 0: numberExponent.test.ts ("zero with an exponent inside the
	// range is stored as 0", eu-west-2, October 2026). Alternator's older
	// test_invalid_numbers saw DynamoDB accept "0e1000"; the newer
	// recording refuses "0e126".
	put(t, c, "nrange", item{"pk": S("z"), "n": N("0e125")})
	if got := get(t, c, "nrange", item{"pk": S("z")}); got["n"].(*types.AttributeValueMemberN).Value != "0" {
		t.Fatalf("0e125 read back as %v", got["n"])
	}
}
