package engine

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/dynago/dynago/dynamo"
)

// stallExchange holds every export and import at its start until its
// release closes (or the job's context ends), so that they stay in
// progress.
type stallExchange struct{ release chan struct{} }

func (x stallExchange) wait(ctx context.Context) error {
	select {
	case <-x.release:
	case <-ctx.Done():
	}
	return errors.New("released")
}

func (x stallExchange) BeginExport(ctx context.Context, _ ExportJob) (ExportSink, error) {
	return nil, x.wait(ctx)
}

func (x stallExchange) OpenImport(ctx context.Context, _ ImportJob) (ImportSource, error) {
	return nil, x.wait(ctx)
}

// TestJobLimits starts restores, imports and exports that stay in
// progress up to DynamoDB's limits per account (engine/limits.go: 50, 50
// and 300); one more of each is refused with LimitExceededException, and
// nothing is made for it.
func TestJobLimits(t *testing.T) {
	x := stallExchange{release: make(chan struct{})}
	db := mustOpen(t, Options{InMemory: true, Exchange: x})
	t.Cleanup(func() { close(x.release) })              // before the database closes
	db.restoreHook = func(uint64) bool { return false } // restores stay half made
	createBackupTable(t, db, "src")
	if _, err := db.UpdateContinuousBackups(&dynamo.UpdateContinuousBackupsInput{TableName: "src",
		PointInTimeRecoverySpecification: &dynamo.PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: true}}); err != nil {
		t.Fatal(err)
	}
	latest := true
	refused := func(what string, max int, err error) {
		t.Helper()
		var e *dynamo.Error
		want := fmt.Sprintf("Subscriber limit exceeded: Only %d %s can be in progress at a time in an account", max, what)
		if !errors.As(err, &e) || e.Code != dynamo.CodeLimitExceeded || e.Message != want {
			t.Fatalf("%s past the limit: %v, want LimitExceededException %q", what, err, want)
		}
	}

	restore := func(i int) error {
		_, err := db.RestoreTableToPointInTime(&dynamo.RestoreTableToPointInTimeInput{
			SourceTableName: "src", TargetTableName: fmt.Sprintf("restored%02d", i), UseLatestRestorableTime: &latest})
		return err
	}
	for i := range maxRestoresInProgress {
		if err := restore(i); err != nil {
			t.Fatalf("restore %d: %v", i, err)
		}
	}
	refused("restores", maxRestoresInProgress, restore(maxRestoresInProgress))
	if _, err := db.DescribeTable(&dynamo.DescribeTableInput{TableName: fmt.Sprintf("restored%02d", maxRestoresInProgress)}); err == nil {
		t.Errorf("the refused restore made its table")
	}

	importTable := func(i int) error {
		_, err := db.ImportTable(&dynamo.ImportTableInput{
			S3BucketSource: &dynamo.S3BucketSource{S3Bucket: "bucket"}, InputFormat: dynamo.InputFormatDynamoDBJSON,
			TableCreationParameters: &dynamo.TableCreationParameters{
				TableName: fmt.Sprintf("imported%02d", i), BillingMode: dynamo.BillingModePayPerRequest,
				AttributeDefinitions: []dynamo.AttributeDefinition{{AttributeName: "pk", AttributeType: "S"}},
				KeySchema:            []dynamo.KeySchemaElement{{AttributeName: "pk", KeyType: dynamo.KeyTypeHash}},
			}})
		return err
	}
	for i := range maxImportsInProgress {
		if err := importTable(i); err != nil {
			t.Fatalf("import %d: %v", i, err)
		}
	}
	refused("imports", maxImportsInProgress, importTable(maxImportsInProgress))

	src, err := db.DescribeTable(&dynamo.DescribeTableInput{TableName: "src"})
	if err != nil {
		t.Fatal(err)
	}
	export := func() error {
		_, err := db.ExportTableToPointInTime(&dynamo.ExportTableToPointInTimeInput{TableArn: src.Table.TableArn, S3Bucket: "bucket"})
		return err
	}
	for i := range maxExportsInProgress {
		if err := export(); err != nil {
			t.Fatalf("export %d: %v", i, err)
		}
	}
	refused("exports", maxExportsInProgress, export())
	all, err := db.allExports()
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != maxExportsInProgress {
		t.Errorf("%d exports recorded, want %d: the refused one left an entry", len(all), maxExportsInProgress)
	}
}
