package engine

import (
	"strconv"
	"testing"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
)

// TestKeySketchBounded: however many distinct keys a load names, a sketch
// holds insightsSketchSize counters, and a key named more often than
// total/size times is among them with at least its true count.
func TestKeySketchBounded(t *testing.T) {
	s := keySketch{byKey: map[string]*keyCounter{}}
	for i := range 20000 {
		s.add("k" + strconv.Itoa(i))
		if i%5 == 0 {
			s.add("hot")
		}
	}
	if len(s.heap) != insightsSketchSize || len(s.byKey) != insightsSketchSize {
		t.Fatalf("%d counters, %d keys; want %d", len(s.heap), len(s.byKey), insightsSketchSize)
	}
	top := s.top(1)
	if top[0].key != "hot" || top[0].count < 4000 || top[0].count-top[0].err > 4000 {
		t.Fatalf("top %+v, want hot counted 4000 (within its error)", top[0])
	}
	if s.total != 24000 {
		t.Fatalf("total %d", s.total)
	}
}

// BenchmarkGetItemInsights is the cost of counting keys: GetItem on a
// table with Contributor Insights off and on, over 1000 keys.
func BenchmarkGetItemInsights(b *testing.B) {
	for _, on := range []bool{false, true} {
		b.Run("enabled="+strconv.FormatBool(on), func(b *testing.B) {
			db, err := Open(Options{InMemory: true})
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			mustCreate(b, db, "bench", false)
			if on {
				if _, err := db.UpdateContributorInsights(&dynamo.UpdateContributorInsightsInput{TableName: "bench", ContributorInsightsAction: "ENABLE"}); err != nil {
					b.Fatal(err)
				}
			}
			keys := make([]attr.Item, 1000)
			for i := range keys {
				keys[i] = attr.Item{"pk": attr.S("k" + strconv.Itoa(i))}
				if _, err := db.PutItem(&dynamo.PutItemInput{TableName: "bench", Item: keys[i]}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				if _, err := db.GetItem(&dynamo.GetItemInput{TableName: "bench", Key: keys[i%len(keys)]}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkNoteKey is the counting alone, on a table with it on.
func BenchmarkNoteKey(b *testing.B) {
	db, err := Open(Options{InMemory: true})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	mustCreate(b, db, "bench", true)
	if _, err := db.UpdateContributorInsights(&dynamo.UpdateContributorInsightsInput{TableName: "bench", ContributorInsightsAction: "ENABLE"}); err != nil {
		b.Fatal(err)
	}
	t := (*db.tables.Load())["bench"]
	vals := make([]attr.Value, 1000)
	for i := range vals {
		vals[i] = attr.S("k" + strconv.Itoa(i%300))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		db.noteKey(t, "", vals[i%len(vals)], attr.N("1"))
	}
}
