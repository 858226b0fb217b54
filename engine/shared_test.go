package engine

import (
	"context"
	"fmt"
	neturl "net/url"
	"sync"
	"testing"
	"time"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/internal/keys"
	"github.com/dynago/dynago/internal/pgtest"
	"github.com/dynago/dynago/internal/storage"
	"github.com/dynago/dynago/internal/storage/pgstore"
	"github.com/jackc/pgx/v5"
)

// hookStore delays chosen reads of a shared store, as a slow network would.
type hookStore struct {
	storage.Store
	mu      sync.Mutex
	onGet   func(key []byte) // called before a Get
	onClose func(lower []byte)
}

func (h *hookStore) Get(key, dst []byte) ([]byte, bool, error) {
	h.mu.Lock()
	f := h.onGet
	h.mu.Unlock()
	if f != nil {
		f(key)
	}
	return h.Store.Get(key, dst)
}

type hookIter struct {
	storage.Iter
	lower []byte
	h     *hookStore
}

func (it hookIter) Close() error {
	err := it.Iter.Close()
	it.h.mu.Lock()
	f := it.h.onClose
	it.h.mu.Unlock()
	if f != nil {
		f(it.lower)
	}
	return err
}

func (h *hookStore) NewIter(lower, upper []byte) (storage.Iter, error) {
	it, err := h.Store.NewIter(lower, upper)
	if err != nil {
		return nil, err
	}
	return hookIter{Iter: it, lower: append([]byte(nil), lower...), h: h}, nil
}

func (h *hookStore) setGet(f func([]byte))   { h.mu.Lock(); h.onGet = f; h.mu.Unlock() }
func (h *hookStore) setClose(f func([]byte)) { h.mu.Lock(); h.onClose = f; h.mu.Unlock() }

func openPG(t testing.TB, url, schema string) storage.Store {
	t.Helper()
	st, err := pgstore.Open(context.Background(), pgstore.Options{URL: url, Schema: schema})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func twoNodes(t *testing.T) (a, b *DB, ha, hb *hookStore, url, schema string) {
	url, schema = pgtest.Schema(t)
	ha = &hookStore{Store: openPG(t, url, schema)}
	hb = &hookStore{Store: openPG(t, url, schema)}
	a = mustOpen(t, Options{Store: ha})
	b = mustOpen(t, Options{Store: hb})
	return
}

// once returns a hook that fires f the first time pred holds.
func once(pred func([]byte) bool, f func()) func([]byte) {
	var o sync.Once
	return func(k []byte) {
		if pred(k) {
			o.Do(f)
		}
	}
}

// waitClosed waits for c to be closed by a hook, failing the test after a
// deadline generous enough for a loaded machine.
func waitClosed(t *testing.T, c <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-c:
	case <-time.After(60 * time.Second):
		t.Fatalf("waited 60s for %s", what)
	}
}

// withAppName returns the PostgreSQL URL u with its connections named
// name (application_name).
func withAppName(u, name string) string {
	p, err := neturl.Parse(u)
	if err != nil || p.Scheme == "" {
		return u + " application_name=" + name
	}
	q := p.Query()
	q.Set("application_name", name)
	p.RawQuery = q.Encode()
	return p.String()
}

// waitPG polls cond, a look at PostgreSQL's activity, until it holds,
// failing the test after a deadline generous enough for a loaded machine.
func waitPG(t *testing.T, cond func() bool, what string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited 60s for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func isItemRow(k []byte) bool { return len(k) > 0 && k[0] == keys.NSData }

// A request retried with its ClientRequestToken through another node is
// applied twice when the first attempt commits between the retry's token
// check and its commit.
func TestSharedTokenAppliedTwiceAcrossNodes(t *testing.T) {
	a, b, ha, _, _, _ := twoNodes(t)
	mustCreate(t, b, "tok", false)
	if lookupOK(t, a, "tok") == nil {
		t.Fatal("node a does not see the table")
	}
	reached, goOn := make(chan struct{}), make(chan struct{})
	ha.setGet(once(isItemRow, func() { close(reached); <-goOn }))
	errc := make(chan error, 1)
	go func() {
		_, err := a.TransactWriteItems(tokenAdd("T1", "1"))
		errc <- err
	}()
	<-reached // node a has checked the token (absent) and is reading the item
	if _, err := b.TransactWriteItems(tokenAdd("T1", "1")); err != nil {
		t.Fatal(err)
	}
	ha.setGet(nil)
	close(goOn)
	if err := <-errc; err != nil {
		t.Fatalf("node a: %v", err)
	}
	out, err := b.GetItem(&dynamo.GetItemInput{TableName: "tok", Key: attr.Item{"pk": attr.S("ctr")}, ConsistentRead: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := out.Item["n"].S; got != "1" {
		t.Errorf("one request with token T1, sent twice: counter = %s, want 1", got)
	}
}

// The catalog cache can go back to an older entry (a reload that read
// the catalog before a refresh installs what it read after it); a write
// that expects the newer entry then maintains the indexes of the older.
func TestSharedCatalogRegressionSkipsIndex(t *testing.T) {
	a, b, _, hb, _, _ := twoNodes(t)
	createGSITable(t, a, "gtb")
	if _, err := a.PutItem(&dynamo.PutItemInput{TableName: "gtb", Item: gItem(1, "old", 1)}); err != nil {
		t.Fatal(err)
	}
	if lookupOK(t, b, "gtb") == nil {
		t.Fatal("b does not see g")
	}
	// b's poller reads the catalog (no index yet) and is held before it
	// installs what it read.
	catLower := []byte{keys.NSMeta, metaTagTable}
	isCatalog := func(l []byte) bool { return string(l) == string(catLower) }
	reached, goOn := make(chan struct{}), make(chan struct{})
	release := func(c chan struct{}) func() {
		var o sync.Once
		return func() { o.Do(func() { close(c) }) }
	}
	releasePoll := release(goOn)
	defer releasePoll() // b's Close waits for its poller
	hb.setClose(once(isCatalog, func() { close(reached); <-goOn }))
	waitClosed(t, reached, "b's poller reading the catalog")
	hb.setClose(nil)
	addGSI(t, a, "gtb", "byg")
	waitActive(t, a, "gtb")
	// b describes the table: its cache now has the index.
	if _, err := b.DescribeTable(&dynamo.DescribeTableInput{TableName: "gtb"}); err != nil {
		t.Fatal(err)
	}
	if b.lookupCached("gtb").index("byg") == nil {
		t.Fatal("b's refresh did not install the index")
	}
	// b updates the item; while it reads the item the poller's stale
	// read lands.
	held, goOn2 := make(chan struct{}), make(chan struct{})
	releaseWrite := release(goOn2)
	defer releaseWrite()
	hb.setGet(once(isItemRow, func() { close(held); <-goOn2 }))
	errc := make(chan error, 1)
	go func() {
		_, err := b.UpdateItem(&dynamo.UpdateItemInput{TableName: "gtb", Key: attr.Item{"pk": attr.S("item00001")},
			UpdateExpression: "SET g = :g", ExpressionAttributeValues: attr.Item{":g": attr.S("new")}})
		errc <- err
	}()
	waitClosed(t, held, "b's update reading the item")
	// The poller's next reload is held too, once it has read the
	// catalog: by then the stale reload has installed what it read, and
	// nothing puts the index back until the test lets the poller go on.
	reached2, goOn3 := make(chan struct{}), make(chan struct{})
	releasePoll2 := release(goOn3)
	defer releasePoll2()
	hb.setClose(once(isCatalog, func() { close(reached2); <-goOn3 }))
	releasePoll() // the stale reload installs the old entry
	waitClosed(t, reached2, "b's poller reloading the catalog again")
	hb.setClose(nil)
	if b.lookupCached("gtb").index("byg") != nil {
		t.Fatal("no regression: b's catalog kept the index after the stale reload")
	}
	t.Log("b's catalog went back to the entry without the index")
	hb.setGet(nil)
	releaseWrite()
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	releasePoll2()
	for _, g := range []string{"old", "new"} {
		q, err := a.Query(&dynamo.QueryInput{TableName: "gtb", IndexName: "byg", KeyConditionExpression: "g = :g",
			ExpressionAttributeValues: attr.Item{":g": attr.S(g)}})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("index byg, g=%s: %d items", g, len(q.Items))
		want := 0
		if g == "new" {
			want = 1
		}
		if len(q.Items) != want {
			t.Errorf("index byg has %d items with g=%s, want %d (item00001 has g=new)", len(q.Items), g, want)
		}
	}
}

// A batch of a node that is fenced while its transaction is open, and
// commits after the fence, must not land behind a reader that no longer
// waits for that node: the reader's view of what is settled is a
// serializable snapshot taken after the fence, which waits such a
// transaction out.
func TestSharedFencedNodeCommitsBehindReader(t *testing.T) {
	url, schema := pgtest.Schema(t)
	// m's connections carry a name of their own, to find its reader's
	// wait among the cluster's sessions.
	mApp := fmt.Sprintf("dynago-test-%d", time.Now().UnixNano())
	n := mustOpen(t, Options{Store: openPG(t, url, schema)})
	m := mustOpen(t, Options{Store: openPG(t, withAppName(url, mApp), schema)})
	arn := createStreamTable(t, n, "stb", dynamo.ViewNewImage)
	if lookupOK(t, m, "stb") == nil {
		t.Fatal("m does not see s")
	}
	d, err := m.DescribeStream(&dynamo.DescribeStreamInput{StreamArn: arn})
	if err != nil {
		t.Fatal(err)
	}
	shard := d.StreamDescription.Shards[0].ShardId
	gi, err := m.GetShardIterator(&dynamo.GetShardIteratorInput{StreamArn: arn, ShardId: shard, ShardIteratorType: dynamo.IteratorTrimHorizon})
	if err != nil {
		t.Fatal(err)
	}
	// Another transaction holds the item's row (it will roll back), so
	// n's batch waits inside its transaction, after its expectations.
	tb := lookupOK(t, n, "stb")
	k := itemKey{pk: attr.S("x")}
	if err := tb.locate(&k); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	x, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close(ctx)
	kv := pgx.Identifier{schema, "kv"}.Sanitize()
	if _, err := x.Exec(ctx, "BEGIN"); err != nil {
		t.Fatal(err)
	}
	if _, err := x.Exec(ctx, "INSERT INTO "+kv+" (k, v) VALUES ($1, $2)", k.row, []byte("tmp")); err != nil {
		t.Fatal(err)
	}
	// A connection of the test's own watches the others' waits in
	// pg_stat_activity.
	mon, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer mon.Close(ctx)
	errc := make(chan error, 1)
	go func() {
		_, err := n.PutItem(&dynamo.PutItemInput{TableName: "stb", Item: attr.Item{"pk": attr.S("x"), "v": attr.S("1")}})
		errc <- err
	}()
	// n's transaction waits on the row x holds.
	waitPG(t, func() bool {
		select {
		case err := <-errc:
			t.Fatalf("n's write did not wait on the row: %v", err)
		default:
		}
		var waiting int
		err := mon.QueryRow(ctx, "SELECT count(*) FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))", x.PgConn().PID()).Scan(&waiting)
		return err == nil && waiting > 0
	}, "n's transaction waiting on the row")
	if err := m.node.fence(n.node.ident()); err != nil {
		t.Fatal(err)
	}
	// m reads: n is fenced, so m no longer waits for n's watermark.
	type read struct {
		out *dynamo.GetRecordsOutput
		err error
	}
	readc := make(chan read, 1)
	go func() {
		r, err := m.GetRecords(&dynamo.GetRecordsInput{ShardIterator: gi.ShardIterator})
		readc <- read{r, err}
	}()
	// The other transaction ends once the reader waits for n's (its
	// snapshot must), or once the reader has answered without waiting.
	var rd read
	answered := false
	waitPG(t, func() bool {
		select {
		case rd = <-readc:
			answered = true
			return true
		default:
		}
		var waiting int
		err := mon.QueryRow(ctx, "SELECT count(*) FROM pg_stat_activity WHERE application_name = $1 AND wait_event = 'SafeSnapshot'", mApp).Scan(&waiting)
		return err == nil && waiting > 0
	}, "the reader waiting for n's transaction")
	t.Logf("reader answered before the other transaction ended: %v", answered)
	if _, err := x.Exec(ctx, "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	if !answered {
		rd = <-readc
	}
	if rd.err != nil {
		t.Fatal(rd.err)
	}
	r := rd.out
	pos := r.NextShardIterator
	t.Logf("reader: %d records while n's transaction was open", len(r.Records))
	if err := <-errc; err != nil {
		t.Logf("n's write failed (%v): no hole this run", err)
		return
	}
	// Everything from TRIM_HORIZON first, then from the reader's
	// position: a record the first read sees, the second sees too unless
	// it lies behind the position.
	gi2, _ := m.GetShardIterator(&dynamo.GetShardIteratorInput{StreamArn: arn, ShardId: shard, ShardIteratorType: dynamo.IteratorTrimHorizon})
	all, err := m.GetRecords(&dynamo.GetRecordsInput{ShardIterator: gi2.ShardIterator})
	if err != nil {
		t.Fatal(err)
	}
	r2, err := m.GetRecords(&dynamo.GetRecordsInput{ShardIterator: pos})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("after n's commit: reader from its position sees %d records; from TRIM_HORIZON %d", len(r2.Records), len(all.Records))
	if len(all.Records) > len(r.Records)+len(r2.Records) {
		t.Errorf("a record (seq %s) committed behind the reader's position: the reader never sees it", all.Records[len(all.Records)-1].Dynamodb.SequenceNumber)
	}
	_ = fmt.Sprint
}

// A Query on a local index that fetches table attributes holds its
// iterator's connection past the first page while each fetch needs
// another one. Iterators hold at most half the pool, so concurrent such
// queries never take every connection; a pool of one is refused.
func TestSharedLSIFetchPoolDeadlock(t *testing.T) {
	url, schema := pgtest.Schema(t)
	if st, err := pgstore.Open(context.Background(), pgstore.Options{URL: url, Schema: schema, MaxConns: 1}); err == nil {
		st.Close()
		t.Fatal("a pool of one connection was accepted")
	}
	st, err := pgstore.Open(context.Background(), pgstore.Options{URL: url, Schema: schema, MaxConns: 2, CallTimeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	db := mustOpen(t, Options{Store: st})
	_, err = db.CreateTable(&dynamo.CreateTableInput{
		TableName: "lsi", BillingMode: dynamo.BillingModePayPerRequest,
		AttributeDefinitions: []dynamo.AttributeDefinition{{AttributeName: "pk", AttributeType: "S"}, {AttributeName: "sk", AttributeType: "N"}, {AttributeName: "l", AttributeType: "N"}},
		KeySchema:            []dynamo.KeySchemaElement{{AttributeName: "pk", KeyType: dynamo.KeyTypeHash}, {AttributeName: "sk", KeyType: dynamo.KeyTypeRange}},
		LocalSecondaryIndexes: []dynamo.LocalSecondaryIndex{{IndexName: "byl",
			KeySchema:  []dynamo.KeySchemaElement{{AttributeName: "pk", KeyType: dynamo.KeyTypeHash}, {AttributeName: "l", KeyType: dynamo.KeyTypeRange}},
			Projection: dynamo.Projection{ProjectionType: dynamo.ProjectionKeysOnly}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 200; i++ {
		if _, err := db.PutItem(&dynamo.PutItemInput{TableName: "lsi", Item: attr.Item{"pk": attr.S("p"), "sk": attr.N(fmt.Sprint(i)), "l": attr.N(fmt.Sprint(i)), "x": attr.S("payload")}}); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	start := time.Now()
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 30; j++ {
				_, err := db.Query(&dynamo.QueryInput{TableName: "lsi", IndexName: "byl", Select: "ALL_ATTRIBUTES", KeyConditionExpression: "pk = :p",
					ExpressionAttributeValues: attr.Item{":p": attr.S("p")}})
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	n := 0
	for err := range errs {
		n++
		t.Logf("query failed after %v: %v", time.Since(start).Round(time.Millisecond), err)
	}
	if n > 0 {
		t.Errorf("%d of 4 concurrent LSI queries failed on a pool of 2", n)
	}
}

// Two nodes whose clocks read the same instant hand out the same stream
// number. Both records must be read: a record that lands on another's
// number must not replace it (it did: the record was written with an
// upsert, and the first node's acknowledged change vanished from the
// stream), nor be replaced by it.
func TestSharedSameStreamNumberOnTwoNodes(t *testing.T) {
	a, b, ha, hb, _, _ := twoNodes(t)
	arn := createStreamTable(t, a, "samenum", dynamo.ViewNewImage)
	if lookupOK(t, b, "samenum") == nil {
		t.Fatal("b does not see the table")
	}
	same := clockSeq() + 1<<36
	isPos := func(k []byte) bool { return len(k) > 1 && k[0] == keys.NSMeta && k[1] == metaTagStreamPos }
	at := func(db *DB) func() {
		return func() { db.node.mu.Lock(); db.node.last = same; db.node.mu.Unlock() }
	}
	ha.setGet(once(isPos, at(a)))
	hb.setGet(once(isPos, at(b)))
	for i, db := range []*DB{a, b} {
		if _, err := db.PutItem(&dynamo.PutItemInput{TableName: "samenum", Item: attr.Item{"pk": s(fmt.Sprint("k", i))}}); err != nil {
			t.Fatal(err)
		}
	}
	ha.setGet(nil)
	hb.setGet(nil)
	if _, err := a.UpdateTable(&dynamo.UpdateTableInput{TableName: "samenum", StreamSpecification: &dynamo.StreamSpecification{StreamEnabled: false}}); err != nil {
		t.Fatal(err)
	}
	f := newFollower(arn)
	var recs []dynamo.Record
	for deadline := time.Now().Add(60 * time.Second); ; {
		recs = append(recs, f.poll(t, a)...)
		d, err := a.DescribeStream(&dynamo.DescribeStreamInput{StreamArn: arn})
		if err != nil {
			t.Fatal(err)
		}
		if sh := d.StreamDescription.Shards; f.done[sh[len(sh)-1].ShardId] {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the stream was not read to its end in 60s")
		}
		time.Sleep(20 * time.Millisecond)
	}
	got := map[string]string{}
	for _, r := range recs {
		got[r.Dynamodb.Keys["pk"].S] = r.Dynamodb.SequenceNumber
	}
	if len(recs) != 2 || len(got) != 2 {
		t.Errorf("two items written, one through each node: records %v, want one for each of k0 and k1", got)
	}
}

// lookupOK is db.lookup for a test, which fails on a store error.
func lookupOK(t testing.TB, db *DB, name string) *table {
	t.Helper()
	tb, err := db.lookup(name)
	if err != nil {
		t.Errorf("look up table %s: %v", name, err)
	}
	return tb
}

// TestSharedPITRClockSkew: two nodes on one store, one's clock an hour
// ahead, write one item in turn with point-in-time recovery on. The node
// behind meets versions newer than its clock gives: its writes still
// succeed, and the item's versions stay in the order of its writes (each
// holds the image the one before it wrote).
func TestSharedPITRClockSkew(t *testing.T) {
	url, schema := pgtest.Schema(t)
	a := mustOpen(t, Options{Store: openPG(t, url, schema)})
	b := mustOpen(t, Options{Store: openPG(t, url, schema), Now: func() time.Time { return time.Now().Add(time.Hour) }})
	createBackupTable(t, a, "skew")
	if _, err := a.UpdateContinuousBackups(&dynamo.UpdateContinuousBackupsInput{TableName: "skew",
		PointInTimeRecoverySpecification: &dynamo.PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: true}}); err != nil {
		t.Fatal(err)
	}
	for i, db := range []*DB{b, a, b, a, a} {
		it := attr.Item{"pk": attr.S("x"), "sk": attr.N("1"), "v": attr.N(fmt.Sprint(i))}
		if _, err := db.PutItem(&dynamo.PutItemInput{TableName: "skew", Item: it}); err != nil {
			t.Fatalf("write %d: %v", i, err)
		}
	}
	if a.undo.clampUntil.Load() == 0 {
		t.Errorf("the node behind never met a newer version")
	}
	log := a.lookupCached("skew").meta.UndoLog
	p := keys.IndexPrefix(log, 0)
	it, err := a.store.NewIter(p, keys.PrefixEnd(p))
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	var olds []string
	for ok := it.First(); ok; ok = it.Next() {
		v := it.Value()
		if v[0] == 0 {
			olds = append(olds, "none")
			continue
		}
		st, err := parseRow(v[1:])
		if err != nil {
			t.Fatal(err)
		}
		item, err := st.Item()
		if err != nil {
			t.Fatal(err)
		}
		olds = append(olds, item["v"].S)
	}
	if got, want := fmt.Sprint(olds), "[none 0 1 2 3]"; got != want {
		t.Fatalf("the versions' old images in time order: %s, want %s", got, want)
	}
}
