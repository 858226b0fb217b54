package pebblestore

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync/atomic"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/bloom"
	"github.com/cockroachdb/pebble/v2/sstable"
	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/dynago/dynago/internal/storage"
)

// ErrLocked is returned by Open when another process (or another Store in this
// process) holds the data directory.
var ErrLocked = errors.New("data directory is in use by another dynago process")

// Options configure Open.
type Options struct {
	// Dir is the data directory; it is created if missing. Ignored when
	// InMemory is set.
	Dir string
	// InMemory keeps everything in memory (no write-ahead log, no files).
	InMemory bool
	// Sync syncs (fsyncs) the write-ahead log before a commit returns, so
	// acknowledged writes survive a power loss. Without it they survive a
	// crash of the process but not of the machine. Default false.
	Sync bool
	// Logger receives Pebble's own log lines at debug level. Default: discard.
	Logger *slog.Logger
	// MemTableSize is the largest memtable in bytes (Pebble starts with
	// one of at most 256 KiB and doubles it up to this). 0 means the
	// default: 64 MiB in memory, 8 MiB on disk.
	MemTableSize uint64
	// DiskReserve is the free space, in bytes, that writes leave on the
	// data directory's file system: a commit that would leave less fails
	// with ErrDiskFull, unapplied (see spaceGuard). 0 means the default,
	// room to flush every memtable writes may queue (four of the largest)
	// plus 4 MiB; negative turns the check
	// off. Ignored in memory.
	DiskReserve int64
	// CacheSize is the block cache's capacity in bytes. 0 means the
	// default, 64 MiB. A store opened per test wants both small, so that
	// thousands fit in one process.
	CacheSize int64
}

// The store implements the interfaces.
var (
	_ storage.Store    = (*Store)(nil)
	_ storage.Snapshot = pebbleSnapshot{}
	_ storage.Iter     = pebbleIter{}
	_ storage.Batch    = (*pebbleBatch)(nil)
)

// Store is an open Pebble store.
type Store struct {
	p    *pebble.DB
	lock *pebble.Lock
	// wo is pebble.Sync with a log, pebble.NoSync without one (in memory).
	wo *pebble.WriteOptions
	// inMemory is set for a store without a write-ahead log.
	inMemory bool
	// reclaim compacts the ranges of committed range deletions.
	reclaim *reclaimer
	// stalls counts the write stalls Pebble reported (Stats).
	stalls *atomic.Int64
	// space refuses the writes a nearly full disk has no room for; nil
	// in memory.
	space *spaceGuard
}

// MaxOpenFiles bounds the table files Pebble keeps open (its table
// cache); the server keeps this many file descriptors back from client
// connections.
const MaxOpenFiles = 500

// counterMergerName is stored on disk by Pebble; do not change it.
const counterMergerName = "dynago.counters.v1"

// cacheBytes is the size of Pebble's block cache.
const cacheBytes = 64 << 20

// diskMemTableBytes is the largest memtable on disk, and
// memTableStopWrites how many of them may wait for their flush before
// writes stall (Pebble's MemTableStopWritesThreshold). Pebble's defaults,
// 4 MiB and 2, flushed a small file every few thousand items under a
// steady load, each overlapping the whole level below when the writes
// spread over the key space (as a table's items do), and stalled writes
// whenever a flush fell behind: 3 M items written 25 to a batch stalled
// 52 times, and flushes and compactions wrote 855 bytes an item; with 8
// MiB and 4, 4 times and 717 bytes (BenchmarkLoad). Larger memtables
// stall less still (32 MiB: once, 545 bytes) but keep more unflushed.
// Pebble grows a memtable from 256 KiB, so a store that writes little
// holds little.
const (
	diskMemTableBytes  = 8 << 20
	memTableStopWrites = 4
)

// bloomBitsPerKey sizes the tables' bloom filters: 10 bits, 1.25 bytes,
// a key.
const bloomBitsPerKey = 10

// Open opens or creates the store.
func Open(o Options) (*Store, error) {
	logger := o.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	// A block cache larger than Pebble's 8 MB default keeps a working set
	// of tens of megabytes decoded; it is allocated as it fills, so an
	// idle server does not pay for it.
	cacheSize := o.CacheSize
	if cacheSize <= 0 {
		cacheSize = cacheBytes
	}
	cache := pebble.NewCache(cacheSize)
	defer cache.Unref()
	stalls := new(atomic.Int64)
	popts := &pebble.Options{
		Merger:       &pebble.Merger{Name: counterMergerName, Merge: newCounterMerger},
		Logger:       pebbleLogger{logger},
		Cache:        cache,
		MaxOpenFiles: MaxOpenFiles,
		EventListener: &pebble.EventListener{
			WriteStallBegin: func(pebble.WriteStallBeginInfo) { stalls.Add(1) },
			// Pebble's default stops the process on a corrupt or
			// unreadable file. The read that met it fails instead (the
			// server answers InternalServerError), and the file is
			// named in the log.
			DataCorruption: func(info pebble.DataCorruptionInfo) {
				logger.Error("pebble: corrupt or unreadable data", "path", info.Path, "err", info.Details)
			},
		},
	}
	// A bloom filter of every table's keys (10 bits a key, about 1% false
	// positives) answers most lookups of a key a table does not hold
	// without reading its blocks: every write reads its item's old
	// version, and a new item has none, so without filters a write
	// searched a data block of every level and every overlapping L0
	// file. Only point lookups (Get) consult them; range reads do not.
	for i := range popts.Levels {
		popts.Levels[i].FilterPolicy = bloom.FilterPolicy(bloomBitsPerKey)
	}
	dir := o.Dir
	var lock *pebble.Lock
	if o.InMemory {
		popts.FS = vfs.NewMem()
		popts.DisableWAL = true
		dir = "mem"
		// In memory, compressing blocks saves little and costs a
		// decompression on every cache miss.
		for i := range popts.Levels {
			popts.Levels[i].Compression = func() *sstable.CompressionProfile { return sstable.NoCompression }
		}
		// Fewer, larger flushes: an in-memory file grows by copying, so
		// every flush and compaction rewrites its bytes more than once.
		popts.MemTableSize = 64 << 20
		if o.MemTableSize > 0 {
			popts.MemTableSize = o.MemTableSize
		}
	} else {
		if dir == "" {
			return nil, errors.New("storage: no data directory given")
		}
		if err := os.MkdirAll(dir, dirPerm); err != nil {
			return nil, fmt.Errorf("create data directory: %w", err)
		}
		if err := restrictTree(dir); err != nil {
			return nil, fmt.Errorf("restrict data directory to its owner: %w", err)
		}
		fs := &dataFS{FS: vfs.Default, syncWAL: o.Sync}
		popts.FS = fs
		var err error
		lock, err = pebble.LockDirectory(dir, fs)
		if err != nil {
			abs, _ := filepath.Abs(dir)
			return nil, fmt.Errorf("%w: %s: %v", ErrLocked, abs, err)
		}
		popts.Lock = lock
		popts.MemTableSize = diskMemTableBytes
		popts.MemTableStopWritesThreshold = memTableStopWrites
		if o.MemTableSize > 0 {
			popts.MemTableSize = o.MemTableSize
		}
	}
	p, err := pebble.Open(dir, popts)
	if err != nil {
		if lock != nil {
			lock.Close()
		}
		return nil, fmt.Errorf("open pebble at %q: %w", dir, err)
	}
	// A synced commit is what makes Pebble hand the batch to the operating
	// system before Commit returns; dataFS decides whether the sync is also
	// an fsync (Options.Sync). In memory there is no log to sync.
	wo := pebble.Sync
	if o.InMemory {
		wo = pebble.NoSync
	}
	d := &Store{p: p, lock: lock, wo: wo, inMemory: o.InMemory, stalls: stalls}
	if !o.InMemory && o.DiskReserve >= 0 {
		reserve := uint64(o.DiskReserve)
		if reserve == 0 {
			reserve = uint64(memTableStopWrites)*popts.MemTableSize + defaultReserveSlack
		}
		d.space = &spaceGuard{fs: popts.FS, dir: dir, reserve: reserve}
	}
	d.reclaim = newReclaimer(func(ctx context.Context, start, end []byte) error {
		return p.Compact(ctx, start, end, true)
	}, logger.Warn)
	return d, nil
}

// Stats reports Pebble's figures: compactions and flushes, memtable and
// block cache sizes, cache hits and misses, write stalls, and the space
// the store takes.
func (d *Store) Stats() []storage.Stat {
	m := d.p.Metrics()
	return []storage.Stat{
		{Name: "pebble_compactions_total", Help: "Compactions Pebble ran.", Counter: true, Value: float64(m.Compact.Count)},
		{Name: "pebble_flushes_total", Help: "Memtable flushes Pebble ran.", Counter: true, Value: float64(m.Flush.Count)},
		{Name: "pebble_write_stalls_total", Help: "Times Pebble stalled writes while compactions caught up.", Counter: true, Value: float64(d.stalls.Load())},
		{Name: "pebble_memtable_bytes", Help: "Bytes held by memtables.", Value: float64(m.MemTable.Size)},
		{Name: "pebble_memtables", Help: "Memtables, the mutable one included.", Value: float64(m.MemTable.Count)},
		{Name: "pebble_block_cache_bytes", Help: "Bytes held by the block cache.", Value: float64(m.BlockCache.Size)},
		{Name: "pebble_block_cache_hits_total", Help: "Block cache hits.", Counter: true, Value: float64(m.BlockCache.Hits)},
		{Name: "pebble_block_cache_misses_total", Help: "Block cache misses.", Counter: true, Value: float64(m.BlockCache.Misses)},
		{Name: "pebble_disk_bytes", Help: "Bytes the store's files take (log and tables).", Value: float64(m.DiskSpaceUsage())},
		{Name: "pebble_disk_full_refusals_total", Help: "Commits refused, unapplied, because the data directory's file system was nearly full.", Counter: true, Value: float64(d.refusals())},
	}
}

// refusals is how many commits the space guard refused.
func (d *Store) refusals() int64 {
	if d.space == nil {
		return 0
	}
	return d.space.refused.Load()
}

// Close releases the directory. Every acknowledged write is already in the
// log; closing the log syncs it, so after a clean shutdown nothing is lost
// even to a power loss, in either mode.
func (d *Store) Close() error {
	var errs []error
	d.reclaim.stop()
	if err := d.p.Close(); err != nil {
		errs = append(errs, fmt.Errorf("close pebble: %w", err))
	}
	if d.lock != nil {
		if err := d.lock.Close(); err != nil {
			errs = append(errs, fmt.Errorf("release lock: %w", err))
		}
	}
	return errors.Join(errs...)
}

// Get implements Reader.
func (d *Store) Get(key, dst []byte) ([]byte, bool, error) { return get(d.p, key, dst) }

// NewIter implements Reader.
func (d *Store) NewIter(lower, upper []byte) (storage.Iter, error) {
	return newIter(d.p, lower, upper)
}

// newIter returns an iterator over [lower, upper) of r; a nil upper is no
// bound, while an empty non-nil one admits no key.
//
// Pebble is given no empty non-nil key. Its builds with invariant checks
// (tag invariants, or race) read the first byte of any non-nil seek key
// (iterator.go, testingDisableSeekOpt), and it seeks to its bounds, so an
// empty one panics there. An empty lower bound admits every key, as no
// lower bound does, and is given as nil; bounds that admit no key, an
// empty upper one among them, give an iterator that never reaches Pebble.
func newIter(r interface {
	NewIter(*pebble.IterOptions) (*pebble.Iterator, error)
}, lower, upper []byte) (storage.Iter, error) {
	if upper != nil && bytes.Compare(lower, upper) >= 0 {
		return noKeys{}, nil
	}
	it, err := r.NewIter(&pebble.IterOptions{LowerBound: seekKey(lower), UpperBound: upper})
	if err != nil {
		return nil, fmt.Errorf("new iterator: %w", err)
	}
	return pebbleIter{it}, nil
}

// seekKey gives Pebble the empty key as nil, which it compares equal to
// an empty slice (see newIter).
func seekKey(key []byte) []byte {
	if len(key) == 0 {
		return nil
	}
	return key
}

// Counters implements Reader.
func (d *Store) Counters(key []byte, n int) ([]int64, error) { return counters(d, key, n) }

// Shared implements Store: only this process writes a Pebble directory.
func (d *Store) Shared() bool { return false }

// Ping implements Store; an open Pebble instance is always there.
func (d *Store) Ping(context.Context) error { return nil }

// View calls fn with the value of key, which fn must not keep or modify
// after it returns, and reports whether the key exists. It saves the copy
// Get makes when the caller decodes the value at once.
func (d *Store) View(key []byte, fn func(value []byte) error) (bool, error) {
	v, c, err := d.p.Get(key)
	if errors.Is(err, pebble.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("get: %w", err)
	}
	defer c.Close()
	return true, fn(v)
}

type getter interface {
	Get(key []byte) ([]byte, io.Closer, error)
}

func get(g getter, key, dst []byte) ([]byte, bool, error) {
	v, c, err := g.Get(key)
	if errors.Is(err, pebble.ErrNotFound) {
		return dst, false, nil
	}
	if err != nil {
		return dst, false, fmt.Errorf("get: %w", err)
	}
	dst = append(dst, v...)
	c.Close()
	return dst, true, nil
}

// pebbleSnapshot is a Pebble snapshot.
type pebbleSnapshot struct{ s *pebble.Snapshot }

// NewSnapshot implements Store.
func (d *Store) NewSnapshot() (storage.Snapshot, error) {
	return pebbleSnapshot{d.p.NewSnapshot()}, nil
}

func (s pebbleSnapshot) Get(key, dst []byte) ([]byte, bool, error) { return get(s.s, key, dst) }

func (s pebbleSnapshot) NewIter(lower, upper []byte) (storage.Iter, error) {
	return newIter(s.s, lower, upper)
}

func (s pebbleSnapshot) Counters(key []byte, n int) ([]int64, error) { return counters(s, key, n) }

func (s pebbleSnapshot) Close() error { return s.s.Close() }

// pebbleIter is a Pebble iterator; Pebble's own methods implement Iter.
type pebbleIter struct{ *pebble.Iterator }

func (i pebbleIter) First() bool            { return i.Iterator.First() }
func (i pebbleIter) Last() bool             { return i.Iterator.Last() }
func (i pebbleIter) Next() bool             { return i.Iterator.Next() }
func (i pebbleIter) Prev() bool             { return i.Iterator.Prev() }
func (i pebbleIter) SeekGE(key []byte) bool { return i.Iterator.SeekGE(seekKey(key)) }
func (i pebbleIter) SeekLT(key []byte) bool { return i.Iterator.SeekLT(seekKey(key)) }
func (i pebbleIter) Value() []byte          { return i.Iterator.Value() }

// noKeys iterates over bounds that admit no key.
type noKeys struct{}

var _ storage.Iter = noKeys{}

func (noKeys) First() bool            { return false }
func (noKeys) Last() bool             { return false }
func (noKeys) Next() bool             { return false }
func (noKeys) Prev() bool             { return false }
func (noKeys) SeekGE(key []byte) bool { return false }
func (noKeys) SeekLT(key []byte) bool { return false }
func (noKeys) Valid() bool            { return false }
func (noKeys) Key() []byte            { return nil }
func (noKeys) Value() []byte          { return nil }
func (noKeys) Error() error           { return nil }
func (noKeys) Close() error           { return nil }

// pebbleBatch is a Pebble batch.
type pebbleBatch struct {
	b  *pebble.Batch
	db *Store
	// deleted holds the ranges of DeleteRange, reclaimed after commit.
	deleted [][2][]byte
}

// NewBatch implements Store.
func (d *Store) NewBatch() storage.Batch { return &pebbleBatch{b: d.p.NewBatch(), db: d} }

func (b *pebbleBatch) Set(key, value []byte) error { return b.b.Set(key, value, nil) }

// Insert is Set: this process is the directory's only writer, and the
// engine never inserts a key it has written already.
func (b *pebbleBatch) Insert(key, value []byte) error { return b.b.Set(key, value, nil) }

func (b *pebbleBatch) Delete(key []byte) error { return b.b.Delete(key, nil) }

// Expect records nothing: this process is the directory's only writer.
func (b *pebbleBatch) Expect(key, value []byte, found bool) {}

func (b *pebbleBatch) ExpectNone(lower, upper []byte) {}

// DeleteRange removes every key in [start, end); it does nothing when
// start >= end (a nil end is the empty key, not an open end). Once the
// batch commits, the range's space is reclaimed in the background within
// seconds, even if no other write comes.
//
// A range from the empty key is written as a point deletion of the empty
// key and a range from 0x00, which remove the same keys: no range deletion
// given to Pebble starts at the empty key. Pebble's builds with invariant
// checks (tag invariants, or race) copy the bounds of range deletions read
// from tables, at random, in code only those builds run (the fragment
// iterator's copies under invariants.Sometimes, the invalidating iterator
// keyspan.MaybeAssert wraps around them), by appending to a nil buffer,
// which turns an empty start key into nil; a span with a nil start reads
// as no span at all, so once flushed or compacted the deletion stops
// hiding its keys. Normal builds keep the key as read and are not
// affected, and the engine's ranges never start at the empty key; keeping
// such ranges from Pebble makes the store behave the same in every build.
func (b *pebbleBatch) DeleteRange(start, end []byte) error {
	if bytes.Compare(start, end) >= 0 {
		return nil
	}
	if len(start) == 0 {
		if err := b.b.Delete(nil, nil); err != nil {
			return err
		}
		start = []byte{0}
		if bytes.Compare(start, end) >= 0 {
			return nil
		}
	}
	if err := b.b.DeleteRange(start, end, nil); err != nil {
		return err
	}
	b.deleted = append(b.deleted, [2][]byte{bytes.Clone(start), bytes.Clone(end)})
	return nil
}

// AddCounters adds deltas to the counters stored at key (see Counters).
func (b *pebbleBatch) AddCounters(key []byte, deltas ...int64) error {
	return b.b.Merge(key, encodeCounters(deltas), nil)
}

// Empty reports whether the batch holds no writes.
func (b *pebbleBatch) Empty() bool { return b.b.Empty() }

// Commit applies the batch atomically and releases it; a later Close does
// nothing. It returns once the batch is in the log as the store's mode
// promises (see Options.Sync): a synced commit makes Pebble hand the batch
// to the operating system before returning, sharing that write (and, with
// Options.Sync, the fsync) among concurrent commits.
func (b *pebbleBatch) Commit() error {
	if g := b.db.space; g != nil && !b.b.Empty() {
		n := b.b.Len()
		if err := g.admit(n, len(b.deleted) > 0); err != nil {
			b.Close()
			return err
		}
		defer g.release(n)
	}
	err := b.b.Commit(b.db.wo)
	b.b.Close()
	b.b = nil
	if err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	b.db.reclaim.add(b.deleted)
	return nil
}

// Close releases a batch that was not committed. It is safe to call after
// Commit, and twice: Pebble pools batches, so releasing one twice would hand
// the same batch to two writers.
func (b *pebbleBatch) Close() {
	if b.b != nil {
		b.b.Close()
		b.b = nil
	}
}

// encodeCounters writes each counter as 8 bytes big-endian two's
// complement. Pebble stores this format on disk; do not change it.
func encodeCounters(vals []int64) []byte {
	b := make([]byte, 8*len(vals))
	for i, v := range vals {
		binary.BigEndian.PutUint64(b[8*i:], uint64(v))
	}
	return b
}

// decodeCounters reads what encodeCounters wrote.
func decodeCounters(b []byte) []int64 {
	vals := make([]int64, len(b)/8)
	for i := range vals {
		vals[i] = int64(binary.BigEndian.Uint64(b[8*i:]))
	}
	return vals
}

// counters reads the merged counters at key from r; a missing key reads
// as zeros.
func counters(r interface {
	Get(key, dst []byte) ([]byte, bool, error)
}, key []byte, n int) ([]int64, error) {
	v, ok, err := r.Get(key, nil)
	out := make([]int64, n)
	if err != nil || !ok {
		return out, err
	}
	copy(out, decodeCounters(v))
	return out, nil
}

// counterMerger adds counter vectors element by element; the operation is
// commutative, so operand order does not matter.
type counterMerger struct{ sum []int64 }

func newCounterMerger(key, value []byte) (pebble.ValueMerger, error) {
	m := &counterMerger{}
	m.add(value)
	return m, nil
}

func (m *counterMerger) add(v []byte) {
	vals := decodeCounters(v)
	for len(m.sum) < len(vals) {
		m.sum = append(m.sum, 0)
	}
	for i, x := range vals {
		m.sum[i] += x
	}
}

func (m *counterMerger) MergeNewer(v []byte) error { m.add(v); return nil }
func (m *counterMerger) MergeOlder(v []byte) error { m.add(v); return nil }
func (m *counterMerger) Finish(bool) ([]byte, io.Closer, error) {
	return encodeCounters(m.sum), nil, nil
}

// pebbleLogger sends Pebble's log lines to slog.
type pebbleLogger struct{ l *slog.Logger }

func (p pebbleLogger) Infof(format string, args ...any) {
	p.l.Debug(fmt.Sprintf(format, args...), "component", "pebble")
}
func (p pebbleLogger) Errorf(format string, args ...any) {
	p.l.Error(fmt.Sprintf(format, args...), "component", "pebble")
}
func (p pebbleLogger) Fatalf(format string, args ...any) {
	p.l.Error(fmt.Sprintf(format, args...), "component", "pebble")
	os.Exit(1)
}
