package cli

import (
	"fmt"
	"time"

	"github.com/dynago/dynago/engine"
)

// lagConfig holds serve's eventual consistency flags: GSIs that lag their
// table and eventually consistent reads that may be stale, off by default
// (docs/REHEARSAL.md).
type lagConfig struct {
	gsiLag     time.Duration
	staleReads time.Duration
	seed       int64
	// replicationLag delays the replication of global tables' changes.
	replicationLag time.Duration
}

func lagFlags(fs *flagSet, c *lagConfig) {
	fs.DurationVar(&c.gsiLag, "gsi-lag", 0, "make global secondary indexes lag their table, as DynamoDB's do: an index\n"+
		"entry a write changes shows to Query and Scan of the index only after a delay\n"+
		"drawn between 0 and twice this mean (say 500ms); until then the index shows\n"+
		"what it showed before. Local secondary indexes never lag. A table's\n"+
		"dynago:gsi-lag tag replaces it for that table. 0, the default: no lag")
	fs.DurationVar(&c.staleReads, "stale-reads", 0, "let an eventually consistent GetItem, BatchGetItem, Query or Scan of a table\n"+
		"return an item's previous version for a delay drawn below this window after\n"+
		"each write (say 1s). ConsistentRead and TransactGetItems always see every\n"+
		"acknowledged write. A table's dynago:stale-reads tag replaces it for that\n"+
		"table. 0, the default: never stale")
	fs.Int64Var(&c.seed, "consistency-seed", 0, "seed of the delays --gsi-lag and --stale-reads draw, so that a run repeats\n"+
		"the same staleness; 0 picks one from the clock and logs it")
	fs.DurationVar(&c.replicationLag, "replication-lag", 0, "with --namespace account-region, make each change to a global table reach\n"+
		"its replicas in other regions no sooner than this after it was made (say 1s),\n"+
		"as DynamoDB's asynchronous replication does. 0, the default: as soon as the\n"+
		"replicator reads it")
}

// check refuses negative durations.
func (c lagConfig) check() error {
	if c.gsiLag < 0 {
		return fmt.Errorf("--gsi-lag: %v is negative", c.gsiLag)
	}
	if c.staleReads < 0 {
		return fmt.Errorf("--stale-reads: %v is negative", c.staleReads)
	}
	if c.replicationLag < 0 {
		return fmt.Errorf("--replication-lag: %v is negative", c.replicationLag)
	}
	return nil
}

// apply sets the engine's options.
func (c lagConfig) apply(o *engine.Options) {
	o.GSILag, o.StaleReads, o.ConsistencySeed = c.gsiLag, c.staleReads, c.seed
	o.ReplicationLag = c.replicationLag
}
