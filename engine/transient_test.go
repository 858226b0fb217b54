package engine

import (
	"sync/atomic"
	"testing"
	"time"
)

// A restart in the middle of a transition ends in the right state: the
// catalog holds when the transition ends, and the status is computed from
// the clock (engine/transient.go). The answers themselves are checked,
// with their sources, in e2e/transient_test.go.
func TestTransientRestart(t *testing.T) {
	dir := t.TempDir()
	var now atomic.Int64
	now.Store(time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC).UnixNano())
	const delay = time.Minute
	open := func() *DB {
		t.Helper()
		db, err := Open(Options{Dir: dir, TransientDelay: delay, Now: func() time.Time { return time.Unix(0, now.Load()) }})
		if err != nil {
			t.Fatal(err)
		}
		return db
	}
	status := func(db *DB, name string) string {
		t.Helper()
		out, err := db.DescribeTable(&DescribeTableInput{TableName: name})
		if err != nil {
			return err.Error()
		}
		return out.Table.TableStatus
	}
	create := func(db *DB, name string) {
		t.Helper()
		if _, err := db.CreateTable(&CreateTableInput{
			TableName:            name,
			BillingMode:          BillingModePayPerRequest,
			AttributeDefinitions: []AttributeDefinition{{AttributeName: "pk", AttributeType: "S"}},
			KeySchema:            []KeySchemaElement{{AttributeName: "pk", KeyType: KeyTypeHash}},
		}); err != nil {
			t.Fatal(err)
		}
	}

	db := open()
	create(db, "creating")
	create(db, "deleting")
	now.Add(int64(delay))
	if _, err := db.DeleteTable(&DeleteTableInput{TableName: "deleting"}); err != nil {
		t.Fatal(err)
	}
	create(db, "creating2")
	db.Close()

	db = open()
	if got := status(db, "creating2"); got != TableStatusCreating {
		t.Fatalf("after a restart mid-CREATING: %s", got)
	}
	if got := status(db, "deleting"); got != TableStatusDeleting {
		t.Fatalf("after a restart mid-DELETING: %s", got)
	}
	if got := status(db, "creating"); got != TableStatusActive {
		t.Fatalf("a table created before: %s", got)
	}
	db.Close()

	now.Add(int64(delay))
	db = open()
	defer db.Close()
	if got := status(db, "creating2"); got != TableStatusActive {
		t.Fatalf("after a restart past CREATING: %s", got)
	}
	if got := status(db, "deleting"); got != "ResourceNotFoundException: Requested resource not found: Table: deleting not found" {
		t.Fatalf("after a restart past DELETING: %s", got)
	}
	// Open dropped the deleted table's catalog entry.
	if _, ok := (*db.tables.Load())["deleting"]; ok {
		t.Fatal("the deleted table's entry survived the restart")
	}
	out, err := db.ListTables(&ListTablesInput{})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.TableNames) != 2 {
		t.Fatalf("ListTables: %v", out.TableNames)
	}
}
