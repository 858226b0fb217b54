package attr

// MaxItemSize is the largest item DynamoDB stores, in bytes as ItemSize
// counts them.
const MaxItemSize = 400 * 1024

// Item sizes follow "DynamoDB item sizes and formats",
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html
//
//   - an attribute is the UTF-8 length of its name plus the size of its value;
//   - S: UTF-8 bytes; B: raw bytes (not base64);
//   - N: one byte per two significant digits, rounded up, plus one byte
//     (leading and trailing zeros are not significant; zero has one digit);
//   - BOOL and NULL: 1 byte;
//   - M and L: 3 bytes of overhead, plus for each element 1 byte and the
//     element's size (for an M element, its name's length plus its value's);
//   - SS, NS and BS: the sum of their members' sizes, each sized as above.
//
// The number rule matches what dynalite's tests pinned against DynamoDB:
// 38 significant digits take 20 bytes, 1E+125 takes 2.

// ItemSize returns the size of it as DynamoDB counts it against MaxItemSize
// and for capacity units.
func ItemSize(it Item) int {
	n := 0
	for name, v := range it {
		n += len(name) + valueSize(v)
	}
	return n
}

// AttributeSize returns the size of one attribute: its name and its value.
func AttributeSize(name string, v Value) int {
	return len(name) + valueSize(v)
}

// ValueSize returns the size of v alone, without an attribute name.
func ValueSize(v Value) int { return valueSize(v) }

// valueSize takes v by value: with a pointer, escape analysis moves every
// map entry it is called on to the heap.
func valueSize(v Value) int {
	switch v.Type {
	case TypeS:
		return len(v.S)
	case TypeN:
		return numberSize(v.S)
	case TypeB:
		return len(v.B)
	case TypeBOOL, TypeNULL:
		return 1
	case TypeM:
		n := 3
		for k, e := range v.M {
			n += 1 + len(k) + valueSize(e)
		}
		return n
	case TypeL:
		n := 3
		for i := range v.L {
			n += 1 + valueSize(v.L[i])
		}
		return n
	case TypeSS:
		n := 0
		for _, s := range v.SS {
			n += len(s)
		}
		return n
	case TypeNS:
		n := 0
		for _, s := range v.SS {
			n += numberSize(s)
		}
		return n
	case TypeBS:
		n := 0
		for _, b := range v.BS {
			n += len(b)
		}
		return n
	}
	return 0
}
