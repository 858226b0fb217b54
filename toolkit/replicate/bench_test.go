package replicate

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/testserver"
)

var benchItems = flag.Int("replicate.items", 50_000, "items in the replicate benchmark table, and updates in its stream backlog")

// BenchmarkReplicate copies a table of -replicate.items items with 8
// segments (a checkpoint written after every page), then puts as many
// changes into the source and times the catch-up applying them. It
// reports items copied and records applied per second.
func BenchmarkReplicate(b *testing.B) {
	s := testserver.Start(b)
	ctx := context.Background()
	n := *benchItems
	sourceTable(b, s.Client, types.StreamViewTypeNewAndOldImages, 0)
	load := func(seed uint64) {
		var wg sync.WaitGroup
		for w := 0; w < 8; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				rng := rand.New(rand.NewPCG(seed, uint64(w)))
				var batch []types.WriteRequest
				for i := w; i < n; i += 8 {
					batch = append(batch, types.WriteRequest{PutRequest: &types.PutRequest{Item: randomItem(rng, i)}})
					if len(batch) == 25 || i+8 >= n {
						if _, err := s.Client.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"src": batch}}); err != nil {
							b.Error(err)
							return
						}
						batch = nil
					}
				}
			}()
		}
		wg.Wait()
	}
	load(1)
	b.ResetTimer()
	var copied, applied int64
	var scanTime, streamTime float64
	for i := 0; i < b.N; i++ {
		opts := Options{Source: "src", Target: fmt.Sprintf("dst%d", i), Segments: 8, Checkpoint: filepath.Join(b.TempDir(), "cp.json")}
		p, err := Run(ctx, s.Client, s.Streams, opts)
		if err != nil || p.Copied != int64(n) {
			b.Fatalf("%+v %v", p, err)
		}
		b.StopTimer()
		load(uint64(i + 2)) // n changes, to catch up with
		b.StartTimer()
		p2, err := Run(ctx, s.Client, s.Streams, opts)
		if err != nil || p2.Records < int64(n) {
			b.Fatalf("%+v %v", p2, err)
		}
		copied += p.Copied
		applied += p2.Records
		scanTime += p.ScanTime.Seconds()
		streamTime += p2.StreamTime.Seconds()
	}
	b.ReportMetric(float64(copied)/scanTime, "items/s")
	b.ReportMetric(float64(applied)/streamTime, "records/s")
}
