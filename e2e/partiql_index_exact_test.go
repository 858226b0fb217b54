package e2e

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TestPartiQLIndexExact: ExecuteStatement on an index the table does not
// have answers "The table does not have the specified index" without the
// index's name (Query and Scan name it), and does so before it would
// refuse a ConsistentRead on a GSI. paritysuite/dynamodb-conformance,
// tests/tier3/error-messages/indexReads.test.ts (eu-west-1, 2026-09-02):
// "unknown index omits the index name from the message", "unknown index
// wins over the ConsistentRead rejection", "ConsistentRead on a
// GSI-qualified statement: distinct ExecuteStatement wording".
func TestPartiQLIndexExact(t *testing.T) {
	_, c := start(t)
	_, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{
		TableName:   aws.String("qlix"),
		BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("g"), AttributeType: types.ScalarAttributeTypeS},
		},
		KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
			IndexName:  aws.String("gsi1"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("g"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	const noIndex = "The table does not have the specified index"
	for _, tc := range []struct {
		name, stmt string
		consistent bool
		msg        string
	}{
		{"unknown index", `SELECT * FROM "qlix"."no-such-index"`, false, noIndex},
		{"unknown index with a WHERE", `SELECT * FROM "qlix"."no-such-index" WHERE g = 'x'`, false, noIndex},
		{"unknown index before ConsistentRead", `SELECT * FROM "qlix"."no-such-index"`, true, noIndex},
		{"ConsistentRead on a GSI", `SELECT * FROM "qlix"."gsi1"`, true, "Strongly consistent read is not supported on Global Secondary Indexes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.ExecuteStatement(bg(), &dynamodb.ExecuteStatementInput{Statement: aws.String(tc.stmt), ConsistentRead: aws.Bool(tc.consistent)})
			wantValidation(t, err, tc.msg)
		})
	}
	// Query, unlike ExecuteStatement, names the index (as pinned in
	// index_test.go).
	_, err = c.Query(bg(), &dynamodb.QueryInput{TableName: aws.String("qlix"), IndexName: aws.String("no-such-index"),
		KeyConditionExpression: aws.String("g = :g"), ExpressionAttributeValues: item{":g": S("x")}})
	wantValidation(t, err, noIndex+": no-such-index")
}
