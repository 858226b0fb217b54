package partiql

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/engine"
)

// explainDB has table "tbl" (pk S, sk N) with a GSI "g" (gh S, sk N)
// projecting only its keys and "p", and an item.
func explainDB(t *testing.T) *engine.DB {
	db, err := engine.Open(engine.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	_, err = db.CreateTable(&dynamo.CreateTableInput{TableName: "tbl", BillingMode: dynamo.BillingModePayPerRequest,
		AttributeDefinitions: []dynamo.AttributeDefinition{{AttributeName: "pk", AttributeType: "S"}, {AttributeName: "sk", AttributeType: "N"}, {AttributeName: "gh", AttributeType: "S"}},
		KeySchema:            []dynamo.KeySchemaElement{{AttributeName: "pk", KeyType: dynamo.KeyTypeHash}, {AttributeName: "sk", KeyType: dynamo.KeyTypeRange}},
		GlobalSecondaryIndexes: []dynamo.GlobalSecondaryIndex{{IndexName: "gsi",
			KeySchema:  []dynamo.KeySchemaElement{{AttributeName: "gh", KeyType: dynamo.KeyTypeHash}, {AttributeName: "sk", KeyType: dynamo.KeyTypeRange}},
			Projection: dynamo.Projection{ProjectionType: "INCLUDE", NonKeyAttributes: []string{"p"}}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.PutItem(&dynamo.PutItemInput{TableName: "tbl", Item: attr.Item{"pk": attr.S("a"), "sk": attr.N("1"), "gh": attr.S("x"), "p": attr.S("v")}}); err != nil {
		t.Fatal(err)
	}
	return db
}

func describeOn(db *engine.DB) func(string) (*dynamo.TableDescription, error) {
	return func(name string) (*dynamo.TableDescription, error) {
		out, err := db.DescribeTable(&dynamo.DescribeTableInput{TableName: name})
		if err != nil {
			return nil, err
		}
		return out.Table, nil
	}
}

// TestExplainErrorsAsExecution: a statement execution refuses before it
// reads anything, explain refuses with the same error.
func TestExplainErrorsAsExecution(t *testing.T) {
	db := explainDB(t)
	in := make([]string, 51)
	for i := range in {
		in[i] = fmt.Sprintf("'k%d'", i)
	}
	for _, c := range []struct {
		stmt       string
		consistent bool
	}{
		{`SELEC * FROM "tbl"`, false},
		{`SELECT * FROM "nope" WHERE pk = 'a'`, false},
		{`SELECT * FROM "tbl"."nope" WHERE pk = 'a'`, false},
		{`SELECT * FROM "tbl"."gsi" WHERE gh = 'a'`, true},
		{`SELECT q FROM "tbl"."gsi" WHERE gh = 'a'`, false},
		{`SELECT * FROM "tbl" ORDER BY pk`, false},
		{`SELECT * FROM "tbl" WHERE pk = 'a' ORDER BY x`, false},
		{`SELECT * FROM "tbl" WHERE x = 1 ORDER BY sk`, false},
		{`SELECT * FROM "tbl" WHERE pk = 'a' AND sk > 1 OR pk = 'a' AND x = 1`, false},
		{`SELECT * FROM "tbl" WHERE pk IN [` + strings.Join(in, ", ") + `]`, false},
		{`SELECT * FROM "tbl" WHERE pk = 'a' AND x = size(y, z)`, false},
		{`SELECT * FROM "tbl" WHERE x = size(y, z)`, false},
		{`SELECT * FROM "tbl" WHERE pk = 'a' AND sk = 1 AND x = nope(y)`, false},
		{`UPDATE "tbl" SET x = 1 WHERE pk = 'a'`, false},
		{`INSERT INTO "tbl" VALUE {'pk': 1, 'sk': 1}`, false},
		{`DELETE FROM "tbl" WHERE pk = 'a' AND sk = 1 RETURNING ALL NEW *`, false},
		{`EXISTS(SELECT * FROM "tbl" WHERE pk = 'a' AND sk = 1 AND x = 1)`, false},
	} {
		_, execErr := ExecuteStatement(db, &dynamo.ExecuteStatementInput{Statement: c.stmt, ConsistentRead: c.consistent})
		_, explainErr := ExplainStatement(&ExplainInput{Statement: c.stmt, ConsistentRead: c.consistent}, describeOn(db))
		if execErr == nil || explainErr == nil || execErr.Error() != explainErr.Error() {
			t.Errorf("%s:\n execution: %v\n explain:   %v", c.stmt, execErr, explainErr)
		}
	}
}

func TestExplainOperations(t *testing.T) {
	db := explainDB(t)
	for _, c := range []struct {
		stmt, op, keyCond, filter string
		params                    []attr.Value
		check                     func(e *Explanation) bool
	}{
		{stmt: `SELECT * FROM "tbl" WHERE pk = 'a' AND sk = 1`, op: "GetItem", keyCond: "pk = 'a' AND sk = 1",
			check: func(e *Explanation) bool { return attr.Equal(e.Request.Key["sk"], attr.N("1")) }},
		{stmt: `SELECT * FROM "tbl" WHERE pk = ? AND sk > ? AND p = 'v'`, op: "Query", keyCond: "pk = ? AND sk > ?", filter: "p = 'v'",
			check: func(e *Explanation) bool {
				return e.Request.KeyConditionExpression == "#n0 = :v0 AND #n1 > :v1" && e.Request.FilterExpression == "#n2 = :v2" &&
					len(e.Request.ExpressionAttributeValues) == 1 && strings.Contains(e.Cost, "the filter drops items after they are billed")
			}},
		{stmt: `SELECT * FROM "tbl" WHERE pk = ? AND sk > ?`, op: "Query", params: []attr.Value{attr.S("a"), attr.N("0")},
			check: func(e *Explanation) bool {
				return len(e.Request.ExpressionAttributeValues) == 2 && e.Partitions[0] == "'a'" && strings.Contains(e.Cost, "reads only partition pk = 'a' where sk > ?")
			}},
		{stmt: `SELECT * FROM "tbl" WHERE pk IN ['b', 'a'] ORDER BY pk DESC, sk DESC`, op: "Query",
			check: func(e *Explanation) bool {
				return e.Queries == 2 && e.Partitions[0] == "'b'" && e.Descending && strings.Contains(e.String(), "2 Queries")
			}},
		{stmt: `SELECT p FROM "tbl"."gsi" WHERE gh = 'x'`, op: "Query",
			check: func(e *Explanation) bool { return e.Index == "gsi" && e.IndexKind == "GSI" && e.PartitionKey == "gh" }},
		{stmt: `SELECT * FROM "tbl" WHERE sk = 1`, op: "Scan", filter: "sk = 1",
			check: func(e *Explanation) bool {
				return strings.Contains(e.Cost, "reads every item in the table; bills for all of them")
			}},
		{stmt: `INSERT INTO "tbl" VALUE {'pk': 'b', 'sk': 2}`, op: "PutItem",
			check: func(e *Explanation) bool { return e.Request.ConditionExpression == "attribute_not_exists(#k)" }},
		{stmt: `UPDATE "tbl" SET x = x + 1 WHERE pk = 'a' AND sk = 1 AND p = 'v'`, op: "UpdateItem", keyCond: "pk = 'a' AND sk = 1",
			check: func(e *Explanation) bool {
				return e.Request.UpdateExpression != "" && strings.Contains(e.Request.ConditionExpression, "attribute_exists")
			}},
		{stmt: `DELETE FROM "tbl" WHERE pk = 'a' AND sk = 1`, op: "DeleteItem"},
		{stmt: `SELECT * FROM "tbl" WHERE pk IN ['a', 'b'] AND sk = 1`, op: "Query",
			check: func(e *Explanation) bool {
				return e.Queries == 2 && strings.Contains(e.Cost, "a batch of reads by key")
			}},
		{stmt: `SELECT * FROM "tbl" WHERE pk = 'a' AND f = TRUE AND tags = <<'y', 'x'>> AND m = {'k': [1, NULL]}`, op: "Query",
			filter: "f = TRUE AND tags = <<'y', 'x'>> AND m = {'k': [1, NULL]}",
			check: func(e *Explanation) bool {
				return strings.Contains(e.String(), ":v1: TRUE, :v2: <<'y', 'x'>>, :v3: {'k': [1, NULL]}")
			}},
	} {
		e, err := ExplainStatement(&ExplainInput{Statement: c.stmt, Parameters: c.params}, describeOn(db))
		if err != nil {
			t.Errorf("%s: %v", c.stmt, err)
			continue
		}
		if e.Operation != c.op || c.keyCond != "" && e.KeyCondition != c.keyCond || e.Filter != c.filter || c.check != nil && !c.check(e) {
			t.Errorf("%s:\n%s%+v", c.stmt, e, e.Request)
		}
	}
}
