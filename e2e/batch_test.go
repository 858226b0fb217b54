package e2e

import (
	"fmt"
	"regexp"
	"sort"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
)

func TestBatchWriteAndGet(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "bw1", types.ScalarAttributeTypeS)
	createRange(t, c, "bw2", types.ScalarAttributeTypeN)
	put(t, c, "bw1", item{"pk": S("old"), "v": S("x")})

	var w1 []types.WriteRequest
	for i := range 20 {
		w1 = append(w1, types.WriteRequest{PutRequest: &types.PutRequest{Item: item{"pk": S(fmt.Sprint(i)), "v": N(fmt.Sprint(i))}}})
	}
	w1 = append(w1, types.WriteRequest{DeleteRequest: &types.DeleteRequest{Key: item{"pk": S("old")}}})
	w1 = append(w1, types.WriteRequest{DeleteRequest: &types.DeleteRequest{Key: item{"pk": S("never")}}})
	out, err := c.BatchWriteItem(bg(), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{
		"bw1": w1,
		"bw2": {{PutRequest: &types.PutRequest{Item: item{"pk": S("a"), "sk": N("1"), "x": BOOL(true)}}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if out.UnprocessedItems == nil || len(out.UnprocessedItems) != 0 || out.ConsumedCapacity != nil || out.ItemCollectionMetrics != nil {
		t.Fatalf("BatchWriteItem output %+v", out)
	}
	if d := describe(t, c, "bw1"); aws.ToInt64(d.ItemCount) != 20 {
		t.Fatalf("ItemCount %d after batch", aws.ToInt64(d.ItemCount))
	}

	keys := []item{{"pk": S("3")}, {"pk": S("7")}, {"pk": S("nope")}}
	g, err := c.BatchGetItem(bg(), &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{
		"bw1": {Keys: keys, ConsistentRead: aws.Bool(true)},
		"bw2": {Keys: []item{{"pk": S("a"), "sk": N("1.0")}}, AttributesToGet: []string{"x"}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if g.UnprocessedKeys == nil || len(g.UnprocessedKeys) != 0 {
		t.Fatalf("UnprocessedKeys %+v", g.UnprocessedKeys)
	}
	got := g.Responses["bw1"]
	sort.Slice(got, func(i, j int) bool { return renderItem(got[i]) < renderItem(got[j]) })
	if len(got) != 2 {
		t.Fatalf("bw1 responses %d", len(got))
	}
	itemEqual(t, "bw1[0]", got[0], item{"pk": S("3"), "v": N("3")})
	itemEqual(t, "bw1[1]", got[1], item{"pk": S("7"), "v": N("7")})
	if len(g.Responses["bw2"]) != 1 {
		t.Fatalf("bw2 responses %v", g.Responses["bw2"])
	}
	itemEqual(t, "bw2", g.Responses["bw2"][0], item{"x": BOOL(true)})

	// 100 keys in one call are allowed.
	var hundred []item
	for i := range 100 {
		hundred = append(hundred, item{"pk": S(fmt.Sprint(i))})
	}
	g, err = c.BatchGetItem(bg(), &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{"bw1": {Keys: hundred}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Responses["bw1"]) != 20 {
		t.Fatalf("got %d of the 20 items", len(g.Responses["bw1"]))
	}
}

func TestBatchWriteValidation(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "bwv", types.ScalarAttributeTypeS)
	putReq := func(pk string) types.WriteRequest {
		return types.WriteRequest{PutRequest: &types.PutRequest{Item: item{"pk": S(pk)}}}
	}
	var many []types.WriteRequest
	for i := range 26 {
		many = append(many, putReq(fmt.Sprint(i)))
	}
	_, err := c.BatchWriteItem(bg(), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"bwv": many}})
	wantMatch(t, err, "ValidationException", `^1 validation error detected: Value '\{bwv=\[WriteRequest\(putRequest=PutRequest\(item=\{pk=com\.amazonaws\.dynamodb\.v20120810\.AttributeValue@[0-9a-f]+\}, workloadProfileName=null\), deleteRequest=null\), .*\]\}' at 'requestItems' failed to satisfy constraint: Map value must satisfy constraint: \[Member must have length less than or equal to 25, Member must have length greater than or equal to 1\]$`)

	// 25 per table but 26 in all.
	_, err = c.BatchWriteItem(bg(), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{
		"bwv": many[:25], "other": many[25:]}})
	wantValidation(t, err, "Too many items requested for the BatchWriteItem call")

	_, err = c.BatchWriteItem(bg(), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"a;": {putReq("x")}}})
	wantMatch(t, err, "ValidationException", `^1 validation error detected: Value '\{a;=\[.*\]\}' at 'requestItems' failed to satisfy constraint: Map keys must satisfy constraint: \[Member must have length less than or equal to 255, Member must have length greater than or equal to 3, Member must satisfy regular expression pattern: \[a-zA-Z0-9_\.-\]\+\]$`)

	_, err = c.BatchWriteItem(bg(), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"bwv": {
		putReq("same"), {DeleteRequest: &types.DeleteRequest{Key: item{"pk": S("same")}}}}}})
	wantValidation(t, err, "Provided list of item keys contains duplicates")

	// A put whose key does not match gets the key-lookup message.
	for _, it := range []item{{}, {"x": S("a")}, {"pk": N("1")}} {
		_, err = c.BatchWriteItem(bg(), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"bwv": {
			{PutRequest: &types.PutRequest{Item: it}}}}})
		wantValidation(t, err, "The provided key element does not match the schema")
	}
	_, err = c.BatchWriteItem(bg(), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"bwv": {
		{DeleteRequest: &types.DeleteRequest{Key: item{"pk": S("a"), "x": S("b")}}}}}})
	wantValidation(t, err, "The provided key element does not match the schema")
	_, err = c.BatchWriteItem(bg(), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"bwv": {
		{PutRequest: &types.PutRequest{Item: item{"pk": S("a"), "s": SS("x", "x")}}}}}})
	wantValidation(t, err, "One or more parameter values were invalid: Input collection [x, x] contains duplicates.")
	_, err = c.BatchWriteItem(bg(), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"bwv": {putReq("a")}},
		ReturnConsumedCapacity: "ALL", ReturnItemCollectionMetrics: "ALL"})
	wantConstraints(t, err,
		"Value 'ALL' at 'returnConsumedCapacity' failed to satisfy constraint: Member must satisfy enum value set: [INDEXES, TOTAL, NONE]",
		"Value 'ALL' at 'returnItemCollectionMetrics' failed to satisfy constraint: Member must satisfy enum value set: [SIZE, NONE]")
	// Nothing of a refused batch was written.
	if d := describe(t, c, "bwv"); aws.ToInt64(d.ItemCount) != 0 {
		t.Fatalf("refused batches wrote %d items", aws.ToInt64(d.ItemCount))
	}
}

func TestBatchGetValidation(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "bgv", types.ScalarAttributeTypeS)
	var keys []item
	for i := range 101 {
		keys = append(keys, item{"pk": S(fmt.Sprint(i))})
	}
	// The Keys lists' lengths and the table names' constraint:
	// paritysuite/dynamodb-conformance, tests/tier3/error-messages/
	// batchGetItem.test.ts ("> 100 keys across all tables", "empty Keys
	// list", "malformed table name", the last us-east-1 and eu-west-2,
	// 2026-10-09), newer than the per-value and Java forms pinned here
	// before.
	_, err := c.BatchGetItem(bg(), &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{"bgv": {Keys: keys}}})
	wantValidation(t, err, "1 validation error detected: Value at 'RequestItems.bgv.member.Keys' failed to satisfy constraint: Member must have length less than or equal to 100")
	// 100 per table but 101 in all.
	_, err = c.BatchGetItem(bg(), &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{
		"bgv": {Keys: keys[:100]}, "abd": {Keys: keys[100:]}}})
	wantValidation(t, err, "Too many items requested for the BatchGetItem call")
	// Exactly 100 keys on a missing table: not found.
	_, err = c.BatchGetItem(bg(), &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{"nosuch": {Keys: keys[:100]}}})
	wantErr(t, err, "ResourceNotFoundException", "Requested resource not found")
	// Duplicate keys are found before the table is looked up.
	_, err = c.BatchGetItem(bg(), &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{
		"nosuch": {Keys: []item{{"a": S("x"), "b": N("1")}, {"b": N("1.0"), "a": S("x")}}}}})
	wantValidation(t, err, "Provided list of item keys contains duplicates")
	_, err = c.BatchGetItem(bg(), &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{
		"bgv": {Keys: []item{{"pk": S("1")}, {"pk": S("1")}}, AttributesToGet: []string{"a", "a"}}}})
	wantValidation(t, err, "One or more parameter values were invalid: Duplicate value in attribute name: a")
	_, err = c.BatchGetItem(bg(), &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{"bgv": {Keys: []item{}}}})
	wantValidation(t, err, "1 validation error detected: Value at 'RequestItems.bgv.member.Keys' failed to satisfy constraint: Member must have length greater than or equal to 1")
	_, err = c.BatchGetItem(bg(), &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{"x": {Keys: keys[:1]}}})
	wantValidation(t, err, `1 validation error detected: Value '{"x":{"Keys":[{"pk":{"S":"0"}}]}}' at 'requestItems' failed to satisfy constraint: Map keys must satisfy constraint: [Member must have length less than or equal to 255, Member must have length greater than or equal to 3, Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+]`)
}

// wantMatch checks the error code and that the message matches pattern.
func wantMatch(t *testing.T, err error, code, pattern string) {
	t.Helper()
	var ae smithy.APIError
	if !errorsAs(err, &ae) || ae.ErrorCode() != code || !regexp.MustCompile(pattern).MatchString(ae.ErrorMessage()) {
		t.Fatalf("got %v\nwant %s matching %s", err, code, pattern)
	}
}
