package e2e

import (
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/local"
	"github.com/dynago/dynago/testserver"
)

// Transaction benchmarks through the SDK and the real server on loopback:
//
//	go test ./e2e -run '^$' -bench Transact -benchtime 2s

func benchTable(b *testing.B) local.API {
	b.Helper()
	s := testserver.Start(b)
	_, err := s.API.CreateTable(bg(), &dynamodb.CreateTableInput{
		TableName:            aws.String("bench"),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
	})
	if err != nil {
		b.Fatal(err)
	}
	return s.API
}

// benchTransactWrite runs transactions of n conditional updates on
// distinct items from parallel clients, each on its own items.
func benchTransactWrite(b *testing.B, n int) {
	c := benchTable(b)
	var next atomic.Int64
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		id := strconv.FormatInt(next.Add(1), 10)
		items := make([]types.TransactWriteItem, n)
		for i := range items {
			items[i] = types.TransactWriteItem{Update: &types.Update{
				TableName: aws.String("bench"), Key: item{"pk": S(id + "-" + strconv.Itoa(i))},
				UpdateExpression:          aws.String("ADD n :one"),
				ConditionExpression:       aws.String("attribute_not_exists(n) OR n >= :zero"),
				ExpressionAttributeValues: item{":one": N("1"), ":zero": N("0")},
			}}
		}
		for pb.Next() {
			if _, err := c.TransactWriteItems(bg(), &dynamodb.TransactWriteItemsInput{TransactItems: items}); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "items/s")
}

func BenchmarkTransactWrite2(b *testing.B)  { benchTransactWrite(b, 2) }
func BenchmarkTransactWrite25(b *testing.B) { benchTransactWrite(b, 25) }

// BenchmarkTransactHotItem has every client transfer between one hot item
// and an item of its own: all of them serialise on the hot item's lock.
func BenchmarkTransactHotItem(b *testing.B) {
	c := benchTable(b)
	var next atomic.Int64
	b.RunParallel(func(pb *testing.PB) {
		own := item{"pk": S("own-" + strconv.FormatInt(next.Add(1), 10))}
		items := []types.TransactWriteItem{
			{Update: &types.Update{TableName: aws.String("bench"), Key: item{"pk": S("hot")},
				UpdateExpression: aws.String("ADD n :one"), ExpressionAttributeValues: item{":one": N("1")}}},
			{Update: &types.Update{TableName: aws.String("bench"), Key: own,
				UpdateExpression: aws.String("ADD n :m"), ExpressionAttributeValues: item{":m": N("-1")}}},
		}
		for pb.Next() {
			if _, err := c.TransactWriteItems(bg(), &dynamodb.TransactWriteItemsInput{TransactItems: items}); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// BenchmarkUpdateHotItem is the single-item counterpart: ADD on one item
// from every client.
func BenchmarkUpdateHotItem(b *testing.B) {
	c := benchTable(b)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			_, err := c.UpdateItem(bg(), &dynamodb.UpdateItemInput{TableName: aws.String("bench"), Key: item{"pk": S("hot")},
				UpdateExpression: aws.String("ADD n :one"), ExpressionAttributeValues: item{":one": N("1")}})
			if err != nil {
				b.Error(err)
				return
			}
		}
	})
}
