package pebblestore

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
)

// BenchmarkCommit measures what each durability mode costs a write: a
// batch of one 200-byte item committed by 1, 16 or 64 concurrent writers,
// on disk with and without Sync. Concurrent commits share the log's write
// (and, with Sync, its fsync), so the cost per write falls as writers grow.
//
//	go test ./internal/storage/pebblestore -run XXX -bench Commit -benchtime 3s
func BenchmarkCommit(b *testing.B) {
	for _, mode := range []struct {
		name string
		sync bool
	}{{"default", false}, {"sync", true}} {
		for _, writers := range []int{1, 16, 64} {
			b.Run(fmt.Sprintf("%s/writers=%d", mode.name, writers), func(b *testing.B) {
				db, err := Open(Options{Dir: b.TempDir(), Sync: mode.sync})
				if err != nil {
					b.Fatal(err)
				}
				defer db.Close()
				value := make([]byte, 200)
				var next atomic.Int64
				commit := func() {
					batch := db.NewBatch()
					batch.Set([]byte(fmt.Sprintf("item-%012d", next.Add(1))), value)
					if err := batch.Commit(); err != nil {
						b.Error(err)
					}
					batch.Close()
				}
				b.ResetTimer()
				if writers == 1 {
					for range b.N {
						commit()
					}
					return
				}
				// RunParallel runs GOMAXPROCS×p goroutines.
				b.SetParallelism(max(1, writers/runtime.GOMAXPROCS(0)))
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						commit()
					}
				})
			})
		}
	}
}
