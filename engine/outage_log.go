package engine

import (
	"log/slog"
	"sync"
	"time"
)

// outageLogEvery is how often, at most, the background work of a node on
// a shared store repeats its warning while the store cannot be reached:
// the heartbeat alone fails ten times a second then.
const outageLogEvery = 10 * time.Second

// outageLog keeps a node's log readable through a store outage. The
// heartbeat, which writes to the store every heartbeatEvery, tells it
// when the store fails and when it answers again. The first failure is
// logged at once; then one warning at most every outageLogEvery, with
// how many failures were not logged since the last (the heartbeat's and
// the other background work's: the catalog poller, the leases); and one
// info line when the heartbeat succeeds again. Outside an outage the
// other background work's warnings are logged as they come.
type outageLog struct {
	log   *slog.Logger
	now   func() time.Time
	every time.Duration

	mu         sync.Mutex
	down       bool      // the last heartbeat failed
	since      time.Time // the first failure of the outage
	logged     time.Time // the last warning logged
	suppressed int       // failures not logged since then
	failures   int       // failures of the outage, logged or not
}

func newOutageLog(log *slog.Logger, now func() time.Time) *outageLog {
	return &outageLog{log: log, now: now, every: outageLogEvery}
}

// heartbeatFailed records a failed heartbeat, logging it at once when it
// starts an outage and at most every o.every after.
func (o *outageLog) heartbeatFailed(msg string, args ...any) {
	o.mu.Lock()
	defer o.mu.Unlock()
	now := o.now()
	o.failures++
	if !o.down {
		o.down, o.since, o.logged, o.suppressed = true, now, now, 0
		o.log.Warn(msg, args...)
		return
	}
	o.warnDue(now, msg, args)
}

// heartbeatOK records a heartbeat that succeeded, ending an outage.
func (o *outageLog) heartbeatOK() {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.down {
		return
	}
	now := o.now()
	o.log.Info("store reachable again", "outage", now.Sub(o.since).Round(time.Millisecond), "failures", o.failures)
	o.down, o.failures, o.suppressed = false, 0, 0
}

// warn logs a failure of other background work: at once outside an
// outage, else counted with the heartbeat's and logged at most every
// o.every.
func (o *outageLog) warn(msg string, args ...any) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.down {
		o.log.Warn(msg, args...)
		return
	}
	o.failures++
	o.warnDue(o.now(), msg, args)
}

// warnDue logs msg when o.every has passed since the last warning, with
// the failures not logged meanwhile, and counts it as not logged else.
func (o *outageLog) warnDue(now time.Time, msg string, args []any) {
	if now.Sub(o.logged) < o.every {
		o.suppressed++
		return
	}
	o.log.Warn(msg, append(args, "suppressed", o.suppressed, "outage", now.Sub(o.since).Round(time.Millisecond))...)
	o.logged, o.suppressed = now, 0
}
