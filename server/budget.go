package server

import (
	"context"
	"runtime/debug"
	"sync"
	"time"
)

// budget bounds the bytes of request and response buffers held at once
// across all requests: a request takes bytes before it grows its body
// buffer, before it runs an operation whose answer may be large, and
// gives them back when its response is written. A request that cannot
// get its bytes within its wait is throttled instead of adding to the
// heap, so a burst of huge or slow requests degrades into
// ThrottlingExceptions, which SDKs retry with backoff, not into the
// server running out of memory.
//
// Waiters are served in arrival order, so a large request is not starved
// by a stream of small ones.
//
// After a burst, when more than releaseAfter bytes (or half the limit)
// were in use and use
// has fallen below a quarter of the limit for releaseDelay, the budget
// hands the freed memory back to the operating system (a GC and a full
// scavenge). An idle server otherwise keeps a burst's garbage until the
// next forced GC, up to two minutes later, and its pages after that.
type budget struct {
	limit int64

	mu      sync.Mutex
	used    int64
	waiters []*waiter
	peak    int64 // highest use since the last release to the OS
	timer   *time.Timer
}

type waiter struct {
	n     int64
	ready chan struct{} // closed when the bytes are granted
}

const (
	// releaseAfter is the peak use that makes a later quiet spell give
	// memory back to the OS.
	releaseAfter = 64 << 20
	// releaseDelay is how long use must stay low before that.
	releaseDelay = 2 * time.Second
)

func newBudget(limit int64) *budget { return &budget{limit: limit} }

// fits reports whether n more bytes may be granted; mu is held. A request
// larger than the whole budget is granted when nothing else is held.
func (b *budget) fits(n int64) bool {
	return b.used+n <= b.limit || b.used == 0
}

// acquire takes n bytes, waiting up to wait (or until ctx is done) for
// them. It reports whether it got them.
func (b *budget) acquire(ctx context.Context, n int64, wait time.Duration) bool {
	if n <= 0 {
		return true
	}
	b.mu.Lock()
	if len(b.waiters) == 0 && b.fits(n) {
		b.take(n)
		b.mu.Unlock()
		return true
	}
	w := &waiter{n: n, ready: make(chan struct{})}
	b.waiters = append(b.waiters, w)
	b.mu.Unlock()

	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-w.ready:
		return true
	case <-t.C:
	case <-ctx.Done():
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	select {
	case <-w.ready:
		// Granted while timing out: keep it.
		return true
	default:
	}
	for i, x := range b.waiters {
		if x == w {
			b.waiters = append(b.waiters[:i], b.waiters[i+1:]...)
			break
		}
	}
	// Leaving the head of the queue may let those behind in.
	b.grant()
	return false
}

// tryAcquire takes n bytes if they are free now, ahead of any waiters:
// for a request that already holds bytes and must not wait while holding
// them.
func (b *budget) tryAcquire(n int64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.used+n > b.limit {
		return false
	}
	b.take(n)
	return true
}

// force takes n bytes without waiting, even past the limit: for memory
// that is already allocated and must be accounted for.
func (b *budget) force(n int64) {
	if n <= 0 {
		return
	}
	b.mu.Lock()
	b.take(n)
	b.mu.Unlock()
}

// take records n more bytes in use; mu is held.
func (b *budget) take(n int64) {
	b.used += n
	if b.used > b.peak {
		b.peak = b.used
	}
}

// release gives n bytes back.
func (b *budget) release(n int64) {
	if n <= 0 {
		return
	}
	b.mu.Lock()
	b.used -= n
	b.grant()
	if b.peak >= min(releaseAfter, b.limit/2) && b.used < b.limit/4 && b.timer == nil {
		b.timer = time.AfterFunc(releaseDelay, b.releaseToOS)
	}
	b.mu.Unlock()
}

// grant wakes the waiters at the head of the queue that now fit; mu is
// held.
func (b *budget) grant() {
	for len(b.waiters) > 0 && b.fits(b.waiters[0].n) {
		w := b.waiters[0]
		b.waiters = b.waiters[1:]
		b.take(w.n)
		close(w.ready)
	}
}

// releaseToOS returns freed memory to the OS if use is still low.
func (b *budget) releaseToOS() {
	b.mu.Lock()
	b.timer = nil
	low := b.used < b.limit/4
	if low {
		b.peak = b.used
	}
	b.mu.Unlock()
	if low {
		debug.FreeOSMemory()
	}
}

// inUse returns the bytes held now.
func (b *budget) inUse() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used
}
