package local

import (
	"context"
	"math"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
	"github.com/aws/smithy-go/middleware"
	smithytime "github.com/aws/smithy-go/time"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/engine"
)

// StreamsAPI is the DynamoDB Streams operations, with the method set of
// *dynamodbstreams.Client; it and *DirectStreams both satisfy it.
type StreamsAPI interface {
	ListStreams(ctx context.Context, in *dynamodbstreams.ListStreamsInput, optFns ...func(*dynamodbstreams.Options)) (*dynamodbstreams.ListStreamsOutput, error)
	DescribeStream(ctx context.Context, in *dynamodbstreams.DescribeStreamInput, optFns ...func(*dynamodbstreams.Options)) (*dynamodbstreams.DescribeStreamOutput, error)
	GetShardIterator(ctx context.Context, in *dynamodbstreams.GetShardIteratorInput, optFns ...func(*dynamodbstreams.Options)) (*dynamodbstreams.GetShardIteratorOutput, error)
	GetRecords(ctx context.Context, in *dynamodbstreams.GetRecordsInput, optFns ...func(*dynamodbstreams.Options)) (*dynamodbstreams.GetRecordsOutput, error)
}

var (
	_ StreamsAPI = (*dynamodbstreams.Client)(nil)
	_ StreamsAPI = (*DirectStreams)(nil)
)

// DirectStreams is Direct for DynamoDB Streams: the method set of
// *dynamodbstreams.Client, calling the engine without HTTP, with the
// same conventions (no retries, optFns ignored, the SDK's own parameter
// validation for a request the engine refuses, the SDK's error types).
type DirectStreams struct {
	conn[dynamodbstreams.Client]
	db *engine.DB
}

// DirectStreams returns a direct DynamoDB Streams client for the
// database.
func (db *DB) DirectStreams() *DirectStreams {
	d := NewDirectStreams(db.engine, db.StreamsClient(func(o *dynamodbstreams.Options) { o.Retryer = aws.NopRetryer{} }))
	d.limit = db.jsonLimit()
	d.closed = &db.transport.closed
	d.viaSDK = db.handler.FaultsOn
	return d
}

// NewDirectStreams returns a direct DynamoDB Streams client for the
// engine db; sdk is a Streams client of a server over the same engine,
// for what the direct path leaves to it (as NewDirect's).
func NewDirectStreams(db *engine.DB, sdk *dynamodbstreams.Client) *DirectStreams {
	opts := sdk.Options()
	opts.APIOptions = append(opts.APIOptions[:len(opts.APIOptions):len(opts.APIOptions)], func(s *middleware.Stack) error {
		return s.Initialize.Add(middleware.InitializeMiddlewareFunc("dynagoChecked",
			func(context.Context, middleware.InitializeInput, middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
				return middleware.InitializeOutput{}, middleware.Metadata{}, errChecked
			}), middleware.After)
	})
	return &DirectStreams{
		conn: conn[dynamodbstreams.Client]{sdk: sdk, check: dynamodbstreams.New(opts), limit: bodyLimit,
			service: dynamodbstreams.ServiceID, apiError: streamsAPIError},
		db: db,
	}
}

// streamsAPIError is apiError for DynamoDB Streams: the type its SDK's
// registry names for e's code.
func streamsAPIError(e *dynamo.Error) error {
	return registryError(dynamodbstreams.TypeRegistry, "com.amazonaws.dynamodbstreams#", e)
}

// ListStreams is (*dynamodbstreams.Client).ListStreams on the engine.
func (c *DirectStreams) ListStreams(ctx context.Context, in *dynamodbstreams.ListStreamsInput, optFns ...func(*dynamodbstreams.Options)) (*dynamodbstreams.ListStreamsOutput, error) {
	var req dynamo.ListStreamsInput
	return call(&c.conn, ctx, "ListStreams", in, optFns, (*dynamodbstreams.Client).ListStreams, func(in *dynamodbstreams.ListStreamsInput) bool {
		req = dynamo.ListStreamsInput{TableName: aws.ToString(in.TableName), Limit: in.Limit,
			ExclusiveStartStreamArn: aws.ToString(in.ExclusiveStartStreamArn)}
		return validInput(in, c.limit)
	}, func() (*dynamodbstreams.ListStreamsOutput, error) {
		out, err := c.db.ListStreams(&req)
		if err != nil {
			return nil, err
		}
		res := &dynamodbstreams.ListStreamsOutput{Streams: make([]types.Stream, len(out.Streams)),
			LastEvaluatedStreamArn: optString(out.LastEvaluatedStreamArn)}
		for i, s := range out.Streams {
			res.Streams[i] = types.Stream{StreamArn: optString(s.StreamArn), StreamLabel: optString(s.StreamLabel), TableName: optString(s.TableName)}
		}
		return res, nil
	})
}

// DescribeStream is (*dynamodbstreams.Client).DescribeStream on the
// engine.
func (c *DirectStreams) DescribeStream(ctx context.Context, in *dynamodbstreams.DescribeStreamInput, optFns ...func(*dynamodbstreams.Options)) (*dynamodbstreams.DescribeStreamOutput, error) {
	var req dynamo.DescribeStreamInput
	return call(&c.conn, ctx, "DescribeStream", in, optFns, (*dynamodbstreams.Client).DescribeStream, func(in *dynamodbstreams.DescribeStreamInput) bool {
		if !validInput(in, c.limit) {
			return false
		}
		req = dynamo.DescribeStreamInput{StreamArn: aws.ToString(in.StreamArn), Limit: in.Limit, ExclusiveStartShardId: aws.ToString(in.ExclusiveStartShardId)}
		if f := in.ShardFilter; f != nil {
			req.ShardFilter = &dynamo.ShardFilter{Type: string(f.Type), ShardId: aws.ToString(f.ShardId)}
		}
		return true
	}, func() (*dynamodbstreams.DescribeStreamOutput, error) {
		out, err := c.db.DescribeStream(&req)
		if err != nil {
			return nil, err
		}
		return &dynamodbstreams.DescribeStreamOutput{StreamDescription: fromStreamDescription(&out.StreamDescription)}, nil
	})
}

func fromStreamDescription(s *dynamo.StreamDescription) *types.StreamDescription {
	d := &types.StreamDescription{
		CreationRequestDateTime: fromTime(s.CreationRequestDateTime),
		LastEvaluatedShardId:    optString(s.LastEvaluatedShardId),
		Shards:                  make([]types.Shard, len(s.Shards)),
		StreamArn:               optString(s.StreamArn),
		StreamLabel:             optString(s.StreamLabel),
		StreamStatus:            types.StreamStatus(s.StreamStatus),
		StreamViewType:          types.StreamViewType(s.StreamViewType),
		TableName:               optString(s.TableName),
	}
	if s.KeySchema != nil {
		d.KeySchema = make([]types.KeySchemaElement, len(s.KeySchema))
		for i, k := range s.KeySchema {
			d.KeySchema[i] = types.KeySchemaElement{AttributeName: optString(k.AttributeName), KeyType: types.KeyType(k.KeyType)}
		}
	}
	for i, sh := range s.Shards {
		d.Shards[i] = types.Shard{
			ParentShardId: optString(sh.ParentShardId),
			ShardId:       optString(sh.ShardId),
			SequenceNumberRange: &types.SequenceNumberRange{
				StartingSequenceNumber: optString(sh.SequenceNumberRange.StartingSequenceNumber),
				EndingSequenceNumber:   optString(sh.SequenceNumberRange.EndingSequenceNumber),
			},
		}
	}
	return d
}

// GetShardIterator is (*dynamodbstreams.Client).GetShardIterator on the
// engine.
func (c *DirectStreams) GetShardIterator(ctx context.Context, in *dynamodbstreams.GetShardIteratorInput, optFns ...func(*dynamodbstreams.Options)) (*dynamodbstreams.GetShardIteratorOutput, error) {
	var req dynamo.GetShardIteratorInput
	return call(&c.conn, ctx, "GetShardIterator", in, optFns, (*dynamodbstreams.Client).GetShardIterator, func(in *dynamodbstreams.GetShardIteratorInput) bool {
		if !validInput(in, c.limit) {
			return false
		}
		req = dynamo.GetShardIteratorInput{StreamArn: aws.ToString(in.StreamArn), ShardId: aws.ToString(in.ShardId),
			ShardIteratorType: string(in.ShardIteratorType), SequenceNumber: aws.ToString(in.SequenceNumber)}
		if in.Timestamp != nil {
			// The time as the SDK sends it (epoch seconds, to the
			// millisecond) and the decoder reads it back; one the decoder
			// refuses takes the SDK's path.
			f := smithytime.FormatEpochSeconds(*in.Timestamp)
			if math.Abs(f) > 1e15 {
				return false
			}
			sec, frac := math.Modf(f)
			t := time.Unix(int64(sec), int64(math.Round(frac*1e3))*1e6).UTC()
			req.Timestamp = &t
		}
		return true
	}, func() (*dynamodbstreams.GetShardIteratorOutput, error) {
		out, err := c.db.GetShardIterator(&req)
		if err != nil {
			return nil, err
		}
		return &dynamodbstreams.GetShardIteratorOutput{ShardIterator: optString(out.ShardIterator)}, nil
	})
}

// GetRecords is (*dynamodbstreams.Client).GetRecords on the engine.
func (c *DirectStreams) GetRecords(ctx context.Context, in *dynamodbstreams.GetRecordsInput, optFns ...func(*dynamodbstreams.Options)) (*dynamodbstreams.GetRecordsOutput, error) {
	var req dynamo.GetRecordsInput
	return call(&c.conn, ctx, "GetRecords", in, optFns, (*dynamodbstreams.Client).GetRecords, func(in *dynamodbstreams.GetRecordsInput) bool {
		req = dynamo.GetRecordsInput{ShardIterator: aws.ToString(in.ShardIterator), Limit: in.Limit}
		return validInput(in, c.limit)
	}, func() (*dynamodbstreams.GetRecordsOutput, error) {
		out, err := c.db.GetRecords(&req)
		if err != nil {
			return nil, err
		}
		return fromGetRecords(out), nil
	})
}

func fromGetRecords(out *dynamo.GetRecordsOutput) *dynamodbstreams.GetRecordsOutput {
	res := &dynamodbstreams.GetRecordsOutput{NextShardIterator: optString(out.NextShardIterator), Records: make([]types.Record, len(out.Records))}
	for i := range out.Records {
		r := &out.Records[i]
		sr := &r.Dynamodb
		x := types.Record{
			AwsRegion:    optString(r.AwsRegion),
			EventID:      optString(r.EventID),
			EventName:    types.OperationType(r.EventName),
			EventSource:  optString(r.EventSource),
			EventVersion: optString(r.EventVersion),
			Dynamodb: &types.StreamRecord{
				ApproximateCreationDateTime: fromTime(sr.ApproximateCreationDateTime),
				Keys:                        streamItem(sr.Keys),
				NewImage:                    streamItem(sr.NewImage),
				OldImage:                    streamItem(sr.OldImage),
				SequenceNumber:              optString(sr.SequenceNumber),
				SizeBytes:                   aws.Int64(sr.SizeBytes),
				StreamViewType:              types.StreamViewType(sr.StreamViewType),
			},
		}
		if x.Dynamodb.Keys == nil {
			x.Dynamodb.Keys = map[string]types.AttributeValue{} // always sent
		}
		if id := r.UserIdentity; id != nil {
			x.UserIdentity = &types.Identity{PrincipalId: optString(id.PrincipalId), Type: optString(id.Type)}
		}
		res.Records[i] = x
	}
	return res
}

// streamItem is fromItem for the Streams SDK's own AttributeValue types.
func streamItem(it attr.Item) map[string]types.AttributeValue {
	if it == nil {
		return nil
	}
	out := make(map[string]types.AttributeValue, len(it))
	for k := range it {
		v := it[k]
		out[k] = streamValue(&v)
	}
	return out
}

func streamValue(v *attr.Value) types.AttributeValue {
	switch v.Type {
	case attr.TypeS:
		return &types.AttributeValueMemberS{Value: v.S}
	case attr.TypeN:
		return &types.AttributeValueMemberN{Value: v.S}
	case attr.TypeB:
		b := v.B
		if b == nil {
			b = []byte{}
		}
		return &types.AttributeValueMemberB{Value: b}
	case attr.TypeBOOL:
		return &types.AttributeValueMemberBOOL{Value: v.Bool}
	case attr.TypeM:
		m := streamItem(v.M)
		if m == nil {
			m = map[string]types.AttributeValue{}
		}
		return &types.AttributeValueMemberM{Value: m}
	case attr.TypeL:
		l := make([]types.AttributeValue, len(v.L))
		for i := range v.L {
			l[i] = streamValue(&v.L[i])
		}
		return &types.AttributeValueMemberL{Value: l}
	case attr.TypeSS:
		return &types.AttributeValueMemberSS{Value: append([]string{}, v.SS...)}
	case attr.TypeNS:
		return &types.AttributeValueMemberNS{Value: append([]string{}, v.SS...)}
	case attr.TypeBS:
		bs := make([][]byte, len(v.BS))
		for i, b := range v.BS {
			if b == nil {
				b = []byte{}
			}
			bs[i] = b
		}
		return &types.AttributeValueMemberBS{Value: bs}
	}
	return &types.AttributeValueMemberNULL{Value: true}
}
