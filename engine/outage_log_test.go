package engine

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"
)

// TestOutageLogRateLimits drives the outage log with a clock of its own
// through a store outage as a node sees it: a failed heartbeat ten times
// a second and the catalog poller's failures between. The first failure
// is logged at once, then one warning every ten seconds at most, counting
// the failures not logged, and one info line when the store is back.
// Outside an outage every warning is logged.
func TestOutageLogRateLimits(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey {
			return slog.Attr{}
		}
		return a
	}}))
	now := time.Date(2026, 12, 7, 0, 0, 0, 0, time.UTC)
	o := newOutageLog(log, func() time.Time { return now })
	lines := func() []string {
		defer buf.Reset()
		if buf.Len() == 0 {
			return nil
		}
		return strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	}
	down := errors.New("connection refused")

	// Before the outage, the catalog poller's warning is logged.
	o.warn("catalog refresh", "err", down)
	o.heartbeatOK()
	if got := lines(); len(got) != 1 || !strings.Contains(got[0], `level=WARN msg="catalog refresh"`) {
		t.Fatalf("a warning outside an outage: %q", got)
	}

	// 25 seconds of outage: a heartbeat every 100 ms, a catalog poll
	// every 250 ms.
	var logged []string
	for i := range 250 {
		o.heartbeatFailed("node heartbeat", "err", down)
		if i%5 == 2 {
			o.warn("catalog refresh", "err", down)
		}
		logged = append(logged, lines()...)
		now = now.Add(100 * time.Millisecond)
	}
	// 250 heartbeats and 50 polls: logged at 0 s, 10 s and 20 s.
	want := []string{
		`level=WARN msg="node heartbeat" err="connection refused"`,
		`level=WARN msg="node heartbeat" err="connection refused" suppressed=119 outage=10s`,
		`level=WARN msg="node heartbeat" err="connection refused" suppressed=119 outage=20s`,
	}
	if strings.Join(logged, "\n") != strings.Join(want, "\n") {
		t.Fatalf("logged during the outage:\n%s\nwant:\n%s", strings.Join(logged, "\n"), strings.Join(want, "\n"))
	}

	o.heartbeatOK()
	o.heartbeatOK()
	if got := lines(); len(got) != 1 || got[0] != `level=INFO msg="store reachable again" outage=25s failures=300` {
		t.Fatalf("logged when the store came back: %q", got)
	}
	// A new outage is logged at once again.
	o.heartbeatFailed("node heartbeat", "err", down)
	if got := lines(); len(got) != 1 || got[0] != `level=WARN msg="node heartbeat" err="connection refused"` {
		t.Fatalf("logged at a second outage: %q", got)
	}
}
