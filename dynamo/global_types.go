package dynamo

// Global tables, version 2017.11.29 (DescribeGlobalTable,
// DescribeGlobalTableSettings, ListGlobalTables), and the replica auto
// scaling of version 2019.11.21 (DescribeTableReplicaAutoScaling), as far
// as dynago answers them: it has no replicas in other regions, so no
// table is global and each answer is the one DynamoDB gives a table
// without replicas.

// DescribeGlobalTableInput is DescribeGlobalTable's request.
type DescribeGlobalTableInput struct {
	// NoGlobalTableName records that the member was absent or null.
	NoGlobalTableName bool
	GlobalTableName   string
}

// DescribeGlobalTableOutput is DescribeGlobalTable's response; dynago
// never answers one (no table is global), so it has no members.
type DescribeGlobalTableOutput struct{}

// DescribeGlobalTableSettingsInput is DescribeGlobalTableSettings'
// request.
type DescribeGlobalTableSettingsInput struct {
	NoGlobalTableName bool
	GlobalTableName   string
}

// DescribeGlobalTableSettingsOutput is DescribeGlobalTableSettings'
// response; like DescribeGlobalTableOutput, never answered.
type DescribeGlobalTableSettingsOutput struct{}

// ListGlobalTablesInput is ListGlobalTables' request.
type ListGlobalTablesInput struct {
	ExclusiveStartGlobalTableName string
	Limit                         *int32
	RegionName                    string
}

// ListGlobalTablesOutput is ListGlobalTables' response: always no global
// tables.
type ListGlobalTablesOutput struct{}

// DescribeTableReplicaAutoScalingInput is DescribeTableReplicaAutoScaling's
// request.
type DescribeTableReplicaAutoScalingInput struct {
	NoTableName bool
	TableName   string
}

// DescribeTableReplicaAutoScalingOutput is its response; never answered.
type DescribeTableReplicaAutoScalingOutput struct{}

// AutoScalingSettingsUpdate is one dimension's auto scaling change in
// UpdateTableReplicaAutoScaling. dynago keeps of ScalingPolicyUpdate only
// whether the request had one, which is all its checks read.
type AutoScalingSettingsUpdate struct {
	MinimumUnits        *int64
	MaximumUnits        *int64
	AutoScalingDisabled *bool
	AutoScalingRoleArn  string
	ScalingPolicyUpdate bool
}

// GlobalSecondaryIndexAutoScalingUpdate is a GSI's write capacity change.
type GlobalSecondaryIndexAutoScalingUpdate struct {
	IndexName                                 string
	ProvisionedWriteCapacityAutoScalingUpdate *AutoScalingSettingsUpdate
}

// ReplicaGlobalSecondaryIndexAutoScalingUpdate is a replica GSI's read
// capacity change.
type ReplicaGlobalSecondaryIndexAutoScalingUpdate struct {
	IndexName                                string
	ProvisionedReadCapacityAutoScalingUpdate *AutoScalingSettingsUpdate
}

// ReplicaAutoScalingUpdate is one replica's change.
type ReplicaAutoScalingUpdate struct {
	RegionName                                      string
	ReplicaGlobalSecondaryIndexUpdates              []ReplicaGlobalSecondaryIndexAutoScalingUpdate
	ReplicaProvisionedReadCapacityAutoScalingUpdate *AutoScalingSettingsUpdate
}

// UpdateTableReplicaAutoScalingInput is UpdateTableReplicaAutoScaling's
// request.
type UpdateTableReplicaAutoScalingInput struct {
	NoTableName                               bool
	TableName                                 string
	GlobalSecondaryIndexUpdates               []GlobalSecondaryIndexAutoScalingUpdate
	ProvisionedWriteCapacityAutoScalingUpdate *AutoScalingSettingsUpdate
	ReplicaUpdates                            []ReplicaAutoScalingUpdate
}

// UpdateTableReplicaAutoScalingOutput is its response; never answered, as
// no table has replicas.
type UpdateTableReplicaAutoScalingOutput struct{}
