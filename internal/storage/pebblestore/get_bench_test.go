package pebblestore

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

// BenchmarkGetAtScale measures a point lookup in an on-disk store of a
// million 100-byte items, written as a benchmark table's items are: item
// i in collection i mod 1000, so every flushed file spans the whole key
// range, and with a block cache smaller than the data. "absent" looks up
// keys not written, as every write of a new item does for its old item;
// "present" looks up written ones, as GetItem does.
//
//	go test ./internal/storage/pebblestore -run XXX -bench GetAtScale -benchmem
func BenchmarkGetAtScale(b *testing.B) {
	const items = 1_000_000
	db, err := Open(Options{Dir: b.TempDir(), CacheSize: 8 << 20})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	key := func(i int) []byte { return fmt.Appendf(nil, "\x01\x02p%04d\x00s%08d", i%1000, i) }
	rng := rand.New(rand.NewPCG(1, 2))
	value := make([]byte, 100)
	for lo := 0; lo < items; lo += 1000 {
		batch := db.NewBatch()
		for i := lo; i < lo+1000; i++ {
			for j := range value {
				value[j] = byte(rng.Uint32())
			}
			if err := batch.Set(key(i), value); err != nil {
				b.Fatal(err)
			}
		}
		if err := batch.Commit(); err != nil {
			b.Fatal(err)
		}
		batch.Close()
	}
	if err := db.p.Flush(); err != nil {
		b.Fatal(err)
	}
	// Let the compactions the load started finish, so that they neither
	// share the CPU with the lookups nor change the files under them.
	for m := db.p.Metrics(); m.Compact.NumInProgress > 0 || m.Compact.EstimatedDebt > 0; m = db.p.Metrics() {
		time.Sleep(100 * time.Millisecond)
	}
	for _, c := range []struct {
		name  string
		first int // of the items looked up, items in all
	}{{"absent", items}, {"present", 0}} {
		b.Run(c.name, func(b *testing.B) {
			var dst []byte
			for b.Loop() {
				k := key(c.first + rng.IntN(items))
				var found bool
				dst, found, err = db.Get(k, dst[:0])
				if err != nil || found != (c.first == 0) {
					b.Fatalf("get %q: found %v, %v", k, found, err)
				}
			}
		})
	}
}
