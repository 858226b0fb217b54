package bench

import (
	"encoding/json"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// keyFormat formats key numbers as a letter followed by a fixed number of
// decimal digits, so that every key of a run has the same length (request
// bodies for different keys can be pre-encoded once) and string order is
// numeric order.
type keyFormat struct {
	letter byte
	width  int // digits
}

// newKeyFormat returns a format wide enough for numbers below n, and for at
// least minWidth digits.
func newKeyFormat(letter byte, n, minWidth int) keyFormat {
	return keyFormat{letter: letter, width: max(len(strconv.Itoa(max(n-1, 0))), minWidth)}
}

// Len is the length of every key string.
func (f keyFormat) Len() int { return 1 + f.width }

// String returns the key string of number i.
func (f keyFormat) String(i int) string {
	b := make([]byte, f.Len())
	f.put(b, i)
	return string(b)
}

// put writes the key string of number i into b[:Len()].
func (f keyFormat) put(b []byte, i int) {
	b[0] = f.letter
	for j := f.width; j >= 1; j-- {
		b[j] = byte('0' + i%10)
		i /= 10
	}
}

// filler returns n deterministic, varied lowercase letters: nothing to
// escape in JSON, and no quote, brace or digit for a response scanner to
// trip on.
func filler(n int) string {
	b := make([]byte, max(n, 0))
	x := uint32(2463534242)
	for i := range b {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b[i] = 'a' + byte(x%26)
	}
	return string(b)
}

// ItemCodec builds the items and keys of the put/get table. An item has two
// attributes: the hash key "pk", a string "k" followed by a fixed-width
// decimal key number, and "data", a string of filler letters sized so that
// the item's DynamoDB size (attribute names plus values) is the configured
// item size.
type ItemCodec struct {
	key    keyFormat
	keys   int    // the size of the key space
	filler string // value of the "data" attribute
}

// NewItemCodec returns a codec for items of itemSize bytes over keys
// distinct keys. Items cannot be smaller than their names and key; such
// sizes get an empty "data" value.
func NewItemCodec(itemSize, keys int) *ItemCodec {
	key := newKeyFormat('k', keys, 8)
	return &ItemCodec{key: key, keys: max(keys, 1), filler: filler(itemSize - len("pk") - key.Len() - len("data"))}
}

// BatchSize is the number of PutRequests of a batchwrite call,
// BatchWriteItem's most.
const BatchSize = 25

// BatchKey returns the key number of the j-th item (from 0) of the batch
// whose first item is key number first: the batch's keys are spread evenly
// over the key space from first, so that, for at least BatchSize keys, they
// are distinct, as BatchWriteItem requires, and each is as likely as any
// other when first is drawn uniformly.
func (c *ItemCodec) BatchKey(first, j int) int {
	return (first + j*max(c.keys/BatchSize, 1)) % c.keys
}

// KeyLen is the length of every key string.
func (c *ItemCodec) KeyLen() int { return c.key.Len() }

// Size is the DynamoDB size of every item, in bytes.
func (c *ItemCodec) Size() int {
	return len("pk") + c.KeyLen() + len("data") + len(c.filler)
}

// Key returns the key string of key number i.
func (c *ItemCodec) Key(i int) string { return c.key.String(i) }

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

// SortedCodec builds the items of the query/scan table, whose key is the
// hash key "pk" and the range key "sk", both strings. Item number i of n
// belongs to the collection (partition) i mod partitions, "p" followed by a
// fixed-width partition number, and its sort key is "s" followed by i in
// fixed width: within a collection, string order is the order of writing,
// so the newest items are the ones with the greatest sort keys, as with
// time-stamped sort keys. Items are sized like ItemCodec's, with a filler
// "data" attribute.
//
// A grouped codec's items (those of a run with the fscan workload) also
// have a non-key attribute for a filter to test, "g", a string of one
// letter: item i's is the letter Groups places after 'a' that i mod
// Groups gives, so the filter g = "a" (FilterGroup) keeps one item in
// Groups. Its two bytes are taken from the filler.
type SortedCodec struct {
	part, seq  keyFormat
	partitions int
	grouped    bool
	filler     string
}

// Groups is the number of values of a grouped item's attribute "g", and
// FilterGroup the value the fscan workload's filter keeps.
const (
	Groups      = 20
	FilterGroup = "a"
)

// NewSortedCodec returns a codec for items of itemSize bytes, items in all,
// spread over partitions collections.
func NewSortedCodec(itemSize, items, partitions int) *SortedCodec {
	return newSortedCodec(itemSize, items, partitions, false)
}

// NewGroupedSortedCodec is NewSortedCodec for items with the attribute
// "g", for a filter to keep one in Groups.
func NewGroupedSortedCodec(itemSize, items, partitions int) *SortedCodec {
	return newSortedCodec(itemSize, items, partitions, true)
}

func newSortedCodec(itemSize, items, partitions int, grouped bool) *SortedCodec {
	c := &SortedCodec{
		part:       newKeyFormat('p', partitions, 4),
		seq:        newKeyFormat('s', items, 8),
		partitions: max(partitions, 1),
		grouped:    grouped,
	}
	c.filler = filler(itemSize - len("pk") - c.part.Len() - len("sk") - c.seq.Len() - len("data") - c.groupLen())
	return c
}

// groupLen is the size of the attribute "g": its name and its letter.
func (c *SortedCodec) groupLen() int {
	if c.grouped {
		return len("g") + 1
	}
	return 0
}

// Group returns the value of item i's attribute "g", if grouped.
func (c *SortedCodec) Group(i int) string {
	return string(rune('a' + i%Groups))
}

// Size is the DynamoDB size of every item, in bytes.
func (c *SortedCodec) Size() int {
	return len("pk") + c.part.Len() + len("sk") + c.seq.Len() + len("data") + len(c.filler) + c.groupLen()
}

// Partition returns the partition key string of partition number p.
func (c *SortedCodec) Partition(p int) string { return c.part.String(p) }

// SortKey returns the sort key string of item number i.
func (c *SortedCodec) SortKey(i int) string { return c.seq.String(i) }

// PartitionOf returns the partition number of item number i.
func (c *SortedCodec) PartitionOf(i int) int { return i % c.partitions }

// JSONKey returns the key of item i in DynamoDB JSON.
func (c *SortedCodec) JSONKey(i int) []byte {
	return []byte(`{"pk":{"S":"` + c.Partition(c.PartitionOf(i)) + `"},"sk":{"S":"` + c.SortKey(i) + `"}}`)
}

// JSONItem returns item i in DynamoDB JSON.
func (c *SortedCodec) JSONItem(i int) []byte {
	group := ""
	if c.grouped {
		group = `,"g":{"S":"` + c.Group(i) + `"}`
	}
	return []byte(`{"pk":{"S":"` + c.Partition(c.PartitionOf(i)) + `"},"sk":{"S":"` + c.SortKey(i) +
		`"},"data":{"S":"` + c.filler + `"}` + group + `}`)
}

// SDKItem returns item i as SDK attribute values, sharing data as
// ItemCodec.SDKItem does.
func (c *SortedCodec) SDKItem(i int, data types.AttributeValue) map[string]types.AttributeValue {
	item := map[string]types.AttributeValue{
		"pk":   &types.AttributeValueMemberS{Value: c.Partition(c.PartitionOf(i))},
		"sk":   &types.AttributeValueMemberS{Value: c.SortKey(i)},
		"data": data,
	}
	if c.grouped {
		item["g"] = &types.AttributeValueMemberS{Value: c.Group(i)}
	}
	return item
}

// SDKData returns the "data" attribute value shared by all items.
func (c *SortedCodec) SDKData() types.AttributeValue {
	return &types.AttributeValueMemberS{Value: c.filler}
}

// bodyTemplate is a request body with a key number to fill in at keyAt,
// and for a transact another at otherAt (0 if none), or for a batch write
// one per item, in format key.
type bodyTemplate struct {
	body           []byte
	keyAt, otherAt int
	key            keyFormat
	// batchAt, for a batch write, are the slots of its items' keys, the
	// first at keyAt; their numbers are ItemCodec.BatchKey's.
	batchAt []int
}

// updateValue is the value an update sets attribute v to.
const updateValue = "updated-by-bench"

// putTemplate returns the PutItem request body for table, with a slot for
// the key.
func (c *ItemCodec) putTemplate(table string) bodyTemplate {
	return newTemplate(c.key, `{"TableName":`+quote(table)+`,"Item":{"pk":{"S":"`,
		`"},"data":{"S":"`+c.filler+`"}}}`)
}

// getTemplate returns the GetItem request body for table, with a slot for
// the key.
func (c *ItemCodec) getTemplate(table string) bodyTemplate {
	return newTemplate(c.key, `{"TableName":`+quote(table)+`,"Key":{"pk":{"S":"`, `"}}}`)
}

// updateTemplate returns the UpdateItem request body for table, with a slot
// for the key.
func (c *ItemCodec) updateTemplate(table string) bodyTemplate {
	return newTemplate(c.key, `{"TableName":`+quote(table)+`,"Key":{"pk":{"S":"`,
		`"}},"UpdateExpression":`+quote(updateExpression)+
			`,"ExpressionAttributeValues":{":v":{"S":`+quote(updateValue)+`},":one":{"N":"1"}},"ReturnValues":"NONE"}`)
}

// transactTemplate returns the TransactWriteItems request body of a
// transfer from one item of table to another, with slots for both keys.
func (c *ItemCodec) transactTemplate(table string) bodyTemplate {
	half := func(amount string) string {
		return `"UpdateExpression":` + quote(transferExpression) + `,"ConditionExpression":` + quote(transferCondition) +
			`,"ExpressionAttributeValues":{":d":{"N":"` + amount + `"}}}}`
	}
	prefix := `{"TableName":` + quote(table) + `,"Key":{"pk":{"S":"`
	t := newTemplate(c.key, `{"TransactItems":[{"Update":`+prefix,
		`"}},`+half("-1")+`,{"Update":`+prefix)
	t.otherAt = len(t.body)
	t.body = append(t.body, c.key.String(0)...)
	t.body = append(t.body, `"}},`+half("1")+`]}`...)
	return t
}

// queryTemplate returns the body of the Query for the newest pageSize
// items of a partition of table (no Limit if pageSize is 0), with a slot
// for the partition number.
func (c *SortedCodec) queryTemplate(table string, pageSize int) bodyTemplate {
	return newTemplate(c.part, `{"TableName":`+quote(table)+`,"KeyConditionExpression":"pk = :p",`+
		`"ExpressionAttributeValues":{":p":{"S":"`,
		`"}},"ScanIndexForward":false`+limitMember(pageSize)+`}`)
}

// scanPrefix returns the start of a Scan request body for one segment of
// table, to be followed by either "}" or `,"ExclusiveStartKey":{...}}`.
// pageSize is its Limit, none if 0.
func scanPrefix(table string, pageSize, segment, segments int) []byte {
	return []byte(`{"TableName":` + quote(table) + limitMember(pageSize) +
		`,"Segment":` + strconv.Itoa(segment) + `,"TotalSegments":` + strconv.Itoa(segments))
}

// limitMember returns a request body's Limit member, with its leading
// comma, or nothing if pageSize is 0.
func limitMember(pageSize int) string {
	if pageSize == 0 {
		return ""
	}
	return `,"Limit":` + strconv.Itoa(pageSize)
}

// batchWriteTemplate returns the body of a BatchWriteItem of BatchSize
// PutRequests to table, with a slot for the key of each.
func (c *ItemCodec) batchWriteTemplate(table string) bodyTemplate {
	t := bodyTemplate{key: c.key}
	t.body = append(t.body, `{"RequestItems":{`+quote(table)+`:[`...)
	for j := range BatchSize {
		if j > 0 {
			t.body = append(t.body, ',')
		}
		t.body = append(t.body, `{"PutRequest":{"Item":{"pk":{"S":"`...)
		t.batchAt = append(t.batchAt, len(t.body))
		t.body = append(t.body, c.key.String(0)...)
		t.body = append(t.body, `"},"data":{"S":"`+c.filler+`"}}}}`...)
	}
	t.body = append(t.body, `]}}`...)
	t.keyAt = t.batchAt[0]
	return t
}

// The fscan workload's filter, on the attribute "g" of a grouped sorted
// item.
const filterExpression = "g = :g"

// filteredScanPrefix is scanPrefix for the fscan workload's Scan, with
// its filter.
func filteredScanPrefix(table string, pageSize, segment, segments int) []byte {
	b := scanPrefix(table, pageSize, segment, segments)
	return append(b, `,"FilterExpression":`+quote(filterExpression)+
		`,"ExpressionAttributeValues":{":g":{"S":`+quote(FilterGroup)+`}}`...)
}

func newTemplate(key keyFormat, prefix, suffix string) bodyTemplate {
	b := make([]byte, 0, len(prefix)+key.Len()+len(suffix))
	b = append(b, prefix...)
	b = append(b, key.String(0)...)
	b = append(b, suffix...)
	return bodyTemplate{body: b, keyAt: len(prefix), key: key}
}

// quote returns s as a JSON string.
func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
