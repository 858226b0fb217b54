package server

import (
	"net/http"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/engine"
)

// Metrics are the server's figures in Prometheus' text format, for
// GET /metrics (dynago serve mounts Handler there):
//
//   - per request, counted as it is answered: dynago_requests_total by
//     operation and outcome ("ok" or the error type answered), and
//     dynago_request_duration_seconds by operation; requests throttled by
//     the buffer budget in dynago_throttled_requests_total (reason
//     BufferMemoryLimit, no table), and the budget's bytes in use, read at
//     each scrape, in dynago_buffer_bytes_in_use; faults injected by the
//     fault plan in dynago_faults_injected_total by operation, table and
//     fault (no series at all without a plan);
//   - read at each scrape from the engine (engine.Meters) and the catalog:
//     units billed by table and index, items and bytes by table, indexes
//     backfilling, stream records written and read, TTL deletions,
//     transactions canceled, conflict retries, items backfilled, requests
//     throttled by enforced capacity (dynago_throttled_requests_total by
//     table, index and ThrottlingReason);
//   - the store's own figures (storage.Statter) as dynago_store_*, and Go's
//     and the process's.
//
// A request costs a map lookup, an atomic add and a histogram observation;
// everything else is read only when scraped. With namespaces, figures by
// table add up every namespace's table of that name.
type Metrics struct {
	reg      *prometheus.Registry
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
	faults   *prometheus.CounterVec
	// throttled counts the requests the buffer budget throttled.
	throttled atomic.Uint64
	// budget is the buffer budget of the server the metrics are of.
	budget atomic.Pointer[budget]

	// ops caches each operation's ok counter and histogram, so that a
	// request does not look its labels up.
	ops sync.Map // operation → *opMetrics
}

type opMetrics struct {
	ok       prometheus.Counter
	duration prometheus.Observer
}

// NewMetrics returns metrics over the databases dbs returns at each
// scrape (the server's one, or every namespace's).
func NewMetrics(dbs func() []*engine.DB) *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "dynago_requests_total",
			Help: "Requests answered, by operation and outcome (ok, or the error type answered).",
		}, []string{"operation", "outcome"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "dynago_request_duration_seconds",
			Help:    "Time from a request's arrival to its answer, by operation.",
			Buckets: []float64{.00005, .0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"operation"}),
	}
	m.faults = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "dynago_faults_injected_total",
		Help: "Faults injected on purpose by the fault plan (--fault-plan, --fault-rate, /dynago/faults), by operation, table and fault.",
	}, []string{"operation", "table", "fault"})
	inUse := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "dynago_buffer_bytes_in_use",
		Help: "Bytes of request and response buffers held now, of --max-buffer-memory.",
	}, func() float64 {
		if b := m.budget.Load(); b != nil {
			return float64(b.inUse())
		}
		return 0
	})
	m.reg.MustRegister(m.requests, m.duration, m.faults, inUse, &runtimeCollector{}, &engineCollector{dbs: dbs, buffer: &m.throttled})
	return m
}

// runtimeCollector is Go's and the process's collectors, made at the
// first scrape instead of at start-up: making the Go collector matches
// every runtime metric the Go runtime describes against its rules, which
// took 0.1 ms, a tenth of the server's start, for figures that are only
// read when scraped anyway. It describes nothing (an unchecked
// collector), as it cannot know the Go collector's series before making
// it; the registry still refuses a scrape that yields one series twice.
type runtimeCollector struct {
	once sync.Once
	cs   []prometheus.Collector
}

func (*runtimeCollector) Describe(chan<- *prometheus.Desc) {}

func (r *runtimeCollector) Collect(ch chan<- prometheus.Metric) {
	r.once.Do(func() {
		r.cs = []prometheus.Collector{
			collectors.NewGoCollector(),
			collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		}
	})
	for _, c := range r.cs {
		c.Collect(ch)
	}
}

// Handler serves the metrics in Prometheus' text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError})
}

// Registry is the registry the metrics are in, for a program that serves
// them itself or adds its own.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// observe counts one answered request. op is "" for a request that named
// no operation dynago serves; errType is "" for a success.
func (m *Metrics) observe(op, errType string, d time.Duration) {
	if m == nil {
		return
	}
	if op == "" {
		op = "unknown"
	}
	v, ok := m.ops.Load(op)
	if !ok {
		v, _ = m.ops.LoadOrStore(op, &opMetrics{
			ok:       m.requests.WithLabelValues(op, "ok"),
			duration: m.duration.WithLabelValues(op),
		})
	}
	o := v.(*opMetrics)
	o.duration.Observe(d.Seconds())
	if errType == "" {
		o.ok.Inc()
		return
	}
	m.requests.WithLabelValues(op, errType).Inc()
}

// throttle counts a request throttled by the buffer budget.
func (m *Metrics) throttle() {
	if m != nil {
		m.throttled.Add(1)
	}
}

// fault counts a fault injected by the fault plan.
func (m *Metrics) fault(op, table, kind string) {
	if m != nil {
		m.faults.WithLabelValues(op, table, kind).Inc()
	}
}

// engineCollector reads the engines' meters, catalogs and stores at each
// scrape.
type engineCollector struct {
	dbs func() []*engine.DB
	// buffer is the count of requests the buffer budget throttled,
	// shown in the family of the ones enforced capacity throttled.
	buffer *atomic.Uint64
}

var (
	descReadUnits = prometheus.NewDesc("dynago_consumed_read_units_total",
		"Read capacity units billed, by table and index (index=\"\" for the table itself).", []string{"table", "index"}, nil)
	descWriteUnits = prometheus.NewDesc("dynago_consumed_write_units_total",
		"Write capacity units billed, by table and index (index=\"\" for the table itself).", []string{"table", "index"}, nil)
	descItems = prometheus.NewDesc("dynago_table_items",
		"Items in a table, as DescribeTable's ItemCount.", []string{"table"}, nil)
	descBytes = prometheus.NewDesc("dynago_table_bytes",
		"Bytes of a table's items, as DescribeTable's TableSizeBytes.", []string{"table"}, nil)
	descBackfilling = prometheus.NewDesc("dynago_index_backfilling",
		"1 while a global secondary index is being backfilled, 0 once it is active.", []string{"table", "index"}, nil)
	descIndexItems = prometheus.NewDesc("dynago_index_items",
		"Items in a secondary index, as DescribeTable's index ItemCount.", []string{"table", "index"}, nil)
	descTables      = prometheus.NewDesc("dynago_tables", "Tables.", nil, nil)
	descReplPending = prometheus.NewDesc("dynago_replication_pending_records",
		"Change records of a global table not yet read by the replicator that ships them to the table's other replicas, by table and the region they were written in.", []string{"table", "region"}, nil)
	descReplLag = prometheus.NewDesc("dynago_replication_lag_seconds",
		"Age of the oldest change record of a global table not yet shipped to its other replicas (0 when none), by table and the region it was written in.", []string{"table", "region"}, nil)
	descStaleReads = prometheus.NewDesc("dynago_stale_reads_total",
		"Eventually consistent reads (a GetItem, a BatchGetItem key, a Query or Scan page) that showed an earlier version of an item or GSI entry under --stale-reads or --gsi-lag, by table and index (index=\"\" for the table itself).", []string{"table", "index"}, nil)
	descGSILagHidden = prometheus.NewDesc("dynago_gsi_lag_hidden_entries",
		"GSI entries whose latest change Query and Scan do not see yet (--gsi-lag).", nil, nil)
	// descThrottled counts throttled requests: by enforced capacity
	// (--enforce-capacity), by table, index ("" for the table) and
	// ThrottlingReason, and by the buffer budget, reason
	// BufferMemoryLimit with no table.
	descThrottled = prometheus.NewDesc("dynago_throttled_requests_total",
		"Requests throttled: by enforced capacity, by table, index and ThrottlingReason; by the server's full buffers, reason BufferMemoryLimit.",
		[]string{"table", "index", "reason"}, nil)

	engineCounters = []struct {
		desc *prometheus.Desc
		get  func(engine.Meters) uint64
	}{
		{prometheus.NewDesc("dynago_stream_records_written_total", "Stream records written.", nil, nil),
			func(m engine.Meters) uint64 { return m.StreamRecordsWritten }},
		{prometheus.NewDesc("dynago_stream_records_read_total", "Stream records returned by GetRecords.", nil, nil),
			func(m engine.Meters) uint64 { return m.StreamRecordsRead }},
		{prometheus.NewDesc("dynago_ttl_deleted_items_total", "Items deleted because their Time to Live passed.", nil, nil),
			func(m engine.Meters) uint64 { return m.TTLDeleted }},
		{prometheus.NewDesc("dynago_transactions_canceled_total", "Transactions answered TransactionCanceledException.", nil, nil),
			func(m engine.Meters) uint64 { return m.TransactionsCanceled }},
		{prometheus.NewDesc("dynago_conflict_retries_total", "Writes run again because another node changed what they read (shared stores).", nil, nil),
			func(m engine.Meters) uint64 { return m.ConflictRetries }},
		{prometheus.NewDesc("dynago_backfilled_items_total", "Items visited by index backfills.", nil, nil),
			func(m engine.Meters) uint64 { return m.BackfillItems }},
	}
)

// Describe sends nothing: the collector is unchecked, as the store's
// figures are known only once it is open.
func (c *engineCollector) Describe(chan<- *prometheus.Desc) {}

func (c *engineCollector) Collect(ch chan<- prometheus.Metric) {
	type key struct{ table, index string }
	units := map[key]engine.UnitCounts{}
	items := map[string]float64{}
	bytes := map[string]float64{}
	indexItems := map[key]float64{}
	backfilling := map[key]float64{}
	counters := make([]uint64, len(engineCounters))
	stores := map[string]struct {
		help    string
		counter bool
		value   float64
	}{}
	tables := 0
	hidden := 0
	throttled := map[engine.ThrottleKey]uint64{}
	type replKey struct{ table, region string }
	replPending := map[replKey]float64{}
	replLag := map[replKey]float64{}
	for _, db := range c.dbs() {
		for _, b := range db.ReplicationBacklogs() {
			k := replKey{b.Table, b.Region}
			replPending[k] += float64(b.Pending)
			replLag[k] = max(replLag[k], b.Lag.Seconds())
		}
		m := db.Meters()
		hidden += m.GSILagHiddenEntries
		for k, n := range m.Throttled {
			throttled[k] += n
		}
		for i, ec := range engineCounters {
			counters[i] += ec.get(m)
		}
		for _, tm := range m.Tables {
			u := units[key{tm.Table, ""}]
			u.ReadUnits += tm.Units.ReadUnits
			u.WriteUnits += tm.Units.WriteUnits
			u.StaleReads += tm.Units.StaleReads
			units[key{tm.Table, ""}] = u
			for name, iu := range tm.Indexes {
				u := units[key{tm.Table, name}]
				u.ReadUnits += iu.ReadUnits
				u.WriteUnits += iu.WriteUnits
				u.StaleReads += iu.StaleReads
				units[key{tm.Table, name}] = u
			}
		}
		for _, d := range describeAll(db) {
			tables++
			items[d.TableName] += float64(d.ItemCount)
			bytes[d.TableName] += float64(d.TableSizeBytes)
			for _, g := range d.GlobalSecondaryIndexes {
				indexItems[key{d.TableName, g.IndexName}] += float64(g.ItemCount)
				if g.Backfilling != nil && *g.Backfilling {
					backfilling[key{d.TableName, g.IndexName}] = 1
				} else if _, ok := backfilling[key{d.TableName, g.IndexName}]; !ok {
					backfilling[key{d.TableName, g.IndexName}] = 0
				}
			}
			for _, l := range d.LocalSecondaryIndexes {
				indexItems[key{d.TableName, l.IndexName}] += float64(l.ItemCount)
			}
		}
		for _, st := range db.StoreStats() {
			s := stores[st.Name]
			s.help, s.counter = st.Help, st.Counter
			s.value += st.Value
			stores[st.Name] = s
		}
	}
	for k, u := range units {
		ch <- prometheus.MustNewConstMetric(descReadUnits, prometheus.CounterValue, u.ReadUnits, k.table, k.index)
		ch <- prometheus.MustNewConstMetric(descWriteUnits, prometheus.CounterValue, u.WriteUnits, k.table, k.index)
		if u.StaleReads > 0 {
			ch <- prometheus.MustNewConstMetric(descStaleReads, prometheus.CounterValue, float64(u.StaleReads), k.table, k.index)
		}
	}
	ch <- prometheus.MustNewConstMetric(descGSILagHidden, prometheus.GaugeValue, float64(hidden))
	for t, n := range items {
		ch <- prometheus.MustNewConstMetric(descItems, prometheus.GaugeValue, n, t)
		ch <- prometheus.MustNewConstMetric(descBytes, prometheus.GaugeValue, bytes[t], t)
	}
	for k, n := range indexItems {
		ch <- prometheus.MustNewConstMetric(descIndexItems, prometheus.GaugeValue, n, k.table, k.index)
	}
	for k, v := range backfilling {
		ch <- prometheus.MustNewConstMetric(descBackfilling, prometheus.GaugeValue, v, k.table, k.index)
	}
	ch <- prometheus.MustNewConstMetric(descTables, prometheus.GaugeValue, float64(tables))
	if c.buffer != nil {
		ch <- prometheus.MustNewConstMetric(descThrottled, prometheus.CounterValue, float64(c.buffer.Load()), "", "", "BufferMemoryLimit")
	}
	for k, n := range throttled {
		ch <- prometheus.MustNewConstMetric(descThrottled, prometheus.CounterValue, float64(n), k.Table, k.Index, k.Reason)
	}
	for k, n := range replPending {
		ch <- prometheus.MustNewConstMetric(descReplPending, prometheus.GaugeValue, n, k.table, k.region)
		ch <- prometheus.MustNewConstMetric(descReplLag, prometheus.GaugeValue, replLag[k], k.table, k.region)
	}
	for i, ec := range engineCounters {
		ch <- prometheus.MustNewConstMetric(ec.desc, prometheus.CounterValue, float64(counters[i]))
	}
	names := make([]string, 0, len(stores))
	for n := range stores {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		s := stores[n]
		vt := prometheus.GaugeValue
		if s.counter {
			vt = prometheus.CounterValue
		}
		desc := prometheus.NewDesc("dynago_store_"+strings.TrimSpace(n), s.help, nil, nil)
		ch <- prometheus.MustNewConstMetric(desc, vt, s.value)
	}
}

// describeAll describes every table of db; a table deleted meanwhile is
// left out.
func describeAll(db *engine.DB) []*dynamo.TableDescription {
	var out []*dynamo.TableDescription
	in := &dynamo.ListTablesInput{}
	for {
		l, err := db.ListTables(in)
		if err != nil {
			return out
		}
		for _, name := range l.TableNames {
			d, err := db.DescribeTable(&dynamo.DescribeTableInput{TableName: name})
			if err == nil {
				out = append(out, d.Table)
			}
		}
		if l.LastEvaluatedTableName == "" {
			return out
		}
		in = &dynamo.ListTablesInput{ExclusiveStartTableName: l.LastEvaluatedTableName, ExclusiveStartTableNameSet: true}
	}
}
