package dynamo

import (
	"github.com/dynago/dynago/attr"
)

// Request and response shapes of Query and Scan, field for field as in
// DynamoDB's API reference.

// Values of Select.
const (
	SelectAllAttributes          = "ALL_ATTRIBUTES"
	SelectAllProjectedAttributes = "ALL_PROJECTED_ATTRIBUTES"
	SelectSpecificAttributes     = "SPECIFIC_ATTRIBUTES"
	SelectCount                  = "COUNT"
)

// Condition is one legacy KeyConditions, QueryFilter or ScanFilter entry.
type Condition struct {
	ComparisonOperator string
	AttributeValueList []attr.Value
}

// ScanInput is Scan's request.
type ScanInput struct {
	// NoTableName records that the request had no TableName member, or a
	// null one, which DynamoDB answers apart from an empty name. The zero
	// value means present.
	NoTableName               bool
	TableName                 string
	IndexName                 string
	AttributesToGet           []string
	Limit                     *int32
	Select                    string
	ScanFilter                map[string]Condition
	ConditionalOperator       string
	ExclusiveStartKey         attr.Item
	ReturnConsumedCapacity    string
	TotalSegments             *int32
	Segment                   *int32
	ProjectionExpression      string
	FilterExpression          string
	ExpressionAttributeNames  map[string]string
	ExpressionAttributeValues attr.Item
	ConsistentRead            bool
	EmptyExpressions          Exprs // expressions present but empty
	// ValueError: see ValueError in validation_order.go.
	ValueError error
	// EncodedItems is dynago's own, no member of DynamoDB's: it asks for
	// the items that are returned whole (no projection) as their stored
	// encoding, in the output's EncodedItems, which a codec can write
	// without building maps.
	EncodedItems bool
	// EncodedBuffer, dynago's own too, is where the items returned
	// encoded are copied, as far as its capacity goes (further items go
	// to memory of the engine's): the output's EncodedItems may alias
	// it, so its owner reuses it only once done with the output.
	EncodedBuffer []byte
	// EncodedSink, dynago's own too, if set with EncodedItems, is given
	// the items returned whole, in their stored encoding, one by one in
	// order as they are read, in place of the output's EncodedItems,
	// which is then empty: the bytes are the store's, valid only during
	// the call, so that a codec writes them out without a copy. The
	// engine does not check them first: the sink does, and an error it
	// returns (attr.CheckItem's) fails the read.
	EncodedSink func(item []byte) error
}

// ScanOutput is Scan's response. Items is nil for Select COUNT.
type ScanOutput struct {
	Items            []attr.Item
	Count            int
	ScannedCount     int
	LastEvaluatedKey attr.Item
	ConsumedCapacity *ConsumedCapacity
	// EncodedItems, when the input asked for them and the items are
	// returned whole, holds the items in attr's encoding (AppendItem's
	// output, read with attr.RawItem) in place of Items, which is then
	// nil.
	EncodedItems [][]byte
}

// QueryInput is Query's request. ScanIndexForward is nil when absent
// (forward).
type QueryInput struct {
	// NoTableName records that the request had no TableName member, or a
	// null one, which DynamoDB answers apart from an empty name. The zero
	// value means present.
	NoTableName               bool
	TableName                 string
	IndexName                 string
	Select                    string
	AttributesToGet           []string
	Limit                     *int32
	ConsistentRead            bool
	KeyConditions             map[string]Condition
	QueryFilter               map[string]Condition
	ConditionalOperator       string
	ScanIndexForward          *bool
	ExclusiveStartKey         attr.Item
	ReturnConsumedCapacity    string
	ProjectionExpression      string
	FilterExpression          string
	KeyConditionExpression    string
	ExpressionAttributeNames  map[string]string
	ExpressionAttributeValues attr.Item
	EmptyExpressions          Exprs // expressions present but empty
	// ValueError: see ValueError in validation_order.go.
	ValueError error
	// EncodedItems, EncodedBuffer and EncodedSink are ScanInput's.
	EncodedItems  bool
	EncodedBuffer []byte
	EncodedSink   func(item []byte) error
}

// QueryOutput is Query's response. Items is nil for Select COUNT.
type QueryOutput struct {
	Items            []attr.Item
	Count            int
	ScannedCount     int
	LastEvaluatedKey attr.Item
	ConsumedCapacity *ConsumedCapacity
	// EncodedItems is ScanOutput's.
	EncodedItems [][]byte
}
