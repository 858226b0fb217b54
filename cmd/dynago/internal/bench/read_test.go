package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/testserver"
)

// readConfig is a small query and scan run against endpoint: 2000 items of
// 200 B in 20 partitions of 100, pages of 20.
func readConfig(endpoint, mode, table string) Config {
	return Config{
		Endpoints:  []string{endpoint},
		Mode:       mode,
		Clients:    4,
		Ops:        300,
		ItemSize:   200,
		Keys:       2000,
		Partitions: 20,
		PageSize:   20,
		Workloads:  []string{WorkloadQuery, WorkloadScan},
		Table:      table,
	}
}

// checkReads checks the results of a query then a scan workload: every
// query returns a full page, a scan page at most one.
func checkReads(t *testing.T, mode string, rep *Report, pageSize int) {
	t.Helper()
	if len(rep.Results) != 2 || rep.Interrupted {
		t.Fatalf("%s: want 2 complete results, got %+v", mode, rep)
	}
	for _, res := range rep.Results {
		checkStats(t, mode+" "+res.Workload, res.Stats)
		if res.Items == 0 || res.ItemsPerSec <= 0 {
			t.Errorf("%s %s: no items: %+v", mode, res.Workload, res.Stats)
		}
		if res.Items > uint64(pageSize)*res.Ops {
			t.Errorf("%s %s: %d items in %d calls of at most %d", mode, res.Workload, res.Items, res.Ops, pageSize)
		}
		var line bytes.Buffer
		res.WriteLine(&line)
		if !strings.Contains(line.String(), " items/s ") {
			t.Errorf("%s: line lacks items/s: %s", mode, line.String())
		}
		t.Logf("%s", strings.TrimSpace(line.String()))
	}
	if q := rep.Results[0]; q.Workload != WorkloadQuery || q.Items != uint64(pageSize)*q.Ops {
		t.Errorf("%s: query: %d items in %d calls, want %d a call", mode, q.Items, q.Ops, pageSize)
	}
}

// TestReadWorkloads runs query and scan against a real dynago server in
// both modes, checks the figures, that the sdk run (kept) left the sorted
// table as documented, and that the raw run deleted its table.
func TestReadWorkloads(t *testing.T) {
	s := testserver.Start(t)
	ctx := context.Background()
	for _, mode := range []string{ModeSDK, ModeRaw} {
		cfg := readConfig(s.URL, mode, "bench-"+mode)
		cfg.Keep = mode == ModeSDK
		rep := run(t, ctx, cfg)
		checkReads(t, mode, rep, cfg.PageSize)
		if rep.SortedTable != cfg.Table+SortedTableSuffix || rep.Partitions != 20 || rep.PageSize != 20 {
			t.Errorf("%s: info %+v", mode, rep.Info)
		}
	}

	tables, err := s.Client.ListTables(ctx, &dynamodb.ListTablesInput{})
	if err != nil {
		t.Fatal(err)
	}
	// Only the query/scan table of the kept run: no put/get table is made
	// for read workloads.
	if want := []string{"bench-sdk" + SortedTableSuffix}; !slices.Equal(tables.TableNames, want) {
		t.Errorf("tables left %v, want %v", tables.TableNames, want)
	}

	table := aws.String("bench-sdk" + SortedTableSuffix)
	count, err := s.Client.Scan(ctx, &dynamodb.ScanInput{TableName: table, Select: types.SelectCount})
	if err != nil {
		t.Fatal(err)
	}
	if count.Count != 2000 {
		t.Errorf("sorted table holds %d items, want 2000", count.Count)
	}
	codec := NewSortedCodec(200, 2000, 20)
	out, err := s.Client.Query(ctx, &dynamodb.QueryInput{
		TableName:                 table,
		KeyConditionExpression:    aws.String("pk = :p"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":p": &types.AttributeValueMemberS{Value: codec.Partition(3)}},
		ScanIndexForward:          aws.Bool(false),
		Limit:                     aws.Int32(20),
	})
	if err != nil {
		t.Fatal(err)
	}
	// Partition 3 holds items 3, 23, ..., 1983: the newest 20 come first.
	if len(out.Items) != 20 {
		t.Fatalf("query returned %d items", len(out.Items))
	}
	for j, item := range out.Items {
		if sk := item["sk"].(*types.AttributeValueMemberS).Value; sk != codec.SortKey(1983-20*j) {
			t.Errorf("item %d: sk %s, want %s", j, sk, codec.SortKey(1983-20*j))
		}
		if n := len("pk") + len("sk") + len("data") + len(item["pk"].(*types.AttributeValueMemberS).Value) +
			len(item["sk"].(*types.AttributeValueMemberS).Value) + len(item["data"].(*types.AttributeValueMemberS).Value); n != 200 {
			t.Errorf("item %d: size %d, want 200", j, n)
		}
	}
}

// scanAtStart reports whether a worker's scan is at the start of its
// segment.
func scanAtStart(w worker) bool {
	switch w := w.(type) {
	case *sdkWorker:
		return w.startKey == nil
	case *rawWorker:
		return len(w.startKey) == 0
	}
	panic("unknown worker")
}

// TestScanWalksSegments checks that the clients of a scan together read
// the whole table once per round, continuing from each LastEvaluatedKey,
// and start over at the end of their segments.
func TestScanWalksSegments(t *testing.T) {
	s := testserver.Start(t)
	ctx := context.Background()
	for _, mode := range []string{ModeSDK, ModeRaw} {
		cfg := readConfig(s.URL, mode, "walk-"+mode)
		cfg.Clients, cfg.Keys, cfg.Partitions, cfg.PageSize = 3, 1000, 50, 30
		cfg.Workloads = []string{WorkloadScan}
		r, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.ensureTable(ctx, r.tables()[0]); err != nil {
			t.Fatal(err)
		}
		if err := r.preload(ctx, true); err != nil {
			t.Fatal(err)
		}
		total := 0
		for i := range cfg.Clients {
			w := r.newWorker(i)
			for round := range 2 {
				calls, items := 0, 0
				for {
					n, err := w.do(ctx, opScan, 0, 0)
					if err != nil {
						t.Fatalf("%s: segment %d: %v", mode, i, err)
					}
					calls++
					items += n
					if n > cfg.PageSize {
						t.Fatalf("%s: page of %d items", mode, n)
					}
					if scanAtStart(w) || calls > cfg.Keys {
						break
					}
				}
				if round == 0 {
					total += items
					t.Logf("%s: segment %d: %d items in %d calls", mode, i, items, calls)
				}
			}
		}
		if total != cfg.Keys {
			t.Errorf("%s: the segments held %d items, want %d", mode, total, cfg.Keys)
		}
		r.Close()
	}
}

func TestReadCeiling(t *testing.T) {
	for _, mode := range []string{ModeSDK, ModeRaw} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			cfg := ceilingConfig(mode, WorkloadQuery, WorkloadScan)
			cfg.Duration = 0
			cfg.Ops = 400
			rep := run(t, context.Background(), cfg)
			checkReads(t, mode, rep, cfg.PageSize)
			// The canned scan page is always full, with a LastEvaluatedKey.
			if sc := rep.Results[1]; sc.Items != uint64(cfg.PageSize)*sc.Ops {
				t.Errorf("scan: %d items in %d calls", sc.Items, sc.Ops)
			}
			var hdr bytes.Buffer
			rep.Info.WriteHeader(&hdr)
			for _, want := range []string{"  table " + DefaultTable + SortedTableSuffix + "\n", "partitions 10  page size 20"} {
				if !strings.Contains(hdr.String(), want) {
					t.Errorf("header lacks %q:\n%s", want, hdr.String())
				}
			}
		})
	}
}

// TestCeilingPageSize checks the canned pages: valid JSON, the configured
// number of items of the configured size, capped at 1 MB.
func TestCeilingPageSize(t *testing.T) {
	for _, tc := range []struct{ itemSize, pageSize, want int }{
		{1024, 20, 20}, {300, 7, 7}, {100000, 50, 10},
	} {
		c, err := StartCeiling(tc.itemSize, tc.pageSize)
		if err != nil {
			t.Fatal(err)
		}
		c.Close()
		for _, op := range []string{"Query", "Scan"} {
			var page struct {
				Items            []map[string]map[string]string
				Count            int
				LastEvaluatedKey map[string]map[string]string
			}
			if err := json.Unmarshal(c.canned[op], &page); err != nil {
				t.Fatalf("%s: %v", op, err)
			}
			if len(page.Items) != tc.want || page.Count != tc.want || len(page.LastEvaluatedKey) != 2 {
				t.Errorf("%s %+v: %d items, Count %d, LastEvaluatedKey %v", op, tc, len(page.Items), page.Count, page.LastEvaluatedKey)
			}
			for _, item := range page.Items {
				size := 0
				for name, v := range item {
					size += len(name) + len(v["S"])
				}
				if size != tc.itemSize {
					t.Errorf("%s: item of %d B, want %d", op, size, tc.itemSize)
				}
			}
		}
	}
}

func TestRawReadBodies(t *testing.T) {
	codec := NewSortedCodec(300, 5000, 250)
	w := newRawWorker(nil, "", "tbl", NewItemCodec(300, 10), "tbl-sorted", codec, 20, scanPlace{segment: 2, segments: 7})
	for _, p := range []int{0, 7, 249} {
		b := w.body(opQuery, p, 0)
		var req struct {
			TableName, KeyConditionExpression string
			ExpressionAttributeValues         map[string]map[string]string
			ScanIndexForward                  *bool
			Limit                             int
		}
		if err := json.Unmarshal(b.buf, &req); err != nil {
			t.Fatalf("query body %q: %v", b.buf, err)
		}
		if req.TableName != "tbl-sorted" || req.KeyConditionExpression != "pk = :p" ||
			req.ExpressionAttributeValues[":p"]["S"] != codec.Partition(p) ||
			req.ScanIndexForward == nil || *req.ScanIndexForward || req.Limit != 20 {
			t.Errorf("query body %s: want partition %s", b.buf, codec.Partition(p))
		}
		b.Close()
	}
	if codec.Partition(7) != "p0007" || codec.SortKey(42) != "s00000042" {
		t.Errorf("keys %s %s", codec.Partition(7), codec.SortKey(42))
	}

	for _, start := range []string{"", string(codec.JSONKey(4321))} {
		w.startKey = []byte(start)
		b := w.body(opScan, 0, 0)
		var req struct {
			TableName                     string
			Limit, Segment, TotalSegments int
			ExclusiveStartKey             json.RawMessage
		}
		if err := json.Unmarshal(b.buf, &req); err != nil {
			t.Fatalf("scan body %q: %v", b.buf, err)
		}
		if req.TableName != "tbl-sorted" || req.Limit != 20 || req.Segment != 2 || req.TotalSegments != 7 ||
			string(req.ExclusiveStartKey) != start {
			t.Errorf("scan body %s", b.buf)
		}
		b.Close()
	}
}

func TestResponseScanners(t *testing.T) {
	for _, tc := range []struct {
		resp  string
		count int
		key   string // "" if none
	}{
		{`{"Items":[],"Count":0,"ScannedCount":0}`, 0, ""},
		{`{"Count":20,"Items":[{"pk":{"S":"a"}}],"LastEvaluatedKey":{"pk":{"S":"p0001"},"sk":{"S":"s1"}},"ScannedCount":20}`,
			20, `{"pk":{"S":"p0001"},"sk":{"S":"s1"}}`},
		{"{\n  \"ScannedCount\" : 9,\n  \"Count\" : 3,\n  \"LastEvaluatedKey\" : {\"pk\": {\"S\": \"}{\\\"x\"}, \"n\": {\"L\": [{\"N\":\"1\"}]}}\n}",
			3, `{"pk": {"S": "}{\"x"}, "n": {"L": [{"N":"1"}]}}`},
	} {
		n, ok := jsonCount([]byte(tc.resp))
		if !ok || n != tc.count {
			t.Errorf("%s: Count %d, %v; want %d", tc.resp, n, ok, tc.count)
		}
		key, found, err := jsonMember([]byte(tc.resp), `"LastEvaluatedKey"`)
		if err != nil || found != (tc.key != "") || string(key) != tc.key {
			t.Errorf("%s: LastEvaluatedKey %s, %v, %v; want %s", tc.resp, key, found, err, tc.key)
		}
	}
	if _, ok := jsonCount([]byte(`{"ScannedCount":3}`)); ok {
		t.Error("ScannedCount taken for Count")
	}
	if _, _, err := jsonMember([]byte(`{"LastEvaluatedKey":{"pk":`), `"LastEvaluatedKey"`); err == nil {
		t.Error("truncated key accepted")
	}
}

// TestSortedTableSchemaChecked checks that an existing table with another
// key is refused, not loaded, and not deleted.
func TestSortedTableSchemaChecked(t *testing.T) {
	s := testserver.Start(t)
	ctx := context.Background()
	_, err := s.Client.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String("odd" + SortedTableSuffix),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
	})
	if err != nil {
		t.Fatal(err)
	}
	r, err := New(readConfig(s.URL, ModeSDK, "odd"))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	_, err = r.Run(ctx)
	if err == nil || !strings.Contains(err.Error(), "RANGE sk (S)") {
		t.Fatalf("got %v, want a key schema error", err)
	}
	if _, err := s.Client.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("odd" + SortedTableSuffix)}); err != nil {
		t.Errorf("the table was deleted: %v", err)
	}
}

// TestLoadInSteps grows a kept table with LoadFrom, writing only the new
// items, then reads it with NoLoad, which writes nothing and keeps the
// table it found even without Keep.
func TestLoadInSteps(t *testing.T) {
	s := testserver.Start(t)
	ctx := context.Background()
	table := aws.String("steps" + SortedTableSuffix)
	count := func() int32 {
		t.Helper()
		out, err := s.Client.Scan(ctx, &dynamodb.ScanInput{TableName: table, Select: types.SelectCount})
		if err != nil {
			t.Fatal(err)
		}
		return out.Count
	}
	cfg := readConfig(s.URL, ModeSDK, "steps")
	cfg.Workloads, cfg.Keys, cfg.Keep = []string{WorkloadQuery}, 600, true
	checkStats(t, "first step", run(t, ctx, cfg).Results[0].Stats)
	if n := count(); n != 600 {
		t.Fatalf("first step: %d items, want 600", n)
	}

	// Item 0 deleted stays deleted: the second step writes 600 to 999.
	codec := NewSortedCodec(cfg.ItemSize, 1000, cfg.Partitions)
	if _, err := s.Client.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: table, Key: map[string]types.AttributeValue{
		"pk": &types.AttributeValueMemberS{Value: codec.Partition(0)},
		"sk": &types.AttributeValueMemberS{Value: codec.SortKey(0)},
	}}); err != nil {
		t.Fatal(err)
	}
	cfg.Keys, cfg.LoadFrom = 1000, 600
	checkStats(t, "second step", run(t, ctx, cfg).Results[0].Stats)
	if n := count(); n != 999 {
		t.Fatalf("second step: %d items, want 999", n)
	}

	cfg.LoadFrom, cfg.NoLoad, cfg.Keep = 0, true, false
	checkStats(t, "no load", run(t, ctx, cfg).Results[0].Stats)
	if n := count(); n != 999 {
		t.Fatalf("after a run without preload: %d items, want the 999 left", n)
	}

	cfg.LoadFrom = 1001
	if err := cfg.Validate(); err == nil {
		t.Error("Validate accepted LoadFrom above Keys")
	}
}
