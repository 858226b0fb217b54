package protocol

import (
	"fmt"
	"slices"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
)

// Query and Scan.

func conditionElem(d *decoder, c *dynamo.Condition) *dynamo.Error {
	_, err := d.object("Condition", atElement, func(key []byte) *dynamo.Error {
		switch string(key) {
		case "ComparisonOperator":
			return d.str(&c.ComparisonOperator)
		case "AttributeValueList":
			return decodeList(d, &c.AttributeValueList, atField, attrElem)
		}
		return d.skipValue()
	})
	return err
}

func (d *decoder) conditions(dst *map[string]dynamo.Condition) *dynamo.Error {
	return decodeMap(d, dst, modelPrefix+"Condition", atField, conditionElem)
}

// DecodeScan decodes a Scan request body.
func DecodeScan(body []byte) (*dynamo.ScanInput, error) {
	in := &dynamo.ScanInput{NoTableName: true}
	d := &decoder{data: body}
	err := d.root("ScanInput", func(key []byte) *dynamo.Error {
		switch string(key) {
		case "TableName":
			present, err := d.strPresent(&in.TableName)
			in.NoTableName = !present
			return err
		case "IndexName":
			return d.str(&in.IndexName)
		case "AttributesToGet":
			return d.strList(&in.AttributesToGet)
		case "Limit":
			return d.int32Ptr(&in.Limit)
		case "Select":
			return d.str(&in.Select)
		case "ScanFilter":
			return d.conditions(&in.ScanFilter)
		case "ConditionalOperator":
			return d.str(&in.ConditionalOperator)
		case "ExclusiveStartKey":
			d.startKey = true
			err := d.item(&in.ExclusiveStartKey, atField)
			d.startKey = false
			return err
		case "ReturnConsumedCapacity":
			return d.str(&in.ReturnConsumedCapacity)
		case "TotalSegments":
			return d.int32Ptr(&in.TotalSegments)
		case "Segment":
			return d.int32Ptr(&in.Segment)
		case "ProjectionExpression":
			return d.expression(&in.ProjectionExpression, &in.EmptyExpressions, dynamo.ExprProjection)
		case "FilterExpression":
			return d.expression(&in.FilterExpression, &in.EmptyExpressions, dynamo.ExprFilter)
		case "ExpressionAttributeNames":
			return d.strMap(&in.ExpressionAttributeNames)
		case "ExpressionAttributeValues":
			return d.exprValues(&in.ExpressionAttributeValues)
		case "ConsistentRead":
			_, err := d.boolean(&in.ConsistentRead)
			return err
		}
		return d.skipValue()
	})
	err = d.handOver(err, &in.ValueError)
	if err != nil {
		return nil, err
	}
	return in, nil
}

// DecodeQuery decodes a Query request body.
func DecodeQuery(body []byte) (*dynamo.QueryInput, error) {
	in := &dynamo.QueryInput{NoTableName: true}
	d := &decoder{data: body}
	err := d.root("QueryInput", func(key []byte) *dynamo.Error {
		switch string(key) {
		case "TableName":
			present, err := d.strPresent(&in.TableName)
			in.NoTableName = !present
			return err
		case "IndexName":
			return d.str(&in.IndexName)
		case "Select":
			return d.str(&in.Select)
		case "AttributesToGet":
			return d.strList(&in.AttributesToGet)
		case "Limit":
			return d.int32Ptr(&in.Limit)
		case "ConsistentRead":
			_, err := d.boolean(&in.ConsistentRead)
			return err
		case "KeyConditions":
			return d.conditions(&in.KeyConditions)
		case "QueryFilter":
			return d.conditions(&in.QueryFilter)
		case "ConditionalOperator":
			return d.str(&in.ConditionalOperator)
		case "ScanIndexForward":
			return d.boolPtr(&in.ScanIndexForward)
		case "ExclusiveStartKey":
			d.startKey = true
			err := d.item(&in.ExclusiveStartKey, atField)
			d.startKey = false
			return err
		case "ReturnConsumedCapacity":
			return d.str(&in.ReturnConsumedCapacity)
		case "ProjectionExpression":
			return d.expression(&in.ProjectionExpression, &in.EmptyExpressions, dynamo.ExprProjection)
		case "FilterExpression":
			return d.expression(&in.FilterExpression, &in.EmptyExpressions, dynamo.ExprFilter)
		case "KeyConditionExpression":
			return d.expression(&in.KeyConditionExpression, &in.EmptyExpressions, dynamo.ExprKeyCondition)
		case "ExpressionAttributeNames":
			return d.strMap(&in.ExpressionAttributeNames)
		case "ExpressionAttributeValues":
			return d.exprValues(&in.ExpressionAttributeValues)
		}
		return d.skipValue()
	})
	err = d.handOver(err, &in.ValueError)
	if err != nil {
		return nil, err
	}
	return in, nil
}

// appendPage appends the members Query and Scan responses share. Items is
// left out for Select COUNT (nil), as DynamoDB leaves it out.
// Items given in attr's encoding (encoded, not nil) are written from it.
func appendPage(dst []byte, items []attr.Item, encoded [][]byte, count, scanned int, last attr.Item, cc *dynamo.ConsumedCapacity) []byte {
	if encoded != nil {
		// Room for the items at once, rather than regrowing a page's
		// megabyte: their JSON is their encoding with the types' and
		// names' wrapping, a little larger.
		n := 0
		for _, b := range encoded {
			n += len(b)
		}
		dst = slices.Grow(dst, n+n/4+64*len(encoded))
		dst = appendPageHead(dst, count, cc)
		for _, b := range encoded {
			dst = AppendPageItem(dst, b)
		}
		return appendPageTail(dst, scanned, last)
	}
	dst = append(dst, '{')
	dst = consumedMember(dst, cc)
	dst = intMember(dst, "Count", int64(count))
	if items != nil {
		dst = append(member(dst, "Items"), '[')
		for _, it := range items {
			dst = appendItem(comma(dst), it)
		}
		dst = append(dst, ']')
	}
	dst = itemMember(dst, "LastEvaluatedKey", last)
	dst = intMember(dst, "ScannedCount", int64(scanned))
	return append(dst, '}')
}

// appendPageHead appends a page's members up to its items: the answer's
// start, ConsumedCapacity, Count and the start of Items.
func appendPageHead(dst []byte, count int, cc *dynamo.ConsumedCapacity) []byte {
	dst = append(dst, '{')
	dst = consumedMember(dst, cc)
	dst = intMember(dst, "Count", int64(count))
	return append(member(dst, "Items"), '[')
}

// AppendPageItem appends one item of a page's Items, given in attr's
// encoding, with the comma before it unless it is the first.
func AppendPageItem(dst []byte, item []byte) []byte {
	r := attr.RawItem(item)
	return appendRawItem(comma(dst), &r)
}

// appendPageTail appends a page's members after its items.
func appendPageTail(dst []byte, scanned int, last attr.Item) []byte {
	dst = append(dst, ']')
	dst = itemMember(dst, "LastEvaluatedKey", last)
	dst = intMember(dst, "ScannedCount", int64(scanned))
	return append(dst, '}')
}

// pageHeadRoom is the room a PageWriter leaves for a page's head, which
// is written last: its ConsumedCapacity names a table and at most its
// indexes, well under this; a larger head is written in a new buffer.
const pageHeadRoom = 1 << 10

// A PageWriter writes the answer to a Query or Scan whose items come one
// at a time, in attr's encoding, as the engine reads them (the inputs'
// EncodedSink): each is written to JSON at once, after room left for the
// members that come before Items in the answer (Count, ConsumedCapacity)
// and are known only at the end. The answer is byte for byte
// EncodeScan's and EncodeQuery's.
type PageWriter struct {
	dst   []byte
	start int // where the answer starts in dst
}

// NewPageWriter returns a writer of an answer appended to dst.
func NewPageWriter(dst []byte) *PageWriter {
	start := len(dst)
	dst = slices.Grow(dst, pageHeadRoom+1)
	dst = dst[:start+pageHeadRoom]
	dst[len(dst)-1] = '[' // what the first item's comma looks at
	return &PageWriter{dst: dst, start: start}
}

// Item appends an item read by the engine, in attr's encoding, checking
// it as it goes: a malformed item is not appended, and its error is
// attr.CheckItem's, so the item need not be checked first.
func (w *PageWriter) Item(item []byte) error {
	r := attr.RawItem(item)
	dst := appendRawItem(comma(w.dst), &r)
	if r.Malformed() {
		if err := attr.CheckItem(item); err != nil {
			return err
		}
		return fmt.Errorf("%w: not written", attr.ErrCorrupt) // CheckItem and Raw disagree
	}
	w.dst = dst
	return nil
}

// Abandon returns the buffer as it was given, for another answer.
func (w *PageWriter) Abandon() []byte { return w.dst[:w.start] }

// Finish writes the members around the items and returns the buffer, and
// within it the answer: buf[:w.start] is what it was given, and the
// answer follows either right after, or, when it is large (more than
// 64 KiB), a little further on, so that its items need not be moved. The
// caller reuses buf, never answer, for what comes next.
func (w *PageWriter) Finish(count, scanned int, last attr.Item, cc *dynamo.ConsumedCapacity) (buf, answer []byte) {
	var room [pageHeadRoom]byte
	head := appendPageHead(room[:0], count, cc)
	items := w.start + pageHeadRoom // where the first item starts
	w.dst = appendPageTail(w.dst, scanned, last)
	if len(head) > pageHeadRoom {
		// No room: the answer is written anew after the given bytes.
		whole := append(head, w.dst[items:]...)
		buf = append(w.dst[:w.start], whole...)
		return buf, buf[w.start:]
	}
	at := items - len(head)
	copy(w.dst[at:], head)
	if len(w.dst)-at > largeAnswer {
		return w.dst, w.dst[at:]
	}
	n := copy(w.dst[w.start:], w.dst[at:])
	return w.dst[:w.start+n], w.dst[w.start : w.start+n]
}

// largeAnswer is the size past which Finish leaves an answer where it was
// written rather than move it to the start of its buffer.
const largeAnswer = 64 << 10

// EncodeScan appends Scan's response body to dst.
func EncodeScan(dst []byte, out *dynamo.ScanOutput) []byte {
	if out == nil {
		out = &dynamo.ScanOutput{}
	}
	return appendPage(dst, out.Items, out.EncodedItems, out.Count, out.ScannedCount, out.LastEvaluatedKey, out.ConsumedCapacity)
}

// EncodeQuery appends Query's response body to dst.
func EncodeQuery(dst []byte, out *dynamo.QueryOutput) []byte {
	if out == nil {
		out = &dynamo.QueryOutput{}
	}
	return appendPage(dst, out.Items, out.EncodedItems, out.Count, out.ScannedCount, out.LastEvaluatedKey, out.ConsumedCapacity)
}
