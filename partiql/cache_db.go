package partiql

import "github.com/dynago/dynago/engine"

// cacheOf is the statement cache of db: kept with the DB's parse caches
// (engine.ParseCaches.Statements), so that it is owned per database and
// shared by the databases that share those, as the expression cache is.
func cacheOf(db *engine.DB) *Cache {
	return db.ParseCaches().Statements(newStatementCache).(*Cache)
}

func newStatementCache(bytes int) any { return NewCache(bytes) }
