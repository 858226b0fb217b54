package protocol

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
)

// The Streams and Time to Live decoders join the generic decoder tests.
func init() {
	decoders["ListStreams"] = wrap(DecodeListStreams)
	decoders["DescribeStream"] = wrap(DecodeDescribeStream)
	decoders["GetShardIterator"] = wrap(DecodeGetShardIterator)
	decoders["GetRecords"] = wrap(DecodeGetRecords)
	decoders["UpdateTimeToLive"] = wrap(DecodeUpdateTimeToLive)
	decoders["DescribeTimeToLive"] = wrap(DecodeDescribeTimeToLive)
}

func TestDecodeStreamsAndTTL(t *testing.T) {
	const arn = "arn:aws:dynamodb:us-east-1:000000000000:table/t/stream/2024-05-06T07:08:09.123"
	ts := time.Unix(1700000000, 250e6).UTC()
	tests := []struct {
		op   string
		body string
		want any
	}{
		{"ListStreams", `{}`, &dynamo.ListStreamsInput{}},
		{"ListStreams", `{"TableName":"t","Limit":2,"ExclusiveStartStreamArn":"` + arn + `","x":[1]}`,
			&dynamo.ListStreamsInput{TableName: "t", Limit: ptr[int32](2), ExclusiveStartStreamArn: arn}},
		{"ListStreams", `{"Limit":null,"TableName":null}`, &dynamo.ListStreamsInput{}},
		{"DescribeStream", `{"StreamArn":"` + arn + `","Limit":1,"ExclusiveStartShardId":"s1"}`,
			&dynamo.DescribeStreamInput{StreamArn: arn, Limit: ptr[int32](1), ExclusiveStartShardId: "s1"}},
		{"DescribeStream", `{"StreamArn":"a","ShardFilter":{"Type":"CHILD_SHARDS","ShardId":"p"}}`,
			&dynamo.DescribeStreamInput{StreamArn: "a", ShardFilter: &dynamo.ShardFilter{Type: "CHILD_SHARDS", ShardId: "p"}}},
		{"DescribeStream", `{"StreamArn":"a","ShardFilter":null}`, &dynamo.DescribeStreamInput{StreamArn: "a"}},
		{"DescribeStream", `{"StreamArn":"a","ShardFilter":{}}`, &dynamo.DescribeStreamInput{StreamArn: "a", ShardFilter: &dynamo.ShardFilter{}}},
		{"GetShardIterator", `{"StreamArn":"a","ShardId":"s","ShardIteratorType":"AFTER_SEQUENCE_NUMBER","SequenceNumber":"100000000000000000001"}`,
			&dynamo.GetShardIteratorInput{StreamArn: "a", ShardId: "s", ShardIteratorType: "AFTER_SEQUENCE_NUMBER", SequenceNumber: "100000000000000000001"}},
		{"GetShardIterator", `{"ShardIteratorType":"AT_TIMESTAMP","Timestamp":1.70000000025E9}`,
			&dynamo.GetShardIteratorInput{ShardIteratorType: "AT_TIMESTAMP", Timestamp: &ts}},
		{"GetShardIterator", `{"Timestamp":null}`, &dynamo.GetShardIteratorInput{}},
		{"GetRecords", `{"ShardIterator":"it","Limit":5}`, &dynamo.GetRecordsInput{ShardIterator: "it", Limit: ptr[int32](5)}},
		{"GetRecords", `{"ShardIterator":"it","Limit":0}`, &dynamo.GetRecordsInput{ShardIterator: "it", Limit: ptr[int32](0)}},
		{"UpdateTimeToLive", `{"TableName":"t","TimeToLiveSpecification":{"Enabled":true,"AttributeName":"exp"}}`,
			&dynamo.UpdateTimeToLiveInput{TableName: "t", TimeToLiveSpecification: &dynamo.TimeToLiveSpecification{Enabled: true, AttributeName: "exp"}}},
		{"UpdateTimeToLive", `{"TableName":"t","TimeToLiveSpecification":{"Enabled":"FALSE"}}`,
			&dynamo.UpdateTimeToLiveInput{TableName: "t", TimeToLiveSpecification: &dynamo.TimeToLiveSpecification{NoAttributeName: true}}},
		{"UpdateTimeToLive", `{"TableName":"t","TimeToLiveSpecification":{"Enabled":true,"AttributeName":""}}`,
			&dynamo.UpdateTimeToLiveInput{TableName: "t", TimeToLiveSpecification: &dynamo.TimeToLiveSpecification{Enabled: true}}},
		{"UpdateTimeToLive", `{"TableName":"t","TimeToLiveSpecification":{"Enabled":true,"AttributeName":null}}`,
			&dynamo.UpdateTimeToLiveInput{TableName: "t", TimeToLiveSpecification: &dynamo.TimeToLiveSpecification{Enabled: true, NoAttributeName: true}}},
		{"UpdateTimeToLive", `{"TableName":"t"}`, &dynamo.UpdateTimeToLiveInput{TableName: "t"}},
		{"DescribeTimeToLive", `{"TableName":"t"}`, &dynamo.DescribeTimeToLiveInput{TableName: "t"}},
	}
	for _, tt := range tests {
		got, err := decoders[tt.op]([]byte(tt.body))
		if err != nil {
			t.Errorf("%s %s: %v", tt.op, tt.body, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s %s:\n got %#v\nwant %#v", tt.op, tt.body, got, tt.want)
		}
	}
}

func TestDecodeStreamsAndTTLErrors(t *testing.T) {
	const ser = dynamo.CodeSerialization
	tests := []struct {
		op, body, code, msg string
	}{
		{"ListStreams", ``, ser, ""},
		{"ListStreams", `[]`, ser, "Unrecognized collection type class " + modelPrefix + "ListStreamsInput"},
		{"ListStreams", `{"TableName":5}`, ser, "NUMBER_VALUE cannot be converted to String"},
		{"ListStreams", `{"Limit":"1"}`, ser, "STRING_VALUE cannot be converted to Integer"},
		{"DescribeStream", `{"StreamArn":true}`, ser, "TRUE_VALUE cannot be converted to String"},
		{"DescribeStream", `{"ShardFilter":"x"}`, ser, msgUnexpectedField},
		{"DescribeStream", `{"ShardFilter":[]}`, ser, "Unrecognized collection type class " + modelPrefix + "ShardFilter"},
		{"DescribeStream", `{"ShardFilter":{"ShardId":{}}}`, ser, msgStartOfMap},
		{"GetShardIterator", `{"ShardIteratorType":[]}`, ser, "Unrecognized collection type class java.lang.String"},
		{"GetShardIterator", `{"Timestamp":"2024"}`, ser, "STRING_VALUE cannot be converted to Date"},
		{"GetShardIterator", `{"Timestamp":1e300}`, ser, msgUnexpectedToken},
		{"GetRecords", `{"ShardIterator":1}`, ser, "NUMBER_VALUE cannot be converted to String"},
		{"GetRecords", `{"Limit":false}`, ser, "FALSE_VALUE cannot be converted to Integer"},
		{"GetRecords", `{"ShardIterator":"a"`, ser, ""},
		{"UpdateTimeToLive", `{"TimeToLiveSpecification":1}`, ser, msgUnexpectedField},
		{"UpdateTimeToLive", `{"TimeToLiveSpecification":{"Enabled":"yes"}}`, ser, msgUnexpectedToken},
		{"UpdateTimeToLive", `{"TimeToLiveSpecification":{"AttributeName":2}}`, ser, "NUMBER_VALUE cannot be converted to String"},
		{"DescribeTimeToLive", `{"TableName":{}}`, ser, msgStartOfMap},
	}
	for _, tt := range tests {
		got, err := decoders[tt.op]([]byte(tt.body))
		if err == nil {
			t.Errorf("%s %q: no error, got %#v", tt.op, tt.body, got)
			continue
		}
		checkError(t, tt.op+" "+tt.body, err, tt.code, tt.msg)
	}
}

func TestEncodeStreams(t *testing.T) {
	jsonEqual(t, "ListStreams empty", EncodeListStreams(nil, &dynamo.ListStreamsOutput{}), `{"Streams":[]}`)
	jsonEqual(t, "ListStreams", EncodeListStreams(nil, &dynamo.ListStreamsOutput{
		Streams:                []dynamo.StreamSummary{{StreamArn: "arn1", TableName: "t", StreamLabel: "l1"}},
		LastEvaluatedStreamArn: "arn1",
	}), `{"LastEvaluatedStreamArn":"arn1","Streams":[{"StreamArn":"arn1","StreamLabel":"l1","TableName":"t"}]}`)

	jsonEqual(t, "DescribeStream", EncodeDescribeStream(nil, &dynamo.DescribeStreamOutput{StreamDescription: dynamo.StreamDescription{
		StreamArn: "arn1", StreamLabel: "l1", StreamStatus: "ENABLED", StreamViewType: "NEW_IMAGE",
		CreationRequestDateTime: created, TableName: "t",
		KeySchema: []dynamo.KeySchemaElement{{AttributeName: "pk", KeyType: "HASH"}},
		Shards: []dynamo.Shard{
			{ShardId: "s1", SequenceNumberRange: dynamo.SequenceNumberRange{StartingSequenceNumber: "100000000000000000001", EndingSequenceNumber: "100000000000000000004"}},
			{ShardId: "s2", ParentShardId: "s1", SequenceNumberRange: dynamo.SequenceNumberRange{StartingSequenceNumber: "100000000000000000005"}},
		},
		LastEvaluatedShardId: "s2",
	}}), `{"StreamDescription":{"CreationRequestDateTime":`+tsWire+`,"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
		"LastEvaluatedShardId":"s2",
		"Shards":[{"SequenceNumberRange":{"EndingSequenceNumber":"100000000000000000004","StartingSequenceNumber":"100000000000000000001"},"ShardId":"s1"},
		          {"ParentShardId":"s1","SequenceNumberRange":{"StartingSequenceNumber":"100000000000000000005"},"ShardId":"s2"}],
		"StreamArn":"arn1","StreamLabel":"l1","StreamStatus":"ENABLED","StreamViewType":"NEW_IMAGE","TableName":"t"}}`)
	jsonEqual(t, "DescribeStream no shards", EncodeDescribeStream(nil, &dynamo.DescribeStreamOutput{StreamDescription: dynamo.StreamDescription{
		StreamArn: "a", StreamStatus: "DISABLED", Shards: []dynamo.Shard{},
	}}), `{"StreamDescription":{"Shards":[],"StreamArn":"a","StreamStatus":"DISABLED"}}`)

	jsonEqual(t, "GetShardIterator", EncodeGetShardIterator(nil, &dynamo.GetShardIteratorOutput{ShardIterator: "it"}), `{"ShardIterator":"it"}`)

	at := time.Unix(1700000000, 0)
	key := attr.Item{"pk": attr.S("a")}
	jsonEqual(t, "GetRecords", EncodeGetRecords(nil, &dynamo.GetRecordsOutput{
		NextShardIterator: "next",
		Records: []dynamo.Record{
			{EventID: "e1", EventName: "MODIFY", EventVersion: "1.1", EventSource: "aws:dynamodb", AwsRegion: "us-east-1",
				Dynamodb: dynamo.StreamRecord{ApproximateCreationDateTime: at, Keys: key,
					NewImage: attr.Item{"pk": attr.S("a"), "n": attr.N("2")}, OldImage: attr.Item{"pk": attr.S("a"), "n": attr.N("1")},
					SequenceNumber: "100000000000000000001", SizeBytes: 12, StreamViewType: "NEW_AND_OLD_IMAGES"}},
			{EventID: "e2", EventName: "REMOVE", EventVersion: "1.1", EventSource: "aws:dynamodb", AwsRegion: "us-east-1",
				Dynamodb: dynamo.StreamRecord{ApproximateCreationDateTime: at, Keys: key,
					SequenceNumber: "100000000000000000002", SizeBytes: 3, StreamViewType: "KEYS_ONLY"},
				UserIdentity: &dynamo.Identity{PrincipalId: "dynamodb.amazonaws.com", Type: "Service"}},
		},
	}), `{"NextShardIterator":"next","Records":[
		{"awsRegion":"us-east-1","dynamodb":{"ApproximateCreationDateTime":1.7E9,"Keys":{"pk":{"S":"a"}},
			"NewImage":{"n":{"N":"2"},"pk":{"S":"a"}},"OldImage":{"n":{"N":"1"},"pk":{"S":"a"}},
			"SequenceNumber":"100000000000000000001","SizeBytes":12,"StreamViewType":"NEW_AND_OLD_IMAGES"},
		 "eventID":"e1","eventName":"MODIFY","eventSource":"aws:dynamodb","eventVersion":"1.1"},
		{"awsRegion":"us-east-1","dynamodb":{"ApproximateCreationDateTime":1.7E9,"Keys":{"pk":{"S":"a"}},
			"SequenceNumber":"100000000000000000002","SizeBytes":3,"StreamViewType":"KEYS_ONLY"},
		 "eventID":"e2","eventName":"REMOVE","eventSource":"aws:dynamodb","eventVersion":"1.1",
		 "userIdentity":{"PrincipalId":"dynamodb.amazonaws.com","Type":"Service"}}]}`)
	// The end of a closed shard: no NextShardIterator.
	jsonEqual(t, "GetRecords end", EncodeGetRecords(nil, &dynamo.GetRecordsOutput{}), `{"Records":[]}`)
	// Epoch seconds as a number, as the SDKs parse them.
	if got := string(EncodeGetRecords(nil, &dynamo.GetRecordsOutput{Records: []dynamo.Record{{Dynamodb: dynamo.StreamRecord{ApproximateCreationDateTime: at}}}})); !strings.Contains(got, `"ApproximateCreationDateTime":1.7E9`) {
		t.Errorf("ApproximateCreationDateTime not epoch seconds: %s", got)
	}
}

func TestEncodeTTL(t *testing.T) {
	jsonEqual(t, "UpdateTimeToLive", EncodeUpdateTimeToLive(nil, &dynamo.UpdateTimeToLiveOutput{
		TimeToLiveSpecification: dynamo.TimeToLiveSpecification{Enabled: true, AttributeName: "exp"},
	}), `{"TimeToLiveSpecification":{"AttributeName":"exp","Enabled":true}}`)
	jsonEqual(t, "UpdateTimeToLive off", EncodeUpdateTimeToLive(nil, &dynamo.UpdateTimeToLiveOutput{
		TimeToLiveSpecification: dynamo.TimeToLiveSpecification{AttributeName: "exp"},
	}), `{"TimeToLiveSpecification":{"AttributeName":"exp","Enabled":false}}`)
	jsonEqual(t, "DescribeTimeToLive never", EncodeDescribeTimeToLive(nil, &dynamo.DescribeTimeToLiveOutput{
		TimeToLiveDescription: dynamo.TimeToLiveDescription{TimeToLiveStatus: "DISABLED"},
	}), `{"TimeToLiveDescription":{"TimeToLiveStatus":"DISABLED"}}`)
	jsonEqual(t, "DescribeTimeToLive", EncodeDescribeTimeToLive(nil, &dynamo.DescribeTimeToLiveOutput{
		TimeToLiveDescription: dynamo.TimeToLiveDescription{TimeToLiveStatus: "ENABLED", AttributeName: "exp"},
	}), `{"TimeToLiveDescription":{"AttributeName":"exp","TimeToLiveStatus":"ENABLED"}}`)
}

func TestEncodeStreamErrors(t *testing.T) {
	for _, code := range []string{dynamo.CodeExpiredIterator, dynamo.CodeTrimmedDataAccess} {
		body, status := EncodeError(nil, &dynamo.Error{Code: code, Message: "m"})
		if status != 400 {
			t.Errorf("%s: status %d", code, status)
		}
		jsonEqual(t, code, body, `{"__type":"com.amazonaws.dynamodb.v20120810#`+code+`","message":"m"}`)
	}
}
