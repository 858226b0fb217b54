package e2e

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/internal/pgtest"
	"github.com/dynago/dynago/local"
	"github.com/dynago/dynago/testserver"
)

// Several dynago servers on one PostgreSQL database act as one DynamoDB
// endpoint. Each test starts real "dynago serve" processes on a fresh
// schema (they skip, saying how to get one, without a PostgreSQL server)
// and spreads its clients over them.

// nodes is a set of servers on one shared store.
type nodes struct {
	procs   []*testserver.Process
	clients []local.API
	args    []string
	dead    []int
}

// startNodes starts n servers on a fresh PostgreSQL schema, with extra
// serve flags.
func startNodes(t *testing.T, n int, extra ...string) *nodes {
	t.Helper()
	url, schema := pgtest.Schema(t)
	ns := &nodes{args: append(testserver.StoreArgs(url, schema), extra...)}
	for range n {
		ns.add(t)
	}
	return ns
}

// add starts one more server on the same store.
func (ns *nodes) add(t *testing.T) local.API {
	t.Helper()
	p := testserver.StartProcess(t, ns.args...)
	ns.procs = append(ns.procs, p)
	c := testserver.NewClient(p.URL)
	ns.clients = append(ns.clients, c)
	return c
}

// kill SIGKILLs server i.
func (ns *nodes) kill(t *testing.T, i int) {
	t.Helper()
	if err := ns.procs[i].Cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	ns.procs[i].Wait(t)
	ns.dead = append(ns.dead, i)
}

// live returns the indexes of the servers not killed.
func (ns *nodes) live() []int {
	var out []int
	for i := range ns.procs {
		if !slices.Contains(ns.dead, i) {
			out = append(out, i)
		}
	}
	return out
}

// logs returns what every server has logged.
func (ns *nodes) logs() string {
	var b strings.Builder
	for i, p := range ns.procs {
		fmt.Fprintf(&b, "--- node %d\n%s", i, p.Log())
	}
	return b.String()
}

// countLog counts the log lines of all servers that hold every one of
// parts.
func (ns *nodes) countLog(parts ...string) int {
	n := 0
	for _, p := range ns.procs {
		n += countLines(p.Log(), parts)
	}
	return n
}

func countLines(log string, parts []string) int {
	n := 0
	for _, line := range strings.Split(log, "\n") {
		all := true
		for _, part := range parts {
			all = all && strings.Contains(line, part)
		}
		if all {
			n++
		}
	}
	return n
}

// logCounts counts, per server, the log lines holding every one of parts.
func (ns *nodes) logCounts(parts ...string) []int {
	out := make([]int, len(ns.procs))
	for i, p := range ns.procs {
		out[i] = countLines(p.Log(), parts)
	}
	return out
}

// waitLog waits until a live server has logged more lines holding every
// one of parts than base (from logCounts) says it had, and returns it.
func (ns *nodes) waitLog(t *testing.T, base []int, parts ...string) int {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		now := ns.logCounts(parts...)
		for _, i := range ns.live() {
			if i >= len(base) || now[i] > base[i] {
				return i
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no server logged %q within 30s:\n%s", parts, ns.logs())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// Conditional puts, ADD updates, deletes, reads, two-item transactions
// and transactional reads, spread over three servers, form a
// linearizable history.
func TestNodesLinearizable(t *testing.T) {
	needsWire(t)
	ns := startNodes(t, 3)
	checkLinearizable(t, ns.clients)
}

// Transfers through three servers neither create nor destroy money, and
// transactional reads through another see consistent books.
func TestNodesConservation(t *testing.T) {
	needsWire(t)
	ns := startNodes(t, 3)
	checkConservation(t, ns.clients)
}

// A table created through one server is usable at once through another;
// an index added through one is queried through another; a table deleted
// through one is gone for the others' writes at once.
func TestNodesCatalog(t *testing.T) {
	needsWire(t)
	ns := startNodes(t, 3)
	a, b, c := ns.clients[0], ns.clients[1], ns.clients[2]
	createHash(t, a, "shared", types.ScalarAttributeTypeS)
	lt, err := c.ListTables(bg(), &dynamodb.ListTablesInput{})
	if err != nil || !slices.Contains(lt.TableNames, "shared") {
		t.Fatalf("ListTables through node 2 right after CreateTable through node 0: %v, %v", lt, err)
	}
	if _, err := a.UpdateTimeToLive(bg(), &dynamodb.UpdateTimeToLiveInput{TableName: aws.String("shared"),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String("exp"), Enabled: aws.Bool(true)}}); err != nil {
		t.Fatal(err)
	}
	ttl, err := b.DescribeTimeToLive(bg(), &dynamodb.DescribeTimeToLiveInput{TableName: aws.String("shared")})
	if err != nil || ttl.TimeToLiveDescription.TimeToLiveStatus != types.TimeToLiveStatusEnabled {
		t.Fatalf("DescribeTimeToLive through node 1 right after UpdateTimeToLive through node 0: %+v, %v", ttl, err)
	}
	put(t, b, "shared", item{"pk": S("k1"), "g": S("x"), "v": N("1")})
	if got := get(t, c, "shared", item{"pk": S("k1")}); got["v"] == nil {
		t.Fatalf("item put through node 1 not read through node 2: %v", got)
	}
	_, err = b.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String("shared"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("g"), AttributeType: types.ScalarAttributeTypeS}},
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{
			IndexName: aws.String("byG"), KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("g"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}}}})
	if err != nil {
		t.Fatal(err)
	}
	// Writes through any node maintain the index from now on.
	put(t, a, "shared", item{"pk": S("k2"), "g": S("x"), "v": N("2")})
	waitIndexActive(t, c, "shared")
	put(t, c, "shared", item{"pk": S("k3"), "g": S("x"), "v": N("3")})
	out, err := a.Query(bg(), &dynamodb.QueryInput{TableName: aws.String("shared"), IndexName: aws.String("byG"),
		KeyConditionExpression: aws.String("g = :g"), ExpressionAttributeValues: item{":g": S("x")}})
	if err != nil {
		t.Fatal(err)
	}
	if out.Count != 3 {
		t.Fatalf("index query through node 0 found %d items, want 3: %v", out.Count, out.Items)
	}
	if _, err := c.DeleteTable(bg(), &dynamodb.DeleteTableInput{TableName: aws.String("shared")}); err != nil {
		t.Fatal(err)
	}
	_, err = a.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("shared"), Item: item{"pk": S("k4")}})
	var rnf *types.ResourceNotFoundException
	if !errors.As(err, &rnf) {
		t.Fatalf("PutItem through node 0 after DeleteTable through node 2: %v, want ResourceNotFoundException", err)
	}
	// The name is free again for any node, with a new table behind it.
	createHash(t, b, "shared", types.ScalarAttributeTypeS)
	if got := get(t, a, "shared", item{"pk": S("k1")}); len(got) != 0 {
		t.Fatalf("re-created table shows an old item: %v", got)
	}
	// A node that still holds the old table of a name writes to the new
	// one at once, as DynamoDB accepts writes once CreateTable answers.
	createHash(t, a, "swap", types.ScalarAttributeTypeS)
	put(t, a, "swap", item{"pk": S("before")})
	if _, err := c.DeleteTable(bg(), &dynamodb.DeleteTableInput{TableName: aws.String("swap")}); err != nil {
		t.Fatal(err)
	}
	createHash(t, b, "swap", types.ScalarAttributeTypeS)
	put(t, a, "swap", item{"pk": S("after")})
	if got := get(t, c, "swap", item{"pk": S("after")}); len(got) == 0 {
		t.Fatal("the write through the node that held the old table is not in the new one")
	}
}

// Two servers racing to create the same table: exactly one succeeds.
func TestNodesCreateRace(t *testing.T) {
	needsWire(t)
	ns := startNodes(t, 2)
	for round := range 5 {
		name := fmt.Sprint("race", round)
		var ok, inUse atomic.Int32
		var wg sync.WaitGroup
		for _, c := range ns.clients {
			wg.Go(func() {
				_, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{TableName: aws.String(name),
					AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
					KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
					BillingMode:          types.BillingModePayPerRequest})
				var riu *types.ResourceInUseException
				switch {
				case err == nil:
					ok.Add(1)
				case errors.As(err, &riu):
					inUse.Add(1)
				default:
					t.Errorf("CreateTable: %v", err)
				}
			})
		}
		wg.Wait()
		if ok.Load() != 1 || inUse.Load() != 1 {
			t.Fatalf("round %d: %d created, %d ResourceInUse; want 1 and 1", round, ok.Load(), inUse.Load())
		}
	}
}

// A transaction retried through another server with the same
// ClientRequestToken is applied once.
func TestNodesTokenIdempotency(t *testing.T) {
	needsWire(t)
	ns := startNodes(t, 3)
	createHash(t, ns.clients[0], "tok", types.ScalarAttributeTypeS)
	in := func() *dynamodb.TransactWriteItemsInput {
		return &dynamodb.TransactWriteItemsInput{ClientRequestToken: aws.String("same-token"), TransactItems: []types.TransactWriteItem{
			{Update: &types.Update{TableName: aws.String("tok"), Key: item{"pk": S("n")},
				UpdateExpression: aws.String("ADD c :one"), ExpressionAttributeValues: item{":one": N("1")}}},
		}}
	}
	var wg sync.WaitGroup
	for _, c := range ns.clients {
		wg.Go(func() {
			for range 5 {
				if _, err := c.TransactWriteItems(bg(), in()); err != nil {
					t.Errorf("TransactWriteItems: %v", err)
				}
			}
		})
	}
	wg.Wait()
	if got := get(t, ns.clients[1], "tok", item{"pk": S("n")}); got["c"].(*types.AttributeValueMemberN).Value != "1" {
		t.Fatalf("15 submissions of one token through 3 nodes: c = %v, want 1", got["c"])
	}
}

// nodeCounterWriter increments the counter c of its items, one
// UpdateItem at a time, from 1 to n for each item, the i-th increment
// through server i mod len(cs): one item's changes come through every
// node in turn.
func nodeCounterWriter(ctx context.Context, cs []local.API, table string, keys []string, n int, offset int) error {
	for i := 1; i <= n; i++ {
		for _, k := range keys {
			c := cs[(i+offset)%len(cs)]
			out, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(table), Key: item{"pk": S(k)},
				UpdateExpression: aws.String("ADD c :one"), ExpressionAttributeValues: item{":one": N("1")}, ReturnValues: types.ReturnValueUpdatedNew})
			if err != nil {
				return fmt.Errorf("UpdateItem %s to %d: %w", k, i, err)
			}
			if got := out.Attributes["c"].(*types.AttributeValueMemberN).Value; got != fmt.Sprint(i) {
				return fmt.Errorf("item %s counter %s, want %d", k, got, i)
			}
		}
	}
	return nil
}

// One stream read through one server while three servers write each
// item in turn: every change appears exactly once, in each item's order,
// across shard rollovers that any node may make, and a reader that
// follows the stream live sees what a reader from the start sees later.
func TestNodesStream(t *testing.T) {
	needsWire(t)
	ns := startNodes(t, 3, "--stream-shard-duration", "30ms")
	c := ns.clients[0]
	arn := createStreamTable(t, c, "events", types.StreamViewTypeNewAndOldImages)
	const writers, perWriter, n = 3, 2, 12
	var all []string
	var keys [][]string
	for w := range writers {
		var ks []string
		for i := range perWriter {
			ks = append(ks, fmt.Sprintf("w%d-%d", w, i))
		}
		keys = append(keys, ks)
		all = append(all, ks...)
	}
	f := &follower{arn: arn}
	f.sc.Store(testserver.NewStreamsClient(ns.procs[0].URL))
	stop := make(chan struct{})
	read := f.runAsync(stop)
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w, ks := range keys {
		wg.Go(func() { errs <- nodeCounterWriter(bg(), ns.clients, "events", ks, n, w) })
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			close(stop)
			t.Fatal(err)
		}
	}
	disableStream(t, ns.clients[2], "events")
	r := <-read
	if r.err != nil || !r.finished {
		t.Fatalf("reader: finished %v, %v", r.finished, r.err)
	}
	t.Logf("read %d records over %d shards", len(f.recs), len(f.shards))
	checkCounters(t, f.recs, all, n)
	checkLineage(t, f.sc.Load(), arn, f.shards)
	// A second reader from the start, through another node, reads the
	// same records in the same order: none appeared behind the first
	// reader's position.
	g := &follower{arn: arn}
	g.sc.Store(testserver.NewStreamsClient(ns.procs[1].URL))
	if finished, err := g.run(make(chan struct{})); err != nil || !finished {
		t.Fatalf("second reader: finished %v, %v", finished, err)
	}
	if len(g.recs) != len(f.recs) {
		t.Fatalf("second reader read %d records, the live one %d", len(g.recs), len(f.recs))
	}
	for i := range g.recs {
		if aws.ToString(g.recs[i].EventID) != aws.ToString(f.recs[i].EventID) {
			t.Fatalf("record %d: second reader %s, live reader %s", i, aws.ToString(g.recs[i].EventID), aws.ToString(f.recs[i].EventID))
		}
	}
}

// A server killed in the middle of a GSI backfill leaves its lease to
// another, which finishes the backfill: the index then equals its
// recomputation from the table, while writes through the survivors go on.
func TestNodesBackfillTakeover(t *testing.T) {
	needsWire(t)
	ns := startNodes(t, 3, "--node-lease-timeout", "1s")
	createHash(t, ns.clients[0], "big", types.ScalarAttributeTypeS)
	pad := strings.Repeat("p", 1000)
	loaded := 0
	load := func(c local.API, upTo int) {
		for loaded < upTo {
			var reqs []types.WriteRequest
			for ; loaded < upTo && len(reqs) < 25; loaded++ {
				it := item{"pk": S(fmt.Sprint("k", loaded)), "pad": S(pad)}
				if loaded%3 != 0 {
					it["g"] = S(fmt.Sprint("g", loaded%7))
				}
				reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: it}})
			}
			if _, err := c.BatchWriteItem(bg(), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"big": reqs}}); err != nil {
				t.Fatal(err)
			}
		}
	}
	// The backfill must still be running when its node dies: grow the
	// table until it is.
	for size, round := 3000, 0; ; size, round = size*2, round+1 {
		live := ns.live()
		load(ns.clients[live[0]], size)
		index := fmt.Sprint("byG", round)
		before := ns.logCounts("lease acquired", "backfill/")
		_, err := ns.clients[live[0]].UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String("big"),
			AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("g"), AttributeType: types.ScalarAttributeTypeS}},
			GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{
				IndexName: aws.String(index), KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("g"), KeyType: types.KeyTypeHash}},
				Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}}}}})
		if err != nil {
			t.Fatal(err)
		}
		holder := ns.waitLog(t, before, "lease acquired", "backfill/")
		ns.kill(t, holder)
		other := ns.live()[0]
		d := describe(t, ns.clients[other], "big")
		if d.GlobalSecondaryIndexes[len(d.GlobalSecondaryIndexes)-1].IndexStatus == types.IndexStatusActive {
			if round == 3 {
				t.Fatalf("the backfill of %d items always finished before its node was killed", size)
			}
			t.Logf("backfill of %d items finished before the kill; growing the table", size)
			ns.add(t)
			continue
		}
		// Writes through the survivors go on during the takeover.
		for i := range 50 {
			put(t, ns.clients[ns.live()[i%2]], "big", item{"pk": S(fmt.Sprint("k", i)), "pad": S("changed"), "g": S(fmt.Sprint("n", i%4))})
		}
		waitIndexActiveLong(t, ns.clients[other], "big")
		if ns.countLog("taking over lease", "backfill/") == 0 {
			t.Fatalf("no survivor logged taking over the backfill's lease:\n%s", ns.logs())
		}
		checkIndexRecomputed(t, ns.clients[other], "big", index, loaded)
		return
	}
}

// waitIndexActiveLong waits up to a minute for every GSI to be ACTIVE.
func waitIndexActiveLong(t *testing.T, c local.API, table string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		d := describe(t, c, table)
		busy := false
		for _, g := range d.GlobalSecondaryIndexes {
			busy = busy || g.IndexStatus != types.IndexStatusActive
		}
		if !busy {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("index not ACTIVE within a minute")
}

// checkIndexRecomputed scans the table and the index and requires the
// index to hold exactly one entry per item with g, under that g, and
// DescribeTable to count them.
func checkIndexRecomputed(t *testing.T, c local.API, table, index string, items int) {
	t.Helper()
	want := map[string]string{}
	p := dynamodb.NewScanPaginator(c, &dynamodb.ScanInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true)})
	n := 0
	for p.HasMorePages() {
		out, err := p.NextPage(bg())
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range out.Items {
			n++
			if g, ok := it["g"].(*types.AttributeValueMemberS); ok {
				want[it["pk"].(*types.AttributeValueMemberS).Value] = g.Value
			}
		}
	}
	if n != items {
		t.Fatalf("table holds %d items, want %d", n, items)
	}
	got := map[string]string{}
	ip := dynamodb.NewScanPaginator(c, &dynamodb.ScanInput{TableName: aws.String(table), IndexName: aws.String(index)})
	for ip.HasMorePages() {
		out, err := ip.NextPage(bg())
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range out.Items {
			pk := it["pk"].(*types.AttributeValueMemberS).Value
			if _, dup := got[pk]; dup {
				t.Fatalf("index holds %s twice", pk)
			}
			got[pk] = it["g"].(*types.AttributeValueMemberS).Value
		}
	}
	if len(got) != len(want) {
		t.Fatalf("index holds %d entries, the table %d items with g", len(got), len(want))
	}
	for pk, g := range want {
		if got[pk] != g {
			t.Fatalf("index entry of %s: g %q, want %q", pk, got[pk], g)
		}
	}
	d := describe(t, c, table)
	for _, gi := range d.GlobalSecondaryIndexes {
		if aws.ToString(gi.IndexName) == index && aws.ToInt64(gi.ItemCount) != int64(len(want)) {
			t.Fatalf("DescribeTable counts %d entries in %s, want %d", aws.ToInt64(gi.ItemCount), index, len(want))
		}
	}
}

// A server killed in the middle of a Time to Live sweep leaves its lease
// to another, which deletes the rest of the expired items.
func TestNodesTTLTakeover(t *testing.T) {
	needsWire(t)
	ns := startNodes(t, 3, "--node-lease-timeout", "1s", "--ttl-sweep-interval", "50ms", "--ttl-change-cooldown", "0")
	holder := ns.waitLog(t, make([]int, len(ns.procs)), "lease acquired", "lease=ttl")
	other := (holder + 1) % 3
	c := ns.clients[other]
	createHash(t, c, "ttl", types.ScalarAttributeTypeS)
	const expired, live = 1000, 50
	past := fmt.Sprint(time.Now().Add(-time.Hour).Unix())
	future := fmt.Sprint(time.Now().Add(time.Hour).Unix())
	for i := 0; i < expired+live; {
		var reqs []types.WriteRequest
		for ; i < expired+live && len(reqs) < 25; i++ {
			exp := past
			if i >= expired {
				exp = future
			}
			reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: item{"pk": S(fmt.Sprint("k", i)), "exp": N(exp)}}})
		}
		if _, err := c.BatchWriteItem(bg(), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"ttl": reqs}}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.UpdateTimeToLive(bg(), &dynamodb.UpdateTimeToLiveInput{TableName: aws.String("ttl"),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String("exp"), Enabled: aws.Bool(true)}}); err != nil {
		t.Fatal(err)
	}
	// Kill the sweeping node once it has deleted some items.
	deadline := time.Now().Add(time.Minute)
	for count(t, c, "ttl") == expired+live {
		if time.Now().After(deadline) {
			t.Fatalf("nothing swept in a minute:\n%s", ns.logs())
		}
		time.Sleep(2 * time.Millisecond)
	}
	ns.kill(t, holder)
	left := count(t, c, "ttl")
	deadline = time.Now().Add(time.Minute)
	for count(t, c, "ttl") != live {
		if time.Now().After(deadline) {
			t.Fatalf("expired items left a minute on:\n%s", ns.logs())
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("%d items left when the sweeping node was killed", left)
	if left > live && ns.countLog("taking over lease", "lease=ttl") == 0 {
		t.Fatalf("the sweep finished without a takeover:\n%s", ns.logs())
	}
}

// count counts a table's items with a consistent Scan.
func count(t *testing.T, c local.API, table string) int {
	t.Helper()
	n := 0
	p := dynamodb.NewScanPaginator(c, &dynamodb.ScanInput{TableName: aws.String(table), Select: types.SelectCount, ConsistentRead: aws.Bool(true)})
	for p.HasMorePages() {
		out, err := p.NextPage(bg())
		if err != nil {
			t.Fatal(err)
		}
		n += int(out.Count)
	}
	return n
}

// The database itself is stopped hard and started again while two
// servers take writes: no acknowledged write is lost, no transaction is
// half visible, and the servers serve again without a restart.
func TestNodesDatabaseRestart(t *testing.T) {
	needsWire(t)
	// A private cluster: restarting the shared one would break the tests
	// of other packages running meanwhile.
	cl := pgtest.NewCluster(t)
	ns := &nodes{args: append(testserver.StoreArgs(cl.URL, "dynago"), "--store-statement-timeout", "5s")}
	ns.add(t)
	ns.add(t)
	createHash(t, ns.clients[0], "dur", types.ScalarAttributeTypeS)
	var mu sync.Mutex
	acked := map[string]bool{}
	var pairs atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var failed atomic.Int64
	for w := range 4 {
		wg.Go(func() {
			c := ns.clients[w%2]
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				k := fmt.Sprintf("w%d-%d", w, i)
				var err error
				if i%2 == 0 {
					_, err = c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("dur"), Item: item{"pk": S(k)}})
				} else {
					// A pair: both items or neither.
					_, err = c.TransactWriteItems(bg(), &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
						{Put: &types.Put{TableName: aws.String("dur"), Item: item{"pk": S(k + "-a"), "pair": S(k)}}},
						{Put: &types.Put{TableName: aws.String("dur"), Item: item{"pk": S(k + "-b"), "pair": S(k)}}},
					}})
				}
				if err != nil {
					failed.Add(1)
					time.Sleep(10 * time.Millisecond)
					continue
				}
				mu.Lock()
				if i%2 == 0 {
					acked[k] = true
				} else {
					acked[k+"-a"], acked[k+"-b"] = true, true
					pairs.Add(1)
				}
				mu.Unlock()
			}
		})
	}
	// Some pairs are written before the database goes down, and some
	// after it is back.
	waitPairs := func(n int64) {
		t.Helper()
		for deadline := time.Now().Add(time.Minute); pairs.Load() < n; {
			if time.Now().After(deadline) {
				t.Fatalf("%d pairs written in a minute, want %d", pairs.Load(), n)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	waitPairs(5)
	// While the database is down, a node's health check says so.
	cl.Stop(t)
	if res, err := http.Get(ns.procs[0].URL + "/"); err != nil || res.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("GET / with the database down: %v, %v; want 503", res, err)
	} else {
		res.Body.Close()
	}
	cl.Start(t)
	// The servers answer again, without a restart of their own.
	deadline := time.Now().Add(time.Minute)
	for _, c := range ns.clients {
		for {
			if _, err := c.ListTables(bg(), &dynamodb.ListTablesInput{}); err == nil {
				break
			} else if time.Now().After(deadline) {
				t.Fatalf("no answer a minute after the database restarted: %v", err)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	if res, err := http.Get(ns.procs[0].URL + "/"); err != nil || res.StatusCode != http.StatusOK {
		t.Errorf("GET / with the database back: %v, %v; want 200", res, err)
	} else {
		res.Body.Close()
	}
	waitPairs(pairs.Load() + 5) // writes go on after the restart too
	close(stop)
	wg.Wait()
	// Every acknowledged write is there, and every pair is whole.
	items := map[string]item{}
	p := dynamodb.NewScanPaginator(ns.clients[1], &dynamodb.ScanInput{TableName: aws.String("dur"), ConsistentRead: aws.Bool(true)})
	for p.HasMorePages() {
		out, err := p.NextPage(bg())
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range out.Items {
			items[it["pk"].(*types.AttributeValueMemberS).Value] = it
		}
	}
	for k := range acked {
		if items[k] == nil {
			t.Errorf("acknowledged item %s lost", k)
		}
	}
	var keys []string
	for k, it := range items {
		if pr, ok := it["pair"].(*types.AttributeValueMemberS); ok {
			other := pr.Value + "-a"
			if strings.HasSuffix(k, "-a") {
				other = pr.Value + "-b"
			}
			if items[other] == nil {
				keys = append(keys, k)
			}
		}
	}
	sort.Strings(keys)
	if len(keys) > 0 {
		t.Errorf("half-visible transactions: %v", keys)
	}
	t.Logf("%d writes acknowledged (%d pairs), %d failed around the restart", len(acked), pairs.Load(), failed.Load())
	if failed.Load() == 0 {
		t.Logf("no write failed: the restart was absorbed entirely by retries")
	}
}

// Item counts and sizes written through three servers at once add up
// exactly: DescribeTable through every node counts what a Scan finds, for
// the table and its index, before and after the store folds the
// counters' deltas (pgstore folds every second).
func TestNodesCounters(t *testing.T) {
	needsWire(t)
	ns := startNodes(t, 3)
	c := ns.clients[0]
	createHash(t, c, "counted", types.ScalarAttributeTypeS)
	_, err := c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String("counted"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("g"), AttributeType: types.ScalarAttributeTypeS}},
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{
			IndexName: aws.String("byG"), KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("g"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}}}})
	if err != nil {
		t.Fatal(err)
	}
	waitIndexActiveLong(t, c, "counted")
	var wg sync.WaitGroup
	for w := range 6 {
		wg.Go(func() {
			c := ns.clients[w%3]
			for i := range 60 {
				k := item{"pk": S(fmt.Sprint("k", (w*7+i)%40))}
				var err error
				switch i % 4 {
				case 0, 1:
					it := item{"pk": k["pk"], "pad": S(strings.Repeat("x", i))}
					if i%3 != 0 {
						it["g"] = S(fmt.Sprint("g", i%5))
					}
					_, err = c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("counted"), Item: it})
				case 2:
					_, err = c.UpdateItem(bg(), &dynamodb.UpdateItemInput{TableName: aws.String("counted"), Key: k,
						UpdateExpression: aws.String("ADD n :one"), ExpressionAttributeValues: item{":one": N("1")}})
				default:
					_, err = c.DeleteItem(bg(), &dynamodb.DeleteItemInput{TableName: aws.String("counted"), Key: k})
				}
				if err != nil {
					t.Errorf("write: %v", err)
					return
				}
			}
		})
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	items := count(t, c, "counted")
	entries := 0
	p := dynamodb.NewScanPaginator(c, &dynamodb.ScanInput{TableName: aws.String("counted"), IndexName: aws.String("byG"), Select: types.SelectCount})
	for p.HasMorePages() {
		out, err := p.NextPage(bg())
		if err != nil {
			t.Fatal(err)
		}
		entries += int(out.Count)
	}
	check := func(when string) int64 {
		var size int64 = -1
		for i, c := range ns.clients {
			d := describe(t, c, "counted")
			if got := aws.ToInt64(d.ItemCount); got != int64(items) {
				t.Errorf("%s, node %d: ItemCount %d, a Scan finds %d", when, i, got, items)
			}
			if got := aws.ToInt64(d.GlobalSecondaryIndexes[0].ItemCount); got != int64(entries) {
				t.Errorf("%s, node %d: index ItemCount %d, a Scan of the index finds %d", when, i, got, entries)
			}
			if size >= 0 && aws.ToInt64(d.TableSizeBytes) != size {
				t.Errorf("%s, node %d: TableSizeBytes %d, node 0 says %d", when, i, aws.ToInt64(d.TableSizeBytes), size)
			}
			size = aws.ToInt64(d.TableSizeBytes)
		}
		return size
	}
	before := check("at once")
	time.Sleep(1500 * time.Millisecond) // past a fold
	if after := check("after a fold"); after != before {
		t.Errorf("TableSizeBytes %d after a fold, %d before", after, before)
	}
	t.Logf("%d items, %d index entries, %d bytes", items, entries, before)
}
