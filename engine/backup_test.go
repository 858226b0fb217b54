package engine

import (
	"fmt"
	"math/rand"
	"os"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/internal/keys"
	"github.com/dynago/dynago/internal/pgtest"
)

// createBackupTable makes a table with a sort key and a sparse GSI on g.
func createBackupTable(t testing.TB, db *DB, name string) {
	t.Helper()
	_, err := db.CreateTable(&dynamo.CreateTableInput{
		TableName:   name,
		BillingMode: dynamo.BillingModePayPerRequest,
		AttributeDefinitions: []dynamo.AttributeDefinition{
			{AttributeName: "pk", AttributeType: "S"}, {AttributeName: "sk", AttributeType: "N"}, {AttributeName: "g", AttributeType: "S"},
		},
		KeySchema: []dynamo.KeySchemaElement{{AttributeName: "pk", KeyType: dynamo.KeyTypeHash}, {AttributeName: "sk", KeyType: dynamo.KeyTypeRange}},
		GlobalSecondaryIndexes: []dynamo.GlobalSecondaryIndex{{
			IndexName:  "byG",
			KeySchema:  []dynamo.KeySchemaElement{{AttributeName: "g", KeyType: dynamo.KeyTypeHash}},
			Projection: dynamo.Projection{ProjectionType: dynamo.ProjectionAll},
		}},
	})
	if err != nil {
		t.Fatalf("create %s: %v", name, err)
	}
}

// model is a table's items by "pk/sk".
type model map[string]attr.Item

func (m model) clone() model {
	c := make(model, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

func modelKey(it attr.Item) string { return it["pk"].S + "/" + it["sk"].S }

// tableItems reads every item of a table, and how many its GSI holds.
func tableItems(t testing.TB, db *DB, name string) (model, int) {
	t.Helper()
	got := model{}
	var start attr.Item
	for {
		out, err := db.Scan(&dynamo.ScanInput{TableName: name, ExclusiveStartKey: start})
		if err != nil {
			t.Fatalf("scan %s: %v", name, err)
		}
		for _, it := range out.Items {
			got[modelKey(it)] = it
		}
		if start = out.LastEvaluatedKey; start == nil {
			break
		}
	}
	n := 0
	start = nil
	for {
		out, err := db.Scan(&dynamo.ScanInput{TableName: name, IndexName: "byG", Select: dynamo.SelectCount, ExclusiveStartKey: start})
		if err != nil {
			t.Fatalf("scan %s.byG: %v", name, err)
		}
		n += int(out.Count)
		if start = out.LastEvaluatedKey; start == nil {
			break
		}
	}
	return got, n
}

// sameItems fails unless got holds exactly want's items, and the GSI
// holds exactly those with a g.
func sameItems(t testing.TB, what string, want model, got model, gsi int) {
	t.Helper()
	wantGSI := 0
	for k, w := range want {
		if _, ok := w["g"]; ok {
			wantGSI++
		}
		g, ok := got[k]
		if !ok {
			t.Fatalf("%s: item %s missing", what, k)
		}
		if !attr.Equal(attr.Value{Type: attr.TypeM, M: w}, attr.Value{Type: attr.TypeM, M: g}) {
			t.Fatalf("%s: item %s is %v, want %v", what, k, g, w)
		}
	}
	if len(got) != len(want) {
		var extra []string
		for k := range got {
			if _, ok := want[k]; !ok {
				extra = append(extra, k)
			}
		}
		sort.Strings(extra)
		t.Fatalf("%s: %d items, want %d; extra %v", what, len(got), len(want), extra)
	}
	if gsi != wantGSI {
		t.Fatalf("%s: the GSI holds %d items, want %d", what, gsi, wantGSI)
	}
}

// waitRestored waits until a restored table is ACTIVE.
func waitRestored(t testing.TB, db *DB, name string) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		out, err := db.DescribeTable(&dynamo.DescribeTableInput{TableName: name})
		if err != nil {
			t.Fatalf("describe %s: %v", name, err)
		}
		if out.Table.TableStatus == dynamo.TableStatusActive {
			if out.Table.RestoreSummary != nil {
				t.Fatalf("%s: ACTIVE with a RestoreSummary", name)
			}
			return
		}
		if out.Table.RestoreSummary == nil || !out.Table.RestoreSummary.RestoreInProgress {
			t.Fatalf("%s: CREATING without a restore in progress", name)
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s still %s", name, out.Table.TableStatus)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// randomWrites runs n random puts, deletes and two-item transactions on
// table name, keeping m in step, and calls after with each write's index
// once it is acknowledged.
func randomWrites(t testing.TB, db *DB, name string, rng *rand.Rand, m model, n int, after func(i int)) {
	t.Helper()
	item := func() attr.Item {
		it := attr.Item{"pk": attr.S(fmt.Sprintf("p%d", rng.Intn(12))), "sk": attr.N(fmt.Sprint(rng.Intn(6))), "v": attr.N(fmt.Sprint(rng.Intn(1000)))}
		if rng.Intn(2) == 0 {
			it["g"] = attr.S(fmt.Sprintf("g%d", rng.Intn(4)))
		}
		return it
	}
	for i := 0; i < n; i++ {
		switch r := rng.Intn(10); {
		case r < 6:
			it := item()
			if _, err := db.PutItem(&dynamo.PutItemInput{TableName: name, Item: it}); err != nil {
				t.Fatalf("put: %v", err)
			}
			m[modelKey(it)] = it
		case r < 8:
			it := item()
			key := attr.Item{"pk": it["pk"], "sk": it["sk"]}
			if _, err := db.DeleteItem(&dynamo.DeleteItemInput{TableName: name, Key: key}); err != nil {
				t.Fatalf("delete: %v", err)
			}
			delete(m, modelKey(it))
		default:
			a, b := item(), item()
			if modelKey(a) == modelKey(b) {
				continue
			}
			_, err := db.TransactWriteItems(&dynamo.TransactWriteItemsInput{TransactItems: []dynamo.TransactWriteItem{
				{Put: &dynamo.TransactPut{TableName: name, Item: a}},
				{Put: &dynamo.TransactPut{TableName: name, Item: b}},
			}})
			if err != nil {
				t.Fatalf("transact: %v", err)
			}
			m[modelKey(a)], m[modelKey(b)] = a, b
		}
		if after != nil {
			after(i)
		}
	}
}

// TestPITRRestoreMatchesModel restores a table to a dozen moments between
// random writes and compares each restore with the table as the writes
// left it then: items, and the GSI the restore rebuilt.
func TestPITRRestoreMatchesModel(t *testing.T) {
	forEachStore(t, func(t *testing.T, open func() *DB) {
		db := open()
		createBackupTable(t, db, "src")
		rng := rand.New(rand.NewSource(7))
		m := model{}
		// Items from before PITR is on: the log must walk them back too.
		randomWrites(t, db, "src", rng, m, 60, nil)
		if _, err := db.UpdateContinuousBackups(&dynamo.UpdateContinuousBackupsInput{TableName: "src",
			PointInTimeRecoverySpecification: &dynamo.PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: true}}); err != nil {
			t.Fatal(err)
		}
		type point struct {
			at   time.Time
			want model
		}
		var points []point
		points = append(points, point{db.now(), m.clone()})
		waitPast(db, points[0].at)
		randomWrites(t, db, "src", rng, m, 400, func(i int) {
			if rng.Intn(35) == 0 {
				at := db.now()
				points = append(points, point{at, m.clone()})
				// The next write must be timed after at.
				waitPast(db, at)
			}
		})
		for i, p := range points {
			target := fmt.Sprintf("at%02d", i)
			at := p.at
			if _, err := db.RestoreTableToPointInTime(&dynamo.RestoreTableToPointInTimeInput{
				SourceTableName: "src", TargetTableName: target, RestoreDateTime: &at}); err != nil {
				t.Fatalf("restore %d: %v", i, err)
			}
			waitRestored(t, db, target)
			got, gsi := tableItems(t, db, target)
			sameItems(t, target, p.want, got, gsi)
		}
		latest := true
		if _, err := db.RestoreTableToPointInTime(&dynamo.RestoreTableToPointInTimeInput{
			SourceTableName: "src", TargetTableName: "latest", UseLatestRestorableTime: &latest}); err != nil {
			t.Fatal(err)
		}
		waitRestored(t, db, "latest")
		got, gsi := tableItems(t, db, "latest")
		sameItems(t, "latest", m, got, gsi)
		if len(points) < 8 {
			t.Fatalf("only %d points", len(points))
		}
	})
}

// waitPast waits until the database's clock is past at, so the next write
// is timed after it.
func waitPast(db *DB, at time.Time) {
	for !db.now().After(at) {
		time.Sleep(50 * time.Microsecond)
	}
}

// TestBackupIsTheTableAtItsInstant takes a backup, changes the table, and
// restores the backup: the restore is the table as it was when the backup
// was taken, also after the source table is deleted.
func TestBackupIsTheTableAtItsInstant(t *testing.T) {
	forEachStore(t, func(t *testing.T, open func() *DB) {
		db := open()
		createBackupTable(t, db, "src")
		rng := rand.New(rand.NewSource(3))
		m := model{}
		randomWrites(t, db, "src", rng, m, 300, nil)
		want := m.clone()
		out, err := db.CreateBackup(&dynamo.CreateBackupInput{TableName: "src", BackupName: "b01"})
		if err != nil {
			t.Fatal(err)
		}
		arn := out.BackupDetails.BackupArn
		randomWrites(t, db, "src", rng, m, 200, nil)
		waitBackup(t, db, arn)
		desc, err := db.DescribeBackup(&dynamo.DescribeBackupInput{BackupArn: arn})
		if err != nil {
			t.Fatal(err)
		}
		if got := desc.BackupDescription.SourceTableDetails.ItemCount; got != int64(len(want)) {
			t.Fatalf("backup ItemCount %d, want %d", got, len(want))
		}
		if _, err := db.DeleteTable(&dynamo.DeleteTableInput{TableName: "src"}); err != nil {
			t.Fatal(err)
		}
		if _, err := db.RestoreTableFromBackup(&dynamo.RestoreTableFromBackupInput{TargetTableName: "r01", BackupArn: arn}); err != nil {
			t.Fatal(err)
		}
		waitRestored(t, db, "r01")
		got, gsi := tableItems(t, db, "r01")
		sameItems(t, "r01", want, got, gsi)
		if _, err := db.DeleteBackup(&dynamo.DeleteBackupInput{BackupArn: arn}); err != nil {
			t.Fatal(err)
		}
		_, err = db.DescribeBackup(&dynamo.DescribeBackupInput{BackupArn: arn})
		wantCode(t, err, dynamo.CodeBackupNotFound, "Backup not found: "+arn)
	})
}

// waitBackup waits until a backup is AVAILABLE.
func waitBackup(t testing.TB, db *DB, arn string) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		out, err := db.DescribeBackup(&dynamo.DescribeBackupInput{BackupArn: arn})
		if err != nil {
			t.Fatal(err)
		}
		if out.BackupDescription.BackupDetails.BackupStatus == dynamo.BackupStatusAvailable {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("backup still %s", out.BackupDescription.BackupDetails.BackupStatus)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestRestoreResumesAfterRestart stops a restore after its first chunk,
// reopens the database, and finds the restore finished from its cursor,
// equal to the source.
func TestRestoreResumesAfterRestart(t *testing.T) {
	dir := t.TempDir()
	db, err := Open(Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	createBackupTable(t, db, "src")
	m := model{}
	for i := 0; i < 3*copyChunk; i++ {
		it := attr.Item{"pk": attr.S(fmt.Sprintf("p%d", i)), "sk": attr.N("1"), "g": attr.S("x")}
		if _, err := db.PutItem(&dynamo.PutItemInput{TableName: "src", Item: it}); err != nil {
			t.Fatal(err)
		}
		m[modelKey(it)] = it
	}
	chunks := make(chan struct{}, 10)
	db.restoreHook = func(uint64) bool {
		chunks <- struct{}{}
		return len(chunks) < 2
	}
	if _, err := db.UpdateContinuousBackups(&dynamo.UpdateContinuousBackupsInput{TableName: "src",
		PointInTimeRecoverySpecification: &dynamo.PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: true}}); err != nil {
		t.Fatal(err)
	}
	latest := true
	if _, err := db.RestoreTableToPointInTime(&dynamo.RestoreTableToPointInTimeInput{
		SourceTableName: "src", TargetTableName: "r01", UseLatestRestorableTime: &latest}); err != nil {
		t.Fatal(err)
	}
	<-chunks
	<-chunks // the second chunk is refused: the restore stops half made
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = mustOpen(t, Options{Dir: dir})
	waitRestored(t, db, "r01")
	got, gsi := tableItems(t, db, "r01")
	sameItems(t, "r01", m, got, gsi)
}

// TestPruneKeepsTheWindow moves a fake clock past the recovery window:
// the pruner drops the versions no restore in the window can ask for, and
// a restore to a moment still in the window is exact.
func TestPruneKeepsTheWindow(t *testing.T) {
	var mu sync.Mutex
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	now := func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		clock = clock.Add(time.Millisecond)
		return clock
	}
	advance := func(d time.Duration) {
		mu.Lock()
		clock = clock.Add(d)
		mu.Unlock()
	}
	db := mustOpen(t, Options{InMemory: true, Now: now})
	createBackupTable(t, db, "src")
	days := int32(1)
	if _, err := db.UpdateContinuousBackups(&dynamo.UpdateContinuousBackupsInput{TableName: "src",
		PointInTimeRecoverySpecification: &dynamo.PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: true, RecoveryPeriodInDays: &days}}); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(11))
	m := model{}
	randomWrites(t, db, "src", rng, m, 200, nil)
	versions := func() int {
		log := db.lookupCached("src").meta.UndoLog
		it, err := db.store.NewIter(keys.IndexPrefix(log, 0), keys.PrefixEnd(keys.IndexPrefix(log, 0)))
		if err != nil {
			t.Fatal(err)
		}
		defer it.Close()
		n := 0
		for ok := it.First(); ok; ok = it.Next() {
			n++
		}
		return n
	}
	before := versions()
	advance(36 * time.Hour)
	at := db.now()
	want := m.clone()
	waitPast(db, at)
	randomWrites(t, db, "src", rng, m, 50, nil)
	if err := db.pruneUndo(); err != nil {
		t.Fatal(err)
	}
	after := versions()
	if before == 0 || after >= before || after > 50*2 {
		t.Fatalf("versions: %d before the prune, %d after; want only the last 50 writes' kept", before, after)
	}
	out, err := db.DescribeContinuousBackups(&dynamo.DescribeContinuousBackupsInput{TableName: "src"})
	if err != nil {
		t.Fatal(err)
	}
	earliest := *out.ContinuousBackupsDescription.PointInTimeRecoveryDescription.EarliestRestorableDateTime
	if d := db.now().Sub(earliest); d < 24*time.Hour || d > 24*time.Hour+time.Minute {
		t.Fatalf("earliest restorable time %v is %v before now, want a day", earliest, d)
	}
	if _, err := db.RestoreTableToPointInTime(&dynamo.RestoreTableToPointInTimeInput{
		SourceTableName: "src", TargetTableName: "past", RestoreDateTime: &at}); err != nil {
		t.Fatal(err)
	}
	waitRestored(t, db, "past")
	got, gsi := tableItems(t, db, "past")
	sameItems(t, "past", want, got, gsi)
	// Before the window: refused with both bounds named.
	old := at.Add(-30 * time.Hour)
	_, err = db.RestoreTableToPointInTime(&dynamo.RestoreTableToPointInTimeInput{
		SourceTableName: "src", TargetTableName: "older", RestoreDateTime: &old})
	wantCode(t, err, dynamo.CodeInvalidRestoreTime, "must be within EarliestRestorableDateTime")
}

// BenchmarkPutItemPITR is BenchmarkPutItem on a table with point-in-time
// recovery on, off first: the cost of the undo log's version per write.
// With DYNAGO_TEST_STORE=postgres it runs on PostgreSQL, and reports the
// undo log's bytes per write as well.
func BenchmarkPutItemPITR(b *testing.B) {
	for _, on := range []bool{false, true} {
		b.Run(fmt.Sprintf("pitr=%v", on), func(b *testing.B) {
			o := Options{InMemory: true}
			if os.Getenv("DYNAGO_TEST_STORE") == "postgres" {
				url, schema := pgtest.Schema(b)
				o = Options{Store: openPG(b, url, schema)}
			}
			db := mustOpen(b, o)
			mustCreate(b, db, "bench", false)
			if on {
				if _, err := db.UpdateContinuousBackups(&dynamo.UpdateContinuousBackupsInput{TableName: "bench",
					PointInTimeRecoverySpecification: &dynamo.PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: true}}); err != nil {
					b.Fatal(err)
				}
			}
			items := make([]attr.Item, 1024)
			for i := range items {
				items[i] = item1KB(fmt.Sprintf("key-%d", i))
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := db.PutItem(&dynamo.PutItemInput{TableName: "bench", Item: items[i%len(items)]}); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			if log := db.lookupCached("bench").meta.UndoLog; log != 0 {
				p := keys.TablePrefix(log)
				it, err := db.store.NewIter(p, keys.PrefixEnd(p))
				if err != nil {
					b.Fatal(err)
				}
				n := 0
				for ok := it.First(); ok; ok = it.Next() {
					n += len(it.Key()) + len(it.Value())
				}
				it.Close()
				b.ReportMetric(float64(n)/float64(b.N), "log-B/write")
			}
		})
	}
}

// TestSystemBackupExpires: the SYSTEM backup a deletion with PITR on
// leaves keeps the table's rows, and its index's rows go with the table;
// 35 days later the pruner deletes the backup and its rows.
func TestSystemBackupExpires(t *testing.T) {
	var mu sync.Mutex
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	now := func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		clock = clock.Add(time.Millisecond)
		return clock
	}
	db := mustOpen(t, Options{InMemory: true, Now: now})
	createBackupTable(t, db, "src")
	if _, err := db.UpdateContinuousBackups(&dynamo.UpdateContinuousBackupsInput{TableName: "src",
		PointInTimeRecoverySpecification: &dynamo.PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: true}}); err != nil {
		t.Fatal(err)
	}
	m := model{}
	randomWrites(t, db, "src", rand.New(rand.NewSource(3)), m, 100, nil)
	id := db.lookupCached("src").meta.ID
	rows := func(lower, upper []byte) int {
		it, err := db.store.NewIter(lower, upper)
		if err != nil {
			t.Fatal(err)
		}
		defer it.Close()
		n := 0
		for ok := it.First(); ok; ok = it.Next() {
			n++
		}
		return n
	}
	base := keys.IndexPrefix(id, keys.BaseIndexID)
	if _, err := db.DeleteTable(&dynamo.DeleteTableInput{TableName: "src"}); err != nil {
		t.Fatal(err)
	}
	if n := rows(base, keys.PrefixEnd(base)); n != len(m) {
		t.Fatalf("the SYSTEM backup holds %d rows, want the table's %d", n, len(m))
	}
	if n := rows(keys.PrefixEnd(base), keys.PrefixEnd(keys.TablePrefix(id))); n != 0 {
		t.Fatalf("%d index rows outlive the table", n)
	}
	all, err := db.allBackups()
	if err != nil || len(all) != 1 {
		t.Fatalf("backups: %v, %v", all, err)
	}
	// A day short of the expiry: kept.
	if err := db.expireBackups(all[0].Expires.Add(-24 * time.Hour)); err != nil {
		t.Fatal(err)
	}
	if all, _ := db.allBackups(); len(all) != 1 {
		t.Fatalf("the backup went before its expiry")
	}
	if err := db.expireBackups(all[0].Expires); err != nil {
		t.Fatal(err)
	}
	if all, _ := db.allBackups(); len(all) != 0 {
		t.Fatalf("%d backups after the expiry", len(all))
	}
	if n := rows(keys.TablePrefix(id), keys.PrefixEnd(keys.TablePrefix(id))); n != 0 {
		t.Fatalf("%d rows outlive the expired backup", n)
	}
}

// TestBackupDuringBackfill: a backup that starts while a GSI backfills
// waits out the writes in flight without holding the catalog lock, which
// a backfill's chunk waits for with its rows' locks held: the backup
// and the backfill both finish (they deadlocked).
func TestBackupDuringBackfill(t *testing.T) {
	db := mustOpen(t, Options{InMemory: true})
	createGSITable(t, db, "bbf")
	for i := range 3 * backfillChunk {
		if _, err := db.PutItem(&dynamo.PutItemInput{TableName: "bbf", Item: gItem(i, fmt.Sprint("g", i%5), i)}); err != nil {
			t.Fatal(err)
		}
	}
	var once sync.Once
	backupDone := make(chan error, 1)
	stuck := make(chan string, 1)
	backfillBeforeCommit = func(on *DB, _ uint64, _ uint32) {
		if on != db {
			return
		}
		once.Do(func() {
			// With this chunk's row locks held: a backup starts, and
			// must let the catalog lock go while it waits for them.
			go func() {
				_, err := db.CreateBackup(&dynamo.CreateBackupInput{TableName: "bbf", BackupName: "during"})
				backupDone <- err
			}()
			deadline := time.Now().Add(time.Minute)
			for {
				if tb := db.lookupCached("bbf"); tb != nil && tb.meta.UndoLog != 0 && db.ddl.TryLock() {
					db.ddl.Unlock()
					return
				}
				if time.Now().After(deadline) {
					stuck <- "the backup kept the catalog lock while it waited for the backfill's rows"
					return
				}
				time.Sleep(time.Millisecond)
			}
		})
	}
	defer func() { backfillBeforeCommit = nil }()
	addGSI(t, db, "bbf", "byg")
	select {
	case err := <-backupDone:
		if err != nil {
			t.Fatal(err)
		}
	case msg := <-stuck:
		t.Fatal(msg)
	}
	out, err := db.ListBackups(&dynamo.ListBackupsInput{TableName: "bbf"})
	if err != nil || len(out.BackupSummaries) != 1 {
		t.Fatalf("ListBackups: %v, %v", out, err)
	}
	waitBackup(t, db, out.BackupSummaries[0].BackupArn)
}
