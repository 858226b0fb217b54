// Package storagetest is the conformance suite of storage.Store: what
// every backend must do the same way, whatever it is built on. Each
// backend runs it from its own tests:
//
//	func TestConformance(t *testing.T) {
//		storagetest.Run(t, func(t *testing.T) storage.Store { return openFresh(t) })
//	}
//
// open must return an empty store of its own; the suite closes it (its
// Close must return nil), so open must not.
// The suite covers the promises of the storage package comment: bytewise
// key order, iterator bounds in both directions, empty keys and values,
// atomic batches, range deletions, snapshots, counters, expectations and
// inserts on a shared store, and the lifecycle of batches, iterators and
// snapshots.
package storagetest

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/dynago/dynago/internal/storage"
)

// Open returns a fresh, empty store for one test.
type Open func(t *testing.T) storage.Store

// Run runs every conformance test against stores from open.
func Run(t *testing.T, open Open) {
	for _, c := range []struct {
		name string
		run  func(*testing.T, storage.Store)
	}{
		{"SetGetDelete", setGetDelete},
		{"EmptyKeyAndValue", emptyKeyAndValue},
		{"BytewiseOrder", bytewiseOrder},
		{"IterBounds", iterBounds},
		{"Seek", seek},
		{"BatchIsAtomic", batchIsAtomic},
		{"BatchLifecycle", batchLifecycle},
		{"DeleteRange", deleteRange},
		{"Snapshot", snapshot},
		{"Counters", counters},
		{"Expectations", expectations},
		{"Insert", insert},
		{"GetAppends", getAppends},
		{"Close", closeStore},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := open(t)
			if c.name != "Close" {
				t.Cleanup(func() {
					if err := s.Close(); err != nil {
						t.Errorf("store close: %v", err)
					}
				})
			}
			c.run(t, s)
		})
	}
}

func set(t *testing.T, s storage.Store, kv ...string) {
	t.Helper()
	b := s.NewBatch()
	defer b.Close()
	for i := 0; i < len(kv); i += 2 {
		if err := b.Set([]byte(kv[i]), []byte(kv[i+1])); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Commit(); err != nil {
		t.Fatalf("commit: %v", err)
	}
}

func get(t *testing.T, r storage.Reader, key string) (string, bool) {
	t.Helper()
	v, ok, err := r.Get([]byte(key), nil)
	if err != nil {
		t.Fatalf("get %q: %v", key, err)
	}
	return string(v), ok
}

// keys lists the keys of [lower, upper) forward, checking that the
// iterator ends without an error.
func keys(t *testing.T, r storage.Reader, lower, upper []byte) []string {
	t.Helper()
	it, err := r.NewIter(lower, upper)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for ok := it.First(); ok; ok = it.Next() {
		if !it.Valid() {
			t.Fatalf("positioned iterator is not Valid at %q", out)
		}
		out = append(out, string(it.Key()))
	}
	if it.Valid() {
		t.Errorf("iterator past its end is still Valid")
	}
	if err := it.Error(); err != nil {
		t.Fatalf("iterator error: %v", err)
	}
	if err := it.Close(); err != nil {
		t.Fatalf("iterator close: %v", err)
	}
	return out
}

// keysBack lists the keys of [lower, upper) backward, in forward order.
func keysBack(t *testing.T, r storage.Reader, lower, upper []byte) []string {
	t.Helper()
	it, err := r.NewIter(lower, upper)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for ok := it.Last(); ok; ok = it.Prev() {
		out = append(out, string(it.Key()))
	}
	if err := it.Error(); err != nil {
		t.Fatalf("iterator error: %v", err)
	}
	if err := it.Close(); err != nil {
		t.Fatalf("iterator close: %v", err)
	}
	slices.Reverse(out)
	return out
}

func setGetDelete(t *testing.T, s storage.Store) {
	if _, ok := get(t, s, "a"); ok {
		t.Fatal("a fresh store holds key a")
	}
	set(t, s, "a", "1", "b", "2")
	if v, ok := get(t, s, "a"); !ok || v != "1" {
		t.Errorf("a = %q %v, want 1", v, ok)
	}
	set(t, s, "a", "3")
	if v, _ := get(t, s, "a"); v != "3" {
		t.Errorf("a after overwrite = %q, want 3", v)
	}
	b := s.NewBatch()
	b.Delete([]byte("a"))
	b.Delete([]byte("never-written"))
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	if _, ok := get(t, s, "a"); ok {
		t.Error("a survives its Delete")
	}
	var seen []byte
	found, err := s.View([]byte("b"), func(v []byte) error { seen = bytes.Clone(v); return nil })
	if err != nil || !found || string(seen) != "2" {
		t.Errorf("View(b) = %q %v %v", seen, found, err)
	}
	found, err = s.View([]byte("a"), func([]byte) error { t.Error("View called fn for a missing key"); return nil })
	if err != nil || found {
		t.Errorf("View(a) after delete: found %v, err %v", found, err)
	}
	boom := errors.New("from fn")
	if _, err := s.View([]byte("b"), func([]byte) error { return boom }); !errors.Is(err, boom) {
		t.Errorf("View does not return fn's error: %v", err)
	}
}

func emptyKeyAndValue(t *testing.T, s storage.Store) {
	set(t, s, "", "of-empty-key", "k", "")
	if v, ok := get(t, s, ""); !ok || v != "of-empty-key" {
		t.Errorf("empty key = %q %v", v, ok)
	}
	if v, ok := get(t, s, "k"); !ok || v != "" {
		t.Errorf("empty value = %q %v, want present and empty", v, ok)
	}
	if got := keys(t, s, nil, nil); !slices.Equal(got, []string{"", "k"}) {
		t.Errorf("keys = %q, want the empty key first", got)
	}
	if got := keys(t, s, []byte{}, []byte("k")); !slices.Equal(got, []string{""}) {
		t.Errorf("[\"\", k) = %q", got)
	}
}

// orderedKeys are in bytewise order: unsigned bytes, a prefix before
// its extensions.
var orderedKeys = []string{"", "\x00", "\x00\x00", "\x00\x01", "\x01", "a", "a\x00", "a\x00\x00", "ab", "a\xff", "b", "\x7f", "\x80", "\xfe\xff", "\xff", "\xff\x00", "\xff\xff", "\xff\xff\xff"}

func fillOrdered(t *testing.T, s storage.Store) {
	t.Helper()
	if !slices.IsSortedFunc(orderedKeys, func(a, b string) int { return bytes.Compare([]byte(a), []byte(b)) }) {
		t.Fatal("orderedKeys are not in bytewise order")
	}
	var kv []string
	for _, k := range slices.Backward(orderedKeys) {
		kv = append(kv, k, "v"+k)
	}
	set(t, s, kv...)
}

func bytewiseOrder(t *testing.T, s storage.Store) {
	fillOrdered(t, s)
	if got := keys(t, s, nil, nil); !slices.Equal(got, orderedKeys) {
		t.Errorf("forward:\n got %q\nwant %q", got, orderedKeys)
	}
	if got := keysBack(t, s, nil, nil); !slices.Equal(got, orderedKeys) {
		t.Errorf("backward:\n got %q\nwant %q", got, orderedKeys)
	}
	it, err := s.NewIter(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	for ok := it.First(); ok; ok = it.Next() {
		if want := "v" + string(it.Key()); string(it.Value()) != want {
			t.Errorf("value of %q = %q, want %q", it.Key(), it.Value(), want)
		}
	}
}

func iterBounds(t *testing.T, s storage.Store) {
	fillOrdered(t, s)
	for _, c := range []struct {
		lower, upper []byte
		want         []string
	}{
		{[]byte("a"), []byte("a\xff"), []string{"a", "a\x00", "a\x00\x00", "ab"}},
		{[]byte("a"), []byte("b"), []string{"a", "a\x00", "a\x00\x00", "ab", "a\xff"}},
		{[]byte("\xff"), nil, []string{"\xff", "\xff\x00", "\xff\xff", "\xff\xff\xff"}},
		{nil, []byte("\x00\x00"), []string{"", "\x00"}},
		{[]byte("a\x00"), []byte("a\x00\x00"), []string{"a\x00"}},
		{[]byte("b"), []byte("b"), nil},
		{[]byte("c"), []byte("d"), nil},
	} {
		if got := keys(t, s, c.lower, c.upper); !slices.Equal(got, c.want) {
			t.Errorf("forward [%q, %q) = %q, want %q", c.lower, c.upper, got, c.want)
		}
		if got := keysBack(t, s, c.lower, c.upper); !slices.Equal(got, c.want) {
			t.Errorf("backward [%q, %q) = %q, want %q", c.lower, c.upper, got, c.want)
		}
	}
}

func seek(t *testing.T, s storage.Store) {
	set(t, s, "b", "1", "d", "2", "f", "3", "h", "4")
	it, err := s.NewIter([]byte("c"), []byte("g"))
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	at := func(what string, ok bool, want string) {
		t.Helper()
		got := ""
		if ok {
			got = string(it.Key())
		}
		if got != want {
			t.Errorf("%s: on %q, want %q", what, got, want)
		}
	}
	at("SeekGE(a), below the lower bound", it.SeekGE([]byte("a")), "d")
	at("SeekGE(d)", it.SeekGE([]byte("d")), "d")
	at("SeekGE(e)", it.SeekGE([]byte("e")), "f")
	at("Next after f", it.Next(), "")
	at("SeekGE(g), at the upper bound", it.SeekGE([]byte("g")), "")
	at("SeekLT(z), above the upper bound", it.SeekLT([]byte("z")), "f")
	at("SeekLT(f)", it.SeekLT([]byte("f")), "d")
	at("Prev before d", it.Prev(), "")
	at("SeekLT(d), at the first key", it.SeekLT([]byte("d")), "")
	at("SeekGE(d) then Next", it.SeekGE([]byte("d")) && it.Next(), "f")
	at("then Prev", it.Prev(), "d")
	if err := it.Error(); err != nil {
		t.Errorf("iterator error: %v", err)
	}
}

func batchIsAtomic(t *testing.T, s storage.Store) {
	set(t, s, "keep", "old", "drop", "x")
	b := s.NewBatch()
	if !b.Empty() {
		t.Error("a new batch is not Empty")
	}
	b.Set([]byte("keep"), []byte("new"))
	b.Delete([]byte("drop"))
	b.Set([]byte("added"), []byte("y"))
	if b.Empty() {
		t.Error("a batch with writes is Empty")
	}
	// Nothing is visible before Commit.
	if v, _ := get(t, s, "keep"); v != "old" {
		t.Errorf("keep before commit = %q", v)
	}
	if _, ok := get(t, s, "added"); ok {
		t.Error("added is visible before commit")
	}
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := keys(t, s, nil, nil); !slices.Equal(got, []string{"added", "keep"}) {
		t.Errorf("keys after commit = %q", got)
	}
	// A batch closed without Commit applies nothing.
	b = s.NewBatch()
	b.Set([]byte("never"), []byte("1"))
	b.Delete([]byte("keep"))
	b.Close()
	if got := keys(t, s, nil, nil); !slices.Equal(got, []string{"added", "keep"}) {
		t.Errorf("keys after an abandoned batch = %q", got)
	}
	// The last write to a key in a batch wins.
	b = s.NewBatch()
	b.Set([]byte("k"), []byte("1"))
	b.Delete([]byte("k"))
	b.Set([]byte("k"), []byte("2"))
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	if v, _ := get(t, s, "k"); v != "2" {
		t.Errorf("k = %q, want the batch's last write", v)
	}
}

func batchLifecycle(t *testing.T, s storage.Store) {
	b := s.NewBatch()
	b.Set([]byte("a"), []byte("1"))
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	b.Close() // after Commit: does nothing
	b.Close() // twice: still nothing
	b = s.NewBatch()
	b.Close()
	b.Close()
	// An empty batch commits.
	if err := s.NewBatch().Commit(); err != nil {
		t.Errorf("empty batch: %v", err)
	}
	if v, _ := get(t, s, "a"); v != "1" {
		t.Errorf("a = %q", v)
	}
	// A snapshot and an iterator close without error.
	snap, err := s.NewSnapshot()
	if err != nil {
		t.Fatal(err)
	}
	if err := snap.Close(); err != nil {
		t.Errorf("snapshot close: %v", err)
	}
	it, err := s.NewIter(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	it.First()
	if err := it.Close(); err != nil {
		t.Errorf("iterator close mid-range: %v", err)
	}
}

// closeStore: a store with its snapshots, iterators and batches closed
// closes without error.
func closeStore(t *testing.T, s storage.Store) {
	set(t, s, "a", "1")
	it, err := s.NewIter(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	it.First()
	it.Close()
	snap, err := s.NewSnapshot()
	if err != nil {
		t.Fatal(err)
	}
	snap.Close()
	if err := s.Close(); err != nil {
		t.Errorf("store close: %v", err)
	}
}

func deleteRange(t *testing.T, s storage.Store) {
	set(t, s, "a", "1", "b", "2", "b\x00", "3", "c", "4", "d", "5")
	b := s.NewBatch()
	b.Set([]byte("b\x01"), []byte("dropped")) // before the range: deleted by it
	b.DeleteRange([]byte("b"), []byte("d"))
	b.Set([]byte("c"), []byte("after"))     // after the range: survives
	b.DeleteRange([]byte("x"), []byte("a")) // an empty range
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := keys(t, s, nil, nil); !slices.Equal(got, []string{"a", "c", "d"}) {
		t.Errorf("keys = %q, want a c d", got)
	}
	if v, _ := get(t, s, "c"); v != "after" {
		t.Errorf("c = %q", v)
	}
	if got := keysBack(t, s, nil, nil); !slices.Equal(got, []string{"a", "c", "d"}) {
		t.Errorf("keys backward = %q", got)
	}
}

func snapshot(t *testing.T, s storage.Store) {
	set(t, s, "a", "1", "b", "2")
	snap, err := s.NewSnapshot()
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Close()
	b := s.NewBatch()
	b.Set([]byte("a"), []byte("changed"))
	b.Delete([]byte("b"))
	b.Set([]byte("c"), []byte("new"))
	b.AddCounters([]byte("n"), 5)
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	if v, _ := get(t, snap, "a"); v != "1" {
		t.Errorf("snapshot a = %q, want 1", v)
	}
	if v, ok := get(t, snap, "b"); !ok || v != "2" {
		t.Errorf("snapshot b = %q %v, want 2", v, ok)
	}
	if got := keys(t, snap, nil, []byte("m")); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("snapshot keys = %q", got)
	}
	if n, err := snap.Counters([]byte("n"), 1); err != nil || n[0] != 0 {
		t.Errorf("snapshot counter = %v %v, want 0", n, err)
	}
	// Counter keys are read with Counters only: stay below them.
	if got := keys(t, s, nil, []byte("m")); !slices.Equal(got, []string{"a", "c"}) {
		t.Errorf("live keys = %q", got)
	}
}

func counters(t *testing.T, s storage.Store) {
	if n, err := s.Counters([]byte("c"), 3); err != nil || !slices.Equal(n, []int64{0, 0, 0}) {
		t.Fatalf("missing counters = %v %v, want zeros", n, err)
	}
	for i := range 5 {
		b := s.NewBatch()
		b.AddCounters([]byte("c"), 1, int64(-10*i), 1<<40)
		if err := b.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := s.Counters([]byte("c"), 3); err != nil || !slices.Equal(n, []int64{5, -100, 5 << 40}) {
		t.Errorf("counters = %v %v, want [5 -100 %d]", n, err, int64(5<<40))
	}
	// Two additions in one batch add up.
	b := s.NewBatch()
	b.AddCounters([]byte("d"), 2)
	b.AddCounters([]byte("d"), 3)
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	if n, _ := s.Counters([]byte("d"), 1); n[0] != 5 {
		t.Errorf("d = %v, want 5", n)
	}
	// Delete and DeleteRange remove counters.
	b = s.NewBatch()
	b.Delete([]byte("c"))
	b.DeleteRange([]byte("d"), []byte("e"))
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"c", "d"} {
		if n, err := s.Counters([]byte(k), 1); err != nil || n[0] != 0 {
			t.Errorf("%s after delete = %v %v, want 0", k, n, err)
		}
	}
}

// expectations: on a shared store a batch whose expected keys changed
// since they were read applies nothing and fails with ErrConflict; a
// store one process writes may ignore them, but must still commit.
func expectations(t *testing.T, s storage.Store) {
	set(t, s, "x", "1")
	commit := func(expectKey, value string, found bool) error {
		b := s.NewBatch()
		defer b.Close()
		b.Expect([]byte(expectKey), []byte(value), found)
		b.Set([]byte("written"), []byte(fmt.Sprintf("%s=%s/%v", expectKey, value, found)))
		return b.Commit()
	}
	for _, c := range []struct {
		key, value string
		found, ok  bool
	}{
		{"x", "1", true, true},
		{"absent", "", false, true},
		{"x", "2", true, false},
		{"x", "", false, false},
		{"absent", "1", true, false},
	} {
		err := commit(c.key, c.value, c.found)
		switch {
		case c.ok && err != nil:
			t.Errorf("expect %s=%q found=%v, which holds: %v", c.key, c.value, c.found, err)
		case !c.ok && s.Shared() && !errors.Is(err, storage.ErrConflict):
			t.Errorf("expect %s=%q found=%v, which does not hold: %v, want ErrConflict", c.key, c.value, c.found, err)
		case !c.ok && s.Shared():
			if v, _ := get(t, s, "written"); v == fmt.Sprintf("%s=%s/%v", c.key, c.value, c.found) {
				t.Errorf("a batch that failed its expectation applied its write")
			}
		case !c.ok && err != nil:
			t.Errorf("a store one process writes refused a batch for its expectation: %v", err)
		}
	}
	// One expectation made several times holds once; two that cannot
	// both hold fail the batch, however many repeats surround them.
	many := func(exps ...[2]string) error {
		b := s.NewBatch()
		defer b.Close()
		for _, e := range exps {
			b.Expect([]byte(e[0]), []byte(e[1]), e[1] != "")
		}
		b.Set([]byte("written"), []byte("many"))
		return b.Commit()
	}
	if err := many([2]string{"x", "1"}, [2]string{"absent", ""}, [2]string{"x", "1"}, [2]string{"x", "1"}); err != nil {
		t.Errorf("a repeated expectation that holds: %v", err)
	}
	err := many([2]string{"x", "1"}, [2]string{"x", "1"}, [2]string{"x", "2"}, [2]string{"x", "1"})
	if s.Shared() && !errors.Is(err, storage.ErrConflict) {
		t.Errorf("x expected as 1 and as 2: %v, want ErrConflict", err)
	}
	if !s.Shared() && err != nil {
		t.Errorf("a store one process writes refused a batch for its expectations: %v", err)
	}
	// ExpectNone holds while its range is empty: [lower, upper) with
	// upper excluded, and to the end of the keys when upper is nil.
	set(t, s, "r5", "v")
	for _, c := range []struct {
		lower, upper string
		open, ok     bool
	}{
		{"r0", "r5", false, true},
		{"r6", "r9", false, true},
		{"r5", "r6", false, false},
		{"r", "s", false, false},
		{"\xff\xff\xff\xff", "", true, true},
		{"x", "", true, false},
	} {
		b := s.NewBatch()
		var upper []byte
		if !c.open {
			upper = []byte(c.upper)
		}
		b.ExpectNone([]byte(c.lower), upper)
		b.Set([]byte("written"), []byte("none "+c.lower))
		err := b.Commit()
		switch {
		case c.ok && err != nil:
			t.Errorf("ExpectNone [%s, %s), which holds: %v", c.lower, c.upper, err)
		case !c.ok && s.Shared() && !errors.Is(err, storage.ErrConflict):
			t.Errorf("ExpectNone [%s, %s), which does not hold: %v, want ErrConflict", c.lower, c.upper, err)
		case !c.ok && !s.Shared() && err != nil:
			t.Errorf("a store one process writes refused a batch for ExpectNone: %v", err)
		}
	}
}

// insert never overwrites on a shared store: the second Insert of a key
// conflicts. A store one process writes treats it as Set.
func insert(t *testing.T, s storage.Store) {
	b := s.NewBatch()
	b.Insert([]byte("k"), []byte("first"))
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	b = s.NewBatch()
	b.Insert([]byte("k"), []byte("second"))
	b.Set([]byte("other"), []byte("1"))
	err := b.Commit()
	v, _ := get(t, s, "k")
	if s.Shared() {
		if !errors.Is(err, storage.ErrConflict) || v != "first" {
			t.Errorf("second Insert: %v, k = %q; want ErrConflict and first", err, v)
		}
		if _, ok := get(t, s, "other"); ok {
			t.Error("the conflicting batch applied its other write")
		}
		return
	}
	if err != nil || v != "second" {
		t.Errorf("second Insert on a store one process writes: %v, k = %q; want second", err, v)
	}
}

func getAppends(t *testing.T, s storage.Store) {
	set(t, s, "k", "value")
	dst := []byte("prefix-")
	v, ok, err := s.Get([]byte("k"), dst)
	if err != nil || !ok || string(v) != "prefix-value" {
		t.Errorf("Get with dst = %q %v %v, want prefix-value", v, ok, err)
	}
	v, ok, err = s.Get([]byte("missing"), []byte("p"))
	if err != nil || ok {
		t.Errorf("Get of a missing key: %q %v %v", v, ok, err)
	}
}
