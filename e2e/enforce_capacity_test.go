package e2e

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/engine"
	"github.com/dynago/dynago/internal/sdkhttp"
	"github.com/dynago/dynago/local"
	"github.com/dynago/dynago/testserver"
)

// Enforced capacity (--enforce-capacity, engine/throttle.go,
// docs/REHEARSAL.md "Capacity"). Every test drives the capacity clock by
// hand, so none depends on timing: a bucket refills only when the test
// moves the clock.

// The texts of the throttling errors, as DynamoDB answers them.
const (
	// ProvisionedThroughputExceededException of a provisioned table, as
	// SDKs showed it (source-cooperative/source.coop issue 12, 2024;
	// quintilesims/layer0 issue 229, 2017).
	msgTableThrottled = "The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API."
	// The same for a table's GSIs (audienceproject/spark-dynamodb issue
	// 61, 2020; wellcomecollection/platform issue 2177).
	msgIndexThrottled = "The level of configured provisioned throughput for one or more global secondary indexes of the table was exceeded. Consider increasing your provisioning level for the under-provisioned global secondary indexes with the UpdateTable API"
	// ThrottlingException of an on-demand table (cowinapi/developer.cowin
	// issue 151, 2021; praetorian-inc/chariot-ui issue 684, 2024).
	msgOnDemandThrottled = "Throughput exceeds the current capacity of your table or index. DynamoDB is automatically scaling your table or index so please try again shortly. If exceptions persist, check if you have a hot key: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html"
)

// capClock is a capacity clock a test moves by hand; requests read it
// from the server's goroutines.
type capClock struct{ ns atomic.Int64 }

func newCapClock() *capClock {
	c := &capClock{}
	c.ns.Store(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC).UnixNano())
	return c
}

func (c *capClock) now() time.Time          { return time.Unix(0, c.ns.Load()).UTC() }
func (c *capClock) advance(d time.Duration) { c.ns.Add(int64(d)) }

// startEnforced starts a server enforcing capacity on clk.
func startEnforced(t *testing.T, clk *capClock) (*testserver.Server, local.API) {
	t.Helper()
	s := testserver.Start(t, testserver.WithEngineOptions(func(o *engine.Options) {
		o.EnforceCapacity = true
		o.CapacityNow = clk.now
	}))
	return s, client(t, s)
}

// createProvisioned creates a table with partition key pk (S), rcu and
// wcu, and a GSI gix on gk (S) with gsiRCU and gsiWCU when gsiWCU > 0.
func createProvisioned(t *testing.T, c local.API, name string, rcu, wcu, gsiRCU, gsiWCU int64) {
	t.Helper()
	in := &dynamodb.CreateTableInput{
		TableName:             aws.String(name),
		AttributeDefinitions:  []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:             []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(rcu), WriteCapacityUnits: aws.Int64(wcu)},
	}
	if gsiWCU > 0 {
		in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{AttributeName: aws.String("gk"), AttributeType: types.ScalarAttributeTypeS})
		in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{{
			IndexName:             aws.String("gix"),
			KeySchema:             []types.KeySchemaElement{{AttributeName: aws.String("gk"), KeyType: types.KeyTypeHash}},
			Projection:            &types.Projection{ProjectionType: types.ProjectionTypeAll},
			ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(gsiRCU), WriteCapacityUnits: aws.Int64(gsiWCU)},
		}}
	}
	if _, err := c.CreateTable(bg(), in); err != nil {
		t.Fatalf("CreateTable %s: %v", name, err)
	}
}

// throttle is what a throttled request's error says.
type throttle struct {
	code, msg string
	reasons   []string // reason resource, each
}

// throttleOf reads err as the SDK parsed it: its code, message and
// ThrottlingReasons.
func throttleOf(t *testing.T, err error) throttle {
	t.Helper()
	var rs []types.ThrottlingReason
	var th throttle
	var pt *types.ProvisionedThroughputExceededException
	var te *types.ThrottlingException
	var rl *types.RequestLimitExceeded
	switch {
	case err == nil:
		return throttle{}
	case errors.As(err, &pt):
		th, rs = throttle{code: pt.ErrorCode(), msg: pt.ErrorMessage()}, pt.ThrottlingReasons
	case errors.As(err, &te):
		th, rs = throttle{code: te.ErrorCode(), msg: te.ErrorMessage()}, te.ThrottlingReasons
	case errors.As(err, &rl):
		th, rs = throttle{code: rl.ErrorCode(), msg: rl.ErrorMessage()}, rl.ThrottlingReasons
	default:
		t.Fatalf("not a throttling error: %v", err)
	}
	for _, r := range rs {
		th.reasons = append(th.reasons, aws.ToString(r.Reason)+" "+aws.ToString(r.Resource))
	}
	return th
}

// passes counts the calls of do that succeed before the first that is
// throttled, and returns that one's error.
func passes(t *testing.T, do func() error) (int, error) {
	t.Helper()
	for n := 0; n < 5000; n++ {
		if err := do(); err != nil {
			return n, err
		}
	}
	t.Fatal("never throttled")
	return 0, nil
}

// TestEnforcedCapacityProvisionedRate: a provisioned table serves its
// units a second (a strongly consistent read of up to 4 KB is one read
// unit, an eventually consistent one half, a write of up to 1 KB one
// write unit: developer guide, provisioned capacity mode), keeps up to
// 300 seconds of unused units as burst capacity ("DynamoDB currently
// retains up to 5 minutes (300 seconds) of unused read and write
// capacity", developer guide, burst capacity;
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/burst-adaptive-capacity.html),
// recovers as the clock moves, and takes an UpdateTable increase at once.
// A bucket starts with one second's units (dynago's choice: DynamoDB does
// not document a new table's burst).
func TestEnforcedCapacityProvisionedRate(t *testing.T) {
	tableRes := tableARN("rate")
	cases := []struct {
		name     string
		rcu, wcu int64
		do       func(c local.API) error
		reason   string
		// perSecond is how many calls one second lets through.
		perSecond int
	}{
		{name: "writes", rcu: 1, wcu: 2, perSecond: 2, reason: "TableWriteProvisionedThroughputExceeded",
			do: func(c local.API) error {
				_, err := c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("rate"), Item: item{"pk": S("a")}})
				return err
			}},
		{name: "strongly consistent reads", rcu: 3, wcu: 1, perSecond: 3, reason: "TableReadProvisionedThroughputExceeded",
			do: func(c local.API) error {
				_, err := c.GetItem(bg(), &dynamodb.GetItemInput{TableName: aws.String("rate"), Key: item{"pk": S("a")}, ConsistentRead: aws.Bool(true)})
				return err
			}},
		{name: "eventually consistent reads", rcu: 3, wcu: 1, perSecond: 6, reason: "TableReadProvisionedThroughputExceeded",
			do: func(c local.API) error {
				_, err := c.GetItem(bg(), &dynamodb.GetItemInput{TableName: aws.String("rate"), Key: item{"pk": S("a")}})
				return err
			}},
		{name: "queries", rcu: 2, wcu: 1, perSecond: 4, reason: "TableReadProvisionedThroughputExceeded",
			do: func(c local.API) error {
				_, err := c.Query(bg(), &dynamodb.QueryInput{TableName: aws.String("rate"), KeyConditionExpression: aws.String("pk = :p"),
					ExpressionAttributeValues: item{":p": S("a")}})
				return err
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			clk := newCapClock()
			_, c := startEnforced(t, clk)
			createProvisioned(t, c, "rate", tc.rcu, tc.wcu, 0, 0)
			do := func() error { return tc.do(c) }
			want := throttle{code: "ProvisionedThroughputExceededException", msg: msgTableThrottled, reasons: []string{tc.reason + " " + tableRes}}
			n, err := passes(t, do)
			if n != tc.perSecond {
				t.Fatalf("first second: %d calls passed, want %d", n, tc.perSecond)
			}
			deepEqual(t, "throttled", throttleOf(t, err), want)
			// Still throttled while the clock stands.
			deepEqual(t, "again", throttleOf(t, do()), want)
			clk.advance(time.Second)
			if n, _ := passes(t, do); n != tc.perSecond {
				t.Fatalf("a second later: %d calls passed, want %d", n, tc.perSecond)
			}
			// Burst: unused units pile up, 300 seconds of them at most.
			clk.advance(10 * time.Second)
			if n, _ := passes(t, do); n != 10*tc.perSecond {
				t.Fatalf("10 s later: %d calls passed, want %d", n, 10*tc.perSecond)
			}
			clk.advance(time.Hour)
			if n, _ := passes(t, do); n != 300*tc.perSecond {
				t.Fatalf("an hour later: %d calls passed, want %d (300 s of burst)", n, 300*tc.perSecond)
			}
			// An increase takes effect at once.
			if _, err := c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String("rate"),
				ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(2 * tc.rcu), WriteCapacityUnits: aws.Int64(2 * tc.wcu)}}); err != nil {
				t.Fatal(err)
			}
			clk.advance(time.Second)
			if n, _ := passes(t, do); n != 2*tc.perSecond {
				t.Fatalf("after doubling the throughput: %d calls passed, want %d", n, 2*tc.perSecond)
			}
		})
	}
}

// TestEnforcedCapacityIndexes: a GSI has its own capacity ("The
// provisioned throughput settings of a global secondary index are
// separate from those of its base table", developer guide, GSI
// throughput considerations), and a GSI out of write capacity throttles
// the table's writes ("If you don't provision enough write capacity for
// a GSI, write throttling for the base table may occur", developer guide,
// GSI write capacity), with the index's text and reason.
func TestEnforcedCapacityIndexes(t *testing.T) {
	gsiRes := tableARN("gsis") + "/index/gix"
	cases := []struct {
		name string
		do   func(c local.API, i int) error
		want throttle
		// passed is how many calls pass at first.
		passed int
	}{
		{name: "GSI write back-pressure", passed: 1,
			do: func(c local.API, i int) error {
				_, err := c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("gsis"), Item: item{"pk": S(fmt.Sprint("p", i)), "gk": S("x")}})
				return err
			},
			want: throttle{code: "ProvisionedThroughputExceededException", msg: msgIndexThrottled, reasons: []string{"IndexWriteProvisionedThroughputExceeded " + gsiRes}}},
		{name: "GSI reads", passed: 2,
			do: func(c local.API, i int) error {
				_, err := c.Query(bg(), &dynamodb.QueryInput{TableName: aws.String("gsis"), IndexName: aws.String("gix"),
					KeyConditionExpression: aws.String("gk = :g"), ExpressionAttributeValues: item{":g": S("x")}})
				return err
			},
			want: throttle{code: "ProvisionedThroughputExceededException", msg: msgIndexThrottled, reasons: []string{"IndexReadProvisionedThroughputExceeded " + gsiRes}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			clk := newCapClock()
			_, c := startEnforced(t, clk)
			// The table has plenty; the GSI 1 RCU and 1 WCU.
			createProvisioned(t, c, "gsis", 100, 100, 1, 1)
			i := 0
			n, err := passes(t, func() error { i++; return tc.do(c, i) })
			if n != tc.passed {
				t.Fatalf("%d calls passed, want %d", n, tc.passed)
			}
			deepEqual(t, "throttled", throttleOf(t, err), tc.want)
			clk.advance(time.Second)
			if err := tc.do(c, 1000); err != nil {
				t.Fatalf("a second later: %v", err)
			}
		})
	}
	// A write that was throttled applied nothing.
	clk := newCapClock()
	_, c := startEnforced(t, clk)
	createProvisioned(t, c, "gsis", 100, 100, 1, 1)
	put(t, c, "gsis", item{"pk": S("first"), "gk": S("x")})
	_, err := c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("gsis"), Item: item{"pk": S("second"), "gk": S("x")}})
	deepEqual(t, "second write", throttleOf(t, err).reasons, []string{"IndexWriteProvisionedThroughputExceeded " + gsiRes})
	clk.advance(time.Hour)
	if got := get(t, c, "gsis", item{"pk": S("second")}); got != nil {
		t.Fatalf("the throttled write was applied: %v", got)
	}
}

// TestEnforcedCapacityOnDemand: an on-demand table is held to its
// OnDemandThroughput maximum (developer guide, maximum throughput for
// on-demand tables: "requests that would exceed the limit receive quick
// throttle responses", with the reason MaxOnDemandThroughputExceeded,
// throttling-ondemand-capacity-exceeded-mitigation), answered
// ThrottlingException (developer guide, error handling: for on-demand
// tables ThrottlingException, whose reasons are KeyRange... or
// MaxOnDemandThroughputExceeded).
func TestEnforcedCapacityOnDemand(t *testing.T) {
	res := tableARN("odt")
	cases := []struct {
		name      string
		max       *types.OnDemandThroughput
		do        func(c local.API) error
		perSecond int
		reason    string
	}{
		{name: "max writes", max: &types.OnDemandThroughput{MaxWriteRequestUnits: aws.Int64(3)}, perSecond: 3, reason: "TableWriteMaxOnDemandThroughputExceeded",
			do: func(c local.API) error {
				_, err := c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("odt"), Item: item{"pk": S("a")}})
				return err
			}},
		{name: "max reads", max: &types.OnDemandThroughput{MaxReadRequestUnits: aws.Int64(2)}, perSecond: 2, reason: "TableReadMaxOnDemandThroughputExceeded",
			do: func(c local.API) error {
				_, err := c.GetItem(bg(), &dynamodb.GetItemInput{TableName: aws.String("odt"), Key: item{"pk": S("a")}, ConsistentRead: aws.Bool(true)})
				return err
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			clk := newCapClock()
			_, c := startEnforced(t, clk)
			if _, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{
				TableName:            aws.String("odt"),
				BillingMode:          types.BillingModePayPerRequest,
				AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
				KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
				OnDemandThroughput:   tc.max,
			}); err != nil {
				t.Fatal(err)
			}
			do := func() error { return tc.do(c) }
			n, err := passes(t, do)
			if n != tc.perSecond {
				t.Fatalf("%d calls passed, want %d", n, tc.perSecond)
			}
			deepEqual(t, "throttled", throttleOf(t, err), throttle{code: "ThrottlingException", msg: msgOnDemandThrottled, reasons: []string{tc.reason + " " + res}})
			// No burst beyond a second's maximum.
			clk.advance(time.Hour)
			if n, _ := passes(t, do); n != tc.perSecond {
				t.Fatalf("an hour later: %d calls passed, want %d", n, tc.perSecond)
			}
		})
	}
}

// TestEnforcedCapacityHotKey: a partition serves at most 1,000 write
// units a second, however much the table has ("If a resulting hot
// partition exceeds the per partition limits of 3,000 RCU or 1,000 WCU
// per second ... your table throttles", AWS knowledge center,
// dynamodb-spiky-workloads-short-intervals; "Burst capacity can't
// alleviate partition-level throttling"), reported as
// TableWriteKeyRangeThroughputExceeded (API reference, ThrottlingReason),
// while another key still writes.
func TestEnforcedCapacityHotKey(t *testing.T) {
	res := tableARN("hot")
	big := strings.Repeat("x", 300*1024-20) // 300 write units with its key
	cases := []struct {
		name string
		mode types.BillingMode
		code string
		msg  string
	}{
		{name: "provisioned", mode: types.BillingModeProvisioned, code: "ProvisionedThroughputExceededException", msg: msgTableThrottled},
		{name: "on-demand", mode: types.BillingModePayPerRequest, code: "ThrottlingException", msg: msgOnDemandThrottled},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			clk := newCapClock()
			_, c := startEnforced(t, clk)
			in := &dynamodb.CreateTableInput{
				TableName:            aws.String("hot"),
				BillingMode:          tc.mode,
				AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
				KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
			}
			if tc.mode == types.BillingModeProvisioned {
				in.ProvisionedThroughput = &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(10), WriteCapacityUnits: aws.Int64(4000)}
			}
			if _, err := c.CreateTable(bg(), in); err != nil {
				t.Fatal(err)
			}
			write := func(pk string) error {
				_, err := c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("hot"), Item: item{"pk": S(pk), "v": S(big)}})
				return err
			}
			// 300 units each: 1,000 lets four through (the fourth
			// into debt), as a request's cost is known once it ran.
			n, err := passes(t, func() error { return write("hot") })
			if n != 4 {
				t.Fatalf("%d writes of the hot key passed, want 4", n)
			}
			deepEqual(t, "hot key", throttleOf(t, err), throttle{code: tc.code, msg: tc.msg, reasons: []string{"TableWriteKeyRangeThroughputExceeded " + res}})
			if err := write("cold"); err != nil {
				t.Fatalf("another key: %v", err)
			}
			clk.advance(time.Second)
			if err := write("hot"); err != nil {
				t.Fatalf("a second later: %v", err)
			}
		})
	}
}

// TestEnforcedCapacityBatches: BatchWriteItem and BatchGetItem return
// what capacity did not allow as UnprocessedItems and UnprocessedKeys
// ("If DynamoDB returns any unprocessed items, you should retry the
// batch operation on those items", developer guide, error handling,
// batch operations), and fail as a whole with
// ProvisionedThroughputExceededException when nothing could be processed
// ("If none of the items can be processed due to insufficient
// provisioned throughput on all of the tables in the request, then
// BatchWriteItem returns a ProvisionedThroughputExceededException", API
// reference, BatchWriteItem; the same in BatchGetItem's).
func TestEnforcedCapacityBatches(t *testing.T) {
	clk := newCapClock()
	_, c := startEnforced(t, clk)
	createProvisioned(t, c, "bat", 1, 2, 0, 0)
	var reqs []types.WriteRequest
	for i := range 5 {
		reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: item{"pk": S(fmt.Sprint("k", i))}}})
	}
	// 2 WCU: two writes of 1 unit pass, three are left.
	out, err := c.BatchWriteItem(bg(), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"bat": reqs}})
	if err != nil {
		t.Fatal(err)
	}
	deepEqual(t, "unprocessed items", out.UnprocessedItems, map[string][]types.WriteRequest{"bat": reqs[2:]})
	_, err = c.BatchWriteItem(bg(), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"bat": reqs[2:]}})
	deepEqual(t, "nothing processed", throttleOf(t, err), throttle{code: "ProvisionedThroughputExceededException", msg: msgTableThrottled,
		reasons: []string{"TableWriteProvisionedThroughputExceeded " + tableARN("bat")}})
	// Retrying the unprocessed items as the clock moves writes them all.
	pending := out.UnprocessedItems
	for tries := 0; len(pending) > 0; tries++ {
		if tries > 10 {
			t.Fatal("unprocessed items never written")
		}
		clk.advance(time.Second)
		o, err := c.BatchWriteItem(bg(), &dynamodb.BatchWriteItemInput{RequestItems: pending})
		if err != nil {
			t.Fatal(err)
		}
		pending = o.UnprocessedItems
	}
	// 1 RCU: two eventually consistent reads of half a unit pass.
	keys := []map[string]types.AttributeValue{{"pk": S("k0")}, {"pk": S("k1")}, {"pk": S("k2")}, {"pk": S("k3")}}
	clk.advance(time.Hour)
	// Spend the burst first.
	for {
		if _, err := c.GetItem(bg(), &dynamodb.GetItemInput{TableName: aws.String("bat"), Key: keys[0]}); err != nil {
			break
		}
	}
	clk.advance(time.Second)
	g, err := c.BatchGetItem(bg(), &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{"bat": {Keys: keys}}})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(g.Responses["bat"]); n != 2 {
		t.Fatalf("%d items read, want 2", n)
	}
	deepEqual(t, "unprocessed keys", g.UnprocessedKeys["bat"].Keys, keys[2:])
	_, err = c.BatchGetItem(bg(), &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{"bat": {Keys: keys[2:]}}})
	deepEqual(t, "no key read", throttleOf(t, err).reasons, []string{"TableReadProvisionedThroughputExceeded " + tableARN("bat")})
}

// retryCountingClient counts the requests it sends and, after a
// throttled answer, moves the capacity clock a second, as time passes for
// the client backing off.
type retryCountingClient struct {
	next     sdkhttp.Client
	clk      *capClock
	attempts atomic.Int32
}

func (c *retryCountingClient) Do(r *http.Request) (*http.Response, error) {
	c.attempts.Add(1)
	res, err := c.next.Do(r)
	if err == nil && res.StatusCode == http.StatusBadRequest {
		c.clk.advance(time.Second)
	}
	return res, err
}

// TestEnforcedCapacitySDKRetries: the SDK's standard retryer retries a
// throttled request ("The AWS SDKs for DynamoDB automatically retry
// requests that receive this exception", API reference,
// ProvisionedThroughputExceededException), and the retry succeeds once
// capacity is back.
func TestEnforcedCapacitySDKRetries(t *testing.T) {
	needsWire(t)
	clk := newCapClock()
	s, c := startEnforced(t, clk)
	createProvisioned(t, c, "retry", 1, 1, 0, 0)
	put(t, c, "retry", item{"pk": S("a")}) // the one unit of the first second
	hc := &retryCountingClient{clk: clk}
	rc := dynamodb.New(dynamodb.Options{
		Region:       testserver.Region,
		BaseEndpoint: aws.String(s.URL),
		Credentials:  credentials.NewStaticCredentialsProvider("AKIDTEST", "SECRETTEST", ""),
		HTTPClient:   hc,
		Retryer: retry.NewStandard(func(o *retry.StandardOptions) {
			o.MaxBackoff = time.Millisecond
		}),
	})
	if _, err := rc.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("retry"), Item: item{"pk": S("b")}}); err != nil {
		t.Fatalf("PutItem with the SDK's retries: %v", err)
	}
	if n := hc.attempts.Load(); n != 2 {
		t.Fatalf("%d attempts, want 2 (one throttled, one retried)", n)
	}
	if got := get(t, c, "retry", item{"pk": S("b")}); got == nil {
		t.Fatal("the retried write is missing")
	}
	if got := s.DB.Meters().Throttled[engine.ThrottleKey{Table: "retry", Reason: "TableWriteProvisionedThroughputExceeded"}]; got != 1 {
		t.Fatalf("throttles counted: %d, want 1", got)
	}
}

// TestCapacityNotEnforcedByDefault: without --enforce-capacity nothing is
// throttled at any rate, however small the table's capacity; the tag
// dynago:enforce-capacity=true turns it on for one table.
func TestCapacityNotEnforcedByDefault(t *testing.T) {
	_, c := start(t)
	createProvisioned(t, c, "lazy", 1, 1, 1, 1)
	if _, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{
		TableName:            aws.String("lazyod"),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		OnDemandThroughput:   &types.OnDemandThroughput{MaxReadRequestUnits: aws.Int64(1), MaxWriteRequestUnits: aws.Int64(1)},
	}); err != nil {
		t.Fatal(err)
	}
	big := strings.Repeat("x", 300*1024)
	for _, table := range []string{"lazy", "lazyod"} {
		for i := range 50 {
			if _, err := c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String(table), Item: item{"pk": S("a"), "gk": S("x"), "v": S(big)}}); err != nil {
				t.Fatalf("%s: write %d: %v", table, i, err)
			}
			if _, err := c.GetItem(bg(), &dynamodb.GetItemInput{TableName: aws.String(table), Key: item{"pk": S("a")}, ConsistentRead: aws.Bool(true)}); err != nil {
				t.Fatalf("%s: read %d: %v", table, i, err)
			}
		}
	}
	if _, err := c.TagResource(bg(), &dynamodb.TagResourceInput{ResourceArn: aws.String(tableARN("lazy")),
		Tags: []types.Tag{{Key: aws.String("dynago:enforce-capacity"), Value: aws.String("true")}}}); err != nil {
		t.Fatal(err)
	}
	_, err := passes(t, func() error {
		_, err := c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("lazy"), Item: item{"pk": S("a")}})
		return err
	})
	if th := throttleOf(t, err); th.code != "ProvisionedThroughputExceededException" {
		t.Fatalf("tagged table: %+v", th)
	}
}

// TestEnforcedCapacityTransactions: a transaction its tables lack the
// capacity for is cancelled ("There is insufficient provisioned capacity
// for the transaction to be completed"), with a reason at each throttled
// action: ProvisionedThroughputExceeded with the table's text on a
// provisioned table, ThrottlingError with the on-demand text on an
// on-demand one, None at the others (API reference,
// TransactionCanceledException, its cancellation reason codes and
// messages). A transactional write costs twice its units, so each action
// let through counts two units against the next; nothing is applied.
func TestEnforcedCapacityTransactions(t *testing.T) {
	puts := func(table string, pks ...string) *dynamodb.TransactWriteItemsInput {
		in := &dynamodb.TransactWriteItemsInput{}
		for _, pk := range pks {
			in.TransactItems = append(in.TransactItems, types.TransactWriteItem{Put: &types.Put{TableName: aws.String(table), Item: item{"pk": S(pk)}}})
		}
		return in
	}
	gets := func(table string, pks ...string) *dynamodb.TransactGetItemsInput {
		in := &dynamodb.TransactGetItemsInput{}
		for _, pk := range pks {
			in.TransactItems = append(in.TransactItems, types.TransactGetItem{Get: &types.Get{TableName: aws.String(table), Key: item{"pk": S(pk)}}})
		}
		return in
	}
	provisioned := types.CancellationReason{Code: aws.String("ProvisionedThroughputExceeded"), Message: aws.String(msgTableThrottled)}
	onDemand := types.CancellationReason{Code: aws.String("ThrottlingError"), Message: aws.String(msgOnDemandThrottled + ".")}
	none := types.CancellationReason{Code: aws.String("None")}
	cases := []struct {
		name   string
		create func(c local.API)
		do     func(c local.API) error
		want   []types.CancellationReason
		codes  string
	}{
		{name: "TransactWriteItems, provisioned",
			create: func(c local.API) { createProvisioned(t, c, "txs", 2, 2, 0, 0) },
			do: func(c local.API) error {
				_, err := c.TransactWriteItems(bg(), puts("txs", "a", "b"))
				return err
			},
			want: []types.CancellationReason{none, provisioned}, codes: "[None, ProvisionedThroughputExceeded]"},
		{name: "TransactGetItems, provisioned",
			create: func(c local.API) { createProvisioned(t, c, "txs", 2, 2, 0, 0) },
			do: func(c local.API) error {
				_, err := c.TransactGetItems(bg(), gets("txs", "a", "b", "c"))
				return err
			},
			want: []types.CancellationReason{none, provisioned, provisioned}, codes: "[None, ProvisionedThroughputExceeded, ProvisionedThroughputExceeded]"},
		{name: "TransactWriteItems, on-demand maximum",
			create: func(c local.API) {
				if _, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{
					TableName:            aws.String("txs"),
					BillingMode:          types.BillingModePayPerRequest,
					AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
					KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
					OnDemandThroughput:   &types.OnDemandThroughput{MaxWriteRequestUnits: aws.Int64(2)},
				}); err != nil {
					t.Fatal(err)
				}
			},
			do: func(c local.API) error {
				_, err := c.TransactWriteItems(bg(), puts("txs", "a", "b"))
				return err
			},
			want: []types.CancellationReason{none, onDemand}, codes: "[None, ThrottlingError]"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			clk := newCapClock()
			_, c := startEnforced(t, clk)
			tc.create(c)
			err := tc.do(c)
			var tce *types.TransactionCanceledException
			if !errors.As(err, &tce) {
				t.Fatalf("got %v, want TransactionCanceledException", err)
			}
			deepEqual(t, "message", tce.ErrorMessage(), "Transaction cancelled, please refer cancellation reasons for specific reasons "+tc.codes)
			deepEqual(t, "reasons", tce.CancellationReasons, tc.want)
			clk.advance(time.Hour)
			if got := get(t, c, "txs", item{"pk": S("a")}); got != nil {
				t.Fatalf("the cancelled transaction wrote %v", got)
			}
		})
	}
}
