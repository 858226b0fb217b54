package e2e

import (
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/engine"
	"github.com/dynago/dynago/exports"
	"github.com/dynago/dynago/internal/exchange"
	"github.com/dynago/dynago/internal/s3test"
	"github.com/dynago/dynago/local"
	"github.com/dynago/dynago/testserver"
)

// Sources: the API reference of ExportTableToPointInTime, DescribeExport,
// ImportTable and DescribeImport; the developer guide's "DynamoDB table
// export output format" and "Amazon S3 import formats for DynamoDB";
// moto's aws_verified export tests (test_dynamodb_export_table.py:
// test_export_point_in_time_recovery_not_enabled and
// test_export_from_missing_table) for the refusals' texts.

// waitExport waits for an export to end and returns its description.
func waitExport(t *testing.T, c local.API, arn string) *types.ExportDescription {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		out, err := c.DescribeExport(bg(), &dynamodb.DescribeExportInput{ExportArn: aws.String(arn)})
		if err != nil {
			t.Fatal(err)
		}
		if d := out.ExportDescription; d.ExportStatus != types.ExportStatusInProgress {
			return d
		}
		if time.Now().After(deadline) {
			t.Fatalf("export %s still in progress", arn)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// waitImport waits for an import to end and returns its description.
func waitImport(t *testing.T, c local.API, arn string) *types.ImportTableDescription {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		out, err := c.DescribeImport(bg(), &dynamodb.DescribeImportInput{ImportArn: aws.String(arn)})
		if err != nil {
			t.Fatal(err)
		}
		if d := out.ImportTableDescription; d.ImportStatus != types.ImportStatusInProgress {
			return d
		}
		if time.Now().After(deadline) {
			t.Fatalf("import %s still in progress", arn)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// importParams is the table an import of a createBackupSource table makes.
func importParams(name string) *types.TableCreationParameters {
	return &types.TableCreationParameters{
		TableName:   aws.String(name),
		BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("sk"), AttributeType: types.ScalarAttributeTypeN},
			{AttributeName: aws.String("g"), AttributeType: types.ScalarAttributeTypeS},
		},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange},
		},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
			IndexName:  aws.String("byG"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("g"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
		}},
	}
}

// exportThenImport exports table src as it was at a moment, changes it,
// and imports the export into a new table, which must equal src at that
// moment; for each format.
func exportThenImport(t *testing.T, c local.API, bucket string) {
	want := createBackupSource(t, c, "src", 80)
	if _, err := c.UpdateContinuousBackups(bg(), &dynamodb.UpdateContinuousBackupsInput{TableName: aws.String("src"),
		PointInTimeRecoverySpecification: &types.PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: aws.Bool(true)}}); err != nil {
		t.Fatal(err)
	}
	at := waitClockPast(time.Now()).Truncate(time.Millisecond)
	waitClockPast(at)
	for i := 0; i < 20; i++ {
		if _, err := c.DeleteItem(bg(), &dynamodb.DeleteItemInput{TableName: aws.String("src"),
			Key: map[string]types.AttributeValue{"pk": S(fmt.Sprintf("p%d", i%7)), "sk": N(fmt.Sprint(i))}}); err != nil {
			t.Fatal(err)
		}
	}
	for _, format := range []types.ExportFormat{types.ExportFormatDynamodbJson, types.ExportFormatIon} {
		t.Run(string(format), func(t *testing.T) {
			prefix := "exports/" + strings.ToLower(string(format))
			out, err := c.ExportTableToPointInTime(bg(), &dynamodb.ExportTableToPointInTimeInput{
				TableArn: aws.String(tableARN("src")), S3Bucket: aws.String(bucket), S3Prefix: aws.String(prefix),
				ExportTime: &at, ExportFormat: format})
			if err != nil {
				t.Fatal(err)
			}
			d := out.ExportDescription
			if d.ExportStatus != types.ExportStatusInProgress && d.ExportStatus != types.ExportStatusCompleted {
				t.Fatalf("export answered %s", d.ExportStatus)
			}
			if arn := aws.ToString(d.ExportArn); !strings.HasPrefix(arn, tableARN("src")+"/export/") {
				t.Fatalf("export ARN %s", arn)
			}
			d = waitExport(t, c, aws.ToString(d.ExportArn))
			if d.ExportStatus != types.ExportStatusCompleted || aws.ToInt64(d.ItemCount) != int64(len(want)) {
				t.Fatalf("export ended %s with %d items (want %d): %s", d.ExportStatus, aws.ToInt64(d.ItemCount), len(want), aws.ToString(d.FailureMessage))
			}
			id := aws.ToString(d.ExportArn)[strings.LastIndex(aws.ToString(d.ExportArn), "/")+1:]
			if want := prefix + "/AWSDynamoDB/" + id + "/manifest-summary.json"; aws.ToString(d.ExportManifest) != want {
				t.Fatalf("ExportManifest %q, want %q", aws.ToString(d.ExportManifest), want)
			}
			// An export imports into a new table unchanged.
			target := "imported-" + strings.ToLower(string(format))
			ci := types.InputCompressionTypeGzip
			im, err := c.ImportTable(bg(), &dynamodb.ImportTableInput{
				S3BucketSource:          &types.S3BucketSource{S3Bucket: aws.String(bucket), S3KeyPrefix: aws.String(prefix + "/AWSDynamoDB/" + id + "/data/")},
				InputFormat:             types.InputFormat(format),
				InputCompressionType:    ci,
				TableCreationParameters: importParams(target),
			})
			if err != nil {
				t.Fatal(err)
			}
			if desc := describe(t, c, target); desc.TableStatus != types.TableStatusCreating && desc.TableStatus != types.TableStatusActive {
				t.Fatalf("imported table %s", desc.TableStatus)
			}
			id2 := waitImport(t, c, aws.ToString(im.ImportTableDescription.ImportArn))
			if id2.ImportStatus != types.ImportStatusCompleted || id2.ImportedItemCount != int64(len(want)) || id2.ErrorCount != 0 {
				t.Fatalf("import ended %s: %d imported, %d errors, %s", id2.ImportStatus, id2.ImportedItemCount, id2.ErrorCount, aws.ToString(id2.FailureMessage))
			}
			waitTableActive(t, c, target)
			sameRestored(t, c, target, want)
		})
	}
}

// TestExportAndImport exports a table at a moment of its recovery window
// to the folder standing for S3, in both formats, and imports each export
// into a new table equal to the source at that moment.
func TestExportAndImport(t *testing.T) {
	_, c := start(t)
	exportThenImport(t, c, "bkt")
}

// TestExportAndImportOnS3 is TestExportAndImport against a real
// S3-compatible server (moto's).
func TestExportAndImportOnS3(t *testing.T) {
	moto := s3test.Start(t)
	x := exports.New(exports.Config{S3: moto.Client})
	s := testserver.Start(t, testserver.WithEngineOptions(func(o *engine.Options) { o.Exchange = x }))
	exportThenImport(t, client(t, s), moto.Bucket(t).Name())
}

// TestExportErrors: the refusals of ExportTableToPointInTime and
// DescribeExport.
func TestExportErrors(t *testing.T) {
	_, c := start(t)
	createBackupSource(t, c, "noPitr", 1)
	_, err := c.ExportTableToPointInTime(bg(), &dynamodb.ExportTableToPointInTimeInput{TableArn: aws.String(tableARN("noPitr")), S3Bucket: aws.String("bkt")})
	wantErr(t, err, "PointInTimeRecoveryUnavailableException", "Point in time recovery is not enabled for table 'noPitr'") // moto, aws_verified
	_, err = c.ExportTableToPointInTime(bg(), &dynamodb.ExportTableToPointInTimeInput{TableArn: aws.String(tableARN("gone")), S3Bucket: aws.String("bkt")})
	wantErr(t, err, "TableNotFoundException", "Table not found: "+tableARN("gone")) // moto, aws_verified
	missing := tableARN("noPitr") + "/export/01700000000000-0badc0de"
	_, err = c.DescribeExport(bg(), &dynamodb.DescribeExportInput{ExportArn: aws.String(missing)})
	wantErr(t, err, "ExportNotFoundException", "Export not found: "+missing)
}

// TestIncrementalExport exports what changed between two moments, with
// new and old images: one line per item changed, its last image and the
// one before the window.
func TestIncrementalExport(t *testing.T) {
	s, c := start(t)
	createBackupSource(t, c, "inc", 10)
	if _, err := c.UpdateContinuousBackups(bg(), &dynamodb.UpdateContinuousBackupsInput{TableName: aws.String("inc"),
		PointInTimeRecoverySpecification: &types.PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: aws.Bool(true)}}); err != nil {
		t.Fatal(err)
	}
	from := waitClockPast(time.Now()).Truncate(time.Millisecond)
	waitClockPast(from)
	// Item 0 changed twice, item 1 deleted, a new item 100.
	for _, v := range []string{"a", "b"} {
		if _, err := c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("inc"), Item: map[string]types.AttributeValue{"pk": S("p0"), "sk": N("0"), "v": S(v)}}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.DeleteItem(bg(), &dynamodb.DeleteItemInput{TableName: aws.String("inc"), Key: map[string]types.AttributeValue{"pk": S("p1"), "sk": N("1")}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("inc"), Item: map[string]types.AttributeValue{"pk": S("p2"), "sk": N("100")}}); err != nil {
		t.Fatal(err)
	}
	to := waitClockPast(time.Now()).Truncate(time.Millisecond)
	out, err := c.ExportTableToPointInTime(bg(), &dynamodb.ExportTableToPointInTimeInput{
		TableArn: aws.String(tableARN("inc")), S3Bucket: aws.String("bkt"), ExportType: types.ExportTypeIncrementalExport,
		IncrementalExportSpecification: &types.IncrementalExportSpecification{ExportFromTime: &from, ExportToTime: &to}})
	if err != nil {
		t.Fatal(err)
	}
	d := waitExport(t, c, aws.ToString(out.ExportDescription.ExportArn))
	if d.ExportStatus != types.ExportStatusCompleted || aws.ToInt64(d.ItemCount) != 3 {
		t.Fatalf("incremental export %s with %d lines, want 3: %s", d.ExportStatus, aws.ToInt64(d.ItemCount), aws.ToString(d.FailureMessage))
	}
	if s.S3Dir == "" {
		t.Fatal("start gave the server no folder standing for S3")
	}
	b, err := exchange.NewFolderBucket(s.S3Dir, "bkt")
	if err != nil {
		t.Fatal(err)
	}
	id := aws.ToString(d.ExportArn)[strings.LastIndex(aws.ToString(d.ExportArn), "/")+1:]
	ex, err := exchange.ReadExport(bg(), b, "", id)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, f := range ex.Files {
		r, err := ex.Open(bg(), b, f)
		if err != nil {
			t.Fatal(err)
		}
		for {
			rec, err := r.Next()
			if err != nil {
				break
			}
			ch := rec.Change
			line := fmt.Sprintf("new=%v old=%v", ch.NewImage != nil, ch.OldImage != nil)
			if ch.NewImage != nil && ch.NewImage["v"].S != "" {
				line += " v=" + ch.NewImage["v"].S
			}
			got[ch.Keys["sk"].S] = line
		}
		r.Close()
	}
	want := map[string]string{"0": "new=true old=true v=b", "1": "new=false old=true", "100": "new=true old=false"}
	deepEqual(t, "incremental lines", got, want)
}

// TestImportCountsBadLines imports a DynamoDB JSON file with a line that
// is not JSON and an item without the table's sort key: both are counted
// in ErrorCount and the others imported, as AWS's import goes on; a key
// the file holds twice ends as its later line.
func TestImportCountsBadLines(t *testing.T) {
	s, c := start(t)
	if s.S3Dir == "" {
		t.Fatal("start gave the server no folder standing for S3")
	}
	dir := filepath.Join(s.S3Dir, "bkt", "in")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	data := `{"Item":{"pk":{"S":"p0"},"sk":{"N":"1"},"g":{"S":"x"}}}
not json
{"Item":{"pk":{"S":"p0"}}}
{"Item":{"pk":{"S":"p1"},"sk":{"N":"2"}}}
{"Item":{"pk":{"S":"p0"},"sk":{"N":"1"},"g":{"S":"y"}}}
`
	if err := os.WriteFile(filepath.Join(dir, "items.json"), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	im, err := c.ImportTable(bg(), &dynamodb.ImportTableInput{
		S3BucketSource:          &types.S3BucketSource{S3Bucket: aws.String("bkt"), S3KeyPrefix: aws.String("in/")},
		InputFormat:             types.InputFormatDynamodbJson,
		TableCreationParameters: importParams("fromjson"),
	})
	if err != nil {
		t.Fatal(err)
	}
	d := waitImport(t, c, aws.ToString(im.ImportTableDescription.ImportArn))
	if d.ImportStatus != types.ImportStatusCompleted || d.ImportedItemCount != 3 || d.ErrorCount != 2 {
		t.Fatalf("import %s: %d imported, %d errors, %d processed", d.ImportStatus, d.ImportedItemCount, d.ErrorCount, d.ProcessedItemCount)
	}
	got, gsi := scanItems(t, c, "fromjson")
	if len(got) != 2 || gsi != 1 {
		t.Fatalf("%d items, %d in the GSI", len(got), gsi)
	}
	// A key written twice: the later line wins, and the GSI follows it.
	if g := got["1"]["g"]; g == nil || g.(*types.AttributeValueMemberS).Value != "y" {
		t.Fatalf("item p0/1 is %v, want the later line's", got["1"])
	}
	_, err = c.ImportTable(bg(), &dynamodb.ImportTableInput{
		S3BucketSource:          &types.S3BucketSource{S3Bucket: aws.String("bkt")},
		InputFormat:             types.InputFormatDynamodbJson,
		TableCreationParameters: importParams("fromjson"),
	})
	wantErr(t, err, "ResourceInUseException", "Table already exists: fromjson") // API reference: ResourceInUseException
}

// TestImportAWSExportAndCSV imports files shaped as AWS writes and reads
// them: an export folder as the developer guide's "DynamoDB table export
// output format" shows it (manifest-summary.json, manifest-files.json and a
// gzip data file of {"Item":...} lines; the ProductCatalog item of its
// example), pointing S3KeyPrefix at its data folder; and a CSV file with a
// header line, where only key attributes take their declared types
// ("Amazon S3 import formats for DynamoDB").
func TestImportAWSExportAndCSV(t *testing.T) {
	s, c := start(t)
	if s.S3Dir == "" {
		t.Fatal("start gave the server no folder standing for S3")
	}
	exp := filepath.Join(s.S3Dir, "bkt", "from-aws", "AWSDynamoDB", "01693685827212-0f2b8b5d")
	if err := os.MkdirAll(filepath.Join(exp, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	lines := `{"Item":{"Authors":{"SS":["Author1","Author2"]},"Dimensions":{"S":"8.5 x 11.0 x 1.5"},"ISBN":{"S":"333-3333333333"},"Id":{"N":"103"},"InPublication":{"BOOL":false},"PageCount":{"N":"600"},"Price":{"N":"2000"},"ProductCategory":{"S":"Book"},"Title":{"S":"Book 103 Title"}}}
{"Item":{"Id":{"N":"205"},"ProductCategory":{"S":"Bicycle"},"Title":{"S":"18-Bike-204"},"Price":{"N":"500"},"Color":{"L":[{"S":"Red"},{"S":"Black"}]}}}
`
	var gz strings.Builder
	zw := newGzip(&gz)
	if _, err := zw.Write([]byte(lines)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"data/zvwyqlvmpa3shnkg6l6a7ykfby.json.gz": gz.String(),
		"manifest-files.json":                     `{"itemCount":2,"md5Checksum":"","etag":"","dataFileS3Key":"from-aws/AWSDynamoDB/01693685827212-0f2b8b5d/data/zvwyqlvmpa3shnkg6l6a7ykfby.json.gz"}` + "\n",
		"manifest-summary.json":                   `{"version":"2020-06-30","exportArn":"arn:aws:dynamodb:us-east-1:123456789012:table/ProductCatalog/export/01693685827212-0f2b8b5d","startTime":"2023-09-02T20:17:07.212Z","endTime":"2023-09-02T20:22:12.389Z","tableArn":"arn:aws:dynamodb:us-east-1:123456789012:table/ProductCatalog","tableId":"12345a12-abcd-123a-ab12-1234abc12345","exportTime":"2023-09-02T20:17:07.212Z","s3Bucket":"bkt","s3Prefix":"from-aws","s3SseAlgorithm":"AES256","s3SseKmsKeyId":null,"manifestFilesS3Key":"from-aws/AWSDynamoDB/01693685827212-0f2b8b5d/manifest-files.json","billedSizeBytes":0,"itemCount":2,"outputFormat":"DYNAMODB_JSON","exportType":"FULL_EXPORT"}`,
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(exp, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	params := &types.TableCreationParameters{
		TableName:            aws.String("ProductCatalog"),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("Id"), AttributeType: types.ScalarAttributeTypeN}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("Id"), KeyType: types.KeyTypeHash}},
	}
	im, err := c.ImportTable(bg(), &dynamodb.ImportTableInput{
		S3BucketSource:          &types.S3BucketSource{S3Bucket: aws.String("bkt"), S3KeyPrefix: aws.String("from-aws/AWSDynamoDB/01693685827212-0f2b8b5d/data/")},
		InputFormat:             types.InputFormatDynamodbJson,
		InputCompressionType:    types.InputCompressionTypeGzip,
		TableCreationParameters: params,
	})
	if err != nil {
		t.Fatal(err)
	}
	d := waitImport(t, c, aws.ToString(im.ImportTableDescription.ImportArn))
	if d.ImportStatus != types.ImportStatusCompleted || d.ImportedItemCount != 2 || d.ErrorCount != 0 {
		t.Fatalf("import %s: %d imported, %d errors: %s", d.ImportStatus, d.ImportedItemCount, d.ErrorCount, aws.ToString(d.FailureMessage))
	}
	got, err := c.GetItem(bg(), &dynamodb.GetItemInput{TableName: aws.String("ProductCatalog"), Key: map[string]types.AttributeValue{"Id": N("103")}})
	if err != nil || render(M(got.Item)) != render(M(map[string]types.AttributeValue{
		"Authors": SS("Author1", "Author2"), "Dimensions": S("8.5 x 11.0 x 1.5"), "ISBN": S("333-3333333333"), "Id": N("103"),
		"InPublication": BOOL(false), "PageCount": N("600"), "Price": N("2000"), "ProductCategory": S("Book"), "Title": S("Book 103 Title")})) {
		t.Fatalf("item 103: %v %v", got, err)
	}

	// CSV: the key column takes the table's N; the others are strings.
	csvDir := filepath.Join(s.S3Dir, "bkt", "csv")
	if err := os.MkdirAll(csvDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(csvDir, "a.csv"), []byte("Id,Title,Price\n1,Hammer,12\n2,Saw,30\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	params.TableName = aws.String("FromCSV")
	im, err = c.ImportTable(bg(), &dynamodb.ImportTableInput{
		S3BucketSource:          &types.S3BucketSource{S3Bucket: aws.String("bkt"), S3KeyPrefix: aws.String("csv/")},
		InputFormat:             types.InputFormatCsv,
		TableCreationParameters: params,
	})
	if err != nil {
		t.Fatal(err)
	}
	d = waitImport(t, c, aws.ToString(im.ImportTableDescription.ImportArn))
	if d.ImportStatus != types.ImportStatusCompleted || d.ImportedItemCount != 2 {
		t.Fatalf("CSV import %s: %d imported, %d errors", d.ImportStatus, d.ImportedItemCount, d.ErrorCount)
	}
	got, err = c.GetItem(bg(), &dynamodb.GetItemInput{TableName: aws.String("FromCSV"), Key: map[string]types.AttributeValue{"Id": N("2")}})
	if err != nil || render(M(got.Item)) != render(M(map[string]types.AttributeValue{"Id": N("2"), "Title": S("Saw"), "Price": S("30")})) {
		t.Fatalf("CSV item 2: %v %v", got, err)
	}
}

func newGzip(w io.Writer) *gzip.Writer { return gzip.NewWriter(w) }
