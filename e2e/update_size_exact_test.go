package e2e

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

const maxItem = 400 * 1024

// UpdateItem's size check with an UpdateExpression: besides the finished
// item (at most 409,600 bytes), DynamoDB charges the statement from the
// request (3, plus per clause 19 and what a SET or ADD writes, 1 for a
// REMOVE or DELETE, plus the targets and operands; engine.updateCharge),
// leaving out the key and the attributes the update does not name, and
// checks that charge before the condition. Every figure is paritysuite's
// tests/tier3/limits/itemSizeBySurface.test.ts (eu-west-2, 2026-08-18 to
// 2026-10-09, each accepted item read back and the next byte refused).
// Ten regions size only the finished item; dynago follows eu-west-2.
func TestUpdateItemStatementSizeExact(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "usz", types.ScalarAttributeTypeS)
	const msg = "Item size to update has exceeded the maximum allowed size"
	pad := func(n int) types.AttributeValue { return S(strings.Repeat("x", n)) }
	update := func(key, expression string, values item, cond string) error {
		in := &dynamodb.UpdateItemInput{TableName: aws.String("usz"), Key: item{"pk": S(key)},
			UpdateExpression: aws.String(expression), ExpressionAttributeValues: values}
		if cond != "" {
			in.ConditionExpression = aws.String(cond)
		}
		_, err := c.UpdateItem(bg(), in)
		return err
	}
	// ceiling checks that padding bytes are accepted and one more refused.
	ceiling := func(t *testing.T, name, expression string, seed item, values item, padding int) {
		t.Helper()
		for i, n := range []int{padding, padding + 1} {
			key := name + []string{"-at", "-over"}[i]
			if seed != nil {
				it := item{"pk": S(key)}
				for k, v := range seed {
					it[k] = v
				}
				put(t, c, "usz", it)
			}
			vals := item{":pad": pad(n)}
			for k, v := range values {
				vals[k] = v
			}
			err := update(key, expression, vals, "")
			if i == 0 && err != nil {
				t.Fatalf("%s: %d bytes of padding refused: %v", name, n, err)
			}
			if i == 1 {
				wantValidation(t, err, msg)
			}
		}
	}

	// A one-byte key: the single SET costs 22 and the key buys back 3, so
	// the finished item stops 19 bytes short of 409,600.
	t.Run("one SET at a short key", func(t *testing.T) {
		ceiling(t, "K", "SET b = :pad", nil, nil, maxItem-23)
	})
	t.Run("REMOVE costs 2", func(t *testing.T) {
		ceiling(t, "R", "SET b = :pad REMOVE r", item{"r": S("z")}, nil, maxItem-25)
	})
	t.Run("an untouched attribute is not charged", func(t *testing.T) {
		ceiling(t, "U", "SET b = :pad", item{"u": S(strings.Repeat("y", 10))}, nil, maxItem-23)
	})
	t.Run("a path operand costs 15 and its name", func(t *testing.T) {
		// 23 + pad, then SET c = abcdefghij: 19 + 1 + (1 + 14 + 10).
		ceiling(t, "P", "SET b = :pad, c = abcdefghij", item{"abcdefghij": S(strings.Repeat("y", 10))}, nil, maxItem-68)
	})
	t.Run("an addition costs 34 and its operands", func(t *testing.T) {
		// n = n + :one: 19 + 1 + 34 + (1 + 14 + 1) + 2.
		ceiling(t, "A", "SET b = :pad, n = n + :one", item{"n": N("1")}, item{":one": N("1")}, maxItem-95)
	})
	t.Run("if_not_exists costs 39 and its operands", func(t *testing.T) {
		// c = if_not_exists(c, :v): 19 + 1 + 39 + (1 + 14 + 1) + 1.
		ceiling(t, "I", "SET b = :pad, c = if_not_exists(c, :v)", nil, item{":v": S("v")}, maxItem-99)
	})
	t.Run("a list index target costs one byte more", func(t *testing.T) {
		// SET d[0] = :pad on a list of one: 3 + 19 + (1 + 4 + 1) + pad.
		ceiling(t, "L", "SET d[0] = :pad", item{"d": L(S("e"))}, nil, maxItem-28)
	})
	t.Run("checked before the condition", func(t *testing.T) {
		err := update("C", "SET b = :pad", item{":pad": pad(maxItem - 22)}, "attribute_exists(nothing)")
		wantValidation(t, err, msg)
	})
	t.Run("a long key: the finished item binds at 409,600", func(t *testing.T) {
		key := strings.Repeat("k", 100)
		if err := update(key, "SET b = :pad", item{":pad": pad(maxItem - 103)}, ""); err != nil {
			t.Fatal(err)
		}
		err := update(key+"j", "SET b = :pad", item{":pad": pad(maxItem - 103)}, "")
		wantValidation(t, err, msg)
	})
	t.Run("AttributeUpdates sizes the finished item only", func(t *testing.T) {
		_, err := c.UpdateItem(bg(), &dynamodb.UpdateItemInput{TableName: aws.String("usz"), Key: item{"pk": S("Z")},
			AttributeUpdates: map[string]types.AttributeValueUpdate{"b": {Action: types.AttributeActionPut, Value: pad(maxItem - 4)}}})
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.UpdateItem(bg(), &dynamodb.UpdateItemInput{TableName: aws.String("usz"), Key: item{"pk": S("Y")},
			AttributeUpdates: map[string]types.AttributeValueUpdate{"b": {Action: types.AttributeActionPut, Value: pad(maxItem - 3)}}})
		wantValidation(t, err, msg)
	})
}
