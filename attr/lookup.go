package attr

import "encoding/binary"

// TopLevelNumber looks up a top-level attribute in an item encoded by
// AppendItem without decoding the item: it walks the map's entries, which
// are sorted by name, skipping values, and stops at the name or past where
// it would be.
// It returns the number's text, or "" when the attribute is absent or not
// a Number; ok is false when the encoding is not what it expects, and the
// caller should then decode the item properly.
func TopLevelNumber(b []byte, name string) (v string, ok bool) {
	if len(b) == 0 || b[0] != formatV1 {
		return "", false
	}
	p := skipper{b: b, off: 1}
	n, ok := p.uvarint()
	if !ok {
		return "", false
	}
	for ; n > 0; n-- {
		k, ok := p.span()
		if !ok {
			return "", false
		}
		switch c := compareBytesString(k, name); {
		case c > 0:
			return "", true // names are sorted: name is absent
		case c == 0:
			if p.off >= len(p.b) {
				return "", false
			}
			if Type(p.b[p.off]) != TypeN {
				return "", true
			}
			p.off++
			text, ok := p.span()
			if !ok {
				return "", false
			}
			return string(text), true
		}
		if !p.skipValue(0) {
			return "", false
		}
	}
	return "", true
}

func compareBytesString(b []byte, s string) int {
	n := min(len(b), len(s))
	for i := 0; i < n; i++ {
		if b[i] != s[i] {
			if b[i] < s[i] {
				return -1
			}
			return 1
		}
	}
	switch {
	case len(b) < len(s):
		return -1
	case len(b) > len(s):
		return 1
	}
	return 0
}

// skipper walks attr's binary item format without building values.
type skipper struct {
	b   []byte
	off int
}

func (p *skipper) uvarint() (uint64, bool) {
	x, n := binary.Uvarint(p.b[p.off:])
	if n <= 0 {
		return 0, false
	}
	p.off += n
	return x, true
}

// span reads a length-prefixed run.
func (p *skipper) span() ([]byte, bool) {
	l, ok := p.uvarint()
	if !ok || l > uint64(len(p.b)-p.off) {
		return nil, false
	}
	s := p.b[p.off : p.off+int(l)]
	p.off += int(l)
	return s, true
}

// skipValue skips one typed value.
func (p *skipper) skipValue(depth int) bool {
	if depth > 2*MaxDepth || p.off >= len(p.b) {
		return false
	}
	t := Type(p.b[p.off])
	p.off++
	switch t {
	case TypeS, TypeN, TypeB:
		_, ok := p.span()
		return ok
	case TypeBOOL:
		p.off++
		return p.off <= len(p.b)
	case TypeNULL:
		return true
	case TypeM:
		n, ok := p.uvarint()
		if !ok || n > uint64(len(p.b)-p.off) {
			return false
		}
		for ; n > 0; n-- {
			if _, ok := p.span(); !ok || !p.skipValue(depth+1) {
				return false
			}
		}
		return true
	case TypeL:
		n, ok := p.uvarint()
		if !ok || n > uint64(len(p.b)-p.off) {
			return false
		}
		for ; n > 0; n-- {
			if !p.skipValue(depth + 1) {
				return false
			}
		}
		return true
	case TypeSS, TypeNS, TypeBS:
		n, ok := p.uvarint()
		if !ok || n > uint64(len(p.b)-p.off) {
			return false
		}
		for ; n > 0; n-- {
			if _, ok := p.span(); !ok {
				return false
			}
		}
		return true
	}
	return false
}
