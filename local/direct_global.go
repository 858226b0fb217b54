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
