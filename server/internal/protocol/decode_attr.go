package protocol

import (
	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
)

// This file decodes AttributeValues, the hot path of every item operation.
// It uses explicit loops rather than the closure-based helpers.

// maxAttrDepth caps how deeply the decoder follows nested M and L values.
// DynamoDB allows 32 levels and the engine enforces that limit with its
// exact counting; this cap is only a guard against absurd input exhausting
// the stack. A value nested deeper is skipped iteratively (its syntax still
// checked) and reported with DynamoDB's nesting message.
const maxAttrDepth = 100

// attrType maps an AttributeValue member name to its type; any other name
// is ignored, as DynamoDB ignores it.
func attrType(key []byte) attr.Type {
	switch string(key) {
	case "S":
		return attr.TypeS
	case "N":
		return attr.TypeN
	case "B":
		return attr.TypeB
	case "BOOL":
		return attr.TypeBOOL
	case "NULL":
		return attr.TypeNULL
	case "M":
		return attr.TypeM
	case "L":
		return attr.TypeL
	case "SS":
		return attr.TypeSS
	case "NS":
		return attr.TypeNS
	case "BS":
		return attr.TypeBS
	}
	return attr.TypeInvalid
}

// attrValue decodes one AttributeValue. At atField, null means absent and
// attrValue reports false; at atElement, null is an empty AttributeValue,
// which is a ValidationException.
func (d *decoder) attrValue(v *attr.Value, at position) (bool, *dynamo.Error) {
	if !d.qlParams {
		return d.attrValueIn(v, at)
	}
	level := d.avDepth + 1 // a parameter is at level 1
	ok, err := d.attrValueIn(v, at)
	switch {
	case err != nil:
	case ok:
		d.qlBad = d.qlCheck(v, level)
	default: // null: an element's is a marker, a field's is absent
		d.qlBad = v.Type == attr.TypeInvalid && v.S != ""
	}
	return ok, err
}

// qlCheck reports, under qlParams, whether binding v, decoded at level,
// fails, as the engine's check of a parameter does: a value nested past
// attr.MaxDepth, a map or list with a failing member (d.qlBad, set by
// attrMap and attrList, which run last when v is one), or another value
// or a marker that engine.QLParamLeafFails refuses.
func (d *decoder) qlCheck(v *attr.Value, level int) bool {
	switch {
	case level > attr.MaxDepth:
		return true
	case v.Type == attr.TypeM || v.Type == attr.TypeL:
		return d.qlBad
	}
	return dynamo.QLParamLeafFails(*v)
}

// attrValueIn is attrValue without the parameters' check.
func (d *decoder) attrValueIn(v *attr.Value, at position) (bool, *dynamo.Error) {
	ok, err := d.openStruct("AttributeValue", at)
	if err != nil {
		return false, err
	}
	if !ok {
		if at == atElement {
			d.malformed(v, msgAttrEmpty)
		}
		return false, nil
	}
	if d.avDepth >= maxAttrDepth {
		if err := d.skipValue(); err != nil {
			return false, err
		}
		d.malformed(v, msgAttrNesting)
		return true, nil
	}
	d.avDepth++
	err = d.attrMembers(v)
	d.avDepth--
	return true, err
}

// malformed records that v is malformed for the reason msg: the request's
// first such problem is deferred (deferAttr), and v itself becomes the
// marker attr.Malformed(msg), which the engine's validation of the values
// reports where it meets it. An operation that validates its places in
// DynamoDB's order, rather than reporting the decoder's first finding
// up front, thus reports each malformed value at its own place.
func (d *decoder) malformed(v *attr.Value, msg string) {
	d.deferAttr(msg)
	*v = attr.Malformed(msg)
}

// attrMembers reads the members of an AttributeValue whose '{' is at d.pos.
func (d *decoder) attrMembers(v *attr.Value) *dynamo.Error {
	d.pos++
	multi := false
	var n *string // the text of the N member, if set
	c := d.peek()
	if c == '}' {
		d.pos++
		d.malformed(v, msgAttrEmpty)
		return nil
	}
	for {
		if c != '"' {
			return errSyntax()
		}
		key, err := d.readString()
		if err != nil {
			return err
		}
		t := attrType(key)
		if d.peek() != ':' {
			return errSyntax()
		}
		d.pos++
		if t == attr.TypeInvalid {
			err = d.skipValue()
		} else {
			var set bool
			set, err = d.attrMember(v, t)
			if set {
				if t == attr.TypeN {
					text := v.S
					n = &text
				}
				if v.Type == attr.TypeInvalid {
					v.Type = t
				} else if v.Type != t {
					multi = true
				}
			}
		}
		if err != nil {
			return err
		}
		switch d.peek() {
		case ',':
			d.pos++
			c = d.peek()
		case '}':
			d.pos++
			switch {
			case v.Type == attr.TypeInvalid:
				d.malformed(v, msgAttrEmpty)
			case multi && n != nil && attr.NumberProblem(*n) != "":
				// The N member is checked before the count of types
				// (dynalite's test/query.js, newer version, against
				// DynamoDB: "empty/invalid numbers in QueryFilter",
				// "... in ExclusiveStartKey", "... in KeyConditions",
				// {"S":"a","N":"b"} among them).
				d.malformed(v, attr.NumberProblem(*n))
			case multi:
				d.malformed(v, msgAttrMulti)
			}
			return nil
		default:
			return errSyntax()
		}
	}
}

// attrMember reads the value of the type member t into v and reports
// whether it was set (JSON null is not).
func (d *decoder) attrMember(v *attr.Value, t attr.Type) (bool, *dynamo.Error) {
	switch t {
	case attr.TypeS, attr.TypeN:
		kind, text, err := d.token()
		if err != nil {
			return false, err
		}
		switch kind {
		case tkString:
			v.S = string(text) // N keeps its decimal text in S too
			return true, nil
		case tkNull:
			return false, nil
		}
		return false, convError(kind, "String")
	case attr.TypeB:
		var b []byte
		if err := d.blob(&b); err != nil || b == nil {
			return false, err
		}
		v.B = b
		return true, nil
	case attr.TypeBOOL, attr.TypeNULL:
		return d.boolean(&v.Bool)
	case attr.TypeM:
		ok, err := d.openMap(javaAttributeValue, atField)
		if !ok || err != nil {
			return false, err
		}
		m := make(map[string]attr.Value)
		v.M = m
		return true, d.attrMap(m, false)
	case attr.TypeL:
		ok, err := d.openList(atField)
		if !ok || err != nil {
			return false, err
		}
		l, err := d.attrList()
		v.L = l
		return true, err
	case attr.TypeSS, attr.TypeNS:
		var list []string
		if err := decodeList(d, &list, atField, strElem); err != nil || list == nil {
			return false, err
		}
		v.SS = list // NS keeps its members' text in SS too
		return true, nil
	case attr.TypeBS:
		var list [][]byte
		if err := decodeList(d, &list, atField, blobElem); err != nil || list == nil {
			return false, err
		}
		v.BS = list
		return true, nil
	}
	return false, nil
}

// attrMap reads the members of a map of AttributeValues (an item, a key,
// ExpressionAttributeValues or an M value) whose '{' is at d.pos. With
// keyed (ExpressionAttributeValues), a problem in a value is reported
// with the key of the value it is in. Under qlParams (an M value in a
// PartiQL parameter) it keeps, of the members whose binding fails, only
// the first in document order, which is the one DynamoDB reports
// (paritysuite/dynamodb-conformance,
// tests/tier3/error-messages/partiqlParameterNumbers.test.ts: "a deep
// member of a map before an unconvertible one", and the reverse): the
// parameter fails either way, and the engine, which can walk a Go map only
// in key order, then reports that member's problem. A map that names a
// member twice keeps all its members and reports no failing member to
// its container, which then keeps its own (a later value replaces an
// earlier one, so which failing member comes first is unclear).
func (d *decoder) attrMap(m map[string]attr.Value, keyed bool) *dynamo.Error {
	ql := d.qlParams && !keyed
	var bad []string // under ql, the failing members in document order
	members := 0
	if ql {
		defer func() {
			d.qlBad = len(bad) > 0 && members == len(m)
			if d.qlBad {
				for _, name := range bad[1:] {
					delete(m, name)
				}
			}
		}()
	}
	d.pos++
	c := d.peek()
	if c == '}' {
		d.pos++
		return nil
	}
	for {
		if c != '"' {
			return errSyntax()
		}
		key, err := d.readString()
		if err != nil {
			return err
		}
		name := string(key)
		if d.peek() != ':' {
			return errSyntax()
		}
		d.pos++
		var v attr.Value
		if keyed {
			d.valueKey = name
		}
		_, err = d.attrValue(&v, atElement)
		if keyed {
			d.valueKey = ""
		}
		if err != nil {
			return err
		}
		m[name] = v
		if ql {
			members++
			if d.qlBad || len(name) > attr.MaxAttributeNameSize {
				bad = append(bad, name)
			}
		}
		switch d.peek() {
		case ',':
			d.pos++
			c = d.peek()
		case '}':
			d.pos++
			return nil
		default:
			return errSyntax()
		}
	}
}

// attrList reads the elements of an L value whose '[' is at d.pos.
func (d *decoder) attrList() ([]attr.Value, *dynamo.Error) {
	d.pos++
	list := []attr.Value{}
	bad := false // under qlParams, whether an element's binding fails
	if d.qlParams {
		defer func() { d.qlBad = bad }()
	}
	if d.peek() == ']' {
		d.pos++
		return list, nil
	}
	for {
		var v attr.Value
		if _, err := d.attrValue(&v, atElement); err != nil {
			return list, err
		}
		bad = bad || d.qlParams && d.qlBad
		list = append(list, v)
		switch d.peek() {
		case ',':
			d.pos++
		case ']':
			d.pos++
			return list, nil
		default:
			return list, errSyntax()
		}
	}
}

// item reads a map of AttributeValues. A present map is never nil.
func (d *decoder) item(dst *attr.Item, at position) *dynamo.Error {
	ok, err := d.openMap(javaAttributeValue, at)
	if !ok || err != nil {
		return err
	}
	m := make(attr.Item)
	*dst = m
	return d.attrMap(m, false)
}

func itemElem(d *decoder, it *attr.Item) *dynamo.Error { return d.item(it, atElement) }

// exprValues reads ExpressionAttributeValues: a map of AttributeValues
// whose problems are reported with the key of the value they are in. A
// present map is never nil.
func (d *decoder) exprValues(dst *attr.Item) *dynamo.Error {
	ok, err := d.openMap(javaAttributeValue, atField)
	if !ok || err != nil {
		return err
	}
	m := make(attr.Item)
	*dst = m
	return d.attrMap(m, true)
}

// attrField reads an AttributeValue member of a structure (Expected's
// Value, AttributeUpdates' Value).
func (d *decoder) attrField(dst **attr.Value) *dynamo.Error {
	v := new(attr.Value)
	ok, err := d.attrValue(v, atField)
	if ok {
		*dst = v
	}
	return err
}

func attrElem(d *decoder, v *attr.Value) *dynamo.Error {
	_, err := d.attrValue(v, atElement)
	return err
}

// handOver passes err, the result of decoding a request, to the engine
// in *dst when it is a problem with an attribute value the decoder
// deferred, and returns nil: the operation reports it after its member
// constraints and the mix of legacy and expression parameters, as DynamoDB
// does (engine/validation_order.go). Any other err is returned as it is.
func (d *decoder) handOver(err error, dst *error) error {
	if err == nil || d.deferred == nil || err != error(d.deferred) {
		return err
	}
	*dst = err
	return nil
}

// placed decodes one place of a request with fn (a batch request's item
// or key, a transaction action's key or item, or its
// ExpressionAttributeValues) and keeps the first malformed attribute
// value found there in *dst rather than in the request's deferred error:
// the engine reports it when its checks reach that place, after the
// member constraints and after any problem it finds in an earlier place
// (placedValue in engine/validation_order.go). A malformed body is still
// a SerializationException, as the engine sees no input then.
func (d *decoder) placed(dst *error, fn func() *dynamo.Error) *dynamo.Error {
	outer := d.deferred
	d.deferred = nil
	err := fn()
	if d.deferred != nil && *dst == nil {
		*dst = d.deferred
	}
	d.deferred = outer
	return err
}
