package retrofit

import (
	"context"
	"flag"
	"fmt"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/testserver"
)

var benchItems = flag.Int("retrofit.items", 50_000, "items in the retrofit benchmark table")

// BenchmarkRetrofit retrofits a fresh attribute onto every item of a table
// with 8 segments and no rate limit, and reports items written per second.
func BenchmarkRetrofit(b *testing.B) {
	s := testserver.Start(b)
	ctx := context.Background()
	_, err := s.Client.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String("ResourceAccessAudit"),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
	})
	if err != nil {
		b.Fatal(err)
	}
	n := *benchItems
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var batch []types.WriteRequest
			for i := w; i < n; i += 8 {
				batch = append(batch, types.WriteRequest{PutRequest: &types.PutRequest{Item: map[string]types.AttributeValue{
					"id": s3(fmt.Sprintf("evt-%07d", i)), "resourceId": s3(fmt.Sprintf("res%d", i%97)), "action": s3("viewed"), "accessedBy": s3(fmt.Sprintf("user%d", i%31)),
				}}})
				if len(batch) == 25 || i+8 >= n {
					if _, err := s.Client.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"ResourceAccessAudit": batch}}); err != nil {
						b.Error(err)
						return
					}
					batch = nil
				}
			}
		}()
	}
	wg.Wait()
	b.ResetTimer()
	var written int64
	for i := 0; i < b.N; i++ {
		// A new attribute each round, so every item is written.
		p, err := Run(ctx, s.Client, Options{Table: "ResourceAccessAudit", Attribute: fmt.Sprintf("derived%d", i), Template: auditTemplate, Segments: 8})
		if err != nil || p.Written != int64(n) {
			b.Fatalf("%+v %v", p, err)
		}
		written += p.Written
	}
	b.ReportMetric(float64(written)/b.Elapsed().Seconds(), "items/s")
}

func s3(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
