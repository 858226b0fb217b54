package e2e

import (
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/internal/expr"
	"github.com/dynago/dynago/local"
	"github.com/dynago/dynago/testserver"
)

// floodFilter is a distinct FilterExpression of close to 4 KB (the
// largest DynamoDB accepts) built of comparisons, the shape whose parse
// keeps the most memory per byte of filters. A broken one ends in a
// syntax error.
func floodFilter(i int, broken bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "z%d = :v", i)
	for j := 0; b.Len() < expr.MaxExpressionSize-40; j++ {
		fmt.Fprintf(&b, " AND a%d = :v", j)
	}
	if broken {
		b.WriteString(" AND )")
	}
	return b.String()
}

// TestExpressionFloodMemoryBounded sends thousands of distinct 4 KB
// filter expressions, a third of them invalid, to a server while a
// well-behaved client keeps using it (reads and a conditional put that
// fails, so that it adds nothing to the in-memory store), and checks that the Go heap grows
// by no more than the expression cache's budget (expr.CacheBudget) plus a
// margin, and that the well-behaved client gets every answer right. With
// a parse cache bounded by entry count, 3,000 such expressions kept about
// 330 MB alive (each parse of a 4 KB filter holds about 165 KB of syntax
// tree).
func TestExpressionFloodMemoryBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("sends thousands of 4 KB expressions")
	}
	s := testserver.Start(t)
	c := s.API
	createHash(t, c, "flood", types.ScalarAttributeTypeS)
	for i := 0; i < 10; i++ {
		put(t, c, "flood", item{"pk": S(fmt.Sprint("k", i)), "status": S("on")})
	}

	// pause holds the well-behaved client between rounds while the heap
	// is read, so that a round in flight (with the in-process clients, its
	// request and answer are on this process's heap too) is not counted.
	var pause sync.RWMutex
	heap := func() uint64 {
		pause.Lock()
		defer pause.Unlock()
		var m runtime.MemStats
		// Twice: what a finalizer kept alive through the first collection
		// goes in the second.
		runtime.GC()
		runtime.GC()
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	base := heap()
	const margin = 32 << 20 // the flood's own garbage, connections, Pebble's memtable growth
	limit := base + expr.CacheBudget + margin

	// The well-behaved client: a filtered Scan and a put and get, in a
	// loop until the flood ends. Each must succeed with the right answer.
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	goodRounds := 0
	go func() {
		defer wg.Done()
		for n := 0; ; n++ {
			select {
			case <-done:
				return
			default:
			}
			pause.RLock()
			ok := goodRound(t, c, n)
			pause.RUnlock()
			if !ok {
				return
			}
			goodRounds++
		}
	}()

	const flood = 3000
	var peak uint64
	for i := 0; i < flood; i++ {
		broken := i%3 == 2
		body, _ := json.Marshal(map[string]any{
			"TableName":                 "flood",
			"FilterExpression":          floodFilter(i, broken),
			"ExpressionAttributeValues": map[string]any{":v": map[string]string{"S": "x"}},
		})
		res := s.Raw(t, "Scan", string(body))
		if broken {
			if res.Status != 400 || !strings.Contains(string(res.Body), "Syntax error") {
				t.Fatalf("invalid filter %d: %d %s", i, res.Status, res.Body)
			}
		} else if res.Status != 200 {
			t.Fatalf("filter %d: %d %s", i, res.Status, res.Body)
		}
		if i%500 == 499 {
			h := heap()
			peak = max(peak, h)
			t.Logf("after %d expressions: heap %d MB", i+1, h>>20)
			if h > limit {
				close(done)
				wg.Wait()
				t.Fatalf("after %d distinct expressions the heap is %d MB, over %d MB (%d MB at the start, a %d MB cache budget, %d MB margin)",
					i+1, h>>20, limit>>20, base>>20, expr.CacheBudget>>20, margin>>20)
			}
		}
	}
	close(done)
	wg.Wait()
	if goodRounds == 0 {
		t.Error("the well-behaved client completed no round")
	}
	t.Logf("heap %d MB at the start, peak %d MB; %d well-behaved rounds", base>>20, peak>>20, goodRounds)
}

// goodRound is one round of the well-behaved client of
// TestExpressionFloodMemoryBounded: a filtered Scan, a conditional put
// that must fail and a read, each checked. It reports whether all went
// right.
func goodRound(t *testing.T, c local.API, n int) bool {
	out, err := c.Scan(bg(), &dynamodb.ScanInput{
		TableName:                 aws.String("flood"),
		FilterExpression:          aws.String("#s = :on AND begins_with(pk, :k)"),
		ExpressionAttributeNames:  map[string]string{"#s": "status"},
		ExpressionAttributeValues: item{":on": S("on"), ":k": S("k")},
	})
	if err != nil {
		t.Errorf("well-behaved Scan: %v", err)
		return false
	}
	if out.Count != 10 {
		t.Errorf("well-behaved Scan found %d items, want 10", out.Count)
		return false
	}
	// A conditional put that must fail and a read: the client writes
	// nothing, so the store's memtable, which is on the heap here, does
	// not grow with the number of rounds (which depends on the machine's
	// speed).
	key := item{"pk": S(fmt.Sprint("k", n%10))}
	_, err = c.PutItem(bg(), &dynamodb.PutItemInput{
		TableName: aws.String("flood"), Item: item{"pk": key["pk"], "n": N(fmt.Sprint(n))},
		ConditionExpression: aws.String("attribute_not_exists(pk)"),
	})
	var ccf *types.ConditionalCheckFailedException
	if !errors.As(err, &ccf) {
		t.Errorf("well-behaved PutItem on an existing key: %v, want ConditionalCheckFailedException", err)
		return false
	}
	if got := get(t, c, "flood", key); render(got["status"]) != render(S("on")) {
		t.Errorf("well-behaved GetItem: %v", renderItem(got))
		return false
	}
	return true
}
