package bench

import (
	"encoding/json"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// ItemCodec builds the benchmark's items and keys. An item has two
// attributes: the hash key "pk", a string "k" followed by a fixed-width
// decimal key number, and "data", a string of filler letters sized so that
// the item's DynamoDB size (attribute names plus values) is the configured
// item size. Every key of a run has the same width, so request bodies for
// different keys have the same length and can be pre-encoded once.
type ItemCodec struct {
	width  int    // digits in a key number
	filler string // value of the "data" attribute
}

// NewItemCodec returns a codec for items of itemSize bytes over keys
// distinct keys. Items cannot be smaller than their names and key; such
// sizes get an empty "data" value.
func NewItemCodec(itemSize, keys int) *ItemCodec {
	width := max(len(strconv.Itoa(max(keys-1, 0))), 8)
	n := max(itemSize-len("pk")-(1+width)-len("data"), 0)
	b := make([]byte, n)
	// Deterministic, varied lowercase letters: nothing to escape in JSON.
	x := uint32(2463534242)
	for i := range b {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b[i] = 'a' + byte(x%26)
	}
	return &ItemCodec{width: width, filler: string(b)}
}

// KeyLen is the length of every key string.
func (c *ItemCodec) KeyLen() int { return 1 + c.width }

// Size is the DynamoDB size of every item, in bytes.
func (c *ItemCodec) Size() int {
	return len("pk") + c.KeyLen() + len("data") + len(c.filler)
}

// Key returns the key string of key number i.
func (c *ItemCodec) Key(i int) string {
	b := make([]byte, c.KeyLen())
	c.putKey(b, i)
	return string(b)
}

// putKey writes the key string of key number i into b[:KeyLen()].
func (c *ItemCodec) putKey(b []byte, i int) {
	b[0] = 'k'
	for j := c.width; j >= 1; j-- {
		b[j] = byte('0' + i%10)
		i /= 10
	}
}

// JSONItem returns item i in DynamoDB JSON.
func (c *ItemCodec) JSONItem(i int) []byte {
	return []byte(`{"pk":{"S":"` + c.Key(i) + `"},"data":{"S":"` + c.filler + `"}}`)
}

// SDKItem returns item i as SDK attribute values. The "data" value is
// shared between calls; callers must not modify it.
func (c *ItemCodec) SDKItem(i int, data types.AttributeValue) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{
		"pk":   &types.AttributeValueMemberS{Value: c.Key(i)},
		"data": data,
	}
}

// SDKData returns the "data" attribute value shared by all items.
func (c *ItemCodec) SDKData() types.AttributeValue {
	return &types.AttributeValueMemberS{Value: c.filler}
}

// bodyTemplate is a request body with a key number to fill in at keyAt.
type bodyTemplate struct {
	body  []byte
	keyAt int
}

// putTemplate returns the PutItem request body for table, with a slot for
// the key.
func (c *ItemCodec) putTemplate(table string) bodyTemplate {
	return c.template(`{"TableName":`+quote(table)+`,"Item":{"pk":{"S":"`,
		`"},"data":{"S":"`+c.filler+`"}}}`)
}

// getTemplate returns the GetItem request body for table, with a slot for
// the key.
func (c *ItemCodec) getTemplate(table string) bodyTemplate {
	return c.template(`{"TableName":`+quote(table)+`,"Key":{"pk":{"S":"`, `"}}}`)
}

func (c *ItemCodec) template(prefix, suffix string) bodyTemplate {
	b := make([]byte, 0, len(prefix)+c.KeyLen()+len(suffix))
	b = append(b, prefix...)
	b = append(b, c.Key(0)...)
	b = append(b, suffix...)
	return bodyTemplate{body: b, keyAt: len(prefix)}
}

// quote returns s as a JSON string.
func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
