package replicate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/engine"
	"github.com/dynago/dynago/testserver"
)

func sv(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
func nv(v int) types.AttributeValue    { return &types.AttributeValueMemberN{Value: fmt.Sprint(v)} }

// start runs a server whose stream shards roll over every 100ms, so a
// replication crosses shard boundaries and follows the lineage.
func start(t *testing.T) *testserver.Server {
	return testserver.Start(t, testserver.WithEngineOptions(func(o *engine.Options) { o.StreamShardDuration = 100 * time.Millisecond }))
}

// sourceTable creates "src" (pk S, sk N) with the given stream view (""
// for none) and n items.
func sourceTable(t testing.TB, c *dynamodb.Client, view types.StreamViewType, n int) {
	t.Helper()
	ctx := context.Background()
	in := &dynamodb.CreateTableInput{
		TableName:   aws.String("src"),
		BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("sk"), AttributeType: types.ScalarAttributeTypeN},
		},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange},
		},
	}
	if view != "" {
		in.StreamSpecification = &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: view}
	}
	if _, err := c.CreateTable(ctx, in); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var reqs []types.WriteRequest
	for i := 0; i < n; i++ {
		reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: randomItem(rng, i)}})
		if len(reqs) == 25 || i == n-1 {
			if _, err := c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"src": reqs}}); err != nil {
				t.Fatal(err)
			}
			reqs = nil
		}
	}
}

// keyOf is the key of item number k: 40 partitions.
func keyOf(k int) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{"pk": sv(fmt.Sprintf("c%02d", k%40)), "sk": nv(k)}
}

func randomItem(rng *rand.Rand, k int) map[string]types.AttributeValue {
	it := keyOf(k)
	it["name"] = sv(fmt.Sprintf("name-%d", rng.IntN(1000)))
	it["group"] = sv(fmt.Sprintf("g%d", rng.IntN(5)))
	it["n"] = nv(rng.IntN(100))
	it["tags"] = &types.AttributeValueMemberSS{Value: []string{"a", fmt.Sprint("t", rng.IntN(3)+1)}}
	it["doc"] = &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
		"l": &types.AttributeValueMemberL{Value: []types.AttributeValue{nv(k), &types.AttributeValueMemberBOOL{Value: true}}},
		"b": &types.AttributeValueMemberB{Value: []byte{byte(k), 0xFF}},
	}}
	return it
}

// writers puts, updates and deletes random items of the first keys items
// until stop is closed, and returns how many writes they made.
func writers(t *testing.T, c *dynamodb.Client, keys, workers int) (stop func() int64) {
	_, stop = countedWriters(t, c, keys, workers)
	return stop
}

// countedWriters is writers that also returns how many writes succeeded
// so far.
func countedWriters(t *testing.T, c *dynamodb.Client, keys, workers int) (written, stop func() int64) {
	var n atomic.Int64
	done := make(chan struct{})
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 7))
			ctx := context.Background()
			for {
				select {
				case <-done:
					return
				default:
				}
				k := rng.IntN(keys)
				var err error
				switch op := rng.IntN(10); {
				case op < 4:
					_, err = c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("src"), Item: randomItem(rng, k)})
				case op < 8:
					_, err = c.UpdateItem(ctx, &dynamodb.UpdateItemInput{
						TableName: aws.String("src"), Key: keyOf(k),
						UpdateExpression:          aws.String("ADD n :one SET #g = :g REMOVE doc"),
						ExpressionAttributeNames:  map[string]string{"#g": "group"},
						ExpressionAttributeValues: map[string]types.AttributeValue{":one": nv(1), ":g": sv(fmt.Sprintf("g%d", rng.IntN(5)))},
					})
				default:
					_, err = c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("src"), Key: keyOf(k)})
				}
				if err != nil {
					t.Errorf("writer: %v", err)
					return
				}
				n.Add(1)
			}
		}()
	}
	var once sync.Once
	return n.Load, func() int64 {
		once.Do(func() { close(done) })
		wg.Wait()
		return n.Load()
	}
}

// waitWritten waits until written reports at least n writes, with a
// deadline generous enough for a loaded machine.
func waitWritten(t *testing.T, written func() int64, n int64) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); written() < n; {
		if time.Now().After(deadline) {
			t.Fatalf("%d writes in a minute, want %d", written(), n)
		}
		time.Sleep(time.Millisecond)
	}
}

func verifyClean(t *testing.T, s *testserver.Server, tr *Transform) Report {
	t.Helper()
	rep, err := Verify(context.Background(), s.Client, VerifyOptions{Source: "src", Target: "dst", Transform: tr})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Differences() != 0 || rep.Matching == 0 {
		t.Fatalf("verify: %+v", rep)
	}
	return rep
}

// TestReplicateUnderWrites copies a table while four writers put, update
// and delete random items, through shard rollovers: the first run
// catches up to about when its catch-up started, a second run from the
// checkpoint after the writers stop finishes, and the copy is exact.
func TestReplicateUnderWrites(t *testing.T) {
	s := start(t)
	sourceTable(t, s.Client, types.StreamViewTypeNewAndOldImages, 3000)
	cp := filepath.Join(t.TempDir(), "cp.json")
	opts := Options{Source: "src", Target: "dst", Segments: 4, PageSize: 100, Checkpoint: cp}

	written, stop := countedWriters(t, s.Client, 3500, 4)
	waitWritten(t, written, 50)
	p1, err := Run(context.Background(), s.Client, s.Streams, opts)
	waitWritten(t, written, written()+50) // writes after the catch-up
	writes := stop()
	if err != nil {
		t.Fatal(err)
	}
	if p1.Scanned < 2000 || p1.Copied == 0 || p1.Records == 0 || p1.Marked == 0 {
		t.Fatalf("first run: %+v", p1)
	}
	p2, err := Run(context.Background(), s.Client, s.Streams, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !p2.Resumed || p2.Scanned != 0 || p2.Records == 0 || p2.CaughtUpAt.IsZero() {
		t.Fatalf("second run: %+v", p2)
	}
	rep := verifyClean(t, s, nil)
	t.Logf("%d writes during the replication; run 1: %d copied in %s (%.0f items/s), %d records applied in %s (%.0f records/s); run 2: %d records; verify: %d items in %s",
		writes, p1.Copied, p1.ScanTime.Round(time.Millisecond), p1.CopyRate(), p1.Records, p1.StreamTime.Round(time.Millisecond), p1.ApplyRate(),
		p2.Records, rep.Matching, rep.Elapsed.Round(time.Millisecond))

	// The target was created like the source.
	d, err := s.Client.DescribeTable(context.Background(), &dynamodb.DescribeTableInput{TableName: aws.String("dst")})
	if err != nil {
		t.Fatal(err)
	}
	if got := keyNames(d.Table.KeySchema); fmt.Sprint(got) != "[pk sk]" || d.Table.BillingModeSummary.BillingMode != types.BillingModePayPerRequest {
		t.Fatalf("target: keys %v, billing %+v", got, d.Table.BillingModeSummary)
	}
}

// TestReplicateFollow tails the stream while writers run; once it has
// caught up past the moment they stopped, the copy is exact.
func TestReplicateFollow(t *testing.T) {
	s := start(t)
	sourceTable(t, s.Client, types.StreamViewTypeNewImage, 1000)
	stop := writers(t, s.Client, 1200, 3)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mu sync.Mutex
	var last Progress
	var stoppedAt atomic.Pointer[time.Time]
	caughtUp := make(chan struct{})
	var once sync.Once
	opts := Options{Source: "src", Target: "dst", Follow: true, PollInterval: 20 * time.Millisecond, Progress: func(p Progress) {
		mu.Lock()
		last = p
		mu.Unlock()
		if at := stoppedAt.Load(); at != nil && p.CaughtUpAt.After(*at) {
			once.Do(func() { close(caughtUp) })
		}
	}}
	result := make(chan error, 1)
	go func() {
		_, err := Run(ctx, s.Client, s.Streams, opts)
		result <- err
	}()
	// Let the replication scan and follow for a while under writes.
	deadline := time.Now().Add(time.Minute)
	for {
		mu.Lock()
		p := last
		mu.Unlock()
		if p.Phase == PhaseFollow && p.Records > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no follow progress: %+v", p)
		}
		time.Sleep(10 * time.Millisecond)
	}
	stop()
	now := time.Now()
	stoppedAt.Store(&now)
	select {
	case <-caughtUp:
	case err := <-result:
		t.Fatalf("follow ended: %v", err)
	case <-time.After(time.Minute):
		t.Fatal("follow did not catch up")
	}
	cancel()
	if err := <-result; err != nil {
		t.Fatalf("follow: %v", err)
	}
	verifyClean(t, s, nil)
}

func mustAssign(t *testing.T, s string) *Assignment {
	t.Helper()
	a, err := ParseAssignment(s)
	if err != nil {
		t.Fatal(err)
	}
	return &a
}

// TestReplicateTransform derives an attribute on the way.
func TestReplicateTransform(t *testing.T) {
	s := start(t)
	sourceTable(t, s.Client, types.StreamViewTypeNewAndOldImages, 200)
	tr := &Transform{Set: []Assignment{*mustAssign(t, "label={pk}/{name}")}}
	stop := writers(t, s.Client, 250, 2)
	opts := Options{Source: "src", Target: "dst", Transform: tr, Checkpoint: filepath.Join(t.TempDir(), "cp.json")}
	_, err := Run(context.Background(), s.Client, s.Streams, opts)
	stop()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), s.Client, s.Streams, opts); err != nil {
		t.Fatal(err)
	}
	// A new replication (no checkpoint) into the filled target is refused:
	// it would not know which items to delete.
	_, err = Run(context.Background(), s.Client, s.Streams, Options{Source: "src", Target: "dst", Transform: tr})
	if err == nil || !strings.Contains(err.Error(), "already holds items") {
		t.Fatalf("into a filled target: %v", err)
	}
	verifyClean(t, s, tr)
	out, err := s.Client.Scan(context.Background(), &dynamodb.ScanInput{TableName: aws.String("dst"), Limit: aws.Int32(20)})
	if err != nil {
		t.Fatal(err)
	}
	labels := 0
	for _, it := range out.Items {
		name, ok := it["name"].(*types.AttributeValueMemberS)
		if !ok { // created by an update: no name, so no label
			if it["label"] != nil {
				t.Fatalf("label without a name: %v", it)
			}
			continue
		}
		want := it["pk"].(*types.AttributeValueMemberS).Value + "/" + name.Value
		if got, ok := it["label"].(*types.AttributeValueMemberS); !ok || got.Value != want {
			t.Fatalf("label of %v: %v, want %s", it["sk"], it["label"], want)
		}
		labels++
	}
	if labels == 0 {
		t.Fatal("no labels")
	}
	// Verifying without the transform sees every item differ in label.
	rep, err := Verify(context.Background(), s.Client, VerifyOptions{Source: "src", Target: "dst", Examples: 3})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Differing < int64(labels) || len(rep.Examples) != 3 || fmt.Sprint(rep.Examples[0].Attributes) != "[label]" {
		t.Fatalf("verify without the transform: %+v", rep)
	}
}

// TestReplicateNewKeyDesign moves items to a new key design whose
// partition key comes from an attribute the writers keep changing: a
// change moves the item to another target key, and the old one must go.
func TestReplicateNewKeyDesign(t *testing.T) {
	s := start(t)
	sourceTable(t, s.Client, types.StreamViewTypeNewAndOldImages, 1000)
	tr := &Transform{Hash: mustAssign(t, "gpk={group}"), Range: mustAssign(t, "gsk={pk}#{sk}")}
	cp := filepath.Join(t.TempDir(), "cp.json")
	opts := Options{Source: "src", Target: "dst", Transform: tr, Checkpoint: cp, Segments: 3}
	stop := writers(t, s.Client, 1200, 3)
	_, err := Run(context.Background(), s.Client, s.Streams, opts)
	stop()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), s.Client, s.Streams, opts); err != nil {
		t.Fatal(err)
	}
	verifyClean(t, s, tr)
	d, err := s.Client.DescribeTable(context.Background(), &dynamodb.DescribeTableInput{TableName: aws.String("dst")})
	if err != nil {
		t.Fatal(err)
	}
	if got := keyNames(d.Table.KeySchema); fmt.Sprint(got) != "[gpk gsk]" {
		t.Fatalf("target keys %v", got)
	}
	got, err := s.Client.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String("src"), Key: keyOf(1100)})
	if err != nil {
		t.Fatal(err)
	}
	if got.Item != nil {
		k := map[string]types.AttributeValue{"gpk": got.Item["group"], "gsk": sv(fmt.Sprintf("c%02d#1100", 1100%40))}
		moved, err := s.Client.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String("dst"), Key: k})
		if err != nil || moved.Item == nil {
			t.Fatalf("item 1100 under its new key: %v %v", moved, err)
		}
	}

	// A key design reading non-key attributes needs old images.
	s2 := start(t)
	sourceTable(t, s2.Client, types.StreamViewTypeNewImage, 1)
	_, err = Run(context.Background(), s2.Client, s2.Streams, Options{Source: "src", Target: "dst", Transform: tr})
	if err == nil || !strings.Contains(err.Error(), "NEW_AND_OLD_IMAGES") {
		t.Fatalf("NEW_IMAGE with a key from non-key attributes: %v", err)
	}
	// One reading only the source key does not.
	tr2 := &Transform{Hash: mustAssign(t, "id={pk}#{sk}")}
	if _, err := Run(context.Background(), s2.Client, s2.Streams, Options{Source: "src", Target: "dst", Transform: tr2}); err != nil {
		t.Fatal(err)
	}
	verifyClean(t, s2, tr2)
}

// TestReplicateResume interrupts a replication during its scan and again
// as its catch-up begins; each restart goes on from the checkpoint.
func TestReplicateResume(t *testing.T) {
	s := start(t)
	const n = 2000
	sourceTable(t, s.Client, types.StreamViewTypeNewAndOldImages, n)
	cp := filepath.Join(t.TempDir(), "cp.json")
	opts := Options{Source: "src", Target: "dst", Segments: 2, PageSize: 50, Checkpoint: cp}
	stop := writers(t, s.Client, n, 2)
	defer stop()

	ctx, cancel := context.WithCancel(context.Background())
	o := opts
	o.Progress = func(p Progress) {
		if p.Copied >= 500 {
			cancel()
		}
	}
	p1, err := Run(ctx, s.Client, s.Streams, o)
	if !errors.Is(err, context.Canceled) || p1.Phase != PhaseScan {
		t.Fatalf("first run: %v %+v", err, p1)
	}
	if phase := checkpointPhase(t, cp); phase != PhaseScan {
		t.Fatalf("checkpoint phase after the first run: %s", phase)
	}

	ctx, cancel = context.WithCancel(context.Background())
	o.Progress = func(p Progress) {
		if p.Phase == PhaseCatchUp {
			cancel()
		}
	}
	p2, err := Run(ctx, s.Client, s.Streams, o)
	if !errors.Is(err, context.Canceled) || !p2.Resumed || p2.Marked != 0 {
		t.Fatalf("second run: %v %+v", err, p2)
	}
	if phase := checkpointPhase(t, cp); phase != PhaseCatchUp {
		t.Fatalf("checkpoint phase after the second run: %s", phase)
	}
	// The two runs scanned the table once, but for the pages in flight
	// when the first stopped.
	if total := p1.Scanned + p2.Scanned; total < n-400 || total > n+400+2*50 {
		t.Fatalf("scanned %d + %d items of about %d", p1.Scanned, p2.Scanned, n)
	}
	stop()

	p3, err := Run(context.Background(), s.Client, s.Streams, opts)
	if err != nil {
		t.Fatal(err)
	}
	if p3.Scanned != 0 || p3.Records == 0 || p3.EarlierCopied != p1.Copied+p2.Copied {
		t.Fatalf("third run: %+v (earlier runs copied %d + %d)", p3, p1.Copied, p2.Copied)
	}
	verifyClean(t, s, nil)

	// A checkpoint of another replication is refused.
	o = opts
	o.Segments = 3
	if _, err := Run(context.Background(), s.Client, s.Streams, o); err == nil || !strings.Contains(err.Error(), "another replication") {
		t.Fatalf("foreign checkpoint: %v", err)
	}
}

func checkpointPhase(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var f checkpointFile
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	return f.Phase
}

// TestVerifyFindsDifferences tampers with a finished copy.
func TestVerifyFindsDifferences(t *testing.T) {
	s := start(t)
	sourceTable(t, s.Client, types.StreamViewTypeNewAndOldImages, 300)
	if _, err := Run(context.Background(), s.Client, s.Streams, Options{Source: "src", Target: "dst"}); err != nil {
		t.Fatal(err)
	}
	verifyClean(t, s, nil)
	ctx := context.Background()
	if _, err := s.Client.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("dst"), Key: keyOf(5)}); err != nil {
		t.Fatal(err)
	}
	extra := keyOf(100000)
	if _, err := s.Client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("dst"), Item: extra}); err != nil {
		t.Fatal(err)
	}
	_, err := s.Client.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("dst"), Key: keyOf(7),
		UpdateExpression: aws.String("SET #n = :v, surprise = :v"), ExpressionAttributeNames: map[string]string{"#n": "name"},
		ExpressionAttributeValues: map[string]types.AttributeValue{":v": sv("tampered")}})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Verify(ctx, s.Client, VerifyOptions{Source: "src", Target: "dst", Segments: 3})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Missing != 1 || rep.Extra != 1 || rep.Differing != 1 || rep.Matching != 298 || rep.Differences() != 3 || len(rep.Examples) != 3 {
		t.Fatalf("report: %+v", rep)
	}
	kinds := map[string]Difference{}
	for _, d := range rep.Examples {
		kinds[d.Kind] = d
	}
	if !equalValues(kinds[Missing].Key["sk"], nv(5)) || !equalValues(kinds[Extra].Key["sk"], nv(100000)) ||
		!equalValues(kinds[Differs].Key["sk"], nv(7)) || fmt.Sprint(kinds[Differs].Attributes) != "[name surprise]" {
		t.Fatalf("examples: %+v", rep.Examples)
	}
}

// TestStreamRequired: no stream is an error unless replicate may enable
// one; a stream without new images is an error.
func TestStreamRequired(t *testing.T) {
	s := start(t)
	sourceTable(t, s.Client, "", 50)
	_, err := Run(context.Background(), s.Client, s.Streams, Options{Source: "src", Target: "dst"})
	if err == nil || !strings.Contains(err.Error(), "has no stream") {
		t.Fatalf("no stream: %v", err)
	}
	if _, err := Run(context.Background(), s.Client, s.Streams, Options{Source: "src", Target: "dst", EnableStream: true}); err != nil {
		t.Fatal(err)
	}
	verifyClean(t, s, nil)

	s2 := start(t)
	sourceTable(t, s2.Client, types.StreamViewTypeKeysOnly, 1)
	_, err = Run(context.Background(), s2.Client, s2.Streams, Options{Source: "src", Target: "dst", EnableStream: true})
	if err == nil || !strings.Contains(err.Error(), "KEYS_ONLY") {
		t.Fatalf("KEYS_ONLY: %v", err)
	}
}
