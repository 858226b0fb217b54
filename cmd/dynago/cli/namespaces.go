package cli

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"sync"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/engine"
)

// namespaces keeps one database per access key and region, opened on the
// first request signed with them (--namespace account-region). On disk
// each is a directory of the data directory; in memory each is a
// separate in-memory database. At most max are opened, so a client
// inventing keys cannot exhaust memory or file handles.
type namespaces struct {
	base engine.Options // the options of every namespace but Dir, Region and AccountID
	max  int
	// accounts, when set (--auth), gives an access key's account from the
	// credentials file, for the namespace's ARNs.
	accounts func(accessKey string) (string, bool)
	// lock holds the data directory against other servers, whichever
	// namespace they mean to open; nil in memory.
	lock io.Closer

	mu struct {
		sync.Mutex
		dbs    map[nsKey]*engine.DB
		closed bool
	}
}

type nsKey struct{ accessKey, region string }

// openNamespaces returns the namespaces of base's data directory (none
// open yet), locking the directory as a whole on disk.
func openNamespaces(base engine.Options, max int) (*namespaces, error) {
	if base.ParseCaches == nil {
		// One pair of parse caches for every namespace, so that their
		// memory is bounded once, not once per access key and region.
		base.ParseCaches = engine.NewParseCaches(0)
	}
	n := &namespaces{base: base, max: max}
	n.mu.dbs = map[nsKey]*engine.DB{}
	if !base.InMemory {
		lock, err := pebble.LockDirectory(base.Dir, vfs.Default)
		if err != nil {
			return nil, fmt.Errorf("data directory %s is in use by another dynago process: %w", base.Dir, err)
		}
		n.lock = lock
	}
	return n, nil
}

// DB returns the database of accessKey and region, opening it if need be.
func (n *namespaces) DB(accessKey, region string) (*engine.DB, error) {
	k := nsKey{accessKey, region}
	n.mu.Lock()
	defer n.mu.Unlock()
	if db, ok := n.mu.dbs[k]; ok {
		return db, nil
	}
	if n.mu.closed {
		return nil, errors.New("server shutting down")
	}
	if len(n.mu.dbs) >= n.max {
		return nil, dynamo.LimitExceeded(fmt.Sprintf(
			"Too many namespaces: this server keeps the tables of at most %d access key and region pairs apart (--max-namespaces); sign with one already in use", n.max))
	}
	o := n.base
	o.Region = region
	o.AccountID = accountID(accessKey)
	if n.accounts != nil {
		if acct, ok := n.accounts(accessKey); ok {
			o.AccountID = acct
		}
	}
	if !o.InMemory {
		o.Dir = filepath.Join(n.base.Dir, namespaceDir(accessKey, region))
	}
	// A global table's replicas live in the namespaces of the same
	// access key in other regions: those its clients there see.
	o.Replicas = func(other string) (*engine.DB, error) { return n.DB(accessKey, other) }
	db, err := engine.Open(o)
	if err != nil {
		return nil, fmt.Errorf("open namespace %s: %w", namespaceDir(accessKey, region), err)
	}
	n.mu.dbs[k] = db
	if o.Logger != nil {
		o.Logger.Info("opened the tables of a new access key and region", "access_key", accessKey, "region", region, "account", o.AccountID)
	}
	return db, nil
}

// All returns the databases open now.
func (n *namespaces) All() []*engine.DB {
	n.mu.Lock()
	defer n.mu.Unlock()
	all := make([]*engine.DB, 0, len(n.mu.dbs))
	for _, db := range n.mu.dbs {
		all = append(all, db)
	}
	return all
}

// Close closes every database and refuses to open more.
func (n *namespaces) Close() error {
	// The databases close outside the lock: a database's replicator
	// may be asking for another namespace meanwhile, and is refused.
	n.mu.Lock()
	n.mu.closed = true
	dbs := maps.Clone(n.mu.dbs)
	clear(n.mu.dbs)
	n.mu.Unlock()
	var errs []error
	for k, db := range dbs {
		if err := db.Close(); err != nil {
			errs = append(errs, fmt.Errorf("close namespace %s: %w", namespaceDir(k.accessKey, k.region), err))
		}
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.lock != nil {
		errs = append(errs, n.lock.Close())
		n.lock = nil
	}
	return errors.Join(errs...)
}

// namespaceDir names the directory of a namespace: "KEY_REGION", as
// DynamoDB Local names its file (myaccesskeyid_region.db), when both are
// letters, digits and dashes; otherwise a digest of the two, so that no
// key can name a path outside the data directory.
func namespaceDir(accessKey, region string) string {
	if plainName(accessKey) && plainName(region) {
		return accessKey + "_" + region
	}
	sum := sha256.Sum256([]byte(accessKey + "\x00" + region))
	return "ns-" + hex.EncodeToString(sum[:16])
}

func plainName(s string) bool {
	if s == "" || len(s) > 128 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}

// accountID derives a stable 12-digit account id from an access key, for
// the ARNs of its namespace: the same key always gets the same id.
func accountID(accessKey string) string {
	sum := sha256.Sum256([]byte(accessKey))
	return fmt.Sprintf("%012d", binary.BigEndian.Uint64(sum[:8])%1_000_000_000_000)
}
