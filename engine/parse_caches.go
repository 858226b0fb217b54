package engine

import (
	"sync"
	"sync/atomic"

	"github.com/dynago/dynago/internal/expr"
)

// ParseCaches keep the parses of expression texts and PartiQL statements,
// so that a request sending a text seen before skips its parse. Each is
// bounded by the memory its parses keep alive. A DB makes its own unless
// Options.ParseCaches gives ones to share: a server with a database per
// account and region shares one pair, so that their bound holds for all.
//
// The statement cache is the statement language's (package partiql),
// which sits above the engine: ParseCaches keeps it without knowing its
// type (Statements), so that it is owned and shared as the expression
// cache is.
type ParseCaches struct {
	expr  *expr.Cache
	bytes int

	mu         sync.Mutex
	statements atomic.Value
}

// NewParseCaches returns caches of at most bytes each (the default,
// DefaultParseCacheBytes, when 0 or less).
func NewParseCaches(bytes int) *ParseCaches {
	if bytes <= 0 {
		bytes = DefaultParseCacheBytes
	}
	return &ParseCaches{expr: expr.NewCache(bytes), bytes: bytes}
}

// DefaultParseCacheBytes bounds each of a DB's parse caches by default.
const DefaultParseCacheBytes = 32 << 20

// Statements returns the cache of parsed statements kept with these
// caches, which newCache makes, bounded by bytes, on the first call; later
// calls return that one whatever newCache they pass.
func (c *ParseCaches) Statements(newCache func(bytes int) any) any {
	if s := c.statements.Load(); s != nil {
		return s
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if s := c.statements.Load(); s != nil {
		return s
	}
	s := newCache(c.bytes)
	c.statements.Store(s)
	return s
}

// ParseCaches returns the caches the DB parses through (Options.ParseCaches).
func (db *DB) ParseCaches() *ParseCaches { return db.opts.ParseCaches }
