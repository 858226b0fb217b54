package expr

import (
	"hash/maphash"
	"sync"
)

// The parse cache maps (kind, text) to the parsed expression, before any
// request's names and values are applied, so that a request whose
// expressions were seen before skips lexing and parsing entirely. It is
// sharded to keep lock contention low, and bounded: a full shard drops an
// arbitrary entry (Go's map iteration order) to make room.
const (
	cacheShards         = 32
	cacheEntriesPerKind = 256 // per shard and kind: 40960 entries in all
)

type cacheShard struct {
	mu sync.RWMutex
	m  [numKinds]map[string]*parsed
}

var (
	cacheSeed = maphash.MakeSeed()
	cache     [cacheShards]cacheShard
)

// parseCached returns the parse of text as kind k, from the cache when
// possible.
func parseCached(k Kind, text string) *parsed {
	sh := &cache[maphash.String(cacheSeed, text)%cacheShards]
	sh.mu.RLock()
	p := sh.m[k][text]
	sh.mu.RUnlock()
	if p != nil {
		return p
	}
	p = parse(k, text)
	sh.mu.Lock()
	m := sh.m[k]
	if m == nil {
		m = make(map[string]*parsed, cacheEntriesPerKind)
		sh.m[k] = m
	}
	if len(m) >= cacheEntriesPerKind {
		for old := range m {
			delete(m, old)
			break
		}
	}
	m[text] = p
	sh.mu.Unlock()
	return p
}

// resetCache empties the cache (tests and benchmarks).
func resetCache() {
	for i := range cache {
		sh := &cache[i]
		sh.mu.Lock()
		sh.m = [numKinds]map[string]*parsed{}
		sh.mu.Unlock()
	}
}
