package engine

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// sliceIter is a storage.Iter over sorted keys, their values the keys'
// upper case.
type sliceIter struct {
	keys []string
	i    int
}

func (s *sliceIter) First() bool { s.i = 0; return s.Valid() }
func (s *sliceIter) Last() bool  { s.i = len(s.keys) - 1; return s.Valid() }
func (s *sliceIter) Next() bool  { s.i++; return s.Valid() }
func (s *sliceIter) Prev() bool  { s.i--; return s.Valid() }
func (s *sliceIter) SeekGE(k []byte) bool {
	s.i, _ = slices.BinarySearch(s.keys, string(k))
	return s.Valid()
}
func (s *sliceIter) SeekLT(k []byte) bool {
	i, _ := slices.BinarySearch(s.keys, string(k))
	s.i = i - 1
	return s.Valid()
}
func (s *sliceIter) Valid() bool   { return s.i >= 0 && s.i < len(s.keys) }
func (s *sliceIter) Key() []byte   { return []byte(s.keys[s.i]) }
func (s *sliceIter) Value() []byte { return []byte(strings.ToUpper(s.keys[s.i])) }
func (s *sliceIter) Error() error  { return nil }
func (s *sliceIter) Close() error  { return nil }

// TestLagIterMerge: the overlay's entries replace the store's rows of
// their keys, add the rows the store no longer has, and hide the rows it
// did not have yet, in either direction and from a seek.
func TestLagIterMerge(t *testing.T) {
	store := []string{"b", "c", "e", "g"}
	entries := []lagEntry{
		{key: []byte("a"), val: []byte("old-a"), found: true}, // deleted since
		{key: []byte("c"), val: []byte("old-c"), found: true}, // changed since
		{key: []byte("e")}, // new since
		{key: []byte("f"), val: []byte("old-f"), found: true},
		{key: []byte("h")}, // new, and not in the store's range either
	}
	walk := func(l *lagIter, ok bool, reverse bool) []string {
		var got []string
		for ; ok; ok = step(l, reverse) {
			got = append(got, string(l.Key())+"="+string(l.Value()))
		}
		return got
	}
	cases := []struct {
		name string
		run  func(l *lagIter) []string
		want []string
	}{
		{"forwards", func(l *lagIter) []string { return walk(l, l.First(), false) },
			[]string{"a=old-a", "b=B", "c=old-c", "f=old-f", "g=G"}},
		{"backwards", func(l *lagIter) []string { return walk(l, l.Last(), true) },
			[]string{"g=G", "f=old-f", "c=old-c", "b=B", "a=old-a"}},
		{"from SeekGE c", func(l *lagIter) []string { return walk(l, l.SeekGE([]byte("c")), false) },
			[]string{"c=old-c", "f=old-f", "g=G"}},
		{"from SeekLT e", func(l *lagIter) []string { return walk(l, l.SeekLT([]byte("e")), true) },
			[]string{"c=old-c", "b=B", "a=old-a"}},
		{"turning around ends it", func(l *lagIter) []string {
			l.First()
			if l.Prev() || l.Valid() {
				return []string{"moved"}
			}
			return nil
		}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			lr := &lagRead{entries: entries}
			got := tc.run(newLagIter(&sliceIter{keys: store}, lr))
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestLagOverlayVersions: a key's versions show in order, each at its
// instant or after the one before it, and the overlay forgets a key
// once its versions all show.
func TestLagOverlayVersions(t *testing.T) {
	now := time.Unix(1000, 0)
	o := newLagOverlay(func() time.Time { return now }, 1)
	row := func(v string) []byte { return []byte(v) }
	change := func(before, after string) lagChange {
		c := lagChange{key: []byte("k"), span: time.Second, foundBefore: before != "", foundAfter: after != ""}
		if before != "" {
			c.before = row(before)
		}
		if after != "" {
			c.after = row(after)
		}
		return c
	}
	see := func() string {
		v, found, ok := o.lookup([]byte("k"))
		switch {
		case !ok:
			return "store"
		case !found:
			return "none"
		}
		return string(v)
	}
	o.record([]lagChange{change("", "v1")})
	o.record([]lagChange{change("v1", "v2")})
	o.record([]lagChange{change("v2", "")})
	var seen []string
	for range 40 {
		if s := see(); len(seen) == 0 || seen[len(seen)-1] != s {
			seen = append(seen, s)
		}
		now = now.Add(50 * time.Millisecond)
	}
	// Each shown no sooner than the one before: the sequence is a
	// subsequence of none, v1, v2, store, starting at none and ending at
	// the store.
	order := []string{"none", "v1", "v2", "store"}
	last := -1
	for _, s := range seen {
		i := slices.Index(order, s)
		if i <= last {
			t.Fatalf("versions shown out of order: %q", seen)
		}
		last = i
	}
	if seen[0] != "none" || seen[len(seen)-1] != "store" {
		t.Fatalf("versions shown %q: want from none to the store's", seen)
	}
	o.mu.Lock()
	o.prune(now)
	n := len(o.keys)
	o.mu.Unlock()
	if n != 0 {
		t.Errorf("%d keys kept once every version shows", n)
	}
}

// TestLagOverlayBound: the overlay holds at most maxLagKeys keys; past
// it, those that show soonest go first.
func TestLagOverlayBound(t *testing.T) {
	now := time.Unix(1000, 0)
	o := newLagOverlay(func() time.Time { return now }, 1)
	for i := range maxLagKeys + 10 {
		o.record([]lagChange{{key: fmt.Appendf(nil, "k%08d", i), after: []byte("x"), foundAfter: true, span: time.Hour}})
	}
	o.mu.Lock()
	n := len(o.keys)
	o.mu.Unlock()
	if n > maxLagKeys {
		t.Errorf("%d keys held, over %d", n, maxLagKeys)
	}
	if _, _, ok := o.lookup(fmt.Appendf(nil, "k%08d", maxLagKeys+9)); !ok {
		t.Errorf("the last change recorded is not held")
	}
}
