package dynamo

import "github.com/dynago/dynago/attr"

// Request and response shapes of SearchVectors, field for field as in
// DynamoDB's service model (botocore's dynamodb 2012-08-10 service-2.json,
// SearchVectorsInput, SearchVectorsOutput, SearchResultItem and
// VectorCapacity).
//
// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_SearchVectors.html

// ExprSearchCondition is SearchVectors' SearchConditionExpression in a
// set of expression members (Exprs).
const ExprSearchCondition Exprs = ExprProjection << 1

// SearchVectorsInput is SearchVectors' request. The model has no
// ConsistentRead, Limit, Select, ExclusiveStartKey or filter member: a
// search returns at most TopK results, in one page.
type SearchVectorsInput struct {
	// NoTableName records that the request had no TableName member, or a
	// null one. The zero value means present.
	NoTableName bool
	// TableName is the table's name or ARN.
	TableName string
	// NoIndexName records that IndexName was absent or null.
	NoIndexName bool
	IndexName   string
	// SearchVector is the query vector: a list of attribute values, each
	// a number (a bare list, not an L value), 1 to 4096 of them. It is
	// nil when the member was absent or null, non-nil and empty when it
	// was an empty list.
	SearchVector []attr.Value
	// TopK is how many results to return; nil when absent or null.
	TopK                      *int32
	SearchConditionExpression string
	ExpressionAttributeNames  map[string]string
	ExpressionAttributeValues attr.Item
	ProjectionExpression      string
	ReturnConsumedCapacity    string
	EmptyExpressions          Exprs // expressions present but empty
	// ValueError: see ValueError in validation_order.go.
	ValueError error
}

// SearchVectorsOutput is SearchVectors' response: the nearest items,
// most similar first. ConsumedCapacity is a VectorCapacity, not the
// ConsumedCapacity the other operations report.
type SearchVectorsOutput struct {
	SearchResults    []SearchResultItem
	ConsumedCapacity *VectorCapacity
}

// SearchResultItem is one result of SearchVectors: the item's attributes
// the index projects and its score under the index's distance function
// (a JSON double).
type SearchResultItem struct {
	Item  attr.Item
	Score float64
}

// VectorCapacity is the capacity a vector operation consumed, in bytes
// rather than capacity units. A search reports VectorSearchRequestBytes
// only.
type VectorCapacity struct {
	VectorSearchRequestBytes *float64
	VectorWriteRequestBytes  *float64
}
