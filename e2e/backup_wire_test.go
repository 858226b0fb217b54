package e2e

import (
	"bytes"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/dynago/dynago/local"
)

// The wire of on-demand backups and point-in-time recovery: each
// operation reaches the engine through the server's routing, its codec
// and the direct client. What the engine answers is tested in
// backup_test.go; until it is written each operation answers
// UnknownOperationException from the engine.

const backupTestArn = "arn:aws:dynamodb:us-east-1:000000000000:table/bak/backup/01700000000123-abcdef01"

// TestBackupOperationsRouted calls each of the eight operations through
// the SDK with valid members and expects the engine's answer, for now
// UnknownOperationException (the real answers are tested in
// backup_test.go).
func TestBackupOperationsRouted(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "bak", types.ScalarAttributeTypeS)
	calls := []struct {
		op   string
		call func(c local.API) error
	}{
		{"CreateBackup", func(c local.API) error {
			_, err := c.CreateBackup(bg(), &dynamodb.CreateBackupInput{TableName: aws.String("bak"), BackupName: aws.String("b1")})
			return err
		}},
		{"DescribeBackup", func(c local.API) error {
			_, err := c.DescribeBackup(bg(), &dynamodb.DescribeBackupInput{BackupArn: aws.String(backupTestArn)})
			return err
		}},
		{"ListBackups", func(c local.API) error {
			_, err := c.ListBackups(bg(), &dynamodb.ListBackupsInput{TableName: aws.String("bak"), Limit: aws.Int32(5),
				TimeRangeLowerBound: aws.Time(time.Unix(1700000000, 0)), BackupType: types.BackupTypeFilterAll})
			return err
		}},
		{"DeleteBackup", func(c local.API) error {
			_, err := c.DeleteBackup(bg(), &dynamodb.DeleteBackupInput{BackupArn: aws.String(backupTestArn)})
			return err
		}},
		{"RestoreTableFromBackup", func(c local.API) error {
			_, err := c.RestoreTableFromBackup(bg(), &dynamodb.RestoreTableFromBackupInput{TargetTableName: aws.String("bak2"),
				BackupArn: aws.String(backupTestArn), GlobalSecondaryIndexOverride: []types.GlobalSecondaryIndex{},
				BillingModeOverride: types.BillingModePayPerRequest})
			return err
		}},
		{"UpdateContinuousBackups", func(c local.API) error {
			_, err := c.UpdateContinuousBackups(bg(), &dynamodb.UpdateContinuousBackupsInput{TableName: aws.String("bak"),
				PointInTimeRecoverySpecification: &types.PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: aws.Bool(true)}})
			return err
		}},
		{"DescribeContinuousBackups", func(c local.API) error {
			_, err := c.DescribeContinuousBackups(bg(), &dynamodb.DescribeContinuousBackupsInput{TableName: aws.String("bak")})
			return err
		}},
		{"RestoreTableToPointInTime", func(c local.API) error {
			_, err := c.RestoreTableToPointInTime(bg(), &dynamodb.RestoreTableToPointInTimeInput{SourceTableName: aws.String("bak"),
				TargetTableName: aws.String("bak3"), UseLatestRestorableTime: aws.Bool(true)})
			return err
		}},
	}
	for _, tc := range calls {
		t.Run(tc.op, func(t *testing.T) {
			err := tc.call(c)
			var ae smithy.APIError
			if !errorsAs(err, &ae) || ae.ErrorCode() != "UnknownOperationException" {
				t.Fatalf("%s: %v, want the engine's UnknownOperationException for now", tc.op, err)
			}
			var oe *smithy.OperationError
			if !errorsAs(err, &oe) || oe.OperationName != tc.op {
				t.Errorf("%s: error %v not of the operation", tc.op, err)
			}
		})
	}
}

// TestBackupOperationsDecoded sends each operation a member of the wrong
// JSON type: the server routes it to its decoder, which answers the
// SerializationException DynamoDB gives that type of member (the same
// texts as TestSerializationErrors' recorded ones for String, Integer,
// Boolean, Long and structure members), where an operation the server
// does not route answers UnknownOperationException whatever its body.
func TestBackupOperationsDecoded(t *testing.T) {
	needsWire(t)
	s, _ := start(t)
	for _, tc := range []struct{ op, body, msg string }{
		{"CreateBackup", `{"TableName":"t","BackupName":5}`, "NUMBER_VALUE cannot be converted to String"},
		{"DescribeBackup", `{"BackupArn":true}`, "TRUE_VALUE cannot be converted to String"},
		{"ListBackups", `{"Limit":"5"}`, "STRING_VALUE cannot be converted to Integer"},
		{"DeleteBackup", `{"BackupArn":[]}`, "Unrecognized collection type class java.lang.String"},
		{"RestoreTableFromBackup", `{"TargetTableName":"r","BackupArn":"a","GlobalSecondaryIndexOverride":"x"}`, "Unexpected field type"},
		{"RestoreTableFromBackup", `{"TargetTableName":"r","BackupArn":"a","ProvisionedThroughputOverride":{"ReadCapacityUnits":"1"}}`, "STRING_VALUE cannot be converted to Long"},
		{"RestoreTableFromBackup", `{"TargetTableName":"r","BackupArn":"a","LocalSecondaryIndexOverride":[5]}`, "Unexpected value type in payload"},
		{"UpdateContinuousBackups", `{"TableName":"t","PointInTimeRecoverySpecification":{"PointInTimeRecoveryEnabled":23}}`, "NUMBER_VALUE cannot be converted to Boolean"},
		{"UpdateContinuousBackups", `{"TableName":"t","PointInTimeRecoverySpecification":{"PointInTimeRecoveryEnabled":"23"}}`, "Unexpected token received from parser"},
		{"DescribeContinuousBackups", `{"TableName":{}}`, "Start of structure or map found where not expected"},
		{"RestoreTableToPointInTime", `{"TargetTableName":"r","SSESpecificationOverride":"x"}`, "Unexpected field type"},
		{"RestoreTableToPointInTime", `{"TargetTableName":"r","LocalSecondaryIndexOverride":{}}`, "Start of structure or map found where not expected"},
	} {
		t.Run(tc.op, func(t *testing.T) {
			res := s.Raw(t, tc.op, tc.body)
			checkRaw(t, res, 400, nsCoral+"SerializationException", tc.msg)
			if !bytes.Contains(res.Body, []byte(`"Message":`)) {
				t.Errorf("SerializationException message not under \"Message\": %s", res.Body)
			}
		})
	}
}
