package attr

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// DecodeAttributes decodes, from an item encoded by AppendItem, only the
// top-level attributes named in names (sorted, without duplicates) into
// dst, which it clears first; the others are checked but not built. It
// accepts and refuses exactly the input DecodeItem does, and what it puts
// in dst is what DecodeItem would have given for those names. The values
// do not alias b, and each holds a copy of its own bytes only, so a reader
// that needs a few attributes of many items (a Scan's filter) neither
// copies nor builds the rest, and can reuse dst from item to item.
func DecodeAttributes(dst Item, b []byte, names []string) error {
	clear(dst)
	d, err := newDecoder(b, true)
	if err != nil {
		return err
	}
	n, err := d.count(2)
	if err != nil {
		return err
	}
	var prev []byte
	for k := 0; k < n; k++ {
		at := d.off
		i, j, err := d.span()
		if err != nil {
			return err
		}
		name := d.b[i:j]
		if k > 0 && bytes.Compare(name, prev) <= 0 {
			return corrupt("map names out of order", at)
		}
		prev = name
		for len(names) > 0 && compareBytesString(name, names[0]) > 0 {
			names = names[1:]
		}
		if len(names) > 0 && compareBytesString(name, names[0]) == 0 {
			var v Value
			if err := d.value(&v, 1); err != nil {
				return err
			}
			dst[names[0]] = v
			continue
		}
		if err := d.skip(1); err != nil {
			return err
		}
	}
	return d.finish()
}

// skip checks one value as value does, building nothing.
func (d *decoder) skip(depth int) error {
	if depth > maxDecodeDepth {
		return corrupt("nesting too deep", d.off)
	}
	if d.remaining() == 0 {
		return corrupt("missing value", d.off)
	}
	at := d.off
	t := Type(d.b[d.off])
	d.off++
	switch t {
	case TypeS, TypeN, TypeB:
		_, _, err := d.span()
		return err
	case TypeBOOL:
		if d.remaining() == 0 || d.b[d.off] > 1 {
			return corrupt("bad BOOL", d.off)
		}
		d.off++
	case TypeNULL:
	case TypeM:
		n, err := d.count(2)
		if err != nil {
			return err
		}
		var prev []byte
		for k := 0; k < n; k++ {
			at := d.off
			i, j, err := d.span()
			if err != nil {
				return err
			}
			if k > 0 && bytes.Compare(d.b[i:j], prev) <= 0 {
				return corrupt("map names out of order", at)
			}
			prev = d.b[i:j]
			if err := d.skip(depth + 1); err != nil {
				return err
			}
		}
	case TypeL:
		n, err := d.count(1)
		if err != nil {
			return err
		}
		for k := 0; k < n; k++ {
			if err := d.skip(depth + 1); err != nil {
				return err
			}
		}
	case TypeSS, TypeNS, TypeBS:
		n, err := d.count(1)
		if err != nil {
			return err
		}
		var prev []byte
		for k := 0; k < n; k++ {
			at := d.off
			i, j, err := d.span()
			if err != nil {
				return err
			}
			if k > 0 && bytes.Compare(d.b[i:j], prev) <= 0 {
				return corrupt("set members out of order", at)
			}
			prev = d.b[i:j]
		}
	default:
		return corrupt(fmt.Sprintf("unknown type 0x%02x", byte(t)), at)
	}
	return nil
}

// CheckItem reports whether b is an item DecodeItem accepts, with the
// error DecodeItem would give, building nothing.
func CheckItem(b []byte) error { return DecodeAttributes(nil, b, nil) }

// Raw reads an encoded item (AppendItem's output) piece by piece, in the
// order of the format described in codec.go, so that a writer can turn
// the item into another format without building Values. Each method reads
// the next piece of the kind it names; the caller follows the format:
//
//	item  = Count() { Bytes() value }       names, in increasing order
//	value = Type(), then for
//	  S, N, B      Bytes()
//	  BOOL         Bool()
//	  NULL         nothing
//	  M            Count() { Bytes() value }
//	  L            Count() { value }
//	  SS, NS, BS   Count() { Bytes() }
//
// A reader that follows the format to the end of the item learns
// whether it was well formed, as CheckItem would find it, from Malformed,
// provided it also gives CheckDepth each value's depth and CheckOrder each
// map's names and set's members in turn: so an item need not be checked
// first and then read. On malformed input Raw never panics, but reads
// zeros and empty runs from where the input went wrong.
type Raw struct {
	b   []byte
	off int
	bad bool // a piece read so far was malformed
}

// RawItem returns a reader of the encoded item b.
func RawItem(b []byte) Raw {
	if len(b) == 0 || b[0] != formatV1 {
		return Raw{bad: true}
	}
	return Raw{b: b, off: 1}
}

// fail records that the input is malformed and stops reading it.
func (r *Raw) fail() {
	r.bad = true
	r.off = len(r.b)
}

// uvarint reads a minimally encoded varint, as the decoder does.
func (r *Raw) uvarint() (uint64, bool) {
	x, n := binary.Uvarint(r.b[r.off:])
	if n <= 0 || n > 1 && r.b[r.off+n-1] == 0 {
		r.fail()
		return 0, false
	}
	r.off += n
	return x, true
}

// Count reads the count of a map's entries or of a list's or set's
// members.
func (r *Raw) Count() int {
	n, ok := r.uvarint()
	if !ok || n > uint64(len(r.b)-r.off) {
		r.fail()
		return 0
	}
	return int(n)
}

// Bytes reads a length-prefixed run: a name, a string's, number's or
// binary's body, or a set's member. It aliases the input.
func (r *Raw) Bytes() []byte {
	l, ok := r.uvarint()
	if !ok || l > uint64(len(r.b)-r.off) {
		r.fail()
		return nil
	}
	s := r.b[r.off : r.off+int(l)]
	r.off += int(l)
	return s
}

// Type reads a value's type.
func (r *Raw) Type() Type {
	if r.off >= len(r.b) {
		r.fail()
		return TypeInvalid
	}
	t := Type(r.b[r.off])
	switch t {
	case TypeS, TypeN, TypeB, TypeBOOL, TypeNULL, TypeM, TypeL, TypeSS, TypeNS, TypeBS:
	default:
		r.fail()
		return TypeInvalid
	}
	r.off++
	return t
}

// Bool reads a BOOL's body.
func (r *Raw) Bool() bool {
	if r.off >= len(r.b) || r.b[r.off] > 1 {
		r.fail()
		return false
	}
	r.off++
	return r.b[r.off-1] == 1
}

// CheckDepth records a value at depth depth, the item's own attributes
// being at depth 1: past the decoder's limit the item is malformed.
func (r *Raw) CheckDepth(depth int) {
	if depth > maxDecodeDepth {
		r.fail()
	}
}

// CheckOrder records that next follows prev among a map's names or a
// set's members, which must increase.
func (r *Raw) CheckOrder(prev, next []byte) {
	if bytes.Compare(prev, next) >= 0 {
		r.fail()
	}
}

// Malformed reports, once the item has been read whole, whether it was
// not what CheckItem accepts: a piece was malformed, a check failed, or
// bytes are left over.
func (r *Raw) Malformed() bool { return r.bad || r.off != len(r.b) }
