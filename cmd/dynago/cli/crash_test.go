package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	streamtypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"

	"github.com/dynago/dynago/testserver"
)

// crashTrials is how many times TestCrashKeepsEverythingAcknowledged kills
// the server in each durability mode. The default keeps the suite short;
// a long run is
//
//	go test ./cmd/dynago/cli -run TestCrashKeeps -crash.trials 40 -v
var crashTrials = flag.Int("crash.trials", 3, "SIGKILLs per durability mode in TestCrashKeepsEverythingAcknowledged")

// durabilityModes are the serve flags of each durability mode: the default
// promises that an acknowledged write survives the death of the process,
// --sync that it also survives the machine's.
var durabilityModes = []struct {
	name  string
	flags []string
}{
	{"default", nil},
	{"sync", []string{"--sync"}},
}

// TestCrashKeepsEverythingAcknowledged runs "dynago serve" on a data
// directory under a mixed writer (PutItem, BatchWriteItem of 25 puts,
// UpdateItem ADD, TransactWriteItems across two tables, and a stream of
// CreateTable,
// UpdateTable adding an index, UpdateTimeToLive and DeleteTable), kills it
// with SIGKILL at a random moment, restarts it on the directory and checks,
// trial after trial, in both durability modes:
//
//   - every acknowledged write is there, every item of every acknowledged
//     batch among them, and nothing that was never sent;
//   - each counter holds its acknowledged additions, plus at most the one
//     in flight at the kill;
//   - every transaction is there whole or not at all: the two balances of
//     a transfer cancel out, and match the receipts written with them;
//   - every acknowledged table, index, TTL setting and deletion is there,
//     and an index built by a backfill the kill interrupted converges to
//     exactly the items it should hold;
//   - the stream holds a record for every item written, and none for an
//     item that is not there.
func TestCrashKeepsEverythingAcknowledged(t *testing.T) {
	for _, mode := range durabilityModes {
		t.Run(mode.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			st := newCrashState()
			for trial := range *crashTrials {
				p := testserver.StartProcess(t, append([]string{"--data-dir", dir, "--ttl-change-cooldown", "0", "--ttl-sweep-interval", "0"}, mode.flags...)...)
				if trial == 0 {
					st.createBaseTables(t, p.Client())
				} else {
					st.verify(t, p)
				}
				n := st.runAndKill(t, p, trial)
				t.Logf("trial %d: killed after %d acknowledged requests", trial, n)
			}
			p := testserver.StartProcess(t, "--data-dir", dir)
			st.verify(t, p)
			p.Stop(t)
			t.Logf("%d trials: %d items, %d transfers, %d counter additions, %d tables acknowledged and all found",
				*crashTrials, len(st.acked), st.transfers(), st.counterSum(), len(st.tables))
		})
	}
}

// TestCrashAfterIdlePause acknowledges one write of each kind, lets the
// server sit idle, then kills it: idleness must not leave an acknowledged
// write in a buffer of the process.
func TestCrashAfterIdlePause(t *testing.T) {
	for _, mode := range durabilityModes {
		t.Run(mode.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			ctx := context.Background()
			p := testserver.StartProcess(t, append([]string{"--data-dir", dir, "--ttl-change-cooldown", "0"}, mode.flags...)...)
			c := p.Client()
			createTable(t, c, "idle")
			must(t, put(ctx, c, "idle", "pk", "one", "v", "1"))
			_, err := c.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String("idle"),
				TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String("exp"), Enabled: aws.Bool(true)}})
			must(t, err)
			_, err = c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("idle"),
				StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeKeysOnly}})
			must(t, err)
			time.Sleep(2 * time.Second)
			must(t, p.Cmd.Process.Signal(syscall.SIGKILL))
			p.Wait(t)

			p = testserver.StartProcess(t, "--data-dir", dir)
			c = p.Client()
			out, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("idle"), ConsistentRead: aws.Bool(true),
				Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "one"}}})
			must(t, err)
			if out.Item == nil {
				t.Fatal("the acknowledged PutItem is gone after an idle pause and a kill")
			}
			ttl, err := c.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String("idle")})
			must(t, err)
			if ttl.TimeToLiveDescription.TimeToLiveStatus != types.TimeToLiveStatusEnabled {
				t.Fatalf("the acknowledged TTL setting is gone: %+v", ttl.TimeToLiveDescription)
			}
			d, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("idle")})
			must(t, err)
			if s := d.Table.StreamSpecification; s == nil || !aws.ToBool(s.StreamEnabled) {
				t.Fatalf("the acknowledged stream is gone: %+v", s)
			}
			p.Stop(t)
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func put(ctx context.Context, c *dynamodb.Client, table string, kv ...string) error {
	it := map[string]types.AttributeValue{}
	for i := 0; i < len(kv); i += 2 {
		it[kv[i]] = &types.AttributeValueMemberS{Value: kv[i+1]}
	}
	_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: it})
	return err
}

const (
	crashWriters = 6
	crashItems   = "items"  // PutItem targets and transfer receipts; has a stream
	crashLedger  = "ledger" // counters and transfer balances
)

// crashState is what the writers know was acknowledged, across trials.
type crashState struct {
	mu sync.Mutex
	// acked maps the key of each acknowledged PutItem to its value, and
	// sent the key of every PutItem sent, acknowledged or not.
	acked, sent map[string]string
	// counter[w] is the acknowledged ADD total of writer w's counter;
	// inflight[w] is 1 if an ADD was unanswered at the kill.
	counter, inflight [crashWriters]int
	// receipts[w] are writer w's acknowledged transfers, by receipt key;
	// tried[w] counts the transfers it sent.
	receipts [crashWriters]map[string]bool
	tried    [crashWriters]int
	// tables are the acknowledged DDL tables.
	tables map[string]*crashTable
}

// crashTable is what was acknowledged about one table of the DDL writer.
type crashTable struct {
	items   int  // items with the indexed attribute, all acknowledged
	indexed bool // UpdateTable adding index "byg" acknowledged
	ttl     bool // UpdateTimeToLive acknowledged
	deleted bool // DeleteTable acknowledged
	// deleting is a DeleteTable sent and not acknowledged: in flight at
	// the kill, it may have landed.
	deleting bool
}

func newCrashState() *crashState {
	s := &crashState{acked: map[string]string{}, sent: map[string]string{}, tables: map[string]*crashTable{}}
	for w := range s.receipts {
		s.receipts[w] = map[string]bool{}
	}
	return s
}

func (s *crashState) transfers() (n int) {
	for _, r := range s.receipts {
		n += len(r)
	}
	return n
}

func (s *crashState) counterSum() (n int) {
	for _, c := range s.counter {
		n += c
	}
	return n
}

func (s *crashState) createBaseTables(t *testing.T, c *dynamodb.Client) {
	ctx := context.Background()
	for _, name := range []string{crashItems, crashLedger} {
		in := &dynamodb.CreateTableInput{
			TableName:            aws.String(name),
			AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
			KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
			BillingMode:          types.BillingModePayPerRequest,
		}
		if name == crashItems {
			in.StreamSpecification = &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeKeysOnly}
		}
		_, err := c.CreateTable(ctx, in)
		must(t, err)
	}
}

// runAndKill runs the writers against p, kills p at a random moment and
// returns once every writer has seen the server go. It returns the number
// of acknowledged requests.
func (s *crashState) runAndKill(t *testing.T, p *testserver.Process, trial int) int {
	c := p.Client()
	ctx := context.Background()
	var wg sync.WaitGroup
	var mu sync.Mutex
	n := 0
	ack := func() { mu.Lock(); n++; mu.Unlock() }
	for w := range crashWriters {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				var err error
				switch i % 10 {
				case 6:
					err = s.batchPut(ctx, c, fmt.Sprintf("batch-%d-%d-%d", w, trial, i))
				case 7:
					s.inflight[w] = 1
					_, err = c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(crashLedger),
						Key:                       map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: fmt.Sprint("counter-", w)}},
						UpdateExpression:          aws.String("ADD n :one"),
						ExpressionAttributeValues: map[string]types.AttributeValue{":one": &types.AttributeValueMemberN{Value: "1"}}})
					if err == nil {
						s.inflight[w] = 0
						s.counter[w]++
					}
				case 8, 9:
					receipt := fmt.Sprintf("receipt-%d-%d-%d", w, trial, i)
					s.tried[w]++
					_, err = c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
						{Update: transfer(w, "from", "-1")},
						{Update: transfer(w, "to", "1")},
						{Put: &types.Put{TableName: aws.String(crashItems), Item: map[string]types.AttributeValue{
							"pk": &types.AttributeValueMemberS{Value: receipt}}}},
					}})
					if err == nil {
						s.mu.Lock()
						s.receipts[w][receipt] = true
						s.mu.Unlock()
					}
				default:
					pk := fmt.Sprintf("put-%d-%d-%d", w, trial, i)
					val := strings.Repeat(pk, 1+i%20)
					s.mu.Lock()
					s.sent[pk] = val
					s.mu.Unlock()
					if err = put(ctx, c, crashItems, "pk", pk, "v", val); err == nil {
						s.mu.Lock()
						s.acked[pk] = val
						s.mu.Unlock()
					}
				}
				if err != nil {
					return // the server is gone
				}
				ack()
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for j := 0; ; j++ {
			if err := s.ddlStep(ctx, c, trial, j); err != nil {
				return
			}
			ack()
		}
	}()
	time.Sleep(time.Duration(200+rand.IntN(1000)) * time.Millisecond)
	must(t, p.Cmd.Process.Signal(syscall.SIGKILL))
	p.Wait(t)
	wg.Wait()
	return n
}

// batchPut writes 25 items of the items table, keyed prefix-0 to
// prefix-24, in one BatchWriteItem, each recorded as sent before and as
// acknowledged once the batch is, unless the answer leaves it unprocessed.
func (s *crashState) batchPut(ctx context.Context, c *dynamodb.Client, prefix string) error {
	reqs := make([]types.WriteRequest, 25)
	s.mu.Lock()
	for j := range reqs {
		pk := fmt.Sprintf("%s-%d", prefix, j)
		val := strings.Repeat(pk, 1+j%20)
		s.sent[pk] = val
		reqs[j].PutRequest = &types.PutRequest{Item: map[string]types.AttributeValue{
			"pk": &types.AttributeValueMemberS{Value: pk}, "v": &types.AttributeValueMemberS{Value: val}}}
	}
	s.mu.Unlock()
	out, err := c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{crashItems: reqs}})
	if err != nil {
		return err
	}
	left := map[string]bool{}
	for _, r := range out.UnprocessedItems[crashItems] {
		left[r.PutRequest.Item["pk"].(*types.AttributeValueMemberS).Value] = true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range reqs {
		pk := r.PutRequest.Item["pk"].(*types.AttributeValueMemberS).Value
		if !left[pk] {
			s.acked[pk] = r.PutRequest.Item["v"].(*types.AttributeValueMemberS).Value
		}
	}
	return nil
}

func transfer(w int, side, delta string) *types.Update {
	return &types.Update{TableName: aws.String(crashLedger),
		Key:                       map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: fmt.Sprintf("account-%d-%s", w, side)}},
		UpdateExpression:          aws.String("ADD balance :d"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":d": &types.AttributeValueMemberN{Value: delta}}}
}

// ddlStep runs step j of the DDL writer: a table's life in five steps,
// create, fill, index, TTL, and the deletion of the table two lives back.
func (s *crashState) ddlStep(ctx context.Context, c *dynamodb.Client, trial, j int) error {
	life, step := j/5, j%5
	name := fmt.Sprintf("ddl-%d-%d", trial, life)
	s.mu.Lock()
	tb := s.tables[name]
	s.mu.Unlock()
	var err error
	switch step {
	case 0:
		_, err = c.CreateTable(ctx, &dynamodb.CreateTableInput{
			TableName:            aws.String(name),
			AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
			KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
			BillingMode:          types.BillingModePayPerRequest,
		})
		if err == nil {
			s.mu.Lock()
			s.tables[name] = &crashTable{}
			s.mu.Unlock()
		}
	case 1:
		// Enough items for the index backfill to take a moment.
		for i := 0; i < 200 && err == nil; i += 25 {
			var reqs []types.WriteRequest
			for k := i; k < i+25; k++ {
				reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: map[string]types.AttributeValue{
					"pk": &types.AttributeValueMemberS{Value: fmt.Sprint("i", k)},
					"g":  &types.AttributeValueMemberS{Value: fmt.Sprint("g", k%7)},
				}}})
			}
			var out *dynamodb.BatchWriteItemOutput
			out, err = c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{name: reqs}})
			if err == nil && len(out.UnprocessedItems) > 0 {
				err = errors.New("unprocessed items")
			}
			if err == nil {
				s.mu.Lock()
				tb.items += 25
				s.mu.Unlock()
			}
		}
	case 2:
		_, err = c.UpdateTable(ctx, &dynamodb.UpdateTableInput{
			TableName:            aws.String(name),
			AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("g"), AttributeType: types.ScalarAttributeTypeS}},
			GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{
				IndexName:  aws.String("byg"),
				KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("g"), KeyType: types.KeyTypeHash}},
				Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly},
			}}},
		})
		if err == nil {
			s.mu.Lock()
			tb.indexed = true
			s.mu.Unlock()
		}
	case 3:
		_, err = c.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String(name),
			TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String("exp"), Enabled: aws.Bool(true)}})
		if err == nil {
			s.mu.Lock()
			tb.ttl = true
			s.mu.Unlock()
		}
	case 4:
		if life < 2 {
			return nil
		}
		old := fmt.Sprintf("ddl-%d-%d", trial, life-2)
		s.mu.Lock()
		s.tables[old].deleting = true
		s.mu.Unlock()
		_, err = c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(old)})
		if err == nil {
			s.mu.Lock()
			s.tables[old].deleted, s.tables[old].deleting = true, false
			s.mu.Unlock()
		}
	}
	return err
}

// verify checks the restarted server p against everything acknowledged,
// then folds what it finds of the unacknowledged writes into the state:
// an ADD in flight at the kill may have landed.
func (s *crashState) verify(t *testing.T, p *testserver.Process) {
	t.Helper()
	c := p.Client()

	items := scanAll(t, c, crashItems)
	receipts := [crashWriters]int{}
	for pk, it := range items {
		if strings.HasPrefix(pk, "receipt-") {
			w, _ := strconv.Atoi(strings.Split(pk, "-")[1])
			receipts[w]++
			continue
		}
		sent, ok := s.sent[pk]
		if !ok {
			t.Fatalf("item %s is there but was never sent", pk)
		}
		if v := it["v"].(*types.AttributeValueMemberS).Value; v != sent {
			t.Fatalf("item %s holds %.40q, not the value sent", pk, v)
		}
	}
	for pk := range s.acked {
		if _, ok := items[pk]; !ok {
			t.Fatalf("acknowledged PutItem %s is lost (%d of %d acknowledged items found)", pk, countPresent(s.acked, items), len(s.acked))
		}
	}

	ledger := scanAll(t, c, crashLedger)
	num := func(pk, attr string) int {
		it, ok := ledger[pk]
		if !ok {
			return 0
		}
		n, err := strconv.Atoi(it[attr].(*types.AttributeValueMemberN).Value)
		must(t, err)
		return n
	}
	for w := range crashWriters {
		got := num(fmt.Sprint("counter-", w), "n")
		if got < s.counter[w] || got > s.counter[w]+s.inflight[w] {
			t.Fatalf("counter %d is %d; %d additions acknowledged, %d in flight", w, got, s.counter[w], s.inflight[w])
		}
		s.counter[w], s.inflight[w] = got, 0
		from, to := num(fmt.Sprintf("account-%d-from", w), "balance"), num(fmt.Sprintf("account-%d-to", w), "balance")
		if from != -to || to != receipts[w] {
			t.Fatalf("writer %d: a transaction is partly there: balances %d and %d, %d receipts", w, from, to, receipts[w])
		}
		for r := range s.receipts[w] {
			if _, ok := items[r]; !ok {
				t.Fatalf("acknowledged transaction %s is lost", r)
			}
		}
		if receipts[w] > s.tried[w] {
			t.Fatalf("writer %d: %d receipts from %d transactions sent", w, receipts[w], s.tried[w])
		}
	}

	s.verifyStream(t, p, items)
	for name, tb := range s.tables {
		verifyTable(t, c, name, tb)
	}
}

func countPresent(acked map[string]string, items map[string]map[string]types.AttributeValue) (n int) {
	for pk := range acked {
		if _, ok := items[pk]; ok {
			n++
		}
	}
	return n
}

// verifyStream reads the items table's stream from the trim horizon of
// every shard and checks it names exactly the items there: a write and
// its stream record are one.
func (s *crashState) verifyStream(t *testing.T, p *testserver.Process, items map[string]map[string]types.AttributeValue) {
	t.Helper()
	ctx := context.Background()
	d, err := p.Client().DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(crashItems)})
	must(t, err)
	sc := testserver.NewStreamsClient(p.URL)
	recorded := map[string]bool{}
	var start *string
	for {
		ds, err := sc.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: d.Table.LatestStreamArn, ExclusiveStartShardId: start})
		must(t, err)
		for _, sh := range ds.StreamDescription.Shards {
			it, err := sc.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: d.Table.LatestStreamArn,
				ShardId: sh.ShardId, ShardIteratorType: streamtypes.ShardIteratorTypeTrimHorizon})
			must(t, err)
			iter := it.ShardIterator
			for iter != nil {
				out, err := sc.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: iter})
				must(t, err)
				for _, r := range out.Records {
					pk := r.Dynamodb.Keys["pk"].(*streamtypes.AttributeValueMemberS).Value
					recorded[pk] = true
				}
				if len(out.Records) == 0 {
					break // the tip of an open shard, or the end of a closed one
				}
				iter = out.NextShardIterator
			}
		}
		start = ds.StreamDescription.LastEvaluatedShardId
		if start == nil {
			break
		}
	}
	for pk := range items {
		if !recorded[pk] {
			t.Fatalf("item %s is there but its stream record is not", pk)
		}
	}
	for pk := range recorded {
		if _, ok := items[pk]; !ok {
			t.Fatalf("the stream records a write of %s, which is not there", pk)
		}
	}
}

func verifyTable(t *testing.T, c *dynamodb.Client, name string, tb *crashTable) {
	t.Helper()
	ctx := context.Background()
	d, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
	var nf *types.ResourceNotFoundException
	if tb.deleted {
		if !errors.As(err, &nf) {
			t.Fatalf("table %s was deleted, and DescribeTable answers %v", name, err)
		}
		return
	}
	if errors.As(err, &nf) && tb.deleting {
		// Its DeleteTable was in flight at the kill, and landed.
		tb.deleted, tb.deleting = true, false
		return
	}
	if errors.As(err, &nf) {
		t.Fatalf("acknowledged table %s is lost", name)
	}
	tb.deleting = false // the DeleteTable in flight did not land
	must(t, err)
	if got := len(scanAll(t, c, name)); got < tb.items {
		t.Fatalf("table %s: %d items, %d acknowledged", name, got, tb.items)
	}
	if tb.ttl {
		ttl, err := c.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String(name)})
		must(t, err)
		if ttl.TimeToLiveDescription.TimeToLiveStatus != types.TimeToLiveStatusEnabled {
			t.Fatalf("table %s: acknowledged TTL setting lost: %+v", name, ttl.TimeToLiveDescription)
		}
	}
	if !tb.indexed {
		return
	}
	if len(d.Table.GlobalSecondaryIndexes) != 1 {
		t.Fatalf("table %s: acknowledged index lost", name)
	}
	// The backfill may have been cut short by the kill: the restarted
	// server finishes it, and the index then holds every item with g.
	for deadline := time.Now().Add(time.Minute); d.Table.GlobalSecondaryIndexes[0].IndexStatus != types.IndexStatusActive; {
		if time.Now().After(deadline) {
			t.Fatalf("table %s: index still %s after a minute", name, d.Table.GlobalSecondaryIndexes[0].IndexStatus)
		}
		time.Sleep(20 * time.Millisecond)
		d, err = c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
		must(t, err)
	}
	want := 0
	for _, it := range scanAll(t, c, name) {
		if it["g"] != nil {
			want++
		}
	}
	got := 0
	var start map[string]types.AttributeValue
	for {
		out, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String(name), IndexName: aws.String("byg"), ExclusiveStartKey: start})
		must(t, err)
		got += len(out.Items)
		if start = out.LastEvaluatedKey; start == nil {
			break
		}
	}
	if got != want {
		t.Fatalf("table %s: the index holds %d items, the table %d with its key", name, got, want)
	}
}

// scanAll reads a whole table, consistently, by key.
func scanAll(t *testing.T, c *dynamodb.Client, table string) map[string]map[string]types.AttributeValue {
	t.Helper()
	out := map[string]map[string]types.AttributeValue{}
	var start map[string]types.AttributeValue
	for {
		page, err := c.Scan(context.Background(), &dynamodb.ScanInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true), ExclusiveStartKey: start})
		must(t, err)
		for _, it := range page.Items {
			out[it["pk"].(*types.AttributeValueMemberS).Value] = it
		}
		if start = page.LastEvaluatedKey; start == nil {
			return out
		}
	}
}
