// Package keyjson turns DynamoDB keys (S, N and B values, as the SDK holds
// them) into values encoding/json can store and back: the start keys kept
// in retrofit checkpoints and planner cursors.
package keyjson

import (
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Value is one key attribute value; exactly one field is set. B is
// base64 in JSON, as encoding/json writes byte slices.
type Value struct {
	S *string `json:"S,omitempty"`
	N *string `json:"N,omitempty"`
	B []byte  `json:"B,omitempty"`
}

// Key is a key in JSON form.
type Key map[string]Value

// From converts a key; nil stays nil. A value other than S, N or B, which
// no DynamoDB key holds, is an error.
func From(k map[string]types.AttributeValue) (Key, error) {
	if k == nil {
		return nil, nil
	}
	out := make(Key, len(k))
	for name, v := range k {
		switch x := v.(type) {
		case *types.AttributeValueMemberS:
			out[name] = Value{S: &x.Value}
		case *types.AttributeValueMemberN:
			out[name] = Value{N: &x.Value}
		case *types.AttributeValueMemberB:
			out[name] = Value{B: append([]byte{}, x.Value...)}
		default:
			return nil, fmt.Errorf("key attribute %s has type %T", name, v)
		}
	}
	return out, nil
}

// To converts back; nil stays nil.
func (k Key) To() map[string]types.AttributeValue {
	if k == nil {
		return nil
	}
	out := make(map[string]types.AttributeValue, len(k))
	for name, v := range k {
		switch {
		case v.S != nil:
			out[name] = &types.AttributeValueMemberS{Value: *v.S}
		case v.N != nil:
			out[name] = &types.AttributeValueMemberN{Value: *v.N}
		default:
			out[name] = &types.AttributeValueMemberB{Value: v.B}
		}
	}
	return out
}
