package cli

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/testserver"
)

// bkItems is a table's items by their sort key.
type bkItems map[string]map[string]types.AttributeValue

func (m bkItems) clone() bkItems {
	c := make(bkItems, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// bkRestore is a restore the test asked for and what it must yield.
type bkRestore struct {
	table string
	want  bkItems
}

// TestBackupsAndRestoresSurviveKills runs "dynago serve" on a data
// directory (or a PostgreSQL schema) with point-in-time recovery on under
// random writes, turns it off and on again (so the pruner has versions
// and logs to drop), starts a backup, an export, an import and
// point-in-time restores to moments between the writes, kills the server
// with SIGKILL at a random moment of the copies and the pruning, restarts
// it, and checks, trial after trial: every backup becomes AVAILABLE and
// every restore ACTIVE, each restore equals the table at its moment (its
// items and its GSI), a restore of each backup equals the table at the
// backup's instant, and the source holds every acknowledged write.
func TestBackupsAndRestoresSurviveKills(t *testing.T) {
	// The data directory, or, when the suite runs on PostgreSQL, one
	// schema every life of the server opens again.
	store := []string{"--data-dir", t.TempDir()}
	if testserver.OnPostgres() {
		store = testserver.SharedStoreArgs(t)
	}
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(5, 9))
	src := bkItems{}
	var restores []bkRestore
	var backups []bkRestore  // table: the backup's ARN
	var exported []bkRestore // table: the export's ARN
	var imports []bkRestore  // table: the imported table
	s3dir := t.TempDir()
	const trials = 3
	for trial := 0; trial <= trials; trial++ {
		p := testserver.StartProcess(t, append(slices.Clone(store), "--s3-dir", s3dir)...)
		c := p.Client()
		if trial == 0 {
			bkCreateSource(t, c)
			bkLoad(t, c, src, 3000)
			_, err := c.UpdateContinuousBackups(ctx, &dynamodb.UpdateContinuousBackupsInput{TableName: aws.String("src"),
				PointInTimeRecoverySpecification: &types.PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: aws.Bool(true)}})
			must(t, err)
		} else {
			bkVerify(t, c, src, restores, backups)
			bkVerifyExports(t, c, exported, imports)
		}
		if trial == trials {
			p.Stop(t)
			break
		}
		if trial > 0 {
			// PITR off and on again: the window starts anew, and the
			// pruner drops the log or the versions before it while the
			// copies below run, and the kill may cut it.
			for _, on := range []bool{false, true} {
				_, err := c.UpdateContinuousBackups(ctx, &dynamodb.UpdateContinuousBackupsInput{TableName: aws.String("src"),
					PointInTimeRecoverySpecification: &types.PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: aws.Bool(on)}})
				must(t, err)
			}
		}
		// Writes, then a moment, then writes past it.
		bkWrites(t, c, rng, src, 40)
		at := bkClockPast(time.Now()).Truncate(time.Millisecond)
		want := src.clone()
		bkClockPast(at)
		bkWrites(t, c, rng, src, 40)
		name := fmt.Sprintf("pitr%d", trial)
		_, err := c.RestoreTableToPointInTime(ctx, &dynamodb.RestoreTableToPointInTimeInput{
			SourceTableName: aws.String("src"), TargetTableName: aws.String(name), RestoreDateTime: &at})
		must(t, err)
		restores = append(restores, bkRestore{name, want})
		out, err := c.CreateBackup(ctx, &dynamodb.CreateBackupInput{TableName: aws.String("src"), BackupName: aws.String(name)})
		must(t, err)
		backups = append(backups, bkRestore{aws.ToString(out.BackupDetails.BackupArn), src.clone()})
		// An export of the moment, and an import of the last trial's
		// export, both cut by the kill too.
		ex, err := c.ExportTableToPointInTime(ctx, &dynamodb.ExportTableToPointInTimeInput{
			TableArn: aws.String(bkTableArn(t, c)), S3Bucket: aws.String("bkt"), ExportTime: &at})
		must(t, err)
		if trial > 0 {
			prev := exported[len(exported)-1]
			target := fmt.Sprintf("imported%d", trial)
			_, err := c.ImportTable(ctx, &dynamodb.ImportTableInput{
				S3BucketSource: &types.S3BucketSource{S3Bucket: aws.String("bkt"), S3KeyPrefix: aws.String(bkExportData(t, c, prev.table))},
				InputFormat:    types.InputFormatDynamodbJson, InputCompressionType: types.InputCompressionTypeGzip,
				TableCreationParameters: &types.TableCreationParameters{TableName: aws.String(target), BillingMode: types.BillingModePayPerRequest,
					AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}, {AttributeName: aws.String("g"), AttributeType: types.ScalarAttributeTypeS}},
					KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
					GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("byG"),
						KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("g"), KeyType: types.KeyTypeHash}},
						Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}}},
			})
			must(t, err)
			imports = append(imports, bkRestore{target, prev.want})
		}
		exported = append(exported, bkRestore{aws.ToString(ex.ExportDescription.ExportArn), want})
		// More writes, a random number of them, then the kill: on the
		// first trial at once, while both copies run.
		if trial > 0 {
			bkWrites(t, c, rng, src, rng.IntN(30))
		}
		must(t, p.Cmd.Process.Signal(syscall.SIGKILL))
		_ = p.Wait(t)
		log := p.Log()
		t.Logf("trial %d: the pruner logged %d prunes and %d dropped logs before the kill", trial,
			strings.Count(log, "undo log pruned"), strings.Count(log, "undo log dropped"))
	}
	t.Logf("%d trials: %d restores, %d backups, %d exports and %d imports verified, %d items in the source", trials, len(restores), len(backups), len(exported), len(imports), len(src))
}

func bkCreateSource(t *testing.T, c *dynamodb.Client) {
	t.Helper()
	_, err := c.CreateTable(context.Background(), &dynamodb.CreateTableInput{
		TableName:   aws.String("src"),
		BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("g"), AttributeType: types.ScalarAttributeTypeS},
		},
		KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
			IndexName:  aws.String("byG"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("g"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
		}},
	})
	must(t, err)
}

func bkItem(i, v int) map[string]types.AttributeValue {
	it := map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: fmt.Sprintf("k%05d", i)}, "v": &types.AttributeValueMemberN{Value: fmt.Sprint(v)}}
	if v%2 == 0 {
		it["g"] = &types.AttributeValueMemberS{Value: fmt.Sprint("g", v%5)}
	}
	return it
}

func bkLoad(t *testing.T, c *dynamodb.Client, m bkItems, n int) {
	t.Helper()
	for i := 0; i < n; i += 25 {
		var reqs []types.WriteRequest
		for j := i; j < i+25 && j < n; j++ {
			it := bkItem(j, j)
			reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: it}})
			m[fmt.Sprintf("k%05d", j)] = it
		}
		req := map[string][]types.WriteRequest{"src": reqs}
		for len(req) > 0 {
			out, err := c.BatchWriteItem(context.Background(), &dynamodb.BatchWriteItemInput{RequestItems: req})
			must(t, err)
			req = out.UnprocessedItems
		}
	}
}

// bkWrites makes n random puts and deletes, one at a time.
func bkWrites(t *testing.T, c *dynamodb.Client, rng *rand.Rand, m bkItems, n int) {
	t.Helper()
	ctx := context.Background()
	for range n {
		i := rng.IntN(3500)
		key := fmt.Sprintf("k%05d", i)
		if rng.IntN(3) == 0 {
			_, err := c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("src"),
				Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: key}}})
			must(t, err)
			delete(m, key)
			continue
		}
		it := bkItem(i, rng.IntN(1000))
		_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("src"), Item: it})
		must(t, err)
		m[key] = it
	}
}

// bkClockPast waits until the clock is past t by a millisecond and
// returns the time then.
func bkClockPast(t time.Time) time.Time {
	for {
		if now := time.Now(); now.After(t.Add(time.Millisecond)) {
			return now
		}
		time.Sleep(100 * time.Microsecond)
	}
}

// bkVerify waits for every backup and restore to finish and checks each.
func bkVerify(t *testing.T, c *dynamodb.Client, src bkItems, restores, backups []bkRestore) {
	t.Helper()
	ctx := context.Background()
	// How many copies the kill cut short, for the log: which ones it
	// meets depends on the machine's speed, what is checked does not.
	cut := 0
	for _, r := range restores {
		out, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(r.table)})
		must(t, err)
		if out.Table.TableStatus == types.TableStatusCreating {
			cut++
		}
	}
	for _, b := range backups {
		out, err := c.DescribeBackup(ctx, &dynamodb.DescribeBackupInput{BackupArn: aws.String(b.table)})
		must(t, err)
		if out.BackupDescription.BackupDetails.BackupStatus == types.BackupStatusCreating {
			cut++
		}
	}
	t.Logf("after the restart: %d of %d copies were cut short by the kill", cut, len(restores)+len(backups))
	bkSame(t, c, "src", src)
	for _, r := range restores {
		bkWaitActive(t, c, r.table)
		bkSame(t, c, r.table, r.want)
	}
	for i, b := range backups {
		deadline := time.Now().Add(2 * time.Minute)
		for {
			out, err := c.DescribeBackup(ctx, &dynamodb.DescribeBackupInput{BackupArn: aws.String(b.table)})
			must(t, err)
			if out.BackupDescription.BackupDetails.BackupStatus == types.BackupStatusAvailable {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("backup %s still %s", b.table, out.BackupDescription.BackupDetails.BackupStatus)
			}
			time.Sleep(10 * time.Millisecond)
		}
		name := fmt.Sprintf("frombackup%d", i)
		if _, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)}); err == nil {
			continue // restored and checked at an earlier trial
		}
		_, err := c.RestoreTableFromBackup(ctx, &dynamodb.RestoreTableFromBackupInput{TargetTableName: aws.String(name), BackupArn: aws.String(b.table)})
		must(t, err)
		bkWaitActive(t, c, name)
		bkSame(t, c, name, b.want)
	}
}

func bkWaitActive(t *testing.T, c *dynamodb.Client, name string) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		out, err := c.DescribeTable(context.Background(), &dynamodb.DescribeTableInput{TableName: aws.String(name)})
		must(t, err)
		if out.Table.TableStatus == types.TableStatusActive {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s still %s", name, out.Table.TableStatus)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// bkSame fails unless the table holds exactly want, and its GSI the items
// of want with a g.
func bkSame(t *testing.T, c *dynamodb.Client, table string, want bkItems) {
	t.Helper()
	got := scanAll(t, c, table)
	if len(got) != len(want) {
		t.Fatalf("%s: %d items, want %d", table, len(got), len(want))
	}
	wantGSI := 0
	for k, w := range want {
		if _, ok := w["g"]; ok {
			wantGSI++
		}
		g, ok := got[k]
		if !ok || !reflect.DeepEqual(g, w) {
			t.Fatalf("%s: item %s is %v, want %v", table, k, g, w)
		}
	}
	n := 0
	p := dynamodb.NewScanPaginator(c, &dynamodb.ScanInput{TableName: aws.String(table), IndexName: aws.String("byG"), Select: types.SelectCount})
	for p.HasMorePages() {
		out, err := p.NextPage(context.Background())
		must(t, err)
		n += int(out.Count)
	}
	if n != wantGSI {
		t.Fatalf("%s: GSI holds %d, want %d", table, n, wantGSI)
	}
}

func bkTableArn(t *testing.T, c *dynamodb.Client) string {
	t.Helper()
	out, err := c.DescribeTable(context.Background(), &dynamodb.DescribeTableInput{TableName: aws.String("src")})
	must(t, err)
	return aws.ToString(out.Table.TableArn)
}

// bkWaitExport waits for an export to end, and returns its description.
func bkWaitExport(t *testing.T, c *dynamodb.Client, arn string) *types.ExportDescription {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		out, err := c.DescribeExport(context.Background(), &dynamodb.DescribeExportInput{ExportArn: aws.String(arn)})
		must(t, err)
		if d := out.ExportDescription; d.ExportStatus != types.ExportStatusInProgress {
			return d
		}
		if time.Now().After(deadline) {
			t.Fatalf("export %s still in progress", arn)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// bkExportData is the prefix of a finished export's data files.
func bkExportData(t *testing.T, c *dynamodb.Client, arn string) string {
	t.Helper()
	d := bkWaitExport(t, c, arn)
	return strings.TrimSuffix(aws.ToString(d.ExportManifest), "manifest-summary.json") + "data/"
}

// bkVerifyExports checks that every export ended COMPLETED with the items
// of its moment, and every import made a table equal to its export's.
func bkVerifyExports(t *testing.T, c *dynamodb.Client, exported, imports []bkRestore) {
	t.Helper()
	for _, e := range exported {
		d := bkWaitExport(t, c, e.table)
		if d.ExportStatus != types.ExportStatusCompleted || aws.ToInt64(d.ItemCount) != int64(len(e.want)) {
			t.Fatalf("export %s: %s with %d items, want %d: %s", e.table, d.ExportStatus, aws.ToInt64(d.ItemCount), len(e.want), aws.ToString(d.FailureMessage))
		}
	}
	for _, im := range imports {
		bkWaitActive(t, c, im.table)
		bkSame(t, c, im.table, im.want)
	}
}
