package pebblestore

import (
	"bytes"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/dynago/dynago/internal/storage"
)

// TestModel applies random batches of Set, Delete and DeleteRange to the
// store and to a map, over short keys with the extreme bytes, the empty
// key among them, and ranges that are empty, inverted or start at the
// empty key. After every commit it compares every key, reads of single
// keys, and iterators over random bounds moved at random; every few rounds
// it flushes and runs the reclaimer's compaction pass at once, so range
// deletions land in tables and are compacted.
//
// Run it under -race as well: Pebble then builds its invariant checks,
// whose test-only code once made a range deletion starting at the empty
// key stop hiding its keys after a compaction, and panicked on an empty
// seek key.
func TestModel(t *testing.T) {
	for _, disk := range []bool{false, true} {
		seeds := 4
		if disk {
			seeds = 1
		}
		for seed := range uint64(seeds) {
			t.Run(fmt.Sprintf("disk=%v/seed=%d", disk, seed), func(t *testing.T) {
				t.Parallel()
				o := Options{InMemory: true}
				if disk {
					o = Options{Dir: t.TempDir()}
				}
				// A failed reclamation is only logged: fail on any
				// warning or error, Pebble's own included.
				o.Logger = slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))
				db, err := Open(o)
				if err != nil {
					t.Fatal(err)
				}
				defer db.Close()
				runModel(t, db, rand.New(rand.NewPCG(seed, 11)))
			})
		}
	}
}

func runModel(t *testing.T, db *Store, rng *rand.Rand) {
	alphabet := []byte{0, 1, 'a', 0x7f, 0x80, 0xfe, 0xff}
	randKey := func() []byte {
		k := make([]byte, rng.IntN(4))
		for i := range k {
			k[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return k
	}
	model := map[string]string{}
	for round := range 40 {
		b := db.NewBatch()
		var ops []string
		for range 1 + rng.IntN(12) {
			switch r := rng.IntN(10); {
			case r < 6:
				k, v := randKey(), randKey()
				ops = append(ops, fmt.Sprintf("Set(%x)", k))
				if err := b.Set(k, v); err != nil {
					t.Fatal(err)
				}
				model[string(k)] = string(v)
			case r < 8:
				k := randKey()
				ops = append(ops, fmt.Sprintf("Delete(%x)", k))
				if err := b.Delete(k); err != nil {
					t.Fatal(err)
				}
				delete(model, string(k))
			default:
				start, end := randKey(), randKey()
				switch rng.IntN(8) {
				case 0: // left as drawn: may be inverted or empty
				case 1:
					start = []byte{}
				case 2:
					end = nil
				default:
					if bytes.Compare(start, end) > 0 {
						start, end = end, start
					}
				}
				ops = append(ops, fmt.Sprintf("DeleteRange(%x, %x)", start, end))
				if err := b.DeleteRange(start, end); err != nil {
					t.Fatal(err)
				}
				for k := range model {
					if k >= string(start) && k < string(end) {
						delete(model, k)
					}
				}
			}
		}
		if err := b.Commit(); err != nil {
			t.Fatal(err)
		}
		if round%8 == 7 {
			if rng.IntN(2) == 0 {
				if err := db.p.Flush(); err != nil {
					t.Fatal(err)
				}
			}
			db.reclaim.pass()
		}
		where := fmt.Sprintf("round %d, after %v", round, ops)
		checkModel(t, db, model, where)
		checkModelReads(t, db, model, rng, randKey, where)
	}
}

// checkModel compares every key and value of the store with the model.
func checkModel(t *testing.T, db *Store, model map[string]string, where string) {
	t.Helper()
	it, err := db.NewIter(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	n := 0
	for ok := it.First(); ok; ok = it.Next() {
		v, in := model[string(it.Key())]
		if !in || v != string(it.Value()) {
			t.Fatalf("%s: the store holds %x=%x, the model %v %x", where, it.Key(), it.Value(), in, v)
		}
		n++
	}
	if err := it.Error(); err != nil {
		t.Fatal(err)
	}
	if n != len(model) {
		t.Fatalf("%s: the store holds %d keys, the model %d", where, n, len(model))
	}
}

// checkModelReads compares reads of single keys, through the store and a
// snapshot, and iterators over random bounds moved at random. After a move
// that leaves the keys it seeks or goes to an end again, as the interface
// says nothing of stepping on from there.
func checkModelReads(t *testing.T, db *Store, model map[string]string, rng *rand.Rand, randKey func() []byte, where string) {
	t.Helper()
	snap, err := db.NewSnapshot()
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Close()
	for range 5 {
		k := randKey()
		want, wantOK := model[string(k)]
		for _, r := range []storage.Reader{db, snap} {
			v, ok, err := r.Get(k, nil)
			if err != nil || ok != wantOK || string(v) != want {
				t.Fatalf("%s: Get(%x) = %x %v %v, want %x %v", where, k, v, ok, err, want, wantOK)
			}
		}
	}
	sorted := make([]string, 0, len(model))
	for k := range model {
		sorted = append(sorted, k)
	}
	slices.Sort(sorted)
	for range 3 {
		lower, upper := randKey(), randKey()
		switch rng.IntN(4) {
		case 0:
			lower = nil
		case 1:
			upper = nil
		}
		if upper != nil && bytes.Compare(lower, upper) > 0 {
			lower, upper = upper, lower
		}
		// The keys in bounds, and the position among them: -1 before the
		// first, len(in) after the last.
		var in []string
		for _, k := range sorted {
			if k >= string(lower) && (upper == nil || k < string(upper)) {
				in = append(in, k)
			}
		}
		var r storage.Reader = db
		if rng.IntN(2) == 0 {
			r = snap
		}
		it, err := r.NewIter(lower, upper)
		if err != nil {
			t.Fatal(err)
		}
		pos, valid := -1, false
		var trail []string
		for range 20 {
			k := randKey()
			m := rng.IntN(6)
			if !valid && m >= 4 {
				m = rng.IntN(4)
			}
			var name string
			var got bool
			switch m {
			case 0:
				name, got = "First", it.First()
				pos = 0
			case 1:
				name, got = "Last", it.Last()
				pos = len(in) - 1
			case 2:
				name, got = fmt.Sprintf("SeekGE(%x)", k), it.SeekGE(k)
				pos, _ = slices.BinarySearch(in, string(k))
			case 3:
				name, got = fmt.Sprintf("SeekLT(%x)", k), it.SeekLT(k)
				pos, _ = slices.BinarySearch(in, string(k))
				pos--
			case 4:
				name, got = "Next", it.Next()
				pos++
			case 5:
				name, got = "Prev", it.Prev()
				pos--
			}
			trail = append(trail, name)
			valid = pos >= 0 && pos < len(in)
			if got != valid || got && string(it.Key()) != in[pos] {
				var key []byte
				if got {
					key = it.Key()
				}
				t.Fatalf("%s: iterator [%x, %x) after %v: %v at %x, want %v at %d of %x",
					where, lower, upper, trail, got, key, valid, pos, in)
			}
		}
		if err := it.Error(); err != nil {
			t.Fatal(err)
		}
		it.Close()
	}
}

// testWriter fails the test with whatever is written to it.
type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Errorf("logged: %s", p)
	return len(p), nil
}
