package engine

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/dynago/dynago/attr"
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

func openPG(t *testing.T, url, schema string) storage.Store {
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

func isItemRow(k []byte) bool { return len(k) > 0 && k[0] == keys.NSData }

// A request retried with its ClientRequestToken through another node is
// applied twice when the first attempt commits between the retry's token
// check and its commit.
func TestSharedTokenAppliedTwiceAcrossNodes(t *testing.T) {
	a, b, ha, _, _, _ := twoNodes(t)
	mustCreate(t, b, "tok", false)
	if a.lookup("tok") == nil {
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
	out, err := b.GetItem(&GetItemInput{TableName: "tok", Key: attr.Item{"pk": attr.S("ctr")}, ConsistentRead: true})
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
	if _, err := a.PutItem(&PutItemInput{TableName: "gtb", Item: gItem(1, "old", 1)}); err != nil {
		t.Fatal(err)
	}
	if b.lookup("gtb") == nil {
		t.Fatal("b does not see g")
	}
	// b's poller reads the catalog (no index yet) and is held before it
	// installs what it read.
	catLower := []byte{keys.NSMeta, metaTagTable}
	reached, goOn := make(chan struct{}), make(chan struct{})
	hb.setClose(once(func(l []byte) bool { return string(l) == string(catLower) }, func() { close(reached); <-goOn }))
	<-reached
	hb.setClose(nil)
	addGSI(t, a, "gtb", "byg")
	waitActive(t, a, "gtb")
	// b describes the table: its cache now has the index.
	if _, err := b.DescribeTable(&DescribeTableInput{TableName: "gtb"}); err != nil {
		t.Fatal(err)
	}
	if b.lookupCached("gtb").index("byg") == nil {
		t.Fatal("b's refresh did not install the index")
	}
	// b updates the item; while it reads the item the poller's stale
	// read lands.
	held, goOn2 := make(chan struct{}), make(chan struct{})
	hb.setGet(once(isItemRow, func() { close(held); <-goOn2 }))
	errc := make(chan error, 1)
	go func() {
		_, err := b.UpdateItem(&UpdateItemInput{TableName: "gtb", Key: attr.Item{"pk": attr.S("item00001")},
			UpdateExpression: "SET g = :g", ExpressionAttributeValues: attr.Item{":g": attr.S("new")}})
		errc <- err
	}()
	<-held
	close(goOn) // the stale reload installs the old entry
	deadline := time.Now().Add(5 * time.Second)
	for b.lookupCached("gtb").index("byg") != nil {
		if time.Now().After(deadline) {
			t.Fatal("no regression observed")
		}
		time.Sleep(time.Millisecond)
	}
	t.Log("b's catalog went back to the entry without the index")
	hb.setGet(nil)
	close(goOn2)
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	for _, g := range []string{"old", "new"} {
		q, err := a.Query(&QueryInput{TableName: "gtb", IndexName: "byg", KeyConditionExpression: "g = :g",
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
	n, m, _, _, url, schema := twoNodes(t)
	arn := createStreamTable(t, n, "stb", ViewNewImage)
	if m.lookup("stb") == nil {
		t.Fatal("m does not see s")
	}
	d, err := m.DescribeStream(&DescribeStreamInput{StreamArn: arn})
	if err != nil {
		t.Fatal(err)
	}
	shard := d.StreamDescription.Shards[0].ShardId
	gi, err := m.GetShardIterator(&GetShardIteratorInput{StreamArn: arn, ShardId: shard, ShardIteratorType: IteratorTrimHorizon})
	if err != nil {
		t.Fatal(err)
	}
	// Another transaction holds the item's row (it will roll back), so
	// n's batch waits inside its transaction, after its expectations.
	tb := n.lookup("stb")
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
	errc := make(chan error, 1)
	go func() {
		_, err := n.PutItem(&PutItemInput{TableName: "stb", Item: attr.Item{"pk": attr.S("x"), "v": attr.S("1")}})
		errc <- err
	}()
	time.Sleep(300 * time.Millisecond) // n's transaction is now waiting on the row
	if err := m.node.fence(n.node.ident()); err != nil {
		t.Fatal(err)
	}
	// The other transaction ends on its own time, whatever the reader
	// does: the reader's snapshot must wait out n's transaction.
	rolledBack := make(chan error, 1)
	go func() {
		time.Sleep(time.Second)
		_, err := x.Exec(ctx, "ROLLBACK")
		rolledBack <- err
	}()
	// m reads: n is fenced, so m no longer waits for n's watermark.
	r, err := m.GetRecords(&GetRecordsInput{ShardIterator: gi.ShardIterator})
	if err != nil {
		t.Fatal(err)
	}
	pos := r.NextShardIterator
	t.Logf("reader: %d records while n's transaction was open", len(r.Records))
	if err := <-rolledBack; err != nil {
		t.Fatal(err)
	}
	if err := <-errc; err != nil {
		t.Logf("n's write failed (%v): no hole this run", err)
		return
	}
	time.Sleep(300 * time.Millisecond)
	r2, err := m.GetRecords(&GetRecordsInput{ShardIterator: pos})
	if err != nil {
		t.Fatal(err)
	}
	gi2, _ := m.GetShardIterator(&GetShardIteratorInput{StreamArn: arn, ShardId: shard, ShardIteratorType: IteratorTrimHorizon})
	all, err := m.GetRecords(&GetRecordsInput{ShardIterator: gi2.ShardIterator})
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
	st, err := pgstore.Open(context.Background(), pgstore.Options{URL: url, Schema: schema, MaxConns: 2, CallTimeout: 3 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	db := mustOpen(t, Options{Store: st})
	_, err = db.CreateTable(&CreateTableInput{
		TableName: "lsi", BillingMode: BillingModePayPerRequest,
		AttributeDefinitions: []AttributeDefinition{{AttributeName: "pk", AttributeType: "S"}, {AttributeName: "sk", AttributeType: "N"}, {AttributeName: "l", AttributeType: "N"}},
		KeySchema:            []KeySchemaElement{{AttributeName: "pk", KeyType: KeyTypeHash}, {AttributeName: "sk", KeyType: KeyTypeRange}},
		LocalSecondaryIndexes: []LocalSecondaryIndex{{IndexName: "byl",
			KeySchema:  []KeySchemaElement{{AttributeName: "pk", KeyType: KeyTypeHash}, {AttributeName: "l", KeyType: KeyTypeRange}},
			Projection: Projection{ProjectionType: ProjectionKeysOnly}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 200; i++ {
		if _, err := db.PutItem(&PutItemInput{TableName: "lsi", Item: attr.Item{"pk": attr.S("p"), "sk": attr.N(fmt.Sprint(i)), "l": attr.N(fmt.Sprint(i)), "x": attr.S("payload")}}); err != nil {
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
				_, err := db.Query(&QueryInput{TableName: "lsi", IndexName: "byl", Select: "ALL_ATTRIBUTES", KeyConditionExpression: "pk = :p",
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
	arn := createStreamTable(t, a, "samenum", ViewNewImage)
	if b.lookup("samenum") == nil {
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
		if _, err := db.PutItem(&PutItemInput{TableName: "samenum", Item: attr.Item{"pk": s(fmt.Sprint("k", i))}}); err != nil {
			t.Fatal(err)
		}
	}
	ha.setGet(nil)
	hb.setGet(nil)
	if _, err := a.UpdateTable(&UpdateTableInput{TableName: "samenum", StreamSpecification: &StreamSpecification{StreamEnabled: false}}); err != nil {
		t.Fatal(err)
	}
	f := newFollower(arn)
	var recs []Record
	for deadline := time.Now().Add(10 * time.Second); ; {
		recs = append(recs, f.poll(t, a)...)
		d, err := a.DescribeStream(&DescribeStreamInput{StreamArn: arn})
		if err != nil {
			t.Fatal(err)
		}
		if sh := d.StreamDescription.Shards; f.done[sh[len(sh)-1].ShardId] {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the stream was not read to its end in 10s")
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
