package local

import (
	"context"
	"math"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	smithytime "github.com/aws/smithy-go/time"

	"github.com/dynago/dynago/dynamo"
)

// On-demand backups and point-in-time recovery on the direct path,
// converted as the protocol decoder reads the SDK's JSON for them
// (server/internal/protocol/backup.go), and their answers as the SDK
// decodes the server's encoding of them.

// wireTime is a timestamp of the SDK's input as the decoder reads it
// back from the SDK's JSON: epoch seconds to the millisecond, in UTC.
// ok is false for one the decoder refuses (its path answers it).
func wireTime(p *time.Time) (t *time.Time, ok bool) {
	if p == nil {
		return nil, true
	}
	f := smithytime.FormatEpochSeconds(*p)
	if math.Abs(f) > 1e15 {
		return nil, false
	}
	sec, frac := math.Modf(f)
	v := time.Unix(int64(sec), int64(math.Round(frac*1e3))*1e6).UTC()
	return &v, true
}

func localSecondaryIndex(l *types.LocalSecondaryIndex) dynamo.LocalSecondaryIndex {
	x := dynamo.LocalSecondaryIndex{KeySchema: keySchema(l.KeySchema)}
	var named, projected bool
	x.IndexName, named = str(l.IndexName)
	x.Projection, projected = projection(l.Projection)
	x.NoIndexName, x.NoProjection = !named, !projected
	return x
}

// restoreOverrides converts the overrides both restores share. An index
// override the SDK sends as [] (a non-nil empty slice) is an empty,
// non-nil one, as the decoder reads it.
func restoreOverrides(billing types.BillingMode, gsis []types.GlobalSecondaryIndex, lsis []types.LocalSecondaryIndex,
	pt *types.ProvisionedThroughput, odt *types.OnDemandThroughput, sse *types.SSESpecification, vs []types.VectorIndex) dynamo.RestoreOverrides {
	o := dynamo.RestoreOverrides{
		BillingModeOverride:           string(billing),
		ProvisionedThroughputOverride: provisionedThroughput(pt),
		OnDemandThroughputOverride:    onDemandThroughput(odt),
		SSESpecificationOverride:      sseSpecification(sse),
	}
	if gsis != nil {
		o.GlobalSecondaryIndexOverride = make([]dynamo.GlobalSecondaryIndex, len(gsis))
		for i := range gsis {
			o.GlobalSecondaryIndexOverride[i] = globalSecondaryIndex(&gsis[i])
		}
	}
	if lsis != nil {
		o.LocalSecondaryIndexOverride = make([]dynamo.LocalSecondaryIndex, len(lsis))
		for i := range lsis {
			o.LocalSecondaryIndexOverride[i] = localSecondaryIndex(&lsis[i])
		}
	}
	o.VectorIndexOverride = vectorIndexes(vs)
	return o
}

// Requests.

func createBackupRequest(in *dynamodb.CreateBackupInput) dynamo.CreateBackupInput {
	var req dynamo.CreateBackupInput
	var ok bool
	req.TableName, ok = str(in.TableName)
	req.NoTableName = !ok
	req.BackupName, ok = str(in.BackupName)
	req.NoBackupName = !ok
	return req
}

func listBackupsRequest(in *dynamodb.ListBackupsInput) (dynamo.ListBackupsInput, bool) {
	req := dynamo.ListBackupsInput{TableName: aws.ToString(in.TableName), Limit: in.Limit,
		ExclusiveStartBackupArn: aws.ToString(in.ExclusiveStartBackupArn), BackupType: string(in.BackupType)}
	var lowerOK, upperOK bool
	req.TimeRangeLowerBound, lowerOK = wireTime(in.TimeRangeLowerBound)
	req.TimeRangeUpperBound, upperOK = wireTime(in.TimeRangeUpperBound)
	return req, lowerOK && upperOK
}

func restoreTableFromBackupRequest(in *dynamodb.RestoreTableFromBackupInput) dynamo.RestoreTableFromBackupInput {
	req := dynamo.RestoreTableFromBackupInput{RestoreOverrides: restoreOverrides(in.BillingModeOverride, in.GlobalSecondaryIndexOverride,
		in.LocalSecondaryIndexOverride, in.ProvisionedThroughputOverride, in.OnDemandThroughputOverride, in.SSESpecificationOverride, in.VectorIndexOverride)}
	var ok bool
	req.TargetTableName, ok = str(in.TargetTableName)
	req.NoTargetTableName = !ok
	req.BackupArn, ok = str(in.BackupArn)
	req.NoBackupArn = !ok
	return req
}

func updateContinuousBackupsRequest(in *dynamodb.UpdateContinuousBackupsInput) dynamo.UpdateContinuousBackupsInput {
	var req dynamo.UpdateContinuousBackupsInput
	var ok bool
	req.TableName, ok = str(in.TableName)
	req.NoTableName = !ok
	if s := in.PointInTimeRecoverySpecification; s != nil {
		req.PointInTimeRecoverySpecification = &dynamo.PointInTimeRecoverySpecification{
			PointInTimeRecoveryEnabled:   aws.ToBool(s.PointInTimeRecoveryEnabled),
			NoPointInTimeRecoveryEnabled: s.PointInTimeRecoveryEnabled == nil,
			RecoveryPeriodInDays:         s.RecoveryPeriodInDays,
		}
	}
	return req
}

func restoreTableToPointInTimeRequest(in *dynamodb.RestoreTableToPointInTimeInput) (dynamo.RestoreTableToPointInTimeInput, bool) {
	req := dynamo.RestoreTableToPointInTimeInput{
		SourceTableArn:          aws.ToString(in.SourceTableArn),
		SourceTableName:         aws.ToString(in.SourceTableName),
		UseLatestRestorableTime: in.UseLatestRestorableTime,
		RestoreOverrides: restoreOverrides(in.BillingModeOverride, in.GlobalSecondaryIndexOverride,
			in.LocalSecondaryIndexOverride, in.ProvisionedThroughputOverride, in.OnDemandThroughputOverride, in.SSESpecificationOverride, in.VectorIndexOverride),
	}
	var ok bool
	req.TargetTableName, ok = str(in.TargetTableName)
	req.NoTargetTableName = !ok
	req.RestoreDateTime, ok = wireTime(in.RestoreDateTime)
	return req, ok
}

// Answers.

// fromTimePtr is fromTime for an optional timestamp.
func fromTimePtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	return fromTime(*t)
}

// fromProvisioned is a ProvisionedThroughput as the encoder writes it:
// both capacities, always.
func fromProvisioned(p *dynamo.ProvisionedThroughput) *types.ProvisionedThroughput {
	if p == nil {
		return nil
	}
	return &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(p.ReadCapacityUnits), WriteCapacityUnits: aws.Int64(p.WriteCapacityUnits)}
}

func fromInt64(p *int64) *int64 {
	if p == nil {
		return nil
	}
	return aws.Int64(*p)
}

func fromInt32(p *int32) *int32 {
	if p == nil {
		return nil
	}
	return aws.Int32(*p)
}

func fromBackupDetails(b *dynamo.BackupDetails) *types.BackupDetails {
	if b == nil {
		return nil
	}
	return &types.BackupDetails{
		BackupArn:              optString(b.BackupArn),
		BackupCreationDateTime: fromTime(b.BackupCreationDateTime),
		BackupExpiryDateTime:   fromTimePtr(b.BackupExpiryDateTime),
		BackupName:             optString(b.BackupName),
		BackupSizeBytes:        fromInt64(b.BackupSizeBytes),
		BackupStatus:           types.BackupStatus(b.BackupStatus),
		BackupType:             types.BackupType(b.BackupType),
	}
}

func fromSSEDescription(s *dynamo.SSEDescription) *types.SSEDescription {
	if s == nil {
		return nil
	}
	return &types.SSEDescription{KMSMasterKeyArn: optString(s.KMSMasterKeyArn), SSEType: types.SSEType(s.SSEType), Status: types.SSEStatus(s.Status)}
}

func fromBackupDescription(b *dynamo.BackupDescription) *types.BackupDescription {
	if b == nil {
		return nil
	}
	d := &types.BackupDescription{BackupDetails: fromBackupDetails(b.BackupDetails)}
	if s := b.SourceTableDetails; s != nil {
		d.SourceTableDetails = &types.SourceTableDetails{
			BillingMode:           types.BillingMode(s.BillingMode),
			ItemCount:             aws.Int64(s.ItemCount),
			KeySchema:             fromKeySchema(s.KeySchema),
			OnDemandThroughput:    fromOnDemand(s.OnDemandThroughput),
			ProvisionedThroughput: fromProvisioned(s.ProvisionedThroughput),
			TableArn:              optString(s.TableArn),
			TableCreationDateTime: fromTime(s.TableCreationDateTime),
			TableId:               optString(s.TableId),
			TableName:             optString(s.TableName),
			TableSizeBytes:        aws.Int64(s.TableSizeBytes),
		}
	}
	if f := b.SourceTableFeatureDetails; f != nil {
		x := &types.SourceTableFeatureDetails{SSEDescription: fromSSEDescription(f.SSEDescription)}
		if f.VectorIndexes != nil {
			x.VectorIndexes = make([]types.VectorIndexInfo, len(f.VectorIndexes))
			for i, v := range f.VectorIndexes {
				x.VectorIndexes[i] = types.VectorIndexInfo{IndexName: optString(v.IndexName), Dimensions: aws.Int64(v.Dimensions),
					DistanceFunction: types.VectorDistanceFunction(v.DistanceFunction), SearchSchema: fromSearchSchema(v.SearchSchema),
					Projection: fromProjection(&v.Projection)}
				if a := v.VectorAttribute; a != nil {
					x.VectorIndexes[i].VectorAttribute = &types.VectorAttributeDefinition{AttributeName: optString(a.AttributeName)}
				}
			}
		}
		if f.GlobalSecondaryIndexes != nil {
			x.GlobalSecondaryIndexes = make([]types.GlobalSecondaryIndexInfo, len(f.GlobalSecondaryIndexes))
			for i := range f.GlobalSecondaryIndexes {
				g := &f.GlobalSecondaryIndexes[i]
				x.GlobalSecondaryIndexes[i] = types.GlobalSecondaryIndexInfo{
					IndexName:             optString(g.IndexName),
					KeySchema:             fromKeySchema(g.KeySchema),
					OnDemandThroughput:    fromOnDemand(g.OnDemandThroughput),
					Projection:            fromProjection(&g.Projection),
					ProvisionedThroughput: fromProvisioned(g.ProvisionedThroughput),
				}
			}
		}
		if f.LocalSecondaryIndexes != nil {
			x.LocalSecondaryIndexes = make([]types.LocalSecondaryIndexInfo, len(f.LocalSecondaryIndexes))
			for i := range f.LocalSecondaryIndexes {
				l := &f.LocalSecondaryIndexes[i]
				x.LocalSecondaryIndexes[i] = types.LocalSecondaryIndexInfo{
					IndexName:  optString(l.IndexName),
					KeySchema:  fromKeySchema(l.KeySchema),
					Projection: fromProjection(&l.Projection),
				}
			}
		}
		if s := f.StreamDescription; s != nil {
			x.StreamDescription = &types.StreamSpecification{StreamEnabled: aws.Bool(s.StreamEnabled), StreamViewType: types.StreamViewType(s.StreamViewType)}
		}
		if t := f.TimeToLiveDescription; t != nil {
			x.TimeToLiveDescription = &types.TimeToLiveDescription{AttributeName: optString(t.AttributeName),
				TimeToLiveStatus: types.TimeToLiveStatus(t.TimeToLiveStatus)}
		}
		d.SourceTableFeatureDetails = x
	}
	return d
}

func fromBackupSummaries(list []dynamo.BackupSummary) []types.BackupSummary {
	out := make([]types.BackupSummary, len(list)) // always sent, as [] when empty
	for i := range list {
		s := &list[i]
		out[i] = types.BackupSummary{
			BackupArn:              optString(s.BackupArn),
			BackupCreationDateTime: fromTime(s.BackupCreationDateTime),
			BackupExpiryDateTime:   fromTimePtr(s.BackupExpiryDateTime),
			BackupName:             optString(s.BackupName),
			BackupSizeBytes:        fromInt64(s.BackupSizeBytes),
			BackupStatus:           types.BackupStatus(s.BackupStatus),
			BackupType:             types.BackupType(s.BackupType),
			TableArn:               optString(s.TableArn),
			TableId:                optString(s.TableId),
			TableName:              optString(s.TableName),
		}
	}
	return out
}

func fromContinuousBackups(c *dynamo.ContinuousBackupsDescription) *types.ContinuousBackupsDescription {
	if c == nil {
		return nil
	}
	d := &types.ContinuousBackupsDescription{ContinuousBackupsStatus: types.ContinuousBackupsStatus(c.ContinuousBackupsStatus)}
	if p := c.PointInTimeRecoveryDescription; p != nil {
		d.PointInTimeRecoveryDescription = &types.PointInTimeRecoveryDescription{
			EarliestRestorableDateTime: fromTimePtr(p.EarliestRestorableDateTime),
			LatestRestorableDateTime:   fromTimePtr(p.LatestRestorableDateTime),
			PointInTimeRecoveryStatus:  types.PointInTimeRecoveryStatus(p.PointInTimeRecoveryStatus),
			RecoveryPeriodInDays:       fromInt32(p.RecoveryPeriodInDays),
		}
	}
	return d
}

// Operations.

// CreateBackup is (*dynamodb.Client).CreateBackup on the engine.
func (c *Direct) CreateBackup(ctx context.Context, in *dynamodb.CreateBackupInput, optFns ...func(*dynamodb.Options)) (*dynamodb.CreateBackupOutput, error) {
	var req dynamo.CreateBackupInput
	return call(&c.conn, ctx, "CreateBackup", in, optFns, (*dynamodb.Client).CreateBackup, func(in *dynamodb.CreateBackupInput) bool {
		req = createBackupRequest(in)
		return validInput(in, c.limit)
	}, func() (*dynamodb.CreateBackupOutput, error) {
		out, err := c.db.CreateBackup(&req)
		if err != nil {
			return nil, err
		}
		return &dynamodb.CreateBackupOutput{BackupDetails: fromBackupDetails(out.BackupDetails)}, nil
	})
}

// DescribeBackup is (*dynamodb.Client).DescribeBackup on the engine.
func (c *Direct) DescribeBackup(ctx context.Context, in *dynamodb.DescribeBackupInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DescribeBackupOutput, error) {
	var req dynamo.DescribeBackupInput
	return call(&c.conn, ctx, "DescribeBackup", in, optFns, (*dynamodb.Client).DescribeBackup, func(in *dynamodb.DescribeBackupInput) bool {
		var ok bool
		req.BackupArn, ok = str(in.BackupArn)
		req.NoBackupArn = !ok
		return validInput(in, c.limit)
	}, func() (*dynamodb.DescribeBackupOutput, error) {
		out, err := c.db.DescribeBackup(&req)
		if err != nil {
			return nil, err
		}
		return &dynamodb.DescribeBackupOutput{BackupDescription: fromBackupDescription(out.BackupDescription)}, nil
	})
}

// ListBackups is (*dynamodb.Client).ListBackups on the engine.
func (c *Direct) ListBackups(ctx context.Context, in *dynamodb.ListBackupsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.ListBackupsOutput, error) {
	var req dynamo.ListBackupsInput
	return call(&c.conn, ctx, "ListBackups", in, optFns, (*dynamodb.Client).ListBackups, func(in *dynamodb.ListBackupsInput) bool {
		var ok bool
		req, ok = listBackupsRequest(in)
		return ok && validInput(in, c.limit)
	}, func() (*dynamodb.ListBackupsOutput, error) {
		out, err := c.db.ListBackups(&req)
		if err != nil {
			return nil, err
		}
		return &dynamodb.ListBackupsOutput{BackupSummaries: fromBackupSummaries(out.BackupSummaries),
			LastEvaluatedBackupArn: optString(out.LastEvaluatedBackupArn)}, nil
	})
}

// DeleteBackup is (*dynamodb.Client).DeleteBackup on the engine.
func (c *Direct) DeleteBackup(ctx context.Context, in *dynamodb.DeleteBackupInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DeleteBackupOutput, error) {
	var req dynamo.DeleteBackupInput
	return call(&c.conn, ctx, "DeleteBackup", in, optFns, (*dynamodb.Client).DeleteBackup, func(in *dynamodb.DeleteBackupInput) bool {
		var ok bool
		req.BackupArn, ok = str(in.BackupArn)
		req.NoBackupArn = !ok
		return validInput(in, c.limit)
	}, func() (*dynamodb.DeleteBackupOutput, error) {
		out, err := c.db.DeleteBackup(&req)
		if err != nil {
			return nil, err
		}
		return &dynamodb.DeleteBackupOutput{BackupDescription: fromBackupDescription(out.BackupDescription)}, nil
	})
}

// RestoreTableFromBackup is (*dynamodb.Client).RestoreTableFromBackup on
// the engine.
func (c *Direct) RestoreTableFromBackup(ctx context.Context, in *dynamodb.RestoreTableFromBackupInput, optFns ...func(*dynamodb.Options)) (*dynamodb.RestoreTableFromBackupOutput, error) {
	var req dynamo.RestoreTableFromBackupInput
	return call(&c.conn, ctx, "RestoreTableFromBackup", in, optFns, (*dynamodb.Client).RestoreTableFromBackup, func(in *dynamodb.RestoreTableFromBackupInput) bool {
		if !validInput(in, c.limit) {
			return false
		}
		req = restoreTableFromBackupRequest(in)
		return true
	}, func() (*dynamodb.RestoreTableFromBackupOutput, error) {
		out, err := c.db.RestoreTableFromBackup(&req)
		if err != nil {
			return nil, err
		}
		return &dynamodb.RestoreTableFromBackupOutput{TableDescription: fromTable(out.TableDescription)}, nil
	})
}

// UpdateContinuousBackups is (*dynamodb.Client).UpdateContinuousBackups
// on the engine.
func (c *Direct) UpdateContinuousBackups(ctx context.Context, in *dynamodb.UpdateContinuousBackupsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateContinuousBackupsOutput, error) {
	var req dynamo.UpdateContinuousBackupsInput
	return call(&c.conn, ctx, "UpdateContinuousBackups", in, optFns, (*dynamodb.Client).UpdateContinuousBackups, func(in *dynamodb.UpdateContinuousBackupsInput) bool {
		req = updateContinuousBackupsRequest(in)
		return validInput(in, c.limit)
	}, func() (*dynamodb.UpdateContinuousBackupsOutput, error) {
		out, err := c.db.UpdateContinuousBackups(&req)
		if err != nil {
			return nil, err
		}
		return &dynamodb.UpdateContinuousBackupsOutput{ContinuousBackupsDescription: fromContinuousBackups(out.ContinuousBackupsDescription)}, nil
	})
}

// DescribeContinuousBackups is
// (*dynamodb.Client).DescribeContinuousBackups on the engine.
func (c *Direct) DescribeContinuousBackups(ctx context.Context, in *dynamodb.DescribeContinuousBackupsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DescribeContinuousBackupsOutput, error) {
	var req dynamo.DescribeContinuousBackupsInput
	return call(&c.conn, ctx, "DescribeContinuousBackups", in, optFns, (*dynamodb.Client).DescribeContinuousBackups, func(in *dynamodb.DescribeContinuousBackupsInput) bool {
		var ok bool
		req.TableName, ok = str(in.TableName)
		req.NoTableName = !ok
		return validInput(in, c.limit)
	}, func() (*dynamodb.DescribeContinuousBackupsOutput, error) {
		out, err := c.db.DescribeContinuousBackups(&req)
		if err != nil {
			return nil, err
		}
		return &dynamodb.DescribeContinuousBackupsOutput{ContinuousBackupsDescription: fromContinuousBackups(out.ContinuousBackupsDescription)}, nil
	})
}

// RestoreTableToPointInTime is
// (*dynamodb.Client).RestoreTableToPointInTime on the engine.
func (c *Direct) RestoreTableToPointInTime(ctx context.Context, in *dynamodb.RestoreTableToPointInTimeInput, optFns ...func(*dynamodb.Options)) (*dynamodb.RestoreTableToPointInTimeOutput, error) {
	var req dynamo.RestoreTableToPointInTimeInput
	return call(&c.conn, ctx, "RestoreTableToPointInTime", in, optFns, (*dynamodb.Client).RestoreTableToPointInTime, func(in *dynamodb.RestoreTableToPointInTimeInput) bool {
		if !validInput(in, c.limit) {
			return false
		}
		var ok bool
		req, ok = restoreTableToPointInTimeRequest(in)
		return ok
	}, func() (*dynamodb.RestoreTableToPointInTimeOutput, error) {
		out, err := c.db.RestoreTableToPointInTime(&req)
		if err != nil {
			return nil, err
		}
		return &dynamodb.RestoreTableToPointInTimeOutput{TableDescription: fromTable(out.TableDescription)}, nil
	})
}
