package engine

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/internal/keys"
)

// ttlClock is a settable clock for Options.Now, safe for the background
// goroutines that read it.
type ttlClock struct {
	mu sync.Mutex
	t  time.Time
}

func newTTLClock() *ttlClock {
	return &ttlClock{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
}

func (c *ttlClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *ttlClock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func (c *ttlClock) unix() int64 { return c.Now().Unix() }

// openTTL opens an in-memory DB on clk with the background sweeper off
// (tests sweep with SweepExpired) and the given change cooldown.
func openTTL(t testing.TB, clk *ttlClock, cooldown time.Duration) *DB {
	t.Helper()
	return mustOpen(t, Options{InMemory: true, Now: clk.Now, TTLSweepInterval: -1, TTLChangeCooldown: cooldown})
}

func setTTL(t testing.TB, db *DB, table string, enabled bool, name string) {
	t.Helper()
	if _, err := db.UpdateTimeToLive(&dynamo.UpdateTimeToLiveInput{
		TableName:               table,
		TimeToLiveSpecification: &dynamo.TimeToLiveSpecification{Enabled: enabled, AttributeName: name},
	}); err != nil {
		t.Fatalf("UpdateTimeToLive(%v, %q): %v", enabled, name, err)
	}
}

func updateTTL(db *DB, table string, enabled bool, name string) error {
	_, err := db.UpdateTimeToLive(&dynamo.UpdateTimeToLiveInput{
		TableName:               table,
		TimeToLiveSpecification: &dynamo.TimeToLiveSpecification{Enabled: enabled, AttributeName: name},
	})
	return err
}

func describeTTL(t testing.TB, db *DB, table string) dynamo.TimeToLiveDescription {
	t.Helper()
	out, err := db.DescribeTimeToLive(&dynamo.DescribeTimeToLiveInput{TableName: table})
	if err != nil {
		t.Fatalf("DescribeTimeToLive: %v", err)
	}
	return out.TimeToLiveDescription
}

func wantTTL(t testing.TB, db *DB, table, status, name string) {
	t.Helper()
	want := dynamo.TimeToLiveDescription{TimeToLiveStatus: status, AttributeName: name}
	if got := describeTTL(t, db, table); got != want {
		t.Fatalf("DescribeTimeToLive = %+v, want %+v", got, want)
	}
}

func ttlWantError(t testing.TB, err error, code, msg string) {
	t.Helper()
	var e *dynamo.Error
	if !errors.As(err, &e) {
		t.Fatalf("want %s %q, got %v", code, msg, err)
	}
	if e.Code != code || e.Message != msg {
		t.Fatalf("want %s %q, got %s %q", code, msg, e.Code, e.Message)
	}
}

func ttlPut(t testing.TB, db *DB, table string, it attr.Item) {
	t.Helper()
	if _, err := db.PutItem(&dynamo.PutItemInput{TableName: table, Item: it}); err != nil {
		t.Fatalf("put %v: %v", it, err)
	}
}

func ttlExists(t testing.TB, db *DB, table string, key attr.Item) bool {
	t.Helper()
	out, err := db.GetItem(&dynamo.GetItemInput{TableName: table, Key: key})
	if err != nil {
		t.Fatalf("get %v: %v", key, err)
	}
	return out.Item != nil
}

func ttlSweep(t testing.TB, db *DB) int {
	t.Helper()
	n, err := db.SweepExpired()
	if err != nil {
		t.Fatalf("SweepExpired: %v", err)
	}
	return n
}

func ttlItemCount(t testing.TB, db *DB, table string) int64 {
	t.Helper()
	out, err := db.DescribeTable(&dynamo.DescribeTableInput{TableName: table})
	if err != nil {
		t.Fatal(err)
	}
	return out.Table.ItemCount
}

func ttlNum(n int64) attr.Value { return attr.N(strconv.FormatInt(n, 10)) }

func TestTTLEnableDisableDescribe(t *testing.T) {
	clk := newTTLClock()
	db := openTTL(t, clk, 0) // DynamoDB's one-hour cooldown
	mustCreate(t, db, "ttl1", false)

	wantTTL(t, db, "ttl1", "DISABLED", "")

	out, err := db.UpdateTimeToLive(&dynamo.UpdateTimeToLiveInput{
		TableName:               "ttl1",
		TimeToLiveSpecification: &dynamo.TimeToLiveSpecification{Enabled: true, AttributeName: "exp"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := (dynamo.TimeToLiveSpecification{Enabled: true, AttributeName: "exp"}); out.TimeToLiveSpecification != want {
		t.Fatalf("UpdateTimeToLive output = %+v, want %+v", out.TimeToLiveSpecification, want)
	}
	wantTTL(t, db, "ttl1", "ENABLED", "exp")

	// The state checks come before the cooldown, which is still running.
	const code = dynamo.CodeValidation
	ttlWantError(t, updateTTL(db, "ttl1", true, "exp"), code, "TimeToLive is already enabled")
	ttlWantError(t, updateTTL(db, "ttl1", true, "other"), code, "TimeToLive is active on a different AttributeName: current AttributeName is exp")
	ttlWantError(t, updateTTL(db, "ttl1", false, "other"), code, "TimeToLive is active on a different AttributeName: current AttributeName is exp")
	ttlWantError(t, updateTTL(db, "ttl1", false, "exp"), code, "Time to live has been modified multiple times within a fixed interval")

	clk.Add(time.Hour - time.Second)
	ttlWantError(t, updateTTL(db, "ttl1", false, "exp"), code, "Time to live has been modified multiple times within a fixed interval")
	clk.Add(time.Second)
	setTTL(t, db, "ttl1", false, "exp")
	// A disabled TTL shows no attribute, as on DynamoDB.
	wantTTL(t, db, "ttl1", "DISABLED", "")

	ttlWantError(t, updateTTL(db, "ttl1", false, "exp"), code, "TimeToLive is already disabled")
	ttlWantError(t, updateTTL(db, "ttl1", false, "other"), code, "TimeToLive is already disabled")
	ttlWantError(t, updateTTL(db, "ttl1", true, "other"), code, "Time to live has been modified multiple times within a fixed interval")
	wantTTL(t, db, "ttl1", "DISABLED", "")

	clk.Add(time.Hour)
	setTTL(t, db, "ttl1", true, "other") // a new attribute after a disable
	wantTTL(t, db, "ttl1", "ENABLED", "other")

	// The table's ARN names it too; the partition key is a valid TTL
	// attribute (DynamoDB accepts it).
	arn := "arn:aws:dynamodb:us-east-1:" + DefaultAccountID + ":table/ttl1"
	wantTTL(t, db, arn, "ENABLED", "other")
	clk.Add(time.Hour)
	setTTL(t, db, arn, false, "other")
	clk.Add(time.Hour)
	setTTL(t, db, "ttl1", true, "pk")
	wantTTL(t, db, "ttl1", "ENABLED", "pk")
}

func TestTTLCooldownOption(t *testing.T) {
	clk := newTTLClock()
	db := openTTL(t, clk, -1) // never refuses
	mustCreate(t, db, "free", false)
	for i := range 3 {
		setTTL(t, db, "free", true, fmt.Sprint("a", i))
		setTTL(t, db, "free", false, fmt.Sprint("a", i))
	}

	db2 := openTTL(t, clk, 10*time.Minute)
	mustCreate(t, db2, "short", false)
	setTTL(t, db2, "short", true, "exp")
	clk.Add(9 * time.Minute)
	ttlWantError(t, updateTTL(db2, "short", false, "exp"), dynamo.CodeValidation, "Time to live has been modified multiple times within a fixed interval")
	clk.Add(time.Minute)
	setTTL(t, db2, "short", false, "exp")
}

func TestTTLValidation(t *testing.T) {
	clk := newTTLClock()
	db := openTTL(t, clk, 0)
	mustCreate(t, db, "tbl", false)
	const code = dynamo.CodeValidation
	spec := &dynamo.TimeToLiveSpecification{Enabled: true, AttributeName: "exp"}
	long := strings.Repeat("a", 256)

	_, err := db.UpdateTimeToLive(&dynamo.UpdateTimeToLiveInput{NoTableName: true, TimeToLiveSpecification: spec})
	ttlWantError(t, err, code, dynamo.MsgTableNameRequired)
	_, err = db.UpdateTimeToLive(&dynamo.UpdateTimeToLiveInput{TableName: "tbl"})
	ttlWantError(t, err, code, "1 validation error detected: Value null at 'timeToLiveSpecification' failed to satisfy constraint: Member must not be null")
	_, err = db.UpdateTimeToLive(&dynamo.UpdateTimeToLiveInput{TableName: "tbl", TimeToLiveSpecification: &dynamo.TimeToLiveSpecification{Enabled: true, NoAttributeName: true}})
	ttlWantError(t, err, code, "1 validation error detected: Value null at 'timeToLiveSpecification.attributeName' failed to satisfy constraint: Member must not be null")
	_, err = db.UpdateTimeToLive(&dynamo.UpdateTimeToLiveInput{TableName: "tbl", TimeToLiveSpecification: &dynamo.TimeToLiveSpecification{Enabled: true}})
	ttlWantError(t, err, code, "1 validation error detected: Value '' at 'timeToLiveSpecification.attributeName' failed to satisfy constraint: Member must have length greater than or equal to 1")
	_, err = db.UpdateTimeToLive(&dynamo.UpdateTimeToLiveInput{TableName: "tbl", TimeToLiveSpecification: &dynamo.TimeToLiveSpecification{Enabled: true, AttributeName: long}})
	ttlWantError(t, err, code, "1 validation error detected: Value '"+long+"' at 'timeToLiveSpecification.attributeName' failed to satisfy constraint: Member must have length less than or equal to 255")
	_, err = db.UpdateTimeToLive(&dynamo.UpdateTimeToLiveInput{TableName: "ab", TimeToLiveSpecification: &dynamo.TimeToLiveSpecification{Enabled: false, AttributeName: long}})
	ttlWantError(t, err, code, "2 validation errors detected: Value 'ab' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 3; "+
		"Value '"+long+"' at 'timeToLiveSpecification.attributeName' failed to satisfy constraint: Member must have length less than or equal to 255")
	// 255 characters is the limit, not past it.
	setTTL(t, db, "tbl", true, long[:255])
	wantTTL(t, db, "tbl", "ENABLED", long[:255])

	_, err = db.DescribeTimeToLive(&dynamo.DescribeTimeToLiveInput{NoTableName: true})
	ttlWantError(t, err, code, dynamo.MsgTableNameRequired)
	_, err = db.DescribeTimeToLive(&dynamo.DescribeTimeToLiveInput{TableName: "a$c"})
	ttlWantError(t, err, code, "1 validation error detected: Value 'a$c' at 'tableName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+")

	_, err = db.UpdateTimeToLive(&dynamo.UpdateTimeToLiveInput{TableName: "nope", TimeToLiveSpecification: spec})
	ttlWantError(t, err, dynamo.CodeResourceNotFound, "Requested resource not found: Table: nope not found")
	_, err = db.DescribeTimeToLive(&dynamo.DescribeTimeToLiveInput{TableName: "nope"})
	ttlWantError(t, err, dynamo.CodeResourceNotFound, "Requested resource not found: Table: nope not found")

	db.Close()
	if _, err := db.DescribeTimeToLive(&dynamo.DescribeTimeToLiveInput{TableName: "tbl"}); !errors.Is(err, ErrClosed) {
		t.Fatalf("DescribeTimeToLive on a closed DB: %v", err)
	}
	if _, err := db.UpdateTimeToLive(&dynamo.UpdateTimeToLiveInput{TableName: "tbl", TimeToLiveSpecification: spec}); !errors.Is(err, ErrClosed) {
		t.Fatalf("UpdateTimeToLive on a closed DB: %v", err)
	}
	if _, err := db.SweepExpired(); !errors.Is(err, ErrClosed) {
		t.Fatalf("SweepExpired on a closed DB: %v", err)
	}
}

// TestTTLSweepRules pins which items a sweep deletes: Numbers at or
// before now, no more than five years old; nothing else.
func TestTTLSweepRules(t *testing.T) {
	clk := newTTLClock()
	db := openTTL(t, clk, 0)
	mustCreate(t, db, "rules", true)
	mustCreate(t, db, "nottl", false)
	setTTL(t, db, "rules", true, "exp")
	now := clk.unix()
	fiveYears := clk.Now().UTC().AddDate(-5, 0, 0).Unix()

	cases := []struct {
		name    string
		exp     *attr.Value // nil: no attribute
		deleted bool
	}{
		{"past", ttlPtr(ttlNum(now - 10)), true},
		{"now", ttlPtr(ttlNum(now)), true},
		{"past-fraction", ttlPtr(attr.N(fmt.Sprint(now-1, ".999"))), true},
		{"future-fraction", ttlPtr(attr.N(fmt.Sprint(now, ".001"))), false},
		{"future", ttlPtr(ttlNum(now + 10)), false},
		{"five-years", ttlPtr(ttlNum(fiveYears)), true},
		{"over-five-years", ttlPtr(ttlNum(fiveYears - 1)), false},
		{"zero", ttlPtr(ttlNum(0)), false},
		{"negative", ttlPtr(ttlNum(-5)), false},
		{"string", ttlPtr(attr.S(strconv.FormatInt(now-10, 10))), false},
		{"number-set", ttlPtr(attr.Value{Type: attr.TypeNS, SS: []string{strconv.FormatInt(now-10, 10)}}), false},
		{"list", ttlPtr(attr.Value{Type: attr.TypeL, L: []attr.Value{ttlNum(now - 10)}}), false},
		{"bool", ttlPtr(attr.Value{Type: attr.TypeBOOL, Bool: true}), false},
		{"absent", nil, false},
	}
	for i, c := range cases {
		it := attr.Item{"pk": attr.S(c.name), "sk": ttlNum(int64(i)), "a": attr.S("before"), "z": attr.S("after")}
		if c.exp != nil {
			it["exp"] = *c.exp
		}
		ttlPut(t, db, "rules", it)
	}
	// The attribute only counts at the top level, and only in its table.
	ttlPut(t, db, "rules", attr.Item{"pk": attr.S("nested"), "sk": ttlNum(99), "m": attr.Value{Type: attr.TypeM, M: map[string]attr.Value{"exp": ttlNum(now - 10)}}})
	ttlPut(t, db, "nottl", attr.Item{"pk": attr.S("other-table"), "exp": ttlNum(now - 10)})

	// Expired items stay readable until a sweep deletes them.
	for i, c := range cases {
		if !ttlExists(t, db, "rules", attr.Item{"pk": attr.S(c.name), "sk": ttlNum(int64(i))}) {
			t.Fatalf("%s: not readable before the sweep", c.name)
		}
	}
	scan, err := db.Scan(&dynamo.ScanInput{TableName: "rules"})
	if err != nil || scan.Count != len(cases)+1 {
		t.Fatalf("scan before the sweep: %d items, %v", scan.Count, err)
	}

	want := 0
	for _, c := range cases {
		if c.deleted {
			want++
		}
	}
	if n := ttlSweep(t, db); n != want {
		t.Fatalf("sweep deleted %d items, want %d", n, want)
	}
	for i, c := range cases {
		if got := ttlExists(t, db, "rules", attr.Item{"pk": attr.S(c.name), "sk": ttlNum(int64(i))}); got == c.deleted {
			t.Errorf("%s: exists=%v after the sweep, want %v", c.name, got, !c.deleted)
		}
	}
	if !ttlExists(t, db, "rules", attr.Item{"pk": attr.S("nested"), "sk": ttlNum(99)}) {
		t.Error("an item with the attribute nested in a map was deleted")
	}
	if !ttlExists(t, db, "nottl", attr.Item{"pk": attr.S("other-table")}) {
		t.Error("an item of a table without TTL was deleted")
	}
	if got, want := ttlItemCount(t, db, "rules"), int64(len(cases)+1-want); got != want {
		t.Errorf("ItemCount after the sweep = %d, want %d", got, want)
	}
	if n := ttlSweep(t, db); n != 0 {
		t.Fatalf("a second sweep deleted %d items", n)
	}

	// Time passes: the future items expire, the old ones stay ignored.
	clk.Add(20 * time.Second)
	if n := ttlSweep(t, db); n != 2 {
		t.Fatalf("sweep after 20s deleted %d items, want 2 (future, future-fraction)", n)
	}
}

func ttlPtr[T any](v T) *T { return &v }

// TestTTLSweepIndexes checks that a swept item leaves its GSI, through
// the normal write path.
func TestTTLSweepIndexes(t *testing.T) {
	clk := newTTLClock()
	db := openTTL(t, clk, 0)
	_, err := db.CreateTable(&dynamo.CreateTableInput{
		TableName:   "idx",
		BillingMode: dynamo.BillingModePayPerRequest,
		AttributeDefinitions: []dynamo.AttributeDefinition{
			{AttributeName: "pk", AttributeType: "S"}, {AttributeName: "g", AttributeType: "S"},
		},
		KeySchema: []dynamo.KeySchemaElement{{AttributeName: "pk", KeyType: dynamo.KeyTypeHash}},
		GlobalSecondaryIndexes: []dynamo.GlobalSecondaryIndex{{
			IndexName:  "byg",
			KeySchema:  []dynamo.KeySchemaElement{{AttributeName: "g", KeyType: dynamo.KeyTypeHash}},
			Projection: dynamo.Projection{ProjectionType: dynamo.ProjectionAll},
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	setTTL(t, db, "idx", true, "exp")
	now := clk.unix()
	for i := range 10 {
		exp := now + 100
		if i%2 == 0 {
			exp = now - 100
		}
		ttlPut(t, db, "idx", attr.Item{"pk": attr.S(fmt.Sprint("p", i)), "g": attr.S("G"), "exp": ttlNum(exp)})
	}
	query := func() []attr.Item {
		t.Helper()
		out, err := db.Query(&dynamo.QueryInput{
			TableName: "idx", IndexName: "byg", KeyConditionExpression: "g = :g",
			ExpressionAttributeValues: attr.Item{":g": attr.S("G")},
		})
		if err != nil {
			t.Fatal(err)
		}
		return out.Items
	}
	if got := len(query()); got != 10 {
		t.Fatalf("index has %d entries before the sweep, want 10", got)
	}
	if n := ttlSweep(t, db); n != 5 {
		t.Fatalf("sweep deleted %d, want 5", n)
	}
	items := query()
	if len(items) != 5 {
		t.Fatalf("index has %d entries after the sweep, want 5", len(items))
	}
	for _, it := range items {
		if attr.CompareNumbers(it["exp"].S, strconv.FormatInt(now, 10)) <= 0 {
			t.Errorf("expired item %v still in the index", it)
		}
	}
	d, err := db.DescribeTable(&dynamo.DescribeTableInput{TableName: "idx"})
	if err != nil {
		t.Fatal(err)
	}
	if d.Table.ItemCount != 5 || len(d.Table.GlobalSecondaryIndexes) != 1 || d.Table.GlobalSecondaryIndexes[0].ItemCount != 5 {
		t.Fatalf("counts after the sweep: table %d, index %+v", d.Table.ItemCount, d.Table.GlobalSecondaryIndexes)
	}
}

// TestTTLSweepRechecksUnderLock plays the race between the sweeper's
// listing and its delete: an item listed as expired and then updated
// (a new TTL, or the attribute removed) is left alone.
func TestTTLSweepRechecksUnderLock(t *testing.T) {
	clk := newTTLClock()
	db := openTTL(t, clk, -1)
	mustCreate(t, db, "race", false)
	setTTL(t, db, "race", true, "exp")
	now := clk.unix()
	for _, pk := range []string{"renewed", "cleared", "deleted", "expired", "disabled"} {
		ttlPut(t, db, "race", attr.Item{"pk": attr.S(pk), "exp": ttlNum(now - 1)})
	}
	tb := lookupOK(t, db, "race")
	w := db.ttlWindow(clk.Now())
	prefixRows := func() map[string][]byte {
		rows, next, err := db.ttlCandidates("exp", keys.IndexPrefix(tb.meta.ID, keys.BaseIndexID), keys.PrefixEnd(keys.IndexPrefix(tb.meta.ID, keys.BaseIndexID)), w)
		if err != nil || next != nil {
			t.Fatalf("ttlCandidates: %v (next %x)", err, next)
		}
		byPK := map[string][]byte{}
		for _, r := range rows {
			k, err := tb.keyFromRow(r)
			if err != nil {
				t.Fatal(err)
			}
			byPK[k.pk.S] = r
		}
		return byPK
	}
	rows := prefixRows()
	if len(rows) != 5 {
		t.Fatalf("listed %d candidates, want 5", len(rows))
	}

	// Between the listing and the delete:
	if _, err := db.UpdateItem(&dynamo.UpdateItemInput{TableName: "race", Key: attr.Item{"pk": attr.S("renewed")},
		UpdateExpression: "SET exp = :e", ExpressionAttributeValues: attr.Item{":e": ttlNum(now + 3600)}}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.UpdateItem(&dynamo.UpdateItemInput{TableName: "race", Key: attr.Item{"pk": attr.S("cleared")},
		UpdateExpression: "REMOVE exp"}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.DeleteItem(&dynamo.DeleteItemInput{TableName: "race", Key: attr.Item{"pk": attr.S("deleted")}}); err != nil {
		t.Fatal(err)
	}
	for _, pk := range []string{"renewed", "cleared", "deleted"} {
		ok, err := db.expireRow("race", tb.meta.ID, rows[pk], w, nil)
		if err != nil || ok {
			t.Fatalf("%s: expireRow = %v, %v; want false", pk, ok, err)
		}
	}
	if !ttlExists(t, db, "race", attr.Item{"pk": attr.S("renewed")}) || !ttlExists(t, db, "race", attr.Item{"pk": attr.S("cleared")}) {
		t.Fatal("an item updated after the listing was deleted")
	}
	if ok, err := db.expireRow("race", tb.meta.ID, rows["expired"], w, nil); err != nil || !ok {
		t.Fatalf("expired: expireRow = %v, %v; want true", ok, err)
	}
	// TTL turned off between the listing and the delete.
	setTTL(t, db, "race", false, "exp")
	if ok, err := db.expireRow("race", tb.meta.ID, rows["disabled"], w, nil); err != nil || ok {
		t.Fatalf("disabled: expireRow = %v, %v; want false", ok, err)
	}
	// The table deleted and re-created under the same name.
	if _, err := db.DeleteTable(&dynamo.DeleteTableInput{TableName: "race"}); err != nil {
		t.Fatal(err)
	}
	mustCreate(t, db, "race", false)
	setTTL(t, db, "race", true, "exp")
	ttlPut(t, db, "race", attr.Item{"pk": attr.S("disabled"), "exp": ttlNum(now - 1)})
	if ok, err := db.expireRow("race", tb.meta.ID, rows["disabled"], w, nil); err != nil || ok {
		t.Fatalf("re-created table: expireRow = %v, %v; want false", ok, err)
	}
	if !ttlExists(t, db, "race", attr.Item{"pk": attr.S("disabled")}) {
		t.Fatal("the re-created table's item was deleted through the old table")
	}
}

// TestTTLDisableStopsSweeping: items are not swept while TTL is off, and
// are once it is on again.
func TestTTLDisableStopsSweeping(t *testing.T) {
	clk := newTTLClock()
	db := openTTL(t, clk, -1)
	mustCreate(t, db, "onoff", false)
	setTTL(t, db, "onoff", true, "exp")
	ttlPut(t, db, "onoff", attr.Item{"pk": attr.S("a"), "exp": ttlNum(clk.unix() - 1)})
	setTTL(t, db, "onoff", false, "exp")
	if n := ttlSweep(t, db); n != 0 || !ttlExists(t, db, "onoff", attr.Item{"pk": attr.S("a")}) {
		t.Fatalf("swept %d items with TTL disabled", n)
	}
	setTTL(t, db, "onoff", true, "other")
	if n := ttlSweep(t, db); n != 0 {
		t.Fatalf("swept %d items by an attribute no longer enabled", n)
	}
	setTTL(t, db, "onoff", false, "other")
	setTTL(t, db, "onoff", true, "exp")
	if n := ttlSweep(t, db); n != 1 || ttlExists(t, db, "onoff", attr.Item{"pk": attr.S("a")}) {
		t.Fatalf("swept %d items with TTL enabled again, want 1", n)
	}
}

// TestTTLSurvivesReopen: the setting is in the catalog on disk.
func TestTTLSurvivesReopen(t *testing.T) {
	clk := newTTLClock()
	dir := t.TempDir()
	opts := Options{Dir: dir, Now: clk.Now, TTLSweepInterval: -1}
	db, err := Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	mustCreate(t, db, "disk", false)
	setTTL(t, db, "disk", true, "exp")
	ttlPut(t, db, "disk", attr.Item{"pk": attr.S("old"), "exp": ttlNum(clk.unix() + 60)})
	ttlPut(t, db, "disk", attr.Item{"pk": attr.S("new"), "exp": ttlNum(clk.unix() + 3600)})
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	clk.Add(time.Minute)
	db = mustOpen(t, opts)
	wantTTL(t, db, "disk", "ENABLED", "exp")
	// The last change's time survives too: the cooldown still runs.
	ttlWantError(t, updateTTL(db, "disk", false, "exp"), dynamo.CodeValidation, "Time to live has been modified multiple times within a fixed interval")
	if n := ttlSweep(t, db); n != 1 {
		t.Fatalf("sweep after reopen deleted %d, want 1", n)
	}
	if ttlExists(t, db, "disk", attr.Item{"pk": attr.S("old")}) || !ttlExists(t, db, "disk", attr.Item{"pk": attr.S("new")}) {
		t.Fatal("wrong items swept after reopen")
	}
}

// TestTTLSweepManyChunks sweeps a table larger than one chunk, with a
// sort key, so the walk resumes between chunks.
func TestTTLSweepManyChunks(t *testing.T) {
	clk := newTTLClock()
	db := openTTL(t, clk, 0)
	mustCreate(t, db, "big", true)
	setTTL(t, db, "big", true, "exp")
	now := clk.unix()
	const n = 3*ttlSweepChunk + 17
	want := 0
	for i := range n {
		exp := now + 1000
		if i%3 == 0 {
			exp = now - 1000
			want++
		}
		ttlPut(t, db, "big", attr.Item{"pk": attr.S(fmt.Sprint("p", i%7)), "sk": ttlNum(int64(i)), "exp": ttlNum(exp)})
	}
	if got := ttlSweep(t, db); got != want {
		t.Fatalf("swept %d, want %d", got, want)
	}
	if got := ttlItemCount(t, db, "big"); got != int64(n-want) {
		t.Fatalf("ItemCount %d, want %d", got, n-want)
	}
	if got := ttlSweep(t, db); got != 0 {
		t.Fatalf("second sweep deleted %d", got)
	}
}

// TestTTLBackgroundSweeper: the sweeper runs on its own, and Close stops
// it.
func TestTTLBackgroundSweeper(t *testing.T) {
	clk := newTTLClock()
	// Each sweep reads the clock; nothing else does while the test waits.
	var reads atomic.Int64
	now := func() time.Time { reads.Add(1); return clk.Now() }
	db, err := Open(Options{InMemory: true, Now: now, TTLSweepInterval: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	mustCreate(t, db, "bgs", false)
	setTTL(t, db, "bgs", true, "exp")
	ttlPut(t, db, "bgs", attr.Item{"pk": attr.S("a"), "exp": ttlNum(clk.unix() + 2)})
	// Let the sweeper run a few times before the item expires.
	for from, deadline := reads.Load(), time.Now().Add(time.Minute); reads.Load() < from+3; {
		if time.Now().After(deadline) {
			t.Fatal("the background sweeper did not run")
		}
		time.Sleep(time.Millisecond)
	}
	if !ttlExists(t, db, "bgs", attr.Item{"pk": attr.S("a")}) {
		t.Fatal("an item was swept before it expired")
	}
	clk.Add(2 * time.Second)
	deadline := time.Now().Add(time.Minute)
	for ttlExists(t, db, "bgs", attr.Item{"pk": attr.S("a")}) {
		if time.Now().After(deadline) {
			t.Fatal("the background sweeper did not delete the expired item")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestTTLStreamRecords: a TTL delete's REMOVE record carries the service
// identity; a user's delete has none.
func TestTTLStreamRecords(t *testing.T) {
	clk := newTTLClock()
	db := openTTL(t, clk, 0)
	out, err := db.CreateTable(&dynamo.CreateTableInput{
		TableName:            "str",
		BillingMode:          dynamo.BillingModePayPerRequest,
		AttributeDefinitions: []dynamo.AttributeDefinition{{AttributeName: "pk", AttributeType: "S"}},
		KeySchema:            []dynamo.KeySchemaElement{{AttributeName: "pk", KeyType: dynamo.KeyTypeHash}},
		StreamSpecification:  &dynamo.StreamSpecification{StreamEnabled: true, StreamViewType: dynamo.ViewNewAndOldImages},
	})
	if err != nil {
		t.Fatal(err)
	}
	arn := out.TableDescription.LatestStreamArn
	setTTL(t, db, "str", true, "exp")
	exp := ttlNum(clk.unix() - 1)
	ttlPut(t, db, "str", attr.Item{"pk": attr.S("user"), "exp": exp})
	ttlPut(t, db, "str", attr.Item{"pk": attr.S("ttl"), "exp": exp})
	if _, err := db.DeleteItem(&dynamo.DeleteItemInput{TableName: "str", Key: attr.Item{"pk": attr.S("user")}}); err != nil {
		t.Fatal(err)
	}
	if n := ttlSweep(t, db); n != 1 {
		t.Fatalf("swept %d, want 1", n)
	}

	recs := newFollower(arn).poll(t, db)
	var removes []dynamo.Record
	for _, r := range recs {
		if r.EventName == dynamo.EventRemove {
			removes = append(removes, r)
		}
	}
	if len(recs) != 4 || len(removes) != 2 {
		t.Fatalf("got %d records (%d REMOVE), want 2 INSERT and 2 REMOVE: %+v", len(recs), len(removes), recs)
	}
	user, ttl := removes[0], removes[1]
	if user.Dynamodb.Keys["pk"].S != "user" || ttl.Dynamodb.Keys["pk"].S != "ttl" {
		t.Fatalf("REMOVE records out of order: %+v", removes)
	}
	if user.UserIdentity != nil {
		t.Errorf("user delete has UserIdentity %+v", *user.UserIdentity)
	}
	want := dynamo.Identity{PrincipalId: "dynamodb.amazonaws.com", Type: "Service"}
	if ttl.UserIdentity == nil || *ttl.UserIdentity != want {
		t.Errorf("TTL delete UserIdentity = %v, want %+v", ttl.UserIdentity, want)
	}
	if !attr.Equal(attr.Value{Type: attr.TypeM, M: ttl.Dynamodb.OldImage}, attr.Value{Type: attr.TypeM, M: attr.Item{"pk": attr.S("ttl"), "exp": exp}}) {
		t.Errorf("TTL delete OldImage = %v", ttl.Dynamodb.OldImage)
	}
	if ttl.Dynamodb.NewImage != nil {
		t.Errorf("TTL delete NewImage = %v", ttl.Dynamodb.NewImage)
	}
}

func BenchmarkSweepExpired(b *testing.B) {
	clk := newTTLClock()
	db := openTTL(b, clk, 0)
	mustCreate(b, db, "bench", false)
	setTTL(b, db, "bench", true, "exp")
	now := clk.unix()
	const items, expiredEvery = 100_000, 100
	item := func(i int, exp int64) attr.Item {
		return attr.Item{
			"pk": attr.S(fmt.Sprintf("user#%08d", i)), "exp": ttlNum(exp),
			"name": attr.S("some name"), "count": ttlNum(int64(i)), "tags": attr.Value{Type: attr.TypeSS, SS: []string{"a", "b"}},
		}
	}
	for i := range items {
		exp := now + 3600
		if i%expiredEvery == 0 {
			exp = now - 1
		}
		ttlPut(b, db, "bench", item(i, exp))
	}
	b.ResetTimer()
	for range b.N {
		n := ttlSweep(b, db)
		if n != items/expiredEvery {
			b.Fatalf("swept %d, want %d", n, items/expiredEvery)
		}
		b.StopTimer()
		for i := 0; i < items; i += expiredEvery {
			ttlPut(b, db, "bench", item(i, now-1))
		}
		b.StartTimer()
	}
}
