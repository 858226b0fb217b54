package dynamo

import (
	"github.com/dynago/dynago/attr"
)

// Request and response shapes of TransactWriteItems and TransactGetItems,
// field for field as in DynamoDB's API reference.

// TransactWriteItemsInput is TransactWriteItems' request.
type TransactWriteItemsInput struct {
	TransactItems               []TransactWriteItem
	ReturnConsumedCapacity      string
	ReturnItemCollectionMetrics string
	ClientRequestToken          string
	// ClientRequestTokenSet is true when the request carried the member,
	// even as "" (which DynamoDB refuses as too short).
	ClientRequestTokenSet bool
}

// TransactWriteItem is one action: exactly one member is set.
type TransactWriteItem struct {
	ConditionCheck *TransactConditionCheck
	Put            *TransactPut
	Update         *TransactUpdate
	Delete         *TransactDelete
	// ValueError and ExprValueError are the first malformed attribute
	// values the protocol decoder met in the action's Key or Item and in
	// its ExpressionAttributeValues (see placedValue in
	// validation_order.go).
	ValueError, ExprValueError error
}

// TransactConditionCheck checks a condition on an item without writing it.
type TransactConditionCheck struct {
	TableName                           string
	Key                                 attr.Item
	ConditionExpression                 string
	ExpressionAttributeNames            map[string]string
	ExpressionAttributeValues           attr.Item
	ReturnValuesOnConditionCheckFailure string
	EmptyExpressions                    Exprs
}

// TransactPut creates or replaces an item.
type TransactPut struct {
	TableName                           string
	Item                                attr.Item
	ConditionExpression                 string
	ExpressionAttributeNames            map[string]string
	ExpressionAttributeValues           attr.Item
	ReturnValuesOnConditionCheckFailure string
	EmptyExpressions                    Exprs
}

// TransactUpdate updates an item, creating it if it does not exist.
type TransactUpdate struct {
	TableName                           string
	Key                                 attr.Item
	UpdateExpression                    string
	ConditionExpression                 string
	ExpressionAttributeNames            map[string]string
	ExpressionAttributeValues           attr.Item
	ReturnValuesOnConditionCheckFailure string
	EmptyExpressions                    Exprs
}

// TransactDelete deletes an item.
type TransactDelete struct {
	TableName                           string
	Key                                 attr.Item
	ConditionExpression                 string
	ExpressionAttributeNames            map[string]string
	ExpressionAttributeValues           attr.Item
	ReturnValuesOnConditionCheckFailure string
	EmptyExpressions                    Exprs
}

// TransactWriteItemsOutput is TransactWriteItems' response.
type TransactWriteItemsOutput struct {
	ConsumedCapacity      []ConsumedCapacity
	ItemCollectionMetrics map[string][]ItemCollectionMetrics
}

// TransactGetItemsInput is TransactGetItems' request.
type TransactGetItemsInput struct {
	TransactItems          []TransactGetItem
	ReturnConsumedCapacity string
}

// TransactGetItem is one read; Get is nil when the request left it out.
type TransactGetItem struct {
	Get *TransactGet
}

// TransactGet reads one item.
type TransactGet struct {
	TableName                string
	Key                      attr.Item
	ProjectionExpression     string
	ExpressionAttributeNames map[string]string
	EmptyExpressions         Exprs
	// ValueError is the first malformed attribute value the protocol
	// decoder met in Key (see placedValue in validation_order.go).
	ValueError error
}

// TransactGetItemsOutput is TransactGetItems' response: one ItemResponse
// per Get, in request order, with a nil Item for an item that does not
// exist or has none of the attributes its projection names.
type TransactGetItemsOutput struct {
	Responses        []ItemResponse
	ConsumedCapacity []ConsumedCapacity
}

// ItemResponse is one item read by TransactGetItems.
type ItemResponse struct {
	Item attr.Item
}
