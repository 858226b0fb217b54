package server

import (
	"sort"
	"sync"
	"time"

	"github.com/dynago/dynago/engine"
)

// CapacityHistory keeps the capacity consumed per table and index over
// recent intervals, for the console's chart: every interval it reads the
// engines' meters (engine.Meters) and keeps what each table and index
// consumed since the previous reading. It holds at most Keep intervals;
// older ones are dropped.
type CapacityHistory struct {
	dbs      func() []*engine.DB
	interval time.Duration
	keep     int

	mu      sync.Mutex
	last    map[capacityKey]engine.UnitCounts
	samples []CapacitySample // oldest first
	stop    chan struct{}
	done    chan struct{}
}

// CapacitySample is what one table or index consumed in the interval
// ending at Time.
type CapacitySample struct {
	Time       time.Time
	Table      string
	Index      string // "" for the table itself
	ReadUnits  float64
	WriteUnits float64
}

type capacityKey struct{ table, index string }

// NewCapacityHistory starts keeping the history of the databases dbs
// returns: one reading every interval, keep intervals long. Stop it with
// Close.
func NewCapacityHistory(dbs func() []*engine.DB, interval time.Duration, keep int) *CapacityHistory {
	h := &CapacityHistory{dbs: dbs, interval: interval, keep: keep,
		stop: make(chan struct{}), done: make(chan struct{})}
	h.last = h.read()
	go h.loop()
	return h
}

func (h *CapacityHistory) loop() {
	defer close(h.done)
	t := time.NewTicker(h.interval)
	defer t.Stop()
	for {
		select {
		case <-h.stop:
			return
		case now := <-t.C:
			h.Sample(now)
		}
	}
}

// read adds up the meters of every database by table and index.
func (h *CapacityHistory) read() map[capacityKey]engine.UnitCounts {
	out := map[capacityKey]engine.UnitCounts{}
	add := func(k capacityKey, u engine.UnitCounts) {
		s := out[k]
		s.ReadUnits += u.ReadUnits
		s.WriteUnits += u.WriteUnits
		out[k] = s
	}
	for _, db := range h.dbs() {
		for _, tm := range db.Meters().Tables {
			add(capacityKey{tm.Table, ""}, tm.Units)
			for name, u := range tm.Indexes {
				add(capacityKey{tm.Table, name}, u)
			}
		}
	}
	return out
}

// Sample takes a reading now, as the history does every interval, and
// records what each table and index consumed since the last one. Tables
// and indexes that consumed nothing get a zero sample while they exist,
// so a chart shows idle time as idle.
func (h *CapacityHistory) Sample(now time.Time) {
	cur := h.read()
	h.mu.Lock()
	defer h.mu.Unlock()
	keys := make([]capacityKey, 0, len(cur))
	for k := range cur {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].table != keys[j].table {
			return keys[i].table < keys[j].table
		}
		return keys[i].index < keys[j].index
	})
	for _, k := range keys {
		u, prev := cur[k], h.last[k]
		// A meter only grows; one that shrank belongs to a namespace
		// closed since: count from zero.
		r, w := u.ReadUnits-prev.ReadUnits, u.WriteUnits-prev.WriteUnits
		if r < 0 || w < 0 {
			r, w = u.ReadUnits, u.WriteUnits
		}
		h.samples = append(h.samples, CapacitySample{Time: now, Table: k.table, Index: k.index, ReadUnits: r, WriteUnits: w})
	}
	h.last = cur
	// Drop whole intervals beyond keep.
	times := 0
	cut := len(h.samples)
	for i := len(h.samples) - 1; i >= 0; i-- {
		if i == len(h.samples)-1 || !h.samples[i].Time.Equal(h.samples[i+1].Time) {
			times++
			if times > h.keep {
				break
			}
		}
		cut = i
	}
	if cut > 0 {
		h.samples = append([]CapacitySample(nil), h.samples[cut:]...)
	}
}

// Samples returns the history, oldest first.
func (h *CapacityHistory) Samples() []CapacitySample {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]CapacitySample(nil), h.samples...)
}

// Close stops taking readings.
func (h *CapacityHistory) Close() {
	close(h.stop)
	<-h.done
}
