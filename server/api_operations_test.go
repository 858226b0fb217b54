package server

import (
	"os"
	"regexp"
	"slices"
	"testing"
)

// TestAPIOperations keeps apiOperations, the routing table and
// docs/API.md's table in step: every routed operation is one of the API,
// and the table lists each operation of the API once, as refused exactly
// when the server does not route it.
func TestAPIOperations(t *testing.T) {
	// 57 before August 2026, and SearchVectors (aws-sdk-go-v2's dynamodb
	// v1.63.0, "Feature: Vector indexes").
	if len(apiOperations) != 58 || !slices.IsSorted(apiOperations) || len(slices.Compact(slices.Clone(apiOperations))) != 58 {
		t.Fatalf("apiOperations: %d names, want the 58 of the service model, sorted, once each", len(apiOperations))
	}
	routed := operations()
	for name := range routed {
		if !slices.Contains(apiOperations, name) {
			t.Errorf("the server routes %s, which is no operation of DynamoDB's API", name)
		}
	}
	doc, err := os.ReadFile("../docs/API.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := regexp.MustCompile("(?m)^\\| `(\\w+)` \\| ([a-z ]+) \\|").FindAllSubmatch(doc, -1)
	listed := map[string]string{}
	for _, r := range rows {
		name, status := string(r[1]), string(r[2])
		if _, dup := listed[name]; dup {
			t.Errorf("docs/API.md lists %s twice", name)
		}
		listed[name] = status
		switch status {
		case "served", "stored state", "refused":
		default:
			t.Errorf("docs/API.md: %s is %q, want served, stored state or refused", name, status)
		}
	}
	for _, name := range apiOperations {
		status, ok := listed[name]
		if !ok {
			t.Errorf("docs/API.md does not list %s", name)
			continue
		}
		if (status == "refused") != (routed[name] == nil) {
			t.Errorf("docs/API.md says %s is %s; routed: %v", name, status, routed[name] != nil)
		}
	}
	if len(listed) != len(apiOperations) {
		t.Errorf("docs/API.md lists %d operations, want %d", len(listed), len(apiOperations))
	}
}
