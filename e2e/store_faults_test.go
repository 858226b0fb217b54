package e2e

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	streamtypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
	"github.com/aws/smithy-go"

	"github.com/dynago/dynago/internal/pgtest"
	"github.com/dynago/dynago/internal/storage"
	"github.com/dynago/dynago/internal/storage/faultstore"
	"github.com/dynago/dynago/internal/storage/pebblestore"
	"github.com/dynago/dynago/testserver"
)

// A store that cannot be read or written is dynago's own fault: DynamoDB
// answers its own failures with HTTP 500 InternalServerError ("Internal
// server error") or 503, which the SDKs retry
// (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Programming.Errors.html),
// never with a ResourceNotFoundException, an empty list or a missing
// item, which they do not retry and which applications act upon.

// faultStores are the stores the fault tests run on: Pebble in memory,
// and PostgreSQL when the environment names a server.
var faultStores = []struct {
	name string
	open func(t *testing.T) storage.Store
}{
	{"pebble", func(t *testing.T) storage.Store {
		st, err := pebblestore.Open(pebblestore.Options{InMemory: true, MemTableSize: 1 << 20, CacheSize: 1 << 20})
		if err != nil {
			t.Fatal(err)
		}
		return st
	}},
	{"postgres", func(t *testing.T) storage.Store {
		url, schema := pgtest.Schema(t)
		return testserver.OpenPostgres(t, url, schema)
	}},
}

// wantServerError fails t unless err is an HTTP 5xx answer with
// DynamoDB's InternalServerError or ServiceUnavailable.
func wantServerError(t *testing.T, what string, err error) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: succeeded with the store failing; want a 5xx", what)
		return
	}
	var re *awshttp.ResponseError
	var ae smithy.APIError
	if !errors.As(err, &re) || !errors.As(err, &ae) {
		t.Errorf("%s: %v; want an HTTP 5xx from the server", what, err)
		return
	}
	if re.HTTPStatusCode() < 500 || (ae.ErrorCode() != "InternalServerError" && ae.ErrorCode() != "ServiceUnavailable") {
		t.Errorf("%s: HTTP %d %s: %s; want 500 InternalServerError or 503 ServiceUnavailable",
			what, re.HTTPStatusCode(), ae.ErrorCode(), ae.ErrorMessage())
	}
}

// faultOp is one request of the fault tests; write ops return the key of
// an item they would create, which must be absent after they failed.
type faultOp struct {
	name  string
	write bool
	do    func(c *dynamodb.Client, n int) (created []string, err error)
}

func faultOps() []faultOp {
	tbl := aws.String("flt")
	key := func(pk string) item { return item{"pk": S(pk)} }
	return []faultOp{
		{"ListTables", false, func(c *dynamodb.Client, _ int) ([]string, error) {
			_, err := c.ListTables(bg(), &dynamodb.ListTablesInput{})
			return nil, err
		}},
		{"DescribeTable", false, func(c *dynamodb.Client, _ int) ([]string, error) {
			_, err := c.DescribeTable(bg(), &dynamodb.DescribeTableInput{TableName: tbl})
			return nil, err
		}},
		{"GetItem", false, func(c *dynamodb.Client, _ int) ([]string, error) {
			_, err := c.GetItem(bg(), &dynamodb.GetItemInput{TableName: tbl, Key: key("a")})
			return nil, err
		}},
		{"Query", false, func(c *dynamodb.Client, _ int) ([]string, error) {
			_, err := c.Query(bg(), &dynamodb.QueryInput{TableName: tbl, KeyConditionExpression: aws.String("pk = :k"),
				ExpressionAttributeValues: item{":k": S("a")}})
			return nil, err
		}},
		{"Query GSI", false, func(c *dynamodb.Client, _ int) ([]string, error) {
			_, err := c.Query(bg(), &dynamodb.QueryInput{TableName: tbl, IndexName: aws.String("byg"),
				KeyConditionExpression: aws.String("g = :g"), ExpressionAttributeValues: item{":g": S("x")}})
			return nil, err
		}},
		{"Scan", false, func(c *dynamodb.Client, _ int) ([]string, error) {
			_, err := c.Scan(bg(), &dynamodb.ScanInput{TableName: tbl})
			return nil, err
		}},
		{"BatchGetItem", false, func(c *dynamodb.Client, _ int) ([]string, error) {
			_, err := c.BatchGetItem(bg(), &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{
				"flt": {Keys: []item{key("a"), key("b")}}}})
			return nil, err
		}},
		{"TransactGetItems", false, func(c *dynamodb.Client, _ int) ([]string, error) {
			_, err := c.TransactGetItems(bg(), &dynamodb.TransactGetItemsInput{TransactItems: []types.TransactGetItem{
				{Get: &types.Get{TableName: tbl, Key: key("a")}}}})
			return nil, err
		}},
		{"ExecuteStatement", false, func(c *dynamodb.Client, _ int) ([]string, error) {
			_, err := c.ExecuteStatement(bg(), &dynamodb.ExecuteStatementInput{Statement: aws.String(`SELECT * FROM "flt" WHERE pk = 'a'`)})
			return nil, err
		}},
		{"PutItem", true, func(c *dynamodb.Client, n int) ([]string, error) {
			k := fmt.Sprint("put", n)
			_, err := c.PutItem(bg(), &dynamodb.PutItemInput{TableName: tbl, Item: item{"pk": S(k), "g": S("x")}})
			return []string{k}, err
		}},
		{"UpdateItem", true, func(c *dynamodb.Client, n int) ([]string, error) {
			k := fmt.Sprint("upd", n)
			_, err := c.UpdateItem(bg(), &dynamodb.UpdateItemInput{TableName: tbl, Key: key(k),
				UpdateExpression: aws.String("SET g = :g"), ExpressionAttributeValues: item{":g": S("x")}})
			return []string{k}, err
		}},
		{"DeleteItem", true, func(c *dynamodb.Client, n int) ([]string, error) {
			// Deletes the item the previous step put (see kept).
			_, err := c.DeleteItem(bg(), &dynamodb.DeleteItemInput{TableName: tbl, Key: key(fmt.Sprint("put", n-1))})
			return nil, err
		}},
		{"BatchWriteItem", true, func(c *dynamodb.Client, n int) ([]string, error) {
			a, b := fmt.Sprint("bw", n, "a"), fmt.Sprint("bw", n, "b")
			_, err := c.BatchWriteItem(bg(), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{
				"flt": {{PutRequest: &types.PutRequest{Item: item{"pk": S(a), "g": S("x")}}},
					{PutRequest: &types.PutRequest{Item: item{"pk": S(b), "g": S("x")}}}}}})
			return []string{a, b}, err
		}},
		{"TransactWriteItems", true, func(c *dynamodb.Client, n int) ([]string, error) {
			a, b := fmt.Sprint("tw", n, "a"), fmt.Sprint("tw", n, "b")
			_, err := c.TransactWriteItems(bg(), &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
				{Put: &types.Put{TableName: tbl, Item: item{"pk": S(a), "g": S("x")}}},
				{Put: &types.Put{TableName: tbl, Item: item{"pk": S(b), "g": S("x")}}},
				{Delete: &types.Delete{TableName: tbl, Key: key("b")}},
			}})
			return []string{a, b}, err
		}},
		{"CreateTable", true, func(c *dynamodb.Client, n int) ([]string, error) {
			_, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{TableName: aws.String(fmt.Sprint("new", n)),
				BillingMode:          types.BillingModePayPerRequest,
				AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
				KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}}})
			return nil, err
		}},
	}
}

// createFaultTable creates table flt (pk S, GSI byg on g) and puts items
// a and b.
func createFaultTable(t *testing.T, c *dynamodb.Client, name string) {
	t.Helper()
	_, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{
		TableName:   aws.String(name),
		BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("g"), AttributeType: types.ScalarAttributeTypeS},
		},
		KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("byg"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("g"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}},
	})
	if err != nil {
		t.Fatalf("CreateTable %s: %v", name, err)
	}
	for _, k := range []string{"a", "b"} {
		if _, err := c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String(name), Item: item{"pk": S(k), "g": S("x")}}); err != nil {
			t.Fatal(err)
		}
	}
}

// Every request fails with a 5xx while the store fails, whichever of its
// calls fail, on both stores; nothing a failed write asked for is there
// once the store is healthy again, and the requests succeed again then.
func TestStoreFaultsAreServerErrors(t *testing.T) {
	needsWire(t)
	modes := []struct {
		name  string
		kinds []faultstore.Kind
		// writesOnly: reads do not touch the failing calls.
		writesOnly bool
	}{
		{"reads", []faultstore.Kind{faultstore.Get, faultstore.GetMany, faultstore.Counters, faultstore.NewIter, faultstore.Move, faultstore.Snapshot}, false},
		{"iterators midway", []faultstore.Kind{faultstore.Move}, false},
		{"commits", []faultstore.Kind{faultstore.Commit}, true},
		{"everything", nil, false},
	}
	for _, st := range faultStores {
		t.Run(st.name, func(t *testing.T) {
			fs := faultstore.New(st.open(t))
			s := testserver.Start(t, testserver.WithStore(fs))
			c := s.Client
			createFaultTable(t, c, "flt")
			n := 0
			for _, m := range modes {
				for _, op := range faultOps() {
					n++
					if op.name == "DeleteItem" {
						// Something to delete: the item PutItem would
						// have created.
						n++
						if _, err := c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("flt"), Item: item{"pk": S(fmt.Sprint("put", n-1))}}); err != nil {
							t.Fatal(err)
						}
					}
					fs.FailAll(m.kinds...)
					created, err := op.do(c, n)
					fs.Heal()
					what := fmt.Sprintf("%s with %s failing", op.name, m.name)
					switch {
					case err != nil:
						wantServerError(t, what, err)
					case m.writesOnly && !op.write:
						// A read need not touch a failing commit.
					case op.name == "ListTables" && !fs.Shared():
						// One process's catalog is all there is: it is
						// listed from memory, without the store.
					case m.name == "iterators midway" && !usesIterator(op.name, fs.Shared()):
					default:
						t.Errorf("%s: succeeded; want a 5xx", what)
					}
					if err == nil {
						continue
					}
					// A failed write changed nothing.
					if op.name == "DeleteItem" {
						out, gerr := c.GetItem(bg(), &dynamodb.GetItemInput{TableName: aws.String("flt"), Key: item{"pk": S(fmt.Sprint("put", n-1))}, ConsistentRead: aws.Bool(true)})
						if gerr != nil || out.Item == nil {
							t.Errorf("%s failed, yet its item is gone: %v, %v", what, out, gerr)
						}
					}
					for _, k := range created {
						out, gerr := c.GetItem(bg(), &dynamodb.GetItemInput{TableName: aws.String("flt"), Key: item{"pk": S(k)}, ConsistentRead: aws.Bool(true)})
						if gerr != nil {
							t.Fatalf("GetItem %s after %s: %v", k, what, gerr)
						}
						if out.Item != nil {
							t.Errorf("%s failed, yet item %s is there", what, k)
						}
					}
				}
			}
			// Healthy again: everything answers, and the table and its
			// items are as they were.
			for _, op := range faultOps() {
				n++
				if _, err := op.do(c, n); err != nil {
					t.Errorf("%s with the store healthy again: %v", op.name, err)
				}
			}
			if fs.Failed.Load() == 0 {
				t.Fatal("no store call failed: the rules never applied")
			}
		})
	}
}

// usesIterator reports whether op reads through a store iterator, so
// that failing iterators midway must fail it.
func usesIterator(op string, shared bool) bool {
	switch op {
	case "Query", "Query GSI", "Scan":
		return true
	case "ListTables":
		return shared // the catalog is read again from the store
	}
	return false
}

// A node that does not know a table yet, on a shared store that fails,
// answers a 5xx for it, not ResourceNotFoundException; the tables it
// knows stay known through failed catalog refreshes; all is well again
// once the store is, without a restart.
func TestStoreFaultsUnknownTableOnSharedStore(t *testing.T) {
	needsWire(t)
	url, schema := pgtest.Schema(t)
	a := testserver.Start(t, testserver.WithStore(testserver.OpenPostgres(t, url, schema)))
	fs := faultstore.New(testserver.OpenPostgres(t, url, schema))
	b := testserver.Start(t, testserver.WithStore(fs))
	createFaultTable(t, a.Client, "known")
	// b knows "known" once it answers for it.
	if _, err := b.Client.GetItem(bg(), &dynamodb.GetItemInput{TableName: aws.String("known"), Key: item{"pk": S("a")}}); err != nil {
		t.Fatal(err)
	}
	fs.FailAll()
	createFaultTable(t, a.Client, "late")
	withStream, err := a.Client.CreateTable(bg(), &dynamodb.CreateTableInput{TableName: aws.String("streamed"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		StreamSpecification:  &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeKeysOnly}})
	if err != nil {
		t.Fatal(err)
	}
	arn := withStream.TableDescription.LatestStreamArn
	_, err = b.Streams.DescribeStream(bg(), &dynamodbstreams.DescribeStreamInput{StreamArn: arn})
	wantServerError(t, "DescribeStream of a stream the node does not know, its store failing", err)
	_, err = b.Streams.GetShardIterator(bg(), &dynamodbstreams.GetShardIteratorInput{StreamArn: arn, ShardId: aws.String("shardId-00000000000000000000-00000000"),
		ShardIteratorType: streamtypes.ShardIteratorTypeTrimHorizon})
	wantServerError(t, "GetShardIterator of a stream the node does not know, its store failing", err)
	for _, tbl := range []string{"late", "known"} {
		_, err := b.Client.GetItem(bg(), &dynamodb.GetItemInput{TableName: aws.String(tbl), Key: item{"pk": S("a")}})
		wantServerError(t, "GetItem of "+tbl+" on a node whose store fails", err)
		_, err = b.Client.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String(tbl), Item: item{"pk": S("z"), "g": S("x")}})
		wantServerError(t, "PutItem of "+tbl+" on a node whose store fails", err)
		_, err = b.Client.DescribeTable(bg(), &dynamodb.DescribeTableInput{TableName: aws.String(tbl)})
		wantServerError(t, "DescribeTable of "+tbl+" on a node whose store fails", err)
		_, err = b.Client.DescribeTimeToLive(bg(), &dynamodb.DescribeTimeToLiveInput{TableName: aws.String(tbl)})
		wantServerError(t, "DescribeTimeToLive of "+tbl+" on a node whose store fails", err)
		_, err = b.Client.CreateTable(bg(), &dynamodb.CreateTableInput{TableName: aws.String(tbl), BillingMode: types.BillingModePayPerRequest,
			AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
			KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}}})
		wantServerError(t, "CreateTable of existing "+tbl+" on a node whose store fails", err)
	}
	_, err = b.Client.ListTables(bg(), &dynamodb.ListTablesInput{})
	wantServerError(t, "ListTables on a node whose store fails", err)
	// An invalid request is still answered as such: validation comes
	// before the store.
	_, err = b.Client.DescribeTable(bg(), &dynamodb.DescribeTableInput{TableName: aws.String("x")})
	if ae := (smithy.APIError)(nil); !errors.As(err, &ae) || ae.ErrorCode() != "ValidationException" {
		t.Errorf("DescribeTable of a too short name with the store failing: %v; want a ValidationException", err)
	}
	fs.Heal()
	out, err := b.Client.ListTables(bg(), &dynamodb.ListTablesInput{})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(out.TableNames, ","); got != "known,late,streamed" {
		t.Errorf("ListTables after the store healed: %s; want known,late,streamed", got)
	}
	if _, err := b.Streams.DescribeStream(bg(), &dynamodbstreams.DescribeStreamInput{StreamArn: arn}); err != nil {
		t.Errorf("DescribeStream after the store healed: %v", err)
	}
	for _, tbl := range []string{"late", "known"} {
		g, err := b.Client.GetItem(bg(), &dynamodb.GetItemInput{TableName: aws.String(tbl), Key: item{"pk": S("a")}})
		if err != nil || g.Item == nil {
			t.Errorf("GetItem of %s after the store healed: %v, %v", tbl, g, err)
		}
		// No write was applied while the store failed.
		g, err = b.Client.GetItem(bg(), &dynamodb.GetItemInput{TableName: aws.String(tbl), Key: item{"pk": S("z")}, ConsistentRead: aws.Bool(true)})
		if err != nil || g.Item != nil {
			t.Errorf("item z of %s after a failed PutItem: %v, %v; want none", tbl, g, err)
		}
	}
}

// The DynamoDB Streams operations fail with a 5xx too while the store
// fails, on both stores, and answer again once it is healthy.
func TestStoreFaultsStreams(t *testing.T) {
	needsWire(t)
	for _, st := range faultStores {
		t.Run(st.name, func(t *testing.T) {
			fs := faultstore.New(st.open(t))
			s := testserver.Start(t, testserver.WithStore(fs))
			c, sc := s.Client, s.Streams
			out, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{TableName: aws.String("fst"), BillingMode: types.BillingModePayPerRequest,
				AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
				KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
				StreamSpecification:  &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewImage}})
			if err != nil {
				t.Fatal(err)
			}
			arn := out.TableDescription.LatestStreamArn
			if _, err := c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("fst"), Item: item{"pk": S("a")}}); err != nil {
				t.Fatal(err)
			}
			ds, err := sc.DescribeStream(bg(), &dynamodbstreams.DescribeStreamInput{StreamArn: arn})
			if err != nil || len(ds.StreamDescription.Shards) == 0 {
				t.Fatalf("DescribeStream: %v, %v", ds, err)
			}
			shard := ds.StreamDescription.Shards[0].ShardId
			gi, err := sc.GetShardIterator(bg(), &dynamodbstreams.GetShardIteratorInput{StreamArn: arn, ShardId: shard, ShardIteratorType: streamtypes.ShardIteratorTypeTrimHorizon})
			if err != nil {
				t.Fatal(err)
			}
			ops := []struct {
				name string
				do   func() error
			}{
				{"ListStreams", func() error {
					_, err := sc.ListStreams(bg(), &dynamodbstreams.ListStreamsInput{TableName: aws.String("fst")})
					return err
				}},
				{"DescribeStream", func() error {
					_, err := sc.DescribeStream(bg(), &dynamodbstreams.DescribeStreamInput{StreamArn: arn})
					return err
				}},
				{"GetShardIterator", func() error {
					_, err := sc.GetShardIterator(bg(), &dynamodbstreams.GetShardIteratorInput{StreamArn: arn, ShardId: shard, ShardIteratorType: streamtypes.ShardIteratorTypeTrimHorizon})
					return err
				}},
				{"GetRecords", func() error {
					_, err := sc.GetRecords(bg(), &dynamodbstreams.GetRecordsInput{ShardIterator: gi.ShardIterator})
					return err
				}},
			}
			for _, op := range ops {
				fs.FailAll()
				err := op.do()
				fs.Heal()
				if err != nil {
					wantServerError(t, op.name+" with the store failing", err)
				} else if fs.Shared() || op.name == "GetRecords" {
					// One process knows its streams without the store,
					// but records are read from it.
					t.Errorf("%s with the store failing: succeeded; want a 5xx", op.name)
				}
			}
			for _, op := range ops {
				if err := op.do(); err != nil {
					t.Errorf("%s with the store healthy again: %v", op.name, err)
				}
			}
			recs, err := sc.GetRecords(bg(), &dynamodbstreams.GetRecordsInput{ShardIterator: gi.ShardIterator})
			if err != nil || len(recs.Records) != 1 {
				t.Errorf("GetRecords with the store healthy again: %v, %v; want the one record", recs, err)
			}
		})
	}
}
