package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/testserver"
)

// checkItemLine checks that a workload counting items prints its items/s.
func checkItemLine(t *testing.T, mode string, res Result) {
	t.Helper()
	var line bytes.Buffer
	res.WriteLine(&line)
	if !strings.Contains(line.String(), " items/s ") {
		t.Errorf("%s: line lacks items/s: %s", mode, line.String())
	}
	t.Logf("%s", strings.TrimSpace(line.String()))
}

// TestBatchWriteAndFScanCeiling runs batchwrite and fscan against the
// ceiling server: every batch writes BatchSize items, every filtered page
// scans a full page.
func TestBatchWriteAndFScanCeiling(t *testing.T) {
	for _, mode := range []string{ModeSDK, ModeRaw} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			cfg := ceilingConfig(mode, WorkloadBatchWrite, WorkloadFScan)
			cfg.Duration = 0
			cfg.Ops = 200
			rep := run(t, context.Background(), cfg)
			if len(rep.Results) != 2 || rep.Interrupted {
				t.Fatalf("want 2 complete results, got %+v", rep)
			}
			bw, fs := rep.Results[0], rep.Results[1]
			checkStats(t, mode+" batchwrite", bw.Stats)
			checkStats(t, mode+" fscan", fs.Stats)
			if bw.Items != BatchSize*bw.Ops || bw.ItemsPerSec <= 0 {
				t.Errorf("batchwrite: %d items in %d calls, want %d a call", bw.Items, bw.Ops, BatchSize)
			}
			if fs.Items != uint64(cfg.PageSize)*fs.Ops || fs.ItemsPerSec <= 0 {
				t.Errorf("fscan: %d items scanned in %d calls, want %d a call", fs.Items, fs.Ops, cfg.PageSize)
			}
			checkItemLine(t, mode, bw)
			checkItemLine(t, mode, fs)
		})
	}
}

// TestCeilingFilteredPage checks the canned answer of a filtered Scan:
// valid JSON, the items the filter keeps of a scanned page.
func TestCeilingFilteredPage(t *testing.T) {
	c, err := StartCeiling(300, 45)
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	var page struct {
		Items                   []map[string]map[string]string
		Count, ScannedCount     int
		LastEvaluatedKey        map[string]map[string]string
		UnprocessedItemsPresent bool
	}
	if err := json.Unmarshal(c.canned[filteredScan], &page); err != nil {
		t.Fatal(err)
	}
	// Items 0, 20 and 40 of 45 have g = "a".
	if page.ScannedCount != 45 || page.Count != 3 || len(page.Items) != 3 || len(page.LastEvaluatedKey) != 2 {
		t.Errorf("%d items, Count %d, ScannedCount %d, LastEvaluatedKey %v", len(page.Items), page.Count, page.ScannedCount, page.LastEvaluatedKey)
	}
	for _, item := range page.Items {
		size := 0
		for name, v := range item {
			size += len(name) + len(v["S"])
		}
		if item["g"]["S"] != FilterGroup || size != 300 {
			t.Errorf("item %v: %d B, want g %q and 300 B", item, size, FilterGroup)
		}
	}
}

// TestBatchWriteAndFScan runs batchwrite and fscan against a real dynago
// server in both modes, and checks what the batches wrote, that the
// sorted table's items carry the attribute the filter keeps one in Groups
// of, and that a client's filtered scan of the whole table scans every
// item once per round.
func TestBatchWriteAndFScan(t *testing.T) {
	s := testserver.Start(t)
	ctx := context.Background()
	for _, mode := range []string{ModeSDK, ModeRaw} {
		cfg := readConfig(s.URL, mode, "batch-"+mode)
		cfg.Keep = true
		cfg.Ops = 40
		cfg.Workloads = []string{WorkloadBatchWrite, WorkloadFScan}
		rep := run(t, ctx, cfg)
		if len(rep.Results) != 2 || rep.Interrupted {
			t.Fatalf("%s: want 2 complete results, got %+v", mode, rep)
		}
		bw, fs := rep.Results[0], rep.Results[1]
		checkStats(t, mode+" batchwrite", bw.Stats)
		checkStats(t, mode+" fscan", fs.Stats)
		if bw.Items != BatchSize*bw.Ops {
			t.Errorf("%s: batchwrite: %d items in %d calls, want %d a call", mode, bw.Items, bw.Ops, BatchSize)
		}
		if fs.Items == 0 || fs.Items > uint64(cfg.PageSize)*fs.Ops {
			t.Errorf("%s: fscan: %d items scanned in %d calls of at most %d", mode, fs.Items, fs.Ops, cfg.PageSize)
		}
		checkItemLine(t, mode, bw)
		checkItemLine(t, mode, fs)

		// Written items: at most 40 batches of 25 distinct keys, each of
		// the configured size.
		items := scanAll(t, s.Client, cfg.Table)
		if len(items) == 0 || len(items) > 40*BatchSize {
			t.Errorf("%s: %d items after 40 batches of %d", mode, len(items), BatchSize)
		}
		for _, item := range items {
			pk := item["pk"].(*types.AttributeValueMemberS).Value
			data := item["data"].(*types.AttributeValueMemberS).Value
			if len(item) != 2 || len("pk")+len(pk)+len("data")+len(data) != cfg.ItemSize {
				t.Errorf("%s: item %s: want pk and data, %d B", mode, pk, cfg.ItemSize)
			}
		}

		filtered, err := s.Client.Scan(ctx, &dynamodb.ScanInput{
			TableName:                 aws.String(cfg.Table + SortedTableSuffix),
			Select:                    types.SelectCount,
			FilterExpression:          aws.String(filterExpression),
			ExpressionAttributeValues: map[string]types.AttributeValue{":g": &types.AttributeValueMemberS{Value: FilterGroup}},
		})
		if err != nil {
			t.Fatal(err)
		}
		if filtered.ScannedCount != int32(cfg.Keys) || filtered.Count != int32(cfg.Keys/Groups) {
			t.Errorf("%s: the filter kept %d of %d items, want %d of %d", mode, filtered.Count, filtered.ScannedCount, cfg.Keys/Groups, cfg.Keys)
		}

		// One client owning the only segment scans the whole table.
		cfg.Clients = 1
		r, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		w := r.newWorker(0)
		for round := range 2 {
			calls, scanned := 0, 0
			for {
				n, err := w.do(ctx, opFScan, 0, 0)
				if err != nil {
					t.Fatalf("%s: %v", mode, err)
				}
				calls++
				scanned += n
				if scanAtStart(w) || calls > cfg.Keys {
					break
				}
			}
			if scanned != cfg.Keys {
				t.Errorf("%s: round %d: %d items scanned in %d calls, want %d", mode, round, scanned, calls, cfg.Keys)
			}
		}
		r.Close()
	}
}

// TestBatchKeys checks that a batch's keys are distinct and within the
// key space, for key spaces from BatchSize up.
func TestBatchKeys(t *testing.T) {
	for _, keys := range []int{BatchSize, BatchSize + 1, 49, 1000, 10007} {
		c := NewItemCodec(100, keys)
		for _, first := range []int{0, 1, keys / 2, keys - 1} {
			seen := map[int]bool{}
			for j := range BatchSize {
				k := c.BatchKey(first, j)
				if k < 0 || k >= keys || seen[k] {
					t.Fatalf("keys %d, first %d: key %d of the batch is %d, out of range or seen", keys, first, j, k)
				}
				seen[k] = true
			}
			if c.BatchKey(first, 0) != first {
				t.Errorf("keys %d: the batch from %d starts at %d", keys, first, c.BatchKey(first, 0))
			}
		}
	}
	cfg := ceilingConfig(ModeRaw, WorkloadBatchWrite)
	cfg.Keys = BatchSize - 1
	if err := cfg.Validate(); err == nil {
		t.Errorf("batchwrite accepted %d keys", cfg.Keys)
	}
}

func TestRawBatchAndFScanBodies(t *testing.T) {
	codec := NewItemCodec(300, 5000)
	w := newRawWorker(nil, "", "tbl", codec, "tbl-sorted", NewGroupedSortedCodec(300, 5000, 250), 20, scanPlace{segment: 2, segments: 7})
	for _, first := range []int{0, 4321, 4999} {
		b := w.body(opBatchWrite, first, 0)
		var req struct {
			RequestItems map[string][]struct {
				PutRequest struct{ Item map[string]map[string]string }
			}
		}
		if err := json.Unmarshal(b.buf, &req); err != nil {
			t.Fatalf("batch body %q: %v", b.buf, err)
		}
		puts := req.RequestItems["tbl"]
		if len(req.RequestItems) != 1 || len(puts) != BatchSize {
			t.Fatalf("batch body %s: want %d puts to tbl", b.buf, BatchSize)
		}
		for j, p := range puts {
			item := p.PutRequest.Item
			if item["pk"]["S"] != codec.Key(codec.BatchKey(first, j)) ||
				len("pk")+len(item["pk"]["S"])+len("data")+len(item["data"]["S"]) != 300 {
				t.Errorf("batch from %d: put %d is %v, want key %s and 300 B", first, j, item, codec.Key(codec.BatchKey(first, j)))
			}
		}
		b.Close()
	}

	for _, start := range []string{"", `{"pk":{"S":"p0001"},"sk":{"S":"s00000001"}}`} {
		w.startKey = []byte(start)
		b := w.body(opFScan, 0, 0)
		var req struct {
			TableName, FilterExpression   string
			Limit, Segment, TotalSegments int
			ExpressionAttributeValues     map[string]map[string]string
			ExclusiveStartKey             json.RawMessage
		}
		if err := json.Unmarshal(b.buf, &req); err != nil {
			t.Fatalf("fscan body %q: %v", b.buf, err)
		}
		if req.TableName != "tbl-sorted" || req.Limit != 20 || req.Segment != 2 || req.TotalSegments != 7 ||
			req.FilterExpression != filterExpression || req.ExpressionAttributeValues[":g"]["S"] != FilterGroup ||
			string(req.ExclusiveStartKey) != start {
			t.Errorf("fscan body %s", b.buf)
		}
		b.Close()
	}
}

func TestUnprocessedPuts(t *testing.T) {
	for resp, want := range map[string]int{
		`{"UnprocessedItems":{}}`: 0,
		`{"ConsumedCapacity":[],"UnprocessedItems":{"t":[{"PutRequest":{"Item":{"pk":{"S":"a"}}}},{"PutRequest":{"Item":{"pk":{"S":"b"}}}}]}}`: 2,
	} {
		if n, err := unprocessedPuts([]byte(resp)); err != nil || n != want {
			t.Errorf("%s: %d, %v; want %d", resp, n, err, want)
		}
	}
	if _, err := unprocessedPuts([]byte(`{"UnprocessedItems":{"t":[`)); err == nil {
		t.Error("truncated response accepted")
	}
}

// TestCPUPerItem checks that a workload counting items gets CPU time per
// item, and the machine none.
func TestCPUPerItem(t *testing.T) {
	m := &cpuMeter{}
	at := time.Now()
	a := cpuSample{at: at, ok: true, self: 100, busy: 100}
	b := cpuSample{at: at.Add(time.Second), ok: true, self: 150, busy: 300, cpus: 2}
	for _, u := range m.use(a, b, 100, 2500) {
		switch u.Group {
		case "client":
			// Half a second of CPU: 5000 µs a call, 200 µs an item.
			if u.MicrosPerOp != 5000 || u.MicrosPerItem != 200 {
				t.Errorf("client: %v µs/op, %v µs/item", u.MicrosPerOp, u.MicrosPerItem)
			}
		case "machine":
			if u.MicrosPerOp != 0 || u.MicrosPerItem != 0 {
				t.Errorf("machine: %+v", u)
			}
		}
	}
	if s := formatCPU(m.use(a, b, 100, 2500), -1); !strings.Contains(s, "client 0.50 cores 5000us/op 200.0us/item") {
		t.Errorf("formatted: %s", s)
	}
}
