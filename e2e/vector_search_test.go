package e2e

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/engine"
	"github.com/dynago/dynago/local"
	"github.com/dynago/dynago/testserver"
)

// SearchVectors over the entries item writes keep: exact results against
// a brute-force expectation computed here, by DynamoDB's scores.
//
// Sources, cited per case:
//   - [model] AWS's service model and API reference, SearchVectors and
//     VectorDistanceFunction: COSINE scores 0 (identical) to 2, lower
//     first; EUCLIDEAN the L2 distance, lower first; DOT_PRODUCT the
//     inner product, higher first.
//   - [dynoxide] captures of the dynoxide emulator's authors against
//     DynamoDB (2026-08-11 to 19): the Euclidean score is not squared,
//     a zero vector scores 1 under COSINE, a returned vector is the
//     index's float32 copy ("1.0"), the order of equal scores is not
//     deterministic (dynago orders them by the item's key), the
//     backfill skips items a write would refuse, "Cannot search
//     backfilling vector index".
//   - [toolkit] AWS's agent toolkit, vector-search.md: the vector
//     attribute is left out unless ProjectionExpression names it, an
//     unprojected name is silently absent, 1 KB minimum a request.
//   - [guide] AWS's developer guide, VectorSearchMonitoring: the
//     ConsumedCapacity of a search is {VectorSearchRequestBytes}, the same
//     under TOTAL and INDEXES, absent under NONE.

// vmodel is the test's copy of the indexed items: key, vector, g, f.
type vmodel map[string]vrow

type vrow struct {
	vec  []float32
	g, f string
}

func score(metric string, a, b []float32) float64 {
	var dot, aa, bb, sq float64
	for i := range a {
		x, y := float64(a[i]), float64(b[i])
		dot += x * y
		aa += x * x
		bb += y * y
		sq += (x - y) * (x - y)
	}
	switch metric {
	case "COSINE":
		if aa == 0 || bb == 0 {
			return 1
		}
		return 1 - dot/math.Sqrt(aa*bb)
	case "EUCLIDEAN":
		return math.Sqrt(sq)
	}
	return dot
}

// expect is the brute-force answer: the k best keys of m (in partition g
// when g is not "", with f when f is not ""), ties by key.
func (m vmodel) expect(metric string, q []float32, k int, g, f string) []string {
	var keys []string
	for key, r := range m {
		if (g == "" || r.g == g) && (f == "" || r.f == f) {
			keys = append(keys, key)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		si, sj := float32(score(metric, q, m[keys[i]].vec)), float32(score(metric, q, m[keys[j]].vec))
		if si != sj {
			if metric == "DOT_PRODUCT" {
				return si > sj
			}
			return si < sj
		}
		return keys[i] < keys[j]
	})
	if len(keys) > k {
		keys = keys[:k]
	}
	return keys
}

func vecAttr(v []float32) types.AttributeValue {
	l := make([]types.AttributeValue, len(v))
	for i, f := range v {
		l[i] = N(strconv.FormatFloat(float64(f), 'g', -1, 32))
	}
	return L(l...)
}

func searchOut(t *testing.T, c local.API, table, index string, q []string, k int32, cond string, vals item) *dynamodb.SearchVectorsOutput {
	t.Helper()
	in := &dynamodb.SearchVectorsInput{TableName: aws.String(table), IndexName: aws.String(index), SearchVector: vecs(q...), TopK: aws.Int32(k)}
	if cond != "" {
		in.SearchConditionExpression, in.ExpressionAttributeValues = aws.String(cond), vals
	}
	out, err := c.SearchVectors(bg(), in)
	if err != nil {
		t.Fatalf("SearchVectors: %v", err)
	}
	return out
}

func searchKeys(t *testing.T, c local.API, table, index string, q []string, k int32, cond string, vals item) []string {
	t.Helper()
	keys := []string{}
	for _, r := range searchOut(t, c, table, index, q, k, cond, vals).SearchResults {
		keys = append(keys, r.Item["pk"].(*types.AttributeValueMemberS).Value)
	}
	return keys
}

func qstrings(q []float32) []string {
	s := make([]string, len(q))
	for i, f := range q {
		s[i] = strconv.FormatFloat(float64(f), 'g', -1, 32)
	}
	return s
}

// TestVectorSearchExact writes items with vectors of small integers (many
// equal scores) through every write path, and checks each search against
// the brute-force answer, for each distance function, in a partition and
// with a filter, after puts, updates, deletes and transactions.
func TestVectorSearchExact(t *testing.T) {
	for _, metric := range []string{"COSINE", "EUCLIDEAN", "DOT_PRODUCT"} {
		t.Run(metric, func(t *testing.T) {
			_, c := start(t)
			plain := vix("all", "emb", 4)
			plain.DistanceFunction = types.VectorDistanceFunction(metric)
			part := vix("part", "emb", 4, "g", "HASH", "f", "INLINE_FILTER")
			part.DistanceFunction = types.VectorDistanceFunction(metric)
			createVectorTable(t, c, "vxs", plain, part)
			waitIndexesActive(t, c, "vxs")
			rng := rand.New(rand.NewPCG(1, uint64(len(metric))))
			m := vmodel{}
			randVec := func() []float32 {
				v := make([]float32, 4)
				for i := range v {
					v[i] = float32(rng.IntN(5) - 2)
				}
				return v
			}
			write := func(key string, via int) {
				r := vrow{vec: randVec(), g: []string{"x", "y"}[rng.IntN(2)], f: []string{"a", "b"}[rng.IntN(2)]}
				it := item{"pk": S(key), "emb": vecAttr(r.vec), "g": S(r.g), "f": S(r.f)}
				var err error
				switch via {
				case 0:
					_, err = c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("vxs"), Item: it})
				case 1:
					_, err = c.BatchWriteItem(bg(), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{
						"vxs": {{PutRequest: &types.PutRequest{Item: it}}}}})
				case 2:
					_, err = c.TransactWriteItems(bg(), &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
						{Put: &types.Put{TableName: aws.String("vxs"), Item: it}}}})
				case 3:
					_, err = c.UpdateItem(bg(), &dynamodb.UpdateItemInput{TableName: aws.String("vxs"), Key: item{"pk": S(key)},
						UpdateExpression:          aws.String("SET emb = :e, g = :g, f = :f"),
						ExpressionAttributeValues: item{":e": it["emb"], ":g": it["g"], ":f": it["f"]}})
				}
				if err != nil {
					t.Fatalf("write %s via %d: %v", key, via, err)
				}
				m[key] = r
			}
			check := func(when string) {
				t.Helper()
				for i := 0; i < 4; i++ {
					q := randVec()
					if i == 0 {
						q = []float32{0, 0, 0, 0} // a zero query: COSINE scores 1 ([dynoxide])
					}
					for _, k := range []int{1, 5, 100} {
						deepEqual(t, fmt.Sprintf("%s: %v top %d", when, q, k), searchKeys(t, c, "vxs", "all", qstrings(q), int32(k), "", nil), m.expect(metric, q, k, "", ""))
						for _, g := range []string{"x", "y"} {
							deepEqual(t, fmt.Sprintf("%s: %v top %d in %s", when, q, k, g),
								searchKeys(t, c, "vxs", "part", qstrings(q), int32(k), "g = :g", item{":g": S(g)}), m.expect(metric, q, k, g, ""))
							deepEqual(t, fmt.Sprintf("%s: %v top %d in %s with a", when, q, k, g),
								searchKeys(t, c, "vxs", "part", qstrings(q), int32(k), "g = :g AND f = :f", item{":g": S(g), ":f": S("a")}), m.expect(metric, q, k, g, "a"))
						}
					}
				}
			}
			for i := range 30 {
				write(fmt.Sprintf("k%02d", i), i%4)
			}
			check("after the writes")
			// Rewrites, deletes (DeleteItem, BatchWriteItem, a
			// transaction, PartiQL) and a vector taken away.
			for i := 0; i < 30; i += 3 {
				write(fmt.Sprintf("k%02d", i), (i/3)%4)
			}
			for i, key := range []string{"k01", "k04", "k07", "k10"} {
				var err error
				switch i {
				case 0:
					_, err = c.DeleteItem(bg(), &dynamodb.DeleteItemInput{TableName: aws.String("vxs"), Key: item{"pk": S(key)}})
				case 1:
					_, err = c.BatchWriteItem(bg(), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{
						"vxs": {{DeleteRequest: &types.DeleteRequest{Key: item{"pk": S(key)}}}}}})
				case 2:
					_, err = c.TransactWriteItems(bg(), &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
						{Delete: &types.Delete{TableName: aws.String("vxs"), Key: item{"pk": S(key)}}}}})
				case 3:
					_, err = ql(c, `DELETE FROM "vxs" WHERE pk = '`+key+`'`)
				}
				if err != nil {
					t.Fatalf("delete %s: %v", key, err)
				}
				delete(m, key)
			}
			if _, err := c.UpdateItem(bg(), &dynamodb.UpdateItemInput{TableName: aws.String("vxs"), Key: item{"pk": S("k13")},
				UpdateExpression: aws.String("REMOVE emb")}); err != nil {
				t.Fatal(err)
			}
			delete(m, "k13")
			check("after updates and deletes")
			d := describe(t, c, "vxs")
			for _, v := range d.VectorIndexes {
				if *v.ItemCount != int64(len(m)) {
					t.Fatalf("%s: ItemCount %d, want %d", *v.IndexName, *v.ItemCount, len(m))
				}
			}
		})
	}
}

// TestVectorSearchScoresAndProjection: scores as DynamoDB gives them, the
// projection of results, and the search's capacity.
func TestVectorSearchScoresAndProjection(t *testing.T) {
	_, c := start(t)
	eu := vix("euc", "emb", 4)
	eu.DistanceFunction = types.VectorDistanceFunctionEuclidean
	inc := vix("inc", "emb", 4)
	inc.Projection = &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{"a"}}
	createVectorTable(t, c, "vpr", eu, inc)
	waitIndexesActive(t, c, "vpr")
	put(t, c, "vpr", item{"pk": S("p"), "emb": L(N("10"), N("0"), N("0"), N("0.1")), "a": S("x"), "b": S("y")})
	// [dynoxide]: query [1,0,0,0] against [10,0,0,0] scores 9 (not 81).
	out := searchOut(t, c, "vpr", "euc", []string{"1", "0", "0", "0.1"}, 1, "", nil)
	if len(out.SearchResults) != 1 || out.SearchResults[0].Score != 9 {
		t.Fatalf("EUCLIDEAN score: %+v, want 9", out.SearchResults)
	}
	// [toolkit], [dynoxide]: ALL projects everything but the vector.
	deepEqual(t, "ALL", out.SearchResults[0].Item, item{"pk": S("p"), "a": S("x"), "b": S("y")})
	// INCLUDE: keys and the included attribute.
	out = searchOut(t, c, "vpr", "inc", []string{"1", "0", "0", "0"}, 1, "", nil)
	deepEqual(t, "INCLUDE", out.SearchResults[0].Item, item{"pk": S("p"), "a": S("x")})
	// A ProjectionExpression naming the vector returns the float32 copy
	// ("1.0" style, 0.1 as float32's shortest decimal); b, not
	// projected by inc, is silently absent ([toolkit]).
	pout, err := c.SearchVectors(bg(), &dynamodb.SearchVectorsInput{TableName: aws.String("vpr"), IndexName: aws.String("inc"),
		SearchVector: vecs("1", "0", "0", "0"), TopK: aws.Int32(1), ProjectionExpression: aws.String("emb, b, pk")})
	if err != nil {
		t.Fatal(err)
	}
	deepEqual(t, "projected vector", pout.SearchResults[0].Item, item{"pk": S("p"), "emb": L(N("10.0"), N("0.0"), N("0.0"), N("0.1"))})
	// [guide]: the capacity, at least 1 KB ([toolkit]), the same under
	// TOTAL and INDEXES, absent under NONE.
	for _, mode := range []types.ReturnConsumedCapacity{types.ReturnConsumedCapacityTotal, types.ReturnConsumedCapacityIndexes, types.ReturnConsumedCapacityNone} {
		out, err := c.SearchVectors(bg(), &dynamodb.SearchVectorsInput{TableName: aws.String("vpr"), IndexName: aws.String("euc"),
			SearchVector: vecs("1", "0", "0", "0"), TopK: aws.Int32(1), ReturnConsumedCapacity: mode})
		if err != nil {
			t.Fatal(err)
		}
		cc := out.ConsumedCapacity
		if mode == types.ReturnConsumedCapacityNone {
			if cc != nil {
				t.Fatalf("NONE: %+v", cc)
			}
			continue
		}
		if cc == nil || cc.VectorSearchRequestBytes == nil || *cc.VectorSearchRequestBytes != 1024 || cc.VectorWriteRequestBytes != nil {
			t.Fatalf("%s: %+v, want VectorSearchRequestBytes 1024", mode, cc)
		}
	}
}

// TestVectorBackfill adds a vector index to a table with items: valid
// items are indexed, items a write would refuse are skipped and the
// index turns ACTIVE ([dynoxide] captured eu-west-2 2026-08-12); the
// search then finds them.
func TestVectorBackfill(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "vbk", types.ScalarAttributeTypeS)
	put(t, c, "vbk", item{"pk": S("a"), "emb": L(N("1"), N("0"))})
	put(t, c, "vbk", item{"pk": S("b"), "emb": L(N("0"), N("1"))})
	put(t, c, "vbk", item{"pk": S("short"), "emb": L(N("1"))})
	put(t, c, "vbk", item{"pk": S("str"), "emb": S("x")})
	put(t, c, "vbk", item{"pk": S("range"), "emb": L(N("1e39"), N("0"))})
	if _, err := c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String("vbk"),
		VectorIndexUpdates: []types.VectorIndexUpdate{vcreate(vix("vec1", "emb", 2))}}); err != nil {
		t.Fatal(err)
	}
	d := waitIndexesActive(t, c, "vbk")
	if n := *d.VectorIndexes[0].ItemCount; n != 2 {
		t.Fatalf("ItemCount %d, want 2", n)
	}
	deepEqual(t, "results", searchKeys(t, c, "vbk", "vec1", []string{"1", "0.1"}, 10, "", nil), []string{"a", "b"})
	// The same invalid item re-put is refused ([dynoxide]).
	_, err := c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("vbk"), Item: item{"pk": S("short"), "emb": L(N("1"))}})
	wantValidation(t, err, vinv+"Invalid size for parameter emb, Expected: 2, Actual: 1 IndexName: vec1")
}

// TestVectorSearchBackfilling: a search of an index being backfilled is
// refused ([dynoxide] compatibility summary: "Cannot search backfilling
// vector index: <name>").
func TestVectorSearchBackfilling(t *testing.T) {
	c, advance := startTransient(t)
	if _, err := c.CreateTable(bg(), vectorTable("vbf")); err != nil {
		t.Fatal(err)
	}
	advance(transientDelay)
	if _, err := c.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String("vbf"),
		VectorIndexUpdates: []types.VectorIndexUpdate{vcreate(vix("vec1", "emb", 2))}}); err != nil {
		t.Fatal(err)
	}
	_, err := c.SearchVectors(bg(), &dynamodb.SearchVectorsInput{TableName: aws.String("vbf"), IndexName: aws.String("vec1"),
		SearchVector: vecs("1", "0"), TopK: aws.Int32(1)})
	wantValidation(t, err, "Cannot search backfilling vector index: vec1")
}

// TestVectorTTL: an item deleted by TTL leaves the index ([toolkit]:
// "TTL deletion removes the index entry").
func TestVectorTTL(t *testing.T) {
	s := testserver.Start(t, testserver.WithEngineOptions(func(o *engine.Options) { o.TTLSweepInterval = -1 }))
	c := client(t, s)
	createVectorTable(t, c, "vttl", vix("vec1", "emb", 2))
	waitIndexesActive(t, c, "vttl")
	if _, err := updateTTL(c, "vttl", "exp", true); err != nil {
		t.Fatal(err)
	}
	now := time.Now().Unix()
	put(t, c, "vttl", item{"pk": S("old"), "emb": L(N("1"), N("0")), "exp": N(strconv.FormatInt(now-60, 10))})
	put(t, c, "vttl", item{"pk": S("new"), "emb": L(N("0"), N("1")), "exp": N(strconv.FormatInt(now+3600, 10))})
	deepEqual(t, "before the sweep", searchKeys(t, c, "vttl", "vec1", []string{"1", "0"}, 10, "", nil), []string{"old", "new"})
	if n := sweep(t, s.URL); n != 1 {
		t.Fatalf("the sweep deleted %d items, want 1", n)
	}
	deepEqual(t, "after the sweep", searchKeys(t, c, "vttl", "vec1", []string{"1", "0"}, 10, "", nil), []string{"new"})
	if n := vectorCount(t, c, "vttl"); n != 1 {
		t.Fatalf("ItemCount %d, want 1", n)
	}
}
