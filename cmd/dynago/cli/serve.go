package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"runtime/debug"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/aws/aws-sdk-go-v2/config"

	"github.com/dynago/dynago/engine"
	"github.com/dynago/dynago/exports"
	"github.com/dynago/dynago/internal/exchange"
	"github.com/dynago/dynago/server"
	"github.com/dynago/dynago/server/console"
	"github.com/dynago/dynago/server/netlimit"
)

func init() {
	register(verb{name: "serve", summary: "run the DynamoDB-compatible server", run: runServe})
}

const serveSynopsis = `Serves the DynamoDB API (JSON 1.0 over HTTP) so that any AWS SDK or the AWS
CLI can use dynago by changing only the endpoint URL:

  dynago serve --in-memory
  aws dynamodb list-tables --endpoint-url http://127.0.0.1:8000

Any access key and region are accepted. SIGINT or SIGTERM shut the server
down cleanly: requests in flight finish, then the data is flushed and closed.

DynamoDB Local's command line works as it is, with or without "serve":

  dynago -sharedDb -dbPath ./data -port 8000

(-port, -inMemory, -dbPath, -sharedDb, -cors, -delayTransientStatuses,
-optimizeDbBeforeStartup, -disableTelemetry, -help), also after the java
arguments of DynamoDB Local's container image ("dynago -jar
DynamoDBLocal.jar -sharedDb": JVM options and the jar are ignored). As in
DynamoDB Local, each access key and region then has its own tables unless
-sharedDb is given (--namespace account-region); dynago's own default is
one set of tables for every client (--namespace shared).

The same endpoint serves DynamoDB Streams (ListStreams, DescribeStream,
GetShardIterator, GetRecords):

  aws dynamodbstreams list-streams --endpoint-url http://127.0.0.1:8000

Time to Live deletes expired items in the background (see
--ttl-sweep-interval). Tests that cannot wait can sweep on demand with a
request that is dynago's own, not part of any AWS API:

  curl -X POST http://127.0.0.1:8000/dynago/ttl/sweep
  {"Deleted":3}

It deletes every expired item at once and answers how many it deleted.
Browsers may not send it cross-site (a form on another web site cannot
trigger it); curl and other non-browser clients can.

Faults on purpose, off by default. To test retry loops and batch loops
against what AWS does under pressure, the server can fail, delay or cut
requests as a fault plan says, repeatably from a seed:

  dynago serve --in-memory --fault-rate 0.05 --fault-error InternalServerError --fault-seed 42
  dynago serve --in-memory --fault-plan plan.json

and, while it runs, from loopback clients (or signed ones with --auth):

  curl -X POST --data @plan.json http://127.0.0.1:8000/dynago/faults
  curl -X DELETE http://127.0.0.1:8000/dynago/faults

Each fault is DynamoDB's own answer; each is counted in /metrics
(dynago_faults_injected_total) and logged. See docs/REHEARSAL.md.

Limits against misbehaving clients. Every client gets bounded time and
memory, so one that stalls, floods or never reads cannot starve the rest:

  --read-header-timeout  to send the request line and headers
  --read-body-timeout    to send the request body (HTTP 408 past it)
  --write-timeout        to take the response (the connection is cut)
  --idle-timeout         between requests on a keep-alive connection
  --max-connections      connections held at once; more wait to be accepted
  --max-buffer-memory    request and response buffers held at once; a
                         request that cannot get its share within 2s gets
                         ThrottlingException, which SDKs retry with backoff
  --max-buffer-memory-per-address
                         the part of it one client address may hold

Stalled clients are logged at warn with their address. With these limits
the server's memory under the worst clients stays under about
  4.5 x max-buffer-memory + max-connections x 80 KiB + the storage engine's
(measured; the Go garbage collector's slack is most of the first term:
setting GOMEMLIMIT to 2 x max-buffer-memory plus the engine's share holds
it nearer 2x). See docs/OPERATIONS.md.

Host names. On a loopback address (the default 127.0.0.1) the server
answers only requests whose Host header is localhost or a loopback IP, with
any port: a web page that points its own DNS name at 127.0.0.1 (DNS
rebinding) is refused with HTTP 403. --allowed-hosts adds names; on any
other address there is no check unless --allowed-hosts is given.

Browsers (CORS). Web pages may call the DynamoDB API from a browser only
from the origins --cors allows: by default pages on localhost and loopback
addresses (http or https, any port), so local web apps and tools work and
no page on the internet can reach your database through your browser.
DynamoDB Local has the same option, -cors, whose default is "*" (any
origin); give --cors '*' for that. SDKs, the CLI and curl send no Origin
and are never affected.`

// serveConfig holds serve's flags.
type serveConfig struct {
	host     string
	port     int
	dataDir  string
	inMemory bool
	sync     bool
	logLevel string
	shutdown time.Duration
	cpuProf  string

	ttlSweepInterval    time.Duration
	ttlChangeCooldown   time.Duration
	streamShardDuration time.Duration
	transientDelay      time.Duration
	enforceCapacity     bool

	s3Dir      string
	s3Endpoint string

	readHeaderTimeout time.Duration
	readBodyTimeout   time.Duration
	writeTimeout      time.Duration
	idleTimeout       time.Duration
	maxConnections    int
	maxBufferMemory   byteSize
	maxBufferPerAddr  byteSize
	cacheSize         byteSize
	allowedHosts      string
	cors              string

	store                 string
	storeSchema           string
	storeMaxConns         int
	storeStatementTimeout time.Duration
	storeCallTimeout      time.Duration
	nodeLeaseTimeout      time.Duration

	// namespace is "shared" or "account-region" once resolveLocal has
	// run; maxNamespaces bounds the databases account-region opens.
	namespace     string
	maxNamespaces int
	// local holds DynamoDB Local's own flags (dynamodb_local.go).
	local localConfig
	// obs holds metrics, log format, profiling, console, signatures and
	// TLS (serve_observe.go).
	obs observeConfig
	// lag holds GSI lag and stale reads (serve_lag.go).
	lag lagConfig
	// vector holds vector search's tuning (serve_vector.go).
	vector vectorConfig
	// faults holds the fault plan's flags (serve_faults.go), and
	// faultFlagsSet the names of those given.
	faults        faultConfig
	faultFlagsSet map[string]bool
}

// Defaults of serve's limits on clients.
const (
	defaultReadHeaderTimeout = 10 * time.Second
	defaultReadBodyTimeout   = time.Minute
	defaultWriteTimeout      = time.Minute
	defaultIdleTimeout       = 5 * time.Minute
	defaultMaxConnections    = 4096
)

func runServe(env *Env, args []string) error { return runServeArgs(env, args, false) }

// runServeArgs runs serve; bare says dynago was started with flags and no
// verb, as DynamoDB Local is.
func runServeArgs(env *Env, args []string, bare bool) error {
	var c serveConfig
	c.local.bare = bare
	fs := serveFlags(env, &c)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := c.resolveLocal(fs); err != nil {
		fmt.Fprintln(env.Stderr, err)
		return errUsage
	}
	c.faultFlagsSet = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { c.faultFlagsSet[f.Name] = true })
	return serve(env, c, nil)
}

// envDefault is the environment variable name's value when it is set and
// not empty, else def: the defaults of --host and --data-dir, which the
// container image sets so that DynamoDB Local's flags alone, given in
// place of the image's command, still serve on every address and keep
// the data in the image's volume.
func envDefault(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// serveFlags declares serve's flags on a new flag set writing into c:
// dynago's own and DynamoDB Local's (dynamodb_local.go).
func serveFlags(env *Env, c *serveConfig) *flagSet {
	fs := newFlagSet(env, "serve", serveSynopsis)
	fs.StringVar(&c.host, "host", envDefault("DYNAGO_HOST", "127.0.0.1"), "address to listen on; use 0.0.0.0 to accept connections from other machines.\n"+
		"Default: $DYNAGO_HOST when set (the container image sets 0.0.0.0)")
	fs.IntVar(&c.port, "port", 8000, "TCP port to listen on (0 picks a free port and logs it)")
	fs.StringVar(&c.dataDir, "data-dir", envDefault("DYNAGO_DATA_DIR", "./dynago-data"), "directory holding the data; created if missing, and locked so only one server uses it.\n"+
		"Default: $DYNAGO_DATA_DIR when set (the container image sets /data)")
	fs.BoolVar(&c.inMemory, "in-memory", false, "keep all data in memory and write nothing to disk (for tests); everything is lost on exit")
	fs.StringVar(&c.store, "store", "", "keep the data in a PostgreSQL database instead of --data-dir, given as a\n"+
		"postgres://user:password@host:port/database URL (libpq's key=value form works\n"+
		"too). Any number of servers given the same database act as one endpoint; the\n"+
		"database may also be CockroachDB, YugabyteDB or another that speaks\n"+
		"PostgreSQL's protocol. The schema is created on an empty database. See\n"+
		"docs/SCALING.md")
	fs.StringVar(&c.storeSchema, "store-schema", "dynago", "with --store, the database schema that holds dynago's tables; servers that\n"+
		"share a schema share their tables")
	fs.IntVar(&c.storeMaxConns, "store-max-conns", 0, "with --store, the most database connections this server opens (0: four per CPU,\n"+
		"at least 16)")
	fs.DurationVar(&c.storeStatementTimeout, "store-statement-timeout", 10*time.Second, "with --store, how long one database statement may run before the database\n"+
		"cancels it and the request fails with InternalServerError (0: no limit)")
	fs.DurationVar(&c.storeCallTimeout, "store-call-timeout", 30*time.Second, "with --store, how long this server waits for the database on one call (a read,\n"+
		"a page, a commit with its retries, the wait for a connection) before the request\n"+
		"fails with InternalServerError; bounds requests when the database stops answering\n"+
		"at all, as behind a network partition")
	fs.DurationVar(&c.nodeLeaseTimeout, "node-lease-timeout", engine.DefaultNodeLeaseTimeout, "with --store, how long after a server stops writing its heartbeat another\n"+
		"takes over its background work (index backfills, Time to Live sweeps)")
	fs.BoolVar(&c.sync, "sync", false, "fsync the write-ahead log before acknowledging each write, so acknowledged writes survive\n"+
		"a power loss or kernel crash. Off by default: every write is still handed to the operating\n"+
		"system before it is acknowledged, so a crash or kill of dynago itself loses nothing, at any\n"+
		"instant (no window). --sync costs the disk's flush latency, shared by concurrent writes:\n"+
		"about a third fewer writes per second with one client, a quarter with 16 (docs/OPERATIONS.md)")
	fs.Var(&c.cacheSize, "cache-size", "the storage engine's block cache, as a `size` such as 512MiB: recently read\n"+
		"data blocks, and the index and bloom filter blocks of the data files, which\n"+
		"every read goes through: about 3 bytes an item with short keys, 300MiB at\n"+
		"100 million items. It fills as the data is read, up to this size. Default\n"+
		"64MiB, per data directory (with --namespace account-region, each one open has\n"+
		"its own). Ignored with --store. See docs/OPERATIONS.md")
	fs.StringVar(&c.logLevel, "log-level", "info", "log verbosity: debug, info, warn or error")
	fs.DurationVar(&c.shutdown, "shutdown-timeout", 30*time.Second, "how long to wait for requests in flight on shutdown")
	fs.StringVar(&c.cpuProf, "cpuprofile", "", "write a Go CPU profile of the whole run to this file at shutdown, for\n"+
		"\"go tool pprof\"; off by default")
	fs.DurationVar(&c.ttlSweepInterval, "ttl-sweep-interval", engine.DefaultTTLSweepInterval, "how often Time to Live deletes expired items: those whose TTL attribute is a\n"+
		"Number of epoch seconds in the past, at most five years back. DynamoDB takes up\n"+
		"to a few days; dynago sweeps every second by default. 0 turns the background\n"+
		"sweeper off: expired items then stay until POST /dynago/ttl/sweep")
	fs.DurationVar(&c.ttlChangeCooldown, "ttl-change-cooldown", engine.DefaultTTLChangeCooldown, "how long after an UpdateTimeToLive a further change to the same table is\n"+
		"refused, as DynamoDB refuses it for an hour. 0 never refuses: for test suites\n"+
		"that toggle TTL")
	fs.DurationVar(&c.streamShardDuration, "stream-shard-duration", engine.DefaultStreamShardDuration, "how long a stream shard stays open before the stream rolls over to a child\n"+
		"shard, as DynamoDB does about every four hours. A short one (say 1s) lets tests\n"+
		"exercise readers that follow shard lineage")
	fs.StringVar(&c.s3Dir, "s3-dir", "", "a folder standing for S3, where ExportTableToPointInTime writes and\n"+
		"ImportTable reads: bucket B is its sub-folder B. Without it (and without\n"+
		"--s3-endpoint-url) exports fail and imports find nothing, saying so")
	fs.StringVar(&c.s3Endpoint, "s3-endpoint-url", "", "an S3-compatible server's URL where exports write and imports read, with\n"+
		"path-style addressing and the AWS SDK's usual credentials and region\n"+
		"(default $AWS_ENDPOINT_URL_S3); --s3-dir takes precedence")
	fs.BoolVar(&c.enforceCapacity, "enforce-capacity", false, "enforce the tables' capacity as DynamoDB does: a provisioned table's and\n"+
		"GSI's read and write units (with 300 seconds of burst), an on-demand table's\n"+
		"maximum and quota, 3,000 read and 1,000 write units a second per partition key;\n"+
		"requests beyond them get ProvisionedThroughputExceededException or\n"+
		"ThrottlingException with ThrottlingReasons. A table's tag\n"+
		"dynago:enforce-capacity=true or false overrides it. Off by default: nothing is\n"+
		"throttled (docs/REHEARSAL.md)")
	fs.DurationVar(&c.transientDelay, "transient-delay", 0, "how long CreateTable, UpdateTable and DeleteTable leave a table CREATING,\n"+
		"UPDATING or DELETING, as DynamoDB does for seconds to minutes. A global\n"+
		"secondary index UpdateTable adds is CREATING for twice as long: first not yet\n"+
		"Backfilling (the table UPDATING), then Backfilling (the table ACTIVE), DynamoDB's\n"+
		"two phases. Meanwhile requests get DynamoDB's answers: items of a CREATING or\n"+
		"DELETING table are not found, a second table change is ResourceInUseException,\n"+
		"the new index cannot be read.\n"+
		"Set it (say 2s) to test code that waits with DescribeTable or the SDK's\n"+
		"waiters. 0, the default, makes tables and indexes ACTIVE at once")
	fs.DurationVar(&c.readHeaderTimeout, "read-header-timeout", defaultReadHeaderTimeout, "how long a client has to send a request's line and headers, from the\n"+
		"moment it connects or its previous response ends; slower connections are closed")
	fs.DurationVar(&c.readBodyTimeout, "read-body-timeout", defaultReadBodyTimeout, "how long a client has to send a request's whole body (up to 16 MB). A\n"+
		"client that stalls mid-body gets HTTP 408, its connection is closed and the\n"+
		"stall is logged. 0: no limit (not advised)")
	fs.DurationVar(&c.writeTimeout, "write-timeout", defaultWriteTimeout, "how long a client has to take a response (up to 16 MB for BatchGetItem) once\n"+
		"the server starts sending it. A client that does not read is cut off and\n"+
		"logged, and the response's memory freed. 0: no limit (not advised)")
	fs.DurationVar(&c.idleTimeout, "idle-timeout", defaultIdleTimeout, "how long a keep-alive connection may sit between requests before it is\n"+
		"closed. At --max-connections the longest-idle connections are closed sooner")
	fs.IntVar(&c.maxConnections, "max-connections", defaultMaxConnections, "most client connections held open at once. Beyond it new connections wait\n"+
		"in the kernel's accept queue, costing nothing, while idle keep-alive\n"+
		"connections are closed to make room; lowered to fit the open-file limit")
	c.maxBufferMemory = server.DefaultMaxBufferBytes
	fs.Var(&c.maxBufferMemory, "max-buffer-memory", "most memory for request bodies (gzip decoded) and encoded responses held\n"+
		"at once, over all requests, as a `size` such as 256MiB or 1GiB. A request that\n"+
		"cannot get its share within 2s is answered with ThrottlingException, which AWS\n"+
		"SDKs retry with backoff. At least 33MiB (one largest request and one largest\n"+
		"response)")
	fs.Var(&c.maxBufferPerAddr, "max-buffer-memory-per-address", "most of --max-buffer-memory the requests of one client address (an IPv4\n"+
		"address or an IPv6 /64) hold at once, so that a few clients cannot hold what\n"+
		"the others need: past it that address's requests wait, or are throttled, while\n"+
		"other addresses' pass. Default (0): a quarter of --max-buffer-memory, at least\n"+
		"33MiB. Behind a proxy every client has the proxy's address: raise it to\n"+
		"--max-buffer-memory there")
	fs.StringVar(&c.allowedHosts, "allowed-hosts", "", "comma-separated host names (or IPs) the server answers to besides localhost\n"+
		"and loopback IPs, any port, as in the Host header; \"*\" allows any. On a\n"+
		"loopback --host other names are refused (HTTP 403, against DNS rebinding); on\n"+
		"other addresses there is no check unless this flag is given")
	fs.StringVar(&c.cors, "cors", "", "web origins whose pages may call the API from a browser (CORS): a\n"+
		"comma-separated list of origins (https://app.example.com:8443) or host names\n"+
		"(any scheme and port), \"loopback\" for localhost and loopback addresses, \"*\"\n"+
		"for any origin (DynamoDB Local's -cors default), or \"none\". Default: loopback\n"+
		"(pages on localhost and loopback IPs, any port); a list replaces it")
	localFlags(fs, c)
	observeFlags(fs, &c.obs)
	lagFlags(fs, &c.lag)
	vectorFlags(fs, &c.vector)
	faultFlags(fs, &c.faults)
	return fs
}

// engineOptions maps serve's flags to the engine's options.
func engineOptions(c serveConfig, log *slog.Logger) engine.Options {
	o := engine.Options{
		Dir:                 c.dataDir,
		InMemory:            c.inMemory,
		Sync:                c.sync,
		CacheSize:           int64(c.cacheSize),
		Logger:              log,
		StreamShardDuration: c.streamShardDuration,
		TTLChangeCooldown:   c.ttlChangeCooldown,
		TTLSweepInterval:    c.ttlSweepInterval,
		TransientDelay:      c.transientDelay,
		EnforceCapacity:     c.enforceCapacity,
		NodeLeaseTimeout:    c.nodeLeaseTimeout,
		// Metrics show index write units even for requests that did not
		// ask for their capacity.
		MeterIndexWrites: c.obs.metrics != "off",
		Exchange:         serveExchange(c, log),
	}
	c.lag.apply(&o)
	c.vector.apply(&o)
	// The engine reads 0 as its default and a negative value as off; the
	// flag documents 0 as off too.
	if c.ttlSweepInterval <= 0 {
		o.TTLSweepInterval = -1
	}
	if c.ttlChangeCooldown <= 0 {
		o.TTLChangeCooldown = -1
	}
	return o
}

// serve runs the server until env.Ctx is done. ready, if not nil, receives
// the listening address once the server accepts connections.
func serve(env *Env, c serveConfig, ready chan<- string) error {
	start := time.Now()
	restoreGC := postponeGC()
	defer restoreGC()
	if err := checkLimits(c); err != nil {
		return err
	}
	cors, err := server.ParseCORS(c.cors)
	if err != nil {
		return fmt.Errorf("--cors: %w", err)
	}
	faultPlan, err := c.faults.buildPlan(c.faultFlagsSet)
	if err != nil {
		return err
	}
	if c.streamShardDuration <= 0 {
		return fmt.Errorf("--stream-shard-duration: %v is not a positive duration", c.streamShardDuration)
	}
	if c.transientDelay < 0 {
		return fmt.Errorf("--transient-delay: %v is negative", c.transientDelay)
	}
	if err := c.lag.check(); err != nil {
		return err
	}
	if err := c.vector.check(); err != nil {
		return err
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(c.logLevel)); err != nil {
		return fmt.Errorf("--log-level: %q is not one of debug, info, warn, error", c.logLevel)
	}
	if err := c.obs.check(); err != nil {
		return err
	}
	log := newLogger(env.Stderr, c.obs.logFormat, level)
	auth, err := loadAuth(c.obs.auth)
	if err != nil {
		return err
	}
	tlsConfig, err := loadTLS(c.obs)
	if err != nil {
		return err
	}

	if c.cpuProf != "" {
		f, err := os.Create(c.cpuProf)
		if err != nil {
			return fmt.Errorf("--cpuprofile: %w", err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			return fmt.Errorf("--cpuprofile: %w", err)
		}
		defer func() {
			pprof.StopCPUProfile()
			f.Close()
			log.Info("CPU profile written", "file", c.cpuProf)
		}()
	}
	if c.store != "" && c.inMemory {
		return errors.New("--store and --in-memory: choose one")
	}
	if c.store != "" && c.namespace == namespaceAccountRegion {
		return errors.New("--namespace account-region keeps each access key's and region's tables in a directory of their own, " +
			"which a PostgreSQL --store does not have: use --namespace shared (or -sharedDb), or give each set of clients its own --store-schema and server")
	}
	// Listen first, so that a port already taken leaves no data directory
	// behind.
	addr := net.JoinHostPort(c.host, strconv.Itoa(c.port))
	tcp, err := listenTCP(env.Ctx, addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", addr, err)
	}
	if !c.inMemory && c.store == "" {
		warnDynamoDBLocalFiles(env.Stderr, log, c.dataDir)
	}
	db, ns, err := openData(env, c, log)
	if err != nil {
		tcp.Close()
		return err
	}
	if ns != nil && auth != nil {
		// A namespace's ARNs carry the account the credentials file
		// gives its key.
		ns.accounts = auth.AccountOf
	}
	closeData := func() error {
		if ns != nil {
			return ns.Close()
		}
		return db.Close()
	}
	maxConns := c.maxConnections
	if fit := connectionsWithinFileLimit(); fit > 0 && maxConns > fit {
		log.Warn("--max-connections lowered to fit the open-file limit (raise it with ulimit -n)",
			"asked", maxConns, "max_connections", fit)
		maxConns = fit
	}
	ln := netlimit.New(server.Listener(tcp), maxConns)
	ln.OnFull = func(max int) {
		log.Warn("connection limit reached: new connections wait to be accepted and idle ones are closed",
			"max_connections", max)
	}
	ln.OnClose = func(conn net.Conn, end netlimit.End) {
		// Stalls the server answers (a body too slow, a response not
		// read) are logged where they are answered.
		if end.Stalled {
			log.Warn("client did not send a complete request header within --read-header-timeout; closed its connection",
				"remote", conn.RemoteAddr().String(), "timeout", c.readHeaderTimeout)
		}
	}
	checkHost, allowed := hostPolicy(c.host, c.allowedHosts)
	var api *server.Server
	var metrics *server.Metrics
	if c.obs.metrics != "off" {
		metrics = server.NewMetrics(func() []*engine.DB { return api.DBs() })
	}
	api = server.New(db, server.Config{
		Logger:                  log,
		MaxBufferBytes:          int64(c.maxBufferMemory),
		MaxBufferBytesPerSource: int64(c.maxBufferPerAddr),
		BodyReadTimeout:         c.readBodyTimeout,
		WriteTimeout:            c.writeTimeout,
		CheckHost:               checkHost,
		AllowedHosts:            allowed,
		CORS:                    cors,
		Namespaces:              serverNamespaces(ns),
		Metrics:                 metrics,
		Auth:                    auth,
	})
	if faultPlan != nil {
		if err := api.SetFaults(faultPlan); err != nil {
			tcp.Close()
			closeData()
			return err
		}
		log.Warn("injecting faults on purpose (--fault-plan or --fault-rate): requests will fail, lag or be cut off as the plan says",
			"rules", len(faultPlan.Rules), "seed", faultPlan.Seed)
	}
	handler, stopFront := frontHandler(env.Ctx, api, metrics, c.obs)
	defer stopFront()
	if metrics != nil && c.obs.metrics != "on" {
		mux := http.NewServeMux()
		mux.Handle("/metrics", metrics.Handler())
		stop, err := sideListener(c.obs.metrics, "metrics", sideGuard(c.obs.metrics, c.allowedHosts, log, mux), log)
		if err != nil {
			tcp.Close()
			closeData()
			return err
		}
		defer stop()
	}
	if c.obs.pprof != "" {
		stop, err := sideListener(c.obs.pprof, "pprof", sideGuard(c.obs.pprof, c.allowedHosts, log, pprofHandler(os.Args)), log)
		if err != nil {
			tcp.Close()
			closeData()
			return err
		}
		defer stop()
	}
	srv := &http.Server{
		TLSConfig:         tlsConfig,
		Handler:           handler,
		ReadHeaderTimeout: c.readHeaderTimeout,
		IdleTimeout:       c.idleTimeout,
		MaxHeaderBytes:    server.MaxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelDebug),
	}
	ln.Attach(srv)
	scheme := "http://"
	if c.obs.tlsCert != "" {
		scheme = "https://"
	}
	// The collector's own target again before the first request: a burst
	// of large requests right after start-up must find the heap bounded as
	// GOGC says (TestAbuseGzipFlood's peak went from 260 to 560 MiB while
	// this waited a second).
	restoreGC()
	consoleAt := "off"
	if c.obs.console == "on" {
		consoleAt = browseURL(scheme, ln.Addr()) + console.Prefix
	}
	serving := append([]any{"addr", scheme + ln.Addr().String()}, storageAttrs(c)...)
	serving = append(serving, "namespace", c.namespace,
		"sync", c.sync && !c.inMemory && c.store == "", "auth", auth != nil, "metrics", c.obs.metrics, "console", consoleAt,
		"startup", time.Since(start).Round(time.Microsecond), "version", versionText())
	log.Info("dynago serving", serving...)
	log.Debug("client limits", "max_connections", maxConns, "max_buffer_memory", int64(c.maxBufferMemory),
		"max_buffer_memory_per_address", int64(c.maxBufferPerAddr), "read_header_timeout", c.readHeaderTimeout, "read_body_timeout", c.readBodyTimeout,
		"write_timeout", c.writeTimeout, "idle_timeout", c.idleTimeout, "host_check", checkHost, "allowed_hosts", allowed, "cors", c.cors)
	if ready != nil {
		ready <- ln.Addr().String()
	}
	// Start-up is over: the binary's pages it touched need not stay mapped
	// (serve_pages_linux.go). A second later, so that the first requests,
	// often sent as soon as the port answers, do not wait for it.
	release := time.AfterFunc(time.Second, releaseImagePages)
	defer release.Stop()

	errc := make(chan error, 1)
	go func() {
		if tlsConfig != nil {
			errc <- srv.ServeTLS(ln, "", "")
			return
		}
		errc <- srv.Serve(ln)
	}()
	select {
	case err = <-errc:
	case <-env.Ctx.Done():
		log.Info("shutting down: finishing requests in flight")
		ctx, cancel := context.WithTimeout(context.Background(), c.shutdown)
		err = srv.Shutdown(ctx)
		cancel()
		if err != nil {
			log.Warn("requests still running at shutdown timeout", "err", err)
			srv.Close()
		}
		err = nil
	}
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		closeData()
		return err
	}
	if err := closeData(); err != nil {
		return fmt.Errorf("close data: %w", err)
	}
	log.Info("dynago stopped")
	return nil
}

// storageAttrs says in the log where the data is: the store's kind and
// its place, a data directory or a PostgreSQL connection string without
// its password (redactArg), and the schema.
func storageAttrs(c serveConfig) []any {
	switch {
	case c.store != "":
		return []any{"store", "postgres", "data", redactArg(c.store), "schema", c.storeSchema}
	case c.inMemory:
		return []any{"store", "memory", "data", "in memory"}
	}
	return []any{"store", "pebble", "data", c.dataDir}
}

// browseURL is the base URL a browser on this machine opens to reach a
// server listening on addr: the address itself, but localhost for a
// wildcard address (0.0.0.0, ::), which is no place to connect to and
// which the server's Host check lets through as it lets through any
// loopback name.
func browseURL(scheme string, addr net.Addr) string {
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return scheme + addr.String()
	}
	if ip, err := netip.ParseAddr(host); err == nil && ip.IsUnspecified() {
		host = "localhost"
	}
	return scheme + net.JoinHostPort(host, port)
}

// checkLimits validates serve's limits on clients.
func checkLimits(c serveConfig) error {
	for _, d := range []struct {
		name string
		v    time.Duration
	}{
		{"--read-header-timeout", c.readHeaderTimeout}, {"--read-body-timeout", c.readBodyTimeout},
		{"--write-timeout", c.writeTimeout}, {"--idle-timeout", c.idleTimeout},
	} {
		if d.v < 0 {
			return fmt.Errorf("%s: %v is negative", d.name, d.v)
		}
	}
	if c.readHeaderTimeout == 0 {
		return fmt.Errorf("--read-header-timeout: must be positive, or a client that never sends a request holds its connection for ever")
	}
	if c.maxConnections < 1 {
		return fmt.Errorf("--max-connections: %d is not a positive number", c.maxConnections)
	}
	if least := server.MinBufferBytes(server.DefaultMaxBodyBytes); int64(c.maxBufferMemory) < least {
		return fmt.Errorf("--max-buffer-memory: %s is below the %s one largest request and response need", c.maxBufferMemory, byteSize(least))
	}
	if n := c.maxBufferPerAddr; n != 0 {
		if least := server.MinBufferBytes(server.DefaultMaxBodyBytes); int64(n) < least {
			return fmt.Errorf("--max-buffer-memory-per-address: %s is below the %s one largest request and response need", n, byteSize(least))
		}
		if n > c.maxBufferMemory {
			return fmt.Errorf("--max-buffer-memory-per-address: %s is above --max-buffer-memory %s", n, c.maxBufferMemory)
		}
	}
	return nil
}

// hostPolicy returns the Host check for a listen address and the
// --allowed-hosts flag: on on a loopback address, or wherever hosts are
// listed.
func hostPolicy(listenHost, flag string) (check bool, allowed []string) {
	for _, h := range strings.Split(flag, ",") {
		if h = strings.TrimSpace(h); h != "" {
			allowed = append(allowed, h)
		}
	}
	if len(allowed) > 0 {
		return true, allowed
	}
	if listenHost == "localhost" {
		return true, nil
	}
	ip, err := netip.ParseAddr(strings.Trim(listenHost, "[]"))
	return err == nil && ip.Unmap().IsLoopback(), nil
}

// byteSize is a flag value of bytes written as a number with an optional
// unit: 268435456, 256MiB, 256MB (read as MiB), 1GiB, 512KiB.
type byteSize int64

func (b byteSize) String() string {
	switch {
	case b > 0 && b%(1<<30) == 0:
		return strconv.FormatInt(int64(b>>30), 10) + "GiB"
	case b > 0 && b%(1<<20) == 0:
		return strconv.FormatInt(int64(b>>20), 10) + "MiB"
	case b > 0 && b%(1<<10) == 0:
		return strconv.FormatInt(int64(b>>10), 10) + "KiB"
	}
	return strconv.FormatInt(int64(b), 10)
}

func (b *byteSize) Set(v string) error {
	s := strings.ToUpper(strings.TrimSpace(v))
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"GIB", 1 << 30}, {"GB", 1 << 30}, {"G", 1 << 30}, {"MIB", 1 << 20}, {"MB", 1 << 20}, {"M", 1 << 20}, {"KIB", 1 << 10}, {"KB", 1 << 10}, {"K", 1 << 10}, {"B", 1}} {
		if strings.HasSuffix(s, u.suffix) {
			s, mult = strings.TrimSpace(strings.TrimSuffix(s, u.suffix)), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 || n > (1<<62)/mult {
		return fmt.Errorf("%q is not a size such as 256MiB", v)
	}
	*b = byteSize(n * mult)
	return nil
}

// openData opens the database serve serves: one (--namespace shared), or
// a set opened per access key and region as requests come (account-region).
func openData(env *Env, c serveConfig, log *slog.Logger) (*engine.DB, *namespaces, error) {
	eo := engineOptions(c, log)
	if !c.inMemory && c.store == "" {
		if err := checkWritable(c.dataDir); err != nil {
			return nil, nil, err
		}
	}
	if c.namespace == namespaceAccountRegion {
		ns, err := openNamespaces(eo, c.maxNamespaces)
		return nil, ns, err
	}
	if c.store != "" {
		var err error
		if eo.Store, err = openStore(env.Ctx, c, log); err != nil {
			return nil, nil, err
		}
	}
	db, err := engine.Open(eo)
	if err != nil {
		if eo.Store != nil {
			eo.Store.Close()
		}
		return nil, nil, err
	}
	return db, nil, nil
}

// serverNamespaces returns ns as the server's Namespaces, or nil for none
// (a nil *namespaces in the interface would not be nil).
func serverNamespaces(ns *namespaces) server.Namespaces {
	if ns == nil {
		return nil
	}
	return ns
}

// checkWritable creates the data directory if missing and checks that
// files can be created in it, so that a directory dynago may not write is
// reported as such (and not as one another process holds).
func checkWritable(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		if errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS) {
			return fmt.Errorf("data directory %s cannot be created: its parent is not writable by this user: %w", dir, err)
		}
		return fmt.Errorf("data directory %s cannot be created: %w", dir, err)
	}
	f, err := os.CreateTemp(dir, ".dynago-write-check-*")
	if err != nil {
		if errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS) {
			return fmt.Errorf("data directory %s is not writable by this user: %w", dir, err)
		}
		return fmt.Errorf("data directory %s: %w", dir, err)
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

// startupGCPercent is the garbage collector's target while the server
// starts, until it listens: with the default (100) the heap's first goal,
// 4 MB, is crossed while the engine opens, just after the packages' init
// has filled 2 to 3 MB with tables that all stay live, so a first
// collection ran in every start-up and found next to nothing to free. On a busy machine its
// workers compete with everything else for the CPU: start to the first
// answered request took 11.6 ms against 9.3 ms without it (medians of 30,
// builds alternated, load average 6). 400 puts the first goal at 16 MB.
const startupGCPercent = 400

// postponeGC raises the garbage collector's target to startupGCPercent
// for start-up, unless GOGC already asks for more (or for no collection
// at all), and returns the function that puts the previous target back;
// it may be called more than once.
func postponeGC() (restore func()) {
	prev := debug.SetGCPercent(startupGCPercent)
	if prev < 0 || prev >= startupGCPercent {
		debug.SetGCPercent(prev)
		return func() {}
	}
	var once sync.Once
	return func() { once.Do(func() { debug.SetGCPercent(prev) }) }
}

// listenTCP listens on addr with plain TCP. Go listens with Multipath
// TCP by default where the kernel has it, which only matters to clients
// that ask for it (DynamoDB's endpoints do not offer it, and no SDK asks);
// probing the kernel for it and opening the MPTCP socket were a tenth of
// the server's own start-up.
func listenTCP(ctx context.Context, addr string) (net.Listener, error) {
	var lc net.ListenConfig
	lc.SetMultipathTCP(false)
	return lc.Listen(ctx, "tcp", addr)
}

// serveExchange is where the server's exports go and imports come from:
// --s3-dir, else an S3-compatible server at --s3-endpoint-url (or
// $AWS_ENDPOINT_URL_S3), else nowhere (nil).
func serveExchange(c serveConfig, log *slog.Logger) engine.Exchange {
	if c.s3Dir != "" {
		return exports.New(exports.Config{Dir: c.s3Dir})
	}
	endpoint := c.s3Endpoint
	if endpoint == "" {
		endpoint = os.Getenv("AWS_ENDPOINT_URL_S3")
	}
	if endpoint == "" {
		return nil
	}
	cfg, err := config.LoadDefaultConfig(context.Background())
	if err != nil {
		log.Error("S3 configuration: exports and imports will fail", "err", err)
		return nil
	}
	client := exchange.NewS3Client(cfg, exchange.S3Options{Endpoint: endpoint, PathStyle: true})
	return exports.New(exports.Config{S3: client})
}
