package e2e

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// TestVectorIndexReads: Query, Scan and PartiQL refuse a vector index
// ([guide]), with texts captured from DynamoDB: Query's with a final stop
// (2026-08-19), Scan's and PartiQL's SELECT without (2026-08-11)
// ([dynoxide]). An index the table lacks keeps its own text.
func TestVectorIndexReads(t *testing.T) {
	_, c := start(t)
	createVectorTable(t, c, "vread", vix("vix", "emb", 3, "u", "HASH"))
	_, err := c.Query(bg(), &dynamodb.QueryInput{TableName: aws.String("vread"), IndexName: aws.String("vix"),
		KeyConditionExpression: aws.String("u = :v"), ExpressionAttributeValues: item{":v": S("x")}})
	wantValidation(t, err, "Query operation not supported on this index type.")
	_, err = c.Scan(bg(), &dynamodb.ScanInput{TableName: aws.String("vread"), IndexName: aws.String("vix")})
	wantValidation(t, err, "Scan operation not supported on this index type")
	_, err = c.ExecuteStatement(bg(), &dynamodb.ExecuteStatementInput{Statement: aws.String(`SELECT * FROM "vread"."vix"`)})
	wantValidation(t, err, "Scan operation not supported on this index type")
	_, err = c.Scan(bg(), &dynamodb.ScanInput{TableName: aws.String("vread"), IndexName: aws.String("nope")})
	wantValidation(t, err, "The table does not have the specified index: nope")
	// The table itself reads as before, its vectors ordinary lists.
	put(t, c, "vread", item{"pk": S("a"), "u": S("x"), "emb": L(N("1"), N("2"), N("3"))})
	out, err := c.Scan(bg(), &dynamodb.ScanInput{TableName: aws.String("vread")})
	if err != nil || len(out.Items) != 1 {
		t.Fatalf("Scan of the table: %v, %d items", err, len(out.Items))
	}
}
