package e2e

import (
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/engine"
	"github.com/dynago/dynago/local"
	"github.com/dynago/dynago/testserver"
)

// GSI lag and stale reads (docs/REHEARSAL.md). What they imitate is
// AWS's documented behaviour:
//   - "All reads from GSIs and streams are eventually consistent", and an
//     eventually consistent read of a table or index "may not reflect the
//     results of a recently completed write operation"; with
//     ConsistentRead DynamoDB "returns a response with the most
//     up-to-date data, reflecting the updates from all prior write
//     operations that were successful" (DynamoDB developer guide, "DynamoDB
//     read consistency",
//     https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.ReadConsistency.html).
//   - "When you query a local secondary index, you can choose either
//     eventual consistency or strong consistency"; queries on GSIs support
//     eventual consistency only (developer guide, "Improving data access
//     with secondary indexes", the GSI and LSI comparison,
//     https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/SecondaryIndexes.html).
//   - Writes propagate to a GSI within about a second (AWS re:Post
//     knowledge center, "dynamodb-missing-table-items-gsi",
//     https://repost.aws/knowledge-center/dynamodb-missing-table-items-gsi).
// The tests drive the server's clock, so nothing waits: a delay is
// "not yet" until the clock is moved past it.

// lagClock is a server clock the test moves by hand.
type lagClock struct{ ns atomic.Int64 }

func newLagClock() *lagClock {
	c := &lagClock{}
	c.ns.Store(fixedNow.UnixNano())
	return c
}

func (c *lagClock) now() time.Time          { return time.Unix(0, c.ns.Load()).UTC() }
func (c *lagClock) advance(d time.Duration) { c.ns.Add(int64(d)) }

// startLag starts a server on clock c whose engine has the given GSI lag,
// stale-read window and seed.
func startLag(t *testing.T, c *lagClock, gsiLag, stale time.Duration, seed int64) (*testserver.Server, local.API) {
	t.Helper()
	s := testserver.Start(t, testserver.WithNow(c.now), testserver.WithEngineOptions(func(o *engine.Options) {
		o.GSILag, o.StaleReads, o.ConsistencySeed = gsiLag, stale, seed
	}))
	return s, client(t, s)
}

// createLagTable creates table name: key pk (S) and sk (S), a GSI byG on
// g projecting v (INCLUDE), and an LSI byL on l projecting all.
func createLagTable(t *testing.T, c local.API, name string, tags ...types.Tag) {
	t.Helper()
	s := func(n string) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: types.ScalarAttributeTypeS}
	}
	k := func(n string, typ types.KeyType) types.KeySchemaElement {
		return types.KeySchemaElement{AttributeName: aws.String(n), KeyType: typ}
	}
	_, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{
		TableName:            aws.String(name),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{s("pk"), s("sk"), s("g"), s("l")},
		KeySchema:            []types.KeySchemaElement{k("pk", types.KeyTypeHash), k("sk", types.KeyTypeRange)},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
			IndexName:  aws.String("byG"),
			KeySchema:  []types.KeySchemaElement{k("g", types.KeyTypeHash)},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{"v"}},
		}},
		LocalSecondaryIndexes: []types.LocalSecondaryIndex{{
			IndexName:  aws.String("byL"),
			KeySchema:  []types.KeySchemaElement{k("pk", types.KeyTypeHash), k("l", types.KeyTypeRange)},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
		}},
		Tags: tags,
	})
	if err != nil {
		t.Fatalf("CreateTable %s: %v", name, err)
	}
}

// lagItem is an item of a lag table: pk, sk, g (omitted when ""), l and v.
func lagItem(pk, sk, g, v string) item {
	it := item{"pk": S(pk), "sk": S(sk), "l": S(sk), "v": N(v)}
	if g != "" {
		it["g"] = S(g)
	}
	return it
}

// shown renders items as "sk:v", sorted; an item the read lacks v of
// shows "sk:-".
func shown(items []item) []string {
	out := []string{}
	for _, it := range items {
		v := "-"
		if n, ok := it["v"].(*types.AttributeValueMemberN); ok {
			v = n.Value
		}
		out = append(out, it["sk"].(*types.AttributeValueMemberS).Value+":"+v)
	}
	slices.Sort(out)
	return out
}

// queryGSI returns what a Query of byG for g = value shows.
func queryGSI(t *testing.T, c local.API, table, value string) []string {
	t.Helper()
	out, err := c.Query(bg(), &dynamodb.QueryInput{
		TableName: aws.String(table), IndexName: aws.String("byG"),
		KeyConditionExpression:    aws.String("g = :g"),
		ExpressionAttributeValues: item{":g": S(value)},
	})
	if err != nil {
		t.Fatalf("Query byG: %v", err)
	}
	return shown(out.Items)
}

// scanGSI returns what a Scan of byG shows of the items whose g is value.
func scanGSI(t *testing.T, c local.API, table, value string) []string {
	t.Helper()
	out, err := c.Scan(bg(), &dynamodb.ScanInput{
		TableName: aws.String(table), IndexName: aws.String("byG"),
		FilterExpression:          aws.String("g = :g"),
		ExpressionAttributeValues: item{":g": S(value)},
	})
	if err != nil {
		t.Fatalf("Scan byG: %v", err)
	}
	return shown(out.Items)
}

// queryPartition returns what a Query of the table (index "") or the LSI
// byL shows of partition pk.
func queryPartition(t *testing.T, c local.API, table, index, pk string, consistent bool) []string {
	t.Helper()
	in := &dynamodb.QueryInput{
		TableName:                 aws.String(table),
		KeyConditionExpression:    aws.String("pk = :p"),
		ExpressionAttributeValues: item{":p": S(pk)},
		ConsistentRead:            aws.Bool(consistent),
	}
	if index != "" {
		in.IndexName = aws.String(index)
	}
	out, err := c.Query(bg(), in)
	if err != nil {
		t.Fatalf("Query %s %q: %v", table, index, err)
	}
	return shown(out.Items)
}

// TestGSILag: under GSI lag a Query or Scan of a GSI right after a write
// shows what the index showed before it (a new item missing, a changed
// item at its old version, with the old projected attributes, a deleted
// item still there), whatever the write path, and the write once the
// clock passes the drawn delay (at most twice the mean); the table read
// consistently and the LSI show the write at once. The issue's
// requirement and AWS's documents cited at the top of this file.
func TestGSILag(t *testing.T) {
	const mean = time.Second
	clock := newLagClock()
	s, c := startLag(t, clock, mean, 0, 1)
	const table = "lag"
	createLagTable(t, c, table)
	cases := []struct {
		name  string
		setup []item
		write func(t *testing.T, pk string)
		g     string   // the GSI key queried
		want  []string // before the delay
		after []string // once it passed
		lsi   []string // the LSI and the table, at once
	}{
		{"a new item is missing", []item{lagItem("", "a", "x", "1")},
			func(t *testing.T, pk string) { put(t, c, table, lagItem(pk, "b", "x"+pk, "1")) },
			"x", []string{"a:1"}, []string{"a:1", "b:1"}, []string{"a:1", "b:1"}},
		{"a changed item shows its old version", []item{lagItem("", "a", "x", "1")},
			func(t *testing.T, pk string) { put(t, c, table, lagItem(pk, "a", "x"+pk, "2")) },
			"x", []string{"a:1"}, []string{"a:2"}, []string{"a:2"}},
		{"a deleted item still shows", []item{lagItem("", "a", "x", "1"), lagItem("", "b", "x", "1")},
			func(t *testing.T, pk string) {
				if _, err := c.DeleteItem(bg(), &dynamodb.DeleteItemInput{TableName: aws.String(table), Key: item{"pk": S(pk), "sk": S("a")}}); err != nil {
					t.Fatalf("DeleteItem: %v", err)
				}
			},
			"x", []string{"a:1", "b:1"}, []string{"b:1"}, []string{"b:1"}},
		{"an item whose index key changed shows at its old key", []item{lagItem("", "a", "x", "1")},
			func(t *testing.T, pk string) {
				_, err := c.UpdateItem(bg(), &dynamodb.UpdateItemInput{TableName: aws.String(table),
					Key:                       item{"pk": S(pk), "sk": S("a")},
					UpdateExpression:          aws.String("SET g = :g, v = :v"),
					ExpressionAttributeValues: item{":g": S("y" + pk), ":v": N("2")}})
				if err != nil {
					t.Fatalf("UpdateItem: %v", err)
				}
			},
			"x", []string{"a:1"}, []string{}, []string{"a:2"}},
		{"an item that left the sparse index still shows", []item{lagItem("", "a", "x", "1")},
			func(t *testing.T, pk string) {
				_, err := c.UpdateItem(bg(), &dynamodb.UpdateItemInput{TableName: aws.String(table),
					Key: item{"pk": S(pk), "sk": S("a")}, UpdateExpression: aws.String("REMOVE g")})
				if err != nil {
					t.Fatalf("UpdateItem: %v", err)
				}
			},
			"x", []string{"a:1"}, []string{}, []string{"a:1"}},
		{"BatchWriteItem's items lag too", []item{lagItem("", "a", "x", "1")},
			func(t *testing.T, pk string) {
				_, err := c.BatchWriteItem(bg(), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{table: {
					{PutRequest: &types.PutRequest{Item: lagItem(pk, "a", "x"+pk, "2")}},
					{PutRequest: &types.PutRequest{Item: lagItem(pk, "b", "x"+pk, "2")}},
				}}})
				if err != nil {
					t.Fatalf("BatchWriteItem: %v", err)
				}
			},
			"x", []string{"a:1"}, []string{"a:2", "b:2"}, []string{"a:2", "b:2"}},
		// A completed transaction's changes "start propagating to GSIs"
		// and the propagation "occurs gradually" (developer guide,
		// "Amazon DynamoDB Transactions: How it works",
		// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis.html).
		{"TransactWriteItems' items lag too", []item{lagItem("", "a", "x", "1")},
			func(t *testing.T, pk string) {
				_, err := c.TransactWriteItems(bg(), &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
					{Put: &types.Put{TableName: aws.String(table), Item: lagItem(pk, "b", "x"+pk, "2")}},
					{Delete: &types.Delete{TableName: aws.String(table), Key: item{"pk": S(pk), "sk": S("a")}}},
				}})
				if err != nil {
					t.Fatalf("TransactWriteItems: %v", err)
				}
			},
			"x", []string{"a:1"}, []string{"b:2"}, []string{"b:2"}},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pk := fmt.Sprint("p", i)
			g := tc.g + pk
			for _, it := range tc.setup {
				it = lagItem(pk, it["sk"].(*types.AttributeValueMemberS).Value, g, it["v"].(*types.AttributeValueMemberN).Value)
				put(t, c, table, it)
			}
			clock.advance(time.Hour) // the setup settles
			deepEqual(t, "GSI before the write", queryGSI(t, c, table, g), tc.want)
			tc.write(t, pk)
			deepEqual(t, "GSI Query right after the write", queryGSI(t, c, table, g), tc.want)
			deepEqual(t, "GSI Scan right after the write", scanGSI(t, c, table, g), tc.want)
			deepEqual(t, "LSI right after the write", queryPartition(t, c, table, "byL", pk, false), tc.lsi)
			deepEqual(t, "LSI consistent right after the write", queryPartition(t, c, table, "byL", pk, true), tc.lsi)
			deepEqual(t, "table right after the write", queryPartition(t, c, table, "", pk, true), tc.lsi)
			if m := s.DB.Meters(); m.GSILagHiddenEntries == 0 {
				t.Errorf("Meters().GSILagHiddenEntries = 0 right after the write")
			}
			clock.advance(2 * mean) // past the longest delay drawn
			deepEqual(t, "GSI Query once the lag passed", queryGSI(t, c, table, g), tc.after)
			deepEqual(t, "GSI Scan once the lag passed", scanGSI(t, c, table, g), tc.after)
			if m := s.DB.Meters(); m.GSILagHiddenEntries != 0 {
				t.Errorf("Meters().GSILagHiddenEntries = %d once the lag passed, want 0", m.GSILagHiddenEntries)
			}
		})
	}
	if n := staleReads(s, table, "byG"); n == 0 {
		t.Errorf("stale reads counted on byG: 0")
	}
	if n := staleReads(s, table, "byL") + staleReads(s, table, ""); n != 0 {
		t.Errorf("stale reads counted on the table and the LSI: %d, want 0", n)
	}
}

// staleReads is the engine's count of stale reads of a table (index "")
// or one of its indexes.
func staleReads(s *testserver.Server, table, index string) uint64 {
	for _, tm := range s.DB.Meters().Tables {
		if tm.Table != table {
			continue
		}
		if index == "" {
			return tm.Units.StaleReads
		}
		return tm.Indexes[index].StaleReads
	}
	return 0
}

// readKinds are the ways a test reads item (pk, "a") of a lag table,
// each rendering what it saw: its v, or "none".
var readKinds = []struct {
	name       string
	consistent bool // strongly consistent, or a transaction
	read       func(t *testing.T, c local.API, table, pk string) string
}{
	{"GetItem", false, func(t *testing.T, c local.API, table, pk string) string { return getV(t, c, table, pk, false) }},
	{"GetItem ConsistentRead", true, func(t *testing.T, c local.API, table, pk string) string { return getV(t, c, table, pk, true) }},
	{"BatchGetItem", false, func(t *testing.T, c local.API, table, pk string) string { return batchGetV(t, c, table, pk, false) }},
	{"BatchGetItem ConsistentRead", true, func(t *testing.T, c local.API, table, pk string) string { return batchGetV(t, c, table, pk, true) }},
	{"Query", false, func(t *testing.T, c local.API, table, pk string) string {
		return onlyV(queryPartition(t, c, table, "", pk, false))
	}},
	{"Query ConsistentRead", true, func(t *testing.T, c local.API, table, pk string) string {
		return onlyV(queryPartition(t, c, table, "", pk, true))
	}},
	{"Scan", false, func(t *testing.T, c local.API, table, pk string) string { return scanV(t, c, table, pk, false) }},
	{"Scan ConsistentRead", true, func(t *testing.T, c local.API, table, pk string) string { return scanV(t, c, table, pk, true) }},
	{"TransactGetItems", true, func(t *testing.T, c local.API, table, pk string) string {
		out, err := c.TransactGetItems(bg(), &dynamodb.TransactGetItemsInput{TransactItems: []types.TransactGetItem{
			{Get: &types.Get{TableName: aws.String(table), Key: item{"pk": S(pk), "sk": S("a")}}}}})
		if err != nil {
			t.Fatalf("TransactGetItems: %v", err)
		}
		return vOf(out.Responses[0].Item)
	}},
}

func vOf(it item) string {
	if it == nil {
		return "none"
	}
	return it["v"].(*types.AttributeValueMemberN).Value
}

// onlyV renders a read of partition pk, whose only item is "a" if any.
func onlyV(shown []string) string {
	if len(shown) == 0 {
		return "none"
	}
	return strings.TrimPrefix(strings.Join(shown, ","), "a:")
}

func getV(t *testing.T, c local.API, table, pk string, consistent bool) string {
	t.Helper()
	out, err := c.GetItem(bg(), &dynamodb.GetItemInput{TableName: aws.String(table), Key: item{"pk": S(pk), "sk": S("a")}, ConsistentRead: aws.Bool(consistent)})
	if err != nil {
		t.Fatalf("GetItem: %v", err)
	}
	return vOf(out.Item)
}

func batchGetV(t *testing.T, c local.API, table, pk string, consistent bool) string {
	t.Helper()
	out, err := c.BatchGetItem(bg(), &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{
		table: {Keys: []item{{"pk": S(pk), "sk": S("a")}}, ConsistentRead: aws.Bool(consistent)}}})
	if err != nil {
		t.Fatalf("BatchGetItem: %v", err)
	}
	if len(out.Responses[table]) == 0 {
		return "none"
	}
	return vOf(out.Responses[table][0])
}

func scanV(t *testing.T, c local.API, table, pk string, consistent bool) string {
	t.Helper()
	out, err := c.Scan(bg(), &dynamodb.ScanInput{TableName: aws.String(table), ConsistentRead: aws.Bool(consistent),
		FilterExpression: aws.String("pk = :p"), ExpressionAttributeValues: item{":p": S(pk)}})
	if err != nil {
		t.Fatalf("Scan: %v", err)
	}
	return onlyV(shown(out.Items))
}

// TestStaleReads: with a stale-read window, an eventually consistent
// GetItem, BatchGetItem, Query or Scan right after a write may show the
// item's previous version (no item, for a new one; the item, for a
// deleted one), and shows the write once the clock passes the window;
// ConsistentRead and TransactGetItems always show it (AWS's read
// consistency, cited at the top of this file; TransactGetItems "provides
// a consistent view of the data": developer guide, "Amazon DynamoDB
// Transactions: How it works", TransactWriteItems API,
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis.html).
func TestStaleReads(t *testing.T) {
	const window = time.Second
	clock := newLagClock()
	s, c := startLag(t, clock, 0, window, 1)
	const table = "stale"
	createLagTable(t, c, table)
	cases := []struct {
		name         string
		before       string // v of item a before the write, "" for none
		write        func(t *testing.T, pk string)
		stale, fresh string
	}{
		{"an updated item", "1", func(t *testing.T, pk string) {
			_, err := c.UpdateItem(bg(), &dynamodb.UpdateItemInput{TableName: aws.String(table), Key: item{"pk": S(pk), "sk": S("a")},
				UpdateExpression: aws.String("SET v = :v"), ExpressionAttributeValues: item{":v": N("2")}})
			if err != nil {
				t.Fatalf("UpdateItem: %v", err)
			}
		}, "1", "2"},
		{"a new item", "", func(t *testing.T, pk string) { put(t, c, table, lagItem(pk, "a", "", "2")) }, "none", "2"},
		{"a deleted item", "1", func(t *testing.T, pk string) {
			if _, err := c.DeleteItem(bg(), &dynamodb.DeleteItemInput{TableName: aws.String(table), Key: item{"pk": S(pk), "sk": S("a")}}); err != nil {
				t.Fatalf("DeleteItem: %v", err)
			}
		}, "1", "none"},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pk := fmt.Sprint("p", i)
			if tc.before != "" {
				put(t, c, table, lagItem(pk, "a", "", tc.before))
			}
			clock.advance(time.Hour)
			tc.write(t, pk)
			for _, r := range readKinds {
				want := tc.stale
				if r.consistent {
					want = tc.fresh
				}
				if got := r.read(t, c, table, pk); got != want {
					t.Errorf("%s right after the write: %s, want %s", r.name, got, want)
				}
			}
			clock.advance(window) // past the longest delay drawn
			for _, r := range readKinds {
				if got := r.read(t, c, table, pk); got != tc.fresh {
					t.Errorf("%s once the window passed: %s, want %s", r.name, got, tc.fresh)
				}
			}
		})
	}
	if n := staleReads(s, table, ""); n == 0 {
		t.Errorf("stale reads counted on the table: 0")
	}
}

// TestConsistencySeedRepeats: the delays are drawn, not constant: the
// same calls on the same clock with the same seed see the same
// staleness, some reads stale and some not; another seed sees another.
func TestConsistencySeedRepeats(t *testing.T) {
	run := func(seed int64) string {
		clock := newLagClock()
		_, c := startLag(t, clock, time.Second, time.Second, seed)
		table := fmt.Sprint("seed", seed)
		createLagTable(t, c, table)
		const n = 16
		for i := range n {
			put(t, c, table, lagItem(fmt.Sprint("p", i), "a", fmt.Sprint("g", i), "1"))
		}
		clock.advance(time.Hour)
		var seen strings.Builder
		for i := range n {
			pk := fmt.Sprint("p", i)
			put(t, c, table, lagItem(pk, "a", fmt.Sprint("g", i), "2"))
			// Half the stale window, a quarter of the GSI's longest
			// delay: some draws are shorter, some longer.
			clock.advance(time.Second / 2)
			seen.WriteString(getV(t, c, table, pk, false))
			seen.WriteString(onlyV(queryGSI(t, c, table, fmt.Sprint("g", i))))
			seen.WriteByte(' ')
		}
		return seen.String()
	}
	first, again, other := run(7), run(7), run(8)
	if first != again {
		t.Errorf("seed 7 twice: %q, then %q", first, again)
	}
	if !strings.Contains(first, "1") || !strings.Contains(first, "2") {
		t.Errorf("seed 7 saw %q: want some reads stale (1) and some fresh (2)", first)
	}
	if first == other {
		t.Errorf("seeds 7 and 8 both saw %q", first)
	}
}

// TestConsistencyOffByDefault: a server without GSI lag or stale reads
// (and a table with neither tag) shows every write to every read at once,
// on a clock that never moves.
func TestConsistencyOffByDefault(t *testing.T) {
	clock := newLagClock()
	s := testserver.Start(t, testserver.WithNow(clock.now))
	c := client(t, s)
	const table = "plain"
	createLagTable(t, c, table)
	put(t, c, table, lagItem("p", "a", "g", "1"))
	put(t, c, table, lagItem("p", "a", "g", "2"))
	deepEqual(t, "GSI Query", queryGSI(t, c, table, "g"), []string{"a:2"})
	deepEqual(t, "GSI Scan", scanGSI(t, c, table, "g"), []string{"a:2"})
	for _, r := range readKinds {
		if got := r.read(t, c, table, "p"); got != "2" {
			t.Errorf("%s: %s, want 2", r.name, got)
		}
	}
	if m := s.DB.Meters(); m.GSILagHiddenEntries != 0 || staleReads(s, table, "") != 0 || staleReads(s, table, "byG") != 0 {
		t.Errorf("meters show staleness: hidden %d, stale reads %d and %d", m.GSILagHiddenEntries, staleReads(s, table, ""), staleReads(s, table, "byG"))
	}
}

// TestGSILagTag: a table's dynago:gsi-lag and dynago:stale-reads tags
// (dynago's own; to DynamoDB they are tags like any other) replace the
// server's settings for that table, at CreateTable or by TagResource.
func TestGSILagTag(t *testing.T) {
	cases := []struct {
		name     string
		server   time.Duration // the server's GSI lag and stale window
		tags     []types.Tag
		tagLater bool // by TagResource after CreateTable
		lags     bool
	}{
		{"no tag on a server without lag", 0, nil, false, false},
		{"a tag on a server without lag", 0, []types.Tag{lagTag(engine.TagGSILag, "10s"), lagTag(engine.TagStaleReads, "10s")}, false, true},
		{"a tag added by TagResource", 0, []types.Tag{lagTag(engine.TagGSILag, "10s"), lagTag(engine.TagStaleReads, "10s")}, true, true},
		{"no tag on a server with lag", time.Second, nil, false, true},
		{"0s on a server with lag", time.Second, []types.Tag{lagTag(engine.TagGSILag, "0s"), lagTag(engine.TagStaleReads, "0s")}, false, false},
		{"a value that is not a duration is ignored", time.Second, []types.Tag{lagTag(engine.TagGSILag, "soon"), lagTag(engine.TagStaleReads, "soon")}, false, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			clock := newLagClock()
			_, c := startLag(t, clock, tc.server, tc.server, 3)
			const table = "tagged"
			if tc.tagLater {
				createLagTable(t, c, table)
				if _, err := c.TagResource(bg(), &dynamodb.TagResourceInput{ResourceArn: aws.String(tableARN(table)), Tags: tc.tags}); err != nil {
					t.Fatalf("TagResource: %v", err)
				}
			} else {
				createLagTable(t, c, table, tc.tags...)
			}
			put(t, c, table, lagItem("p", "a", "g", "1"))
			wantGSI, wantV := []string{}, "none"
			if !tc.lags {
				wantGSI, wantV = []string{"a:1"}, "1"
			}
			deepEqual(t, "GSI Query right after the write", queryGSI(t, c, table, "g"), wantGSI)
			if got := getV(t, c, table, "p", false); got != wantV {
				t.Errorf("GetItem right after the write: %s, want %s", got, wantV)
			}
			clock.advance(time.Minute)
			deepEqual(t, "GSI Query a minute later", queryGSI(t, c, table, "g"), []string{"a:1"})
		})
	}
}

func lagTag(k, v string) types.Tag { return types.Tag{Key: aws.String(k), Value: aws.String(v)} }

// TestGSILagPages: a lagging GSI read a page at a time, forwards and
// backwards, shows the same as one read: the hidden new entry is not
// counted against Limit, and a deleted entry's key resumes the next page.
func TestGSILagPages(t *testing.T) {
	clock := newLagClock()
	_, c := startLag(t, clock, time.Second, 0, 5)
	const table = "pages"
	createLagTable(t, c, table)
	for _, sk := range []string{"a", "b", "c", "d", "e"} {
		put(t, c, table, lagItem("p", sk, "g", "1"))
	}
	clock.advance(time.Hour)
	put(t, c, table, lagItem("p", "c", "g", "2"))  // changed: shows v 1
	put(t, c, table, lagItem("p", "bb", "g", "1")) // new: hidden
	put(t, c, table, lagItem("p", "f", "g", "1"))  // new, last: hidden
	put(t, c, table, lagItem("p", "0", "g", "1"))  // new, first: hidden
	if _, err := c.DeleteItem(bg(), &dynamodb.DeleteItemInput{TableName: aws.String(table), Key: item{"pk": S("p"), "sk": S("d")}}); err != nil {
		t.Fatalf("DeleteItem: %v", err)
	}
	want := []string{"a:1", "b:1", "c:1", "d:1", "e:1"}
	for _, tc := range []struct {
		name    string
		forward bool
		limit   int32
	}{
		{"forwards, one a page", true, 1},
		{"forwards, two a page", true, 2},
		{"backwards, one a page", false, 1},
		{"backwards, three a page", false, 3},
		{"backwards, all", false, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			var start item
			for page := 0; ; page++ {
				in := &dynamodb.QueryInput{
					TableName: aws.String(table), IndexName: aws.String("byG"),
					KeyConditionExpression:    aws.String("g = :g"),
					ExpressionAttributeValues: item{":g": S("g")},
					ScanIndexForward:          aws.Bool(tc.forward),
					ExclusiveStartKey:         start,
				}
				if tc.limit > 0 {
					in.Limit = aws.Int32(tc.limit)
				}
				out, err := c.Query(bg(), in)
				if err != nil {
					t.Fatalf("Query: %v", err)
				}
				if tc.limit > 0 && len(out.Items) > int(tc.limit) {
					t.Fatalf("page %d: %d items, over the Limit %d", page, len(out.Items), tc.limit)
				}
				for _, it := range out.Items {
					got = append(got, shown([]item{it})[0])
				}
				if out.LastEvaluatedKey == nil {
					break
				}
				start = out.LastEvaluatedKey
				if page > 20 {
					t.Fatalf("no end after %d pages", page)
				}
			}
			w := slices.Clone(want)
			if !tc.forward {
				slices.Reverse(w)
			}
			deepEqual(t, "items", got, w)
		})
	}
}

// TestGSILagWithVectorIndex: on a table that also has a vector index, a
// write commits through the vector graphs' path, and its GSI entry lags
// as on any other table (the read-consistency guide cited above).
func TestGSILagWithVectorIndex(t *testing.T) {
	c := newLagClock()
	_, cl := startLag(t, c, time.Second, 0, 7)
	in := vectorTable("vlag", vix("vix", "emb", 3))
	in.AttributeDefinitions = append(in.AttributeDefinitions, defs("g", "S")...)
	in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{{
		IndexName:  aws.String("byG"),
		KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("g"), KeyType: types.KeyTypeHash}},
		Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
	}}
	if _, err := cl.CreateTable(bg(), in); err != nil {
		t.Fatalf("CreateTable: %v", err)
	}
	put(t, cl, "vlag", item{"pk": S("a"), "g": S("g1"), "emb": L(N("1"), N("2"), N("3"))})
	count := func() int32 {
		out, err := cl.Query(bg(), &dynamodb.QueryInput{
			TableName: aws.String("vlag"), IndexName: aws.String("byG"),
			KeyConditionExpression:    aws.String("g = :g"),
			ExpressionAttributeValues: item{":g": S("g1")},
		})
		if err != nil {
			t.Fatalf("Query byG: %v", err)
		}
		return out.Count
	}
	if n := count(); n != 0 {
		t.Errorf("right after the write, the GSI shows %d items, want 0 (lagging)", n)
	}
	c.advance(time.Hour)
	if n := count(); n != 1 {
		t.Errorf("an hour later, the GSI shows %d items, want 1", n)
	}
}
