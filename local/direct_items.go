package local

import (
	"context"
	"sync"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/engine"
)

// The item operations of the direct path. Each converts the SDK's input
// to the request the protocol decoder would build from the SDK's JSON
// for it (server/protocol: member presence, empty expressions, nil
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
	if in == nil {
		in = &dynamodb.GetItemInput{}
	}
	key, ok := pooledKey(in.Key)
	defer releaseKey(key)
	if !ok || !validStrings(in.TableName, in.ProjectionExpression) || !validNames(in.ExpressionAttributeNames) ||
		!validList(in.AttributesToGet) || !validText(string(in.ReturnConsumedCapacity)) || jsonBound(in.Key) > c.limit {
		return c.sdk.GetItem(ctx, in, optFns...)
	}
	if c.isClosed() {
		return c.sdk.GetItem(ctx, in, optFns...)
	}
	if err := ctx.Err(); err != nil {
		return nil, canceled("GetItem", err)
	}
	req := &engine.GetItemInput{
		Key:                      key,
		ConsistentRead:           boolValue(in.ConsistentRead),
		AttributesToGet:          in.AttributesToGet,
		ExpressionAttributeNames: in.ExpressionAttributeNames,
		ReturnConsumedCapacity:   string(in.ReturnConsumedCapacity),
	}
	req.TableName, ok = str(in.TableName)
	req.NoTableName = !ok
	req.ProjectionExpression = expr(in.ProjectionExpression, &req.EmptyExpressions, engine.ExprProjection)
	out, err := c.db.GetItem(req)
	if err != nil {
		return nil, c.fail("GetItem", err, func(v *dynamodb.Client) error { _, err := v.GetItem(ctx, in); return err })
	}
	return &dynamodb.GetItemOutput{Item: fromItem(out.Item), ConsumedCapacity: fromConsumed(out.ConsumedCapacity)}, nil
}

// PutItem is (*dynamodb.Client).PutItem on the engine.
func (c *Direct) PutItem(ctx context.Context, in *dynamodb.PutItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	if in == nil {
		in = &dynamodb.PutItemInput{}
	}
	item, ok1 := toItem(in.Item)
	values, ok2 := toItem(in.ExpressionAttributeValues)
	if !ok1 || !ok2 || in.Expected != nil || !validStrings(in.TableName, in.ConditionExpression) ||
		!validNames(in.ExpressionAttributeNames) || !validText(string(in.ConditionalOperator), string(in.ReturnValues),
		string(in.ReturnConsumedCapacity), string(in.ReturnItemCollectionMetrics), string(in.ReturnValuesOnConditionCheckFailure)) ||
		jsonBound(in.Item)+jsonBound(in.ExpressionAttributeValues) > c.limit {
		return c.sdk.PutItem(ctx, in, optFns...)
	}
	if c.isClosed() {
		return c.sdk.PutItem(ctx, in, optFns...)
	}
	if err := ctx.Err(); err != nil {
		return nil, canceled("PutItem", err)
	}
	req := &engine.PutItemInput{
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
	req.ConditionExpression = expr(in.ConditionExpression, &req.EmptyExpressions, engine.ExprCondition)
	out, err := c.db.PutItem(req)
	if err != nil {
		return nil, c.fail("PutItem", err, func(v *dynamodb.Client) error { _, err := v.PutItem(ctx, in); return err })
	}
	return &dynamodb.PutItemOutput{
		Attributes:            fromItem(out.Attributes),
		ConsumedCapacity:      fromConsumed(out.ConsumedCapacity),
		ItemCollectionMetrics: fromMetrics(out.ItemCollectionMetrics),
	}, nil
}

// DeleteItem is (*dynamodb.Client).DeleteItem on the engine.
func (c *Direct) DeleteItem(ctx context.Context, in *dynamodb.DeleteItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	if in == nil {
		in = &dynamodb.DeleteItemInput{}
	}
	key, ok1 := toItem(in.Key)
	values, ok2 := toItem(in.ExpressionAttributeValues)
	if !ok1 || !ok2 || in.Expected != nil || !validStrings(in.TableName, in.ConditionExpression) ||
		!validNames(in.ExpressionAttributeNames) || !validText(string(in.ConditionalOperator), string(in.ReturnValues),
		string(in.ReturnConsumedCapacity), string(in.ReturnItemCollectionMetrics), string(in.ReturnValuesOnConditionCheckFailure)) ||
		jsonBound(in.Key)+jsonBound(in.ExpressionAttributeValues) > c.limit {
		return c.sdk.DeleteItem(ctx, in, optFns...)
	}
	if c.isClosed() {
		return c.sdk.DeleteItem(ctx, in, optFns...)
	}
	if err := ctx.Err(); err != nil {
		return nil, canceled("DeleteItem", err)
	}
	req := &engine.DeleteItemInput{
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
	req.ConditionExpression = expr(in.ConditionExpression, &req.EmptyExpressions, engine.ExprCondition)
	out, err := c.db.DeleteItem(req)
	if err != nil {
		return nil, c.fail("DeleteItem", err, func(v *dynamodb.Client) error { _, err := v.DeleteItem(ctx, in); return err })
	}
	return &dynamodb.DeleteItemOutput{
		Attributes:            fromItem(out.Attributes),
		ConsumedCapacity:      fromConsumed(out.ConsumedCapacity),
		ItemCollectionMetrics: fromMetrics(out.ItemCollectionMetrics),
	}, nil
}

// UpdateItem is (*dynamodb.Client).UpdateItem on the engine.
func (c *Direct) UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	if in == nil {
		in = &dynamodb.UpdateItemInput{}
	}
	key, ok1 := toItem(in.Key)
	values, ok2 := toItem(in.ExpressionAttributeValues)
	if !ok1 || !ok2 || in.Expected != nil || in.AttributeUpdates != nil ||
		!validStrings(in.TableName, in.UpdateExpression, in.ConditionExpression) ||
		!validNames(in.ExpressionAttributeNames) || !validText(string(in.ConditionalOperator), string(in.ReturnValues),
		string(in.ReturnConsumedCapacity), string(in.ReturnItemCollectionMetrics), string(in.ReturnValuesOnConditionCheckFailure)) ||
		jsonBound(in.Key)+jsonBound(in.ExpressionAttributeValues) > c.limit {
		return c.sdk.UpdateItem(ctx, in, optFns...)
	}
	if c.isClosed() {
		return c.sdk.UpdateItem(ctx, in, optFns...)
	}
	if err := ctx.Err(); err != nil {
		return nil, canceled("UpdateItem", err)
	}
	req := &engine.UpdateItemInput{
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
	req.UpdateExpression = expr(in.UpdateExpression, &req.EmptyExpressions, engine.ExprUpdate)
	req.ConditionExpression = expr(in.ConditionExpression, &req.EmptyExpressions, engine.ExprCondition)
	out, err := c.db.UpdateItem(req)
	if err != nil {
		return nil, c.fail("UpdateItem", err, func(v *dynamodb.Client) error { _, err := v.UpdateItem(ctx, in); return err })
	}
	return &dynamodb.UpdateItemOutput{
		Attributes:            fromItem(out.Attributes),
		ConsumedCapacity:      fromConsumed(out.ConsumedCapacity),
		ItemCollectionMetrics: fromMetrics(out.ItemCollectionMetrics),
	}, nil
}

// Query is (*dynamodb.Client).Query on the engine.
func (c *Direct) Query(ctx context.Context, in *dynamodb.QueryInput, optFns ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	if in == nil {
		in = &dynamodb.QueryInput{}
	}
	start, ok1 := toItem(in.ExclusiveStartKey)
	values, ok2 := toItem(in.ExpressionAttributeValues)
	if !ok1 || !ok2 || in.KeyConditions != nil || in.QueryFilter != nil ||
		!validStrings(in.TableName, in.IndexName, in.ProjectionExpression, in.FilterExpression, in.KeyConditionExpression) ||
		!validNames(in.ExpressionAttributeNames) || !validList(in.AttributesToGet) ||
		!validText(string(in.Select), string(in.ConditionalOperator), string(in.ReturnConsumedCapacity)) ||
		jsonBound(in.ExclusiveStartKey)+jsonBound(in.ExpressionAttributeValues) > c.limit {
		return c.sdk.Query(ctx, in, optFns...)
	}
	if c.isClosed() {
		return c.sdk.Query(ctx, in, optFns...)
	}
	if err := ctx.Err(); err != nil {
		return nil, canceled("Query", err)
	}
	req := &engine.QueryInput{
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
	req.ProjectionExpression = expr(in.ProjectionExpression, &req.EmptyExpressions, engine.ExprProjection)
	req.FilterExpression = expr(in.FilterExpression, &req.EmptyExpressions, engine.ExprFilter)
	req.KeyConditionExpression = expr(in.KeyConditionExpression, &req.EmptyExpressions, engine.ExprKeyCondition)
	out, err := c.db.Query(req)
	if err != nil {
		return nil, c.fail("Query", err, func(v *dynamodb.Client) error { _, err := v.Query(ctx, in); return err })
	}
	return &dynamodb.QueryOutput{
		Items:            fromItems(out.Items),
		Count:            int32(out.Count),
		ScannedCount:     int32(out.ScannedCount),
		LastEvaluatedKey: fromItem(out.LastEvaluatedKey),
		ConsumedCapacity: fromConsumed(out.ConsumedCapacity),
	}, nil
}

// Scan is (*dynamodb.Client).Scan on the engine.
func (c *Direct) Scan(ctx context.Context, in *dynamodb.ScanInput, optFns ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	if in == nil {
		in = &dynamodb.ScanInput{}
	}
	start, ok1 := toItem(in.ExclusiveStartKey)
	values, ok2 := toItem(in.ExpressionAttributeValues)
	if !ok1 || !ok2 || in.ScanFilter != nil ||
		!validStrings(in.TableName, in.IndexName, in.ProjectionExpression, in.FilterExpression) ||
		!validNames(in.ExpressionAttributeNames) || !validList(in.AttributesToGet) ||
		!validText(string(in.Select), string(in.ConditionalOperator), string(in.ReturnConsumedCapacity)) ||
		jsonBound(in.ExclusiveStartKey)+jsonBound(in.ExpressionAttributeValues) > c.limit {
		return c.sdk.Scan(ctx, in, optFns...)
	}
	if c.isClosed() {
		return c.sdk.Scan(ctx, in, optFns...)
	}
	if err := ctx.Err(); err != nil {
		return nil, canceled("Scan", err)
	}
	req := &engine.ScanInput{
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
	req.ProjectionExpression = expr(in.ProjectionExpression, &req.EmptyExpressions, engine.ExprProjection)
	req.FilterExpression = expr(in.FilterExpression, &req.EmptyExpressions, engine.ExprFilter)
	out, err := c.db.Scan(req)
	if err != nil {
		return nil, c.fail("Scan", err, func(v *dynamodb.Client) error { _, err := v.Scan(ctx, in); return err })
	}
	return &dynamodb.ScanOutput{
		Items:            fromItems(out.Items),
		Count:            int32(out.Count),
		ScannedCount:     int32(out.ScannedCount),
		LastEvaluatedKey: fromItem(out.LastEvaluatedKey),
		ConsumedCapacity: fromConsumed(out.ConsumedCapacity),
	}, nil
}

// BatchGetItem is (*dynamodb.Client).BatchGetItem on the engine.
func (c *Direct) BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	if in == nil {
		in = &dynamodb.BatchGetItemInput{}
	}
	if !validInput(in, c.limit) {
		return c.sdk.BatchGetItem(ctx, in, optFns...)
	}
	req := &engine.BatchGetItemInput{ReturnConsumedCapacity: string(in.ReturnConsumedCapacity)}
	if in.RequestItems != nil {
		req.RequestItems = make(map[string]engine.KeysAndAttributes, len(in.RequestItems))
		for table, ka := range in.RequestItems {
			k := engine.KeysAndAttributes{
				AttributesToGet:          ka.AttributesToGet,
				ConsistentRead:           boolValue(ka.ConsistentRead),
				ExpressionAttributeNames: ka.ExpressionAttributeNames,
			}
			k.ProjectionExpression = expr(ka.ProjectionExpression, &k.EmptyExpressions, engine.ExprProjection)
			if ka.Keys != nil {
				k.Keys = make([]attr.Item, len(ka.Keys))
				for i, key := range ka.Keys {
					var ok bool
					if k.Keys[i], ok = toItem(key); !ok {
						return c.sdk.BatchGetItem(ctx, in, optFns...)
					}
					if k.Keys[i] == nil {
						k.Keys[i] = attr.Item{} // the SDK sends a nil key as {}
					}
				}
			}
			req.RequestItems[table] = k
		}
	}
	if c.isClosed() {
		return c.sdk.BatchGetItem(ctx, in, optFns...)
	}
	if err := ctx.Err(); err != nil {
		return nil, canceled("BatchGetItem", err)
	}
	out, err := c.db.BatchGetItem(req)
	if err != nil {
		return nil, c.fail("BatchGetItem", err, func(v *dynamodb.Client) error { _, err := v.BatchGetItem(ctx, in); return err })
	}
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
	return res, nil
}

// BatchWriteItem is (*dynamodb.Client).BatchWriteItem on the engine.
func (c *Direct) BatchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	if in == nil {
		in = &dynamodb.BatchWriteItemInput{}
	}
	if !validInput(in, c.limit) {
		return c.sdk.BatchWriteItem(ctx, in, optFns...)
	}
	req := &engine.BatchWriteItemInput{
		ReturnConsumedCapacity:      string(in.ReturnConsumedCapacity),
		ReturnItemCollectionMetrics: string(in.ReturnItemCollectionMetrics),
	}
	if in.RequestItems != nil {
		req.RequestItems = make(map[string][]engine.WriteRequest, len(in.RequestItems))
		for table, list := range in.RequestItems {
			reqs := make([]engine.WriteRequest, len(list)) // the SDK sends a nil list as []
			for i, w := range list {
				if w.PutRequest != nil {
					it, ok := toItem(w.PutRequest.Item)
					if !ok {
						return c.sdk.BatchWriteItem(ctx, in, optFns...)
					}
					reqs[i].PutRequest = &engine.PutRequest{Item: it}
				}
				if w.DeleteRequest != nil {
					key, ok := toItem(w.DeleteRequest.Key)
					if !ok {
						return c.sdk.BatchWriteItem(ctx, in, optFns...)
					}
					reqs[i].DeleteRequest = &engine.DeleteRequest{Key: key}
				}
			}
			req.RequestItems[table] = reqs
		}
	}
	if c.isClosed() {
		return c.sdk.BatchWriteItem(ctx, in, optFns...)
	}
	if err := ctx.Err(); err != nil {
		return nil, canceled("BatchWriteItem", err)
	}
	out, err := c.db.BatchWriteItem(req)
	if err != nil {
		return nil, c.fail("BatchWriteItem", err, func(v *dynamodb.Client) error { _, err := v.BatchWriteItem(ctx, in); return err })
	}
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
	return res, nil
}

func nonNil(m map[string]types.AttributeValue) map[string]types.AttributeValue {
	if m == nil {
		return map[string]types.AttributeValue{}
	}
	return m
}

// TransactGetItems is (*dynamodb.Client).TransactGetItems on the engine.
func (c *Direct) TransactGetItems(ctx context.Context, in *dynamodb.TransactGetItemsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.TransactGetItemsOutput, error) {
	if in == nil {
		in = &dynamodb.TransactGetItemsInput{}
	}
	if !validInput(in, c.limit) {
		return c.sdk.TransactGetItems(ctx, in, optFns...)
	}
	req := &engine.TransactGetItemsInput{ReturnConsumedCapacity: string(in.ReturnConsumedCapacity)}
	if in.TransactItems != nil {
		req.TransactItems = make([]engine.TransactGetItem, len(in.TransactItems))
		for i, ti := range in.TransactItems {
			g := ti.Get
			if g == nil {
				continue
			}
			key, ok := toItem(g.Key)
			if !ok {
				return c.sdk.TransactGetItems(ctx, in, optFns...)
			}
			x := &engine.TransactGet{Key: key, ExpressionAttributeNames: g.ExpressionAttributeNames}
			x.TableName, _ = str(g.TableName)
			x.ProjectionExpression = expr(g.ProjectionExpression, &x.EmptyExpressions, engine.ExprProjection)
			req.TransactItems[i].Get = x
		}
	}
	if c.isClosed() {
		return c.sdk.TransactGetItems(ctx, in, optFns...)
	}
	if err := ctx.Err(); err != nil {
		return nil, canceled("TransactGetItems", err)
	}
	out, err := c.db.TransactGetItems(req)
	if err != nil {
		return nil, c.fail("TransactGetItems", err, func(v *dynamodb.Client) error { _, err := v.TransactGetItems(ctx, in); return err })
	}
	res := &dynamodb.TransactGetItemsOutput{ConsumedCapacity: fromConsumedList(out.ConsumedCapacity)}
	if out.Responses != nil {
		res.Responses = make([]types.ItemResponse, len(out.Responses))
		for i, r := range out.Responses {
			res.Responses[i].Item = fromItem(r.Item)
		}
	}
	return res, nil
}

// TransactWriteItems is (*dynamodb.Client).TransactWriteItems on the
// engine.
func (c *Direct) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	if in == nil {
		in = &dynamodb.TransactWriteItemsInput{}
	}
	if err := c.token("TransactWriteItems", &in.ClientRequestToken); err != nil {
		return nil, err
	}
	if !validInput(in, c.limit) {
		return c.sdk.TransactWriteItems(ctx, in, optFns...)
	}
	req := &engine.TransactWriteItemsInput{
		ReturnConsumedCapacity:      string(in.ReturnConsumedCapacity),
		ReturnItemCollectionMetrics: string(in.ReturnItemCollectionMetrics),
	}
	req.ClientRequestToken, req.ClientRequestTokenSet = str(in.ClientRequestToken)
	if in.TransactItems != nil {
		req.TransactItems = make([]engine.TransactWriteItem, len(in.TransactItems))
		for i := range in.TransactItems {
			if !transactWriteItem(&in.TransactItems[i], &req.TransactItems[i]) {
				return c.sdk.TransactWriteItems(ctx, in, optFns...)
			}
		}
	}
	if c.isClosed() {
		return c.sdk.TransactWriteItems(ctx, in, optFns...)
	}
	if err := ctx.Err(); err != nil {
		return nil, canceled("TransactWriteItems", err)
	}
	out, err := c.db.TransactWriteItems(req)
	if err != nil {
		return nil, c.fail("TransactWriteItems", err, func(v *dynamodb.Client) error { _, err := v.TransactWriteItems(ctx, in); return err })
	}
	return &dynamodb.TransactWriteItemsOutput{
		ConsumedCapacity:      fromConsumedList(out.ConsumedCapacity),
		ItemCollectionMetrics: fromMetricsMap(out.ItemCollectionMetrics),
	}, nil
}

// transactWriteItem converts one action of TransactWriteItems into dst
// and reports false when it leaves the request to the SDK's path.
func transactWriteItem(ti *types.TransactWriteItem, dst *engine.TransactWriteItem) bool {
	if x := ti.ConditionCheck; x != nil {
		key, ok1 := toItem(x.Key)
		values, ok2 := toItem(x.ExpressionAttributeValues)
		if !ok1 || !ok2 {
			return false
		}
		y := &engine.TransactConditionCheck{Key: key, ExpressionAttributeNames: x.ExpressionAttributeNames, ExpressionAttributeValues: values,
			ReturnValuesOnConditionCheckFailure: string(x.ReturnValuesOnConditionCheckFailure)}
		y.TableName, _ = str(x.TableName)
		y.ConditionExpression = expr(x.ConditionExpression, &y.EmptyExpressions, engine.ExprCondition)
		dst.ConditionCheck = y
	}
	if x := ti.Put; x != nil {
		item, ok1 := toItem(x.Item)
		values, ok2 := toItem(x.ExpressionAttributeValues)
		if !ok1 || !ok2 {
			return false
		}
		y := &engine.TransactPut{Item: item, ExpressionAttributeNames: x.ExpressionAttributeNames, ExpressionAttributeValues: values,
			ReturnValuesOnConditionCheckFailure: string(x.ReturnValuesOnConditionCheckFailure)}
		y.TableName, _ = str(x.TableName)
		y.ConditionExpression = expr(x.ConditionExpression, &y.EmptyExpressions, engine.ExprCondition)
		dst.Put = y
	}
	if x := ti.Update; x != nil {
		key, ok1 := toItem(x.Key)
		values, ok2 := toItem(x.ExpressionAttributeValues)
		if !ok1 || !ok2 {
			return false
		}
		y := &engine.TransactUpdate{Key: key, ExpressionAttributeNames: x.ExpressionAttributeNames, ExpressionAttributeValues: values,
			ReturnValuesOnConditionCheckFailure: string(x.ReturnValuesOnConditionCheckFailure)}
		y.TableName, _ = str(x.TableName)
		y.UpdateExpression = expr(x.UpdateExpression, &y.EmptyExpressions, engine.ExprUpdate)
		y.ConditionExpression = expr(x.ConditionExpression, &y.EmptyExpressions, engine.ExprCondition)
		dst.Update = y
	}
	if x := ti.Delete; x != nil {
		key, ok1 := toItem(x.Key)
		values, ok2 := toItem(x.ExpressionAttributeValues)
		if !ok1 || !ok2 {
			return false
		}
		y := &engine.TransactDelete{Key: key, ExpressionAttributeNames: x.ExpressionAttributeNames, ExpressionAttributeValues: values,
			ReturnValuesOnConditionCheckFailure: string(x.ReturnValuesOnConditionCheckFailure)}
		y.TableName, _ = str(x.TableName)
		y.ConditionExpression = expr(x.ConditionExpression, &y.EmptyExpressions, engine.ExprCondition)
		dst.Delete = y
	}
	return true
}
