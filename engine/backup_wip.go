package engine

import "github.com/dynago/dynago/dynamo"

// Placeholders while the operations are built: each answers
// UnknownOperationException, as before they existed.

func (db *DB) createBackup(*dynamo.CreateBackupInput) (*dynamo.CreateBackupOutput, error) {
	return nil, dynamo.UnknownOperation()
}
func (db *DB) describeBackup(*dynamo.DescribeBackupInput) (*dynamo.DescribeBackupOutput, error) {
	return nil, dynamo.UnknownOperation()
}
func (db *DB) listBackups(*dynamo.ListBackupsInput) (*dynamo.ListBackupsOutput, error) {
	return nil, dynamo.UnknownOperation()
}
func (db *DB) deleteBackup(*dynamo.DeleteBackupInput) (*dynamo.DeleteBackupOutput, error) {
	return nil, dynamo.UnknownOperation()
}
func (db *DB) restoreTableFromBackup(*dynamo.RestoreTableFromBackupInput) (*dynamo.RestoreTableFromBackupOutput, error) {
	return nil, dynamo.UnknownOperation()
}
func (db *DB) updateContinuousBackups(*dynamo.UpdateContinuousBackupsInput) (*dynamo.UpdateContinuousBackupsOutput, error) {
	return nil, dynamo.UnknownOperation()
}
func (db *DB) describeContinuousBackups(*dynamo.DescribeContinuousBackupsInput) (*dynamo.DescribeContinuousBackupsOutput, error) {
	return nil, dynamo.UnknownOperation()
}
func (db *DB) restoreTableToPointInTime(*dynamo.RestoreTableToPointInTimeInput) (*dynamo.RestoreTableToPointInTimeOutput, error) {
	return nil, dynamo.UnknownOperation()
}
