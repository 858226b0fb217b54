package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/testserver"
)

// dynago serve --gsi-lag and --stale-reads reach the engine: with an hour
// of each (and a seed, so the draws are always the same), a GSI Query and
// an eventually consistent GetItem right after a PutItem miss the item, a
// consistent GetItem finds it (docs/REHEARSAL.md, and AWS's read
// consistency guide cited there).
func TestServeGSILagAndStaleReads(t *testing.T) {
	p := testserver.StartProcess(t, "--in-memory", "--gsi-lag", "1h", "--stale-reads", "1h", "--consistency-seed", "1")
	c := p.Client()
	ctx := context.Background()
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:   aws.String("lagged"),
		BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("g"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("byG"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("g"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	key := map[string]types.AttributeValue{"pk": s("a")}
	if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("lagged"),
		Item: map[string]types.AttributeValue{"pk": s("a"), "g": s("x")}}); err != nil {
		t.Fatal(err)
	}
	q, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("lagged"), IndexName: aws.String("byG"),
		KeyConditionExpression: aws.String("g = :g"), ExpressionAttributeValues: map[string]types.AttributeValue{":g": s("x")}})
	if err != nil {
		t.Fatal(err)
	}
	if len(q.Items) != 0 {
		t.Errorf("GSI Query right after the write: %d items, want 0", len(q.Items))
	}
	for _, consistent := range []bool{false, true} {
		g, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("lagged"), Key: key, ConsistentRead: aws.Bool(consistent)})
		if err != nil {
			t.Fatal(err)
		}
		if found := g.Item != nil; found != consistent {
			t.Errorf("GetItem ConsistentRead %v right after the write: found %v, want %v", consistent, found, consistent)
		}
	}
}

func TestServeLagFlags(t *testing.T) {
	var out, errb strings.Builder
	if code := Main([]string{"serve", "--help"}, strings.NewReader(""), &out, &errb); code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"-gsi-lag", "-stale-reads", "-consistency-seed", "dynago:gsi-lag", "dynago:stale-reads"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("serve --help does not mention %q", want)
		}
	}
	for _, flag := range []string{"--gsi-lag", "--stale-reads"} {
		out.Reset()
		errb.Reset()
		code := Main([]string{"serve", "--in-memory", "--port", "0", flag, "-1s"}, strings.NewReader(""), &out, &errb)
		if code == 0 || !strings.Contains(errb.String(), flag) {
			t.Errorf("a negative %s: exit %d, stderr %q", flag, code, errb.String())
		}
	}
}
