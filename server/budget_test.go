package server

import (
	"context"
	"testing"
	"time"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
)

// TestBudget checks the budget's accounting: grants within the limit,
// waits and times out past it, serves waiters in order, lets a request
// larger than the limit in alone, and never lets tryAcquire pass the
// limit.
func TestBudget(t *testing.T) {
	ctx := context.Background()
	b := newBudget(100, 0)
	if !b.acquire(ctx, nil, 60, time.Second) || !b.acquire(ctx, nil, 40, time.Second) {
		t.Fatal("grants within the limit refused")
	}
	start := time.Now()
	if b.acquire(ctx, nil, 1, 50*time.Millisecond) {
		t.Fatal("granted past the limit")
	}
	if time.Since(start) < 50*time.Millisecond {
		t.Fatal("did not wait")
	}
	if b.tryAcquire(nil, 1) {
		t.Fatal("tryAcquire past the limit")
	}

	// Waiters are served in order as bytes come back: a small one does
	// not pass a large one ahead of it.
	got := make(chan int, 2)
	go func() { b.acquire(ctx, nil, 50, time.Minute); got <- 1 }()
	waitWaiters(t, b, 1)
	go func() { b.acquire(ctx, nil, 10, time.Minute); got <- 2 }()
	waitWaiters(t, b, 2)
	b.release(nil, 40) // 60 used: the first waiter (50) does not fit, so neither goes
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
	b.release(nil, 60) // 0 used: both fit
	<-got
	<-got
	if u := b.inUse(); u != 60 {
		t.Fatalf("in use %d, want 60", u)
	}
	b.release(nil, 60)

	// A request larger than the whole budget gets in alone.
	if !b.acquire(ctx, nil, 500, time.Second) {
		t.Fatal("oversized request refused on an empty budget")
	}
	if b.acquire(ctx, nil, 1, 10*time.Millisecond) {
		t.Fatal("granted beside an oversized request")
	}
	b.release(nil, 500)

	// A cancelled request stops waiting.
	b.force(nil, 100)
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if b.acquire(cctx, nil, 1, 10*time.Second) {
		t.Fatal("granted after cancel")
	}
	b.release(nil, 100)
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
	keys := func(n int) map[string]dynamo.KeysAndAttributes {
		return map[string]dynamo.KeysAndAttributes{"t": {Keys: make([]attr.Item, n)}}
	}
	one := int32(1)
	for _, tc := range []struct {
		in   any
		want int64
	}{
		{&dynamo.PutItemInput{}, smallReserve},
		{&dynamo.GetItemInput{}, maxItemBytes},
		{&dynamo.BatchGetItemInput{RequestItems: keys(2)}, 2 * maxItemBytes},
		{&dynamo.BatchGetItemInput{RequestItems: keys(100)}, maxResponseReserve},
		{&dynamo.TransactGetItemsInput{TransactItems: make([]dynamo.TransactGetItem, 100)}, transactGetReserve},
		{&dynamo.QueryInput{}, pageReserve},
		{&dynamo.QueryInput{Limit: &one}, maxItemBytes},
		{&dynamo.ScanInput{}, pageReserve},
		{&dynamo.GetRecordsInput{}, pageReserve},
		{&dynamo.ListBackupsInput{}, pageReserve},
		{&dynamo.DescribeBackupInput{}, smallReserve},
	} {
		if got := responseReserve(tc.in); got != tc.want {
			t.Errorf("responseReserve(%T) = %d, want %d", tc.in, got, tc.want)
		}
	}
}

// TestBudgetSources checks the per-source shares: a source at its share
// waits while others pass it, its own later requests wait behind its
// first, a request larger than the share gets in when its source holds
// nothing, and sources are forgotten once they hold nothing and have no
// request in flight.
func TestBudgetSources(t *testing.T) {
	ctx := context.Background()
	b := newBudget(100, 40)
	ka, kb := sourceOf("192.0.2.1:1000"), sourceOf("192.0.2.2:1000")
	if sourceOf("192.0.2.1:2000") != ka || sourceOf("[2001:db8::1]:1") != sourceOf("[2001:db8::2]:2") || sourceOf("[2001:db8:0:1::1]:1") == sourceOf("[2001:db8::1]:1") {
		t.Fatal("sources: ports must not matter, an IPv6 /64 is one source")
	}
	a, bb := b.join(ka), b.join(kb)
	if !b.acquire(ctx, a, 40, time.Second) {
		t.Fatal("a source's share refused")
	}
	if b.tryAcquire(a, 1) {
		t.Fatal("tryAcquire past the share")
	}
	// a is at its share: its next request waits, and so does a smaller
	// one behind it, while b's requests pass both.
	first, second := make(chan bool), make(chan bool)
	go func() { first <- b.acquire(ctx, a, 30, time.Minute) }()
	waitWaiters(t, b, 1)
	go func() { second <- b.acquire(ctx, a, 1, time.Minute) }()
	waitWaiters(t, b, 2)
	if !b.acquire(ctx, bb, 40, time.Second) || !b.tryAcquire(nil, 10) {
		t.Fatal("another source held back by a source at its share")
	}
	if got := b.sourceInUse(kb); got != 40 {
		t.Fatalf("source b holds %d, want 40", got)
	}
	b.release(a, 10) // a holds 30: its 30 does not fit, so neither goes
	waitWaiters(t, b, 2)
	b.release(a, 30) // a holds nothing: both fit a's share and the budget (60 in use)
	if !<-first || !<-second {
		t.Fatal("waiters of a source refused")
	}
	if got := b.sourceInUse(ka); got != 31 {
		t.Fatalf("source a holds %d, want 31", got)
	}
	b.release(a, 31)
	b.release(bb, 40)
	b.release(nil, 10)

	// A request larger than the share gets in when its source holds
	// nothing, but not beside another of its source's.
	if !b.acquire(ctx, a, 60, time.Second) {
		t.Fatal("a request over the share refused while its source held nothing")
	}
	if b.acquire(ctx, a, 1, time.Millisecond) {
		t.Fatal("granted beside a request over the share")
	}
	b.release(a, 60)
	b.leave(a)
	b.leave(bb)
	b.mu.Lock()
	n := len(b.sources)
	b.mu.Unlock()
	if n != 0 || b.inUse() != 0 {
		t.Fatalf("%d sources remembered, %d bytes in use at the end", n, b.inUse())
	}
}

// TestBudgetReleasesMemory: after a burst that left the runtime holding
// far more memory than before, the budget gives it back to the OS once
// requests stop, without a GC of the test's making.
func TestBudgetReleasesMemory(t *testing.T) {
	b := newBudget(1<<30, 0)
	released := func() int {
		b.mu.Lock()
		defer b.mu.Unlock()
		return b.released
	}
	before := released()
	// A burst: 64 MiB allocated and dropped while bytes are held.
	b.force(nil, 1<<20)
	var sink [][]byte
	for range 64 {
		sink = append(sink, make([]byte, 1<<20))
	}
	sink[0][0] = 1
	sink = nil
	b.release(nil, 1<<20)
	// The budget gives the burst back; or the runtime already has (a
	// collection and its scavenger ran since the burst, as when this
	// test runs again in one process), and then there is nothing left
	// to give back.
	givenBack := func() bool {
		b.mu.Lock()
		base := b.held
		b.mu.Unlock()
		return released() != before || heldFromOS() <= base+releaseSlack
	}
	for deadline := time.Now().Add(60 * time.Second); !givenBack(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("memory not given back: the runtime holds %d MiB, %d MiB after the last release", heldFromOS()>>20, b.held>>20)
		}
	}
	if held := heldFromOS(); held > b.held+releaseSlack {
		t.Errorf("after the release the runtime holds %d MiB, over %d MiB", held>>20, (b.held+releaseSlack)>>20)
	}
}
