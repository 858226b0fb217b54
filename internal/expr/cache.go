package expr

import (
	"hash/maphash"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/dynago/dynago/attr"
)

// The parse cache maps (kind, text) to the parsed expression, before any
// request's names and values are applied, so that a request whose
// expressions were seen before skips lexing and parsing entirely.
//
// It is bounded by the memory its entries keep alive, not by their number:
// a parse of a 4 KB expression can hold 200 KB of syntax tree while a
// short one holds a few hundred bytes, so a count bound is either too
// small for real workloads or unbounded in bytes for a client sending
// many distinct large expressions. Each entry is charged entryCost (the
// text plus an estimate of its tree, measured by TestCacheCostMatchesHeap),
// and each of the cacheShards shards holds at most CacheBudget/cacheShards
// bytes of them, evicting by CLOCK (second chance): a hit only sets the
// entry's reference bit, under the shard's read lock, so the hit path
// takes no write lock; an insertion sweeps the shard's ring, clearing set
// bits and evicting the first entry found clear.
//
// Failed parses are not cached: a syntax error, or an error the parser
// finds without the request's names and values, costs a parse every time,
// which is what a miss costs anyway, and a flood of invalid expressions
// cannot displace the valid ones of well-behaved clients.
const (
	// CacheBudget is the default bound of a Cache: the estimated bytes of
	// all its parses.
	CacheBudget = 32 << 20
	cacheShards = 32
)

// Cache is a bounded cache of parsed expressions, safe for concurrent use.
// A database owns one (engine.Options); several may share it.
type Cache struct {
	seed        maphash.Seed
	shardBudget int
	shards      [cacheShards]cacheShard
}

// NewCache returns a cache bounded by budget bytes (CacheBudget when 0 or
// less).
func NewCache(budget int) *Cache {
	if budget <= 0 {
		budget = CacheBudget
	}
	return &Cache{seed: maphash.MakeSeed(), shardBudget: budget / cacheShards}
}

type cacheEntry struct {
	kind Kind
	text string
	p    *parsed
	cost int
	ref  atomic.Bool // CLOCK's reference bit: set by hits, cleared by the hand
}

type cacheShard struct {
	mu    sync.RWMutex
	m     [numKinds]map[string]*cacheEntry
	ring  []*cacheEntry // the entries, in CLOCK order
	hand  int           // the next entry the hand looks at
	bytes int           // the sum of the entries' costs
}

// parse returns the parse of text as kind k, from the cache when
// possible. A nil cache parses every time.
func (c *Cache) parse(k Kind, text string) *parsed {
	if c == nil {
		return parse(k, text)
	}
	sh := &c.shards[maphash.String(c.seed, text)%cacheShards]
	sh.mu.RLock()
	e := sh.m[k][text]
	if e != nil && !e.ref.Load() {
		e.ref.Store(true)
	}
	sh.mu.RUnlock()
	if e != nil {
		return e.p
	}
	// The cached tree refers into its text (path names are substrings of
	// it), so it must not keep a caller's larger string alive.
	text = strings.Clone(text)
	p := parse(k, text)
	if p.err != nil || p.static != nil {
		return p
	}
	e = &cacheEntry{kind: k, text: text, p: p, cost: entryCost(p, text)}
	if e.cost > c.shardBudget {
		return p
	}
	sh.mu.Lock()
	sh.insert(e, c.shardBudget)
	sh.mu.Unlock()
	return p
}

// insert adds e, evicting entries until the shard is within its budget.
// A concurrent miss may have inserted the same text: the later insertion
// replaces it.
func (sh *cacheShard) insert(e *cacheEntry, shardBudget int) {
	m := sh.m[e.kind]
	if m == nil {
		m = make(map[string]*cacheEntry)
		sh.m[e.kind] = m
	}
	if old := m[e.text]; old != nil {
		sh.remove(sh.indexOf(old))
	}
	for sh.bytes+e.cost > shardBudget && len(sh.ring) > 0 {
		if sh.hand >= len(sh.ring) {
			sh.hand = 0
		}
		if c := sh.ring[sh.hand]; c.ref.Load() {
			c.ref.Store(false)
			sh.hand++
			continue
		}
		sh.remove(sh.hand)
	}
	m[e.text] = e
	sh.ring = append(sh.ring, e)
	sh.bytes += e.cost
}

func (sh *cacheShard) indexOf(e *cacheEntry) int {
	for i, c := range sh.ring {
		if c == e {
			return i
		}
	}
	panic("expr: cache entry not in its ring")
}

// remove evicts the entry at ring position i; the last entry takes its
// place.
func (sh *cacheShard) remove(i int) {
	e := sh.ring[i]
	delete(sh.m[e.kind], e.text)
	sh.bytes -= e.cost
	last := len(sh.ring) - 1
	sh.ring[i] = sh.ring[last]
	sh.ring[last] = nil
	sh.ring = sh.ring[:last]
}

// reset empties the cache (tests and benchmarks).
func (c *Cache) reset() {
	for i := range c.shards {
		sh := &c.shards[i]
		sh.mu.Lock()
		sh.m = [numKinds]map[string]*cacheEntry{}
		sh.ring, sh.hand, sh.bytes = nil, 0, 0
		sh.mu.Unlock()
	}
}

// size returns the charged bytes and the number of entries (tests).
func (c *Cache) size() (bytes, entries int) {
	for i := range c.shards {
		sh := &c.shards[i]
		sh.mu.RLock()
		bytes += sh.bytes
		entries += len(sh.ring)
		sh.mu.RUnlock()
	}
	return bytes, entries
}

// Sizes of the structures a parse keeps, for entryCost.
const (
	sizeParsed   = int(unsafe.Sizeof(parsed{}))
	sizeEntry    = int(unsafe.Sizeof(cacheEntry{}))
	sizeCond     = int(unsafe.Sizeof(Cond{}))
	sizeOperand  = int(unsafe.Sizeof(Operand{}))
	sizeAction   = int(unsafe.Sizeof(Action{}))
	sizePathElem = int(unsafe.Sizeof(PathElem{}))
	sizePathNode = int(unsafe.Sizeof(pathNode{}))
	sizePtr      = int(unsafe.Sizeof(uintptr(0)))
	sizeString   = int(unsafe.Sizeof(""))
	sizeSlice    = int(unsafe.Sizeof([]int{}))
	sizeError    = int(unsafe.Sizeof(attr.Error{}))
	// mapSlot is what one entry costs in a shard's map and ring: the key
	// and value slots with Go's map overhead, and the ring's pointer.
	mapSlot = 2 * (sizeString + sizePtr + sizePtr)
)

// entryCost estimates the heap bytes a cache entry keeps alive: its text,
// the parse with its tree, the path tree built on first use, and the
// entry's own slots. It sums the sizes of the objects the parser
// allocates and adds a quarter for Go's size classes and slice growth;
// TestCacheCostMatchesHeap checks it against the heap for the largest
// expressions of every kind. It runs on a miss only, after a parse, which
// costs far more.
func entryCost(p *parsed, text string) int {
	n := len(text) + sizeParsed + sizeEntry + mapSlot
	n += costCond(p.cond)
	n += cap(p.actions) * sizeAction
	elems := 0
	for i := range p.actions {
		a := &p.actions[i]
		n += cap(a.Path) * sizePathElem
		elems += len(a.Path)
		n += costOperand(a.Value)
	}
	n += cap(p.paths) * sizeSlice
	for _, path := range p.paths {
		n += cap(path) * sizePathElem
		elems += len(path)
	}
	if elems > 0 && len(p.nameRefs) == 0 {
		// The path tree, kept with the parse once built: at most one
		// node per path element, each with a slot in its parent's kids.
		n += (elems + 1) * (sizePathNode + 2*sizePtr)
	}
	n += cap(p.nameRefs)*sizeString + cap(p.valueRefs)*sizeString + cap(p.refOrder)*4
	if p.static != nil {
		n += sizeError + len(p.static.Message)
	}
	return n + n/4
}

func costCond(c *Cond) int {
	if c == nil {
		return 0
	}
	n := sizeCond + cap(c.Operands)*sizePtr
	for _, o := range c.Operands {
		n += costOperand(o)
	}
	return n + costCond(c.Left) + costCond(c.Right)
}

func costOperand(o *Operand) int {
	if o == nil {
		return 0
	}
	n := sizeOperand + cap(o.Path)*sizePathElem + cap(o.Args)*sizePtr
	for _, a := range o.Args {
		n += costOperand(a)
	}
	return n
}
