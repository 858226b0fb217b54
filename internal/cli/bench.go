package cli

import (
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/dynago/dynago/internal/bench"
)

func init() {
	register(verb{name: "bench", summary: "load-test a DynamoDB endpoint and report ops/s and latency", run: runBench})
}

const benchSynopsis = `Drives a DynamoDB endpoint (dynago, DynamoDB Local, AWS) with concurrent
clients issuing PutItem and GetItem, and prints throughput and latency
percentiles per workload:

  dynago serve --in-memory &
  dynago bench                                # put, then get: 16 clients, 10s each
  dynago bench --workload mixed --clients 64 --duration 30s
  dynago bench --mode raw --ops 200000        # no SDK: the server's own cost shows
  dynago bench --ceiling                      # the most this client can do here

Each client is a goroutine making one call at a time, on keys drawn
uniformly from --keys keys, with items of --item-size bytes. The table
(hash key "pk", a string) is created if missing, filled with every key
before a get or mixed workload, and deleted at the end unless --keep.

Output, one line per workload (mixed adds a line per operation):

  put     16 clients     12345 ops/s  p50 0.610ms  p90 0.950ms  p99 1.90ms  max 14.2ms  errors 0

ops/s counts successful calls; latencies are those of successful calls,
timed around each call and so including the client's own work. Run the
same flags with --ceiling to see how much of that is the client: the
ceiling server answers instantly with canned responses, in-process.
Failed calls are counted and the first few printed; they never stop the
run. SIGINT stops it early and still prints the results so far. Progress
goes to stderr once a second.`

func runBench(env *Env, args []string) error {
	var (
		c         bench.Config
		workloads string
		asJSON    bool
	)
	fs := newFlagSet(env, "bench", benchSynopsis)
	fs.StringVar(&c.Endpoint, "endpoint", bench.DefaultEndpoint, "DynamoDB endpoint URL to load")
	fs.IntVar(&c.Clients, "clients", bench.DefaultClients, "number of concurrent clients, each with one call in flight")
	fs.DurationVar(&c.Duration, "duration", bench.DefaultDuration, "how long each workload runs; with --ops set and this flag not, no time limit")
	fs.Int64Var(&c.Ops, "ops", 0, "calls per workload, across all clients; with --duration too, the first limit reached ends it")
	fs.IntVar(&c.ItemSize, "item-size", bench.DefaultItemSize, "item size in bytes, attribute names and values as DynamoDB counts them")
	fs.IntVar(&c.Keys, "keys", bench.DefaultKeys, "size of the key space; get workloads preload all of it first")
	fs.StringVar(&workloads, "workload", "put,get", "workloads to run in order, comma-separated: put, get, or mixed (each call a\n"+
		"50/50 coin toss between put and get)")
	fs.StringVar(&c.Table, "table", bench.DefaultTable, "table to use; created (on-demand, hash key pk of type S) if missing")
	fs.BoolVar(&c.Keep, "keep", false, "keep the table at the end instead of deleting it")
	fs.StringVar(&c.Mode, "mode", bench.ModeSDK, "client: sdk (aws-sdk-go-v2, as an application would) or raw (net/http\n"+
		"posting pre-encoded JSON, checking only the status: the least client cost)")
	fs.BoolVar(&c.Ceiling, "ceiling", false, "ignore --endpoint and load an in-process server that answers every call with\n"+
		"a canned response: the client's own ceiling on this machine")
	fs.BoolVar(&asJSON, "json", false, "print the results as JSON instead of text")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	durationSet := false
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "duration" {
			durationSet = true
		}
	})
	if c.Ops > 0 && !durationSet {
		c.Duration = 0
	}
	for _, w := range strings.Split(workloads, ",") {
		if w = strings.TrimSpace(w); w != "" {
			c.Workloads = append(c.Workloads, w)
		}
	}
	if err := c.Validate(); err != nil {
		fmt.Fprintf(env.Stderr, "dynago bench: %v\n", err)
		fs.Usage()
		return errUsage
	}
	c.Progress = env.Stderr
	c.Errors = env.Stderr
	if !asJSON {
		c.OnResult = func(r bench.Result) { r.WriteLine(env.Stdout) }
	}

	r, err := bench.New(c)
	if err != nil {
		return err
	}
	defer r.Close()
	if !asJSON {
		r.Info().WriteHeader(env.Stdout)
	}
	start := time.Now()
	rep, err := r.Run(env.Ctx)
	if err != nil {
		return err
	}
	if asJSON {
		return rep.WriteJSON(env.Stdout)
	}
	if rep.Interrupted {
		fmt.Fprintf(env.Stdout, "interrupted after %.1fs: results cover the time run so far\n", time.Since(start).Seconds())
	}
	return nil
}
