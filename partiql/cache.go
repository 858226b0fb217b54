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
	// CacheBudget is the default bound of a Cache: the most memory it is
	// charged, in bytes.
	CacheBudget = 32 << 20
	cacheShards = 16
	parseCost   = 96
	entryCharge = 256
)

// Cache is a bounded cache of parsed statements, safe for concurrent use.
// A database owns one (engine.Options); several may share it.
type Cache struct {
	seed        maphash.Seed
	shardBudget int
	// maxText: a statement too large to be worth a quarter of a shard is
	// not kept.
	maxText int
	shards  [cacheShards]cacheShard
}

type cacheShard struct {
	mu      sync.RWMutex
	entries map[string]*Statement
	charged int
}

// NewCache returns a cache bounded by budget bytes (CacheBudget when 0 or
// less).
func NewCache(budget int) *Cache {
	if budget <= 0 {
		budget = CacheBudget
	}
	sb := budget / cacheShards
	return &Cache{seed: maphash.MakeSeed(), shardBudget: sb, maxText: sb / parseCost / 4}
}

// Parse is the package's Parse through the cache; a nil cache parses
// every time.
func (c *Cache) Parse(src string) (*Statement, error) {
	if c == nil {
		return Parse(src)
	}
	sh := &c.shards[maphash.String(c.seed, src)%cacheShards]
	sh.mu.RLock()
	st, ok := sh.entries[src]
	sh.mu.RUnlock()
	if ok {
		return st, nil
	}
	st, err := Parse(src)
	if err != nil || len(src) > c.maxText {
		return st, err
	}
	cost := len(src)*parseCost + entryCharge
	sh.mu.Lock()
	if sh.charged+cost > c.shardBudget {
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
