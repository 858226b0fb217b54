package dynamo

import "time"

// Export to S3 and import from S3: ExportTableToPointInTime, DescribeExport,
// ListExports, ImportTable, DescribeImport and ListImports. Field names
// follow the API's shapes.

// Export and import enums.
const (
	ExportStatusInProgress = "IN_PROGRESS"
	ExportStatusCompleted  = "COMPLETED"
	ExportStatusFailed     = "FAILED"

	ExportFormatDynamoDBJSON = "DYNAMODB_JSON"
	ExportFormatIon          = "ION"

	ExportTypeFull        = "FULL_EXPORT"
	ExportTypeIncremental = "INCREMENTAL_EXPORT"

	ExportViewNewImage        = "NEW_IMAGE"
	ExportViewNewAndOldImages = "NEW_AND_OLD_IMAGES"

	ImportStatusInProgress = "IN_PROGRESS"
	ImportStatusCompleted  = "COMPLETED"
	ImportStatusCancelling = "CANCELLING"
	ImportStatusCancelled  = "CANCELLED"
	ImportStatusFailed     = "FAILED"

	InputFormatDynamoDBJSON = "DYNAMODB_JSON"
	InputFormatIon          = "ION"
	InputFormatCSV          = "CSV"

	InputCompressionGzip = "GZIP"
	InputCompressionZstd = "ZSTD"
	InputCompressionNone = "NONE"
)

// Error codes of exports and imports.
const (
	CodeExportNotFound    = "ExportNotFoundException"
	CodeExportConflict    = "ExportConflictException"
	CodeInvalidExportTime = "InvalidExportTimeException"
	CodeImportNotFound    = "ImportNotFoundException"
	CodeImportConflict    = "ImportConflictException"
)

// IncrementalExportSpecification bounds an incremental export.
type IncrementalExportSpecification struct {
	ExportFromTime *time.Time
	ExportToTime   *time.Time
	ExportViewType string
}

// ExportTableToPointInTimeInput is ExportTableToPointInTime's request.
type ExportTableToPointInTimeInput struct {
	TableArn                       string
	ExportTime                     *time.Time
	ClientToken                    string
	S3Bucket                       string
	S3BucketOwner                  string
	S3Prefix                       string
	S3SseAlgorithm                 string
	S3SseKmsKeyId                  string
	ExportFormat                   string
	ExportType                     string
	IncrementalExportSpecification *IncrementalExportSpecification
}

// ExportDescription describes an export.
type ExportDescription struct {
	ExportArn                      string
	ExportStatus                   string
	StartTime                      *time.Time
	EndTime                        *time.Time
	ExportManifest                 string
	TableArn                       string
	TableId                        string
	ExportTime                     *time.Time
	ClientToken                    string
	S3Bucket                       string
	S3BucketOwner                  string
	S3Prefix                       string
	S3SseAlgorithm                 string
	S3SseKmsKeyId                  string
	FailureCode                    string
	FailureMessage                 string
	ExportFormat                   string
	BilledSizeBytes                *int64
	ItemCount                      *int64
	ExportType                     string
	IncrementalExportSpecification *IncrementalExportSpecification
}

// ExportTableToPointInTimeOutput is ExportTableToPointInTime's response.
type ExportTableToPointInTimeOutput struct {
	ExportDescription *ExportDescription
}

// DescribeExportInput is DescribeExport's request.
type DescribeExportInput struct {
	ExportArn string
}

// DescribeExportOutput is DescribeExport's response.
type DescribeExportOutput struct {
	ExportDescription *ExportDescription
}

// ListExportsInput is ListExports' request.
type ListExportsInput struct {
	TableArn   string
	MaxResults *int32
	NextToken  string
}

// ExportSummary is an export as ListExports lists it.
type ExportSummary struct {
	ExportArn    string
	ExportStatus string
	ExportType   string
}

// ListExportsOutput is ListExports' response.
type ListExportsOutput struct {
	ExportSummaries []ExportSummary
	NextToken       string
}

// S3BucketSource is where an import reads.
type S3BucketSource struct {
	S3BucketOwner string
	S3Bucket      string
	S3KeyPrefix   string
}

// CsvOptions are the options of a CSV import.
type CsvOptions struct {
	Delimiter  string
	HeaderList []string
}

// InputFormatOptions are an import's format options.
type InputFormatOptions struct {
	Csv *CsvOptions
}

// TableCreationParameters is the table an import creates.
type TableCreationParameters struct {
	TableName              string
	AttributeDefinitions   []AttributeDefinition
	KeySchema              []KeySchemaElement
	BillingMode            string
	ProvisionedThroughput  *ProvisionedThroughput
	OnDemandThroughput     *OnDemandThroughput
	SSESpecification       *SSESpecification
	GlobalSecondaryIndexes []GlobalSecondaryIndex
	VectorIndexes          []VectorIndex
}

// ImportTableInput is ImportTable's request.
type ImportTableInput struct {
	ClientToken             string
	S3BucketSource          *S3BucketSource
	InputFormat             string
	InputFormatOptions      *InputFormatOptions
	InputCompressionType    string
	TableCreationParameters *TableCreationParameters
}

// ImportTableDescription describes an import.
type ImportTableDescription struct {
	ImportArn               string
	ImportStatus            string
	TableArn                string
	TableId                 string
	ClientToken             string
	S3BucketSource          *S3BucketSource
	ErrorCount              int64
	CloudWatchLogGroupArn   string
	InputFormat             string
	InputFormatOptions      *InputFormatOptions
	InputCompressionType    string
	TableCreationParameters *TableCreationParameters
	StartTime               *time.Time
	EndTime                 *time.Time
	ProcessedSizeBytes      *int64
	ProcessedItemCount      int64
	ImportedItemCount       int64
	FailureCode             string
	FailureMessage          string
}

// ImportTableOutput is ImportTable's response.
type ImportTableOutput struct {
	ImportTableDescription *ImportTableDescription
}

// DescribeImportInput is DescribeImport's request.
type DescribeImportInput struct {
	ImportArn string
}

// DescribeImportOutput is DescribeImport's response.
type DescribeImportOutput struct {
	ImportTableDescription *ImportTableDescription
}

// ListImportsInput is ListImports' request.
type ListImportsInput struct {
	TableArn  string
	PageSize  *int32
	NextToken string
}

// ImportSummary is an import as ListImports lists it.
type ImportSummary struct {
	ImportArn             string
	ImportStatus          string
	TableArn              string
	S3BucketSource        *S3BucketSource
	CloudWatchLogGroupArn string
	InputFormat           string
	StartTime             *time.Time
	EndTime               *time.Time
}

// ListImportsOutput is ListImports' response.
type ListImportsOutput struct {
	ImportSummaryList []ImportSummary
	NextToken         string
}
