package e2e

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	st "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"

	"github.com/dynago/dynago/testserver"

	"github.com/dynago/dynago/local"
)

// The errors of the DynamoDB Streams API: malformed ARNs, shard ids,
// sequence numbers and iterators (ValidationException) against
// well-formed ones naming nothing (ResourceNotFoundException). Each case
// names its source; "Alternator" is ScyllaDB's test/alternator/
// test_streams.py, whose cases run against DynamoDB itself.

// streamCase is one request and the error it must get: code and exact
// message, or, for member constraints (code ""), the violations in any
// order.
type streamCase struct {
	name string
	call func(sc local.StreamsAPI) error
	code string
	msg  string
}

func runStreamCases(t *testing.T, sc local.StreamsAPI, cases []streamCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call(sc)
			if tc.code == "" {
				wantConstraints(t, err, tc.msg)
				return
			}
			wantErr(t, err, tc.code, tc.msg)
		})
	}
}

const (
	rnf        = "ResourceNotFoundException"
	validation = "ValidationException"
)

func TestStreamsErrorMessages(t *testing.T) {
	var now atomic.Int64
	now.Store(time.Now().UnixNano())
	s := testserver.Start(t, testserver.WithNow(func() time.Time { return time.Unix(0, now.Load()) }))
	c, sc := s.API, s.StreamsAPI

	arn := createStreamTable(t, c, "serrs", types.StreamViewTypeKeysOnly)
	shard := aws.ToString(describeAll(t, sc, arn).Shards[0].ShardId)
	put(t, c, "serrs", item{"pk": S("a")})
	recs, _ := drain(t, sc, shardIterator(t, sc, arn, shard, st.ShardIteratorTypeTrimHorizon, ""))
	seq := aws.ToString(recs[0].Dynamodb.SequenceNumber)

	missingArn := "arn:aws:dynamodb:us-east-1:000000000000:table/nosuch/stream/2024-01-01T00:00:00.000"
	missingShard := "shardId-00000000000000000000-00000000"
	describe := func(in dynamodbstreams.DescribeStreamInput) func(local.StreamsAPI) error {
		return func(sc local.StreamsAPI) error { _, err := sc.DescribeStream(bg(), &in); return err }
	}
	iterator := func(in dynamodbstreams.GetShardIteratorInput) func(local.StreamsAPI) error {
		return func(sc local.StreamsAPI) error { _, err := sc.GetShardIterator(bg(), &in); return err }
	}
	list := func(in dynamodbstreams.ListStreamsInput) func(local.StreamsAPI) error {
		return func(sc local.StreamsAPI) error { _, err := sc.ListStreams(bg(), &in); return err }
	}
	records := func(in dynamodbstreams.GetRecordsInput) func(local.StreamsAPI) error {
		return func(sc local.StreamsAPI) error { _, err := sc.GetRecords(bg(), &in); return err }
	}
	sequenceUse := func(typ, what string) string {
		return "Must either specify (1) AT_SEQUENCE_NUMBER or AFTER_SEQUENCE_NUMBER and SequenceNumber or (2) TRIM_HORIZON or LATEST and no SequenceNumber. Request specified " + typ + " and " + what + "."
	}

	runStreamCases(t, sc, []streamCase{
		// StreamArn: 37 to 1024 characters (API reference, DescribeStream).
		{"describe short arn", describe(dynamodbstreams.DescribeStreamInput{StreamArn: aws.String("fake-stream")}), "",
			"Value 'fake-stream' at 'streamArn' failed to satisfy constraint: Member must have length greater than or equal to 37"},
		{"describe long arn", describe(dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(strings.Repeat("a", 1025))}), "",
			"Value '" + strings.Repeat("a", 1025) + "' at 'streamArn' failed to satisfy constraint: Member must have length less than or equal to 1024"},
		// A long enough string that is no ARN: Alternator's
		// test_describe_nonexistent_stream (ValidationException on
		// DynamoDB); the text is aws-sdk-js's integration test of
		// DescribeStream and logstash-input-dynamodb issue 18.
		{"describe malformed arn", describe(dynamodbstreams.DescribeStreamInput{StreamArn: aws.String("sdfadfsdfnlfkajakfgjalksfgklasjklasdjfklasdfasdfgasf")}), validation,
			"Invalid StreamArn"},
		{"describe table arn", describe(dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(tableARN("serrs") + "/index/abcdefgh")}), validation,
			"Invalid StreamArn"},
		// A well-formed ARN of no stream: lambda-maven-plugin issue 121
		// (AmazonDynamoDBStreams, 2021).
		{"describe missing stream", describe(dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(missingArn)}), rnf,
			"Requested resource not found: Stream: " + missingArn + " not found"},
		// Shard ids: 28 to 65 characters (API reference, DescribeStream and
		// ShardFilter).
		{"describe short start shard", describe(dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(arn), ExclusiveStartShardId: aws.String("shardId-1")}), "",
			"Value 'shardId-1' at 'exclusiveStartShardId' failed to satisfy constraint: Member must have length greater than or equal to 28"},
		{"describe short filter shard", describe(dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(arn),
			ShardFilter: &st.ShardFilter{Type: st.ShardFilterTypeChildShards, ShardId: aws.String("shardId-1")}}), "",
			"Value 'shardId-1' at 'shardFilter.shardId' failed to satisfy constraint: Member must have length greater than or equal to 28"},
		// The filter type's enum (API reference, ShardFilter).
		{"describe filter type", describe(dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(arn),
			ShardFilter: &st.ShardFilter{Type: "PARENT_SHARDS", ShardId: aws.String(shard)}}), "",
			"Value 'PARENT_SHARDS' at 'shardFilter.type' failed to satisfy constraint: Member must satisfy enum value set: [CHILD_SHARDS]"},
		// CHILD_SHARDS without the parent: no recording of DynamoDB's text
		// found; chose a ValidationException naming both members.
		{"describe filter without shard", describe(dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(arn),
			ShardFilter: &st.ShardFilter{Type: st.ShardFilterTypeChildShards}}), validation,
			"ShardFilter.ShardId must be provided when ShardFilter.Type is CHILD_SHARDS"},
		// Limit 1..100 (API reference; Alternator's
		// test_list_streams_too_high_limit for the upper bound).
		{"describe limit 0", describe(dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(arn), Limit: aws.Int32(0)}), "",
			"Value '0' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1"},
		{"describe limit 101", describe(dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(arn), Limit: aws.Int32(101)}), "",
			"Value '101' at 'limit' failed to satisfy constraint: Member must have value less than or equal to 100"},
		{"list limit 0", list(dynamodbstreams.ListStreamsInput{Limit: aws.Int32(0)}), "",
			"Value '0' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1"},
		{"list limit 101", list(dynamodbstreams.ListStreamsInput{Limit: aws.Int32(101)}), "",
			"Value '101' at 'limit' failed to satisfy constraint: Member must have value less than or equal to 100"},
		// Alternator's test_list_streams_with_nonexistent_last_stream:
		// a malformed ExclusiveStartStreamArn is a ValidationException.
		{"list malformed start", list(dynamodbstreams.ListStreamsInput{ExclusiveStartStreamArn: aws.String("kossaapaaasdafsdaasdasdasdasasdasfadfadfasdasdas")}), validation,
			"Invalid StreamArn"},
		{"list short start", list(dynamodbstreams.ListStreamsInput{ExclusiveStartStreamArn: aws.String("arn:aws:dynamodb")}), "",
			"Value 'arn:aws:dynamodb' at 'exclusiveStartStreamArn' failed to satisfy constraint: Member must have length greater than or equal to 37"},
		// GetShardIterator, Alternator's test_get_shard_iterator: a bad
		// ARN and a bad iterator type are ValidationExceptions, a shard
		// id of the allowed length that names no shard is a
		// ResourceNotFoundException (text: logstash-input-dynamodb issue 4
		// and ironSource/node-dynamodb-stream issue 16, both DynamoDB).
		{"iterator malformed arn", iterator(dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String("sdfadsfsdfsdgdfsgsfdabadfbabdadsfsdfsdfsdfsdfsdfsdfdfdssdffbdfdf"),
			ShardId: aws.String(shard), ShardIteratorType: st.ShardIteratorTypeLatest}), validation, "Invalid StreamArn"},
		{"iterator missing stream", iterator(dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(missingArn),
			ShardId: aws.String(shard), ShardIteratorType: st.ShardIteratorTypeLatest}), rnf,
			"Requested resource not found: Stream: " + missingArn + " not found"},
		{"iterator unknown shard", iterator(dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn),
			ShardId: aws.String("semprinidfaasdasfsdvacsdcfsdsvsdvsdvsdvsdvsdv"), ShardIteratorType: st.ShardIteratorTypeLatest}), rnf,
			"Requested resource not found: Shard does not exist"},
		{"iterator missing shard", iterator(dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn),
			ShardId: aws.String(missingShard), ShardIteratorType: st.ShardIteratorTypeTrimHorizon}), rnf,
			"Requested resource not found: Shard does not exist"},
		{"iterator short shard", iterator(dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn),
			ShardId: aws.String("shardId-1"), ShardIteratorType: st.ShardIteratorTypeLatest}), "",
			"Value 'shardId-1' at 'shardId' failed to satisfy constraint: Member must have length greater than or equal to 28"},
		{"iterator long shard", iterator(dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn),
			ShardId: aws.String(strings.Repeat("s", 66)), ShardIteratorType: st.ShardIteratorTypeLatest}), "",
			"Value '" + strings.Repeat("s", 66) + "' at 'shardId' failed to satisfy constraint: Member must have length less than or equal to 65"},
		{"iterator bad type", iterator(dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn),
			ShardId: aws.String(shard), ShardIteratorType: "bulle"}), "",
			"Value 'bulle' at 'shardIteratorType' failed to satisfy constraint: Member must satisfy enum value set: [TRIM_HORIZON, LATEST, AT_SEQUENCE_NUMBER, AFTER_SEQUENCE_NUMBER, AT_TIMESTAMP]"},
		// A SequenceNumber is 21 to 40 characters (API reference); a
		// garbage one with LATEST is a ValidationException (Alternator).
		{"iterator garbage sequence", iterator(dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn),
			ShardId: aws.String(shard), ShardIteratorType: st.ShardIteratorTypeLatest, SequenceNumber: aws.String("sdfsafglldfngjdafnasdflgnaldklkafdsgklnasdlv")}), "",
			"Value 'sdfsafglldfngjdafnasdflgnaldklkafdsgklnasdlv' at 'sequenceNumber' failed to satisfy constraint: Member must have length less than or equal to 40"},
		{"iterator short sequence", iterator(dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn),
			ShardId: aws.String(shard), ShardIteratorType: st.ShardIteratorTypeAtSequenceNumber, SequenceNumber: aws.String("123")}), "",
			"Value '123' at 'sequenceNumber' failed to satisfy constraint: Member must have length greater than or equal to 21"},
		// A SequenceNumber with TRIM_HORIZON or LATEST, and none with
		// AT_/AFTER_SEQUENCE_NUMBER, are ValidationExceptions
		// (Alternator). DynamoDB's text is not recorded: it is Amazon
		// Kinesis's for the same mistake (akkadotnet/Alpakka pull
		// request 160), with DynamoDB Streams' member name.
		{"iterator latest with sequence", iterator(dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn),
			ShardId: aws.String(shard), ShardIteratorType: st.ShardIteratorTypeLatest, SequenceNumber: aws.String(seq)}), validation,
			sequenceUse("LATEST", "a SequenceNumber")},
		{"iterator trim horizon with sequence", iterator(dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn),
			ShardId: aws.String(shard), ShardIteratorType: st.ShardIteratorTypeTrimHorizon, SequenceNumber: aws.String(seq)}), validation,
			sequenceUse("TRIM_HORIZON", "a SequenceNumber")},
		{"iterator at without sequence", iterator(dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn),
			ShardId: aws.String(shard), ShardIteratorType: st.ShardIteratorTypeAtSequenceNumber}), validation,
			sequenceUse("AT_SEQUENCE_NUMBER", "no SequenceNumber")},
		{"iterator after without sequence", iterator(dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn),
			ShardId: aws.String(shard), ShardIteratorType: st.ShardIteratorTypeAfterSequenceNumber}), validation,
			sequenceUse("AFTER_SEQUENCE_NUMBER", "no SequenceNumber")},
		// A well-formed sequence number outside the shard: no recording
		// of DynamoDB's text found; chose a ValidationException naming
		// both.
		{"iterator sequence out of shard", iterator(dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn),
			ShardId: aws.String(shard), ShardIteratorType: st.ShardIteratorTypeAtSequenceNumber, SequenceNumber: aws.String("100000000000000000000")}), validation,
			"Invalid SequenceNumber for shard " + shard + ": 100000000000000000000"},
		// GetRecords: Limit 1..1000 (API reference); an iterator that is
		// none of ours is a ValidationException (Alternator's
		// test_get_records_nonexistent_iterator; its text is not
		// recorded).
		{"records limit 0", records(dynamodbstreams.GetRecordsInput{ShardIterator: aws.String("x"), Limit: aws.Int32(0)}), "",
			"Value '0' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1"},
		{"records limit 1001", records(dynamodbstreams.GetRecordsInput{ShardIterator: aws.String("x"), Limit: aws.Int32(1001)}), "",
			"Value '1001' at 'limit' failed to satisfy constraint: Member must have value less than or equal to 1000"},
		{"records garbage iterator", records(dynamodbstreams.GetRecordsInput{ShardIterator: aws.String("sdfsdfsgagaddafgagasgasgasdfasdfasdfasdfasdgasdasdgasdg"), Limit: aws.Int32(1000)}), validation,
			"Invalid ShardIterator"},
		{"records forged iterator", records(dynamodbstreams.GetRecordsInput{ShardIterator: aws.String(arn + "|1|AAAA")}), validation,
			"Invalid ShardIterator"},
	})

	// A shard id of the allowed length that is no shard of the stream,
	// as ExclusiveStartShardId, gives an empty page, not an error
	// (Alternator's test_describe_stream_with_nonexistent_last_shard).
	out, err := sc.DescribeStream(bg(), &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(arn),
		ExclusiveStartShardId: aws.String("zzzzzzzzzzzzzzzzzzzzzzzzsfasdgagadfadfgagkjsdfsfsdjfjks")})
	if err != nil || len(out.StreamDescription.Shards) != 0 {
		t.Fatalf("DescribeStream after an unknown shard: %v, %+v", err, out)
	}

	// An empty ShardIterator breaks the 1..2048 length constraint; the SDK
	// will not send it, so it goes raw.
	checkRaw(t, streamsRaw(t, s, "GetRecords", `{"ShardIterator":""}`), 400, "com.amazon.coral.validate#ValidationException",
		"1 validation error detected: Value '' at 'shardIterator' failed to satisfy constraint: Member must have length greater than or equal to 1")

	// An iterator expires 15 minutes after it was handed out (API
	// reference, GetShardIterator). The text is Amazon Kinesis's
	// (amazon-kinesis-client issue 701); no recording of DynamoDB
	// Streams' own was found.
	iter := shardIterator(t, sc, arn, shard, st.ShardIteratorTypeTrimHorizon, "")
	created := time.Unix(0, now.Load()).UTC()
	now.Add(int64(16 * time.Minute))
	later := time.Unix(0, now.Load()).UTC()
	_, err = sc.GetRecords(bg(), &dynamodbstreams.GetRecordsInput{ShardIterator: aws.String(iter)})
	java := "Mon Jan 02 15:04:05 MST 2006"
	wantErr(t, err, "ExpiredIteratorException", "Iterator expired. The iterator was created at time "+created.Format(java)+
		" while right now it is "+later.Format(java)+" which is further in the future than the tolerated delay of 900000 milliseconds.")
}

// TestListStreamsExclusiveStart pins ListStreams' paging from a start ARN
// that names no stream: the list goes on after where that ARN would be.
// No recording of DynamoDB's answer was found; ListTables treats an
// ExclusiveStartTableName that names no table the same way.
func TestListStreamsExclusiveStart(t *testing.T) {
	s := testserver.Start(t)
	c, sc := s.API, s.StreamsAPI
	a := createStreamTable(t, c, "lsa", types.StreamViewTypeKeysOnly)
	cArn := createStreamTable(t, c, "lsc", types.StreamViewTypeKeysOnly)
	names := func(in *dynamodbstreams.ListStreamsInput) []string {
		t.Helper()
		out, err := sc.ListStreams(bg(), in)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, s := range out.Streams {
			got = append(got, aws.ToString(s.StreamArn))
		}
		return got
	}
	label := a[strings.LastIndex(a, "/")+1:]
	between := "arn:aws:dynamodb:" + testserver.Region + ":" + testserver.AccountID + ":table/lsb/stream/" + label
	deepEqual(t, "after lsb", names(&dynamodbstreams.ListStreamsInput{ExclusiveStartStreamArn: aws.String(between)}), []string{cArn})
	deepEqual(t, "after lsa", names(&dynamodbstreams.ListStreamsInput{ExclusiveStartStreamArn: aws.String(a)}), []string{cArn})
	after := "arn:aws:dynamodb:" + testserver.Region + ":" + testserver.AccountID + ":table/lsz/stream/" + label
	if got := names(&dynamodbstreams.ListStreamsInput{ExclusiveStartStreamArn: aws.String(after)}); len(got) != 0 {
		t.Fatalf("after the last: %v", got)
	}
}
