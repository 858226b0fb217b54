package main

import (
	"context"
	"io"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/dynago/dynago/testserver"
)

// TestComments runs the example against the real server and checks every
// access pattern against the answer computed from the comments written.
func TestComments(t *testing.T) {
	s := testserver.Start(t)
	const n = 150
	res, err := run(context.Background(), s.Client, io.Discard, n)
	if err != nil {
		t.Fatal(err)
	}
	// newest returns the ids of the newest pageSize comments that keep
	// holds, newest first.
	newest := func(keep func(Comment) bool, limit int) []string {
		var cs []Comment
		for _, c := range res.Written {
			if keep(c) {
				cs = append(cs, c)
			}
		}
		sort.Slice(cs, func(i, j int) bool { return cs[i].Date > cs[j].Date })
		var ids []string
		for _, c := range cs {
			ids = append(ids, c.ID)
		}
		if limit > 0 && len(ids) > limit {
			ids = ids[:limit]
		}
		return ids
	}
	check := func(name string, got, want []string) {
		t.Helper()
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s:\n got %v\nwant %v", name, got, want)
		}
	}
	all := func(Comment) bool { return true }
	check("AP1", res.AP1, newest(all, pageSize))
	check("AP2", res.AP2, newest(func(c Comment) bool { return c.Language == "en" }, pageSize))
	check("AP3a", res.AP3a, newest(func(c Comment) bool {
		return c.Language == "en" && (c.Rating == 2 || c.Rating == 3 || c.Rating == 5)
	}, pageSize))
	check("AP3b", res.AP3b, newest(func(c Comment) bool { return c.Rating == 2 }, pageSize))
	check("AP3c", res.AP3c, newest(func(c Comment) bool { return c.Rating == 3 || c.Rating == 5 }, pageSize))
	if res.AP4 != res.AP1[0] || res.AP5Left != 0 {
		t.Fatalf("AP4 %s, AP5 left %d index entries", res.AP4, res.AP5Left)
	}
	// AP6 ran after AP5 deleted the newest comment.
	check("AP6", res.AP6, newest(all, 0)[1:])
	if want := (n - 1 + pageSize - 1) / pageSize; res.AP6Pages != want && res.AP6Pages != want+1 {
		t.Fatalf("AP6 took %d pages", res.AP6Pages)
	}
	if distinct := slices.Compact(slices.Sorted(slices.Values(res.AP6))); len(distinct) != n-1 {
		t.Fatalf("AP6 %d distinct comments", len(distinct))
	}
	// The planner: all ratings need no rating index; two ratings, two
	// parallel queries; a language without comments, no query at all.
	if !strings.Contains(res.Plans[0], "Query index all") || !strings.Contains(res.Plans[1], "Query index byLang") ||
		!strings.Contains(res.Plans[2], "2 parallel Queries on index byRating") {
		t.Fatalf("plans: %q", res.Plans)
	}
	if !strings.Contains(res.EmptyPlan, "skipping empty") {
		t.Fatalf("empty plan: %s", res.EmptyPlan)
	}
	// Paging the merged queries returns every matching comment once, in
	// order (AP5 deleted the newest comment before).
	check("planned AP3a", res.PlannedAP3a, newest(func(c Comment) bool {
		return c.ID != res.AP4 && c.Language == "en" && (c.Rating == 2 || c.Rating == 3 || c.Rating == 5)
	}, 0))
	// 20 projected comments of ~150 bytes fit in one 4 KB unit, halved for
	// an eventually consistent read; BatchGetItem pays at least half a unit
	// for each of the 20.
	if res.QueryUnits != 0.5 || res.BatchGetUnits != 10 {
		t.Fatalf("Query billed %v units, BatchGetItem %v", res.QueryUnits, res.BatchGetUnits)
	}
}
