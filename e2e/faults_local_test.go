package e2e

import (
	"context"
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"github.com/dynago/dynago/engine"
	"github.com/dynago/dynago/faults"
	"github.com/dynago/dynago/local"
	"github.com/dynago/dynago/server"
)

// TestFaultsLocal: package local takes a fault plan in Go (WithFaults,
// DB.SetFaults) and its clients get the faults the server's give over
// the network: DynamoDB's errors, delays, unprocessed batch items, and a
// dropped connection as a transport error (local.ErrDropped), which the
// SDK's retryer retries. The direct client goes through the SDK's path
// while a plan is set, so it gets them too.
func TestFaultsLocal(t *testing.T) {
	plan := &faults.Plan{Seed: 3, Rules: []faults.Rule{
		{Operation: "PutItem", Nth: 2, Fault: faults.InternalServerError},
		{Operation: "GetItem", Nth: 1, Fault: faults.DropConnection},
		{Operation: "Query", Every: 1, Fault: faults.Latency, Latency: faults.Duration(30 * time.Millisecond)},
		{Operation: "BatchWriteItem", Every: 1, Fault: faults.UnprocessedItems, Fraction: 0.5},
		{Operation: "DeleteItem", Nth: 1, Fault: faults.ThrottlingException},
	}}
	var db *local.DB
	m := server.NewMetrics(func() []*engine.DB { return []*engine.DB{db.Engine()} })
	var slept []time.Duration
	db, err := local.Open(local.WithFaults(plan), local.WithServerConfig(func(c *server.Config) {
		c.Metrics = m
		c.FaultSleep = func(_ context.Context, d time.Duration) error { slept = append(slept, d); return nil }
	}))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	c := db.Client(func(o *dynamodb.Options) { o.Retryer = aws.NopRetryer{} })
	createHash(t, c, "loc", types.ScalarAttributeTypeS)

	put(t, c, "loc", item{"pk": S("a")})
	_, err = c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("loc"), Item: item{"pk": S("b")}})
	wantErr(t, err, "InternalServerError", "Internal server error")

	_, err = c.GetItem(bg(), &dynamodb.GetItemInput{TableName: aws.String("loc"), Key: item{"pk": S("a")}})
	var se *smithyhttp.RequestSendError
	if !errors.Is(err, local.ErrDropped) || !errors.As(err, &se) {
		t.Fatalf("GetItem: got %v, want a transport error wrapping local.ErrDropped", err)
	}

	if _, err := c.Query(bg(), &dynamodb.QueryInput{TableName: aws.String("loc"), KeyConditionExpression: aws.String("pk = :k"),
		ExpressionAttributeValues: item{":k": S("a")}}); err != nil {
		t.Fatalf("Query: %v", err)
	}
	if len(slept) != 1 || slept[0] != 30*time.Millisecond {
		t.Fatalf("delays %v, want [30ms]", slept)
	}

	var writes []types.WriteRequest
	for i := range 4 {
		writes = append(writes, types.WriteRequest{PutRequest: &types.PutRequest{Item: item{"pk": S("w" + strconv.Itoa(i))}}})
	}
	out, err := c.BatchWriteItem(bg(), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"loc": writes}})
	if err != nil || len(out.UnprocessedItems["loc"]) != 2 {
		t.Fatalf("BatchWriteItem: %v, %d unprocessed, want 2", err, len(out.UnprocessedItems["loc"]))
	}

	// The direct client meets the plan too.
	_, err = db.Direct().DeleteItem(bg(), &dynamodb.DeleteItemInput{TableName: aws.String("loc"), Key: item{"pk": S("a")}})
	wantErr(t, err, "ThrottlingException", "Rate of requests exceeds the allowed throughput.")
	if get(t, c, "loc", item{"pk": S("a")}) == nil {
		t.Fatal("the throttled DeleteItem deleted its item")
	}

	// The SDK's retryer gets through a dropped connection.
	if err := db.SetFaults(&faults.Plan{Rules: []faults.Rule{{Operation: "GetItem", Nth: 1, Fault: faults.DropConnection}}}); err != nil {
		t.Fatal(err)
	}
	rc := db.Client(func(o *dynamodb.Options) {
		o.Retryer = retry.NewStandard(func(o *retry.StandardOptions) { o.Backoff = noBackoff{}; o.RateLimiter = ratelimit.None })
	})
	if got, err := rc.GetItem(bg(), &dynamodb.GetItemInput{TableName: aws.String("loc"), Key: item{"pk": S("a")}}); err != nil || got.Item == nil {
		t.Fatalf("GetItem through the retryer: %v", err)
	}

	// Without a plan, nothing more is injected.
	if err := db.SetFaults(nil); err != nil || db.Faults() != nil {
		t.Fatalf("SetFaults(nil): %v, plan %v", err, db.Faults())
	}
	if _, err := db.Direct().DeleteItem(bg(), &dynamodb.DeleteItemInput{TableName: aws.String("loc"), Key: item{"pk": S("a")}}); err != nil {
		t.Fatalf("DeleteItem without a plan: %v", err)
	}

	f := &faultServer{metrics: m}
	for _, w := range []struct {
		op, fault string
		n         float64
	}{{"PutItem", "InternalServerError", 1}, {"GetItem", "DropConnection", 2}, {"Query", "Latency", 1},
		{"BatchWriteItem", "UnprocessedItems", 1}, {"DeleteItem", "ThrottlingException", 1}} {
		if got := f.injected(t, w.op, "loc", w.fault); got != w.n {
			t.Errorf("dynago_faults_injected_total{operation=%q,fault=%q} = %v, want %v", w.op, w.fault, got, w.n)
		}
	}
}

// TestFaultsLocalRefused: a plan local cannot follow is refused by Open.
func TestFaultsLocalRefused(t *testing.T) {
	_, err := local.Open(local.WithFaults(&faults.Plan{Rules: []faults.Rule{{Operation: "Scna", Every: 1, Fault: faults.InternalServerError}}}))
	if err == nil || err.Error() != `fault plan: rule 1: Operation "Scna" is not an operation dynago serves` {
		t.Fatalf("got %v", err)
	}
}
