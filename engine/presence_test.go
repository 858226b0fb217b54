package engine

import (
	"errors"
	"testing"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
)

// A program embedding the engine gets DynamoDB's answers to an absent,
// a null and an empty TableName without going through the protocol
// decoder: NoTableName says absent or null, and "" is the empty name.
func TestTableNamePresence(t *testing.T) {
	db := mustOpen(t, Options{InMemory: true})
	const (
		// dynalite's test/describeTable.js, deleteTable.js,
		// updateTable.js, describeTimeToLive.js and updateTimeToLive.js
		// ("should return ValidationException for no TableName").
		required = dynamo.MsgTableNameRequired
		// The ack-api-quirks catalogue, DDB-TABLE-457
		// (describe_table_empty_name, 2026-10-09); the other table
		// operations are taken to be alike.
		tableEmpty = "2 validation errors detected: Value '' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 3; Value '' at 'tableName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+"
		// paritysuite/dynamodb-conformance tests/tier3/error-messages/
		// putItem.test.ts ("missing table name", "empty table name").
		itemNull  = "1 validation error detected: Value null at 'tableName' failed to satisfy constraint: Member must not be null"
		itemEmpty = "1 validation error detected: Value '' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 1"
		// PutItem with its Item: the validation framework's words, which
		// the newer captures/2026-10-07-sweep-follow-up.json of the same
		// suite records in us-east-1 and eu-west-2
		// (put-item-validation-error-aggregation); the test file floats
		// the form.
		putEmpty = "1 validation error detected: Value at 'TableName' failed to satisfy constraint: Member must have length greater than or equal to 1"
	)
	for _, tc := range []struct {
		name string
		call func() error
		msg  string
	}{
		{"describe table, absent", func() error { _, err := db.DescribeTable(&dynamo.DescribeTableInput{NoTableName: true}); return err }, required},
		{"describe table, empty", func() error { _, err := db.DescribeTable(&dynamo.DescribeTableInput{}); return err }, tableEmpty},
		{"delete table, absent", func() error { _, err := db.DeleteTable(&dynamo.DeleteTableInput{NoTableName: true}); return err }, required},
		{"delete table, empty", func() error { _, err := db.DeleteTable(&dynamo.DeleteTableInput{}); return err }, tableEmpty},
		// before the member constraints of the rest of the request
		// (dynalite's validations/index.js throws it first).
		{"update table, absent, bad billing mode", func() error {
			_, err := db.UpdateTable(&dynamo.UpdateTableInput{NoTableName: true, BillingMode: "X"})
			return err
		}, required},
		{"update table, empty", func() error { _, err := db.UpdateTable(&dynamo.UpdateTableInput{}); return err }, tableEmpty},
		{"describe ttl, absent", func() error {
			_, err := db.DescribeTimeToLive(&dynamo.DescribeTimeToLiveInput{NoTableName: true})
			return err
		}, required},
		{"describe ttl, empty", func() error { _, err := db.DescribeTimeToLive(&dynamo.DescribeTimeToLiveInput{}); return err }, tableEmpty},
		{"update ttl, absent, no specification", func() error {
			_, err := db.UpdateTimeToLive(&dynamo.UpdateTimeToLiveInput{NoTableName: true})
			return err
		}, required},

		{"put item, absent", func() error {
			_, err := db.PutItem(&dynamo.PutItemInput{NoTableName: true, Item: attr.Item{"pk": attr.S("a")}})
			return err
		}, itemNull},
		{"put item, empty", func() error {
			_, err := db.PutItem(&dynamo.PutItemInput{Item: attr.Item{"pk": attr.S("a")}})
			return err
		}, putEmpty},
		{"put item, empty, no item", func() error { _, err := db.PutItem(&dynamo.PutItemInput{}); return err },
			"2 validation errors detected: Value '' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 1; Value null at 'item' failed to satisfy constraint: Member must not be null"},
		{"get item, empty", func() error {
			_, err := db.GetItem(&dynamo.GetItemInput{Key: attr.Item{"pk": attr.S("a")}})
			return err
		}, itemEmpty},
		// DeleteItem with its Key alike (captures/cross-region-latest.json,
		// o_del_empty_table, eu-west-2 and us-east-1, 2026-09-20).
		{"delete item, empty", func() error {
			_, err := db.DeleteItem(&dynamo.DeleteItemInput{Key: attr.Item{"pk": attr.S("a")}})
			return err
		}, putEmpty},
		{"scan, empty", func() error { _, err := db.Scan(&dynamo.ScanInput{}); return err }, itemEmpty},
		{"scan, absent", func() error { _, err := db.Scan(&dynamo.ScanInput{NoTableName: true}); return err }, itemNull},
		{"query, empty", func() error {
			_, err := db.Query(&dynamo.QueryInput{KeyConditionExpression: "pk = :v", ExpressionAttributeValues: attr.Item{":v": attr.S("a")}})
			return err
		}, itemEmpty},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call()
			var e *dynamo.Error
			if !errors.As(err, &e) || e.Code != dynamo.CodeValidation || e.Message != tc.msg {
				t.Fatalf("got %v, want ValidationException %q", err, tc.msg)
			}
		})
	}
}
