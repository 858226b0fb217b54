package local_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/local"
	"github.com/dynago/dynago/testserver"
)

// The per-operation benchmarks run the same SDK calls on three paths: the
// direct client of package local (no HTTP stack), the SDK's client on the
// in-process transport, and the SDK's client over TCP to a loopback
// server (testserver). The SDK's clients have retries off, as
// the direct client has. Items are about 1 KB.

// benchPaths returns a client for each path, on a table "Bench" (pk S,
// sk N) whose partition "q" holds 100 items.
func benchPaths(b *testing.B) map[string]local.API {
	db, err := local.Open()
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	paths := map[string]local.API{
		"inprocess": db.Client(func(o *dynamodb.Options) { o.Retryer = aws.NopRetryer{} }),
		"tcp":       testserver.Start(b).Client,
	}
	for _, c := range paths {
		ctx := context.Background()
		if _, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
			TableName: aws.String("Bench"),
			AttributeDefinitions: []types.AttributeDefinition{
				{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
				{AttributeName: aws.String("sk"), AttributeType: types.ScalarAttributeTypeN},
			},
			KeySchema: []types.KeySchemaElement{
				{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash},
				{AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange},
			},
			BillingMode: types.BillingModePayPerRequest,
		}); err != nil {
			b.Fatal(err)
		}
		for i := range 100 {
			if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Bench"), Item: benchItem("q", i)}); err != nil {
				b.Fatal(err)
			}
		}
	}
	paths["direct"] = db.Direct() // the in-process path's database
	return paths
}

var benchPad = strings.Repeat("p", 1000)

func benchItem(pk string, sk int) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{
		"pk":    &types.AttributeValueMemberS{Value: pk},
		"sk":    &types.AttributeValueMemberN{Value: fmt.Sprint(sk)},
		"data":  &types.AttributeValueMemberS{Value: benchPad},
		"count": &types.AttributeValueMemberN{Value: "42"},
	}
}

func forEachPath(b *testing.B, run func(b *testing.B, c local.API)) {
	paths := benchPaths(b)
	for _, name := range []string{"direct", "inprocess", "tcp"} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			cpu := processCPU()
			run(b, paths[name])
			reportCPU(b, cpu)
		})
	}
}

// reportCPU reports the process's CPU time per operation since start
// (both sides of the exchange, and the garbage collector), as cpu-ns/op.
func reportCPU(b *testing.B, start int64) {
	if end := processCPU(); end > 0 && b.N > 0 {
		b.ReportMetric(float64(end-start)/float64(b.N), "cpu-ns/op")
	}
}

func BenchmarkGetItem(b *testing.B) {
	forEachPath(b, func(b *testing.B, c local.API) {
		in := &dynamodb.GetItemInput{TableName: aws.String("Bench"), Key: map[string]types.AttributeValue{
			"pk": &types.AttributeValueMemberS{Value: "q"}, "sk": &types.AttributeValueMemberN{Value: "7"}}}
		for b.Loop() {
			out, err := c.GetItem(context.Background(), in)
			if err != nil || out.Item == nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkPutItem(b *testing.B) {
	forEachPath(b, func(b *testing.B, c local.API) {
		in := &dynamodb.PutItemInput{TableName: aws.String("Bench"), Item: benchItem("p", 1)}
		for b.Loop() {
			if _, err := c.PutItem(context.Background(), in); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkQuery(b *testing.B) {
	forEachPath(b, func(b *testing.B, c local.API) {
		in := &dynamodb.QueryInput{TableName: aws.String("Bench"), Limit: aws.Int32(20),
			KeyConditionExpression:    aws.String("pk = :p"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":p": &types.AttributeValueMemberS{Value: "q"}}}
		for b.Loop() {
			out, err := c.Query(context.Background(), in)
			if err != nil || len(out.Items) != 20 {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkGetItemEngine is GetItem on the engine alone, with the request
// built once: the floor under the direct client, whose own share is the
// difference (converting the key and the item, the output structs).
func BenchmarkGetItemEngine(b *testing.B) {
	db, err := local.Open()
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	c := db.Direct()
	ctx := context.Background()
	if _, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName: aws.String("Bench"),
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("sk"), AttributeType: types.ScalarAttributeTypeN},
		},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange},
		},
		BillingMode: types.BillingModePayPerRequest,
	}); err != nil {
		b.Fatal(err)
	}
	if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Bench"), Item: benchItem("q", 7)}); err != nil {
		b.Fatal(err)
	}
	in := &dynamo.GetItemInput{TableName: "Bench", Key: attr.Item{"pk": attr.S("q"), "sk": {Type: attr.TypeN, S: "7"}}}
	b.ReportAllocs()
	cpu := processCPU()
	for b.Loop() {
		out, err := db.Engine().GetItem(in)
		if err != nil || out.Item == nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpu)
}
