package dynamo

import "time"

// On-demand backups and point-in-time recovery: CreateBackup,
// DescribeBackup, ListBackups, DeleteBackup, RestoreTableFromBackup,
// UpdateContinuousBackups, DescribeContinuousBackups and
// RestoreTableToPointInTime. Field names follow the API's shapes.

// Backup statuses and types, and the statuses of continuous backups and
// point-in-time recovery.
const (
	BackupStatusCreating  = "CREATING"
	BackupStatusAvailable = "AVAILABLE"
	BackupStatusDeleted   = "DELETED"

	BackupTypeUser      = "USER"
	BackupTypeSystem    = "SYSTEM"
	BackupTypeAWSBackup = "AWS_BACKUP"
	// BackupTypeFilterAll is ListBackups' BackupType filter for every type.
	BackupTypeFilterAll = "ALL"

	ContinuousBackupsEnabled  = "ENABLED"
	ContinuousBackupsDisabled = "DISABLED"

	PointInTimeRecoveryEnabled  = "ENABLED"
	PointInTimeRecoveryDisabled = "DISABLED"
)

// BackupDetails describes a backup.
type BackupDetails struct {
	BackupArn              string
	BackupName             string
	BackupSizeBytes        *int64
	BackupStatus           string
	BackupType             string
	BackupCreationDateTime time.Time
	BackupExpiryDateTime   *time.Time
}

// SourceTableDetails describes the table a backup was taken of, as it was.
type SourceTableDetails struct {
	TableName             string
	TableId               string
	TableArn              string
	TableSizeBytes        int64
	KeySchema             []KeySchemaElement
	TableCreationDateTime time.Time
	ProvisionedThroughput *ProvisionedThroughput
	OnDemandThroughput    *OnDemandThroughput
	ItemCount             int64
	BillingMode           string
}

// LocalSecondaryIndexInfo is a local secondary index of a backup's table.
type LocalSecondaryIndexInfo struct {
	IndexName  string
	KeySchema  []KeySchemaElement
	Projection Projection
}

// GlobalSecondaryIndexInfo is a global secondary index of a backup's
// table.
type GlobalSecondaryIndexInfo struct {
	IndexName             string
	KeySchema             []KeySchemaElement
	Projection            Projection
	ProvisionedThroughput *ProvisionedThroughput
	OnDemandThroughput    *OnDemandThroughput
}

// SourceTableFeatureDetails describes the features of a backup's table.
type SourceTableFeatureDetails struct {
	LocalSecondaryIndexes  []LocalSecondaryIndexInfo
	GlobalSecondaryIndexes []GlobalSecondaryIndexInfo
	VectorIndexes          []VectorIndexInfo
	StreamDescription      *StreamSpecification
	TimeToLiveDescription  *TimeToLiveDescription
	SSEDescription         *SSEDescription
}

// BackupDescription is a backup with its source table.
type BackupDescription struct {
	BackupDetails             *BackupDetails
	SourceTableDetails        *SourceTableDetails
	SourceTableFeatureDetails *SourceTableFeatureDetails
}

// BackupSummary is a backup as ListBackups lists it.
type BackupSummary struct {
	TableName              string
	TableId                string
	TableArn               string
	BackupArn              string
	BackupName             string
	BackupCreationDateTime time.Time
	BackupExpiryDateTime   *time.Time
	BackupStatus           string
	BackupType             string
	BackupSizeBytes        *int64
}

// RestoreSummary is in the description of a table made by a restore.
type RestoreSummary struct {
	SourceBackupArn   string
	SourceTableArn    string
	RestoreDateTime   time.Time
	RestoreInProgress bool
}

// CreateBackupInput is CreateBackup's request.
type CreateBackupInput struct {
	NoTableName  bool
	TableName    string
	NoBackupName bool
	BackupName   string
}

// CreateBackupOutput is CreateBackup's response.
type CreateBackupOutput struct {
	BackupDetails *BackupDetails
}

// DescribeBackupInput is DescribeBackup's request.
type DescribeBackupInput struct {
	NoBackupArn bool
	BackupArn   string
}

// DescribeBackupOutput is DescribeBackup's response.
type DescribeBackupOutput struct {
	BackupDescription *BackupDescription
}

// DeleteBackupInput is DeleteBackup's request.
type DeleteBackupInput struct {
	NoBackupArn bool
	BackupArn   string
}

// DeleteBackupOutput is DeleteBackup's response.
type DeleteBackupOutput struct {
	BackupDescription *BackupDescription
}

// ListBackupsInput is ListBackups' request. Every member is optional.
type ListBackupsInput struct {
	TableName               string
	Limit                   *int32
	TimeRangeLowerBound     *time.Time
	TimeRangeUpperBound     *time.Time
	ExclusiveStartBackupArn string
	BackupType              string
}

// ListBackupsOutput is ListBackups' response.
type ListBackupsOutput struct {
	BackupSummaries        []BackupSummary
	LastEvaluatedBackupArn string
}

// RestoreOverrides are the settings a restore may give the new table
// instead of the source's. A nil index override keeps the source's
// indexes; an empty, non-nil one keeps none.
type RestoreOverrides struct {
	BillingModeOverride          string
	GlobalSecondaryIndexOverride []GlobalSecondaryIndex
	LocalSecondaryIndexOverride  []LocalSecondaryIndex
	// VectorIndexOverride picks which of the source's vector indexes
	// the restored table keeps; each must match one of them exactly.
	VectorIndexOverride           []VectorIndex
	ProvisionedThroughputOverride *ProvisionedThroughput
	OnDemandThroughputOverride    *OnDemandThroughput
	SSESpecificationOverride      *SSESpecification
}

// RestoreTableFromBackupInput is RestoreTableFromBackup's request.
type RestoreTableFromBackupInput struct {
	NoTargetTableName bool
	TargetTableName   string
	NoBackupArn       bool
	BackupArn         string
	RestoreOverrides
}

// RestoreTableFromBackupOutput is RestoreTableFromBackup's response.
type RestoreTableFromBackupOutput struct {
	TableDescription *TableDescription
}

// RestoreTableToPointInTimeInput is RestoreTableToPointInTime's request.
type RestoreTableToPointInTimeInput struct {
	SourceTableArn          string
	SourceTableName         string
	NoTargetTableName       bool
	TargetTableName         string
	UseLatestRestorableTime *bool
	RestoreDateTime         *time.Time
	RestoreOverrides
}

// RestoreTableToPointInTimeOutput is RestoreTableToPointInTime's response.
type RestoreTableToPointInTimeOutput struct {
	TableDescription *TableDescription
}

// PointInTimeRecoverySpecification turns point-in-time recovery on or off.
type PointInTimeRecoverySpecification struct {
	// NoPointInTimeRecoveryEnabled records that the required member was
	// absent.
	NoPointInTimeRecoveryEnabled bool
	PointInTimeRecoveryEnabled   bool
	RecoveryPeriodInDays         *int32
}

// UpdateContinuousBackupsInput is UpdateContinuousBackups' request.
type UpdateContinuousBackupsInput struct {
	NoTableName                      bool
	TableName                        string
	PointInTimeRecoverySpecification *PointInTimeRecoverySpecification
}

// PointInTimeRecoveryDescription is a table's point-in-time recovery.
type PointInTimeRecoveryDescription struct {
	PointInTimeRecoveryStatus  string
	RecoveryPeriodInDays       *int32
	EarliestRestorableDateTime *time.Time
	LatestRestorableDateTime   *time.Time
}

// ContinuousBackupsDescription is a table's continuous backups.
type ContinuousBackupsDescription struct {
	ContinuousBackupsStatus        string
	PointInTimeRecoveryDescription *PointInTimeRecoveryDescription
}

// UpdateContinuousBackupsOutput is UpdateContinuousBackups' response.
type UpdateContinuousBackupsOutput struct {
	ContinuousBackupsDescription *ContinuousBackupsDescription
}

// DescribeContinuousBackupsInput is DescribeContinuousBackups' request.
type DescribeContinuousBackupsInput struct {
	NoTableName bool
	TableName   string
}

// DescribeContinuousBackupsOutput is DescribeContinuousBackups' response.
type DescribeContinuousBackupsOutput struct {
	ContinuousBackupsDescription *ContinuousBackupsDescription
}
