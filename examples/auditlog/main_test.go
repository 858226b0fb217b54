package main

import (
	"context"
	"io"
	"reflect"
	"testing"

	"github.com/dynago/dynago/internal/testserver"
)

// TestAuditLog runs the example against the real server: the
// concatenated-key GSI indexes only the items carrying its attribute,
// the multi-attribute GSI indexes every item, and both answer the same
// questions for the items they hold.
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
	if res.ConcatIndexed != int64(len(events)-res.Legacy) || res.NativeIndexed != int64(len(events)) {
		t.Fatalf("indexed %d and %d items", res.ConcatIndexed, res.NativeIndexed)
	}
}
