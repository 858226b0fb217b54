package dynamo

// Kinesis Data Streams for DynamoDB: EnableKinesisStreamingDestination,
// DescribeKinesisStreamingDestination, DisableKinesisStreamingDestination
// and UpdateKinesisStreamingDestination, member for member as AWS's API
// reference has them.

// A destination's statuses (DestinationStatus) and the precisions of its
// records' ApproximateCreationDateTime.
const (
	DestinationStatusEnabling     = "ENABLING"
	DestinationStatusActive       = "ACTIVE"
	DestinationStatusDisabling    = "DISABLING"
	DestinationStatusDisabled     = "DISABLED"
	DestinationStatusEnableFailed = "ENABLE_FAILED"
	DestinationStatusUpdating     = "UPDATING"

	PrecisionMillisecond = "MILLISECOND"
	PrecisionMicrosecond = "MICROSECOND"
)

// KinesisStreamingConfiguration is EnableKinesisStreamingConfiguration and
// UpdateKinesisStreamingConfiguration, which have the one member.
type KinesisStreamingConfiguration struct {
	ApproximateCreationDateTimePrecision string
}

// KinesisStreamingDestinationInput is the request of Enable- and
// DisableKinesisStreamingDestination.
type KinesisStreamingDestinationInput struct {
	// NoTableName records that the request had no TableName member, or a
	// null one. The zero value means present.
	NoTableName bool
	TableName   string
	// NoStreamArn records that the request had no StreamArn, or a null one.
	NoStreamArn bool
	StreamArn   string
	// EnableKinesisStreamingConfiguration is nil when the request had none.
	EnableKinesisStreamingConfiguration *KinesisStreamingConfiguration
}

// KinesisStreamingDestinationOutput is the response of Enable- and
// DisableKinesisStreamingDestination.
type KinesisStreamingDestinationOutput struct {
	TableName         string
	StreamArn         string
	DestinationStatus string
	// EnableKinesisStreamingConfiguration is echoed by Enable, as {} when
	// the request had none; Disable leaves it nil.
	EnableKinesisStreamingConfiguration *KinesisStreamingConfiguration
}

// DescribeKinesisStreamingDestinationInput is
// DescribeKinesisStreamingDestination's request.
type DescribeKinesisStreamingDestinationInput struct {
	NoTableName bool
	TableName   string
}

// KinesisDataStreamDestination is one destination of a table.
type KinesisDataStreamDestination struct {
	StreamArn                            string
	DestinationStatus                    string
	DestinationStatusDescription         string
	ApproximateCreationDateTimePrecision string
}

// DescribeKinesisStreamingDestinationOutput is
// DescribeKinesisStreamingDestination's response.
type DescribeKinesisStreamingDestinationOutput struct {
	TableName                     string
	KinesisDataStreamDestinations []KinesisDataStreamDestination
}

// UpdateKinesisStreamingDestinationInput is
// UpdateKinesisStreamingDestination's request.
type UpdateKinesisStreamingDestinationInput struct {
	NoTableName bool
	TableName   string
	NoStreamArn bool
	StreamArn   string
	// UpdateKinesisStreamingConfiguration is nil when the request had none.
	UpdateKinesisStreamingConfiguration *KinesisStreamingConfiguration
}

// UpdateKinesisStreamingDestinationOutput is
// UpdateKinesisStreamingDestination's response.
type UpdateKinesisStreamingDestinationOutput struct {
	TableName                           string
	StreamArn                           string
	DestinationStatus                   string
	UpdateKinesisStreamingConfiguration *KinesisStreamingConfiguration
}
