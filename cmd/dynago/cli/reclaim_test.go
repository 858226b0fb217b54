package cli

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"io/fs"
	"path/filepath"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/testserver"
)

// tableFileBytes sums the sizes of the table files (*.sst) in a data
// directory: where a flushed table's data lives. Log files are left out;
// Pebble keeps a few for reuse, a fixed overhead.
func tableFileBytes(t *testing.T, dir string) int64 {
	t.Helper()
	var n int64
	filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err == nil && e.Type().IsRegular() && filepath.Ext(path) == ".sst" {
			if info, err := e.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}

// waitBelow polls until the data directory's table files hold fewer than
// limit bytes, failing after a minute: the promise is "within a minute on
// an idle server" (in practice it takes a second or two).
func waitBelow(t *testing.T, dir string, limit int64, what string) int64 {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		n := tableFileBytes(t, dir)
		if n < limit {
			return n
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: a minute later the data directory's tables still hold %d bytes (want under %d)", what, n, limit)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// TestDroppedSpaceReturnsWhileIdle fills a table and its index with about
// 24 MB each, then removes the index and the table, writing nothing else:
// each time the disk space comes back without any further write.
func TestDroppedSpaceReturnsWhileIdle(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	p := testserver.StartProcess(t, "--data-dir", dir)
	c := p.Client()
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName: aws.String("big"),
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("g"), AttributeType: types.ScalarAttributeTypeS},
		},
		KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
			IndexName:  aws.String("everything"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("g"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
		}},
		BillingMode: types.BillingModePayPerRequest,
	})
	must(t, err)
	// Random bytes in base64 barely compress.
	raw := make([]byte, 75_000)
	for i := 0; i < 240; i += 4 {
		var reqs []types.WriteRequest
		for k := i; k < i+4; k++ {
			rand.Read(raw)
			reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: map[string]types.AttributeValue{
				"pk": &types.AttributeValueMemberS{Value: fmt.Sprint("item-", k)},
				"g":  &types.AttributeValueMemberS{Value: fmt.Sprint("g", k%10)},
				"v":  &types.AttributeValueMemberS{Value: base64.StdEncoding.EncodeToString(raw)},
			}}})
		}
		out, err := c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"big": reqs}})
		must(t, err)
		if len(out.UnprocessedItems) > 0 {
			t.Fatal("unprocessed items")
		}
	}
	// The memtables are small on disk: most of the 48 MB is flushed to
	// table files by now, or soon.
	full := int64(0)
	for deadline := time.Now().Add(30 * time.Second); full < 32<<20; full = tableFileBytes(t, dir) {
		if time.Now().After(deadline) {
			t.Fatalf("only %d bytes in table files after writing 48 MB", full)
		}
		time.Sleep(100 * time.Millisecond)
	}

	_, err = c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("big"),
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Delete: &types.DeleteGlobalSecondaryIndexAction{IndexName: aws.String("everything")}}}})
	must(t, err)
	half := waitBelow(t, dir, full*3/4, "after deleting the index")

	_, err = c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String("big")})
	must(t, err)
	empty := waitBelow(t, dir, full/8, "after deleting the table")
	t.Logf("table files: %d bytes full, %d without the index, %d without the table", full, half, empty)
	p.Stop(t)
}
