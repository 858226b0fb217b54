package attr

import (
	"bytes"
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
// It is meant for items CheckItem accepted. On any other input it never
// panics, but reads zeros and empty runs.
type Raw struct {
	b   []byte
	off int
}

// RawItem returns a reader of the encoded item b.
func RawItem(b []byte) Raw {
	if len(b) == 0 || b[0] != formatV1 {
		return Raw{}
	}
	return Raw{b: b, off: 1}
}

// Count reads the count of a map's entries or of a list's or set's
// members.
func (r *Raw) Count() int {
	p := skipper{b: r.b, off: r.off}
	n, ok := p.uvarint()
	if !ok || n > uint64(len(r.b)) {
		r.off = len(r.b)
		return 0
	}
	r.off = p.off
	return int(n)
}

// Bytes reads a length-prefixed run: a name, a string's, number's or
// binary's body, or a set's member. It aliases the input.
func (r *Raw) Bytes() []byte {
	p := skipper{b: r.b, off: r.off}
	s, ok := p.span()
	if !ok {
		r.off = len(r.b)
		return nil
	}
	r.off = p.off
	return s
}

// Type reads a value's type.
func (r *Raw) Type() Type {
	if r.off >= len(r.b) {
		return TypeInvalid
	}
	r.off++
	return Type(r.b[r.off-1])
}

// Bool reads a BOOL's body.
func (r *Raw) Bool() bool {
	if r.off >= len(r.b) {
		return false
	}
	r.off++
	return r.b[r.off-1] == 1
}
