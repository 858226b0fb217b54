package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"net/url"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Defaults for Config's fields.
const (
	DefaultEndpoint = "http://127.0.0.1:8000"
	DefaultTable    = "dynago-bench"
	DefaultClients  = 16
	DefaultDuration = 10 * time.Second
	DefaultItemSize = 1024
	DefaultKeys     = 10000
	// DefaultPartitions and DefaultPageSize shape the query and scan
	// workloads: 100 collections of 100 items each with the default keys,
	// read 20 items a call.
	DefaultPartitions = 100
	DefaultPageSize   = 20
)

// SortedTableSuffix is appended to Config.Table to name the table of the
// query and scan workloads, which needs a range key the put/get table has
// not got.
const SortedTableSuffix = "-sorted"

// Client modes.
const (
	ModeSDK = "sdk" // aws-sdk-go-v2 clients
	ModeRaw = "raw" // plain net/http with pre-encoded bodies
)

// Workloads.
const (
	WorkloadPut   = "put"   // PutItem of random keys
	WorkloadGet   = "get"   // GetItem of random, preloaded keys
	WorkloadMixed = "mixed" // each call a coin toss between the two
	WorkloadQuery = "query" // the newest PageSize items of a random partition
	WorkloadScan  = "scan"  // the next page of each client's scan segment
	// WorkloadUpdate updates a random, preloaded item: SET v = :v ADD n :one.
	WorkloadUpdate = "update"
	// WorkloadTransact is a TransactWriteItems of two updates of distinct
	// random, preloaded items, each on condition that its item exists,
	// moving a unit of the attribute bal from one to the other.
	WorkloadTransact = "transact"
	// WorkloadDelete deletes a random, preloaded item, and puts it back
	// with the client's next call: half its calls are DeleteItem, each of
	// an item that exists (unless two clients drew the same key at once),
	// half PutItem.
	WorkloadDelete = "delete"
	// WorkloadBatchWrite is a BatchWriteItem of BatchSize PutRequests, of
	// keys spread evenly over the key space from a random one.
	WorkloadBatchWrite = "batchwrite"
	// WorkloadFScan is the scan workload with a filter on a non-key
	// attribute that keeps one item in Groups; it counts the items
	// scanned (ScannedCount), not those returned.
	WorkloadFScan = "fscan"
)

// workloadNames lists the workloads, for messages.
const workloadNames = "put, get, mixed, update, transact, delete, batchwrite, query, scan or fscan"

// isRead reports whether workload reads pages of the sorted table.
func isRead(workload string) bool {
	return workload == WorkloadQuery || workload == WorkloadScan || workload == WorkloadFScan
}

// countsItems reports whether workload counts items, which its results
// report per second and per unit of CPU: those returned (query, scan),
// scanned (fscan) or written (batchwrite).
func countsItems(workload string) bool { return isRead(workload) || workload == WorkloadBatchWrite }

// needsPreload reports whether workload needs its table filled first.
func needsPreload(workload string) bool {
	return workload != WorkloadPut && workload != WorkloadBatchWrite
}

// maxShownErrors is how many errors a run prints before keeping count only.
const maxShownErrors = 5

// Config describes a benchmark run.
type Config struct {
	// Endpoints are the URLs of the DynamoDB endpoint, or of several
	// servers of one database: client i calls endpoint i mod
	// len(Endpoints). Tables are created, preloaded and deleted through
	// the first. Ignored if Ceiling is set.
	Endpoints []string
	// Ceiling replaces the endpoint with an in-process canned server.
	Ceiling bool
	// Mode is ModeSDK or ModeRaw.
	Mode string
	// Clients is the number of concurrent clients, each a goroutine
	// issuing one call at a time.
	Clients int
	// Duration bounds each workload's time, Ops its total number of calls
	// across all clients. At least one must be positive; with both, the
	// first reached ends the workload.
	Duration time.Duration
	Ops      int64
	// ItemSize is each item's size in bytes: attribute names and values.
	ItemSize int
	// Keys is the size of the key space calls pick keys from, uniformly,
	// and the number of items of the sorted table.
	Keys int
	// Partitions is the number of collections (hash keys) the sorted table's
	// items are spread over, evenly; query picks one uniformly.
	Partitions int
	// PageSize is the Limit of each Query and Scan call, unless NoLimit.
	PageSize int
	// NoLimit sends Query and Scan calls without a Limit, as DynamoDB's
	// clients do by default, so that each page is as many items as fit in
	// DynamoDB's 1 MB; PageSize is then ignored.
	NoLimit bool
	// Workloads run in order, each one of the Workload constants.
	Workloads []string
	// Table is created if missing, and deleted at the end unless Keep; so
	// is Table+SortedTableSuffix, if a workload needs it.
	Table string
	Keep  bool
	// NoLoad skips the preload: the workloads read the tables as they
	// are, such as ones a run with Keep loaded before. A table that was
	// there already is then kept at the end, Keep or not; one the run
	// had to create is empty.
	NoLoad bool
	// LoadFrom is the first key number the preload writes: it writes
	// items LoadFrom to Keys-1, so a kept table of LoadFrom items grows
	// to Keys without writing its items again. 0 writes them all.
	LoadFrom int
	// Stream, if not empty, is the StreamViewType of the stream that
	// tables created by the run get (KEYS_ONLY, NEW_IMAGE, OLD_IMAGE or
	// NEW_AND_OLD_IMAGES), to measure what writing stream records costs.
	Stream string
	// CPU lists groups of processes, such as the servers and the
	// database, whose CPU use each workload reports, along with the
	// benchmark's own and the machine's. Linux only: it reads /proc.
	CPU []CPUGroup
	// Progress, if not nil, receives setup notes and a line a second
	// while a workload runs.
	Progress io.Writer
	// Errors, if not nil, receives the first few failed calls.
	Errors io.Writer
	// OnResult, if not nil, is called as each workload finishes.
	OnResult func(Result)
}

// Validate reports the first problem with c, in terms of its fields.
func (c *Config) Validate() error {
	switch c.Stream {
	case "", "KEYS_ONLY", "NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES":
	default:
		return fmt.Errorf("stream %q: want KEYS_ONLY, NEW_IMAGE, OLD_IMAGE or NEW_AND_OLD_IMAGES", c.Stream)
	}
	if c.Mode != ModeSDK && c.Mode != ModeRaw {
		return fmt.Errorf("mode %q: want %q or %q", c.Mode, ModeSDK, ModeRaw)
	}
	if c.Clients < 1 {
		return fmt.Errorf("clients %d: want at least 1", c.Clients)
	}
	if c.Duration <= 0 && c.Ops <= 0 {
		return errors.New("need a positive duration or op count")
	}
	if c.Duration < 0 || c.Ops < 0 {
		return errors.New("duration and op count must not be negative")
	}
	if c.ItemSize < 0 || c.ItemSize > 400*1024 {
		return fmt.Errorf("item size %d: want 0 to 409600 bytes (DynamoDB's limit)", c.ItemSize)
	}
	if c.Keys < 1 {
		return fmt.Errorf("keys %d: want at least 1", c.Keys)
	}
	if c.LoadFrom < 0 || c.LoadFrom > c.Keys {
		return fmt.Errorf("load from %d: want 0 to keys (%d)", c.LoadFrom, c.Keys)
	}
	if len(c.Workloads) == 0 {
		return errors.New("no workload")
	}
	for _, w := range c.Workloads {
		switch w {
		case WorkloadPut, WorkloadGet, WorkloadMixed, WorkloadQuery, WorkloadScan, WorkloadUpdate, WorkloadDelete:
		case WorkloadTransact:
			if c.Keys < 2 {
				return fmt.Errorf("keys %d: transact updates two distinct items, want at least 2", c.Keys)
			}
		case WorkloadBatchWrite:
			if c.Keys < BatchSize {
				return fmt.Errorf("keys %d: batchwrite writes %d distinct items a call, want at least %d", c.Keys, BatchSize, BatchSize)
			}
		case WorkloadFScan:
		default:
			return fmt.Errorf("workload %q: want %s", w, workloadNames)
		}
	}
	for _, g := range c.CPU {
		if g.Name == "" || g.Name == "client" || g.Name == "machine" {
			return fmt.Errorf("cpu group %q: want a name other than client or machine", g.Name)
		}
		if len(g.PIDs) == 0 {
			return fmt.Errorf("cpu group %s: no process", g.Name)
		}
		for _, pid := range g.PIDs {
			if pid <= 0 {
				return fmt.Errorf("cpu group %s: process ID %d: want a positive number", g.Name, pid)
			}
		}
	}
	if c.usesSorted() {
		if c.Partitions < 1 || c.Partitions > c.Keys {
			return fmt.Errorf("partitions %d: want 1 to keys (%d)", c.Partitions, c.Keys)
		}
		if c.PageSize < 1 && !c.NoLimit {
			return fmt.Errorf("page size %d: want at least 1", c.PageSize)
		}
		if c.Clients > 1000000 {
			return fmt.Errorf("clients %d: scan gives each client a segment, and DynamoDB allows at most 1000000", c.Clients)
		}
	}
	if c.Table == "" {
		return errors.New("no table name")
	}
	if !c.Ceiling {
		if len(c.Endpoints) == 0 {
			return errors.New("no endpoint")
		}
		for _, e := range c.Endpoints {
			u, err := url.Parse(e)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				return fmt.Errorf("endpoint %q: want a URL such as %s", e, DefaultEndpoint)
			}
		}
	}
	return nil
}

// limit returns the Limit of a Query or Scan call, 0 for none.
func (c *Config) limit() int {
	if c.NoLimit {
		return 0
	}
	return c.PageSize
}

// CeilingPageSize returns the number of items of the ceiling's canned
// Query and Scan pages: PageSize, or with NoLimit as many as fit in 1 MB.
func (c *Config) CeilingPageSize() int {
	if c.NoLimit {
		return ceilingPageBytes
	}
	return c.PageSize
}

// usesHash reports whether a workload uses the put/get table.
func (c *Config) usesHash() bool {
	for _, w := range c.Workloads {
		if !isRead(w) {
			return true
		}
	}
	return false
}

// usesSorted reports whether a workload uses the sorted table.
func (c *Config) usesSorted() bool {
	for _, w := range c.Workloads {
		if isRead(w) {
			return true
		}
	}
	return false
}

// Info describes the setting of a run, for the report's header. Table is
// the put/get table, used if a workload is put, get or mixed; Partitions,
// PageSize and SortedTable are set if one is query or scan.
type Info struct {
	Workloads []string `json:"workloads"`
	// Endpoint is the first endpoint, the one tables are set up through;
	// Endpoints lists them all if there are several.
	Endpoint    string   `json:"endpoint"`
	Endpoints   []string `json:"endpoints,omitempty"`
	Ceiling     bool     `json:"ceiling"`
	Mode        string   `json:"mode"`
	Clients     int      `json:"clients"`
	ItemSize    int      `json:"item_size"`
	Keys        int      `json:"keys"`
	Partitions  int      `json:"partitions,omitempty"`
	PageSize    int      `json:"page_size,omitempty"`
	NoLimit     bool     `json:"no_limit,omitempty"`
	Table       string   `json:"table"`
	SortedTable string   `json:"sorted_table,omitempty"`
	Seconds     float64  `json:"duration_seconds,omitempty"`
	Ops         int64    `json:"ops_limit,omitempty"`
	GOMAXPROCS  int      `json:"gomaxprocs"`
	NumCPU      int      `json:"num_cpu"`
	GoVersion   string   `json:"go_version"`
}

// Report is the outcome of a run.
type Report struct {
	Info
	Results []Result `json:"results"`
	// Interrupted is set if the context was cancelled before the end.
	Interrupted bool `json:"interrupted,omitempty"`
}

// Result is the outcome of one workload.
type Result struct {
	Workload string `json:"workload"`
	Clients  int    `json:"clients"`
	Stats
	// ByOp breaks a mixed workload down by operation.
	ByOp []OpResult `json:"by_op,omitempty"`
	// ByEndpoint breaks the workload down by endpoint, if there are
	// several.
	ByEndpoint []EndpointResult `json:"by_endpoint,omitempty"`
	// CPU is the CPU the configured groups of processes, the benchmark's
	// own process ("client") and the whole machine ("machine") used
	// during the workload; empty where /proc cannot be read.
	CPU []CPUUse `json:"cpu,omitempty"`
	// LoadAvg is the machine's load average over the last minute at the
	// end of the workload; negative if unknown.
	LoadAvg     float64 `json:"loadavg_1m"`
	Interrupted bool    `json:"interrupted,omitempty"`
}

// EndpointResult is the share of one endpoint in a workload: the calls of
// the clients that used it.
type EndpointResult struct {
	Endpoint string `json:"endpoint"`
	Clients  int    `json:"clients"`
	Stats
}

// OpResult is the share of one operation in a workload.
type OpResult struct {
	Op string `json:"op"`
	Stats
}

// Stats are the figures of a set of calls. Latencies are of successful
// calls only; calls cut short by the end of the run are not counted. Items
// counts the items returned by successful query and scan calls, scanned
// by fscan calls and written by batchwrite calls.
type Stats struct {
	Seconds     float64 `json:"seconds"`
	Ops         uint64  `json:"ops"`
	Errors      int64   `json:"errors"`
	OpsPerSec   float64 `json:"ops_per_sec"`
	Items       uint64  `json:"items,omitempty"`
	ItemsPerSec float64 `json:"items_per_sec,omitempty"`
	Latency     Latency `json:"latency_ms"`
}

// Latency holds latency figures in milliseconds.
type Latency struct {
	Mean float64 `json:"mean"`
	P50  float64 `json:"p50"`
	P90  float64 `json:"p90"`
	P99  float64 `json:"p99"`
	P999 float64 `json:"p999"`
	Max  float64 `json:"max"`
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }

func statsOf(h *Histogram, errs int64, elapsed time.Duration) Stats {
	s := Stats{
		Seconds: elapsed.Seconds(),
		Ops:     h.Count(),
		Errors:  errs,
		Latency: Latency{
			Mean: ms(h.Mean()),
			P50:  ms(h.Quantile(0.50)),
			P90:  ms(h.Quantile(0.90)),
			P99:  ms(h.Quantile(0.99)),
			P999: ms(h.Quantile(0.999)),
			Max:  ms(h.Max()),
		},
	}
	if elapsed > 0 {
		s.OpsPerSec = float64(h.Count()) / elapsed.Seconds()
	}
	return s
}

// Runner runs a benchmark. Make one with New and Close it when done.
type Runner struct {
	cfg         Config
	info        Info
	ceiling     *Ceiling
	endpoints   []string
	hc          *http.Client
	ddbs        []*dynamodb.Client // one per endpoint
	ddb         *dynamodb.Client   // the first, for setting up
	cpu         *cpuMeter
	codec       *ItemCodec
	sorted      *SortedCodec // nil unless a workload reads the sorted table
	sortedTable string

	errMu    sync.Mutex
	errShown int

	// phase, when set (by tests), makes the context a workload runs
	// under in place of --duration's timeout.
	phase func(ctx context.Context) (context.Context, context.CancelFunc)
}

// New checks cfg, starts the ceiling server if asked, and makes the clients.
func New(cfg Config) (*Runner, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	r := &Runner{cfg: cfg}
	cpu, err := newCPUMeter(cfg.CPU)
	if err != nil {
		return nil, err
	}
	r.cpu = cpu
	if cfg.Ceiling {
		c, err := StartCeiling(cfg.ItemSize, cfg.CeilingPageSize())
		if err != nil {
			return nil, err
		}
		r.ceiling = c
		r.endpoints = []string{c.URL}
	} else {
		for _, e := range cfg.Endpoints {
			r.endpoints = append(r.endpoints, strings.TrimRight(e, "/"))
		}
	}
	r.hc = newHTTPClient(cfg.Clients)
	for _, e := range r.endpoints {
		r.ddbs = append(r.ddbs, newSDKClient(e, r.hc))
	}
	r.ddb = r.ddbs[0]
	r.codec = NewItemCodec(cfg.ItemSize, cfg.Keys)
	if cfg.usesSorted() {
		r.sorted = NewSortedCodec(cfg.ItemSize, cfg.Keys, cfg.Partitions)
		if slices.Contains(cfg.Workloads, WorkloadFScan) {
			r.sorted = NewGroupedSortedCodec(cfg.ItemSize, cfg.Keys, cfg.Partitions)
		}
		r.sortedTable = cfg.Table + SortedTableSuffix
	}
	r.info = Info{
		Workloads:  cfg.Workloads,
		Endpoint:   r.endpoints[0],
		Ceiling:    cfg.Ceiling,
		Mode:       cfg.Mode,
		Clients:    cfg.Clients,
		ItemSize:   r.codec.Size(),
		Keys:       cfg.Keys,
		Table:      cfg.Table,
		Seconds:    cfg.Duration.Seconds(),
		Ops:        cfg.Ops,
		GOMAXPROCS: runtime.GOMAXPROCS(0),
		NumCPU:     runtime.NumCPU(),
		GoVersion:  runtime.Version(),
	}
	if len(r.endpoints) > 1 {
		r.info.Endpoints = r.endpoints
	}
	if r.sorted != nil && !cfg.usesHash() {
		r.info.ItemSize = r.sorted.Size()
	}
	if r.sorted != nil {
		r.info.Partitions = cfg.Partitions
		if cfg.NoLimit {
			r.info.NoLimit = true
		} else {
			r.info.PageSize = cfg.PageSize
		}
		r.info.SortedTable = r.sortedTable
	}
	return r, nil
}

// Info describes the run; it is known before Run.
func (r *Runner) Info() Info { return r.info }

// Close releases the connections and stops the ceiling server.
func (r *Runner) Close() {
	r.hc.CloseIdleConnections()
	if r.ceiling != nil {
		_ = r.ceiling.Close()
	}
}

// tableSpec describes one of a run's tables.
type tableSpec struct {
	name string
	// sorted is set for the table with a range key "sk" (the query/scan
	// table); the other has hash key "pk" alone.
	sorted bool
}

// tables returns the tables the run's workloads need.
func (r *Runner) tables() []tableSpec {
	var ts []tableSpec
	if r.cfg.usesHash() {
		ts = append(ts, tableSpec{name: r.cfg.Table})
	}
	if r.sorted != nil {
		ts = append(ts, tableSpec{name: r.sortedTable, sorted: true})
	}
	return ts
}

// Run sets up the tables, runs the workloads in order and tears the tables
// down. Cancelling ctx ends the current workload early; the report then
// holds what was measured so far and is marked interrupted. Failed calls
// during workloads are counted, not returned; the error is for failures
// to set up the tables.
func (r *Runner) Run(ctx context.Context) (*Report, error) {
	rep := &Report{Info: r.info}
	for _, t := range r.tables() {
		created, err := r.ensureTable(ctx, t)
		// Delete the table at the end unless asked to keep it, but never
		// one that was there already and could not be used, nor, without
		// a preload, one the run found loaded.
		if !r.cfg.Keep && (created || (err == nil && !r.cfg.NoLoad)) {
			defer r.deleteTable(ctx, t.name)
		}
		if err != nil {
			if ctx.Err() != nil {
				rep.Interrupted = true
				return rep, nil
			}
			return rep, err
		}
	}
	preloaded := map[bool]bool{} // by tableSpec.sorted
	for _, w := range r.cfg.Workloads {
		if ctx.Err() != nil {
			rep.Interrupted = true
			break
		}
		if sorted := isRead(w); needsPreload(w) && !r.cfg.NoLoad && !preloaded[sorted] {
			if err := r.preload(ctx, sorted); err != nil {
				if ctx.Err() != nil {
					rep.Interrupted = true
					break
				}
				return rep, err
			}
			preloaded[sorted] = true
		}
		res := r.runWorkload(ctx, w)
		rep.Results = append(rep.Results, res)
		if r.cfg.OnResult != nil {
			r.cfg.OnResult(res)
		}
		if res.Interrupted {
			rep.Interrupted = true
			break
		}
	}
	return rep, nil
}

func (r *Runner) progressf(format string, args ...any) {
	if r.cfg.Progress != nil {
		fmt.Fprintf(r.cfg.Progress, format, args...)
	}
}

// noteError prints the first few errors of a run.
func (r *Runner) noteError(workload string, o op, err error) {
	if r.cfg.Errors == nil {
		return
	}
	r.errMu.Lock()
	defer r.errMu.Unlock()
	r.errShown++
	switch {
	case r.errShown <= maxShownErrors:
		fmt.Fprintf(r.cfg.Errors, "bench: %s: %s failed: %v\n", workload, o, err)
	case r.errShown == maxShownErrors+1:
		fmt.Fprintf(r.cfg.Errors, "bench: further errors are counted, not shown\n")
	}
}

// ensureTable creates table t if it is missing and waits until it is
// ACTIVE. It reports whether it created the table. A table that was there
// already must have the key schema the workloads expect.
func (r *Runner) ensureTable(ctx context.Context, t tableSpec) (created bool, err error) {
	table := aws.String(t.name)
	out, err := r.ddb.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: table})
	var notFound *types.ResourceNotFoundException
	switch {
	case err == nil:
		if out.Table != nil && out.Table.TableStatus == types.TableStatusActive {
			return false, checkKeySchema(out.Table, t)
		}
	case errors.As(err, &notFound):
		in := &dynamodb.CreateTableInput{
			TableName:            table,
			BillingMode:          types.BillingModePayPerRequest,
			AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
			KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		}
		what := "hash key pk"
		if t.sorted {
			in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{AttributeName: aws.String("sk"), AttributeType: types.ScalarAttributeTypeS})
			in.KeySchema = append(in.KeySchema, types.KeySchemaElement{AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange})
			what = "hash key pk, range key sk"
		}
		if r.cfg.Stream != "" {
			in.StreamSpecification = &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewType(r.cfg.Stream)}
			what += ", stream " + r.cfg.Stream
		}
		r.progressf("bench: creating table %s (%s)\n", t.name, what)
		_, err = r.ddb.CreateTable(ctx, in)
		var inUse *types.ResourceInUseException
		if err != nil && !errors.As(err, &inUse) {
			return false, fmt.Errorf("create table %s: %w", t.name, err)
		}
		created = err == nil
	default:
		return false, fmt.Errorf("describe table %s at %s: %w", t.name, r.endpoints[0], err)
	}
	// Wait for ACTIVE, for at most two minutes.
	deadline := time.Now().Add(2 * time.Minute)
	for {
		out, err := r.ddb.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: table})
		if err == nil && out.Table != nil && out.Table.TableStatus == types.TableStatusActive {
			if created {
				return true, nil
			}
			return false, checkKeySchema(out.Table, t)
		}
		if ctx.Err() != nil {
			return created, ctx.Err()
		}
		if time.Now().After(deadline) {
			if err == nil {
				err = fmt.Errorf("status %s", out.Table.TableStatus)
			}
			return created, fmt.Errorf("table %s not ACTIVE after 2 minutes: %w", t.name, err)
		}
		select {
		case <-ctx.Done():
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// checkKeySchema reports an error unless an existing table has the key the
// benchmark writes: pk (S) alone, or pk and sk (S) for the sorted table.
func checkKeySchema(d *types.TableDescription, t tableSpec) error {
	attrTypes := map[string]types.ScalarAttributeType{}
	for _, a := range d.AttributeDefinitions {
		attrTypes[aws.ToString(a.AttributeName)] = a.AttributeType
	}
	var have []string
	for _, k := range d.KeySchema {
		name := aws.ToString(k.AttributeName)
		have = append(have, fmt.Sprintf("%s %s (%s)", k.KeyType, name, attrTypes[name]))
	}
	want := []string{"HASH pk (S)"}
	if t.sorted {
		want = append(want, "RANGE sk (S)")
	}
	if strings.Join(have, ", ") != strings.Join(want, ", ") {
		return fmt.Errorf("table %s exists with key %s; the benchmark needs %s: use another --table, or delete it",
			t.name, strings.Join(have, ", "), strings.Join(want, ", "))
	}
	return nil
}

// deleteTable deletes a table, even if ctx was cancelled.
func (r *Runner) deleteTable(ctx context.Context, name string) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	_, err := r.ddb.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(name)})
	if err != nil {
		r.progressf("bench: warning: delete table %s: %v\n", name, err)
	}
}

// preload writes the items of a table with BatchWriteItem, 25 items a
// call, spread over the clients: items LoadFrom to Keys-1 of the put/get
// table, or of the sorted table if sorted. It notes its progress once a
// second.
func (r *Runner) preload(ctx context.Context, sorted bool) error {
	start := time.Now()
	table, size := r.cfg.Table, r.codec.Size()
	item, data := r.codec.SDKItem, r.codec.SDKData()
	if sorted {
		table, size = r.sortedTable, r.sorted.Size()
		item, data = r.sorted.SDKItem, r.sorted.SDKData()
		per := r.cfg.Keys / r.cfg.Partitions
		r.progressf("bench: preloading %s: %d items of %d B in %d partitions of %d", table, r.cfg.Keys, size, r.cfg.Partitions, per)
		if r.cfg.Keys%r.cfg.Partitions != 0 {
			r.progressf(" or %d", per+1)
		}
		r.progressf("\n")
		if per < r.cfg.PageSize && !r.cfg.NoLimit {
			r.progressf("bench: note: partitions hold fewer items than the page size (%d): queries return a partition whole\n", r.cfg.PageSize)
		}
	} else {
		r.progressf("bench: preloading %s: %d items of %d B\n", table, r.cfg.Keys, size)
	}
	from, todo := r.cfg.LoadFrom, r.cfg.Keys-r.cfg.LoadFrom
	if from > 0 {
		r.progressf("bench: writing items %d to %d only (%d items)\n", from, r.cfg.Keys-1, todo)
	}
	const batch = 25
	var next, written atomic.Int64
	next.Store(int64(from))
	var firstErr error
	var errOnce sync.Once
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	for range min(r.cfg.Clients, (todo+batch-1)/batch) {
		wg.Go(func() {
			for ctx.Err() == nil {
				lo := int(next.Add(batch)) - batch
				if lo >= r.cfg.Keys {
					return
				}
				hi := min(lo+batch, r.cfg.Keys)
				reqs := make([]types.WriteRequest, 0, hi-lo)
				for k := lo; k < hi; k++ {
					reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: item(k, data)}})
				}
				if err := r.batchWrite(ctx, table, reqs); err != nil {
					errOnce.Do(func() { firstErr = err; cancel() })
					return
				}
				written.Add(int64(hi - lo))
			}
		})
	}
	stop := r.everySecond(func(elapsed time.Duration) {
		n := written.Load()
		r.progressf("bench: preload %4.0fs  %d/%d items (%.0f%%)\n",
			elapsed.Seconds(), n, todo, 100*float64(n)/float64(max(todo, 1)))
	})
	wg.Wait()
	stop()
	if firstErr != nil {
		return fmt.Errorf("preload %s: %w", table, firstErr)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	secs := time.Since(start).Seconds()
	r.progressf("bench: preloaded in %.1fs (%.0f items/s)\n", secs, float64(todo)/secs)
	return nil
}

// everySecond calls f with the time elapsed once a second, if progress is
// shown, until the returned function is called.
func (r *Runner) everySecond(f func(elapsed time.Duration)) (stop func()) {
	if r.cfg.Progress == nil {
		return func() {}
	}
	start := time.Now()
	quit := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-quit:
				return
			case now := <-t.C:
				f(now.Sub(start))
			}
		}
	}()
	return func() {
		close(quit)
		<-done
	}
}

// batchWrite writes reqs to table, resending unprocessed items a bounded
// number of times with growing pauses.
func (r *Runner) batchWrite(ctx context.Context, table string, reqs []types.WriteRequest) error {
	for attempt := 0; ; attempt++ {
		out, err := r.ddb.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{
			RequestItems: map[string][]types.WriteRequest{table: reqs},
		})
		if err != nil {
			return err
		}
		reqs = out.UnprocessedItems[table]
		if len(reqs) == 0 {
			return nil
		}
		if attempt == 10 {
			return fmt.Errorf("%d items still unprocessed after %d attempts", len(reqs), attempt+1)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(attempt+1) * 20 * time.Millisecond):
		}
	}
}

// endpointOf returns the number of the endpoint client number i calls.
func (r *Runner) endpointOf(i int) int { return i % len(r.endpoints) }

// newWorker returns the worker of client number i. A scan gives each client
// its own segment of a parallel scan with as many segments as clients.
func (r *Runner) newWorker(i int) worker {
	place := scanPlace{segment: i, segments: r.cfg.Clients}
	e := r.endpointOf(i)
	if r.cfg.Mode == ModeRaw {
		return newRawWorker(r.hc, r.endpoints[e], r.cfg.Table, r.codec, r.sortedTable, r.sorted, r.cfg.limit(), place)
	}
	w := newSDKWorker(r.ddbs[e], r.cfg.Table, r.codec)
	if r.sorted != nil {
		w.sortedTable = aws.String(r.sortedTable)
		w.sorted = r.sorted
		if limit := r.cfg.limit(); limit > 0 {
			w.pageSize = aws.Int32(int32(min(limit, math.MaxInt32)))
		}
		w.place = place
	}
	return w
}

// clientStats is what one client goroutine measured.
type clientStats struct {
	hist  [numOps]Histogram
	errs  [numOps]int64
	items [numOps]uint64
}

// opOf returns the operation and the size of the key space a workload's
// call draws from; mixed tosses a coin between put and get with rng.
func (r *Runner) opOf(workload string, rng *rand.Rand) (op, int) {
	switch workload {
	case WorkloadGet:
		return opGet, r.cfg.Keys
	case WorkloadMixed:
		return op(rng.IntN(2)), r.cfg.Keys
	case WorkloadUpdate:
		return opUpdate, r.cfg.Keys
	case WorkloadTransact:
		return opTransact, r.cfg.Keys
	case WorkloadDelete:
		return opDelete, r.cfg.Keys
	case WorkloadQuery:
		return opQuery, r.cfg.Partitions
	case WorkloadScan:
		return opScan, r.cfg.Keys
	case WorkloadFScan:
		return opFScan, r.cfg.Keys
	case WorkloadBatchWrite:
		return opBatchWrite, r.cfg.Keys
	}
	return opPut, r.cfg.Keys
}

// runWorkload runs one workload with all clients until the duration or op
// count is reached, or ctx is cancelled.
func (r *Runner) runWorkload(ctx context.Context, workload string) Result {
	var claimed, done, failed, items atomic.Int64
	stats := make([]*clientStats, r.cfg.Clients)
	var wg sync.WaitGroup
	cpuStart := r.cpu.sample()
	start := time.Now()
	wctx, cancel := ctx, context.CancelFunc(func() {})
	if r.phase != nil {
		wctx, cancel = r.phase(ctx)
	} else if r.cfg.Duration > 0 {
		wctx, cancel = context.WithTimeout(ctx, r.cfg.Duration)
	}
	defer cancel()
	// The calls end with the phase, but for delete's: a DeleteItem cut
	// short by the phase's end may still be applied by the server after
	// the put-back that follows it, leaving the item deleted for the next
	// workload. Its calls run to their answer (or the whole run's end),
	// so the put-back is sent after the server has answered the delete.
	callCtx := wctx
	if workload == WorkloadDelete {
		callCtx = ctx
	}
	for i := range stats {
		cs := new(clientStats)
		stats[i] = cs
		w := r.newWorker(i)
		rng := rand.New(rand.NewPCG(uint64(start.UnixNano()), uint64(i)))
		wg.Go(func() {
			// delete: the key of the item the client deleted and has
			// not yet put back; a client that stops first puts it back,
			// uncounted, so that the workloads after find every item.
			restore := -1
			defer func() {
				if restore >= 0 {
					_, _ = w.do(context.Background(), opPut, restore, 0)
				}
			}()
			for wctx.Err() == nil {
				if r.cfg.Ops > 0 && claimed.Add(1) > r.cfg.Ops {
					return
				}
				o, keys := r.opOf(workload, rng)
				key, other := rng.IntN(keys), 0
				if o == opTransact {
					// Another key, uniformly among the keys-1 others.
					other = (key + 1 + rng.IntN(keys-1)) % keys
				}
				if o == opDelete && restore >= 0 {
					o, key = opPut, restore
				}
				t0 := time.Now()
				n, err := w.do(callCtx, o, key, other)
				lat := time.Since(t0)
				if o == opDelete {
					restore = key
				} else if o == opPut && err == nil {
					restore = -1
				}
				if err != nil {
					if wctx.Err() != nil {
						return // cut short by the end of the run: not counted
					}
					cs.errs[o]++
					failed.Add(1)
					r.noteError(workload, o, err)
					continue
				}
				cs.hist[o].Record(lat)
				cs.items[o] += uint64(n)
				done.Add(1)
				if n > 0 {
					items.Add(int64(n))
				}
			}
		})
	}

	var lastOps, lastItems int64
	var lastAt time.Duration
	stop := r.everySecond(func(elapsed time.Duration) {
		n, m := done.Load(), items.Load()
		secs := (elapsed - lastAt).Seconds()
		line := fmt.Sprintf("bench: %-5s %4.0fs  %8.0f ops/s", workload, elapsed.Seconds(), float64(n-lastOps)/secs)
		if countsItems(workload) {
			line += fmt.Sprintf("  %9.0f items/s", float64(m-lastItems)/secs)
		}
		r.progressf("%s  total %d  errors %d\n", line, n, failed.Load())
		lastOps, lastItems, lastAt = n, m, elapsed
	})
	wg.Wait()
	elapsed := time.Since(start)
	cpuEnd := r.cpu.sample()
	stop()

	var all Histogram
	var per [numOps]Histogram
	var errs [numOps]int64
	var got [numOps]uint64
	byEndpoint := make([]Histogram, len(r.endpoints))
	endpointErrs := make([]int64, len(r.endpoints))
	for i, cs := range stats {
		e := r.endpointOf(i)
		for o := range numOps {
			per[o].Merge(&cs.hist[o])
			all.Merge(&cs.hist[o])
			byEndpoint[e].Merge(&cs.hist[o])
			errs[o] += cs.errs[o]
			endpointErrs[e] += cs.errs[o]
			got[o] += cs.items[o]
		}
	}
	var allErrs int64
	var allItems uint64
	for o := range numOps {
		allErrs += errs[o]
		allItems += got[o]
	}
	if !countsItems(workload) {
		allItems = 0
	}
	res := Result{
		Workload:    workload,
		Clients:     r.cfg.Clients,
		Stats:       statsOf(&all, allErrs, elapsed),
		CPU:         r.cpu.use(cpuStart, cpuEnd, all.Count(), allItems),
		LoadAvg:     loadAvg(),
		Interrupted: ctx.Err() != nil,
	}
	if countsItems(workload) {
		res.Items = allItems
		if elapsed > 0 {
			res.ItemsPerSec = float64(allItems) / elapsed.Seconds()
		}
	}
	var shown []op // the operations of a workload of two
	switch workload {
	case WorkloadMixed:
		shown = []op{opPut, opGet}
	case WorkloadDelete:
		shown = []op{opDelete, opPut}
	}
	for _, o := range shown {
		res.ByOp = append(res.ByOp, OpResult{Op: o.String(), Stats: statsOf(&per[o], errs[o], elapsed)})
	}
	if len(r.endpoints) > 1 {
		for e, ep := range r.endpoints {
			clients := r.cfg.Clients / len(r.endpoints)
			if e < r.cfg.Clients%len(r.endpoints) {
				clients++
			}
			res.ByEndpoint = append(res.ByEndpoint, EndpointResult{
				Endpoint: ep, Clients: clients, Stats: statsOf(&byEndpoint[e], endpointErrs[e], elapsed),
			})
		}
	}
	return res
}
