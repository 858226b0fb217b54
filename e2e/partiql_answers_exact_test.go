package e2e

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// A SELECT of nested map members answers each under its own last name
// ({nested: ...}), not inside its parents as a ProjectionExpression
// would ({m: {M: {nested: ...}}}). Source: the behaviour as the change
// request reports DynamoDB's answer (map member m.nested under nested; two
// paths sharing a prefix, m.a and m.b, under a and b); no public AWS
// recording of it was found. A projected list element, and a leaf named
// as another projected attribute, have no recorded answer and are not
// asserted here.
func TestPartiQLExactNestedProjectionNames(t *testing.T) {
	_, c := start(t)
	createRange(t, c, "pqLeaf", types.ScalarAttributeTypeN)
	put(t, c, "pqLeaf", item{"pk": S("a"), "sk": N("1"), "top": S("t"),
		"m": M(item{"nested": S("n"), "a": N("1"), "b": L(S("x")), "deep": M(item{"leaf": BOOL(true)})})})
	put(t, c, "pqLeaf", item{"pk": S("b"), "sk": N("1"), "top": S("u")})

	cases := []struct {
		name, stmt string
		want       []item
	}{
		// GetItem plan: the whole key.
		{"map member by key", `SELECT m.nested FROM "pqLeaf" WHERE pk = 'a' AND sk = 1`,
			[]item{{"nested": S("n")}}},
		{"two members of one map", `SELECT m.a, m.b FROM "pqLeaf" WHERE pk = 'a' AND sk = 1`,
			[]item{{"a": N("1"), "b": L(S("x"))}}},
		{"a top-level attribute beside a member", `SELECT top, m.nested FROM "pqLeaf" WHERE pk = 'a' AND sk = 1`,
			[]item{{"top": S("t"), "nested": S("n")}}},
		{"a member two maps down", `SELECT m.deep.leaf FROM "pqLeaf" WHERE pk = 'a' AND sk = 1`,
			[]item{{"leaf": BOOL(true)}}},
		{"a member the item lacks", `SELECT m.nested FROM "pqLeaf" WHERE pk = 'b' AND sk = 1`,
			[]item{{}}},
		// Query plan: the partition key only.
		{"map member by partition", `SELECT m.nested FROM "pqLeaf" WHERE pk = 'a'`,
			[]item{{"nested": S("n")}}},
		// Scan plan.
		{"map member by scan", `SELECT m.nested FROM "pqLeaf" WHERE top = 't'`,
			[]item{{"nested": S("n")}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := mustQL(t, c, tc.stmt)
			if len(got) != len(tc.want) {
				t.Fatalf("%s: %d items, want %d: %v", tc.stmt, len(got), len(tc.want), got)
			}
			for i := range got {
				itemEqual(t, tc.stmt, got[i], tc.want[i])
			}
		})
	}

	// The same statement in BatchExecuteStatement and ExecuteTransaction.
	const byKey = `SELECT m.a, m.b FROM "pqLeaf" WHERE pk = 'a' AND sk = 1`
	want := item{"a": N("1"), "b": L(S("x"))}
	bo, err := c.BatchExecuteStatement(bg(), &dynamodb.BatchExecuteStatementInput{
		Statements: []types.BatchStatementRequest{{Statement: aws.String(byKey)}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(bo.Responses) != 1 || bo.Responses[0].Error != nil {
		t.Fatalf("BatchExecuteStatement: %+v", bo.Responses)
	}
	itemEqual(t, "BatchExecuteStatement", bo.Responses[0].Item, want)
	to, err := c.ExecuteTransaction(bg(), &dynamodb.ExecuteTransactionInput{
		TransactStatements: []types.ParameterizedStatement{{Statement: aws.String(byKey)}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(to.Responses) != 1 {
		t.Fatalf("ExecuteTransaction: %+v", to.Responses)
	}
	itemEqual(t, "ExecuteTransaction", to.Responses[0].Item, want)
}
