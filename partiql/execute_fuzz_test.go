package partiql

import (
	"errors"
	"strings"
	"testing"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/engine"
)

// FuzzExecuteStatement runs statements against a small table: every
// statement is answered with a result or a DynamoDB error (*Error), never
// a panic or an internal fault. Parameters are supplied for every ?.
func FuzzExecuteStatement(f *testing.F) {
	for _, s := range []string{
		`SELECT * FROM "fzt" WHERE pk = 'a' AND sk > 1 AND sk < 3 AND n <> 2 ORDER BY sk DESC`,
		`SELECT a.b[1], n FROM "fzt" WHERE pk IN ['a', 'b'] OR pk = ?`,
		`SELECT * FROM "fzt" WHERE n IS NOT MISSING AND attribute_exists(n) = true AND size(s) > ?`,
		`INSERT INTO "fzt" VALUE {'pk': 'c', 'sk': 1, 'l': [1, 'x'], 'm': {'k': <<1, 2>>}}`,
		`UPDATE "fzt" SET n = n + 1, l = list_append(l, [2]) REMOVE s WHERE pk = 'a' AND sk = 1 RETURNING ALL NEW *`,
		`UPDATE "fzt" SET ss = set_add(ss, <<'q'>>) WHERE pk = 'a' AND sk = 2 AND n = ?`,
		`DELETE FROM "fzt" WHERE pk = 'b' AND sk = 1 RETURNING ALL OLD *`,
		`FROM "fzt" WHERE pk = 'a' AND sk = 1 SET z = ?`,
		`EXISTS(SELECT * FROM "fzt" WHERE pk = 'a' AND sk = 1 AND n = 1)`,
		`SELECT * FROM "fzt" WHERE pk = 'a' AND x = '1' OR pk = 'a' AND sk = 2`,
	} {
		f.Add(s)
	}
	db, err := engine.Open(engine.Options{InMemory: true})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { db.Close() })
	mustCreate(f, db, "fzt", true)
	for _, it := range []attr.Item{
		{"pk": attr.S("a"), "sk": attr.N("1"), "n": attr.N("1"), "s": attr.S("str"), "l": {Type: attr.TypeL, L: []attr.Value{attr.N("1")}}},
		{"pk": attr.S("a"), "sk": attr.N("2"), "ss": {Type: attr.TypeSS, SS: []string{"x"}}},
		{"pk": attr.S("b"), "sk": attr.N("1"), "m": {Type: attr.TypeM, M: map[string]attr.Value{"b": {Type: attr.TypeL, L: []attr.Value{attr.S("y")}}}}},
	} {
		if _, err := db.PutItem(&dynamo.PutItemInput{TableName: "fzt", Item: it}); err != nil {
			f.Fatal(err)
		}
	}
	params := []attr.Value{attr.S("a"), attr.N("2"), {Type: attr.TypeSS, SS: []string{"z"}}, attr.Bool(true)}
	f.Fuzz(func(t *testing.T, stmt string) {
		if len(stmt) > engine.MaxStatementLength {
			return
		}
		var ps []attr.Value
		for i := range strings.Count(stmt, "?") {
			ps = append(ps, params[i%len(params)])
		}
		for _, run := range []func() error{
			func() error {
				_, err := ExecuteStatement(db, &dynamo.ExecuteStatementInput{Statement: stmt, Parameters: ps})
				return err
			},
			func() error {
				_, err := ExecuteTransaction(db, &dynamo.ExecuteTransactionInput{TransactStatements: []dynamo.ParameterizedStatement{{Statement: stmt, Parameters: ps}}})
				return err
			},
			func() error {
				_, err := BatchExecuteStatement(db, &dynamo.BatchExecuteStatementInput{Statements: []dynamo.BatchStatementRequest{{Statement: stmt, Parameters: ps}}})
				return err
			},
		} {
			var e *dynamo.Error
			if err := run(); err != nil && (!errors.As(err, &e) || e.Code == dynamo.CodeInternalServerError) {
				t.Fatalf("%q: %v", stmt, err)
			}
		}
	})
}
