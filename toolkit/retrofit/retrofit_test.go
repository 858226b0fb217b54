package retrofit

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/testserver"
)

const derived = "resourceId-action-accessedBy"

var auditTemplate = mustTemplate("{resourceId}-{action}-{accessedBy}")

func mustTemplate(s string) *Template {
	t, err := ParseTemplate(s)
	if err != nil {
		panic(err)
	}
	return t
}

func s(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }

// auditTable creates ResourceAccessAudit with n items; every tenth lacks
// accessedBy.
func auditTable(t *testing.T, c *dynamodb.Client, n int) {
	t.Helper()
	ctx := context.Background()
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String("ResourceAccessAudit"),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
	})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		it := map[string]types.AttributeValue{
			"id": s(fmt.Sprintf("evt-%05d", i)), "resourceId": s(fmt.Sprintf("res%d", i%7)),
			"action": s([]string{"viewed", "edited"}[i%2]), "timestamp": s(fmt.Sprintf("2024-01-%02dT10:00:00Z", 1+i%28)),
		}
		if i%10 != 3 {
			it["accessedBy"] = s(fmt.Sprintf("user%d", i%5))
		}
		if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("ResourceAccessAudit"), Item: it}); err != nil {
			t.Fatal(err)
		}
	}
}

// checkAll asserts every item's derived attribute matches its current
// sources, and is absent when a source is.
func checkAll(t *testing.T, c *dynamodb.Client) {
	t.Helper()
	p := dynamodb.NewScanPaginator(c, &dynamodb.ScanInput{TableName: aws.String("ResourceAccessAudit"), ConsistentRead: aws.Bool(true)})
	for p.HasMorePages() {
		out, err := p.NextPage(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range out.Items {
			want, ok := auditTemplate.Render(it)
			got, has := it[derived].(*types.AttributeValueMemberS)
			if ok != has || (ok && got.Value != want) {
				t.Fatalf("item %v: derived %v, want %q (sources present: %v)", it["id"], it[derived], want, ok)
			}
		}
	}
}

func TestRetrofitAndRerun(t *testing.T) {
	srv := testserver.Start(t)
	auditTable(t, srv.Client, 300)
	opts := Options{Table: "ResourceAccessAudit", Attribute: derived, Template: auditTemplate, Segments: 3, PageSize: 25}

	dry := opts
	dry.DryRun = true
	p, err := Run(context.Background(), srv.Client, dry)
	if err != nil || p.Written != 270 || p.Skipped != 30 || p.WriteUnits != 270 {
		t.Fatalf("dry run: %+v, %v", p, err)
	}
	out, _ := srv.Client.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String("ResourceAccessAudit"), Key: map[string]types.AttributeValue{"id": s("evt-00000")}})
	if _, has := out.Item[derived]; has {
		t.Fatal("the dry run wrote")
	}

	p, err = Run(context.Background(), srv.Client, opts)
	if err != nil || p.Scanned != 300 || p.Written != 270 || p.Skipped != 30 || p.Unchanged != 0 {
		t.Fatalf("run: %+v, %v", p, err)
	}
	checkAll(t, srv.Client)
	// A second run finds everything done and writes nothing.
	p, err = Run(context.Background(), srv.Client, opts)
	if err != nil || p.Written != 0 || p.Unchanged != 270 {
		t.Fatalf("rerun: %+v, %v", p, err)
	}
	// "jane edited 123ccc": the derived key answers the seed's question.
	_, err = srv.Client.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String("ResourceAccessAudit"), Item: map[string]types.AttributeValue{
		"id": s("late"), "resourceId": s("123ccc"), "action": s("edited"), "accessedBy": s("jane"),
	}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), srv.Client, opts); err != nil {
		t.Fatal(err)
	}
	got, _ := srv.Client.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String("ResourceAccessAudit"), Key: map[string]types.AttributeValue{"id": s("late")}})
	if v, _ := got.Item[derived].(*types.AttributeValueMemberS); v == nil || v.Value != "123ccc-edited-jane" {
		t.Fatalf("late item: %v", got.Item)
	}
}

// TestRetrofitUnderConcurrentWriters runs the retrofit while the new
// version of the application updates source attributes together with the
// derived one. A retrofit that wrote without its condition would put back
// values derived from what it had read, stale by then.
func TestRetrofitUnderConcurrentWriters(t *testing.T) {
	srv := testserver.Start(t)
	const n = 400
	auditTable(t, srv.Client, n)
	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var writes atomic.Int64
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 7))
			for ctx.Err() == nil {
				i := r.IntN(n)
				if i%10 == 3 {
					continue
				}
				action := fmt.Sprintf("act%d", r.IntN(1000))
				it, err := srv.Client.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("ResourceAccessAudit"), Key: map[string]types.AttributeValue{"id": s(fmt.Sprintf("evt-%05d", i))}, ConsistentRead: aws.Bool(true)})
				if err != nil || it.Item == nil {
					continue
				}
				it.Item["action"] = s(action)
				want, _ := auditTemplate.Render(it.Item)
				_, err = srv.Client.UpdateItem(ctx, &dynamodb.UpdateItemInput{
					TableName: aws.String("ResourceAccessAudit"), Key: map[string]types.AttributeValue{"id": s(fmt.Sprintf("evt-%05d", i))},
					UpdateExpression:          aws.String("SET #a = :a, #d = :d"),
					ConditionExpression:       aws.String("#r = :r AND #b = :b"),
					ExpressionAttributeNames:  map[string]string{"#a": "action", "#d": derived, "#r": "resourceId", "#b": "accessedBy"},
					ExpressionAttributeValues: map[string]types.AttributeValue{":a": s(action), ":d": s(want), ":r": it.Item["resourceId"], ":b": it.Item["accessedBy"]},
				})
				if err == nil {
					writes.Add(1)
				}
			}
		}()
	}
	p, err := Run(context.Background(), srv.Client, Options{Table: "ResourceAccessAudit", Attribute: derived, Template: auditTemplate, Segments: 4, PageSize: 10})
	stop()
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if writes.Load() == 0 {
		t.Fatal("the concurrent writers wrote nothing")
	}
	t.Logf("retrofit %+v; concurrent writes %d", p, writes.Load())
	checkAll(t, srv.Client)
}

// TestRetrofitResume interrupts a run, then resumes it from its checkpoint:
// together the two runs write each item at most once. A write in flight
// when the first run is cancelled may land without the run seeing it
// acknowledged; the resumed run then finds that item done. So the two
// runs' acknowledged writes fall short of 270 by at most one per segment.
func TestRetrofitResume(t *testing.T) {
	srv := testserver.Start(t)
	auditTable(t, srv.Client, 300)
	cp := filepath.Join(t.TempDir(), "retrofit.json")
	ctx, cancel := context.WithCancel(context.Background())
	opts := Options{Table: "ResourceAccessAudit", Attribute: derived, Template: auditTemplate, Segments: 2, PageSize: 20, Checkpoint: cp}
	first := opts
	first.Progress = func(p Progress) {
		if p.Scanned >= 100 {
			cancel()
		}
	}
	p1, err := Run(ctx, srv.Client, first)
	if err == nil || p1.Written == 0 || p1.Written >= 270 {
		t.Fatalf("interrupted run: %+v, %v", p1, err)
	}
	p2, err := Run(context.Background(), srv.Client, opts)
	if err != nil || !p2.Resumed {
		t.Fatalf("resumed run: %+v, %v", p2, err)
	}
	if w := p1.Written + p2.Written; w > 270 || w < 270-int64(opts.Segments) {
		t.Fatalf("written %d then %d: want 270 in all, less at most one in flight per segment", p1.Written, p2.Written)
	}
	if p2.Scanned >= 300 {
		t.Fatalf("the resumed run rescanned %d items", p2.Scanned)
	}
	checkAll(t, srv.Client)
	// A checkpoint of another retrofit is refused.
	other := opts
	other.Segments = 3
	if _, err := Run(context.Background(), srv.Client, other); err == nil {
		t.Fatal("a checkpoint for 2 segments resumed a run of 3")
	}
}

// TestRetrofitRateLimit checks the pace from below only: 120 writes at 400
// write units per second cannot finish in less than about 0.3 s, whatever
// the machine.
func TestRetrofitRateLimit(t *testing.T) {
	srv := testserver.Start(t)
	auditTable(t, srv.Client, 133) // 120 with every source
	start := time.Now()
	p, err := Run(context.Background(), srv.Client, Options{Table: "ResourceAccessAudit", Attribute: derived, Template: auditTemplate, Segments: 2, WriteUnitsPerSecond: 400})
	if err != nil || p.Written != 120 {
		t.Fatalf("%+v, %v", p, err)
	}
	if d := time.Since(start); d < 250*time.Millisecond {
		t.Fatalf("120 write units at 400/s took %v", d)
	}
}

func TestTemplate(t *testing.T) {
	tp := mustTemplate("{{{a}}}-{b}")
	if got := tp.Sources(); len(got) != 2 || got[0] != "a" || got[1] != "b" {
		t.Fatalf("sources %v", got)
	}
	v, ok := tp.Render(map[string]types.AttributeValue{"a": s("x"), "b": &types.AttributeValueMemberN{Value: "7"}})
	if !ok || v != "{x}-7" {
		t.Fatalf("render %q %v", v, ok)
	}
	if _, ok := tp.Render(map[string]types.AttributeValue{"a": s("x")}); ok {
		t.Fatal("rendered without b")
	}
	for _, bad := range []string{"", "plain", "{a", "a}", "{}"} {
		if _, err := ParseTemplate(bad); err == nil {
			t.Errorf("template %q accepted", bad)
		}
	}
}

// TestCreateIndexAfterRetrofit finishes seed 000's story: after the
// retrofit, a GSI on the derived attribute is created on the populated
// table, backfilled, and answers "jane edited 123ccc".
func TestCreateIndexAfterRetrofit(t *testing.T) {
	srv := testserver.Start(t)
	ctx := context.Background()
	auditTable(t, srv.Client, 60)
	_, err := srv.Client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("ResourceAccessAudit"), Item: map[string]types.AttributeValue{
		"id": s("late"), "resourceId": s("123ccc"), "action": s("edited"), "accessedBy": s("jane"), "timestamp": s("2024-03-03T11:00:00Z"),
	}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Run(ctx, srv.Client, Options{Table: "ResourceAccessAudit", Attribute: derived, Template: auditTemplate}); err != nil {
		t.Fatal(err)
	}
	var seen []types.IndexStatus
	err = CreateIndex(ctx, srv.Client, "ResourceAccessAudit", IndexSpec{
		Name: "byResourceActionUser", HashKey: derived, SortKey: "timestamp", Poll: 5 * time.Millisecond,
		OnStatus: func(g types.GlobalSecondaryIndexDescription) { seen = append(seen, g.IndexStatus) },
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) == 0 || seen[len(seen)-1] != types.IndexStatusActive {
		t.Fatalf("statuses seen: %v", seen)
	}
	out, err := srv.Client.Query(ctx, &dynamodb.QueryInput{
		TableName: aws.String("ResourceAccessAudit"), IndexName: aws.String("byResourceActionUser"),
		KeyConditionExpression:    aws.String("#d = :d"),
		ExpressionAttributeNames:  map[string]string{"#d": derived},
		ExpressionAttributeValues: map[string]types.AttributeValue{":d": s("123ccc-edited-jane")},
	})
	if err != nil || out.Count != 1 || out.Items[0]["id"].(*types.AttributeValueMemberS).Value != "late" {
		t.Fatalf("query: %v %v", out, err)
	}
	// Asking again waits for the existing index rather than failing.
	if err := CreateIndex(ctx, srv.Client, "ResourceAccessAudit", IndexSpec{Name: "byResourceActionUser", HashKey: derived, SortKey: "timestamp"}); err != nil {
		t.Fatal(err)
	}
}
