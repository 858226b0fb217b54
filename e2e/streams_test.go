package e2e

import (
	"context"
	"fmt"
	"math/big"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	st "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"

	"github.com/dynago/dynago/cmd/dynago/cli"
	"github.com/dynago/dynago/engine"
	"github.com/dynago/dynago/local"
	"github.com/dynago/dynago/testserver"
)

// DynamoDB Streams through the SDK's dynamodbstreams client, pointed at
// the same endpoint as the DynamoDB client.

// createStreamTable creates an on-demand table with partition key pk (S)
// and a stream of the given view type, and returns the stream's ARN.
func createStreamTable(t *testing.T, c local.API, name string, view types.StreamViewType) string {
	t.Helper()
	out, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{
		TableName:            aws.String(name),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		StreamSpecification:  &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: view},
	})
	if err != nil {
		t.Fatalf("CreateTable %s: %v", name, err)
	}
	arn := aws.ToString(out.TableDescription.LatestStreamArn)
	if arn == "" {
		t.Fatalf("CreateTable %s with a stream: no LatestStreamArn", name)
	}
	return arn
}

// fromStream converts a Streams attribute value to the DynamoDB type, so
// the e2e helpers (itemEqual, render) apply.
func fromStream(v st.AttributeValue) types.AttributeValue {
	switch v := v.(type) {
	case *st.AttributeValueMemberS:
		return S(v.Value)
	case *st.AttributeValueMemberN:
		return N(v.Value)
	case *st.AttributeValueMemberB:
		return B(v.Value)
	case *st.AttributeValueMemberBOOL:
		return BOOL(v.Value)
	case *st.AttributeValueMemberNULL:
		return &types.AttributeValueMemberNULL{Value: v.Value}
	case *st.AttributeValueMemberSS:
		return SS(v.Value...)
	case *st.AttributeValueMemberNS:
		return NS(v.Value...)
	case *st.AttributeValueMemberBS:
		return BS(v.Value...)
	case *st.AttributeValueMemberL:
		var l []types.AttributeValue
		for _, e := range v.Value {
			l = append(l, fromStream(e))
		}
		return L(l...)
	case *st.AttributeValueMemberM:
		return M(streamItem(v.Value))
	}
	return nil
}

// streamItem converts a Streams item; nil stays nil.
func streamItem(m map[string]st.AttributeValue) item {
	if m == nil {
		return nil
	}
	out := item{}
	for k, v := range m {
		out[k] = fromStream(v)
	}
	return out
}

// describeAll describes a stream with all its shards, following
// DescribeStream's pages.
func describeAll(t *testing.T, sc local.StreamsAPI, arn string) *st.StreamDescription {
	t.Helper()
	var d *st.StreamDescription
	var start *string
	for range 1000 {
		out, err := sc.DescribeStream(bg(), &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(arn), ExclusiveStartShardId: start})
		if err != nil {
			t.Fatalf("DescribeStream: %v", err)
		}
		if d == nil {
			d = out.StreamDescription
		} else {
			d.Shards = append(d.Shards, out.StreamDescription.Shards...)
		}
		if start = out.StreamDescription.LastEvaluatedShardId; start == nil {
			d.LastEvaluatedShardId = nil
			return d
		}
	}
	t.Fatal("DescribeStream pages do not end")
	return nil
}

func shardIterator(t *testing.T, sc local.StreamsAPI, arn, shard string, typ st.ShardIteratorType, seq string) string {
	t.Helper()
	in := &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn), ShardId: aws.String(shard), ShardIteratorType: typ}
	if seq != "" {
		in.SequenceNumber = aws.String(seq)
	}
	out, err := sc.GetShardIterator(bg(), in)
	if err != nil {
		t.Fatalf("GetShardIterator %s: %v", typ, err)
	}
	if aws.ToString(out.ShardIterator) == "" {
		t.Fatalf("GetShardIterator %s: no iterator", typ)
	}
	return *out.ShardIterator
}

// drain reads from iter until a call returns no records (an open shard
// read to its current end) or no NextShardIterator (a closed shard read
// to its end), and returns the records and the iterator to go on with
// ("" once the shard is closed and read).
func drain(t *testing.T, sc local.StreamsAPI, iter string) ([]st.Record, string) {
	t.Helper()
	var recs []st.Record
	for range 10000 {
		out, err := sc.GetRecords(bg(), &dynamodbstreams.GetRecordsInput{ShardIterator: aws.String(iter)})
		if err != nil {
			t.Fatalf("GetRecords: %v", err)
		}
		if out.Records == nil {
			t.Fatal("GetRecords: no Records member")
		}
		recs = append(recs, out.Records...)
		if out.NextShardIterator == nil {
			return recs, ""
		}
		iter = *out.NextShardIterator
		if len(out.Records) == 0 {
			return recs, iter
		}
	}
	t.Fatal("GetRecords never reaches the end of the shard")
	return nil, ""
}

// tail reads a stream that has one open shard, call by call.
type tail struct {
	t    *testing.T
	sc   local.StreamsAPI
	iter string
	last *big.Int // the last sequence number seen
}

func newTail(t *testing.T, sc local.StreamsAPI, arn string) *tail {
	t.Helper()
	d := describeAll(t, sc, arn)
	if len(d.Shards) != 1 {
		t.Fatalf("stream has %d shards, want 1", len(d.Shards))
	}
	return &tail{t: t, sc: sc, iter: shardIterator(t, sc, arn, aws.ToString(d.Shards[0].ShardId), st.ShardIteratorTypeTrimHorizon, "")}
}

// next returns the records written since the last call, checking their
// sequence numbers increase.
func (tl *tail) next() []st.Record {
	tl.t.Helper()
	if tl.iter == "" {
		tl.t.Fatal("the shard is closed")
	}
	recs, iter := drain(tl.t, tl.sc, tl.iter)
	tl.iter = iter
	for _, r := range recs {
		seq := seqNumber(tl.t, r)
		if tl.last != nil && seq.Cmp(tl.last) <= 0 {
			tl.t.Fatalf("sequence number %v after %v", seq, tl.last)
		}
		tl.last = seq
	}
	return recs
}

func seqNumber(t *testing.T, r st.Record) *big.Int {
	t.Helper()
	s := aws.ToString(r.Dynamodb.SequenceNumber)
	n, ok := new(big.Int).SetString(s, 10)
	if !ok || len(s) < 21 || len(s) > 40 {
		t.Fatalf("SequenceNumber %q is not 21 to 40 digits", s)
	}
	return n
}

var eventIDRE = regexp.MustCompile(`^[0-9a-f]{32}$`)

// checkRecord asserts everything about one record of a user's change: the
// constant members, the view type, and exactly the images that view
// includes (newImg and oldImg are the full images; nil for none).
func checkRecord(t *testing.T, r st.Record, view st.StreamViewType, event st.OperationType, key, newImg, oldImg item) {
	t.Helper()
	what := fmt.Sprintf("%s record of %s", event, renderItem(key))
	if r.EventName != event {
		t.Fatalf("%s: eventName %s", what, r.EventName)
	}
	if aws.ToString(r.EventSource) != "aws:dynamodb" || aws.ToString(r.EventVersion) != "1.1" || aws.ToString(r.AwsRegion) != testserver.Region {
		t.Fatalf("%s: eventSource %q eventVersion %q awsRegion %q", what, aws.ToString(r.EventSource), aws.ToString(r.EventVersion), aws.ToString(r.AwsRegion))
	}
	if !eventIDRE.MatchString(aws.ToString(r.EventID)) {
		t.Fatalf("%s: eventID %q is not 32 hex digits", what, aws.ToString(r.EventID))
	}
	if r.UserIdentity != nil {
		t.Fatalf("%s: userIdentity %+v on a user's change", what, *r.UserIdentity)
	}
	d := r.Dynamodb
	if d == nil {
		t.Fatalf("%s: no dynamodb member", what)
	}
	if d.StreamViewType != view {
		t.Fatalf("%s: StreamViewType %s, want %s", what, d.StreamViewType, view)
	}
	if d.ApproximateCreationDateTime == nil || time.Since(*d.ApproximateCreationDateTime) > time.Minute || time.Until(*d.ApproximateCreationDateTime) > 2*time.Second {
		t.Fatalf("%s: ApproximateCreationDateTime %v is not now", what, d.ApproximateCreationDateTime)
	}
	if d.SizeBytes == nil || *d.SizeBytes <= 0 {
		t.Fatalf("%s: SizeBytes %v", what, d.SizeBytes)
	}
	seqNumber(t, r)
	itemEqual(t, what+" Keys", streamItem(d.Keys), key)
	wantNew, wantOld := item(nil), item(nil)
	if view == st.StreamViewTypeNewImage || view == st.StreamViewTypeNewAndOldImages {
		wantNew = newImg
	}
	if view == st.StreamViewTypeOldImage || view == st.StreamViewTypeNewAndOldImages {
		wantOld = oldImg
	}
	itemEqual(t, what+" NewImage", streamItem(d.NewImage), wantNew)
	itemEqual(t, what+" OldImage", streamItem(d.OldImage), wantOld)
}

// byKey sorts records by their pk, for writes whose records' relative
// order is not defined (one BatchWriteItem, one transaction).
func byKey(recs []st.Record) []st.Record {
	sort.Slice(recs, func(i, j int) bool {
		return render(fromStream(recs[i].Dynamodb.Keys["pk"])) < render(fromStream(recs[j].Dynamodb.Keys["pk"]))
	})
	return recs
}

func wantRecords(t *testing.T, what string, recs []st.Record, n int) {
	t.Helper()
	if len(recs) != n {
		var s []string
		for _, r := range recs {
			s = append(s, string(r.EventName)+" "+renderItem(streamItem(r.Dynamodb.Keys)))
		}
		t.Fatalf("%s: %d records %v, want %d", what, len(recs), s, n)
	}
}

func TestStreamViewTypes(t *testing.T) {
	s := testserver.Start(t)
	c, sc := s.API, s.StreamsAPI
	for _, view := range []types.StreamViewType{types.StreamViewTypeKeysOnly, types.StreamViewTypeNewImage, types.StreamViewTypeOldImage, types.StreamViewTypeNewAndOldImages} {
		t.Run(string(view), func(t *testing.T) {
			table := "view_" + string(view)
			arn := createStreamTable(t, c, table, view)
			tl := newTail(t, sc, arn)
			sv := st.StreamViewType(view)
			key := item{"pk": S("a")}
			v1 := item{"pk": S("a"), "v": N("1"), "l": L(S("x"), M(item{"n": NULL()}))}
			v2 := item{"pk": S("a"), "v": N("2"), "l": L(S("x"), M(item{"n": NULL()}))}

			put(t, c, table, v1)
			recs := tl.next()
			wantRecords(t, "PutItem", recs, 1)
			checkRecord(t, recs[0], sv, st.OperationTypeInsert, key, v1, nil)

			if _, err := c.UpdateItem(bg(), &dynamodb.UpdateItemInput{TableName: aws.String(table), Key: key,
				UpdateExpression: aws.String("SET v = :v"), ExpressionAttributeValues: item{":v": N("2")}}); err != nil {
				t.Fatal(err)
			}
			recs = tl.next()
			wantRecords(t, "UpdateItem", recs, 1)
			checkRecord(t, recs[0], sv, st.OperationTypeModify, key, v2, v1)

			if _, err := c.DeleteItem(bg(), &dynamodb.DeleteItemInput{TableName: aws.String(table), Key: key}); err != nil {
				t.Fatal(err)
			}
			recs = tl.next()
			wantRecords(t, "DeleteItem", recs, 1)
			checkRecord(t, recs[0], sv, st.OperationTypeRemove, key, nil, v2)
		})
	}
}

// TestStreamWriteOperations checks the records of every write operation,
// and that a write that changes nothing has none.
func TestStreamWriteOperations(t *testing.T) {
	s := testserver.Start(t)
	c, sc := s.API, s.StreamsAPI
	const table = "ops"
	const view = st.StreamViewTypeNewAndOldImages
	arn := createStreamTable(t, c, table, types.StreamViewTypeNewAndOldImages)
	tl := newTail(t, sc, arn)
	k := func(pk string) item { return item{"pk": S(pk)} }
	it := func(pk, v string) item { return item{"pk": S(pk), "v": N(v)} }
	update := func(in *dynamodb.UpdateItemInput) {
		t.Helper()
		in.TableName = aws.String(table)
		if _, err := c.UpdateItem(bg(), in); err != nil {
			t.Fatalf("UpdateItem: %v", err)
		}
	}
	none := func(what string) {
		t.Helper()
		wantRecords(t, what, tl.next(), 0)
	}

	put(t, c, table, it("a", "1"))
	recs := tl.next()
	wantRecords(t, "PutItem of a new item", recs, 1)
	checkRecord(t, recs[0], view, st.OperationTypeInsert, k("a"), it("a", "1"), nil)

	put(t, c, table, it("a", "1"))
	none("PutItem of an identical item")

	put(t, c, table, it("a", "2"))
	recs = tl.next()
	wantRecords(t, "PutItem over an item", recs, 1)
	checkRecord(t, recs[0], view, st.OperationTypeModify, k("a"), it("a", "2"), it("a", "1"))

	update(&dynamodb.UpdateItemInput{Key: k("a"), UpdateExpression: aws.String("SET v = :v"), ExpressionAttributeValues: item{":v": N("2.0")}})
	none("UpdateItem setting an attribute to its current value")
	update(&dynamodb.UpdateItemInput{Key: k("a"), UpdateExpression: aws.String("REMOVE nothere")})
	none("UpdateItem removing an absent attribute")

	update(&dynamodb.UpdateItemInput{Key: k("b"), UpdateExpression: aws.String("SET v = :v"), ExpressionAttributeValues: item{":v": N("1")}})
	recs = tl.next()
	wantRecords(t, "UpdateItem creating an item", recs, 1)
	checkRecord(t, recs[0], view, st.OperationTypeInsert, k("b"), it("b", "1"), nil)

	if _, err := c.DeleteItem(bg(), &dynamodb.DeleteItemInput{TableName: aws.String(table), Key: k("missing")}); err != nil {
		t.Fatal(err)
	}
	none("DeleteItem of a missing item")

	_, err := c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String(table), Item: it("a", "9"), ConditionExpression: aws.String("attribute_not_exists(pk)")})
	wantErr(t, err, "ConditionalCheckFailedException", "The conditional request failed")
	none("a failed conditional PutItem")

	_, err = c.BatchWriteItem(bg(), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{table: {
		{PutRequest: &types.PutRequest{Item: it("c", "1")}},
		{PutRequest: &types.PutRequest{Item: it("a", "3")}},
		{DeleteRequest: &types.DeleteRequest{Key: k("b")}},
		{DeleteRequest: &types.DeleteRequest{Key: k("missing")}},
	}}})
	if err != nil {
		t.Fatal(err)
	}
	recs = byKey(tl.next())
	wantRecords(t, "BatchWriteItem", recs, 3)
	checkRecord(t, recs[0], view, st.OperationTypeModify, k("a"), it("a", "3"), it("a", "2"))
	checkRecord(t, recs[1], view, st.OperationTypeRemove, k("b"), nil, it("b", "1"))
	checkRecord(t, recs[2], view, st.OperationTypeInsert, k("c"), it("c", "1"), nil)

	_, err = c.TransactWriteItems(bg(), &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Put: &types.Put{TableName: aws.String(table), Item: it("d", "1")}},
		{Update: &types.Update{TableName: aws.String(table), Key: k("c"), UpdateExpression: aws.String("ADD v :one"), ExpressionAttributeValues: item{":one": N("1")}}},
		{Delete: &types.Delete{TableName: aws.String(table), Key: k("a")}},
		{ConditionCheck: &types.ConditionCheck{TableName: aws.String(table), Key: k("missing"), ConditionExpression: aws.String("attribute_not_exists(pk)")}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	recs = byKey(tl.next())
	wantRecords(t, "TransactWriteItems", recs, 3)
	checkRecord(t, recs[0], view, st.OperationTypeRemove, k("a"), nil, it("a", "3"))
	checkRecord(t, recs[1], view, st.OperationTypeModify, k("c"), it("c", "2"), it("c", "1"))
	checkRecord(t, recs[2], view, st.OperationTypeInsert, k("d"), it("d", "1"), nil)

	// A transaction whose writes change nothing has no records either.
	_, err = c.TransactWriteItems(bg(), &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Put: &types.Put{TableName: aws.String(table), Item: it("d", "1")}},
		{Update: &types.Update{TableName: aws.String(table), Key: k("c"), UpdateExpression: aws.String("SET v = :v"), ExpressionAttributeValues: item{":v": N("2")}}},
		{Delete: &types.Delete{TableName: aws.String(table), Key: k("missing")}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	none("TransactWriteItems of no-op writes")

	// A cancelled transaction has no records.
	_, err = c.TransactWriteItems(bg(), &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Put: &types.Put{TableName: aws.String(table), Item: it("e", "1")}},
		{ConditionCheck: &types.ConditionCheck{TableName: aws.String(table), Key: k("missing"), ConditionExpression: aws.String("attribute_exists(pk)")}},
	}})
	var tce *types.TransactionCanceledException
	if !errorsAs(err, &tce) {
		t.Fatalf("TransactWriteItems with a failing condition: %v", err)
	}
	none("a cancelled TransactWriteItems")
}

func TestListStreams(t *testing.T) {
	s := testserver.Start(t)
	c, sc := s.API, s.StreamsAPI
	arns := map[string]string{
		"ls1": createStreamTable(t, c, "ls1", types.StreamViewTypeNewImage),
		"ls2": createStreamTable(t, c, "ls2", types.StreamViewTypeKeysOnly),
		"ls3": createStreamTable(t, c, "ls3", types.StreamViewTypeOldImage),
	}
	createHash(t, c, "nostream", types.ScalarAttributeTypeS)
	labels := map[string]string{}
	for table := range arns {
		labels[table] = aws.ToString(describe(t, c, table).LatestStreamLabel)
	}

	out, err := sc.ListStreams(bg(), &dynamodbstreams.ListStreamsInput{})
	if err != nil {
		t.Fatal(err)
	}
	if out.LastEvaluatedStreamArn != nil || len(out.Streams) != 3 {
		t.Fatalf("ListStreams: %d streams, LastEvaluatedStreamArn %v", len(out.Streams), out.LastEvaluatedStreamArn)
	}
	for _, s := range out.Streams {
		table := aws.ToString(s.TableName)
		if aws.ToString(s.StreamArn) != arns[table] || aws.ToString(s.StreamLabel) != labels[table] || labels[table] == "" {
			t.Fatalf("ListStreams entry %s %s %s; want ARN %s label %s", table, aws.ToString(s.StreamArn), aws.ToString(s.StreamLabel), arns[table], labels[table])
		}
		if !strings.HasSuffix(arns[table], "/stream/"+labels[table]) {
			t.Fatalf("stream ARN %s does not end with its label %s", arns[table], labels[table])
		}
	}

	out, err = sc.ListStreams(bg(), &dynamodbstreams.ListStreamsInput{TableName: aws.String("ls2")})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Streams) != 1 || aws.ToString(out.Streams[0].StreamArn) != arns["ls2"] || aws.ToString(out.Streams[0].TableName) != "ls2" {
		t.Fatalf("ListStreams of ls2: %+v", out.Streams)
	}
	out, err = sc.ListStreams(bg(), &dynamodbstreams.ListStreamsInput{TableName: aws.String("nostream")})
	if err != nil || len(out.Streams) != 0 || out.Streams == nil {
		t.Fatalf("ListStreams of a table without a stream: %+v, %v", out, err)
	}

	// Pages of one: every stream once, each page naming its last stream.
	seen := map[string]bool{}
	var startArn *string
	for page := 0; ; page++ {
		if page > 3 {
			t.Fatal("ListStreams with Limit 1 does not end")
		}
		out, err := sc.ListStreams(bg(), &dynamodbstreams.ListStreamsInput{Limit: aws.Int32(1), ExclusiveStartStreamArn: startArn})
		if err != nil {
			t.Fatal(err)
		}
		if len(out.Streams) > 1 {
			t.Fatalf("Limit 1 returned %d streams", len(out.Streams))
		}
		for _, s := range out.Streams {
			if seen[*s.StreamArn] {
				t.Fatalf("stream %s listed twice", *s.StreamArn)
			}
			seen[*s.StreamArn] = true
		}
		if out.LastEvaluatedStreamArn == nil {
			break
		}
		if len(out.Streams) != 1 || *out.LastEvaluatedStreamArn != *out.Streams[0].StreamArn {
			t.Fatalf("LastEvaluatedStreamArn %s is not the page's last stream", *out.LastEvaluatedStreamArn)
		}
		startArn = out.LastEvaluatedStreamArn
	}
	if len(seen) != 3 {
		t.Fatalf("pages listed %d streams, want 3", len(seen))
	}

	_, err = sc.ListStreams(bg(), &dynamodbstreams.ListStreamsInput{Limit: aws.Int32(0)})
	wantConstraints(t, err, "Value '0' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1")
	_, err = sc.ListStreams(bg(), &dynamodbstreams.ListStreamsInput{Limit: aws.Int32(101)})
	wantConstraints(t, err, "Value '101' at 'limit' failed to satisfy constraint: Member must have value less than or equal to 100")
	_, err = sc.ListStreams(bg(), &dynamodbstreams.ListStreamsInput{TableName: aws.String("nosuch")})
	var rnf *st.ResourceNotFoundException
	if !errorsAs(err, &rnf) {
		t.Fatalf("ListStreams of a missing table: %v, want ResourceNotFoundException", err)
	}
}

// TestDescribeStreamLifecycle follows a table's stream through disabling
// and re-enabling: the old stream closes and stays readable, the new one
// has a new ARN and gets the new changes.
func TestDescribeStreamLifecycle(t *testing.T) {
	s := testserver.Start(t)
	c, sc := s.API, s.StreamsAPI
	before := time.Now().Add(-time.Second)
	arn1 := createStreamTable(t, c, "life", types.StreamViewTypeNewImage)
	td := describe(t, c, "life")
	if aws.ToString(td.LatestStreamArn) != arn1 || td.StreamSpecification == nil || !aws.ToBool(td.StreamSpecification.StreamEnabled) {
		t.Fatalf("DescribeTable: LatestStreamArn %v StreamSpecification %+v", td.LatestStreamArn, td.StreamSpecification)
	}

	d := describeAll(t, sc, arn1)
	if aws.ToString(d.StreamArn) != arn1 || aws.ToString(d.StreamLabel) != aws.ToString(td.LatestStreamLabel) ||
		d.StreamStatus != st.StreamStatusEnabled || d.StreamViewType != st.StreamViewTypeNewImage || aws.ToString(d.TableName) != "life" {
		t.Fatalf("DescribeStream: %s %s %s %s %s", aws.ToString(d.StreamArn), aws.ToString(d.StreamLabel), d.StreamStatus, d.StreamViewType, aws.ToString(d.TableName))
	}
	if len(d.KeySchema) != 1 || aws.ToString(d.KeySchema[0].AttributeName) != "pk" || d.KeySchema[0].KeyType != st.KeyTypeHash {
		t.Fatalf("DescribeStream KeySchema %+v", d.KeySchema)
	}
	if d.CreationRequestDateTime == nil || d.CreationRequestDateTime.Before(before) || time.Until(*d.CreationRequestDateTime) > time.Second {
		t.Fatalf("CreationRequestDateTime %v", d.CreationRequestDateTime)
	}
	if len(d.Shards) != 1 {
		t.Fatalf("a new stream has %d shards", len(d.Shards))
	}
	sh := d.Shards[0]
	if !strings.HasPrefix(aws.ToString(sh.ShardId), "shardId-") || sh.ParentShardId != nil || sh.SequenceNumberRange == nil ||
		sh.SequenceNumberRange.StartingSequenceNumber == nil || sh.SequenceNumberRange.EndingSequenceNumber != nil {
		t.Fatalf("the open shard: %+v %+v", sh, sh.SequenceNumberRange)
	}
	shard1 := *sh.ShardId

	put(t, c, "life", item{"pk": S("x")})
	_, err := c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String("life"), StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(false)}})
	if err != nil {
		t.Fatal(err)
	}
	put(t, c, "life", item{"pk": S("y")}) // no stream: no record anywhere

	d = describeAll(t, sc, arn1)
	if d.StreamStatus != st.StreamStatusDisabled || len(d.Shards) != 1 || d.Shards[0].SequenceNumberRange.EndingSequenceNumber == nil {
		t.Fatalf("a disabled stream: status %s, shards %+v", d.StreamStatus, d.Shards)
	}
	r := d.Shards[0].SequenceNumberRange
	if cmpSeq(t, *r.EndingSequenceNumber, *r.StartingSequenceNumber) < 0 {
		t.Fatalf("closed shard range %s..%s", *r.StartingSequenceNumber, *r.EndingSequenceNumber)
	}
	recs, next := drain(t, sc, shardIterator(t, sc, arn1, shard1, st.ShardIteratorTypeTrimHorizon, ""))
	if next != "" {
		t.Fatal("the closed shard of a disabled stream still has a NextShardIterator after its last record")
	}
	wantRecords(t, "the disabled stream", recs, 1)
	checkRecord(t, recs[0], st.StreamViewTypeNewImage, st.OperationTypeInsert, item{"pk": S("x")}, item{"pk": S("x")}, nil)

	_, err = c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String("life"),
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeKeysOnly}})
	if err != nil {
		t.Fatal(err)
	}
	td = describe(t, c, "life")
	arn2 := aws.ToString(td.LatestStreamArn)
	if arn2 == "" || arn2 == arn1 || aws.ToString(td.LatestStreamLabel) == aws.ToString(d.StreamLabel) {
		t.Fatalf("re-enabled stream: ARN %s (old %s), label %s", arn2, arn1, aws.ToString(td.LatestStreamLabel))
	}
	d2 := describeAll(t, sc, arn2)
	if d2.StreamStatus != st.StreamStatusEnabled || d2.StreamViewType != st.StreamViewTypeKeysOnly || len(d2.Shards) != 1 || d2.Shards[0].ParentShardId != nil {
		t.Fatalf("the new stream: %s %s %+v", d2.StreamStatus, d2.StreamViewType, d2.Shards)
	}
	put(t, c, "life", item{"pk": S("z"), "v": N("1")})
	tl := newTail(t, sc, arn2)
	recs = tl.next()
	wantRecords(t, "the new stream", recs, 1)
	checkRecord(t, recs[0], st.StreamViewTypeKeysOnly, st.OperationTypeInsert, item{"pk": S("z")}, nil, nil)

	// The old stream is still there, disabled, with its one record.
	if d = describeAll(t, sc, arn1); d.StreamStatus != st.StreamStatusDisabled {
		t.Fatalf("the old stream after re-enabling: %s", d.StreamStatus)
	}
	recs, _ = drain(t, sc, shardIterator(t, sc, arn1, shard1, st.ShardIteratorTypeTrimHorizon, ""))
	wantRecords(t, "the old stream after re-enabling", recs, 1)
	out, err := sc.ListStreams(bg(), &dynamodbstreams.ListStreamsInput{TableName: aws.String("life")})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, s := range out.Streams {
		got[aws.ToString(s.StreamArn)] = true
	}
	if len(out.Streams) != 2 || !got[arn1] || !got[arn2] {
		t.Fatalf("ListStreams of the table: %+v", out.Streams)
	}
}

func cmpSeq(t *testing.T, a, b string) int {
	t.Helper()
	x, ok1 := new(big.Int).SetString(a, 10)
	y, ok2 := new(big.Int).SetString(b, 10)
	if !ok1 || !ok2 {
		t.Fatalf("sequence numbers %q %q", a, b)
	}
	return x.Cmp(y)
}

func TestShardIterators(t *testing.T) {
	s := testserver.Start(t)
	c, sc := s.API, s.StreamsAPI
	before := time.Now().Add(-time.Minute)
	arn := createStreamTable(t, c, "iters", types.StreamViewTypeNewImage)
	for i := range 5 {
		put(t, c, "iters", item{"pk": S(fmt.Sprint("i", i))})
	}
	d := describeAll(t, sc, arn)
	shard := aws.ToString(d.Shards[0].ShardId)
	pks := func(recs []st.Record) string {
		var s []string
		for _, r := range recs {
			s = append(s, r.Dynamodb.Keys["pk"].(*st.AttributeValueMemberS).Value)
		}
		return strings.Join(s, ",")
	}
	all, _ := drain(t, sc, shardIterator(t, sc, arn, shard, st.ShardIteratorTypeTrimHorizon, ""))
	if got := pks(all); got != "i0,i1,i2,i3,i4" {
		t.Fatalf("TRIM_HORIZON read %s", got)
	}
	seq := func(i int) string { return aws.ToString(all[i].Dynamodb.SequenceNumber) }
	for i := 1; i < len(all); i++ {
		if cmpSeq(t, seq(i), seq(i-1)) <= 0 {
			t.Fatalf("sequence numbers not increasing: %s after %s", seq(i), seq(i-1))
		}
	}
	if first := aws.ToString(d.Shards[0].SequenceNumberRange.StartingSequenceNumber); cmpSeq(t, seq(0), first) < 0 {
		t.Fatalf("first record %s before the shard's StartingSequenceNumber %s", seq(0), first)
	}

	recs, _ := drain(t, sc, shardIterator(t, sc, arn, shard, st.ShardIteratorTypeAtSequenceNumber, seq(2)))
	if got := pks(recs); got != "i2,i3,i4" {
		t.Fatalf("AT_SEQUENCE_NUMBER of i2 read %s", got)
	}
	recs, _ = drain(t, sc, shardIterator(t, sc, arn, shard, st.ShardIteratorTypeAfterSequenceNumber, seq(2)))
	if got := pks(recs); got != "i3,i4" {
		t.Fatalf("AFTER_SEQUENCE_NUMBER of i2 read %s", got)
	}
	recs, _ = drain(t, sc, shardIterator(t, sc, arn, shard, st.ShardIteratorTypeAfterSequenceNumber, seq(4)))
	if len(recs) != 0 {
		t.Fatalf("AFTER_SEQUENCE_NUMBER of the last record read %s", pks(recs))
	}
	out, err := sc.GetShardIterator(bg(), &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn), ShardId: aws.String(shard),
		ShardIteratorType: st.ShardIteratorTypeAtTimestamp, Timestamp: aws.Time(before)})
	if err != nil {
		t.Fatal(err)
	}
	recs, _ = drain(t, sc, *out.ShardIterator)
	if got := pks(recs); got != "i0,i1,i2,i3,i4" {
		t.Fatalf("AT_TIMESTAMP before the first record read %s", got)
	}

	latest := shardIterator(t, sc, arn, shard, st.ShardIteratorTypeLatest, "")
	recs, latest = drain(t, sc, latest)
	if len(recs) != 0 || latest == "" {
		t.Fatalf("LATEST read %s", pks(recs))
	}
	put(t, c, "iters", item{"pk": S("i5")})
	recs, _ = drain(t, sc, latest)
	if got := pks(recs); got != "i5" {
		t.Fatalf("LATEST then a write read %s", got)
	}

	// Limit: pages of two.
	iter := shardIterator(t, sc, arn, shard, st.ShardIteratorTypeTrimHorizon, "")
	var pages []string
	for range 10 {
		out, err := sc.GetRecords(bg(), &dynamodbstreams.GetRecordsInput{ShardIterator: aws.String(iter), Limit: aws.Int32(2)})
		if err != nil {
			t.Fatal(err)
		}
		if len(out.Records) == 0 {
			break
		}
		if len(out.Records) > 2 || out.NextShardIterator == nil {
			t.Fatalf("GetRecords Limit 2: %d records, NextShardIterator %v", len(out.Records), out.NextShardIterator)
		}
		pages = append(pages, pks(out.Records))
		iter = *out.NextShardIterator
	}
	if got := strings.Join(pages, "|"); got != "i0,i1|i2,i3|i4,i5" {
		t.Fatalf("GetRecords Limit 2 pages: %s", got)
	}

	// Errors.
	_, err = sc.GetShardIterator(bg(), &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn), ShardId: aws.String(shard),
		ShardIteratorType: st.ShardIteratorTypeAtSequenceNumber})
	wantCode(t, err, "ValidationException")
	_, err = sc.GetShardIterator(bg(), &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn), ShardId: aws.String(shard),
		ShardIteratorType: st.ShardIteratorTypeAtSequenceNumber, SequenceNumber: aws.String("not a number")})
	wantCode(t, err, "ValidationException")
	_, err = sc.GetShardIterator(bg(), &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn), ShardId: aws.String("shardId-00000000000000000000-00000000"),
		ShardIteratorType: st.ShardIteratorTypeTrimHorizon})
	wantCode(t, err, "ResourceNotFoundException")
}

// wantCode checks the error's code only, where DynamoDB's exact message
// is not known.
func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	var ae interface{ ErrorCode() string }
	if !errorsAs(err, &ae) || ae.ErrorCode() != code {
		t.Fatalf("got %v, want %s", err, code)
	}
}

func TestStreamErrors(t *testing.T) {
	var now atomic.Int64
	now.Store(time.Now().UnixNano())
	s := testserver.Start(t, testserver.WithNow(func() time.Time { return time.Unix(0, now.Load()) }))
	c, sc := s.API, s.StreamsAPI

	missing := "arn:aws:dynamodb:us-east-1:000000000000:table/nosuch/stream/2024-01-01T00:00:00.000"
	_, err := sc.DescribeStream(bg(), &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(missing)})
	wantErr(t, err, "ResourceNotFoundException", "Requested resource not found: Stream: "+missing+" not found")
	var rnf *st.ResourceNotFoundException
	if !errorsAs(err, &rnf) {
		t.Fatalf("the SDK did not map the error to its ResourceNotFoundException: %T", err)
	}
	_, err = sc.GetShardIterator(bg(), &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(missing),
		ShardId: aws.String("shardId-00000000000000000000-00000000"), ShardIteratorType: st.ShardIteratorTypeLatest})
	wantCode(t, err, "ResourceNotFoundException")

	_, err = sc.GetRecords(bg(), &dynamodbstreams.GetRecordsInput{ShardIterator: aws.String("not-an-iterator")})
	wantCode(t, err, "ValidationException")

	arn := createStreamTable(t, c, "errs", types.StreamViewTypeKeysOnly)
	d := describeAll(t, sc, arn)
	iter := shardIterator(t, sc, arn, aws.ToString(d.Shards[0].ShardId), st.ShardIteratorTypeTrimHorizon, "")
	_, err = sc.GetRecords(bg(), &dynamodbstreams.GetRecordsInput{ShardIterator: aws.String(iter), Limit: aws.Int32(0)})
	wantConstraints(t, err, "Value '0' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1")
	_, err = sc.GetRecords(bg(), &dynamodbstreams.GetRecordsInput{ShardIterator: aws.String(iter), Limit: aws.Int32(1001)})
	wantConstraints(t, err, "Value '1001' at 'limit' failed to satisfy constraint: Member must have value less than or equal to 1000")
	_, err = sc.DescribeStream(bg(), &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(arn), Limit: aws.Int32(0)})
	wantConstraints(t, err, "Value '0' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1")

	// An iterator expires after 15 minutes.
	now.Add(int64(16 * time.Minute))
	_, err = sc.GetRecords(bg(), &dynamodbstreams.GetRecordsInput{ShardIterator: aws.String(iter)})
	var expired *st.ExpiredIteratorException
	if !errorsAs(err, &expired) {
		t.Fatalf("GetRecords with a 16-minute-old iterator: %v, want ExpiredIteratorException", err)
	}
	res := streamsRaw(t, s, "GetRecords", `{"ShardIterator":"`+iter+`"}`)
	checkRawType(t, res, 400, "com.amazonaws.dynamodb.v20120810#ExpiredIteratorException")
}

// streamsRaw POSTs body as the DynamoDB Streams operation op.
func streamsRaw(t *testing.T, s *testserver.Server, op, body string) testserver.Response {
	t.Helper()
	h := http.Header{"Content-Type": {"application/x-amz-json-1.0"}, "X-Amz-Target": {"DynamoDBStreams_20120810." + op}}
	return s.Do(t, http.MethodPost, h, strings.NewReader(body))
}

// checkRawType asserts a raw error's status and __type, and that it has
// a message.
func checkRawType(t *testing.T, res testserver.Response, status int, typ string) {
	t.Helper()
	checkHeaders(t, res)
	var body map[string]any
	if err := jsonUnmarshal(res.Body, &body); err != nil || res.Status != status || body["__type"] != typ {
		t.Fatalf("status %d body %s; want %d %s", res.Status, res.Body, status, typ)
	}
	if m, _ := body["message"].(string); m == "" {
		t.Fatalf("no message in %s", res.Body)
	}
}

// TestStreamsRouting checks the Streams target prefix on the shared
// endpoint: its operations are found there and only there.
func TestStreamsRouting(t *testing.T) {
	needsWire(t)
	s := testserver.Start(t)
	res := streamsRaw(t, s, "ListStreams", `{}`)
	checkHeaders(t, res)
	if res.Status != 200 || res.Header.Get("Content-Type") != "application/x-amz-json-1.0" {
		t.Fatalf("ListStreams: %d %s", res.Status, res.Header.Get("Content-Type"))
	}
	jsonEqual(t, res.Body, `{"Streams":[]}`)

	unknown := "com.amazon.coral.service#UnknownOperationException"
	checkRaw(t, streamsRaw(t, s, "Nope", `{}`), 400, unknown, "")
	checkRaw(t, streamsRaw(t, s, "PutItem", `{}`), 400, unknown, "")   // a DynamoDB op under the Streams prefix
	checkRaw(t, s.Raw(t, "ListStreams", `{}`), 400, unknown, "")       // a Streams op under the DynamoDB prefix
	checkRaw(t, s.Raw(t, "GetRecords", `{}`), 400, unknown, "")        // likewise
	checkRaw(t, streamsRaw(t, s, "", `{}`), 400, unknown, "")          // the bare prefix
	checkRaw(t, streamsRaw(t, s, "ListStreams", `{"Limit":"x"}`), 400, // decoding as for DynamoDB
		"com.amazon.coral.service#SerializationException", "STRING_VALUE cannot be converted to Integer")
	checkRaw(t, streamsRaw(t, s, "GetRecords", `{"ShardIterator":"x","Limit":0}`), 400, "com.amazon.coral.validate#ValidationException",
		"1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1")
}

// follower reads a whole stream the way a consumer must: from the root
// shard, each shard from TRIM_HORIZON until GetRecords stops returning a
// NextShardIterator (the shard is closed and read), then its child, until
// the stream is disabled and its last shard read.
type follower struct {
	arn    string
	sc     streamsRef
	shard  string // the shard being read; "" before the first
	iter   string // its iterator; "" when one is needed
	shards []string
	recs   []st.Record
}

// step makes one call's worth of progress and reports whether the stream
// is finished.
func (f *follower) step() (bool, error) {
	sc := f.sc.Load()
	ctx := bg()
	if f.shard == "" {
		out, err := sc.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(f.arn)})
		if err != nil {
			return false, err
		}
		for _, sh := range out.StreamDescription.Shards {
			if sh.ParentShardId == nil {
				f.shard = *sh.ShardId
				f.shards = append(f.shards, f.shard)
				break
			}
		}
		if f.shard == "" {
			return false, fmt.Errorf("no root shard in %+v", out.StreamDescription.Shards)
		}
	}
	if f.iter == "" {
		out, err := sc.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(f.arn), ShardId: aws.String(f.shard),
			ShardIteratorType: st.ShardIteratorTypeTrimHorizon})
		if err != nil {
			return false, err
		}
		f.iter = *out.ShardIterator
	}
	out, err := sc.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: aws.String(f.iter)})
	if err != nil {
		return false, err
	}
	f.recs = append(f.recs, out.Records...)
	if out.NextShardIterator != nil {
		f.iter = *out.NextShardIterator
		if len(out.Records) == 0 {
			time.Sleep(time.Millisecond)
		}
		return false, nil
	}
	// The shard is closed and read: go on with its child.
	ch, err := sc.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(f.arn),
		ShardFilter: &st.ShardFilter{Type: st.ShardFilterTypeChildShards, ShardId: aws.String(f.shard)}})
	if err != nil {
		return false, err
	}
	switch n := len(ch.StreamDescription.Shards); {
	case n == 1:
		f.shard, f.iter = *ch.StreamDescription.Shards[0].ShardId, ""
		f.shards = append(f.shards, f.shard)
		return false, nil
	case n > 1:
		return false, fmt.Errorf("shard %s has %d children", f.shard, n)
	}
	if ch.StreamDescription.StreamStatus == st.StreamStatusDisabled {
		return true, nil
	}
	// A child may show up after its parent closed.
	f.iter = "done" // sentinel: GetRecords on it would fail
	return false, f.awaitChild(sc)
}

// awaitChild waits for the child of the current (finished) shard, up to
// a minute.
func (f *follower) awaitChild(sc local.StreamsAPI) error {
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
		ch, err := sc.DescribeStream(bg(), &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(f.arn),
			ShardFilter: &st.ShardFilter{Type: st.ShardFilterTypeChildShards, ShardId: aws.String(f.shard)}})
		if err != nil {
			return err
		}
		if len(ch.StreamDescription.Shards) > 0 {
			f.shard, f.iter = *ch.StreamDescription.Shards[0].ShardId, ""
			f.shards = append(f.shards, f.shard)
			return nil
		}
		if ch.StreamDescription.StreamStatus == st.StreamStatusDisabled {
			return fmt.Errorf("stream disabled while waiting for a child of %s", f.shard)
		}
	}
	return fmt.Errorf("closed shard %s never got a child", f.shard)
}

// run steps until the stream is finished or stop is closed (then it
// returns after its current step). It reports whether it finished.
// followOutcome is how a follower's run ended.
type followOutcome struct {
	finished bool
	err      error
}

// runAsync runs f.run(stop) in the background; its outcome arrives on
// the channel it returns.
func (f *follower) runAsync(stop <-chan struct{}) <-chan followOutcome {
	out := make(chan followOutcome, 1)
	go func() {
		finished, err := f.run(stop)
		out <- followOutcome{finished, err}
	}()
	return out
}

func (f *follower) run(stop <-chan struct{}) (bool, error) {
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		select {
		case <-stop:
			return false, nil
		default:
		}
		done, err := f.step()
		if err != nil || done {
			return done, err
		}
	}
	return false, fmt.Errorf("the stream was not read to its end in a minute (%d shards, %d records)", len(f.shards), len(f.recs))
}

// counterWriter increments the counter c of its items, one UpdateItem at
// a time, from `from` to `to` for each item, in round robin.
func counterWriter(ctx context.Context, c local.API, table string, keys []string, from, to int, pause time.Duration) error {
	for n := from; n <= to; n++ {
		for _, k := range keys {
			out, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(table), Key: item{"pk": S(k)},
				UpdateExpression: aws.String("ADD c :one"), ExpressionAttributeValues: item{":one": N("1")}, ReturnValues: types.ReturnValueUpdatedNew})
			if err != nil {
				return fmt.Errorf("UpdateItem %s to %d: %w", k, n, err)
			}
			if got := out.Attributes["c"].(*types.AttributeValueMemberN).Value; got != fmt.Sprint(n) {
				return fmt.Errorf("item %s counter %s, want %d", k, got, n)
			}
			time.Sleep(pause)
		}
	}
	return nil
}

// checkCounters asserts the records hold every change exactly once and in
// per-item order: for each item, INSERT c=1 then MODIFY c=2..n.
func checkCounters(t *testing.T, recs []st.Record, keys []string, n int) {
	t.Helper()
	got := map[string][]string{}
	ids := map[string]bool{}
	for _, r := range recs {
		id := aws.ToString(r.EventID)
		if ids[id] {
			t.Fatalf("eventID %s read twice", id)
		}
		ids[id] = true
		k := r.Dynamodb.Keys["pk"].(*st.AttributeValueMemberS).Value
		c, ok := r.Dynamodb.NewImage["c"].(*st.AttributeValueMemberN)
		if !ok {
			t.Fatalf("record of %s without a counter: %+v", k, r.Dynamodb.NewImage)
		}
		want := st.OperationTypeModify
		if c.Value == "1" {
			want = st.OperationTypeInsert
		}
		if r.EventName != want {
			t.Fatalf("%s c=%s is a %s record", k, c.Value, r.EventName)
		}
		got[k] = append(got[k], c.Value)
	}
	var want []string
	for i := 1; i <= n; i++ {
		want = append(want, fmt.Sprint(i))
	}
	for _, k := range keys {
		if strings.Join(got[k], ",") != strings.Join(want, ",") {
			t.Fatalf("item %s: counters %v, want 1..%d each once in order", k, got[k], n)
		}
	}
	if len(recs) != len(keys)*n {
		t.Fatalf("%d records, want %d", len(recs), len(keys)*n)
	}
}

// checkLineage asserts a disabled stream's shards form one chain, each
// closed, each the parent of the next, with increasing ranges, and that
// the follower read them all in that order.
func checkLineage(t *testing.T, sc local.StreamsAPI, arn string, read []string) {
	t.Helper()
	d := describeAll(t, sc, arn)
	if d.StreamStatus != st.StreamStatusDisabled {
		t.Fatalf("stream status %s", d.StreamStatus)
	}
	var ids []string
	for i, sh := range d.Shards {
		ids = append(ids, *sh.ShardId)
		r := sh.SequenceNumberRange
		if r == nil || r.StartingSequenceNumber == nil || r.EndingSequenceNumber == nil || cmpSeq(t, *r.EndingSequenceNumber, *r.StartingSequenceNumber) < 0 {
			t.Fatalf("shard %d of a disabled stream: range %+v", i, r)
		}
		if i == 0 {
			if sh.ParentShardId != nil {
				t.Fatalf("the first shard has parent %s", *sh.ParentShardId)
			}
			continue
		}
		prev := d.Shards[i-1]
		if aws.ToString(sh.ParentShardId) != *prev.ShardId {
			t.Fatalf("shard %s has parent %v, want %s", *sh.ShardId, aws.ToString(sh.ParentShardId), *prev.ShardId)
		}
		if cmpSeq(t, *r.StartingSequenceNumber, *prev.SequenceNumberRange.EndingSequenceNumber) <= 0 {
			t.Fatalf("shard %s starts at %s, not after its parent's end %s", *sh.ShardId, *r.StartingSequenceNumber, *prev.SequenceNumberRange.EndingSequenceNumber)
		}
	}
	if strings.Join(ids, " ") != strings.Join(read, " ") {
		t.Fatalf("follower read shards %v, stream has %v", read, ids)
	}
	if len(ids) < 3 {
		t.Fatalf("only %d shards: the test did not exercise shard lineage", len(ids))
	}
	t.Logf("%d shards", len(ids))
}

func disableStream(t *testing.T, c local.API, table string) {
	t.Helper()
	_, err := c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String(table), StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(false)}})
	if err != nil {
		t.Fatal(err)
	}
}

// TestStreamLineage writes concurrently to a stream whose shards roll
// over every 20 ms while a reader follows the shards; the reader gets
// every change exactly once, in each item's order.
func TestStreamLineage(t *testing.T) {
	s := testserver.Start(t, testserver.WithEngineOptions(func(o *engine.Options) { o.StreamShardDuration = 20 * time.Millisecond }))
	c := s.API
	arn := createStreamTable(t, c, "lineage", types.StreamViewTypeNewImage)
	const writers, perWriter, n = 4, 3, 25
	var all []string
	f := &follower{arn: arn}
	f.sc.Store(s.StreamsAPI)
	readDone := make(chan error, 1)
	var finished bool
	go func() {
		var err error
		finished, err = f.run(nil)
		readDone <- err
	}()
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := range writers {
		var keys []string
		for i := range perWriter {
			keys = append(keys, fmt.Sprintf("w%d-%d", w, i))
		}
		all = append(all, keys...)
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- counterWriter(bg(), c, "lineage", keys, 1, n, 2*time.Millisecond)
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	disableStream(t, c, "lineage")
	if err := <-readDone; err != nil || !finished {
		t.Fatalf("reader: finished %v, %v", finished, err)
	}
	checkCounters(t, f.recs, all, n)
	checkLineage(t, s.StreamsAPI, arn, f.shards)
}

// TestAWSCLIStreams lists and describes streams with the AWS CLI.
func TestAWSCLIStreams(t *testing.T) {
	needsWire(t)
	if !haveAWSCLI() {
		t.Skip("the AWS CLI (aws) is not on PATH; skipping the CLI test")
	}
	s := testserver.Start(t)
	arn := createStreamTable(t, s.Client, "clistream", types.StreamViewTypeNewAndOldImages)
	put(t, s.Client, "clistream", item{"pk": S("k"), "v": N("1")})
	out := runAWS(t, s.URL, "dynamodbstreams", "list-streams")
	label := aws.ToString(describe(t, s.Client, "clistream").LatestStreamLabel)
	jsonEqual(t, mustJSON(t, out), `{"Streams":[{"StreamArn":"`+arn+`","TableName":"clistream","StreamLabel":"`+label+`"}]}`)
	out = runAWS(t, s.URL, "dynamodbstreams", "describe-stream", "--stream-arn", arn)
	d, _ := out["StreamDescription"].(map[string]any)
	if d["StreamStatus"] != "ENABLED" || d["StreamViewType"] != "NEW_AND_OLD_IMAGES" || len(d["Shards"].([]any)) != 1 {
		t.Fatalf("describe-stream printed %v", out)
	}
}

const boto3StreamsScript = `
import sys, datetime, boto3, botocore
url = sys.argv[1]
kw = dict(endpoint_url=url, region_name="us-east-1", aws_access_key_id="x", aws_secret_access_key="x",
          config=botocore.config.Config(retries={"max_attempts": 1}))
ddb = boto3.client("dynamodb", **kw)
streams = boto3.client("dynamodbstreams", **kw)
arn = ddb.create_table(TableName="pys", BillingMode="PAY_PER_REQUEST",
                       AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                       KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                       StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"})["TableDescription"]["LatestStreamArn"]
ddb.put_item(TableName="pys", Item={"pk": {"S": "a"}, "n": {"N": "1"}, "b": {"B": b"\x00\xff"}})
ddb.update_item(TableName="pys", Key={"pk": {"S": "a"}}, UpdateExpression="SET n = :two", ExpressionAttributeValues={":two": {"N": "2"}})
assert [s["StreamArn"] for s in streams.list_streams(TableName="pys")["Streams"]] == [arn]
d = streams.describe_stream(StreamArn=arn)["StreamDescription"]
assert d["StreamStatus"] == "ENABLED" and isinstance(d["CreationRequestDateTime"], datetime.datetime), d
it = streams.get_shard_iterator(StreamArn=arn, ShardId=d["Shards"][0]["ShardId"], ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
r = streams.get_records(ShardIterator=it)
assert "NextShardIterator" in r, r
recs = r["Records"]
assert [x["eventName"] for x in recs] == ["INSERT", "MODIFY"], recs
ins, mod = recs[0], recs[1]
assert ins["eventSource"] == "aws:dynamodb" and ins["eventVersion"] == "1.1" and ins["awsRegion"] == "us-east-1", ins
assert ins["dynamodb"]["Keys"] == {"pk": {"S": "a"}}, ins
assert ins["dynamodb"]["NewImage"] == {"pk": {"S": "a"}, "n": {"N": "1"}, "b": {"B": b"\x00\xff"}}, ins
assert "OldImage" not in ins["dynamodb"], ins
assert mod["dynamodb"]["OldImage"]["n"] == {"N": "1"} and mod["dynamodb"]["NewImage"]["n"] == {"N": "2"}, mod
assert isinstance(ins["dynamodb"]["ApproximateCreationDateTime"], datetime.datetime), ins
assert ins["dynamodb"]["SizeBytes"] > 0 and ins["dynamodb"]["StreamViewType"] == "NEW_AND_OLD_IMAGES", ins
assert int(mod["dynamodb"]["SequenceNumber"]) > int(ins["dynamodb"]["SequenceNumber"]), recs
try:
    streams.get_records(ShardIterator="bogus")
    raise SystemExit("GetRecords with a bogus iterator succeeded")
except streams.exceptions.ClientError as e:
    assert e.response["Error"]["Code"] == "ValidationException", e.response
print("boto3 streams ok")
`

// TestBoto3Streams reads a stream with boto3's dynamodbstreams client.
func TestBoto3Streams(t *testing.T) {
	needsWire(t)
	py := boto3Python(t)
	s := testserver.Start(t)
	out, err := pythonCommand(t, py, boto3StreamsScript, s.URL).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "boto3 streams ok") {
		t.Fatalf("boto3 script: %v\n%s", err, out)
	}
}

func haveAWSCLI() bool {
	_, err := exec.LookPath("aws")
	return err == nil
}

// runAWS runs the AWS CLI against url with an isolated environment and
// returns its JSON output.
func runAWS(t *testing.T, url string, args ...string) map[string]any {
	t.Helper()
	cmd := exec.Command("aws", append(args, "--endpoint-url", url, "--output", "json")...)
	cmd.Env = isolatedEnv(t)
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("aws %v: %v\n%s%s", args, err, out, stderr)
	}
	var v map[string]any
	if err := jsonUnmarshal(out, &v); err != nil {
		t.Fatalf("aws %v printed non-JSON %q", args, out)
	}
	return v
}

// boto3Python returns the python3 that has boto3, or skips the test.
func boto3Python(t *testing.T) string {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not on PATH; skipping the boto3 test")
	}
	check := exec.Command(py, "-c", "import boto3")
	check.Env = isolatedEnv(t)
	if err := check.Run(); err != nil {
		t.Skip("boto3 is not installed for python3; skipping the boto3 test")
	}
	return py
}

func pythonCommand(t *testing.T, py, script string, args ...string) *exec.Cmd {
	cmd := exec.Command(py, append([]string{"-c", script}, args...)...)
	cmd.Env = isolatedEnv(t)
	return cmd
}

// The test binary doubles as the dynago binary, as in cmd/dynago/cli's
// tests, so a test can run a real "dynago serve" on a data directory
// through testserver.StartProcess and restart it.
func TestMain(m *testing.M) {
	testserver.ChildMain(cli.Main)
	os.Exit(m.Run())
}

// TestStreamLineageAcrossRestart is TestStreamLineage against a real
// server on disk that is stopped and restarted between two rounds of
// writes: the reader keeps its iterator across the restart and still
// gets every change exactly once, in order.
func TestStreamLineageAcrossRestart(t *testing.T) {
	needsWire(t)
	dir := t.TempDir()
	args := []string{"--data-dir", dir, "--stream-shard-duration", "20ms", "--ttl-sweep-interval", "0", "--ttl-change-cooldown", "-1s"}
	p := testserver.StartProcess(t, args...)
	c := testserver.NewClient(p.URL)
	arn := createStreamTable(t, c, "restart", types.StreamViewTypeNewAndOldImages)
	const writers, perWriter, half, n = 3, 2, 10, 20
	var keys [][]string
	var all []string
	for w := range writers {
		var ks []string
		for i := range perWriter {
			ks = append(ks, fmt.Sprintf("w%d-%d", w, i))
		}
		keys = append(keys, ks)
		all = append(all, ks...)
	}
	f := &follower{arn: arn}
	f.sc.Store(testserver.NewStreamsClient(p.URL))
	round := func(c local.API, from, to int, untilEnd bool) {
		t.Helper()
		stop := make(chan struct{})
		read := f.runAsync(stop)
		var wg sync.WaitGroup
		errs := make(chan error, writers)
		for _, ks := range keys {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs <- counterWriter(bg(), c, "restart", ks, from, to, 2*time.Millisecond)
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				close(stop)
				t.Fatal(err)
			}
		}
		if untilEnd {
			disableStream(t, c, "restart")
		} else {
			time.Sleep(20 * time.Millisecond) // let the reader catch up a little
			close(stop)
		}
		r := <-read
		if r.err != nil || r.finished != untilEnd {
			t.Fatalf("reader: finished %v (want %v), %v", r.finished, untilEnd, r.err)
		}
	}
	round(c, 1, half, false)
	readBefore := len(f.recs)
	p.Stop(t)

	p2 := testserver.StartProcess(t, args...)
	c2 := testserver.NewClient(p2.URL)
	f.sc.Store(testserver.NewStreamsClient(p2.URL))
	ls, err := f.sc.Load().ListStreams(bg(), &dynamodbstreams.ListStreamsInput{TableName: aws.String("restart")})
	if err != nil || len(ls.Streams) != 1 || aws.ToString(ls.Streams[0].StreamArn) != arn {
		t.Fatalf("ListStreams after the restart: %+v, %v", ls, err)
	}
	round(c2, half+1, n, true)
	t.Logf("read %d records before the restart, %d in all", readBefore, len(f.recs))
	checkCounters(t, f.recs, all, n)
	checkLineage(t, f.sc.Load(), arn, f.shards)
}

// streamsRef holds a Streams client that one goroutine may swap while
// another reads it.
type streamsRef struct {
	p atomic.Pointer[local.StreamsAPI]
}

func (r *streamsRef) Store(c local.StreamsAPI) { r.p.Store(&c) }

func (r *streamsRef) Load() local.StreamsAPI {
	if p := r.p.Load(); p != nil {
		return *p
	}
	return nil
}
