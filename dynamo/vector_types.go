package dynamo

// Vector indexes: the third kind of index, on an on-demand table, declared
// by CreateTable's VectorIndexes or UpdateTable's VectorIndexUpdates and
// described in TableDescription.VectorIndexes. The shapes are AWS's API
// reference's (VectorIndex, CreateVectorIndexAction, VectorIndexUpdate,
// VectorIndexDescription, VectorIndexInfo), member for member.
//
// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_VectorIndex.html

// Distance functions of a vector index (VectorDistanceFunction).
const (
	DistanceCosine     = "COSINE"
	DistanceEuclidean  = "EUCLIDEAN"
	DistanceDotProduct = "DOT_PRODUCT"
)

// Element types of a vector index's SearchSchema (SearchSchemaElementType).
const (
	SearchSchemaHash         = "HASH"
	SearchSchemaInlineFilter = "INLINE_FILTER"
)

// VectorAttributeDefinition names the attribute holding an item's vector
// (a list of numbers).
type VectorAttributeDefinition struct {
	AttributeName string
	// NoAttributeName marks a definition whose AttributeName was left
	// out or null. The wire decoder sets it.
	NoAttributeName bool
}

// SearchSchemaElement is one attribute of a vector index's search schema:
// its partition (HASH) or an attribute a search may filter on
// (INLINE_FILTER).
type SearchSchemaElement struct {
	AttributeName           string
	SearchSchemaElementType string
	// NoAttributeName and NoElementType mark members left out or null.
	// The wire decoder sets them.
	NoAttributeName bool
	NoElementType   bool
}

// VectorIndex is a vector index as given to CreateTable, to UpdateTable's
// Create action (CreateVectorIndexAction, the same shape), or to a
// restore's or import's list.
type VectorIndex struct {
	IndexName string
	// NoIndexName marks a definition whose IndexName was left out or
	// null. The wire decoder sets it.
	NoIndexName bool
	// VectorAttribute is nil when the member was left out or null.
	VectorAttribute *VectorAttributeDefinition
	SearchSchema    []SearchSchemaElement
	Projection      Projection
	// NoProjection marks a definition without a Projection member.
	NoProjection bool
	// Dimensions is the vectors' length; a fractional number on the wire
	// is truncated. NoDimensions marks the member left out or null.
	Dimensions       int64
	NoDimensions     bool
	DistanceFunction string
}

// DeleteVectorIndexAction removes a vector index.
type DeleteVectorIndexAction struct {
	IndexName   string
	NoIndexName bool // left out or null
}

// VectorIndexUpdate is one entry of UpdateTable's VectorIndexUpdates:
// exactly one of its fields is set. DynamoDB has no Update action for a
// vector index: its definition cannot change.
type VectorIndexUpdate struct {
	Create *VectorIndex
	Delete *DeleteVectorIndexAction
}

// VectorIndexDescription describes a vector index. Backfilling is present
// only while an index UpdateTable created is CREATING.
type VectorIndexDescription struct {
	IndexName        string
	IndexArn         string
	VectorAttribute  *VectorAttributeDefinition
	Dimensions       int64
	DistanceFunction string
	SearchSchema     []SearchSchemaElement
	Projection       Projection
	IndexStatus      string
	Backfilling      *bool
	IndexSizeBytes   int64
	ItemCount        int64
}

// VectorIndexInfo is a vector index's definition as a backup records it
// (SourceTableFeatureDetails.VectorIndexes): the definition, no status.
type VectorIndexInfo struct {
	IndexName        string
	VectorAttribute  *VectorAttributeDefinition
	Dimensions       int64
	DistanceFunction string
	SearchSchema     []SearchSchemaElement
	Projection       Projection
}
