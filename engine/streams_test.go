package engine

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
)

func createStreamTable(t testing.TB, db *DB, name, view string) string {
	t.Helper()
	out, err := db.CreateTable(&dynamo.CreateTableInput{
		TableName:            name,
		BillingMode:          dynamo.BillingModePayPerRequest,
		AttributeDefinitions: []dynamo.AttributeDefinition{{AttributeName: "pk", AttributeType: "S"}},
		KeySchema:            []dynamo.KeySchemaElement{{AttributeName: "pk", KeyType: dynamo.KeyTypeHash}},
		StreamSpecification:  &dynamo.StreamSpecification{StreamEnabled: true, StreamViewType: view},
	})
	if err != nil {
		t.Fatalf("create table: %v", err)
	}
	if out.TableDescription.LatestStreamArn == "" {
		t.Fatal("no LatestStreamArn")
	}
	return out.TableDescription.LatestStreamArn
}

func s(v string) attr.Value { return attr.Value{Type: attr.TypeS, S: v} }
func n(v int) attr.Value    { return attr.Value{Type: attr.TypeN, S: strconv.Itoa(v)} }

// follower reads a stream the way a careful client does: shards in
// lineage order, each from TRIM_HORIZON (or where it stopped) until a
// closed shard ends.
type follower struct {
	arn  string
	iter map[string]string
	done map[string]bool
}

func newFollower(arn string) *follower {
	return &follower{arn: arn, iter: map[string]string{}, done: map[string]bool{}}
}

func (f *follower) poll(t testing.TB, db *DB) []dynamo.Record {
	t.Helper()
	var shards []dynamo.Shard
	for start := ""; ; {
		d, err := db.DescribeStream(&dynamo.DescribeStreamInput{StreamArn: f.arn, ExclusiveStartShardId: start})
		if err != nil {
			t.Fatalf("describe stream: %v", err)
		}
		shards = append(shards, d.StreamDescription.Shards...)
		if start = d.StreamDescription.LastEvaluatedShardId; start == "" {
			break
		}
	}
	var out []dynamo.Record
	for _, sh := range shards {
		if f.done[sh.ShardId] {
			continue
		}
		if sh.ParentShardId != "" && !f.done[sh.ParentShardId] {
			if _, known := f.iter[sh.ParentShardId]; known {
				t.Fatalf("shard %s listed before its parent %s was read to its end", sh.ShardId, sh.ParentShardId)
			}
		}
		it := f.iter[sh.ShardId]
		if it == "" {
			g, err := db.GetShardIterator(&dynamo.GetShardIteratorInput{StreamArn: f.arn, ShardId: sh.ShardId, ShardIteratorType: dynamo.IteratorTrimHorizon})
			if err != nil {
				t.Fatalf("get shard iterator: %v", err)
			}
			it = g.ShardIterator
		}
		for {
			r, err := db.GetRecords(&dynamo.GetRecordsInput{ShardIterator: it})
			if err != nil {
				t.Fatalf("get records: %v", err)
			}
			out = append(out, r.Records...)
			if r.NextShardIterator == "" {
				f.done[sh.ShardId] = true
				break
			}
			it = r.NextShardIterator
			if len(r.Records) == 0 {
				break
			}
		}
		f.iter[sh.ShardId] = it
		if !f.done[sh.ShardId] {
			break // an open shard: its children do not exist yet
		}
	}
	return out
}

func TestStreamRecordsOfEachWrite(t *testing.T) {
	db := mustOpen(t, Options{InMemory: true})
	arn := createStreamTable(t, db, "tbl", dynamo.ViewNewAndOldImages)
	put := func(it attr.Item) {
		t.Helper()
		if _, err := db.PutItem(&dynamo.PutItemInput{TableName: "tbl", Item: it}); err != nil {
			t.Fatal(err)
		}
	}
	put(attr.Item{"pk": s("a"), "v": n(1)})
	put(attr.Item{"pk": s("a"), "v": n(1)}) // no change: no record
	put(attr.Item{"pk": s("a"), "v": n(2)})
	if _, err := db.DeleteItem(&dynamo.DeleteItemInput{TableName: "tbl", Key: attr.Item{"pk": s("a")}}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.DeleteItem(&dynamo.DeleteItemInput{TableName: "tbl", Key: attr.Item{"pk": s("missing")}}); err != nil {
		t.Fatal(err)
	}
	recs := newFollower(arn).poll(t, db)
	if len(recs) != 3 {
		t.Fatalf("got %d records, want 3: %+v", len(recs), recs)
	}
	wantEvents := []string{dynamo.EventInsert, dynamo.EventModify, dynamo.EventRemove}
	for i, r := range recs {
		if r.EventName != wantEvents[i] {
			t.Errorf("record %d: event %s, want %s", i, r.EventName, wantEvents[i])
		}
		if r.EventSource != "aws:dynamodb" || r.EventVersion != "1.1" || r.AwsRegion != "us-east-1" || r.UserIdentity != nil {
			t.Errorf("record %d: envelope %+v", i, r)
		}
		if got := r.Dynamodb.Keys["pk"].S; got != "a" || len(r.Dynamodb.Keys) != 1 {
			t.Errorf("record %d: keys %v", i, r.Dynamodb.Keys)
		}
		if i > 0 && r.Dynamodb.SequenceNumber <= recs[i-1].Dynamodb.SequenceNumber {
			t.Errorf("sequence numbers not increasing: %s then %s", recs[i-1].Dynamodb.SequenceNumber, r.Dynamodb.SequenceNumber)
		}
		if r.Dynamodb.SizeBytes <= 0 || r.Dynamodb.StreamViewType != dynamo.ViewNewAndOldImages {
			t.Errorf("record %d: size %d view %s", i, r.Dynamodb.SizeBytes, r.Dynamodb.StreamViewType)
		}
	}
	if recs[0].Dynamodb.OldImage != nil || recs[0].Dynamodb.NewImage["v"].S != "1" {
		t.Errorf("INSERT images: old %v new %v", recs[0].Dynamodb.OldImage, recs[0].Dynamodb.NewImage)
	}
	if recs[1].Dynamodb.OldImage["v"].S != "1" || recs[1].Dynamodb.NewImage["v"].S != "2" {
		t.Errorf("MODIFY images: old %v new %v", recs[1].Dynamodb.OldImage, recs[1].Dynamodb.NewImage)
	}
	if recs[2].Dynamodb.OldImage["v"].S != "2" || recs[2].Dynamodb.NewImage != nil {
		t.Errorf("REMOVE images: old %v new %v", recs[2].Dynamodb.OldImage, recs[2].Dynamodb.NewImage)
	}
	if recs[0].EventID == recs[1].EventID || len(recs[0].EventID) != 32 {
		t.Errorf("event ids %q %q", recs[0].EventID, recs[1].EventID)
	}
}

func TestStreamViewTypes(t *testing.T) {
	db := mustOpen(t, Options{InMemory: true})
	for _, view := range []string{dynamo.ViewKeysOnly, dynamo.ViewNewImage, dynamo.ViewOldImage, dynamo.ViewNewAndOldImages} {
		arn := createStreamTable(t, db, "tbl_"+view, view)
		for _, v := range []int{1, 2} {
			if _, err := db.PutItem(&dynamo.PutItemInput{TableName: "tbl_" + view, Item: attr.Item{"pk": s("a"), "v": n(v)}}); err != nil {
				t.Fatal(err)
			}
		}
		recs := newFollower(arn).poll(t, db)
		if len(recs) != 2 {
			t.Fatalf("%s: %d records", view, len(recs))
		}
		m := recs[1].Dynamodb
		wantOld := view == dynamo.ViewOldImage || view == dynamo.ViewNewAndOldImages
		wantNew := view == dynamo.ViewNewImage || view == dynamo.ViewNewAndOldImages
		if (m.OldImage != nil) != wantOld || (m.NewImage != nil) != wantNew {
			t.Errorf("%s: old %v new %v", view, m.OldImage, m.NewImage)
		}
	}
}

func TestStreamDisableAndReenable(t *testing.T) {
	db := mustOpen(t, Options{InMemory: true})
	arn1 := createStreamTable(t, db, "tbl", dynamo.ViewKeysOnly)
	db.PutItem(&dynamo.PutItemInput{TableName: "tbl", Item: attr.Item{"pk": s("a")}})
	if _, err := db.UpdateTable(&dynamo.UpdateTableInput{TableName: "tbl", StreamSpecification: &dynamo.StreamSpecification{StreamEnabled: false}}); err != nil {
		t.Fatal(err)
	}
	db.PutItem(&dynamo.PutItemInput{TableName: "tbl", Item: attr.Item{"pk": s("b")}}) // no stream: no record
	d, err := db.DescribeStream(&dynamo.DescribeStreamInput{StreamArn: arn1})
	if err != nil {
		t.Fatal(err)
	}
	if d.StreamDescription.StreamStatus != dynamo.StreamDisabled || d.StreamDescription.Shards[0].SequenceNumberRange.EndingSequenceNumber == "" {
		t.Fatalf("after disable: %+v", d.StreamDescription)
	}
	out, err := db.UpdateTable(&dynamo.UpdateTableInput{TableName: "tbl", StreamSpecification: &dynamo.StreamSpecification{StreamEnabled: true, StreamViewType: dynamo.ViewNewImage}})
	if err != nil {
		t.Fatal(err)
	}
	arn2 := out.TableDescription.LatestStreamArn
	if arn2 == arn1 {
		t.Fatalf("re-enabled stream kept ARN %s", arn1)
	}
	db.PutItem(&dynamo.PutItemInput{TableName: "tbl", Item: attr.Item{"pk": s("c")}})
	old := newFollower(arn1).poll(t, db)
	if len(old) != 1 || old[0].Dynamodb.Keys["pk"].S != "a" {
		t.Fatalf("old stream: %+v", old)
	}
	cur := newFollower(arn2).poll(t, db)
	if len(cur) != 1 || cur[0].Dynamodb.Keys["pk"].S != "c" {
		t.Fatalf("new stream: %+v", cur)
	}
	l, err := db.ListStreams(&dynamo.ListStreamsInput{TableName: "tbl"})
	if err != nil || len(l.Streams) != 2 {
		t.Fatalf("list streams: %+v %v", l, err)
	}
	l, err = db.ListStreams(&dynamo.ListStreamsInput{TableName: "tbl", Limit: i32(1)})
	if err != nil || len(l.Streams) != 1 || l.LastEvaluatedStreamArn == "" {
		t.Fatalf("list streams page 1: %+v %v", l, err)
	}
	l2, err := db.ListStreams(&dynamo.ListStreamsInput{TableName: "tbl", Limit: i32(1), ExclusiveStartStreamArn: l.LastEvaluatedStreamArn})
	if err != nil || len(l2.Streams) != 1 || l2.Streams[0].StreamArn == l.Streams[0].StreamArn {
		t.Fatalf("list streams page 2: %+v %v", l2, err)
	}
	// Deleting the table disables its stream; it stays readable.
	if _, err := db.DeleteTable(&dynamo.DeleteTableInput{TableName: "tbl"}); err != nil {
		t.Fatal(err)
	}
	d, err = db.DescribeStream(&dynamo.DescribeStreamInput{StreamArn: arn2})
	if err != nil || d.StreamDescription.StreamStatus != dynamo.StreamDisabled {
		t.Fatalf("after delete table: %+v %v", d, err)
	}
	if got := newFollower(arn2).poll(t, db); len(got) != 1 {
		t.Fatalf("stream of deleted table: %d records", len(got))
	}
}

// TestStreamLineageUnderConcurrentWriters: writers increment counters on
// their own items while shards roll over every few milliseconds and a
// reader follows the lineage; halfway the database is closed and
// reopened. The reader must see every change once, in per-item order.
func TestStreamLineageUnderConcurrentWriters(t *testing.T) {
	dir := t.TempDir()
	opts := Options{Dir: dir, StreamShardDuration: 3 * time.Millisecond}
	db := mustOpen(t, opts)
	arn := createStreamTable(t, db, "tbl", dynamo.ViewNewImage)
	const writers, perPhase = 6, 150
	f := newFollower(arn)
	last := map[string]int{}
	check := func(recs []dynamo.Record) {
		for _, r := range recs {
			pk := r.Dynamodb.Keys["pk"].S
			v, _ := strconv.Atoi(r.Dynamodb.NewImage["v"].S)
			if v != last[pk]+1 {
				t.Fatalf("item %s: record with v=%d after v=%d", pk, v, last[pk])
			}
			last[pk] = v
		}
	}
	phase := func(db *DB, from int) {
		var wg sync.WaitGroup
		var stop atomic.Bool
		for w := range writers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := from + 1; i <= from+perPhase; i++ {
					it := attr.Item{"pk": s(fmt.Sprint("w", w)), "v": n(i)}
					if _, err := db.PutItem(&dynamo.PutItemInput{TableName: "tbl", Item: it}); err != nil {
						t.Error(err)
						return
					}
				}
			}()
		}
		done := make(chan struct{})
		go func() { wg.Wait(); stop.Store(true); close(done) }()
		for !stop.Load() {
			check(f.poll(t, db))
		}
		<-done
		check(f.poll(t, db))
	}
	phase(db, 0)
	db.Close()
	db = mustOpen(t, opts)
	phase(db, perPhase)
	check(f.poll(t, db))
	for w := range writers {
		if got := last[fmt.Sprint("w", w)]; got != 2*perPhase {
			t.Errorf("writer %d: reader saw up to %d, want %d", w, got, 2*perPhase)
		}
	}
	d, _ := db.DescribeStream(&dynamo.DescribeStreamInput{StreamArn: arn})
	if len(d.StreamDescription.Shards) < 3 {
		t.Errorf("only %d shards: rollover did not happen", len(d.StreamDescription.Shards))
	}
	for i, sh := range d.StreamDescription.Shards[1:] {
		if sh.ParentShardId != d.StreamDescription.Shards[i].ShardId {
			t.Fatalf("shard %s has parent %s, want %s", sh.ShardId, sh.ParentShardId, d.StreamDescription.Shards[i].ShardId)
		}
	}
}

func TestStreamTrimAndIteratorExpiry(t *testing.T) {
	var now atomic.Int64
	now.Store(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano())
	clock := func() time.Time { return time.Unix(0, now.Load()) }
	advance := func(d time.Duration) { now.Add(int64(d)) }
	db := mustOpen(t, Options{InMemory: true, Now: clock})
	arn := createStreamTable(t, db, "tbl", dynamo.ViewKeysOnly)
	db.PutItem(&dynamo.PutItemInput{TableName: "tbl", Item: attr.Item{"pk": s("old")}})
	first := newFollower(arn).poll(t, db)[0].Dynamodb.SequenceNumber
	d, _ := db.DescribeStream(&dynamo.DescribeStreamInput{StreamArn: arn})
	shard := d.StreamDescription.Shards[0].ShardId
	g, err := db.GetShardIterator(&dynamo.GetShardIteratorInput{StreamArn: arn, ShardId: shard, ShardIteratorType: dynamo.IteratorTrimHorizon})
	if err != nil {
		t.Fatal(err)
	}
	advance(16 * time.Minute)
	_, err = db.GetRecords(&dynamo.GetRecordsInput{ShardIterator: g.ShardIterator})
	wantCode(t, err, dynamo.CodeExpiredIterator, "Iterator expired")

	advance(3 * time.Hour)
	db.PutItem(&dynamo.PutItemInput{TableName: "tbl", Item: attr.Item{"pk": s("new")}})
	advance(21*time.Hour + time.Minute) // "old" is now older than 24 hours
	if err := db.trimStreams(clock()); err != nil {
		t.Fatal(err)
	}
	recs := newFollower(arn).poll(t, db)
	if len(recs) != 1 || recs[0].Dynamodb.Keys["pk"].S != "new" {
		t.Fatalf("after trim: %+v", recs)
	}
	_, err = db.GetShardIterator(&dynamo.GetShardIteratorInput{StreamArn: arn, ShardId: shard, ShardIteratorType: dynamo.IteratorAtSequenceNumber, SequenceNumber: first})
	wantCode(t, err, dynamo.CodeTrimmedDataAccess, "trimmed")

	// A disabled stream disappears 24 hours after it was disabled.
	if _, err := db.UpdateTable(&dynamo.UpdateTableInput{TableName: "tbl", StreamSpecification: &dynamo.StreamSpecification{}}); err != nil {
		t.Fatal(err)
	}
	advance(25 * time.Hour)
	if err := db.trimStreams(clock()); err != nil {
		t.Fatal(err)
	}
	_, err = db.DescribeStream(&dynamo.DescribeStreamInput{StreamArn: arn})
	wantCode(t, err, dynamo.CodeResourceNotFound, "Stream")
}

func TestStreamIteratorTypesAndErrors(t *testing.T) {
	db := mustOpen(t, Options{InMemory: true})
	arn := createStreamTable(t, db, "tbl", dynamo.ViewKeysOnly)
	for _, k := range []string{"a", "b", "c"} {
		db.PutItem(&dynamo.PutItemInput{TableName: "tbl", Item: attr.Item{"pk": s(k)}})
	}
	d, _ := db.DescribeStream(&dynamo.DescribeStreamInput{StreamArn: arn})
	shard := d.StreamDescription.Shards[0].ShardId
	all := newFollower(arn).poll(t, db)
	read := func(typ, seq string) []string {
		t.Helper()
		g, err := db.GetShardIterator(&dynamo.GetShardIteratorInput{StreamArn: arn, ShardId: shard, ShardIteratorType: typ, SequenceNumber: seq})
		if err != nil {
			t.Fatal(err)
		}
		r, err := db.GetRecords(&dynamo.GetRecordsInput{ShardIterator: g.ShardIterator})
		if err != nil {
			t.Fatal(err)
		}
		var ks []string
		for _, rec := range r.Records {
			ks = append(ks, rec.Dynamodb.Keys["pk"].S)
		}
		return ks
	}
	mid := all[1].Dynamodb.SequenceNumber
	if got := fmt.Sprint(read(dynamo.IteratorAtSequenceNumber, mid)); got != "[b c]" {
		t.Errorf("AT_SEQUENCE_NUMBER: %s", got)
	}
	if got := fmt.Sprint(read(dynamo.IteratorAfterSequenceNumber, mid)); got != "[c]" {
		t.Errorf("AFTER_SEQUENCE_NUMBER: %s", got)
	}
	if got := read(dynamo.IteratorLatest, ""); len(got) != 0 {
		t.Errorf("LATEST: %v", got)
	}
	g, _ := db.GetShardIterator(&dynamo.GetShardIteratorInput{StreamArn: arn, ShardId: shard, ShardIteratorType: dynamo.IteratorTrimHorizon})
	r, err := db.GetRecords(&dynamo.GetRecordsInput{ShardIterator: g.ShardIterator, Limit: i32(2)})
	if err != nil || len(r.Records) != 2 || r.NextShardIterator == "" {
		t.Fatalf("Limit 2: %+v %v", r, err)
	}
	_, err = db.GetRecords(&dynamo.GetRecordsInput{ShardIterator: g.ShardIterator, Limit: i32(1001)})
	wantCode(t, err, dynamo.CodeValidation, "less than or equal to 1000")
	_, err = db.GetRecords(&dynamo.GetRecordsInput{ShardIterator: "garbage"})
	wantCode(t, err, dynamo.CodeValidation, "Invalid ShardIterator")
	_, err = db.GetShardIterator(&dynamo.GetShardIteratorInput{StreamArn: arn, ShardId: "shardId-00000000000000000000-00000000", ShardIteratorType: dynamo.IteratorLatest})
	wantCode(t, err, dynamo.CodeResourceNotFound, "Shard does not exist")
	_, err = db.GetShardIterator(&dynamo.GetShardIteratorInput{StreamArn: arn, ShardId: shard, ShardIteratorType: dynamo.IteratorAtSequenceNumber})
	wantCode(t, err, dynamo.CodeValidation, "SequenceNumber")
	_, err = db.DescribeStream(&dynamo.DescribeStreamInput{StreamArn: arn + "x"})
	wantCode(t, err, dynamo.CodeResourceNotFound, "not found")
}

func BenchmarkPutItemStream(b *testing.B) {
	for _, view := range []string{"off", dynamo.ViewKeysOnly, dynamo.ViewNewAndOldImages} {
		b.Run(view, func(b *testing.B) {
			db := mustOpen(b, Options{InMemory: true})
			if view == "off" {
				mustCreate(b, db, "tbl", false)
			} else {
				createStreamTable(b, db, "tbl", view)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				it := item1KB(fmt.Sprint("k", i%10000))
				it["v"] = n(i)
				if _, err := db.PutItem(&dynamo.PutItemInput{TableName: "tbl", Item: it}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkGetRecords(b *testing.B) {
	db := mustOpen(b, Options{InMemory: true})
	arn := createStreamTable(b, db, "tbl", dynamo.ViewNewAndOldImages)
	for i := range 10000 {
		it := item1KB(fmt.Sprint("k", i%1000))
		it["v"] = n(i)
		db.PutItem(&dynamo.PutItemInput{TableName: "tbl", Item: it})
	}
	d, _ := db.DescribeStream(&dynamo.DescribeStreamInput{StreamArn: arn})
	shard := d.StreamDescription.Shards[0].ShardId
	b.ReportAllocs()
	b.ResetTimer()
	records := 0
	for i := 0; i < b.N; i++ {
		g, err := db.GetShardIterator(&dynamo.GetShardIteratorInput{StreamArn: arn, ShardId: shard, ShardIteratorType: dynamo.IteratorTrimHorizon})
		if err != nil {
			b.Fatal(err)
		}
		r, err := db.GetRecords(&dynamo.GetRecordsInput{ShardIterator: g.ShardIterator})
		if err != nil {
			b.Fatal(err)
		}
		records += len(r.Records)
	}
	b.ReportMetric(float64(records)/b.Elapsed().Seconds(), "records/s")
}

// TestStreamIgnoresIndexBackfill: creating a GSI on a populated table
// indexes every item but changes none, so the stream gets no record.
func TestStreamIgnoresIndexBackfill(t *testing.T) {
	db := mustOpen(t, Options{InMemory: true})
	arn := createStreamTable(t, db, "tbl", dynamo.ViewNewAndOldImages)
	for i := range 50 {
		if _, err := db.PutItem(&dynamo.PutItemInput{TableName: "tbl", Item: gItem(i, "g", i)}); err != nil {
			t.Fatal(err)
		}
	}
	f := newFollower(arn)
	if got := len(f.poll(t, db)); got != 50 {
		t.Fatalf("%d records for 50 puts", got)
	}
	addGSI(t, db, "tbl", "byG")
	waitActive(t, db, "tbl")
	checkIndexEqualsRecomputation(t, db, "tbl", "byG")
	if got := f.poll(t, db); len(got) != 0 {
		t.Fatalf("backfill wrote %d stream records", len(got))
	}
	// A write after the backfill has its record, as usual.
	if _, err := db.PutItem(&dynamo.PutItemInput{TableName: "tbl", Item: gItem(1, "h", 7)}); err != nil {
		t.Fatal(err)
	}
	if got := f.poll(t, db); len(got) != 1 || got[0].EventName != dynamo.EventModify {
		t.Fatalf("after backfill: %+v", got)
	}
}

// TestStreamNumbersNeverReused: after every record of an idle stream is
// trimmed and the database restarts, new records still get numbers above
// every number handed out before, and an old position still reads them.
func TestStreamNumbersNeverReused(t *testing.T) {
	var now atomic.Int64
	now.Store(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano())
	clock := func() time.Time { return time.Unix(0, now.Load()) }
	dir := t.TempDir()
	// Shards last longer than the retention here, so the open shard is
	// left with no record at all.
	opts := Options{Dir: dir, Now: clock, StreamShardDuration: 48 * time.Hour}
	db := mustOpen(t, opts)
	arn := createStreamTable(t, db, "tbl", dynamo.ViewKeysOnly)
	for _, k := range []string{"a", "b", "c"} {
		db.PutItem(&dynamo.PutItemInput{TableName: "tbl", Item: attr.Item{"pk": s(k)}})
	}
	old := newFollower(arn).poll(t, db)
	lastOld := old[len(old)-1]
	now.Add(int64(25 * time.Hour))
	if err := db.trimStreams(clock()); err != nil {
		t.Fatal(err)
	}
	db.Close()
	db = mustOpen(t, opts)
	db.PutItem(&dynamo.PutItemInput{TableName: "tbl", Item: attr.Item{"pk": s("d")}})
	recs := newFollower(arn).poll(t, db)
	if len(recs) != 1 || recs[0].Dynamodb.Keys["pk"].S != "d" {
		t.Fatalf("after trim and restart: %+v", recs)
	}
	if recs[0].Dynamodb.SequenceNumber <= lastOld.Dynamodb.SequenceNumber || recs[0].EventID == old[0].EventID {
		t.Fatalf("number reused: new %s, old last %s", recs[0].Dynamodb.SequenceNumber, lastOld.Dynamodb.SequenceNumber)
	}
	// A reader that stopped after the last old record finds the new one.
	d, _ := db.DescribeStream(&dynamo.DescribeStreamInput{StreamArn: arn})
	for _, sh := range d.StreamDescription.Shards {
		g, err := db.GetShardIterator(&dynamo.GetShardIteratorInput{StreamArn: arn, ShardId: sh.ShardId, ShardIteratorType: dynamo.IteratorTrimHorizon})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.GetRecords(&dynamo.GetRecordsInput{ShardIterator: g.ShardIterator}); err != nil {
			t.Fatalf("shard %s after restart: %v", sh.ShardId, err)
		}
	}
}

// TestStreamIdleShardRollsOver: a shard closes on schedule even when the
// table is not written, as DynamoDB's do.
func TestStreamIdleShardRollsOver(t *testing.T) {
	var now atomic.Int64
	now.Store(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano())
	clock := func() time.Time { return time.Unix(0, now.Load()) }
	db := mustOpen(t, Options{InMemory: true, Now: clock})
	arn := createStreamTable(t, db, "tbl", dynamo.ViewKeysOnly)
	now.Add(int64(5 * time.Hour))
	if err := db.trimStreams(clock()); err != nil {
		t.Fatal(err)
	}
	d, _ := db.DescribeStream(&dynamo.DescribeStreamInput{StreamArn: arn})
	sh := d.StreamDescription.Shards
	if len(sh) != 2 || sh[0].SequenceNumberRange.EndingSequenceNumber == "" || sh[1].ParentShardId != sh[0].ShardId {
		t.Fatalf("shards after an idle 5 hours: %+v", sh)
	}
	f := newFollower(arn)
	if got := f.poll(t, db); len(got) != 0 || !f.done[sh[0].ShardId] {
		t.Fatalf("empty closed shard: %d records, done %v", len(got), f.done[sh[0].ShardId])
	}
}

// TestGetRecordsPageAtMostOneMegabyte: a page stops before a record that
// would take it past 1 MB, but always holds one record.
func TestGetRecordsPageAtMostOneMegabyte(t *testing.T) {
	db := mustOpen(t, Options{InMemory: true})
	arn := createStreamTable(t, db, "tbl", dynamo.ViewNewAndOldImages)
	big := strings.Repeat("x", 300_000)
	for i := range 6 {
		db.PutItem(&dynamo.PutItemInput{TableName: "tbl", Item: attr.Item{"pk": s(fmt.Sprint(i)), "v": s(big)}})
	}
	d, _ := db.DescribeStream(&dynamo.DescribeStreamInput{StreamArn: arn})
	g, _ := db.GetShardIterator(&dynamo.GetShardIteratorInput{StreamArn: arn, ShardId: d.StreamDescription.Shards[0].ShardId, ShardIteratorType: dynamo.IteratorTrimHorizon})
	it, total := g.ShardIterator, 0
	for total < 6 {
		r, err := db.GetRecords(&dynamo.GetRecordsInput{ShardIterator: it})
		if err != nil {
			t.Fatal(err)
		}
		size := 0
		for _, rec := range r.Records {
			size += int(rec.Dynamodb.SizeBytes)
		}
		if len(r.Records) == 0 || size > 1<<20 {
			t.Fatalf("page of %d records, %d bytes", len(r.Records), size)
		}
		total += len(r.Records)
		it = r.NextShardIterator
	}
}
