package main

import (
	"context"
	"io"
	"reflect"
	"testing"

	"github.com/dynago/dynago/testserver"
)

// TestAuditLog runs the example against the real server: the
// concatenated-key GSI indexes only the items carrying its attribute
// until the retrofit gives it to the older ones, the multi-attribute GSI
// indexes every item from the start, and both answer the same questions
// for the items they hold.
func TestAuditLog(t *testing.T) {
	s := testserver.Start(t)
	res, err := run(context.Background(), s.Client, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"2024-02-27T10:00:00Z", "2024-03-02T09:15:00Z", "2024-03-20T16:45:00Z", "2024-04-02T13:00:00Z", "2024-04-09T10:10:00Z"}
	// The first two views predate the concatenated attribute.
	if !reflect.DeepEqual(res.ConcatAll, want[2:]) {
		t.Fatalf("concatenated, all: %v", res.ConcatAll)
	}
	if !reflect.DeepEqual(res.ConcatMarch, want[2:3]) {
		t.Fatalf("concatenated, March: %v", res.ConcatMarch)
	}
	if !reflect.DeepEqual(res.NativeAll, want) {
		t.Fatalf("native, all: %v", res.NativeAll)
	}
	if !reflect.DeepEqual(res.NativeMarch, want[1:3]) {
		t.Fatalf("native, March: %v", res.NativeMarch)
	}
	// The retrofit gave the older items the attribute: the concatenated
	// GSI now answers like the native one, and finds jane's edit.
	if res.Retrofitted != int64(res.Legacy) || !reflect.DeepEqual(res.ConcatAfter, want) {
		t.Fatalf("retrofitted %d; afterwards %v", res.Retrofitted, res.ConcatAfter)
	}
	if res.JaneBefore != 0 || res.JaneAfter != 1 {
		t.Fatalf("jane edited 123ccc: %d before, %d after", res.JaneBefore, res.JaneAfter)
	}
	if res.ConcatIndexed != int64(len(events)) || res.NativeIndexed != int64(len(events)) {
		t.Fatalf("indexed %d and %d items", res.ConcatIndexed, res.NativeIndexed)
	}
}
