package dynamo

import (
	"time"

	"github.com/dynago/dynago/attr"
)

// This file holds the request and response shapes of the operations the
// engine serves. They follow DynamoDB's API reference field for field, so
// the protocol codec and the in-process client map onto them one to one.
// Optional scalars are pointers or empty strings; a nil map or slice means
// "absent" and is omitted on the wire.

// Key types, attribute types and enumerations, as DynamoDB spells them.
const (
	KeyTypeHash  = "HASH"
	KeyTypeRange = "RANGE"

	BillingModeProvisioned   = "PROVISIONED"
	BillingModePayPerRequest = "PAY_PER_REQUEST"

	ReturnConsumedCapacityNone    = "NONE"
	ReturnConsumedCapacityTotal   = "TOTAL"
	ReturnConsumedCapacityIndexes = "INDEXES"

	ReturnItemCollectionMetricsNone = "NONE"
	ReturnItemCollectionMetricsSize = "SIZE"

	ReturnValuesNone       = "NONE"
	ReturnValuesAllOld     = "ALL_OLD"
	ReturnValuesUpdatedOld = "UPDATED_OLD"
	ReturnValuesAllNew     = "ALL_NEW"
	ReturnValuesUpdatedNew = "UPDATED_NEW"

	TableStatusCreating = "CREATING"
	TableStatusActive   = "ACTIVE"
	TableStatusDeleting = "DELETING"
	TableStatusUpdating = "UPDATING"
)

// KeySchemaElement names one key attribute and its role.
type KeySchemaElement struct {
	AttributeName string
	KeyType       string // HASH or RANGE
}

// AttributeDefinition declares the type of a key attribute.
type AttributeDefinition struct {
	AttributeName string
	AttributeType string // S, N or B
	// TypeEmpty marks an AttributeType sent as "", which DynamoDB refuses
	// as outside its enum rather than as missing. The wire decoder sets
	// it; it is never stored.
	TypeEmpty bool `json:"-"`
}

// ProvisionedThroughput is the requested capacity of a table or index.
type ProvisionedThroughput struct {
	ReadCapacityUnits  int64
	WriteCapacityUnits int64
	// ReadNull and WriteNull record a request that left the member out
	// or sent null, which DynamoDB answers apart from 0.
	ReadNull, WriteNull bool
}

// ProvisionedThroughputDescription is the described capacity.
type ProvisionedThroughputDescription struct {
	LastIncreaseDateTime   time.Time // zero: absent
	LastDecreaseDateTime   time.Time // zero: absent
	NumberOfDecreasesToday int64
	ReadCapacityUnits      int64
	WriteCapacityUnits     int64
}

// OnDemandThroughput caps an on-demand table's request rate.
type OnDemandThroughput struct {
	MaxReadRequestUnits  *int64
	MaxWriteRequestUnits *int64
}

// Projection says which attributes an index copies.
type Projection struct {
	ProjectionType   string // ALL, KEYS_ONLY or INCLUDE; empty: absent
	NonKeyAttributes []string
}

// LocalSecondaryIndex is an LSI as given to CreateTable.
type LocalSecondaryIndex struct {
	IndexName string
	// NoIndexName marks a definition whose IndexName was left out or
	// null, which DynamoDB answers apart from "".
	NoIndexName bool
	KeySchema   []KeySchemaElement
	Projection  Projection
	// NoProjection marks a definition without a Projection member, which
	// DynamoDB requires (a zero Projection is an empty one, "{}"). The
	// wire decoder sets it.
	NoProjection bool
}

// GlobalSecondaryIndex is a GSI as given to CreateTable or UpdateTable.
type GlobalSecondaryIndex struct {
	IndexName string
	// NoIndexName marks a definition whose IndexName was left out or
	// null, which DynamoDB answers apart from "".
	NoIndexName           bool
	KeySchema             []KeySchemaElement
	Projection            Projection
	ProvisionedThroughput *ProvisionedThroughput
	OnDemandThroughput    *OnDemandThroughput
	WarmThroughput        *WarmThroughput
	// NoProjection marks a definition without a Projection member, as in
	// LocalSecondaryIndex.
	NoProjection bool
}

// WarmThroughput is the warm throughput a request asks for, of a table or
// a GSI; a nil member leaves that one as it is.
type WarmThroughput struct {
	ReadUnitsPerSecond  *int64
	WriteUnitsPerSecond *int64
}

// StreamSpecification turns a table's stream on or off.
type StreamSpecification struct {
	StreamEnabled  bool
	StreamViewType string // KEYS_ONLY, NEW_IMAGE, OLD_IMAGE, NEW_AND_OLD_IMAGES
	// NoStreamEnabled marks a request's specification without the
	// StreamEnabled member, which DynamoDB requires. The wire decoder sets
	// it; it is never stored.
	NoStreamEnabled bool `json:"-"`
	// ViewTypeEmpty marks a StreamViewType sent as "", which DynamoDB
	// refuses as outside its enum. The wire decoder sets it.
	ViewTypeEmpty bool `json:"-"`
}

// SSESpecification asks for server-side encryption settings.
type SSESpecification struct {
	Enabled        *bool
	SSEType        string
	KMSMasterKeyId string
	// KeyIDEmpty marks a KMSMasterKeyId sent as "", which DynamoDB
	// refuses for its length. The wire decoder sets it.
	KeyIDEmpty bool `json:"-"`
}

// SSEDescription describes server-side encryption.
type SSEDescription struct {
	Status          string
	SSEType         string
	KMSMasterKeyArn string
}

// Tag is one resource tag.
type Tag struct {
	Key   string
	Value string
}

// BillingModeSummary describes the billing mode.
type BillingModeSummary struct {
	BillingMode                       string
	LastUpdateToPayPerRequestDateTime time.Time // zero: absent
}

// TableClassSummary describes the table class.
type TableClassSummary struct {
	TableClass         string
	LastUpdateDateTime time.Time // zero: absent
}

// LocalSecondaryIndexDescription describes an LSI.
type LocalSecondaryIndexDescription struct {
	IndexName      string
	KeySchema      []KeySchemaElement
	Projection     Projection
	IndexSizeBytes int64
	ItemCount      int64
	IndexArn       string
}

// GlobalSecondaryIndexDescription describes a GSI.
type GlobalSecondaryIndexDescription struct {
	IndexName             string
	KeySchema             []KeySchemaElement
	Projection            Projection
	IndexStatus           string
	Backfilling           *bool
	ProvisionedThroughput *ProvisionedThroughputDescription
	OnDemandThroughput    *OnDemandThroughput
	IndexSizeBytes        int64
	ItemCount             int64
	IndexArn              string
	WarmThroughput        *WarmThroughputDescription
}

// WarmThroughputDescription is a table's or a GSI's warm throughput
// (TableWarmThroughputDescription and
// GlobalSecondaryIndexWarmThroughputDescription in AWS's API reference).
type WarmThroughputDescription struct {
	ReadUnitsPerSecond  int64
	WriteUnitsPerSecond int64
	Status              string
}

// TableDescription is what DescribeTable and the table operations return.
type TableDescription struct {
	AttributeDefinitions      []AttributeDefinition
	TableName                 string
	KeySchema                 []KeySchemaElement
	TableStatus               string
	CreationDateTime          time.Time
	ProvisionedThroughput     *ProvisionedThroughputDescription
	TableSizeBytes            int64
	ItemCount                 int64
	TableArn                  string
	TableId                   string
	BillingModeSummary        *BillingModeSummary
	LocalSecondaryIndexes     []LocalSecondaryIndexDescription
	GlobalSecondaryIndexes    []GlobalSecondaryIndexDescription
	VectorIndexes             []VectorIndexDescription
	StreamSpecification       *StreamSpecification
	LatestStreamLabel         string
	LatestStreamArn           string
	SSEDescription            *SSEDescription
	TableClassSummary         *TableClassSummary
	DeletionProtectionEnabled *bool
	OnDemandThroughput        *OnDemandThroughput
	WarmThroughput            *WarmThroughputDescription
	// RestoreSummary is set on a table made by a restore.
	RestoreSummary *RestoreSummary
	// Replicas and GlobalTableVersion are set on a table with replicas
	// in other regions (engine/replicas.go).
	Replicas           []ReplicaDescription
	GlobalTableVersion string
}

// Capacity is the capacity consumed on one table or index.
type Capacity struct {
	CapacityUnits      *float64
	ReadCapacityUnits  *float64
	WriteCapacityUnits *float64
}

// ConsumedCapacity is what an operation consumed, returned when the
// request's ReturnConsumedCapacity is TOTAL or INDEXES.
type ConsumedCapacity struct {
	TableName              string
	CapacityUnits          *float64
	ReadCapacityUnits      *float64
	WriteCapacityUnits     *float64
	Table                  *Capacity
	LocalSecondaryIndexes  map[string]Capacity
	GlobalSecondaryIndexes map[string]Capacity
	// VectorIndexes is what a write cost each vector index it changed,
	// in bytes (VectorWriteRequestBytes), reported with INDEXES only and
	// never added to CapacityUnits.
	VectorIndexes map[string]VectorCapacity
}

// ItemCollectionMetrics describes the item collection a write touched, for
// tables with local secondary indexes when ReturnItemCollectionMetrics is
// SIZE.
type ItemCollectionMetrics struct {
	ItemCollectionKey   attr.Item
	SizeEstimateRangeGB []float64
}

// CreateTableInput is CreateTable's request.
type CreateTableInput struct {
	// NoTableName records that the request had no TableName member, or a
	// null one, which DynamoDB answers apart from an empty name
	// (MsgTableNameRequired). The zero value means present.
	NoTableName            bool
	TableName              string
	AttributeDefinitions   []AttributeDefinition
	KeySchema              []KeySchemaElement
	LocalSecondaryIndexes  []LocalSecondaryIndex
	GlobalSecondaryIndexes []GlobalSecondaryIndex
	VectorIndexes          []VectorIndex
	BillingMode            string
	// BillingModeEmpty marks a BillingMode sent as "", which DynamoDB
	// refuses as outside its enum. The wire decoder sets it.
	BillingModeEmpty          bool
	ProvisionedThroughput     *ProvisionedThroughput
	OnDemandThroughput        *OnDemandThroughput
	WarmThroughput            *WarmThroughput
	StreamSpecification       *StreamSpecification
	SSESpecification          *SSESpecification
	Tags                      []Tag
	TableClass                string
	DeletionProtectionEnabled *bool
	// ResourcePolicy is the resource-based policy to attach to the table
	// (its JSON document), "" for none.
	ResourcePolicy string
}

// CreateTableOutput is CreateTable's response.
type CreateTableOutput struct {
	TableDescription *TableDescription
}

// DescribeTableInput is DescribeTable's request.
type DescribeTableInput struct {
	TableName string
	// NoTableName records that the request had no TableName member, or a
	// null one, which DynamoDB answers apart from an empty name
	// (MsgTableNameRequired). The zero value means present.
	NoTableName bool
}

// DescribeTableOutput is DescribeTable's response.
type DescribeTableOutput struct {
	Table *TableDescription
}

// DeleteTableInput is DeleteTable's request.
type DeleteTableInput struct {
	TableName string
	// NoTableName records that the request had no TableName member, or a
	// null one, which DynamoDB answers apart from an empty name
	// (MsgTableNameRequired). The zero value means present.
	NoTableName bool
}

// DeleteTableOutput is DeleteTable's response.
type DeleteTableOutput struct {
	TableDescription *TableDescription
}

// ListTablesInput is ListTables' request.
type ListTablesInput struct {
	ExclusiveStartTableName string
	// ExclusiveStartTableNameSet is true when the member was given (not
	// absent or null): an empty name is a constraint violation.
	ExclusiveStartTableNameSet bool
	Limit                      *int32
}

// ListTablesOutput is ListTables' response.
type ListTablesOutput struct {
	TableNames             []string // never nil: DynamoDB always sends the list
	LastEvaluatedTableName string
}

// GlobalSecondaryIndexUpdate is one entry of UpdateTable's
// GlobalSecondaryIndexUpdates: exactly one of its fields is set.
type GlobalSecondaryIndexUpdate struct {
	Create *GlobalSecondaryIndex
	Update *UpdateGlobalSecondaryIndexAction
	Delete *DeleteGlobalSecondaryIndexAction
}

// UpdateGlobalSecondaryIndexAction changes a GSI's throughput.
type UpdateGlobalSecondaryIndexAction struct {
	IndexName             string
	NoIndexName           bool // left out or null
	ProvisionedThroughput *ProvisionedThroughput
	OnDemandThroughput    *OnDemandThroughput
	WarmThroughput        *WarmThroughput
}

// DeleteGlobalSecondaryIndexAction removes a GSI.
type DeleteGlobalSecondaryIndexAction struct {
	IndexName   string
	NoIndexName bool // left out or null
}

// UpdateTableInput is UpdateTable's request.
type UpdateTableInput struct {
	// NoTableName records that the request had no TableName member, or a
	// null one, which DynamoDB answers apart from an empty name
	// (MsgTableNameRequired). The zero value means present.
	NoTableName          bool
	TableName            string
	AttributeDefinitions []AttributeDefinition
	BillingMode          string
	// BillingModeEmpty marks a BillingMode sent as "", which DynamoDB
	// refuses as outside its enum. The wire decoder sets it.
	BillingModeEmpty            bool
	ProvisionedThroughput       *ProvisionedThroughput
	OnDemandThroughput          *OnDemandThroughput
	WarmThroughput              *WarmThroughput
	GlobalSecondaryIndexUpdates []GlobalSecondaryIndexUpdate
	VectorIndexUpdates          []VectorIndexUpdate
	StreamSpecification         *StreamSpecification
	SSESpecification            *SSESpecification
	TableClass                  string
	DeletionProtectionEnabled   *bool
	// ReplicaUpdates adds or removes replicas in other regions (global
	// tables version 2019.11.21). Of each action dynago reads the region.
	ReplicaUpdates []ReplicationGroupUpdate
}

// ReplicationGroupUpdate is one element of UpdateTable's ReplicaUpdates:
// one of Create, Update and Delete.
type ReplicationGroupUpdate struct {
	Create *ReplicaAction
	Update *ReplicaAction
	Delete *ReplicaAction
}

// ReplicaAction is the region a replica action names; NoRegionName
// records a missing or null RegionName.
type ReplicaAction struct {
	RegionName   string
	NoRegionName bool
}

// ReplicaDescription is a replica of a global table, in its table
// description.
type ReplicaDescription struct {
	RegionName    string
	ReplicaStatus string
}

// Replica statuses (ReplicaDescription.ReplicaStatus).
const (
	ReplicaStatusCreating = "CREATING"
	ReplicaStatusActive   = "ACTIVE"
	ReplicaStatusDeleting = "DELETING"
)

// GlobalTableVersionCurrent is the GlobalTableVersion of a table with
// replicas made through UpdateTable's ReplicaUpdates.
const GlobalTableVersionCurrent = "2019.11.21"

// UpdateTableOutput is UpdateTable's response.
type UpdateTableOutput struct {
	TableDescription *TableDescription
}

// TagResourceInput is TagResource's request.
type TagResourceInput struct {
	ResourceArn string
	Tags        []Tag
}

// UntagResourceInput is UntagResource's request.
type UntagResourceInput struct {
	ResourceArn string
	TagKeys     []string
}

// ListTagsOfResourceInput is ListTagsOfResource's request.
type ListTagsOfResourceInput struct {
	ResourceArn string
	NextToken   string
}

// ListTagsOfResourceOutput is ListTagsOfResource's response.
type ListTagsOfResourceOutput struct {
	Tags      []Tag // never nil
	NextToken string
}

// DescribeLimitsOutput is DescribeLimits' response.
type DescribeLimitsOutput struct {
	AccountMaxReadCapacityUnits  int64
	AccountMaxWriteCapacityUnits int64
	TableMaxReadCapacityUnits    int64
	TableMaxWriteCapacityUnits   int64
}

// Endpoint is one entry of DescribeEndpoints' response.
type Endpoint struct {
	Address              string
	CachePeriodInMinutes int64
}

// DescribeEndpointsOutput is DescribeEndpoints' response.
type DescribeEndpointsOutput struct {
	Endpoints []Endpoint
}

// ExpressionInput holds the expression fields several item operations
// share. The expression language fills in their meaning.
type ExpressionInput struct {
	ExpressionAttributeNames  map[string]string
	ExpressionAttributeValues attr.Item
}

// Exprs is a set of expression members. Requests carry the set of those
// that were present but empty in EmptyExpressions: DynamoDB refuses an
// empty expression ("Invalid ConditionExpression: The expression can not
// be empty;") where it ignores an absent one, and counts it as an
// expression parameter when a request mixes expression and legacy
// parameters.
type Exprs uint8

// Expression members.
const (
	ExprCondition Exprs = 1 << iota
	ExprUpdate
	ExprKeyCondition
	ExprFilter
	ExprProjection
)

// Has reports whether e is in s.
func (s Exprs) Has(e Exprs) bool { return s&e != 0 }

// PutItemInput is PutItem's request.
type PutItemInput struct {
	// NoTableName records that the request had no TableName member, or a
	// null one, which DynamoDB answers apart from an empty name. The zero
	// value means present.
	NoTableName                         bool
	TableName                           string
	Item                                attr.Item
	ConditionExpression                 string
	ExpressionAttributeNames            map[string]string
	ExpressionAttributeValues           attr.Item
	Expected                            map[string]ExpectedAttributeValue
	ConditionalOperator                 string
	ReturnValues                        string
	ReturnConsumedCapacity              string
	ReturnItemCollectionMetrics         string
	ReturnValuesOnConditionCheckFailure string
	EmptyExpressions                    Exprs // expressions present but empty
	// ValueError is the first malformed attribute value the protocol
	// decoder met (see ValueError in validation_order.go).
	ValueError error
}

// ExpectedAttributeValue is one legacy Expected condition.
type ExpectedAttributeValue struct {
	Value              *attr.Value
	Exists             *bool
	ComparisonOperator string
	AttributeValueList []attr.Value
}

// PutItemOutput is PutItem's response.
type PutItemOutput struct {
	Attributes            attr.Item
	ConsumedCapacity      *ConsumedCapacity
	ItemCollectionMetrics *ItemCollectionMetrics
}

// GetItemInput is GetItem's request.
type GetItemInput struct {
	// NoTableName records that the request had no TableName member, or a
	// null one, which DynamoDB answers apart from an empty name. The zero
	// value means present.
	NoTableName              bool
	TableName                string
	Key                      attr.Item
	ConsistentRead           bool
	AttributesToGet          []string
	ProjectionExpression     string
	ExpressionAttributeNames map[string]string
	ReturnConsumedCapacity   string
	EmptyExpressions         Exprs // expressions present but empty
	// ValueError: see ValueError in validation_order.go.
	ValueError error
	// EncodedItem is dynago's own, no member of DynamoDB's: it asks for
	// the item, when it is returned whole (no projection), as its stored
	// encoding, in the output's EncodedItem, which a codec can write
	// without building a map (ScanInput's EncodedItems).
	EncodedItem bool
	// EncodedBuffer is ScanInput's, for EncodedItem.
	EncodedBuffer []byte
}

// GetItemOutput is GetItem's response. Item is nil when no item has the key.
type GetItemOutput struct {
	Item             attr.Item
	ConsumedCapacity *ConsumedCapacity
	// EncodedItem, when the input asked for it and the item is found and
	// returned whole, holds the item in attr's encoding (AppendItem's
	// output, read with attr.RawItem) in place of Item, which is then nil.
	EncodedItem []byte
}

// DeleteItemInput is DeleteItem's request.
type DeleteItemInput struct {
	// NoTableName records that the request had no TableName member, or a
	// null one, which DynamoDB answers apart from an empty name. The zero
	// value means present.
	NoTableName                         bool
	TableName                           string
	Key                                 attr.Item
	ConditionExpression                 string
	ExpressionAttributeNames            map[string]string
	ExpressionAttributeValues           attr.Item
	Expected                            map[string]ExpectedAttributeValue
	ConditionalOperator                 string
	ReturnValues                        string
	ReturnConsumedCapacity              string
	ReturnItemCollectionMetrics         string
	ReturnValuesOnConditionCheckFailure string
	EmptyExpressions                    Exprs // expressions present but empty
	// ValueError is the first malformed attribute value the protocol
	// decoder met (see ValueError in validation_order.go).
	ValueError error
}

// DeleteItemOutput is DeleteItem's response.
type DeleteItemOutput struct {
	Attributes            attr.Item
	ConsumedCapacity      *ConsumedCapacity
	ItemCollectionMetrics *ItemCollectionMetrics
}

// UpdateItemInput is UpdateItem's request.
type UpdateItemInput struct {
	// NoTableName records that the request had no TableName member, or a
	// null one, which DynamoDB answers apart from an empty name. The zero
	// value means present.
	NoTableName                         bool
	TableName                           string
	Key                                 attr.Item
	UpdateExpression                    string
	ConditionExpression                 string
	ExpressionAttributeNames            map[string]string
	ExpressionAttributeValues           attr.Item
	AttributeUpdates                    map[string]AttributeValueUpdate
	Expected                            map[string]ExpectedAttributeValue
	ConditionalOperator                 string
	ReturnValues                        string
	ReturnConsumedCapacity              string
	ReturnItemCollectionMetrics         string
	ReturnValuesOnConditionCheckFailure string
	EmptyExpressions                    Exprs // expressions present but empty
	// ValueError is the first malformed attribute value the protocol
	// decoder met (see ValueError in validation_order.go).
	ValueError error
}

// AttributeValueUpdate is one legacy AttributeUpdates entry.
type AttributeValueUpdate struct {
	Action string // PUT, ADD, DELETE
	Value  *attr.Value
}

// UpdateItemOutput is UpdateItem's response.
type UpdateItemOutput struct {
	Attributes            attr.Item
	ConsumedCapacity      *ConsumedCapacity
	ItemCollectionMetrics *ItemCollectionMetrics
}

// KeysAndAttributes is one table's part of a BatchGetItem request.
type KeysAndAttributes struct {
	Keys                     []attr.Item
	AttributesToGet          []string
	ConsistentRead           bool
	ProjectionExpression     string
	ExpressionAttributeNames map[string]string
	EmptyExpressions         Exprs // expressions present but empty
	// ValueError is the first malformed attribute value the protocol
	// decoder met in Keys (see placedValue in validation_order.go).
	ValueError error
}

// BatchGetItemInput is BatchGetItem's request.
type BatchGetItemInput struct {
	RequestItems           map[string]KeysAndAttributes
	ReturnConsumedCapacity string
}

// BatchGetItemOutput is BatchGetItem's response.
type BatchGetItemOutput struct {
	Responses        map[string][]attr.Item // never nil
	UnprocessedKeys  map[string]KeysAndAttributes
	ConsumedCapacity []ConsumedCapacity
}

// WriteRequest is one entry of a BatchWriteItem request: exactly one of
// PutRequest and DeleteRequest is set.
type WriteRequest struct {
	PutRequest    *PutRequest
	DeleteRequest *DeleteRequest
	// ValueError is the first malformed attribute value the protocol
	// decoder met in the item or key (see placedValue in
	// validation_order.go).
	ValueError error
}

// PutRequest is a batch put.
type PutRequest struct {
	Item attr.Item
}

// DeleteRequest is a batch delete.
type DeleteRequest struct {
	Key attr.Item
}

// BatchWriteItemInput is BatchWriteItem's request.
type BatchWriteItemInput struct {
	RequestItems                map[string][]WriteRequest
	ReturnConsumedCapacity      string
	ReturnItemCollectionMetrics string
}

// BatchWriteItemOutput is BatchWriteItem's response.
type BatchWriteItemOutput struct {
	UnprocessedItems      map[string][]WriteRequest // never nil
	ConsumedCapacity      []ConsumedCapacity
	ItemCollectionMetrics map[string][]ItemCollectionMetrics
}

// Projection types.
const (
	ProjectionAll      = "ALL"
	ProjectionKeysOnly = "KEYS_ONLY"
	ProjectionInclude  = "INCLUDE"
)

// Index statuses.
const (
	IndexStatusActive   = "ACTIVE"
	IndexStatusCreating = "CREATING"
)
