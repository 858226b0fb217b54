package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TestScanCapacityPerPartition checks how a Scan of a table is billed: each
// of the table's partitions the page reads is rounded up to 4 KB on its
// own, at least one unit (half eventually consistent) even when it holds
// nothing, and an on-demand table has four. The recording is ScyllaDB
// Alternator's test/alternator/test_returnconsumedcapacity.py,
// test_scan_consumed_capacity, which passes against DynamoDB: a new
// on-demand table holding one small item Scans for 4 units strongly
// consistent and 2 eventually consistent. The other cases follow from that
// rule; each says where it comes from.
func TestScanCapacityPerPartition(t *testing.T) {
	_, c := start(t)
	small := item{"pk": S("cat"), "animal": S("cat")}
	tenKB := item{"pk": S("big"), "v": S(strings.Repeat("v", 10_000))} // 3 + 10,001 bytes: 3 units of 4 KB
	for i, tc := range []struct {
		name        string
		provisioned bool
		items       []item
		in          dynamodb.ScanInput
		want        float64
	}{
		// Alternator's test_scan_consumed_capacity, against DynamoDB.
		{name: "one small item, strongly consistent", items: []item{small},
			in: dynamodb.ScanInput{ConsistentRead: aws.Bool(true)}, want: 4},
		{name: "one small item, eventually consistent", items: []item{small},
			in: dynamodb.ScanInput{}, want: 2},
		// The rule: four partitions that hold nothing, one unit each.
		{name: "empty table", in: dynamodb.ScanInput{ConsistentRead: aws.Bool(true)}, want: 4},
		// The rule: 3 units in the item's partition, 1 in each other.
		{name: "one 10 KB item", items: []item{tenKB},
			in: dynamodb.ScanInput{ConsistentRead: aws.Bool(true)}, want: 6},
		// The bill is of the items read, before the filter and the
		// projection (nubo-db/dynamodb-conformance,
		// tests/tier1/scan/consumedCapacity.test.ts, against DynamoDB).
		{name: "a filter keeping nothing", items: []item{small},
			in: dynamodb.ScanInput{FilterExpression: aws.String("animal = :d"),
				ExpressionAttributeValues: item{":d": S("dog")}}, want: 2},
		{name: "a projection", items: []item{small},
			in: dynamodb.ScanInput{ProjectionExpression: aws.String("pk")}, want: 2},
		// The rule: segment i of 4 is partition i of the on-demand
		// table's 4; a segment of 2 reads two partitions; a segment of
		// 8 reads half of one.
		{name: "segment 0 of 4", in: dynamodb.ScanInput{Segment: aws.Int32(0), TotalSegments: aws.Int32(4),
			ConsistentRead: aws.Bool(true)}, want: 1},
		{name: "segment 3 of 4", in: dynamodb.ScanInput{Segment: aws.Int32(3), TotalSegments: aws.Int32(4)}, want: 0.5},
		{name: "segment 1 of 2", in: dynamodb.ScanInput{Segment: aws.Int32(1), TotalSegments: aws.Int32(2),
			ConsistentRead: aws.Bool(true)}, want: 2},
		{name: "segment 5 of 8", in: dynamodb.ScanInput{Segment: aws.Int32(5), TotalSegments: aws.Int32(8),
			ConsistentRead: aws.Bool(true)}, want: 1},
		// A provisioned table of 5 read and 5 write units has one
		// partition (DynamoDB developer guide, partitions:
		// ReadCapacityUnits / 3,000 + WriteCapacityUnits / 1,000,
		// rounded up), so its Scan costs what a Query of the item does.
		{name: "provisioned, one small item", provisioned: true, items: []item{small},
			in: dynamodb.ScanInput{ConsistentRead: aws.Bool(true)}, want: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			table := fmt.Sprintf("scancap%d", i)
			in := &dynamodb.CreateTableInput{
				TableName:            aws.String(table),
				BillingMode:          types.BillingModePayPerRequest,
				AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
				KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
			}
			if tc.provisioned {
				in.BillingMode = types.BillingModeProvisioned
				in.ProvisionedThroughput = &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(5), WriteCapacityUnits: aws.Int64(5)}
			}
			if _, err := c.CreateTable(bg(), in); err != nil {
				t.Fatal(err)
			}
			for _, it := range tc.items {
				put(t, c, table, it)
			}
			scan := tc.in
			scan.TableName = aws.String(table)
			for _, mode := range []types.ReturnConsumedCapacity{types.ReturnConsumedCapacityTotal, types.ReturnConsumedCapacityIndexes} {
				scan.ReturnConsumedCapacity = mode
				out, err := c.Scan(bg(), &scan)
				if err != nil {
					t.Fatal(err)
				}
				if out.LastEvaluatedKey != nil {
					t.Fatalf("LastEvaluatedKey %v", out.LastEvaluatedKey)
				}
				deepEqual(t, "Scan "+string(mode), out.ConsumedCapacity, capacity(table, tc.want, mode == types.ReturnConsumedCapacityIndexes))
			}
		})
	}

	// A Query of the small item reads one partition: 1 unit, 0.5
	// eventually consistent (Alternator's test_query_consumed_capacity,
	// against DynamoDB); a PartiQL SELECT that scans the table is a Scan
	// and costs what the Scan does.
	t.Run("query and PartiQL", func(t *testing.T) {
		createHash(t, c, "scancapq", types.ScalarAttributeTypeS)
		put(t, c, "scancapq", small)
		for _, consistent := range []bool{true, false} {
			q, err := c.Query(bg(), &dynamodb.QueryInput{TableName: aws.String("scancapq"), KeyConditionExpression: aws.String("pk = :p"),
				ExpressionAttributeValues: item{":p": S("cat")}, ConsistentRead: aws.Bool(consistent), ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
			if err != nil {
				t.Fatal(err)
			}
			want := map[bool]float64{true: 1, false: 0.5}[consistent]
			deepEqual(t, "Query", q.ConsumedCapacity, capacity("scancapq", want, false))
			s, err := c.ExecuteStatement(bg(), &dynamodb.ExecuteStatementInput{Statement: aws.String(`SELECT * FROM "scancapq" WHERE animal = 'cat'`),
				ConsistentRead: aws.Bool(consistent), ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
			if err != nil {
				t.Fatal(err)
			}
			deepEqual(t, "SELECT scanning", s.ConsumedCapacity, capacity("scancapq", 4*want, false))
		}
	})
}
