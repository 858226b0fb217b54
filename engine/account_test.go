package engine

import (
	"strings"
	"testing"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
)

// TestAccountOfOldData opens a data directory as dynago left it before
// the account was stored with the data and before DefaultAccountID
// replaced LegacyAccountID: its tables, streams and ARNs were written
// with 000000000000, and no account row exists. Opened again with the
// default account, it keeps 000000000000: the table's ARN, its stream's
// ARN (stored in the stream's definition) and a tag operation on the old
// ARN all still work, and the account is stored for the next opening.
// A new directory gets DefaultAccountID, and an account given as an
// option wins over the stored one.
func TestAccountOfOldData(t *testing.T) {
	dir := t.TempDir()
	old, err := Open(Options{Dir: dir, AccountID: LegacyAccountID})
	if err != nil {
		t.Fatal(err)
	}
	streamARN := createStreamTable(t, old, "legacy", "NEW_IMAGE")
	if _, err := old.PutItem(&dynamo.PutItemInput{TableName: "legacy", Item: attr.Item{"pk": attr.S("a")}}); err != nil {
		t.Fatal(err)
	}
	// What the old code left: no account row.
	b := old.store.NewBatch()
	if err := b.Delete(metaAccountKey()); err != nil {
		t.Fatal(err)
	}
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	old.Close()

	const oldARN = "arn:aws:dynamodb:us-east-1:000000000000:table/legacy"
	for round := range 2 { // the second opening reads the stored account
		db, err := Open(Options{Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		if got := db.AccountID(); got != LegacyAccountID {
			t.Fatalf("opening %d: account %s, want %s", round, got, LegacyAccountID)
		}
		d, err := db.DescribeTable(&dynamo.DescribeTableInput{TableName: oldARN})
		if err != nil {
			t.Fatalf("opening %d: DescribeTable by the old ARN: %v", round, err)
		}
		if d.Table.TableArn != oldARN || d.Table.LatestStreamArn != streamARN {
			t.Fatalf("opening %d: TableArn %s, LatestStreamArn %s; want %s, %s", round, d.Table.TableArn, d.Table.LatestStreamArn, oldARN, streamARN)
		}
		if _, err := db.DescribeStream(&dynamo.DescribeStreamInput{StreamArn: streamARN}); err != nil {
			t.Fatalf("opening %d: DescribeStream of the stored stream ARN: %v", round, err)
		}
		ls, err := db.ListStreams(&dynamo.ListStreamsInput{})
		if err != nil || len(ls.Streams) != 1 || ls.Streams[0].StreamArn != streamARN {
			t.Fatalf("opening %d: ListStreams %+v %v", round, ls, err)
		}
		if err := db.TagResource(&dynamo.TagResourceInput{ResourceArn: oldARN, Tags: []dynamo.Tag{{Key: "k", Value: "v"}}}); err != nil {
			t.Fatalf("opening %d: TagResource on the old ARN: %v", round, err)
		}
		g, err := db.GetItem(&dynamo.GetItemInput{TableName: "legacy", Key: attr.Item{"pk": attr.S("a")}})
		if err != nil || g.Item == nil {
			t.Fatalf("opening %d: GetItem %v %v", round, g, err)
		}
		db.Close()
	}

	// An account given as an option is used, and stored.
	chosen, err := Open(Options{Dir: dir, AccountID: "111122223333"})
	if err != nil {
		t.Fatal(err)
	}
	if got := chosen.AccountID(); got != "111122223333" {
		t.Fatalf("chosen account: %s", got)
	}
	chosen.Close()
	again, err := Open(Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if got := again.AccountID(); got != "111122223333" {
		t.Fatalf("after a chosen account, the default opening has %s", got)
	}
	again.Close()

	// A new database has DefaultAccountID; an ARN naming 000000000000
	// names another account's table.
	for _, o := range []Options{{InMemory: true}, {Dir: t.TempDir()}} {
		db := mustOpen(t, o)
		if got := db.AccountID(); got != DefaultAccountID {
			t.Fatalf("new database: account %s, want %s", got, DefaultAccountID)
		}
		mustCreate(t, db, "fresh", false)
		d, err := db.DescribeTable(&dynamo.DescribeTableInput{TableName: "fresh"})
		if err != nil || !strings.Contains(d.Table.TableArn, ":"+DefaultAccountID+":table/fresh") {
			t.Fatalf("new database: %v %v", d, err)
		}
		err = db.TagResource(&dynamo.TagResourceInput{ResourceArn: "arn:aws:dynamodb:us-east-1:000000000000:table/fresh", Tags: []dynamo.Tag{{Key: "k", Value: "v"}}})
		wantCode(t, err, dynamo.CodeAccessDenied, msgArnNotAllowed)
	}
}
