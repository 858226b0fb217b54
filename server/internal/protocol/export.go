package protocol

import (
	"github.com/dynago/dynago/dynamo"
)

// This file holds the codec of exports to S3 (ExportTableToPointInTime,
// DescribeExport, ListExports) and imports from S3 (ImportTable,
// DescribeImport, ListImports). The member names are those of the API
// reference's request and response syntax. The decoders refuse only
// wrong JSON types; a required member left out is the engine's to
// answer. Timestamps are epoch seconds as JSON numbers, as everywhere.

// Export requests.

// DecodeExportTableToPointInTime decodes an ExportTableToPointInTime
// request body.
func DecodeExportTableToPointInTime(body []byte) (*dynamo.ExportTableToPointInTimeInput, error) {
	in := new(dynamo.ExportTableToPointInTimeInput)
	d := &decoder{data: body}
	err := d.root("ExportTableToPointInTimeInput", func(key []byte) *dynamo.Error {
		switch string(key) {
		case "TableArn":
			return d.str(&in.TableArn)
		case "ExportTime":
			return d.timestamp(&in.ExportTime)
		case "ClientToken":
			return d.str(&in.ClientToken)
		case "S3Bucket":
			return d.str(&in.S3Bucket)
		case "S3BucketOwner":
			return d.str(&in.S3BucketOwner)
		case "S3Prefix":
			return d.str(&in.S3Prefix)
		case "S3SseAlgorithm":
			return d.str(&in.S3SseAlgorithm)
		case "S3SseKmsKeyId":
			return d.str(&in.S3SseKmsKeyId)
		case "ExportFormat":
			return d.str(&in.ExportFormat)
		case "ExportType":
			return d.str(&in.ExportType)
		case "IncrementalExportSpecification":
			spec := new(dynamo.IncrementalExportSpecification)
			ok, err := d.object("IncrementalExportSpecification", atField, func(key []byte) *dynamo.Error {
				switch string(key) {
				case "ExportFromTime":
					return d.timestamp(&spec.ExportFromTime)
				case "ExportToTime":
					return d.timestamp(&spec.ExportToTime)
				case "ExportViewType":
					return d.str(&spec.ExportViewType)
				}
				return d.skipValue()
			})
			if ok {
				in.IncrementalExportSpecification = spec
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

// decodeOneString decodes the requests whose only member is the string
// name.
func decodeOneString(body []byte, typ, name string) (string, error) {
	var s string
	d := &decoder{data: body}
	err := d.root(typ, func(key []byte) *dynamo.Error {
		if string(key) == name {
			return d.str(&s)
		}
		return d.skipValue()
	})
	return s, err
}

// DecodeDescribeExport decodes a DescribeExport request body.
func DecodeDescribeExport(body []byte) (*dynamo.DescribeExportInput, error) {
	arn, err := decodeOneString(body, "DescribeExportInput", "ExportArn")
	if err != nil {
		return nil, err
	}
	return &dynamo.DescribeExportInput{ExportArn: arn}, nil
}

// DecodeListExports decodes a ListExports request body.
func DecodeListExports(body []byte) (*dynamo.ListExportsInput, error) {
	in := new(dynamo.ListExportsInput)
	d := &decoder{data: body}
	err := d.root("ListExportsInput", func(key []byte) *dynamo.Error {
		switch string(key) {
		case "TableArn":
			return d.str(&in.TableArn)
		case "MaxResults":
			return d.int32Ptr(&in.MaxResults)
		case "NextToken":
			return d.str(&in.NextToken)
		}
		return d.skipValue()
	})
	if err != nil {
		return nil, err
	}
	return in, nil
}

// Import requests.

func (d *decoder) s3BucketSource(dst **dynamo.S3BucketSource) *dynamo.Error {
	s := new(dynamo.S3BucketSource)
	ok, err := d.object("S3BucketSource", atField, func(key []byte) *dynamo.Error {
		switch string(key) {
		case "S3BucketOwner":
			return d.str(&s.S3BucketOwner)
		case "S3Bucket":
			return d.str(&s.S3Bucket)
		case "S3KeyPrefix":
			return d.str(&s.S3KeyPrefix)
		}
		return d.skipValue()
	})
	if ok {
		*dst = s
	}
	return err
}

func (d *decoder) inputFormatOptions(dst **dynamo.InputFormatOptions) *dynamo.Error {
	o := new(dynamo.InputFormatOptions)
	ok, err := d.object("InputFormatOptions", atField, func(key []byte) *dynamo.Error {
		if string(key) != "Csv" {
			return d.skipValue()
		}
		csv := new(dynamo.CsvOptions)
		ok, err := d.object("CsvOptions", atField, func(key []byte) *dynamo.Error {
			switch string(key) {
			case "Delimiter":
				return d.str(&csv.Delimiter)
			case "HeaderList":
				return d.strList(&csv.HeaderList)
			}
			return d.skipValue()
		})
		if ok {
			o.Csv = csv
		}
		return err
	})
	if ok {
		*dst = o
	}
	return err
}

// tableCreationParameters reads the table an import creates, its
// definitions read as CreateTable's.
func (d *decoder) tableCreationParameters(dst **dynamo.TableCreationParameters) *dynamo.Error {
	p := new(dynamo.TableCreationParameters)
	ok, err := d.object("TableCreationParameters", atField, func(key []byte) *dynamo.Error {
		switch string(key) {
		case "TableName":
			return d.str(&p.TableName)
		case "AttributeDefinitions":
			return d.attributeDefinitions(&p.AttributeDefinitions)
		case "KeySchema":
			return d.keySchema(&p.KeySchema)
		case "BillingMode":
			return d.str(&p.BillingMode)
		case "ProvisionedThroughput":
			return d.provisionedThroughput(&p.ProvisionedThroughput)
		case "OnDemandThroughput":
			return d.onDemandThroughput(&p.OnDemandThroughput)
		case "SSESpecification":
			return d.sseSpecification(&p.SSESpecification)
		case "GlobalSecondaryIndexes":
			return decodeList(d, &p.GlobalSecondaryIndexes, atField, globalSecondaryIndexElem)
		case "VectorIndexes":
			return decodeList(d, &p.VectorIndexes, atField, vectorIndexElem)
		}
		return d.skipValue()
	})
	if ok {
		*dst = p
	}
	return err
}

// DecodeImportTable decodes an ImportTable request body.
func DecodeImportTable(body []byte) (*dynamo.ImportTableInput, error) {
	in := new(dynamo.ImportTableInput)
	d := &decoder{data: body}
	err := d.root("ImportTableInput", func(key []byte) *dynamo.Error {
		switch string(key) {
		case "ClientToken":
			return d.str(&in.ClientToken)
		case "S3BucketSource":
			return d.s3BucketSource(&in.S3BucketSource)
		case "InputFormat":
			return d.str(&in.InputFormat)
		case "InputFormatOptions":
			return d.inputFormatOptions(&in.InputFormatOptions)
		case "InputCompressionType":
			return d.str(&in.InputCompressionType)
		case "TableCreationParameters":
			return d.tableCreationParameters(&in.TableCreationParameters)
		}
		return d.skipValue()
	})
	if err != nil {
		return nil, err
	}
	return in, nil
}

// DecodeDescribeImport decodes a DescribeImport request body.
func DecodeDescribeImport(body []byte) (*dynamo.DescribeImportInput, error) {
	arn, err := decodeOneString(body, "DescribeImportInput", "ImportArn")
	if err != nil {
		return nil, err
	}
	return &dynamo.DescribeImportInput{ImportArn: arn}, nil
}

// DecodeListImports decodes a ListImports request body.
func DecodeListImports(body []byte) (*dynamo.ListImportsInput, error) {
	in := new(dynamo.ListImportsInput)
	d := &decoder{data: body}
	err := d.root("ListImportsInput", func(key []byte) *dynamo.Error {
		switch string(key) {
		case "TableArn":
			return d.str(&in.TableArn)
		case "PageSize":
			return d.int32Ptr(&in.PageSize)
		case "NextToken":
			return d.str(&in.NextToken)
		}
		return d.skipValue()
	})
	if err != nil {
		return nil, err
	}
	return in, nil
}

// Export responses.

func incrementalExportMember(dst []byte, s *dynamo.IncrementalExportSpecification) []byte {
	if s == nil {
		return dst
	}
	dst = append(member(dst, "IncrementalExportSpecification"), '{')
	dst = timePtrMember(dst, "ExportFromTime", s.ExportFromTime)
	dst = timePtrMember(dst, "ExportToTime", s.ExportToTime)
	dst = strMember(dst, "ExportViewType", s.ExportViewType)
	return append(dst, '}')
}

func exportDescriptionMember(dst []byte, e *dynamo.ExportDescription) []byte {
	if e == nil {
		return dst
	}
	dst = append(member(dst, "ExportDescription"), '{')
	dst = int64PtrMember(dst, "BilledSizeBytes", e.BilledSizeBytes)
	dst = strMember(dst, "ClientToken", e.ClientToken)
	dst = timePtrMember(dst, "EndTime", e.EndTime)
	dst = strMember(dst, "ExportArn", e.ExportArn)
	dst = strMember(dst, "ExportFormat", e.ExportFormat)
	dst = strMember(dst, "ExportManifest", e.ExportManifest)
	dst = strMember(dst, "ExportStatus", e.ExportStatus)
	dst = timePtrMember(dst, "ExportTime", e.ExportTime)
	dst = strMember(dst, "ExportType", e.ExportType)
	dst = strMember(dst, "FailureCode", e.FailureCode)
	dst = strMember(dst, "FailureMessage", e.FailureMessage)
	dst = incrementalExportMember(dst, e.IncrementalExportSpecification)
	dst = int64PtrMember(dst, "ItemCount", e.ItemCount)
	dst = strMember(dst, "S3Bucket", e.S3Bucket)
	dst = strMember(dst, "S3BucketOwner", e.S3BucketOwner)
	dst = strMember(dst, "S3Prefix", e.S3Prefix)
	dst = strMember(dst, "S3SseAlgorithm", e.S3SseAlgorithm)
	dst = strMember(dst, "S3SseKmsKeyId", e.S3SseKmsKeyId)
	dst = timePtrMember(dst, "StartTime", e.StartTime)
	dst = strMember(dst, "TableArn", e.TableArn)
	dst = strMember(dst, "TableId", e.TableId)
	return append(dst, '}')
}

// EncodeExportTableToPointInTime appends ExportTableToPointInTime's
// response body to dst.
func EncodeExportTableToPointInTime(dst []byte, out *dynamo.ExportTableToPointInTimeOutput) []byte {
	dst = append(dst, '{')
	if out != nil {
		dst = exportDescriptionMember(dst, out.ExportDescription)
	}
	return append(dst, '}')
}

// EncodeDescribeExport appends DescribeExport's response body to dst.
func EncodeDescribeExport(dst []byte, out *dynamo.DescribeExportOutput) []byte {
	dst = append(dst, '{')
	if out != nil {
		dst = exportDescriptionMember(dst, out.ExportDescription)
	}
	return append(dst, '}')
}

// EncodeListExports appends ListExports' response body to dst.
// ExportSummaries is always sent, as [] when empty.
func EncodeListExports(dst []byte, out *dynamo.ListExportsOutput) []byte {
	if out == nil {
		out = &dynamo.ListExportsOutput{}
	}
	dst = append(dst, '{')
	dst = append(member(dst, "ExportSummaries"), '[')
	for i := range out.ExportSummaries {
		s := &out.ExportSummaries[i]
		dst = append(comma(dst), '{')
		dst = strMember(dst, "ExportArn", s.ExportArn)
		dst = strMember(dst, "ExportStatus", s.ExportStatus)
		dst = strMember(dst, "ExportType", s.ExportType)
		dst = append(dst, '}')
	}
	dst = append(dst, ']')
	dst = strMember(dst, "NextToken", out.NextToken)
	return append(dst, '}')
}

// Import responses.

func s3BucketSourceMember(dst []byte, s *dynamo.S3BucketSource) []byte {
	if s == nil {
		return dst
	}
	dst = append(member(dst, "S3BucketSource"), '{')
	dst = strMember(dst, "S3Bucket", s.S3Bucket)
	dst = strMember(dst, "S3BucketOwner", s.S3BucketOwner)
	dst = strMember(dst, "S3KeyPrefix", s.S3KeyPrefix)
	return append(dst, '}')
}

func inputFormatOptionsMember(dst []byte, o *dynamo.InputFormatOptions) []byte {
	if o == nil {
		return dst
	}
	dst = append(member(dst, "InputFormatOptions"), '{')
	if c := o.Csv; c != nil {
		dst = append(member(dst, "Csv"), '{')
		dst = strMember(dst, "Delimiter", c.Delimiter)
		dst = stringsMember(dst, "HeaderList", c.HeaderList)
		dst = append(dst, '}')
	}
	return append(dst, '}')
}

// tableCreationParametersMember writes the table an import creates as
// its request gave it (definitions in their request form).
func tableCreationParametersMember(dst []byte, p *dynamo.TableCreationParameters) []byte {
	if p == nil {
		return dst
	}
	dst = append(member(dst, "TableCreationParameters"), '{')
	if p.AttributeDefinitions != nil {
		dst = append(member(dst, "AttributeDefinitions"), '[')
		for _, a := range p.AttributeDefinitions {
			dst = append(comma(dst), '{')
			dst = strMember(dst, "AttributeName", a.AttributeName)
			dst = strMember(dst, "AttributeType", a.AttributeType)
			dst = append(dst, '}')
		}
		dst = append(dst, ']')
	}
	dst = strMember(dst, "BillingMode", p.BillingMode)
	if p.GlobalSecondaryIndexes != nil {
		dst = append(member(dst, "GlobalSecondaryIndexes"), '[')
		for i := range p.GlobalSecondaryIndexes {
			g := &p.GlobalSecondaryIndexes[i]
			dst = append(comma(dst), '{')
			dst = strMember(dst, "IndexName", g.IndexName)
			dst = keySchemaMember(dst, g.KeySchema)
			dst = onDemandMember(dst, g.OnDemandThroughput)
			dst = appendProjection(member(dst, "Projection"), &g.Projection)
			dst = provisionedMember(dst, g.ProvisionedThroughput)
			if w := g.WarmThroughput; w != nil {
				dst = append(member(dst, "WarmThroughput"), '{')
				dst = int64PtrMember(dst, "ReadUnitsPerSecond", w.ReadUnitsPerSecond)
				dst = int64PtrMember(dst, "WriteUnitsPerSecond", w.WriteUnitsPerSecond)
				dst = append(dst, '}')
			}
			dst = append(dst, '}')
		}
		dst = append(dst, ']')
	}
	dst = keySchemaMember(dst, p.KeySchema)
	dst = onDemandMember(dst, p.OnDemandThroughput)
	dst = provisionedMember(dst, p.ProvisionedThroughput)
	if s := p.SSESpecification; s != nil {
		dst = append(member(dst, "SSESpecification"), '{')
		dst = boolPtrMember(dst, "Enabled", s.Enabled)
		dst = strMember(dst, "KMSMasterKeyId", s.KMSMasterKeyId)
		dst = strMember(dst, "SSEType", s.SSEType)
		dst = append(dst, '}')
	}
	dst = strMember(dst, "TableName", p.TableName)
	dst = vectorIndexesMember(dst, p.VectorIndexes)
	return append(dst, '}')
}

// importDescriptionMember writes an ImportTableDescription. The three
// counts are always sent (the SDKs read them as plain numbers, 0 when
// absent).
func importDescriptionMember(dst []byte, x *dynamo.ImportTableDescription) []byte {
	if x == nil {
		return dst
	}
	dst = append(member(dst, "ImportTableDescription"), '{')
	dst = strMember(dst, "ClientToken", x.ClientToken)
	dst = strMember(dst, "CloudWatchLogGroupArn", x.CloudWatchLogGroupArn)
	dst = timePtrMember(dst, "EndTime", x.EndTime)
	dst = intMember(dst, "ErrorCount", x.ErrorCount)
	dst = strMember(dst, "FailureCode", x.FailureCode)
	dst = strMember(dst, "FailureMessage", x.FailureMessage)
	dst = strMember(dst, "ImportArn", x.ImportArn)
	dst = strMember(dst, "ImportStatus", x.ImportStatus)
	dst = intMember(dst, "ImportedItemCount", x.ImportedItemCount)
	dst = strMember(dst, "InputCompressionType", x.InputCompressionType)
	dst = strMember(dst, "InputFormat", x.InputFormat)
	dst = inputFormatOptionsMember(dst, x.InputFormatOptions)
	dst = intMember(dst, "ProcessedItemCount", x.ProcessedItemCount)
	dst = int64PtrMember(dst, "ProcessedSizeBytes", x.ProcessedSizeBytes)
	dst = s3BucketSourceMember(dst, x.S3BucketSource)
	dst = timePtrMember(dst, "StartTime", x.StartTime)
	dst = strMember(dst, "TableArn", x.TableArn)
	dst = tableCreationParametersMember(dst, x.TableCreationParameters)
	dst = strMember(dst, "TableId", x.TableId)
	return append(dst, '}')
}

// EncodeImportTable appends ImportTable's response body to dst.
func EncodeImportTable(dst []byte, out *dynamo.ImportTableOutput) []byte {
	dst = append(dst, '{')
	if out != nil {
		dst = importDescriptionMember(dst, out.ImportTableDescription)
	}
	return append(dst, '}')
}

// EncodeDescribeImport appends DescribeImport's response body to dst.
func EncodeDescribeImport(dst []byte, out *dynamo.DescribeImportOutput) []byte {
	dst = append(dst, '{')
	if out != nil {
		dst = importDescriptionMember(dst, out.ImportTableDescription)
	}
	return append(dst, '}')
}

// EncodeListImports appends ListImports' response body to dst.
// ImportSummaryList is always sent, as [] when empty.
func EncodeListImports(dst []byte, out *dynamo.ListImportsOutput) []byte {
	if out == nil {
		out = &dynamo.ListImportsOutput{}
	}
	dst = append(dst, '{')
	dst = append(member(dst, "ImportSummaryList"), '[')
	for i := range out.ImportSummaryList {
		s := &out.ImportSummaryList[i]
		dst = append(comma(dst), '{')
		dst = strMember(dst, "CloudWatchLogGroupArn", s.CloudWatchLogGroupArn)
		dst = timePtrMember(dst, "EndTime", s.EndTime)
		dst = strMember(dst, "ImportArn", s.ImportArn)
		dst = strMember(dst, "ImportStatus", s.ImportStatus)
		dst = strMember(dst, "InputFormat", s.InputFormat)
		dst = s3BucketSourceMember(dst, s.S3BucketSource)
		dst = timePtrMember(dst, "StartTime", s.StartTime)
		dst = strMember(dst, "TableArn", s.TableArn)
		dst = append(dst, '}')
	}
	dst = append(dst, ']')
	dst = strMember(dst, "NextToken", out.NextToken)
	return append(dst, '}')
}
