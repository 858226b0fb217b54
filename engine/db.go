// Package engine is dynago's database: tables, items, indexes, capacity
// accounting and DynamoDB's errors as values. It is the embedded API; the
// HTTP server and the in-process client are thin layers over it.
//
// # Data path
//
// Every operation validates its input as DynamoDB does, then reads or
// writes rows in one storage instance through internal/keys' layout. A
// write takes the per-item lock of the item it changes, reads the current
// item, computes the new one, and commits the row, the table's counters
// and its secondary-index entries (and, later, stream records) in one
// atomic batch. Reads take no lock.
//
// engine imports neither net/http nor the JSON codec.
package engine

import (
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dynago/dynago/internal/storage"
	"github.com/dynago/dynago/internal/storage/pebblestore"
)

// DB is an open dynago database. It is safe for concurrent use.
type DB struct {
	opts  Options
	store storage.Store
	log   *slog.Logger
	// shared is set when other processes write the store too
	// (engine/shared.go); node is then this process's identity there.
	shared bool
	node   *node
	// outage rate-limits the background work's warnings while the
	// shared store cannot be reached (engine/outage_log.go).
	outage *outageLog

	// tables is the catalog: an immutable map replaced whole under ddl.
	// Readers load it without locking.
	tables atomic.Pointer[map[string]*table]
	// ddl serialises catalog changes (CreateTable, DeleteTable,
	// UpdateTable, tags).
	ddl sync.Mutex

	locks itemLocks
	// gate holds the token buckets of enforced capacity
	// (engine/throttle.go).
	gate capGate
	// topKeys counts the keys of the requests on tables and indexes with
	// Contributor Insights on (engine/insights_keys.go).
	topKeys insightsKeys
	// txTokens remembers the ClientRequestTokens of recent
	// TransactWriteItems requests (engine/transact_token.go).
	txTokens tokenCache

	// bg tracks background work (index backfills); bgStop tells it to
	// stop, and Close waits for it.
	bg     sync.WaitGroup
	bgStop chan struct{}
	// repl is the database's part of its global tables
	// (engine/replicas.go).
	repl replication
	// backfillHook, set by tests before a backfill starts, runs before
	// each chunk; returning false stops the backfill there, as a crash
	// would.
	backfillHook func(tableID uint64, indexID uint32, chunk int) bool
	// cursors publishes each backfill's progress to writes
	// (cursorKey → *atomic.Pointer[backfillCursor]).
	cursors sync.Map
	// sweeps counts the sweeps of deleted indexes under way
	// (startSweep).
	sweeps sync.WaitGroup
	// streams holds every stream still readable, enabled or not
	// (stream id → *stream; engine/streams.go).
	streams sync.Map

	// graphs caches the vector indexes' graphs (engine/vector_graph.go).
	graphs graphCache

	// meters count what the DB billed and did (engine/meter.go).
	meters meters

	closed atomic.Bool
	// undo times the versions of undo logs (engine/undo.go).
	undo undoClock
	// pruneNow asks the undo log pruner to run (engine/pitr.go).
	pruneNow chan struct{}
	// lag is the overlay that makes GSIs lag and eventually consistent
	// reads stale (engine/lag.go), nil while neither is on: a read's
	// only cost then is loading it. lagSeed seeds its draws.
	lag     atomic.Pointer[lagOverlay]
	lagSeed uint64

	// restoreHook, when set (tests), runs before each chunk of a
	// restore; false stops the restore there.
	restoreHook func(id uint64) bool
}

// ErrClosed is returned by operations on a closed DB.
var ErrClosed = errors.New("engine: database is closed")

// Open opens the database described by opts.
func Open(opts Options) (*DB, error) {
	opts.EnsureDefaults()
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	st := opts.Store
	if st == nil {
		var err error
		st, err = pebblestore.Open(pebblestore.Options{Dir: opts.Dir, InMemory: opts.InMemory, Sync: opts.Sync, Logger: opts.Logger,
			MemTableSize: uint64(max(opts.MemTableSize, 0)), CacheSize: opts.CacheSize})
		if err != nil {
			return nil, err
		}
	}
	db := &DB{opts: opts, store: st, shared: st.Shared(), log: opts.Logger, bgStop: make(chan struct{}), pruneNow: make(chan struct{}, 1)}
	db.outage = newOutageLog(db.log, time.Now)
	db.graphs.budget = opts.VectorCacheNodes
	if err := db.resolveAccount(); err != nil {
		st.Close()
		return nil, fmt.Errorf("the database's account: %w", err)
	}
	if db.shared {
		db.node = newNode(db)
		if err := db.node.join(); err != nil {
			st.Close()
			return nil, fmt.Errorf("join the shared store: %w", err)
		}
	}
	if err := db.loadCatalog(); err != nil {
		st.Close()
		return nil, fmt.Errorf("load catalog: %w", err)
	}
	if err := db.loadStreams(); err != nil {
		st.Close()
		return nil, fmt.Errorf("load streams: %w", err)
	}
	db.lagSeed = uint64(opts.ConsistencySeed)
	if opts.ConsistencySeed == 0 {
		db.lagSeed = uint64(time.Now().UnixNano())
	}
	if opts.GSILag > 0 || opts.StaleReads > 0 {
		db.lag.Store(newLagOverlay(opts.Now, db.lagSeed))
		db.log.Info("eventual consistency on", "gsi_lag", opts.GSILag, "stale_reads", opts.StaleReads, "consistency_seed", int64(db.lagSeed))
	}
	db.startBackfills()
	if err := db.startBackups(); err != nil {
		db.Close()
		return nil, fmt.Errorf("resume backups and restores: %w", err)
	}
	db.startBackground()
	db.repl.wake = make(chan struct{}, 1)
	db.resumeReplicas()
	if db.shared {
		db.startShared()
	}
	return db, nil
}

// Close closes the database. Operations still running may fail.
func (db *DB) Close() error {
	if db.closed.Swap(true) {
		return nil
	}
	close(db.bgStop)
	db.bg.Wait()
	if db.shared {
		db.node.leave()
	}
	return db.store.Close()
}

func (db *DB) now() time.Time { return db.opts.Now() }
