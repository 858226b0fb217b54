package engine

import (
	"hash/maphash"
	"slices"
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

// lockAll locks the stripes of several row keys and returns them for
// unlockAll. Stripes are taken in ascending order, each once, so two
// multi-item writes can never wait on each other in a cycle whatever the
// order of their items; a single-item write holds one stripe and waits
// for nothing while holding it, so it cannot close a cycle either.
func (l *itemLocks) lockAll(rowKeys [][]byte) []int {
	idx := make([]int, 0, len(rowKeys))
	for _, k := range rowKeys {
		idx = append(idx, l.stripe(k))
	}
	slices.Sort(idx)
	idx = slices.Compact(idx)
	for _, i := range idx {
		l.stripes[i].Lock()
	}
	return idx
}

// unlockAll releases what lockAll took.
func (l *itemLocks) unlockAll(idx []int) {
	for j := len(idx) - 1; j >= 0; j-- {
		l.stripes[idx[j]].Unlock()
	}
}
