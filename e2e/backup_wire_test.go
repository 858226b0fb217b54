package e2e

import (
	"bytes"
	"testing"
)

// The wire of on-demand backups and point-in-time recovery: each
// operation reaches its decoder through the server's routing. What the
// engine answers is tested in backup_test.go.

const backupTestArn = "arn:aws:dynamodb:us-east-1:000000000000:table/bak/backup/01700000000123-abcdef01"

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
