package local_test

import (
	"context"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/dynago/dynago/local"
)

// BenchmarkOpenClose is the cost of a fresh in-memory database, opened
// and closed, as every test of package dynagotest pays it.
func BenchmarkOpenClose(b *testing.B) {
	b.ReportAllocs()
	cpu := processCPU()
	defer func() { reportCPU(b, cpu) }()
	for b.Loop() {
		db, err := local.Open()
		if err != nil {
			b.Fatal(err)
		}
		if err := db.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

// TestOpenMemory holds 100 fresh in-memory databases open at once, each
// with a client that has made a request, and checks what each costs the
// Go heap and goroutine stacks: under 2 MB (the budget), where a
// server's 64 MiB memtable and cache would be allocated as they fill.
// Pebble's first memtable (256 KiB) is allocated outside the Go heap and
// touched only as it fills; the resident set is logged beside it.
func TestOpenMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates 100 databases")
	}
	const n = 100
	dbs := make([]*local.DB, 0, n)
	defer func() {
		for _, db := range dbs {
			db.Close()
		}
	}()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	rss0 := residentBytes()
	for range n {
		db, err := local.Open()
		if err != nil {
			t.Fatal(err)
		}
		dbs = append(dbs, db)
		if _, err := db.Client().ListTables(context.Background(), &dynamodb.ListTablesInput{}); err != nil {
			t.Fatal(err)
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	rss1 := residentBytes()
	heap := (int64(after.HeapInuse) - int64(before.HeapInuse)) / n
	stack := (int64(after.StackInuse) - int64(before.StackInuse)) / n
	t.Logf("per database: %d KiB of heap, %d KiB of goroutine stacks; resident set %+d KiB", heap>>10, stack>>10, (rss1-rss0)/n>>10)
	if heap+stack > 2<<20 {
		t.Fatalf("a fresh database costs %d bytes of heap and stacks, want under 2 MiB", heap+stack)
	}
}

// residentBytes is the process's resident set on Linux, 0 elsewhere.
func residentBytes() int64 {
	data, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(data))
	if len(f) < 2 {
		return 0
	}
	pages, _ := strconv.ParseInt(f[1], 10, 64)
	return pages * int64(os.Getpagesize())
}
