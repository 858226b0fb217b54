package engine

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
)

// fakeClock is a clock a test moves by hand.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time          { return c.t }
func (c *fakeClock) advance(d time.Duration) { c.t = c.t.Add(d) }

func openEnforced(t *testing.T, clk *fakeClock) *DB {
	return mustOpen(t, Options{InMemory: true, EnforceCapacity: true, CapacityNow: clk.now})
}

func createProvisioned(t *testing.T, db *DB, name string, rcu, wcu int64) {
	t.Helper()
	if _, err := db.CreateTable(&dynamo.CreateTableInput{
		TableName:             name,
		AttributeDefinitions:  []dynamo.AttributeDefinition{{AttributeName: "pk", AttributeType: "S"}},
		KeySchema:             []dynamo.KeySchemaElement{{AttributeName: "pk", KeyType: dynamo.KeyTypeHash}},
		ProvisionedThroughput: &dynamo.ProvisionedThroughput{ReadCapacityUnits: rcu, WriteCapacityUnits: wcu},
	}); err != nil {
		t.Fatal(err)
	}
}

// throttleReasons returns err's code and reasons, or "" for nil.
func throttleReasons(t *testing.T, err error) (string, []string) {
	t.Helper()
	if err == nil {
		return "", nil
	}
	var e *dynamo.Error
	if !errors.As(err, &e) {
		t.Fatalf("not a DynamoDB error: %v", err)
	}
	var rs []string
	for _, r := range e.ThrottlingReasons {
		rs = append(rs, r.Reason)
	}
	return e.Code, rs
}

// The token bucket of a provisioned table refills at its rate and keeps
// up to 300 seconds of unused units (engine/throttle.go).
func TestEnforcedWritesRefillAndBurst(t *testing.T) {
	clk := &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	db := openEnforced(t, clk)
	createProvisioned(t, db, "tbl", 1, 2)
	put := func() error {
		_, err := db.PutItem(&dynamo.PutItemInput{TableName: "tbl", Item: attr.Item{"pk": attr.S("a")}})
		return err
	}
	// Writes let through until the bucket is empty.
	burst := func() int {
		n := 0
		for put() == nil {
			n++
			if n > 10000 {
				t.Fatal("never throttled")
			}
		}
		return n
	}
	if n := burst(); n != 2 {
		t.Fatalf("new table: %d writes, want 2 (one second of 2 WCU)", n)
	}
	code, rs := throttleReasons(t, put())
	if code != dynamo.CodeProvisionedThroughput || strings.Join(rs, ",") != "TableWriteProvisionedThroughputExceeded" {
		t.Fatalf("got %s %v", code, rs)
	}
	// Half a second refills half of a write's least cost: not enough.
	clk.advance(250 * time.Millisecond)
	if err := put(); err == nil {
		t.Fatal("a write passed with half a unit in the bucket")
	}
	clk.advance(250 * time.Millisecond)
	if err := put(); err != nil {
		t.Fatalf("a write with one unit in the bucket: %v", err)
	}
	clk.advance(10 * time.Second)
	if n := burst(); n != 20 {
		t.Fatalf("after 10 s: %d writes, want 20", n)
	}
	clk.advance(time.Hour)
	if n := burst(); n != 600 {
		t.Fatalf("after an hour: %d writes, want 600 (300 s of burst)", n)
	}
	// An increase takes effect at once.
	if _, err := db.UpdateTable(&dynamo.UpdateTableInput{TableName: "tbl", ProvisionedThroughput: &dynamo.ProvisionedThroughput{ReadCapacityUnits: 1, WriteCapacityUnits: 4}}); err != nil {
		t.Fatal(err)
	}
	clk.advance(time.Second)
	if n := burst(); n != 4 {
		t.Fatalf("after raising to 4 WCU: %d writes in a second, want 4", n)
	}
	// Reads are their own bucket: 1 RCU is two eventually consistent reads.
	reads := 0
	for {
		_, err := db.GetItem(&dynamo.GetItemInput{TableName: "tbl", Key: attr.Item{"pk": attr.S("a")}})
		if err != nil {
			if code, rs := throttleReasons(t, err); code != dynamo.CodeProvisionedThroughput || strings.Join(rs, ",") != "TableReadProvisionedThroughputExceeded" {
				t.Fatalf("read: %s %v", code, rs)
			}
			break
		}
		reads++
	}
	if reads != 2 {
		t.Fatalf("%d eventually consistent reads, want 2", reads)
	}
	if got := db.Meters().Throttled[ThrottleKey{Table: "tbl", Reason: "TableWriteProvisionedThroughputExceeded"}]; got != 6 {
		t.Fatalf("throttled writes counted %d, want 6 (the four bursts' ends and two more)", got)
	}
}

// Without EnforceCapacity nothing is throttled, and the tag turns it on
// for one table.
func TestCapacityOffByDefault(t *testing.T) {
	db := mustOpen(t, Options{InMemory: true})
	createProvisioned(t, db, "tbl", 1, 1)
	for i := 0; i < 200; i++ {
		if _, err := db.PutItem(&dynamo.PutItemInput{TableName: "tbl", Item: attr.Item{"pk": attr.S("a")}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.TagResource(&dynamo.TagResourceInput{ResourceArn: "arn:aws:dynamodb:us-east-1:" + DefaultAccountID + ":table/tbl", Tags: []dynamo.Tag{{Key: capacityTag, Value: "true"}}}); err != nil {
		t.Fatal(err)
	}
	var err error
	for i := 0; i < 1000 && err == nil; i++ {
		_, err = db.PutItem(&dynamo.PutItemInput{TableName: "tbl", Item: attr.Item{"pk": attr.S("a")}})
	}
	if code, _ := throttleReasons(t, err); code != dynamo.CodeProvisionedThroughput {
		t.Fatalf("tagged table: %v", err)
	}
}
