package vector

import (
	"flag"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"
)

var (
	benchN   = flag.Int("vector.n", 100_000, "vectors in the benchmarks' graph")
	benchDim = flag.Int("vector.dim", 128, "dimensions of the benchmarks' vectors")
)

const benchQueries = 200

// benchGraph is the benchmarks' graph, built once per process: benchN
// clustered vectors (100 clusters) under Euclidean, with the defaults.
var benchGraph struct {
	once    sync.Once
	g       *Graph
	data    map[uint64][]float32
	queries [][]float32
	build   time.Duration
	cpu     time.Duration // CPU time of the build
	bytes   float64       // heap bytes per vector held by the graph
}

func buildBench(b *testing.B) {
	bg := &benchGraph
	bg.once.Do(func() {
		n, dim := *benchN, *benchDim
		all := clustered(99, n+benchQueries, dim, 100)
		bg.queries = all[n:]
		bg.data = make(map[uint64][]float32, n)
		for i, v := range all[:n] {
			bg.data[uint64(i)] = v
		}
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		g, err := New(Config{Metric: Euclidean, Dimensions: dim, Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		start, cpu := time.Now(), cpuTime()
		for i, v := range all[:n] {
			if _, err := g.Insert(uint64(i), v); err != nil {
				b.Fatal(err)
			}
		}
		bg.build, bg.cpu = time.Since(start), cpuTime()-cpu
		runtime.GC()
		runtime.ReadMemStats(&after)
		bg.bytes = float64(after.HeapAlloc-before.HeapAlloc) / float64(n)
		bg.g = g
		b.Logf("built %d x %d in %v (CPU %v): %.0f bytes a vector (raw %d, %.2fx)",
			n, dim, bg.build.Round(time.Millisecond), bg.cpu.Round(time.Millisecond), bg.bytes, 4*dim, bg.bytes/float64(4*dim))
	})
}

// BenchmarkInsert builds the benchmarks' graph of vector.n nodes, once
// per process whatever b.N, and reports as ns/op the mean time of one
// insert, with the heap bytes a vector takes in the graph, that figure
// over the raw float32 vector's, the build's seconds and recall@10 at the
// default ef. cpu-ns/op is the CPU time of one insert (the garbage
// collector's included), steadier than ns/op on a shared machine.
func BenchmarkInsert(b *testing.B) {
	buildBench(b)
	bg := &benchGraph
	b.ReportMetric(float64(bg.build.Nanoseconds())/float64(len(bg.data)), "ns/op")
	b.ReportMetric(bg.build.Seconds(), "build-s")
	b.ReportMetric(float64(bg.cpu.Nanoseconds())/float64(len(bg.data)), "cpu-ns/op")
	b.ReportMetric(bg.bytes, "B/vector")
	b.ReportMetric(bg.bytes/float64(4**benchDim), "x-raw")
	r, err := recall(bg.g, bg.data, bg.queries, 10, 0)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(r, "recall@10")
}

// BenchmarkSearch searches the benchmarks' graph for the top 10, at
// several breadths, reporting recall@10 against exact search and the CPU
// time of one search.
func BenchmarkSearch(b *testing.B) {
	buildBench(b)
	bg := &benchGraph
	for _, ef := range []int{50, 100, 200} {
		b.Run(fmt.Sprintf("ef=%d", ef), func(b *testing.B) {
			i, cpu := 0, cpuTime()
			for b.Loop() {
				if _, err := bg.g.Search(bg.queries[i%len(bg.queries)], 10, ef); err != nil {
					b.Fatal(err)
				}
				i++
			}
			b.StopTimer()
			b.ReportMetric(float64((cpuTime()-cpu).Nanoseconds())/float64(b.N), "cpu-ns/op")
			r, err := recall(bg.g, bg.data, bg.queries, 10, ef)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(r, "recall@10")
		})
	}
}
