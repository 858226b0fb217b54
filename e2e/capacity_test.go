package e2e

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// capacity builds the ConsumedCapacity DynamoDB returns for TOTAL, or for
// INDEXES (which adds the table's own share) on a table without indexes.
func capacity(table string, units float64, indexes bool) *types.ConsumedCapacity {
	cc := &types.ConsumedCapacity{TableName: aws.String(table), CapacityUnits: aws.Float64(units)}
	if indexes {
		cc.Table = &types.Capacity{CapacityUnits: aws.Float64(units)}
	}
	return cc
}

// Items of exactly 1024 and 1025 bytes: the key "pk" (2) + a 10-character
// value, b (1) + filler, c (1) + 12.3456 (4), d (1) + 2 bytes, e (1) + a
// binary set.
func kilobyteItem(pk string, over bool) item {
	if over {
		return item{"pk": S(pk), "b": S(strings.Repeat("b", 1000)), "c": N("12.3456"), "d": B([]byte{1, 2}), "e": BS([]byte{1, 2}, []byte{2})}
	}
	return item{"pk": S(pk), "b": S(strings.Repeat("b", 998)), "c": N("12.3456"), "d": B([]byte{1, 2}), "e": BS([]byte{1, 2}, []byte{2}, []byte{1})}
}

// TestWriteCapacity checks write units: one per KB, rounded up, of the
// larger of the old and the new item.
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/provisioned-capacity-mode.html
func TestWriteCapacity(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "wcu", types.ScalarAttributeTypeS)
	putCC := func(it item, mode types.ReturnConsumedCapacity, rv types.ReturnValue) *types.ConsumedCapacity {
		t.Helper()
		out, err := c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("wcu"), Item: it, ReturnConsumedCapacity: mode, ReturnValues: rv})
		if err != nil {
			t.Fatal(err)
		}
		return out.ConsumedCapacity
	}
	small, large := kilobyteItem("0123456789", false), kilobyteItem("0123456789", true)
	deepEqual(t, "1024 bytes TOTAL", putCC(small, types.ReturnConsumedCapacityTotal, ""), capacity("wcu", 1, false))
	deepEqual(t, "1024 bytes INDEXES", putCC(small, types.ReturnConsumedCapacityIndexes, ""), capacity("wcu", 1, true))
	if cc := putCC(small, types.ReturnConsumedCapacityNone, ""); cc != nil {
		t.Fatalf("NONE returned %+v", cc)
	}
	if cc := putCC(small, "", ""); cc != nil {
		t.Fatalf("default returned %+v", cc)
	}
	deepEqual(t, "1025 bytes", putCC(large, types.ReturnConsumedCapacityTotal, ""), capacity("wcu", 2, false))
	// Replacing the large item with a tiny one still costs the large one.
	tiny := item{"pk": S("0123456789")}
	deepEqual(t, "tiny over large", putCC(tiny, types.ReturnConsumedCapacityIndexes, types.ReturnValueAllOld), capacity("wcu", 2, true))
	deepEqual(t, "tiny over tiny", putCC(tiny, types.ReturnConsumedCapacityTotal, ""), capacity("wcu", 1, false))

	del := func(pk string) *types.ConsumedCapacity {
		t.Helper()
		out, err := c.DeleteItem(bg(), &dynamodb.DeleteItemInput{TableName: aws.String("wcu"), Key: item{"pk": S(pk)}, ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
		if err != nil {
			t.Fatal(err)
		}
		return out.ConsumedCapacity
	}
	deepEqual(t, "delete missing", del("nothing"), capacity("wcu", 1, false))
	putCC(kilobyteItem("bigbigbig0", true), "", "")
	deepEqual(t, "delete 1 KB+", del("bigbigbig0"), capacity("wcu", 2, false))

	// ReturnItemCollectionMetrics applies only to tables with local
	// secondary indexes; without them nothing is returned.
	out, err := c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("wcu"), Item: tiny, ReturnItemCollectionMetrics: types.ReturnItemCollectionMetricsSize})
	if err != nil || out.ItemCollectionMetrics != nil {
		t.Fatalf("ItemCollectionMetrics %+v %v", out.ItemCollectionMetrics, err)
	}
}

// TestReadCapacity checks read units: one per 4 KB, rounded up, for a
// strongly consistent read, half that otherwise, and at least the minimum
// even for a missing item.
func TestReadCapacity(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "rcu", types.ScalarAttributeTypeS)
	// pk(2) + "x"(1) + v(1) + 4092 = 4096; one more byte = 4097.
	put(t, c, "rcu", item{"pk": S("x"), "v": S(strings.Repeat("v", 4092))})
	put(t, c, "rcu", item{"pk": S("y"), "v": S(strings.Repeat("v", 4093))})
	put(t, c, "rcu", item{"pk": S("z"), "v": S(strings.Repeat("v", 3*4096))})
	getCC := func(pk string, consistent *bool, mode types.ReturnConsumedCapacity) *types.ConsumedCapacity {
		t.Helper()
		out, err := c.GetItem(bg(), &dynamodb.GetItemInput{TableName: aws.String("rcu"), Key: item{"pk": S(pk)}, ConsistentRead: consistent, ReturnConsumedCapacity: mode})
		if err != nil {
			t.Fatal(err)
		}
		return out.ConsumedCapacity
	}
	for _, tc := range []struct {
		pk         string
		consistent *bool
		units      float64
	}{
		{"x", aws.Bool(true), 1}, {"x", nil, 0.5}, {"x", aws.Bool(false), 0.5},
		{"y", aws.Bool(true), 2}, {"y", nil, 1},
		{"z", aws.Bool(true), 4}, {"z", nil, 2},
		{"missing", aws.Bool(true), 1}, {"missing", nil, 0.5},
	} {
		deepEqual(t, "GetItem "+tc.pk, getCC(tc.pk, tc.consistent, types.ReturnConsumedCapacityTotal), capacity("rcu", tc.units, false))
		deepEqual(t, "GetItem INDEXES "+tc.pk, getCC(tc.pk, tc.consistent, types.ReturnConsumedCapacityIndexes), capacity("rcu", tc.units, true))
	}
	// AttributesToGet does not lower the bill: the whole item is read.
	out, err := c.GetItem(bg(), &dynamodb.GetItemInput{TableName: aws.String("rcu"), Key: item{"pk": S("y")}, AttributesToGet: []string{"pk"},
		ConsistentRead: aws.Bool(true), ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
	if err != nil {
		t.Fatal(err)
	}
	deepEqual(t, "projected GetItem", out.ConsumedCapacity, capacity("rcu", 2, false))

	// BatchGetItem sums per table, each item rounded on its own.
	bgo, err := c.BatchGetItem(bg(), &dynamodb.BatchGetItemInput{
		RequestItems:           map[string]types.KeysAndAttributes{"rcu": {Keys: []item{{"pk": S("x")}, {"pk": S("y")}, {"pk": S("missing")}}, ConsistentRead: aws.Bool(true)}},
		ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
	if err != nil {
		t.Fatal(err)
	}
	deepEqual(t, "BatchGetItem", bgo.ConsumedCapacity, []types.ConsumedCapacity{*capacity("rcu", 4, false)})
	bgo, err = c.BatchGetItem(bg(), &dynamodb.BatchGetItemInput{
		RequestItems:           map[string]types.KeysAndAttributes{"rcu": {Keys: []item{{"pk": S("x")}, {"pk": S("y")}, {"pk": S("missing")}}}},
		ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes})
	if err != nil {
		t.Fatal(err)
	}
	deepEqual(t, "BatchGetItem eventually consistent", bgo.ConsumedCapacity, []types.ConsumedCapacity{*capacity("rcu", 2, true)})
}

func TestBatchWriteCapacity(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "bwa", types.ScalarAttributeTypeS)
	createHash(t, c, "bwb", types.ScalarAttributeTypeN)
	for _, tc := range []struct {
		over bool
		want float64
	}{{false, 2}, {true, 3}} {
		out, err := c.BatchWriteItem(bg(), &dynamodb.BatchWriteItemInput{
			RequestItems: map[string][]types.WriteRequest{
				"bwa": {{PutRequest: &types.PutRequest{Item: kilobyteItem("0123456789", tc.over)}}, {PutRequest: &types.PutRequest{Item: item{"pk": S("k2")}}}},
				"bwb": {{PutRequest: &types.PutRequest{Item: item{"pk": N("3")}}}},
			},
			ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes,
		})
		if err != nil {
			t.Fatal(err)
		}
		got := out.ConsumedCapacity
		if len(got) == 2 && aws.ToString(got[0].TableName) == "bwb" {
			got[0], got[1] = got[1], got[0]
		}
		deepEqual(t, "BatchWriteItem", got, []types.ConsumedCapacity{*capacity("bwa", tc.want, true), *capacity("bwb", 1, true)})
	}
}
