package e2e

import (
	"errors"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
)

// What DynamoDB runs and answers for the accepted PartiQL forms, as
// paritysuite/dynamodb-conformance recorded them against AWS (eu-west-2,
// October 2026) in tests/tier2/partiql/*.test.ts; partiql_test.go and
// partiql_exact_test.go hold the first of them. Each case names its file
// and its test.

// comparison.test.ts: equality and <> on each type, as a PartiQL WHERE and
// as a ConditionExpression, and the ordering operators' refusals.
func TestPartiQLExactComparisonTypes(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "cmp", types.ScalarAttributeTypeS)
	type perm struct {
		value   types.AttributeValue
		matches bool
	}
	cases := []struct {
		typ                   string
		stored, same, differs types.AttributeValue
		permuted              *perm
	}{
		{"SS", SS("a", "b", "c"), SS("a", "b", "c"), SS("a", "b", "d"), &perm{SS("c", "a", "b"), true}},
		{"NS", NS("1", "2", "3"), NS("1", "2", "3"), NS("1", "2", "4"), &perm{NS("3", "1", "2"), true}},
		{"BS", BS([]byte{1, 2}, []byte{3, 4}), BS([]byte{1, 2}, []byte{3, 4}), BS([]byte{1, 2}, []byte{5, 6}), &perm{BS([]byte{3, 4}, []byte{1, 2}), true}},
		{"L", L(S("a"), S("b")), L(S("a"), S("b")), L(S("a"), S("c")), &perm{L(S("b"), S("a")), false}},
		{"M", M(item{"x": N("1"), "y": N("2")}), M(item{"x": N("1"), "y": N("2")}), M(item{"x": N("1"), "y": N("3")}), nil},
		{"B", B([]byte{1, 2, 3}), B([]byte{1, 2, 3}), B([]byte{1, 2, 4}), nil},
		{"NULL", NULL(), NULL(), S("not null"), nil},
	}
	for _, tc := range cases {
		put(t, c, "cmp", item{"pk": S("pq-cmp-" + tc.typ), "val": tc.stored})
	}
	matches := func(t *testing.T, pk string, v types.AttributeValue, op string) bool {
		t.Helper()
		return len(mustQL(t, c, `SELECT pk FROM "cmp" WHERE pk = ? AND val `+op+` ?`, S(pk), v)) == 1
	}
	holds := func(t *testing.T, pk string, v types.AttributeValue, op string) bool {
		t.Helper()
		_, err := c.UpdateItem(bg(), &dynamodb.UpdateItemInput{TableName: aws.String("cmp"), Key: item{"pk": S(pk)},
			UpdateExpression: aws.String("SET marker = :m"), ConditionExpression: aws.String("val " + op + " :v"),
			ExpressionAttributeValues: item{":m": N("1"), ":v": v}})
		var ccf *types.ConditionalCheckFailedException
		if errors.As(err, &ccf) {
			return false
		}
		if err != nil {
			t.Fatal(err)
		}
		return true
	}
	for _, tc := range cases {
		pk := "pq-cmp-" + tc.typ
		t.Run(tc.typ, func(t *testing.T) {
			if !matches(t, pk, tc.same, "=") || matches(t, pk, tc.differs, "=") {
				t.Error("matches an equal value, does not match a different value")
			}
			if matches(t, pk, tc.same, "<>") || !matches(t, pk, tc.differs, "<>") {
				t.Error("answers <> as the complement of =")
			}
			// The map permutation case cannot be sent through a Go map;
			// the others are.
			if tc.permuted != nil && matches(t, pk, tc.permuted.value, "=") != tc.permuted.matches {
				t.Errorf("a permuted value: want matches=%v", tc.permuted.matches)
			}
			for _, v := range []types.AttributeValue{tc.same, tc.differs} {
				for _, op := range []string{"=", "<>"} {
					if matches(t, pk, v, op) != holds(t, pk, v, op) {
						t.Errorf("agrees with the same predicate as a ConditionExpression: %s %s", op, render(v))
					}
				}
			}
		})
	}

	// "ordering operators reject an operand type with no ordering".
	unordered := map[string]types.AttributeValue{"BOOL": BOOL(true), "NULL": NULL(), "L": L(S("a")), "M": M(item{"a": S("b")}),
		"SS": SS("a"), "NS": NS("1"), "BS": BS([]byte{1})}
	for typ, v := range unordered {
		t.Run("rejects < against "+typ, func(t *testing.T) {
			_, err := ql(c, `SELECT pk FROM "cmp" WHERE pk = ? AND val < ?`, S("pq-cmp-B"), v)
			var ae smithy.APIError
			if !errors.As(err, &ae) || ae.ErrorCode() != "ValidationException" ||
				!strings.HasPrefix(ae.ErrorMessage(), "Incorrect operand type for operator or function; operator or function: <, operand type: ") {
				t.Fatalf("got %v", err)
			}
		})
		t.Run("accepts = and <> against "+typ, func(t *testing.T) {
			if matches(t, "pq-cmp-B", v, "=") || !matches(t, "pq-cmp-B", v, "<>") {
				t.Error("= and <> against a binary value")
			}
		})
	}
	_, err := ql(c, `SELECT pk FROM "cmp" WHERE pk = ? AND val BETWEEN ? AND ?`, S("pq-cmp-B"), BOOL(true), BOOL(false))
	var ae smithy.APIError
	if !errors.As(err, &ae) || ae.ErrorCode() != "ValidationException" || !strings.Contains(ae.ErrorMessage(), "operator or function: BETWEEN") {
		t.Errorf("names BETWEEN as written too: %v", err)
	}
	if _, err := ql(c, `SELECT pk FROM "cmp" WHERE pk = ? AND val < ?`, S("pq-cmp-NULL"), N("5")); err != nil {
		t.Errorf("accepts an ordering comparison between S and N: %v", err)
	}

	// "a write conditioned on a non-scalar predicate".
	put(t, c, "cmp", item{"pk": S("pq-cmp-SS-write-true"), "val": SS("a", "b")})
	mustQL(t, c, `UPDATE "cmp" SET touched = 'yes' WHERE pk = ? AND val = ?`, S("pq-cmp-SS-write-true"), SS("b", "a"))
	if got := get(t, c, "cmp", item{"pk": S("pq-cmp-SS-write-true")}); render(got["touched"]) != render(S("yes")) {
		t.Errorf("fires when the predicate holds: %s", renderItem(got))
	}
	put(t, c, "cmp", item{"pk": S("pq-cmp-M-write-false"), "val": M(item{"x": N("1")})})
	_, err = ql(c, `UPDATE "cmp" SET touched = 'yes' WHERE pk = ? AND val = ?`, S("pq-cmp-M-write-false"), M(item{"x": N("2")}))
	wantCondFailed(t, err)
	if got := get(t, c, "cmp", item{"pk": S("pq-cmp-M-write-false")}); got["touched"] != nil {
		t.Errorf("raises ConditionalCheckFailed and leaves the item: %s", renderItem(got))
	}
}

// grammar.test.ts: number literals, comments and ORDER BY ASC.
func TestPartiQLExactGrammarForms(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "hshn", types.ScalarAttributeTypeN)
	createHash(t, c, "hsh", types.ScalarAttributeTypeS)
	createRange(t, c, "cmpn", types.ScalarAttributeTypeN)
	for _, n := range []string{"7310000", "7.3", "-7.3"} {
		put(t, c, "hshn", item{"pk": N(n), "tag": S("grammar")})
	}
	for _, s := range []string{"pq-grammar-a", "pq-grammar-b", "pq-grammar-c"} {
		put(t, c, "hsh", item{"pk": S(s), "tag": S("grammar")})
	}
	for _, n := range []string{"1", "2", "3"} {
		put(t, c, "cmpn", item{"pk": S("pq-grammar-order"), "sk": N(n)})
	}
	selectOne := func(stmt string, key types.AttributeValue) {
		t.Helper()
		out, err := c.ExecuteStatement(bg(), &dynamodb.ExecuteStatementInput{Statement: aws.String(stmt), ConsistentRead: aws.Bool(true)})
		if err != nil {
			t.Errorf("%s: %v", stmt, err)
			return
		}
		if len(out.Items) != 1 || render(out.Items[0]["pk"]) != render(key) {
			t.Errorf("%s: %v", stmt, out.Items)
		}
	}
	for _, tc := range []struct{ name, stmt, pk string }{
		{"an exponent literal in WHERE matches the number it denotes", `SELECT * FROM "hshn" WHERE pk = 7.31e6`, "7310000"},
		{"an upper-case E", `SELECT * FROM "hshn" WHERE pk = 7.31E6`, "7310000"},
		{"an explicit sign", `SELECT * FROM "hshn" WHERE pk = 7.31e+6`, "7310000"},
		{"a shifted mantissa", `SELECT * FROM "hshn" WHERE pk = 731e4`, "7310000"},
		{"a negative exponent", `SELECT * FROM "hshn" WHERE pk = 73100000e-1`, "7310000"},
		{"a number with no leading digit matches in WHERE", `SELECT * FROM "hshn" WHERE pk = .73e1`, "7.3"},
		{"a negative number with no leading digit matches in WHERE", `SELECT * FROM "hshn" WHERE pk = -.73e1`, "-7.3"},
	} {
		t.Run(tc.name, func(t *testing.T) { selectOne(tc.stmt, N(tc.pk)) })
	}
	mustQL(t, c, `INSERT INTO "hshn" VALUE {'pk': 7.32e6, 'tag': 'grammar'}`)
	mustQL(t, c, `INSERT INTO "hshn" VALUE {'pk': .7325e1, 'tag': 'grammar'}`)
	if get(t, c, "hshn", item{"pk": N("7320000")}) == nil || get(t, c, "hshn", item{"pk": N("7.325")}) == nil {
		t.Error("an exponent literal, and one with no leading digit, in an INSERT store the number they denote")
	}
	for _, tc := range []struct{ name, stmt, pk string }{
		{"a line comment after the statement is ignored", `SELECT * FROM "hsh" WHERE pk = 'pq-grammar-a' -- a note`, "pq-grammar-a"},
		{"a line comment between FROM and WHERE leaves the WHERE clause in force", "SELECT * FROM \"hsh\" -- a note\nWHERE pk = 'pq-grammar-b'", "pq-grammar-b"},
		{"a line comment before the statement is ignored", "-- a note\nSELECT * FROM \"hsh\" WHERE pk = 'pq-grammar-a'", "pq-grammar-a"},
		{"a block comment between clauses is ignored", `SELECT * FROM "hsh" /* a note */ WHERE pk = 'pq-grammar-c'`, "pq-grammar-c"},
		{"a block comment after the statement is ignored", `SELECT * FROM "hsh" WHERE pk = 'pq-grammar-c' /* a note */`, "pq-grammar-c"},
	} {
		t.Run(tc.name, func(t *testing.T) { selectOne(tc.stmt, S(tc.pk)) })
	}
	got := mustQL(t, c, `SELECT * FROM "cmpn" WHERE pk = 'pq-grammar-order' ORDER BY sk ASC`)
	if k := plain(got, "sk"); strings.Join(k, ",") != "1,2,3" {
		t.Errorf("ORDER BY the sort key ASC: %v", k)
	}
}

// fromFirstUpdate.test.ts: FROM "t" WHERE <key> SET|REMOVE ... runs as an
// UPDATE of the item the WHERE names.
func TestPartiQLExactFromFirstUpdate(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "hsh", types.ScalarAttributeTypeS)
	seed := func(pk string) item {
		it := item{"pk": S(pk), "a": N("1"), "b": S("bee")}
		put(t, c, "hsh", it)
		return item{"pk": S(pk)}
	}
	key := seed("pq-ff-remove")
	mustQL(t, c, `FROM "hsh" WHERE pk = 'pq-ff-remove' REMOVE b`)
	if got := get(t, c, "hsh", key); got["b"] != nil || got["a"] == nil {
		t.Errorf("FROM ... WHERE ... REMOVE removes the attribute: %s", renderItem(got))
	}
	key = seed("pq-ff-set-remove")
	mustQL(t, c, `FROM "hsh" WHERE pk = 'pq-ff-set-remove' SET c = 2 REMOVE a`)
	if got := get(t, c, "hsh", key); render(got["c"]) != render(N("2")) || got["a"] != nil {
		t.Errorf("SET and REMOVE can follow each other: %s", renderItem(got))
	}
	seed("pq-ff-returning")
	items := mustQL(t, c, `FROM "hsh" WHERE pk = 'pq-ff-returning' SET d = 3 RETURNING ALL NEW *`)
	if len(items) != 1 {
		t.Fatalf("RETURNING ALL NEW *: %v", items)
	}
	itemEqual(t, "RETURNING ALL NEW *", items[0], item{"pk": S("pq-ff-returning"), "a": N("1"), "b": S("bee"), "d": N("3")})
	key = seed("pq-ff-lower")
	mustQL(t, c, `from "hsh" where pk = 'pq-ff-lower' set e = 4`)
	if got := get(t, c, "hsh", key); render(got["e"]) != render(N("4")) {
		t.Errorf("the keywords are case-insensitive: %s", renderItem(got))
	}
	key = seed("pq-ff-params")
	mustQL(t, c, `FROM "hsh" WHERE pk = ? SET c = ?`, S("pq-ff-params"), N("7"))
	if got := get(t, c, "hsh", key); render(got["c"]) != render(N("7")) {
		t.Errorf("takes parameters: %s", renderItem(got))
	}
	key = seed("pq-ff-condition")
	mustQL(t, c, `FROM "hsh" WHERE pk = 'pq-ff-condition' AND a = 1 SET c = 5`)
	if got := get(t, c, "hsh", key); render(got["c"]) != render(N("5")) {
		t.Errorf("a further condition that holds lets the update through: %s", renderItem(got))
	}
	key = seed("pq-ff-condition-fails")
	_, err := ql(c, `FROM "hsh" WHERE pk = 'pq-ff-condition-fails' AND a = 2 SET c = 5`)
	wantCondFailed(t, err)
	if got := get(t, c, "hsh", key); got["c"] != nil {
		t.Errorf("a further condition that fails stops the update: %s", renderItem(got))
	}
	_, err = ql(c, `FROM "hsh" WHERE pk = 'pq-ff-absent' SET c = 1`)
	wantCondFailed(t, err)
	if get(t, c, "hsh", item{"pk": S("pq-ff-absent")}) != nil {
		t.Error("a key that matches no item created it")
	}
	key = seed("pq-ff-tx")
	if _, err := c.ExecuteTransaction(bg(), &dynamodb.ExecuteTransactionInput{TransactStatements: []types.ParameterizedStatement{
		{Statement: aws.String(`FROM "hsh" WHERE pk = 'pq-ff-tx' SET c = 1`)}}}); err != nil {
		t.Fatalf("ExecuteTransaction runs it: %v", err)
	}
	if got := get(t, c, "hsh", key); render(got["c"]) != render(N("1")) {
		t.Errorf("ExecuteTransaction runs it: %s", renderItem(got))
	}
	key = seed("pq-ff-batch")
	out, err := c.BatchExecuteStatement(bg(), &dynamodb.BatchExecuteStatementInput{Statements: []types.BatchStatementRequest{
		{Statement: aws.String(`FROM "hsh" WHERE pk = 'pq-ff-batch' SET c = 1`)}}})
	if err != nil || len(out.Responses) != 1 || out.Responses[0].Error != nil {
		t.Fatalf("BatchExecuteStatement runs it: %v %+v", err, out)
	}
	if got := get(t, c, "hsh", key); render(got["c"]) != render(N("1")) {
		t.Errorf("BatchExecuteStatement runs it: %s", renderItem(got))
	}
}

// multiAttributeIndex.test.ts: the refusal follows the index, not the
// table.
func TestPartiQLExactMultiAttributeIndexTables(t *testing.T) {
	_, c := start(t)
	const refused = "PartiQL statements cannot be executed on tables with multi-attribute HASH keys or multi-attribute RANGE keys."
	_, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{
		TableName: aws.String("pqMultiKey"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: defs("id", "S", "h1", "S", "h2", "S", "r1", "S", "r2", "S"), KeySchema: ks("id"),
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("gsi"), KeySchema: mkSchema([]string{"h1", "h2"}, "r1", "r2"),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.CreateTable(bg(), &dynamodb.CreateTableInput{
		TableName: aws.String("pqMultiMixed"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: defs("id", "S", "sk", "S", "g", "S", "h1", "S", "h2", "S", "r1", "S", "l", "S"), KeySchema: ks("id", "sk"),
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{
			{IndexName: aws.String("single"), KeySchema: ks("g"), Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}},
			{IndexName: aws.String("multi"), KeySchema: mkSchema([]string{"h1", "h2"}, "r1"), Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}},
		},
		LocalSecondaryIndexes: []types.LocalSecondaryIndex{{IndexName: aws.String("local"), KeySchema: ks("id", "l"),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	put(t, c, "pqMultiKey", item{"id": S("i1"), "h1": S("a"), "h2": S("x"), "r1": S("m"), "r2": S("n")})
	put(t, c, "pqMultiMixed", item{"id": S("i1"), "sk": S("s"), "g": S("g1"), "h1": S("a"), "h2": S("x"), "r1": S("m"), "l": S("l1")})

	_, err = ql(c, `SELECT * FROM "pqMultiMixed"."multi" WHERE h1 = 'a' AND h2 = 'x'`)
	wantValidation(t, err, refused)
	for _, stmt := range []string{
		`SELECT * FROM "pqMultiMixed" WHERE id = 'i1'`,
		`SELECT * FROM "pqMultiMixed"."single" WHERE g = 'g1'`,
		`SELECT * FROM "pqMultiMixed"."local" WHERE id = 'i1'`,
		`SELECT * FROM "pqMultiKey" WHERE id = 'i1'`,
	} {
		if got := mustQL(t, c, stmt); len(got) != 1 {
			t.Errorf("%s: %v", stmt, got)
		}
	}
	mustQL(t, c, `INSERT INTO "pqMultiKey" VALUE {'id': 'n1'}`)
	if get(t, c, "pqMultiKey", item{"id": S("n1")}) == nil {
		t.Error("INSERT on a table whose GSI is multi-attribute")
	}
	mustQL(t, c, `UPDATE "pqMultiKey" SET a = 1 WHERE id = 'i1'`)
	if got := get(t, c, "pqMultiKey", item{"id": S("i1")}); render(got["a"]) != render(N("1")) {
		t.Errorf("UPDATE on a table whose GSI is multi-attribute: %s", renderItem(got))
	}
	mustQL(t, c, `DELETE FROM "pqMultiKey" WHERE id = 'zz'`)
}

// setFunctions.test.ts: the cases partiql_test.go does not hold.
func TestPartiQLExactSetFunctionForms(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "sets", types.ScalarAttributeTypeS)
	seed := func(pk string) item {
		put(t, c, "sets", item{"pk": S(pk), "ss": SS("a", "b", "c"), "ns": NS("1", "2", "3"), "s": S("str")})
		return item{"pk": S(pk)}
	}
	seed("pq-set-add-returning")
	items := mustQL(t, c, `UPDATE "sets" SET ss = set_add(ss, <<'r'>>) WHERE pk = 'pq-set-add-returning' RETURNING ALL NEW *`)
	if len(items) != 1 || render(items[0]["ss"]) != render(SS("a", "b", "c", "r")) {
		t.Errorf("RETURNING ALL NEW * returns the set after the addition: %v", items)
	}
	key := seed("pq-set-del-one")
	mustQL(t, c, `UPDATE "sets" SET ss = set_delete(ss, <<'a'>>) WHERE pk = 'pq-set-del-one'`)
	if got := get(t, c, "sets", key); render(got["ss"]) != render(SS("b", "c")) {
		t.Errorf("set_delete removes a member: %s", renderItem(got))
	}
	key = seed("pq-set-del-all")
	mustQL(t, c, `UPDATE "sets" SET ss = set_delete(ss, <<'a', 'b', 'c'>>) WHERE pk = 'pq-set-del-all'`)
	if got := get(t, c, "sets", key); got["ss"] != nil {
		t.Errorf("removing every member removes the attribute: %s", renderItem(got))
	}
	key = seed("pq-set-add-existing")
	mustQL(t, c, `UPDATE "sets" SET ss = set_add(ss, <<'a'>>) WHERE pk = 'pq-set-add-existing'`)
	if got := get(t, c, "sets", key); render(got["ss"]) != render(SS("a", "b", "c")) {
		t.Errorf("set_add of a member already in the set changes nothing: %s", renderItem(got))
	}
	key = seed("pq-set-add-tx")
	if _, err := c.ExecuteTransaction(bg(), &dynamodb.ExecuteTransactionInput{TransactStatements: []types.ParameterizedStatement{
		{Statement: aws.String(`UPDATE "sets" SET ss = set_add(ss, <<'t'>>) WHERE pk = 'pq-set-add-tx'`)}}}); err != nil {
		t.Fatalf("ExecuteTransaction runs set_add: %v", err)
	}
	if got := get(t, c, "sets", key); render(got["ss"]) != render(SS("a", "b", "c", "t")) {
		t.Errorf("ExecuteTransaction runs set_add: %s", renderItem(got))
	}
	key = seed("pq-set-add-batch")
	out, err := c.BatchExecuteStatement(bg(), &dynamodb.BatchExecuteStatementInput{Statements: []types.BatchStatementRequest{
		{Statement: aws.String(`UPDATE "sets" SET ss = set_add(ss, <<'t'>>) WHERE pk = 'pq-set-add-batch'`)}}})
	if err != nil || len(out.Responses) != 1 || out.Responses[0].Error != nil {
		t.Fatalf("BatchExecuteStatement runs set_add: %v %+v", err, out)
	}
	if got := get(t, c, "sets", key); render(got["ss"]) != render(SS("a", "b", "c", "t")) {
		t.Errorf("BatchExecuteStatement runs set_add: %s", renderItem(got))
	}
}

// whereFunctions.test.ts: the cases partiql_exact_test.go does not hold,
// the functions as the condition of a write among them.
func TestPartiQLExactWhereFunctionWrites(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "hsh", types.ScalarAttributeTypeS)
	put(t, c, "hsh", item{"pk": S("pq-fn-item"), "ss": SS("a", "b", "c"), "pqFnMarker": S("present")})
	for _, pk := range []string{"pq-fn-upd-ok", "pq-fn-upd-ccf", "pq-fn-upd-not", "pq-fn-del-ccf", "pq-fn-del-ok", "pq-fn-tx"} {
		put(t, c, "hsh", item{"pk": S(pk), "a": N("5")})
	}
	if got := mustQL(t, c, `SELECT * FROM "hsh" WHERE pk = 'pq-fn-item' AND attribute_not_exists(ss)`); len(got) != 0 {
		t.Errorf("attribute_not_exists drops an item that has the attribute: %v", got)
	}
	got := mustQL(t, c, `SELECT pk FROM "hsh" WHERE attribute_exists(pqFnMarker)`)
	if len(got) != 1 {
		t.Fatalf("filters a SELECT with no key condition: %v", got)
	}
	itemEqual(t, "filters a SELECT with no key condition", got[0], item{"pk": S("pq-fn-item")})

	attrOf := func(pk, name string) types.AttributeValue {
		t.Helper()
		return get(t, c, "hsh", item{"pk": S(pk)})[name]
	}
	mustQL(t, c, `UPDATE "hsh" SET z = 1 WHERE pk = 'pq-fn-upd-ok' AND attribute_exists(a)`)
	if render(attrOf("pq-fn-upd-ok", "z")) != render(N("1")) {
		t.Error("an UPDATE whose attribute_exists holds is applied")
	}
	_, err := ql(c, `UPDATE "hsh" SET z = 2 WHERE pk = 'pq-fn-upd-ccf' AND attribute_exists(nope)`)
	wantCondFailed(t, err)
	if attrOf("pq-fn-upd-ccf", "z") != nil {
		t.Error("an UPDATE whose attribute_exists is false changed the item")
	}
	mustQL(t, c, `UPDATE "hsh" SET y = 1 WHERE pk = 'pq-fn-upd-not' AND attribute_not_exists(y)`)
	_, err = ql(c, `UPDATE "hsh" SET y = 2 WHERE pk = 'pq-fn-upd-not' AND attribute_not_exists(y)`)
	wantCondFailed(t, err)
	if render(attrOf("pq-fn-upd-not", "y")) != render(N("1")) {
		t.Error("an UPDATE guarded by attribute_not_exists sets the attribute once")
	}
	_, err = ql(c, `DELETE FROM "hsh" WHERE pk = 'pq-fn-del-ccf' AND attribute_exists(nope)`)
	wantCondFailed(t, err)
	if get(t, c, "hsh", item{"pk": S("pq-fn-del-ccf")}) == nil {
		t.Error("a DELETE whose attribute_exists is false removed the item")
	}
	mustQL(t, c, `DELETE FROM "hsh" WHERE pk = 'pq-fn-del-ok' AND attribute_not_exists(nope)`)
	if get(t, c, "hsh", item{"pk": S("pq-fn-del-ok")}) != nil {
		t.Error("a DELETE whose attribute_not_exists holds kept the item")
	}
	_, err = ql(c, `UPDATE "hsh" SET z = 1 WHERE pk = 'pq-fn-absent' AND attribute_not_exists(pk)`)
	wantCondFailed(t, err)
	if get(t, c, "hsh", item{"pk": S("pq-fn-absent")}) != nil {
		t.Error("an UPDATE of a missing item guarded by attribute_not_exists(pk) created it")
	}
	if _, err := c.ExecuteTransaction(bg(), &dynamodb.ExecuteTransactionInput{TransactStatements: []types.ParameterizedStatement{
		{Statement: aws.String(`UPDATE "hsh" SET z = 1 WHERE pk = 'pq-fn-tx' AND attribute_exists(a)`)}}}); err != nil {
		t.Fatalf("an UPDATE in ExecuteTransaction takes attribute_exists as its condition: %v", err)
	}
	if render(attrOf("pq-fn-tx", "z")) != render(N("1")) {
		t.Error("an UPDATE in ExecuteTransaction takes attribute_exists as its condition")
	}
}

// whereOverlap.test.ts, on a string sort key as recorded: the negated
// forms partiql_test.go does not hold.
func TestPartiQLExactWhereOverlapForms(t *testing.T) {
	_, c := start(t)
	createRange(t, c, "cmp", types.ScalarAttributeTypeS)
	for _, sk := range []string{"1", "2", "3"} {
		put(t, c, "cmp", item{"pk": S("pq-overlap"), "sk": S(sk)})
	}
	for _, tc := range []struct{ left, want string }{
		{`pk = 'pq-overlap' AND NOT sk = '1'`, "2,3"},
		{`pk = 'pq-overlap' AND sk <> '1'`, "2,3"},
		{`pk = 'pq-overlap' AND NOT begins_with(sk, 'x')`, "1,2,3"},
		{`pk = 'pq-overlap' AND NOT sk IN ['1', '3']`, "2"},
		{`pk = 'pq-overlap' AND NOT sk > '5'`, "1,2,3"},
		{`pk = 'pq-overlap' AND NOT (sk = '1')`, "2,3"},
	} {
		got := mustQL(t, c, `SELECT * FROM "cmp" WHERE `+tc.left+` OR pk = 'pq-overlap' AND sk = '2'`)
		if k := sorted(plain(got, "sk")); strings.Join(k, ",") != tc.want {
			t.Errorf("a branch with %s beside an equality branch runs: %v, want %s", tc.left, k, tc.want)
		}
	}
}

// writeResponses.test.ts: a write answers an empty Items list, and a
// transaction of writes an empty Responses list.
func TestPartiQLExactWriteResponses(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "hsh", types.ScalarAttributeTypeS)
	for _, pk := range []string{"pq-wr-update", "pq-wr-delete", "pq-wr-tx-a", "pq-wr-tx-b", "pq-wr-tx-c"} {
		put(t, c, "hsh", item{"pk": S(pk), "a": N("1")})
	}
	for _, stmt := range []string{
		`INSERT INTO "hsh" VALUE {'pk': 'pq-wr-insert'}`,
		`UPDATE "hsh" SET a = 2 WHERE pk = 'pq-wr-update'`,
		`DELETE FROM "hsh" WHERE pk = 'pq-wr-delete'`,
		`DELETE FROM "hsh" WHERE pk = 'pq-wr-never-written'`,
	} {
		out, err := ql(c, stmt)
		if err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
		if out.Items == nil || len(out.Items) != 0 {
			t.Errorf("%s: Items %#v, want an empty list", stmt, out.Items)
		}
	}
	for _, stmts := range [][]string{
		{`UPDATE "hsh" SET a = 2 WHERE pk = 'pq-wr-tx-a'`, `UPDATE "hsh" SET a = 2 WHERE pk = 'pq-wr-tx-b'`},
		{`INSERT INTO "hsh" VALUE {'pk': 'pq-wr-tx-new'}`, `DELETE FROM "hsh" WHERE pk = 'pq-wr-tx-c'`},
	} {
		in := &dynamodb.ExecuteTransactionInput{}
		for _, s := range stmts {
			in.TransactStatements = append(in.TransactStatements, types.ParameterizedStatement{Statement: aws.String(s)})
		}
		out, err := c.ExecuteTransaction(bg(), in)
		if err != nil {
			t.Fatal(err)
		}
		if out.Responses == nil || len(out.Responses) != 0 {
			t.Errorf("%v: Responses %#v, want an empty list", stmts, out.Responses)
		}
	}
	out, err := c.ExecuteTransaction(bg(), &dynamodb.ExecuteTransactionInput{TransactStatements: []types.ParameterizedStatement{
		{Statement: aws.String(`UPDATE "hsh" SET a = 3 WHERE pk = 'pq-wr-tx-a'`)}}, ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
	if err != nil {
		t.Fatal(err)
	}
	if out.Responses == nil || len(out.Responses) != 0 || len(out.ConsumedCapacity) != 1 || aws.ToString(out.ConsumedCapacity[0].TableName) != "hsh" {
		t.Errorf("a transaction of writes asked for its capacity: %#v %+v", out.Responses, out.ConsumedCapacity)
	}
}

// comparison.test.ts, "'M' matches a permuted value, because a map
// compares by content, not by the order its keys arrived in": sent as
// JSON, since a Go map has no order.
func TestPartiQLExactComparisonMapOrder(t *testing.T) {
	s, c := start(t)
	createHash(t, c, "cmp", types.ScalarAttributeTypeS)
	res := s.Raw(t, "PutItem", `{"TableName":"cmp","Item":{"pk":{"S":"pq-cmp-M"},"val":{"M":{"x":{"N":"1"},"y":{"N":"2"}}}}}`)
	if res.Status != 200 {
		t.Fatalf("PutItem: %d %s", res.Status, res.Body)
	}
	res = s.Raw(t, "ExecuteStatement", `{"Statement":"SELECT pk FROM \"cmp\" WHERE pk = ? AND val = ?",`+
		`"Parameters":[{"S":"pq-cmp-M"},{"M":{"y":{"N":"2"},"x":{"N":"1"}}}]}`)
	if res.Status != 200 {
		t.Fatalf("ExecuteStatement: %d %s", res.Status, res.Body)
	}
	jsonEqual(t, res.Body, `{"Items":[{"pk":{"S":"pq-cmp-M"}}]}`)
}
