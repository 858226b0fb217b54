package cli

import (
	"bufio"
	"context"
	"io"
	"runtime/debug"
	"strings"
	"testing"
)

// gcPercent reads the collector's target without changing it.
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// TestPostponeGC: start-up raises the collector's target and puts the
// one it found back, once, whatever GOGC said; a GOGC above the start-up
// target, or off, is left alone.
func TestPostponeGC(t *testing.T) {
	orig := gcPercent()
	defer debug.SetGCPercent(orig)
	for _, tc := range []struct{ before, during int }{
		{100, startupGCPercent},
		{50, startupGCPercent},
		{800, 800},
		{-1, -1},
	} {
		debug.SetGCPercent(tc.before)
		restore := postponeGC()
		if got := gcPercent(); got != tc.during {
			t.Errorf("GOGC %d: during start-up %d, want %d", tc.before, got, tc.during)
		}
		restore()
		if got := gcPercent(); got != tc.before {
			t.Errorf("GOGC %d: after start-up %d, want it back", tc.before, got)
		}
		// A second call (serve's deferred one after the timer's) changes
		// nothing, even if the target was changed in between.
		debug.SetGCPercent(70)
		restore()
		if got := gcPercent(); got != 70 {
			t.Errorf("GOGC %d: a second restore set %d", tc.before, got)
		}
	}
}

// TestServeRestoresGC: a server has the collector's target back as it
// found it once it serves (before its first request), and after it stops.
func TestServeRestoresGC(t *testing.T) {
	orig := gcPercent()
	defer debug.SetGCPercent(orig)
	debug.SetGCPercent(100)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	env := &Env{Stdout: io.Discard, Stderr: pw, Ctx: ctx}
	done := make(chan error, 1)
	go func() {
		done <- runServe(env, []string{"--in-memory", "--port", "0"})
		pw.Close()
	}()
	sc := bufio.NewScanner(pr)
	for sc.Scan() && !strings.Contains(sc.Text(), "dynago serving") {
	}
	if got := gcPercent(); got != 100 {
		t.Errorf("while serving: GOGC %d, want 100", got)
	}
	cancel()
	go io.Copy(io.Discard, pr)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := gcPercent(); got != 100 {
		t.Fatalf("after the server stopped: GOGC %d, want 100", got)
	}
}
