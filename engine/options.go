package engine

import (
	"errors"
	"log/slog"
	"time"

	"github.com/dynago/dynago/internal/storage"
)

// Options configure a DB. The zero value is not usable: set Dir, InMemory
// or Store.
type Options struct {
	// Store is an open store to keep the database in, such as a
	// PostgreSQL database that several processes share
	// (internal/storage/pgstore). The DB takes it over and closes it on
	// Close. When it is nil, Open opens Pebble at Dir or in memory.
	Store storage.Store
	// Exchange is where ExportTableToPointInTime writes and ImportTable
	// reads (S3 buckets, or folders standing for them: package
	// exports). Nil: exports and imports fail, saying so.
	Exchange Exchange
	// MeterIndexWrites makes every write work out what it cost each index
	// it touched, for Meters, even when the request did not ask for its
	// ConsumedCapacity (which costs the write one more projection of the
	// item per index). Without it, index write units are counted only for
	// requests that asked for them.
	MeterIndexWrites bool
	// NodeLeaseTimeout is, on a shared store, how long another process
	// waits after this one's heartbeat stops before it takes over the
	// background work this one leased (index backfills, Time to Live
	// sweeps). The default is DefaultNodeLeaseTimeout.
	NodeLeaseTimeout time.Duration
	// Dir is the data directory. Ignored when InMemory is set.
	Dir string
	// InMemory keeps everything in memory; nothing touches the disk and
	// everything is lost on Close.
	InMemory bool
	// MemTableSize and CacheSize, in bytes, size Pebble's largest
	// memtable and its block cache; 0 keeps the defaults, which suit a
	// server (a 64 MiB cache; 64 MiB memtables in memory, 8 MiB on
	// disk). Package local opens in-memory
	// databases with a few MiB of each, so a test process can hold
	// thousands. Ignored when Store is set.
	MemTableSize int64
	CacheSize    int64
	// Sync makes every acknowledged write durable against a machine crash
	// by syncing the write-ahead log before returning. The default (false)
	// still survives a process crash: each write is in the OS page cache
	// before it is acknowledged.
	Sync bool
	// EnforceCapacity makes the tables' capacity a limit: a provisioned
	// table's or index's read and write units, an on-demand table's
	// maximum and quotas, a partition's 3,000 read and 1,000 write units a
	// second; a request beyond them is throttled as DynamoDB throttles it
	// (engine/throttle.go). A table's tag dynago:enforce-capacity ("true"
	// or "false") overrides it for that table. Off by default: nothing is
	// ever throttled.
	EnforceCapacity bool
	// CapacityNow is the clock enforced capacity refills by. The default
	// is Now; tests give one they move by hand.
	CapacityNow func() time.Time
	// Logger receives the engine's logs. The default discards them.
	Logger *slog.Logger
	// Now returns the current time. The default is time.Now.
	Now func() time.Time
	// Region and AccountID appear in ARNs. The default region is
	// DefaultRegion. An AccountID left empty, or DefaultAccountID, is
	// dynago's default account: a database keeps the account it was first
	// opened with (stored with its data), DefaultAccountID for a new one
	// and LegacyAccountID for one written before that account was
	// dynago's default; any other AccountID is used, and kept, as given.
	Region    string
	AccountID string
	// Replicas, when set, returns the database of the same account in
	// another region, where UpdateTable's ReplicaUpdates puts a table's
	// replicas (engine/replicas.go); nil refuses replicas.
	Replicas func(region string) (*DB, error)
	// ReplicationLag delays every change's replication to a table's
	// other replicas by at least this long; 0 replicates as fast as the
	// replicator runs.
	ReplicationLag time.Duration

	// StreamShardDuration is how long a stream shard stays open before it
	// rolls over to a child shard. The default is DefaultStreamShardDuration.
	StreamShardDuration time.Duration
	// TTLSweepInterval is how often the Time to Live sweeper deletes
	// expired items. The default is DefaultTTLSweepInterval; a negative
	// value turns the background sweeper off (SweepExpired still works).
	TTLSweepInterval time.Duration
	// TTLChangeCooldown is how long after a Time to Live change another
	// change is refused. The default is DefaultTTLChangeCooldown; a
	// negative value never refuses, for tests that toggle TTL.
	TTLChangeCooldown time.Duration

	// TransientDelay is how long CreateTable, UpdateTable and DeleteTable
	// leave a table CREATING, UPDATING or DELETING, as DynamoDB does for
	// seconds to minutes. A global secondary index that UpdateTable
	// creates is CREATING for twice as long: first not yet Backfilling
	// (its resource allocation phase, the table UPDATING), then
	// Backfilling (its backfill phase, the table ACTIVE), whether or not
	// its backfill has ended. Requests that arrive meanwhile get
	// DynamoDB's answers for a table or index in that state
	// (engine/transient.go).
	// The default, 0, makes every table and index ACTIVE at once.
	TransientDelay time.Duration

	// GSILag makes global secondary indexes lag their table, as
	// DynamoDB's do: an entry a write changes shows to a Query or Scan
	// of the index only after a delay drawn uniformly between 0 and
	// twice GSILag; until then the index shows what it showed before
	// the write. Local secondary indexes never lag. The default, 0, is
	// no lag. A table's dynago:gsi-lag tag replaces it for that table
	// (engine/lag.go).
	GSILag time.Duration
	// StaleReads lets an eventually consistent GetItem, BatchGetItem,
	// Query or Scan of a table return an item's previous version (or
	// no item, for a new one; or a deleted item) for a delay drawn
	// uniformly below StaleReads after the write. Strongly consistent
	// reads (ConsistentRead) and TransactGetItems always see every
	// acknowledged write. The default, 0, is never stale. A table's
	// dynago:stale-reads tag replaces it for that table.
	StaleReads time.Duration
	// ConsistencySeed seeds the delays GSILag and StaleReads draw, so
	// that the same calls, on the same clock (Now), see the same
	// staleness. 0 picks a seed from the time, logged at Open.
	ConsistencySeed int64
	// VectorExactLimit is the most entries a range of a vector index
	// (one HASH value of its search schema, or the whole index) may
	// hold for SearchVectors to search it exactly, reading every entry;
	// a larger one is searched through its approximate index, an HNSW
	// graph (docs/VECTORS.md). The default is DefaultVectorExactLimit; a
	// negative value searches every range through its graph.
	VectorExactLimit int
	// VectorSearchEF is the breadth of an approximate search (HNSW's ef),
	// never below the search's TopK: larger finds more of the true
	// nearest, slower. The default is DefaultVectorSearchEF.
	VectorSearchEF int
	// VectorCacheNodes bounds the nodes of the vector graphs kept in
	// memory: past it, the least recently used graphs are dropped, and
	// loaded again from the store when next used. A graph larger than
	// the budget is kept alone. The default is DefaultVectorCacheNodes.
	VectorCacheNodes int

	// ParseCaches keep parsed expressions and PartiQL statements for the
	// requests that send the same texts again. The default is caches of
	// the DB's own (NewParseCaches(0)); several DBs may share them.
	ParseCaches *ParseCaches
}

// The defaults of Options, which EnsureDefaults fills in. Commands that
// show them (dynago serve's flags) read them from here.
const (
	DefaultRegion = "us-east-1"
	// DefaultAccountID is the account in a new database's ARNs. It is
	// derived from the name dynago (the first twelve decimal digits of
	// its SHA-256, as --namespace account-region derives one from an
	// access key), so that it is no account a test or an example makes
	// up: an ARN naming 000000000000 or 123456789012 names another
	// account's table, as it would on DynamoDB, not one of dynago's.
	DefaultAccountID = "852375281893"
	// LegacyAccountID is the account dynago put in ARNs before
	// DefaultAccountID; a database written then keeps it (account.go).
	LegacyAccountID = "000000000000"
	// DefaultNodeLeaseTimeout: a node silent for 5 s loses its leases.
	DefaultNodeLeaseTimeout = 5 * time.Second
	// DefaultStreamShardDuration: DynamoDB rolls a stream's shard over
	// about every four hours.
	DefaultStreamShardDuration = 4 * time.Hour
	// DefaultTTLSweepInterval: expired items go within about a second.
	DefaultTTLSweepInterval = time.Second
	// DefaultTTLChangeCooldown: the API reference says one hour between
	// Time to Live changes of a table (it has been observed closer to 30
	// minutes).
	DefaultTTLChangeCooldown = time.Hour
	// DefaultVectorExactLimit: up to a thousand entries, an exact search
	// reads them all in about a millisecond.
	DefaultVectorExactLimit = 1000
	// DefaultVectorSearchEF: HNSW's search breadth; recall at 10 of 0.95
	// or more on the recall tests' data.
	DefaultVectorSearchEF = 100
	// DefaultVectorCacheNodes: a million vectors, about 3.5 GB at 768
	// dimensions.
	DefaultVectorCacheNodes = 1_000_000
)

// EnsureDefaults fills in the default of every field left at its zero
// value. Negative durations keep their meaning (off, or never).
func (o *Options) EnsureDefaults() {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.CapacityNow == nil {
		o.CapacityNow = o.Now
	}
	if o.Region == "" {
		o.Region = DefaultRegion
	}
	if o.AccountID == "" {
		o.AccountID = DefaultAccountID
	}
	if o.NodeLeaseTimeout <= 0 {
		o.NodeLeaseTimeout = DefaultNodeLeaseTimeout
	}
	if o.StreamShardDuration <= 0 {
		o.StreamShardDuration = DefaultStreamShardDuration
	}
	if o.TTLSweepInterval == 0 {
		o.TTLSweepInterval = DefaultTTLSweepInterval
	}
	if o.TTLChangeCooldown == 0 {
		o.TTLChangeCooldown = DefaultTTLChangeCooldown
	}
	if o.VectorExactLimit == 0 {
		o.VectorExactLimit = DefaultVectorExactLimit
	}
	if o.VectorSearchEF <= 0 {
		o.VectorSearchEF = DefaultVectorSearchEF
	}
	if o.VectorCacheNodes <= 0 {
		o.VectorCacheNodes = DefaultVectorCacheNodes
	}
	if o.ParseCaches == nil {
		o.ParseCaches = NewParseCaches(0)
	}
}

// Validate reports options that cannot open a database.
func (o *Options) Validate() error {
	if o.Store == nil && !o.InMemory && o.Dir == "" {
		return errors.New("engine: Options.Dir is empty and neither InMemory nor Store is set")
	}
	return nil
}
