package engine

import (
	"fmt"
	"testing"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
)

// billSum adds ConsumedCapacity answers (with INDEXES) up per table and
// index, read or write, the way Meters should count them.
type billSum map[string]map[string]*UnitCounts // table → index ("" = table) → units

func (s billSum) add(cc *dynamo.ConsumedCapacity, write bool) {
	if cc == nil {
		return
	}
	add := func(index string, c dynamo.Capacity) {
		if s[cc.TableName] == nil {
			s[cc.TableName] = map[string]*UnitCounts{}
		}
		u := s[cc.TableName][index]
		if u == nil {
			u = &UnitCounts{}
			s[cc.TableName][index] = u
		}
		if write {
			u.WriteUnits += *c.CapacityUnits
		} else {
			u.ReadUnits += *c.CapacityUnits
		}
	}
	if cc.Table != nil {
		add("", *cc.Table)
	}
	for name, c := range cc.GlobalSecondaryIndexes {
		add(name, c)
	}
	for name, c := range cc.LocalSecondaryIndexes {
		add(name, c)
	}
}

func (s billSum) check(t *testing.T, label string, m Meters) {
	t.Helper()
	seen := 0
	for _, tm := range m.Tables {
		want := s[tm.Table]
		if w := want[""]; w == nil || *w != tm.Units {
			t.Errorf("%s: table %s meters %+v, the answers billed %+v", label, tm.Table, tm.Units, w)
		}
		seen++
		for name, got := range tm.Indexes {
			if w := want[name]; w == nil || *w != got {
				t.Errorf("%s: index %s.%s meters %+v, the answers billed %+v", label, tm.Table, name, got, w)
			}
		}
		for name, w := range want {
			if _, ok := tm.Indexes[name]; name != "" && !ok && (w.ReadUnits != 0 || w.WriteUnits != 0) {
				t.Errorf("%s: index %s.%s billed %+v but has no meter", label, tm.Table, name, w)
			}
		}
	}
	if seen != len(s) {
		t.Errorf("%s: meters for %d tables, answers billed %d", label, seen, len(s))
	}
}

// TestMetersCountWhatRequestsAreBilled runs the same reads and writes on
// two databases: one whose requests ask for ConsumedCapacity with INDEXES,
// one whose requests ask for none but which meters index writes. Both
// databases' meters must add up to exactly the bills the first one's
// answers showed, per table and per index.
func TestMetersCountWhatRequestsAreBilled(t *testing.T) {
	asked := mustOpen(t, Options{InMemory: true})
	silent := mustOpen(t, Options{InMemory: true, MeterIndexWrites: true})
	sum := billSum{}
	for _, db := range []*DB{asked, silent} {
		if _, err := db.CreateTable(&dynamo.CreateTableInput{
			TableName:   "metered",
			BillingMode: dynamo.BillingModePayPerRequest,
			AttributeDefinitions: []dynamo.AttributeDefinition{
				{AttributeName: "pk", AttributeType: "S"}, {AttributeName: "g", AttributeType: "S"}, {AttributeName: "r", AttributeType: "N"},
			},
			KeySchema: []dynamo.KeySchemaElement{{AttributeName: "pk", KeyType: dynamo.KeyTypeHash}},
			GlobalSecondaryIndexes: []dynamo.GlobalSecondaryIndex{{
				IndexName:  "byG",
				KeySchema:  []dynamo.KeySchemaElement{{AttributeName: "g", KeyType: dynamo.KeyTypeHash}, {AttributeName: "r", KeyType: dynamo.KeyTypeRange}},
				Projection: dynamo.Projection{ProjectionType: dynamo.ProjectionAll},
			}},
		}); err != nil {
			t.Fatal(err)
		}
	}
	mode := func(db *DB) string {
		if db == asked {
			return dynamo.ReturnConsumedCapacityIndexes
		}
		return ""
	}
	for _, db := range []*DB{asked, silent} {
		for i := 0; i < 6; i++ {
			it := gItem(i, "", 0)
			if i%2 == 0 {
				it = gItem(i, "even", i)
			}
			out, err := db.PutItem(&dynamo.PutItemInput{TableName: "metered", Item: it, ReturnConsumedCapacity: mode(db)})
			if err != nil {
				t.Fatal(err)
			}
			if db == asked {
				sum.add(out.ConsumedCapacity, true)
			}
		}
		up, err := db.UpdateItem(&dynamo.UpdateItemInput{
			TableName: "metered", Key: attr.Item{"pk": attr.S("item00002")},
			UpdateExpression:          "SET r = :r",
			ExpressionAttributeValues: attr.Item{":r": attr.N("100")},
			ReturnConsumedCapacity:    mode(db),
		})
		if err != nil {
			t.Fatal(err)
		}
		del, err := db.DeleteItem(&dynamo.DeleteItemInput{TableName: "metered", Key: attr.Item{"pk": attr.S("item00004")}, ReturnConsumedCapacity: mode(db)})
		if err != nil {
			t.Fatal(err)
		}
		get, err := db.GetItem(&dynamo.GetItemInput{TableName: "metered", Key: attr.Item{"pk": attr.S("item00001")}, ConsistentRead: true, ReturnConsumedCapacity: mode(db)})
		if err != nil {
			t.Fatal(err)
		}
		q, err := db.Query(&dynamo.QueryInput{
			TableName: "metered", IndexName: "byG",
			KeyConditionExpression:    "g = :g",
			ExpressionAttributeValues: attr.Item{":g": attr.S("even")},
			ReturnConsumedCapacity:    mode(db),
		})
		if err != nil {
			t.Fatal(err)
		}
		if q.Count != 2 {
			t.Fatalf("query found %d items, want 2", q.Count)
		}
		tx, err := db.TransactWriteItems(&dynamo.TransactWriteItemsInput{
			TransactItems:          []dynamo.TransactWriteItem{{Put: &dynamo.TransactPut{TableName: "metered", Item: gItem(10, "even", 10)}}},
			ReturnConsumedCapacity: mode(db),
		})
		if err != nil {
			t.Fatal(err)
		}
		if db == asked {
			sum.add(up.ConsumedCapacity, true)
			sum.add(del.ConsumedCapacity, true)
			sum.add(get.ConsumedCapacity, false)
			sum.add(q.ConsumedCapacity, false)
			for i := range tx.ConsumedCapacity {
				sum.add(&tx.ConsumedCapacity[i], true)
			}
		}
	}
	if len(sum["metered"]) != 2 || sum["metered"]["byG"].WriteUnits == 0 || sum["metered"]["byG"].ReadUnits == 0 {
		t.Fatalf("the test's requests billed %v; want table and index reads and writes", sum)
	}
	sum.check(t, "asked", asked.Meters())
	sum.check(t, "silent", silent.Meters())
}

// TestMetersCountRecordsDeletionsAndCancellations covers the counters that
// are not units: stream records written and read, transactions canceled.
func TestMetersCountRecordsDeletionsAndCancellations(t *testing.T) {
	db := mustOpen(t, Options{InMemory: true})
	arn := createStreamTable(t, db, "streamed", "NEW_IMAGE")
	for i := 0; i < 3; i++ {
		if _, err := db.PutItem(&dynamo.PutItemInput{TableName: "streamed", Item: attr.Item{"pk": attr.S(fmt.Sprint(i))}}); err != nil {
			t.Fatal(err)
		}
	}
	_, err := db.TransactWriteItems(&dynamo.TransactWriteItemsInput{TransactItems: []dynamo.TransactWriteItem{{
		ConditionCheck: &dynamo.TransactConditionCheck{TableName: "streamed", Key: attr.Item{"pk": attr.S("0")}, ConditionExpression: "attribute_not_exists(pk)"},
	}}})
	wantCode(t, err, dynamo.CodeTransactionCanceled, "ConditionalCheckFailed")
	m := db.Meters()
	if m.StreamRecordsWritten != 3 {
		t.Errorf("StreamRecordsWritten = %d, want 3", m.StreamRecordsWritten)
	}
	if m.TransactionsCanceled != 1 {
		t.Errorf("TransactionsCanceled = %d, want 1", m.TransactionsCanceled)
	}
	read := len(newFollower(arn).poll(t, db))
	if read != 3 {
		t.Fatalf("read %d records, want 3", read)
	}
	if m := db.Meters(); m.StreamRecordsRead != 3 {
		t.Errorf("StreamRecordsRead = %d, want 3", m.StreamRecordsRead)
	}
}
