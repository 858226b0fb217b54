package protocol

import "github.com/dynago/dynago/dynamo"

// Kinesis streaming destination requests and responses
// (EnableKinesisStreamingDestination, DescribeKinesisStreamingDestination,
// DisableKinesisStreamingDestination, UpdateKinesisStreamingDestination),
// with the members of AWS's API reference; a response's members in
// alphabetical order, as DynamoDB writes them. A required TableName or
// StreamArn left out or null is recorded apart from an empty one.

func (d *decoder) kinesisConfiguration(typ string, dst **dynamo.KinesisStreamingConfiguration) *dynamo.Error {
	cfg := new(dynamo.KinesisStreamingConfiguration)
	ok, err := d.object(typ, atField, func(key []byte) *dynamo.Error {
		if string(key) == "ApproximateCreationDateTimePrecision" {
			return d.str(&cfg.ApproximateCreationDateTimePrecision)
		}
		return d.skipValue()
	})
	if ok {
		*dst = cfg
	}
	return err
}

func decodeKinesisDestination(body []byte, typ string) (*dynamo.KinesisStreamingDestinationInput, error) {
	in := &dynamo.KinesisStreamingDestinationInput{NoTableName: true, NoStreamArn: true}
	d := &decoder{data: body}
	err := d.root(typ, func(key []byte) *dynamo.Error {
		switch string(key) {
		case "TableName":
			present, err := d.strPresent(&in.TableName)
			in.NoTableName = !present
			return err
		case "StreamArn":
			present, err := d.strPresent(&in.StreamArn)
			in.NoStreamArn = !present
			return err
		case "EnableKinesisStreamingConfiguration":
			return d.kinesisConfiguration("EnableKinesisStreamingConfiguration", &in.EnableKinesisStreamingConfiguration)
		}
		return d.skipValue()
	})
	if err != nil {
		return nil, err
	}
	return in, nil
}

// DecodeEnableKinesisStreamingDestination decodes an
// EnableKinesisStreamingDestination request body.
func DecodeEnableKinesisStreamingDestination(body []byte) (*dynamo.KinesisStreamingDestinationInput, error) {
	return decodeKinesisDestination(body, "EnableKinesisStreamingDestinationInput")
}

// DecodeDisableKinesisStreamingDestination decodes a
// DisableKinesisStreamingDestination request body.
func DecodeDisableKinesisStreamingDestination(body []byte) (*dynamo.KinesisStreamingDestinationInput, error) {
	return decodeKinesisDestination(body, "DisableKinesisStreamingDestinationInput")
}

// DecodeDescribeKinesisStreamingDestination decodes a
// DescribeKinesisStreamingDestination request body.
func DecodeDescribeKinesisStreamingDestination(body []byte) (*dynamo.DescribeKinesisStreamingDestinationInput, error) {
	in := &dynamo.DescribeKinesisStreamingDestinationInput{NoTableName: true}
	d := &decoder{data: body}
	err := d.root("DescribeKinesisStreamingDestinationInput", func(key []byte) *dynamo.Error {
		if string(key) == "TableName" {
			present, err := d.strPresent(&in.TableName)
			in.NoTableName = !present
			return err
		}
		return d.skipValue()
	})
	if err != nil {
		return nil, err
	}
	return in, nil
}

// DecodeUpdateKinesisStreamingDestination decodes an
// UpdateKinesisStreamingDestination request body.
func DecodeUpdateKinesisStreamingDestination(body []byte) (*dynamo.UpdateKinesisStreamingDestinationInput, error) {
	in := &dynamo.UpdateKinesisStreamingDestinationInput{NoTableName: true, NoStreamArn: true}
	d := &decoder{data: body}
	err := d.root("UpdateKinesisStreamingDestinationInput", func(key []byte) *dynamo.Error {
		switch string(key) {
		case "TableName":
			present, err := d.strPresent(&in.TableName)
			in.NoTableName = !present
			return err
		case "StreamArn":
			present, err := d.strPresent(&in.StreamArn)
			in.NoStreamArn = !present
			return err
		case "UpdateKinesisStreamingConfiguration":
			return d.kinesisConfiguration("UpdateKinesisStreamingConfiguration", &in.UpdateKinesisStreamingConfiguration)
		}
		return d.skipValue()
	})
	if err != nil {
		return nil, err
	}
	return in, nil
}

// kinesisConfigMember writes a configuration, {} when it has no precision.
func kinesisConfigMember(dst []byte, name string, cfg *dynamo.KinesisStreamingConfiguration) []byte {
	if cfg == nil {
		return dst
	}
	dst = append(member(dst, name), '{')
	dst = strMember(dst, "ApproximateCreationDateTimePrecision", cfg.ApproximateCreationDateTimePrecision)
	return append(dst, '}')
}

func encodeKinesisDestination(dst []byte, out *dynamo.KinesisStreamingDestinationOutput) []byte {
	if out == nil {
		out = &dynamo.KinesisStreamingDestinationOutput{}
	}
	dst = append(dst, '{')
	dst = strMember(dst, "DestinationStatus", out.DestinationStatus)
	dst = kinesisConfigMember(dst, "EnableKinesisStreamingConfiguration", out.EnableKinesisStreamingConfiguration)
	dst = strMember(dst, "StreamArn", out.StreamArn)
	dst = strMember(dst, "TableName", out.TableName)
	return append(dst, '}')
}

// EncodeEnableKinesisStreamingDestination appends
// EnableKinesisStreamingDestination's response body to dst.
func EncodeEnableKinesisStreamingDestination(dst []byte, out *dynamo.KinesisStreamingDestinationOutput) []byte {
	return encodeKinesisDestination(dst, out)
}

// EncodeDisableKinesisStreamingDestination appends
// DisableKinesisStreamingDestination's response body to dst.
func EncodeDisableKinesisStreamingDestination(dst []byte, out *dynamo.KinesisStreamingDestinationOutput) []byte {
	return encodeKinesisDestination(dst, out)
}

// EncodeDescribeKinesisStreamingDestination appends
// DescribeKinesisStreamingDestination's response body to dst.
func EncodeDescribeKinesisStreamingDestination(dst []byte, out *dynamo.DescribeKinesisStreamingDestinationOutput) []byte {
	if out == nil {
		out = &dynamo.DescribeKinesisStreamingDestinationOutput{}
	}
	dst = append(dst, '{')
	dst = append(member(dst, "KinesisDataStreamDestinations"), '[')
	for i := range out.KinesisDataStreamDestinations {
		x := &out.KinesisDataStreamDestinations[i]
		dst = append(comma(dst), '{')
		dst = strMember(dst, "ApproximateCreationDateTimePrecision", x.ApproximateCreationDateTimePrecision)
		dst = strMember(dst, "DestinationStatus", x.DestinationStatus)
		dst = strMember(dst, "DestinationStatusDescription", x.DestinationStatusDescription)
		dst = strMember(dst, "StreamArn", x.StreamArn)
		dst = append(dst, '}')
	}
	dst = append(dst, ']')
	dst = strMember(dst, "TableName", out.TableName)
	return append(dst, '}')
}

// EncodeUpdateKinesisStreamingDestination appends
// UpdateKinesisStreamingDestination's response body to dst.
func EncodeUpdateKinesisStreamingDestination(dst []byte, out *dynamo.UpdateKinesisStreamingDestinationOutput) []byte {
	if out == nil {
		out = &dynamo.UpdateKinesisStreamingDestinationOutput{}
	}
	dst = append(dst, '{')
	dst = strMember(dst, "DestinationStatus", out.DestinationStatus)
	dst = strMember(dst, "StreamArn", out.StreamArn)
	dst = strMember(dst, "TableName", out.TableName)
	dst = kinesisConfigMember(dst, "UpdateKinesisStreamingConfiguration", out.UpdateKinesisStreamingConfiguration)
	return append(dst, '}')
}
