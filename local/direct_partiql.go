package local

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/partiql"
)

// PartiQL on the direct path: the statements go to package partiql as
// text, as they do from the protocol decoder, with their parameters
// converted.

// toValues converts a statement's Parameters, keeping nil apart from
// empty; ok as toValue's.
func toValues(list []types.AttributeValue) ([]attr.Value, bool) {
	if list == nil {
		return nil, true
	}
	out := make([]attr.Value, len(list))
	for i, av := range list {
		v, ok := toValue(av, 0)
		if !ok {
			return nil, false
		}
		out[i] = v
	}
	return out, true
}

// ExecuteStatement is (*dynamodb.Client).ExecuteStatement on the engine.
func (c *Direct) ExecuteStatement(ctx context.Context, in *dynamodb.ExecuteStatementInput, optFns ...func(*dynamodb.Options)) (*dynamodb.ExecuteStatementOutput, error) {
	var req dynamo.ExecuteStatementInput
	return call(&c.conn, ctx, "ExecuteStatement", in, optFns, (*dynamodb.Client).ExecuteStatement, func(in *dynamodb.ExecuteStatementInput) bool {
		if !validInput(in, c.limit) {
			return false
		}
		params, ok := toValues(in.Parameters)
		if !ok {
			return false
		}
		req = dynamo.ExecuteStatementInput{
			Parameters:                          params,
			ConsistentRead:                      boolValue(in.ConsistentRead),
			Limit:                               in.Limit,
			ReturnConsumedCapacity:              string(in.ReturnConsumedCapacity),
			ReturnValuesOnConditionCheckFailure: string(in.ReturnValuesOnConditionCheckFailure),
		}
		req.Statement, ok = str(in.Statement)
		req.NoStatement = !ok
		req.NextToken, req.NextTokenSet = str(in.NextToken)
		return true
	}, func() (*dynamodb.ExecuteStatementOutput, error) {
		out, err := partiql.ExecuteStatement(c.db, &req)
		if err != nil {
			return nil, err
		}
		items := fromItems(out.Items)
		if items == nil {
			items = []map[string]types.AttributeValue{}
		}
		return &dynamodb.ExecuteStatementOutput{
			Items:            items,
			NextToken:        optString(out.NextToken),
			LastEvaluatedKey: fromItem(out.LastEvaluatedKey),
			ConsumedCapacity: fromConsumed(out.ConsumedCapacity),
		}, nil
	})
}

// BatchExecuteStatement is (*dynamodb.Client).BatchExecuteStatement on
// the engine.
func (c *Direct) BatchExecuteStatement(ctx context.Context, in *dynamodb.BatchExecuteStatementInput, optFns ...func(*dynamodb.Options)) (*dynamodb.BatchExecuteStatementOutput, error) {
	var req dynamo.BatchExecuteStatementInput
	return call(&c.conn, ctx, "BatchExecuteStatement", in, optFns, (*dynamodb.Client).BatchExecuteStatement, func(in *dynamodb.BatchExecuteStatementInput) bool {
		if !validInput(in, c.limit) {
			return false
		}
		req = dynamo.BatchExecuteStatementInput{ReturnConsumedCapacity: string(in.ReturnConsumedCapacity)}
		if in.Statements != nil {
			req.Statements = make([]dynamo.BatchStatementRequest, len(in.Statements))
			for i, s := range in.Statements {
				params, ok := toValues(s.Parameters)
				if !ok {
					return false
				}
				r := &req.Statements[i]
				r.Parameters = params
				r.ConsistentRead = boolValue(s.ConsistentRead)
				r.ReturnValuesOnConditionCheckFailure = string(s.ReturnValuesOnConditionCheckFailure)
				r.Statement, ok = str(s.Statement)
				r.NoStatement = !ok
			}
		}
		return true
	}, func() (*dynamodb.BatchExecuteStatementOutput, error) {
		out, err := partiql.BatchExecuteStatement(c.db, &req)
		if err != nil {
			return nil, err
		}
		res := &dynamodb.BatchExecuteStatementOutput{
			Responses:        make([]types.BatchStatementResponse, len(out.Responses)),
			ConsumedCapacity: fromConsumedList(out.ConsumedCapacity),
		}
		for i, r := range out.Responses {
			x := &res.Responses[i]
			x.Item = fromItem(r.Item)
			x.TableName = optString(r.TableName)
			if r.Error != nil {
				x.Error = &types.BatchStatementError{
					Code:    types.BatchStatementErrorCodeEnum(r.Error.Code),
					Message: optString(r.Error.Message),
					Item:    fromItem(r.Error.Item),
				}
			}
		}
		return res, nil
	})
}

// ExecuteTransaction is (*dynamodb.Client).ExecuteTransaction on the
// engine.
func (c *Direct) ExecuteTransaction(ctx context.Context, in *dynamodb.ExecuteTransactionInput, optFns ...func(*dynamodb.Options)) (*dynamodb.ExecuteTransactionOutput, error) {
	// The token is set before the envelope's checks, as the SDK sets it
	// before its validation.
	if in == nil {
		in = &dynamodb.ExecuteTransactionInput{}
	}
	if err := c.token("ExecuteTransaction", &in.ClientRequestToken); err != nil {
		return nil, err
	}
	var req dynamo.ExecuteTransactionInput
	return call(&c.conn, ctx, "ExecuteTransaction", in, optFns, (*dynamodb.Client).ExecuteTransaction, func(in *dynamodb.ExecuteTransactionInput) bool {
		if !validInput(in, c.limit) {
			return false
		}
		req = dynamo.ExecuteTransactionInput{ReturnConsumedCapacity: string(in.ReturnConsumedCapacity)}
		req.ClientRequestToken, req.ClientRequestTokenSet = str(in.ClientRequestToken)
		if in.TransactStatements != nil {
			req.TransactStatements = make([]dynamo.ParameterizedStatement, len(in.TransactStatements))
			for i, s := range in.TransactStatements {
				params, ok := toValues(s.Parameters)
				if !ok {
					return false
				}
				r := &req.TransactStatements[i]
				r.Parameters = params
				r.ReturnValuesOnConditionCheckFailure = string(s.ReturnValuesOnConditionCheckFailure)
				r.Statement, ok = str(s.Statement)
				r.NoStatement = !ok
			}
		}
		return true
	}, func() (*dynamodb.ExecuteTransactionOutput, error) {
		out, err := partiql.ExecuteTransaction(c.db, &req)
		if err != nil {
			return nil, err
		}
		res := &dynamodb.ExecuteTransactionOutput{
			Responses:        make([]types.ItemResponse, len(out.Responses)),
			ConsumedCapacity: fromConsumedList(out.ConsumedCapacity),
		}
		for i, r := range out.Responses {
			res.Responses[i].Item = fromItem(r.Item)
		}
		return res, nil
	})
}
