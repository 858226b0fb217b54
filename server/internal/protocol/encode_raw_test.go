package protocol

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
)

func rawTestValue(r *rand.Rand, depth int) attr.Value {
	strs := []string{"", "a", "plain text", "é𝄞", "q\"b\\s/", "\n\t\r\b\f\x01\x1f", "\u2028\u2029", "<&>", "\xff\xfe bad", "\x7f"}
	k := r.IntN(11)
	if depth > 4 && (k == 6 || k == 7) {
		k = 0
	}
	pick := func() string { return strs[r.IntN(len(strs))] }
	switch k {
	case 0:
		return attr.S(pick())
	case 1:
		return attr.N([]string{"0", "-1.5", "1E+30", "123456789012345678901234567890"}[r.IntN(4)])
	case 2:
		return attr.B([]byte(pick()))
	case 3:
		return attr.Bool(r.IntN(2) == 0)
	case 4:
		return attr.Null()
	case 5:
		return attr.Value{Type: attr.TypeSS, SS: []string{pick(), pick(), pick()}}
	case 6:
		m := map[string]attr.Value{}
		for range r.IntN(5) {
			m[pick()+fmt.Sprint(r.IntN(3))] = rawTestValue(r, depth+1)
		}
		return attr.Value{Type: attr.TypeM, M: m}
	case 7:
		l := make([]attr.Value, r.IntN(5))
		for i := range l {
			l[i] = rawTestValue(r, depth+1)
		}
		return attr.Value{Type: attr.TypeL, L: l}
	case 8:
		return attr.Value{Type: attr.TypeNS, SS: []string{"3", "-1", "20.5"}[:r.IntN(3)+1]}
	case 9:
		return attr.Value{Type: attr.TypeBS, BS: [][]byte{[]byte(pick()), {0, 1, 2}, {0xff}}}
	}
	return attr.Value{Type: attr.TypeL}
}

// TestEncodedItemsMatchItems checks that a page whose items are given in
// attr's encoding is written byte for byte as the same page with the items
// decoded, on random items of every type with names and strings that need
// escaping.
func TestEncodedItemsMatchItems(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 29))
	for round := 0; round < 300; round++ {
		var items []attr.Item
		var encoded [][]byte
		for range r.IntN(6) {
			it := attr.Item{}
			for range r.IntN(8) {
				it[fmt.Sprint([]string{"", "k", "é", "\"", "\n", "\xff"}[r.IntN(6)], r.IntN(10))] = rawTestValue(r, 1)
			}
			b := attr.AppendItem(nil, it)
			decoded, err := attr.DecodeItem(b)
			if err != nil {
				t.Fatal(err)
			}
			items = append(items, decoded)
			encoded = append(encoded, b)
		}
		if items == nil {
			items, encoded = []attr.Item{}, [][]byte{}
		}
		last := attr.Item{"pk": attr.S("k")}
		want := EncodeScan(nil, &dynamo.ScanOutput{Items: items, Count: len(items), ScannedCount: 9, LastEvaluatedKey: last})
		got := EncodeScan(nil, &dynamo.ScanOutput{EncodedItems: encoded, Count: len(items), ScannedCount: 9, LastEvaluatedKey: last})
		if !bytes.Equal(got, want) {
			t.Fatalf("encoded items written as\n%s\nwant\n%s", got, want)
		}
	}
}

// TestEncodedGetItemMatchesItem checks that GetItem's item given in attr's
// encoding is written byte for byte as the same item decoded, on random
// items of every type with names and strings that need escaping.
func TestEncodedGetItemMatchesItem(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 31))
	cc := &dynamo.ConsumedCapacity{TableName: "t", CapacityUnits: new(0.5)}
	for round := 0; round < 300; round++ {
		it := attr.Item{}
		for range r.IntN(8) {
			it[fmt.Sprint([]string{"", "k", "é", "\"", "\n", "\xff"}[r.IntN(6)], r.IntN(10))] = rawTestValue(r, 1)
		}
		b := attr.AppendItem(nil, it)
		decoded, err := attr.DecodeItem(b)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []*dynamo.ConsumedCapacity{nil, cc} {
			want := EncodeGetItem(nil, &dynamo.GetItemOutput{Item: decoded, ConsumedCapacity: c})
			got := EncodeGetItem(nil, &dynamo.GetItemOutput{EncodedItem: b, ConsumedCapacity: c})
			if !bytes.Equal(got, want) {
				t.Fatalf("encoded item written as\n%s\nwant\n%s", got, want)
			}
		}
	}
}

// TestPlainRun checks plainRun, eight bytes at a time, against strPlain
// byte by byte: every byte value at every place of runs of up to 40
// plain bytes, and random bytes.
func TestPlainRun(t *testing.T) {
	want := func(b []byte) int {
		n := 0
		for n < len(b) && strPlain[b[n]] {
			n++
		}
		return n
	}
	check := func(b []byte) {
		t.Helper()
		if got, w := plainRun(b), want(b); got != w {
			t.Fatalf("plainRun(%q) = %d, want %d", b, got, w)
		}
		if got, w := plainRun(string(b)), want(b); got != w {
			t.Fatalf("plainRun(string %q) = %d, want %d", b, got, w)
		}
	}
	for n := 0; n <= 40; n++ {
		b := bytes.Repeat([]byte{'a'}, n)
		check(b)
		for at := 0; at < n; at++ {
			for c := 0; c < 256; c++ {
				b[at] = byte(c)
				check(b)
			}
			b[at] = 'a'
		}
	}
	r := rand.New(rand.NewPCG(29, 8))
	for range 20000 {
		b := make([]byte, r.IntN(64))
		for i := range b {
			b[i] = byte(0x20 + r.IntN(0x60))
			if r.IntN(40) == 0 {
				b[i] = byte(r.IntN(256))
			}
		}
		check(b)
	}
}

func BenchmarkAppendStringBytes(b *testing.B) {
	s := bytes.Repeat([]byte("abcdefghijklmnopqrstuvwxyz0123456789"), 28)
	dst := make([]byte, 0, 2048)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		dst = appendStringBytes(dst[:0], s)
	}
}
