package e2e

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// The cases of four files of paritysuite/dynamodb-conformance (recorded
// against DynamoDB in eu-west-2 and us-east-1, 2026) that no other test
// pins. The cases of those files that other tests already pin:
//
// tests/tier3/error-messages/updateItem.test.ts: every case.
// "cannot update hash key attribute", "invalid UpdateExpression syntax",
// "unused ExpressionAttributeNames", "unused ExpressionAttributeValues",
// "missing ExpressionAttributeValues reference", "mixing UpdateExpression
// with AttributeUpdates", "empty UpdateExpression" and "cannot update range
// key attribute on composite table" are the probes u_upd_* of
// captures/cross-region-latest.json in TestCrossRegionCaptureExact
// (framework_exact_test.go); "undefined value in the ConditionExpression
// beside a defined one" is in framework_exact_test.go too; "empty-binary
// key value" is TestWordingKeyLookups's "empty binary" case
// (wording_exact_test.go).
//
// tests/tier1/putItem/itemCollectionMetrics.test.ts: "PutItem with SIZE
// returns ItemCollectionMetrics" and "PutItem reports a small item
// collection as the range 0 to 1 GB" are TestIndexItemCollectionMetrics
// (index_test.go).
//
// tests/tier1/updateItem/basic.test.ts: the plain SET, REMOVE, ADD and
// DELETE cases, arithmetic, if_not_exists with a value, list_append in
// both orders and nested in if_not_exists, ALL_NEW, UPDATED_OLD and
// UPDATED_NEW, a nested UPDATED_NEW fragment, REMOVE under UPDATED_NEW and
// the no-op upsert are TestUpdateActions, TestUpdateReturnValues and
// TestUpdateUpsert (update_test.go); "a second SET clause reads the
// pre-update value" is TestUpdateActions's swap.
//
// tests/tier1/updateItem/paths.test.ts: a missing intermediate map, nested
// SET, SET past a list's end, nested arithmetic, REMOVE of a nested key and
// of list elements, two SETs of one attribute (refused as overlapping) and
// a document path nesting under an existing map are TestUpdateActions and
// TestUpdateErrors (update_test.go).

// TestParitysuiteUpdateItemExact: the update cases of
// tests/tier1/updateItem/basic.test.ts and tests/tier1/updateItem/paths.test.ts
// that no other test pins, each named by its test.
func TestParitysuiteUpdateItemExact(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "psu", types.ScalarAttributeTypeS)
	key := item{"pk": S("k")}
	for _, tc := range []struct {
		name   string
		before item // stored first unless nil (then no item exists)
		update string
		names  map[string]string
		values item
		rv     types.ReturnValue
		ret    item // the Attributes the update returns
		after  item // the stored item
	}{
		// basic.test.ts, "UpdateItem — SET".
		{name: "basic.test.ts: if_not_exists with cross-attribute reference",
			before: item{"pk": S("k"), "myval": S("original")},
			update: "SET #bk = if_not_exists(#bk, #mv)", names: names("#bk", "backup", "#mv", "myval"),
			after: item{"pk": S("k"), "myval": S("original"), "backup": S("original")}},
		{name: "basic.test.ts: SET creates a string set whose only member is the empty string",
			update: "SET tags = :v", values: item{":v": SS("")},
			after: item{"pk": S("k"), "tags": SS("")}},
		{name: "basic.test.ts: SET on a document path creates a nested set with an empty member",
			before: item{"pk": S("k"), "wrapper": M(item{})},
			update: "SET wrapper.tags = :v", values: item{":v": SS("")},
			after: item{"pk": S("k"), "wrapper": M(item{"tags": SS("")})}},
		// basic.test.ts, "UpdateItem — ADD".
		{name: "basic.test.ts: ADD of an empty string member onto an existing set adds it",
			before: item{"pk": S("k"), "tags": SS("a")},
			update: "ADD tags :v", values: item{":v": SS("")},
			after: item{"pk": S("k"), "tags": SS("", "a")}},
		{name: "basic.test.ts: ADD of an empty string member onto a missing attribute creates the set",
			before: item{"pk": S("k")},
			update: "ADD tags :v", values: item{":v": SS("")},
			after: item{"pk": S("k"), "tags": SS("")}},
		{name: "basic.test.ts: ADD of an already-present empty member leaves the set unchanged",
			before: item{"pk": S("k"), "tags": SS("")},
			update: "ADD tags :v", values: item{":v": SS("")},
			after: item{"pk": S("k"), "tags": SS("")}},
		{name: "basic.test.ts: ADD of a zero-length binary member onto an existing binary set adds it",
			before: item{"pk": S("k"), "bins": BS([]byte{1})},
			update: "ADD bins :v", values: item{":v": BS([]byte{})},
			after: item{"pk": S("k"), "bins": BS([]byte{}, []byte{1})}},
		// basic.test.ts, "UpdateItem — DELETE".
		{name: "basic.test.ts: DELETE of the empty member removes it and keeps the rest",
			before: item{"pk": S("k"), "tags": SS("", "a")},
			update: "DELETE tags :v", values: item{":v": SS("")},
			after: item{"pk": S("k"), "tags": SS("a")}},
		{name: "basic.test.ts: DELETE of the last remaining (empty) member removes the attribute entirely",
			before: item{"pk": S("k"), "tags": SS("")},
			update: "DELETE tags :v", values: item{":v": SS("")},
			after: item{"pk": S("k")}},
		{name: "basic.test.ts: DELETE of the non-empty member leaves a set whose only member is empty",
			before: item{"pk": S("k"), "tags": SS("", "a")},
			update: "DELETE tags :v", values: item{":v": SS("a")},
			after: item{"pk": S("k"), "tags": SS("")}},
		// basic.test.ts, "UpdateItem — SET evaluation semantics".
		{name: "basic.test.ts: applies parenthesised arithmetic (SET c = (c - :v))",
			before: item{"pk": S("k"), "c": N("10")},
			update: "SET c = (c - :v)", values: item{":v": N("3")}, rv: types.ReturnValueAllNew,
			ret: item{"pk": S("k"), "c": N("7")}, after: item{"pk": S("k"), "c": N("7")}},
		{name: "basic.test.ts: applies arithmetic around if_not_exists (SET v = if_not_exists(v, :d) - :amt)",
			before: item{"pk": S("k"), "v": N("10")},
			update: "SET v = if_not_exists(v, :d) - :amt", values: item{":d": N("0"), ":amt": N("3")}, rv: types.ReturnValueAllNew,
			ret: item{"pk": S("k"), "v": N("7")}, after: item{"pk": S("k"), "v": N("7")}},
		// basic.test.ts, "UpdateItem — ReturnValues granularity".
		{name: "basic.test.ts: UPDATED_NEW on a create returns the newly set attributes",
			update: "SET a = :a", values: item{":a": S("x")}, rv: types.ReturnValueUpdatedNew,
			ret: item{"a": S("x")}, after: item{"pk": S("k"), "a": S("x")}},
		// paths.test.ts.
		{name: "paths.test.ts: REMOVE last list element",
			before: item{"pk": S("k"), "mylist": L(S("x"), S("y"))},
			update: "REMOVE #l[1]", names: names("#l", "mylist"),
			after: item{"pk": S("k"), "mylist": L(S("x"))}},
		{name: "paths.test.ts: SET on list index 0 of empty list succeeds",
			before: item{"pk": S("k"), "mylist": L()},
			update: "SET #l[0] = :v", names: names("#l", "mylist"), values: item{":v": S("first")},
			after: item{"pk": S("k"), "mylist": L(S("first"))}},
		{name: "paths.test.ts: returns every subpath under UPDATED_NEW when one SET writes several",
			before: item{"pk": S("k"), "a": M(item{"existing": S("e")})},
			update: "SET #a.#b = :x, #a.#c = :y", names: names("#a", "a", "#b", "b", "#c", "c"), values: item{":x": S("x"), ":y": S("y")},
			rv:  types.ReturnValueUpdatedNew,
			ret: item{"a": M(item{"b": S("x"), "c": S("y")})}, after: item{"pk": S("k"), "a": M(item{"existing": S("e"), "b": S("x"), "c": S("y")})}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := c.DeleteItem(bg(), &dynamodb.DeleteItemInput{TableName: aws.String("psu"), Key: key}); err != nil {
				t.Fatal(err)
			}
			if tc.before != nil {
				put(t, c, "psu", tc.before)
			}
			got := mustUpdate(t, c, "psu", key, tc.update, tc.names, tc.values, tc.rv)
			itemEqual(t, "returned", got, tc.ret)
			itemEqual(t, "stored", get(t, c, "psu", key), tc.after)
		})
	}

	// basic.test.ts, "ADD of an empty string member onto an existing set
	// adds it": GetItem returns a set's members in DynamoDB's order, the
	// empty string first (eu-west-2, 2026-10-09), whatever order they were
	// written in.
	put(t, c, "psu", item{"pk": S("k"), "tags": SS("a")})
	mustUpdate(t, c, "psu", key, "ADD tags :v", nil, item{":v": SS("")}, "")
	if got := get(t, c, "psu", key)["tags"].(*types.AttributeValueMemberSS).Value; !reflect.DeepEqual(got, []string{"", "a"}) {
		t.Fatalf("set members %q, want [\"\" \"a\"]", got)
	}
	// "ADD of a zero-length binary member onto an existing binary set adds
	// it": two members, one of each length.
	put(t, c, "psu", item{"pk": S("k"), "bins": BS([]byte{1})})
	mustUpdate(t, c, "psu", key, "ADD bins :v", nil, item{":v": BS([]byte{})}, "")
	bins := get(t, c, "psu", key)["bins"].(*types.AttributeValueMemberBS).Value
	if len(bins) != 2 || !(len(bins[0]) == 0 && bytes.Equal(bins[1], []byte{1}) || len(bins[1]) == 0 && bytes.Equal(bins[0], []byte{1})) {
		t.Fatalf("binary set members %v", bins)
	}
}

// TestParitysuiteItemCollectionMetricsExact: the cases of
// tests/tier1/putItem/itemCollectionMetrics.test.ts that no other test pins:
// DeleteItem and UpdateItem report the item collection of a table with a
// local secondary index under ReturnItemCollectionMetrics SIZE, as the
// range of whole gigabytes [0, 1] ("PutItem reports a small item
// collection as the range 0 to 1 GB", eu-west-2 and us-east-1,
// 2026-10-09), and NONE reports nothing.
func TestParitysuiteItemCollectionMetricsExact(t *testing.T) {
	_, c := start(t)
	createIndexed(t, c)
	tn := aws.String("idx")
	want := &types.ItemCollectionMetrics{ItemCollectionKey: item{"pk": S("icm")}, SizeEstimateRangeGB: []float64{0, 1}}
	check := func(t *testing.T, got *types.ItemCollectionMetrics) {
		t.Helper()
		if got == nil || renderItem(got.ItemCollectionKey) != renderItem(want.ItemCollectionKey) || !reflect.DeepEqual(got.SizeEstimateRangeGB, want.SizeEstimateRangeGB) {
			t.Fatalf("ItemCollectionMetrics %+v, want %+v", got, want)
		}
	}
	t.Run("DeleteItem with SIZE returns ItemCollectionMetrics", func(t *testing.T) {
		put(t, c, "idx", item{"pk": S("icm"), "sk": S("a"), "lsk": N("1"), "data": S("to-delete")})
		out, err := c.DeleteItem(bg(), &dynamodb.DeleteItemInput{TableName: tn, Key: item{"pk": S("icm"), "sk": S("a")},
			ReturnItemCollectionMetrics: types.ReturnItemCollectionMetricsSize})
		if err != nil {
			t.Fatal(err)
		}
		check(t, out.ItemCollectionMetrics)
	})
	t.Run("UpdateItem with SIZE returns ItemCollectionMetrics", func(t *testing.T) {
		put(t, c, "idx", item{"pk": S("icm"), "sk": S("a"), "lsk": N("1"), "data": S("original")})
		out, err := c.UpdateItem(bg(), &dynamodb.UpdateItemInput{TableName: tn, Key: item{"pk": S("icm"), "sk": S("a")},
			UpdateExpression: aws.String("SET #d = :v"), ExpressionAttributeNames: names("#d", "data"),
			ExpressionAttributeValues:   item{":v": S("updated")},
			ReturnItemCollectionMetrics: types.ReturnItemCollectionMetricsSize})
		if err != nil {
			t.Fatal(err)
		}
		check(t, out.ItemCollectionMetrics)
	})
	t.Run("PutItem with NONE does not return ItemCollectionMetrics", func(t *testing.T) {
		out, err := c.PutItem(bg(), &dynamodb.PutItemInput{TableName: tn, Item: item{"pk": S("icm"), "sk": S("b"), "lsk": N("1"), "data": S("hello")},
			ReturnItemCollectionMetrics: types.ReturnItemCollectionMetricsNone})
		if err != nil {
			t.Fatal(err)
		}
		if out.ItemCollectionMetrics != nil {
			t.Fatalf("ItemCollectionMetrics %+v under NONE", out.ItemCollectionMetrics)
		}
	})
}
