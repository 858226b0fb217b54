package server

import (
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/engine"
)

// scrape fetches m's text exposition and returns the value of the sample
// whose name and labels are exactly series (e.g. `x_total{a="b"}`), or -1.
func scrape(t *testing.T, m *Metrics, series string) float64 {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	re := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(series) + ` (\S+)$`)
	g := re.FindSubmatch(body)
	if g == nil {
		return -1
	}
	v, err := strconv.ParseFloat(string(g[1]), 64)
	if err != nil {
		t.Fatalf("%s: %v", series, err)
	}
	return v
}

func TestMetricsCountRequestsAndEngineFigures(t *testing.T) {
	db, err := engine.Open(engine.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	m := NewMetrics(func() []*engine.DB { return []*engine.DB{db} })

	m.observe("GetItem", "", time.Millisecond)
	m.observe("GetItem", "", 2*time.Millisecond)
	m.observe("GetItem", "ResourceNotFoundException", time.Millisecond)
	m.throttle()
	if v := scrape(t, m, `dynago_requests_total{operation="GetItem",outcome="ok"}`); v != 2 {
		t.Errorf("ok GetItems = %v, want 2", v)
	}
	if v := scrape(t, m, `dynago_requests_total{operation="GetItem",outcome="ResourceNotFoundException"}`); v != 1 {
		t.Errorf("failed GetItems = %v, want 1", v)
	}
	if v := scrape(t, m, `dynago_request_duration_seconds_count{operation="GetItem"}`); v != 3 {
		t.Errorf("GetItem latencies observed = %v, want 3", v)
	}
	if v := scrape(t, m, `dynago_throttled_requests_total{index="",reason="BufferMemoryLimit",table=""}`); v != 1 {
		t.Errorf("throttled = %v, want 1", v)
	}

	if _, err := db.CreateTable(&dynamo.CreateTableInput{
		TableName:            "metered",
		BillingMode:          dynamo.BillingModePayPerRequest,
		AttributeDefinitions: []dynamo.AttributeDefinition{{AttributeName: "pk", AttributeType: "S"}},
		KeySchema:            []dynamo.KeySchemaElement{{AttributeName: "pk", KeyType: dynamo.KeyTypeHash}},
	}); err != nil {
		t.Fatal(err)
	}
	item := attr.Item{"pk": attr.S("a"), "v": attr.S(strings.Repeat("x", 1500))} // 2 write units
	if _, err := db.PutItem(&dynamo.PutItemInput{TableName: "metered", Item: item}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.GetItem(&dynamo.GetItemInput{TableName: "metered", Key: attr.Item{"pk": attr.S("a")}}); err != nil {
		t.Fatal(err)
	}
	if v := scrape(t, m, `dynago_consumed_write_units_total{index="",table="metered"}`); v != 2 {
		t.Errorf("write units = %v, want 2", v)
	}
	if v := scrape(t, m, `dynago_consumed_read_units_total{index="",table="metered"}`); v != 0.5 {
		t.Errorf("read units = %v, want 0.5", v)
	}
	if v := scrape(t, m, `dynago_table_items{table="metered"}`); v != 1 {
		t.Errorf("items = %v, want 1", v)
	}
	if v := scrape(t, m, `dynago_tables`); v != 1 {
		t.Errorf("tables = %v, want 1", v)
	}
	if v := scrape(t, m, `dynago_store_pebble_memtable_bytes`); v <= 0 {
		t.Errorf("store memtable bytes = %v, want > 0", v)
	}
	// Go's and the process's collectors, made at the first scrape.
	if v := scrape(t, m, `go_goroutines`); v <= 0 {
		t.Errorf("go_goroutines = %v, want > 0", v)
	}
	if runtime.GOOS == "linux" {
		if v := scrape(t, m, `process_start_time_seconds`); v < float64(time.Now().Add(-24*time.Hour).Unix()) {
			t.Errorf("process_start_time_seconds = %v, want this process's start", v)
		}
	}
}

// dynago_index_backfilling follows the phase DescribeTable reports: under
// a TransientDelay a new GSI is 0 while its resources are allocated, 1 in
// its backfill phase (the second delay, though the backfill of one item
// ended at once), then 0 (engine/transient.go).
func TestMetricsIndexBackfillingFollowsPhase(t *testing.T) {
	var now atomic.Int64
	now.Store(time.Date(2026, 10, 8, 7, 8, 9, 0, time.UTC).UnixNano())
	db, err := engine.Open(engine.Options{InMemory: true, TransientDelay: time.Minute, Now: func() time.Time { return time.Unix(0, now.Load()) }})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	m := NewMetrics(func() []*engine.DB { return []*engine.DB{db} })
	if _, err := db.CreateTable(&dynamo.CreateTableInput{
		TableName:            "bfm",
		BillingMode:          dynamo.BillingModePayPerRequest,
		AttributeDefinitions: []dynamo.AttributeDefinition{{AttributeName: "pk", AttributeType: "S"}},
		KeySchema:            []dynamo.KeySchemaElement{{AttributeName: "pk", KeyType: dynamo.KeyTypeHash}},
	}); err != nil {
		t.Fatal(err)
	}
	now.Add(int64(time.Minute))
	if _, err := db.PutItem(&dynamo.PutItemInput{TableName: "bfm", Item: attr.Item{"pk": attr.S("a"), "g": attr.S("x")}}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.UpdateTable(&dynamo.UpdateTableInput{TableName: "bfm",
		AttributeDefinitions: []dynamo.AttributeDefinition{{AttributeName: "g", AttributeType: "S"}},
		GlobalSecondaryIndexUpdates: []dynamo.GlobalSecondaryIndexUpdate{{Create: &dynamo.GlobalSecondaryIndex{IndexName: "byg",
			KeySchema:  []dynamo.KeySchemaElement{{AttributeName: "g", KeyType: dynamo.KeyTypeHash}},
			Projection: dynamo.Projection{ProjectionType: dynamo.ProjectionKeysOnly}}}}}); err != nil {
		t.Fatal(err)
	}
	const series = `dynago_index_backfilling{index="byg",table="bfm"}`
	if v := scrape(t, m, series); v != 0 {
		t.Errorf("in resource allocation: %v, want 0", v)
	}
	now.Add(int64(time.Minute))
	if v := scrape(t, m, series); v != 1 {
		t.Errorf("in the backfill phase: %v, want 1", v)
	}
	now.Add(int64(time.Minute))
	// The backfill of one item has ended by now; wait for it, generously.
	deadline := time.Now().Add(30 * time.Second)
	for scrape(t, m, series) != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("once ACTIVE: %v, want 0", scrape(t, m, series))
		}
		time.Sleep(time.Millisecond)
	}
}

// dynago_gsi_lag_hidden_entries counts the GSI entries reads do not see
// yet, and dynago_stale_reads_total the reads that showed an earlier
// version, by table and index (docs/REHEARSAL.md, docs/METRICS.md).
func TestMetricsGSILagAndStaleReads(t *testing.T) {
	var now atomic.Int64
	now.Store(time.Date(2026, 12, 7, 7, 8, 9, 0, time.UTC).UnixNano())
	db, err := engine.Open(engine.Options{InMemory: true, GSILag: time.Second, StaleReads: time.Second, ConsistencySeed: 1,
		Now: func() time.Time { return time.Unix(0, now.Load()) }})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	m := NewMetrics(func() []*engine.DB { return []*engine.DB{db} })
	if _, err := db.CreateTable(&dynamo.CreateTableInput{
		TableName:   "lagm",
		BillingMode: dynamo.BillingModePayPerRequest,
		AttributeDefinitions: []dynamo.AttributeDefinition{{AttributeName: "pk", AttributeType: "S"},
			{AttributeName: "g", AttributeType: "S"}},
		KeySchema: []dynamo.KeySchemaElement{{AttributeName: "pk", KeyType: dynamo.KeyTypeHash}},
		GlobalSecondaryIndexes: []dynamo.GlobalSecondaryIndex{{IndexName: "byg",
			KeySchema:  []dynamo.KeySchemaElement{{AttributeName: "g", KeyType: dynamo.KeyTypeHash}},
			Projection: dynamo.Projection{ProjectionType: dynamo.ProjectionKeysOnly}}},
	}); err != nil {
		t.Fatal(err)
	}
	if v := scrape(t, m, `dynago_gsi_lag_hidden_entries`); v != 0 {
		t.Errorf("hidden entries before any write: %v, want 0", v)
	}
	for _, pk := range []string{"a", "b"} {
		if _, err := db.PutItem(&dynamo.PutItemInput{TableName: "lagm", Item: attr.Item{"pk": attr.S(pk), "g": attr.S("x")}}); err != nil {
			t.Fatal(err)
		}
	}
	if v := scrape(t, m, `dynago_gsi_lag_hidden_entries`); v != 2 {
		t.Errorf("hidden entries after two writes: %v, want 2", v)
	}
	if _, err := db.GetItem(&dynamo.GetItemInput{TableName: "lagm", Key: attr.Item{"pk": attr.S("a")}}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Query(&dynamo.QueryInput{TableName: "lagm", IndexName: "byg", KeyConditionExpression: "g = :g",
		ExpressionAttributeValues: attr.Item{":g": attr.S("x")}}); err != nil {
		t.Fatal(err)
	}
	if v := scrape(t, m, `dynago_stale_reads_total{index="",table="lagm"}`); v != 1 {
		t.Errorf("stale reads of the table: %v, want 1", v)
	}
	if v := scrape(t, m, `dynago_stale_reads_total{index="byg",table="lagm"}`); v != 1 {
		t.Errorf("stale reads of the GSI: %v, want 1", v)
	}
	now.Add(int64(2 * time.Second))
	if v := scrape(t, m, `dynago_gsi_lag_hidden_entries`); v != 0 {
		t.Errorf("hidden entries once the lag passed: %v, want 0", v)
	}
}

// BenchmarkMetricsObserve is the cost metrics add to each request.
func BenchmarkMetricsObserve(b *testing.B) {
	m := NewMetrics(func() []*engine.DB { return nil })
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		m.observe("GetItem", "", 100*time.Microsecond)
	}
}

// BenchmarkServeObserved measures GetItem and PutItem as
// BenchmarkServeGetItem and BenchmarkServePutItem do, with metrics on, and
// with metrics and the debug request log (written to nowhere) on: the
// cost of observing requests.
func BenchmarkServeObserved(b *testing.B) {
	metricsOn := func(db *engine.DB) Config {
		return Config{Metrics: NewMetrics(func() []*engine.DB { return []*engine.DB{db} })}
	}
	debugOn := func(db *engine.DB) Config {
		c := metricsOn(db)
		c.Logger = slog.New(slog.NewJSONHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelDebug}))
		return c
	}
	for _, v := range []struct {
		name string
		cfg  func(*engine.DB) Config
	}{{"off", func(*engine.DB) Config { return Config{} }}, {"metrics", metricsOn}, {"metrics+debuglog", debugOn}} {
		b.Run("GetItem/"+v.name, func(b *testing.B) {
			h := benchServerWith(b, v.cfg)
			bodies := make([][]byte, 1000)
			for i := range bodies {
				bodies[i] = []byte(fmt.Sprintf(`{"TableName":"bench","Key":{"pk":{"S":"key-%d"}}}`, i))
			}
			serveBench(b, h, "GetItem", bodies)
		})
		b.Run("PutItem/"+v.name, func(b *testing.B) {
			h := benchServerWith(b, v.cfg)
			bodies := make([][]byte, 1000)
			for i := range bodies {
				bodies[i] = []byte(putBody(i))
			}
			serveBench(b, h, "PutItem", bodies)
		})
	}
}

// Requests throttled by enforced capacity are counted by table, index and
// ThrottlingReason, in the family of those the buffer budget throttles.
func TestMetricsCountEnforcedThrottles(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	db, err := engine.Open(engine.Options{InMemory: true, EnforceCapacity: true, CapacityNow: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	m := NewMetrics(func() []*engine.DB { return []*engine.DB{db} })
	if _, err := db.CreateTable(&dynamo.CreateTableInput{
		TableName:             "slow",
		AttributeDefinitions:  []dynamo.AttributeDefinition{{AttributeName: "pk", AttributeType: "S"}},
		KeySchema:             []dynamo.KeySchemaElement{{AttributeName: "pk", KeyType: dynamo.KeyTypeHash}},
		ProvisionedThroughput: &dynamo.ProvisionedThroughput{ReadCapacityUnits: 1, WriteCapacityUnits: 1},
	}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		_, _ = db.PutItem(&dynamo.PutItemInput{TableName: "slow", Item: attr.Item{"pk": attr.S("a")}})
	}
	if v := scrape(t, m, `dynago_throttled_requests_total{index="",reason="TableWriteProvisionedThroughputExceeded",table="slow"}`); v != 2 {
		t.Errorf("throttled writes = %v, want 2", v)
	}
	if v := scrape(t, m, `dynago_throttled_requests_total{index="",reason="BufferMemoryLimit",table=""}`); v != 0 {
		t.Errorf("buffer throttles = %v, want 0", v)
	}
}
