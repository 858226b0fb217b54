package main

import (
	"context"
	"io"
	"reflect"
	"testing"

	"github.com/dynago/dynago/testserver"
)

// TestOverloading runs the example against the real server and checks
// each namespace query and each refused definition.
func TestOverloading(t *testing.T) {
	s := testserver.Start(t)
	res, err := run(context.Background(), s.Client, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"dog commands":              {"dog:command:beg", "dog:command:roll over", "dog:command:sit"},
		"trees cats climbed":        {"cat:treeclimbed:elm", "cat:treeclimbed:oak", "cat:treeclimbed:spruce"},
		"parrots with 2-5 words":    {"parrot:words:000003"},
		"parrots with over 5 words": {"parrot:words:000101", "parrot:words:000201"},
		"vet visits in Q1 2024":     {"vet:visit:2024-01-05", "vet:visit:2024-03-02"},
	}
	if !reflect.DeepEqual(res.Answers, want) {
		t.Fatalf("answers:\n got %v\nwant %v", res.Answers, want)
	}
	if res.Indexed != int64(len(values)) {
		t.Fatalf("index holds %d items", res.Indexed)
	}
	wantErrs := map[string]string{
		"six LSIs": "One or more parameter values were invalid: Number of LocalSecondaryIndexes exceeds per-table limit of 5",
		"21 GSIs":  "One or more parameter values were invalid: GlobalSecondaryIndex count exceeds the per-table limit of 20",
		"BOOL key": "1 validation error detected: Value 'BOOL' at 'attributeDefinitions.3.member.attributeType' failed to satisfy constraint: Member must satisfy enum value set: [B, N, S]",
	}
	if !reflect.DeepEqual(res.Errors, wantErrs) {
		t.Fatalf("errors:\n got %q\nwant %q", res.Errors, wantErrs)
	}
}
