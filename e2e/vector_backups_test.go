package e2e

import (
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/local"
)

// Vector indexes carried by backups, restores, exports and imports.
//
// Sources, cited per case (besides those of vector_tables_test.go):
//   - [api] AWS's API reference (the service model, botocore
//     service-2.json 2026-08-07, aws-sdk-go-v2 dynamodb):
//     SourceTableFeatureDetails.VectorIndexes, a list of VectorIndexInfo
//     (the definition, no status); RestoreTableFromBackup's and
//     RestoreTableToPointInTime's VectorIndexOverride: "If not specified,
//     all vector indexes from the backup are restored. The indexes
//     provided must match existing vector indexes from the backup. You
//     can choose to exclude some or all of the vector indexes at the time
//     of restore"; ImportTable's TableCreationParameters.VectorIndexes.
//   - [toolkit] AWS's agent toolkit, amazon-dynamodb/references/
//     vector-search.md (2026-08-20), "Interaction with other DynamoDB
//     features": "PITR / backups: the index definition is restored and
//     rebuilt from base-table data"; "Export / import: exports contain
//     the vector attributes; on import, define the index in the import
//     request as you would for CreateTable".
//   - [quirks] the ack-api-quirks lab's recordings of restores
//     (DDB-TABLE-273, 2026-10-08): the text refusing an index override
//     that names no index of the source. No recording of DynamoDB's
//     answer to a vector index override that does not match was found;
//     these tests hold dynago to that GSI text.

// vectorSourceTable makes table name: key pk (S), a GSI on g, and two
// vector indexes, byemb (3 dimensions on emb, COSINE, ALL, partitioned by
// u) and small (2 dimensions on e1, EUCLIDEAN, INCLUDE title), with a few
// items: indexed by both, by one, by none.
func vectorSourceTable(t *testing.T, c local.API, name string) (byemb, small types.VectorIndex) {
	t.Helper()
	byemb = vix("byemb", "emb", 3, "u", "HASH")
	small = vix("small", "e1", 2)
	small.DistanceFunction = types.VectorDistanceFunctionEuclidean
	small.Projection = &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{"title"}}
	in := vectorTable(name, byemb, small)
	in.AttributeDefinitions = append(in.AttributeDefinitions, defs("g", "S")...)
	in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{{
		IndexName:  aws.String("byG"),
		KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("g"), KeyType: types.KeyTypeHash}},
		Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
	}}
	if _, err := c.CreateTable(bg(), in); err != nil {
		t.Fatalf("CreateTable %s: %v", name, err)
	}
	for _, it := range []item{
		{"pk": S("a"), "u": S("x"), "g": S("g1"), "title": S("A"), "emb": L(N("0.5"), N("-1"), N("2")), "e1": L(N("1"), N("0"))},
		{"pk": S("b"), "u": S("y"), "emb": L(N("1"), N("1"), N("1"))},
		{"pk": S("c"), "g": S("g1"), "e1": L(N("0.25"), N("4"))},
		{"pk": S("d"), "title": S("D")},
	} {
		put(t, c, name, it)
	}
	return byemb, small
}

// vectorInfo is the VectorIndexInfo of the definition v.
func vectorInfo(v types.VectorIndex) types.VectorIndexInfo {
	return types.VectorIndexInfo{IndexName: v.IndexName, VectorAttribute: v.VectorAttribute, Dimensions: v.Dimensions,
		DistanceFunction: v.DistanceFunction, SearchSchema: v.SearchSchema, Projection: v.Projection}
}

// wantRestoredVectors fails unless table's vector indexes are exactly the
// source's named ones, defined as there, ACTIVE without Backfilling, with
// the table's own ARNs and, rebuilt from the same items, the source's
// counts.
func wantRestoredVectors(t *testing.T, c local.API, table string, src *types.TableDescription, names ...string) {
	t.Helper()
	d := describe(t, c, table)
	var want []types.VectorIndexDescription
	for _, n := range names {
		for _, v := range src.VectorIndexes {
			if aws.ToString(v.IndexName) == n {
				v.IndexArn = aws.String(tableARN(table) + "/index/" + n)
				want = append(want, v)
			}
		}
	}
	deepEqual(t, table+" VectorIndexes", d.VectorIndexes, want)
}

// scanByPK reads a table keyed by pk, by its pk.
func scanByPK(t *testing.T, c local.API, name string) map[string]item {
	t.Helper()
	got := map[string]item{}
	p := dynamodb.NewScanPaginator(c, &dynamodb.ScanInput{TableName: aws.String(name)})
	for p.HasMorePages() {
		out, err := p.NextPage(bg())
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range out.Items {
			got[it["pk"].(*types.AttributeValueMemberS).Value] = it
		}
	}
	return got
}

// TestVectorBackupAndRestore: a backup records the vector indexes'
// definitions, and its restores recreate them, all or the override's
// subset.
func TestVectorBackupAndRestore(t *testing.T) {
	s, c := start(t)
	byemb, small := vectorSourceTable(t, c, "vsrc")
	src := waitIndexesActive(t, c, "vsrc")
	out, err := c.CreateBackup(bg(), &dynamodb.CreateBackupInput{TableName: aws.String("vsrc"), BackupName: aws.String("vb1")})
	if err != nil {
		t.Fatal(err)
	}
	arn := aws.ToString(out.BackupDetails.BackupArn)

	// [api]: DescribeBackup lists each vector index's definition, without
	// status, ARN or counts.
	bd := waitBackupAvailable(t, c, arn)
	f := bd.SourceTableFeatureDetails
	deepEqual(t, "SourceTableFeatureDetails.VectorIndexes", f.VectorIndexes, []types.VectorIndexInfo{vectorInfo(byemb), vectorInfo(small)})
	if len(f.GlobalSecondaryIndexes) != 1 || aws.ToString(f.GlobalSecondaryIndexes[0].IndexName) != "byG" {
		t.Fatalf("SourceTableFeatureDetails.GlobalSecondaryIndexes %+v", f.GlobalSecondaryIndexes)
	}

	tests := []struct {
		name     string
		override []types.VectorIndex // nil: the member left out
		want     []string
		defs     []types.AttributeDefinition
	}{
		// [api] "If not specified, all vector indexes from the backup
		// are restored"; [toolkit].
		{"no override", nil, []string{"byemb", "small"}, defs("pk", "S", "u", "S", "g", "S")},
		// [api] "You can choose to exclude some or all": the override
		// names the ones kept. The search schema's attribute goes with
		// the only index using it, as a dropped GSI's key does.
		{"one kept", []types.VectorIndex{small}, []string{"small"}, defs("pk", "S", "g", "S")},
		{"other kept", []types.VectorIndex{byemb}, []string{"byemb"}, defs("pk", "S", "u", "S", "g", "S")},
		{"both, listed backwards", []types.VectorIndex{small, byemb}, []string{"byemb", "small"}, defs("pk", "S", "u", "S", "g", "S")},
		{"none kept", []types.VectorIndex{}, nil, defs("pk", "S", "g", "S")},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			target := "vrestored" + string(rune('0'+i))
			r, err := c.RestoreTableFromBackup(bg(), &dynamodb.RestoreTableFromBackupInput{TargetTableName: aws.String(target), BackupArn: aws.String(arn),
				VectorIndexOverride: tc.override})
			if err != nil {
				t.Fatal(err)
			}
			// The answer shows the restored vector indexes as it shows the
			// restored GSI: the same status, no Backfilling.
			rd := r.TableDescription
			if len(rd.VectorIndexes) != len(tc.want) || len(rd.GlobalSecondaryIndexes) != 1 {
				t.Fatalf("restore answered %d vector indexes and %d GSIs, want %d and 1", len(rd.VectorIndexes), len(rd.GlobalSecondaryIndexes), len(tc.want))
			}
			for j, v := range rd.VectorIndexes {
				g := rd.GlobalSecondaryIndexes[0]
				if aws.ToString(v.IndexName) != tc.want[j] || v.IndexStatus != g.IndexStatus || v.Backfilling != nil {
					t.Fatalf("restore answered vector index %s %s (Backfilling %v); want %s as the GSI's %s", aws.ToString(v.IndexName), v.IndexStatus, v.Backfilling, tc.want[j], g.IndexStatus)
				}
			}
			waitTableActive(t, c, target)
			wantRestoredVectors(t, c, target, src, tc.want...)
			deepEqual(t, target+" AttributeDefinitions", describe(t, c, target).AttributeDefinitions, tc.defs)
			deepEqual(t, target+" items", scanByPK(t, c, target), scanByPK(t, c, "vsrc"))
		})
	}

	// An override that does not match one of the backup's vector indexes
	// ([api] "must match existing vector indexes from the backup"; the
	// text: [quirks], as for a GSI override).
	mismatch := func(edit func(v *types.VectorIndex)) []types.VectorIndex {
		v := vix("byemb", "emb", 3, "u", "HASH")
		edit(&v)
		return []types.VectorIndex{small, v}
	}
	refused := []struct {
		name     string
		override []types.VectorIndex
		index    string
	}{
		{"unknown name", []types.VectorIndex{vix("other", "emb", 3, "u", "HASH")}, "other"},
		{"a GSI's name", []types.VectorIndex{vix("byG", "emb", 3, "u", "HASH")}, "byG"},
		{"other dimensions", mismatch(func(v *types.VectorIndex) { v.Dimensions = aws.Int64(4) }), "byemb"},
		{"other distance", mismatch(func(v *types.VectorIndex) { v.DistanceFunction = types.VectorDistanceFunctionDotProduct }), "byemb"},
		{"other attribute", mismatch(func(v *types.VectorIndex) { v.VectorAttribute.AttributeName = aws.String("e1") }), "byemb"},
		{"other projection", mismatch(func(v *types.VectorIndex) {
			v.Projection = &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}
		}), "byemb"},
		{"no search schema", mismatch(func(v *types.VectorIndex) { v.SearchSchema = nil }), "byemb"},
		{"other search schema type", mismatch(func(v *types.VectorIndex) {
			v.SearchSchema[0].SearchSchemaElementType = types.SearchSchemaElementTypeInlineFilter
		}), "byemb"},
		{"other included attributes", []types.VectorIndex{func() types.VectorIndex {
			v := vix("small", "e1", 2)
			v.DistanceFunction = types.VectorDistanceFunctionEuclidean
			v.Projection = &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{"title", "extra"}}
			return v
		}()}, "small"},
	}
	for _, tc := range refused {
		t.Run("refused "+tc.name, func(t *testing.T) {
			_, err := c.RestoreTableFromBackup(bg(), &dynamodb.RestoreTableFromBackupInput{TargetTableName: aws.String("vrefused"), BackupArn: aws.String(arn),
				VectorIndexOverride: tc.override})
			wantValidation(t, err, "Index "+tc.index+" does not match a secondary index that existed in the source table and cannot be created during the restore operation")
		})
	}
	// A GSI override naming a vector index is no GSI of the source either
	// ([quirks]).
	_, err = c.RestoreTableFromBackup(bg(), &dynamodb.RestoreTableFromBackupInput{TargetTableName: aws.String("vrefused"), BackupArn: aws.String(arn),
		GlobalSecondaryIndexOverride: []types.GlobalSecondaryIndex{{IndexName: aws.String("byemb"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("g"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}}})
	wantValidation(t, err, "Index byemb does not match a secondary index that existed in the source table and cannot be created during the restore operation")
	// A vector index is on an on-demand table only ([guide], CreateTable's
	// text, [dynoxide]): a restore switching to provisioned billing must
	// leave the vector indexes out. No recording of a restore doing this
	// was found; the text is CreateTable's.
	provisioned := &dynamodb.RestoreTableFromBackupInput{TargetTableName: aws.String("vprov"), BackupArn: aws.String(arn),
		BillingModeOverride:           types.BillingModeProvisioned,
		ProvisionedThroughputOverride: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(1), WriteCapacityUnits: aws.Int64(1)},
		GlobalSecondaryIndexOverride:  []types.GlobalSecondaryIndex{}}
	_, err = c.RestoreTableFromBackup(bg(), provisioned)
	wantValidation(t, err, invalidPrefix+"Vector indexes are only supported for PAY_PER_REQUEST tables")
	provisioned.VectorIndexOverride = []types.VectorIndex{}
	if _, err := c.RestoreTableFromBackup(bg(), provisioned); err != nil {
		t.Fatal(err)
	}
	if d := waitTableActive(t, c, "vprov"); d.VectorIndexes != nil {
		t.Fatalf("vprov: vector indexes %+v", d.VectorIndexes)
	}

	// The raw protocol: an override member left out is no match either
	// (the SDK refuses to send one without its required members).
	res := s.Raw(t, "RestoreTableFromBackup", `{"TargetTableName":"vraw","BackupArn":"`+arn+`","VectorIndexOverride":[{"IndexName":"byemb"}]}`)
	checkRaw(t, res, 400, "com.amazon.coral.validate#ValidationException",
		"Index byemb does not match a secondary index that existed in the source table and cannot be created during the restore operation")
}

// TestVectorPointInTimeRestore: RestoreTableToPointInTime recreates the
// source's vector indexes, or the override's subset, as
// RestoreTableFromBackup does ([api]; [toolkit]).
func TestVectorPointInTimeRestore(t *testing.T) {
	_, c := start(t)
	_, small := vectorSourceTable(t, c, "vpitr")
	if _, err := c.UpdateContinuousBackups(bg(), &dynamodb.UpdateContinuousBackupsInput{TableName: aws.String("vpitr"),
		PointInTimeRecoverySpecification: &types.PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: aws.Bool(true)}}); err != nil {
		t.Fatal(err)
	}
	src := waitIndexesActive(t, c, "vpitr")
	waitClockPast(time.Now())
	latest := aws.Bool(true)
	for _, tc := range []struct {
		target   string
		override []types.VectorIndex
		want     []string
	}{
		{"vpitr-all", nil, []string{"byemb", "small"}},
		{"vpitr-small", []types.VectorIndex{small}, []string{"small"}},
		{"vpitr-none", []types.VectorIndex{}, nil},
	} {
		t.Run(tc.target, func(t *testing.T) {
			if _, err := c.RestoreTableToPointInTime(bg(), &dynamodb.RestoreTableToPointInTimeInput{SourceTableName: aws.String("vpitr"),
				TargetTableName: aws.String(tc.target), UseLatestRestorableTime: latest, VectorIndexOverride: tc.override}); err != nil {
				t.Fatal(err)
			}
			waitTableActive(t, c, tc.target)
			wantRestoredVectors(t, c, tc.target, src, tc.want...)
		})
	}
	other := small
	other.Dimensions = aws.Int64(3)
	_, err := c.RestoreTableToPointInTime(bg(), &dynamodb.RestoreTableToPointInTimeInput{SourceTableName: aws.String("vpitr"),
		TargetTableName: aws.String("vpitr-bad"), UseLatestRestorableTime: latest, VectorIndexOverride: []types.VectorIndex{other}})
	wantValidation(t, err, "Index small does not match a secondary index that existed in the source table and cannot be created during the restore operation")
}

// TestVectorExportAndImport: an export holds the vector attributes as the
// lists of numbers they are, full precision, in both formats ([toolkit]
// "exports contain the vector attributes"); an import given
// TableCreationParameters.VectorIndexes makes them on its table ([api];
// [toolkit] "on import, define the index in the import request as you
// would for CreateTable"), checked as CreateTable checks them.
func TestVectorExportAndImport(t *testing.T) {
	_, c := start(t)
	byemb, small := vectorSourceTable(t, c, "vexp")
	// A vector element with more digits than a float32 holds: the item
	// keeps them ([guide], VectorSearch.Requirements: "Higher-precision
	// values are accepted but lose precision" in the index only).
	put(t, c, "vexp", item{"pk": S("e"), "u": S("x"), "emb": L(N("0.12345678901234567890123456789012345678"), N("-3.5E-7"), N("1E+2"))})
	if _, err := c.UpdateContinuousBackups(bg(), &dynamodb.UpdateContinuousBackupsInput{TableName: aws.String("vexp"),
		PointInTimeRecoverySpecification: &types.PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: aws.Bool(true)}}); err != nil {
		t.Fatal(err)
	}
	src := waitIndexesActive(t, c, "vexp")
	want := scanByPK(t, c, "vexp")
	at := waitClockPast(time.Now())
	params := func(name string, vs ...types.VectorIndex) *types.TableCreationParameters {
		return &types.TableCreationParameters{TableName: aws.String(name), BillingMode: types.BillingModePayPerRequest,
			AttributeDefinitions: defs("pk", "S", "u", "S"), KeySchema: ks("pk"), VectorIndexes: vs}
	}
	for _, format := range []types.ExportFormat{types.ExportFormatDynamodbJson, types.ExportFormatIon} {
		t.Run(string(format), func(t *testing.T) {
			prefix := "vexports/" + string(format)
			out, err := c.ExportTableToPointInTime(bg(), &dynamodb.ExportTableToPointInTimeInput{TableArn: aws.String(tableARN("vexp")),
				S3Bucket: aws.String("bkt"), S3Prefix: aws.String(prefix), ExportTime: &at, ExportFormat: format})
			if err != nil {
				t.Fatal(err)
			}
			d := waitExport(t, c, aws.ToString(out.ExportDescription.ExportArn))
			if d.ExportStatus != types.ExportStatusCompleted || aws.ToInt64(d.ItemCount) != int64(len(want)) {
				t.Fatalf("export ended %s with %d items: %s", d.ExportStatus, aws.ToInt64(d.ItemCount), aws.ToString(d.FailureMessage))
			}
			exportArn := aws.ToString(d.ExportArn)
			id := exportArn[len(tableARN("vexp")+"/export/"):]
			target := "vimported-" + string(format)
			im, err := c.ImportTable(bg(), &dynamodb.ImportTableInput{
				S3BucketSource:          &types.S3BucketSource{S3Bucket: aws.String("bkt"), S3KeyPrefix: aws.String(prefix + "/AWSDynamoDB/" + id + "/data/")},
				InputFormat:             types.InputFormat(format),
				InputCompressionType:    types.InputCompressionTypeGzip,
				TableCreationParameters: params(target, byemb, small),
			})
			if err != nil {
				t.Fatal(err)
			}
			deepEqual(t, "DescribeImport's TableCreationParameters.VectorIndexes", im.ImportTableDescription.TableCreationParameters.VectorIndexes,
				[]types.VectorIndex{byemb, small})
			done := waitImport(t, c, aws.ToString(im.ImportTableDescription.ImportArn))
			if done.ImportStatus != types.ImportStatusCompleted || done.ImportedItemCount != int64(len(want)) || done.ErrorCount != 0 {
				t.Fatalf("import ended %s: %d imported, %d errors, %s", done.ImportStatus, done.ImportedItemCount, done.ErrorCount, aws.ToString(done.FailureMessage))
			}
			deepEqual(t, "imported table's VectorIndexes", done.TableCreationParameters.VectorIndexes, []types.VectorIndex{byemb, small})
			waitTableActive(t, c, target)
			wantRestoredVectors(t, c, target, src, "byemb", "small")
			deepEqual(t, target+" items", scanByPK(t, c, target), want)
		})
	}

	// CreateTable's checks, with CreateTable's texts ([dynoxide],
	// [extenddb], as in vector_tables_test.go): an import's table is made
	// as CreateTable makes one ([toolkit]).
	bad := func(edit func(p *types.TableCreationParameters)) *types.TableCreationParameters {
		p := params("vbad", vix("byemb", "emb", 3, "u", "HASH"))
		edit(p)
		return p
	}
	for _, tc := range []struct {
		name   string
		params *types.TableCreationParameters
		want   string
	}{
		{"provisioned", bad(func(p *types.TableCreationParameters) {
			p.BillingMode = types.BillingModeProvisioned
			p.ProvisionedThroughput = &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(1), WriteCapacityUnits: aws.Int64(1)}
		}), invalidPrefix + "Vector indexes are only supported for PAY_PER_REQUEST tables"},
		{"too many dimensions", bad(func(p *types.TableCreationParameters) { p.VectorIndexes[0].Dimensions = aws.Int64(4097) }),
			invalidPrefix + "Number of dimensions must be between 1 and 4096 inclusive."},
		{"search schema undefined", bad(func(p *types.TableCreationParameters) { p.AttributeDefinitions = defs("pk", "S") }),
			invalidPrefix + "One element in SearchSchema is not defined in attribute definitions"},
		{"vector attribute defined", bad(func(p *types.TableCreationParameters) { p.AttributeDefinitions = defs("pk", "S", "u", "S", "emb", "S") }),
			invalidPrefix + "Conflicting attribute definition for 'emb'. An attribute cannot be defined in AttributeDefinitions when used as a VectorAttribute."},
		{"empty list", bad(func(p *types.TableCreationParameters) {
			p.AttributeDefinitions = defs("pk", "S")
			p.VectorIndexes = []types.VectorIndex{}
		}), invalidPrefix + "List of VectorIndexes is empty"},
	} {
		t.Run("refused "+tc.name, func(t *testing.T) {
			_, err := c.ImportTable(bg(), &dynamodb.ImportTableInput{
				S3BucketSource: &types.S3BucketSource{S3Bucket: aws.String("bkt"), S3KeyPrefix: aws.String("vexports/")},
				InputFormat:    types.InputFormatDynamodbJson, TableCreationParameters: tc.params})
			wantValidation(t, err, tc.want)
		})
	}
	if _, err := c.DescribeTable(bg(), &dynamodb.DescribeTableInput{TableName: aws.String("vbad")}); err == nil {
		t.Fatal("a refused import made its table")
	}
}
