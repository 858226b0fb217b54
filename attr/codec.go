package attr

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
)

// Binary item format.
//
// DO NOT CHANGE: this format is written to disk. Any change needs a new
// format byte, and decoders must keep reading every older one.
//
// Format 1:
//
//	item   = 0x01 map                       (AppendItem / DecodeItem)
//	single = 0x01 value                     (AppendValue / DecodeValue)
//	map    = count { str value }            names in strictly increasing byte order
//	value  = type body                      type is the Type constant, one byte
//	  S, N, B  : str                        N is the number's text (canonical once validated)
//	  BOOL     : 0x00 | 0x01
//	  NULL     : (nothing)
//	  M        : map
//	  L        : count { value }
//	  SS,NS,BS : count { str }              members in strictly increasing byte order
//	str    = count bytes                    length, then the raw bytes
//	count  = unsigned LEB128 varint         (encoding/binary Uvarint), minimal length
//
// The encoding is canonical: map names and set members are sorted (set
// members deduplicated), so equal items, as Equal sees them once their
// numbers are canonical, encode to equal bytes; and DecodeItem accepts only
// canonical input, so re-encoding what it returns gives back the input
// exactly. Numbers are kept as their canonical text rather than a packed
// decimal (not measured against one): they are short, need no conversion on
// the way to JSON, and the encoding stays simple to check.
//
// Decoding copies the input once into a string that all decoded strings
// (names, S, N, SS, NS) share, and once more, from the first non-empty
// binary on, into a buffer the B and BS slices share (each capped at its
// own length, so appending to one reallocates rather than overwriting its
// neighbour). Holding on to any decoded string or binary keeps that copy
// alive. Most remaining allocations are one per map entry: Value is larger
// than the 128 bytes Go maps store inline.

// formatV1 is the leading byte of format 1.
const formatV1 = 0x01

// maxDecodeDepth bounds nesting on decode. It is looser than MaxDepth so
// that an item stored before a stricter validation still reads back; it
// exists to stop corrupt input from recursing without end.
const maxDecodeDepth = 2 * MaxDepth

// ErrCorrupt is wrapped by every error DecodeItem and DecodeValue return.
var ErrCorrupt = errors.New("attr: corrupt encoding")

// AppendItem appends the binary encoding of it to dst and returns the
// extended buffer. Items should be canonicalized first; a TypeInvalid value
// is written as a bare zero type byte, which DecodeItem rejects.
func AppendItem(dst []byte, it Item) []byte {
	dst = append(dst, formatV1)
	return appendMap(dst, it)
}

// AppendValue appends the binary encoding of a single value (format byte
// included) to dst.
func AppendValue(dst []byte, v Value) []byte {
	dst = append(dst, formatV1)
	return appendValue(dst, &v)
}

func appendString(dst []byte, s string) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(s)))
	return append(dst, s...)
}

func appendMap(dst []byte, m map[string]Value) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(m)))
	if len(m) == 0 {
		return dst
	}
	var stack [32]string
	keys := stack[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		v := m[k]
		dst = appendString(dst, k)
		dst = appendValue(dst, &v)
	}
	return dst
}

func appendValue(dst []byte, v *Value) []byte {
	switch v.Type {
	case TypeS:
		return appendString(append(dst, byte(TypeS)), v.S)
	case TypeN:
		return appendString(append(dst, byte(TypeN)), v.S)
	case TypeB:
		dst = append(dst, byte(TypeB))
		dst = binary.AppendUvarint(dst, uint64(len(v.B)))
		return append(dst, v.B...)
	case TypeBOOL:
		if v.Bool {
			return append(dst, byte(TypeBOOL), 1)
		}
		return append(dst, byte(TypeBOOL), 0)
	case TypeNULL:
		return append(dst, byte(TypeNULL))
	case TypeM:
		return appendMap(append(dst, byte(TypeM)), v.M)
	case TypeL:
		dst = append(dst, byte(TypeL))
		dst = binary.AppendUvarint(dst, uint64(len(v.L)))
		for i := range v.L {
			dst = appendValue(dst, &v.L[i])
		}
		return dst
	case TypeSS:
		return appendStringSet(append(dst, byte(TypeSS)), v.SS)
	case TypeNS:
		return appendStringSet(append(dst, byte(TypeNS)), v.SS)
	case TypeBS:
		return appendBinarySet(append(dst, byte(TypeBS)), v.BS)
	}
	return append(dst, byte(TypeInvalid))
}

func appendStringSet(dst []byte, ss []string) []byte {
	if !isStrictlySorted(ss) {
		var stack [32]string
		ss = append(stack[:0], ss...)
		slices.Sort(ss)
		ss = slices.Compact(ss)
	}
	dst = binary.AppendUvarint(dst, uint64(len(ss)))
	for _, s := range ss {
		dst = appendString(dst, s)
	}
	return dst
}

func isStrictlySorted(ss []string) bool {
	for i := 1; i < len(ss); i++ {
		if ss[i-1] >= ss[i] {
			return false
		}
	}
	return true
}

func appendBinarySet(dst []byte, bs [][]byte) []byte {
	sorted := true
	for i := 1; i < len(bs); i++ {
		if bytes.Compare(bs[i-1], bs[i]) >= 0 {
			sorted = false
			break
		}
	}
	if !sorted {
		var stack [32][]byte
		bs = append(stack[:0], bs...)
		slices.SortFunc(bs, bytes.Compare)
		bs = slices.CompactFunc(bs, bytes.Equal)
	}
	dst = binary.AppendUvarint(dst, uint64(len(bs)))
	for _, b := range bs {
		dst = binary.AppendUvarint(dst, uint64(len(b)))
		dst = append(dst, b...)
	}
	return dst
}

// DecodeItem decodes an item written by AppendItem. It never panics: input
// that is not exactly one canonical encoded item gives an error wrapping
// ErrCorrupt. The returned item does not alias b.
func DecodeItem(b []byte) (Item, error) {
	d, err := newDecoder(b, false)
	if err != nil {
		return nil, err
	}
	m, err := d.mapBody(0)
	if err != nil {
		return nil, err
	}
	if err := d.finish(); err != nil {
		return nil, err
	}
	return Item(m), nil
}

// DecodeValue decodes a single value written by AppendValue, with the same
// guarantees as DecodeItem.
func DecodeValue(b []byte) (Value, error) {
	d, err := newDecoder(b, false)
	if err != nil {
		return Value{}, err
	}
	var v Value
	if err := d.value(&v, 0); err != nil {
		return Value{}, err
	}
	if err := d.finish(); err != nil {
		return Value{}, err
	}
	return v, nil
}

type decoder struct {
	b      []byte // the input
	s      string // a copy of the input, shared by the decoded strings
	bin    []byte // a copy of the input from binOff on, shared by decoded binaries; made lazily
	binOff int
	off    int
	// each copies every string and binary on its own instead of sharing
	// s and bin (DecodeAttributes, which builds few of them).
	each bool
}

// newDecoder returns a decoder of b whose strings share one copy of b, or,
// with each, are copied one by one.
func newDecoder(b []byte, each bool) (decoder, error) {
	if len(b) == 0 {
		return decoder{}, corrupt("empty input", 0)
	}
	if b[0] != formatV1 {
		return decoder{}, fmt.Errorf("%w: unknown format byte 0x%02x", ErrCorrupt, b[0])
	}
	if each {
		return decoder{b: b, off: 1, each: true}, nil
	}
	return decoder{b: b, s: string(b), off: 1}, nil
}

func corrupt(what string, off int) error {
	return fmt.Errorf("%w: %s at offset %d", ErrCorrupt, what, off)
}

func (d *decoder) finish() error {
	if d.off != len(d.b) {
		return corrupt("trailing bytes", d.off)
	}
	return nil
}

func (d *decoder) remaining() int { return len(d.b) - d.off }

// uvarint reads a minimally encoded varint.
func (d *decoder) uvarint() (uint64, error) {
	x, n := binary.Uvarint(d.b[d.off:])
	if n <= 0 {
		return 0, corrupt("bad varint", d.off)
	}
	if n > 1 && d.b[d.off+n-1] == 0 {
		return 0, corrupt("non-minimal varint", d.off)
	}
	d.off += n
	return x, nil
}

// count reads a count of things that each take at least size bytes.
func (d *decoder) count(size int) (int, error) {
	at := d.off
	x, err := d.uvarint()
	if err != nil {
		return 0, err
	}
	if x > uint64(d.remaining()/size) {
		return 0, corrupt("count exceeds input", at)
	}
	return int(x), nil
}

// span reads a length-prefixed run and returns its bounds.
func (d *decoder) span() (int, int, error) {
	at := d.off
	x, err := d.uvarint()
	if err != nil {
		return 0, 0, err
	}
	if x > uint64(d.remaining()) {
		return 0, 0, corrupt("length exceeds input", at)
	}
	i := d.off
	d.off += int(x)
	return i, d.off, nil
}

func (d *decoder) str() (string, error) {
	i, j, err := d.span()
	if err != nil {
		return "", err
	}
	if d.each {
		return string(d.b[i:j]), nil
	}
	return d.s[i:j], nil
}

func (d *decoder) binary() ([]byte, error) {
	i, j, err := d.span()
	if err != nil {
		return nil, err
	}
	if i == j {
		return []byte{}, nil
	}
	if d.each {
		c := bytes.Clone(d.b[i:j])
		return c[:len(c):len(c)], nil
	}
	if d.bin == nil {
		d.bin, d.binOff = bytes.Clone(d.b[i:]), i
	}
	i, j = i-d.binOff, j-d.binOff
	return d.bin[i:j:j], nil
}

func (d *decoder) mapBody(depth int) (map[string]Value, error) {
	n, err := d.count(2) // a name length and a type byte at least
	if err != nil {
		return nil, err
	}
	m := make(map[string]Value, n)
	prev := ""
	for k := 0; k < n; k++ {
		at := d.off
		name, err := d.str()
		if err != nil {
			return nil, err
		}
		if k > 0 && name <= prev {
			return nil, corrupt("map names out of order", at)
		}
		prev = name
		var v Value
		if err := d.value(&v, depth+1); err != nil {
			return nil, err
		}
		m[name] = v
	}
	return m, nil
}

func (d *decoder) value(v *Value, depth int) error {
	if depth > maxDecodeDepth {
		return corrupt("nesting too deep", d.off)
	}
	if d.remaining() == 0 {
		return corrupt("missing value", d.off)
	}
	at := d.off
	t := Type(d.b[d.off])
	d.off++
	v.Type = t
	var err error
	switch t {
	case TypeS, TypeN:
		v.S, err = d.str()
	case TypeB:
		v.B, err = d.binary()
	case TypeBOOL:
		if d.remaining() == 0 || d.b[d.off] > 1 {
			return corrupt("bad BOOL", d.off)
		}
		v.Bool = d.b[d.off] == 1
		d.off++
	case TypeNULL:
		v.Bool = true
	case TypeM:
		v.M, err = d.mapBody(depth)
	case TypeL:
		var n int
		if n, err = d.count(1); err != nil {
			return err
		}
		v.L = make([]Value, n)
		for i := range v.L {
			if err = d.value(&v.L[i], depth+1); err != nil {
				return err
			}
		}
	case TypeSS, TypeNS:
		v.SS, err = d.stringSet() // NS keeps its members' text in SS too
	case TypeBS:
		v.BS, err = d.binarySet()
	default:
		return corrupt(fmt.Sprintf("unknown type 0x%02x", byte(t)), at)
	}
	return err
}

func (d *decoder) stringSet() ([]string, error) {
	n, err := d.count(1)
	if err != nil {
		return nil, err
	}
	ss := make([]string, n)
	for i := range ss {
		at := d.off
		if ss[i], err = d.str(); err != nil {
			return nil, err
		}
		if i > 0 && ss[i] <= ss[i-1] {
			return nil, corrupt("set members out of order", at)
		}
	}
	return ss, nil
}

func (d *decoder) binarySet() ([][]byte, error) {
	n, err := d.count(1)
	if err != nil {
		return nil, err
	}
	bs := make([][]byte, n)
	for i := range bs {
		at := d.off
		if bs[i], err = d.binary(); err != nil {
			return nil, err
		}
		if i > 0 && bytes.Compare(bs[i-1], bs[i]) >= 0 {
			return nil, corrupt("set members out of order", at)
		}
	}
	return bs, nil
}

// AppendKey appends the encoding AppendItem gives the item that holds only
// a primary key: hashName = hash and, unless rangeName is "", rangeName =
// rng. It builds no map, for write paths that encode many keys.
func AppendKey(dst []byte, hashName string, hash Value, rangeName string, rng Value) []byte {
	dst = append(dst, formatV1)
	if rangeName == "" {
		dst = binary.AppendUvarint(dst, 1)
		return appendValue(appendString(dst, hashName), &hash)
	}
	dst = binary.AppendUvarint(dst, 2)
	if rangeName < hashName { // AppendItem sorts attributes by name
		hashName, hash, rangeName, rng = rangeName, rng, hashName, hash
	}
	dst = appendValue(appendString(dst, hashName), &hash)
	return appendValue(appendString(dst, rangeName), &rng)
}
