package engine

import "github.com/dynago/dynago/dynamo"

// Placeholders while exports and imports are built: each answers
// UnknownOperationException, as before they existed.

func (db *DB) exportTable(*dynamo.ExportTableToPointInTimeInput) (*dynamo.ExportTableToPointInTimeOutput, error) {
	return nil, dynamo.UnknownOperation()
}
func (db *DB) describeExport(*dynamo.DescribeExportInput) (*dynamo.DescribeExportOutput, error) {
	return nil, dynamo.UnknownOperation()
}
func (db *DB) listExports(*dynamo.ListExportsInput) (*dynamo.ListExportsOutput, error) {
	return nil, dynamo.UnknownOperation()
}
func (db *DB) importTable(*dynamo.ImportTableInput) (*dynamo.ImportTableOutput, error) {
	return nil, dynamo.UnknownOperation()
}
func (db *DB) describeImport(*dynamo.DescribeImportInput) (*dynamo.DescribeImportOutput, error) {
	return nil, dynamo.UnknownOperation()
}
func (db *DB) listImports(*dynamo.ListImportsInput) (*dynamo.ListImportsOutput, error) {
	return nil, dynamo.UnknownOperation()
}
