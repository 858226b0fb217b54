// Package attr holds DynamoDB attribute values: the ten types, their
// validation, DynamoDB's item-size rules, value ordering, and the compact
// binary format items are stored in.
//
// attr knows nothing of JSON, HTTP, tables or storage. The protocol layer
// turns wire JSON into Values; the engine validates them with
// CanonicalizeItem (and ValidateKeyValue for key attributes), stores Items
// encoded with AppendItem and reads them back with DecodeItem.
//
// Validation failures are *Error values whose Message is DynamoDB's own
// ValidationException text.
//
// # Invariants
//
// A Value that passed Canonicalize holds exactly one type. Numbers (N and
// the members of NS) are held as canonical decimal text: the text DynamoDB
// returns for them (see NormalizeNumber), so two equal numbers have equal
// text.
package attr

// Type is the type of an attribute value.
//
// Do not reorder or delete these constants: their values are written to
// disk in the binary item format.
type Type uint8

const (
	TypeInvalid Type = 0
	TypeS       Type = 1
	TypeN       Type = 2
	TypeB       Type = 3
	TypeBOOL    Type = 4
	TypeNULL    Type = 5
	TypeM       Type = 6
	TypeL       Type = 7
	TypeSS      Type = 8
	TypeNS      Type = 9
	TypeBS      Type = 10
)

// String returns the type's DynamoDB descriptor ("S", "N", "SS"...).
func (t Type) String() string {
	switch t {
	case TypeS:
		return "S"
	case TypeN:
		return "N"
	case TypeB:
		return "B"
	case TypeBOOL:
		return "BOOL"
	case TypeNULL:
		return "NULL"
	case TypeM:
		return "M"
	case TypeL:
		return "L"
	case TypeSS:
		return "SS"
	case TypeNS:
		return "NS"
	case TypeBS:
		return "BS"
	}
	return "INVALID"
}

// ParseType returns the Type for a DynamoDB descriptor, or TypeInvalid.
func ParseType(s string) Type {
	switch s {
	case "S":
		return TypeS
	case "N":
		return TypeN
	case "B":
		return TypeB
	case "BOOL":
		return TypeBOOL
	case "NULL":
		return TypeNULL
	case "M":
		return TypeM
	case "L":
		return TypeL
	case "SS":
		return TypeSS
	case "NS":
		return TypeNS
	case "BS":
		return TypeBS
	}
	return TypeInvalid
}

// Value is one DynamoDB attribute value. Only the field matching Type is
// meaningful:
//
//	S     S
//	N     S (decimal text; canonical once Canonicalize ran)
//	B     B
//	BOOL  Bool
//	NULL  Bool (always true in a valid value)
//	M     M
//	L     L
//	SS    SS
//	NS    SS (decimal text, canonical once validated)
//	BS    BS
//
// Numbers share the S and SS fields with strings so that a Value stays at
// 128 bytes: Go stores map values of up to 128 bytes inline, and items are
// maps, so a larger Value would cost one allocation per attribute on every
// decode.
type Value struct {
	Type Type
	Bool bool
	S    string
	B    []byte
	M    map[string]Value
	L    []Value
	SS   []string
	BS   [][]byte
}

// Item is a set of named attribute values: a DynamoDB item, or a key.
type Item map[string]Value

// Constructors for the common cases.

// S returns a string value.
func S(s string) Value { return Value{Type: TypeS, S: s} }

// N returns a number value from decimal text. The text is not validated.
func N(n string) Value { return Value{Type: TypeN, S: n} }

// B returns a binary value.
func B(b []byte) Value { return Value{Type: TypeB, B: b} }

// Bool returns a BOOL value.
func Bool(b bool) Value { return Value{Type: TypeBOOL, Bool: b} }

// Null returns the NULL value.
func Null() Value { return Value{Type: TypeNULL, Bool: true} }
