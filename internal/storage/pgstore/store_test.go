package pgstore

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dynago/dynago/internal/pgtest"
	"github.com/dynago/dynago/internal/storage"
	"github.com/jackc/pgx/v5"
)

func TestSetGetDelete(t *testing.T) {
	s := openTest(t, Options{})
	if !s.Shared() {
		t.Error("Shared() = false")
	}
	if err := s.Ping(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, ok := get(t, s, "a"); ok {
		t.Fatal("a exists in an empty store")
	}
	set(t, s, "a", "1", "b", "2", "", "empty key", "e", "")
	for k, want := range map[string]string{"a": "1", "b": "2", "": "empty key", "e": ""} {
		if v, ok := get(t, s, k); !ok || v != want {
			t.Errorf("get %q = %q, %v; want %q", k, v, ok, want)
		}
	}
	// Get appends to dst.
	v, ok, err := s.Get([]byte("a"), []byte("x"))
	if err != nil || !ok || string(v) != "x1" {
		t.Errorf("Get with dst = %q, %v, %v", v, ok, err)
	}
	// View.
	var seen string
	ok, err = s.View([]byte("b"), func(v []byte) error { seen = string(v); return nil })
	if err != nil || !ok || seen != "2" {
		t.Errorf("View = %v, %v, %q", ok, err, seen)
	}
	ok, err = s.View([]byte("zz"), func([]byte) error { t.Error("fn called for a missing key"); return nil })
	if err != nil || ok {
		t.Errorf("View missing = %v, %v", ok, err)
	}
	boom := errors.New("boom")
	if _, err := s.View([]byte("b"), func([]byte) error { return boom }); !errors.Is(err, boom) {
		t.Errorf("View fn error = %v", err)
	}

	b := s.NewBatch()
	b.Delete([]byte("a"))
	b.Set([]byte("b"), []byte("3"))
	b.Set([]byte("b"), []byte("4")) // the later write wins
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	if _, ok := get(t, s, "a"); ok {
		t.Error("a survived its delete")
	}
	if v, _ := get(t, s, "b"); v != "4" {
		t.Errorf("b = %q, want 4", v)
	}
}

func TestBatchLifecycle(t *testing.T) {
	s := openTest(t, Options{})
	b := s.NewBatch()
	if !b.Empty() {
		t.Error("new batch not empty")
	}
	b.Expect([]byte("k"), nil, false)
	if !b.Empty() {
		t.Error("a batch with only an expectation is not empty")
	}
	if err := b.AddCounters([]byte("c"), 1, 2, 3, 4, 5); err == nil {
		t.Error("five counters accepted")
	}
	b.Set([]byte("k"), []byte("v"))
	if b.Empty() {
		t.Error("batch with a Set is empty")
	}
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := b.Commit(); err == nil {
		t.Error("second Commit succeeded")
	}
	b.Close()
	b.Close()

	b = s.NewBatch()
	b.Set([]byte("never"), []byte("x"))
	b.Close()
	if err := b.Commit(); err == nil {
		t.Error("Commit after Close succeeded")
	}
	if _, ok := get(t, s, "never"); ok {
		t.Error("a closed batch was applied")
	}
	// An empty batch commits without touching the database.
	if err := s.NewBatch().Commit(); err != nil {
		t.Error(err)
	}
}

func TestExpectations(t *testing.T) {
	s := openTest(t, Options{})
	big := strings.Repeat("x", 10000)
	set(t, s, "k", "v1", "big", big)

	commit := func(f func(b storage.Batch)) error {
		b := s.NewBatch()
		f(b)
		return b.Commit()
	}
	// Holds: applied.
	if err := commit(func(b storage.Batch) {
		b.Expect([]byte("k"), []byte("v1"), true)
		b.Expect([]byte("big"), []byte(big), true)
		b.Expect([]byte("none"), nil, false)
		b.Set([]byte("k"), []byte("v2"))
	}); err != nil {
		t.Fatal(err)
	}
	if v, _ := get(t, s, "k"); v != "v2" {
		t.Fatalf("k = %q", v)
	}
	cases := []struct {
		name string
		key  string
		val  string
		ok   bool
	}{
		{"changed value", "k", "v1", true},
		{"absent expected present", "k", "", false},
		{"present expected absent", "none", "x", true},
		{"big value changed", "big", big[:9999] + "y", true},
		{"big value of another length", "big", big + "x", true},
	}
	for _, c := range cases {
		err := commit(func(b storage.Batch) {
			b.Set([]byte("w"), []byte("must not apply"))
			b.Delete([]byte("k"))
			b.AddCounters([]byte("cnt"), 1)
			b.Expect([]byte(c.key), []byte(c.val), c.ok)
		})
		if !errors.Is(err, storage.ErrConflict) {
			t.Errorf("%s: err = %v, want ErrConflict", c.name, err)
		}
		if _, ok := get(t, s, "w"); ok {
			t.Errorf("%s: a write applied despite the conflict", c.name)
		}
		if v, _ := get(t, s, "k"); v != "v2" {
			t.Errorf("%s: k = %q", c.name, v)
		}
		if c, _ := s.Counters([]byte("cnt"), 1); c[0] != 0 {
			t.Errorf("counter added despite the conflict: %v", c)
		}
	}
	// Expectations alone are checked.
	if err := commit(func(b storage.Batch) { b.Expect([]byte("k"), []byte("v1"), true) }); !errors.Is(err, storage.ErrConflict) {
		t.Errorf("expectation-only batch: %v", err)
	}
	if err := commit(func(b storage.Batch) { b.Expect([]byte("k"), []byte("v2"), true) }); err != nil {
		t.Errorf("expectation-only batch that holds: %v", err)
	}
	// The empty value is a value, not absence.
	set(t, s, "e", "")
	if err := commit(func(b storage.Batch) { b.Expect([]byte("e"), nil, false) }); !errors.Is(err, storage.ErrConflict) {
		t.Errorf("empty value expected absent: %v", err)
	}
	if err := commit(func(b storage.Batch) { b.Expect([]byte("e"), []byte{}, true) }); err != nil {
		t.Errorf("empty value expected: %v", err)
	}
	// The session is usable after a conflict (the aborted transaction
	// was rolled back).
	for range 5 {
		if err := commit(func(b storage.Batch) { b.Expect([]byte("k"), []byte("no"), true) }); !errors.Is(err, storage.ErrConflict) {
			t.Fatal(err)
		}
		set(t, s, "after", "ok")
	}
	// A leak holds a connection for good; the store's background fold
	// of counters takes one for a moment now and then (and pgxpool's
	// health check, the idle ones), so the count must come back to zero,
	// not be zero at one instant.
	if n := waitIdle(s, time.Minute); n != 0 {
		st := s.pool.Stat()
		t.Errorf("%d connections still acquired after a minute (total %d, new %d)", n, st.TotalConns(), st.NewConnsCount())
	}
}

func TestSchemaVersionRefused(t *testing.T) {
	u, schema := pgtest.Schema(t)
	s := openWith(t, Options{URL: u, Schema: schema})
	s.Close()
	conn, err := pgx.Connect(context.Background(), u)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(context.Background(), "UPDATE "+pgx.Identifier{schema, "schema_version"}.Sanitize()+" SET version = 99"); err != nil {
		t.Fatal(err)
	}
	_, err = Open(context.Background(), Options{URL: u, Schema: schema})
	want := fmt.Sprintf("database schema version 99 is newer than this dynago (%d); upgrade dynago", SchemaVersion)
	if err == nil || err.Error() != want {
		t.Fatalf("Open = %v, want %q", err, want)
	}
	var sv *SchemaVersionError
	if !errors.As(err, &sv) || sv.Database != 99 {
		t.Errorf("error %T", err)
	}
}

// TestConcurrentOpen: several processes opening an empty database at
// once all succeed and agree.
func TestConcurrentOpen(t *testing.T) {
	u, schema := pgtest.Schema(t)
	const n = 8
	errs := make(chan error, n)
	stores := make(chan *Store, n)
	for range n {
		go func() {
			s, err := Open(context.Background(), Options{URL: u, Schema: schema, MaxConns: 2, Logger: testLogger(t)})
			errs <- err
			stores <- s
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			t.Error(err)
		}
		if s := <-stores; s != nil {
			defer s.Close()
		}
	}
	s := openWith(t, Options{URL: u, Schema: schema})
	set(t, s, "k", "v")
}

// TestOpenUnreachable: Open gives up within seconds, naming the address
// and not the password.
func TestOpenUnreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	start := time.Now()
	_, err = Open(context.Background(), Options{URL: "postgres://someone:sekrit@" + addr + "/db?sslmode=disable"})
	took := time.Since(start)
	if err == nil {
		t.Fatal("Open succeeded")
	}
	t.Logf("after %v: %v", took, err)
	// Open's own bound is 10 s (openTimeout); 25 s leaves a busy machine
	// room and still tells it from the 30 s call timeout.
	if took > 25*time.Second {
		t.Errorf("Open took %v", took)
	}
	if !strings.Contains(err.Error(), addr) {
		t.Errorf("error does not name %s: %v", addr, err)
	}
	if strings.Contains(err.Error(), "sekrit") {
		t.Errorf("error shows the password: %v", err)
	}

	// A server that takes the connection and never answers: the connect
	// timeout bounds it. It is on loopback, holding what it accepts.
	hole, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer hole.Close()
	var held []net.Conn
	accepted := make(chan struct{})
	go func() {
		defer close(accepted)
		for {
			c, err := hole.Accept()
			if err != nil {
				return
			}
			held = append(held, c)
		}
	}()
	defer func() {
		hole.Close()
		<-accepted
		for _, c := range held {
			c.Close()
		}
	}()
	start = time.Now()
	_, err = Open(context.Background(), Options{URL: "postgres://someone:sekrit@" + hole.Addr().String() + "/db?sslmode=disable&connect_timeout=2"})
	if err == nil {
		t.Fatal("Open succeeded")
	}
	if took := time.Since(start); took > 25*time.Second {
		t.Errorf("Open of a black hole took %v", took)
	}
	if strings.Contains(err.Error(), "sekrit") {
		t.Errorf("error shows the password: %v", err)
	}
}

func TestSnapshot(t *testing.T) {
	s := openTest(t, Options{})
	set(t, s, "a", "1", "b", "1", "c", "1")
	b := s.NewBatch()
	b.AddCounters([]byte("n"), 5)
	b.Commit()
	sn, err := s.NewSnapshot()
	if err != nil {
		t.Fatal(err)
	}
	// Writes continue, from another goroutine, after the snapshot.
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 2; i < 20; i++ {
			b := s.NewBatch()
			v := fmt.Sprint(i)
			b.Set([]byte("a"), []byte(v))
			b.Set([]byte("b"), []byte(v))
			b.Delete([]byte("c"))
			b.Set([]byte("d"), []byte(v))
			b.AddCounters([]byte("n"), 1)
			if err := b.Commit(); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	for range 10 {
		for _, k := range []string{"a", "b", "c"} {
			if v, ok := get(t, sn, k); !ok || v != "1" {
				t.Errorf("snapshot %s = %q, %v", k, v, ok)
			}
		}
		if _, ok := get(t, sn, "d"); ok {
			t.Error("snapshot sees d")
		}
		if got := scan(t, sn, nil, nil); !slices.Equal(got, []string{"a", "b", "c"}) {
			t.Errorf("snapshot keys %q", got)
		}
		if c, err := sn.Counters([]byte("n"), 1); err != nil || c[0] != 5 {
			t.Errorf("snapshot counter = %v, %v", c, err)
		}
	}
	<-done
	if err := sn.Close(); err != nil {
		t.Error(err)
	}
	if _, _, err := sn.Get([]byte("a"), nil); err == nil {
		t.Error("Get on a closed snapshot succeeded")
	}
	if v, _ := get(t, s, "a"); v != "19" {
		t.Errorf("a = %q", v)
	}
	if c, _ := s.Counters([]byte("n"), 1); c[0] != 23 {
		t.Errorf("n = %v", c)
	}
	// A leak holds a connection for good; the store's background fold
	// of counters takes one for a moment now and then (and pgxpool's
	// health check, the idle ones), so the count must come back to zero,
	// not be zero at one instant.
	if n := waitIdle(s, time.Minute); n != 0 {
		st := s.pool.Stat()
		t.Errorf("%d connections still acquired after a minute (total %d, new %d)", n, st.TotalConns(), st.NewConnsCount())
	}
}

// TestIterConsistentView: an iterator that crosses many pages sees one
// view while batches rewrite every key.
func TestIterConsistentView(t *testing.T) {
	s := openTest(t, Options{})
	shrinkPages(t, 4, 8, 1<<20)
	const n = 100
	write := func(gen int) error {
		b := s.NewBatch()
		for i := range n {
			b.Set(fmt.Appendf(nil, "k%03d", i), fmt.Appendf(nil, "%d", gen))
		}
		return b.Commit()
	}
	if err := write(0); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for gen := 1; ; gen++ {
			select {
			case <-stop:
				return
			default:
			}
			if err := write(gen); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	for round := range 20 {
		it, err := s.NewIter(nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		var gen string
		count := 0
		for ok := it.First(); ok; ok = it.Next() {
			if count == 0 {
				gen = string(it.Value())
			} else if string(it.Value()) != gen {
				t.Fatalf("round %d: key %s has generation %s, the first had %s", round, it.Key(), it.Value(), gen)
			}
			count++
			if count%10 == 0 {
				time.Sleep(time.Millisecond)
			}
		}
		// And back again, in the same view.
		for ok := it.Last(); ok; ok = it.Prev() {
			if string(it.Value()) != gen {
				t.Fatalf("round %d backward: key %s has generation %s, want %s", round, it.Key(), it.Value(), gen)
			}
		}
		if err := it.Close(); err != nil {
			t.Fatal(err)
		}
		if count != n {
			t.Fatalf("round %d: %d keys", round, count)
		}
	}
	close(stop)
	<-done
}

// TestNoConnectionLeak: a pool of two survives a thousand iterators and
// snapshots, closed or abandoned in every state.
func TestNoConnectionLeak(t *testing.T) {
	s := openTest(t, Options{MaxConns: 2, CallTimeout: 10 * time.Second})
	shrinkPages(t, 2, 4, 1<<20)
	var kv []string
	for i := range 20 {
		kv = append(kv, fmt.Sprintf("k%02d", i), "v")
	}
	set(t, s, kv...)
	for i := range 1000 {
		it, err := s.NewIter(nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		switch i % 5 {
		case 0: // never positioned
		case 1:
			it.First()
			it.Next()
			it.Next() // past the first page: holds a transaction
		case 2:
			for it.First(); it.Valid(); it.Next() {
			}
		case 3:
			it.SeekLT([]byte("k10"))
			it.Prev()
		case 4:
			it.Last()
			it.SeekGE([]byte("zzz"))
		}
		if err := it.Close(); err != nil {
			t.Fatal(err)
		}
		it.Close() // twice is fine
		if i%50 == 0 {
			sn, err := s.NewSnapshot()
			if err != nil {
				t.Fatal(err)
			}
			it, _ := sn.NewIter(nil, nil)
			it.Last()
			it.Close()
			sn.Close()
			sn.Close()
		}
	}
	// A leak holds a connection for good; the store's background fold
	// of counters takes one for a moment now and then (and pgxpool's
	// health check, the idle ones), so the count must come back to zero,
	// not be zero at one instant.
	if n := waitIdle(s, time.Minute); n != 0 {
		st := s.pool.Stat()
		t.Errorf("%d connections still acquired after a minute (total %d, new %d)", n, st.TotalConns(), st.NewConnsCount())
	}
	// A failed iterator releases too: a query on a closed... (a page read
	// in an aborted transaction) — and Close of the store releases an
	// iterator nobody closed.
	it, _ := s.NewIter(nil, nil)
	it.First()
	it.Next()
	it.Next()
	it.Next() // holds a connection
	done := make(chan struct{})
	go func() { s.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("Close hangs on an iterator left open")
	}
	if it.Next() && it.Next() && it.Next() {
		t.Error("an iterator of a closed store kept reading")
	}
	it.Close()
}

// TestCloseUnblocksIterators: Close of the store does not wait for an
// iterator the caller forgot.
func TestLeakedIteratorCleanup(t *testing.T) {
	s := openTest(t, Options{MaxConns: 2, CallTimeout: 5 * time.Second})
	shrinkPages(t, 1, 1, 1<<20)
	set(t, s, "a", "1", "b", "2", "c", "3")
	func() {
		it, _ := s.NewIter(nil, nil)
		it.First()
		it.Next() // holds the only connection
	}()
	// The garbage collector finds the dropped iterator and its cleanup
	// gives the connection back.
	deadline := time.Now().Add(time.Minute)
	for s.pool.Stat().AcquiredConns() != 0 && time.Now().Before(deadline) {
		runtimeGC()
		time.Sleep(10 * time.Millisecond)
	}
	if n := s.pool.Stat().AcquiredConns(); n != 0 {
		t.Fatalf("%d connections still acquired", n)
	}
	if v, _ := get(t, s, "a"); v != "1" {
		t.Errorf("a = %q", v)
	}
}

// waitIdle waits until no connection of s's pool is acquired, or until
// the deadline has passed, and returns the number still acquired.
func waitIdle(s *Store, deadline time.Duration) int32 {
	end := time.Now().Add(deadline)
	for {
		n := s.pool.Stat().AcquiredConns()
		if n == 0 || time.Now().After(end) {
			return n
		}
		time.Sleep(10 * time.Millisecond)
	}
}
