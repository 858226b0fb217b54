// Package pgstore is the shared store: storage.Store on PostgreSQL, so that
// several dynago processes can serve one database. It speaks only SQL that
// PostgreSQL, CockroachDB and YugabyteDB all accept: no extensions, no
// functions of its own, no advisory locks, no LISTEN/NOTIFY.
//
// # Tables
//
// Everything lives in one schema (Options.Schema, default "dynago"):
//
//	schema_version(id int PRIMARY KEY, version int)      one row, id 1
//	kv(k bytea PRIMARY KEY, v bytea)                     the keys and values
//	counters(k bytea PRIMARY KEY, c0..c3 bigint)         folded counters
//	counter_deltas(k bytea, id bytea, c0..c3 bigint,
//	               PRIMARY KEY (k, id))                  counter additions
//	counter_keys(k bytea PRIMARY KEY)                    keys that have counters
//	fold_lock(id int PRIMARY KEY)                        one row, id 1
//
// bytea compares bytewise (memcmp, then the shorter first), which is the
// order storage.Store promises, so a key range is one index range.
//
// # Counters
//
// Batch.AddCounters inserts one row into counter_deltas under a random id,
// so adding never updates a shared row: two batches adding to the same
// counter neither wait for nor conflict with each other. Reader.Counters
// sums the folded row and the deltas. A folder (a goroutine of every open
// Store) moves deltas into counters in a serializable transaction every
// Options.FoldInterval. Folds take turns through a row lock on fold_lock
// (SELECT ... FOR UPDATE SKIP LOCKED: a process finding it taken skips
// its turn), because two overlapping folds would read each other's
// deletions and PostgreSQL would resolve that cycle by aborting a batch
// that added to a counter meanwhile.
//
// counter_keys records every key that ever had a counter (the first
// AddCounters inserts it, ON CONFLICT DO NOTHING). Delete and DeleteRange
// remove counters too; a point Delete first asks counter_keys, so deleting
// an ordinary key never reads the counter tables (under PostgreSQL's
// serializable isolation such a read would make the delete conflict with
// every concurrent counter addition, since its predicate locks are taken
// per index page).
//
// # Commits
//
// A batch commits in one SERIALIZABLE transaction sent as one pipeline:
// BEGIN, one statement per expectation, the writes, COMMIT, so a commit
// costs one round trip when statements are already prepared on the
// connection. A batch of many keys (a BatchWriteItem's) checks its
// expectations on keys in one statement and sets its rows in one, over
// arrays; a few keys keep a statement each, which costs PostgreSQL less. An expectation is a SELECT that divides by zero when the key
// no longer holds what was read, which aborts the transaction before any
// write applies; Commit reports that as storage.ErrConflict. Serialization
// failures and deadlocks are retried with the expectations. A commit
// whose connection broke after the pipeline was sent has an unknown
// outcome and is not retried (ErrCommitUnknown).
//
// # Reads
//
// Get, View and Counters are single statements, each reading one snapshot.
// An iterator of the Store reads in pages by keyset (k > last ORDER BY k
// LIMIT n, or DESC), inside a READ ONLY REPEATABLE READ transaction that
// holds one pooled connection until Close; an iterator whose first page
// holds its whole range needs no transaction and holds no connection. A
// Snapshot is a SERIALIZABLE READ ONLY DEFERRABLE transaction, which on
// PostgreSQL never fails with a serialization error; it too holds a
// connection until Close.
//
// # What a caller must know
//
//   - An iterator that outgrows its first page, and every Snapshot, holds
//     a pooled connection and an open transaction until Close: close them
//     promptly (Close of the Store releases any left open; an iterator
//     dropped unclosed is released when the garbage collector finds it,
//     with a warning). A transaction held open also holds back the
//     server's vacuum. At most half the pool is held so at once (more
//     wait their turn), so a holder's own Get always finds a connection.
//   - Counters are not values: Get and iterators do not see them (Pebble
//     shows its merged counters to Get), and Set on a counter key leaves
//     its counters alone.
//   - Reading counters and then adding to them is not an atomic increment
//     across processes; only an Expect on a real key makes it one.
//   - Under PostgreSQL's SERIALIZABLE isolation, predicate locks are per
//     index page, so batches writing different keys that share a page can
//     fail with a serialization error; Commit retries those (up to 50
//     attempts), and they never surface as ErrConflict. They are frequent
//     only while a table is a few pages small.
//   - A DeleteRange is one transaction, however many rows it removes.
//   - Commit may fail with ErrCommitUnknown: the batch may have applied.
//
// # Durability
//
// Commit returns after the database's COMMIT returned: with PostgreSQL's
// default synchronous_commit the transaction is in the server's
// write-ahead log, flushed to disk.
package pgstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dynago/dynago/internal/storage"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// The Store implements the storage interfaces.
var (
	_ storage.Store    = (*Store)(nil)
	_ storage.Snapshot = (*snapshot)(nil)
	_ storage.Iter     = (*iter)(nil)
	_ storage.Batch    = (*batch)(nil)
)

// Options configure Open.
type Options struct {
	// URL is the database's connection string, as pgx accepts it
	// ("postgres://user:password@host:port/database?sslmode=..." or the
	// key=value form). A connect_timeout it does not give is 5 seconds.
	URL string
	// Schema holds the store's tables; it is created if missing.
	// Default "dynago".
	Schema string
	// MaxConns bounds the pool's connections. Default: 4 per GOMAXPROCS,
	// at least 16. Every open iterator that outgrows its first page and
	// every open Snapshot holds one until closed.
	MaxConns int32
	// StatementTimeout is the server's statement_timeout for every
	// connection; 0 leaves the server's setting.
	StatementTimeout time.Duration
	// CallTimeout bounds each call from this side (Get, View, Counters, a
	// page of an iterator, a whole Commit with its retries), including the
	// wait for a pooled connection. Default 30 s; negative for none.
	CallTimeout time.Duration
	// FoldInterval is how often deltas are folded into counters. Default
	// 1 s; negative disables the folder (Fold still works).
	FoldInterval time.Duration
	// Logger receives the store's log lines. Default: discard. Values and
	// passwords are never logged.
	Logger *slog.Logger
}

// Defaults.
const (
	DefaultSchema       = "dynago"
	defaultCallTimeout  = 30 * time.Second
	defaultFoldInterval = time.Second
	connectTimeout      = 5 * time.Second
	// openTimeout bounds Open's first contact with the database.
	openTimeout = 10 * time.Second
	// maxCounters is how many counters one key holds.
	maxCounters = 4
)

// ErrCommitUnknown is wrapped by Commit's error when the connection broke
// after the transaction was sent: it may or may not have been applied.
var ErrCommitUnknown = errors.New("pgstore: the connection broke during commit; the batch may or may not have been applied")

// errClosed is returned by calls on a closed store, snapshot or iterator.
var errClosed = errors.New("pgstore: closed")

// flavor is the database product behind the connection.
type flavor int

const (
	flavorPostgres flavor = iota
	flavorCockroach
	flavorYugabyte
)

func (f flavor) String() string {
	switch f {
	case flavorCockroach:
		return "cockroachdb"
	case flavorYugabyte:
		return "yugabytedb"
	}
	return "postgresql"
}

// flavorOf tells the product from what the server reported at connect.
func flavorOf(c *pgconn.PgConn) flavor {
	if c.ParameterStatus("crdb_version") != "" {
		return flavorCockroach
	}
	if strings.Contains(c.ParameterStatus("server_version"), "-YB-") {
		return flavorYugabyte
	}
	return flavorPostgres
}

// Store is an open PostgreSQL store. It is safe for concurrent use.
type Store struct {
	pool        *pgxpool.Pool
	log         *slog.Logger
	schema      string
	flavor      flavor
	callTimeout time.Duration
	q           queries

	// ctx is cancelled by Close; the folder and every call derive from it.
	ctx    context.Context
	cancel context.CancelFunc
	folder sync.WaitGroup

	// held are the connections iterators and snapshots hold, released by
	// Close if their owners did not.
	mu     sync.Mutex
	held   map[*holder]struct{}
	closed bool
	// holdSlots bounds the connections iterators and snapshots hold to
	// half the pool. A caller that holds one may still need another for
	// a Get (an index read fetching items, a backfill checking entries);
	// with at most half held, the other half always serves those, so
	// holders can never take every connection and wait on each other.
	holdSlots chan struct{}

	// retries counts the commit attempts retried after a serialization
	// failure or deadlock.
	retries atomic.Int64
	// tracer counts statements and their time (Stats).
	tracer *tracer
}

// testDial replaces the dialer in tests that count round trips.
var testDial pgconn.DialFunc

// Open connects to the database, creates or upgrades the schema, and
// starts the folder. It fails within about ten seconds (or ctx's deadline)
// when the database cannot be reached.
func Open(ctx context.Context, o Options) (*Store, error) {
	logger := o.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if o.Schema == "" {
		o.Schema = DefaultSchema
	}
	if o.URL == "" {
		return nil, errors.New("pgstore: no database URL given")
	}
	cfg, err := pgxpool.ParseConfig(o.URL)
	if err != nil {
		// pgx's parse errors leave the password out.
		return nil, fmt.Errorf("pgstore: database URL: %w", err)
	}
	if o.MaxConns < 0 || o.MaxConns == 1 {
		// One connection cannot serve a caller that holds an iterator's
		// and needs another for a Get (see Store.holdSlots).
		return nil, fmt.Errorf("pgstore: MaxConns %d: use 0 (the default) or at least 2", o.MaxConns)
	}
	cc := cfg.ConnConfig
	if cc.ConnectTimeout == 0 {
		cc.ConnectTimeout = connectTimeout
	}
	if cc.RuntimeParams == nil {
		cc.RuntimeParams = map[string]string{}
	}
	if _, ok := cc.RuntimeParams["application_name"]; !ok {
		cc.RuntimeParams["application_name"] = "dynago"
	}
	if o.StatementTimeout > 0 {
		cc.RuntimeParams["statement_timeout"] = strconv.FormatInt(o.StatementTimeout.Milliseconds(), 10)
	}
	if o.MaxConns > 0 {
		cfg.MaxConns = o.MaxConns
	} else {
		cfg.MaxConns = int32(max(16, 4*runtime.GOMAXPROCS(0)))
	}
	if testDial != nil {
		cc.DialFunc = testDial
	}
	tr := &tracer{}
	cc.Tracer = tr
	cfg.AfterConnect = func(ctx context.Context, c *pgx.Conn) error {
		if flavorOf(c.PgConn()) == flavorPostgres {
			// PostgreSQL's serializable isolation locks a whole table
			// for a sequential scan, making every transaction that reads
			// it conflict with every writer; its manual advises steering
			// the planner to index scans, and every statement here is
			// keyed by an index.
			if _, err := c.Exec(ctx, "SET enable_seqscan = off"); err != nil {
				return err
			}
		}
		return nil
	}
	where := net.JoinHostPort(cc.Host, strconv.Itoa(int(cc.Port)))
	if strings.HasPrefix(cc.Host, "/") {
		where = cc.Host
	}

	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("pgstore: %w", err)
	}
	octx, ocancel := context.WithTimeout(ctx, openTimeout)
	defer ocancel()
	conn, err := pool.Acquire(octx)
	if err != nil {
		pool.Close()
		return nil, fmt.Errorf("pgstore: cannot connect to the database at %s (user %q, database %q): %w", where, cc.User, cc.Database, err)
	}
	fl := flavorOf(conn.Conn().PgConn())
	conn.Release()

	callTimeout := o.CallTimeout
	if callTimeout == 0 {
		callTimeout = defaultCallTimeout
	}
	sctx, cancel := context.WithCancel(context.Background())
	s := &Store{
		pool:        pool,
		log:         logger,
		schema:      o.Schema,
		flavor:      fl,
		callTimeout: callTimeout,
		q:           makeQueries(o.Schema),
		ctx:         sctx,
		cancel:      cancel,
		held:        map[*holder]struct{}{},
		holdSlots:   make(chan struct{}, max(1, cfg.MaxConns/2)),
		tracer:      tr,
	}
	if err := s.migrate(octx); err != nil {
		cancel()
		pool.Close()
		return nil, err
	}
	s.log.Info("pgstore: opened", "server", where, "database", cc.Database, "schema", o.Schema, "flavor", fl.String(), "max_conns", cfg.MaxConns)

	fold := o.FoldInterval
	if fold == 0 {
		fold = defaultFoldInterval
	}
	if fold > 0 {
		s.folder.Add(1)
		go s.foldLoop(fold)
	}
	return s, nil
}

// Close stops the folder, releases the connections of iterators and
// snapshots still open (their later calls fail) and closes the pool.
func (s *Store) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	held := make([]*holder, 0, len(s.held))
	for h := range s.held {
		held = append(held, h)
	}
	s.mu.Unlock()
	s.cancel()
	s.folder.Wait()
	for _, h := range held {
		h.release(false)
	}
	s.pool.Close()
	return nil
}

// Shared implements storage.Store: other processes may write the database.
func (s *Store) Shared() bool { return true }

// Ping implements storage.Store.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.pool.Ping(ctx); err != nil {
		return fmt.Errorf("pgstore: ping: %w", err)
	}
	return nil
}

// callCtx is the context of one call.
func (s *Store) callCtx() (context.Context, context.CancelFunc) {
	if s.callTimeout < 0 {
		return context.WithCancel(s.ctx)
	}
	return context.WithTimeout(s.ctx, s.callTimeout)
}

// Get implements storage.Reader.
func (s *Store) Get(key, dst []byte) ([]byte, bool, error) {
	ctx, cancel := s.callCtx()
	defer cancel()
	return getRow(ctx, s.pool, s.q.get, key, dst)
}

// GetMany implements storage.MultiGetter: one statement for every key.
func (s *Store) GetMany(keys [][]byte) ([][]byte, []bool, error) {
	ctx, cancel := s.callCtx()
	defer cancel()
	vals, found := make([][]byte, len(keys)), make([]bool, len(keys))
	rows, err := s.pool.Query(ctx, s.q.getMany, keys)
	if err != nil {
		return nil, nil, fmt.Errorf("pgstore: get many: %w", err)
	}
	defer rows.Close()
	at := make(map[string][]int, len(keys))
	for i, k := range keys {
		at[string(k)] = append(at[string(k)], i)
	}
	for rows.Next() {
		k, err := rawBytes(rows, 0)
		if err != nil {
			return nil, nil, err
		}
		v, err := rawBytes(rows, 1)
		if err != nil {
			return nil, nil, err
		}
		for _, i := range at[string(k)] {
			vals[i], found[i] = bytes.Clone(v), true
		}
	}
	if err := rows.Err(); err != nil {
		return nil, nil, fmt.Errorf("pgstore: get many: %w", err)
	}
	return vals, found, nil
}

// View implements storage.Store. fn runs while the row is still in the
// connection's buffer, holding the connection: it must not wait for
// another call on this store when the pool may be exhausted.
func (s *Store) View(key []byte, fn func(value []byte) error) (bool, error) {
	ctx, cancel := s.callCtx()
	defer cancel()
	rows, err := s.pool.Query(ctx, s.q.get, key)
	if err != nil {
		return false, fmt.Errorf("pgstore: get: %w", err)
	}
	defer rows.Close()
	if !rows.Next() {
		rows.Close()
		if err := rows.Err(); err != nil {
			return false, fmt.Errorf("pgstore: get: %w", err)
		}
		return false, nil
	}
	v, err := rawBytes(rows, 0)
	if err != nil {
		return false, err
	}
	if err := fn(v); err != nil {
		return true, err
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return false, fmt.Errorf("pgstore: get: %w", err)
	}
	return true, nil
}

// Counters implements storage.Reader.
func (s *Store) Counters(key []byte, n int) ([]int64, error) {
	ctx, cancel := s.callCtx()
	defer cancel()
	return readCounters(ctx, s.pool, s.q.counters, key, n)
}

// NewIter implements storage.Reader. The iterator holds a pooled
// connection from its first page that does not hold its whole range until
// Close: close it promptly.
func (s *Store) NewIter(lower, upper []byte) (storage.Iter, error) {
	if s.ctx.Err() != nil {
		return nil, errClosed
	}
	return newIter(s, nil, lower, upper), nil
}

// NewIterAtMost implements storage.AtMostIterStore: the first page holds
// the n keys the caller will visit at most (up to a page's bounds) and
// is read by itself, without a transaction; a caller that goes past them
// reads the rest in a read-only transaction begun then.
func (s *Store) NewIterAtMost(lower, upper []byte, n int) (storage.Iter, error) {
	if s.ctx.Err() != nil {
		return nil, errClosed
	}
	it := newIter(s, nil, lower, upper)
	if n > 0 {
		it.atMost = n
		it.limit = min(n, maxPageRows)
	}
	return it, nil
}

// NewSnapshot implements storage.Store. The snapshot holds a pooled
// connection until Close.
func (s *Store) NewSnapshot() (storage.Snapshot, error) {
	ctx, cancel := s.callCtx()
	defer cancel()
	if err := s.takeSlot(ctx); err != nil {
		return nil, fmt.Errorf("pgstore: snapshot: %w", err)
	}
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		s.giveSlot()
		return nil, fmt.Errorf("pgstore: snapshot: %w", err)
	}
	// DEFERRABLE makes PostgreSQL wait, at the snapshot's first
	// statement, for a snapshot that no concurrent serializable
	// transaction can invalidate, so reading it never fails with a
	// serialization error; SELECT 1 takes it now, so the view is as of
	// NewSnapshot. YugabyteDB implements it too; CockroachDB accepts
	// DEFERRABLE and ignores it.
	br := conn.SendBatch(ctx, pipeline(s.q.beginSnapshot, "SELECT 1"))
	_, err = br.Exec()
	if err == nil {
		_, err = br.Exec()
	}
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		conn.Release()
		s.giveSlot()
		return nil, fmt.Errorf("pgstore: snapshot: %w", err)
	}
	h := s.hold(conn, true)
	if h == nil {
		return nil, errClosed
	}
	return &snapshot{s: s, h: h}, nil
}

// getRow runs a query returning at most one bytea and appends it to dst.
func getRow(ctx context.Context, q querier, sql string, key, dst []byte) ([]byte, bool, error) {
	rows, err := q.Query(ctx, sql, key)
	if err != nil {
		return dst, false, fmt.Errorf("pgstore: get: %w", err)
	}
	defer rows.Close()
	found := false
	if rows.Next() {
		v, err := rawBytes(rows, 0)
		if err != nil {
			return dst, false, err
		}
		dst = append(dst, v...)
		found = true
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return dst, false, fmt.Errorf("pgstore: get: %w", err)
	}
	return dst, found, nil
}

// rawBytes returns column i of the current row as bytes, valid until the
// next row. bytea comes in binary format (statements are prepared), so the
// raw value is the value itself.
func rawBytes(rows pgx.Rows, i int) ([]byte, error) {
	fd := rows.FieldDescriptions()
	if fd[i].Format == pgx.BinaryFormatCode {
		v := rows.RawValues()[i]
		if v == nil {
			return []byte{}, nil
		}
		return v, nil
	}
	// Text format (a statement that was not prepared): let pgx decode.
	var v []byte
	vals, err := rows.Values()
	if err != nil {
		return nil, fmt.Errorf("pgstore: decode: %w", err)
	}
	v, ok := vals[i].([]byte)
	if !ok {
		return nil, fmt.Errorf("pgstore: decode: column %d is %T, not bytea", i, vals[i])
	}
	return v, nil
}

// querier is what a pool, a connection and a transaction share.
type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// pipeline builds a pgx.Batch of statements without arguments.
func pipeline(sqls ...string) *pgx.Batch {
	b := &pgx.Batch{}
	for _, q := range sqls {
		b.Queue(q)
	}
	return b
}

// sqlState is the SQLSTATE of a server error, or "".
func sqlState(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

// retryable reports a serialization failure or a deadlock: the
// transaction was rolled back and may run again.
func retryable(err error) bool {
	switch sqlState(err) {
	case "40001", "40P01":
		return true
	}
	return false
}
