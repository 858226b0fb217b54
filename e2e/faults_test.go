package e2e

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"github.com/dynago/dynago/engine"
	"github.com/dynago/dynago/internal/sdkhttp"
	"github.com/dynago/dynago/server"
	"github.com/dynago/dynago/testserver"
)

// Faults injected on purpose (docs/REHEARSAL.md): a fault plan given to
// the server through /dynago/faults, answered as DynamoDB answers each
// fault, repeatable by its seed, counted in /metrics. These tests talk to
// the server over TCP (the plan is the HTTP handler's), and through
// package local in local_faults_test.go... see TestFaultsLocal.

// faultServer is a test server with metrics and a recorder of the delays
// of Latency faults, which it does not take.
type faultServer struct {
	*testserver.Server
	metrics *server.Metrics
	mu      sync.Mutex
	delays  []time.Duration
}

func startFaults(t *testing.T) *faultServer {
	t.Helper()
	needsWire(t)
	f := &faultServer{}
	f.metrics = server.NewMetrics(func() []*engine.DB { return []*engine.DB{f.DB} })
	f.Server = testserver.Start(t, func(_ *engine.Options, c *server.Config) {
		c.Metrics = f.metrics
		c.FaultSleep = func(_ context.Context, d time.Duration) error {
			f.mu.Lock()
			f.delays = append(f.delays, d)
			f.mu.Unlock()
			return nil
		}
	})
	return f
}

// admin sends a request to the fault plan endpoint and returns its status
// and body.
func (f *faultServer) admin(t *testing.T, method, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, f.URL+"/dynago/faults", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s /dynago/faults: %v", method, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// setPlan sets the server's fault plan (its counts from zero).
func (f *faultServer) setPlan(t *testing.T, plan string) {
	t.Helper()
	if status, body := f.admin(t, http.MethodPost, plan); status != http.StatusOK {
		t.Fatalf("POST /dynago/faults: %d %s", status, body)
	}
}

// injected is dynago_faults_injected_total's value for the labels (a
// label "" matches any), summed.
func (f *faultServer) injected(t *testing.T, op, table, fault string) float64 {
	t.Helper()
	mfs, err := f.metrics.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for _, mf := range mfs {
		if mf.GetName() != "dynago_faults_injected_total" {
			continue
		}
	next:
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				want := map[string]string{"operation": op, "table": table, "fault": fault}[l.GetName()]
				if want != "" && l.GetValue() != want {
					continue next
				}
			}
			sum += m.GetCounter().GetValue()
		}
	}
	return sum
}

// faultSeries reports whether /metrics has any dynago_faults_injected_total
// series at all.
func faultSeries(t *testing.T, m *server.Metrics) bool {
	t.Helper()
	mfs, err := m.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() == "dynago_faults_injected_total" && len(mf.GetMetric()) > 0 {
			return true
		}
	}
	return false
}

// noBackoff retries at once: the tests count attempts, not time.
type noBackoff struct{}

func (noBackoff) BackoffDelay(int, error) (time.Duration, error) { return 0, nil }

// faultRetryingClient is an SDK client for url with the SDK's standard
// retryer (its retryable errors and codes) taking up to attempts
// attempts, without waiting between them and without the retry quota.
func faultRetryingClient(url string, attempts int) *dynamodb.Client {
	return dynamodb.New(dynamodb.Options{
		Region:       testserver.Region,
		BaseEndpoint: aws.String(url),
		Credentials:  credentials.NewStaticCredentialsProvider("AKIDTEST", "SECRETTEST", ""),
		HTTPClient:   sdkhttp.Client{},
		Retryer: retry.NewStandard(func(o *retry.StandardOptions) {
			o.MaxAttempts = attempts
			o.Backoff = noBackoff{}
			o.RateLimiter = ratelimit.None
		}),
	})
}

// faultOutcome says how a call ended as the SDK reports it: "ok", the error
// code, message and HTTP status, an HTTP status the SDK could not decode
// a body for, or "transport" for a connection that gave no answer.
func faultOutcome(err error) string {
	if err == nil {
		return "ok"
	}
	status := 0
	var re *awshttp.ResponseError
	if errors.As(err, &re) {
		status = re.HTTPStatusCode()
	}
	var ae smithy.APIError
	if errors.As(err, &ae) {
		return fmt.Sprintf("%d %s: %s", status, ae.ErrorCode(), ae.ErrorMessage())
	}
	var se *smithyhttp.RequestSendError
	if errors.As(err, &se) {
		return "transport"
	}
	if status != 0 {
		return fmt.Sprintf("%d undecodable", status)
	}
	return "other: " + err.Error()
}

// faultCalls makes a fixed sequence of calls on table "fff" and lists how
// each ended.
func faultCalls(t *testing.T, c *dynamodb.Client) []string {
	t.Helper()
	var got []string
	for i := range 40 {
		k := item{"pk": S("k" + strconv.Itoa(i%7))}
		var err error
		switch i % 3 {
		case 0:
			_, err = c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("fff"), Item: item{"pk": k["pk"], "n": N(strconv.Itoa(i))}})
		case 1:
			_, err = c.GetItem(bg(), &dynamodb.GetItemInput{TableName: aws.String("fff"), Key: k})
		case 2:
			_, err = c.Query(bg(), &dynamodb.QueryInput{TableName: aws.String("fff"), KeyConditionExpression: aws.String("pk = :k"),
				ExpressionAttributeValues: item{":k": k["pk"]}})
		}
		got = append(got, faultOutcome(err))
	}
	return got
}

// repeatPlan mixes probabilities, an every-Nth rule and a dropped
// connection.
const repeatPlan = `{"Seed": 42, "Rules": [
	{"Operation": "PutItem", "Every": 5, "Fault": "ProvisionedThroughputExceededException"},
	{"Operation": "GetItem", "Probability": 0.3, "Fault": "ThrottlingException"},
	{"Operation": "Query", "Probability": 0.2, "Fault": "DropConnection"},
	{"Probability": 0.2, "Fault": "InternalServerError"}
]}`

// TestFaultsRepeatable: the same plan and seed over the same calls give
// the same faults, on two servers; another seed gives others.
func TestFaultsRepeatable(t *testing.T) {
	run := func(plan string) []string {
		f := startFaults(t)
		createHash(t, f.Client, "fff", types.ScalarAttributeTypeS)
		f.setPlan(t, plan)
		return faultCalls(t, f.Client)
	}
	first, second := run(repeatPlan), run(repeatPlan)
	deepEqual(t, "outcomes of the second run", second, first)
	kinds := map[string]bool{}
	for _, o := range first {
		kinds[strings.SplitN(o, ":", 2)[0]] = true
	}
	for _, want := range []string{"ok", "400 ProvisionedThroughputExceededException", "400 ThrottlingException", "transport", "500 InternalServerError"} {
		if !kinds[want] {
			t.Errorf("no %q among the outcomes %q", want, first)
		}
	}
	other := run(strings.Replace(repeatPlan, `"Seed": 42`, `"Seed": 43`, 1))
	if strings.Join(other, "\n") == strings.Join(first, "\n") {
		t.Errorf("seeds 42 and 43 gave the same outcomes %q", first)
	}
}

// TestFaultsRetriedBySDK: the SDK's standard retryer gets every call
// through a plan failing half the requests with InternalServerError
// (which the SDKs retry: AWS's developer guide, "Error retries and
// exponential backoff", retries 5xx answers), and the writes are all
// there once, afterwards.
func TestFaultsRetriedBySDK(t *testing.T) {
	f := startFaults(t)
	createHash(t, f.Client, "rrr", types.ScalarAttributeTypeS)
	f.setPlan(t, `{"Seed": 7, "Rules": [{"Probability": 0.5, "Fault": "InternalServerError"}]}`)
	c := faultRetryingClient(f.URL, 12)
	for i := range 30 {
		_, err := c.UpdateItem(bg(), &dynamodb.UpdateItemInput{TableName: aws.String("rrr"), Key: item{"pk": S("k" + strconv.Itoa(i))},
			UpdateExpression: aws.String("ADD n :one"), ExpressionAttributeValues: item{":one": N("1")}})
		if err != nil {
			t.Fatalf("UpdateItem %d through the retryer: %v", i, err)
		}
	}
	failed := f.injected(t, "UpdateItem", "rrr", "InternalServerError")
	if failed < 10 {
		t.Fatalf("%v requests failed on purpose, want about half of the attempts", failed)
	}
	f.setPlan(t, `{"Rules": []}`)
	for i := range 30 {
		// Each ADD ran once: a request answered with the fault applied
		// nothing.
		if got := get(t, f.Client, "rrr", item{"pk": S("k" + strconv.Itoa(i))}); render(got["n"]) != render(N("1")) {
			t.Fatalf("item %d: n = %s, want 1", i, render(got["n"]))
		}
	}
}

// TestFaultErrorShapes: each fault as DynamoDB answers it, as the SDK
// parses it, and nothing of the request applied.
func TestFaultErrorShapes(t *testing.T) {
	f := startFaults(t)
	createHash(t, f.Client, "eee", types.ScalarAttributeTypeS)
	put(t, f.Client, "eee", item{"pk": S("a")})
	key := item{"pk": S("a")}
	transact := func() error {
		_, err := f.Client.TransactWriteItems(bg(), &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
			{Put: &types.Put{TableName: aws.String("eee"), Item: item{"pk": S("t1")}}},
			{Put: &types.Put{TableName: aws.String("eee"), Item: item{"pk": S("t2")}}},
		}})
		return err
	}
	cases := []struct {
		name, fault, op string
		call            func() error
		want            string
		// sdkType checks the SDK's modelled error type, when it has one.
		sdkType func(error) bool
		// unapplied, for a write, checks that the failed call applied
		// nothing.
		unapplied func() bool
	}{
		// HTTP 500, "Internal server error": recorded from DynamoDB in
		// github.com/Sleavely/dynamo-plus issue #16 and
		// github.com/aws/aws-sdk-js issue #3891.
		{"InternalServerError", "InternalServerError", "GetItem",
			func() error {
				_, err := f.Client.GetItem(bg(), &dynamodb.GetItemInput{TableName: aws.String("eee"), Key: key})
				return err
			},
			"500 InternalServerError: Internal server error",
			func(err error) bool { var e *types.InternalServerError; return errors.As(err, &e) }, nil},
		// HTTP 400 with the text of AWS's developer guide ("Error
		// messages and codes"), ThrottlingException.
		{"ThrottlingException", "ThrottlingException", "PutItem",
			func() error {
				_, err := f.Client.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("eee"), Item: item{"pk": S("throttled")}})
				return err
			},
			"400 ThrottlingException: Rate of requests exceeds the allowed throughput.", nil,
			func() bool { return get(t, f.Client, "eee", item{"pk": S("throttled")}) == nil }},
		// HTTP 400, recorded from DynamoDB in github.com/mifi/dynamodump
		// issue #20 and github.com/quintilesims/layer0 issue #229.
		{"ProvisionedThroughputExceededException", "ProvisionedThroughputExceededException", "PutItem",
			func() error {
				_, err := f.Client.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("eee"), Item: item{"pk": S("exceeded")}})
				return err
			},
			"400 ProvisionedThroughputExceededException: The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API.",
			func(err error) bool { var e *types.ProvisionedThroughputExceededException; return errors.As(err, &e) },
			func() bool { return get(t, f.Client, "eee", item{"pk": S("exceeded")}) == nil }},
		// HTTP 400, the text of AWS's developer guide ("Error messages
		// and codes"); no raw answer was found recorded.
		{"RequestLimitExceeded", "RequestLimitExceeded", "Scan",
			func() error {
				_, err := f.Client.Scan(bg(), &dynamodb.ScanInput{TableName: aws.String("eee")})
				return err
			},
			"400 RequestLimitExceeded: Throughput exceeds the current throughput limit for your account. To request a limit increase, contact AWS Support at https://aws.amazon.com/support.",
			func(err error) bool { var e *types.RequestLimitExceeded; return errors.As(err, &e) }, nil},
		// A single-item write meeting a transaction: TransactionConflict-
		// Exception (AWS's developer guide, "Transaction conflict
		// handling in DynamoDB"), with the TransactionConflict reason's
		// text of the TransactWriteItems reference.
		{"TransactionConflictException", "TransactionConflictException", "UpdateItem",
			func() error {
				_, err := f.Client.UpdateItem(bg(), &dynamodb.UpdateItemInput{TableName: aws.String("eee"), Key: key,
					UpdateExpression: aws.String("SET x = :x"), ExpressionAttributeValues: item{":x": S("conflicted")}})
				return err
			},
			"400 TransactionConflictException: Transaction is ongoing for the item",
			func(err error) bool { var e *types.TransactionConflictException; return errors.As(err, &e) },
			func() bool { return get(t, f.Client, "eee", key)["x"] == nil }},
		// A transaction meeting another: TransactionCanceledException
		// with a TransactionConflict reason (same sources).
		{"TransactionCanceled", "TransactionConflictException", "TransactWriteItems", transact,
			"400 TransactionCanceledException: Transaction cancelled, please refer cancellation reasons for specific reasons [",
			func(err error) bool {
				var e *types.TransactionCanceledException
				if !errors.As(err, &e) || len(e.CancellationReasons) != 2 {
					return false
				}
				conflicts := 0
				for _, r := range e.CancellationReasons {
					switch aws.ToString(r.Code) {
					case "TransactionConflict":
						conflicts++
						if aws.ToString(r.Message) != "Transaction is ongoing for the item" {
							return false
						}
					case "None":
					default:
						return false
					}
				}
				return conflicts == 1
			},
			func() bool {
				return get(t, f.Client, "eee", item{"pk": S("t1")}) == nil && get(t, f.Client, "eee", item{"pk": S("t2")}) == nil
			}},
		// HTTP 503 with the HTML page DynamoDB's front end sends
		// (github.com/aws/aws-sdk-ruby issue #1713): the SDK has a 503
		// it cannot decode, which its retryer retries for the status.
		{"ServiceUnavailable", "ServiceUnavailable", "GetItem",
			func() error {
				_, err := f.Client.GetItem(bg(), &dynamodb.GetItemInput{TableName: aws.String("eee"), Key: key})
				return err
			},
			"503 undecodable", nil, nil},
		// A connection closed without an answer: a transport error.
		{"DropConnection", "DropConnection", "DeleteItem",
			func() error {
				_, err := f.Client.DeleteItem(bg(), &dynamodb.DeleteItemInput{TableName: aws.String("eee"), Key: key})
				return err
			},
			"transport", nil,
			func() bool { return get(t, f.Client, "eee", key) != nil }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f.setPlan(t, `{"Rules": [{"Operation": "`+c.op+`", "Nth": 1, "Fault": "`+c.fault+`"}]}`)
			err := c.call()
			if got := faultOutcome(err); !strings.HasPrefix(got, c.want) {
				t.Fatalf("got %s\nwant %s", got, c.want)
			}
			if c.sdkType != nil && !c.sdkType(err) {
				t.Fatalf("the SDK's error %#v is not the modelled one", err)
			}
			if c.unapplied != nil && !c.unapplied() {
				t.Fatal("the failed call applied its write")
			}
			if n := f.injected(t, c.op, "eee", c.fault); n != 1 {
				t.Fatalf("dynago_faults_injected_total{operation=%q,table=\"eee\",fault=%q} = %v, want 1", c.op, c.fault, n)
			}
			// The plan's one fault is spent: the same call now runs.
			if err := c.call(); err != nil {
				t.Fatalf("the call after the fault: %v", err)
			}
		})
	}
}

// TestFaultServiceUnavailableWire: the 503's bytes.
func TestFaultServiceUnavailableWire(t *testing.T) {
	f := startFaults(t)
	createHash(t, f.Client, "www", types.ScalarAttributeTypeS)
	f.setPlan(t, `{"Rules": [{"Every": 1, "Fault": "ServiceUnavailable"}]}`)
	res := f.Raw(t, "GetItem", `{"TableName":"www","Key":{"pk":{"S":"a"}}}`)
	if res.Status != http.StatusServiceUnavailable || string(res.Body) != "<html><body><b>Http/1.1 Service Unavailable</b></body> </html>" {
		t.Fatalf("got %d %q", res.Status, res.Body)
	}
	// The SDK's retryer retries a 503 for its status, until its attempts
	// run out.
	_, err := faultRetryingClient(f.URL, 3).GetItem(bg(), &dynamodb.GetItemInput{TableName: aws.String("www"), Key: item{"pk": S("a")}})
	if !strings.Contains(fmt.Sprint(err), "exceeded maximum number of attempts, 3") {
		t.Fatalf("got %v, want the retryer to give up after 3 attempts", err)
	}
	if n := f.injected(t, "GetItem", "www", "ServiceUnavailable"); n != 4 {
		t.Fatalf("%v faults counted, want 4", n)
	}
}

// TestFaultNthRules: Nth, Every and table filters count the calls their
// rule applies to.
func TestFaultNthRules(t *testing.T) {
	cases := []struct {
		name, rule string
		// want lists the calls (from 1) that fail, of six PutItems on
		// table "aaa" alternating with six on table "bbb".
		wantA, wantB []int
	}{
		{"Nth", `{"Operation": "PutItem", "Nth": 3, "Fault": "InternalServerError"}`, []int{2}, nil},
		{"Every", `{"Operation": "PutItem", "Table": "aaa", "Every": 2, "Fault": "InternalServerError"}`, []int{2, 4, 6}, nil},
		{"Nth of table b", `{"Table": "bbb", "Nth": 2, "Fault": "InternalServerError"}`, nil, []int{2}},
		{"other operation", `{"Operation": "GetItem", "Every": 1, "Fault": "InternalServerError"}`, nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := startFaults(t)
			createHash(t, f.Client, "aaa", types.ScalarAttributeTypeS)
			createHash(t, f.Client, "bbb", types.ScalarAttributeTypeS)
			f.setPlan(t, `{"Rules": [`+c.rule+`]}`)
			var gotA, gotB []int
			for i := 1; i <= 6; i++ {
				for _, tb := range []string{"aaa", "bbb"} {
					_, err := f.Client.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String(tb), Item: item{"pk": S(strconv.Itoa(i))}})
					if err == nil {
						continue
					}
					wantErr(t, err, "InternalServerError", "Internal server error")
					if tb == "aaa" {
						gotA = append(gotA, i)
					} else {
						gotB = append(gotB, i)
					}
				}
			}
			deepEqual(t, "failed calls on a", gotA, c.wantA)
			deepEqual(t, "failed calls on b", gotB, c.wantB)
			if n := f.injected(t, "", "", ""); n != float64(len(c.wantA)+len(c.wantB)) {
				t.Fatalf("%v faults counted, want %d", n, len(c.wantA)+len(c.wantB))
			}
		})
	}
}

// TestFaultUnprocessed: a batch run in part returns the rest in
// UnprocessedItems or UnprocessedKeys, as DynamoDB does under throttling
// (AWS's developer guide, "Batch operations and error handling"), and
// the client's loop sending them again finishes the work.
func TestFaultUnprocessed(t *testing.T) {
	f := startFaults(t)
	createHash(t, f.Client, "uuu", types.ScalarAttributeTypeS)
	createHash(t, f.Client, "vvv", types.ScalarAttributeTypeS)
	f.setPlan(t, `{"Seed": 1, "Rules": [
		{"Operation": "BatchWriteItem", "Every": 1, "Fault": "UnprocessedItems", "Fraction": 0.5},
		{"Operation": "BatchGetItem", "Every": 1, "Fault": "UnprocessedKeys", "Fraction": 0.5}]}`)
	var writes []types.WriteRequest
	var keys []item
	for i := range 10 {
		k := item{"pk": S(fmt.Sprintf("k%02d", i))}
		keys = append(keys, k)
		writes = append(writes, types.WriteRequest{PutRequest: &types.PutRequest{Item: item{"pk": k["pk"], "n": N(strconv.Itoa(i))}}})
	}
	pending := map[string][]types.WriteRequest{"uuu": writes, "vvv": writes[:4]}
	var firstUnprocessed int
	for round := 0; len(pending) > 0; round++ {
		if round > 20 {
			t.Fatal("BatchWriteItem never finished")
		}
		out, err := f.Client.BatchWriteItem(bg(), &dynamodb.BatchWriteItemInput{RequestItems: pending})
		if err != nil {
			t.Fatalf("BatchWriteItem: %v", err)
		}
		n := 0
		for _, reqs := range out.UnprocessedItems {
			n += len(reqs)
		}
		if round == 0 {
			firstUnprocessed = n
		}
		pending = out.UnprocessedItems
	}
	if firstUnprocessed != 7 {
		t.Fatalf("%d of 14 writes unprocessed by the first call, want 7 (half)", firstUnprocessed)
	}
	for i, k := range keys {
		if got := get(t, f.Client, "uuu", k); render(got["n"]) != render(N(strconv.Itoa(i))) {
			t.Fatalf("u item %d: %v", i, got)
		}
	}
	read := map[string]bool{}
	reqs := map[string]types.KeysAndAttributes{"uuu": {Keys: keys, ConsistentRead: aws.Bool(true)}}
	for round := 0; len(reqs) > 0; round++ {
		if round > 20 {
			t.Fatal("BatchGetItem never finished")
		}
		out, err := f.Client.BatchGetItem(bg(), &dynamodb.BatchGetItemInput{RequestItems: reqs})
		if err != nil {
			t.Fatalf("BatchGetItem: %v", err)
		}
		if round == 0 && (len(out.Responses["uuu"]) != 5 || len(out.UnprocessedKeys["uuu"].Keys) != 5) {
			t.Fatalf("first BatchGetItem: %d items and %d keys unprocessed, want 5 and 5", len(out.Responses["uuu"]), len(out.UnprocessedKeys["uuu"].Keys))
		}
		if u, ok := out.UnprocessedKeys["uuu"]; ok && !aws.ToBool(u.ConsistentRead) {
			t.Fatal("UnprocessedKeys lost the request's ConsistentRead")
		}
		for _, it := range out.Responses["uuu"] {
			read[render(it["pk"])] = true
		}
		reqs = out.UnprocessedKeys
	}
	if len(read) != 10 {
		t.Fatalf("read %d of 10 items", len(read))
	}
	if f.injected(t, "BatchWriteItem", "", "UnprocessedItems") < 1 || f.injected(t, "BatchGetItem", "uuu", "UnprocessedKeys") < 1 {
		t.Fatal("the batches' faults were not counted")
	}
}

// TestFaultDropConnection: a connection cut without an answer is a
// transport error, which the SDK's retryer retries; the request applied
// nothing, so the retried write lands once.
func TestFaultDropConnection(t *testing.T) {
	f := startFaults(t)
	createHash(t, f.Client, "ddd", types.ScalarAttributeTypeS)
	f.setPlan(t, `{"Rules": [{"Operation": "UpdateItem", "Nth": 1, "Fault": "DropConnection"}]}`)
	_, err := faultRetryingClient(f.URL, 3).UpdateItem(bg(), &dynamodb.UpdateItemInput{TableName: aws.String("ddd"), Key: item{"pk": S("a")},
		UpdateExpression: aws.String("ADD n :one"), ExpressionAttributeValues: item{":one": N("1")}})
	if err != nil {
		t.Fatalf("UpdateItem through the retryer: %v", err)
	}
	if got := get(t, f.Client, "ddd", item{"pk": S("a")}); render(got["n"]) != render(N("1")) {
		t.Fatalf("n = %s, want 1", render(got["n"]))
	}
	if n := f.injected(t, "UpdateItem", "ddd", "DropConnection"); n != 1 {
		t.Fatalf("%v dropped connections counted, want 1", n)
	}
}

// TestFaultLatency: a Latency fault delays the request by a duration of
// its range, drawn from the seed (the server is given a sleep that
// records the delay instead of taking it), and the request then runs.
func TestFaultLatency(t *testing.T) {
	run := func() []time.Duration {
		f := startFaults(t)
		createHash(t, f.Client, "lll", types.ScalarAttributeTypeS)
		f.setPlan(t, `{"Seed": 5, "Rules": [{"Operation": "PutItem", "Every": 2, "Fault": "Latency", "Latency": "20ms", "LatencyMax": "80ms"}]}`)
		for i := range 10 {
			put(t, f.Client, "lll", item{"pk": S(strconv.Itoa(i))})
		}
		if n := f.injected(t, "PutItem", "lll", "Latency"); n != 5 {
			t.Fatalf("%v delays counted, want 5", n)
		}
		return f.delays
	}
	first := run()
	if len(first) != 5 {
		t.Fatalf("%d delays, want 5 (every second call)", len(first))
	}
	for _, d := range first {
		if d < 20*time.Millisecond || d > 80*time.Millisecond {
			t.Fatalf("delay %v outside 20ms..80ms", d)
		}
	}
	deepEqual(t, "delays of the second run", run(), first)
}

// TestFaultAdmin: the plan endpoint reads, sets and clears the plan, and
// refuses a plan it cannot follow with a ValidationException.
func TestFaultAdmin(t *testing.T) {
	f := startFaults(t)
	if status, body := f.admin(t, http.MethodGet, ""); status != 200 || body != "{}" {
		t.Fatalf("GET without a plan: %d %s", status, body)
	}
	bad := []struct{ plan, msg string }{
		{`{"Rules": [{"Fault": "Boom", "Every": 1}]}`, `Fault \"Boom\" is none of`},
		{`{"Rules": [{"Operation": "PutIt", "Every": 1, "Fault": "InternalServerError"}]}`, `Operation \"PutIt\" is not an operation dynago serves`},
		{`{"Rules": [{"Fault": "InternalServerError"}]}`, "exactly one of Probability, Every and Nth"},
		{`{"Rules": [], "Sed": 1}`, "unknown field"},
	}
	for _, b := range bad {
		status, body := f.admin(t, http.MethodPost, b.plan)
		if status != 400 || !strings.Contains(body, "ValidationException") || !strings.Contains(body, b.msg) {
			t.Errorf("POST %s: %d %s, want 400 ValidationException containing %s", b.plan, status, body, b.msg)
		}
	}
	f.setPlan(t, `{"Seed": 9, "Rules": [{"Operation": "GetItem", "Nth": 2, "Fault": "InternalServerError"}]}`)
	if status, body := f.admin(t, http.MethodGet, ""); status != 200 || body != `{"Seed":9,"Rules":[{"Operation":"GetItem","Nth":2,"Fault":"InternalServerError"}]}` {
		t.Fatalf("GET: %d %s", status, body)
	}
	if status, body := f.admin(t, http.MethodDelete, ""); status != 200 || body != "{}" {
		t.Fatalf("DELETE: %d %s", status, body)
	}
	if status, body := f.admin(t, http.MethodGet, ""); status != 200 || body != "{}" {
		t.Fatalf("GET after DELETE: %d %s", status, body)
	}
}

// TestNoFaultsByDefault: a server started without the fault flags
// (dynago serve --in-memory, as a process) never fails, throttles,
// delays or cuts a request on purpose: a burst of mixed calls on a
// provisioned table of one read and one write unit, far past what
// DynamoDB would let through (AWS's developer guide: a provisioned
// table's excess requests are throttled), all succeed whole; no fault is
// logged or counted, and the plan endpoint says there is none.
func TestNoFaultsByDefault(t *testing.T) {
	needsWire(t)
	p := testserver.StartProcess(t, "--in-memory")
	c := p.Client()
	if _, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{
		TableName:             aws.String("tiny"),
		AttributeDefinitions:  []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:             []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(1), WriteCapacityUnits: aws.Int64(1)},
	}); err != nil {
		t.Fatal(err)
	}
	for i := range 300 {
		k := item{"pk": S("k" + strconv.Itoa(i%40))}
		var err error
		switch i % 8 {
		case 0:
			_, err = c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("tiny"), Item: item{"pk": k["pk"], "n": N(strconv.Itoa(i))}})
		case 1:
			_, err = c.GetItem(bg(), &dynamodb.GetItemInput{TableName: aws.String("tiny"), Key: k, ConsistentRead: aws.Bool(true)})
		case 2:
			_, err = c.UpdateItem(bg(), &dynamodb.UpdateItemInput{TableName: aws.String("tiny"), Key: k,
				UpdateExpression: aws.String("ADD c :one"), ExpressionAttributeValues: item{":one": N("1")}})
		case 3:
			_, err = c.Query(bg(), &dynamodb.QueryInput{TableName: aws.String("tiny"), KeyConditionExpression: aws.String("pk = :k"),
				ExpressionAttributeValues: item{":k": k["pk"]}})
		case 4:
			_, err = c.Scan(bg(), &dynamodb.ScanInput{TableName: aws.String("tiny")})
		case 5:
			var w []types.WriteRequest
			for j := range 25 {
				w = append(w, types.WriteRequest{PutRequest: &types.PutRequest{Item: item{"pk": S("b" + strconv.Itoa(j)), "i": N(strconv.Itoa(i))}}})
			}
			var out *dynamodb.BatchWriteItemOutput
			if out, err = c.BatchWriteItem(bg(), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"tiny": w}}); err == nil && len(out.UnprocessedItems) != 0 {
				t.Fatalf("call %d: BatchWriteItem left %v unprocessed", i, out.UnprocessedItems)
			}
		case 6:
			var keys []item
			for j := range 25 {
				keys = append(keys, item{"pk": S("b" + strconv.Itoa(j))})
			}
			var out *dynamodb.BatchGetItemOutput
			if out, err = c.BatchGetItem(bg(), &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{"tiny": {Keys: keys}}}); err == nil && len(out.UnprocessedKeys) != 0 {
				t.Fatalf("call %d: BatchGetItem left %v unprocessed", i, out.UnprocessedKeys)
			}
		case 7:
			_, err = c.TransactWriteItems(bg(), &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
				{Update: &types.Update{TableName: aws.String("tiny"), Key: k, UpdateExpression: aws.String("ADD t :one"), ExpressionAttributeValues: item{":one": N("1")}}},
			}})
		}
		if err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
	}
	res, err := http.Get(p.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	for _, line := range strings.Split(string(body), "\n") {
		if strings.HasPrefix(line, "dynago_faults_injected_total") ||
			strings.HasPrefix(line, "dynago_requests_total{") && !strings.Contains(line, `outcome="ok"`) ||
			strings.HasPrefix(line, "dynago_throttled_requests_total ") && line != "dynago_throttled_requests_total 0" {
			t.Errorf("/metrics: %s", line)
		}
	}
	plan, err := http.Get(p.URL + "/dynago/faults")
	if err != nil {
		t.Fatal(err)
	}
	pb, _ := io.ReadAll(plan.Body)
	plan.Body.Close()
	if string(pb) != "{}" {
		t.Errorf("GET /dynago/faults: %s, want {}", pb)
	}
	if log := p.Log(); strings.Contains(log, "injected fault") || strings.Contains(log, "injecting faults") {
		t.Errorf("the log mentions faults:\n%s", p.Log())
	}
}
