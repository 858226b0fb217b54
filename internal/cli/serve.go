package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"runtime/pprof"
	"strconv"
	"time"

	"github.com/dynago/dynago/engine"
	"github.com/dynago/dynago/server"
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

The same endpoint serves DynamoDB Streams (ListStreams, DescribeStream,
GetShardIterator, GetRecords):

  aws dynamodbstreams list-streams --endpoint-url http://127.0.0.1:8000

Time to Live deletes expired items in the background (see
--ttl-sweep-interval). Tests that cannot wait can sweep on demand with a
request that is dynago's own, not part of any AWS API:

  curl -X POST http://127.0.0.1:8000/dynago/ttl/sweep
  {"Deleted":3}

It deletes every expired item at once and answers how many it deleted.`

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
}

func runServe(env *Env, args []string) error {
	var c serveConfig
	fs := newFlagSet(env, "serve", serveSynopsis)
	fs.StringVar(&c.host, "host", "127.0.0.1", "address to listen on; use 0.0.0.0 to accept connections from other machines")
	fs.IntVar(&c.port, "port", 8000, "TCP port to listen on (0 picks a free port and logs it)")
	fs.StringVar(&c.dataDir, "data-dir", "./dynago-data", "directory holding the data; created if missing, and locked so only one server uses it")
	fs.BoolVar(&c.inMemory, "in-memory", false, "keep all data in memory and write nothing to disk (for tests); everything is lost on exit")
	fs.BoolVar(&c.sync, "sync", false, "fsync the write-ahead log before acknowledging each write, so acknowledged writes survive\n"+
		"a power loss or kernel crash. Off by default: every write still reaches the OS before it is\n"+
		"acknowledged, so a crash of dynago itself loses nothing, and writes are many times faster")
	fs.StringVar(&c.logLevel, "log-level", "info", "log verbosity: debug, info, warn or error")
	fs.DurationVar(&c.shutdown, "shutdown-timeout", 30*time.Second, "how long to wait for requests in flight on shutdown")
	fs.StringVar(&c.cpuProf, "cpuprofile", "", "write a Go CPU profile of the whole run to this file at shutdown, for\n"+
		"\"go tool pprof\"; off by default")
	fs.DurationVar(&c.ttlSweepInterval, "ttl-sweep-interval", time.Second, "how often Time to Live deletes expired items: those whose TTL attribute is a\n"+
		"Number of epoch seconds in the past, at most five years back. DynamoDB takes up\n"+
		"to a few days; dynago sweeps every second by default. 0 turns the background\n"+
		"sweeper off: expired items then stay until POST /dynago/ttl/sweep")
	fs.DurationVar(&c.ttlChangeCooldown, "ttl-change-cooldown", time.Hour, "how long after an UpdateTimeToLive a further change to the same table is\n"+
		"refused, as DynamoDB refuses it for an hour. 0 never refuses: for test suites\n"+
		"that toggle TTL")
	fs.DurationVar(&c.streamShardDuration, "stream-shard-duration", 4*time.Hour, "how long a stream shard stays open before the stream rolls over to a child\n"+
		"shard, as DynamoDB does about every four hours. A short one (say 1s) lets tests\n"+
		"exercise readers that follow shard lineage")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	return serve(env, c, nil)
}

// engineOptions maps serve's flags to the engine's options.
func engineOptions(c serveConfig, log *slog.Logger) engine.Options {
	o := engine.Options{
		Dir:                 c.dataDir,
		InMemory:            c.inMemory,
		Sync:                c.sync,
		Logger:              log,
		StreamShardDuration: c.streamShardDuration,
		TTLChangeCooldown:   c.ttlChangeCooldown,
		TTLSweepInterval:    c.ttlSweepInterval,
	}
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
	if c.streamShardDuration <= 0 {
		return fmt.Errorf("--stream-shard-duration: %v is not a positive duration", c.streamShardDuration)
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(c.logLevel)); err != nil {
		return fmt.Errorf("--log-level: %q is not one of debug, info, warn, error", c.logLevel)
	}
	log := slog.New(slog.NewTextHandler(env.Stderr, &slog.HandlerOptions{Level: level}))

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
	db, err := engine.Open(engineOptions(c, log))
	if err != nil {
		return err
	}
	addr := net.JoinHostPort(c.host, strconv.Itoa(c.port))
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		db.Close()
		return fmt.Errorf("listen on %s: %w", addr, err)
	}
	srv := &http.Server{
		Handler:           server.New(db, server.Config{Logger: log}),
		ReadHeaderTimeout: 30 * time.Second,
		IdleTimeout:       5 * time.Minute,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelDebug),
	}
	storageDesc := "in memory"
	if !c.inMemory {
		storageDesc = c.dataDir
	}
	log.Info("dynago serving", "addr", "http://"+ln.Addr().String(), "data", storageDesc, "sync", c.sync && !c.inMemory, "startup", time.Since(start).Round(time.Microsecond))
	if ready != nil {
		ready <- ln.Addr().String()
	}

	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
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
		db.Close()
		return err
	}
	if err := db.Close(); err != nil {
		return fmt.Errorf("close data: %w", err)
	}
	log.Info("dynago stopped")
	return nil
}
