package local

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/dynamo"
)

// Global tables on the direct path (server/internal/protocol/global.go):
// dynago has none, so only ListGlobalTables answers without an error.

// DescribeGlobalTable is (*dynamodb.Client).DescribeGlobalTable on the
// engine.
func (c *Direct) DescribeGlobalTable(ctx context.Context, in *dynamodb.DescribeGlobalTableInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DescribeGlobalTableOutput, error) {
	var req dynamo.DescribeGlobalTableInput
	return call(&c.conn, ctx, "DescribeGlobalTable", in, optFns, (*dynamodb.Client).DescribeGlobalTable, func(in *dynamodb.DescribeGlobalTableInput) bool {
		var ok bool
		req.GlobalTableName, ok = str(in.GlobalTableName)
		req.NoGlobalTableName = !ok
		return validInput(in, c.limit)
	}, func() (*dynamodb.DescribeGlobalTableOutput, error) {
		if _, err := c.db.DescribeGlobalTable(&req); err != nil {
			return nil, err
		}
		return &dynamodb.DescribeGlobalTableOutput{}, nil
	})
}

// DescribeGlobalTableSettings is
// (*dynamodb.Client).DescribeGlobalTableSettings on the engine.
func (c *Direct) DescribeGlobalTableSettings(ctx context.Context, in *dynamodb.DescribeGlobalTableSettingsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DescribeGlobalTableSettingsOutput, error) {
	var req dynamo.DescribeGlobalTableSettingsInput
	return call(&c.conn, ctx, "DescribeGlobalTableSettings", in, optFns, (*dynamodb.Client).DescribeGlobalTableSettings, func(in *dynamodb.DescribeGlobalTableSettingsInput) bool {
		var ok bool
		req.GlobalTableName, ok = str(in.GlobalTableName)
		req.NoGlobalTableName = !ok
		return validInput(in, c.limit)
	}, func() (*dynamodb.DescribeGlobalTableSettingsOutput, error) {
		if _, err := c.db.DescribeGlobalTableSettings(&req); err != nil {
			return nil, err
		}
		return &dynamodb.DescribeGlobalTableSettingsOutput{}, nil
	})
}

// ListGlobalTables is (*dynamodb.Client).ListGlobalTables on the engine.
func (c *Direct) ListGlobalTables(ctx context.Context, in *dynamodb.ListGlobalTablesInput, optFns ...func(*dynamodb.Options)) (*dynamodb.ListGlobalTablesOutput, error) {
	var req dynamo.ListGlobalTablesInput
	return call(&c.conn, ctx, "ListGlobalTables", in, optFns, (*dynamodb.Client).ListGlobalTables, func(in *dynamodb.ListGlobalTablesInput) bool {
		req.ExclusiveStartGlobalTableName, _ = str(in.ExclusiveStartGlobalTableName)
		req.Limit = in.Limit
		req.RegionName, _ = str(in.RegionName)
		return validInput(in, c.limit)
	}, func() (*dynamodb.ListGlobalTablesOutput, error) {
		if _, err := c.db.ListGlobalTables(&req); err != nil {
			return nil, err
		}
		return &dynamodb.ListGlobalTablesOutput{GlobalTables: []types.GlobalTable{}}, nil
	})
}

// DescribeTableReplicaAutoScaling is
// (*dynamodb.Client).DescribeTableReplicaAutoScaling on the engine.
func (c *Direct) DescribeTableReplicaAutoScaling(ctx context.Context, in *dynamodb.DescribeTableReplicaAutoScalingInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DescribeTableReplicaAutoScalingOutput, error) {
	var req dynamo.DescribeTableReplicaAutoScalingInput
	return call(&c.conn, ctx, "DescribeTableReplicaAutoScaling", in, optFns, (*dynamodb.Client).DescribeTableReplicaAutoScaling, func(in *dynamodb.DescribeTableReplicaAutoScalingInput) bool {
		var ok bool
		req.TableName, ok = str(in.TableName)
		req.NoTableName = !ok
		return validInput(in, c.limit)
	}, func() (*dynamodb.DescribeTableReplicaAutoScalingOutput, error) {
		if _, err := c.db.DescribeTableReplicaAutoScaling(&req); err != nil {
			return nil, err
		}
		return &dynamodb.DescribeTableReplicaAutoScalingOutput{}, nil
	})
}

// autoScalingSettings converts one dimension's auto scaling change.
func autoScalingSettings(s *types.AutoScalingSettingsUpdate) *dynamo.AutoScalingSettingsUpdate {
	if s == nil {
		return nil
	}
	out := &dynamo.AutoScalingSettingsUpdate{MinimumUnits: s.MinimumUnits, MaximumUnits: s.MaximumUnits,
		AutoScalingDisabled: s.AutoScalingDisabled, ScalingPolicyUpdate: s.ScalingPolicyUpdate != nil}
	out.AutoScalingRoleArn, _ = str(s.AutoScalingRoleArn)
	return out
}

// UpdateTableReplicaAutoScaling is
// (*dynamodb.Client).UpdateTableReplicaAutoScaling on the engine.
func (c *Direct) UpdateTableReplicaAutoScaling(ctx context.Context, in *dynamodb.UpdateTableReplicaAutoScalingInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateTableReplicaAutoScalingOutput, error) {
	var req dynamo.UpdateTableReplicaAutoScalingInput
	return call(&c.conn, ctx, "UpdateTableReplicaAutoScaling", in, optFns, (*dynamodb.Client).UpdateTableReplicaAutoScaling, func(in *dynamodb.UpdateTableReplicaAutoScalingInput) bool {
		if !validInput(in, c.limit) {
			return false
		}
		var ok bool
		req.TableName, ok = str(in.TableName)
		req.NoTableName = !ok
		req.ProvisionedWriteCapacityAutoScalingUpdate = autoScalingSettings(in.ProvisionedWriteCapacityAutoScalingUpdate)
		for _, g := range in.GlobalSecondaryIndexUpdates {
			name, _ := str(g.IndexName)
			req.GlobalSecondaryIndexUpdates = append(req.GlobalSecondaryIndexUpdates, dynamo.GlobalSecondaryIndexAutoScalingUpdate{
				IndexName: name, ProvisionedWriteCapacityAutoScalingUpdate: autoScalingSettings(g.ProvisionedWriteCapacityAutoScalingUpdate)})
		}
		for _, r := range in.ReplicaUpdates {
			region, _ := str(r.RegionName)
			u := dynamo.ReplicaAutoScalingUpdate{RegionName: region,
				ReplicaProvisionedReadCapacityAutoScalingUpdate: autoScalingSettings(r.ReplicaProvisionedReadCapacityAutoScalingUpdate)}
			for _, g := range r.ReplicaGlobalSecondaryIndexUpdates {
				name, _ := str(g.IndexName)
				u.ReplicaGlobalSecondaryIndexUpdates = append(u.ReplicaGlobalSecondaryIndexUpdates, dynamo.ReplicaGlobalSecondaryIndexAutoScalingUpdate{
					IndexName: name, ProvisionedReadCapacityAutoScalingUpdate: autoScalingSettings(g.ProvisionedReadCapacityAutoScalingUpdate)})
			}
			req.ReplicaUpdates = append(req.ReplicaUpdates, u)
		}
		return true
	}, func() (*dynamodb.UpdateTableReplicaAutoScalingOutput, error) {
		if _, err := c.db.UpdateTableReplicaAutoScaling(&req); err != nil {
			return nil, err
		}
		return &dynamodb.UpdateTableReplicaAutoScalingOutput{}, nil
	})
}
