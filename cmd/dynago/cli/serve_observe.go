package cli

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/engine"
	"github.com/dynago/dynago/partiql"
	"github.com/dynago/dynago/server"
	"github.com/dynago/dynago/server/console"
	"github.com/dynago/dynago/server/sigv4"
)

// What serve shows of itself and how it guards its door: metrics, the
// log's format, profiling, the console, signatures and TLS.
type observeConfig struct {
	metrics   string // "on", "off" or a listen address
	logFormat string // "text" or "json"
	pprof     string // listen address, "" for off
	console   string // "on" or "off"
	auth      string // credentials file, "" for any signature
	tlsCert   string
	tlsKey    string
}

func observeFlags(fs *flagSet, c *observeConfig) {
	fs.StringVar(&c.metrics, "metrics", "on", "Prometheus metrics: \"on\" serves them at /metrics on the API's port, an\n"+
		"address (such as 127.0.0.1:9100) on a listener of their own, \"off\" not at all.\n"+
		"Requests by operation and outcome, latency, capacity units by table and index,\n"+
		"items and bytes, streams, TTL, transactions, and the store's own figures")
	fs.StringVar(&c.logFormat, "log-format", "text", "log line format: \"text\" (key=value) or \"json\" (one object a line). With\n"+
		"--log-level debug every API request is logged: operation, table, index, status,\n"+
		"error type, latency, capacity units and request id")
	fs.StringVar(&c.pprof, "pprof", "", "serve Go's profiler (net/http/pprof, under /debug/pprof/) on this address,\n"+
		"such as 127.0.0.1:6060, a listener apart from the API's. Default: off")
	fs.StringVar(&c.console, "console", "on", "the web console at /console on the API's port: \"on\" or \"off\"")
	fs.StringVar(&c.auth, "auth", "", "require AWS Signature Version 4 on every request, by a key in this file:\n"+
		"one \"ACCESS_KEY_ID SECRET_ACCESS_KEY [ACCOUNT_ID] [token=SESSION_TOKEN]\" a line,\n"+
		"# starts a comment. Wrong or missing signatures get DynamoDB's errors\n"+
		"(docs/AUTH.md). Default: any signature or none is accepted")
	fs.StringVar(&c.tlsCert, "tls-cert", "", "serve HTTPS with this certificate (PEM; with --tls-key)")
	fs.StringVar(&c.tlsKey, "tls-key", "", "the private key of --tls-cert (PEM)")
}

// check validates the observe flags before anything is opened.
func (c observeConfig) check() error {
	switch c.logFormat {
	case "text", "json":
	default:
		return fmt.Errorf("--log-format: %q is not one of text, json", c.logFormat)
	}
	switch c.console {
	case "on", "off":
	default:
		return fmt.Errorf("--console: %q is not one of on, off", c.console)
	}
	if c.metrics != "on" && c.metrics != "off" {
		if _, _, err := net.SplitHostPort(c.metrics); err != nil {
			return fmt.Errorf("--metrics: %q is not on, off or a host:port address", c.metrics)
		}
	}
	if (c.tlsCert == "") != (c.tlsKey == "") {
		return errors.New("--tls-cert and --tls-key go together: give both or neither")
	}
	return nil
}

// loadTLS loads --tls-cert and --tls-key, so that a bad pair fails the
// start rather than the first connection. nil without them.
func loadTLS(c observeConfig) (*tls.Config, error) {
	if c.tlsCert == "" {
		return nil, nil
	}
	cert, err := tls.LoadX509KeyPair(c.tlsCert, c.tlsKey)
	if err != nil {
		return nil, fmt.Errorf("--tls-cert, --tls-key: %w", err)
	}
	return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}, nil
}

// newLogger returns serve's logger in the chosen format.
func newLogger(w io.Writer, format string, level slog.Level) *slog.Logger {
	opts := &slog.HandlerOptions{Level: level}
	if format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// loadAuth reads --auth's credentials file.
func loadAuth(path string) (*sigv4.Verifier, error) {
	if path == "" {
		return nil, nil
	}
	creds, err := sigv4.LoadCredentials(path)
	if err != nil {
		return nil, fmt.Errorf("--auth: %w", err)
	}
	if creds.Len() == 0 {
		return nil, fmt.Errorf("--auth: %s holds no credentials: every request would be refused", path)
	}
	return sigv4.NewVerifier(creds), nil
}

// frontHandler puts what serve adds beside the API in front of it: the
// console and /metrics on the API's port. It returns the handler and a
// function stopping what it started.
func frontHandler(ctx context.Context, api *server.Server, metrics *server.Metrics, c observeConfig) (http.Handler, func()) {
	var h http.Handler = api
	stop := func() {}
	if c.console == "on" {
		rctx, cancel := context.WithCancel(ctx)
		stop = cancel
		h = console.With(api, console.Options{
			Explain:     explainFor(api),
			Capacity:    capacityFor(rctx, api),
			TopKeys:     topKeysFor(api),
			HostAllowed: api.HostAllowed,
			Signatures:  api.Auth() != nil,
			PerAccount:  api.PerAccount(),
		})
		if auth := api.Auth(); auth != nil {
			// The page's files are GETs, let through; every POST, the
			// console's own endpoints included, must be signed (the
			// page signs with the credentials it is given).
			inner := h
			consoleAPI := auth.Handler(inner)
			h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if strings.HasPrefix(r.URL.Path, console.Prefix) {
					consoleAPI.ServeHTTP(w, r)
					return
				}
				inner.ServeHTTP(w, r)
			})
		}
	}
	if metrics != nil && c.metrics == "on" {
		inner := h
		mh := api.GuardHost(metrics.Handler())
		h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/metrics" && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
				mh.ServeHTTP(w, r)
				return
			}
			inner.ServeHTTP(w, r)
		})
	}
	return h, stop
}

// capacityFor is the console's capacity over time: a Recorder of the
// meters of the caller's database (with --namespace account-region, each
// access key and region sees its own tables' only), started the first
// time that database's capacity is asked for and run until ctx ends.
func capacityFor(ctx context.Context, api *server.Server) func(*http.Request) ([]console.CapacitySample, error) {
	var mu sync.Mutex
	recs := map[*engine.DB]*console.Recorder{}
	// The server's own database (no namespaces) is charted from the
	// start, not from the first look at the chart.
	for _, db := range api.DBs() {
		rec := console.NewRecorder(capacityTotals(db), 5*time.Second, 720)
		recs[db] = rec
		go rec.Run(ctx)
	}
	return func(r *http.Request) ([]console.CapacitySample, error) {
		db, err := api.DBFor(r)
		if err != nil {
			var ee *dynamo.Error
			if errors.As(err, &ee) {
				return nil, &console.Error{Type: ee.Code, Message: ee.Message}
			}
			return nil, err
		}
		mu.Lock()
		rec := recs[db]
		if rec == nil {
			rec = console.NewRecorder(capacityTotals(db), 5*time.Second, 720)
			recs[db] = rec
			go rec.Run(ctx)
		}
		mu.Unlock()
		return rec.Samples(r)
	}
}

// topKeysFor is the console's top keys of a table or index of the
// caller's database (engine.DB.TopKeys).
func topKeysFor(api *server.Server) func(*http.Request, string, string) (any, error) {
	return func(r *http.Request, table, index string) (any, error) {
		db, err := api.DBFor(r)
		if err == nil {
			var out *engine.TopKeysReport
			if out, err = db.TopKeys(table, index, 10); err == nil {
				return out, nil
			}
		}
		var ee *dynamo.Error
		if errors.As(err, &ee) {
			return nil, &console.Error{Type: ee.Code, Message: ee.Message}
		}
		return nil, err
	}
}

// capacityTotals are a database's capacity totals for a Recorder: each
// table's and each index's meters.
func capacityTotals(db *engine.DB) func() []console.CapacityTotal {
	return func() []console.CapacityTotal {
		var out []console.CapacityTotal
		for _, t := range db.Meters().Tables {
			out = append(out, console.CapacityTotal{Table: t.Table, ReadUnits: t.Units.ReadUnits, WriteUnits: t.Units.WriteUnits})
			for name, u := range t.Indexes {
				out = append(out, console.CapacityTotal{Table: t.Table, Index: name, ReadUnits: u.ReadUnits, WriteUnits: u.WriteUnits})
			}
		}
		return out
	}
}

// explainFor is the console's PartiQL explanation: package partiql's plan of a
// statement over the tables of the caller's database.
func explainFor(api *server.Server) func(*http.Request, string, bool) (any, error) {
	return func(r *http.Request, stmt string, consistent bool) (any, error) {
		db, err := api.DBFor(r)
		if err == nil {
			var e *partiql.Explanation
			e, err = partiql.ExplainStatement(&partiql.ExplainInput{Statement: stmt, ConsistentRead: consistent},
				func(table string) (*dynamo.TableDescription, error) {
					out, err := db.DescribeTable(&dynamo.DescribeTableInput{TableName: table})
					if err != nil {
						return nil, err
					}
					return out.Table, nil
				})
			if err == nil {
				return e, nil
			}
		}
		var ee *dynamo.Error
		if errors.As(err, &ee) {
			return nil, &console.Error{Type: ee.Code, Message: ee.Message}
		}
		return nil, err
	}
}

// sideListener serves h on addr apart from the API (metrics, pprof) until
// the returned function is called.
func sideListener(addr, what string, h http.Handler, log *slog.Logger) (func(), error) {
	ln, err := listenTCP(context.Background(), addr)
	if err != nil {
		return nil, fmt.Errorf("%s: listen on %s: %w", what, addr, err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	log.Info(what+" serving", "addr", "http://"+ln.Addr().String())
	return func() { srv.Close() }, nil
}

// sideGuard applies the DNS-rebinding check to a listener apart from the
// API's: on a loopback address (or "localhost") it answers only requests
// for loopback names and --allowed-hosts, as the API does on one.
func sideGuard(addr, allowedHosts string, log *slog.Logger, h http.Handler) http.Handler {
	host, _, _ := net.SplitHostPort(addr)
	check, allowed := hostPolicy(host, allowedHosts)
	return server.HostGuard(check, allowed, log, h)
}

// pprofHandler serves net/http/pprof's pages. Its command line is args
// with every secret redacted (redactArgs): a --store URL may carry the
// database's password, and pprof's own page would show it to anyone who
// can reach the listener.
func pprofHandler(args []string) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	shown := strings.Join(redactArgs(args), "\x00")
	mux.HandleFunc("/debug/pprof/cmdline", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		io.WriteString(w, shown)
	})
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return mux
}

// redacted stands for a secret taken out of a command line.
const redacted = "REDACTED"

// redactArgs returns args with the secrets it can recognise replaced by
// redacted: the password of any URL (postgres://user:secret@host/db), and
// the value of a password= or sslpassword= keyword in a key=value
// connection string. Nothing else on dynago's command line is secret:
// --auth names a file, it does not hold keys.
func redactArgs(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = redactArg(a)
	}
	return out
}

var (
	urlPassword     = regexp.MustCompile(`(://[^:/@\s]*:)[^@\s]*@`)
	keywordPassword = regexp.MustCompile(`(?i)(\b(?:ssl)?password\s*=\s*)('(?:[^'\\]|\\.)*'|[^\s&]*)`)
)

func redactArg(a string) string {
	a = urlPassword.ReplaceAllString(a, "${1}"+redacted+"@")
	return keywordPassword.ReplaceAllString(a, "${1}"+redacted)
}
