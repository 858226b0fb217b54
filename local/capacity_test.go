package local_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/local"
)

// The recipe of docs/REHEARSAL.md ("test my retry loop against
// throttling"): with WithEnforceCapacity and a clock the test moves, a
// table of one write unit takes one write a second, and a retry loop
// whose backoff moves the clock writes every item.
func TestWithEnforceCapacityRetryLoop(t *testing.T) {
	var now atomic.Int64
	now.Store(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano())
	db := open(t, local.WithEnforceCapacity(func() time.Time { return time.Unix(0, now.Load()) }))
	client := db.Client(func(o *dynamodb.Options) { o.Retryer = aws.NopRetryer{} })
	ctx := context.Background()
	if _, err := client.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:             aws.String("orders"),
		AttributeDefinitions:  []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:             []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
		ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(1), WriteCapacityUnits: aws.Int64(1)},
	}); err != nil {
		t.Fatal(err)
	}
	throttles := 0
	for _, id := range []string{"a", "b", "c"} {
		for {
			_, err := client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("orders"),
				Item: map[string]types.AttributeValue{"id": &types.AttributeValueMemberS{Value: id}}})
			var pe *types.ProvisionedThroughputExceededException
			if errors.As(err, &pe) {
				if len(pe.ThrottlingReasons) != 1 || aws.ToString(pe.ThrottlingReasons[0].Reason) != "TableWriteProvisionedThroughputExceeded" {
					t.Fatalf("reasons %+v", pe.ThrottlingReasons)
				}
				throttles++
				now.Add(int64(time.Second)) // the backoff
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			break
		}
	}
	if throttles != 2 {
		t.Fatalf("%d throttles, want 2 (the second and third writes once each)", throttles)
	}
}
