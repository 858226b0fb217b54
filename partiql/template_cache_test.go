package partiql

import (
	"testing"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/engine"
)

// TestFailedTemplateNotKept: a Scan or Query statement whose expressions
// fail to bind one request's parameters (a set of mixed types) answers
// that request with the error, and the next request of the same text with
// good parameters runs: the statement does not keep a failed template.
func TestFailedTemplateNotKept(t *testing.T) {
	db, err := engine.Open(engine.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	mustCreate(t, db, "Sets", true)
	if _, err := db.PutItem(&dynamo.PutItemInput{TableName: "Sets", Item: attr.Item{
		"pk": attr.S("p"), "sk": attr.N("1"), "a": {Type: attr.TypeSS, SS: []string{"x", "y"}}}}); err != nil {
		t.Fatal(err)
	}
	for _, stmt := range []string{
		`SELECT * FROM "Sets" WHERE a = <<?, ?>>`,              // a Scan
		`SELECT * FROM "Sets" WHERE pk = 'p' AND a = <<?, ?>>`, // a Query
	} {
		bad := []attr.Value{attr.S("x"), attr.N("1")}
		if _, err := ExecuteStatement(db, &dynamo.ExecuteStatementInput{Statement: stmt, Parameters: bad}); err == nil {
			t.Fatalf("%s with a set of a string and a number: no error", stmt)
		}
		good := []attr.Value{attr.S("x"), attr.S("y")}
		out, err := ExecuteStatement(db, &dynamo.ExecuteStatementInput{Statement: stmt, Parameters: good})
		if err != nil {
			t.Fatalf("%s with a set of two strings, after a failed request: %v", stmt, err)
		}
		if len(out.Items) != 1 {
			t.Fatalf("%s: %d items, want 1", stmt, len(out.Items))
		}
	}
}
