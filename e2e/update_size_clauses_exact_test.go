package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// What UpdateItem charges each kind of update clause against 400 KB
// (engine.updateCharge), clause by clause: every case is one of
// paritysuite's tests/tier3/limits/itemSizeBySurface.test.ts, "UpdateItem
// charges each kind of clause" (eu-west-2, 2026-10-09, the accepted item
// read back and the next byte refused). The clause runs beside
// SET b = :pad, which costs 3 + 19 + 1 and the padding, at a two-byte key
// and with small seeds, so the statement's charge is what binds: the
// padding 409,600 - 23 - charge is stored and one byte more refused.
func TestUpdateItemClauseChargesExact(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "ucz", types.ScalarAttributeTypeS)
	const msg = "Item size to update has exceeded the maximum allowed size"
	ten := S(strings.Repeat("y", 10))
	es := func(n int) []types.AttributeValue {
		l := make([]types.AttributeValue, n)
		for i := range l {
			l[i] = S("e")
		}
		return l
	}

	for i, tc := range []struct {
		name   string
		clause string // after SET b = :pad
		names  map[string]string
		values item
		seed   item
		charge int
	}{
		// A path operand: 1, plus 14 and the element for each element;
		// the value it copies is not charged. Each SET is 19 and its
		// target.
		{name: "path operand", clause: ", c = abcdefghij", seed: item{"abcdefghij": ten}, charge: 19 + 1 + (1 + 14 + 10)},
		{name: "short path operand", clause: ", c = big", seed: item{"big": ten}, charge: 19 + 1 + (1 + 14 + 3)},
		{name: "nested path operand", clause: ", c = m.z", seed: item{"m": M(item{"z": ten})}, charge: 19 + 1 + (1 + 14 + 1 + 14 + 1)},
		{name: "deeper path operand", clause: ", c = m.a.z", seed: item{"m": M(item{"a": M(item{"z": ten})})},
			charge: 19 + 1 + (1 + 14 + 1 + 14 + 1 + 14 + 1)},
		{name: "list index operand", clause: ", c = l[10]", seed: item{"l": L(append(es(10), ten)...)},
			charge: 19 + 1 + (1 + 14 + 1 + 14 + 2)},
		// list_append: 37 and both operands; a list value is 3, plus 1
		// and the element for each element.
		{name: "list_append of a path and a value", clause: ", l = list_append(l, :new)", seed: item{"l": L(S("e"))},
			values: item{":new": L(ten)}, charge: 19 + 1 + 37 + (1 + 14 + 1) + (3 + 1 + 10)},
		{name: "list_append of two values", clause: ", l = list_append(:a, :c)", seed: item{"l": L(S("e"))},
			values: item{":a": L(S("e")), ":c": L(ten)}, charge: 19 + 1 + 37 + (3 + 1 + 1) + (3 + 1 + 10)},
		// A document value at its size (a map element's name included),
		// at every use.
		{name: "map value operand", clause: ", c = if_not_exists(c, :m)", seed: item{"c": S("c")},
			values: item{":m": M(item{"a": S(strings.Repeat("y", 100))})}, charge: 19 + 1 + 39 + (1 + 14 + 1) + (3 + 1 + 1 + 100)},
		{name: "one value used twice", clause: ", c = if_not_exists(c, :s), d = if_not_exists(d, :s)", seed: item{"c": S("c"), "d": S("d")},
			values: item{":s": S(strings.Repeat("s", 100))}, charge: 2 * (19 + 1 + 39 + (1 + 14 + 1) + 100)},
		// An addition: 34 and both operands, whatever the result.
		{name: "addition", clause: ", n = n + :one", seed: item{"n": N("1")}, values: item{":one": N("1")}, charge: 19 + 1 + 34 + (1 + 14 + 1) + 2},
		{name: "addition of a long number", clause: ", n = n + :one", seed: item{"n": N("12345678901234567890")}, values: item{":one": N("1")},
			charge: 19 + 1 + 34 + (1 + 14 + 1) + 2},
		// A subtraction: 37 and both operands.
		{name: "subtraction", clause: ", n = n - :one", seed: item{"n": N("1")}, values: item{":one": N("1")}, charge: 19 + 1 + 37 + (1 + 14 + 1) + 2},
		// if_not_exists: 39 and both operands, present or not.
		{name: "if_not_exists, present", clause: ", c = if_not_exists(c, :v)", seed: item{"c": ten}, values: item{":v": S("v")},
			charge: 19 + 1 + 39 + (1 + 14 + 1) + 1},
		{name: "if_not_exists, absent", clause: ", c = if_not_exists(c, :v)", values: item{":v": ten}, charge: 19 + 1 + 39 + (1 + 14 + 1) + 10},
		// ADD: 19, the target and the value added.
		{name: "ADD a number", clause: " ADD abcdefghij :one", seed: item{"abcdefghij": N("1")}, values: item{":one": N("1")}, charge: 19 + 10 + 2},
		{name: "ADD to a set", clause: " ADD ss :new", seed: item{"ss": SS(strings.Repeat("p", 5))},
			values: item{":new": SS(strings.Repeat("s", 500))}, charge: 19 + 2 + 500},
		// REMOVE and DELETE: 1 and the target; a later element of a
		// target is 4 and the element. Nothing removed is charged.
		{name: "REMOVE", clause: " REMOVE abcdefghij", seed: item{"abcdefghij": S("rrrrr")}, charge: 1 + 10},
		{name: "REMOVE a map element", clause: " REMOVE m.yyyyyyyyyy", seed: item{"m": M(item{"x": ten, "yyyyyyyyyy": S("r")})},
			charge: 1 + 1 + 4 + 10},
		{name: "REMOVE a list element", clause: " REMOVE abcdefghij[1]", seed: item{"abcdefghij": L(ten, S("r"))}, charge: 1 + 10 + 4 + 1},
		{name: "REMOVE a two-digit index", clause: " REMOVE l[10]", seed: item{"l": L(es(11)...)}, charge: 1 + 1 + 4 + 2},
		{name: "DELETE", clause: " DELETE abcdefghij :rm", seed: item{"abcdefghij": SS(strings.Repeat("p", 5), strings.Repeat("q", 20))},
			values: item{":rm": SS(strings.Repeat("q", 20))}, charge: 1 + 10},
		{name: "DELETE two members", clause: " DELETE ss :rm", seed: item{"ss": SS(strings.Repeat("p", 5), strings.Repeat("q", 20), strings.Repeat("r", 30))},
			values: item{":rm": SS(strings.Repeat("q", 20), strings.Repeat("r", 30))}, charge: 1 + 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			padding := maxItem - (3 + 19 + 1) - tc.charge
			for j, n := range []int{padding, padding + 1} {
				key := item{"pk": S(fmt.Sprintf("%c%d", "CD"[j], i))}
				it := item{"pk": key["pk"]}
				for k, v := range tc.seed {
					it[k] = v
				}
				put(t, c, "ucz", it)
				vals := item{":pad": S(strings.Repeat("x", n))}
				for k, v := range tc.values {
					vals[k] = v
				}
				_, err := c.UpdateItem(bg(), &dynamodb.UpdateItemInput{TableName: aws.String("ucz"), Key: key,
					UpdateExpression: aws.String("SET b = :pad" + tc.clause), ExpressionAttributeNames: tc.names, ExpressionAttributeValues: vals})
				if j == 1 {
					wantValidation(t, err, msg)
					break
				}
				if err != nil {
					t.Fatalf("%d bytes of padding refused: %v", n, err)
				}
				if b, ok := get(t, c, "ucz", key)["b"].(*types.AttributeValueMemberS); !ok || len(b.Value) != n {
					t.Fatalf("b not stored at %d bytes", n)
				}
			}
		})
	}
}

// What the key and the attributes an update leaves alone do to UpdateItem's
// ceiling: they are outside the statement's charge, so they buy back their
// own bytes until the finished item's 409,600 binds. Every case is one of
// paritysuite's tests/tier3/limits/itemSizeBySurface.test.ts ("UpdateItem
// does not charge for the key" and "AttributeUpdates sizes the finished
// item", eu-west-2), its keys' sizes as there: at the largest finished
// item it gives, SET b = :pad (or the legacy PUT of b) is stored and one
// byte more refused.
func TestUpdateItemKeyChargeExact(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "ukz", types.ScalarAttributeTypeS)
	createRange(t, c, "ukc", types.ScalarAttributeTypeS)
	if _, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{TableName: aws.String("ukn"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: defs("partitionKeyName", "S"), KeySchema: ks("partitionKeyName")}); err != nil {
		t.Fatal(err)
	}
	const msg = "Item size to update has exceeded the maximum allowed size"
	for _, tc := range []struct {
		name     string
		table    string
		keys     [2]item // the accepted item's key, the refused one's
		untouch  item    // stored beforehand, left alone by the update
		legacy   bool    // AttributeUpdates instead of an UpdateExpression
		finished int     // the largest finished item stored
	}{
		// "caps at exactly 409,600 with a 1024-byte key value".
		{name: "1024-byte key", table: "ukz", keys: [2]item{{"pk": S(strings.Repeat("k", 1024))}, {"pk": S(strings.Repeat("l", 1024))}},
			finished: maxItem},
		// "buys back the same headroom from the key name as from the key
		// value": a 16-byte key name with a 1-byte value, and a 2-byte
		// name with a 15-byte value, both 17 bytes, both under 409,600.
		{name: "key value", table: "ukz", keys: [2]item{{"pk": S(strings.Repeat("v", 15))}, {"pk": S(strings.Repeat("w", 15))}},
			finished: maxItem - 22 + 17},
		{name: "key name", table: "ukn", keys: [2]item{{"partitionKeyName": S("v")}, {"partitionKeyName": S("w")}},
			finished: maxItem - 22 + 17},
		// "buys back a sort key's own bytes as well": sk 'a' lifts the
		// ceiling by its 3 bytes over the hash key alone.
		{name: "hash key alone", table: "ukz", keys: [2]item{{"pk": S("S")}, {"pk": S("T")}}, finished: maxItem - 22 + 3},
		{name: "with a sort key", table: "ukc", keys: [2]item{{"pk": S("S"), "sk": S("a")}, {"pk": S("T"), "sk": S("a")}},
			finished: maxItem - 22 + 3 + 3},
		// "caps the finished item at exactly 409,600 beside an untouched
		// attribute": the legacy parameter has no statement charge.
		{name: "AttributeUpdates beside an untouched attribute", table: "ukz", keys: [2]item{{"pk": S("au-at")}, {"pk": S("au-over")}},
			untouch: item{"u": S(strings.Repeat("y", 10))}, legacy: true, finished: maxItem},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for j, key := range tc.keys {
				it := item{}
				for k, v := range key {
					it[k] = v
				}
				for k, v := range tc.untouch {
					it[k] = v
				}
				if tc.untouch != nil {
					put(t, c, tc.table, it)
				}
				// it holds the key and the untouched attributes; b is
				// 1 and the padding.
				n := tc.finished + j - itemBytes(it) - 1
				in := &dynamodb.UpdateItemInput{TableName: aws.String(tc.table), Key: key}
				if tc.legacy {
					in.AttributeUpdates = map[string]types.AttributeValueUpdate{"b": {Action: types.AttributeActionPut, Value: S(strings.Repeat("x", n))}}
				} else {
					in.UpdateExpression = aws.String("SET b = :pad")
					in.ExpressionAttributeValues = item{":pad": S(strings.Repeat("x", n))}
				}
				_, err := c.UpdateItem(bg(), in)
				if j == 1 {
					wantValidation(t, err, msg)
					break
				}
				if err != nil {
					t.Fatalf("%d bytes of padding refused: %v", n, err)
				}
				if b, ok := get(t, c, tc.table, key)["b"].(*types.AttributeValueMemberS); !ok || len(b.Value) != n {
					t.Fatalf("b not stored at %d bytes", n)
				}
			}
		})
	}
}

// itemBytes is the size of an item of string attributes: each name's
// bytes and its value's.
func itemBytes(it item) int {
	n := 0
	for k, v := range it {
		n += len(k) + len(v.(*types.AttributeValueMemberS).Value)
	}
	return n
}
