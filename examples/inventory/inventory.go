// Package inventory keeps stock counts per warehouse in DynamoDB. It is
// ordinary application code written against the AWS SDK's
// *dynamodb.Client, with nothing of dynago in it; its tests
// (inventory_test.go) run it on an in-process dynago, a fresh database
// per test, with package dynagotest. Copy both into a project of your own
// and they work the same there.
package inventory

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Stock is the count of one product (SKU) in one warehouse: the table's
// partition key is the warehouse, its sort key the SKU.
type Stock struct {
	Warehouse string `dynamodbav:"warehouse"`
	SKU       string `dynamodbav:"sku"`
	Name      string `dynamodbav:"name"`
	Qty       int    `dynamodbav:"qty"`
}

// Errors of the store's operations.
var (
	ErrExists = errors.New("inventory: the product is already stocked in this warehouse")
	ErrShort  = errors.New("inventory: not enough stock")
)

// Store reads and writes stock in a DynamoDB table.
type Store struct {
	DB    *dynamodb.Client
	Table string
}

// Add records a product new to a warehouse; it fails with ErrExists if
// the warehouse already stocks it.
func (s *Store) Add(ctx context.Context, st Stock) error {
	item, err := attributevalue.MarshalMap(st)
	if err != nil {
		return err
	}
	_, err = s.DB.PutItem(ctx, &dynamodb.PutItemInput{
		TableName:           aws.String(s.Table),
		Item:                item,
		ConditionExpression: aws.String("attribute_not_exists(sku)"),
	})
	var ccf *types.ConditionalCheckFailedException
	if errors.As(err, &ccf) {
		return ErrExists
	}
	return err
}

// Take removes n units of a product from a warehouse and returns how many
// are left. It takes nothing, and fails with ErrShort, if fewer than n are
// there: the check and the decrement are one conditional update, so two
// concurrent orders can never both take the last unit.
func (s *Store) Take(ctx context.Context, warehouse, sku string, n int) (int, error) {
	update := expression.Set(expression.Name("qty"), expression.Name("qty").Minus(expression.Value(n)))
	cond := expression.Name("qty").GreaterThanEqual(expression.Value(n))
	expr, err := expression.NewBuilder().WithUpdate(update).WithCondition(cond).Build()
	if err != nil {
		return 0, err
	}
	out, err := s.DB.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                           aws.String(s.Table),
		Key:                                 key(warehouse, sku),
		UpdateExpression:                    expr.Update(),
		ConditionExpression:                 expr.Condition(),
		ExpressionAttributeNames:            expr.Names(),
		ExpressionAttributeValues:           expr.Values(),
		ReturnValues:                        types.ReturnValueUpdatedNew,
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
	})
	var ccf *types.ConditionalCheckFailedException
	if errors.As(err, &ccf) {
		if ccf.Item == nil {
			return 0, fmt.Errorf("%w: %s is not stocked in %s", ErrShort, sku, warehouse)
		}
		var st Stock
		if err := attributevalue.UnmarshalMap(ccf.Item, &st); err != nil {
			return 0, err
		}
		return st.Qty, fmt.Errorf("%w: %d of %s left in %s, %d asked", ErrShort, st.Qty, sku, warehouse, n)
	}
	if err != nil {
		return 0, err
	}
	var left struct {
		Qty int `dynamodbav:"qty"`
	}
	err = attributevalue.UnmarshalMap(out.Attributes, &left)
	return left.Qty, err
}

// Warehouse lists a warehouse's stock in SKU order, reading as many pages
// as it takes, pageSize items a page.
func (s *Store) Warehouse(ctx context.Context, warehouse string, pageSize int32) ([]Stock, error) {
	keyCond := expression.Key("warehouse").Equal(expression.Value(warehouse))
	expr, err := expression.NewBuilder().WithKeyCondition(keyCond).Build()
	if err != nil {
		return nil, err
	}
	p := dynamodb.NewQueryPaginator(s.DB, &dynamodb.QueryInput{
		TableName:                 aws.String(s.Table),
		KeyConditionExpression:    expr.KeyCondition(),
		ExpressionAttributeNames:  expr.Names(),
		ExpressionAttributeValues: expr.Values(),
		Limit:                     aws.Int32(pageSize),
	})
	var all []Stock
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		var stocks []Stock
		if err := attributevalue.UnmarshalListOfMaps(page.Items, &stocks); err != nil {
			return nil, err
		}
		all = append(all, stocks...)
	}
	return all, nil
}

func key(warehouse, sku string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{
		"warehouse": &types.AttributeValueMemberS{Value: warehouse},
		"sku":       &types.AttributeValueMemberS{Value: sku},
	}
}
