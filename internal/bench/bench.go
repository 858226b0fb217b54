package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"runtime"
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
)

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
)

// maxShownErrors is how many errors a run prints before keeping count only.
const maxShownErrors = 5

// Config describes a benchmark run.
type Config struct {
	// Endpoint is the DynamoDB endpoint URL. Ignored if Ceiling is set.
	Endpoint string
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
	// Keys is the size of the key space calls pick keys from, uniformly.
	Keys int
	// Workloads run in order, each one of the Workload constants.
	Workloads []string
	// Table is created if missing, and deleted at the end unless Keep.
	Table string
	Keep  bool
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
	if len(c.Workloads) == 0 {
		return errors.New("no workload")
	}
	for _, w := range c.Workloads {
		switch w {
		case WorkloadPut, WorkloadGet, WorkloadMixed:
		default:
			return fmt.Errorf("workload %q: want %s, %s or %s", w, WorkloadPut, WorkloadGet, WorkloadMixed)
		}
	}
	if c.Table == "" {
		return errors.New("no table name")
	}
	if !c.Ceiling {
		u, err := url.Parse(c.Endpoint)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("endpoint %q: want a URL such as %s", c.Endpoint, DefaultEndpoint)
		}
	}
	return nil
}

// Info describes the setting of a run, for the report's header.
type Info struct {
	Endpoint   string  `json:"endpoint"`
	Ceiling    bool    `json:"ceiling"`
	Mode       string  `json:"mode"`
	Clients    int     `json:"clients"`
	ItemSize   int     `json:"item_size"`
	Keys       int     `json:"keys"`
	Table      string  `json:"table"`
	Seconds    float64 `json:"duration_seconds,omitempty"`
	Ops        int64   `json:"ops_limit,omitempty"`
	GOMAXPROCS int     `json:"gomaxprocs"`
	NumCPU     int     `json:"num_cpu"`
	GoVersion  string  `json:"go_version"`
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
	ByOp        []OpResult `json:"by_op,omitempty"`
	Interrupted bool       `json:"interrupted,omitempty"`
}

// OpResult is the share of one operation in a workload.
type OpResult struct {
	Op string `json:"op"`
	Stats
}

// Stats are the figures of a set of calls. Latencies are of successful
// calls only; calls cut short by the end of the run are not counted.
type Stats struct {
	Seconds   float64 `json:"seconds"`
	Ops       uint64  `json:"ops"`
	Errors    int64   `json:"errors"`
	OpsPerSec float64 `json:"ops_per_sec"`
	Latency   Latency `json:"latency_ms"`
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
	cfg      Config
	info     Info
	ceiling  *Ceiling
	endpoint string
	hc       *http.Client
	ddb      *dynamodb.Client
	codec    *ItemCodec

	errMu    sync.Mutex
	errShown int
}

// New checks cfg, starts the ceiling server if asked, and makes the clients.
func New(cfg Config) (*Runner, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	r := &Runner{cfg: cfg, endpoint: strings.TrimRight(cfg.Endpoint, "/")}
	if cfg.Ceiling {
		c, err := StartCeiling(cfg.ItemSize)
		if err != nil {
			return nil, err
		}
		r.ceiling = c
		r.endpoint = c.URL
	}
	r.hc = newHTTPClient(cfg.Clients)
	r.ddb = newSDKClient(r.endpoint, r.hc)
	r.codec = NewItemCodec(cfg.ItemSize, cfg.Keys)
	r.info = Info{
		Endpoint:   r.endpoint,
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

// Run sets up the table, runs the workloads in order and tears the table
// down. Cancelling ctx ends the current workload early; the report then
// holds what was measured so far and is marked interrupted. Failed calls
// during workloads are counted, not returned; the error is for failures
// to set up the table.
func (r *Runner) Run(ctx context.Context) (*Report, error) {
	rep := &Report{Info: r.info}
	created, err := r.ensureTable(ctx)
	// Delete the table at the end unless asked to keep it, but never one
	// that was there already and could not be used.
	if !r.cfg.Keep && (created || err == nil) {
		defer r.deleteTable(ctx)
	}
	if err != nil {
		if ctx.Err() != nil {
			rep.Interrupted = true
			return rep, nil
		}
		return rep, err
	}
	preloaded := false
	for _, w := range r.cfg.Workloads {
		if ctx.Err() != nil {
			rep.Interrupted = true
			break
		}
		if w != WorkloadPut && !preloaded {
			if err := r.preload(ctx); err != nil {
				if ctx.Err() != nil {
					rep.Interrupted = true
					break
				}
				return rep, err
			}
			preloaded = true
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

// ensureTable creates the table if it is missing and waits until it is
// ACTIVE. It reports whether it created the table.
func (r *Runner) ensureTable(ctx context.Context) (created bool, err error) {
	table := aws.String(r.cfg.Table)
	out, err := r.ddb.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: table})
	var notFound *types.ResourceNotFoundException
	switch {
	case err == nil:
		if out.Table != nil && out.Table.TableStatus == types.TableStatusActive {
			return false, nil
		}
	case errors.As(err, &notFound):
		r.progressf("bench: creating table %s\n", r.cfg.Table)
		_, err = r.ddb.CreateTable(ctx, &dynamodb.CreateTableInput{
			TableName:            table,
			BillingMode:          types.BillingModePayPerRequest,
			AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
			KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		})
		var inUse *types.ResourceInUseException
		if err != nil && !errors.As(err, &inUse) {
			return false, fmt.Errorf("create table %s: %w", r.cfg.Table, err)
		}
		created = err == nil
	default:
		return false, fmt.Errorf("describe table %s at %s: %w", r.cfg.Table, r.endpoint, err)
	}
	// Wait for ACTIVE, for at most two minutes.
	deadline := time.Now().Add(2 * time.Minute)
	for {
		out, err := r.ddb.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: table})
		if err == nil && out.Table != nil && out.Table.TableStatus == types.TableStatusActive {
			return created, nil
		}
		if ctx.Err() != nil {
			return created, ctx.Err()
		}
		if time.Now().After(deadline) {
			if err == nil {
				err = fmt.Errorf("status %s", out.Table.TableStatus)
			}
			return created, fmt.Errorf("table %s not ACTIVE after 2 minutes: %w", r.cfg.Table, err)
		}
		select {
		case <-ctx.Done():
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// deleteTable deletes the table, even if ctx was cancelled.
func (r *Runner) deleteTable(ctx context.Context) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	_, err := r.ddb.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(r.cfg.Table)})
	if err != nil {
		r.progressf("bench: warning: delete table %s: %v\n", r.cfg.Table, err)
	}
}

// preload writes every key of the key space with BatchWriteItem, 25 items
// a call, spread over the clients.
func (r *Runner) preload(ctx context.Context) error {
	start := time.Now()
	r.progressf("bench: preloading %d items of %d B\n", r.cfg.Keys, r.codec.Size())
	const batch = 25
	next := atomic.Int64{}
	var firstErr error
	var errOnce sync.Once
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	for range min(r.cfg.Clients, (r.cfg.Keys+batch-1)/batch) {
		wg.Go(func() {
			data := r.codec.SDKData()
			for ctx.Err() == nil {
				lo := int(next.Add(batch)) - batch
				if lo >= r.cfg.Keys {
					return
				}
				hi := min(lo+batch, r.cfg.Keys)
				reqs := make([]types.WriteRequest, 0, hi-lo)
				for k := lo; k < hi; k++ {
					reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: r.codec.SDKItem(k, data)}})
				}
				if err := r.batchWrite(ctx, reqs); err != nil {
					errOnce.Do(func() { firstErr = err; cancel() })
					return
				}
			}
		})
	}
	wg.Wait()
	if firstErr != nil {
		return fmt.Errorf("preload: %w", firstErr)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	r.progressf("bench: preloaded in %.1fs\n", time.Since(start).Seconds())
	return nil
}

// batchWrite writes reqs, resending unprocessed items a bounded number of
// times with growing pauses.
func (r *Runner) batchWrite(ctx context.Context, reqs []types.WriteRequest) error {
	for attempt := 0; ; attempt++ {
		out, err := r.ddb.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{
			RequestItems: map[string][]types.WriteRequest{r.cfg.Table: reqs},
		})
		if err != nil {
			return err
		}
		reqs = out.UnprocessedItems[r.cfg.Table]
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

func (r *Runner) newWorker() worker {
	if r.cfg.Mode == ModeRaw {
		return newRawWorker(r.hc, r.endpoint, r.cfg.Table, r.codec)
	}
	return &sdkWorker{ddb: r.ddb, table: aws.String(r.cfg.Table), codec: r.codec, data: r.codec.SDKData()}
}

// clientStats is what one client goroutine measured.
type clientStats struct {
	hist [numOps]Histogram
	errs [numOps]int64
}

// runWorkload runs one workload with all clients until the duration or op
// count is reached, or ctx is cancelled.
func (r *Runner) runWorkload(ctx context.Context, workload string) Result {
	wctx, cancel := ctx, context.CancelFunc(func() {})
	if r.cfg.Duration > 0 {
		wctx, cancel = context.WithTimeout(ctx, r.cfg.Duration)
	}
	defer cancel()

	var claimed, done, failed atomic.Int64
	stats := make([]*clientStats, r.cfg.Clients)
	var wg sync.WaitGroup
	start := time.Now()
	for i := range stats {
		cs := new(clientStats)
		stats[i] = cs
		w := r.newWorker()
		rng := rand.New(rand.NewPCG(uint64(start.UnixNano()), uint64(i)))
		wg.Go(func() {
			for wctx.Err() == nil {
				if r.cfg.Ops > 0 && claimed.Add(1) > r.cfg.Ops {
					return
				}
				o := opPut
				switch workload {
				case WorkloadGet:
					o = opGet
				case WorkloadMixed:
					o = op(rng.IntN(2))
				}
				key := rng.IntN(r.cfg.Keys)
				t0 := time.Now()
				err := w.do(wctx, o, key)
				lat := time.Since(t0)
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
				done.Add(1)
			}
		})
	}

	stopProgress := make(chan struct{})
	progressDone := make(chan struct{})
	go func() {
		defer close(progressDone)
		if r.cfg.Progress == nil {
			return
		}
		t := time.NewTicker(time.Second)
		defer t.Stop()
		var last int64
		for {
			select {
			case <-stopProgress:
				return
			case now := <-t.C:
				n := done.Load()
				r.progressf("bench: %-5s %4.0fs  %8d ops/s  total %d  errors %d\n",
					workload, now.Sub(start).Seconds(), n-last, n, failed.Load())
				last = n
			}
		}
	}()
	wg.Wait()
	elapsed := time.Since(start)
	close(stopProgress)
	<-progressDone

	var all Histogram
	var per [numOps]Histogram
	var errs [numOps]int64
	for _, cs := range stats {
		for o := range numOps {
			per[o].Merge(&cs.hist[o])
			all.Merge(&cs.hist[o])
			errs[o] += cs.errs[o]
		}
	}
	res := Result{
		Workload:    workload,
		Clients:     r.cfg.Clients,
		Stats:       statsOf(&all, errs[opPut]+errs[opGet], elapsed),
		Interrupted: ctx.Err() != nil,
	}
	if workload == WorkloadMixed {
		for o := range numOps {
			res.ByOp = append(res.ByOp, OpResult{Op: o.String(), Stats: statsOf(&per[o], errs[o], elapsed)})
		}
	}
	return res
}
