package pgstore

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/dynago/dynago/internal/storage"
	"github.com/dynago/dynago/internal/storage/pebblestore"
)

// TestDifferentialPebble applies the same random batches to the embedded
// Pebble store and to this one, then compares every key, and iterators
// over random bounds driven by the same random moves, step by step. Pages
// are tiny so that every move crosses pages in every direction.
func TestDifferentialPebble(t *testing.T) {
	pg := openTest(t, Options{})
	peb, err := pebblestore.Open(pebblestore.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	defer peb.Close()

	seed := rand.Uint64()
	if s := os.Getenv("PGSTORE_DIFF_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 7))

	// Keys of up to three bytes over an alphabet with the extremes, so
	// prefixes, 0x00 and 0xff all meet.
	alphabet := []byte{0x00, 0x01, 'a', 0x7f, 0x80, 0xfe, 0xff}
	randKey := func() []byte {
		n := rng.IntN(4)
		k := make([]byte, n)
		for i := range k {
			k[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return k
	}
	randValue := func() []byte {
		n := rng.IntN(20)
		if rng.IntN(10) == 0 {
			n = 100 + rng.IntN(400)
		}
		v := make([]byte, n)
		for i := range v {
			v[i] = byte(rng.Uint32())
		}
		return v
	}

	stores := []storage.Store{peb, pg}
	var history []string
	rounds := 40
	if testing.Short() {
		rounds = 10
	}
	for round := range rounds {
		shrinkPages(t, 1+rng.IntN(4), 1+rng.IntN(6), 64+rng.IntN(1024))
		// One batch, the same on both.
		type op struct {
			kind     int
			key, val []byte
		}
		var ops []op
		for range 1 + rng.IntN(12) {
			switch r := rng.IntN(10); {
			case r < 6:
				ops = append(ops, op{0, randKey(), randValue()})
			case r < 9:
				ops = append(ops, op{1, randKey(), nil})
			default:
				a, b := randKey(), randKey()
				if bytes.Compare(a, b) > 0 {
					a, b = b, a
				}
				ops = append(ops, op{2, a, b})
			}
		}
		for _, o := range ops {
			history = append(history, fmt.Sprintf("round %d: %d %x %x", round, o.kind, o.key, o.val))
		}
		for _, s := range stores {
			b := s.NewBatch()
			for _, o := range ops {
				switch o.kind {
				case 0:
					b.Set(o.key, o.val)
				case 1:
					b.Delete(o.key)
				case 2:
					b.DeleteRange(o.key, o.val)
				}
			}
			if err := b.Commit(); err != nil {
				t.Fatalf("round %d: commit: %v", round, err)
			}
		}

		// Every key (the whole space is small): Get agrees.
		all := allKeys(alphabet)
		for _, k := range all {
			v1, ok1, err1 := peb.Get(k, nil)
			v2, ok2, err2 := pg.Get(k, nil)
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			if ok1 != ok2 || !bytes.Equal(v1, v2) {
				for _, h := range history {
					t.Log(h)
				}
				t.Fatalf("round %d: Get(%x): pebble %v %x, pg %v %x", round, k, ok1, v1, ok2, v2)
			}
		}

		// Iterators with random bounds and random moves.
		for range 6 {
			var lower, upper []byte
			if rng.IntN(3) > 0 {
				// (nil, not empty: see the seek keys below.)
				if lower = randKey(); len(lower) == 0 {
					lower = nil
				}
			}
			// (An empty, non-nil upper bound is left out: Pebble's
			// answers to it are not those of an empty range.)
			if rng.IntN(3) > 0 {
				for len(upper) == 0 {
					upper = randKey()
				}
			}
			if lower != nil && upper != nil && bytes.Compare(lower, upper) > 0 {
				lower, upper = upper, lower
			}
			its := make([]storage.Iter, 2)
			for i, s := range stores {
				if its[i], err = s.NewIter(lower, upper); err != nil {
					t.Fatal(err)
				}
			}
			var trail []string
			for range 60 {
				var name string
				var res [2]bool
				k := randKey()
				if len(k) == 0 {
					// Pebble's invariant checks (on with -race) index
					// an empty, non-nil seek key.
					k = nil
				}
				m := rng.IntN(10)
				for i, it := range its {
					switch m {
					case 0:
						name, res[i] = "First", it.First()
					case 1:
						name, res[i] = "Last", it.Last()
					case 2, 3, 4:
						name, res[i] = "Next", it.Next()
					case 5, 6:
						name, res[i] = "Prev", it.Prev()
					case 7, 8:
						name, res[i] = fmt.Sprintf("SeekGE(%x)", k), it.SeekGE(k)
					case 9:
						name, res[i] = fmt.Sprintf("SeekLT(%x)", k), it.SeekLT(k)
					}
				}
				trail = append(trail, name)
				a, b := its[0], its[1]
				if res[0] != res[1] || a.Valid() != b.Valid() || (a.Valid() && (!bytes.Equal(a.Key(), b.Key()) || !bytes.Equal(a.Value(), b.Value()))) {
					t.Fatalf("round %d, bounds [%x, %x), after %v:\npebble %v valid %v key %x\npg     %v valid %v key %x (err %v)\npebble keys %x\npg keys     %x\nin one page %x",
						round, lower, upper, trail, res[0], a.Valid(), a.Key(), res[1], b.Valid(), b.Key(), b.Error(),
						scan(t, peb, lower, upper), scan(t, pg, lower, upper), func() []string {
							shrinkPages(t, 1000, 1000, 1<<20)
							return scan(t, pg, lower, upper)
						}())
				}
				if err := b.Error(); err != nil {
					t.Fatal(err)
				}
			}
			for _, it := range its {
				if err := it.Close(); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if n := waitIdle(pg, time.Minute); n != 0 {
		t.Errorf("%d connections still acquired after a minute", n)
	}
}

// allKeys lists every key of up to three bytes over alphabet.
func allKeys(alphabet []byte) [][]byte {
	out := [][]byte{{}}
	prev := [][]byte{{}}
	for range 3 {
		var next [][]byte
		for _, p := range prev {
			for _, c := range alphabet {
				next = append(next, append(bytes.Clone(p), c))
			}
		}
		out = append(out, next...)
		prev = next
	}
	return out
}
