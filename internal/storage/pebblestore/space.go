package pebblestore

import (
	"errors"
	"fmt"
	"sync/atomic"
	"time"

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
// knows the free space less what the commits admitted since it was read
// (and those in flight) write, and refuses a batch that would eat into the
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
//
// Reading the free space is a system call (statfs), which cost about a
// twentieth of a small write's CPU when every commit made it. The guard
// reads it again only when its last reading is older than
// spaceReadingAge, when the commits admitted since have written a quarter
// of the room above the reserve that reading found (at most
// spaceReadingBytes), or when the reading would refuse the commit: a
// commit is refused only on a fresh reading, so writes are admitted again
// as soon as space is back.
type spaceGuard struct {
	fs      vfs.FS
	dir     string
	reserve uint64
	// pending is what admitted commits still in flight are writing.
	pending atomic.Int64
	// admitted is what the commits admitted so far write, in all.
	admitted atomic.Int64
	// last is the latest reading of the free space; nil before the first.
	last atomic.Pointer[spaceReading]
	// refused counts the commits refused (Stats).
	refused atomic.Int64
}

// The bounds on a reading's use (spaceGuard).
const (
	spaceReadingAge   = 50 * time.Millisecond
	spaceReadingBytes = 4 << 20
)

// spaceReading is one reading of the data directory's free space.
type spaceReading struct {
	avail int64     // the free space then
	at    time.Time // when
	base  int64     // spaceGuard.admitted before the reading
	// budget is what the commits admitted after it may write before the
	// free space is read again.
	budget int64
}

// admit reserves n bytes for a commit, or returns ErrDiskFull. The caller
// calls release(n) once the commit has returned.
func (g *spaceGuard) admit(n int, frees bool) error {
	reserve := int64(g.reserve)
	if frees {
		reserve /= 2
	}
	inFlight := g.pending.Add(int64(n))
	if r := g.last.Load(); r != nil {
		// What the commits admitted since the reading write, this one's
		// included; those still in flight count twice, with inFlight.
		since := g.admitted.Load() - r.base + int64(n)
		if since <= r.budget && r.avail-since-inFlight >= reserve && time.Since(r.at) < spaceReadingAge {
			g.admitted.Add(int64(n))
			return nil
		}
	}
	base := g.admitted.Load()
	u, err := g.fs.GetDiskUsage(g.dir)
	if err != nil {
		g.pending.Add(-int64(n))
		return fmt.Errorf("free space of the data directory: %w", err)
	}
	r := &spaceReading{avail: int64(u.AvailBytes), at: time.Now(), base: base}
	if room := r.avail - int64(g.reserve); room > 0 {
		r.budget = min(room/4, spaceReadingBytes)
	}
	g.last.Store(r)
	if r.avail-inFlight < reserve {
		g.pending.Add(-int64(n))
		g.refused.Add(1)
		return ErrDiskFull
	}
	g.admitted.Add(int64(n))
	return nil
}

func (g *spaceGuard) release(n int) { g.pending.Add(-int64(n)) }
