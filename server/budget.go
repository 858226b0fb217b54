package server

import (
	"context"
	"net/netip"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"time"
)

// budget bounds the bytes of request and response buffers held at once
// across all requests: a request takes bytes as its body arrives (its
// buffer grows in steps, each taken before it is allocated), before it
// runs an operation whose answer may be large, and gives them back when
// its response is written. A request that cannot get its bytes within its
// wait is throttled instead of adding to the heap, so a burst of huge or
// slow requests degrades into ThrottlingExceptions, which SDKs retry with
// backoff, not into the server running out of memory.
//
// Each source address (an IPv4 address, or an IPv6 /64) may hold at most
// share bytes of it, so that a few clients cannot hold what all others
// need: a request over its source's share waits, or is throttled, while
// requests from other sources pass it. Within the share, and across
// sources, waiters are served in arrival order, so a large request is not
// starved by a stream of small ones.
//
// After a burst the budget hands the freed memory back to the operating
// system: once requests have taken bytes, it looks again releaseDelay
// after use falls below a quarter of the limit, and again every
// releaseDelay until a spell has been quiet (under a 64th of the limit
// taken in it, and under a quarter in use); then, if the Go runtime holds
// more than releaseSlack above what it held after the last such release,
// it collects twice (the second frees what sync.Pools, net/http's among
// them, kept through the first) and returns all free pages. A spell must
// be that quiet so that a release is not made in the middle of a burst,
// which would take the burst's memory for the floor to compare with. An
// idle server otherwise keeps a burst's garbage until the next forced GC,
// up to two minutes later, and its pages after that. The trigger is the
// runtime's own figure, not the budget's use, as a burst's memory is
// mostly not buffers the budget counts: decoded requests and items,
// connections, goroutines, compressors.
type budget struct {
	limit int64
	share int64 // the most one source may hold

	mu      sync.Mutex
	used    int64
	sources map[sourceKey]*source
	waiters []*waiter
	scan    uint64 // grant's pass, to mark the sources it found full

	// taken counts the bytes ever granted; checked is its value when
	// the last quiet check was armed, or found the budget quiet.
	taken, checked int64
	timer          *time.Timer
	// held is what the runtime held from the OS after the last release
	// to it (or at start, or lower since).
	held uint64
	// released counts the releases to the OS, for tests.
	released int
}

// sourceKey names a client's source address: an IPv4 address, or the
// /64 prefix of an IPv6 one (what one host usually has to itself).
type sourceKey = netip.Prefix

// source is the bytes one source address holds, and how many of its
// requests are in flight (it is forgotten when none is).
type source struct {
	key      sourceKey
	used     int64
	requests int
	full     uint64 // the grant pass that found it unable to take its next waiter
}

type waiter struct {
	src   *source
	n     int64
	ready chan struct{} // closed when the bytes are granted
}

const (
	// releaseSlack is how much more than after the last release the
	// runtime may hold from the OS, once quiet, before memory is given
	// back.
	releaseSlack = 16 << 20
	// releaseDelay is how long a spell must be quiet before that.
	releaseDelay = 2 * time.Second
)

// newBudget returns a budget of limit bytes of which one source may hold
// share (the whole limit if share is 0 or more).
func newBudget(limit, share int64) *budget {
	if share <= 0 || share > limit {
		share = limit
	}
	return &budget{limit: limit, share: share, sources: map[sourceKey]*source{}, held: heldFromOS()}
}

// sourceOf returns the source of a request from remoteAddr ("ip:port",
// as http.Request.RemoteAddr); all requests whose address cannot be read
// share one source.
func sourceOf(remoteAddr string) sourceKey {
	ap, err := netip.ParseAddrPort(remoteAddr)
	if err != nil {
		return sourceKey{}
	}
	ip := ap.Addr().Unmap()
	if ip.Is4() {
		return netip.PrefixFrom(ip, 32)
	}
	p, _ := ip.WithZone("").Prefix(64)
	return p
}

// join returns the source of key for one more request in flight; leave
// must be called when the request ends.
func (b *budget) join(key sourceKey) *source {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := b.sources[key]
	if s == nil {
		s = &source{key: key}
		b.sources[key] = s
	}
	s.requests++
	return s
}

// leave ends a request of s, forgetting s when it was the last.
func (b *budget) leave(s *source) {
	b.mu.Lock()
	defer b.mu.Unlock()
	s.requests--
	if s.requests == 0 && s.used == 0 {
		delete(b.sources, s.key)
	}
}

// fits reports whether n more bytes may be granted; mu is held. A request
// larger than the whole budget is granted when nothing else is held.
func (b *budget) fits(n int64) bool {
	return b.used+n <= b.limit || b.used == 0
}

// fitsSource reports whether s may hold n more bytes; mu is held. A
// request larger than the share is granted when its source holds
// nothing else. A nil source is not limited.
func (b *budget) fitsSource(s *source, n int64) bool {
	return s == nil || s.used+n <= b.share || s.used == 0
}

// acquire takes n bytes for s, waiting up to wait (or until ctx is done)
// for them. It reports whether it got them.
func (b *budget) acquire(ctx context.Context, s *source, n int64, wait time.Duration) bool {
	if n <= 0 {
		return true
	}
	b.mu.Lock()
	if len(b.waiters) == 0 && b.fits(n) && b.fitsSource(s, n) {
		b.take(s, n)
		b.mu.Unlock()
		return true
	}
	w := &waiter{src: s, n: n, ready: make(chan struct{})}
	b.waiters = append(b.waiters, w)
	// Waiters of full sources ahead do not hold this one back.
	b.grant()
	b.mu.Unlock()

	select {
	case <-w.ready:
		return true
	default:
	}
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

// tryAcquire takes n bytes for s if they are free now, within the limit
// and the source's share, ahead of any waiters.
func (b *budget) tryAcquire(s *source, n int64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.used+n > b.limit || s != nil && s.used+n > b.share {
		return false
	}
	b.take(s, n)
	return true
}

// force takes n bytes for s without waiting, even past the limit: for
// memory that is already allocated and must be accounted for.
func (b *budget) force(s *source, n int64) {
	if n <= 0 {
		return
	}
	b.mu.Lock()
	b.take(s, n)
	b.mu.Unlock()
}

// take records n more bytes in use by s; mu is held.
func (b *budget) take(s *source, n int64) {
	b.used += n
	b.taken += n
	if s != nil {
		s.used += n
	}
}

// release gives n bytes of s back.
func (b *budget) release(s *source, n int64) {
	if n <= 0 {
		return
	}
	b.mu.Lock()
	b.used -= n
	if s != nil {
		s.used -= n
		if s.used == 0 && s.requests == 0 {
			delete(b.sources, s.key)
		}
	}
	b.grant()
	if b.used < b.limit/4 && b.timer == nil && b.taken != b.checked {
		b.checked = b.taken
		b.timer = time.AfterFunc(releaseDelay, b.releaseToOS)
	}
	b.mu.Unlock()
}

// grant wakes the waiters that now fit, in order: a waiter whose source
// is at its share is passed over (and so are its source's later
// waiters), and the first that fits its share but not the budget stops
// the pass. mu is held.
func (b *budget) grant() {
	b.scan++
	for i := 0; i < len(b.waiters); {
		w := b.waiters[i]
		if w.src != nil && (w.src.full == b.scan || !b.fitsSource(w.src, w.n)) {
			w.src.full = b.scan
			i++
			continue
		}
		if !b.fits(w.n) {
			return
		}
		b.waiters = append(b.waiters[:i], b.waiters[i+1:]...)
		b.take(w.src, w.n)
		close(w.ready)
	}
}

// releaseToOS returns freed memory to the OS if the spell since it was
// armed was quiet and the runtime holds releaseSlack more than after the
// last release; while requests keep taking bytes it looks again after
// another releaseDelay.
func (b *budget) releaseToOS() {
	b.mu.Lock()
	quiet := b.used < b.limit/4 && b.taken-b.checked < b.limit/64
	b.checked = b.taken
	if !quiet {
		b.timer = time.AfterFunc(releaseDelay, b.releaseToOS)
		b.mu.Unlock()
		return
	}
	b.timer = nil
	base := b.held
	b.mu.Unlock()

	held := heldFromOS()
	released := held > base+releaseSlack
	if released {
		runtime.GC()
		debug.FreeOSMemory()
		held = heldFromOS()
	}
	b.mu.Lock()
	if released || held < b.held {
		b.held = held
	}
	if released {
		b.released++
	}
	b.mu.Unlock()
}

// heldFromOS returns the memory the Go runtime holds from the operating
// system and has not returned: about the process's RSS, less what is not
// Go's.
func heldFromOS() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64() - s[1].Value.Uint64()
}

// inUse returns the bytes held now.
func (b *budget) inUse() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used
}

// sourceInUse returns the bytes the source key holds now.
func (b *budget) sourceInUse(key sourceKey) int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	if s := b.sources[key]; s != nil {
		return s.used
	}
	return 0
}
