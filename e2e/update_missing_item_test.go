package e2e

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TestUpdateMissingItem pins what UpdateItem does to an item whose key
// does not exist (and, for the nested REMOVE, to one that exists without
// the path's parent).
//
// Sources cited below:
//   - alt-item: ScyllaDB Alternator, test/alternator/test_item.py (run
//     against DynamoDB).
//   - alt-update: ScyllaDB Alternator, test/alternator/test_update_expression.py
//     (run against DynamoDB).
func TestUpdateMissingItem(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "umiss", types.ScalarAttributeTypeS)
	const badPath = "The document path provided in the update expression is invalid for update"
	type result struct {
		msg    string // a ValidationException's message; "" is success
		attrs  item   // the returned Attributes
		stored item   // the item afterwards; nil: none
	}
	cases := []struct {
		name  string
		start item // the item before the update; nil: none
		// One of the two update members: upd is AttributeUpdates (empty
		// but present when legacy is set), expr an UpdateExpression.
		legacy bool
		upd    map[string]types.AttributeValueUpdate
		expr   string
		vals   item
		rv     types.ReturnValue
		want   result
	}{
		// alt-item test_update_item_non_existent: "an update that does
		// *nothing* on a non-existent item, still creates it", with
		// AttributeUpdates={}; as with no update member at all
		// (alt-item test_update_item_no_update_method).
		{name: "empty AttributeUpdates, NONE", legacy: true, upd: map[string]types.AttributeValueUpdate{},
			rv: types.ReturnValueNone, want: result{stored: item{"pk": S("k")}}},
		// The created item is the new item ALL_NEW returns; the update
		// names no path, so UPDATED_NEW has nothing, and there was no
		// old item for ALL_OLD (no recording found of these three return
		// values for this request; they follow from the item created).
		{name: "empty AttributeUpdates, ALL_NEW", legacy: true, upd: map[string]types.AttributeValueUpdate{},
			rv: types.ReturnValueAllNew, want: result{attrs: item{"pk": S("k")}, stored: item{"pk": S("k")}}},
		{name: "empty AttributeUpdates, UPDATED_NEW", legacy: true, upd: map[string]types.AttributeValueUpdate{},
			rv: types.ReturnValueUpdatedNew, want: result{stored: item{"pk": S("k")}}},
		{name: "empty AttributeUpdates, ALL_OLD", legacy: true, upd: map[string]types.AttributeValueUpdate{},
			rv: types.ReturnValueAllOld, want: result{stored: item{"pk": S("k")}}},
		// An empty AttributeUpdates leaves an existing item as it is.
		{name: "empty AttributeUpdates, existing item", start: item{"pk": S("k"), "x": N("1")}, legacy: true,
			upd: map[string]types.AttributeValueUpdate{}, rv: types.ReturnValueAllNew,
			want: result{attrs: item{"pk": S("k"), "x": N("1")}, stored: item{"pk": S("k"), "x": N("1")}}},
		// alt-item test_update_item_non_existent: an update that only
		// deletes does not create a missing item ("REMOVE a"; Alternator
		// issue #5862).
		{name: "REMOVE a, missing item", expr: "REMOVE a", rv: types.ReturnValueAllNew},
		// alt-update test_nested_attribute_remove_from_missing_item:
		// "if the entire item doesn't exist, then a REMOVE x.y is
		// silently ignored", and "REMOVE x[0]" likewise. Ignored, it
		// deletes only, so it creates no item either (alt-item above).
		{name: "REMOVE a.b, missing item", expr: "REMOVE a.b", rv: types.ReturnValueAllNew},
		{name: "REMOVE a[0], missing item", expr: "REMOVE a[0]", rv: types.ReturnValueAllNew},
		{name: "REMOVE a.b[1].c, missing item", expr: "REMOVE a.b[1].c", rv: types.ReturnValueAllNew},
		{name: "REMOVE a.b, c, missing item", expr: "REMOVE a.b, c", rv: types.ReturnValueNone},
		// alt-update test_nested_attribute_update_bad_path_dot and
		// test_nested_attribute_update_bad_path_array: on an existing
		// item without a, "REMOVE a.c" and "REMOVE b[0]" are refused,
		// as SET is.
		{name: "REMOVE a.b, existing item without a", start: item{"pk": S("k"), "x": N("1")}, expr: "REMOVE a.b",
			want: result{msg: badPath, stored: item{"pk": S("k"), "x": N("1")}}},
		{name: "REMOVE a[0], existing item without a", start: item{"pk": S("k"), "x": N("1")}, expr: "REMOVE a[0]",
			want: result{msg: badPath, stored: item{"pk": S("k"), "x": N("1")}}},
		// alt-update test_nested_attribute_update_bad_path_dot and _array:
		// "Same error when the item doesn't exist at all" for SET.
		{name: "SET a.b, missing item", expr: "SET a.b = :x", vals: item{":x": N("1")}, rv: types.ReturnValueAllNew,
			want: result{msg: badPath}},
		{name: "SET a[0], missing item", expr: "SET a[0] = :x", vals: item{":x": N("1")}, rv: types.ReturnValueAllNew,
			want: result{msg: badPath}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			key := item{"pk": S("k")}
			if _, err := c.DeleteItem(bg(), &dynamodb.DeleteItemInput{TableName: aws.String("umiss"), Key: key}); err != nil {
				t.Fatal(err)
			}
			if tc.start != nil {
				put(t, c, "umiss", tc.start)
			}
			in := &dynamodb.UpdateItemInput{TableName: aws.String("umiss"), Key: key,
				ExpressionAttributeValues: tc.vals, ReturnValues: tc.rv}
			if tc.legacy {
				in.AttributeUpdates = tc.upd
			} else {
				in.UpdateExpression = aws.String(tc.expr)
			}
			out, err := c.UpdateItem(bg(), in)
			if tc.want.msg != "" {
				wantValidation(t, err, tc.want.msg)
			} else {
				if err != nil {
					t.Fatal(err)
				}
				if tc.want.attrs == nil && out.Attributes != nil {
					t.Fatalf("Attributes %s, want none", renderItem(out.Attributes))
				}
				itemEqual(t, "Attributes", out.Attributes, tc.want.attrs)
			}
			got := get(t, c, "umiss", key)
			if tc.want.stored == nil && got != nil {
				t.Fatalf("item %s exists, want none", renderItem(got))
			}
			itemEqual(t, "stored item", got, tc.want.stored)
		})
	}
}

// TestUpdateEmptyAttributeUpdatesCapacity: an empty AttributeUpdates on
// a missing item writes the key-only item, one write unit as any item of
// at most 1 KB (alt-item test_update_item_non_existent for the write; no
// recording found of its ConsumedCapacity).
func TestUpdateEmptyAttributeUpdatesCapacity(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "umcap", types.ScalarAttributeTypeS)
	out, err := c.UpdateItem(bg(), &dynamodb.UpdateItemInput{TableName: aws.String("umcap"), Key: item{"pk": S("k")},
		AttributeUpdates: map[string]types.AttributeValueUpdate{}, ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
	if err != nil {
		t.Fatal(err)
	}
	if out.ConsumedCapacity == nil || out.ConsumedCapacity.CapacityUnits == nil || *out.ConsumedCapacity.CapacityUnits != 1 {
		t.Fatalf("ConsumedCapacity %+v, want 1 write unit", out.ConsumedCapacity)
	}
	itemEqual(t, "stored item", get(t, c, "umcap", item{"pk": S("k")}), item{"pk": S("k")})
}
