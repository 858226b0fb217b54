package server

import (
	"context"
	"testing"
	"time"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/engine"
)

// TestBudget checks the budget's accounting: grants within the limit,
// waits and times out past it, serves waiters in order, lets a request
// larger than the limit in alone, and never lets tryAcquire pass the
// limit.
func TestBudget(t *testing.T) {
	ctx := context.Background()
	b := newBudget(100)
	if !b.acquire(ctx, 60, time.Second) || !b.acquire(ctx, 40, time.Second) {
		t.Fatal("grants within the limit refused")
	}
	start := time.Now()
	if b.acquire(ctx, 1, 50*time.Millisecond) {
		t.Fatal("granted past the limit")
	}
	if time.Since(start) < 50*time.Millisecond {
		t.Fatal("did not wait")
	}
	if b.tryAcquire(1) {
		t.Fatal("tryAcquire past the limit")
	}

	// Waiters are served in order as bytes come back: a small one does
	// not pass a large one ahead of it.
	got := make(chan int, 2)
	go func() { b.acquire(ctx, 50, time.Minute); got <- 1 }()
	waitWaiters(t, b, 1)
	go func() { b.acquire(ctx, 10, time.Minute); got <- 2 }()
	waitWaiters(t, b, 2)
	b.release(40) // 60 used: the first waiter (50) does not fit, so neither goes
	// release grants under the budget's lock: whoever it let in has left
	// the queue and holds its bytes by now.
	b.mu.Lock()
	queued, used := len(b.waiters), b.used
	b.mu.Unlock()
	if queued != 2 || used != 60 {
		t.Fatalf("after a release the first waiter does not fit: %d waiting and %d in use, want 2 and 60 (the second granted out of order)", queued, used)
	}
	select {
	case w := <-got:
		t.Fatalf("waiter %d granted out of order", w)
	default:
	}
	b.release(60) // 0 used: both fit
	<-got
	<-got
	if u := b.inUse(); u != 60 {
		t.Fatalf("in use %d, want 60", u)
	}
	b.release(60)

	// A request larger than the whole budget gets in alone.
	if !b.acquire(ctx, 500, time.Second) {
		t.Fatal("oversized request refused on an empty budget")
	}
	if b.acquire(ctx, 1, 10*time.Millisecond) {
		t.Fatal("granted beside an oversized request")
	}
	b.release(500)

	// A cancelled request stops waiting.
	b.force(100)
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if b.acquire(cctx, 1, 10*time.Second) {
		t.Fatal("granted after cancel")
	}
	b.release(100)
	if u := b.inUse(); u != 0 {
		t.Fatalf("in use %d at the end", u)
	}
}

// waitWaiters waits until n requests wait in b's queue.
func waitWaiters(t *testing.T, b *budget, n int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		b.mu.Lock()
		got := len(b.waiters)
		b.mu.Unlock()
		if got == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d requests waiting for the budget, want %d", got, n)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestResponseReserve checks the reserves of the operations whose answers
// may be large.
func TestResponseReserve(t *testing.T) {
	keys := func(n int) map[string]engine.KeysAndAttributes {
		return map[string]engine.KeysAndAttributes{"t": {Keys: make([]attr.Item, n)}}
	}
	one := int32(1)
	for _, tc := range []struct {
		in   any
		want int64
	}{
		{&engine.PutItemInput{}, smallReserve},
		{&engine.GetItemInput{}, maxItemBytes},
		{&engine.BatchGetItemInput{RequestItems: keys(2)}, 2 * maxItemBytes},
		{&engine.BatchGetItemInput{RequestItems: keys(100)}, maxResponseReserve},
		{&engine.TransactGetItemsInput{TransactItems: make([]engine.TransactGetItem, 100)}, transactGetReserve},
		{&engine.QueryInput{}, pageReserve},
		{&engine.QueryInput{Limit: &one}, maxItemBytes},
		{&engine.ScanInput{}, pageReserve},
		{&engine.GetRecordsInput{}, pageReserve},
	} {
		if got := responseReserve(tc.in); got != tc.want {
			t.Errorf("responseReserve(%T) = %d, want %d", tc.in, got, tc.want)
		}
	}
}
