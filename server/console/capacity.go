package console

import (
	"context"
	"net/http"
	"sort"
	"sync"
	"time"
)

// CapacityTotal is the capacity one table or index has consumed since
// some start (the server's), as a running total that only grows.
type CapacityTotal struct {
	Table string
	// Index is "" for the table itself.
	Index                 string
	ReadUnits, WriteUnits float64
}

// Recorder turns running totals of consumed capacity into samples per
// interval, for Options.Capacity: give it the engine's totals and run it.
//
//	rec := console.NewRecorder(totals, 5*time.Second, 720)
//	go rec.Run(ctx)
//	opts.Capacity = rec.Samples
//
// It keeps the last keep intervals; a table or index that consumed
// nothing in an interval has no sample for it.
type Recorder struct {
	totals func() []CapacityTotal
	every  time.Duration
	keep   int

	mu struct {
		sync.Mutex
		last    map[capacityKey]CapacityTotal
		started bool
		// rounds holds the samples of the last keep intervals, oldest
		// first.
		rounds [][]CapacitySample
	}
}

type capacityKey struct{ table, index string }

// NewRecorder returns a Recorder of totals every interval (default 5 s)
// keeping keep intervals (default 720: an hour at 5 s).
func NewRecorder(totals func() []CapacityTotal, every time.Duration, keep int) *Recorder {
	if every <= 0 {
		every = 5 * time.Second
	}
	if keep <= 0 {
		keep = 720
	}
	r := &Recorder{totals: totals, every: every, keep: keep}
	r.mu.last = map[capacityKey]CapacityTotal{}
	return r
}

// Run samples every interval until ctx is done.
func (r *Recorder) Run(ctx context.Context) {
	r.Sample(time.Now())
	t := time.NewTicker(r.every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			r.Sample(now)
		}
	}
}

// Sample reads the totals and records what each table and index consumed
// since the previous call, as samples ending at now. The first call only
// sets the baseline. A total that went down (the table was deleted and
// made again) counts from zero.
func (r *Recorder) Sample(now time.Time) {
	cur := r.totals()
	r.mu.Lock()
	defer r.mu.Unlock()
	var round []CapacitySample
	next := make(map[capacityKey]CapacityTotal, len(cur))
	for _, c := range cur {
		k := capacityKey{c.Table, c.Index}
		next[k] = c
		if !r.mu.started {
			continue
		}
		prev := r.mu.last[k]
		read, write := c.ReadUnits-prev.ReadUnits, c.WriteUnits-prev.WriteUnits
		if read < 0 || write < 0 {
			read, write = c.ReadUnits, c.WriteUnits
		}
		if read > 0 || write > 0 {
			round = append(round, CapacitySample{Time: now.UTC(), Table: c.Table, Index: c.Index, ReadUnits: read, WriteUnits: write})
		}
	}
	sort.Slice(round, func(i, j int) bool {
		a, b := round[i], round[j]
		return a.Table < b.Table || a.Table == b.Table && a.Index < b.Index
	})
	r.mu.last = next
	if !r.mu.started {
		r.mu.started = true
		return
	}
	r.mu.rounds = append(r.mu.rounds, round)
	if len(r.mu.rounds) > r.keep {
		r.mu.rounds = r.mu.rounds[len(r.mu.rounds)-r.keep:]
	}
}

// Samples returns the recorded samples, oldest first. Its signature is
// Options.Capacity's; it does not look at the request.
func (r *Recorder) Samples(*http.Request) ([]CapacitySample, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []CapacitySample
	for _, round := range r.mu.rounds {
		out = append(out, round...)
	}
	return out, nil
}
