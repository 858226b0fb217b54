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
	d, err := newDecoder(b)
	if err != nil {
		return err
	}
	d.s = "" // strings are copied one by one (str)
	d.each = true
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
