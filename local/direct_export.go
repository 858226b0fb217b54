package local

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/dynamo"
)

// Exports to and imports from S3 on the direct path, converted as the
// protocol decoder reads the SDK's JSON for them
// (server/internal/protocol/export.go), and their answers as the SDK
// decodes the server's encoding of them. The SDK's member dynago has no
// counterpart of (an export's FilterSpecification) is not converted: the
// decoder ignores it too.

// Requests.

func exportTableRequest(in *dynamodb.ExportTableToPointInTimeInput) (dynamo.ExportTableToPointInTimeInput, bool) {
	req := dynamo.ExportTableToPointInTimeInput{
		TableArn:       aws.ToString(in.TableArn),
		ClientToken:    aws.ToString(in.ClientToken),
		S3Bucket:       aws.ToString(in.S3Bucket),
		S3BucketOwner:  aws.ToString(in.S3BucketOwner),
		S3Prefix:       aws.ToString(in.S3Prefix),
		S3SseAlgorithm: string(in.S3SseAlgorithm),
		S3SseKmsKeyId:  aws.ToString(in.S3SseKmsKeyId),
		ExportFormat:   string(in.ExportFormat),
		ExportType:     string(in.ExportType),
	}
	var ok bool
	if req.ExportTime, ok = wireTime(in.ExportTime); !ok {
		return req, false
	}
	if s := in.IncrementalExportSpecification; s != nil {
		spec := &dynamo.IncrementalExportSpecification{ExportViewType: string(s.ExportViewType)}
		if spec.ExportFromTime, ok = wireTime(s.ExportFromTime); !ok {
			return req, false
		}
		if spec.ExportToTime, ok = wireTime(s.ExportToTime); !ok {
			return req, false
		}
		req.IncrementalExportSpecification = spec
	}
	return req, true
}

func s3BucketSource(s *types.S3BucketSource) *dynamo.S3BucketSource {
	if s == nil {
		return nil
	}
	return &dynamo.S3BucketSource{S3BucketOwner: aws.ToString(s.S3BucketOwner), S3Bucket: aws.ToString(s.S3Bucket),
		S3KeyPrefix: aws.ToString(s.S3KeyPrefix)}
}

func inputFormatOptions(o *types.InputFormatOptions) *dynamo.InputFormatOptions {
	if o == nil {
		return nil
	}
	x := &dynamo.InputFormatOptions{}
	if c := o.Csv; c != nil {
		x.Csv = &dynamo.CsvOptions{Delimiter: aws.ToString(c.Delimiter), HeaderList: copyStrings(c.HeaderList)}
	}
	return x
}

func tableCreationParameters(p *types.TableCreationParameters) *dynamo.TableCreationParameters {
	if p == nil {
		return nil
	}
	x := &dynamo.TableCreationParameters{
		TableName:             aws.ToString(p.TableName),
		AttributeDefinitions:  attributeDefinitions(p.AttributeDefinitions),
		KeySchema:             keySchema(p.KeySchema),
		BillingMode:           string(p.BillingMode),
		ProvisionedThroughput: provisionedThroughput(p.ProvisionedThroughput),
		OnDemandThroughput:    onDemandThroughput(p.OnDemandThroughput),
		SSESpecification:      sseSpecification(p.SSESpecification),
	}
	x.VectorIndexes = vectorIndexes(p.VectorIndexes)
	if p.GlobalSecondaryIndexes != nil {
		x.GlobalSecondaryIndexes = make([]dynamo.GlobalSecondaryIndex, len(p.GlobalSecondaryIndexes))
		for i := range p.GlobalSecondaryIndexes {
			x.GlobalSecondaryIndexes[i] = globalSecondaryIndex(&p.GlobalSecondaryIndexes[i])
		}
	}
	return x
}

func importTableRequest(in *dynamodb.ImportTableInput) dynamo.ImportTableInput {
	return dynamo.ImportTableInput{
		ClientToken:             aws.ToString(in.ClientToken),
		S3BucketSource:          s3BucketSource(in.S3BucketSource),
		InputFormat:             string(in.InputFormat),
		InputFormatOptions:      inputFormatOptions(in.InputFormatOptions),
		InputCompressionType:    string(in.InputCompressionType),
		TableCreationParameters: tableCreationParameters(in.TableCreationParameters),
	}
}

// Answers.

func fromExportDescription(e *dynamo.ExportDescription) *types.ExportDescription {
	if e == nil {
		return nil
	}
	d := &types.ExportDescription{
		BilledSizeBytes: fromInt64(e.BilledSizeBytes),
		ClientToken:     optString(e.ClientToken),
		EndTime:         fromTimePtr(e.EndTime),
		ExportArn:       optString(e.ExportArn),
		ExportFormat:    types.ExportFormat(e.ExportFormat),
		ExportManifest:  optString(e.ExportManifest),
		ExportStatus:    types.ExportStatus(e.ExportStatus),
		ExportTime:      fromTimePtr(e.ExportTime),
		ExportType:      types.ExportType(e.ExportType),
		FailureCode:     optString(e.FailureCode),
		FailureMessage:  optString(e.FailureMessage),
		ItemCount:       fromInt64(e.ItemCount),
		S3Bucket:        optString(e.S3Bucket),
		S3BucketOwner:   optString(e.S3BucketOwner),
		S3Prefix:        optString(e.S3Prefix),
		S3SseAlgorithm:  types.S3SseAlgorithm(e.S3SseAlgorithm),
		S3SseKmsKeyId:   optString(e.S3SseKmsKeyId),
		StartTime:       fromTimePtr(e.StartTime),
		TableArn:        optString(e.TableArn),
		TableId:         optString(e.TableId),
	}
	if s := e.IncrementalExportSpecification; s != nil {
		d.IncrementalExportSpecification = &types.IncrementalExportSpecification{ExportFromTime: fromTimePtr(s.ExportFromTime),
			ExportToTime: fromTimePtr(s.ExportToTime), ExportViewType: types.ExportViewType(s.ExportViewType)}
	}
	return d
}

func fromExportSummaries(list []dynamo.ExportSummary) []types.ExportSummary {
	out := make([]types.ExportSummary, len(list)) // always sent, as [] when empty
	for i, s := range list {
		out[i] = types.ExportSummary{ExportArn: optString(s.ExportArn), ExportStatus: types.ExportStatus(s.ExportStatus),
			ExportType: types.ExportType(s.ExportType)}
	}
	return out
}

func fromS3BucketSource(s *dynamo.S3BucketSource) *types.S3BucketSource {
	if s == nil {
		return nil
	}
	return &types.S3BucketSource{S3Bucket: optString(s.S3Bucket), S3BucketOwner: optString(s.S3BucketOwner), S3KeyPrefix: optString(s.S3KeyPrefix)}
}

func fromAttributeDefinitions(defs []dynamo.AttributeDefinition) []types.AttributeDefinition {
	if defs == nil {
		return nil
	}
	out := make([]types.AttributeDefinition, len(defs))
	for i, a := range defs {
		out[i] = types.AttributeDefinition{AttributeName: optString(a.AttributeName), AttributeType: types.ScalarAttributeType(a.AttributeType)}
	}
	return out
}

// fromTableCreationParameters is the table an import creates as the
// encoder writes it: its definitions in their request form.
func fromTableCreationParameters(p *dynamo.TableCreationParameters) *types.TableCreationParameters {
	if p == nil {
		return nil
	}
	x := &types.TableCreationParameters{
		AttributeDefinitions:  fromAttributeDefinitions(p.AttributeDefinitions),
		BillingMode:           types.BillingMode(p.BillingMode),
		KeySchema:             fromKeySchema(p.KeySchema),
		OnDemandThroughput:    fromOnDemand(p.OnDemandThroughput),
		ProvisionedThroughput: fromProvisioned(p.ProvisionedThroughput),
		TableName:             optString(p.TableName),
	}
	if s := p.SSESpecification; s != nil {
		x.SSESpecification = &types.SSESpecification{KMSMasterKeyId: optString(s.KMSMasterKeyId), SSEType: types.SSEType(s.SSEType)}
		if s.Enabled != nil {
			x.SSESpecification.Enabled = aws.Bool(*s.Enabled)
		}
	}
	x.VectorIndexes = fromVectorIndexes(p.VectorIndexes)
	if p.GlobalSecondaryIndexes != nil {
		x.GlobalSecondaryIndexes = make([]types.GlobalSecondaryIndex, len(p.GlobalSecondaryIndexes))
		for i := range p.GlobalSecondaryIndexes {
			g := &p.GlobalSecondaryIndexes[i]
			x.GlobalSecondaryIndexes[i] = types.GlobalSecondaryIndex{
				IndexName:             optString(g.IndexName),
				KeySchema:             fromKeySchema(g.KeySchema),
				OnDemandThroughput:    fromOnDemand(g.OnDemandThroughput),
				Projection:            fromProjection(&g.Projection),
				ProvisionedThroughput: fromProvisioned(g.ProvisionedThroughput),
			}
			if w := g.WarmThroughput; w != nil {
				x.GlobalSecondaryIndexes[i].WarmThroughput = &types.WarmThroughput{ReadUnitsPerSecond: fromInt64(w.ReadUnitsPerSecond),
					WriteUnitsPerSecond: fromInt64(w.WriteUnitsPerSecond)}
			}
		}
	}
	return x
}

func fromImportDescription(x *dynamo.ImportTableDescription) *types.ImportTableDescription {
	if x == nil {
		return nil
	}
	d := &types.ImportTableDescription{
		ClientToken:             optString(x.ClientToken),
		CloudWatchLogGroupArn:   optString(x.CloudWatchLogGroupArn),
		EndTime:                 fromTimePtr(x.EndTime),
		ErrorCount:              x.ErrorCount,
		FailureCode:             optString(x.FailureCode),
		FailureMessage:          optString(x.FailureMessage),
		ImportArn:               optString(x.ImportArn),
		ImportStatus:            types.ImportStatus(x.ImportStatus),
		ImportedItemCount:       x.ImportedItemCount,
		InputCompressionType:    types.InputCompressionType(x.InputCompressionType),
		InputFormat:             types.InputFormat(x.InputFormat),
		ProcessedItemCount:      x.ProcessedItemCount,
		ProcessedSizeBytes:      fromInt64(x.ProcessedSizeBytes),
		S3BucketSource:          fromS3BucketSource(x.S3BucketSource),
		StartTime:               fromTimePtr(x.StartTime),
		TableArn:                optString(x.TableArn),
		TableCreationParameters: fromTableCreationParameters(x.TableCreationParameters),
		TableId:                 optString(x.TableId),
	}
	if o := x.InputFormatOptions; o != nil {
		d.InputFormatOptions = &types.InputFormatOptions{}
		if c := o.Csv; c != nil {
			d.InputFormatOptions.Csv = &types.CsvOptions{Delimiter: optString(c.Delimiter), HeaderList: copyStrings(c.HeaderList)}
		}
	}
	return d
}

func fromImportSummaries(list []dynamo.ImportSummary) []types.ImportSummary {
	out := make([]types.ImportSummary, len(list)) // always sent, as [] when empty
	for i := range list {
		s := &list[i]
		out[i] = types.ImportSummary{
			CloudWatchLogGroupArn: optString(s.CloudWatchLogGroupArn),
			EndTime:               fromTimePtr(s.EndTime),
			ImportArn:             optString(s.ImportArn),
			ImportStatus:          types.ImportStatus(s.ImportStatus),
			InputFormat:           types.InputFormat(s.InputFormat),
			S3BucketSource:        fromS3BucketSource(s.S3BucketSource),
			StartTime:             fromTimePtr(s.StartTime),
			TableArn:              optString(s.TableArn),
		}
	}
	return out
}

// Operations.

// ExportTableToPointInTime is (*dynamodb.Client).ExportTableToPointInTime
// on the engine. A ClientToken left out is set to a new token, as the
// SDK's client sets it before its validation.
func (c *Direct) ExportTableToPointInTime(ctx context.Context, in *dynamodb.ExportTableToPointInTimeInput, optFns ...func(*dynamodb.Options)) (*dynamodb.ExportTableToPointInTimeOutput, error) {
	if in == nil {
		in = &dynamodb.ExportTableToPointInTimeInput{}
	}
	if err := c.token("ExportTableToPointInTime", &in.ClientToken); err != nil {
		return nil, err
	}
	var req dynamo.ExportTableToPointInTimeInput
	return call(&c.conn, ctx, "ExportTableToPointInTime", in, optFns, (*dynamodb.Client).ExportTableToPointInTime, func(in *dynamodb.ExportTableToPointInTimeInput) bool {
		if !validInput(in, c.limit) {
			return false
		}
		var ok bool
		req, ok = exportTableRequest(in)
		return ok
	}, func() (*dynamodb.ExportTableToPointInTimeOutput, error) {
		out, err := c.db.ExportTableToPointInTime(&req)
		if err != nil {
			return nil, err
		}
		return &dynamodb.ExportTableToPointInTimeOutput{ExportDescription: fromExportDescription(out.ExportDescription)}, nil
	})
}

// DescribeExport is (*dynamodb.Client).DescribeExport on the engine.
func (c *Direct) DescribeExport(ctx context.Context, in *dynamodb.DescribeExportInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DescribeExportOutput, error) {
	var req dynamo.DescribeExportInput
	return call(&c.conn, ctx, "DescribeExport", in, optFns, (*dynamodb.Client).DescribeExport, func(in *dynamodb.DescribeExportInput) bool {
		req.ExportArn = aws.ToString(in.ExportArn)
		return validInput(in, c.limit)
	}, func() (*dynamodb.DescribeExportOutput, error) {
		out, err := c.db.DescribeExport(&req)
		if err != nil {
			return nil, err
		}
		return &dynamodb.DescribeExportOutput{ExportDescription: fromExportDescription(out.ExportDescription)}, nil
	})
}

// ListExports is (*dynamodb.Client).ListExports on the engine.
func (c *Direct) ListExports(ctx context.Context, in *dynamodb.ListExportsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.ListExportsOutput, error) {
	var req dynamo.ListExportsInput
	return call(&c.conn, ctx, "ListExports", in, optFns, (*dynamodb.Client).ListExports, func(in *dynamodb.ListExportsInput) bool {
		req = dynamo.ListExportsInput{TableArn: aws.ToString(in.TableArn), MaxResults: fromInt32(in.MaxResults), NextToken: aws.ToString(in.NextToken)}
		return validInput(in, c.limit)
	}, func() (*dynamodb.ListExportsOutput, error) {
		out, err := c.db.ListExports(&req)
		if err != nil {
			return nil, err
		}
		return &dynamodb.ListExportsOutput{ExportSummaries: fromExportSummaries(out.ExportSummaries), NextToken: optString(out.NextToken)}, nil
	})
}

// ImportTable is (*dynamodb.Client).ImportTable on the engine. A
// ClientToken left out is set to a new token, as the SDK's client sets
// it before its validation.
func (c *Direct) ImportTable(ctx context.Context, in *dynamodb.ImportTableInput, optFns ...func(*dynamodb.Options)) (*dynamodb.ImportTableOutput, error) {
	if in == nil {
		in = &dynamodb.ImportTableInput{}
	}
	if err := c.token("ImportTable", &in.ClientToken); err != nil {
		return nil, err
	}
	var req dynamo.ImportTableInput
	return call(&c.conn, ctx, "ImportTable", in, optFns, (*dynamodb.Client).ImportTable, func(in *dynamodb.ImportTableInput) bool {
		if !validInput(in, c.limit) {
			return false
		}
		req = importTableRequest(in)
		return true
	}, func() (*dynamodb.ImportTableOutput, error) {
		out, err := c.db.ImportTable(&req)
		if err != nil {
			return nil, err
		}
		return &dynamodb.ImportTableOutput{ImportTableDescription: fromImportDescription(out.ImportTableDescription)}, nil
	})
}

// DescribeImport is (*dynamodb.Client).DescribeImport on the engine.
func (c *Direct) DescribeImport(ctx context.Context, in *dynamodb.DescribeImportInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DescribeImportOutput, error) {
	var req dynamo.DescribeImportInput
	return call(&c.conn, ctx, "DescribeImport", in, optFns, (*dynamodb.Client).DescribeImport, func(in *dynamodb.DescribeImportInput) bool {
		req.ImportArn = aws.ToString(in.ImportArn)
		return validInput(in, c.limit)
	}, func() (*dynamodb.DescribeImportOutput, error) {
		out, err := c.db.DescribeImport(&req)
		if err != nil {
			return nil, err
		}
		return &dynamodb.DescribeImportOutput{ImportTableDescription: fromImportDescription(out.ImportTableDescription)}, nil
	})
}

// ListImports is (*dynamodb.Client).ListImports on the engine.
func (c *Direct) ListImports(ctx context.Context, in *dynamodb.ListImportsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.ListImportsOutput, error) {
	var req dynamo.ListImportsInput
	return call(&c.conn, ctx, "ListImports", in, optFns, (*dynamodb.Client).ListImports, func(in *dynamodb.ListImportsInput) bool {
		req = dynamo.ListImportsInput{TableArn: aws.ToString(in.TableArn), PageSize: fromInt32(in.PageSize), NextToken: aws.ToString(in.NextToken)}
		return validInput(in, c.limit)
	}, func() (*dynamodb.ListImportsOutput, error) {
		out, err := c.db.ListImports(&req)
		if err != nil {
			return nil, err
		}
		return &dynamodb.ListImportsOutput{ImportSummaryList: fromImportSummaries(out.ImportSummaryList), NextToken: optString(out.NextToken)}, nil
	})
}
