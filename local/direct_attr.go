package local

import (
	"reflect"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
)

// maxAttrDepth is the protocol decoder's depth guard on nested M and L
// values (server/internal/protocol, decode_attr.go): a value nested that deep is
// answered by the decoder, so the direct path hands such a request to the
// SDK's path instead of converting it.
const maxAttrDepth = 100

// toItem converts an item, key or ExpressionAttributeValues map of the
// SDK's to the engine's, keeping nil apart from empty as the SDK's
// serializer does. ok is false when a value is one the direct path
// leaves to the SDK (see toValue).
func toItem(m map[string]types.AttributeValue) (attr.Item, bool) {
	if m == nil {
		return nil, true
	}
	out := make(attr.Item, len(m))
	for k, av := range m {
		v, ok := toValue(av, 0)
		if !ok || !utf8.ValidString(k) {
			return nil, false
		}
		out[k] = v
	}
	return out, true
}

// toValue converts one AttributeValue at the given nesting depth. It
// reports false for a value the SDK serializes in a way of its own that
// the decoder then answers (nil, a nil blob, set, list or map, an
// unknown union member) and for one nested past the decoder's guard:
// those requests take the SDK's path, which answers them exactly.
func toValue(av types.AttributeValue, depth int) (attr.Value, bool) {
	if depth >= maxAttrDepth {
		return attr.Value{}, false
	}
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return attr.Value{Type: attr.TypeS, S: v.Value}, utf8.ValidString(v.Value)
	case *types.AttributeValueMemberN:
		return attr.Value{Type: attr.TypeN, S: v.Value}, utf8.ValidString(v.Value)
	case *types.AttributeValueMemberB:
		if v.Value == nil {
			return attr.Value{}, false
		}
		return attr.Value{Type: attr.TypeB, B: v.Value}, true
	case *types.AttributeValueMemberBOOL:
		return attr.Value{Type: attr.TypeBOOL, Bool: v.Value}, true
	case *types.AttributeValueMemberNULL:
		return attr.Value{Type: attr.TypeNULL, Bool: v.Value}, true
	case *types.AttributeValueMemberSS:
		if v.Value == nil || !validList(v.Value) {
			return attr.Value{}, false
		}
		return attr.Value{Type: attr.TypeSS, SS: append([]string{}, v.Value...)}, true
	case *types.AttributeValueMemberNS:
		if v.Value == nil || !validList(v.Value) {
			return attr.Value{}, false
		}
		return attr.Value{Type: attr.TypeNS, SS: append([]string{}, v.Value...)}, true
	case *types.AttributeValueMemberBS:
		if v.Value == nil {
			return attr.Value{}, false
		}
		bs := make([][]byte, len(v.Value))
		for i, b := range v.Value {
			if b == nil {
				return attr.Value{}, false
			}
			bs[i] = b
		}
		return attr.Value{Type: attr.TypeBS, BS: bs}, true
	case *types.AttributeValueMemberL:
		if v.Value == nil {
			return attr.Value{}, false
		}
		l := make([]attr.Value, len(v.Value))
		for i, e := range v.Value {
			var ok bool
			if l[i], ok = toValue(e, depth+1); !ok {
				return attr.Value{}, false
			}
		}
		return attr.Value{Type: attr.TypeL, L: l}, true
	case *types.AttributeValueMemberM:
		if v.Value == nil {
			return attr.Value{}, false
		}
		m := make(map[string]attr.Value, len(v.Value))
		for k, e := range v.Value {
			x, ok := toValue(e, depth+1)
			if !ok || !utf8.ValidString(k) {
				return attr.Value{}, false
			}
			m[k] = x
		}
		return attr.Value{Type: attr.TypeM, M: m}, true
	}
	return attr.Value{}, false
}

// The SDK's JSON writes a string that is not valid UTF-8 with each bad
// byte replaced by U+FFFD, so the server never sees such a string; the
// direct path hands a request holding one to the SDK's path instead
// (toValue, validStrings).

// bodyLimit bounds the JSON the direct path takes a request for: one
// whose JSON could be larger (by jsonBound) goes through the SDK's path,
// where the server's limit on request bodies (DynamoDB's 16 MB,
// server.DefaultMaxBodyBytes) answers it as it answers over the network.
// A database whose server has a smaller limit gets three quarters of it
// (DB.Direct).
// Plain members are capped so that they add little to the bound: a
// string over maxPlain bytes, or a list or map of names over maxPlainList
// entries, takes the SDK's path too.
const (
	bodyLimit    = 12 << 20
	maxPlain     = 64 << 10
	maxPlainList = 1 << 10
)

// jsonBound is at most what the SDK's JSON for the attribute values of
// m can take: 6 bytes a string byte (\u00XX), 4/3 a blob byte, and 40 a
// value for its braces, type and key quoting.
func jsonBound(m map[string]types.AttributeValue) int {
	n := 0
	for k, av := range m {
		n += 6*len(k) + valueBound(av)
	}
	return n
}

func valueBound(av types.AttributeValue) int {
	n := 40
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		n += 6 * len(v.Value)
	case *types.AttributeValueMemberN:
		n += 6 * len(v.Value)
	case *types.AttributeValueMemberB:
		n += len(v.Value)*4/3 + 4
	case *types.AttributeValueMemberSS:
		for _, s := range v.Value {
			n += 6*len(s) + 3
		}
	case *types.AttributeValueMemberNS:
		for _, s := range v.Value {
			n += 6*len(s) + 3
		}
	case *types.AttributeValueMemberBS:
		for _, b := range v.Value {
			n += len(b)*4/3 + 7
		}
	case *types.AttributeValueMemberL:
		for _, e := range v.Value {
			n += valueBound(e)
		}
	case *types.AttributeValueMemberM:
		n += jsonBound(v.Value)
	}
	return n
}

// validList reports whether every string of list is valid UTF-8 (and the
// list within the caps above).
func validList(list []string) bool {
	if len(list) > maxPlainList {
		return false
	}
	for _, s := range list {
		if len(s) > maxPlain {
			return false
		}
		if !utf8.ValidString(s) {
			return false
		}
	}
	return true
}

// validStrings reports whether the optional strings ps are valid UTF-8.
func validStrings(ps ...*string) bool {
	for _, p := range ps {
		if p != nil && (len(*p) > maxPlain || !utf8.ValidString(*p)) {
			return false
		}
	}
	return true
}

// validText reports whether the strings ss (enum members, mostly) are
// valid UTF-8.
func validText(ss ...string) bool {
	for _, s := range ss {
		if len(s) > maxPlain || !utf8.ValidString(s) {
			return false
		}
	}
	return true
}

// validNames reports whether an ExpressionAttributeNames map's keys and
// values are valid UTF-8.
func validNames(m map[string]string) bool {
	if len(m) > maxPlainList {
		return false
	}
	for k, v := range m {
		if len(k) > maxPlain || len(v) > maxPlain {
			return false
		}
		if !utf8.ValidString(k) || !utf8.ValidString(v) {
			return false
		}
	}
	return true
}

// fromItem converts an item of the engine's to the SDK's: nil stays nil
// (a member the server leaves out), anything else is a map, as the SDK
// decodes "{}".
func fromItem(it attr.Item) map[string]types.AttributeValue {
	if it == nil {
		return nil
	}
	out := make(map[string]types.AttributeValue, len(it))
	for k := range it {
		v := it[k]
		out[k] = fromValue(&v)
	}
	return out
}

func fromItems(items []attr.Item) []map[string]types.AttributeValue {
	if items == nil {
		return nil
	}
	out := make([]map[string]types.AttributeValue, len(items))
	for i, it := range items {
		out[i] = fromItem(it)
		if out[i] == nil {
			out[i] = map[string]types.AttributeValue{}
		}
	}
	return out
}

// fromValue converts one value as the SDK decodes the server's encoding
// of it (server/internal/protocol's appendValue): sets and lists are never nil.
func fromValue(v *attr.Value) types.AttributeValue {
	switch v.Type {
	case attr.TypeS:
		return &types.AttributeValueMemberS{Value: v.S}
	case attr.TypeN:
		return &types.AttributeValueMemberN{Value: v.S}
	case attr.TypeB:
		b := v.B
		if b == nil {
			b = []byte{}
		}
		return &types.AttributeValueMemberB{Value: b}
	case attr.TypeBOOL:
		return &types.AttributeValueMemberBOOL{Value: v.Bool}
	case attr.TypeNULL:
		return &types.AttributeValueMemberNULL{Value: true}
	case attr.TypeM:
		m := fromItem(v.M)
		if m == nil {
			m = map[string]types.AttributeValue{}
		}
		return &types.AttributeValueMemberM{Value: m}
	case attr.TypeL:
		l := make([]types.AttributeValue, len(v.L))
		for i := range v.L {
			l[i] = fromValue(&v.L[i])
		}
		return &types.AttributeValueMemberL{Value: l}
	case attr.TypeSS:
		return &types.AttributeValueMemberSS{Value: append([]string{}, v.SS...)}
	case attr.TypeNS:
		return &types.AttributeValueMemberNS{Value: append([]string{}, v.SS...)}
	case attr.TypeBS:
		bs := make([][]byte, len(v.BS))
		for i, b := range v.BS {
			if b == nil {
				b = []byte{}
			}
			bs[i] = b
		}
		return &types.AttributeValueMemberBS{Value: bs}
	}
	// The server encodes a value of no type as {}, which the SDK cannot
	// decode into a member; no stored value has no type.
	return &types.AttributeValueMemberNULL{Value: true}
}

func fromConsumed(c *dynamo.ConsumedCapacity) *types.ConsumedCapacity {
	if c == nil {
		return nil
	}
	return &types.ConsumedCapacity{
		TableName:              optString(c.TableName),
		CapacityUnits:          c.CapacityUnits,
		ReadCapacityUnits:      c.ReadCapacityUnits,
		WriteCapacityUnits:     c.WriteCapacityUnits,
		Table:                  fromCapacity(c.Table),
		LocalSecondaryIndexes:  fromCapacities(c.LocalSecondaryIndexes),
		GlobalSecondaryIndexes: fromCapacities(c.GlobalSecondaryIndexes),
		VectorIndexes:          fromVectorCapacities(c.VectorIndexes),
	}
}

func fromVectorCapacities(m map[string]dynamo.VectorCapacity) map[string]types.VectorCapacity {
	if m == nil {
		return nil
	}
	out := make(map[string]types.VectorCapacity, len(m))
	for k, c := range m {
		out[k] = types.VectorCapacity{VectorSearchRequestBytes: c.VectorSearchRequestBytes, VectorWriteRequestBytes: c.VectorWriteRequestBytes}
	}
	return out
}

func fromConsumedList(list []dynamo.ConsumedCapacity) []types.ConsumedCapacity {
	if list == nil {
		return nil
	}
	out := make([]types.ConsumedCapacity, len(list))
	for i := range list {
		out[i] = *fromConsumed(&list[i])
	}
	return out
}

func fromCapacity(c *dynamo.Capacity) *types.Capacity {
	if c == nil {
		return nil
	}
	return &types.Capacity{CapacityUnits: c.CapacityUnits, ReadCapacityUnits: c.ReadCapacityUnits, WriteCapacityUnits: c.WriteCapacityUnits}
}

func fromCapacities(m map[string]dynamo.Capacity) map[string]types.Capacity {
	if m == nil {
		return nil
	}
	out := make(map[string]types.Capacity, len(m))
	for k, c := range m {
		out[k] = *fromCapacity(&c)
	}
	return out
}

func fromMetrics(m *dynamo.ItemCollectionMetrics) *types.ItemCollectionMetrics {
	if m == nil {
		return nil
	}
	return &types.ItemCollectionMetrics{
		ItemCollectionKey:   fromItem(m.ItemCollectionKey),
		SizeEstimateRangeGB: m.SizeEstimateRangeGB,
	}
}

func fromMetricsMap(m map[string][]dynamo.ItemCollectionMetrics) map[string][]types.ItemCollectionMetrics {
	if m == nil {
		return nil
	}
	out := make(map[string][]types.ItemCollectionMetrics, len(m))
	for table, list := range m {
		l := make([]types.ItemCollectionMetrics, len(list))
		for i := range list {
			l[i] = *fromMetrics(&list[i])
		}
		out[table] = l
	}
	return out
}

// validInput reports whether every string in the SDK input v (a pointer
// to an input struct) is valid UTF-8, attribute values aside (toValue
// checks those), and whether its JSON is certainly within limit. It
// walks v by reflection, which is fine for all but the single-item
// operations, whose members are checked by name.
func validInput(v any, limit int) bool {
	n := 0
	return validReflect(reflect.ValueOf(v), &n) && n <= limit
}

var attributeValueType = reflect.TypeFor[types.AttributeValue]()

func validReflect(v reflect.Value, n *int) bool {
	switch v.Kind() {
	case reflect.String:
		*n += 6*v.Len() + 8
		return utf8.ValidString(v.String())
	case reflect.Pointer:
		return v.IsNil() || validReflect(v.Elem(), n)
	case reflect.Interface:
		if av, ok := v.Interface().(types.AttributeValue); ok {
			*n += valueBound(av)
		}
	case reflect.Struct:
		*n += 2
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() && !validReflect(v.Field(i), n) {
				return false
			}
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			*n += v.Len()*4/3 + 4 // a blob
			return true
		}
		for i := range v.Len() {
			if !validReflect(v.Index(i), n) {
				return false
			}
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			if !validReflect(it.Key(), n) {
				return false
			}
			if v.Type().Elem() == attributeValueType {
				if it.Value().IsNil() {
					continue
				}
				*n += valueBound(it.Value().Interface().(types.AttributeValue))
			} else if !validReflect(it.Value(), n) {
				return false
			}
		}
	default:
		*n += 24 // a number or a boolean
	}
	return true // attribute values are checked by toValue
}
