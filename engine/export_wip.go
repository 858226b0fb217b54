package engine

import "github.com/dynago/dynago/dynamo"

// Placeholders while imports are built: each answers
// UnknownOperationException, as before they existed.

func (db *DB) importTable(*dynamo.ImportTableInput) (*dynamo.ImportTableOutput, error) {
	return nil, dynamo.UnknownOperation()
}
func (db *DB) describeImport(*dynamo.DescribeImportInput) (*dynamo.DescribeImportOutput, error) {
	return nil, dynamo.UnknownOperation()
}
func (db *DB) listImports(*dynamo.ListImportsInput) (*dynamo.ListImportsOutput, error) {
	return nil, dynamo.UnknownOperation()
}
func (db *DB) resumeImports() error { return nil }
