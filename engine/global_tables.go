package engine

import (
	"strings"

	"github.com/dynago/dynago/dynamo"
)

// Global tables of version 2017.11.29: no table is one (the 2019.11.21
// replicas of engine/replicas.go are invisible to these operations, as
// to DynamoDB's: Alternator's test_global_tables.py, run against it), so
// they answer as DynamoDB does for a table without replicas, or a name
// that is no table at all, which it answers alike (the ack-api-quirks
// lab, DDB-GLOBALTABLE-004, DDB-TABLE-254 and DDB-TABLE-446, recorded
// 2026-10-09 in us-east-1 and us-west-2).

// msgGlobalTableMissing is the text of a global table that does not
// exist; DescribeGlobalTable puts "Global table not found: " before it.
func msgGlobalTableMissing(name string) string {
	return "Global table with name: '" + name + "' does not exist."
}

// globalTableNameChecks checks a GlobalTableName (the TableName shape:
// 3 to 255 characters of [a-zA-Z0-9_.-]).
func globalTableNameChecks(c *constraints, field, name string, absent bool) {
	if absent {
		c.notNull(field)
		return
	}
	c.length(field, name, 3, 255)
	if !validTableChars(name) {
		c.add(fmtConstraintPattern, name, field, "[a-zA-Z0-9_.-]+")
	}
}

// DescribeGlobalTable describes a global table (version 2017.11.29):
// GlobalTableNotFoundException, as there are none.
func (db *DB) DescribeGlobalTable(in *dynamo.DescribeGlobalTableInput) (*dynamo.DescribeGlobalTableOutput, error) {
	return run(db, opDescribeGlobalTable, func() (*dynamo.DescribeGlobalTableOutput, error) {
		var c constraints
		globalTableNameChecks(&c, "globalTableName", in.GlobalTableName, in.NoGlobalTableName)
		if err := c.err(); err != nil {
			return nil, err
		}
		return nil, dynamo.GlobalTableNotFound("Global table not found: " + msgGlobalTableMissing(in.GlobalTableName))
	})
}

// DescribeGlobalTableSettings describes a global table's settings:
// GlobalTableNotFoundException, as there are none.
func (db *DB) DescribeGlobalTableSettings(in *dynamo.DescribeGlobalTableSettingsInput) (*dynamo.DescribeGlobalTableSettingsOutput, error) {
	return run(db, opDescribeGlobalTableSettings, func() (*dynamo.DescribeGlobalTableSettingsOutput, error) {
		var c constraints
		globalTableNameChecks(&c, "globalTableName", in.GlobalTableName, in.NoGlobalTableName)
		if err := c.err(); err != nil {
			return nil, err
		}
		return nil, dynamo.GlobalTableNotFound(msgGlobalTableMissing(in.GlobalTableName))
	})
}

// ListGlobalTables lists the global tables: none, without
// LastEvaluatedGlobalTableName, whatever the Limit and RegionName.
func (db *DB) ListGlobalTables(in *dynamo.ListGlobalTablesInput) (*dynamo.ListGlobalTablesOutput, error) {
	return run(db, opListGlobalTables, func() (*dynamo.ListGlobalTablesOutput, error) {
		var c constraints
		if in.ExclusiveStartGlobalTableName != "" {
			globalTableNameChecks(&c, "exclusiveStartGlobalTableName", in.ExclusiveStartGlobalTableName, false)
		}
		if in.Limit != nil {
			c.minValue("limit", *in.Limit, 1)
		}
		if err := c.err(); err != nil {
			return nil, err
		}
		return &dynamo.ListGlobalTablesOutput{}, nil
	})
}

// DescribeTableReplicaAutoScaling describes the auto scaling of a global
// table's replicas (version 2019.11.21): for a table without replicas,
// and for a missing one alike, ResourceNotFoundException naming it as a
// global table.
func (db *DB) DescribeTableReplicaAutoScaling(in *dynamo.DescribeTableReplicaAutoScalingInput) (*dynamo.DescribeTableReplicaAutoScalingOutput, error) {
	return run(db, opDescribeTableReplicaAutoScaling, func() (*dynamo.DescribeTableReplicaAutoScalingOutput, error) {
		if in.NoTableName {
			return nil, dynamo.Validation(dynamo.MsgTableNameRequired)
		}
		var c constraints
		c.tableOpName(in.TableName)
		if err := c.err(); err != nil {
			return nil, err
		}
		return nil, dynamo.NotFound(msgGlobalTableMissing(tableNameFromARN(in.TableName)))
	})
}

// UpdateTableReplicaAutoScaling changes the auto scaling of a global
// table's replicas (version 2019.11.21). DynamoDB checks the request's
// auto scaling settings before it looks for the table: a dimension that
// is not being disabled needs MinimumUnits, MaximumUnits and a
// ScalingPolicyUpdate, whether or not the table exists (the ack-api-quirks
// lab, DDB-TABLE-253 on a global table and DDB-TABLE-455 on a deleted
// one). Then, for a table without replicas and a missing one alike, it
// answers as DescribeTableReplicaAutoScaling does (DDB-TABLE-254,
// DDB-TABLE-446).
func (db *DB) UpdateTableReplicaAutoScaling(in *dynamo.UpdateTableReplicaAutoScalingInput) (*dynamo.UpdateTableReplicaAutoScalingOutput, error) {
	return run(db, opUpdateTableReplicaAutoScaling, func() (*dynamo.UpdateTableReplicaAutoScalingOutput, error) {
		if in.NoTableName {
			return nil, dynamo.Validation(dynamo.MsgTableNameRequired)
		}
		var c constraints
		c.tableOpName(in.TableName)
		if err := c.err(); err != nil {
			return nil, err
		}
		name := tableNameFromARN(in.TableName)
		settings := []*dynamo.AutoScalingSettingsUpdate{in.ProvisionedWriteCapacityAutoScalingUpdate}
		for _, g := range in.GlobalSecondaryIndexUpdates {
			settings = append(settings, g.ProvisionedWriteCapacityAutoScalingUpdate)
		}
		for _, r := range in.ReplicaUpdates {
			settings = append(settings, r.ReplicaProvisionedReadCapacityAutoScalingUpdate)
			for _, g := range r.ReplicaGlobalSecondaryIndexUpdates {
				settings = append(settings, g.ProvisionedReadCapacityAutoScalingUpdate)
			}
		}
		for _, s := range settings {
			if err := autoScalingRequired(name, s); err != nil {
				return nil, err
			}
		}
		return nil, dynamo.NotFound(msgGlobalTableMissing(name))
	})
}

// autoScalingRequired is the refusal of a dimension's settings that do
// not disable auto scaling but lack what enabling it needs, naming the
// missing members in the order DynamoDB does: "Failed to update settings
// for global table with name: ‘<table>’: Parameters 'MaximumUnits',
// 'ScalingPolicyUpdate', 'MinimumUnits' are required unless auto scaling
// is being disabled." (DDB-TABLE-253: each subset as recorded).
func autoScalingRequired(table string, s *dynamo.AutoScalingSettingsUpdate) error {
	if s == nil || (s.AutoScalingDisabled != nil && *s.AutoScalingDisabled) {
		return nil
	}
	var missing []string
	if s.MaximumUnits == nil {
		missing = append(missing, "'MaximumUnits'")
	}
	if !s.ScalingPolicyUpdate {
		missing = append(missing, "'ScalingPolicyUpdate'")
	}
	if s.MinimumUnits == nil {
		missing = append(missing, "'MinimumUnits'")
	}
	if len(missing) == 0 {
		return nil
	}
	return dynamo.Validation("Failed to update settings for global table with name: ‘" + table + "’: Parameters " +
		strings.Join(missing, ", ") + " are required unless auto scaling is being disabled.")
}
