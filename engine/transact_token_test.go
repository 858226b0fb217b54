package engine

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/internal/keys"
)

func tokenAdd(token, n string) *dynamo.TransactWriteItemsInput {
	return &dynamo.TransactWriteItemsInput{
		ClientRequestToken: token, ClientRequestTokenSet: true,
		TransactItems: []dynamo.TransactWriteItem{{Update: &dynamo.TransactUpdate{TableName: "tok",
			Key: attr.Item{"pk": attr.S("ctr")}, UpdateExpression: "ADD n :n",
			ExpressionAttributeValues: attr.Item{":n": attr.N(n)}}}},
	}
}

func countTokenKeys(t *testing.T, db *DB) int {
	t.Helper()
	it, err := db.store.NewIter([]byte{keys.NSMeta, metaTagToken}, []byte{keys.NSMeta, metaTagToken + 1})
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

// A committed ClientRequestToken is kept with the writes it vouches for:
// after a restart a repeat is still a no-op and a different request with
// the token still a mismatch, for the ten minutes DynamoDB promises.
// Before, tokens lived in the process's memory: a restart forgot them,
// and a client sending new tokens grew memory for ten minutes' worth.
func TestTokenSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	var clock atomic.Int64
	clock.Store(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC).UnixNano())
	now := func() time.Time { return time.Unix(0, clock.Load()) }
	db := mustOpen(t, Options{Dir: dir, Now: now})
	mustCreate(t, db, "tok", false)
	if _, err := db.TransactWriteItems(tokenAdd("once", "1")); err != nil {
		t.Fatal(err)
	}
	if n := len(db.txTokens.m); n != 0 {
		t.Fatalf("%d tokens held in memory after their request completed", n)
	}
	db.Close()

	db = mustOpen(t, Options{Dir: dir, Now: now})
	count := func() string {
		t.Helper()
		out, err := db.GetItem(&dynamo.GetItemInput{TableName: "tok", Key: attr.Item{"pk": attr.S("ctr")}})
		if err != nil {
			t.Fatal(err)
		}
		return out.Item["n"].S
	}
	if _, err := db.TransactWriteItems(tokenAdd("once", "1")); err != nil {
		t.Fatal(err)
	}
	if got := count(); got != "1" {
		t.Fatalf("n = %s after a repeat across a restart, want 1", got)
	}
	_, err := db.TransactWriteItems(tokenAdd("once", "2"))
	wantCode(t, err, dynamo.CodeIdempotentParameter, "same client token")

	// Past ten minutes the token is new again, and expired tokens are
	// trimmed as new ones commit.
	clock.Add(int64(tokenLifetime + time.Second))
	if _, err := db.TransactWriteItems(tokenAdd("once", "2")); err != nil {
		t.Fatal(err)
	}
	if got := count(); got != "3" {
		t.Fatalf("n = %s, want 3", got)
	}
	for i := range 40 {
		if _, err := db.TransactWriteItems(tokenAdd(fmt.Sprint("t", i), "1")); err != nil {
			t.Fatal(err)
		}
		if i == 19 {
			clock.Add(int64(tokenLifetime + time.Second))
		}
	}
	// 20 live tokens; of the 21 expired ones, 20 commits trimmed 4 each.
	if n := countTokenKeys(t, db); n != 20 {
		t.Fatalf("%d tokens stored, want the 20 live ones", n)
	}
}

// A commit that trims an expired token must not delete the same token
// committed anew after the trimmer found it: request A reuses token T
// after T expired, while the commit of request B, which trims T, is in
// flight. A retry of A must still be recognised as a repeat.
func TestTrimDoesNotDeleteARenewedToken(t *testing.T) {
	var clock atomic.Int64
	clock.Store(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC).UnixNano())
	now := func() time.Time { return time.Unix(0, clock.Load()) }
	db := mustOpen(t, Options{InMemory: true, Now: now})
	mustCreate(t, db, "tok", false)
	if _, err := db.TransactWriteItems(tokenAdd("T", "1")); err != nil {
		t.Fatal(err)
	}
	clock.Add(int64(tokenLifetime + time.Second))

	// B stages its token and the trim of T, but has not committed yet.
	b := db.newWriteBatch()
	claimed, err := db.stageToken(b, "U", [32]byte{1})
	if err != nil || len(claimed) != 1 {
		t.Fatalf("stageToken claimed %q, %v", claimed, err)
	}
	// A reuses T meanwhile.
	done := make(chan error, 1)
	go func() {
		_, err := db.TransactWriteItems(tokenAdd("T", "5"))
		done <- err
	}()
	var aErr error
	finished := false
	select {
	case aErr = <-done:
		finished = true // A ran first: B's trim must not remove A's token
	case <-time.After(100 * time.Millisecond):
		// A waits for B's claim on T, as it should; either order is valid.
	}
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	b.release()
	db.releaseTrimmed(claimed)
	if !finished {
		aErr = <-done
	}
	if aErr != nil {
		t.Fatal(aErr)
	}
	// A retry of A is a repeat: the counter stays at 6.
	if _, err := db.TransactWriteItems(tokenAdd("T", "5")); err != nil {
		t.Fatal(err)
	}
	out, err := db.GetItem(&dynamo.GetItemInput{TableName: "tok", Key: attr.Item{"pk": attr.S("ctr")}})
	if err != nil {
		t.Fatal(err)
	}
	if got := out.Item["n"].S; got != "6" {
		t.Fatalf("n = %s, want 6: a retry of a committed token ran again", got)
	}
}
