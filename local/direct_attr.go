package local

import (
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/engine"
)

// maxAttrDepth is the protocol decoder's depth guard on nested M and L
// values (internal/protocol, decode_attr.go): a value nested that deep is
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
		if !ok {
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
		return attr.Value{Type: attr.TypeS, S: v.Value}, true
	case *types.AttributeValueMemberN:
		return attr.Value{Type: attr.TypeN, S: v.Value}, true
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
		if v.Value == nil {
			return attr.Value{}, false
		}
		return attr.Value{Type: attr.TypeSS, SS: append([]string{}, v.Value...)}, true
	case *types.AttributeValueMemberNS:
		if v.Value == nil {
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
			if !ok {
				return attr.Value{}, false
			}
			m[k] = x
		}
		return attr.Value{Type: attr.TypeM, M: m}, true
	}
	return attr.Value{}, false
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
// of it (internal/protocol's appendValue): sets and lists are never nil.
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

func fromConsumed(c *engine.ConsumedCapacity) *types.ConsumedCapacity {
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
	}
}

func fromConsumedList(list []engine.ConsumedCapacity) []types.ConsumedCapacity {
	if list == nil {
		return nil
	}
	out := make([]types.ConsumedCapacity, len(list))
	for i := range list {
		out[i] = *fromConsumed(&list[i])
	}
	return out
}

func fromCapacity(c *engine.Capacity) *types.Capacity {
	if c == nil {
		return nil
	}
	return &types.Capacity{CapacityUnits: c.CapacityUnits, ReadCapacityUnits: c.ReadCapacityUnits, WriteCapacityUnits: c.WriteCapacityUnits}
}

func fromCapacities(m map[string]engine.Capacity) map[string]types.Capacity {
	if m == nil {
		return nil
	}
	out := make(map[string]types.Capacity, len(m))
	for k, c := range m {
		out[k] = *fromCapacity(&c)
	}
	return out
}

func fromMetrics(m *engine.ItemCollectionMetrics) *types.ItemCollectionMetrics {
	if m == nil {
		return nil
	}
	return &types.ItemCollectionMetrics{
		ItemCollectionKey:   fromItem(m.ItemCollectionKey),
		SizeEstimateRangeGB: m.SizeEstimateRangeGB,
	}
}

func fromMetricsMap(m map[string][]engine.ItemCollectionMetrics) map[string][]types.ItemCollectionMetrics {
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
