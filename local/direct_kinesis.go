package local

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/dynamo"
)

// Kinesis streaming destinations on the direct path, converted as the
// protocol decoder reads the SDK's JSON for them
// (server/internal/protocol/kinesis.go).

func kinesisConfig(precision types.ApproximateCreationDateTimePrecision) *dynamo.KinesisStreamingConfiguration {
	return &dynamo.KinesisStreamingConfiguration{ApproximateCreationDateTimePrecision: string(precision)}
}

func fromKinesisConfig(cfg *dynamo.KinesisStreamingConfiguration) (precision types.ApproximateCreationDateTimePrecision, ok bool) {
	if cfg == nil {
		return "", false
	}
	return types.ApproximateCreationDateTimePrecision(cfg.ApproximateCreationDateTimePrecision), true
}

// EnableKinesisStreamingDestination is
// (*dynamodb.Client).EnableKinesisStreamingDestination on the engine.
func (c *Direct) EnableKinesisStreamingDestination(ctx context.Context, in *dynamodb.EnableKinesisStreamingDestinationInput, optFns ...func(*dynamodb.Options)) (*dynamodb.EnableKinesisStreamingDestinationOutput, error) {
	var req dynamo.KinesisStreamingDestinationInput
	return call(&c.conn, ctx, "EnableKinesisStreamingDestination", in, optFns, (*dynamodb.Client).EnableKinesisStreamingDestination, func(in *dynamodb.EnableKinesisStreamingDestinationInput) bool {
		if !validInput(in, c.limit) {
			return false
		}
		var ok bool
		req.TableName, ok = str(in.TableName)
		req.NoTableName = !ok
		req.StreamArn, ok = str(in.StreamArn)
		req.NoStreamArn = !ok
		if cfg := in.EnableKinesisStreamingConfiguration; cfg != nil {
			req.EnableKinesisStreamingConfiguration = kinesisConfig(cfg.ApproximateCreationDateTimePrecision)
		}
		return true
	}, func() (*dynamodb.EnableKinesisStreamingDestinationOutput, error) {
		out, err := c.db.EnableKinesisStreamingDestination(&req)
		if err != nil {
			return nil, err
		}
		res := &dynamodb.EnableKinesisStreamingDestinationOutput{TableName: optString(out.TableName), StreamArn: optString(out.StreamArn),
			DestinationStatus: types.DestinationStatus(out.DestinationStatus)}
		if p, ok := fromKinesisConfig(out.EnableKinesisStreamingConfiguration); ok {
			res.EnableKinesisStreamingConfiguration = &types.EnableKinesisStreamingConfiguration{ApproximateCreationDateTimePrecision: p}
		}
		return res, nil
	})
}

// DisableKinesisStreamingDestination is
// (*dynamodb.Client).DisableKinesisStreamingDestination on the engine.
func (c *Direct) DisableKinesisStreamingDestination(ctx context.Context, in *dynamodb.DisableKinesisStreamingDestinationInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DisableKinesisStreamingDestinationOutput, error) {
	var req dynamo.KinesisStreamingDestinationInput
	return call(&c.conn, ctx, "DisableKinesisStreamingDestination", in, optFns, (*dynamodb.Client).DisableKinesisStreamingDestination, func(in *dynamodb.DisableKinesisStreamingDestinationInput) bool {
		if !validInput(in, c.limit) {
			return false
		}
		var ok bool
		req.TableName, ok = str(in.TableName)
		req.NoTableName = !ok
		req.StreamArn, ok = str(in.StreamArn)
		req.NoStreamArn = !ok
		if cfg := in.EnableKinesisStreamingConfiguration; cfg != nil {
			req.EnableKinesisStreamingConfiguration = kinesisConfig(cfg.ApproximateCreationDateTimePrecision)
		}
		return true
	}, func() (*dynamodb.DisableKinesisStreamingDestinationOutput, error) {
		out, err := c.db.DisableKinesisStreamingDestination(&req)
		if err != nil {
			return nil, err
		}
		res := &dynamodb.DisableKinesisStreamingDestinationOutput{TableName: optString(out.TableName), StreamArn: optString(out.StreamArn),
			DestinationStatus: types.DestinationStatus(out.DestinationStatus)}
		if p, ok := fromKinesisConfig(out.EnableKinesisStreamingConfiguration); ok {
			res.EnableKinesisStreamingConfiguration = &types.EnableKinesisStreamingConfiguration{ApproximateCreationDateTimePrecision: p}
		}
		return res, nil
	})
}

// DescribeKinesisStreamingDestination is
// (*dynamodb.Client).DescribeKinesisStreamingDestination on the engine.
func (c *Direct) DescribeKinesisStreamingDestination(ctx context.Context, in *dynamodb.DescribeKinesisStreamingDestinationInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DescribeKinesisStreamingDestinationOutput, error) {
	var req dynamo.DescribeKinesisStreamingDestinationInput
	return call(&c.conn, ctx, "DescribeKinesisStreamingDestination", in, optFns, (*dynamodb.Client).DescribeKinesisStreamingDestination, func(in *dynamodb.DescribeKinesisStreamingDestinationInput) bool {
		var ok bool
		req.TableName, ok = str(in.TableName)
		req.NoTableName = !ok
		return validInput(in, c.limit)
	}, func() (*dynamodb.DescribeKinesisStreamingDestinationOutput, error) {
		out, err := c.db.DescribeKinesisStreamingDestination(&req)
		if err != nil {
			return nil, err
		}
		res := &dynamodb.DescribeKinesisStreamingDestinationOutput{TableName: optString(out.TableName),
			KinesisDataStreamDestinations: make([]types.KinesisDataStreamDestination, len(out.KinesisDataStreamDestinations))}
		for i, x := range out.KinesisDataStreamDestinations {
			res.KinesisDataStreamDestinations[i] = types.KinesisDataStreamDestination{
				StreamArn:                            optString(x.StreamArn),
				DestinationStatus:                    types.DestinationStatus(x.DestinationStatus),
				DestinationStatusDescription:         optString(x.DestinationStatusDescription),
				ApproximateCreationDateTimePrecision: types.ApproximateCreationDateTimePrecision(x.ApproximateCreationDateTimePrecision),
			}
		}
		return res, nil
	})
}

// UpdateKinesisStreamingDestination is
// (*dynamodb.Client).UpdateKinesisStreamingDestination on the engine.
func (c *Direct) UpdateKinesisStreamingDestination(ctx context.Context, in *dynamodb.UpdateKinesisStreamingDestinationInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateKinesisStreamingDestinationOutput, error) {
	var req dynamo.UpdateKinesisStreamingDestinationInput
	return call(&c.conn, ctx, "UpdateKinesisStreamingDestination", in, optFns, (*dynamodb.Client).UpdateKinesisStreamingDestination, func(in *dynamodb.UpdateKinesisStreamingDestinationInput) bool {
		if !validInput(in, c.limit) {
			return false
		}
		var ok bool
		req.TableName, ok = str(in.TableName)
		req.NoTableName = !ok
		req.StreamArn, ok = str(in.StreamArn)
		req.NoStreamArn = !ok
		if cfg := in.UpdateKinesisStreamingConfiguration; cfg != nil {
			req.UpdateKinesisStreamingConfiguration = kinesisConfig(cfg.ApproximateCreationDateTimePrecision)
		}
		return true
	}, func() (*dynamodb.UpdateKinesisStreamingDestinationOutput, error) {
		out, err := c.db.UpdateKinesisStreamingDestination(&req)
		if err != nil {
			return nil, err
		}
		res := &dynamodb.UpdateKinesisStreamingDestinationOutput{TableName: optString(out.TableName), StreamArn: optString(out.StreamArn),
			DestinationStatus: types.DestinationStatus(out.DestinationStatus)}
		if p, ok := fromKinesisConfig(out.UpdateKinesisStreamingConfiguration); ok {
			res.UpdateKinesisStreamingConfiguration = &types.UpdateKinesisStreamingConfiguration{ApproximateCreationDateTimePrecision: p}
		}
		return res, nil
	})
}
