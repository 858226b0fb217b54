package pgstore

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/dynago/dynago/internal/pgtest"
)

// TestRestart: the server stops hard and starts again; the same Store
// serves again without being reopened, and calls made while it is down
// fail rather than hang.
func TestRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a private PostgreSQL cluster")
	}
	pgtest.URL(t) // skips, with the how-to, when there is no PostgreSQL at all
	c := pgtest.NewCluster(t)
	s := openWith(t, Options{URL: c.URL, Schema: "dynago", CallTimeout: 5 * time.Second, StatementTimeout: 5 * time.Second})
	shrinkPages(t, 1, 1, 1<<20)
	set(t, s, "a", "1", "b", "2", "c", "3")

	// An iterator in the middle of a range holds a connection and a
	// transaction across the restart.
	it, _ := s.NewIter(nil, nil)
	if !it.First() || !it.Next() {
		t.Fatal("iterator")
	}
	sn, err := s.NewSnapshot()
	if err != nil {
		t.Fatal(err)
	}

	c.Stop(t)
	start := time.Now()
	if _, _, err := s.Get([]byte("a"), nil); err == nil {
		t.Error("Get succeeded with the server down")
	}
	b := s.NewBatch()
	b.Set([]byte("down"), []byte("x"))
	if err := b.Commit(); err == nil {
		t.Error("Commit succeeded with the server down")
	} else {
		t.Logf("commit while down: %v", err)
	}
	if took := time.Since(start); took > time.Minute { // a hang, not a slow machine
		t.Errorf("calls against a stopped server took %v", took)
	}
	c.Start(t)

	if it.Next() {
		t.Error("the iterator kept reading across the restart")
	}
	if it.Error() == nil {
		t.Error("the iterator reports no error")
	}
	it.Close()
	if _, _, err := sn.Get([]byte("a"), nil); err == nil {
		t.Error("the snapshot survived the restart")
	}
	sn.Close()

	// The pool reconnects: the first calls may still meet a dead idle
	// connection, so allow a few attempts.
	deadline := time.Now().Add(time.Minute)
	for {
		v, ok, err := s.Get([]byte("b"), nil)
		if err == nil {
			if !ok || string(v) != "2" {
				t.Fatalf("b = %q, %v after restart", v, ok)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("Get after restart: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	for i := range 10 {
		b := s.NewBatch()
		b.Expect([]byte("a"), []byte("1"), true)
		b.Set([]byte(fmt.Sprint("after", i)), []byte("y"))
		b.AddCounters([]byte("n"), 1)
		if err := b.Commit(); err != nil {
			t.Fatalf("commit after restart: %v", err)
		}
	}
	if got := scan(t, s, nil, nil); len(got) != 13 {
		t.Errorf("keys after restart: %q", got)
	}
	if c, err := s.Counters([]byte("n"), 1); err != nil || c[0] != 10 {
		t.Errorf("counter = %v, %v", c, err)
	}
	if err := s.Ping(context.Background()); err != nil {
		t.Error(err)
	}
	// Every connection the calls above took is back in the pool. The
	// background fold of counters takes one for a moment now and then, so
	// wait for a moment when none is out; one that leaked never comes back.
	if n := waitIdle(s, time.Minute); n != 0 {
		t.Errorf("%d connections still acquired after a minute", n)
	}
}
