package pebblestore

import (
	"bytes"
	"context"
	"slices"
	"sync"
	"time"
)

// A range deletion hides its keys at once but frees their space only when
// a compaction passes over them, and Pebble compacts when writes arrive: on
// an idle server a deleted table's bytes would stay on disk (or in memory)
// indefinitely. So once a batch with range deletions commits, a background
// reclaimer compacts those ranges itself, shortly after, merging the ranges
// of deletions that come in a burst into one pass.
//
// reclaimDelay is how long the reclaimer waits for further deletions
// before compacting; space is back within seconds of the last deletion.
const reclaimDelay = time.Second

// reclaimer compacts deleted ranges in the background.
type reclaimer struct {
	compact func(ctx context.Context, start, end []byte) error
	logf    func(msg string, args ...any)

	mu      sync.Mutex
	pending [][2][]byte

	wake   chan struct{}
	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{}
	// passes counts finished compaction passes, for tests.
	passes int
}

func newReclaimer(compact func(ctx context.Context, start, end []byte) error, logf func(string, ...any)) *reclaimer {
	ctx, cancel := context.WithCancel(context.Background())
	r := &reclaimer{
		compact: compact,
		logf:    logf,
		wake:    make(chan struct{}, 1),
		ctx:     ctx,
		cancel:  cancel,
		done:    make(chan struct{}),
	}
	go r.loop()
	return r
}

// add queues ranges whose deletion has committed.
func (r *reclaimer) add(ranges [][2][]byte) {
	if len(ranges) == 0 {
		return
	}
	r.mu.Lock()
	r.pending = append(r.pending, ranges...)
	r.mu.Unlock()
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// stop abandons pending work, cancels a running compaction and waits.
func (r *reclaimer) stop() {
	r.cancel()
	<-r.done
}

func (r *reclaimer) loop() {
	defer close(r.done)
	for {
		select {
		case <-r.ctx.Done():
			return
		case <-r.wake:
		}
		// Let a burst of deletions (a test suite dropping its tables, a
		// trim of many streams) gather first.
		select {
		case <-r.ctx.Done():
			return
		case <-time.After(reclaimDelay):
		}
		if !r.pass() {
			return
		}
	}
}

// pass compacts the pending ranges now. It reports false if the reclaimer
// was stopped meanwhile.
func (r *reclaimer) pass() bool {
	r.mu.Lock()
	ranges := mergeRanges(r.pending)
	r.pending = nil
	r.mu.Unlock()
	for _, rg := range ranges {
		// Pebble refuses to compact an empty range; Batch.DeleteRange
		// queues none, but an empty range has nothing to reclaim anyway.
		if bytes.Compare(rg[0], rg[1]) >= 0 {
			continue
		}
		if err := r.compact(r.ctx, rg[0], rg[1]); err != nil {
			if r.ctx.Err() != nil {
				return false
			}
			r.logf("reclaiming the space of deleted keys", "err", err)
		}
	}
	r.mu.Lock()
	r.passes++
	r.mu.Unlock()
	return true
}

// mergeRanges sorts ranges and joins those that overlap or touch.
func mergeRanges(rs [][2][]byte) [][2][]byte {
	if len(rs) == 0 {
		return nil
	}
	sorted := slices.Clone(rs)
	slices.SortFunc(sorted, func(a, b [2][]byte) int { return bytes.Compare(a[0], b[0]) })
	out := [][2][]byte{sorted[0]}
	for _, rg := range sorted[1:] {
		last := &out[len(out)-1]
		if bytes.Compare(rg[0], last[1]) <= 0 {
			if bytes.Compare(rg[1], last[1]) > 0 {
				last[1] = rg[1]
			}
			continue
		}
		out = append(out, rg)
	}
	return out
}
