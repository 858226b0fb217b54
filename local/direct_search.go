package local

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/dynamo"
)

// SearchVectors is (*dynamodb.Client).SearchVectors on the engine.
func (c *Direct) SearchVectors(ctx context.Context, in *dynamodb.SearchVectorsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.SearchVectorsOutput, error) {
	var req dynamo.SearchVectorsInput
	return call(&c.conn, ctx, "SearchVectors", in, optFns, (*dynamodb.Client).SearchVectors, func(in *dynamodb.SearchVectorsInput) bool {
		vector, ok1 := toValues(in.SearchVector)
		values, ok2 := toItem(in.ExpressionAttributeValues)
		bound := jsonBound(in.ExpressionAttributeValues)
		for _, av := range in.SearchVector {
			bound += valueBound(av)
		}
		if !ok1 || !ok2 ||
			!validStrings(in.TableName, in.IndexName, in.SearchConditionExpression, in.ProjectionExpression) ||
			!validNames(in.ExpressionAttributeNames) || !validText(string(in.ReturnConsumedCapacity)) ||
			bound > c.limit {
			return false
		}
		req = dynamo.SearchVectorsInput{
			SearchVector:              vector,
			TopK:                      in.TopK,
			ReturnConsumedCapacity:    string(in.ReturnConsumedCapacity),
			ExpressionAttributeNames:  in.ExpressionAttributeNames,
			ExpressionAttributeValues: values,
		}
		var ok bool
		req.TableName, ok = str(in.TableName)
		req.NoTableName = !ok
		req.IndexName, ok = str(in.IndexName)
		req.NoIndexName = !ok
		req.SearchConditionExpression = expr(in.SearchConditionExpression, &req.EmptyExpressions, dynamo.ExprSearchCondition)
		req.ProjectionExpression = expr(in.ProjectionExpression, &req.EmptyExpressions, dynamo.ExprProjection)
		return true
	}, func() (*dynamodb.SearchVectorsOutput, error) {
		out, err := c.db.SearchVectors(&req)
		if err != nil {
			return nil, err
		}
		results := make([]types.SearchResultItem, len(out.SearchResults))
		for i, r := range out.SearchResults {
			results[i] = types.SearchResultItem{Item: fromItem(r.Item), Score: r.Score}
		}
		var cc *types.VectorCapacity
		if v := out.ConsumedCapacity; v != nil {
			cc = &types.VectorCapacity{VectorSearchRequestBytes: v.VectorSearchRequestBytes, VectorWriteRequestBytes: v.VectorWriteRequestBytes}
		}
		return &dynamodb.SearchVectorsOutput{SearchResults: results, ConsumedCapacity: cc}, nil
	})
}
