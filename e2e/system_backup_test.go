package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TestSystemBackupOfDeletedTable deletes a table with point-in-time
// recovery on: DynamoDB keeps a SYSTEM backup of it, named
// "<table>$DeletedTableBackup", for 35 days, which ListBackups shows only
// for BackupType SYSTEM or ALL, which cannot be deleted, and which
// restores the table as it was right before its deletion. A table without
// point-in-time recovery leaves none. Sources: the developer guide
// (Point-in-time recovery: how it works, "Delete a table with
// point-in-time recovery enabled"), and the ack-api-quirks lab's backup
// catalogue, DDB-BACKUP-014 and -015 (ARN suffix -00000000, empty
// SourceTableFeatureDetails, DeleteBackup's ValidationException; recorded
// 2026-10-09 in us-west-2).
func TestSystemBackupOfDeletedTable(t *testing.T) {
	_, c := start(t)
	want := createBackupSource(t, c, "orders", 40)
	createBackupSource(t, c, "plain", 3)
	_, err := c.UpdateContinuousBackups(bg(), &dynamodb.UpdateContinuousBackupsInput{TableName: aws.String("orders"),
		PointInTimeRecoverySpecification: &types.PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: aws.Bool(true)}})
	if err != nil {
		t.Fatal(err)
	}
	before := time.Now().Add(-time.Second)
	for _, name := range []string{"orders", "plain"} {
		if _, err := c.DeleteTable(bg(), &dynamodb.DeleteTableInput{TableName: aws.String(name)}); err != nil {
			t.Fatal(err)
		}
	}
	after := time.Now().Add(time.Second)

	list := func(typ types.BackupTypeFilter) []types.BackupSummary {
		t.Helper()
		out, err := c.ListBackups(bg(), &dynamodb.ListBackupsInput{BackupType: typ})
		if err != nil {
			t.Fatal(err)
		}
		return out.BackupSummaries
	}
	if got := list(""); len(got) != 0 {
		t.Fatalf("ListBackups with the default type (USER) lists %d backups", len(got))
	}
	for _, typ := range []types.BackupTypeFilter{types.BackupTypeFilterSystem, types.BackupTypeFilterAll} {
		got := list(typ)
		if len(got) != 1 {
			t.Fatalf("ListBackups %s: %d backups, want only the deleted table's with PITR on", typ, len(got))
		}
		s := got[0]
		if aws.ToString(s.BackupName) != "orders$DeletedTableBackup" || s.BackupType != types.BackupTypeSystem ||
			s.BackupStatus != types.BackupStatusAvailable || aws.ToString(s.TableName) != "orders" {
			t.Fatalf("ListBackups %s: %+v", typ, s)
		}
	}
	arn := aws.ToString(list(types.BackupTypeFilterSystem)[0].BackupArn)
	if !strings.HasPrefix(arn, tableARN("orders")+"/backup/") || !strings.HasSuffix(arn, "-00000000") {
		t.Fatalf("SYSTEM backup ARN %q", arn)
	}

	desc, err := c.DescribeBackup(bg(), &dynamodb.DescribeBackupInput{BackupArn: aws.String(arn)})
	if err != nil {
		t.Fatal(err)
	}
	d := desc.BackupDescription
	created := aws.ToTime(d.BackupDetails.BackupCreationDateTime)
	if created.Before(before) || created.After(after) {
		t.Errorf("created at %v, not at the deletion (%v to %v)", created, before, after)
	}
	if exp := d.BackupDetails.BackupExpiryDateTime; exp == nil || !exp.Equal(created.AddDate(0, 0, 35)) {
		t.Errorf("BackupExpiryDateTime %v, want 35 days after %v", exp, created)
	}
	if aws.ToInt64(d.SourceTableDetails.ItemCount) != int64(len(want)) {
		t.Errorf("SourceTableDetails.ItemCount %d, want %d", aws.ToInt64(d.SourceTableDetails.ItemCount), len(want))
	}
	if f := d.SourceTableFeatureDetails; f == nil || len(f.GlobalSecondaryIndexes) != 0 || f.SSEDescription != nil {
		t.Errorf("SourceTableFeatureDetails %+v, want empty", f)
	}

	_, err = c.DeleteBackup(bg(), &dynamodb.DeleteBackupInput{BackupArn: aws.String(arn)})
	wantErrPrefix(t, err, "ValidationException",
		"Invalid Request: User is not allowed to delete the system backup with arn "+arn+". It will automatically expire on ")

	if _, err := c.RestoreTableFromBackup(bg(), &dynamodb.RestoreTableFromBackupInput{TargetTableName: aws.String("orders"), BackupArn: aws.String(arn)}); err != nil {
		t.Fatal(err)
	}
	restored := waitTableActive(t, c, "orders")
	if len(restored.GlobalSecondaryIndexes) != 1 {
		t.Fatalf("restored GSIs %+v", restored.GlobalSecondaryIndexes)
	}
	sameRestored(t, c, "orders", want)
	// The backup outlives the restore, and the restored table starts
	// with point-in-time recovery off (quirks, DDB-TABLE-215).
	if _, err := c.DescribeBackup(bg(), &dynamodb.DescribeBackupInput{BackupArn: aws.String(arn)}); err != nil {
		t.Fatal(err)
	}
	cb, err := c.DescribeContinuousBackups(bg(), &dynamodb.DescribeContinuousBackupsInput{TableName: aws.String("orders")})
	if err != nil {
		t.Fatal(err)
	}
	if s := cb.ContinuousBackupsDescription.PointInTimeRecoveryDescription.PointInTimeRecoveryStatus; s != types.PointInTimeRecoveryStatusDisabled {
		t.Errorf("the restored table's PITR is %s", s)
	}
}
