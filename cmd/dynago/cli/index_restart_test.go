package cli

import (
	"context"
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/testserver"
)

// TestIndexBackfillAcrossRestart adds a GSI to a populated table through
// the real binary with --data-dir and stops the server with SIGTERM right
// away, most likely while the backfill runs (the engine's
// TestBackfillResumesAfterRestart stops one mid-way deterministically). A
// new server on the directory finishes it: the index turns ACTIVE and
// holds exactly the items it should.
func TestIndexBackfillAcrossRestart(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	p := testserver.StartProcess(t, "--data-dir", dir)
	c := p.Client()
	createTable(t, c, "indexed")
	const n = 4000
	var batch []types.WriteRequest
	flush := func() {
		if len(batch) == 0 {
			return
		}
		if _, err := c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"indexed": batch}}); err != nil {
			t.Fatal(err)
		}
		batch = nil
	}
	for i := range n {
		it := map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: fmt.Sprintf("item-%05d", i)}}
		if i%4 != 0 {
			it["g"] = &types.AttributeValueMemberS{Value: fmt.Sprint("g", i%10)}
		}
		batch = append(batch, types.WriteRequest{PutRequest: &types.PutRequest{Item: it}})
		if len(batch) == 25 {
			flush()
		}
	}
	flush()
	_, err := c.UpdateTable(ctx, &dynamodb.UpdateTableInput{
		TableName:            aws.String("indexed"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("g"), AttributeType: types.ScalarAttributeTypeS}},
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{
			IndexName:  aws.String("byg"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("g"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly},
		}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := p.Wait(t); err != nil {
		t.Fatalf("exit after SIGTERM: %v\n%s", err, p.Log())
	}

	p2 := testserver.StartProcess(t, "--data-dir", dir)
	c2 := p2.Client()
	var d *types.TableDescription
	for range 3000 {
		out, err := c2.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("indexed")})
		if err != nil {
			t.Fatal(err)
		}
		if d = out.Table; d.GlobalSecondaryIndexes[0].IndexStatus == types.IndexStatusActive {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	g := d.GlobalSecondaryIndexes[0]
	if g.IndexStatus != types.IndexStatusActive || *g.ItemCount != n*3/4 {
		t.Fatalf("index after restart: %s, %d items", g.IndexStatus, *g.ItemCount)
	}
	out, err := c2.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("indexed"), IndexName: aws.String("byg"),
		KeyConditionExpression:    aws.String("g = :g"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":g": &types.AttributeValueMemberS{Value: "g3"}},
		Select:                    types.SelectCount})
	if err != nil || out.Count != n/10 {
		t.Fatalf("query after restart: %v, %d items", err, out.Count)
	}
}
