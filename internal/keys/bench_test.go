package keys

import (
	"testing"

	"github.com/dynago/dynago/attr"
)

func BenchmarkAppendRowKeyS(b *testing.B) {
	pk := []attr.Value{attr.S("customer#00012345")}
	sk := []attr.Value{attr.S("order#2026-01-15T10:20:30Z")}
	buf := make([]byte, 0, 128)
	b.ReportAllocs()
	for b.Loop() {
		var err error
		if buf, err = AppendRowKey(buf[:0], 42, 0, pk, sk); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(len(buf)))
}

func BenchmarkAppendRowKeyN(b *testing.B) {
	pk := []attr.Value{attr.N("1234567890")}
	sk := []attr.Value{attr.N("-1736936430.125")}
	buf := make([]byte, 0, 128)
	b.ReportAllocs()
	for b.Loop() {
		var err error
		if buf, err = AppendRowKey(buf[:0], 42, 0, pk, sk); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(len(buf)))
}

func BenchmarkAppendIndexRowKey(b *testing.B) {
	pk := []attr.Value{attr.S("tenant-7"), attr.N("3")}
	sk := []attr.Value{attr.N("1736936430"), attr.S("open")}
	basePK := []attr.Value{attr.S("customer#00012345")}
	baseSK := []attr.Value{attr.S("order#2026-01-15T10:20:30Z")}
	buf := make([]byte, 0, 128)
	b.ReportAllocs()
	for b.Loop() {
		var err error
		if buf, err = AppendIndexRowKey(buf[:0], 42, 3, pk, sk, basePK, baseSK); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(len(buf)))
}

func benchDecode(b *testing.B, pk, sk []attr.Value) {
	key, err := AppendRowKey(nil, 42, 0, pk, sk)
	if err != nil {
		b.Fatal(err)
	}
	pkT, skT := typesOf(pk), typesOf(sk)
	b.ReportAllocs()
	b.SetBytes(int64(len(key)))
	for b.Loop() {
		if _, _, _, err := DecodeRowKey(key, pkT, skT); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeRowKeyS(b *testing.B) {
	benchDecode(b, []attr.Value{attr.S("customer#00012345")}, []attr.Value{attr.S("order#2026-01-15T10:20:30Z")})
}

func BenchmarkDecodeRowKeyN(b *testing.B) {
	benchDecode(b, []attr.Value{attr.N("1234567890")}, []attr.Value{attr.N("-1736936430.125")})
}

func BenchmarkSortKeyRangeBetween(b *testing.B) {
	part, err := PartitionPrefix(42, 0, []attr.Value{attr.S("customer#00012345")})
	if err != nil {
		b.Fatal(err)
	}
	lo, hi := attr.S("order#2026-01"), attr.S("order#2026-02")
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := SortKeyRange(part, nil, OpBetween, lo, hi); err != nil {
			b.Fatal(err)
		}
	}
}
