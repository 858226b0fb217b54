package attr

import "bytes"

// Encoded is an item in AppendItem's encoding read lazily: Get decodes
// the one top-level attribute asked for, walking the entries before it
// without building them, so that a reader that needs a few attributes of
// many items (a Scan's filter) builds no map and decodes nothing else.
// The zero value, or one Reset to nil, is an item that does not exist:
// it has no attributes.
type Encoded struct {
	b   []byte
	err error
}

// Reset makes e read the encoded item b (nil: no item), which it aliases
// until the next Reset, and forgets any error.
func (e *Encoded) Reset(b []byte) { e.b, e.err = b, nil }

// Get returns the top-level attribute name as DecodeItem would give it,
// holding a copy of its own bytes, and whether the item has it. It checks
// the encoding of what it walks (the entries up to name, and name's
// value) as DecodeItem does; on an error it returns false, and Err
// reports the first such error.
func (e *Encoded) Get(name string) (Value, bool) {
	if e.b == nil || e.err != nil {
		return Value{}, false
	}
	v, ok, err := topLevel(e.b, name)
	if err != nil {
		e.err = err
		return Value{}, false
	}
	return v, ok
}

// Err returns the first error Get met since the last Reset, the one
// DecodeItem would report for the part of the item Get walked.
func (e *Encoded) Err() error { return e.err }

// topLevel is Get on the encoded item b.
func topLevel(b []byte, name string) (Value, bool, error) {
	d, err := newDecoder(b, true)
	if err != nil {
		return Value{}, false, err
	}
	n, err := d.count(2)
	if err != nil {
		return Value{}, false, err
	}
	var prev []byte
	for k := 0; k < n; k++ {
		at := d.off
		i, j, err := d.span()
		if err != nil {
			return Value{}, false, err
		}
		key := d.b[i:j]
		if k > 0 && bytes.Compare(key, prev) <= 0 {
			return Value{}, false, corrupt("map names out of order", at)
		}
		prev = key
		switch c := compareBytesString(key, name); {
		case c == 0:
			var v Value
			if err := d.value(&v, 1); err != nil {
				return Value{}, false, err
			}
			return v, true, nil
		case c > 0:
			return Value{}, false, nil // names are sorted: name is absent
		}
		if err := d.skip(1); err != nil {
			return Value{}, false, err
		}
	}
	return Value{}, false, nil
}
