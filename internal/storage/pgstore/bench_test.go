package pgstore

import (
	"fmt"
	"testing"
)

// TestRoundTrips pins how many round trips each call costs once its
// statements are prepared on the connection.
func TestRoundTrips(t *testing.T) {
	rt := countRoundTrips(t)
	s := openTest(t, Options{MaxConns: 2, FoldInterval: -1})
	var kv []string
	for i := range 300 {
		kv = append(kv, fmt.Sprintf("k%03d", i), "v")
	}
	set(t, s, kv...)
	measure := func(name string, want int64, f func()) {
		t.Helper()
		f() // prepares the statements
		before := rt.n.Load()
		f()
		got := rt.n.Load() - before
		t.Logf("%s: %d round trips", name, got)
		if got != want {
			t.Errorf("%s: %d round trips, want %d", name, got, want)
		}
	}
	measure("Get", 1, func() { get(t, s, "k001") })
	measure("Counters", 1, func() { s.Counters([]byte("n"), 2) })
	measure("Commit of one Set", 1, func() { set(t, s, "k001", "w") })
	measure("Commit of 10 writes, 10 expectations, a delete and counters", 1, func() {
		b := s.NewBatch()
		for i := range 10 {
			k := fmt.Appendf(nil, "k%03d", 10+i)
			b.Expect(k, []byte("v"), true)
			b.Set(k, []byte("v"))
		}
		b.Expect([]byte("none"), nil, false)
		b.AddCounters([]byte("n"), 1, 2)
		b.Delete([]byte("k002"))
		if err := b.Commit(); err != nil {
			t.Fatal(err)
		}
	})
	measure("iteration of 10 keys", 1, func() {
		if n := len(scan(t, s, []byte("k100"), []byte("k110"))); n != 10 {
			t.Fatal(n)
		}
	})
	// A range past the first page: the first page again in a transaction
	// (BEGIN pipelined with it), the pages after it (128 and 256 rows), and the rollback.
	measure("iteration of 299 keys", 1+1+2+1, func() {
		if n := len(scan(t, s, []byte("k"), []byte("l"))); n != 299 {
			t.Fatal(n)
		}
	})
	// A caller that visits at most 20 keys (a Query with Limit 20) reads
	// them in one round trip, forward or backward.
	measure("iteration of 20 of 299 keys, told so", 1, func() {
		it, err := s.NewIterAtMost([]byte("k"), []byte("l"), 20)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for ok := it.First(); ok; ok = it.Next() {
			if n++; n == 20 {
				break // as a Query page stops at its Limit
			}
		}
		if err := it.Close(); err != nil || n != 20 {
			t.Fatal(n, err)
		}
	})
	measure("backward iteration of 20 of 299 keys, told so", 1, func() {
		it, err := s.NewIterAtMost([]byte("k"), []byte("l"), 20)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for ok := it.Last(); ok; ok = it.Prev() {
			if n++; n == 20 {
				break
			}
		}
		if err := it.Close(); err != nil || n != 20 {
			t.Fatal(n, err)
		}
	})
	measure("GetMany of 10 keys", 1, func() {
		var keys [][]byte
		for i := range 10 {
			keys = append(keys, fmt.Appendf(nil, "k%03d", 10*i))
		}
		if _, found, err := s.GetMany(keys); err != nil || !found[0] || !found[9] {
			t.Fatal(found, err)
		}
	})
	measure("snapshot", 2, func() {
		sn, err := s.NewSnapshot()
		if err != nil {
			t.Fatal(err)
		}
		sn.Close()
	})
}

func BenchmarkCommitSet(b *testing.B) {
	s := openTest(b, Options{})
	v := make([]byte, 100)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		bt := s.NewBatch()
		bt.Set(fmt.Appendf(nil, "k%08d", i), v)
		if err := bt.Commit(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCommitSetParallel(b *testing.B) {
	s := openTest(b, Options{})
	v := make([]byte, 100)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		var buf [16]byte
		for pb.Next() {
			bt := s.NewBatch()
			rand32(buf[:])
			bt.Set(buf[:], v)
			if err := bt.Commit(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.ReportMetric(float64(s.retries.Load())/float64(b.N), "retries/op")
}

func BenchmarkGet(b *testing.B) {
	s := openTest(b, Options{})
	set(b, s, "key", string(make([]byte, 100)))
	b.ResetTimer()
	for b.Loop() {
		if _, ok, err := s.Get([]byte("key"), nil); err != nil || !ok {
			b.Fatal(ok, err)
		}
	}
}

// BenchmarkIter100 reads 100 rows of 100 bytes: one page, no transaction.
func BenchmarkIter100(b *testing.B) {
	benchIter(b, 100)
}

// BenchmarkIter1000 reads 1000 rows: a transaction and several pages.
func BenchmarkIter1000(b *testing.B) {
	benchIter(b, 1000)
}

func benchIter(b *testing.B, n int) {
	s := openTest(b, Options{})
	bt := s.NewBatch()
	for i := range n {
		bt.Set(fmt.Appendf(nil, "k%05d", i), make([]byte, 100))
	}
	if err := bt.Commit(); err != nil {
		b.Fatal(err)
	}
	// One page of 100 rows, as the engine's first page would be.
	if n <= 100 {
		f := firstPageRows
		firstPageRows = 128
		b.Cleanup(func() { firstPageRows = f })
	}
	b.ResetTimer()
	for b.Loop() {
		it, err := s.NewIter(nil, nil)
		if err != nil {
			b.Fatal(err)
		}
		c := 0
		for ok := it.First(); ok; ok = it.Next() {
			c++
		}
		if err := it.Close(); err != nil || c != n {
			b.Fatal(c, err)
		}
	}
}

// BenchmarkCommitWrite commits what a PutItem of a new 1 KB item commits
// on a shared store: the table's catalog entry and the item expected as
// read, the item set, the table's counters added. With
// DYNAGO_TEST_POSTGRES_PGDATA set (as .ci/postgres prints it) it reports
// the database server's CPU per commit, all its processes together.
func BenchmarkCommitWrite(b *testing.B) {
	s := openTest(b, Options{FoldInterval: -1})
	catalog := make([]byte, 2000)
	item := make([]byte, 1024)
	set(b, s, "catalog", string(catalog))
	db := newDBCPU(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		k := fmt.Appendf(nil, "item%08d", i)
		bt := s.NewBatch()
		bt.Expect([]byte("catalog"), catalog, true)
		bt.Expect(k, nil, false)
		bt.Set(k, item)
		bt.AddCounters([]byte("stats"), 1, 1024)
		if err := bt.Commit(); err != nil {
			b.Fatal(err)
		}
	}
	db.report(b)
}

// BenchmarkCommitBatch25 commits what a BatchWriteItem of 25 new 1 KB
// items commits on a shared store, as BenchmarkCommitWrite does one.
func BenchmarkCommitBatch25(b *testing.B) {
	s := openTest(b, Options{FoldInterval: -1})
	catalog := make([]byte, 2000)
	item := make([]byte, 1024)
	set(b, s, "catalog", string(catalog))
	db := newDBCPU(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		bt := s.NewBatch()
		for j := range 25 {
			k := fmt.Appendf(nil, "item%08d-%02d", i, j)
			bt.Expect([]byte("catalog"), catalog, true)
			bt.Expect(k, nil, false)
			bt.Set(k, item)
			bt.AddCounters([]byte("stats"), 1, 1024)
		}
		if err := bt.Commit(); err != nil {
			b.Fatal(err)
		}
	}
	db.report(b)
}
