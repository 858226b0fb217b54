package keys

import (
	"bytes"
	"encoding/binary"
	"errors"
	"slices"
	"testing"

	"github.com/dynago/dynago/attr"
)

func TestPrefixes(t *testing.T) {
	if got, want := TablePrefix(0x0102030405060708), []byte{0x02, 1, 2, 3, 4, 5, 6, 7, 8}; !bytes.Equal(got, want) {
		t.Errorf("TablePrefix = %x, want %x", got, want)
	}
	if got, want := IndexPrefix(7, 0x0A0B0C0D), []byte{0x02, 0, 0, 0, 0, 0, 0, 0, 7, 0x0A, 0x0B, 0x0C, 0x0D}; !bytes.Equal(got, want) {
		t.Errorf("IndexPrefix = %x, want %x", got, want)
	}
	if got := MetaPrefix(); !bytes.Equal(got, []byte{0x01}) {
		t.Errorf("MetaPrefix = %x", got)
	}
	pk := []attr.Value{attr.S("user#1")}
	key, err := AppendRowKey(nil, 7, 3, pk, []attr.Value{attr.N("5")})
	if err != nil {
		t.Fatal(err)
	}
	part, err := PartitionPrefix(7, 3, pk)
	if err != nil {
		t.Fatal(err)
	}
	encPK := mustTuple(t, pk)
	want := slices.Concat(IndexPrefix(7, 3), binary.BigEndian.AppendUint64(nil, Hash(encPK)), encPK)
	if !bytes.Equal(part, want) {
		t.Errorf("PartitionPrefix = %x, want %x", part, want)
	}
	for _, p := range [][]byte{TablePrefix(7), IndexPrefix(7, 3), part} {
		if !bytes.HasPrefix(key, p) {
			t.Errorf("row key %x lacks prefix %x", key, p)
		}
	}
	for _, p := range [][]byte{TablePrefix(8), IndexPrefix(7, 2), IndexPrefix(7, 4)} {
		if bytes.HasPrefix(key, p) {
			t.Errorf("row key %x has foreign prefix %x", key, p)
		}
	}
	tid, iid, h, tuples, err := SplitRowKey(key)
	if err != nil || tid != 7 || iid != 3 || h != Hash(encPK) || !bytes.HasPrefix(tuples, encPK) {
		t.Errorf("SplitRowKey = %d %d %x %x %v", tid, iid, h, tuples, err)
	}
}

func TestRowKeyRoundTripProperty(t *testing.T) {
	r := newRand(t)
	for range 3000 {
		pkTypes, skTypes := randTypes(r, 1, MaxKeyAttrs), randTypes(r, 0, MaxKeyAttrs)
		pk, sk := randTuple(r, pkTypes), randTuple(r, skTypes)
		tableID, indexID := r.Uint64(), r.Uint32()
		key, err := AppendRowKey([]byte("dst"), tableID, indexID, pk, sk)
		if err != nil {
			t.Fatalf("AppendRowKey(%s, %s): %v", fmtTuple(pk), fmtTuple(sk), err)
		}
		if string(key[:3]) != "dst" {
			t.Fatalf("dst not kept")
		}
		key = key[3:]
		gpk, gsk, rest, err := DecodeRowKey(key, pkTypes, skTypes)
		if err != nil || len(rest) != 0 {
			t.Fatalf("DecodeRowKey(%x): %v, rest %x", key, err, rest)
		}
		checkDecoded(t, pk, gpk)
		checkDecoded(t, sk, gsk)

		// The same key in index form, with a base key after it.
		basePK := randTuple(r, randTypes(r, 1, 1))
		baseSK := randTuple(r, randTypes(r, 0, 1))
		ikey, err := AppendIndexRowKey(nil, tableID, indexID, pk, sk, basePK, baseSK)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(ikey, key) {
			t.Fatalf("index row key %x does not extend row key %x", ikey, key)
		}
		gpk, gsk, rest, err = DecodeRowKey(ikey, pkTypes, skTypes)
		if err != nil {
			t.Fatal(err)
		}
		checkDecoded(t, pk, gpk)
		checkDecoded(t, sk, gsk)
		bpk, bsk, err := DecodeBaseKey(rest, typesOf(basePK), typesOf(baseSK))
		if err != nil {
			t.Fatalf("DecodeBaseKey(%x): %v", rest, err)
		}
		checkDecoded(t, basePK, bpk)
		checkDecoded(t, baseSK, bsk)
	}
}

func typesOf(vs []attr.Value) []attr.Type {
	ts := make([]attr.Type, len(vs))
	for i, v := range vs {
		ts[i] = v.Type
	}
	return ts
}

func checkDecoded(t *testing.T, in, got []attr.Value) {
	t.Helper()
	if len(in) == 0 {
		if got != nil {
			t.Fatalf("empty tuple decoded as %s", fmtTuple(got))
		}
		return
	}
	want := make([]attr.Value, len(in))
	for i, v := range in {
		want[i] = canonical(t, v)
	}
	if !sameTuple(got, want) {
		t.Fatalf("decoded %s, want %s", fmtTuple(got), fmtTuple(want))
	}
}

// TestRowKeyOrder checks that row keys of one index sort by (hash,
// partition tuple, sort tuple) and that all rows of a partition are
// contiguous.
func TestRowKeyOrder(t *testing.T) {
	r := newRand(t)
	pkTypes := []attr.Type{attr.TypeS, attr.TypeN}
	skTypes := []attr.Type{attr.TypeN, attr.TypeB}
	type row struct {
		pk, sk []attr.Value
		key    []byte
	}
	var rows []row
	pks := make([][]attr.Value, 30)
	for i := range pks {
		pks[i] = randTuple(r, pkTypes)
	}
	for range 2000 {
		pk := pks[r.IntN(len(pks))]
		sk := randTuple(r, skTypes)
		key, err := AppendRowKey(nil, 1, 2, pk, sk)
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, row{pk, sk, key})
	}
	slices.SortFunc(rows, func(a, b row) int { return bytes.Compare(a.key, b.key) })
	for i := 1; i < len(rows); i++ {
		a, b := rows[i-1], rows[i]
		ha, hb := Hash(mustTuple(t, a.pk)), Hash(mustTuple(t, b.pk))
		if ha > hb {
			t.Fatalf("hash order broken")
		}
		if ha == hb {
			c := compareTuples(t, a.pk, b.pk)
			if c > 0 {
				t.Fatalf("partition order broken: %s > %s", fmtTuple(a.pk), fmtTuple(b.pk))
			}
			if c == 0 && compareTuples(t, a.sk, b.sk) > 0 {
				t.Fatalf("sort order broken: %s > %s", fmtTuple(a.sk), fmtTuple(b.sk))
			}
		}
	}
	for _, pk := range pks {
		prefix, err := PartitionPrefix(1, 2, pk)
		if err != nil {
			t.Fatal(err)
		}
		end := PrefixEnd(prefix)
		for _, rw := range rows {
			in := bytes.Compare(rw.key, prefix) >= 0 && bytes.Compare(rw.key, end) < 0
			if in != (compareTuples(t, rw.pk, pk) == 0) {
				t.Fatalf("row %s in partition range of %s: %v", fmtTuple(rw.pk), fmtTuple(pk), in)
			}
		}
	}
}

func TestRowKeyErrors(t *testing.T) {
	s := attr.S("x")
	five := []attr.Value{s, s, s, s, s}
	for _, c := range []struct {
		pk, sk []attr.Value
		want   error
	}{
		{nil, nil, ErrTupleSize},
		{five, nil, ErrTupleSize},
		{[]attr.Value{s}, five, ErrTupleSize},
		{[]attr.Value{attr.Bool(true)}, nil, ErrKeyType},
		{[]attr.Value{s}, []attr.Value{attr.N("x")}, ErrNumber},
	} {
		got, err := AppendRowKey([]byte("dst"), 1, 0, c.pk, c.sk)
		if !errors.Is(err, c.want) || string(got) != "dst" {
			t.Errorf("AppendRowKey(%d pk, %d sk): %q, %v; want %v", len(c.pk), len(c.sk), got, err, c.want)
		}
	}
	if _, err := AppendIndexRowKey(nil, 1, 1, []attr.Value{s}, nil, nil, nil); !errors.Is(err, ErrTupleSize) {
		t.Errorf("AppendIndexRowKey without base key: %v", err)
	}
	if _, err := PartitionPrefix(1, 0, nil); !errors.Is(err, ErrTupleSize) {
		t.Errorf("PartitionPrefix(nil): %v", err)
	}

	key, err := AppendRowKey(nil, 1, 0, []attr.Value{s}, []attr.Value{attr.N("1")})
	if err != nil {
		t.Fatal(err)
	}
	pkT, skT := []attr.Type{attr.TypeS}, []attr.Type{attr.TypeN}
	bad := bytes.Clone(key)
	bad[headerLen-1] ^= 1 // hash
	if _, _, _, err := DecodeRowKey(bad, pkT, skT); !errors.Is(err, ErrCorrupt) {
		t.Errorf("DecodeRowKey with wrong hash: %v", err)
	}
	bad = bytes.Clone(key)
	bad[0] = NSMeta
	if _, _, _, err := DecodeRowKey(bad, pkT, skT); !errors.Is(err, ErrCorrupt) {
		t.Errorf("DecodeRowKey of meta key: %v", err)
	}
	if _, _, _, err := DecodeRowKey(key[:headerLen-1], pkT, skT); !errors.Is(err, ErrCorrupt) {
		t.Errorf("DecodeRowKey of short key: %v", err)
	}
	if _, _, _, err := DecodeRowKey(key[:len(key)-1], pkT, skT); !errors.Is(err, ErrCorrupt) {
		t.Errorf("DecodeRowKey of truncated key: %v", err)
	}
	if _, _, err := DecodeBaseKey(append(mustTuple(t, []attr.Value{s}), 'x'), pkT, nil); !errors.Is(err, ErrCorrupt) {
		t.Errorf("DecodeBaseKey with trailing bytes: %v", err)
	}
}

func TestPrefixEndAndSuccessor(t *testing.T) {
	cases := []struct{ in, want []byte }{
		{nil, nil},
		{[]byte{0xFF, 0xFF}, nil},
		{[]byte{0x01}, []byte{0x02}},
		{[]byte{0x01, 0xFF}, []byte{0x02}},
		{[]byte{0x01, 0xFE, 0xFF, 0xFF}, []byte{0x01, 0xFF}},
	}
	for _, c := range cases {
		in := bytes.Clone(c.in)
		if got := PrefixEnd(in); !bytes.Equal(got, c.want) {
			t.Errorf("PrefixEnd(%x) = %x, want %x", c.in, got, c.want)
		}
		if !bytes.Equal(in, c.in) {
			t.Errorf("PrefixEnd modified its input")
		}
	}
	k := []byte{1, 2, 3}
	s := Successor(k[:2])
	if !bytes.Equal(s, []byte{1, 2, 0}) || k[2] != 3 {
		t.Errorf("Successor = %x, input now %x", s, k)
	}
}

// TestResumeAfterMaximalSortKey checks that resuming after a row whose sort
// key is the largest value a client can send skips the rest of that
// partition and lands on the next partition in hash order.
func TestResumeAfterMaximalSortKey(t *testing.T) {
	r := newRand(t)
	for _, c := range []struct {
		typ attr.Type
		max attr.Value
	}{
		{attr.TypeS, attr.S(maxS)},
		{attr.TypeN, attr.N(maxN)},
		{attr.TypeB, attr.B(maxB)},
	} {
		t.Run(c.typ.String(), func(t *testing.T) {
			// Many partitions with random sort keys, plus maximal ones.
			var keys [][]byte
			pks := make([][]attr.Value, 50)
			for i := range pks {
				pks[i] = []attr.Value{attr.S(randS(r) + string(rune('a'+i%26)) + string(rune('a'+i/26)))}
				for range 20 {
					k, err := AppendRowKey(nil, 9, 0, pks[i], []attr.Value{randValue(r, c.typ)})
					if err != nil {
						t.Fatal(err)
					}
					keys = append(keys, k)
				}
				k, err := AppendRowKey(nil, 9, 0, pks[i], []attr.Value{c.max})
				if err != nil {
					t.Fatal(err)
				}
				keys = append(keys, k)
			}
			slices.SortFunc(keys, bytes.Compare)
			keys = slices.CompactFunc(keys, bytes.Equal)
			for i, pk := range pks {
				resume, err := AppendRowKey(nil, 9, 0, pk, []attr.Value{c.max})
				if err != nil {
					t.Fatal(err)
				}
				start := Successor(resume)
				j, _ := slices.BinarySearchFunc(keys, start, bytes.Compare)
				if j == len(keys) {
					continue // last partition
				}
				next, _, _, err := DecodeRowKey(keys[j], []attr.Type{attr.TypeS}, []attr.Type{c.typ})
				if err != nil {
					t.Fatal(err)
				}
				if compareTuples(t, next, pk) == 0 {
					t.Fatalf("partition %d: resuming after maximal sort key lands in the same partition", i)
				}
				// And it is the partition that follows in key order.
				prev := keys[j-1]
				if !bytes.Equal(prev, resume) {
					t.Fatalf("partition %d: the row before the resume point is %x, want the maximal row %x", i, prev, resume)
				}
			}
			// The same through an index row: resuming after (pk, max, base
			// key) still stays within range and past every smaller row.
			pk := pks[0]
			ik, err := AppendIndexRowKey(nil, 9, 1, pk, []attr.Value{c.max}, []attr.Value{attr.B(maxB)}, []attr.Value{attr.N(maxN)})
			if err != nil {
				t.Fatal(err)
			}
			part, _ := PartitionPrefix(9, 1, pk)
			if s := Successor(ik); bytes.Compare(s, PrefixEnd(part)) >= 0 {
				t.Fatalf("Successor of maximal index row is past the partition end")
			}
		})
	}
}

// No row key of an index, base or secondary, starts with the index's
// VectorGraphPrefix, whatever its hash: the value encodings after the
// hash never start with 0x00 0x00.
func TestVectorGraphPrefixApart(t *testing.T) {
	gp := VectorGraphPrefix(7, 3)
	if !bytes.HasPrefix(gp, IndexPrefix(7, 3)) || len(gp) != headerLen+2 {
		t.Fatalf("prefix %x", gp)
	}
	vals := []attr.Value{
		{Type: attr.TypeS, S: "\x00"}, {Type: attr.TypeS, S: "\x00\x00"}, {Type: attr.TypeS, S: "a"},
		{Type: attr.TypeB, B: []byte{0}}, {Type: attr.TypeB, B: []byte{0, 0, 0}}, {Type: attr.TypeB, B: []byte{0xff}},
		{Type: attr.TypeN, S: "0"}, {Type: attr.TypeN, S: "-1"}, {Type: attr.TypeN, S: "1E-130"},
	}
	for _, pk := range vals {
		for _, sk := range append([]attr.Value{{}}, vals...) {
			var sks []attr.Value
			if sk.Type != 0 {
				sks = []attr.Value{sk}
			}
			for _, k := range [][]byte{
				must(AppendRowKey(nil, 7, 3, []attr.Value{pk}, sks)),
				must(AppendIndexRowKey(nil, 7, 3, []attr.Value{pk}, nil, []attr.Value{pk}, sks)),
			} {
				// Force the hash to the prefix's.
				copy(k[headerLen-8:headerLen], gp[headerLen-8:headerLen])
				if bytes.HasPrefix(k, gp) {
					t.Errorf("row key %x starts with the graph prefix", k)
				}
			}
		}
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
