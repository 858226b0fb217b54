// Package netlimit caps the connections an HTTP server holds open at once.
//
// A Listener serves at most Max connections. At the cap it accepts one
// more connection and holds it, unserved, until a slot frees; the ones
// after it stay in the kernel's listen backlog, where they cost the
// server nothing. While it holds one, it closes the connection that has
// been idle (a keep-alive connection between requests) the longest, as
// net/http's IdleTimeout would later, so a flood of idle connections
// cannot lock well-behaved clients out: they are let in as fast as idle
// ones are shed. Connections known to be in a request are never closed
// here; the server's timeouts cut the stalled ones. As with net/http's own
// idle timeout, a request that arrives on an idle connection at the very
// moment it is shed can be cut before its answer (net/http reports a
// connection active only once the request's headers are read); clients
// retry it, so a non-idempotent request may then run twice, rarely.
//
// Holding accept rather than accepting and answering 503 is deliberate: an
// extra connection then costs no goroutine or buffer (and but one file
// descriptor in all), a flood cannot make the server spin accepting and
// refusing, and a client is served late instead of failed. The price is
// that a client at the cap sees a slow answer, not an error; its own
// timeout decides.
//
// The server must report connection states and requests: call Attach on
// its http.Server.
package netlimit

import (
	"context"
	"errors"
	"net"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// Listener wraps a net.Listener and limits the connections open at once.
// Create it with New.
type Listener struct {
	net.Listener

	// OnFull, if set, is called when Accept reaches the cap and starts
	// waiting, at most once every FullReportInterval, with the cap.
	OnFull func(max int)
	// OnClose, if set, is called from ConnState when a connection has
	// closed, with what is known of its end.
	OnClose func(c net.Conn, end End)

	max   int
	slots chan struct{} // one token per open connection
	done  chan struct{}
	once  sync.Once

	mu         sync.Mutex
	idle       map[*Conn]time.Time // connections between requests, since when
	lastReport time.Time
}

// End describes how a connection ended.
type End struct {
	// Last is the state before StateClosed: StateNew for a connection
	// that sent nothing, StateActive for one that sent (part of) a
	// request, StateIdle for one closed between requests.
	Last http.ConnState
	// Open is how long the connection was open.
	Open time.Duration
	// Stalled is set when, since the connection's last request ended,
	// a read of it timed out before a request reached the handler: the
	// client did not send a complete request header in time. A read
	// that times out in a handler (a body timeout, which the handler
	// answers) or while idle (the idle timeout) does not count.
	Stalled bool
}

// FullReportInterval is the least time between two OnFull calls.
const FullReportInterval = 10 * time.Second

// evictPoll is how often a waiting Accept looks again for an idle
// connection to close.
const evictPoll = 20 * time.Millisecond

// New returns a Listener over l that holds at most max connections open.
func New(l net.Listener, max int) *Listener {
	if max < 1 {
		max = 1
	}
	return &Listener{
		Listener: l,
		max:      max,
		slots:    make(chan struct{}, max),
		done:     make(chan struct{}),
		idle:     map[*Conn]time.Time{},
	}
}

// Max returns the cap.
func (l *Listener) Max() int { return l.max }

// Open returns the number of connections open now.
func (l *Listener) Open() int { return len(l.slots) }

// Accept accepts the next connection and, at the cap, holds it until a
// slot frees, closing idle connections to free one.
func (l *Listener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	select {
	case l.slots <- struct{}{}:
	default:
		if err := l.waitSlot(); err != nil {
			c.Close()
			return nil, err
		}
	}
	return &Conn{Conn: c, l: l, accepted: time.Now(), state: http.StateNew}, nil
}

// waitSlot waits at the cap for a slot, shedding the longest-idle
// connection whenever there is one.
func (l *Listener) waitSlot() error {
	l.mu.Lock()
	report := l.OnFull != nil && time.Since(l.lastReport) >= FullReportInterval
	if report {
		l.lastReport = time.Now()
	}
	l.mu.Unlock()
	if report {
		l.OnFull(l.max)
	}
	t := time.NewTicker(evictPoll)
	defer t.Stop()
	for {
		l.evictIdle()
		select {
		case l.slots <- struct{}{}:
			return nil
		case <-l.done:
			return net.ErrClosed
		case <-t.C:
		}
	}
}

// evictIdle closes the connection idle the longest, if any.
func (l *Listener) evictIdle() {
	l.mu.Lock()
	var oldest *Conn
	var since time.Time
	for c, t := range l.idle {
		if oldest == nil || t.Before(since) {
			oldest, since = c, t
		}
	}
	if oldest != nil {
		delete(l.idle, oldest)
	}
	l.mu.Unlock()
	if oldest != nil {
		oldest.Close()
	}
}

// Close closes the listener and wakes an Accept waiting for a slot.
// Connections already accepted stay open.
func (l *Listener) Close() error {
	l.once.Do(func() { close(l.done) })
	return l.Listener.Close()
}

// Attach makes srv report to l: connection states (ConnState), and which
// connections reached the handler (ConnContext and a wrapped Handler,
// for End.Stalled). Call it before srv serves l.
func (l *Listener) Attach(srv *http.Server) {
	srv.ConnState = l.ConnState
	prev := srv.ConnContext
	srv.ConnContext = func(ctx context.Context, c net.Conn) context.Context {
		if prev != nil {
			ctx = prev(ctx, c)
		}
		if c, ok := c.(*Conn); ok && c.l == l {
			ctx = context.WithValue(ctx, connKey{}, c)
		}
		return ctx
	}
	h := srv.Handler
	if h == nil {
		h = http.DefaultServeMux
	}
	srv.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if c, ok := r.Context().Value(connKey{}).(*Conn); ok {
			c.handled.Store(true)
		}
		h.ServeHTTP(w, r)
	})
}

type connKey struct{}

// ConnState records the connection states net/http reports; set it as
// http.Server.ConnState.
func (l *Listener) ConnState(nc net.Conn, s http.ConnState) {
	c, ok := nc.(*Conn)
	if !ok || c.l != l {
		return
	}
	l.mu.Lock()
	last := c.state
	c.state = s
	if s == http.StateIdle {
		l.idle[c] = time.Now()
		c.timedOut.Store(false)
		c.handled.Store(false)
	} else {
		delete(l.idle, c)
	}
	l.mu.Unlock()
	if s == http.StateClosed && l.OnClose != nil {
		l.OnClose(c, End{
			Last:    last,
			Open:    time.Since(c.accepted),
			Stalled: last != http.StateIdle && c.timedOut.Load() && !c.handled.Load(),
		})
	}
}

// Conn is a connection accepted by a Listener; closing it frees its slot.
type Conn struct {
	net.Conn
	l        *Listener
	accepted time.Time
	state    http.ConnState // guarded by l.mu
	once     sync.Once
	timedOut atomic.Bool // a read timed out since the last request
	handled  atomic.Bool // a request reached the handler since the last one
}

// Read reads from the connection, noting a timeout.
func (c *Conn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if err != nil && errors.Is(err, os.ErrDeadlineExceeded) {
		c.timedOut.Store(true)
	}
	return n, err
}

// CloseWrite half-closes the connection when it can. net/http does so
// before closing a connection whose request body it did not read (a 413,
// a throttled or timed-out request), so that the client reads the answer
// instead of a reset; the wrapper must not hide it.
func (c *Conn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// Close closes the connection and frees its slot.
func (c *Conn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() {
		c.l.mu.Lock()
		delete(c.l.idle, c)
		c.l.mu.Unlock()
		<-c.l.slots
	})
	return err
}
