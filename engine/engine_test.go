package engine

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
)

// forEachStore runs f against an in-memory and an on-disk database, as
// logically equivalent operations must give equal results on both.
func forEachStore(t *testing.T, f func(t *testing.T, open func() *DB)) {
	t.Run("memory", func(t *testing.T) {
		f(t, func() *DB { return mustOpen(t, Options{InMemory: true}) })
	})
	t.Run("disk", func(t *testing.T) {
		dir := t.TempDir()
		f(t, func() *DB { return mustOpen(t, Options{Dir: dir}) })
	})
}

func mustOpen(t testing.TB, o Options) *DB {
	t.Helper()
	db, err := Open(o)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func mustCreate(t testing.TB, db *DB, name string, withSort bool) {
	t.Helper()
	in := &dynamo.CreateTableInput{
		TableName:            name,
		BillingMode:          dynamo.BillingModePayPerRequest,
		AttributeDefinitions: []dynamo.AttributeDefinition{{AttributeName: "pk", AttributeType: "S"}},
		KeySchema:            []dynamo.KeySchemaElement{{AttributeName: "pk", KeyType: dynamo.KeyTypeHash}},
	}
	if withSort {
		in.AttributeDefinitions = append(in.AttributeDefinitions, dynamo.AttributeDefinition{AttributeName: "sk", AttributeType: "N"})
		in.KeySchema = append(in.KeySchema, dynamo.KeySchemaElement{AttributeName: "sk", KeyType: dynamo.KeyTypeRange})
	}
	if _, err := db.CreateTable(in); err != nil {
		t.Fatalf("create table: %v", err)
	}
}

func wantCode(t *testing.T, err error, code, msgPart string) {
	t.Helper()
	var e *dynamo.Error
	if !errors.As(err, &e) {
		t.Fatalf("want %s, got %v", code, err)
	}
	if e.Code != code || !strings.Contains(e.Message, msgPart) {
		t.Fatalf("want %s containing %q, got %s: %s", code, msgPart, e.Code, e.Message)
	}
}

func TestItemsSurviveReopen(t *testing.T) {
	dir := t.TempDir()
	db, err := Open(Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	mustCreate(t, db, "tbl1", true)
	for i := range 50 {
		_, err := db.PutItem(&dynamo.PutItemInput{TableName: "tbl1", Item: attr.Item{
			"pk": attr.S("p"), "sk": attr.N(fmt.Sprint(i)), "v": attr.S(strings.Repeat("x", i)),
		}})
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = mustOpen(t, Options{Dir: dir})
	for i := range 50 {
		out, err := db.GetItem(&dynamo.GetItemInput{TableName: "tbl1", Key: attr.Item{"pk": attr.S("p"), "sk": attr.N(fmt.Sprint(i))}})
		if err != nil {
			t.Fatal(err)
		}
		if got := out.Item["v"].S; got != strings.Repeat("x", i) {
			t.Fatalf("item %d: v = %q", i, got)
		}
	}
	d, err := db.DescribeTable(&dynamo.DescribeTableInput{TableName: "tbl1"})
	if err != nil {
		t.Fatal(err)
	}
	if d.Table.ItemCount != 50 {
		t.Fatalf("ItemCount = %d, want 50", d.Table.ItemCount)
	}
}

func TestSecondOpenOfDirFails(t *testing.T) {
	dir := t.TempDir()
	mustOpen(t, Options{Dir: dir})
	_, err := Open(Options{Dir: dir})
	if err == nil || !strings.Contains(err.Error(), "in use") {
		t.Fatalf("second open: want an in-use error, got %v", err)
	}
}

func TestCountersTrackPutsAndDeletes(t *testing.T) {
	forEachStore(t, func(t *testing.T, open func() *DB) {
		db := open()
		mustCreate(t, db, "tbl1", false)
		put := func(pk, v string) {
			t.Helper()
			if _, err := db.PutItem(&dynamo.PutItemInput{TableName: "tbl1", Item: attr.Item{"pk": attr.S(pk), "v": attr.S(v)}}); err != nil {
				t.Fatal(err)
			}
		}
		put("a", "1")
		put("b", "22")
		put("a", "333") // replace: count unchanged, size grows by 2
		if _, err := db.DeleteItem(&dynamo.DeleteItemInput{TableName: "tbl1", Key: attr.Item{"pk": attr.S("b")}}); err != nil {
			t.Fatal(err)
		}
		if _, err := db.DeleteItem(&dynamo.DeleteItemInput{TableName: "tbl1", Key: attr.Item{"pk": attr.S("zz")}}); err != nil {
			t.Fatal(err)
		}
		d, err := db.DescribeTable(&dynamo.DescribeTableInput{TableName: "tbl1"})
		if err != nil {
			t.Fatal(err)
		}
		// "a" = pk(2+1) + v(1+3) = 7 bytes.
		if d.Table.ItemCount != 1 || d.Table.TableSizeBytes != 7 {
			t.Fatalf("ItemCount=%d TableSizeBytes=%d, want 1 and 7", d.Table.ItemCount, d.Table.TableSizeBytes)
		}
	})
}

func TestRecreatedTableIsEmpty(t *testing.T) {
	forEachStore(t, func(t *testing.T, open func() *DB) {
		db := open()
		mustCreate(t, db, "tbl1", false)
		if _, err := db.PutItem(&dynamo.PutItemInput{TableName: "tbl1", Item: attr.Item{"pk": attr.S("a")}}); err != nil {
			t.Fatal(err)
		}
		if _, err := db.DeleteTable(&dynamo.DeleteTableInput{TableName: "tbl1"}); err != nil {
			t.Fatal(err)
		}
		mustCreate(t, db, "tbl1", false)
		out, err := db.GetItem(&dynamo.GetItemInput{TableName: "tbl1", Key: attr.Item{"pk": attr.S("a")}})
		if err != nil {
			t.Fatal(err)
		}
		if out.Item != nil {
			t.Fatalf("re-created table sees old item %v", out.Item)
		}
		d, _ := db.DescribeTable(&dynamo.DescribeTableInput{TableName: "tbl1"})
		if d.Table.ItemCount != 0 {
			t.Fatalf("ItemCount = %d", d.Table.ItemCount)
		}
	})
}

func TestDeletionProtection(t *testing.T) {
	db := mustOpen(t, Options{InMemory: true})
	mustCreate(t, db, "tbl1", false)
	on := true
	if _, err := db.UpdateTable(&dynamo.UpdateTableInput{TableName: "tbl1", DeletionProtectionEnabled: &on}); err != nil {
		t.Fatal(err)
	}
	_, err := db.DeleteTable(&dynamo.DeleteTableInput{TableName: "tbl1"})
	wantCode(t, err, dynamo.CodeValidation, "protected against deletion")
	off := false
	if _, err := db.UpdateTable(&dynamo.UpdateTableInput{TableName: "tbl1", DeletionProtectionEnabled: &off}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.DeleteTable(&dynamo.DeleteTableInput{TableName: "tbl1"}); err != nil {
		t.Fatal(err)
	}
}

func TestCapacityUnits(t *testing.T) {
	cases := []struct {
		size       int
		consistent bool
		read       float64
		write      float64
	}{
		{0, true, 1, 1},
		{1, false, 0.5, 1},
		{1024, true, 1, 1},
		{1025, true, 1, 2},
		{4096, false, 0.5, 4},
		{4097, true, 2, 5},
		{400 * 1024, false, 50, 400},
	}
	for _, c := range cases {
		if got := readUnits(c.size, c.consistent); got != c.read {
			t.Errorf("readUnits(%d, %v) = %v, want %v", c.size, c.consistent, got, c.read)
		}
		if got := writeUnits(c.size); got != c.write {
			t.Errorf("writeUnits(%d) = %v, want %v", c.size, got, c.write)
		}
	}
}

// item1KB is a ~1 KB item of mixed attributes.
func item1KB(pk string) attr.Item {
	return attr.Item{
		"pk":      attr.S(pk),
		"name":    attr.S("a product with a reasonably long name"),
		"price":   attr.N("1234.56"),
		"stock":   attr.N("42"),
		"active":  attr.Bool(true),
		"tags":    {Type: attr.TypeSS, SS: []string{"red", "green", "blue"}},
		"payload": attr.S(strings.Repeat("z", 800)),
		"dims":    {Type: attr.TypeM, M: map[string]attr.Value{"w": attr.N("10"), "h": attr.N("20")}},
	}
}

func BenchmarkPutItem(b *testing.B) {
	db := mustOpen(b, Options{InMemory: true})
	mustCreate(b, db, "bench", false)
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
}

func BenchmarkGetItem(b *testing.B) {
	db := mustOpen(b, Options{InMemory: true})
	mustCreate(b, db, "bench", false)
	keys := make([]attr.Item, 1024)
	for i := range keys {
		pk := fmt.Sprintf("key-%d", i)
		if _, err := db.PutItem(&dynamo.PutItemInput{TableName: "bench", Item: item1KB(pk)}); err != nil {
			b.Fatal(err)
		}
		keys[i] = attr.Item{"pk": attr.S(pk)}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		out, err := db.GetItem(&dynamo.GetItemInput{TableName: "bench", Key: keys[i%len(keys)]})
		if err != nil || out.Item == nil {
			b.Fatal(err)
		}
	}
}

// The warm throughput's high-water mark is in the catalog: a table and a
// GSI lowered from 3/3 to 1/1 keep 3/3 across a restart (the
// ack-api-quirks lab, DDB-TABLE-061 and -134, recorded 2026-10-08: it
// never drops).
func TestWarmThroughputSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	db := mustOpen(t, Options{Dir: dir})
	pt := func(n int64) *dynamo.ProvisionedThroughput {
		return &dynamo.ProvisionedThroughput{ReadCapacityUnits: n, WriteCapacityUnits: n}
	}
	if _, err := db.CreateTable(&dynamo.CreateTableInput{
		TableName: "warm", ProvisionedThroughput: pt(3),
		AttributeDefinitions: []dynamo.AttributeDefinition{{AttributeName: "pk", AttributeType: "S"}, {AttributeName: "g", AttributeType: "S"}},
		KeySchema:            []dynamo.KeySchemaElement{{AttributeName: "pk", KeyType: dynamo.KeyTypeHash}},
		GlobalSecondaryIndexes: []dynamo.GlobalSecondaryIndex{{IndexName: "byg", KeySchema: []dynamo.KeySchemaElement{{AttributeName: "g", KeyType: dynamo.KeyTypeHash}},
			Projection: dynamo.Projection{ProjectionType: dynamo.ProjectionAll}, ProvisionedThroughput: pt(3)}},
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.UpdateTable(&dynamo.UpdateTableInput{TableName: "warm", ProvisionedThroughput: pt(1),
		GlobalSecondaryIndexUpdates: []dynamo.GlobalSecondaryIndexUpdate{{Update: &dynamo.UpdateGlobalSecondaryIndexAction{IndexName: "byg", ProvisionedThroughput: pt(1)}}}}); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = mustOpen(t, Options{Dir: dir})
	out, err := db.DescribeTable(&dynamo.DescribeTableInput{TableName: "warm"})
	if err != nil {
		t.Fatal(err)
	}
	want := dynamo.WarmThroughputDescription{ReadUnitsPerSecond: 3, WriteUnitsPerSecond: 3, Status: dynamo.TableStatusActive}
	if w := out.Table.WarmThroughput; w == nil || *w != want {
		t.Fatalf("table WarmThroughput after a restart: %+v, want %+v", w, want)
	}
	g := out.Table.GlobalSecondaryIndexes[0]
	if w := g.WarmThroughput; w == nil || *w != want || g.ProvisionedThroughput.ReadCapacityUnits != 1 {
		t.Fatalf("GSI WarmThroughput after a restart: %+v (throughput %+v), want %+v", w, g.ProvisionedThroughput, want)
	}
}
