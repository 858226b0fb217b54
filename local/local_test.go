package local_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	streamtypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"

	"github.com/dynago/dynago/local"
)

// Order is what the tests store, through attributevalue.
type Order struct {
	Customer string   `dynamodbav:"customer"`
	ID       int      `dynamodbav:"id"`
	Total    float64  `dynamodbav:"total"`
	Status   string   `dynamodbav:"status"`
	Tags     []string `dynamodbav:"tags,stringset,omitempty"`
}

func open(t *testing.T, opts ...local.Option) *local.DB {
	t.Helper()
	db, err := local.Open(opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := db.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	return db
}

// createOrders creates the Orders table (customer, id) with a stream of
// new and old images, and waits for it with the SDK's waiter.
func createOrders(t *testing.T, c *dynamodb.Client) {
	t.Helper()
	ctx := context.Background()
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName: aws.String("Orders"),
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("customer"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeN},
		},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("customer"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("id"), KeyType: types.KeyTypeRange},
		},
		BillingMode: types.BillingModePayPerRequest,
		StreamSpecification: &types.StreamSpecification{
			StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages,
		},
	})
	if err != nil {
		t.Fatalf("CreateTable: %v", err)
	}
	w := dynamodb.NewTableExistsWaiter(c)
	if err := w.Wait(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("Orders")}, 10*time.Second); err != nil {
		t.Fatalf("table exists waiter: %v", err)
	}
}

func put(t *testing.T, c *dynamodb.Client, o Order) {
	t.Helper()
	item, err := attributevalue.MarshalMap(o)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String("Orders"), Item: item}); err != nil {
		t.Fatalf("PutItem: %v", err)
	}
}

func key(customer string, id int) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{
		"customer": &types.AttributeValueMemberS{Value: customer},
		"id":       &types.AttributeValueMemberN{Value: fmt.Sprint(id)},
	}
}

func TestItemsRoundTrip(t *testing.T) {
	db := open(t)
	c := db.Client()
	ctx := context.Background()
	createOrders(t, c)

	want := Order{Customer: "alice", ID: 7, Total: 12.5, Status: "new", Tags: []string{"gift", "rush"}}
	put(t, c, want)
	out, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("Orders"), Key: key("alice", 7), ConsistentRead: aws.Bool(true)})
	if err != nil {
		t.Fatalf("GetItem: %v", err)
	}
	var got Order
	if err := attributevalue.UnmarshalMap(out.Item, &got); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("read back %+v, wrote %+v", got, want)
	}

	// An update built with the expression builder, conditional on the
	// status, returning the new values.
	cond := expression.Name("status").Equal(expression.Value("new"))
	upd := expression.Set(expression.Name("status"), expression.Value("paid")).
		Add(expression.Name("total"), expression.Value(2.5))
	expr, err := expression.NewBuilder().WithCondition(cond).WithUpdate(upd).Build()
	if err != nil {
		t.Fatal(err)
	}
	uout, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName: aws.String("Orders"), Key: key("alice", 7),
		ConditionExpression: expr.Condition(), UpdateExpression: expr.Update(),
		ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values(),
		ReturnValues: types.ReturnValueAllNew,
	})
	if err != nil {
		t.Fatalf("UpdateItem: %v", err)
	}
	if err := attributevalue.UnmarshalMap(uout.Attributes, &got); err != nil {
		t.Fatal(err)
	}
	if got.Status != "paid" || got.Total != 15 {
		t.Fatalf("after update: %+v, want status paid and total 15", got)
	}

	// The same update again fails its condition, with the SDK's typed
	// error carrying the item as it is.
	_, err = c.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName: aws.String("Orders"), Key: key("alice", 7),
		ConditionExpression: expr.Condition(), UpdateExpression: expr.Update(),
		ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values(),
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
	})
	var ccf *types.ConditionalCheckFailedException
	if !errors.As(err, &ccf) {
		t.Fatalf("second UpdateItem: got %v, want a ConditionalCheckFailedException", err)
	}
	if s, ok := ccf.Item["status"].(*types.AttributeValueMemberS); !ok || s.Value != "paid" {
		t.Fatalf("ConditionalCheckFailedException.Item = %v, want the item with status paid", ccf.Item)
	}

	// A transaction whose condition fails is cancelled with its reasons.
	_, err = c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Put: &types.Put{TableName: aws.String("Orders"), Item: key("bob", 1)}},
		{ConditionCheck: &types.ConditionCheck{TableName: aws.String("Orders"), Key: key("alice", 7),
			ConditionExpression: aws.String("attribute_not_exists(customer)")}},
	}})
	var tce *types.TransactionCanceledException
	if !errors.As(err, &tce) {
		t.Fatalf("TransactWriteItems: got %v, want a TransactionCanceledException", err)
	}
	if len(tce.CancellationReasons) != 2 || aws.ToString(tce.CancellationReasons[0].Code) != "None" ||
		aws.ToString(tce.CancellationReasons[1].Code) != "ConditionalCheckFailed" {
		t.Fatalf("cancellation reasons %+v", tce.CancellationReasons)
	}
	// Nothing of it was written.
	gout, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("Orders"), Key: key("bob", 1)})
	if err != nil || gout.Item != nil {
		t.Fatalf("GetItem of the cancelled put: %v, %v", gout.Item, err)
	}

	// A table that does not exist is the SDK's typed error too.
	_, err = c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("Nope"), Key: key("a", 1)})
	var rnf *types.ResourceNotFoundException
	if !errors.As(err, &rnf) {
		t.Fatalf("GetItem on a missing table: got %v, want ResourceNotFoundException", err)
	}
}

func TestPaginatorsAndLargeAnswers(t *testing.T) {
	db := open(t)
	// The client asks for gzip, and checks the CRC32 of the compressed
	// bytes before it decompresses them.
	gz := &gzipCounter{next: db.HTTPClient()}
	c := db.Client(func(o *dynamodb.Options) { o.EnableAcceptEncodingGzip = true; o.HTTPClient = gz })
	ctx := context.Background()
	createOrders(t, c)
	const n = 45
	// Items of about 1 KB, so that pages are large enough to be gzipped
	// (from 4 KiB).
	pad := strings.Repeat("x", 1000)
	for i := range n {
		put(t, c, Order{Customer: "carol", ID: i, Total: float64(i), Status: pad})
	}
	put(t, c, Order{Customer: "dave", ID: 1})

	keyCond := expression.Key("customer").Equal(expression.Value("carol")).And(expression.Key("id").GreaterThanEqual(expression.Value(5)))
	expr, err := expression.NewBuilder().WithKeyCondition(keyCond).Build()
	if err != nil {
		t.Fatal(err)
	}
	p := dynamodb.NewQueryPaginator(c, &dynamodb.QueryInput{
		TableName: aws.String("Orders"), KeyConditionExpression: expr.KeyCondition(),
		ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values(),
		Limit: aws.Int32(10),
	})
	var ids []int
	pages := 0
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			t.Fatalf("query page %d: %v", pages, err)
		}
		pages++
		var orders []Order
		if err := attributevalue.UnmarshalListOfMaps(page.Items, &orders); err != nil {
			t.Fatal(err)
		}
		for _, o := range orders {
			if o.Status != pad {
				t.Fatalf("item %d came back with a status of %d bytes", o.ID, len(o.Status))
			}
			ids = append(ids, o.ID)
		}
	}
	if gz.n.Load() < 4 {
		t.Fatalf("%d answers came gzipped, want the 4 full pages at least", gz.n.Load())
	}
	if len(ids) != n-5 || pages != 5 {
		t.Fatalf("query: %d items in %d pages, want %d in 5 (4 full, then an empty last page)", len(ids), pages, n-5)
	}
	for i, id := range ids {
		if id != i+5 {
			t.Fatalf("query item %d has id %d, want %d (sort key order)", i, id, i+5)
		}
	}

	sp := dynamodb.NewScanPaginator(c, &dynamodb.ScanInput{TableName: aws.String("Orders"), Limit: aws.Int32(7)})
	seen := 0
	for sp.HasMorePages() {
		page, err := sp.NextPage(ctx)
		if err != nil {
			t.Fatalf("scan: %v", err)
		}
		seen += len(page.Items)
	}
	if seen != n+1 {
		t.Fatalf("scan saw %d items, want %d", seen, n+1)
	}

	// BatchGetItem's answer (about 45 KB) also comes back whole.
	var keys []map[string]types.AttributeValue
	for i := range n {
		keys = append(keys, key("carol", i))
	}
	bout, err := c.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{
		"Orders": {Keys: keys},
	}})
	if err != nil {
		t.Fatalf("BatchGetItem: %v", err)
	}
	if got := len(bout.Responses["Orders"]); got != n {
		t.Fatalf("BatchGetItem: %d items, want %d", got, n)
	}
}

// gzipCounter counts the answers that come gzipped.
type gzipCounter struct {
	next *local.Transport
	n    atomic.Int32
}

func (g *gzipCounter) Do(req *http.Request) (*http.Response, error) {
	res, err := g.next.Do(req)
	if err == nil && res.Header.Get("Content-Encoding") == "gzip" {
		g.n.Add(1)
	}
	return res, err
}

func TestStreamAndWaiters(t *testing.T) {
	db := open(t)
	c := db.Client()
	sc := db.StreamsClient()
	ctx := context.Background()
	createOrders(t, c)
	put(t, c, Order{Customer: "erin", ID: 1, Status: "new"})
	put(t, c, Order{Customer: "erin", ID: 1, Status: "paid"})

	desc, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("Orders")})
	if err != nil {
		t.Fatal(err)
	}
	arn := desc.Table.LatestStreamArn
	if arn == nil || !strings.HasPrefix(*arn, "arn:aws:dynamodb:us-east-1:"+local.AccountID+":table/Orders/stream/") {
		t.Fatalf("LatestStreamArn = %v", aws.ToString(arn))
	}
	sd, err := sc.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: arn})
	if err != nil {
		t.Fatalf("DescribeStream: %v", err)
	}
	if len(sd.StreamDescription.Shards) == 0 {
		t.Fatal("DescribeStream: no shards")
	}
	it, err := sc.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{
		StreamArn: arn, ShardId: sd.StreamDescription.Shards[0].ShardId,
		ShardIteratorType: streamtypes.ShardIteratorTypeTrimHorizon,
	})
	if err != nil {
		t.Fatalf("GetShardIterator: %v", err)
	}
	recs, err := sc.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: it.ShardIterator})
	if err != nil {
		t.Fatalf("GetRecords: %v", err)
	}
	if len(recs.Records) != 2 {
		t.Fatalf("GetRecords: %d records, want 2", len(recs.Records))
	}
	r0, r1 := recs.Records[0], recs.Records[1]
	if r0.EventName != streamtypes.OperationTypeInsert || r1.EventName != streamtypes.OperationTypeModify {
		t.Fatalf("events %s, %s; want INSERT, MODIFY", r0.EventName, r1.EventName)
	}
	oldStatus, ok1 := r1.Dynamodb.OldImage["status"].(*streamtypes.AttributeValueMemberS)
	newStatus, ok2 := r1.Dynamodb.NewImage["status"].(*streamtypes.AttributeValueMemberS)
	if !ok1 || !ok2 || oldStatus.Value != "new" || newStatus.Value != "paid" {
		t.Fatalf("MODIFY images: old %v, new %v", r1.Dynamodb.OldImage, r1.Dynamodb.NewImage)
	}

	if _, err := c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String("Orders")}); err != nil {
		t.Fatal(err)
	}
	if err := dynamodb.NewTableNotExistsWaiter(c).Wait(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("Orders")}, 10*time.Second); err != nil {
		t.Fatalf("table not exists waiter: %v", err)
	}
}

// TestConcurrentClients runs writers and readers on one database from
// many goroutines (go test -race checks the transport and recorder).
func TestConcurrentClients(t *testing.T) {
	db := open(t)
	c := db.Client()
	createOrders(t, c)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := db.Client() // clients of their own and a shared one both work
			if g%2 == 0 {
				c = db.Client()
			}
			for i := range 25 {
				item, _ := attributevalue.MarshalMap(Order{Customer: fmt.Sprint("c", g), ID: i})
				if _, err := c.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String("Orders"), Item: item}); err != nil {
					t.Errorf("PutItem: %v", err)
					return
				}
			}
		}()
	}
	wg.Wait()
	out, err := c.Scan(context.Background(), &dynamodb.ScanInput{TableName: aws.String("Orders"), Select: types.SelectCount})
	if err != nil {
		t.Fatal(err)
	}
	if out.Count != 200 {
		t.Fatalf("Count = %d, want 200", out.Count)
	}
}

// TestDatabasesAreIsolated checks that two databases share nothing.
func TestDatabasesAreIsolated(t *testing.T) {
	a, b := open(t).Client(), open(t).Client()
	createOrders(t, a)
	out, err := b.ListTables(context.Background(), &dynamodb.ListTablesInput{})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.TableNames) != 0 {
		t.Fatalf("the second database lists %v", out.TableNames)
	}
}

func TestClosed(t *testing.T) {
	db, err := local.Open()
	if err != nil {
		t.Fatal(err)
	}
	c := db.Client(func(o *dynamodb.Options) { o.Retryer = aws.NopRetryer{} })
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	_, err = c.ListTables(context.Background(), &dynamodb.ListTablesInput{})
	if !errors.Is(err, local.ErrClosed) {
		t.Fatalf("ListTables after Close: %v, want ErrClosed", err)
	}
}

func TestOnDisk(t *testing.T) {
	dir := t.TempDir()
	db, err := local.Open(local.WithDir(dir))
	if err != nil {
		t.Fatal(err)
	}
	createOrders(t, db.Client())
	put(t, db.Client(), Order{Customer: "fay", ID: 3})
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = open(t, local.WithDir(dir))
	out, err := db.Client().GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String("Orders"), Key: key("fay", 3)})
	if err != nil || out.Item == nil {
		t.Fatalf("GetItem after reopening: %v, %v", out.Item, err)
	}
}

// TestBeyondTheMemtable writes several times the small memtable of a
// local database (so Pebble flushes, and reads go through the small
// block cache) and reads everything back.
func TestBeyondTheMemtable(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 10 MB")
	}
	db := open(t)
	c := db.Client()
	ctx := context.Background()
	createOrders(t, c)
	pad := strings.Repeat("z", 4000)
	const n = 2500
	for i := 0; i < n; i += 25 {
		var reqs []types.WriteRequest
		for j := i; j < i+25; j++ {
			item, _ := attributevalue.MarshalMap(Order{Customer: fmt.Sprint("big", j%10), ID: j, Status: pad})
			reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: item}})
		}
		out, err := c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"Orders": reqs}})
		if err != nil || len(out.UnprocessedItems) != 0 {
			t.Fatalf("BatchWriteItem: %v, %d unprocessed", err, len(out.UnprocessedItems))
		}
	}
	total := 0
	p := dynamodb.NewScanPaginator(c, &dynamodb.ScanInput{TableName: aws.String("Orders")})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range page.Items {
			if s, _ := it["status"].(*types.AttributeValueMemberS); s == nil || s.Value != pad {
				t.Fatalf("item %v lost its status", it["id"])
			}
		}
		total += len(page.Items)
	}
	if total != n {
		t.Fatalf("scan read %d items, want %d", total, n)
	}
}
