package pgstore

import (
	"bytes"
	"context"
	crand "crypto/rand"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dynago/dynago/internal/pgtest"
	"github.com/dynago/dynago/internal/storage"
)

// testLogger sends the store's warnings to the test log.
func testLogger(t testing.TB) *slog.Logger {
	return slog.New(slog.NewTextHandler(tlogWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

type tlogWriter struct{ t testing.TB }

func (w tlogWriter) Write(p []byte) (int, error) {
	w.t.Log(string(bytes.TrimRight(p, "\n")))
	return len(p), nil
}

// openTest opens a store on a fresh schema.
func openTest(t testing.TB, o Options) *Store {
	t.Helper()
	u, schema := pgtest.Schema(t)
	o.URL, o.Schema = u, schema
	return openWith(t, o)
}

// openWith opens a store with o as given, closed when the test ends.
func openWith(t testing.TB, o Options) *Store {
	t.Helper()
	if o.Logger == nil {
		o.Logger = testLogger(t)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := Open(ctx, o)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func set(t testing.TB, s storage.Store, kv ...string) {
	t.Helper()
	b := s.NewBatch()
	for i := 0; i < len(kv); i += 2 {
		if err := b.Set([]byte(kv[i]), []byte(kv[i+1])); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Commit(); err != nil {
		t.Fatalf("commit: %v", err)
	}
}

func get(t testing.TB, r storage.Reader, key string) (string, bool) {
	t.Helper()
	v, ok, err := r.Get([]byte(key), nil)
	if err != nil {
		t.Fatalf("get %q: %v", key, err)
	}
	return string(v), ok
}

// scan lists the keys of [lower, upper) forward.
func scan(t testing.TB, r storage.Reader, lower, upper []byte) []string {
	t.Helper()
	it, err := r.NewIter(lower, upper)
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	var out []string
	for ok := it.First(); ok; ok = it.Next() {
		out = append(out, string(it.Key()))
	}
	if err := it.Error(); err != nil {
		t.Fatalf("iterate: %v", err)
	}
	return out
}

// shrinkPages makes iterator pages tiny for the rest of the test.
func shrinkPages(t testing.TB, first, most, bytes int) {
	f, m, b := firstPageRows, maxPageRows, maxPageBytes
	firstPageRows, maxPageRows, maxPageBytes = first, most, bytes
	t.Cleanup(func() { firstPageRows, maxPageRows, maxPageBytes = f, m, b })
}

// roundTrips counts, over the connections dialled while it is installed,
// how many times a connection read after writing: one per round trip.
type roundTrips struct {
	n atomic.Int64
	// breakOnCommit cuts the next connection that sends anything, right
	// after sending it.
	breakOnCommit atomic.Bool
}

func countRoundTrips(t testing.TB) *roundTrips {
	rt := &roundTrips{}
	d := &net.Dialer{}
	testDial = func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := d.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return &countingConn{Conn: c, rt: rt}, nil
	}
	t.Cleanup(func() { testDial = nil })
	return rt
}

type countingConn struct {
	net.Conn
	rt      *roundTrips
	written atomic.Bool
}

func (c *countingConn) Write(p []byte) (int, error) {
	c.written.Store(true)
	n, err := c.Conn.Write(p)
	if c.rt.breakOnCommit.Load() {
		// The pipeline went out; the answer never comes back.
		c.rt.breakOnCommit.Store(false)
		c.Conn.Close()
	}
	return n, err
}

func (c *countingConn) Read(p []byte) (int, error) {
	if c.written.Swap(false) {
		c.rt.n.Add(1)
	}
	return c.Conn.Read(p)
}

func runtimeGC() { runtime.GC() }

func rand32(b []byte) { crand.Read(b) }

// dbCPU reads the CPU time of the PostgreSQL server the tests use, from
// /proc: the postmaster's and its children's (Linux only; nothing
// elsewhere, or without DYNAGO_TEST_POSTGRES_PGDATA).
type dbCPU struct {
	pid   string
	start time.Duration
}

func newDBCPU(t testing.TB) *dbCPU {
	data := os.Getenv("DYNAGO_TEST_POSTGRES_PGDATA")
	if data == "" {
		return &dbCPU{}
	}
	raw, err := os.ReadFile(filepath.Join(data, "postmaster.pid"))
	if err != nil {
		return &dbCPU{}
	}
	pid, _, _ := strings.Cut(string(raw), "\n")
	c := &dbCPU{pid: strings.TrimSpace(pid)}
	c.start = c.read()
	return c
}

// read sums utime and stime of the postmaster and its children, in
// clock ticks of 10 ms.
func (c *dbCPU) read() time.Duration {
	ents, _ := os.ReadDir("/proc")
	var ticks int64
	for _, e := range ents {
		raw, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// The fields after the command name, which ends at the last ')'.
		i := strings.LastIndexByte(string(raw), ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(raw[i+1:]))
		if len(f) < 13 || (e.Name() != c.pid && f[1] != c.pid) {
			continue
		}
		u, _ := strconv.ParseInt(f[11], 10, 64)
		s, _ := strconv.ParseInt(f[12], 10, 64)
		ticks += u + s
	}
	return time.Duration(ticks) * 10 * time.Millisecond
}

func (c *dbCPU) report(b *testing.B) {
	if c.pid == "" {
		return
	}
	b.ReportMetric(float64((c.read()-c.start).Microseconds())/float64(b.N), "db-us/op")
}
