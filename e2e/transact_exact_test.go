package e2e

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/local"
)

// Transactions to the letter: which item-level problems cancel a
// transaction with a ValidationError reason and which refuse the whole
// request, and the ConsumedCapacity DynamoDB reports for transactions.
//
// "paritysuite" below is the paritysuite/dynamodb-conformance suite,
// whose tests are captured against DynamoDB (eu-west-2 unless said);
// "Alternator" is ScyllaDB's test/alternator/test_transact.py, run
// against DynamoDB.

const (
	msgNestTooDeep = "Nesting Levels have exceeded supported limits: Attributes in the item have nested levels beyond supported limit"
	msgEmptyKeyS   = "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: pk"
	msgEmptyKeyB   = "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty binary value. Key: pk"
	msgSchema      = "The provided key element does not match the schema"
)

// deep wraps a string in n single-key maps: 32 wraps put the leaf at level
// 33, one level past DynamoDB's limit.
func deep(n int) types.AttributeValue {
	v := S("leaf")
	for range n {
		v = M(item{"n": v})
	}
	return v
}

// createTxIndexed creates txi: key pk (S), sk (S), and a GSI gsi1 keyed
// on lsi1sk (S), as in paritysuite's compositeIndexedTableDef.
func createTxIndexed(t *testing.T, c local.API) {
	t.Helper()
	_, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{
		TableName:            aws.String("txi"),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: defs("pk", "S", "sk", "S", "lsi1sk", "S"),
		KeySchema:            ks("pk", "sk"),
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
			IndexName:  aws.String("gsi1"),
			KeySchema:  ks("lsi1sk"),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestTransactWriteItemProblemsExact(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "txe", types.ScalarAttributeTypeS)
	createHash(t, c, "txeb", types.ScalarAttributeTypeB)
	createTxIndexed(t, c)
	put(t, c, "txe", item{"pk": S("there"), "v": N("1")})

	upd := func(table string, key item) types.TransactWriteItem {
		return types.TransactWriteItem{Update: &types.Update{TableName: aws.String(table), Key: key,
			UpdateExpression: aws.String("SET attr1 = :v"), ExpressionAttributeValues: item{":v": S("x")}}}
	}
	del := func(table string, key item) types.TransactWriteItem {
		return types.TransactWriteItem{Delete: &types.Delete{TableName: aws.String(table), Key: key}}
	}
	check := func(table string, key item, cond string) types.TransactWriteItem {
		return types.TransactWriteItem{ConditionCheck: &types.ConditionCheck{TableName: aws.String(table), Key: key,
			ConditionExpression: aws.String(cond)}}
	}
	putIf := func(table string, it item, cond string) types.TransactWriteItem {
		return types.TransactWriteItem{Put: &types.Put{TableName: aws.String(table), Item: it, ConditionExpression: aws.String(cond)}}
	}
	setIdx := func(pk string, v types.AttributeValue) types.TransactWriteItem {
		return types.TransactWriteItem{Update: &types.Update{TableName: aws.String("txi"), Key: item{"pk": S(pk), "sk": S("a")},
			UpdateExpression: aws.String("SET lsi1sk = :v"), ExpressionAttributeValues: item{":v": v}}}
	}

	for _, tc := range []struct {
		name  string
		items []types.TransactWriteItem
		// Either the whole request is refused with this message...
		refused string
		// ...or it is cancelled with these reason codes, the
		// ValidationError one carrying reason.
		codes  []string
		reason string
	}{
		// paritysuite tier3 transactWriteItems: a wrong-typed or
		// non-scalar key in a Put's item cancels, with PutItem's text.
		{name: "put wrong-typed key", items: []types.TransactWriteItem{txPut("txe", item{"pk": N("5")})},
			codes: []string{"ValidationError"}, reason: "One or more parameter values were invalid: Type mismatch for key pk expected: S actual: N"},
		{name: "put non-scalar key", items: []types.TransactWriteItem{txPut("txe", item{"pk": L(S("x"))})},
			codes: []string{"ValidationError"}, reason: "One or more parameter values were invalid: Type mismatch for key pk expected: S actual: L"},
		// No recording of a Put missing its key inside a transaction;
		// chose a cancellation with PutItem's text, as for a mistyped key
		// (floci pull request 3674 cancels it too).
		{name: "put missing key", items: []types.TransactWriteItem{txPut("txe", item{"v": S("x")})},
			codes: []string{"ValidationError"}, reason: "One or more parameter values were invalid: Missing the key pk in the item"},
		// paritysuite tier3 transactWriteItems: empty key values are a
		// top-level ValidationException, with the same text for a Put's
		// item and for the Key of the other actions (four regions).
		{name: "put empty string key", items: []types.TransactWriteItem{txPut("txe", item{"pk": S("")})}, refused: msgEmptyKeyS},
		{name: "put empty binary key", items: []types.TransactWriteItem{txPut("txeb", item{"pk": B([]byte{})})}, refused: msgEmptyKeyB},
		{name: "update empty string key", items: []types.TransactWriteItem{upd("txe", item{"pk": S("")})}, refused: msgEmptyKeyS},
		{name: "delete empty string key", items: []types.TransactWriteItem{del("txe", item{"pk": S("")})}, refused: msgEmptyKeyS},
		{name: "check empty string key", items: []types.TransactWriteItem{check("txe", item{"pk": S("")}, "attribute_not_exists(pk)")}, refused: msgEmptyKeyS},
		{name: "update empty binary key", items: []types.TransactWriteItem{upd("txeb", item{"pk": B([]byte{})})}, refused: msgEmptyKeyB},
		{name: "delete empty binary key", items: []types.TransactWriteItem{del("txeb", item{"pk": B([]byte{})})}, refused: msgEmptyKeyB},
		{name: "check empty binary key", items: []types.TransactWriteItem{check("txeb", item{"pk": B([]byte{})}, "attribute_not_exists(pk)")}, refused: msgEmptyKeyB},
		// paritysuite tier3 transactWriteItems: a wrong-typed or
		// non-scalar Key of an Update, Delete or ConditionCheck cancels
		// with the key-lookup text.
		{name: "update wrong-typed key", items: []types.TransactWriteItem{upd("txe", item{"pk": N("5")})}, codes: []string{"ValidationError"}, reason: msgSchema},
		{name: "update non-scalar key", items: []types.TransactWriteItem{upd("txe", item{"pk": L(S("x"))})}, codes: []string{"ValidationError"}, reason: msgSchema},
		{name: "delete wrong-typed key", items: []types.TransactWriteItem{del("txe", item{"pk": N("5")})}, codes: []string{"ValidationError"}, reason: msgSchema},
		{name: "delete non-scalar key", items: []types.TransactWriteItem{del("txe", item{"pk": L(S("x"))})}, codes: []string{"ValidationError"}, reason: msgSchema},
		{name: "check wrong-typed key", items: []types.TransactWriteItem{check("txe", item{"pk": N("5")}, "attribute_not_exists(pk)")}, codes: []string{"ValidationError"}, reason: msgSchema},
		{name: "check non-scalar key", items: []types.TransactWriteItem{check("txe", item{"pk": L(S("x"))}, "attribute_not_exists(pk)")}, codes: []string{"ValidationError"}, reason: msgSchema},
		// No recording of a Key lacking its attribute; chose the same
		// cancellation as for a mistyped one.
		{name: "delete key missing attribute", items: []types.TransactWriteItem{del("txe", item{"other": S("x")})}, codes: []string{"ValidationError"}, reason: msgSchema},
		// Alternator test_transact_write_cancellation_reasons_
		// validationerror: only the first invalid action is reported;
		// the second invalid one and a false condition are None.
		{name: "first of two invalid", items: []types.TransactWriteItem{
			txPut("txe", item{"pk": N("7")}), txPut("txe", item{"pk": N("8")}), putIf("txe", item{"pk": S("fresh")}, "attribute_exists(pk)")},
			codes: []string{"ValidationError", "None", "None"}, reason: "One or more parameter values were invalid: Type mismatch for key pk expected: S actual: N"},
		// Alternator, same test: actions are validated before any runs,
		// so a false condition ahead of an invalid action is None.
		{name: "false condition before invalid action", items: []types.TransactWriteItem{
			check("txe", item{"pk": S("there")}, "attribute_not_exists(pk)"), txPut("txe", item{"pk": N("7")})},
			codes: []string{"None", "ValidationError"}, reason: "One or more parameter values were invalid: Type mismatch for key pk expected: S actual: N"},
		// No recording of the mix; chose: the up-front refusal of an
		// empty key value wins over a later action's cancellation.
		{name: "empty key after mistyped key", items: []types.TransactWriteItem{
			txPut("txe", item{"pk": N("7")}), txPut("txe", item{"pk": S("")})}, refused: msgEmptyKeyS},
		// paritysuite tier3 transactIndexKeys (eu-west-2): index keys.
		{name: "put wrong-typed index key", items: []types.TransactWriteItem{txPut("txi", item{"pk": S("a"), "sk": S("a"), "lsi1sk": N("5")})},
			codes: []string{"ValidationError"}, reason: "One or more parameter values were invalid: Type mismatch for Index Key lsi1sk Expected: S Actual: N IndexName: gsi1"},
		{name: "put non-scalar index key", items: []types.TransactWriteItem{txPut("txi", item{"pk": S("a"), "sk": S("a"), "lsi1sk": L(S("x"))})},
			codes: []string{"ValidationError"}, reason: "One or more parameter values were invalid: Type mismatch for Index Key lsi1sk Expected: S Actual: L IndexName: gsi1"},
		{name: "update wrong-typed index key", items: []types.TransactWriteItem{setIdx("b", N("5"))},
			codes: []string{"ValidationError"}, reason: "One or more parameter values were invalid: Type mismatch for Index Key lsi1sk Expected: S Actual: N IndexName: gsi1"},
		{name: "update non-scalar index key", items: []types.TransactWriteItem{setIdx("b", L(S("x")))},
			codes: []string{"ValidationError"}, reason: "One or more parameter values were invalid: Type mismatch for Index Key lsi1sk Expected: S Actual: L IndexName: gsi1"},
		{name: "put empty index key", items: []types.TransactWriteItem{txPut("txi", item{"pk": S("a"), "sk": S("a"), "lsi1sk": S("")})},
			refused: "One or more parameter values are not valid. A value specified for a secondary index key is not supported. The AttributeValue for a key attribute cannot contain an empty string value. IndexName: gsi1, IndexKey: lsi1sk"},
		{name: "update empty index key", items: []types.TransactWriteItem{setIdx("b", S(""))},
			refused: "One or more parameter values are not valid. The update expression attempted to update a secondary index key to a value that is not supported. The AttributeValue for a key attribute cannot contain an empty string value."},
		// paritysuite tier3 nestingDepth: a Put item nested too deep is
		// refused outright in every region; an Update writing such a
		// value is refused outright too by the regions that check every
		// value up front (eu-west-2 since 2026-10-08, the newest answer).
		// That answer's text is not recorded; dynago keeps UpdateItem's.
		{name: "put too deep", items: []types.TransactWriteItem{txPut("txe", item{"pk": S("d"), "data": deep(32)})}, refused: msgNestTooDeep},
		{name: "update too deep", items: []types.TransactWriteItem{{Update: &types.Update{TableName: aws.String("txe"), Key: item{"pk": S("d")},
			UpdateExpression: aws.String("SET deep = :deep"), ExpressionAttributeValues: item{":deep": deep(32)}}}},
			refused: "ExpressionAttributeValues contains invalid value: " + msgNestTooDeep + " for key :deep"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := transact(c, tc.items...)
			if tc.refused != "" {
				wantValidation(t, err, tc.refused)
				return
			}
			rs := wantCanceled(t, err, tc.codes...)
			for i, code := range tc.codes {
				if code == "ValidationError" && aws.ToString(rs[i].Message) != tc.reason {
					t.Fatalf("reason %d: %q, want %q", i, aws.ToString(rs[i].Message), tc.reason)
				}
			}
		})
	}
	// Nothing of the refused or cancelled transactions was written.
	for _, table := range []string{"txe", "txi"} {
		out, err := c.Scan(bg(), &dynamodb.ScanInput{TableName: aws.String(table)})
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]int32{"txe": 1, "txi": 0}[table]
		if out.Count != want {
			t.Fatalf("%s holds %d items, want %d", table, out.Count, want)
		}
	}
}

func TestTransactGetItemProblemsExact(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "tge", types.ScalarAttributeTypeS)
	get := func(key item) types.TransactGetItem {
		return types.TransactGetItem{Get: &types.Get{TableName: aws.String("tge"), Key: key}}
	}
	for _, tc := range []struct {
		name    string
		gets    []types.TransactGetItem
		refused string
		codes   []string
	}{
		// paritysuite tier3 transactGetItems: Key {} is cancelled with a
		// ValidationError reason (its text is not recorded; chose
		// GetItem's).
		{name: "empty key", gets: []types.TransactGetItem{get(item{})}, codes: []string{"ValidationError"}},
		// No recording; chose the same cancellation for a mistyped key,
		// at the position of the Get that has it.
		{name: "wrong-typed key", gets: []types.TransactGetItem{get(item{"pk": S("a")}), get(item{"pk": N("1")})}, codes: []string{"None", "ValidationError"}},
		// No recording; chose TransactWriteItems' top-level refusal.
		{name: "empty key value", gets: []types.TransactGetItem{get(item{"pk": S("")})}, refused: msgEmptyKeyS},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.TransactGetItems(bg(), &dynamodb.TransactGetItemsInput{TransactItems: tc.gets})
			if tc.refused != "" {
				wantValidation(t, err, tc.refused)
				return
			}
			rs := wantCanceled(t, err, tc.codes...)
			for i, code := range tc.codes {
				if code == "ValidationError" && aws.ToString(rs[i].Message) != msgSchema {
					t.Fatalf("reason %d: %q", i, aws.ToString(rs[i].Message))
				}
			}
		})
	}
}

// TestTransactGetProjectionMatchesNothing: a Get whose projection names
// no attribute of the item answers {} in Responses, without an Item
// (ExtendDB issue 74, DynamoDB's body quoted: {"Responses":[{}]}).
func TestTransactGetProjectionMatchesNothing(t *testing.T) {
	s, c := start(t)
	createHash(t, c, "tgp", types.ScalarAttributeTypeS)
	put(t, c, "tgp", item{"pk": S("p"), "x": N("1")})
	put(t, c, "tgp", item{"pk": S("q"), "x": N("1")})
	res := s.Raw(t, "TransactGetItems", `{"TransactItems":[`+
		`{"Get":{"TableName":"tgp","Key":{"pk":{"S":"p"}},"ProjectionExpression":"absent"}},`+
		`{"Get":{"TableName":"tgp","Key":{"pk":{"S":"q"}},"ProjectionExpression":"x"}}]}`)
	if res.Status != 200 || string(res.Body) != `{"Responses":[{},{"Item":{"x":{"N":"1"}}}]}` {
		t.Fatalf("%d %s", res.Status, res.Body)
	}
}

func TestTransactCapacityExact(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "tcw", types.ScalarAttributeTypeS)
	createRange(t, c, "tcc", types.ScalarAttributeTypeS)
	put(t, c, "tcc", item{"pk": S("present"), "sk": S("x")})
	f := aws.Float64

	t.Run("standalone ConditionCheck", func(t *testing.T) {
		// paritysuite: a ConditionCheck on its own table costs 2 write
		// units, reported as WriteCapacityUnits.
		out, err := c.TransactWriteItems(bg(), &dynamodb.TransactWriteItemsInput{
			ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes,
			TransactItems: []types.TransactWriteItem{
				txPut("tcw", item{"pk": S("cc"), "v": N("1")}),
				{ConditionCheck: &types.ConditionCheck{TableName: aws.String("tcc"), Key: item{"pk": S("present"), "sk": S("x")},
					ConditionExpression: aws.String("attribute_exists(pk)")}},
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		deepEqual(t, "capacity", out.ConsumedCapacity, []types.ConsumedCapacity{
			{TableName: aws.String("tcc"), CapacityUnits: f(2), WriteCapacityUnits: f(2), Table: &types.Capacity{CapacityUnits: f(2), WriteCapacityUnits: f(2)}},
			{TableName: aws.String("tcw"), CapacityUnits: f(2), WriteCapacityUnits: f(2), Table: &types.Capacity{CapacityUnits: f(2), WriteCapacityUnits: f(2)}},
		})
	})

	t.Run("total", func(t *testing.T) {
		// paritysuite: 2 write units per small item; the split
		// WriteCapacityUnits is there with TOTAL too (dynoxide pull
		// request 123, checked against the same suite).
		out, err := c.TransactWriteItems(bg(), &dynamodb.TransactWriteItemsInput{
			ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
			TransactItems:          []types.TransactWriteItem{txPut("tcw", item{"pk": S("t1")}), txPut("tcw", item{"pk": S("t2")})},
		})
		if err != nil {
			t.Fatal(err)
		}
		deepEqual(t, "capacity", out.ConsumedCapacity, []types.ConsumedCapacity{
			{TableName: aws.String("tcw"), CapacityUnits: f(4), WriteCapacityUnits: f(4)}})
	})

	t.Run("same-token replay", func(t *testing.T) {
		// paritysuite: a 1.5 KB item costs 4 write units; the same
		// request again with its token is billed as a transactional
		// read of the item, 2 read units.
		in := &dynamodb.TransactWriteItemsInput{
			ClientRequestToken:     aws.String("replay-token"),
			ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes,
			TransactItems:          []types.TransactWriteItem{txPut("tcw", item{"pk": S("replay"), "big": S(strings.Repeat("x", 1536))})},
		}
		first, err := c.TransactWriteItems(bg(), in)
		if err != nil {
			t.Fatal(err)
		}
		deepEqual(t, "first", first.ConsumedCapacity, []types.ConsumedCapacity{
			{TableName: aws.String("tcw"), CapacityUnits: f(4), WriteCapacityUnits: f(4), Table: &types.Capacity{CapacityUnits: f(4), WriteCapacityUnits: f(4)}}})
		replay, err := c.TransactWriteItems(bg(), in)
		if err != nil {
			t.Fatal(err)
		}
		deepEqual(t, "replay", replay.ConsumedCapacity, []types.ConsumedCapacity{
			{TableName: aws.String("tcw"), CapacityUnits: f(2), ReadCapacityUnits: f(2), Table: &types.Capacity{CapacityUnits: f(2), ReadCapacityUnits: f(2)}}})
	})

	t.Run("TransactGetItems", func(t *testing.T) {
		// ExtendDB issues 76 and 77 quote DynamoDB: a present and a
		// missing item cost 4, as ReadCapacityUnits too, and INDEXES
		// adds the Table breakdown with both.
		gets := []types.TransactGetItem{
			{Get: &types.Get{TableName: aws.String("tcc"), Key: item{"pk": S("present"), "sk": S("x")}}},
			{Get: &types.Get{TableName: aws.String("tcc"), Key: item{"pk": S("missing"), "sk": S("x")}}},
		}
		total, err := c.TransactGetItems(bg(), &dynamodb.TransactGetItemsInput{ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal, TransactItems: gets})
		if err != nil {
			t.Fatal(err)
		}
		deepEqual(t, "TOTAL", total.ConsumedCapacity, []types.ConsumedCapacity{
			{TableName: aws.String("tcc"), CapacityUnits: f(4), ReadCapacityUnits: f(4)}})
		indexes, err := c.TransactGetItems(bg(), &dynamodb.TransactGetItemsInput{ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes, TransactItems: gets})
		if err != nil {
			t.Fatal(err)
		}
		deepEqual(t, "INDEXES", indexes.ConsumedCapacity, []types.ConsumedCapacity{
			{TableName: aws.String("tcc"), CapacityUnits: f(4), ReadCapacityUnits: f(4), Table: &types.Capacity{CapacityUnits: f(4), ReadCapacityUnits: f(4)}}})
	})
}
