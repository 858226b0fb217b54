package cli

import (
	"context"
	"fmt"
	"sort"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/testserver"
)

// TestCrashKeepsVectorEntries acknowledges puts of items with vectors,
// kills the server with SIGKILL right after the last answer, restarts it
// on its directory and searches the vector index: every acknowledged
// item is found, its entry having been committed in the same batch as
// the item.
func TestCrashKeepsVectorEntries(t *testing.T) {
	for _, mode := range durabilityModes {
		t.Run(mode.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			ctx := context.Background()
			p := testserver.StartProcess(t, append([]string{"--data-dir", dir}, mode.flags...)...)
			c := p.Client()
			_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
				TableName:            aws.String("vcrash"),
				BillingMode:          types.BillingModePayPerRequest,
				AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
				KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
				VectorIndexes: []types.VectorIndex{{IndexName: aws.String("vec1"),
					VectorAttribute: &types.VectorAttributeDefinition{AttributeName: aws.String("emb")},
					Dimensions:      aws.Int64(2), DistanceFunction: types.VectorDistanceFunctionEuclidean,
					Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}}},
			})
			must(t, err)
			var want []string
			for i := range 20 {
				pk := fmt.Sprintf("k%02d", i)
				_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("vcrash"), Item: map[string]types.AttributeValue{
					"pk":  &types.AttributeValueMemberS{Value: pk},
					"emb": &types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberN{Value: fmt.Sprint(i)}, &types.AttributeValueMemberN{Value: "0"}}},
				}})
				must(t, err)
				want = append(want, pk)
			}
			must(t, p.Cmd.Process.Signal(syscall.SIGKILL))
			p.Wait(t)

			p = testserver.StartProcess(t, "--data-dir", dir)
			c = p.Client()
			var out *dynamodb.SearchVectorsOutput
			// The index may still show as being created after the
			// restart: wait for it to be searchable.
			for deadline := time.Now().Add(30 * time.Second); ; {
				out, err = c.SearchVectors(ctx, &dynamodb.SearchVectorsInput{TableName: aws.String("vcrash"), IndexName: aws.String("vec1"),
					SearchVector: []types.AttributeValue{&types.AttributeValueMemberN{Value: "0"}, &types.AttributeValueMemberN{Value: "0"}},
					TopK:         aws.Int32(100)})
				if err == nil || time.Now().After(deadline) {
					break
				}
				time.Sleep(20 * time.Millisecond)
			}
			must(t, err)
			var got []string
			for _, r := range out.SearchResults {
				got = append(got, r.Item["pk"].(*types.AttributeValueMemberS).Value)
			}
			sort.Strings(got)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("after the kill the index holds %v, want %v", got, want)
			}
			p.Stop(t)
		})
	}
}
