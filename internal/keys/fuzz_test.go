package keys

import (
	"bytes"
	"testing"

	"github.com/dynago/dynago/attr"
)

// fuzzType maps a fuzzer byte to a type, including non-key types so that
// the error path is exercised too.
func fuzzType(b byte) attr.Type { return attr.Type(b % 12) }

// FuzzDecodeValue checks that DecodeValue never panics and that whatever
// it accepts is canonical: re-encoding the decoded value gives back exactly
// the bytes consumed.
func FuzzDecodeValue(f *testing.F) {
	for _, v := range []attr.Value{
		attr.S(""), attr.S("a\x00b"), attr.S(maxS), attr.B([]byte{0, 0xFF, 1}), attr.B(maxB),
		attr.N("0"), attr.N("-12.5"), attr.N("1E-130"), attr.N(maxN), attr.N("-" + maxN), attr.N("100"),
	} {
		enc, err := AppendValue(nil, v)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(enc, byte(v.Type))
	}
	f.Fuzz(func(t *testing.T, src []byte, typ byte) {
		v, rest, err := DecodeValue(src, fuzzType(typ))
		if err != nil {
			return
		}
		if len(rest) > len(src) || !bytes.Equal(rest, src[len(src)-len(rest):]) {
			t.Fatalf("rest %x is not a suffix of %x", rest, src)
		}
		enc, err := AppendValue(nil, v)
		if err != nil {
			t.Fatalf("decoded %s does not re-encode: %v", fmtValue(v), err)
		}
		if consumed := src[:len(src)-len(rest)]; !bytes.Equal(enc, consumed) {
			t.Fatalf("decoded %s from %x but it encodes as %x", fmtValue(v), consumed, enc)
		}
		if after, err := skipValue(src, v.Type); err != nil || !bytes.Equal(after, rest) {
			t.Fatalf("skipValue disagrees with DecodeValue: %x, %v", after, err)
		}
	})
}

// FuzzDecodeRowKey checks that DecodeRowKey and DecodeBaseKey never panic
// and that an accepted row key rebuilds to the same bytes.
func FuzzDecodeRowKey(f *testing.F) {
	add := func(pk, sk, basePK, baseSK []attr.Value) {
		var key []byte
		var err error
		if basePK == nil {
			key, err = AppendRowKey(nil, 1, 0, pk, sk)
		} else {
			key, err = AppendIndexRowKey(nil, 1, 5, pk, sk, basePK, baseSK)
		}
		if err != nil {
			f.Fatal(err)
		}
		f.Add(key, packTypes(typesOf(pk)), packTypes(typesOf(sk)), packTypes(typesOf(basePK)), packTypes(typesOf(baseSK)))
	}
	add([]attr.Value{attr.S("user")}, nil, nil, nil)
	add([]attr.Value{attr.S("user")}, []attr.Value{attr.N("-3.25")}, nil, nil)
	add([]attr.Value{attr.B([]byte{0, 1})}, []attr.Value{attr.S(maxS)}, nil, nil)
	add([]attr.Value{attr.N("42"), attr.S("x")}, []attr.Value{attr.N(maxN), attr.B(maxB), attr.S("")},
		[]attr.Value{attr.S("base")}, []attr.Value{attr.N("7")})
	f.Fuzz(func(t *testing.T, key []byte, pkT, skT, basePKT, baseSKT uint16) {
		pkTypes, skTypes := unpackTypes(pkT), unpackTypes(skT)
		pk, sk, rest, err := DecodeRowKey(key, pkTypes, skTypes)
		if err != nil {
			return
		}
		tableID, indexID, _, _, err := SplitRowKey(key)
		if err != nil {
			t.Fatalf("DecodeRowKey accepted what SplitRowKey rejects: %v", err)
		}
		rebuilt, err := AppendRowKey(nil, tableID, indexID, pk, sk)
		if err != nil {
			t.Fatalf("decoded key does not re-encode: %v", err)
		}
		if !bytes.Equal(append(rebuilt, rest...), key) {
			t.Fatalf("key %x rebuilds as %x + %x", key, rebuilt, rest)
		}
		bpk, bsk, err := DecodeBaseKey(rest, unpackTypes(basePKT), unpackTypes(baseSKT))
		if err != nil {
			return
		}
		enc, err := AppendTuple(nil, append(bpk, bsk...))
		if err != nil || !bytes.Equal(enc, rest) {
			t.Fatalf("base key %x rebuilds as %x, %v", rest, enc, err)
		}
	})
}

// packTypes packs up to 7 types, two bits each, above a 3-bit count; 0-2
// stand for S, N, B, and 3 for BOOL.
func packTypes(ts []attr.Type) uint16 {
	v := uint16(len(ts))
	for i, t := range ts {
		var c uint16
		switch t {
		case attr.TypeS:
			c = 0
		case attr.TypeN:
			c = 1
		case attr.TypeB:
			c = 2
		default:
			c = 3
		}
		v |= c << (3 + 2*i)
	}
	return v
}

func unpackTypes(v uint16) []attr.Type {
	n := int(v & 7)
	if n == 0 {
		return nil
	}
	ts := make([]attr.Type, n)
	for i := range ts {
		ts[i] = []attr.Type{attr.TypeS, attr.TypeN, attr.TypeB, attr.TypeBOOL}[(v>>(3+2*i))&3]
	}
	return ts
}
