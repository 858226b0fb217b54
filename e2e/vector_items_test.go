package e2e

import (
	"errors"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/local"
)

// Item writes on a table with vector indexes: what DynamoDB refuses, what
// it leaves out of the index, and what a write costs the index.
//
// Sources, cited per case:
//   - [dynoxide] texts captured from DynamoDB by the dynoxide emulator's
//     authors (nubo-db/dynoxide, src/actions/vector_index.rs, branch
//     feat/vector-indexes; eu-west-2 and us-east-1, 2026-08-11 to 18).
//   - [toolkit] AWS's agent toolkit, amazon-dynamodb/references/
//     vector-search.md (2026-08-20), "reproduced verbatim from the
//     service".
//   - [guide] AWS's developer guide: VectorSearch.Requirements (sparse
//     indexes), VectorSearchMonitoring (VectorWriteRequestBytes).

const vinv = "One or more parameter values were invalid. "

// vectorItemsTable creates table name with index vec1 on emb, 3
// dimensions, COSINE, a search schema of g (HASH, S) and f
// (INLINE_FILTER, S), projecting ALL.
func vectorItemsTable(t *testing.T, c local.API, name string) {
	t.Helper()
	createVectorTable(t, c, name, vix("vec1", "emb", 3, "g", "HASH", "f", "INLINE_FILTER"))
	waitIndexesActive(t, c, name)
}

func vectorCount(t *testing.T, c local.API, table string) int64 {
	t.Helper()
	return *describe(t, c, table).VectorIndexes[0].ItemCount
}

// TestVectorWriteRefusals puts items whose vector or search schema values
// do not fit the index, through every write path.
func TestVectorWriteRefusals(t *testing.T) {
	_, c := start(t)
	vectorItemsTable(t, c, "vwr")
	ok := L(N("1"), N("2"), N("3"))
	tests := []struct {
		name string
		it   item
		want string
	}{
		// [dynoxide] captured 2026-08-11: not a list (S, M, NS).
		{"string", item{"emb": S("x")}, vinv + "Invalid type for parameter emb, Expected: 32-bit floating point number list IndexName: vec1"},
		{"number set", item{"emb": NS("1", "2", "3")}, vinv + "Invalid type for parameter emb, Expected: 32-bit floating point number list IndexName: vec1"},
		{"map", item{"emb": M(item{"a": N("1")})}, vinv + "Invalid type for parameter emb, Expected: 32-bit floating point number list IndexName: vec1"},
		// [dynoxide] captured 2026-08-11: wrong size, before the elements.
		{"short", item{"emb": L(N("1"), S("x"))}, vinv + "Invalid size for parameter emb, Expected: 3, Actual: 2 IndexName: vec1"},
		{"empty list", item{"emb": L()}, vinv + "Invalid size for parameter emb, Expected: 3, Actual: 0 IndexName: vec1"},
		// [dynoxide] captured 2026-08-12: an element not a number, 0-based.
		{"element S", item{"emb": L(N("1"), S("x"), N("3"))}, vinv + "Invalid type for parameter emb[1], Expected: 32-bit floating point number, Actual: S. IndexName: vec1"},
		{"element BOOL", item{"emb": L(N("1"), N("2"), BOOL(true))}, vinv + "Invalid type for parameter emb[2], Expected: 32-bit floating point number, Actual: BOOL. IndexName: vec1"},
		// [dynoxide] captured 2026-08-12: outside float32's range, the
		// value echoed (written here as dynago stores it, in full: an
		// exponent form is echoed in dynago's canonical form, which the
		// captures do not show).
		{"1e39", item{"emb": L(N("1000000000000000000000000000000000000000"), N("2"), N("3"))}, vinv + "Invalid value for parameter emb[0], Value: 1000000000000000000000000000000000000000 is outside valid range [-3.4028235E38, 3.4028235E38]. IndexName: vec1"},
		// [dynoxide] captured 2026-08-12/13: HASH and INLINE_FILTER type.
		{"hash type", item{"emb": ok, "g": N("1")}, vinv + "Attribute 'g' type mismatch. Expected: S, Actual: N. IndexName: vec1"},
		{"filter type", item{"emb": ok, "g": S("x"), "f": BOOL(false)}, vinv + "Attribute 'f' type mismatch. Expected: S, Actual: BOOL. IndexName: vec1"},
		// [dynoxide] captured 2026-08-11: an empty HASH value on a put.
		{"empty hash", item{"emb": ok, "g": S("")}, "One or more parameter values are not valid. A value specified for a secondary index key is not supported. The AttributeValue for a key attribute cannot contain an empty string value. IndexName: vec1, IndexKey: g"},
		// [dynoxide]: the vector is checked before the schema (order
		// uncaptured, dynoxide's choice).
		{"vector first", item{"emb": S("x"), "g": N("1")}, vinv + "Invalid type for parameter emb, Expected: 32-bit floating point number list IndexName: vec1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			it := item{"pk": S("k")}
			for k, v := range tc.it {
				it[k] = v
			}
			_, err := c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("vwr"), Item: it})
			wantValidation(t, err, tc.want)
			_, err = c.BatchWriteItem(bg(), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{
				"vwr": {{PutRequest: &types.PutRequest{Item: it}}}}})
			wantValidation(t, err, tc.want)
			_, err = c.TransactWriteItems(bg(), &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
				{Put: &types.Put{TableName: aws.String("vwr"), Item: it}}}})
			var tce *types.TransactionCanceledException
			if tc.name == "empty hash" {
				// As for a GSI key: refused for the whole request.
				wantValidation(t, err, tc.want)
			} else if !errors.As(err, &tce) || len(tce.CancellationReasons) != 1 || aws.ToString(tce.CancellationReasons[0].Message) != tc.want {
				t.Fatalf("TransactWriteItems: %v, want a cancellation %q", err, tc.want)
			}
			if get(t, c, "vwr", item{"pk": S("k")}) != nil {
				t.Fatal("a refused write stored the item")
			}
		})
	}

	// [dynoxide] captured 2026-08-13: an update expression giving the
	// HASH attribute an empty value has UpdateItem's text.
	put(t, c, "vwr", item{"pk": S("u"), "emb": ok, "g": S("x")})
	_, err := c.UpdateItem(bg(), &dynamodb.UpdateItemInput{TableName: aws.String("vwr"), Key: item{"pk": S("u")},
		UpdateExpression: aws.String("SET g = :e"), ExpressionAttributeValues: item{":e": S("")}})
	wantValidation(t, err, "One or more parameter values are not valid. The update expression attempted to update a secondary index key to a value that is not supported. The AttributeValue for a key attribute cannot contain an empty string value.")
	_, err = c.UpdateItem(bg(), &dynamodb.UpdateItemInput{TableName: aws.String("vwr"), Key: item{"pk": S("u")},
		UpdateExpression: aws.String("SET emb[1] = :s"), ExpressionAttributeValues: item{":s": S("x")}})
	wantValidation(t, err, vinv+"Invalid type for parameter emb[1], Expected: 32-bit floating point number, Actual: S. IndexName: vec1")
	// PartiQL writes are validated alike ([dynoxide]).
	_, err = ql(c, `INSERT INTO "vwr" VALUE {'pk': 'q', 'emb': [1, 2]}`)
	wantValidation(t, err, vinv+"Invalid size for parameter emb, Expected: 3, Actual: 2 IndexName: vec1")
	_, err = ql(c, `UPDATE "vwr" SET emb = 'x' WHERE pk = 'u'`)
	wantValidation(t, err, vinv+"Invalid type for parameter emb, Expected: 32-bit floating point number list IndexName: vec1")
	if n := vectorCount(t, c, "vwr"); n != 1 {
		t.Fatalf("ItemCount %d, want 1", n)
	}
}

// TestVectorSparseWrites: items the index leaves out, and the one it
// keeps without a filter attribute.
func TestVectorSparseWrites(t *testing.T) {
	_, c := start(t)
	vectorItemsTable(t, c, "vsp")
	ok := L(N("1"), N("0"), N("0"))
	// [guide], [toolkit]: no vector attribute, not indexed.
	put(t, c, "vsp", item{"pk": S("novec"), "g": S("x")})
	// [toolkit], [dynoxide]: no HASH attribute, silently not indexed.
	put(t, c, "vsp", item{"pk": S("nohash"), "emb": ok})
	if n := vectorCount(t, c, "vsp"); n != 0 {
		t.Fatalf("ItemCount %d, want 0", n)
	}
	// [dynoxide] captured: no INLINE_FILTER attribute, indexed.
	put(t, c, "vsp", item{"pk": S("nofilter"), "emb": ok, "g": S("x")})
	if n := vectorCount(t, c, "vsp"); n != 1 {
		t.Fatalf("ItemCount %d, want 1", n)
	}
	got := searchKeys(t, c, "vsp", "vec1", []string{"1", "0", "0"}, 10, "g = :g", item{":g": S("x")})
	deepEqual(t, "results", got, []string{"nofilter"})
	// Removing the HASH attribute takes the item out of the index; a
	// DeleteItem removes the entry ([toolkit]).
	if _, err := c.UpdateItem(bg(), &dynamodb.UpdateItemInput{TableName: aws.String("vsp"), Key: item{"pk": S("nofilter")},
		UpdateExpression: aws.String("REMOVE g")}); err != nil {
		t.Fatal(err)
	}
	if n := vectorCount(t, c, "vsp"); n != 0 {
		t.Fatalf("after REMOVE g: ItemCount %d, want 0", n)
	}
	put(t, c, "vsp", item{"pk": S("d"), "emb": ok, "g": S("x")})
	if _, err := c.DeleteItem(bg(), &dynamodb.DeleteItemInput{TableName: aws.String("vsp"), Key: item{"pk": S("d")}}); err != nil {
		t.Fatal(err)
	}
	d := describe(t, c, "vsp").VectorIndexes[0]
	if *d.ItemCount != 0 || *d.IndexSizeBytes != 0 {
		t.Fatalf("after DeleteItem: ItemCount %d, IndexSizeBytes %d; want 0, 0", *d.ItemCount, *d.IndexSizeBytes)
	}
}

// TestVectorWriteCapacity: VectorWriteRequestBytes under INDEXES only,
// by the formula max(1024, 4*dims + len(vector attribute) + size of the
// rest of the entry) ([dynoxide] captured byte-exact, eu-west-2
// 2026-08-18), insert and remove costing the entry, a change the larger
// entry, an identical overwrite nothing, a KEYS_ONLY index nothing for a
// change it does not project ([dynoxide] 2026-08-18); never added to
// CapacityUnits, absent under TOTAL ([dynoxide] 2026-08-11); [guide].
func TestVectorWriteCapacity(t *testing.T) {
	_, c := start(t)
	big := vix("big", "vv", 300)
	big.Projection = &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}
	createVectorTable(t, c, "vcap", big, vix("small", "vv2", 2))
	waitIndexesActive(t, c, "vcap")
	v300 := make([]types.AttributeValue, 300)
	for i := range v300 {
		v300[i] = N("0.5")
	}
	putCC := func(it item, mode types.ReturnConsumedCapacity) *types.ConsumedCapacity {
		t.Helper()
		out, err := c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("vcap"), Item: it, ReturnConsumedCapacity: mode})
		if err != nil {
			t.Fatal(err)
		}
		return out.ConsumedCapacity
	}
	bytesOf := func(cc *types.ConsumedCapacity) map[string]float64 {
		if cc.VectorIndexes == nil {
			return nil
		}
		m := map[string]float64{}
		for k, v := range cc.VectorIndexes {
			m[k] = *v.VectorWriteRequestBytes
		}
		return m
	}
	long := strings.Repeat("a", 200)
	it := item{"pk": S("k1"), "vv": L(v300...), "vv2": L(N("1"), N("2")), "x": S(long)}
	cc := putCC(it, types.ReturnConsumedCapacityIndexes)
	// big: 4*300 + len("vv") + size of {pk: "k1"} (2+2) = 1206; small:
	// 4*2 + len("vv2") + pk, vv (a list of 300) and x, above 1 KB.
	wantBig := float64(4*300 + 2 + 4)
	got := bytesOf(cc)
	if got["big"] != wantBig {
		t.Fatalf("insert: big %v, want %v", got["big"], wantBig)
	}
	smallFirst := got["small"]
	if smallFirst < 1024 {
		t.Fatalf("insert: small %v, below the 1 KB minimum", smallFirst)
	}
	if *cc.CapacityUnits != *cc.Table.CapacityUnits || cc.GlobalSecondaryIndexes != nil {
		t.Fatalf("vector bytes in capacity units: %+v", cc)
	}
	// An identical overwrite: no member.
	if cc := putCC(it, types.ReturnConsumedCapacityIndexes); cc.VectorIndexes != nil {
		t.Fatalf("identical overwrite: %v, want absent", bytesOf(cc))
	}
	// A change of x: small (ALL) charged, big (KEYS_ONLY) absent.
	it["x"] = S(long + "bcd")
	got = bytesOf(putCC(it, types.ReturnConsumedCapacityIndexes))
	if _, ok := got["big"]; ok || got["small"] != smallFirst+3 {
		t.Fatalf("change of x: %v, want small %v alone", got, smallFirst+3)
	}
	// TOTAL: no vector member.
	it["x"] = S("y")
	if cc := putCC(it, types.ReturnConsumedCapacityTotal); cc.VectorIndexes != nil {
		t.Fatalf("TOTAL: %v, want absent", bytesOf(cc))
	}
	// A small index's entry costs the 1 KB minimum.
	small := item{"pk": S("k2"), "vv2": L(N("1"), N("2"))}
	got = bytesOf(putCC(small, types.ReturnConsumedCapacityIndexes))
	deepEqual(t, "small item", got, map[string]float64{"small": 1024})
	// A delete costs the entry removed.
	out, err := c.DeleteItem(bg(), &dynamodb.DeleteItemInput{TableName: aws.String("vcap"), Key: item{"pk": S("k1")},
		ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes})
	if err != nil {
		t.Fatal(err)
	}
	if got := bytesOf(out.ConsumedCapacity); got["big"] != wantBig {
		t.Fatalf("delete: %v, want big %v", got, wantBig)
	}
	// BatchWriteItem and TransactWriteItems report it per table.
	bw, err := c.BatchWriteItem(bg(), &dynamodb.BatchWriteItemInput{ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes,
		RequestItems: map[string][]types.WriteRequest{"vcap": {{PutRequest: &types.PutRequest{Item: item{"pk": S("b1"), "vv2": L(N("1"), N("2"))}}}}}})
	if err != nil {
		t.Fatal(err)
	}
	deepEqual(t, "BatchWriteItem", bytesOf(&bw.ConsumedCapacity[0]), map[string]float64{"small": 1024})
	tw, err := c.TransactWriteItems(bg(), &dynamodb.TransactWriteItemsInput{ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes,
		TransactItems: []types.TransactWriteItem{{Put: &types.Put{TableName: aws.String("vcap"), Item: item{"pk": S("t1"), "vv2": L(N("1"), N("2"))}}}}})
	if err != nil {
		t.Fatal(err)
	}
	deepEqual(t, "TransactWriteItems", bytesOf(&tw.ConsumedCapacity[0]), map[string]float64{"small": 1024})
}
