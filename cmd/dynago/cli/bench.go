package cli

import (
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/dynago/dynago/cmd/dynago/internal/bench"
)

func init() {
	register(verb{name: "bench", summary: "load-test a DynamoDB endpoint and report ops/s and latency", run: runBench})
}

const benchSynopsis = `Drives a DynamoDB endpoint (dynago, DynamoDB Local, AWS) with concurrent
clients and prints throughput and latency percentiles per workload:

  dynago serve --in-memory &
  dynago bench                                # put, then get: 16 clients, 10s each
  dynago bench --workload mixed --clients 64 --duration 30s
  dynago bench --workload query,scan          # reads of 20-item pages
  dynago bench --mode raw --ops 200000        # no SDK: the server's own cost shows
  dynago bench --ceiling                      # the most this client can do here
  dynago bench --workload update,transact     # an item changed; two, atomically
  dynago bench --workload batchwrite,fscan    # 25 puts a call; a filtered scan
  dynago bench --workload scan,fscan --no-limit  # pages of 1 MB, DynamoDB's default

Several servers of one database (dynago serve --store postgres://...),
with the CPU they and the database use (Linux only):

  dynago bench --endpoint http://127.0.0.1:8001,http://127.0.0.1:8002 \
      --cpu-server "$(pgrep -d, -x dynago)" \
      --cpu-db "$(head -n 1 "$PGDATA/postmaster.pid")"

Workloads:

  put       PutItem of keys drawn uniformly from --keys keys
  get       GetItem of such keys, all preloaded
  mixed     each call a 50/50 coin toss between put and get
  update    UpdateItem of such a key, preloaded: SET v = :v ADD n :one (v a
            short string, n a counter), ReturnValues NONE
  transact  TransactWriteItems of two updates of distinct such keys, both
            preloaded, each on condition attribute_exists(pk): ADD bal :d,
            with :d -1 for the first and 1 for the second, a transfer (the
            bal of all items sums to zero). A transaction the server cancels,
            say for a conflict with another, counts as a failed call
  batchwrite
            BatchWriteItem of 25 PutRequests, of keys spread evenly over the
            --keys keys from one drawn uniformly (25 distinct keys; --keys at
            least 25); items/s counts the items written
  delete    DeleteItem of such a key, preloaded, and with the client's next
            call PutItem of that item back: every other call a delete of an
            item that exists, every other a put; a client that stops after
            a delete puts its item back, uncounted, once the delete is
            answered (a delete in flight at --duration's end is waited for)
  query     the newest --page-size items of a collection drawn uniformly from
            --partitions: Query pk = :p, ScanIndexForward false, Limit --page-size
  scan      the next page (Limit --page-size) of a parallel scan in which each
            client owns one of --clients segments (Segment, TotalSegments),
            continues from the LastEvaluatedKey, and starts its segment over
            at the end: together the clients read the whole table over and over
  fscan     scan with FilterExpression g = :g, g a one-letter attribute of
            the items that :g matches in one item in 20: items/s counts the
            items scanned (ScannedCount), a page's Limit of them, not the few
            returned. With fscan in a run, the sorted table's items carry g
            (its two bytes taken from data's)

With --no-limit, query, scan and fscan send no Limit, as an application
does by default: each page is as many items as fit in DynamoDB's 1 MB
(about a thousand of 1 KB), so a call's own cost is spread over many
items and the per-item cost shows.

Each client is a goroutine making one call at a time, with items of
--item-size bytes. put, get, mixed, update, transact, delete and
batchwrite use the table --table (hash key "pk", a string), filled with
every key before the first of them other than put and batchwrite. query,
scan and fscan use the table --table plus
"-sorted" (hash key "pk" and range key "sk", both strings), filled before
the first of them with --keys items spread evenly over --partitions
collections: item i goes to collection i mod --partitions (pk "p0003")
with sort key "s" and i in fixed width (sk "s00000042"), so a
collection's newest items have its greatest sort keys.
Tables are created if missing and deleted at the end unless --keep; an
existing table must have the key described. Preloading is BatchWriteItem
from --clients goroutines, with progress on stderr. A large table can be
loaded once and read by many runs, and grown in steps:

  dynago bench --workload query --keys 1000000 --keep --duration 1s
  dynago bench --workload query --keys 1000000 --no-load --duration 20s
  dynago bench --workload query --keys 10000000 --load-from 1000000 --keep --duration 1s

Output, one line per workload; mixed and delete add a line per operation, several
endpoints a line per endpoint, Linux a line of CPU use (below), query and
scan an items/s column, the items returned per second (fscan: scanned,
batchwrite: written), and to their CPU line the CPU time per item:

  put     16 clients     12345 ops/s  p50 0.610ms  p90 0.950ms  p99 1.90ms  max 14.2ms  errors 0
  query   16 clients      4321 ops/s      86420 items/s  p50 3.10ms  p90 5.40ms  p99 9.90ms  max 31.2ms  errors 0

ops/s counts successful calls; latencies are those of successful calls,
timed around each call and so including the client's own work. For scan,
read items/s: with more clients than collections some segments are empty
and their calls return nothing. Run the same flags with --ceiling to see
how much of that is the client: the ceiling server answers instantly with
canned responses, in-process (query and scan: --page-size items of
--item-size bytes, with --no-limit as many as fit in 1 MB, and a
LastEvaluatedKey; fscan: those of them the filter keeps, with a
ScannedCount of as many; batchwrite: no unprocessed items);
--serve-ceiling serves that
server alone, for another run to load as its --endpoint and count its CPU
apart with --cpu-server. Failed calls are counted and the first few
printed; they never stop the run. SIGINT stops it early and still prints
the results so far. Progress goes to stderr once a second.

With several --endpoint URLs, client i calls endpoint i mod their number,
and each workload adds a line per endpoint; the tables are created,
preloaded and deleted through the first, so the servers must share one
database.

On Linux each workload also prints a line of CPU use, read from /proc:

  cpu server 1.21 cores 95us/op  db 0.52 cores 41us/op  client 0.30 cores 24us/op  machine 1.98 of 2 cores busy  load 3.10

that is, for each group of processes the cores it kept busy on average
(CPU seconds, user and system, over the workload's wall time) and its CPU
time per successful call; "client" is this process, "machine" all the
machine's CPUs, whatever runs on them, and "load" the one-minute load
average at the end. A PID given to --cpu-server or --cpu-db counts with
all its descendants, found at the start and the end of each workload,
children that exit in between included (through their parent's count of
its children's time): for PostgreSQL give the postmaster, the first line
of $PGDATA/postmaster.pid or "pgrep -o -x postgres" (its children, the
backends, are "pgrep -P <postmaster>"; listing them too changes nothing).`

func runBench(env *Env, args []string) error {
	var (
		c         bench.Config
		workloads string
		asJSON    bool
	)
	fs := newFlagSet(env, "bench", benchSynopsis)
	var endpoints, cpuServer, cpuDB string
	defaultEndpoints := envOr("AWS_ENDPOINT_URL_DYNAMODB", envOr("AWS_ENDPOINT_URL", bench.DefaultEndpoint))
	fs.StringVar(&endpoints, "endpoint-url", defaultEndpoints, "DynamoDB endpoint URL to load, or several separated by commas (servers of\n"+
		"one database): client i calls endpoint i mod their number, tables are set up\n"+
		"through the first. Default: $AWS_ENDPOINT_URL_DYNAMODB or $AWS_ENDPOINT_URL\n"+
		"when set, else the local dynago server. It signs with a placeholder key")
	fs.StringVar(&endpoints, "endpoint", defaultEndpoints, "the same as --endpoint-url")
	fs.IntVar(&c.Clients, "clients", bench.DefaultClients, "number of concurrent clients, each with one call in flight")
	fs.DurationVar(&c.Duration, "duration", bench.DefaultDuration, "how long each workload runs; with --ops set and this flag not, no time limit")
	fs.Int64Var(&c.Ops, "ops", 0, "calls per workload, across all clients; with --duration too, the first limit reached ends it")
	fs.IntVar(&c.ItemSize, "item-size", bench.DefaultItemSize, "item size in bytes, attribute names and values as DynamoDB counts them")
	fs.IntVar(&c.Keys, "keys", bench.DefaultKeys, "size of the key space; get, mixed, update, transact and delete preload all of it\n"+
		"first, query, scan and fscan load that many items into the sorted table")
	fs.IntVar(&c.Partitions, "partitions", bench.DefaultPartitions, "query, scan and fscan: collections (hash keys) the --keys items are spread over,\n"+
		"evenly; at most --keys")
	fs.IntVar(&c.PageSize, "page-size", bench.DefaultPageSize, "query, scan and fscan: the Limit of each call, the most items it returns\n"+
		"(fscan: scans)")
	fs.BoolVar(&c.NoLimit, "no-limit", false, "query, scan and fscan: send no Limit, so that each page is as many items as\n"+
		"fit in 1 MB; --page-size is then ignored")
	fs.StringVar(&workloads, "workload", "put,get", "workloads to run in order, comma-separated: put, get, mixed, update,\n"+
		"transact, delete, batchwrite, query, scan, fscan (described above)")
	fs.StringVar(&c.Table, "table", bench.DefaultTable, "table for put, get, mixed, update, transact, delete and batchwrite,\n"+
		"created (on-demand, hash key pk of type S) if missing; query, scan and fscan\n"+
		"use this name plus \""+bench.SortedTableSuffix+"\"\n"+
		"(pk and range key sk, type S)")
	fs.BoolVar(&c.Keep, "keep", false, "keep the tables at the end instead of deleting them; a later run reuses them,\n"+
		"writing its items over theirs")
	fs.BoolVar(&c.NoLoad, "no-load", false, "skip the preload: read the tables as a run with --keep left them (its --keys,\n"+
		"--item-size and --partitions again). A table found there is then kept at the\n"+
		"end, --keep or not")
	fs.IntVar(&c.LoadFrom, "load-from", 0, "preload only items --load-from to --keys - 1: grows a table a run with --keep\n"+
		"loaded with --load-from items (the same --item-size and --partitions) without\n"+
		"writing those again")
	fs.StringVar(&c.Mode, "mode", bench.ModeSDK, "client: sdk (aws-sdk-go-v2, as an application would) or raw (net/http\n"+
		"posting pre-encoded JSON, checking only the status, and for query and scan\n"+
		"the Count (fscan: ScannedCount) and LastEvaluatedKey, for batchwrite the\n"+
		"UnprocessedItems: the least client cost)")
	fs.BoolVar(&c.Ceiling, "ceiling", false, "ignore --endpoint and load an in-process server that answers every call with\n"+
		"a canned response: the client's own ceiling on this machine")
	var serveCeiling bool
	fs.BoolVar(&serveCeiling, "serve-ceiling", false, "only serve the server of --ceiling (shaped by --item-size and --page-size),\n"+
		"printing its URL, until interrupted: another dynago bench may then load it\n"+
		"as an endpoint, and count its CPU apart from its own with --cpu-server")
	fs.StringVar(&c.Stream, "stream", "", "give the tables the run creates a stream of this view type (KEYS_ONLY,\n"+
		"NEW_IMAGE, OLD_IMAGE or NEW_AND_OLD_IMAGES), to measure what stream records\n"+
		"cost a write; compare with a run without it")
	fs.StringVar(&cpuServer, "cpu-server", "", "Linux only: PIDs, separated by commas or spaces, of the servers whose CPU\n"+
		"use each workload reports as \"server\", each with its descendants")
	fs.StringVar(&cpuDB, "cpu-db", "", "Linux only: PIDs, separated by commas or spaces, of the database whose CPU use\n"+
		"each workload reports as \"db\", each with its descendants: for PostgreSQL\n"+
		"the postmaster covers the whole cluster")
	fs.BoolVar(&asJSON, "json", false, "print the results as JSON instead of text")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if serveCeiling {
		return serveCeilingOnly(env, c.ItemSize, c.CeilingPageSize())
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
	for _, e := range strings.Split(endpoints, ",") {
		if e = strings.TrimSpace(e); e != "" {
			c.Endpoints = append(c.Endpoints, e)
		}
	}
	for _, g := range []struct{ flag, name, pids string }{{"cpu-server", "server", cpuServer}, {"cpu-db", "db", cpuDB}} {
		if strings.TrimSpace(g.pids) == "" {
			continue
		}
		pids, err := parsePIDs(g.pids)
		if err != nil {
			fmt.Fprintf(env.Stderr, "dynago bench: --%s: %v\n", g.flag, err)
			return errUsage
		}
		c.CPU = append(c.CPU, bench.CPUGroup{Name: g.name, PIDs: pids})
	}
	if err := c.Validate(); err != nil {
		fmt.Fprintf(env.Stderr, "dynago bench: %v\n", err)
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

// serveCeilingOnly runs the ceiling server until env.Ctx ends, printing
// its URL first.
func serveCeilingOnly(env *Env, itemSize, pageSize int) error {
	srv, err := bench.StartCeiling(itemSize, pageSize)
	if err != nil {
		return err
	}
	fmt.Fprintln(env.Stdout, srv.URL)
	<-env.Ctx.Done()
	return srv.Close()
}

// parsePIDs parses process IDs separated by commas or white space, as
// pgrep prints them with or without -d,.
func parsePIDs(s string) ([]int, error) {
	var pids []int
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || unicode.IsSpace(r) }) {
		pid, err := strconv.Atoi(f)
		if err != nil || pid <= 0 {
			return nil, fmt.Errorf("%q is not a process ID", f)
		}
		pids = append(pids, pid)
	}
	return pids, nil
}
