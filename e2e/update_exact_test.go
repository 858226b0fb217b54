package e2e

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	st "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
)

// Sources cited below:
//   - alt-update: ScyllaDB Alternator, test/alternator/test_update_expression.py
//     (run against DynamoDB).
//   - dynalite: dynalite's updateItem tests, run against DynamoDB.
//   - ddb-local: DynamoDB Local's list of expression messages.

// TestUpdateExpressionExact pins which function nestings, clauses and
// paths an UpdateExpression may use.
func TestUpdateExpressionExact(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "upx", types.ScalarAttributeTypeS)
	const inv = "Invalid UpdateExpression: "
	cases := []struct {
		name  string
		start item // the item before the update; nil: none
		expr  string
		vals  item
		msg   string // "" is success
		want  item   // the item after a successful update
	}{
		// alt-update test_update_expression_function_nesting: a
		// list_append may take if_not_exists...
		{"list_append of if_not_exists", nil, "SET a = list_append(if_not_exists(a, :x), :y)",
			item{":x": L(S("a")), ":y": L(S("b"))}, "", item{"pk": S("k"), "a": L(S("a"), S("b"))}},
		// ...and (no recording found; chose to allow it, as the grammar
		// does) if_not_exists may take a list_append.
		{"if_not_exists of list_append", item{"pk": S("k"), "b": L(S("b"))}, "SET a = if_not_exists(a, list_append(b, :y))",
			item{":y": L(S("c"))}, "", item{"pk": S("k"), "a": L(S("b"), S("c")), "b": L(S("b"))}},
		// alt-update: but not a list_append, at any depth.
		{"list_append of list_append", nil, "SET a = list_append(list_append(:x, :y), :z)",
			item{":x": L(S("a")), ":y": L(S("b")), ":z": L(S("c"))},
			inv + "The function is not allowed to be used this way in an expression; function: list_append", nil},
		{"list_append deeper", nil, "SET a = list_append(list_append(list_append(:x, :y), :z), :w)",
			item{":x": L(S("a")), ":y": L(S("b")), ":z": L(S("c")), ":w": L(S("d"))},
			inv + "The function is not allowed to be used this way in an expression; function: list_append", nil},
		// alt-update test_update_expression_if_not_exists: its first
		// argument must be a path (dynalite's text).
		{"if_not_exists of a value", nil, "SET a = if_not_exists(:x, :y)", item{":x": N("1"), ":y": N("2")},
			inv + "Operator or function requires a document path; operator or function: if_not_exists", nil},
		// alt-update test_update_expression_function_plus_nesting: "+" may
		// not be an argument; it may follow a function.
		{"plus inside if_not_exists", nil, "SET a = if_not_exists(a, :x + :y)", item{":x": N("1"), ":y": N("2")},
			inv + "Syntax error; token: \"+\", near: \":x + :y\"", nil},
		{"plus after if_not_exists", nil, "SET a = if_not_exists(a, :x) + :y", item{":x": N("1"), ":y": N("2")},
			"", item{"pk": S("k"), "a": N("3")}},
		// ddb-local: functions of the other clause.
		{"size in update", item{"pk": S("k"), "b": S("xy")}, "SET a = size(b)", nil,
			inv + "The function is not allowed in an update expression; function: size", nil},
		{"attribute_exists in update", nil, "SET a = attribute_exists(b)", nil,
			inv + "The function is not allowed in an update expression; function: attribute_exists", nil},
		// alt-update test_nested_attribute_remove_from_missing_item: on a
		// missing item a nested REMOVE is silently ignored, and creates
		// no item (e2e/update_missing_item_test.go)...
		{"remove nested on missing item", nil, "REMOVE a.b", nil, "", nil},
		// ...while dynalite ("remove y.a" with y missing) and alt-update
		// test_nested_attribute_update_bad_path_dot refuse a nested path
		// through a missing parent of an existing item.
		{"remove nested missing parent", item{"pk": S("k"), "x": N("1")}, "REMOVE a.b", nil,
			"The document path provided in the update expression is invalid for update", nil},
		{"set nested missing parent", item{"pk": S("k")}, "SET a.b = :x", item{":x": N("1")},
			"The document path provided in the update expression is invalid for update", nil},
		// alt-update / dynalite: a missing top-level attribute may be removed.
		{"remove missing attribute", item{"pk": S("k"), "x": N("1")}, "REMOVE a", nil, "", item{"pk": S("k"), "x": N("1")}},
		// dynalite: overlapping and conflicting paths.
		{"overlap same", nil, "SET a = :x REMOVE a", item{":x": N("1")},
			inv + "Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a], path two: [a]", nil},
		{"overlap prefix", nil, "SET a.b = :x, a = :y", item{":x": N("1"), ":y": N("2")},
			inv + "Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a, b], path two: [a]", nil},
		{"overlap across clauses", nil, "REMOVE a[1] SET a = :x", item{":x": N("1")},
			inv + "Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a, [1]], path two: [a]", nil},
		{"conflict", nil, "SET a[1] = :x, a.b = :y", item{":x": N("1"), ":y": N("2")},
			inv + "Two document paths conflict with each other; must remove or rewrite one of these paths; path one: [a, [1]], path two: [a, b]", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			key := item{"pk": S("k")}
			if _, err := c.DeleteItem(bg(), &dynamodb.DeleteItemInput{TableName: aws.String("upx"), Key: key}); err != nil {
				t.Fatal(err)
			}
			if tc.start != nil {
				put(t, c, "upx", tc.start)
			}
			_, err := c.UpdateItem(bg(), &dynamodb.UpdateItemInput{TableName: aws.String("upx"), Key: key,
				UpdateExpression: aws.String(tc.expr), ExpressionAttributeValues: tc.vals})
			if tc.msg != "" {
				wantValidation(t, err, writeWording(tc.msg))
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			itemEqual(t, "item", get(t, c, "upx", key), tc.want)
		})
	}
}

// TestUpdateLeavingOnlyKey: an UpdateItem on a missing item whose actions
// leave nothing but the key creates no item, returns no ALL_NEW
// attributes and writes no stream record. No recording found; chose
// this, as the issue describes DynamoDB's answer.
func TestUpdateLeavingOnlyKey(t *testing.T) {
	s, c := start(t)
	arn := createStreamTable(t, c, "onlykey", types.StreamViewTypeNewAndOldImages)
	tl := newTail(t, s.StreamsAPI, arn)
	for _, tc := range []struct {
		name, expr string
		vals       item
	}{
		{"remove", "REMOVE a", nil},
		{"remove two", "REMOVE a, b", nil},
		{"delete from missing set", "DELETE s :x", item{":x": SS("a")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			key := item{"pk": S("none-" + tc.name)}
			out, err := c.UpdateItem(bg(), &dynamodb.UpdateItemInput{TableName: aws.String("onlykey"), Key: key,
				UpdateExpression: aws.String(tc.expr), ExpressionAttributeValues: tc.vals, ReturnValues: types.ReturnValueAllNew})
			if err != nil {
				t.Fatal(err)
			}
			if out.Attributes != nil {
				t.Fatalf("ALL_NEW attributes %s, want none", renderItem(out.Attributes))
			}
			if got := get(t, c, "onlykey", key); got != nil {
				t.Fatalf("item %s was created", renderItem(got))
			}
		})
	}
	// The legacy AttributeUpdates DELETE of a missing attribute is the
	// same (no recording found; chose the same rule).
	key := item{"pk": S("none-legacy")}
	if _, err := c.UpdateItem(bg(), &dynamodb.UpdateItemInput{TableName: aws.String("onlykey"), Key: key,
		AttributeUpdates: map[string]types.AttributeValueUpdate{"a": {Action: types.AttributeActionDelete}}}); err != nil {
		t.Fatal(err)
	}
	if got := get(t, c, "onlykey", key); got != nil {
		t.Fatalf("item %s was created", renderItem(got))
	}
	// An update that sets something creates the item, with its record.
	key = item{"pk": S("made")}
	out, err := c.UpdateItem(bg(), &dynamodb.UpdateItemInput{TableName: aws.String("onlykey"), Key: key,
		UpdateExpression: aws.String("SET a = :x REMOVE b"), ExpressionAttributeValues: item{":x": N("1")}, ReturnValues: types.ReturnValueAllNew})
	if err != nil {
		t.Fatal(err)
	}
	want := item{"pk": S("made"), "a": N("1")}
	itemEqual(t, "ALL_NEW", out.Attributes, want)
	recs := tl.next()
	wantRecords(t, "after the updates", recs, 1)
	checkRecord(t, recs[0], st.StreamViewTypeNewAndOldImages, st.OperationTypeInsert, key, want, nil)
}
