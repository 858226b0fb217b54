package replicate

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/testserver"
)

// TestCatchUpThroughFullPages: a catch-up after writers stopped, with
// items of a few KB, so GetRecords pages are cut at 1 MB rather than at
// 1,000 records, applies every record to the end.
func TestCatchUpThroughFullPages(t *testing.T) {
	s := testserver.Start(t)
	ctx := context.Background()
	sourceTable(t, s.Client, types.StreamViewTypeNewAndOldImages, 0)
	opts := Options{Source: "src", Target: "dst", Checkpoint: filepath.Join(t.TempDir(), "cp.json")}
	if _, err := Run(ctx, s.Client, s.Streams, opts); err != nil {
		t.Fatal(err)
	}
	pad := strings.Repeat("x", 4000)
	var reqs []types.WriteRequest
	const n = 2000
	for i := 0; i < n; i++ {
		it := keyOf(i)
		it["pad"] = sv(pad)
		reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: it}})
		if len(reqs) == 25 {
			if _, err := s.Client.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"src": reqs}}); err != nil {
				t.Fatal(err)
			}
			reqs = nil
		}
	}
	// Writers have stopped. Final catch-up, then verify.
	p, err := Run(ctx, s.Client, s.Streams, opts)
	if err != nil {
		t.Fatal(err)
	}
	if p.Records < n {
		t.Errorf("final catch-up applied %d records, want at least %d", p.Records, n)
	}
	rep, err := Verify(ctx, s.Client, VerifyOptions{Source: "src", Target: "dst"})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Differences() != 0 {
		t.Errorf("after the final catch-up: %s", fmt.Sprintf("%+v", rep))
	}
}

// TestCatchUpIgnoresClockSkew: the server's clock is two minutes ahead of
// the client's; the catch-up still ends at the stream's own tip, with
// everything applied.
func TestCatchUpIgnoresClockSkew(t *testing.T) {
	s := testserver.Start(t, testserver.WithNow(func() time.Time { return time.Now().Add(2 * time.Minute) }))
	ctx := context.Background()
	sourceTable(t, s.Client, types.StreamViewTypeNewAndOldImages, 0)
	opts := Options{Source: "src", Target: "dst", Checkpoint: filepath.Join(t.TempDir(), "cp.json")}
	if _, err := Run(ctx, s.Client, s.Streams, opts); err != nil {
		t.Fatal(err)
	}
	var reqs []types.WriteRequest
	const n = 3000
	for i := 0; i < n; i++ {
		reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: keyOf(i)}})
		if len(reqs) == 25 {
			if _, err := s.Client.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"src": reqs}}); err != nil {
				t.Fatal(err)
			}
			reqs = nil
		}
	}
	p, err := Run(ctx, s.Client, s.Streams, opts)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Verify(ctx, s.Client, VerifyOptions{Source: "src", Target: "dst"})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("applied %d records; missing %d", p.Records, rep.Missing)
	if rep.Differences() != 0 {
		t.Errorf("differences: %d", rep.Differences())
	}
}
