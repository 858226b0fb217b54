package partiql

import (
	"hash/maphash"
	"sync"
)

// The parse cache maps a statement's text to its parse, shared by every
// request that sends the same text (applications send the same statements
// with different parameters). A parse is immutable once made: callers
// must not change a cached Statement or its expressions. Only statements
// that parse are kept, so refused ones cannot push out good ones.
//
// It is bounded by an estimate of the memory its entries keep alive:
// each is charged its text times parseCost (the parser allocates at most
// a few nodes of under a hundred bytes per token, and a token is at least
// one byte) plus a fixed overhead. A shard over its share of CacheBudget
// is emptied; the next requests parse again.
const (
	// CacheBudget is the most memory the cache is charged, in bytes.
	CacheBudget  = 32 << 20
	cacheShards  = 16
	parseCost    = 96
	entryCharge  = 256
	shardBudget  = CacheBudget / cacheShards
	maxCacheText = shardBudget / parseCost / 4 // a statement too large to be worth a quarter of a shard is not kept
)

type cacheShard struct {
	mu      sync.RWMutex
	entries map[string]*Statement
	charged int
}

var (
	cacheSeed = maphash.MakeSeed()
	cache     [cacheShards]cacheShard
)

// ParseCached is Parse through the parse cache.
func ParseCached(src string) (*Statement, error) {
	sh := &cache[maphash.String(cacheSeed, src)%cacheShards]
	sh.mu.RLock()
	st, ok := sh.entries[src]
	sh.mu.RUnlock()
	if ok {
		return st, nil
	}
	st, err := Parse(src)
	if err != nil || len(src) > maxCacheText {
		return st, err
	}
	cost := len(src)*parseCost + entryCharge
	sh.mu.Lock()
	if sh.charged+cost > shardBudget {
		sh.entries, sh.charged = nil, 0
	}
	if sh.entries == nil {
		sh.entries = make(map[string]*Statement)
	}
	if _, dup := sh.entries[src]; !dup {
		sh.entries[src] = st
		sh.charged += cost
	}
	sh.mu.Unlock()
	return st, nil
}
