package protocol

import (
	"math"
	"strconv"
	"time"

	"github.com/dynago/dynago/dynamo"
)

// This file holds the codec of the DynamoDB Streams API
// (X-Amz-Target DynamoDBStreams_20120810.*: ListStreams, DescribeStream,
// GetShardIterator, GetRecords) and of Time to Live (UpdateTimeToLive,
// DescribeTimeToLive, on DynamoDB_20120810.*). The member names are those
// of the services' models: a stream Record's top-level members are
// camelCase (eventID, eventName, eventVersion, eventSource, awsRegion,
// dynamodb, userIdentity), everything else PascalCase.

// timestamp reads a timestamp member: epoch seconds as a JSON number, with
// an optional fraction. null leaves dst unchanged.
func (d *decoder) timestamp(dst **time.Time) *dynamo.Error {
	kind, text, err := d.token()
	if err != nil {
		return err
	}
	switch kind {
	case tkNumber, tkDecimal:
		f, perr := strconv.ParseFloat(string(text), 64)
		if perr != nil || math.IsInf(f, 0) || math.Abs(f) > 1e15 {
			return serialization(msgUnexpectedToken)
		}
		sec, frac := math.Modf(f)
		t := time.Unix(int64(sec), int64(math.Round(frac*1e3))*1e6).UTC()
		*dst = &t
		return nil
	case tkNull:
		return nil
	}
	return convError(kind, "Date")
}

// Streams requests.

// DecodeListStreams decodes a ListStreams request body.
func DecodeListStreams(body []byte) (*dynamo.ListStreamsInput, error) {
	in := new(dynamo.ListStreamsInput)
	d := &decoder{data: body}
	err := d.root("ListStreamsInput", func(key []byte) *dynamo.Error {
		switch string(key) {
		case "TableName":
			return d.str(&in.TableName)
		case "Limit":
			return d.int32Ptr(&in.Limit)
		case "ExclusiveStartStreamArn":
			return d.str(&in.ExclusiveStartStreamArn)
		}
		return d.skipValue()
	})
	if err != nil {
		return nil, err
	}
	return in, nil
}

// DecodeDescribeStream decodes a DescribeStream request body.
func DecodeDescribeStream(body []byte) (*dynamo.DescribeStreamInput, error) {
	in := new(dynamo.DescribeStreamInput)
	d := &decoder{data: body}
	err := d.root("DescribeStreamInput", func(key []byte) *dynamo.Error {
		switch string(key) {
		case "StreamArn":
			return d.str(&in.StreamArn)
		case "Limit":
			return d.int32Ptr(&in.Limit)
		case "ExclusiveStartShardId":
			return d.str(&in.ExclusiveStartShardId)
		case "ShardFilter":
			f := new(dynamo.ShardFilter)
			ok, err := d.object("ShardFilter", atField, func(key []byte) *dynamo.Error {
				switch string(key) {
				case "Type":
					return d.str(&f.Type)
				case "ShardId":
					return d.str(&f.ShardId)
				}
				return d.skipValue()
			})
			if ok {
				in.ShardFilter = f
			}
			return err
		}
		return d.skipValue()
	})
	if err != nil {
		return nil, err
	}
	return in, nil
}

// DecodeGetShardIterator decodes a GetShardIterator request body.
func DecodeGetShardIterator(body []byte) (*dynamo.GetShardIteratorInput, error) {
	in := new(dynamo.GetShardIteratorInput)
	d := &decoder{data: body}
	err := d.root("GetShardIteratorInput", func(key []byte) *dynamo.Error {
		switch string(key) {
		case "StreamArn":
			return d.str(&in.StreamArn)
		case "ShardId":
			return d.str(&in.ShardId)
		case "ShardIteratorType":
			return d.str(&in.ShardIteratorType)
		case "SequenceNumber":
			return d.str(&in.SequenceNumber)
		case "Timestamp":
			return d.timestamp(&in.Timestamp)
		}
		return d.skipValue()
	})
	if err != nil {
		return nil, err
	}
	return in, nil
}

// DecodeGetRecords decodes a GetRecords request body.
func DecodeGetRecords(body []byte) (*dynamo.GetRecordsInput, error) {
	in := new(dynamo.GetRecordsInput)
	d := &decoder{data: body}
	err := d.root("GetRecordsInput", func(key []byte) *dynamo.Error {
		switch string(key) {
		case "ShardIterator":
			return d.str(&in.ShardIterator)
		case "Limit":
			return d.int32Ptr(&in.Limit)
		}
		return d.skipValue()
	})
	if err != nil {
		return nil, err
	}
	return in, nil
}

// Time to Live requests.

// DecodeUpdateTimeToLive decodes an UpdateTimeToLive request body.
func DecodeUpdateTimeToLive(body []byte) (*dynamo.UpdateTimeToLiveInput, error) {
	in := &dynamo.UpdateTimeToLiveInput{NoTableName: true}
	d := &decoder{data: body}
	err := d.root("UpdateTimeToLiveInput", func(key []byte) *dynamo.Error {
		switch string(key) {
		case "TableName":
			present, err := d.strPresent(&in.TableName)
			in.NoTableName = !present
			return err
		case "TimeToLiveSpecification":
			spec := &dynamo.TimeToLiveSpecification{NoEnabled: true, NoAttributeName: true}
			ok, err := d.object("TimeToLiveSpecification", atField, func(key []byte) *dynamo.Error {
				switch string(key) {
				case "Enabled":
					set, err := d.boolean(&spec.Enabled)
					spec.NoEnabled = !set
					return err
				case "AttributeName":
					named, err := d.strPresent(&spec.AttributeName)
					spec.NoAttributeName = !named
					return err
				}
				return d.skipValue()
			})
			if ok {
				in.TimeToLiveSpecification = spec
			}
			return err
		}
		return d.skipValue()
	})
	err = tableNameRequired(err, !in.NoTableName)
	if err != nil {
		return nil, err
	}
	return in, nil
}

// DecodeDescribeTimeToLive decodes a DescribeTimeToLive request body.
func DecodeDescribeTimeToLive(body []byte) (*dynamo.DescribeTimeToLiveInput, error) {
	name, present, err := decodeTableName(body, "DescribeTimeToLiveInput")
	if err != nil {
		return nil, err
	}
	return &dynamo.DescribeTimeToLiveInput{TableName: name, NoTableName: !present}, nil
}

// Streams responses.

// EncodeListStreams appends ListStreams' response body to dst. Streams is
// always sent, as [] when empty.
func EncodeListStreams(dst []byte, out *dynamo.ListStreamsOutput) []byte {
	if out == nil {
		out = &dynamo.ListStreamsOutput{}
	}
	dst = append(dst, '{')
	dst = strMember(dst, "LastEvaluatedStreamArn", out.LastEvaluatedStreamArn)
	dst = append(member(dst, "Streams"), '[')
	for _, s := range out.Streams {
		dst = append(comma(dst), '{')
		dst = strMember(dst, "StreamArn", s.StreamArn)
		dst = strMember(dst, "StreamLabel", s.StreamLabel)
		dst = strMember(dst, "TableName", s.TableName)
		dst = append(dst, '}')
	}
	return append(dst, ']', '}')
}

// EncodeDescribeStream appends DescribeStream's response body to dst.
// Shards is always sent; a shard's ParentShardId and its range's
// EndingSequenceNumber only when set.
func EncodeDescribeStream(dst []byte, out *dynamo.DescribeStreamOutput) []byte {
	dst = append(dst, '{')
	if out == nil {
		return append(dst, '}')
	}
	s := &out.StreamDescription
	dst = append(member(dst, "StreamDescription"), '{')
	dst = timeMember(dst, "CreationRequestDateTime", s.CreationRequestDateTime)
	dst = keySchemaMember(dst, s.KeySchema)
	dst = strMember(dst, "LastEvaluatedShardId", s.LastEvaluatedShardId)
	dst = append(member(dst, "Shards"), '[')
	for i := range s.Shards {
		sh := &s.Shards[i]
		dst = append(comma(dst), '{')
		dst = strMember(dst, "ParentShardId", sh.ParentShardId)
		dst = append(member(dst, "SequenceNumberRange"), '{')
		dst = strMember(dst, "EndingSequenceNumber", sh.SequenceNumberRange.EndingSequenceNumber)
		dst = strMember(dst, "StartingSequenceNumber", sh.SequenceNumberRange.StartingSequenceNumber)
		dst = append(dst, '}')
		dst = strMember(dst, "ShardId", sh.ShardId)
		dst = append(dst, '}')
	}
	dst = append(dst, ']')
	dst = strMember(dst, "StreamArn", s.StreamArn)
	dst = strMember(dst, "StreamLabel", s.StreamLabel)
	dst = strMember(dst, "StreamStatus", s.StreamStatus)
	dst = strMember(dst, "StreamViewType", s.StreamViewType)
	dst = strMember(dst, "TableName", s.TableName)
	return append(dst, '}', '}')
}

// EncodeGetShardIterator appends GetShardIterator's response body to dst.
func EncodeGetShardIterator(dst []byte, out *dynamo.GetShardIteratorOutput) []byte {
	dst = append(dst, '{')
	if out != nil {
		dst = strMember(dst, "ShardIterator", out.ShardIterator)
	}
	return append(dst, '}')
}

// appendStreamRecord appends one Record: camelCase at the top, the
// dynamodb block and userIdentity PascalCase. Images the view type leaves
// out are nil and omitted; Keys is always sent.
func appendStreamRecord(dst []byte, r *dynamo.Record) []byte {
	dst = append(dst, '{')
	dst = strMember(dst, "awsRegion", r.AwsRegion)
	sr := &r.Dynamodb
	dst = append(member(dst, "dynamodb"), '{')
	if !sr.ApproximateCreationDateTime.IsZero() {
		dst = appendTime(member(dst, "ApproximateCreationDateTime"), sr.ApproximateCreationDateTime)
	}
	dst = appendItem(member(dst, "Keys"), sr.Keys)
	dst = itemMember(dst, "NewImage", sr.NewImage)
	dst = itemMember(dst, "OldImage", sr.OldImage)
	dst = strMember(dst, "SequenceNumber", sr.SequenceNumber)
	dst = intMember(dst, "SizeBytes", sr.SizeBytes)
	dst = strMember(dst, "StreamViewType", sr.StreamViewType)
	dst = append(dst, '}')
	dst = strMember(dst, "eventID", r.EventID)
	dst = strMember(dst, "eventName", r.EventName)
	dst = strMember(dst, "eventSource", r.EventSource)
	dst = strMember(dst, "eventVersion", r.EventVersion)
	if id := r.UserIdentity; id != nil {
		dst = append(member(dst, "userIdentity"), '{')
		dst = strMember(dst, "PrincipalId", id.PrincipalId)
		dst = strMember(dst, "Type", id.Type)
		dst = append(dst, '}')
	}
	return append(dst, '}')
}

// EncodeGetRecords appends GetRecords' response body to dst. Records is
// always sent; NextShardIterator is left out once a closed shard has been
// read to its end.
func EncodeGetRecords(dst []byte, out *dynamo.GetRecordsOutput) []byte {
	if out == nil {
		out = &dynamo.GetRecordsOutput{}
	}
	dst = append(dst, '{')
	dst = strMember(dst, "NextShardIterator", out.NextShardIterator)
	dst = append(member(dst, "Records"), '[')
	for i := range out.Records {
		dst = appendStreamRecord(comma(dst), &out.Records[i])
	}
	return append(dst, ']', '}')
}

// Time to Live responses.

// EncodeUpdateTimeToLive appends UpdateTimeToLive's response body to dst.
func EncodeUpdateTimeToLive(dst []byte, out *dynamo.UpdateTimeToLiveOutput) []byte {
	dst = append(dst, '{')
	if out != nil {
		s := &out.TimeToLiveSpecification
		dst = append(member(dst, "TimeToLiveSpecification"), '{')
		dst = strMember(dst, "AttributeName", s.AttributeName)
		dst = appendBool(member(dst, "Enabled"), s.Enabled)
		dst = append(dst, '}')
	}
	return append(dst, '}')
}

// EncodeDescribeTimeToLive appends DescribeTimeToLive's response body to
// dst. AttributeName is left out while TTL is disabled.
func EncodeDescribeTimeToLive(dst []byte, out *dynamo.DescribeTimeToLiveOutput) []byte {
	dst = append(dst, '{')
	if out != nil {
		s := &out.TimeToLiveDescription
		dst = append(member(dst, "TimeToLiveDescription"), '{')
		dst = strMember(dst, "AttributeName", s.AttributeName)
		dst = strMember(dst, "TimeToLiveStatus", s.TimeToLiveStatus)
		dst = append(dst, '}')
	}
	return append(dst, '}')
}
