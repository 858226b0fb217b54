// Package faultstore wraps a storage.Store so that tests can make chosen
// calls fail, as a store does when its disk is full, its file is
// unreadable or its database is unreachable. It is for tests only.
//
// A failing call does what a failing store does: a read returns the error
// and no value, an iterator stops with Error set, and a batch's Commit
// returns the error with nothing applied.
package faultstore

import (
	"context"
	"errors"
	"sync/atomic"

	"github.com/dynago/dynago/internal/storage"
)

// ErrInjected is the error a call fails with when the rule gives no other.
var ErrInjected = errors.New("faultstore: injected store fault")

// Kind names a call of the store.
type Kind string

// The calls a rule can fail.
const (
	Get      Kind = "get"      // Reader.Get and Store.View
	GetMany  Kind = "getmany"  // storage.MultiGetter
	Counters Kind = "counters" // Reader.Counters
	NewIter  Kind = "newiter"  // Reader.NewIter and NewIterAtMost
	Move     Kind = "move"     // an iterator's positioning methods
	Snapshot Kind = "snapshot" // Store.NewSnapshot
	Commit   Kind = "commit"   // Batch.Commit
	Ping     Kind = "ping"     // Store.Ping
)

// Call is one call about to reach the store.
type Call struct {
	Kind Kind
	// Key is the key read, or an iterator's lower bound; nil for the
	// other calls.
	Key []byte
}

// Rule decides whether a call fails: it returns the error to fail with,
// or nil to let the call through.
type Rule func(Call) error

// Store is a storage.Store whose calls fail as its rule says.
type Store struct {
	inner storage.Store
	rule  atomic.Pointer[Rule]
	// Failed counts the calls that failed.
	Failed atomic.Int64
}

// New wraps inner; no call fails until SetRule.
func New(inner storage.Store) *Store { return &Store{inner: inner} }

// SetRule makes later calls fail as r says; nil lets every call through.
func (s *Store) SetRule(r Rule) {
	if r == nil {
		s.rule.Store(nil)
		return
	}
	s.rule.Store(&r)
}

// FailAll makes every call of the given kinds fail with ErrInjected (of
// every kind when none is given).
func (s *Store) FailAll(kinds ...Kind) {
	s.SetRule(func(c Call) error {
		if len(kinds) == 0 {
			return ErrInjected
		}
		for _, k := range kinds {
			if c.Kind == k {
				return ErrInjected
			}
		}
		return nil
	})
}

// Heal lets every call through again.
func (s *Store) Heal() { s.SetRule(nil) }

// Inner returns the wrapped store.
func (s *Store) Inner() storage.Store { return s.inner }

func (s *Store) check(k Kind, key []byte) error {
	r := s.rule.Load()
	if r == nil {
		return nil
	}
	if err := (*r)(Call{Kind: k, Key: key}); err != nil {
		s.Failed.Add(1)
		return err
	}
	return nil
}

func (s *Store) Get(key, dst []byte) ([]byte, bool, error) {
	if err := s.check(Get, key); err != nil {
		return dst, false, err
	}
	return s.inner.Get(key, dst)
}

func (s *Store) View(key []byte, fn func(value []byte) error) (bool, error) {
	if err := s.check(Get, key); err != nil {
		return false, err
	}
	return s.inner.View(key, fn)
}

func (s *Store) Counters(key []byte, n int) ([]int64, error) {
	if err := s.check(Counters, key); err != nil {
		return nil, err
	}
	return s.inner.Counters(key, n)
}

func (s *Store) NewIter(lower, upper []byte) (storage.Iter, error) {
	if err := s.check(NewIter, lower); err != nil {
		return nil, err
	}
	it, err := s.inner.NewIter(lower, upper)
	if err != nil {
		return nil, err
	}
	return &iter{Iter: it, s: s, lower: lower}, nil
}

// NewIterAtMost implements storage.AtMostIterStore, through the inner
// store's when it has one.
func (s *Store) NewIterAtMost(lower, upper []byte, n int) (storage.Iter, error) {
	a, ok := s.inner.(storage.AtMostIterStore)
	if !ok {
		return s.NewIter(lower, upper)
	}
	if err := s.check(NewIter, lower); err != nil {
		return nil, err
	}
	it, err := a.NewIterAtMost(lower, upper, n)
	if err != nil {
		return nil, err
	}
	return &iter{Iter: it, s: s, lower: lower}, nil
}

// GetMany implements storage.MultiGetter, through the inner store's when
// it has one.
func (s *Store) GetMany(keys [][]byte) ([][]byte, []bool, error) {
	if err := s.check(GetMany, nil); err != nil {
		return nil, nil, err
	}
	if mg, ok := s.inner.(storage.MultiGetter); ok {
		return mg.GetMany(keys)
	}
	vals := make([][]byte, len(keys))
	found := make([]bool, len(keys))
	for i, k := range keys {
		v, ok, err := s.inner.Get(k, nil)
		if err != nil {
			return nil, nil, err
		}
		vals[i], found[i] = v, ok
	}
	return vals, found, nil
}

// Stats implements storage.Statter: the inner store's figures, if any.
func (s *Store) Stats() []storage.Stat {
	if st, ok := s.inner.(storage.Statter); ok {
		return st.Stats()
	}
	return nil
}

func (s *Store) NewSnapshot() (storage.Snapshot, error) {
	if err := s.check(Snapshot, nil); err != nil {
		return nil, err
	}
	sn, err := s.inner.NewSnapshot()
	if err != nil {
		return nil, err
	}
	return &snapshot{Snapshot: sn, s: s}, nil
}

func (s *Store) NewBatch() storage.Batch { return &batch{Batch: s.inner.NewBatch(), s: s} }

func (s *Store) Shared() bool { return s.inner.Shared() }

func (s *Store) Ping(ctx context.Context) error {
	if err := s.check(Ping, nil); err != nil {
		return err
	}
	return s.inner.Ping(ctx)
}

func (s *Store) Close() error { return s.inner.Close() }

type snapshot struct {
	storage.Snapshot
	s *Store
}

func (sn *snapshot) Get(key, dst []byte) ([]byte, bool, error) {
	if err := sn.s.check(Get, key); err != nil {
		return dst, false, err
	}
	return sn.Snapshot.Get(key, dst)
}

func (sn *snapshot) Counters(key []byte, n int) ([]int64, error) {
	if err := sn.s.check(Counters, key); err != nil {
		return nil, err
	}
	return sn.Snapshot.Counters(key, n)
}

func (sn *snapshot) NewIter(lower, upper []byte) (storage.Iter, error) {
	if err := sn.s.check(NewIter, lower); err != nil {
		return nil, err
	}
	it, err := sn.Snapshot.NewIter(lower, upper)
	if err != nil {
		return nil, err
	}
	return &iter{Iter: it, s: sn.s, lower: lower}, nil
}

// iter fails its moves as the rule says; once failed it stays failed, as
// a store's iterator does.
type iter struct {
	storage.Iter
	s     *Store
	lower []byte
	err   error
}

func (it *iter) move(f func() bool) bool {
	if it.err != nil {
		return false
	}
	if err := it.s.check(Move, it.lower); err != nil {
		it.err = err
		return false
	}
	return f()
}

func (it *iter) First() bool            { return it.move(it.Iter.First) }
func (it *iter) Last() bool             { return it.move(it.Iter.Last) }
func (it *iter) Next() bool             { return it.move(it.Iter.Next) }
func (it *iter) Prev() bool             { return it.move(it.Iter.Prev) }
func (it *iter) SeekGE(key []byte) bool { return it.move(func() bool { return it.Iter.SeekGE(key) }) }
func (it *iter) SeekLT(key []byte) bool { return it.move(func() bool { return it.Iter.SeekLT(key) }) }
func (it *iter) Valid() bool            { return it.err == nil && it.Iter.Valid() }
func (it *iter) Key() []byte            { return it.validOr(it.Iter.Key) }
func (it *iter) Value() []byte          { return it.validOr(it.Iter.Value) }
func (it *iter) validOr(f func() []byte) []byte {
	if it.err != nil {
		return nil
	}
	return f()
}

func (it *iter) Error() error {
	if it.err != nil {
		return it.err
	}
	return it.Iter.Error()
}

// Close reports the error that stopped the iterator, as storage.Iter
// promises.
func (it *iter) Close() error {
	err := it.Iter.Close()
	if it.err != nil {
		return it.err
	}
	return err
}

type batch struct {
	storage.Batch
	s *Store
}

// Commit fails with nothing applied, as a store whose write fails does.
func (b *batch) Commit() error {
	if err := b.s.check(Commit, nil); err != nil {
		b.Batch.Close()
		return err
	}
	return b.Batch.Commit()
}

// The wrapper implements the store's interfaces, optional ones included.
var (
	_ storage.Store           = (*Store)(nil)
	_ storage.AtMostIterStore = (*Store)(nil)
	_ storage.MultiGetter     = (*Store)(nil)
	_ storage.Statter         = (*Store)(nil)
)
