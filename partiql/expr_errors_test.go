package partiql

import (
	"strings"
	"testing"

	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/engine"
)

// TestStatementExpressionErrors pins how the problems of a statement's
// expressions are answered: bare for a read, in a write's envelope after
// the expression's prefix, bare in a transaction, and in a batch's slot
// as the single statement's.
func TestStatementExpressionErrors(t *testing.T) {
	db, err := engine.Open(engine.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	mustCreate(t, db, "tbl", true)
	deep := "a" + strings.Repeat(".b", 32)
	const (
		envUpdate = "1 validation error detected: Invalid UpdateExpression: "
		envCond   = "1 validation error detected: Invalid ConditionExpression: "
		typeS     = "Incorrect operand type for operator or function; operator or function: +, operand type: S"
		typeL     = "Incorrect operand type for operator or function; operator or function: <, operand type: L"
		depth     = "The document path has too many nesting levels; nesting levels: 33"
		syntax    = `Syntax error; token: "+", near: "#n2 + :v0"`
	)
	for _, c := range []struct{ stmt, want string }{
		{`SELECT * FROM "tbl" WHERE a < [1]`, typeL},
		{`SELECT * FROM "tbl" WHERE pk = 'k' AND a < [1]`, typeL},
		{`SELECT ` + deep + ` FROM "tbl" WHERE pk = 'k' AND sk = 1`, depth},
		{`SELECT * FROM "tbl" WHERE pk = 'k' AND sk BETWEEN 2 AND 1`, "The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: AttributeValue: {N:2}, upper bound operand: AttributeValue: {N:1}"},
		{`UPDATE "tbl" SET x = 'a' + 1 WHERE pk = 'k' AND sk = 1`, envUpdate + typeS},
		{`UPDATE "tbl" SET x = y + z + 1 WHERE pk = 'k' AND sk = 1`, envUpdate + syntax},
		{`UPDATE "tbl" SET x = 1 WHERE pk = 'k' AND sk = 1 AND a < [1]`, envCond + typeL},
		{`DELETE FROM "tbl" WHERE pk = 'k' AND sk = 1 AND a < [1]`, envCond + typeL},
	} {
		_, err := ExecuteStatement(db, &dynamo.ExecuteStatementInput{Statement: c.stmt})
		if e, ok := err.(*dynamo.Error); !ok || e.Code != dynamo.CodeValidation || e.Message != c.want {
			t.Errorf("%s: %v, want %q", c.stmt, err, c.want)
		}
		b, err := BatchExecuteStatement(db, &dynamo.BatchExecuteStatementInput{Statements: []dynamo.BatchStatementRequest{{Statement: c.stmt}}})
		if strings.HasPrefix(c.stmt, "SELECT") && !strings.Contains(c.stmt, deep) {
			continue // a batch reads by key only
		}
		if err != nil || len(b.Responses) != 1 || b.Responses[0].Error == nil || b.Responses[0].Error.Message != c.want {
			t.Errorf("batch %s: %v %+v, want %q", c.stmt, err, b, c.want)
		}
	}
	for _, c := range []struct{ stmt, want string }{
		{`UPDATE "tbl" SET x = 'a' + 1 WHERE pk = 'k' AND sk = 1`, typeS},
		{`UPDATE "tbl" SET x = y + z + 1 WHERE pk = 'k' AND sk = 1`, syntax},
		{`DELETE FROM "tbl" WHERE pk = 'k' AND sk = 1 AND a < [1]`, typeL},
		{`EXISTS(SELECT * FROM "tbl" WHERE pk = 'k' AND sk = 1 AND a < [1])`, typeL},
		{`SELECT ` + deep + ` FROM "tbl" WHERE pk = 'k' AND sk = 1`, depth},
	} {
		_, err := ExecuteTransaction(db, &dynamo.ExecuteTransactionInput{TransactStatements: []dynamo.ParameterizedStatement{{Statement: c.stmt}}})
		if e, ok := err.(*dynamo.Error); !ok || e.Code != dynamo.CodeValidation || e.Message != c.want {
			t.Errorf("transaction %s: %v, want %q", c.stmt, err, c.want)
		}
	}
}
