package e2e

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// An item whose GSI key value is too large for the index (partition key
// over 2048 bytes, sort key over 1024) is refused on write with DynamoDB's
// text ("Size limit exceeded for Index Key ...", quoted from DynamoDB's
// responses in public bug reports), but a backfill of a new GSI over items
// already stored leaves such an item out of the index instead of failing:
// the base table's own key limits do not apply to its other attributes, so
// such items can exist. AWS's developer guide ("Detecting and correcting
// index key violations", GSI.OnlineOps.ViolationDetection) says such an
// item is not written to the index during a backfill and the backfill goes
// on. It was indexed before.
func TestIndexKeySizeBackfill(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "ixbig", types.ScalarAttributeTypeS)
	put(t, c, "ixbig", item{"pk": S("small"), "g": S("x"), "v": S("a")})
	put(t, c, "ixbig", item{"pk": S("bigpk"), "g": S(strings.Repeat("g", 2049)), "v": S("a")})
	put(t, c, "ixbig", item{"pk": S("bigsk"), "g": S("x"), "v": S(strings.Repeat("v", 1025))})
	put(t, c, "ixbig", item{"pk": S("edge"), "g": S(strings.Repeat("g", 2048)), "v": S(strings.Repeat("v", 1024))})
	_, err := c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String("ixbig"), AttributeDefinitions: defs("g", "S", "v", "S"),
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{
			IndexName: aws.String("byg"), KeySchema: ks("g", "v"),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}}}}})
	if err != nil {
		t.Fatal(err)
	}
	d := waitIndexActive(t, c, "ixbig")
	if n := *d.GlobalSecondaryIndexes[0].ItemCount; n != 2 {
		t.Fatalf("index holds %d items, want 2 (small and edge)", n)
	}
	out, err := c.Scan(bg(), &dynamodb.ScanInput{TableName: aws.String("ixbig"), IndexName: aws.String("byg")})
	if err != nil {
		t.Fatal(err)
	}
	if got := sks(out.Items, "pk"); len(got) != 2 {
		t.Fatalf("index scan: %v", got)
	}
	// Once the index exists, writes are refused.
	for _, tc := range []struct {
		it  item
		msg string
	}{
		{item{"pk": S("w1"), "g": S(strings.Repeat("g", 2049)), "v": S("a")},
			"One or more parameter values were invalid: Size limit exceeded for Index Key g Actual Size: 2049 bytes Max Size: 2048 bytes IndexName: byg"},
		{item{"pk": S("w2"), "g": S("x"), "v": S(strings.Repeat("v", 1025))},
			"One or more parameter values were invalid: Size limit exceeded for Index Key v Actual Size: 1025 bytes Max Size: 1024 bytes IndexName: byg"},
	} {
		_, err := c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("ixbig"), Item: tc.it})
		wantValidation(t, err, tc.msg)
	}
}

// Base table key sizes: 2048 bytes of partition key and 1024 of sort key
// are accepted, one more is refused, with DynamoDB's texts (dynalite's
// test/putItem.js, run against DynamoDB; Alternator's test_limits.py
// test_limit_sort_key_len_1024 and test_limit_partition_key_len_2048), on
// writes and on key lookups alike.
func TestKeySizeLimitsExact(t *testing.T) {
	_, c := start(t)
	createRange(t, c, "ksz", types.ScalarAttributeTypeB)
	cases := []struct {
		name string
		key  item
		msg  string
	}{
		{"partition 2049", item{"pk": S(strings.Repeat("p", 2049)), "sk": B([]byte{1})},
			"One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of2048 bytes"},
		{"sort 1025 raw bytes", item{"pk": S("p"), "sk": B(make([]byte, 1025))},
			"One or more parameter values were invalid: Aggregated size of all range keys has exceeded the size limit of 1024 bytes"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("ksz"), Item: tc.key})
			wantValidation(t, err, tc.msg)
			_, err = c.GetItem(bg(), &dynamodb.GetItemInput{TableName: aws.String("ksz"), Key: tc.key})
			wantValidation(t, err, tc.msg)
		})
	}
	put(t, c, "ksz", item{"pk": S(strings.Repeat("p", 2048)), "sk": B(make([]byte, 1024))})
}
