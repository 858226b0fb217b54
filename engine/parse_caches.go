package engine

import (
	"github.com/dynago/dynago/internal/expr"
	"github.com/dynago/dynago/internal/partiql"
)

// ParseCaches keep the parses of expression texts and PartiQL statements,
// so that a request sending a text seen before skips its parse. Each is
// bounded by the memory its parses keep alive. A DB makes its own unless
// Options.ParseCaches gives ones to share: a server with a database per
// account and region shares one pair, so that their bound holds for all.
type ParseCaches struct {
	expr    *expr.Cache
	partiql *partiql.Cache
}

// NewParseCaches returns caches of at most bytes each (the default,
// DefaultParseCacheBytes, when 0 or less).
func NewParseCaches(bytes int) *ParseCaches {
	if bytes <= 0 {
		bytes = DefaultParseCacheBytes
	}
	return &ParseCaches{expr: expr.NewCache(bytes), partiql: partiql.NewCache(bytes)}
}

// DefaultParseCacheBytes bounds each of a DB's parse caches by default.
const DefaultParseCacheBytes = 32 << 20
