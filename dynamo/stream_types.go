package dynamo

import (
	"time"

	"github.com/dynago/dynago/attr"
)

// The DynamoDB Streams API (DynamoDBStreams_20120810), and Time to Live.
// Field names follow the API's shapes; the protocol layer spells them as
// the wire does (a Record's top-level members are camelCase there, the
// rest PascalCase).

// Stream view types and statuses.
const (
	ViewKeysOnly        = "KEYS_ONLY"
	ViewNewImage        = "NEW_IMAGE"
	ViewOldImage        = "OLD_IMAGE"
	ViewNewAndOldImages = "NEW_AND_OLD_IMAGES"

	StreamEnabled  = "ENABLED"
	StreamDisabled = "DISABLED"
)

// Shard iterator types.
const (
	IteratorTrimHorizon         = "TRIM_HORIZON"
	IteratorLatest              = "LATEST"
	IteratorAtSequenceNumber    = "AT_SEQUENCE_NUMBER"
	IteratorAfterSequenceNumber = "AFTER_SEQUENCE_NUMBER"
	IteratorAtTimestamp         = "AT_TIMESTAMP"
)

// Stream event names.
const (
	EventInsert = "INSERT"
	EventModify = "MODIFY"
	EventRemove = "REMOVE"
)

// Error codes of the Streams API.
const (
	CodeExpiredIterator   = "ExpiredIteratorException"
	CodeTrimmedDataAccess = "TrimmedDataAccessException"
)

// ListStreamsInput is ListStreams' request.
type ListStreamsInput struct {
	TableName               string // optional: only this table's streams
	Limit                   *int32 // nil: the default, 100
	ExclusiveStartStreamArn string
}

// StreamSummary is one entry of ListStreams.
type StreamSummary struct {
	StreamArn   string
	TableName   string
	StreamLabel string
}

// ListStreamsOutput is ListStreams' response.
type ListStreamsOutput struct {
	Streams                []StreamSummary
	LastEvaluatedStreamArn string
}

// DescribeStreamInput is DescribeStream's request.
type DescribeStreamInput struct {
	StreamArn             string
	Limit                 *int32 // nil: the default, 100
	ExclusiveStartShardId string
	// ShardFilter, when set, returns only the children of one shard.
	ShardFilter *ShardFilter
}

// ShardFilter selects shards in DescribeStream.
type ShardFilter struct {
	Type    string // CHILD_SHARDS
	ShardId string
}

// SequenceNumberRange is the range of a shard's sequence numbers. Ending
// is "" while the shard is open.
type SequenceNumberRange struct {
	StartingSequenceNumber string
	EndingSequenceNumber   string
}

// Shard is one shard of a stream.
type Shard struct {
	ShardId             string
	ParentShardId       string // "" for the first shard
	SequenceNumberRange SequenceNumberRange
}

// StreamDescription is DescribeStream's answer.
type StreamDescription struct {
	StreamArn               string
	StreamLabel             string
	StreamStatus            string
	StreamViewType          string
	CreationRequestDateTime time.Time
	TableName               string
	KeySchema               []KeySchemaElement
	Shards                  []Shard
	LastEvaluatedShardId    string
}

// DescribeStreamOutput is DescribeStream's response.
type DescribeStreamOutput struct {
	StreamDescription StreamDescription
}

// GetShardIteratorInput is GetShardIterator's request.
type GetShardIteratorInput struct {
	StreamArn         string
	ShardId           string
	ShardIteratorType string
	SequenceNumber    string
	Timestamp         *time.Time // AT_TIMESTAMP only
}

// GetShardIteratorOutput is GetShardIterator's response.
type GetShardIteratorOutput struct {
	ShardIterator string
}

// GetRecordsInput is GetRecords' request.
type GetRecordsInput struct {
	ShardIterator string
	Limit         *int32 // nil: the default, 1000
}

// Identity is a record's userIdentity: set only on the REMOVE records of
// items that Time to Live deleted.
type Identity struct {
	PrincipalId string
	Type        string
}

// StreamRecord is the dynamodb block of a Record.
type StreamRecord struct {
	// ApproximateCreationDateTime is when the change committed, to the
	// second as DynamoDB reports it.
	ApproximateCreationDateTime time.Time
	Keys                        attr.Item
	NewImage                    attr.Item // nil unless the view type includes it
	OldImage                    attr.Item // nil unless the view type includes it
	SequenceNumber              string
	SizeBytes                   int64
	StreamViewType              string
}

// Record is one change in a stream.
type Record struct {
	EventID      string
	EventName    string // INSERT, MODIFY, REMOVE
	EventVersion string
	EventSource  string
	AwsRegion    string
	Dynamodb     StreamRecord
	UserIdentity *Identity
}

// GetRecordsOutput is GetRecords' response. NextShardIterator is "" once
// a closed shard has been read to its end.
type GetRecordsOutput struct {
	Records           []Record
	NextShardIterator string
}

// TimeToLiveSpecification turns Time to Live on or off for a table.
type TimeToLiveSpecification struct {
	Enabled       bool
	AttributeName string
	// NoEnabled marks a request's specification without the Enabled
	// member, which DynamoDB requires. The wire decoder sets it.
	NoEnabled bool
	// NoAttributeName marks one whose AttributeName was left out or
	// null, which DynamoDB answers apart from "". The wire decoder sets
	// it.
	NoAttributeName bool
}

// UpdateTimeToLiveInput is UpdateTimeToLive's request.
type UpdateTimeToLiveInput struct {
	// NoTableName records that the request had no TableName member, or a
	// null one, which DynamoDB answers apart from an empty name
	// (MsgTableNameRequired). The zero value means present.
	NoTableName             bool
	TableName               string
	TimeToLiveSpecification *TimeToLiveSpecification
}

// UpdateTimeToLiveOutput is UpdateTimeToLive's response.
type UpdateTimeToLiveOutput struct {
	TimeToLiveSpecification TimeToLiveSpecification
}

// DescribeTimeToLiveInput is DescribeTimeToLive's request.
type DescribeTimeToLiveInput struct {
	TableName string
	// NoTableName records that the request had no TableName member, or a
	// null one, which DynamoDB answers apart from an empty name
	// (MsgTableNameRequired). The zero value means present.
	NoTableName bool
}

// TimeToLiveDescription describes a table's Time to Live setting.
// AttributeName is "" while TTL is disabled.
type TimeToLiveDescription struct {
	TimeToLiveStatus string // ENABLED, DISABLED (ENABLING, DISABLING are not used: changes are immediate)
	AttributeName    string
}

// DescribeTimeToLiveOutput is DescribeTimeToLive's response.
type DescribeTimeToLiveOutput struct {
	TimeToLiveDescription TimeToLiveDescription
}
