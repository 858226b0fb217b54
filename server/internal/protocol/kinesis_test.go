package protocol

import (
	"reflect"
	"testing"

	"github.com/dynago/dynago/dynamo"
)

func init() {
	decoders["EnableKinesisStreamingDestination"] = wrap(DecodeEnableKinesisStreamingDestination)
	decoders["DisableKinesisStreamingDestination"] = wrap(DecodeDisableKinesisStreamingDestination)
	decoders["DescribeKinesisStreamingDestination"] = wrap(DecodeDescribeKinesisStreamingDestination)
	decoders["UpdateKinesisStreamingDestination"] = wrap(DecodeUpdateKinesisStreamingDestination)
}

// The members of the API reference's request syntax
// (API_EnableKinesisStreamingDestination and its siblings).
func TestDecodeKinesisStreamingDestination(t *testing.T) {
	for _, tt := range []struct {
		op, body string
		want     any
	}{
		{"EnableKinesisStreamingDestination", `{"TableName":"t","StreamArn":"s","EnableKinesisStreamingConfiguration":{"ApproximateCreationDateTimePrecision":"MICROSECOND"}}`,
			&dynamo.KinesisStreamingDestinationInput{TableName: "t", StreamArn: "s", EnableKinesisStreamingConfiguration: &dynamo.KinesisStreamingConfiguration{ApproximateCreationDateTimePrecision: "MICROSECOND"}}},
		{"EnableKinesisStreamingDestination", `{"TableName":null}`, &dynamo.KinesisStreamingDestinationInput{NoTableName: true, NoStreamArn: true}},
		{"DisableKinesisStreamingDestination", `{"TableName":"t","StreamArn":"s","EnableKinesisStreamingConfiguration":{}}`,
			&dynamo.KinesisStreamingDestinationInput{TableName: "t", StreamArn: "s", EnableKinesisStreamingConfiguration: &dynamo.KinesisStreamingConfiguration{}}},
		{"DescribeKinesisStreamingDestination", `{"TableName":"t"}`, &dynamo.DescribeKinesisStreamingDestinationInput{TableName: "t"}},
		{"UpdateKinesisStreamingDestination", `{"TableName":"t","StreamArn":"s","UpdateKinesisStreamingConfiguration":{"ApproximateCreationDateTimePrecision":"MILLISECOND"}}`,
			&dynamo.UpdateKinesisStreamingDestinationInput{TableName: "t", StreamArn: "s", UpdateKinesisStreamingConfiguration: &dynamo.KinesisStreamingConfiguration{ApproximateCreationDateTimePrecision: "MILLISECOND"}}},
	} {
		got, err := decoders[tt.op]([]byte(tt.body))
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s %s: %#v, %v; want %#v", tt.op, tt.body, got, err, tt.want)
		}
	}
	_, err := decoders["EnableKinesisStreamingDestination"]([]byte(`{"StreamArn":5}`))
	checkError(t, "StreamArn 5", err, dynamo.CodeSerialization, "NUMBER_VALUE cannot be converted to String")
}

func TestEncodeKinesisStreamingDestination(t *testing.T) {
	jsonEqual(t, "Enable", EncodeEnableKinesisStreamingDestination(nil, &dynamo.KinesisStreamingDestinationOutput{
		TableName: "T", StreamArn: "s", DestinationStatus: "ENABLING", EnableKinesisStreamingConfiguration: &dynamo.KinesisStreamingConfiguration{}}),
		`{"DestinationStatus":"ENABLING","EnableKinesisStreamingConfiguration":{},"StreamArn":"s","TableName":"T"}`)
	jsonEqual(t, "Describe", EncodeDescribeKinesisStreamingDestination(nil, &dynamo.DescribeKinesisStreamingDestinationOutput{
		TableName: "T", KinesisDataStreamDestinations: []dynamo.KinesisDataStreamDestination{{StreamArn: "s", DestinationStatus: "ENABLE_FAILED", DestinationStatusDescription: "d"}}}),
		`{"KinesisDataStreamDestinations":[{"DestinationStatus":"ENABLE_FAILED","DestinationStatusDescription":"d","StreamArn":"s"}],"TableName":"T"}`)
	jsonEqual(t, "Describe none", EncodeDescribeKinesisStreamingDestination(nil, &dynamo.DescribeKinesisStreamingDestinationOutput{TableName: "T"}),
		`{"KinesisDataStreamDestinations":[],"TableName":"T"}`)
}
