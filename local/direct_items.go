package local

import (
	"context"
	"sync"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
)

// The item operations of the direct path. Each converts the SDK's input
// to the request the protocol decoder would build from the SDK's JSON
// for it (server/internal/protocol: member presence, empty expressions, nil
// against empty), or reports that it leaves the input to the SDK's path.

// keyPool holds GetItem's keys for reuse: a key is a map of the engine's
// 128-byte values, the largest allocation of a direct GetItem, and the
// engine keeps nothing of it once GetItem returns.
var keyPool = sync.Pool{New: func() any { return make(attr.Item, 2) }}

// pooledKey is toItem into a map from keyPool; releaseKey returns it.
func pooledKey(m map[string]types.AttributeValue) (attr.Item, bool) {
	if m == nil || len(m) > 8 {
		return toItem(m)
	}
	key := keyPool.Get().(attr.Item)
	for k, av := range m {
		v, ok := toValue(av, 0)
		if !ok || !utf8.ValidString(k) {
			releaseKey(key)
			return nil, false
		}
		key[k] = v
	}
	return key, true
}

func releaseKey(key attr.Item) {
	if key == nil || len(key) > 8 {
		return
	}
	clear(key)
	keyPool.Put(key)
}

// GetItem is (*dynamodb.Client).GetItem on the engine.
func (c *Direct) GetItem(ctx context.Context, in *dynamodb.GetItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	var req dynamo.GetItemInput
	var key attr.Item
	defer func() { releaseKey(key) }()
	return call(&c.conn, ctx, "GetItem", in, optFns, (*dynamodb.Client).GetItem, func(in *dynamodb.GetItemInput) bool {
		var ok bool
		key, ok = pooledKey(in.Key)
		if !ok || !validStrings(in.TableName, in.ProjectionExpression) || !validNames(in.ExpressionAttributeNames) ||
			!validList(in.AttributesToGet) || !validText(string(in.ReturnConsumedCapacity)) || jsonBound(in.Key) > c.limit {
			return false
		}
		req = dynamo.GetItemInput{
			Key:                      key,
			ConsistentRead:           boolValue(in.ConsistentRead),
			AttributesToGet:          in.AttributesToGet,
			ExpressionAttributeNames: in.ExpressionAttributeNames,
			ReturnConsumedCapacity:   string(in.ReturnConsumedCapacity),
		}
		req.TableName, ok = str(in.TableName)
		req.NoTableName = !ok
		req.ProjectionExpression = expr(in.ProjectionExpression, &req.EmptyExpressions, dynamo.ExprProjection)
		return true
	}, func() (*dynamodb.GetItemOutput, error) {
		out, err := c.db.GetItem(&req)
		if err != nil {
			return nil, err
		}
		return &dynamodb.GetItemOutput{Item: fromItem(out.Item), ConsumedCapacity: fromConsumed(out.ConsumedCapacity)}, nil
	})
}

// PutItem is (*dynamodb.Client).PutItem on the engine.
func (c *Direct) PutItem(ctx context.Context, in *dynamodb.PutItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	var req dynamo.PutItemInput
	return call(&c.conn, ctx, "PutItem", in, optFns, (*dynamodb.Client).PutItem, func(in *dynamodb.PutItemInput) bool {
		item, ok1 := toItem(in.Item)
		values, ok2 := toItem(in.ExpressionAttributeValues)
		if !ok1 || !ok2 || in.Expected != nil || !validStrings(in.TableName, in.ConditionExpression) ||
			!validNames(in.ExpressionAttributeNames) || !validText(string(in.ConditionalOperator), string(in.ReturnValues),
			string(in.ReturnConsumedCapacity), string(in.ReturnItemCollectionMetrics), string(in.ReturnValuesOnConditionCheckFailure)) ||
			jsonBound(in.Item)+jsonBound(in.ExpressionAttributeValues) > c.limit {
			return false
		}
		req = dynamo.PutItemInput{
			Item:                                item,
			ExpressionAttributeNames:            in.ExpressionAttributeNames,
			ExpressionAttributeValues:           values,
			ConditionalOperator:                 string(in.ConditionalOperator),
			ReturnValues:                        string(in.ReturnValues),
			ReturnConsumedCapacity:              string(in.ReturnConsumedCapacity),
			ReturnItemCollectionMetrics:         string(in.ReturnItemCollectionMetrics),
			ReturnValuesOnConditionCheckFailure: string(in.ReturnValuesOnConditionCheckFailure),
		}
		var ok bool
		req.TableName, ok = str(in.TableName)
		req.NoTableName = !ok
		req.ConditionExpression = expr(in.ConditionExpression, &req.EmptyExpressions, dynamo.ExprCondition)
		return true
	}, func() (*dynamodb.PutItemOutput, error) {
		out, err := c.db.PutItem(&req)
		if err != nil {
			return nil, err
		}
		return &dynamodb.PutItemOutput{
			Attributes:            fromItem(out.Attributes),
			ConsumedCapacity:      fromConsumed(out.ConsumedCapacity),
			ItemCollectionMetrics: fromMetrics(out.ItemCollectionMetrics),
		}, nil
	})
}

// DeleteItem is (*dynamodb.Client).DeleteItem on the engine.
func (c *Direct) DeleteItem(ctx context.Context, in *dynamodb.DeleteItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	var req dynamo.DeleteItemInput
	return call(&c.conn, ctx, "DeleteItem", in, optFns, (*dynamodb.Client).DeleteItem, func(in *dynamodb.DeleteItemInput) bool {
		key, ok1 := toItem(in.Key)
		values, ok2 := toItem(in.ExpressionAttributeValues)
		if !ok1 || !ok2 || in.Expected != nil || !validStrings(in.TableName, in.ConditionExpression) ||
			!validNames(in.ExpressionAttributeNames) || !validText(string(in.ConditionalOperator), string(in.ReturnValues),
			string(in.ReturnConsumedCapacity), string(in.ReturnItemCollectionMetrics), string(in.ReturnValuesOnConditionCheckFailure)) ||
			jsonBound(in.Key)+jsonBound(in.ExpressionAttributeValues) > c.limit {
			return false
		}
		req = dynamo.DeleteItemInput{
			Key:                                 key,
			ExpressionAttributeNames:            in.ExpressionAttributeNames,
			ExpressionAttributeValues:           values,
			ConditionalOperator:                 string(in.ConditionalOperator),
			ReturnValues:                        string(in.ReturnValues),
			ReturnConsumedCapacity:              string(in.ReturnConsumedCapacity),
			ReturnItemCollectionMetrics:         string(in.ReturnItemCollectionMetrics),
			ReturnValuesOnConditionCheckFailure: string(in.ReturnValuesOnConditionCheckFailure),
		}
		var ok bool
		req.TableName, ok = str(in.TableName)
		req.NoTableName = !ok
		req.ConditionExpression = expr(in.ConditionExpression, &req.EmptyExpressions, dynamo.ExprCondition)
		return true
	}, func() (*dynamodb.DeleteItemOutput, error) {
		out, err := c.db.DeleteItem(&req)
		if err != nil {
			return nil, err
		}
		return &dynamodb.DeleteItemOutput{
			Attributes:            fromItem(out.Attributes),
			ConsumedCapacity:      fromConsumed(out.ConsumedCapacity),
			ItemCollectionMetrics: fromMetrics(out.ItemCollectionMetrics),
		}, nil
	})
}

// UpdateItem is (*dynamodb.Client).UpdateItem on the engine.
func (c *Direct) UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	var req dynamo.UpdateItemInput
	return call(&c.conn, ctx, "UpdateItem", in, optFns, (*dynamodb.Client).UpdateItem, func(in *dynamodb.UpdateItemInput) bool {
		key, ok1 := toItem(in.Key)
		values, ok2 := toItem(in.ExpressionAttributeValues)
		if !ok1 || !ok2 || in.Expected != nil || in.AttributeUpdates != nil ||
			!validStrings(in.TableName, in.UpdateExpression, in.ConditionExpression) ||
			!validNames(in.ExpressionAttributeNames) || !validText(string(in.ConditionalOperator), string(in.ReturnValues),
			string(in.ReturnConsumedCapacity), string(in.ReturnItemCollectionMetrics), string(in.ReturnValuesOnConditionCheckFailure)) ||
			jsonBound(in.Key)+jsonBound(in.ExpressionAttributeValues) > c.limit {
			return false
		}
		req = dynamo.UpdateItemInput{
			Key:                                 key,
			ExpressionAttributeNames:            in.ExpressionAttributeNames,
			ExpressionAttributeValues:           values,
			ConditionalOperator:                 string(in.ConditionalOperator),
			ReturnValues:                        string(in.ReturnValues),
			ReturnConsumedCapacity:              string(in.ReturnConsumedCapacity),
			ReturnItemCollectionMetrics:         string(in.ReturnItemCollectionMetrics),
			ReturnValuesOnConditionCheckFailure: string(in.ReturnValuesOnConditionCheckFailure),
		}
		var ok bool
		req.TableName, ok = str(in.TableName)
		req.NoTableName = !ok
		req.UpdateExpression = expr(in.UpdateExpression, &req.EmptyExpressions, dynamo.ExprUpdate)
		req.ConditionExpression = expr(in.ConditionExpression, &req.EmptyExpressions, dynamo.ExprCondition)
		return true
	}, func() (*dynamodb.UpdateItemOutput, error) {
		out, err := c.db.UpdateItem(&req)
		if err != nil {
			return nil, err
		}
		return &dynamodb.UpdateItemOutput{
			Attributes:            fromItem(out.Attributes),
			ConsumedCapacity:      fromConsumed(out.ConsumedCapacity),
			ItemCollectionMetrics: fromMetrics(out.ItemCollectionMetrics),
		}, nil
	})
}

// Query is (*dynamodb.Client).Query on the engine.
func (c *Direct) Query(ctx context.Context, in *dynamodb.QueryInput, optFns ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	var req dynamo.QueryInput
	return call(&c.conn, ctx, "Query", in, optFns, (*dynamodb.Client).Query, func(in *dynamodb.QueryInput) bool {
		start, ok1 := toItem(in.ExclusiveStartKey)
		values, ok2 := toItem(in.ExpressionAttributeValues)
		if !ok1 || !ok2 || in.KeyConditions != nil || in.QueryFilter != nil ||
			!validStrings(in.TableName, in.IndexName, in.ProjectionExpression, in.FilterExpression, in.KeyConditionExpression) ||
			!validNames(in.ExpressionAttributeNames) || !validList(in.AttributesToGet) ||
			!validText(string(in.Select), string(in.ConditionalOperator), string(in.ReturnConsumedCapacity)) ||
			jsonBound(in.ExclusiveStartKey)+jsonBound(in.ExpressionAttributeValues) > c.limit {
			return false
		}
		req = dynamo.QueryInput{
			Select:                    string(in.Select),
			AttributesToGet:           in.AttributesToGet,
			Limit:                     in.Limit,
			ConsistentRead:            boolValue(in.ConsistentRead),
			ConditionalOperator:       string(in.ConditionalOperator),
			ScanIndexForward:          in.ScanIndexForward,
			ExclusiveStartKey:         start,
			ReturnConsumedCapacity:    string(in.ReturnConsumedCapacity),
			ExpressionAttributeNames:  in.ExpressionAttributeNames,
			ExpressionAttributeValues: values,
		}
		var ok bool
		req.TableName, ok = str(in.TableName)
		req.NoTableName = !ok
		req.IndexName, _ = str(in.IndexName)
		req.ProjectionExpression = expr(in.ProjectionExpression, &req.EmptyExpressions, dynamo.ExprProjection)
		req.FilterExpression = expr(in.FilterExpression, &req.EmptyExpressions, dynamo.ExprFilter)
		req.KeyConditionExpression = expr(in.KeyConditionExpression, &req.EmptyExpressions, dynamo.ExprKeyCondition)
		return true
	}, func() (*dynamodb.QueryOutput, error) {
		out, err := c.db.Query(&req)
		if err != nil {
			return nil, err
		}
		return &dynamodb.QueryOutput{
			Items:            fromItems(out.Items),
			Count:            int32(out.Count),
			ScannedCount:     int32(out.ScannedCount),
			LastEvaluatedKey: fromItem(out.LastEvaluatedKey),
			ConsumedCapacity: fromConsumed(out.ConsumedCapacity),
		}, nil
	})
}

// Scan is (*dynamodb.Client).Scan on the engine.
func (c *Direct) Scan(ctx context.Context, in *dynamodb.ScanInput, optFns ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	var req dynamo.ScanInput
	return call(&c.conn, ctx, "Scan", in, optFns, (*dynamodb.Client).Scan, func(in *dynamodb.ScanInput) bool {
		start, ok1 := toItem(in.ExclusiveStartKey)
		values, ok2 := toItem(in.ExpressionAttributeValues)
		if !ok1 || !ok2 || in.ScanFilter != nil ||
			!validStrings(in.TableName, in.IndexName, in.ProjectionExpression, in.FilterExpression) ||
			!validNames(in.ExpressionAttributeNames) || !validList(in.AttributesToGet) ||
			!validText(string(in.Select), string(in.ConditionalOperator), string(in.ReturnConsumedCapacity)) ||
			jsonBound(in.ExclusiveStartKey)+jsonBound(in.ExpressionAttributeValues) > c.limit {
			return false
		}
		req = dynamo.ScanInput{
			AttributesToGet:           in.AttributesToGet,
			Limit:                     in.Limit,
			Select:                    string(in.Select),
			ConditionalOperator:       string(in.ConditionalOperator),
			ExclusiveStartKey:         start,
			ReturnConsumedCapacity:    string(in.ReturnConsumedCapacity),
			TotalSegments:             in.TotalSegments,
			Segment:                   in.Segment,
			ExpressionAttributeNames:  in.ExpressionAttributeNames,
			ExpressionAttributeValues: values,
			ConsistentRead:            boolValue(in.ConsistentRead),
		}
		var ok bool
		req.TableName, ok = str(in.TableName)
		req.NoTableName = !ok
		req.IndexName, _ = str(in.IndexName)
		req.ProjectionExpression = expr(in.ProjectionExpression, &req.EmptyExpressions, dynamo.ExprProjection)
		req.FilterExpression = expr(in.FilterExpression, &req.EmptyExpressions, dynamo.ExprFilter)
		return true
	}, func() (*dynamodb.ScanOutput, error) {
		out, err := c.db.Scan(&req)
		if err != nil {
			return nil, err
		}
		return &dynamodb.ScanOutput{
			Items:            fromItems(out.Items),
			Count:            int32(out.Count),
			ScannedCount:     int32(out.ScannedCount),
			LastEvaluatedKey: fromItem(out.LastEvaluatedKey),
			ConsumedCapacity: fromConsumed(out.ConsumedCapacity),
		}, nil
	})
}

// BatchGetItem is (*dynamodb.Client).BatchGetItem on the engine.
func (c *Direct) BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	var req dynamo.BatchGetItemInput
	return call(&c.conn, ctx, "BatchGetItem", in, optFns, (*dynamodb.Client).BatchGetItem, func(in *dynamodb.BatchGetItemInput) bool {
		if !validInput(in, c.limit) {
			return false
		}
		req = dynamo.BatchGetItemInput{ReturnConsumedCapacity: string(in.ReturnConsumedCapacity)}
		if in.RequestItems != nil {
			req.RequestItems = make(map[string]dynamo.KeysAndAttributes, len(in.RequestItems))
			for table, ka := range in.RequestItems {
				k := dynamo.KeysAndAttributes{
					AttributesToGet:          ka.AttributesToGet,
					ConsistentRead:           boolValue(ka.ConsistentRead),
					ExpressionAttributeNames: ka.ExpressionAttributeNames,
				}
				k.ProjectionExpression = expr(ka.ProjectionExpression, &k.EmptyExpressions, dynamo.ExprProjection)
				if ka.Keys != nil {
					k.Keys = make([]attr.Item, len(ka.Keys))
					for i, key := range ka.Keys {
						var ok bool
						if k.Keys[i], ok = toItem(key); !ok {
							return false
						}
						if k.Keys[i] == nil {
							k.Keys[i] = attr.Item{} // the SDK sends a nil key as {}
						}
					}
				}
				req.RequestItems[table] = k
			}
		}
		return true
	}, func() (*dynamodb.BatchGetItemOutput, error) {
		out, err := c.db.BatchGetItem(&req)
		if err != nil {
			return nil, err
		}
		return fromBatchGetItem(out), nil
	})
}

func fromBatchGetItem(out *dynamo.BatchGetItemOutput) *dynamodb.BatchGetItemOutput {
	res := &dynamodb.BatchGetItemOutput{
		Responses:        make(map[string][]map[string]types.AttributeValue, len(out.Responses)),
		UnprocessedKeys:  make(map[string]types.KeysAndAttributes, len(out.UnprocessedKeys)),
		ConsumedCapacity: fromConsumedList(out.ConsumedCapacity),
	}
	for table, items := range out.Responses {
		list := fromItems(items)
		if list == nil {
			list = []map[string]types.AttributeValue{}
		}
		res.Responses[table] = list
	}
	for table, k := range out.UnprocessedKeys {
		ka := types.KeysAndAttributes{
			AttributesToGet:          k.AttributesToGet,
			ExpressionAttributeNames: k.ExpressionAttributeNames,
			ProjectionExpression:     optString(k.ProjectionExpression),
			Keys:                     make([]map[string]types.AttributeValue, len(k.Keys)),
		}
		if k.ConsistentRead {
			t := true
			ka.ConsistentRead = &t
		}
		for i, key := range k.Keys {
			ka.Keys[i] = fromItem(key)
			if ka.Keys[i] == nil {
				ka.Keys[i] = map[string]types.AttributeValue{}
			}
		}
		res.UnprocessedKeys[table] = ka
	}
	return res
}

// BatchWriteItem is (*dynamodb.Client).BatchWriteItem on the engine.
func (c *Direct) BatchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	var req dynamo.BatchWriteItemInput
	return call(&c.conn, ctx, "BatchWriteItem", in, optFns, (*dynamodb.Client).BatchWriteItem, func(in *dynamodb.BatchWriteItemInput) bool {
		if !validInput(in, c.limit) {
			return false
		}
		req = dynamo.BatchWriteItemInput{
			ReturnConsumedCapacity:      string(in.ReturnConsumedCapacity),
			ReturnItemCollectionMetrics: string(in.ReturnItemCollectionMetrics),
		}
		if in.RequestItems != nil {
			req.RequestItems = make(map[string][]dynamo.WriteRequest, len(in.RequestItems))
			for table, list := range in.RequestItems {
				reqs := make([]dynamo.WriteRequest, len(list)) // the SDK sends a nil list as []
				for i, w := range list {
					if w.PutRequest != nil {
						it, ok := toItem(w.PutRequest.Item)
						if !ok {
							return false
						}
						reqs[i].PutRequest = &dynamo.PutRequest{Item: it}
					}
					if w.DeleteRequest != nil {
						key, ok := toItem(w.DeleteRequest.Key)
						if !ok {
							return false
						}
						reqs[i].DeleteRequest = &dynamo.DeleteRequest{Key: key}
					}
				}
				req.RequestItems[table] = reqs
			}
		}
		return true
	}, func() (*dynamodb.BatchWriteItemOutput, error) {
		out, err := c.db.BatchWriteItem(&req)
		if err != nil {
			return nil, err
		}
		return fromBatchWriteItem(out), nil
	})
}

func fromBatchWriteItem(out *dynamo.BatchWriteItemOutput) *dynamodb.BatchWriteItemOutput {
	res := &dynamodb.BatchWriteItemOutput{
		UnprocessedItems:      make(map[string][]types.WriteRequest, len(out.UnprocessedItems)),
		ConsumedCapacity:      fromConsumedList(out.ConsumedCapacity),
		ItemCollectionMetrics: fromMetricsMap(out.ItemCollectionMetrics),
	}
	for table, list := range out.UnprocessedItems {
		ws := make([]types.WriteRequest, len(list))
		for i, w := range list {
			if w.PutRequest != nil {
				ws[i].PutRequest = &types.PutRequest{Item: nonNil(fromItem(w.PutRequest.Item))}
			}
			if w.DeleteRequest != nil {
				ws[i].DeleteRequest = &types.DeleteRequest{Key: nonNil(fromItem(w.DeleteRequest.Key))}
			}
		}
		res.UnprocessedItems[table] = ws
	}
	return res
}

func nonNil(m map[string]types.AttributeValue) map[string]types.AttributeValue {
	if m == nil {
		return map[string]types.AttributeValue{}
	}
	return m
}

// TransactGetItems is (*dynamodb.Client).TransactGetItems on the engine.
func (c *Direct) TransactGetItems(ctx context.Context, in *dynamodb.TransactGetItemsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.TransactGetItemsOutput, error) {
	var req dynamo.TransactGetItemsInput
	return call(&c.conn, ctx, "TransactGetItems", in, optFns, (*dynamodb.Client).TransactGetItems, func(in *dynamodb.TransactGetItemsInput) bool {
		if !validInput(in, c.limit) {
			return false
		}
		req = dynamo.TransactGetItemsInput{ReturnConsumedCapacity: string(in.ReturnConsumedCapacity)}
		if in.TransactItems != nil {
			req.TransactItems = make([]dynamo.TransactGetItem, len(in.TransactItems))
			for i, ti := range in.TransactItems {
				g := ti.Get
				if g == nil {
					continue
				}
				key, ok := toItem(g.Key)
				if !ok {
					return false
				}
				x := &dynamo.TransactGet{Key: key, ExpressionAttributeNames: g.ExpressionAttributeNames}
				x.TableName, _ = str(g.TableName)
				x.ProjectionExpression = expr(g.ProjectionExpression, &x.EmptyExpressions, dynamo.ExprProjection)
				req.TransactItems[i].Get = x
			}
		}
		return true
	}, func() (*dynamodb.TransactGetItemsOutput, error) {
		out, err := c.db.TransactGetItems(&req)
		if err != nil {
			return nil, err
		}
		res := &dynamodb.TransactGetItemsOutput{ConsumedCapacity: fromConsumedList(out.ConsumedCapacity)}
		if out.Responses != nil {
			res.Responses = make([]types.ItemResponse, len(out.Responses))
			for i, r := range out.Responses {
				res.Responses[i].Item = fromItem(r.Item)
			}
		}
		return res, nil
	})
}

// TransactWriteItems is (*dynamodb.Client).TransactWriteItems on the
// engine.
func (c *Direct) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	// The token is set before the envelope's checks, as the SDK sets it
	// before its validation.
	if in == nil {
		in = &dynamodb.TransactWriteItemsInput{}
	}
	if err := c.token("TransactWriteItems", &in.ClientRequestToken); err != nil {
		return nil, err
	}
	var req dynamo.TransactWriteItemsInput
	return call(&c.conn, ctx, "TransactWriteItems", in, optFns, (*dynamodb.Client).TransactWriteItems, func(in *dynamodb.TransactWriteItemsInput) bool {
		if !validInput(in, c.limit) {
			return false
		}
		req = dynamo.TransactWriteItemsInput{
			ReturnConsumedCapacity:      string(in.ReturnConsumedCapacity),
			ReturnItemCollectionMetrics: string(in.ReturnItemCollectionMetrics),
		}
		req.ClientRequestToken, req.ClientRequestTokenSet = str(in.ClientRequestToken)
		if in.TransactItems != nil {
			req.TransactItems = make([]dynamo.TransactWriteItem, len(in.TransactItems))
			for i := range in.TransactItems {
				if !transactWriteItem(&in.TransactItems[i], &req.TransactItems[i]) {
					return false
				}
			}
		}
		return true
	}, func() (*dynamodb.TransactWriteItemsOutput, error) {
		out, err := c.db.TransactWriteItems(&req)
		if err != nil {
			return nil, err
		}
		return &dynamodb.TransactWriteItemsOutput{
			ConsumedCapacity:      fromConsumedList(out.ConsumedCapacity),
			ItemCollectionMetrics: fromMetricsMap(out.ItemCollectionMetrics),
		}, nil
	})
}

// transactWriteItem converts one action of TransactWriteItems into dst
// and reports false when it leaves the request to the SDK's path.
func transactWriteItem(ti *types.TransactWriteItem, dst *dynamo.TransactWriteItem) bool {
	if x := ti.ConditionCheck; x != nil {
		key, ok1 := toItem(x.Key)
		values, ok2 := toItem(x.ExpressionAttributeValues)
		if !ok1 || !ok2 {
			return false
		}
		y := &dynamo.TransactConditionCheck{Key: key, ExpressionAttributeNames: x.ExpressionAttributeNames, ExpressionAttributeValues: values,
			ReturnValuesOnConditionCheckFailure: string(x.ReturnValuesOnConditionCheckFailure)}
		y.TableName, _ = str(x.TableName)
		y.ConditionExpression = expr(x.ConditionExpression, &y.EmptyExpressions, dynamo.ExprCondition)
		dst.ConditionCheck = y
	}
	if x := ti.Put; x != nil {
		item, ok1 := toItem(x.Item)
		values, ok2 := toItem(x.ExpressionAttributeValues)
		if !ok1 || !ok2 {
			return false
		}
		y := &dynamo.TransactPut{Item: item, ExpressionAttributeNames: x.ExpressionAttributeNames, ExpressionAttributeValues: values,
			ReturnValuesOnConditionCheckFailure: string(x.ReturnValuesOnConditionCheckFailure)}
		y.TableName, _ = str(x.TableName)
		y.ConditionExpression = expr(x.ConditionExpression, &y.EmptyExpressions, dynamo.ExprCondition)
		dst.Put = y
	}
	if x := ti.Update; x != nil {
		key, ok1 := toItem(x.Key)
		values, ok2 := toItem(x.ExpressionAttributeValues)
		if !ok1 || !ok2 {
			return false
		}
		y := &dynamo.TransactUpdate{Key: key, ExpressionAttributeNames: x.ExpressionAttributeNames, ExpressionAttributeValues: values,
			ReturnValuesOnConditionCheckFailure: string(x.ReturnValuesOnConditionCheckFailure)}
		y.TableName, _ = str(x.TableName)
		y.UpdateExpression = expr(x.UpdateExpression, &y.EmptyExpressions, dynamo.ExprUpdate)
		y.ConditionExpression = expr(x.ConditionExpression, &y.EmptyExpressions, dynamo.ExprCondition)
		dst.Update = y
	}
	if x := ti.Delete; x != nil {
		key, ok1 := toItem(x.Key)
		values, ok2 := toItem(x.ExpressionAttributeValues)
		if !ok1 || !ok2 {
			return false
		}
		y := &dynamo.TransactDelete{Key: key, ExpressionAttributeNames: x.ExpressionAttributeNames, ExpressionAttributeValues: values,
			ReturnValuesOnConditionCheckFailure: string(x.ReturnValuesOnConditionCheckFailure)}
		y.TableName, _ = str(x.TableName)
		y.ConditionExpression = expr(x.ConditionExpression, &y.EmptyExpressions, dynamo.ExprCondition)
		dst.Delete = y
	}
	return true
}
