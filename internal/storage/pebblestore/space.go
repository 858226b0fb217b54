package pebblestore

import (
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/cockroachdb/pebble/v2/vfs"
)

// ErrDiskFull is returned by a Pebble batch's Commit, with nothing
// applied, when the data directory's file system has too little space
// left for it (see spaceGuard). Writes are admitted again once space is
// freed; reads go on meanwhile.
var ErrDiskFull = errors.New("storage: the data directory's file system is nearly full; writes are refused until space is freed")

// defaultReserveSlack is what a reserve keeps beyond its memtables: room
// for the manifest, a new log file and the options file.
const defaultReserveSlack = 4 << 20

// spaceGuard refuses the commits that would leave less than its reserve
// free on the data directory's file system.
//
// Pebble treats a failed write of its log or manifest as fatal: it stops
// the process rather than unwind (see its db.go, "fatal commit error",
// and version_set.go). A write it is given must therefore fit. The guard
// reads the free space before every commit, less what commits in flight
// are about to write, and refuses a batch that would eat into the
// reserve, which is kept for what Pebble writes on its own: the flush of
// the memtable (at most its size) and of those queued behind it, a new log,
// the manifest. So a full disk makes writes fail, unapplied, rather than
// the process stop, and the memtable can still be flushed at shutdown or
// on the next start. A batch that deletes ranges (a DeleteTable, an
// index's removal, a stream's trim) may use half the reserve: it is how
// space comes back.
//
// A disk filled by someone else faster than the reserve can absorb can
// still make a log write fail; Pebble then stops the process, and every
// acknowledged write survives it as it survives any crash.
type spaceGuard struct {
	fs      vfs.FS
	dir     string
	reserve uint64
	// pending is what admitted commits still in flight are writing.
	pending atomic.Int64
	// refused counts the commits refused (Stats).
	refused atomic.Int64
}

// admit reserves n bytes for a commit, or returns ErrDiskFull. The caller
// calls release(n) once the commit has returned.
func (g *spaceGuard) admit(n int, frees bool) error {
	u, err := g.fs.GetDiskUsage(g.dir)
	if err != nil {
		return fmt.Errorf("free space of the data directory: %w", err)
	}
	reserve := g.reserve
	if frees {
		reserve /= 2
	}
	inFlight := g.pending.Add(int64(n))
	if int64(u.AvailBytes)-inFlight < int64(reserve) {
		g.pending.Add(-int64(n))
		g.refused.Add(1)
		return ErrDiskFull
	}
	return nil
}

func (g *spaceGuard) release(n int) { g.pending.Add(-int64(n)) }
