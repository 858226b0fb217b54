package cli

import (
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/attr"
)

// itemFromSDK turns an item of the SDK's types into attr's.
func itemFromSDK(it map[string]types.AttributeValue) (attr.Item, error) {
	out := make(attr.Item, len(it))
	for k, v := range it {
		a, err := valueFromSDK(v)
		if err != nil {
			return nil, fmt.Errorf("attribute %q: %w", k, err)
		}
		out[k] = a
	}
	return out, nil
}

func valueFromSDK(v types.AttributeValue) (attr.Value, error) {
	switch x := v.(type) {
	case *types.AttributeValueMemberS:
		return attr.S(x.Value), nil
	case *types.AttributeValueMemberN:
		return attr.N(x.Value), nil
	case *types.AttributeValueMemberB:
		return attr.B(x.Value), nil
	case *types.AttributeValueMemberBOOL:
		return attr.Bool(x.Value), nil
	case *types.AttributeValueMemberNULL:
		return attr.Null(), nil
	case *types.AttributeValueMemberM:
		m, err := itemFromSDK(x.Value)
		if err != nil {
			return attr.Value{}, err
		}
		return attr.Value{Type: attr.TypeM, M: m}, nil
	case *types.AttributeValueMemberL:
		l := make([]attr.Value, len(x.Value))
		for i, e := range x.Value {
			a, err := valueFromSDK(e)
			if err != nil {
				return attr.Value{}, err
			}
			l[i] = a
		}
		return attr.Value{Type: attr.TypeL, L: l}, nil
	case *types.AttributeValueMemberSS:
		return attr.Value{Type: attr.TypeSS, SS: x.Value}, nil
	case *types.AttributeValueMemberNS:
		return attr.Value{Type: attr.TypeNS, SS: x.Value}, nil
	case *types.AttributeValueMemberBS:
		return attr.Value{Type: attr.TypeBS, BS: x.Value}, nil
	}
	return attr.Value{}, fmt.Errorf("unknown attribute value %T", v)
}

// itemToSDK turns an attr item into the SDK's types.
func itemToSDK(it attr.Item) map[string]types.AttributeValue {
	out := make(map[string]types.AttributeValue, len(it))
	for k, v := range it {
		out[k] = valueToSDK(v)
	}
	return out
}

func valueToSDK(v attr.Value) types.AttributeValue {
	switch v.Type {
	case attr.TypeS:
		return &types.AttributeValueMemberS{Value: v.S}
	case attr.TypeN:
		return &types.AttributeValueMemberN{Value: v.S}
	case attr.TypeB:
		return &types.AttributeValueMemberB{Value: v.B}
	case attr.TypeBOOL:
		return &types.AttributeValueMemberBOOL{Value: v.Bool}
	case attr.TypeNULL:
		return &types.AttributeValueMemberNULL{Value: true}
	case attr.TypeM:
		return &types.AttributeValueMemberM{Value: itemToSDK(v.M)}
	case attr.TypeL:
		l := make([]types.AttributeValue, len(v.L))
		for i, e := range v.L {
			l[i] = valueToSDK(e)
		}
		return &types.AttributeValueMemberL{Value: l}
	case attr.TypeSS:
		return &types.AttributeValueMemberSS{Value: v.SS}
	case attr.TypeNS:
		return &types.AttributeValueMemberNS{Value: v.SS}
	case attr.TypeBS:
		return &types.AttributeValueMemberBS{Value: v.BS}
	}
	return &types.AttributeValueMemberNULL{Value: true}
}
