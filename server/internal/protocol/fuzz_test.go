package protocol

import (
	"errors"
	"strconv"
	"testing"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
)

// fuzzDecoders runs every request decoder on one body and returns the items
// and keys it decoded, so the fuzz target can validate them as the engine
// would.
var fuzzDecoders = []func(body []byte) ([]attr.Item, error){
	func(b []byte) ([]attr.Item, error) {
		in, err := DecodeSearchVectors(b)
		if err == nil {
			err = in.ValueError // handed to the engine, which reports it first
		}
		if err != nil {
			return nil, err
		}
		vec := attr.Item{}
		for i, v := range in.SearchVector {
			vec[strconv.Itoa(i)] = v
		}
		return []attr.Item{vec, in.ExpressionAttributeValues}, nil
	},
	func(b []byte) ([]attr.Item, error) {
		in, err := DecodePutItem(b)
		if err == nil {
			err = in.ValueError // handed to the engine, which reports it first
		}
		if err != nil {
			return nil, err
		}
		return []attr.Item{in.Item, in.ExpressionAttributeValues}, nil
	},
	func(b []byte) ([]attr.Item, error) {
		in, err := DecodeGetItem(b)
		if err == nil {
			err = in.ValueError // handed to the engine, which reports it first
		}
		if err != nil {
			return nil, err
		}
		return []attr.Item{in.Key}, nil
	},
	func(b []byte) ([]attr.Item, error) {
		in, err := DecodeDeleteItem(b)
		if err == nil {
			err = in.ValueError // handed to the engine, which reports it first
		}
		if err != nil {
			return nil, err
		}
		return []attr.Item{in.Key, in.ExpressionAttributeValues}, nil
	},
	func(b []byte) ([]attr.Item, error) {
		in, err := DecodeUpdateItem(b)
		if err == nil {
			err = in.ValueError // handed to the engine, which reports it first
		}
		if err != nil {
			return nil, err
		}
		return []attr.Item{in.Key, in.ExpressionAttributeValues}, nil
	},
	func(b []byte) ([]attr.Item, error) {
		in, err := DecodeBatchWriteItem(b)
		if err != nil {
			return nil, err
		}
		var out []attr.Item
		for _, reqs := range in.RequestItems {
			for _, r := range reqs {
				if r.PutRequest != nil {
					out = append(out, r.PutRequest.Item)
				}
				if r.DeleteRequest != nil {
					out = append(out, r.DeleteRequest.Key)
				}
			}
		}
		return out, nil
	},
	func(b []byte) ([]attr.Item, error) {
		in, err := DecodeBatchGetItem(b)
		if err != nil {
			return nil, err
		}
		var out []attr.Item
		for _, ka := range in.RequestItems {
			out = append(out, ka.Keys...)
		}
		return out, nil
	},
	func(b []byte) ([]attr.Item, error) { _, err := DecodeCreateTable(b); return nil, err },
	func(b []byte) ([]attr.Item, error) { _, err := DecodeUpdateTable(b); return nil, err },
	func(b []byte) ([]attr.Item, error) { _, err := DecodeListTables(b); return nil, err },
	func(b []byte) ([]attr.Item, error) { _, err := DecodeTagResource(b); return nil, err },
	func(b []byte) ([]attr.Item, error) { _, err := DecodeUntagResource(b); return nil, err },
	func(b []byte) ([]attr.Item, error) { _, err := DecodeListStreams(b); return nil, err },
	func(b []byte) ([]attr.Item, error) { _, err := DecodeDescribeStream(b); return nil, err },
	func(b []byte) ([]attr.Item, error) { _, err := DecodeGetShardIterator(b); return nil, err },
	func(b []byte) ([]attr.Item, error) { _, err := DecodeGetRecords(b); return nil, err },
	func(b []byte) ([]attr.Item, error) { _, err := DecodeUpdateTimeToLive(b); return nil, err },
	func(b []byte) ([]attr.Item, error) { _, err := DecodeDescribeTimeToLive(b); return nil, err },
	func(b []byte) ([]attr.Item, error) { _, err := DecodeCreateBackup(b); return nil, err },
	func(b []byte) ([]attr.Item, error) { _, err := DecodeDescribeBackup(b); return nil, err },
	func(b []byte) ([]attr.Item, error) { _, err := DecodeListBackups(b); return nil, err },
	func(b []byte) ([]attr.Item, error) { _, err := DecodeDeleteBackup(b); return nil, err },
	func(b []byte) ([]attr.Item, error) { _, err := DecodeRestoreTableFromBackup(b); return nil, err },
	func(b []byte) ([]attr.Item, error) { _, err := DecodeUpdateContinuousBackups(b); return nil, err },
	func(b []byte) ([]attr.Item, error) { _, err := DecodeDescribeContinuousBackups(b); return nil, err },
	func(b []byte) ([]attr.Item, error) { _, err := DecodeRestoreTableToPointInTime(b); return nil, err },
	func(b []byte) ([]attr.Item, error) { _, err := DecodeExportTableToPointInTime(b); return nil, err },
	func(b []byte) ([]attr.Item, error) { _, err := DecodeDescribeExport(b); return nil, err },
	func(b []byte) ([]attr.Item, error) { _, err := DecodeListExports(b); return nil, err },
	func(b []byte) ([]attr.Item, error) { _, err := DecodeImportTable(b); return nil, err },
	func(b []byte) ([]attr.Item, error) { _, err := DecodeDescribeImport(b); return nil, err },
	func(b []byte) ([]attr.Item, error) { _, err := DecodeListImports(b); return nil, err },
	func(b []byte) ([]attr.Item, error) { _, err := DecodeDescribeContributorInsights(b); return nil, err },
	func(b []byte) ([]attr.Item, error) { _, err := DecodeUpdateContributorInsights(b); return nil, err },
	func(b []byte) ([]attr.Item, error) { _, err := DecodeListContributorInsights(b); return nil, err },
	func(b []byte) ([]attr.Item, error) { _, err := DecodePutResourcePolicy(b); return nil, err },
	func(b []byte) ([]attr.Item, error) { _, err := DecodeGetResourcePolicy(b); return nil, err },
	func(b []byte) ([]attr.Item, error) { _, err := DecodeDeleteResourcePolicy(b); return nil, err },
	func(b []byte) ([]attr.Item, error) { _, err := DecodeDescribeGlobalTable(b); return nil, err },
	func(b []byte) ([]attr.Item, error) { _, err := DecodeDescribeGlobalTableSettings(b); return nil, err },
	func(b []byte) ([]attr.Item, error) { _, err := DecodeListGlobalTables(b); return nil, err },
	func(b []byte) ([]attr.Item, error) {
		_, err := DecodeDescribeTableReplicaAutoScaling(b)
		return nil, err
	},
	func(b []byte) ([]attr.Item, error) {
		_, err := DecodeEnableKinesisStreamingDestination(b)
		return nil, err
	},
	func(b []byte) ([]attr.Item, error) {
		_, err := DecodeDescribeKinesisStreamingDestination(b)
		return nil, err
	},
	func(b []byte) ([]attr.Item, error) {
		_, err := DecodeDisableKinesisStreamingDestination(b)
		return nil, err
	},
	func(b []byte) ([]attr.Item, error) {
		_, err := DecodeUpdateKinesisStreamingDestination(b)
		return nil, err
	},
	func(b []byte) ([]attr.Item, error) {
		_, err := DecodeUpdateTableReplicaAutoScaling(b)
		return nil, err
	},
}

// FuzzDecodeRequest feeds arbitrary bodies to every request decoder and then
// to attribute-value validation, as a request takes them. Neither may panic;
// a decoder fails only with a SerializationException or a
// ValidationException; validation fails only with an *attr.Error; and an
// item that validates is canonical (validating it again changes nothing and
// its binary encoding decodes back to it).
func FuzzDecodeRequest(f *testing.F) {
	for _, s := range []string{
		`{}`,
		`{"TableName":"t","Item":{"pk":{"S":"a"},"n":{"N":"-12.50"},"m":{"M":{"l":{"L":[{"NULL":true},{"BOOL":false},{"B":"AAE="}]}}}}}`,
		`{"TableName":"t","Item":{"ss":{"SS":["x","x"]},"ns":{"NS":["1","1.0"]},"bs":{"BS":["AA=="]}}}`,
		`{"TableName":"t","Key":{"pk":{"N":"1e126"}},"AttributesToGet":["a","b"],"ConsistentRead":true}`,
		`{"TableName":"t","Key":{"pk":{"S":"a"}},"UpdateExpression":"SET a = :v","ExpressionAttributeValues":{":v":{"N":"1"}},"AttributeUpdates":{"a":{"Action":"ADD","Value":{"N":"1"}}}}`,
		`{"RequestItems":{"t":[{"PutRequest":{"Item":{"pk":{"S":"b"}}}},{"DeleteRequest":{"Key":{"pk":{"S":"a"}}}}]}}`,
		`{"RequestItems":{"t":{"Keys":[{"pk":{"S":"a"}}],"ProjectionExpression":"a"}}}`,
		`{"TableName":"t","AttributeDefinitions":[{"AttributeName":"k","AttributeType":"N"}],"KeySchema":[{"AttributeName":"k","KeyType":"HASH"}],"ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":1}}`,
		`{"Limit":1,"ExclusiveStartTableName":"a"}`,
		`{"ResourceArn":"arn:aws:dynamodb:us-east-1:000000000000:table/t","Tags":[{"Key":"k","Value":"v"}]}`,
		`{"TableName":"t","Item":{"pk":{"S":"a","N":"1"}}}`,
		`{"TableName":"t","Limit":2,"ExclusiveStartStreamArn":"arn:aws:dynamodb:us-east-1:000000000000:table/t/stream/x"}`,
		`{"StreamArn":"arn:aws:dynamodb:us-east-1:000000000000:table/t/stream/x","Limit":1,"ShardFilter":{"Type":"CHILD_SHARDS","ShardId":"s"}}`,
		`{"StreamArn":"a","ShardId":"s","ShardIteratorType":"AT_TIMESTAMP","Timestamp":1.7000000001E9,"SequenceNumber":"100000000000000000001"}`,
		`{"ShardIterator":"arn|1|AAAA","Limit":1000}`,
		`{"TableName":"t","TimeToLiveSpecification":{"Enabled":true,"AttributeName":"exp"}}`,
		`{"TableName":"t","BackupName":"b"}`,
		`{"BackupArn":"arn:aws:dynamodb:us-east-1:000000000000:table/t/backup/01700000000123-abcdef01"}`,
		`{"TableName":"t","Limit":2,"TimeRangeLowerBound":1.7E9,"TimeRangeUpperBound":1700000100.5,"BackupType":"ALL","ExclusiveStartBackupArn":"a"}`,
		`{"TargetTableName":"r","BackupArn":"a","BillingModeOverride":"PROVISIONED","GlobalSecondaryIndexOverride":[{"IndexName":"g","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}],"LocalSecondaryIndexOverride":[],"ProvisionedThroughputOverride":{"ReadCapacityUnits":1,"WriteCapacityUnits":1},"OnDemandThroughputOverride":{"MaxReadRequestUnits":5},"SSESpecificationOverride":{"Enabled":true}}`,
		`{"TableName":"t","PointInTimeRecoverySpecification":{"PointInTimeRecoveryEnabled":true,"RecoveryPeriodInDays":7}}`,
		`{"SourceTableName":"t","TargetTableName":"r","UseLatestRestorableTime":false,"RestoreDateTime":1.7000000001E9,"GlobalSecondaryIndexOverride":[]}`,
		`{"TableArn":"arn:aws:dynamodb:us-east-1:000000000000:table/t","ExportTime":1.7000000001E9,"S3Bucket":"b","ExportType":"INCREMENTAL_EXPORT","IncrementalExportSpecification":{"ExportFromTime":1.7E9,"ExportToTime":1700000100,"ExportViewType":"NEW_IMAGE"}}`,
		`{"ExportArn":"arn:aws:dynamodb:us-east-1:000000000000:table/t/export/01700000000123-abcdef01"}`,
		`{"TableArn":"arn:aws:dynamodb:us-east-1:000000000000:table/t","MaxResults":5,"NextToken":"n","PageSize":2}`,
		`{"S3BucketSource":{"S3Bucket":"b","S3KeyPrefix":"p/"},"InputFormat":"CSV","InputFormatOptions":{"Csv":{"Delimiter":",","HeaderList":["pk"]}},"InputCompressionType":"GZIP","TableCreationParameters":{"TableName":"t","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST","GlobalSecondaryIndexes":[],"SSESpecification":{"Enabled":true}}}`,
		`{"ImportArn":"arn:aws:dynamodb:us-east-1:000000000000:table/t/import/01700000000123-abcdef01"}`,
		`{"TableName":"t","IndexName":"g","ContributorInsightsAction":"ENABLE","ContributorInsightsMode":"THROTTLED_KEYS"}`,
		`{"TableName":"t","MaxResults":5,"NextToken":"t/g"}`,
		`{"ResourceArn":"arn:aws:dynamodb:us-east-1:000000000000:table/t","Policy":"{}","ExpectedRevisionId":"NO_POLICY","ConfirmRemoveSelfResourceAccess":false}`,
		`{"TableName":"t","ProvisionedWriteCapacityAutoScalingUpdate":{"MinimumUnits":1,"MaximumUnits":5,"ScalingPolicyUpdate":{"TargetTrackingScalingPolicyConfiguration":{"TargetValue":70}}},"ReplicaUpdates":[{"RegionName":"us-west-2","ReplicaGlobalSecondaryIndexUpdates":[{"IndexName":"g","ProvisionedReadCapacityAutoScalingUpdate":{"AutoScalingDisabled":true}}]}]}`,
		`{"TableName":"t","StreamArn":"arn:aws:kinesis:us-east-1:000000000000:stream/s","EnableKinesisStreamingConfiguration":{"ApproximateCreationDateTimePrecision":"MICROSECOND"}}`,
		`{"TableName":"t","AttributeDefinitions":[{"AttributeName":"k","AttributeType":"S"}],"KeySchema":[{"AttributeName":"k","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST","VectorIndexes":[{"IndexName":"v","VectorAttribute":{"AttributeName":"e"},"SearchSchema":[{"AttributeName":"k","SearchSchemaElementType":"HASH"}],"Projection":{"ProjectionType":"ALL"},"Dimensions":2.5,"DistanceFunction":"COSINE"}]}`,
		`{"TableName":"t","VectorIndexUpdates":[{"Create":{"IndexName":"v","VectorAttribute":{"AttributeName":"e"},"Projection":{"ProjectionType":"KEYS_ONLY"},"Dimensions":4,"DistanceFunction":"EUCLIDEAN"}},{"Delete":{"IndexName":"w"}}]}`,
		`{"GlobalTableName":"g"}`,
		`{"ExclusiveStartGlobalTableName":"g","Limit":1,"RegionName":"us-east-1"}`,
		`{"TableName":5}`,
		`{"TableName":"t","IndexName":"vix","SearchVector":[{"N":"0.1"},{"N":"-3e2"},{"L":[]}],"TopK":5,"SearchConditionExpression":"#t = :t AND c = :c","ExpressionAttributeNames":{"#t":"tenant"},"ExpressionAttributeValues":{":t":{"S":"a"},":c":{"N":"1"}},"ProjectionExpression":"pk, emb","ReturnConsumedCapacity":"TOTAL"}`,
		`{"TableName":"t","IndexName":"vix","SearchVector":[],"TopK":3.5}`,
		`{"TableName":"t","IndexName":"vix","SearchVector":{"L":[{"N":"1"}]},"TopK":"1"}`,
		`{"TableName":"t","Item":{"pk":{"S":"\ud800"}}}`,
		`{"TableName":"t","Item":{"a":{"L":[[[[[[[[`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		for i, decode := range fuzzDecoders {
			items, err := decode(body)
			if err != nil {
				var e *dynamo.Error
				if !errors.As(err, &e) || (e.Code != dynamo.CodeSerialization && e.Code != dynamo.CodeValidation) {
					t.Fatalf("decoder %d: error %#v is not a Serialization or Validation exception", i, err)
				}
				continue
			}
			for _, it := range items {
				checkValidation(t, it)
			}
		}
	})
}

func checkValidation(t *testing.T, it attr.Item) {
	t.Helper()
	if it == nil {
		return
	}
	err := attr.CanonicalizeItem(it)
	if err != nil {
		var ae *attr.Error
		if !errors.As(err, &ae) || ae.Message == "" {
			t.Fatalf("CanonicalizeItem: %#v is not an *attr.Error with a message", err)
		}
		return
	}
	enc := attr.AppendItem(nil, it)
	if err := attr.CanonicalizeItem(it); err != nil {
		t.Fatalf("a canonical item failed validation again: %v", err)
	}
	if again := attr.AppendItem(nil, it); string(again) != string(enc) {
		t.Fatal("validating a canonical item changed it")
	}
	back, err := attr.DecodeItem(enc)
	if err != nil {
		t.Fatalf("DecodeItem(AppendItem(item)): %v", err)
	}
	if string(attr.AppendItem(nil, back)) != string(enc) {
		t.Fatal("binary round trip changed the item")
	}
}
