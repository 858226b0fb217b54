package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/testserver"
)

func ceilingConfig(mode string, workloads ...string) Config {
	return Config{
		Ceiling:    true,
		Mode:       mode,
		Clients:    4,
		Duration:   300 * time.Millisecond,
		ItemSize:   DefaultItemSize,
		Keys:       1000,
		Partitions: 10,
		PageSize:   DefaultPageSize,
		Workloads:  workloads,
		Table:      DefaultTable,
	}
}

func run(t *testing.T, ctx context.Context, cfg Config) *Report {
	t.Helper()
	var errs bytes.Buffer
	cfg.Errors = &errs
	r, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rep, err := r.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if errs.Len() > 0 {
		t.Logf("errors printed:\n%s", errs.String())
	}
	return rep
}

func checkStats(t *testing.T, name string, s Stats) {
	t.Helper()
	if s.Ops == 0 || s.OpsPerSec <= 0 {
		t.Errorf("%s: no ops: %+v", name, s)
	}
	if s.Errors != 0 {
		t.Errorf("%s: %d errors", name, s.Errors)
	}
	l := s.Latency
	if !(0 < l.P50 && l.P50 <= l.P90 && l.P90 <= l.P99 && l.P99 <= l.Max) {
		t.Errorf("%s: latencies out of order: %+v", name, l)
	}
}

func TestCeiling(t *testing.T) {
	for _, mode := range []string{ModeSDK, ModeRaw} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			rep := run(t, context.Background(), ceilingConfig(mode, WorkloadPut, WorkloadGet))
			if len(rep.Results) != 2 || rep.Interrupted {
				t.Fatalf("want 2 complete results, got %+v", rep)
			}
			for _, res := range rep.Results {
				checkStats(t, mode+" "+res.Workload, res.Stats)
				if res.Seconds < 0.3 || res.Seconds > 2 {
					t.Errorf("%s: ran %.2fs, want about 0.3s", res.Workload, res.Seconds)
				}
				var line bytes.Buffer
				res.WriteLine(&line)
				t.Logf("%s", strings.TrimSpace(line.String()))
			}
		})
	}
}

func TestMixedOpsLimit(t *testing.T) {
	for _, mode := range []string{ModeSDK, ModeRaw} {
		cfg := ceilingConfig(mode, WorkloadMixed)
		cfg.Duration = 0
		cfg.Ops = 500
		rep := run(t, context.Background(), cfg)
		res := rep.Results[0]
		checkStats(t, mode+" mixed", res.Stats)
		if res.Ops != 500 {
			t.Errorf("%s: %d ops, want exactly 500", mode, res.Ops)
		}
		if len(res.ByOp) != 2 || res.ByOp[0].Ops+res.ByOp[1].Ops != 500 {
			t.Fatalf("%s: bad breakdown %+v", mode, res.ByOp)
		}
		for _, o := range res.ByOp {
			checkStats(t, mode+" mixed "+o.Op, o.Stats)
		}
	}
}

func TestCancelStopsEarlyWithResults(t *testing.T) {
	cfg := ceilingConfig(ModeRaw, WorkloadPut, WorkloadGet)
	cfg.Duration = time.Minute
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	rep := run(t, ctx, cfg)
	// A minute's run cut short: well under the minute, however busy the
	// machine.
	if time.Since(start) > 30*time.Second {
		t.Fatalf("cancel took %v to take effect", time.Since(start))
	}
	if !rep.Interrupted || len(rep.Results) != 1 || !rep.Results[0].Interrupted {
		t.Fatalf("want one interrupted result, got %+v", rep)
	}
	checkStats(t, "put", rep.Results[0].Stats)
}

// TestErrorsCounted checks that failing calls are counted and shown, not
// fatal, in both modes.
func TestErrorsCounted(t *testing.T) {
	c, err := StartCeiling(100, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var deleted atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Header.Get("X-Amz-Target") {
		case targetPrefix + "PutItem":
			w.Header().Set("Content-Type", amzJSON)
			w.WriteHeader(http.StatusInternalServerError)
			w.Write([]byte(`{"__type":"com.amazonaws.dynamodb.v20120810#InternalServerError","message":"boom"}`))
			return
		case targetPrefix + "DeleteTable":
			deleted.Add(1)
		}
		c.ServeHTTP(w, r)
	}))
	defer srv.Close()
	for _, mode := range []string{ModeSDK, ModeRaw} {
		var shown bytes.Buffer
		r, err := New(Config{
			Endpoints: []string{srv.URL}, Mode: mode, Clients: 2, Ops: 20, ItemSize: 100, Keys: 10,
			Workloads: []string{WorkloadPut}, Table: "t", Errors: &shown,
		})
		if err != nil {
			t.Fatal(err)
		}
		rep, err := r.Run(context.Background())
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		res := rep.Results[0]
		if res.Errors != 20 || res.Ops != 0 {
			t.Errorf("%s: want 20 errors and 0 ops, got %d and %d", mode, res.Errors, res.Ops)
		}
		if n := strings.Count(shown.String(), "\n"); n != maxShownErrors+1 {
			t.Errorf("%s: want %d lines of errors, got:\n%s", mode, maxShownErrors+1, shown.String())
		}
	}
	if deleted.Load() != 2 {
		t.Errorf("DeleteTable called %d times, want 2", deleted.Load())
	}
}

func TestRawBodiesAreValidRequests(t *testing.T) {
	codec := NewItemCodec(300, 123456789)
	w := newRawWorker(nil, "", "tbl", codec, "", nil, 0, scanPlace{})
	for _, o := range []op{opPut, opGet} {
		for _, key := range []int{0, 42, 123456788} {
			b := w.body(o, key, 0)
			var req struct {
				TableName string
				Item, Key map[string]map[string]string
			}
			if err := json.Unmarshal(b.buf, &req); err != nil {
				t.Fatalf("%s body %q: %v", o, b.buf, err)
			}
			attrs := req.Key
			if o == opPut {
				attrs = req.Item
				if got := len("pk") + len(attrs["pk"]["S"]) + len("data") + len(attrs["data"]["S"]); got != 300 {
					t.Errorf("item size %d, want 300", got)
				}
			}
			if req.TableName != "tbl" || attrs["pk"]["S"] != codec.Key(key) {
				t.Errorf("%s body %q: wrong table or key (want %s)", o, b.buf, codec.Key(key))
			}
			b.Close()
		}
	}
	if codec.Key(42) != "k000000042" {
		t.Errorf("Key(42) = %q", codec.Key(42))
	}
}

func TestValidate(t *testing.T) {
	good := ceilingConfig(ModeSDK, WorkloadPut)
	for name, mutate := range map[string]func(*Config){
		"mode":          func(c *Config) { c.Mode = "grpc" },
		"clients":       func(c *Config) { c.Clients = 0 },
		"limit":         func(c *Config) { c.Duration, c.Ops = 0, 0 },
		"keys":          func(c *Config) { c.Keys = 0 },
		"workload":      func(c *Config) { c.Workloads = []string{"erase"} },
		"endpoint":      func(c *Config) { c.Ceiling, c.Endpoints = false, []string{"127.0.0.1:8000"} },
		"endpoints":     func(c *Config) { c.Ceiling, c.Endpoints = false, []string{"http://127.0.0.1:8000", ""} },
		"no endpoint":   func(c *Config) { c.Ceiling, c.Endpoints = false, nil },
		"transact keys": func(c *Config) { c.Keys, c.Workloads = 1, []string{WorkloadTransact} },
		"cpu pid":       func(c *Config) { c.CPU = []CPUGroup{{Name: "server", PIDs: []int{0}}} },
		"cpu name":      func(c *Config) { c.CPU = []CPUGroup{{Name: "client", PIDs: []int{1}}} },
	} {
		c := good
		mutate(&c)
		if _, err := New(c); err == nil {
			t.Errorf("%s: invalid config accepted", name)
		}
	}
}

// TestStreamOption: --stream gives the created table a stream, and every
// put of the run leaves a record in it.
func TestStreamOption(t *testing.T) {
	s := testserver.Start(t)
	cfg := ceilingConfig(ModeSDK, WorkloadPut)
	cfg.Ceiling, cfg.Endpoints = false, []string{s.URL}
	cfg.Duration, cfg.Ops = 0, 200
	cfg.Keep = true
	cfg.Stream = "KEYS_ONLY"
	rep := run(t, context.Background(), cfg)
	checkStats(t, "put with stream", rep.Results[0].Stats)
	out, err := s.DB.DescribeTable(&dynamo.DescribeTableInput{TableName: cfg.Table})
	if err != nil {
		t.Fatal(err)
	}
	arn := out.Table.LatestStreamArn
	if arn == "" || out.Table.StreamSpecification == nil || out.Table.StreamSpecification.StreamViewType != "KEYS_ONLY" {
		t.Fatalf("table has no KEYS_ONLY stream: %+v", out.Table)
	}
	d, err := s.DB.DescribeStream(&dynamo.DescribeStreamInput{StreamArn: arn})
	if err != nil {
		t.Fatal(err)
	}
	it, err := s.DB.GetShardIterator(&dynamo.GetShardIteratorInput{StreamArn: arn, ShardId: d.StreamDescription.Shards[0].ShardId, ShardIteratorType: dynamo.IteratorTrimHorizon})
	if err != nil {
		t.Fatal(err)
	}
	recs, err := s.DB.GetRecords(&dynamo.GetRecordsInput{ShardIterator: it.ShardIterator})
	if err != nil {
		t.Fatal(err)
	}
	// Puts over an existing key with a new value are MODIFY records; a
	// put of an identical item has none, so at most 200.
	if n := len(recs.Records); n == 0 || n > 200 {
		t.Fatalf("%d records for 200 puts", n)
	}
	cfg.Stream = "ALL"
	if err := cfg.Validate(); err == nil {
		t.Fatal("Validate accepted stream ALL")
	}
}
