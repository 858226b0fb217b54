package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TestExpressionSizeLimitExact: every expression parameter is capped at
// 4096 bytes of the text as sent (aliases not substituted, values not
// counted); 4096 is accepted and applied, 4097 refused before anything
// is written, a transaction's oversized member refusing the whole
// request. paritysuite/dynamodb-conformance,
// tests/tier3/limits/expressionSize.test.ts (eu-west-2, us-east-1,
// eu-central-1 and ap-southeast-2, 2026-07-12; the transaction cases
// eu-west-2 and us-east-1, 2026-09-12), whose test names the cases
// follow. The texts around the phrase are dynago's recorded ones
// (deepRequests.test.ts: an UpdateExpression's has no size tail, a
// ConditionExpression's has; the single-item writes envelope them,
// writeWording).
func TestExpressionSizeLimitExact(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "xsz", types.ScalarAttributeTypeS)
	tn := aws.String("xsz")
	const (
		limit = 4096
		over  = limit + 1
	)
	// padName is a name of n bytes, unique per clause i.
	padName := func(i, n int) string {
		suffix := fmt.Sprintf("x%d", i)
		return strings.Repeat("a", n-len(suffix)) + suffix
	}
	// build joins clauses to exactly target bytes, stretching the last
	// clause's name to land on the byte; it returns the text and the
	// number of clauses.
	build := func(target int, prefix, joiner string, clause func(i, n int) string) (string, int) {
		var parts []string
		total := len(prefix)
		for i := 0; ; i++ {
			part := clause(i, 50)
			add := len(part)
			if len(parts) > 0 {
				add += len(joiner)
			}
			if total+add > target {
				break
			}
			parts = append(parts, part)
			total += add
		}
		if short := target - total; short > 0 {
			parts[len(parts)-1] = clause(len(parts)-1, 50+short)
		}
		s := prefix + strings.Join(parts, joiner)
		if len(s) != target {
			t.Fatalf("built %d bytes, want %d", len(s), target)
		}
		return s, len(parts)
	}
	values := func(n int) item {
		v := item{}
		for i := range n {
			v[fmt.Sprintf(":v%d", i)] = S("x")
		}
		return v
	}
	update := func(target int) (string, item) {
		s, n := build(target, "SET ", ", ", func(i, n int) string { return fmt.Sprintf("%s = :v%d", padName(i, n), i) })
		return s, values(n)
	}
	condition := func(target int) string {
		s, _ := build(target, "", " AND ", func(i, n int) string { return "attribute_not_exists(" + padName(i, n) + ")" })
		return s
	}
	filter := func(target int) (string, item) {
		s, n := build(target, "", " OR ", func(i, n int) string { return fmt.Sprintf("%s = :v%d", padName(i, n), i) })
		return s, values(n)
	}
	projection := func(target int) string {
		s, _ := build(target, "", ", ", padName)
		return s
	}
	key := func(id string) item { return item{"pk": S("lim-es-" + id)} }

	t.Run("UpdateExpression", func(t *testing.T) {
		expr, vals := update(limit)
		if _, err := c.UpdateItem(bg(), &dynamodb.UpdateItemInput{TableName: tn, Key: key("upd-at"), UpdateExpression: &expr, ExpressionAttributeValues: vals}); err != nil {
			t.Fatal(err)
		}
		if got := get(t, c, "xsz", key("upd-at")); render(got[padName(0, 50)]) != render(S("x")) {
			t.Fatalf("the 4096-byte update was not applied: %v", renderItem(got))
		}
		expr, vals = update(over)
		_, err := c.UpdateItem(bg(), &dynamodb.UpdateItemInput{TableName: tn, Key: key("upd-over"), UpdateExpression: &expr, ExpressionAttributeValues: vals})
		wantValidation(t, err, writeWording("Invalid UpdateExpression: Expression size has exceeded the maximum allowed size;"))
	})
	t.Run("ConditionExpression", func(t *testing.T) {
		cond := condition(limit)
		if _, err := c.PutItem(bg(), &dynamodb.PutItemInput{TableName: tn, Item: key("cond-at"), ConditionExpression: &cond}); err != nil {
			t.Fatal(err)
		}
		cond = condition(over)
		_, err := c.PutItem(bg(), &dynamodb.PutItemInput{TableName: tn, Item: key("cond-over"), ConditionExpression: &cond})
		wantValidation(t, err, writeWording("Invalid ConditionExpression: Expression size has exceeded the maximum allowed size; expression size: 4097"))
	})
	t.Run("Query FilterExpression", func(t *testing.T) {
		k := key("qfilter-at")
		put(t, c, "xsz", item{"pk": k["pk"], padName(0, 50): S("x")})
		expr, vals := filter(limit)
		vals[":pk"] = k["pk"]
		out := query(t, c, &dynamodb.QueryInput{TableName: tn, KeyConditionExpression: aws.String("pk = :pk"), FilterExpression: &expr, ExpressionAttributeValues: vals})
		if out.Count != 1 {
			t.Fatalf("Count = %d, want 1", out.Count)
		}
		expr, vals = filter(over)
		vals[":pk"] = S("lim-es-qfilter-over")
		_, err := c.Query(bg(), &dynamodb.QueryInput{TableName: tn, KeyConditionExpression: aws.String("pk = :pk"), FilterExpression: &expr, ExpressionAttributeValues: vals})
		wantValidation(t, err, "Invalid FilterExpression: Expression size has exceeded the maximum allowed size; expression size: 4097")
	})
	t.Run("Scan FilterExpression", func(t *testing.T) {
		expr, vals := filter(limit)
		if _, err := c.Scan(bg(), &dynamodb.ScanInput{TableName: tn, FilterExpression: &expr, ExpressionAttributeValues: vals}); err != nil {
			t.Fatal(err)
		}
		expr, vals = filter(over)
		_, err := c.Scan(bg(), &dynamodb.ScanInput{TableName: tn, FilterExpression: &expr, ExpressionAttributeValues: vals})
		wantValidation(t, err, "Invalid FilterExpression: Expression size has exceeded the maximum allowed size; expression size: 4097")
	})
	t.Run("ProjectionExpression", func(t *testing.T) {
		k := key("proj-at")
		put(t, c, "xsz", item{"pk": k["pk"], padName(0, 50): S("present")})
		out, err := c.GetItem(bg(), &dynamodb.GetItemInput{TableName: tn, Key: k, ProjectionExpression: aws.String(projection(limit))})
		if err != nil {
			t.Fatal(err)
		}
		if render(out.Item[padName(0, 50)]) != render(S("present")) {
			t.Fatalf("the 4096-byte projection was not applied: %v", renderItem(out.Item))
		}
		_, err = c.GetItem(bg(), &dynamodb.GetItemInput{TableName: tn, Key: key("proj-over"), ProjectionExpression: aws.String(projection(over))})
		wantValidation(t, err, "Invalid ProjectionExpression: Expression size has exceeded the maximum allowed size; expression size: 4097")
	})
	t.Run("raw expression, not the substituted one", func(t *testing.T) {
		// "measures the raw expression, not the alias-substituted form":
		// 30 aliases whose names expand to about 7.5 KB.
		k := key("proj-alias")
		put(t, c, "xsz", item{"pk": k["pk"], "real": S("y")})
		names := map[string]string{}
		var aliases []string
		for i := range 30 {
			a := fmt.Sprintf("#a%d", i)
			aliases = append(aliases, a)
			names[a] = strings.Repeat("n", 246) + fmt.Sprintf("q%d", i)
		}
		out, err := c.GetItem(bg(), &dynamodb.GetItemInput{TableName: tn, Key: k, ProjectionExpression: aws.String(strings.Join(aliases, ", ")), ExpressionAttributeNames: names})
		if err != nil {
			t.Fatal(err)
		}
		if out.Item == nil || len(out.Item) != 0 {
			t.Fatalf("Item = %v, want an empty item", renderItem(out.Item))
		}
	})
	t.Run("TransactWriteItems", func(t *testing.T) {
		k := key("twi-cond-at")
		cond := condition(limit)
		if _, err := c.TransactWriteItems(bg(), &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
			{Put: &types.Put{TableName: tn, Item: item{"pk": k["pk"], "real": S("y")}, ConditionExpression: &cond}}}}); err != nil {
			t.Fatal(err)
		}
		if got := get(t, c, "xsz", k); render(got["real"]) != render(S("y")) {
			t.Fatalf("the put was not applied: %v", renderItem(got))
		}
		cond = condition(over)
		_, err := c.TransactWriteItems(bg(), &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
			{Put: &types.Put{TableName: tn, Item: key("twi-cond-over"), ConditionExpression: &cond}}}})
		wantValidation(t, err, "Invalid ConditionExpression: Expression size has exceeded the maximum allowed size; expression size: 4097")
		expr, vals := update(over)
		_, err = c.TransactWriteItems(bg(), &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
			{Update: &types.Update{TableName: tn, Key: key("twi-upd-over"), UpdateExpression: &expr, ExpressionAttributeValues: vals}}}})
		wantValidation(t, err, "Invalid UpdateExpression: Expression size has exceeded the maximum allowed size;")
		// "rejects the whole request when only the second member is
		// oversized": nothing is written.
		first := key("twi-second-first")
		_, err = c.TransactWriteItems(bg(), &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
			{Put: &types.Put{TableName: tn, Item: first}},
			{Put: &types.Put{TableName: tn, Item: key("twi-second-over"), ConditionExpression: &cond}}}})
		wantValidation(t, err, "Invalid ConditionExpression: Expression size has exceeded the maximum allowed size; expression size: 4097")
		if got := get(t, c, "xsz", first); got != nil {
			t.Fatalf("the first member was written: %v", renderItem(got))
		}
	})
}
