package e2e

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// A PartiQL UPDATE (ExecuteStatement) sizes only the finished item, at
// most 409,600 bytes, key included: it is not charged UpdateItem's
// statement (engine.updateCharge), so at a short key it stores what
// UpdateItem refuses. The cases are paritysuite's tests/tier3/limits/
// itemSizeBySurface.test.ts ("PartiQL" and "a PartiQL UPDATE does not
// inherit the exclusion", eu-west-2, each accepted item read back), with
// their keys and sizes: the item is stored as its key, then
// UPDATE ... SET p = ? WHERE pk = ? makes it the size given.
func TestPartiQLUpdateItemSizeExact(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "qsz", types.ScalarAttributeTypeS)
	const msg = "Item size to update has exceeded the maximum allowed size"

	for _, tc := range []struct {
		name     string
		key      string
		finished int
		stored   bool
	}{
		// "UPDATE accepts a finished item of exactly 409,600 bytes".
		{name: "409,600 stored", key: "lim-surface-pql-upd-at", finished: maxItem, stored: true},
		// "UPDATE refuses it one byte over, with the update wording".
		{name: "one byte over refused", key: "lim-surface-pql-upd-over", finished: maxItem + 1},
		// "writes what UpdateItem refuses at the same key": at a one-byte
		// key UpdateItem's statement is charged 409,619 for this item.
		{name: "stored where UpdateItem refuses", key: "X", finished: maxItem, stored: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			key := item{"pk": S(tc.key)}
			put(t, c, "qsz", key)
			// The item is the key (2 + len) and p (1 + len).
			pad := S(strings.Repeat("x", tc.finished-(2+len(tc.key))-1))
			if tc.key == "X" {
				_, err := c.UpdateItem(bg(), &dynamodb.UpdateItemInput{TableName: aws.String("qsz"), Key: key,
					UpdateExpression: aws.String("SET p = :p"), ExpressionAttributeValues: item{":p": pad}})
				wantValidation(t, err, msg)
			}
			_, err := c.ExecuteStatement(bg(), &dynamodb.ExecuteStatementInput{
				Statement: aws.String(`UPDATE "qsz" SET p = ? WHERE pk = ?`), Parameters: []types.AttributeValue{pad, S(tc.key)}})
			if !tc.stored {
				wantValidation(t, err, msg)
				deepEqual(t, tc.key, get(t, c, "qsz", key), key)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			deepEqual(t, tc.key, get(t, c, "qsz", key), item{"pk": S(tc.key), "p": pad})
		})
	}
}
