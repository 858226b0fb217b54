package e2e

import (
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	st "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"

	"github.com/dynago/dynago/testserver"
)

// BenchmarkGetRecordsSDK reads pages of 1,000 NEW_AND_OLD_IMAGES records
// of about 1 KB items through the SDK's streams client and the real
// server on loopback:
//
//	go test ./e2e -run '^$' -bench GetRecordsSDK -benchtime 2s
func BenchmarkGetRecordsSDK(b *testing.B) {
	s := testserver.Start(b)
	ctx := bg()
	out, err := s.API.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String("bench"),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		StreamSpecification:  &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages},
	})
	if err != nil {
		b.Fatal(err)
	}
	arn := out.TableDescription.LatestStreamArn
	pad := strings.Repeat("x", 1000)
	for i := range 3000 {
		item := map[string]types.AttributeValue{
			"pk":  &types.AttributeValueMemberS{Value: strconv.Itoa(i % 1000)},
			"v":   &types.AttributeValueMemberN{Value: strconv.Itoa(i)},
			"pad": &types.AttributeValueMemberS{Value: pad},
		}
		if _, err := s.API.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("bench"), Item: item}); err != nil {
			b.Fatal(err)
		}
	}
	sc := testserver.NewStreamsClient(s.URL)
	d, err := sc.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: arn})
	if err != nil {
		b.Fatal(err)
	}
	shard := d.StreamDescription.Shards[0].ShardId
	records := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		g, err := sc.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: arn, ShardId: shard, ShardIteratorType: st.ShardIteratorTypeTrimHorizon})
		if err != nil {
			b.Fatal(err)
		}
		r, err := sc.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: g.ShardIterator})
		if err != nil {
			b.Fatal(err)
		}
		records += len(r.Records)
	}
	b.ReportMetric(float64(records)/b.Elapsed().Seconds(), "records/s")
}
