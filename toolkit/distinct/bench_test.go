package distinct

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/testserver"
)

var benchShape = flag.String("distinct.shape", "1000x1000", "partitions x items per partition of the distinct-keys benchmark table")

// BenchmarkDistinctKeys compares the skip-scan with a full Scan on one
// table (by default 1,000 partitions of 1,000 items of ~100 bytes), both
// with 8 segments, and reports read units and items read per listing.
func BenchmarkDistinctKeys(b *testing.B) {
	var parts, per int
	if _, err := fmt.Sscanf(*benchShape, "%dx%d", &parts, &per); err != nil {
		b.Fatalf("-distinct.shape %q: %v", *benchShape, err)
	}
	s := testserver.Start(b)
	ctx := context.Background()
	_, err := s.Client.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:   aws.String("bench"),
		BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("sk"), AttributeType: types.ScalarAttributeTypeN},
		},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange},
		},
	})
	if err != nil {
		b.Fatal(err)
	}
	pad := &types.AttributeValueMemberS{Value: strings.Repeat("x", 80)}
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var batch []types.WriteRequest
			for p := w; p < parts; p += 8 {
				for i := 0; i < per; i++ {
					batch = append(batch, types.WriteRequest{PutRequest: &types.PutRequest{Item: map[string]types.AttributeValue{
						"pk": &types.AttributeValueMemberS{Value: fmt.Sprintf("p%05d", p)}, "sk": &types.AttributeValueMemberN{Value: fmt.Sprint(i)}, "pad": pad,
					}}})
					if len(batch) == 25 || (p+8 >= parts && i == per-1) {
						if _, err := s.Client.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"bench": batch}}); err != nil {
							b.Error(err)
							return
						}
						batch = nil
					}
				}
			}
		}()
	}
	wg.Wait()
	b.Run("skip-scan", func(b *testing.B) {
		var st Stats
		for i := 0; i < b.N; i++ {
			st, err = List(ctx, s.Client, "bench", Options{Segments: 8, OnKey: func(types.AttributeValue) {}})
			if err != nil || st.Partitions != parts {
				b.Fatalf("%+v %v", st, err)
			}
		}
		b.ReportMetric(st.ReadUnits, "RCU/op")
		b.ReportMetric(float64(st.Pages), "items-read/op")
	})
	b.Run("full-scan", func(b *testing.B) {
		var units float64
		var read int32
		for i := 0; i < b.N; i++ {
			units, read = 0, 0
			var mu sync.Mutex
			var wg sync.WaitGroup
			for seg := int32(0); seg < 8; seg++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					p := dynamodb.NewScanPaginator(s.Client, &dynamodb.ScanInput{TableName: aws.String("bench"), Segment: aws.Int32(seg), TotalSegments: aws.Int32(8), Select: types.SelectCount, ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
					for p.HasMorePages() {
						out, err := p.NextPage(ctx)
						if err != nil {
							b.Error(err)
							return
						}
						mu.Lock()
						units += aws.ToFloat64(out.ConsumedCapacity.CapacityUnits)
						read += out.ScannedCount
						mu.Unlock()
					}
				}()
			}
			wg.Wait()
		}
		b.ReportMetric(units, "RCU/op")
		b.ReportMetric(float64(read), "items-read/op")
	})
}
