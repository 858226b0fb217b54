package e2e

import (
	"errors"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/local"
	"github.com/dynago/dynago/testserver"
)

// Transactions: TransactWriteItems and TransactGetItems through the SDK,
// with DynamoDB's answers.

const msgTxDuplicate = "Transaction request cannot include multiple operations on one item"

func txCanceledMsg(codes ...string) string {
	return "Transaction cancelled, please refer cancellation reasons for specific reasons [" + strings.Join(codes, ", ") + "]"
}

// wantCanceled checks for a TransactionCanceledException whose reasons
// have the given codes, in order, and returns the reasons.
func wantCanceled(t *testing.T, err error, codes ...string) []types.CancellationReason {
	t.Helper()
	wantErr(t, err, "TransactionCanceledException", txCanceledMsg(codes...))
	var tce *types.TransactionCanceledException
	if !errors.As(err, &tce) {
		t.Fatalf("%v is not a *types.TransactionCanceledException", err)
	}
	if len(tce.CancellationReasons) != len(codes) {
		t.Fatalf("%d reasons, want %d", len(tce.CancellationReasons), len(codes))
	}
	for i, r := range tce.CancellationReasons {
		if aws.ToString(r.Code) != codes[i] {
			t.Fatalf("reason %d: code %q, want %q", i, aws.ToString(r.Code), codes[i])
		}
		if codes[i] == "None" && (r.Message != nil || r.Item != nil) {
			t.Fatalf("reason %d: None carries %v %v", i, r.Message, r.Item)
		}
	}
	return tce.CancellationReasons
}

func txPut(table string, it item) types.TransactWriteItem {
	return types.TransactWriteItem{Put: &types.Put{TableName: aws.String(table), Item: it}}
}

func txAdd(table string, key item, attrName string, n string) types.TransactWriteItem {
	return types.TransactWriteItem{Update: &types.Update{
		TableName: aws.String(table), Key: key, UpdateExpression: aws.String("ADD #a :n"),
		ExpressionAttributeNames: names("#a", attrName), ExpressionAttributeValues: item{":n": N(n)},
	}}
}

func transact(c local.API, items ...types.TransactWriteItem) error {
	_, err := c.TransactWriteItems(bg(), &dynamodb.TransactWriteItemsInput{TransactItems: items})
	return err
}

func TestTransactWriteAppliesAll(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "tx-a", types.ScalarAttributeTypeS)
	createRange(t, c, "tx-b", types.ScalarAttributeTypeN)
	put(t, c, "tx-a", item{"pk": S("gone"), "v": N("1")})
	put(t, c, "tx-a", item{"pk": S("checked"), "state": S("open")})
	put(t, c, "tx-b", item{"pk": S("c"), "sk": N("1"), "n": N("5")})

	err := transact(c,
		txPut("tx-a", item{"pk": S("new"), "v": S("x")}),
		txAdd("tx-b", item{"pk": S("c"), "sk": N("1")}, "n", "3"),
		types.TransactWriteItem{Delete: &types.Delete{TableName: aws.String("tx-a"), Key: item{"pk": S("gone")}}},
		types.TransactWriteItem{ConditionCheck: &types.ConditionCheck{
			TableName: aws.String("tx-a"), Key: item{"pk": S("checked")},
			ConditionExpression: aws.String("#s = :o"), ExpressionAttributeNames: names("#s", "state"),
			ExpressionAttributeValues: item{":o": S("open")},
		}},
		txAdd("tx-b", item{"pk": S("d"), "sk": N("2")}, "n", "1"), // upsert
	)
	if err != nil {
		t.Fatal(err)
	}
	deepEqual(t, "put", get(t, c, "tx-a", item{"pk": S("new")}), item{"pk": S("new"), "v": S("x")})
	deepEqual(t, "added", get(t, c, "tx-b", item{"pk": S("c"), "sk": N("1")}), item{"pk": S("c"), "sk": N("1"), "n": N("8")})
	deepEqual(t, "upserted", get(t, c, "tx-b", item{"pk": S("d"), "sk": N("2")}), item{"pk": S("d"), "sk": N("2"), "n": N("1")})
	if it := get(t, c, "tx-a", item{"pk": S("gone")}); it != nil {
		t.Fatalf("deleted item still there: %v", it)
	}
	if n := aws.ToInt64(describe(t, c, "tx-a").ItemCount); n != 2 {
		t.Fatalf("ItemCount %d, want 2", n)
	}
}

func TestTransactWriteCancellationReasons(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "txt", types.ScalarAttributeTypeS)
	put(t, c, "txt", item{"pk": S("a"), "n": N("1")})
	put(t, c, "txt", item{"pk": S("b"), "n": N("2")})
	cond := func(a types.TransactWriteItem, expr string, onFail types.ReturnValuesOnConditionCheckFailure) types.TransactWriteItem {
		switch {
		case a.Put != nil:
			a.Put.ConditionExpression, a.Put.ReturnValuesOnConditionCheckFailure = aws.String(expr), onFail
		case a.Update != nil:
			a.Update.ConditionExpression, a.Update.ReturnValuesOnConditionCheckFailure = aws.String(expr), onFail
		}
		return a
	}
	unchanged := func() {
		t.Helper()
		deepEqual(t, "a", get(t, c, "txt", item{"pk": S("a")}), item{"pk": S("a"), "n": N("1")})
		deepEqual(t, "b", get(t, c, "txt", item{"pk": S("b")}), item{"pk": S("b"), "n": N("2")})
		if it := get(t, c, "txt", item{"pk": S("z")}); it != nil {
			t.Fatalf("z written by a cancelled transaction: %v", it)
		}
	}

	t.Run("put condition, item returned", func(t *testing.T) {
		err := transact(c,
			txPut("txt", item{"pk": S("z")}),
			cond(txPut("txt", item{"pk": S("a"), "n": N("9")}), "attribute_not_exists(pk)", types.ReturnValuesOnConditionCheckFailureAllOld),
		)
		rs := wantCanceled(t, err, "None", "ConditionalCheckFailed")
		if aws.ToString(rs[1].Message) != msgCondFailed {
			t.Fatalf("message %q", aws.ToString(rs[1].Message))
		}
		deepEqual(t, "item", rs[1].Item, item{"pk": S("a"), "n": N("1")})
		unchanged()
	})
	t.Run("update and delete conditions, no item without ALL_OLD", func(t *testing.T) {
		err := transact(c,
			cond(txAdd("txt", item{"pk": S("a")}, "n", "1"), "n > :n", ""),
			types.TransactWriteItem{Delete: &types.Delete{TableName: aws.String("txt"), Key: item{"pk": S("b")},
				ConditionExpression: aws.String("attribute_not_exists(n)")}},
			txPut("txt", item{"pk": S("z")}),
		)
		rs := wantCanceled(t, err, "ConditionalCheckFailed", "ConditionalCheckFailed", "None")
		if rs[0].Item != nil || rs[1].Item != nil {
			t.Fatal("item returned without ReturnValuesOnConditionCheckFailure")
		}
		unchanged()
	})
	t.Run("condition check, missing item with ALL_OLD", func(t *testing.T) {
		err := transact(c,
			txPut("txt", item{"pk": S("z")}),
			types.TransactWriteItem{ConditionCheck: &types.ConditionCheck{TableName: aws.String("txt"), Key: item{"pk": S("nope")},
				ConditionExpression: aws.String("attribute_exists(pk)"), ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}},
		)
		rs := wantCanceled(t, err, "None", "ConditionalCheckFailed")
		if rs[1].Item != nil {
			t.Fatalf("item for a missing item: %v", rs[1].Item)
		}
		unchanged()
	})
	t.Run("validation error in an update", func(t *testing.T) {
		err := transact(c,
			txPut("txt", item{"pk": S("z")}),
			types.TransactWriteItem{Update: &types.Update{TableName: aws.String("txt"), Key: item{"pk": S("a")},
				UpdateExpression: aws.String("SET n = absentattr + :one"), ExpressionAttributeValues: item{":one": N("1")}}},
		)
		rs := wantCanceled(t, err, "None", "ValidationError")
		if got := aws.ToString(rs[1].Message); got != "The provided expression refers to an attribute that does not exist in the item" {
			t.Fatalf("message %q", got)
		}
		unchanged()
	})
	t.Run("update grows the item past 400 KB", func(t *testing.T) {
		// The item already holds 300 KB, so the update's own statement
		// (200 KB) is under the limit and only the finished item is over
		// it: that cancels. A statement over the limit is refused before
		// the transaction runs (update_size_transact_exact_test.go).
		g := item{"pk": S("g"), "b1": S(strings.Repeat("x", 300<<10))}
		put(t, c, "txt", g)
		err := transact(c,
			types.TransactWriteItem{Update: &types.Update{TableName: aws.String("txt"), Key: item{"pk": S("g")},
				UpdateExpression: aws.String("SET b2 = :v"), ExpressionAttributeValues: item{":v": S(strings.Repeat("x", 200<<10))}}},
			txPut("txt", item{"pk": S("z")}),
		)
		rs := wantCanceled(t, err, "ValidationError", "None")
		if got := aws.ToString(rs[0].Message); got != "Item size to update has exceeded the maximum allowed size" {
			t.Fatalf("message %q", got)
		}
		unchanged()
		deepEqual(t, "g", get(t, c, "txt", item{"pk": S("g")}), g)
	})
}

// TestTransactCanceledWire checks the exact body of a cancellation.
func TestTransactCanceledWire(t *testing.T) {
	s, c := start(t)
	createHash(t, c, "txt", types.ScalarAttributeTypeS)
	put(t, c, "txt", item{"pk": S("a"), "n": N("1")})
	res := s.Raw(t, "TransactWriteItems", `{"TransactItems":[
		{"Put":{"TableName":"txt","Item":{"pk":{"S":"b"}}}},
		{"ConditionCheck":{"TableName":"txt","Key":{"pk":{"S":"a"}},"ConditionExpression":"n > :z",
		  "ExpressionAttributeValues":{":z":{"N":"5"}},"ReturnValuesOnConditionCheckFailure":"ALL_OLD"}}]}`)
	if res.Status != 400 {
		t.Fatalf("status %d: %s", res.Status, res.Body)
	}
	checkHeaders(t, res)
	jsonEqual(t, res.Body, `{"__type":"com.amazonaws.dynamodb.v20120810#TransactionCanceledException",
		"CancellationReasons":[{"Code":"None"},{"Code":"ConditionalCheckFailed","Item":{"pk":{"S":"a"},"n":{"N":"1"}},"Message":"The conditional request failed"}],
		"Message":"Transaction cancelled, please refer cancellation reasons for specific reasons [None, ConditionalCheckFailed]"}`)
}

func TestTransactIdempotency(t *testing.T) {
	var clock atomic.Pointer[time.Time]
	now := fixedNow
	clock.Store(&now)
	s := testserver.Start(t, testserver.WithNow(func() time.Time { return *clock.Load() }))
	c := s.API
	createHash(t, c, "txt", types.ScalarAttributeTypeS)
	key := item{"pk": S("ctr")}
	in := func(token, n string) *dynamodb.TransactWriteItemsInput {
		return &dynamodb.TransactWriteItemsInput{
			ClientRequestToken:     aws.String(token),
			ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
			TransactItems:          []types.TransactWriteItem{txAdd("txt", key, "n", n)},
		}
	}
	count := func() string {
		t.Helper()
		return get(t, c, "txt", key)["n"].(*types.AttributeValueMemberN).Value
	}
	out, err := c.TransactWriteItems(bg(), in("tok-1", "1"))
	if err != nil {
		t.Fatal(err)
	}
	// Transactions report the units as WriteCapacityUnits too
	// (transact_exact_test.go).
	deepEqual(t, "capacity", out.ConsumedCapacity, []types.ConsumedCapacity{{TableName: aws.String("txt"), CapacityUnits: aws.Float64(2), WriteCapacityUnits: aws.Float64(2)}})
	for range 3 {
		if _, err := c.TransactWriteItems(bg(), in("tok-1", "1")); err != nil {
			t.Fatalf("repeat: %v", err)
		}
	}
	if got := count(); got != "1" {
		t.Fatalf("n = %s after repeats, want 1", got)
	}
	_, err = c.TransactWriteItems(bg(), in("tok-1", "2"))
	wantErr(t, err, "IdempotentParameterMismatchException", "The request uses the same client token as a previous, but non-identical request.")
	var ipm *types.IdempotentParameterMismatchException
	if !errors.As(err, &ipm) {
		t.Fatalf("%v is not a *types.IdempotentParameterMismatchException", err)
	}

	// A new token applies; the old one still holds at 9 minutes.
	if _, err := c.TransactWriteItems(bg(), in("tok-2", "1")); err != nil {
		t.Fatal(err)
	}
	later := fixedNow.Add(9 * time.Minute)
	clock.Store(&later)
	if _, err := c.TransactWriteItems(bg(), in("tok-1", "1")); err != nil {
		t.Fatal(err)
	}
	if got := count(); got != "2" {
		t.Fatalf("n = %s, want 2", got)
	}
	// Ten minutes after it completed, a token is new again.
	later = fixedNow.Add(10*time.Minute + time.Second)
	clock.Store(&later)
	if _, err := c.TransactWriteItems(bg(), in("tok-1", "5")); err != nil {
		t.Fatal(err)
	}
	if got := count(); got != "7" {
		t.Fatalf("n = %s, want 7", got)
	}

	// A cancelled transaction does not use up its token.
	cancelled := &dynamodb.TransactWriteItemsInput{
		ClientRequestToken: aws.String("tok-3"),
		TransactItems: []types.TransactWriteItem{{Put: &types.Put{TableName: aws.String("txt"),
			Item: item{"pk": S("once")}, ConditionExpression: aws.String("attribute_exists(pk)")}}},
	}
	wantCanceled(t, transactIn(c, cancelled), "ConditionalCheckFailed")
	put(t, c, "txt", item{"pk": S("once"), "v": S("old")})
	cancelled.TransactItems[0].Put.Item = item{"pk": S("once")}
	if err := transactIn(c, cancelled); err != nil {
		t.Fatalf("retry after cancellation: %v", err)
	}
	deepEqual(t, "once", get(t, c, "txt", item{"pk": S("once")}), item{"pk": S("once")})
}

func transactIn(c local.API, in *dynamodb.TransactWriteItemsInput) error {
	_, err := c.TransactWriteItems(bg(), in)
	return err
}

func TestTransactCapacity(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "tx-a", types.ScalarAttributeTypeS)
	createHash(t, c, "tx-b", types.ScalarAttributeTypeS)
	put(t, c, "tx-a", item{"pk": S("big"), "v": S(strings.Repeat("x", 1500))}) // 2 write units
	out, err := c.TransactWriteItems(bg(), &dynamodb.TransactWriteItemsInput{
		ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes,
		TransactItems: []types.TransactWriteItem{
			txAdd("tx-a", item{"pk": S("big")}, "n", "1"),
			txPut("tx-b", item{"pk": S("small")}),
			{ConditionCheck: &types.ConditionCheck{TableName: aws.String("tx-b"), Key: item{"pk": S("none")},
				ConditionExpression: aws.String("attribute_not_exists(pk)")}},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	deepEqual(t, "capacity", out.ConsumedCapacity, []types.ConsumedCapacity{
		{TableName: aws.String("tx-a"), CapacityUnits: aws.Float64(4), WriteCapacityUnits: aws.Float64(4), Table: &types.Capacity{CapacityUnits: aws.Float64(4), WriteCapacityUnits: aws.Float64(4)}},
		{TableName: aws.String("tx-b"), CapacityUnits: aws.Float64(4), WriteCapacityUnits: aws.Float64(4), Table: &types.Capacity{CapacityUnits: aws.Float64(4), WriteCapacityUnits: aws.Float64(4)}},
	})

	got, err := c.TransactGetItems(bg(), &dynamodb.TransactGetItemsInput{
		ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
		TransactItems: []types.TransactGetItem{
			{Get: &types.Get{TableName: aws.String("tx-a"), Key: item{"pk": S("big")}}},
			{Get: &types.Get{TableName: aws.String("tx-b"), Key: item{"pk": S("none")}}},
			{Get: &types.Get{TableName: aws.String("tx-b"), Key: item{"pk": S("small")}}},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	deepEqual(t, "get capacity", got.ConsumedCapacity, []types.ConsumedCapacity{
		{TableName: aws.String("tx-a"), CapacityUnits: aws.Float64(2), ReadCapacityUnits: aws.Float64(2)},
		{TableName: aws.String("tx-b"), CapacityUnits: aws.Float64(4), ReadCapacityUnits: aws.Float64(4)},
	})
}

func TestTransactGetItems(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "tx-a", types.ScalarAttributeTypeS)
	createRange(t, c, "tx-b", types.ScalarAttributeTypeS)
	put(t, c, "tx-a", item{"pk": S("1"), "a": S("x"), "m": M(item{"p": N("1"), "q": N("2")})})
	put(t, c, "tx-b", item{"pk": S("1"), "sk": S("s"), "b": BOOL(true)})
	out, err := c.TransactGetItems(bg(), &dynamodb.TransactGetItemsInput{TransactItems: []types.TransactGetItem{
		{Get: &types.Get{TableName: aws.String("tx-b"), Key: item{"pk": S("1"), "sk": S("s")}}},
		{Get: &types.Get{TableName: aws.String("tx-a"), Key: item{"pk": S("missing")}}},
		{Get: &types.Get{TableName: aws.String("tx-a"), Key: item{"pk": S("1")},
			ProjectionExpression: aws.String("#m.q, a"), ExpressionAttributeNames: names("#m", "m")}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Responses) != 3 {
		t.Fatalf("%d responses", len(out.Responses))
	}
	deepEqual(t, "0", out.Responses[0].Item, item{"pk": S("1"), "sk": S("s"), "b": BOOL(true)})
	if out.Responses[1].Item != nil {
		t.Fatalf("missing item: %v", out.Responses[1].Item)
	}
	deepEqual(t, "2", out.Responses[2].Item, item{"a": S("x"), "m": M(item{"q": N("2")})})
	if out.ConsumedCapacity != nil {
		t.Fatal("capacity without ReturnConsumedCapacity")
	}

	_, err = c.TransactGetItems(bg(), &dynamodb.TransactGetItemsInput{TransactItems: []types.TransactGetItem{
		{Get: &types.Get{TableName: aws.String("tx-a"), Key: item{"pk": S("1")}}},
		{Get: &types.Get{TableName: aws.String("tx-a"), Key: item{"pk": S("1")}}},
	}})
	wantValidation(t, err, msgTxDuplicate)
	_, err = c.TransactGetItems(bg(), &dynamodb.TransactGetItemsInput{TransactItems: []types.TransactGetItem{
		{Get: &types.Get{TableName: aws.String("tx-nope"), Key: item{"pk": S("1")}}},
	}})
	wantErr(t, err, "ResourceNotFoundException", "Requested resource not found")
	_, err = c.TransactGetItems(bg(), &dynamodb.TransactGetItemsInput{TransactItems: []types.TransactGetItem{
		{Get: &types.Get{TableName: aws.String("tx-a"), Key: item{"pk": S("1")}, ProjectionExpression: aws.String("#x")}},
	}})
	wantValidation(t, err, "Invalid ProjectionExpression: An expression attribute name used in the document path is not defined; attribute name: #x")
}

func TestTransactWriteValidation(t *testing.T) {
	s, c := start(t)
	createHash(t, c, "txt", types.ScalarAttributeTypeS)
	put(t, c, "txt", item{"pk": S("a")})

	err := transact(c, txPut("txt", item{"pk": S("a")}), txAdd("txt", item{"pk": S("a")}, "n", "1"))
	wantValidation(t, err, msgTxDuplicate)
	err = transact(c, txPut("txt", item{"pk": S("b")}), txPut("tx-nope", item{"pk": S("b")}))
	wantErr(t, err, "ResourceNotFoundException", "Requested resource not found")
	err = transact(c, types.TransactWriteItem{Update: &types.Update{TableName: aws.String("txt"), Key: item{"pk": S("a")},
		UpdateExpression: aws.String("SET a = :v")}})
	wantValidation(t, err, "Invalid UpdateExpression: An expression attribute value used in expression is not defined; attribute value: :v")
	err = transact(c, types.TransactWriteItem{Update: &types.Update{TableName: aws.String("txt"), Key: item{"pk": S("a")},
		UpdateExpression: aws.String("SET pk = :v"), ExpressionAttributeValues: item{":v": S("x")}}})
	wantValidation(t, err, "One or more parameter values were invalid: Cannot update attribute pk. This attribute is part of the key")
	// A key problem of one item cancels the transaction
	// (transact_exact_test.go).
	err = transact(c, txPut("txt", item{"nokey": S("a")}))
	rs := wantCanceled(t, err, "ValidationError")
	if got := aws.ToString(rs[0].Message); got != "One or more parameter values were invalid: Missing the key pk in the item" {
		t.Fatalf("reason %q", got)
	}
	err = transact(c, txPut("txt", item{"pk": S("big"), "v": S(strings.Repeat("x", 400<<10))}))
	wantValidation(t, err, "Item size has exceeded the maximum allowed size")
	many := make([]types.TransactWriteItem, 101)
	for i := range many {
		many[i] = txPut("txt", item{"pk": S(strings.Repeat("k", i+1))})
	}
	err = transact(c, many...)
	var ae interface{ ErrorMessage() string }
	if !errors.As(err, &ae) || !strings.HasPrefix(ae.ErrorMessage(), "1 validation error detected: Value '[") ||
		!strings.HasSuffix(ae.ErrorMessage(), "]' at 'transactItems' failed to satisfy constraint: Member must have length less than or equal to 100") {
		t.Fatalf("101 actions: %v", err)
	}
	if err := transact(c, many[:100]...); err != nil {
		t.Fatalf("100 actions: %v", err)
	}

	// Shapes the SDK will not send.
	for _, tc := range []struct{ body, msg string }{
		{`{}`, "1 validation error detected: Value null at 'transactItems' failed to satisfy constraint: Member must not be null"},
		{`{"TransactItems":[]}`, "1 validation error detected: Value '[]' at 'transactItems' failed to satisfy constraint: Member must have length greater than or equal to 1"},
		{`{"TransactItems":[{}]}`, "TransactItems can only contain one of Check, Put, Update or Delete"},
		{`{"TransactItems":[{"Put":{"TableName":"txt","Item":{"pk":{"S":"x"}}},"Delete":{"TableName":"txt","Key":{"pk":{"S":"y"}}}}]}`,
			"TransactItems can only contain one of Check, Put, Update or Delete"},
		{`{"TransactItems":[{"ConditionCheck":{"TableName":"txt","Key":{"pk":{"S":"x"}}}}]}`,
			"1 validation error detected: Value null at 'transactItems.1.member.conditionCheck.conditionExpression' failed to satisfy constraint: Member must not be null"},
		{`{"TransactItems":[{"Put":{"TableName":"txt","Item":{"pk":{"S":"x"}}}}],"ClientRequestToken":"` + strings.Repeat("t", 37) + `"}`,
			"1 validation error detected: Value '" + strings.Repeat("t", 37) + "' at 'clientRequestToken' failed to satisfy constraint: Member must have length less than or equal to 36"},
		{`{"TransactItems":[{"Update":{"TableName":"x","Key":{"pk":{"S":"x"}}}}]}`,
			"2 validation errors detected: Value 'x' at 'transactItems.1.member.update.tableName' failed to satisfy constraint: Member must have length greater than or equal to 3; " +
				"Value null at 'transactItems.1.member.update.updateExpression' failed to satisfy constraint: Member must not be null"},
	} {
		checkRaw(t, s.Raw(t, "TransactWriteItems", tc.body), 400, "com.amazon.coral.validate#ValidationException", tc.msg)
	}
	for _, tc := range []struct{ body, msg string }{
		{`{"TransactItems":[{}]}`, "1 validation error detected: Value null at 'transactItems.1.member.get' failed to satisfy constraint: Member must not be null"},
		{`{"TransactItems":[]}`, "1 validation error detected: Value '[]' at 'transactItems' failed to satisfy constraint: Member must have length greater than or equal to 1"},
	} {
		checkRaw(t, s.Raw(t, "TransactGetItems", tc.body), 400, "com.amazon.coral.validate#ValidationException", tc.msg)
	}
}

// TestTransactIndexes checks that a transaction writes the index entries
// of its items with them, and that a cancelled one writes none.
func TestTransactIndexes(t *testing.T) {
	_, c := start(t)
	_, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{
		TableName:   aws.String("txi"),
		BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("tag"), AttributeType: types.ScalarAttributeTypeS},
		},
		KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
			IndexName:  aws.String("bytag"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("tag"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	put(t, c, "txi", item{"pk": S("b")})
	tagged := func() []string {
		t.Helper()
		out, err := c.Query(bg(), &dynamodb.QueryInput{TableName: aws.String("txi"), IndexName: aws.String("bytag"),
			KeyConditionExpression: aws.String("tag = :x"), ExpressionAttributeValues: item{":x": S("x")}})
		if err != nil {
			t.Fatal(err)
		}
		var pks []string
		for _, it := range out.Items {
			pks = append(pks, it["pk"].(*types.AttributeValueMemberS).Value)
		}
		sort.Strings(pks)
		return pks
	}
	setTag := func(pk string, v types.AttributeValue) types.TransactWriteItem {
		return types.TransactWriteItem{Update: &types.Update{TableName: aws.String("txi"), Key: item{"pk": S(pk)},
			UpdateExpression: aws.String("SET tag = :t"), ExpressionAttributeValues: item{":t": v}}}
	}

	out, err := c.TransactWriteItems(bg(), &dynamodb.TransactWriteItemsInput{
		ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes,
		TransactItems:          []types.TransactWriteItem{txPut("txi", item{"pk": S("a"), "tag": S("x")}), setTag("b", S("x"))},
	})
	if err != nil {
		t.Fatal(err)
	}
	deepEqual(t, "indexed", tagged(), []string{"a", "b"})
	deepEqual(t, "capacity", out.ConsumedCapacity, []types.ConsumedCapacity{{
		TableName: aws.String("txi"), CapacityUnits: aws.Float64(8), WriteCapacityUnits: aws.Float64(8),
		Table:                  &types.Capacity{CapacityUnits: aws.Float64(4), WriteCapacityUnits: aws.Float64(4)},
		GlobalSecondaryIndexes: map[string]types.Capacity{"bytag": {CapacityUnits: aws.Float64(4), WriteCapacityUnits: aws.Float64(4)}},
	}})

	err = transact(c, txPut("txi", item{"pk": S("c"), "tag": S("x")}), types.TransactWriteItem{ConditionCheck: &types.ConditionCheck{
		TableName: aws.String("txi"), Key: item{"pk": S("a")}, ConditionExpression: aws.String("attribute_not_exists(tag)")}})
	wantCanceled(t, err, "None", "ConditionalCheckFailed")
	deepEqual(t, "after cancellation", tagged(), []string{"a", "b"})

	// An update giving an index key the wrong type cancels the
	// transaction, with UpdateItem's message as the reason.
	_, single := update(c, "txi", item{"pk": S("a")}, "SET tag = :t", nil, item{":t": N("1")}, "")
	var ae interface{ ErrorMessage() string }
	if !errors.As(single, &ae) {
		t.Fatalf("UpdateItem with a mistyped index key: %v", single)
	}
	err = transact(c, txPut("txi", item{"pk": S("c"), "tag": S("x")}), setTag("a", N("1")))
	rs := wantCanceled(t, err, "None", "ValidationError")
	if got := aws.ToString(rs[1].Message); got != ae.ErrorMessage() {
		t.Fatalf("reason %q, want %q", got, ae.ErrorMessage())
	}
	deepEqual(t, "after mistyped update", tagged(), []string{"a", "b"})

	// A put with a mistyped index key cancels the transaction too, with
	// PutItem's message as the reason (transact_exact_test.go).
	_, single = c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("txi"), Item: item{"pk": S("d"), "tag": N("1")}})
	if !errors.As(single, &ae) {
		t.Fatalf("PutItem with a mistyped index key: %v", single)
	}
	rs = wantCanceled(t, transact(c, txPut("txi", item{"pk": S("d"), "tag": N("1")})), "ValidationError")
	if got := aws.ToString(rs[0].Message); got != ae.ErrorMessage() {
		t.Fatalf("reason %q, want %q", got, ae.ErrorMessage())
	}
}

// TestTransactIdempotencyConcurrent sends one request many times at once
// with one token: it is applied exactly once and every copy succeeds.
func TestTransactIdempotencyConcurrent(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "txt", types.ScalarAttributeTypeS)
	key := item{"pk": S("ctr")}
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			_, err := c.TransactWriteItems(bg(), &dynamodb.TransactWriteItemsInput{
				ClientRequestToken: aws.String("same"),
				TransactItems:      []types.TransactWriteItem{txAdd("txt", key, "n", "1")},
			})
			if err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	deepEqual(t, "counter", get(t, c, "txt", key), item{"pk": S("ctr"), "n": N("1")})
}
