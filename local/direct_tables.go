package local

import (
	"context"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	smithytime "github.com/aws/smithy-go/time"

	"github.com/dynago/dynago/dynamo"
)

// The table operations, Time to Live, tags and limits on the direct path,
// converted as the protocol decoder reads the SDK's JSON for them
// (server/internal/protocol/decode_ops.go): an enum the SDK leaves out when
// empty is absent, a string or structure it sends when set is present
// even when empty.

func keySchema(ks []types.KeySchemaElement) []dynamo.KeySchemaElement {
	if ks == nil {
		return nil
	}
	out := make([]dynamo.KeySchemaElement, len(ks))
	for i, k := range ks {
		out[i] = dynamo.KeySchemaElement{AttributeName: aws.ToString(k.AttributeName), KeyType: string(k.KeyType)}
	}
	return out
}

func attributeDefinitions(defs []types.AttributeDefinition) []dynamo.AttributeDefinition {
	if defs == nil {
		return nil
	}
	out := make([]dynamo.AttributeDefinition, len(defs))
	for i, d := range defs {
		out[i] = dynamo.AttributeDefinition{AttributeName: aws.ToString(d.AttributeName), AttributeType: string(d.AttributeType)}
	}
	return out
}

func projection(p *types.Projection) (dynamo.Projection, bool) {
	if p == nil {
		return dynamo.Projection{}, false
	}
	return dynamo.Projection{ProjectionType: string(p.ProjectionType), NonKeyAttributes: copyStrings(p.NonKeyAttributes)}, true
}

func provisionedThroughput(p *types.ProvisionedThroughput) *dynamo.ProvisionedThroughput {
	if p == nil {
		return nil
	}
	return &dynamo.ProvisionedThroughput{
		ReadCapacityUnits: aws.ToInt64(p.ReadCapacityUnits), WriteCapacityUnits: aws.ToInt64(p.WriteCapacityUnits),
		ReadNull: p.ReadCapacityUnits == nil, WriteNull: p.WriteCapacityUnits == nil,
	}
}

func onDemandThroughput(p *types.OnDemandThroughput) *dynamo.OnDemandThroughput {
	if p == nil {
		return nil
	}
	return &dynamo.OnDemandThroughput{MaxReadRequestUnits: p.MaxReadRequestUnits, MaxWriteRequestUnits: p.MaxWriteRequestUnits}
}

func streamSpecification(s *types.StreamSpecification) *dynamo.StreamSpecification {
	if s == nil {
		return nil
	}
	return &dynamo.StreamSpecification{StreamEnabled: aws.ToBool(s.StreamEnabled), NoStreamEnabled: s.StreamEnabled == nil,
		StreamViewType: string(s.StreamViewType)}
}

func sseSpecification(s *types.SSESpecification) *dynamo.SSESpecification {
	if s == nil {
		return nil
	}
	return &dynamo.SSESpecification{Enabled: s.Enabled, SSEType: string(s.SSEType),
		KMSMasterKeyId: aws.ToString(s.KMSMasterKeyId), KeyIDEmpty: s.KMSMasterKeyId != nil && *s.KMSMasterKeyId == ""}
}

// tags converts Tags; ok is false for a tag without its Key or Value,
// which the SDK's own validation refuses (its path answers it).
func tags(list []types.Tag) ([]dynamo.Tag, bool) {
	if list == nil {
		return nil, true
	}
	out := make([]dynamo.Tag, len(list))
	for i, t := range list {
		if t.Key == nil || t.Value == nil {
			return nil, false
		}
		out[i] = dynamo.Tag{Key: *t.Key, Value: *t.Value}
	}
	return out, true
}

func warmThroughput(w *types.WarmThroughput) *dynamo.WarmThroughput {
	if w == nil {
		return nil
	}
	return &dynamo.WarmThroughput{ReadUnitsPerSecond: w.ReadUnitsPerSecond, WriteUnitsPerSecond: w.WriteUnitsPerSecond}
}

func globalSecondaryIndex(g *types.GlobalSecondaryIndex) dynamo.GlobalSecondaryIndex {
	x := dynamo.GlobalSecondaryIndex{
		KeySchema:             keySchema(g.KeySchema),
		ProvisionedThroughput: provisionedThroughput(g.ProvisionedThroughput),
		OnDemandThroughput:    onDemandThroughput(g.OnDemandThroughput),
		WarmThroughput:        warmThroughput(g.WarmThroughput),
	}
	var named, projected bool
	x.IndexName, named = str(g.IndexName)
	x.Projection, projected = projection(g.Projection)
	x.NoIndexName, x.NoProjection = !named, !projected
	return x
}

// vectorIndex converts a vector index definition (VectorIndex and
// CreateVectorIndexAction have the same members).
func vectorIndex(name *string, va *types.VectorAttributeDefinition, ss []types.SearchSchemaElement, p *types.Projection, dims *int64, df types.VectorDistanceFunction) dynamo.VectorIndex {
	x := dynamo.VectorIndex{DistanceFunction: string(df)}
	var named, projected bool
	x.IndexName, named = str(name)
	x.Projection, projected = projection(p)
	x.NoIndexName, x.NoProjection = !named, !projected
	if dims != nil {
		x.Dimensions = *dims
	}
	x.NoDimensions = dims == nil
	if va != nil {
		a := new(dynamo.VectorAttributeDefinition)
		var ok bool
		a.AttributeName, ok = str(va.AttributeName)
		a.NoAttributeName = !ok
		x.VectorAttribute = a
	}
	if ss != nil {
		x.SearchSchema = make([]dynamo.SearchSchemaElement, len(ss))
		for i, e := range ss {
			y := &x.SearchSchema[i]
			var ok bool
			y.AttributeName, ok = str(e.AttributeName)
			y.NoAttributeName = !ok
			y.SearchSchemaElementType = string(e.SearchSchemaElementType)
			y.NoElementType = e.SearchSchemaElementType == ""
		}
	}
	return x
}

// vectorIndexes converts a list of vector index definitions, nil for nil.
func vectorIndexes(vs []types.VectorIndex) []dynamo.VectorIndex {
	if vs == nil {
		return nil
	}
	out := make([]dynamo.VectorIndex, len(vs))
	for i, v := range vs {
		out[i] = vectorIndex(v.IndexName, v.VectorAttribute, v.SearchSchema, v.Projection, v.Dimensions, v.DistanceFunction)
	}
	return out
}

// fromVectorIndexes converts a list of vector index definitions back.
func fromVectorIndexes(vs []dynamo.VectorIndex) []types.VectorIndex {
	if vs == nil {
		return nil
	}
	out := make([]types.VectorIndex, len(vs))
	for i, v := range vs {
		out[i] = types.VectorIndex{IndexName: optString(v.IndexName), Dimensions: aws.Int64(v.Dimensions),
			DistanceFunction: types.VectorDistanceFunction(v.DistanceFunction), SearchSchema: fromSearchSchema(v.SearchSchema),
			Projection: fromProjection(&v.Projection)}
		if a := v.VectorAttribute; a != nil {
			out[i].VectorAttribute = &types.VectorAttributeDefinition{AttributeName: optString(a.AttributeName)}
		}
	}
	return out
}

// fromSearchSchema converts a search schema for a description.
func fromSearchSchema(ss []dynamo.SearchSchemaElement) []types.SearchSchemaElement {
	if ss == nil {
		return nil
	}
	out := make([]types.SearchSchemaElement, len(ss))
	for i, e := range ss {
		out[i] = types.SearchSchemaElement{AttributeName: optString(e.AttributeName), SearchSchemaElementType: types.SearchSchemaElementType(e.SearchSchemaElementType)}
	}
	return out
}

// CreateTable is (*dynamodb.Client).CreateTable on the engine.
func (c *Direct) CreateTable(ctx context.Context, in *dynamodb.CreateTableInput, optFns ...func(*dynamodb.Options)) (*dynamodb.CreateTableOutput, error) {
	var req dynamo.CreateTableInput
	return call(&c.conn, ctx, "CreateTable", in, optFns, (*dynamodb.Client).CreateTable, func(in *dynamodb.CreateTableInput) bool {
		if !validInput(in, c.limit) {
			return false
		}
		tg, ok := tags(in.Tags)
		if !ok {
			return false
		}
		req = dynamo.CreateTableInput{
			AttributeDefinitions:      attributeDefinitions(in.AttributeDefinitions),
			KeySchema:                 keySchema(in.KeySchema),
			BillingMode:               string(in.BillingMode),
			ProvisionedThroughput:     provisionedThroughput(in.ProvisionedThroughput),
			OnDemandThroughput:        onDemandThroughput(in.OnDemandThroughput),
			WarmThroughput:            warmThroughput(in.WarmThroughput),
			StreamSpecification:       streamSpecification(in.StreamSpecification),
			SSESpecification:          sseSpecification(in.SSESpecification),
			Tags:                      tg,
			TableClass:                string(in.TableClass),
			DeletionProtectionEnabled: in.DeletionProtectionEnabled,
		}
		req.ResourcePolicy, _ = str(in.ResourcePolicy)
		req.TableName, ok = str(in.TableName)
		req.NoTableName = !ok
		if in.LocalSecondaryIndexes != nil {
			req.LocalSecondaryIndexes = make([]dynamo.LocalSecondaryIndex, len(in.LocalSecondaryIndexes))
			for i := range in.LocalSecondaryIndexes {
				req.LocalSecondaryIndexes[i] = localSecondaryIndex(&in.LocalSecondaryIndexes[i])
			}
		}
		if in.GlobalSecondaryIndexes != nil {
			req.GlobalSecondaryIndexes = make([]dynamo.GlobalSecondaryIndex, len(in.GlobalSecondaryIndexes))
			for i := range in.GlobalSecondaryIndexes {
				req.GlobalSecondaryIndexes[i] = globalSecondaryIndex(&in.GlobalSecondaryIndexes[i])
			}
		}
		if in.VectorIndexes != nil {
			req.VectorIndexes = make([]dynamo.VectorIndex, len(in.VectorIndexes))
			for i, v := range in.VectorIndexes {
				req.VectorIndexes[i] = vectorIndex(v.IndexName, v.VectorAttribute, v.SearchSchema, v.Projection, v.Dimensions, v.DistanceFunction)
			}
		}
		return true
	}, func() (*dynamodb.CreateTableOutput, error) {
		out, err := c.db.CreateTable(&req)
		if err != nil {
			return nil, err
		}
		return &dynamodb.CreateTableOutput{TableDescription: fromTable(out.TableDescription)}, nil
	})
}

// DescribeTable is (*dynamodb.Client).DescribeTable on the engine.
func (c *Direct) DescribeTable(ctx context.Context, in *dynamodb.DescribeTableInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error) {
	var req dynamo.DescribeTableInput
	return call(&c.conn, ctx, "DescribeTable", in, optFns, (*dynamodb.Client).DescribeTable, func(in *dynamodb.DescribeTableInput) bool {
		var ok bool
		req.TableName, ok = str(in.TableName)
		req.NoTableName = !ok
		return validInput(in, c.limit)
	}, func() (*dynamodb.DescribeTableOutput, error) {
		out, err := c.db.DescribeTable(&req)
		if err != nil {
			return nil, err
		}
		return &dynamodb.DescribeTableOutput{Table: fromTable(out.Table)}, nil
	})
}

// DeleteTable is (*dynamodb.Client).DeleteTable on the engine.
func (c *Direct) DeleteTable(ctx context.Context, in *dynamodb.DeleteTableInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DeleteTableOutput, error) {
	var req dynamo.DeleteTableInput
	return call(&c.conn, ctx, "DeleteTable", in, optFns, (*dynamodb.Client).DeleteTable, func(in *dynamodb.DeleteTableInput) bool {
		var ok bool
		req.TableName, ok = str(in.TableName)
		req.NoTableName = !ok
		return validInput(in, c.limit)
	}, func() (*dynamodb.DeleteTableOutput, error) {
		out, err := c.db.DeleteTable(&req)
		if err != nil {
			return nil, err
		}
		return &dynamodb.DeleteTableOutput{TableDescription: fromTable(out.TableDescription)}, nil
	})
}

// ListTables is (*dynamodb.Client).ListTables on the engine.
func (c *Direct) ListTables(ctx context.Context, in *dynamodb.ListTablesInput, optFns ...func(*dynamodb.Options)) (*dynamodb.ListTablesOutput, error) {
	var req dynamo.ListTablesInput
	return call(&c.conn, ctx, "ListTables", in, optFns, (*dynamodb.Client).ListTables, func(in *dynamodb.ListTablesInput) bool {
		req.Limit = in.Limit
		req.ExclusiveStartTableName, req.ExclusiveStartTableNameSet = str(in.ExclusiveStartTableName)
		return validInput(in, c.limit)
	}, func() (*dynamodb.ListTablesOutput, error) {
		out, err := c.db.ListTables(&req)
		if err != nil {
			return nil, err
		}
		names := append([]string{}, out.TableNames...)
		return &dynamodb.ListTablesOutput{TableNames: names, LastEvaluatedTableName: optString(out.LastEvaluatedTableName)}, nil
	})
}

// UpdateTable is (*dynamodb.Client).UpdateTable on the engine.
func (c *Direct) UpdateTable(ctx context.Context, in *dynamodb.UpdateTableInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateTableOutput, error) {
	var req dynamo.UpdateTableInput
	return call(&c.conn, ctx, "UpdateTable", in, optFns, (*dynamodb.Client).UpdateTable, func(in *dynamodb.UpdateTableInput) bool {
		if !validInput(in, c.limit) {
			return false
		}
		req = dynamo.UpdateTableInput{
			AttributeDefinitions:      attributeDefinitions(in.AttributeDefinitions),
			BillingMode:               string(in.BillingMode),
			ProvisionedThroughput:     provisionedThroughput(in.ProvisionedThroughput),
			OnDemandThroughput:        onDemandThroughput(in.OnDemandThroughput),
			WarmThroughput:            warmThroughput(in.WarmThroughput),
			StreamSpecification:       streamSpecification(in.StreamSpecification),
			SSESpecification:          sseSpecification(in.SSESpecification),
			TableClass:                string(in.TableClass),
			DeletionProtectionEnabled: in.DeletionProtectionEnabled,
		}
		var ok bool
		req.TableName, ok = str(in.TableName)
		req.NoTableName = !ok
		if in.GlobalSecondaryIndexUpdates != nil {
			req.GlobalSecondaryIndexUpdates = make([]dynamo.GlobalSecondaryIndexUpdate, len(in.GlobalSecondaryIndexUpdates))
			for i, u := range in.GlobalSecondaryIndexUpdates {
				x := &req.GlobalSecondaryIndexUpdates[i]
				if a := u.Create; a != nil {
					g := globalSecondaryIndex(&types.GlobalSecondaryIndex{IndexName: a.IndexName, KeySchema: a.KeySchema, Projection: a.Projection,
						ProvisionedThroughput: a.ProvisionedThroughput, OnDemandThroughput: a.OnDemandThroughput, WarmThroughput: a.WarmThroughput})
					x.Create = &g
				}
				if a := u.Update; a != nil {
					y := &dynamo.UpdateGlobalSecondaryIndexAction{ProvisionedThroughput: provisionedThroughput(a.ProvisionedThroughput),
						OnDemandThroughput: onDemandThroughput(a.OnDemandThroughput), WarmThroughput: warmThroughput(a.WarmThroughput)}
					y.IndexName, ok = str(a.IndexName)
					y.NoIndexName = !ok
					x.Update = y
				}
				if a := u.Delete; a != nil {
					y := new(dynamo.DeleteGlobalSecondaryIndexAction)
					y.IndexName, ok = str(a.IndexName)
					y.NoIndexName = !ok
					x.Delete = y
				}
			}
		}
		if in.ReplicaUpdates != nil {
			req.ReplicaUpdates = make([]dynamo.ReplicationGroupUpdate, len(in.ReplicaUpdates))
			for i, u := range in.ReplicaUpdates {
				x := &req.ReplicaUpdates[i]
				if a := u.Create; a != nil {
					x.Create = replicaAction(a.RegionName)
				}
				if a := u.Update; a != nil {
					x.Update = replicaAction(a.RegionName)
				}
				if a := u.Delete; a != nil {
					x.Delete = replicaAction(a.RegionName)
				}
			}
		}
		if in.VectorIndexUpdates != nil {
			req.VectorIndexUpdates = make([]dynamo.VectorIndexUpdate, len(in.VectorIndexUpdates))
			for i, u := range in.VectorIndexUpdates {
				x := &req.VectorIndexUpdates[i]
				if a := u.Create; a != nil {
					v := vectorIndex(a.IndexName, a.VectorAttribute, a.SearchSchema, a.Projection, a.Dimensions, a.DistanceFunction)
					x.Create = &v
				}
				if a := u.Delete; a != nil {
					y := new(dynamo.DeleteVectorIndexAction)
					y.IndexName, ok = str(a.IndexName)
					y.NoIndexName = !ok
					x.Delete = y
				}
			}
		}
		return true
	}, func() (*dynamodb.UpdateTableOutput, error) {
		out, err := c.db.UpdateTable(&req)
		if err != nil {
			return nil, err
		}
		return &dynamodb.UpdateTableOutput{TableDescription: fromTable(out.TableDescription)}, nil
	})
}

// UpdateTimeToLive is (*dynamodb.Client).UpdateTimeToLive on the engine.
func (c *Direct) UpdateTimeToLive(ctx context.Context, in *dynamodb.UpdateTimeToLiveInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateTimeToLiveOutput, error) {
	var req dynamo.UpdateTimeToLiveInput
	return call(&c.conn, ctx, "UpdateTimeToLive", in, optFns, (*dynamodb.Client).UpdateTimeToLive, func(in *dynamodb.UpdateTimeToLiveInput) bool {
		if !validInput(in, c.limit) {
			return false
		}
		var ok bool
		req.TableName, ok = str(in.TableName)
		req.NoTableName = !ok
		if s := in.TimeToLiveSpecification; s != nil {
			spec := &dynamo.TimeToLiveSpecification{Enabled: aws.ToBool(s.Enabled), NoEnabled: s.Enabled == nil}
			spec.AttributeName, ok = str(s.AttributeName)
			spec.NoAttributeName = !ok
			req.TimeToLiveSpecification = spec
		}
		return true
	}, func() (*dynamodb.UpdateTimeToLiveOutput, error) {
		out, err := c.db.UpdateTimeToLive(&req)
		if err != nil {
			return nil, err
		}
		s := out.TimeToLiveSpecification
		return &dynamodb.UpdateTimeToLiveOutput{TimeToLiveSpecification: &types.TimeToLiveSpecification{
			AttributeName: optString(s.AttributeName), Enabled: aws.Bool(s.Enabled)}}, nil
	})
}

// DescribeTimeToLive is (*dynamodb.Client).DescribeTimeToLive on the
// engine.
func (c *Direct) DescribeTimeToLive(ctx context.Context, in *dynamodb.DescribeTimeToLiveInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DescribeTimeToLiveOutput, error) {
	var req dynamo.DescribeTimeToLiveInput
	return call(&c.conn, ctx, "DescribeTimeToLive", in, optFns, (*dynamodb.Client).DescribeTimeToLive, func(in *dynamodb.DescribeTimeToLiveInput) bool {
		var ok bool
		req.TableName, ok = str(in.TableName)
		req.NoTableName = !ok
		return validInput(in, c.limit)
	}, func() (*dynamodb.DescribeTimeToLiveOutput, error) {
		out, err := c.db.DescribeTimeToLive(&req)
		if err != nil {
			return nil, err
		}
		d := out.TimeToLiveDescription
		return &dynamodb.DescribeTimeToLiveOutput{TimeToLiveDescription: &types.TimeToLiveDescription{
			AttributeName: optString(d.AttributeName), TimeToLiveStatus: types.TimeToLiveStatus(d.TimeToLiveStatus)}}, nil
	})
}

// TagResource is (*dynamodb.Client).TagResource on the engine.
func (c *Direct) TagResource(ctx context.Context, in *dynamodb.TagResourceInput, optFns ...func(*dynamodb.Options)) (*dynamodb.TagResourceOutput, error) {
	var req dynamo.TagResourceInput
	return call(&c.conn, ctx, "TagResource", in, optFns, (*dynamodb.Client).TagResource, func(in *dynamodb.TagResourceInput) bool {
		if !validInput(in, c.limit) {
			return false
		}
		tg, ok := tags(in.Tags)
		req = dynamo.TagResourceInput{ResourceArn: aws.ToString(in.ResourceArn), Tags: tg}
		return ok
	}, func() (*dynamodb.TagResourceOutput, error) {
		if err := c.db.TagResource(&req); err != nil {
			return nil, err
		}
		return &dynamodb.TagResourceOutput{}, nil
	})
}

// UntagResource is (*dynamodb.Client).UntagResource on the engine.
func (c *Direct) UntagResource(ctx context.Context, in *dynamodb.UntagResourceInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UntagResourceOutput, error) {
	var req dynamo.UntagResourceInput
	return call(&c.conn, ctx, "UntagResource", in, optFns, (*dynamodb.Client).UntagResource, func(in *dynamodb.UntagResourceInput) bool {
		req = dynamo.UntagResourceInput{ResourceArn: aws.ToString(in.ResourceArn), TagKeys: in.TagKeys}
		return validInput(in, c.limit)
	}, func() (*dynamodb.UntagResourceOutput, error) {
		if err := c.db.UntagResource(&req); err != nil {
			return nil, err
		}
		return &dynamodb.UntagResourceOutput{}, nil
	})
}

// ListTagsOfResource is (*dynamodb.Client).ListTagsOfResource on the
// engine.
func (c *Direct) ListTagsOfResource(ctx context.Context, in *dynamodb.ListTagsOfResourceInput, optFns ...func(*dynamodb.Options)) (*dynamodb.ListTagsOfResourceOutput, error) {
	var req dynamo.ListTagsOfResourceInput
	return call(&c.conn, ctx, "ListTagsOfResource", in, optFns, (*dynamodb.Client).ListTagsOfResource, func(in *dynamodb.ListTagsOfResourceInput) bool {
		req = dynamo.ListTagsOfResourceInput{ResourceArn: aws.ToString(in.ResourceArn), NextToken: aws.ToString(in.NextToken)}
		return validInput(in, c.limit)
	}, func() (*dynamodb.ListTagsOfResourceOutput, error) {
		out, err := c.db.ListTagsOfResource(&req)
		if err != nil {
			return nil, err
		}
		res := &dynamodb.ListTagsOfResourceOutput{Tags: make([]types.Tag, len(out.Tags)), NextToken: optString(out.NextToken)}
		for i, t := range out.Tags {
			res.Tags[i] = types.Tag{Key: aws.String(t.Key), Value: aws.String(t.Value)}
		}
		return res, nil
	})
}

// DescribeLimits is (*dynamodb.Client).DescribeLimits on the engine.
func (c *Direct) DescribeLimits(ctx context.Context, in *dynamodb.DescribeLimitsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DescribeLimitsOutput, error) {
	return call(&c.conn, ctx, "DescribeLimits", in, optFns, (*dynamodb.Client).DescribeLimits, func(*dynamodb.DescribeLimitsInput) bool {
		return true // it has no parameters
	}, func() (*dynamodb.DescribeLimitsOutput, error) {
		out, err := c.db.DescribeLimits()
		if err != nil {
			return nil, err
		}
		return &dynamodb.DescribeLimitsOutput{
			AccountMaxReadCapacityUnits:  aws.Int64(out.AccountMaxReadCapacityUnits),
			AccountMaxWriteCapacityUnits: aws.Int64(out.AccountMaxWriteCapacityUnits),
			TableMaxReadCapacityUnits:    aws.Int64(out.TableMaxReadCapacityUnits),
			TableMaxWriteCapacityUnits:   aws.Int64(out.TableMaxWriteCapacityUnits),
		}, nil
	})
}

// fromTime is a timestamp as the SDK reads the server's: epoch seconds
// with millisecond precision, in UTC; nil when zero (left out).
func fromTime(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	v := smithytime.ParseEpochSeconds(float64(t.UnixMilli()) / 1000)
	return &v
}

func fromKeySchema(ks []dynamo.KeySchemaElement) []types.KeySchemaElement {
	if ks == nil {
		return nil
	}
	out := make([]types.KeySchemaElement, len(ks))
	for i, k := range ks {
		out[i] = types.KeySchemaElement{AttributeName: optString(k.AttributeName), KeyType: types.KeyType(k.KeyType)}
	}
	return out
}

func fromProjection(p *dynamo.Projection) *types.Projection {
	return &types.Projection{ProjectionType: types.ProjectionType(p.ProjectionType), NonKeyAttributes: copyStrings(p.NonKeyAttributes)}
}

// copyStrings copies a list the engine keeps (or gave out of its
// catalog), keeping nil apart from empty.
func copyStrings(list []string) []string {
	if list == nil {
		return nil
	}
	return append([]string{}, list...)
}

func fromOnDemand(o *dynamo.OnDemandThroughput) *types.OnDemandThroughput {
	if o == nil {
		return nil
	}
	return &types.OnDemandThroughput{MaxReadRequestUnits: o.MaxReadRequestUnits, MaxWriteRequestUnits: o.MaxWriteRequestUnits}
}

func fromThroughput(p *dynamo.ProvisionedThroughputDescription) *types.ProvisionedThroughputDescription {
	if p == nil {
		return nil
	}
	return &types.ProvisionedThroughputDescription{
		LastDecreaseDateTime:   fromTime(p.LastDecreaseDateTime),
		LastIncreaseDateTime:   fromTime(p.LastIncreaseDateTime),
		NumberOfDecreasesToday: aws.Int64(p.NumberOfDecreasesToday),
		ReadCapacityUnits:      aws.Int64(p.ReadCapacityUnits),
		WriteCapacityUnits:     aws.Int64(p.WriteCapacityUnits),
	}
}

// replicaAction converts the region a replica action names.
func replicaAction(region *string) *dynamo.ReplicaAction {
	r, ok := str(region)
	return &dynamo.ReplicaAction{RegionName: r, NoRegionName: !ok}
}

// fromTable converts a table description as the SDK decodes the server's
// encoding of it (server/internal/protocol's appendTableDescription).
func fromTable(t *dynamo.TableDescription) *types.TableDescription {
	if t == nil {
		return nil
	}
	d := &types.TableDescription{
		CreationDateTime:          fromTime(t.CreationDateTime),
		DeletionProtectionEnabled: t.DeletionProtectionEnabled,
		ItemCount:                 aws.Int64(t.ItemCount),
		KeySchema:                 fromKeySchema(t.KeySchema),
		LatestStreamArn:           optString(t.LatestStreamArn),
		LatestStreamLabel:         optString(t.LatestStreamLabel),
		OnDemandThroughput:        fromOnDemand(t.OnDemandThroughput),
		ProvisionedThroughput:     fromThroughput(t.ProvisionedThroughput),
		TableArn:                  optString(t.TableArn),
		TableId:                   optString(t.TableId),
		TableName:                 optString(t.TableName),
		TableSizeBytes:            aws.Int64(t.TableSizeBytes),
		TableStatus:               types.TableStatus(t.TableStatus),
		GlobalTableVersion:        optString(t.GlobalTableVersion),
	}
	if t.Replicas != nil {
		d.Replicas = make([]types.ReplicaDescription, len(t.Replicas))
		for i, r := range t.Replicas {
			d.Replicas[i] = types.ReplicaDescription{RegionName: optString(r.RegionName), ReplicaStatus: types.ReplicaStatus(r.ReplicaStatus)}
		}
	}
	if t.AttributeDefinitions != nil {
		d.AttributeDefinitions = make([]types.AttributeDefinition, len(t.AttributeDefinitions))
		for i, a := range t.AttributeDefinitions {
			d.AttributeDefinitions[i] = types.AttributeDefinition{AttributeName: optString(a.AttributeName), AttributeType: types.ScalarAttributeType(a.AttributeType)}
		}
	}
	if b := t.BillingModeSummary; b != nil {
		d.BillingModeSummary = &types.BillingModeSummary{BillingMode: types.BillingMode(b.BillingMode),
			LastUpdateToPayPerRequestDateTime: fromTime(b.LastUpdateToPayPerRequestDateTime)}
	}
	if t.GlobalSecondaryIndexes != nil {
		d.GlobalSecondaryIndexes = make([]types.GlobalSecondaryIndexDescription, len(t.GlobalSecondaryIndexes))
		for i := range t.GlobalSecondaryIndexes {
			g := &t.GlobalSecondaryIndexes[i]
			d.GlobalSecondaryIndexes[i] = types.GlobalSecondaryIndexDescription{
				Backfilling:           g.Backfilling,
				IndexArn:              optString(g.IndexArn),
				IndexName:             optString(g.IndexName),
				IndexSizeBytes:        aws.Int64(g.IndexSizeBytes),
				IndexStatus:           types.IndexStatus(g.IndexStatus),
				ItemCount:             aws.Int64(g.ItemCount),
				KeySchema:             fromKeySchema(g.KeySchema),
				OnDemandThroughput:    fromOnDemand(g.OnDemandThroughput),
				Projection:            fromProjection(&g.Projection),
				ProvisionedThroughput: fromThroughput(g.ProvisionedThroughput),
			}
			if w := g.WarmThroughput; w != nil {
				d.GlobalSecondaryIndexes[i].WarmThroughput = &types.GlobalSecondaryIndexWarmThroughputDescription{
					ReadUnitsPerSecond: aws.Int64(w.ReadUnitsPerSecond), WriteUnitsPerSecond: aws.Int64(w.WriteUnitsPerSecond),
					Status: types.IndexStatus(w.Status)}
			}
		}
	}
	if t.VectorIndexes != nil {
		d.VectorIndexes = make([]types.VectorIndexDescription, len(t.VectorIndexes))
		for i := range t.VectorIndexes {
			v := &t.VectorIndexes[i]
			d.VectorIndexes[i] = types.VectorIndexDescription{
				Backfilling:      v.Backfilling,
				Dimensions:       aws.Int64(v.Dimensions),
				DistanceFunction: types.VectorDistanceFunction(v.DistanceFunction),
				IndexArn:         optString(v.IndexArn),
				IndexName:        optString(v.IndexName),
				IndexSizeBytes:   aws.Int64(v.IndexSizeBytes),
				IndexStatus:      types.IndexStatus(v.IndexStatus),
				ItemCount:        aws.Int64(v.ItemCount),
				Projection:       fromProjection(&v.Projection),
				SearchSchema:     fromSearchSchema(v.SearchSchema),
			}
			if a := v.VectorAttribute; a != nil {
				d.VectorIndexes[i].VectorAttribute = &types.VectorAttributeDefinition{AttributeName: optString(a.AttributeName)}
			}
		}
	}
	if t.LocalSecondaryIndexes != nil {
		d.LocalSecondaryIndexes = make([]types.LocalSecondaryIndexDescription, len(t.LocalSecondaryIndexes))
		for i := range t.LocalSecondaryIndexes {
			l := &t.LocalSecondaryIndexes[i]
			d.LocalSecondaryIndexes[i] = types.LocalSecondaryIndexDescription{
				IndexArn:       optString(l.IndexArn),
				IndexName:      optString(l.IndexName),
				IndexSizeBytes: aws.Int64(l.IndexSizeBytes),
				ItemCount:      aws.Int64(l.ItemCount),
				KeySchema:      fromKeySchema(l.KeySchema),
				Projection:     fromProjection(&l.Projection),
			}
		}
	}
	if r := t.RestoreSummary; r != nil {
		d.RestoreSummary = &types.RestoreSummary{RestoreDateTime: fromTime(r.RestoreDateTime), RestoreInProgress: aws.Bool(r.RestoreInProgress),
			SourceBackupArn: optString(r.SourceBackupArn), SourceTableArn: optString(r.SourceTableArn)}
	}
	d.SSEDescription = fromSSEDescription(t.SSEDescription)
	if s := t.StreamSpecification; s != nil {
		d.StreamSpecification = &types.StreamSpecification{StreamEnabled: aws.Bool(s.StreamEnabled), StreamViewType: types.StreamViewType(s.StreamViewType)}
	}
	if s := t.TableClassSummary; s != nil {
		d.TableClassSummary = &types.TableClassSummary{LastUpdateDateTime: fromTime(s.LastUpdateDateTime), TableClass: types.TableClass(s.TableClass)}
	}
	if w := t.WarmThroughput; w != nil {
		d.WarmThroughput = &types.TableWarmThroughputDescription{ReadUnitsPerSecond: aws.Int64(w.ReadUnitsPerSecond),
			WriteUnitsPerSecond: aws.Int64(w.WriteUnitsPerSecond), Status: types.TableStatus(w.Status)}
	}
	return d
}
