// Package storage is the contract between the engine and where it keeps
// every byte: the interface the engine writes and reads through, and what
// every backend shares. Each backend is a package of its own below it:
// internal/storage/pebblestore, embedded, and internal/storage/pgstore,
// for several nodes sharing one PostgreSQL database; both pass
// internal/storage/storagetest.
//
// storage knows bytes only. It imports nothing else of dynago; the key layout
// belongs to internal/keys and the meaning of values to the engine.
//
// # What every Store guarantees
//
//   - Keys are byte strings ordered bytewise (unsigned, shorter first on a
//     common prefix), so a bounded range of the key layout is one range
//     read.
//   - A Batch is applied whole or not at all.
//   - Commit returns only after the batch is durable as the store promises
//     (see each implementation), so an acknowledged write survives the
//     death of the process that wrote it at any instant.
//   - A Batch may carry expectations (Batch.Expect, Batch.ExpectNone):
//     Commit applies it only if every expected key still holds the value
//     that was read (and every range expected empty still is), and fails
//     with ErrConflict otherwise, with nothing applied. That is how writes
//     made by several processes stay serialised per item: each reads,
//     decides, and commits on the condition that what it read is still
//     there. A store that only one process writes (Shared is false) may
//     ignore expectations, since that process serialises conflicting
//     writes itself.
//   - Reads never block writes: Get and iterators read a consistent view,
//     and a Snapshot is one view for many reads.
//   - Counters added in a batch (Batch.AddCounters) are summed exactly;
//     adding never makes two concurrent batches conflict.
package storage

import (
	"context"
	"errors"
)

// ErrConflict is returned by Batch.Commit when an expected key no longer
// holds the value the batch expected: another writer changed it since it
// was read. Nothing was applied; the caller reads again and retries.
var ErrConflict = errors.New("storage: a key changed since it was read")

// Store is an open store.
type Store interface {
	Reader
	// View calls fn with the value of key, which fn must not keep or
	// modify after it returns, and reports whether the key exists. It
	// saves the copy Get makes when the caller decodes the value at once.
	View(key []byte, fn func(value []byte) error) (bool, error)
	// NewSnapshot returns a consistent view of the store as of now.
	NewSnapshot() (Snapshot, error)
	// NewBatch starts a batch of writes.
	NewBatch() Batch
	// Shared reports whether other processes may write this store at
	// the same time, so that the engine must check its expectations,
	// refresh what it caches of the catalog, and run background work
	// under leases.
	Shared() bool
	// Ping reports whether the store can serve requests now.
	Ping(ctx context.Context) error
	// Close releases the store.
	Close() error
}

// Reader reads a consistent view: the live store or a snapshot.
type Reader interface {
	// Get appends the value of key to dst and reports whether it exists.
	Get(key, dst []byte) ([]byte, bool, error)
	// NewIter returns an iterator over [lower, upper).
	NewIter(lower, upper []byte) (Iter, error)
	// Counters reads the counters at key (see Batch.AddCounters); a
	// missing key reads as zeros. n is how many counters the caller
	// expects.
	Counters(key []byte, n int) ([]int64, error)
}

// Snapshot is a point-in-time view. Close it when done.
type Snapshot interface {
	Reader
	Close() error
}

// Iter walks keys in order within its bounds. Key and Value are valid until
// the next move. The positioning methods report whether the iterator is
// on a key; after false, Error tells an error from the end. Close reports
// that error too, so a read that failed midway is never taken for the end
// of the range.
type Iter interface {
	First() bool
	Last() bool
	Next() bool
	Prev() bool
	SeekGE(key []byte) bool
	SeekLT(key []byte) bool
	Valid() bool
	Key() []byte
	Value() []byte
	Error() error
	Close() error
}

// AtMostIterStore is implemented by stores that read less when told how
// many keys a caller will visit at most (a Query's Limit): the iterator
// reads those in one go. Moving past them still works, but on such a
// store the keys after them may be read as of a later instant.
type AtMostIterStore interface {
	NewIterAtMost(lower, upper []byte, n int) (Iter, error)
}

// MultiGetter is implemented by stores that read several keys in one
// go (PostgreSQL: one round trip). found[i] says whether keys[i] exists,
// and vals[i] is its value then. Each value is read at some instant
// during the call; together they are not a snapshot.
type MultiGetter interface {
	GetMany(keys [][]byte) (vals [][]byte, found []bool, err error)
}

// Stat is one figure a store reports about itself, for the server's
// metrics: a counter (only ever grows) or a gauge.
type Stat struct {
	Name    string // lower_snake_case, unique within the store, e.g. "pebble_compactions_total"
	Help    string
	Counter bool
	Value   float64
}

// Statter is implemented by stores that report figures about themselves
// (Pebble: compactions, memtables, cache, write stalls; PostgreSQL: pool
// use, statements and their time, retries).
type Statter interface {
	Stats() []Stat
}

// Batch collects writes applied atomically by Commit.
type Batch interface {
	// Set writes key=value. The batch keeps neither slice: the caller
	// may reuse both once Set returns.
	Set(key, value []byte) error
	// Insert writes key=value where key must not exist when the batch
	// commits: if another writer has created it, Commit fails with
	// ErrConflict and applies nothing. It never overwrites, so two
	// writers that chose the same new key cannot lose one's value to the
	// other's. On a store only this process writes it is Set.
	Insert(key, value []byte) error
	// Delete removes key.
	Delete(key []byte) error
	// DeleteRange removes every key in [start, end).
	DeleteRange(start, end []byte) error
	// AddCounters adds deltas to the counters stored at key. Read them
	// with Reader.Counters, never with Get, and never Set a counter key;
	// Delete and DeleteRange remove counters as they remove values.
	AddCounters(key []byte, deltas ...int64) error
	// Expect makes Commit apply the batch only if key still holds value
	// (found true) or is still absent (found false) when the batch
	// applies; otherwise Commit fails with ErrConflict. The batch may
	// keep value until Commit: the caller must not change it.
	Expect(key, value []byte, found bool)
	// ExpectNone makes Commit apply the batch only if no key lies in
	// [lower, upper) when the batch applies; otherwise Commit fails with
	// ErrConflict, as Expect. A store only this process writes may
	// ignore it, as it ignores Expect.
	ExpectNone(lower, upper []byte)
	// Empty reports whether the batch holds no writes.
	Empty() bool
	// Commit applies the batch atomically and releases it; a later
	// Close does nothing.
	Commit() error
	// Close releases a batch that was not committed. It is safe to call
	// after Commit, and twice.
	Close()
}
