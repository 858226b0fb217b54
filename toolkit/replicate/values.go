package replicate

import (
	"encoding/binary"
	"fmt"
	"slices"
	"sort"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	st "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
)

// appendCanonical appends an encoding of v that is equal for equal
// values: map members sorted by name, set members sorted (a set has no
// order). Numbers are compared as the text the server returned.
func appendCanonical(b []byte, v types.AttributeValue) []byte {
	str := func(b []byte, s string) []byte {
		b = binary.AppendUvarint(b, uint64(len(s)))
		return append(b, s...)
	}
	sorted := func(b []byte, tag byte, vs []string) []byte {
		vs = slices.Clone(vs)
		sort.Strings(vs)
		b = append(b, tag)
		b = binary.AppendUvarint(b, uint64(len(vs)))
		for _, s := range vs {
			b = str(b, s)
		}
		return b
	}
	switch x := v.(type) {
	case nil:
		return append(b, 0)
	case *types.AttributeValueMemberS:
		return str(append(b, 'S'), x.Value)
	case *types.AttributeValueMemberN:
		return str(append(b, 'N'), x.Value)
	case *types.AttributeValueMemberB:
		return str(append(b, 'B'), string(x.Value))
	case *types.AttributeValueMemberBOOL:
		if x.Value {
			return append(b, 'T')
		}
		return append(b, 'F')
	case *types.AttributeValueMemberNULL:
		return append(b, '0')
	case *types.AttributeValueMemberSS:
		return sorted(b, 's', x.Value)
	case *types.AttributeValueMemberNS:
		return sorted(b, 'n', x.Value)
	case *types.AttributeValueMemberBS:
		vs := make([]string, len(x.Value))
		for i, e := range x.Value {
			vs[i] = string(e)
		}
		return sorted(b, 'b', vs)
	case *types.AttributeValueMemberL:
		b = binary.AppendUvarint(append(b, 'L'), uint64(len(x.Value)))
		for _, e := range x.Value {
			b = appendCanonical(b, e)
		}
		return b
	case *types.AttributeValueMemberM:
		return appendCanonicalItem(append(b, 'M'), x.Value)
	default:
		return str(append(b, '?'), fmt.Sprintf("%T", v))
	}
}

// appendCanonicalItem encodes an item or map, members sorted by name.
func appendCanonicalItem(b []byte, item map[string]types.AttributeValue) []byte {
	names := make([]string, 0, len(item))
	for n := range item {
		names = append(names, n)
	}
	sort.Strings(names)
	b = binary.AppendUvarint(b, uint64(len(names)))
	for _, n := range names {
		b = binary.AppendUvarint(b, uint64(len(n)))
		b = append(b, n...)
		b = appendCanonical(b, item[n])
	}
	return b
}

// equalValues compares two attribute values as DynamoDB does (sets
// unordered).
func equalValues(a, b types.AttributeValue) bool {
	return string(appendCanonical(nil, a)) == string(appendCanonical(nil, b))
}

// fromStream converts an item of the Streams API's types into the
// DynamoDB API's types; nil stays nil.
func fromStream(item map[string]st.AttributeValue) map[string]types.AttributeValue {
	if item == nil {
		return nil
	}
	out := make(map[string]types.AttributeValue, len(item))
	for n, v := range item {
		out[n] = fromStreamValue(v)
	}
	return out
}

func fromStreamValue(v st.AttributeValue) types.AttributeValue {
	switch x := v.(type) {
	case *st.AttributeValueMemberS:
		return &types.AttributeValueMemberS{Value: x.Value}
	case *st.AttributeValueMemberN:
		return &types.AttributeValueMemberN{Value: x.Value}
	case *st.AttributeValueMemberB:
		return &types.AttributeValueMemberB{Value: x.Value}
	case *st.AttributeValueMemberBOOL:
		return &types.AttributeValueMemberBOOL{Value: x.Value}
	case *st.AttributeValueMemberNULL:
		return &types.AttributeValueMemberNULL{Value: x.Value}
	case *st.AttributeValueMemberSS:
		return &types.AttributeValueMemberSS{Value: x.Value}
	case *st.AttributeValueMemberNS:
		return &types.AttributeValueMemberNS{Value: x.Value}
	case *st.AttributeValueMemberBS:
		return &types.AttributeValueMemberBS{Value: x.Value}
	case *st.AttributeValueMemberL:
		l := make([]types.AttributeValue, len(x.Value))
		for i, e := range x.Value {
			l[i] = fromStreamValue(e)
		}
		return &types.AttributeValueMemberL{Value: l}
	case *st.AttributeValueMemberM:
		return &types.AttributeValueMemberM{Value: fromStream(x.Value)}
	default:
		return nil
	}
}
