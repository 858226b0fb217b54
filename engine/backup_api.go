package engine

import "github.com/dynago/dynago/dynamo"

// The public operations of on-demand backups (engine/backup.go) and
// point-in-time recovery (engine/pitr.go), each one call of the envelope.

// CreateBackup takes an on-demand backup of a table.
func (db *DB) CreateBackup(in *dynamo.CreateBackupInput) (*dynamo.CreateBackupOutput, error) {
	return run(db, opCreateBackup, func() (*dynamo.CreateBackupOutput, error) { return db.createBackup(in) })
}

// DescribeBackup describes a backup.
func (db *DB) DescribeBackup(in *dynamo.DescribeBackupInput) (*dynamo.DescribeBackupOutput, error) {
	return run(db, opDescribeBackup, func() (*dynamo.DescribeBackupOutput, error) { return db.describeBackup(in) })
}

// ListBackups lists backups, newest last, a page at a time.
func (db *DB) ListBackups(in *dynamo.ListBackupsInput) (*dynamo.ListBackupsOutput, error) {
	return run(db, opListBackups, func() (*dynamo.ListBackupsOutput, error) { return db.listBackups(in) })
}

// DeleteBackup deletes a backup.
func (db *DB) DeleteBackup(in *dynamo.DeleteBackupInput) (*dynamo.DeleteBackupOutput, error) {
	return run(db, opDeleteBackup, func() (*dynamo.DeleteBackupOutput, error) { return db.deleteBackup(in) })
}

// RestoreTableFromBackup creates a table from a backup.
func (db *DB) RestoreTableFromBackup(in *dynamo.RestoreTableFromBackupInput) (*dynamo.RestoreTableFromBackupOutput, error) {
	return run(db, opRestoreTableFromBackup, func() (*dynamo.RestoreTableFromBackupOutput, error) { return db.restoreTableFromBackup(in) })
}

// UpdateContinuousBackups turns a table's point-in-time recovery on or off.
func (db *DB) UpdateContinuousBackups(in *dynamo.UpdateContinuousBackupsInput) (*dynamo.UpdateContinuousBackupsOutput, error) {
	return run(db, opUpdateContinuousBackups, func() (*dynamo.UpdateContinuousBackupsOutput, error) { return db.updateContinuousBackups(in) })
}

// DescribeContinuousBackups describes a table's point-in-time recovery.
func (db *DB) DescribeContinuousBackups(in *dynamo.DescribeContinuousBackupsInput) (*dynamo.DescribeContinuousBackupsOutput, error) {
	return run(db, opDescribeContinuousBackups, func() (*dynamo.DescribeContinuousBackupsOutput, error) { return db.describeContinuousBackups(in) })
}

// RestoreTableToPointInTime creates a table as another was at a moment
// of its recovery window.
func (db *DB) RestoreTableToPointInTime(in *dynamo.RestoreTableToPointInTimeInput) (*dynamo.RestoreTableToPointInTimeOutput, error) {
	return run(db, opRestoreTableToPointInTime, func() (*dynamo.RestoreTableToPointInTimeOutput, error) { return db.restoreTableToPointInTime(in) })
}

// ExportTableToPointInTime exports a table, as it was at a moment of its
// recovery window, to S3 in DynamoDB's export layout.
func (db *DB) ExportTableToPointInTime(in *dynamo.ExportTableToPointInTimeInput) (*dynamo.ExportTableToPointInTimeOutput, error) {
	return run(db, opExportTableToPointInTime, func() (*dynamo.ExportTableToPointInTimeOutput, error) { return db.exportTable(in) })
}

// DescribeExport describes an export.
func (db *DB) DescribeExport(in *dynamo.DescribeExportInput) (*dynamo.DescribeExportOutput, error) {
	return run(db, opDescribeExport, func() (*dynamo.DescribeExportOutput, error) { return db.describeExport(in) })
}

// ListExports lists exports.
func (db *DB) ListExports(in *dynamo.ListExportsInput) (*dynamo.ListExportsOutput, error) {
	return run(db, opListExports, func() (*dynamo.ListExportsOutput, error) { return db.listExports(in) })
}

// ImportTable creates a table from files in S3.
func (db *DB) ImportTable(in *dynamo.ImportTableInput) (*dynamo.ImportTableOutput, error) {
	return run(db, opImportTable, func() (*dynamo.ImportTableOutput, error) { return db.importTable(in) })
}

// DescribeImport describes an import.
func (db *DB) DescribeImport(in *dynamo.DescribeImportInput) (*dynamo.DescribeImportOutput, error) {
	return run(db, opDescribeImport, func() (*dynamo.DescribeImportOutput, error) { return db.describeImport(in) })
}

// ListImports lists imports.
func (db *DB) ListImports(in *dynamo.ListImportsInput) (*dynamo.ListImportsOutput, error) {
	return run(db, opListImports, func() (*dynamo.ListImportsOutput, error) { return db.listImports(in) })
}
