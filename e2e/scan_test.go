package e2e

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// The largest sort key of each type, as scenario S4 resumes from: no item
// can sort after it within its partition.
var maxSortKey = map[types.ScalarAttributeType]types.AttributeValue{
	types.ScalarAttributeTypeS: S(strings.Repeat("\U0010FFFF", 256)),
	types.ScalarAttributeTypeN: N("9.9999999999999999999999999999999999999E+125"),
	types.ScalarAttributeTypeB: B(bytes.Repeat([]byte{0xFF}, 1024)),
}

func sortKeyOf(typ types.ScalarAttributeType, i int) types.AttributeValue {
	switch typ {
	case types.ScalarAttributeTypeS:
		return S(fmt.Sprintf("item-%04d", i))
	case types.ScalarAttributeTypeN:
		return N(fmt.Sprint(i - 10))
	}
	return B([]byte{0x00, byte(i), 0xFF})
}

// TestSkipScanDistinctPartitions is scenario S4: list each partition key
// once by scanning with Limit 1 and resuming from a start key that carries
// the largest sort key of its type, which no item has. Each step reads at
// most one small item and is billed 0.5 read units for each of the
// table's partitions it reads (Alternator's test_returnconsumedcapacity.py,
// test_scan_consumed_capacity, against DynamoDB: a Scan of an on-demand
// table holding one small item costs 2 units eventually consistent, 0.5
// for each of its four partitions). A step starts in the partition where
// the one before stopped, so the steps together cost 0.5 each plus 0.5
// for each of the three partition boundaries the skip-scan crosses.
func TestSkipScanDistinctPartitions(t *testing.T) {
	_, c := start(t)
	for _, typ := range []types.ScalarAttributeType{types.ScalarAttributeTypeS, types.ScalarAttributeTypeN, types.ScalarAttributeTypeB} {
		t.Run(string(typ), func(t *testing.T) {
			table := "skip-" + string(typ)
			createRange(t, c, table, typ)
			want := map[string]bool{}
			for p := 0; p < 25; p++ {
				pk := fmt.Sprintf("collection-%02d", p)
				want[pk] = true
				for i := 0; i < 1+p%7; i++ {
					put(t, c, table, item{"pk": S(pk), "sk": sortKeyOf(typ, i), "data": S(strings.Repeat("d", 50))})
				}
			}
			got := map[string]int{}
			var start item
			var units float64
			steps := 0
			for ; ; steps++ {
				if steps > 100 {
					t.Fatal("skip-scan does not end")
				}
				out, err := c.Scan(bg(), &dynamodb.ScanInput{
					TableName: aws.String(table), Limit: aws.Int32(1), ExclusiveStartKey: start,
					ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
				})
				if err != nil {
					t.Fatal(err)
				}
				u := aws.ToFloat64(out.ConsumedCapacity.CapacityUnits)
				if u < 0.5 || u > 2 {
					t.Fatalf("a skip-scan step cost %v read units, want 0.5 to 2", u)
				}
				units += u
				if len(out.Items) == 1 {
					got[out.Items[0]["pk"].(*types.AttributeValueMemberS).Value]++
				}
				if out.LastEvaluatedKey == nil {
					break
				}
				start = item{"pk": out.LastEvaluatedKey["pk"], "sk": maxSortKey[typ]}
			}
			if want := 0.5 * float64(steps+1+3); units != want {
				t.Fatalf("%d skip-scan steps cost %v read units, want %v", steps+1, units, want)
			}
			if len(got) != len(want) {
				t.Fatalf("found %d partitions, want %d: %v", len(got), len(want), got)
			}
			for pk, n := range got {
				if n != 1 || !want[pk] {
					t.Fatalf("partition %s listed %d times", pk, n)
				}
			}
		})
	}
}

// TestParallelScan checks that segments are disjoint and their union is the
// table, for several segment counts, paging with a small Limit.
func TestParallelScan(t *testing.T) {
	_, c := start(t)
	createRange(t, c, "par", types.ScalarAttributeTypeN)
	const n = 200
	for i := 0; i < n; i++ {
		put(t, c, "par", item{"pk": S(fmt.Sprintf("p%d", i%53)), "sk": N(fmt.Sprint(i))})
	}
	for _, total := range []int32{1, 3, 8, 64} {
		seen := map[string]int32{}
		for seg := int32(0); seg < total; seg++ {
			p := dynamodb.NewScanPaginator(c, &dynamodb.ScanInput{
				TableName: aws.String("par"), Segment: aws.Int32(seg), TotalSegments: aws.Int32(total), Limit: aws.Int32(9),
			})
			for p.HasMorePages() {
				out, err := p.NextPage(bg())
				if err != nil {
					t.Fatal(err)
				}
				for _, it := range out.Items {
					k := it["sk"].(*types.AttributeValueMemberN).Value
					if prev, dup := seen[k]; dup {
						t.Fatalf("%d segments: item %s in segments %d and %d", total, k, prev, seg)
					}
					seen[k] = seg
				}
			}
		}
		if len(seen) != n {
			t.Fatalf("%d segments together hold %d items, want %d", total, len(seen), n)
		}
	}
}

// TestScanPagesOfOneMegabyte fills a table with large items and checks that
// a Scan pages at 1 MB of data read, returns LastEvaluatedKey on each page
// but the last, and bills every byte read.
func TestScanPagesOfOneMegabyte(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "big", types.ScalarAttributeTypeS)
	pad := strings.Repeat("x", 200_000)
	for i := 0; i < 16; i++ {
		put(t, c, "big", item{"pk": S(fmt.Sprintf("k%02d", i)), "pad": S(pad)})
	}
	var pages, total int
	var units float64
	var start item
	for {
		out, err := c.Scan(bg(), &dynamodb.ScanInput{
			TableName: aws.String("big"), ExclusiveStartKey: start, Select: types.SelectCount,
			ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
		})
		if err != nil {
			t.Fatal(err)
		}
		pages++
		total += int(out.Count)
		units += aws.ToFloat64(out.ConsumedCapacity.CapacityUnits)
		if out.ScannedCount > 6 {
			t.Fatalf("one page read %d items of 200 KB", out.ScannedCount)
		}
		if out.LastEvaluatedKey == nil {
			break
		}
		start = out.LastEvaluatedKey
	}
	if total != 16 || pages < 3 {
		t.Fatalf("%d items over %d pages", total, pages)
	}
	// 16 items of about 200 KB, eventually consistent: about 16×49/2 units.
	if units < 16*48/2 || units > 16*50/2+float64(pages) {
		t.Fatalf("the scan cost %v read units", units)
	}
}

// TestQueryLegacyKeyConditionsOrder checks sort key order on mixed values:
// numbers by value (negative, fractional, exponents), strings by UTF-8
// bytes, binaries by unsigned bytes.
func TestQueryLegacyKeyConditionsOrder(t *testing.T) {
	_, c := start(t)
	cases := map[types.ScalarAttributeType][]types.AttributeValue{
		types.ScalarAttributeTypeN: {N("-1000"), N("-12.5"), N("-1"), N("-0.001"), N("0"), N("0.00001"), N("0.5"), N("2"), N("10"), N("150"), N("99999999999999999999999999999999999999")},
		types.ScalarAttributeTypeS: {S("A"), S("Z"), S("a"), S("z"), S("é"), S("中"), S("\U0001F600")},
		types.ScalarAttributeTypeB: {B([]byte{0x00}), B([]byte{0x00, 0x00}), B([]byte{0x01}), B([]byte{0x7F}), B([]byte{0x80}), B([]byte{0xFF}), B([]byte{0xFF, 0x00})},
	}
	for typ, want := range cases {
		t.Run(string(typ), func(t *testing.T) {
			table := "order-" + string(typ)
			createRange(t, c, table, typ)
			for i := len(want) - 1; i >= 0; i-- { // insert in reverse order
				put(t, c, table, item{"pk": S("p"), "sk": want[i]})
			}
			for _, forward := range []bool{true, false} {
				for limit := int32(1); limit <= int32(len(want))+1; limit++ {
					var got []types.AttributeValue
					p := dynamodb.NewQueryPaginator(c, &dynamodb.QueryInput{
						TableName:        aws.String(table),
						KeyConditions:    map[string]types.Condition{"pk": {ComparisonOperator: types.ComparisonOperatorEq, AttributeValueList: []types.AttributeValue{S("p")}}},
						ScanIndexForward: aws.Bool(forward),
						Limit:            aws.Int32(limit),
					})
					for p.HasMorePages() {
						out, err := p.NextPage(bg())
						if err != nil {
							t.Fatal(err)
						}
						for _, it := range out.Items {
							got = append(got, it["sk"])
						}
					}
					if len(got) != len(want) {
						t.Fatalf("forward=%v limit %d: %d items, want %d", forward, limit, len(got), len(want))
					}
					for i := range want {
						j := i
						if !forward {
							j = len(want) - 1 - i
						}
						if fmt.Sprint(got[i]) != fmt.Sprint(want[j]) {
							t.Fatalf("forward=%v limit %d: item %d is %v, want %v", forward, limit, i, got[i], want[j])
						}
					}
				}
			}
		})
	}
}

// TestQueryCostDoesNotGrow checks that a Query with Limit 20 reads 20
// items, and bills for 20, however large the partition, and that resuming
// from a LastEvaluatedKey deep in the partition reads only the next page.
func TestQueryCostDoesNotGrow(t *testing.T) {
	_, c := start(t)
	createRange(t, c, "deep", types.ScalarAttributeTypeN)
	var batch []types.WriteRequest
	for i := 0; i < 3000; i++ {
		batch = append(batch, types.WriteRequest{PutRequest: &types.PutRequest{Item: item{"pk": S("p"), "sk": N(fmt.Sprint(i)), "v": S("0123456789")}}})
		if len(batch) == 25 {
			if _, err := c.BatchWriteItem(bg(), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"deep": batch}}); err != nil {
				t.Fatal(err)
			}
			batch = nil
		}
	}
	var start item
	for page := 0; page < 100; page++ {
		out, err := c.Query(bg(), &dynamodb.QueryInput{
			TableName: aws.String("deep"), KeyConditionExpression: aws.String("pk = :p"),
			ExpressionAttributeValues: item{":p": S("p")}, ScanIndexForward: aws.Bool(false),
			Limit: aws.Int32(20), ExclusiveStartKey: start, ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
		})
		if err != nil {
			t.Fatal(err)
		}
		if out.ScannedCount != 20 || aws.ToFloat64(out.ConsumedCapacity.CapacityUnits) != 0.5 {
			t.Fatalf("page %d read %d items for %v units", page, out.ScannedCount, aws.ToFloat64(out.ConsumedCapacity.CapacityUnits))
		}
		want := fmt.Sprint(2999 - page*20)
		if got := out.Items[0]["sk"].(*types.AttributeValueMemberN).Value; got != want {
			t.Fatalf("page %d starts at %s, want %s", page, got, want)
		}
		start = out.LastEvaluatedKey
	}
}

// TestScanOrderFollowsSegments pins the parts of DynamoDB's Scan order that
// dynago matches. DynamoDB scans in the order of a hash of the partition
// key, a partition's items together and in sort key order, and parallel
// scan segments are ranges of that hash order that nest: segments 0 and 1
// of 4 hold the items of segment 0 of 2, segments 2 and 3 those of segment
// 1 (dynalite's test/scan.js, "should return items in same segment order"
// and "should return items in string hash order", run against DynamoDB).
// So the segments of any count, read one after the other, give the Scan's
// own order. The hash itself is dynago's, not DynamoDB's (docs/API.md,
// Scan), so which partition comes first differs.
func TestScanOrderFollowsSegments(t *testing.T) {
	_, c := start(t)
	createRange(t, c, "order", types.ScalarAttributeTypeN)
	for p := 0; p < 30; p++ {
		for s := 3; s >= 0; s-- {
			put(t, c, "order", item{"pk": S(fmt.Sprintf("p%d", p)), "sk": N(fmt.Sprint(s * 7))})
		}
	}
	read := func(in *dynamodb.ScanInput) []string {
		t.Helper()
		in.TableName = aws.String("order")
		in.Limit = aws.Int32(7)
		var keys []string
		for p := dynamodb.NewScanPaginator(c, in); p.HasMorePages(); {
			out, err := p.NextPage(bg())
			if err != nil {
				t.Fatal(err)
			}
			for _, it := range out.Items {
				keys = append(keys, render(it["pk"])+render(it["sk"]))
			}
		}
		return keys
	}
	whole := read(&dynamodb.ScanInput{})
	if len(whole) != 120 {
		t.Fatalf("the Scan read %d items", len(whole))
	}
	// A partition's items are together, in ascending sort key order.
	seen := map[string]bool{}
	for i := 0; i < len(whole); i += 4 {
		pk := whole[i][:strings.Index(whole[i], "}")+1]
		if seen[pk] {
			t.Fatalf("partition %s is not together: %v", pk, whole)
		}
		seen[pk] = true
		for s := 0; s < 4; s++ {
			if want := pk + fmt.Sprintf(`{"N":"%d"}`, s*7); whole[i+s] != want {
				t.Fatalf("item %d is %s, want %s", i+s, whole[i+s], want)
			}
		}
	}
	for _, total := range []int32{2, 4, 7, 64} {
		var joined []string
		for seg := int32(0); seg < total; seg++ {
			joined = append(joined, read(&dynamodb.ScanInput{Segment: aws.Int32(seg), TotalSegments: aws.Int32(total)})...)
		}
		deepEqual(t, fmt.Sprintf("%d segments one after the other", total), joined, whole)
	}
	// Segments nest: segment s of 2 holds segments 2s and 2s+1 of 4.
	for s := int32(0); s < 2; s++ {
		half := read(&dynamodb.ScanInput{Segment: aws.Int32(s), TotalSegments: aws.Int32(2)})
		quarters := append(read(&dynamodb.ScanInput{Segment: aws.Int32(2 * s), TotalSegments: aws.Int32(4)}),
			read(&dynamodb.ScanInput{Segment: aws.Int32(2*s + 1), TotalSegments: aws.Int32(4)})...)
		deepEqual(t, fmt.Sprintf("segment %d of 2", s), quarters, half)
	}
}
