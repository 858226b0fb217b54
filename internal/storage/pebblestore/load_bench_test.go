package pebblestore

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

// BenchmarkLoad writes items as a benchmark table's load does, 25 to a
// batch, item i into collection i mod 1000, so that every flushed file
// spans the whole key range and each compaction out of L0 rewrites much
// of the level below, and reports what flushes and compactions wrote per
// item (written-B/op) for memtables of several sizes. The compactions
// still running at the end are waited for and counted.
//
//	go test ./internal/storage/pebblestore -run XXX -bench Load -benchtime 1000000x
func BenchmarkLoad(b *testing.B) {
	for _, mt := range []uint64{4 << 20, 8 << 20, 16 << 20, 32 << 20} {
		b.Run(fmt.Sprintf("memtable=%dMiB", mt>>20), func(b *testing.B) {
			db, err := Open(Options{Dir: b.TempDir(), MemTableSize: mt})
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			rng := rand.New(rand.NewPCG(1, 2))
			value := make([]byte, 100)
			for lo := 0; lo < b.N; lo += 25 {
				batch := db.NewBatch()
				for i := lo; i < min(lo+25, b.N); i++ {
					for j := range value {
						value[j] = byte(rng.Uint32())
					}
					if err := batch.Set(fmt.Appendf(nil, "\x01\x02p%04d\x00s%08d", i%1000, i), value); err != nil {
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
			for m := db.p.Metrics(); m.Compact.NumInProgress > 0 || m.Compact.EstimatedDebt > 0; m = db.p.Metrics() {
				time.Sleep(50 * time.Millisecond)
			}
			b.StopTimer()
			m := db.p.Metrics()
			t := m.Total()
			b.ReportMetric(float64(t.TableBytesFlushed+t.TableBytesCompacted)/float64(b.N), "written-B/op")
			b.ReportMetric(float64(m.Compact.Count), "compactions")
			b.ReportMetric(float64(db.stalls.Load()), "stalls")
		})
	}
}
