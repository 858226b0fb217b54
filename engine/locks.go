package engine

import (
	"hash/maphash"
	"sync"
)

// itemLockStripes is the number of mutexes item writes hash onto. Two
// items sharing a stripe serialise needlessly but correctly; 4096 stripes
// keep that rare at any realistic concurrency.
const itemLockStripes = 4096

// itemLocks serialises writes to one item: a write holds the stripe of its
// row key from reading the old item to committing the new one.
type itemLocks struct {
	seed    maphash.Seed
	once    sync.Once
	stripes [itemLockStripes]sync.Mutex
}

func (l *itemLocks) stripe(rowKey []byte) int {
	l.once.Do(func() { l.seed = maphash.MakeSeed() })
	return int(maphash.Bytes(l.seed, rowKey) % itemLockStripes)
}

// lock locks the stripe of rowKey and returns its index for unlock.
func (l *itemLocks) lock(rowKey []byte) int {
	i := l.stripe(rowKey)
	l.stripes[i].Lock()
	return i
}

func (l *itemLocks) unlock(i int) { l.stripes[i].Unlock() }
