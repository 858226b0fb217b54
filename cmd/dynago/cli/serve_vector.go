package cli

import (
	"fmt"

	"github.com/dynago/dynago/engine"
)

// vectorConfig holds serve's vector search flags: when a search walks
// the approximate index, how widely, and how many graph nodes stay in
// memory (docs/VECTORS.md, "Tuning").
type vectorConfig struct {
	exactLimit int
	searchEF   int
	cacheNodes int
}

func vectorFlags(fs *flagSet, c *vectorConfig) {
	fs.IntVar(&c.exactLimit, "vector-exact-limit", engine.DefaultVectorExactLimit, "SearchVectors reads every entry of a vector index's range (one HASH value, or\n"+
		"the whole index) while it holds at most this many, and gives exact results;\n"+
		"a larger range is searched through its approximate index (an HNSW graph).\n"+
		"-1: always the graph")
	fs.IntVar(&c.searchEF, "vector-search-ef", engine.DefaultVectorSearchEF, "breadth of an approximate vector search (HNSW's ef, never below TopK): larger\n"+
		"finds more of the true nearest items, and takes longer")
	fs.IntVar(&c.cacheNodes, "vector-cache-nodes", engine.DefaultVectorCacheNodes, "most vector graph nodes kept in memory (about 1.3 times 4 bytes a dimension\n"+
		"each); past it the least recently used graphs are dropped and read again from\n"+
		"the store when next searched")
}

// check refuses values the engine would not take as given.
func (c vectorConfig) check() error {
	if c.exactLimit < -1 {
		return fmt.Errorf("--vector-exact-limit: %d is below -1", c.exactLimit)
	}
	if c.searchEF < 1 {
		return fmt.Errorf("--vector-search-ef: %d is below 1", c.searchEF)
	}
	if c.cacheNodes < 1 {
		return fmt.Errorf("--vector-cache-nodes: %d is below 1", c.cacheNodes)
	}
	return nil
}

// apply sets the engine's options.
func (c vectorConfig) apply(o *engine.Options) {
	o.VectorExactLimit, o.VectorSearchEF, o.VectorCacheNodes = c.exactLimit, c.searchEF, c.cacheNodes
}
