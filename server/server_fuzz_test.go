package server

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/engine"
)

// FuzzServe sends arbitrary bodies for every operation to a live engine and
// requires DynamoDB's contract: a 200, or a 400 with a well-formed error
// body; never a 500, a panic or a hang. It exercises the request decoder,
// attribute-value validation and the engine's input checks together.
func FuzzServe(f *testing.F) {
	seeds := []struct{ op, body string }{
		{"PutItem", `{"TableName":"fuzz","Item":{"pk":{"S":"a"},"n":{"N":"-12.50"},"m":{"M":{"l":{"L":[{"NULL":true},{"BOOL":false}]}}}}}`},
		{"PutItem", `{"TableName":"fuzz","Item":{"pk":{"S":"a"},"s":{"SS":["x","x"]}}}`},
		{"PutItem", `{"TableName":"fuzz","Item":{"pk":{"S":""}}}`},
		{"PutItem", `{"TableName":"fuzz","Item":{"pk":{"S":"a"},"n":{"N":"1e126"}},"ReturnValues":"ALL_OLD"}`},
		{"GetItem", `{"TableName":"fuzz","Key":{"pk":{"S":"a"}},"AttributesToGet":["n"],"ReturnConsumedCapacity":"TOTAL"}`},
		{"DeleteItem", `{"TableName":"fuzz","Key":{"pk":{"B":"AAE="}}}`},
		{"BatchWriteItem", `{"RequestItems":{"fuzz":[{"PutRequest":{"Item":{"pk":{"S":"b"},"bs":{"BS":["AA==","AQ=="]}}}},{"DeleteRequest":{"Key":{"pk":{"S":"a"}}}}]}}`},
		{"BatchGetItem", `{"RequestItems":{"fuzz":{"Keys":[{"pk":{"S":"a"}},{"pk":{"S":"b"}}]}}}`},
		{"CreateTable", `{"TableName":"t2","AttributeDefinitions":[{"AttributeName":"k","AttributeType":"N"}],"KeySchema":[{"AttributeName":"k","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"}`},
		{"UpdateTable", `{"TableName":"fuzz","BillingMode":"PROVISIONED","ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":1}}`},
		{"ListTables", `{"Limit":1}`},
		{"DescribeTable", `{"TableName":"fuzz"}`},
		{"PutItem", `{"TableName":"fuzz","Item":{"pk":{"S":"a"},"x":{"S":"a","N":"1"}}}`},
		{"PutItem", `{"TableName":5}`},
		{"UpdateItem", `{"TableName":"fuzz","Key":{"pk":{"S":"a"}},"UpdateExpression":"SET #a[2].b = list_append(:l, #a) ADD n :one REMOVE x DELETE s :s","ConditionExpression":"attribute_not_exists(pk) OR size(#a) > :one","ExpressionAttributeNames":{"#a":"a"},"ExpressionAttributeValues":{":l":{"L":[]},":one":{"N":"1"},":s":{"SS":["x"]}},"ReturnValues":"UPDATED_NEW"}`},
		{"Query", `{"TableName":"fuzz","KeyConditionExpression":"pk = :p","FilterExpression":"contains(s, :x) AND NOT n BETWEEN :a AND :b","ExpressionAttributeValues":{":p":{"S":"a"},":x":{"S":"x"},":a":{"N":"1"},":b":{"N":"9"}},"Limit":2,"ScanIndexForward":false,"ReturnConsumedCapacity":"INDEXES"}`},
		{"Scan", `{"TableName":"fuzz","Segment":1,"TotalSegments":3,"ProjectionExpression":"a.b[0], n","Select":"SPECIFIC_ATTRIBUTES","ExclusiveStartKey":{"pk":{"S":"zz"}}}`},
		{"Query", `{"TableName":"fuzz","IndexName":"byN","KeyConditions":{"n":{"ComparisonOperator":"EQ","AttributeValueList":[{"N":"1"}]}}}`},
		{"TransactWriteItems", `{"TransactItems":[{"Put":{"TableName":"fuzz","Item":{"pk":{"S":"t1"}}}},{"Update":{"TableName":"fuzz","Key":{"pk":{"S":"t2"}},"UpdateExpression":"ADD n :one","ExpressionAttributeValues":{":one":{"N":"1"}}}},{"ConditionCheck":{"TableName":"fuzz","Key":{"pk":{"S":"a"}},"ConditionExpression":"attribute_exists(pk)"}}],"ClientRequestToken":"tok"}`},
		{"TransactGetItems", `{"TransactItems":[{"Get":{"TableName":"fuzz","Key":{"pk":{"S":"a"}},"ProjectionExpression":"n"}}]}`},
		{"UpdateTable", `{"TableName":"fuzz","AttributeDefinitions":[{"AttributeName":"g","AttributeType":"S"}],"GlobalSecondaryIndexUpdates":[{"Create":{"IndexName":"byG","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],"Projection":{"ProjectionType":"KEYS_ONLY"}}}]}`},
		{"CreateTable", `{"TableName":"t3","BillingMode":"PAY_PER_REQUEST","AttributeDefinitions":[{"AttributeName":"k","AttributeType":"S"},{"AttributeName":"s","AttributeType":"N"},{"AttributeName":"l","AttributeType":"B"}],"KeySchema":[{"AttributeName":"k","KeyType":"HASH"},{"AttributeName":"s","KeyType":"RANGE"}],"LocalSecondaryIndexes":[{"IndexName":"byL","KeySchema":[{"AttributeName":"k","KeyType":"HASH"},{"AttributeName":"l","KeyType":"RANGE"}],"Projection":{"ProjectionType":"INCLUDE","NonKeyAttributes":["x"]}}]}`},
		{"PutItem", `{"TableName":"fuzz","Item":{"pk":{"S":"a"}`},
		{"UpdateTimeToLive", `{"TableName":"fuzz","TimeToLiveSpecification":{"Enabled":true,"AttributeName":"exp"}}`},
		{"DescribeTimeToLive", `{"TableName":"fuzz"}`},
		{"CreateBackup", `{"TableName":"fuzz","BackupName":"b"}`},
		{"ListBackups", `{"TableName":"fuzz","Limit":1,"TimeRangeLowerBound":1.7E9,"BackupType":"ALL"}`},
		{"DescribeBackup", `{"BackupArn":"arn:aws:dynamodb:us-east-1:000000000000:table/fuzz/backup/01700000000123-abcdef01"}`},
		{"DeleteBackup", `{"BackupArn":"arn:aws:dynamodb:us-east-1:000000000000:table/fuzz/backup/01700000000123-abcdef01"}`},
		{"RestoreTableFromBackup", `{"TargetTableName":"r","BackupArn":"arn:aws:dynamodb:us-east-1:000000000000:table/fuzz/backup/01700000000123-abcdef01","GlobalSecondaryIndexOverride":[],"BillingModeOverride":"PAY_PER_REQUEST"}`},
		{"UpdateContinuousBackups", `{"TableName":"fuzz","PointInTimeRecoverySpecification":{"PointInTimeRecoveryEnabled":true,"RecoveryPeriodInDays":1}}`},
		{"DescribeContinuousBackups", `{"TableName":"fuzz"}`},
		{"RestoreTableToPointInTime", `{"SourceTableName":"fuzz","TargetTableName":"r2","RestoreDateTime":1.7E9,"LocalSecondaryIndexOverride":[]}`},
		{"ExportTableToPointInTime", `{"TableArn":"arn:aws:dynamodb:us-east-1:000000000000:table/fuzz","ExportTime":1.7E9,"S3Bucket":"b","ExportFormat":"DYNAMODB_JSON"}`},
		{"DescribeExport", `{"ExportArn":"arn:aws:dynamodb:us-east-1:000000000000:table/fuzz/export/01700000000123-abcdef01"}`},
		{"ListExports", `{"TableArn":"arn:aws:dynamodb:us-east-1:000000000000:table/fuzz","MaxResults":1}`},
		{"ImportTable", `{"S3BucketSource":{"S3Bucket":"b"},"InputFormat":"DYNAMODB_JSON","TableCreationParameters":{"TableName":"imp","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"}}`},
		{"DescribeImport", `{"ImportArn":"arn:aws:dynamodb:us-east-1:000000000000:table/imp/import/01700000000123-abcdef01"}`},
		{"ListImports", `{"TableArn":"arn:aws:dynamodb:us-east-1:000000000000:table/imp","PageSize":1}`},
		{"UpdateTable", `{"TableName":"fuzz","StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_AND_OLD_IMAGES"}}`},
		// An op with the Streams prefix is sent with that target as is.
		{streamTargetPrefix + "ListStreams", `{"TableName":"fuzz","Limit":2}`},
		{streamTargetPrefix + "DescribeStream", `{"StreamArn":"arn:aws:dynamodb:us-east-1:000000000000:table/fuzz/stream/x","ShardFilter":{"Type":"CHILD_SHARDS","ShardId":"s"}}`},
		{streamTargetPrefix + "GetShardIterator", `{"StreamArn":"arn:aws:dynamodb:us-east-1:000000000000:table/fuzz/stream/x","ShardId":"shardId-00000000000000000000-00000000","ShardIteratorType":"TRIM_HORIZON"}`},
		{streamTargetPrefix + "GetRecords", `{"ShardIterator":"arn|1|AAAA","Limit":1}`},
	}
	for _, s := range seeds {
		f.Add(s.op, []byte(s.body))
	}
	db, err := engine.Open(engine.Options{InMemory: true})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { db.Close() })
	_, err = db.CreateTable(&dynamo.CreateTableInput{
		TableName:            "fuzz",
		BillingMode:          dynamo.BillingModePayPerRequest,
		AttributeDefinitions: []dynamo.AttributeDefinition{{AttributeName: "pk", AttributeType: "S"}, {AttributeName: "n", AttributeType: "N"}},
		KeySchema:            []dynamo.KeySchemaElement{{AttributeName: "pk", KeyType: dynamo.KeyTypeHash}},
		GlobalSecondaryIndexes: []dynamo.GlobalSecondaryIndex{{
			IndexName:  "byN",
			KeySchema:  []dynamo.KeySchemaElement{{AttributeName: "n", KeyType: dynamo.KeyTypeHash}},
			Projection: dynamo.Projection{ProjectionType: "ALL"},
		}},
	})
	if err != nil {
		f.Fatal(err)
	}
	h := New(db, Config{})
	f.Fuzz(func(t *testing.T, op string, body []byte) {
		if strings.Contains(op, "DeleteTable") {
			return // keep the fixture table
		}
		req := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(body))
		target := targetPrefix + op
		if strings.HasPrefix(op, streamTargetPrefix) {
			target = op
		}
		req.Header.Set("X-Amz-Target", target)
		req.Header.Set("Content-Type", contentType)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		switch rec.Code {
		case http.StatusOK:
		case http.StatusBadRequest:
			var e struct {
				Type    string  `json:"__type"`
				Message *string `json:"message"`
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || !strings.Contains(e.Type, "#") {
				t.Fatalf("%s %q: malformed error body %q", op, body, rec.Body.String())
			}
		default:
			t.Fatalf("%s %q: status %d body %s", op, body, rec.Code, rec.Body.String())
		}
	})
}
