package e2e

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/engine"
	"github.com/dynago/dynago/testserver"
)

// TestVectorSearchApproximate: a range of a vector index holding more
// entries than the server's VectorExactLimit is searched through its
// approximate index (docs/VECTORS.md, "The approximate index"), which
// follows every write.
//
// DynamoDB's vector search is approximate itself and its recall is not
// published; what is asserted here is dynago's own promise, in
// docs/VECTORS.md: a query equal to a stored vector finds the item it
// equals (the nearest under the metric: [model] in vector_search_test.go
// for the scores), a deleted item is never found, an item whose vector
// or HASH value changed is found by its new one, in its new partition
// only, and the search bills the vectors its graph scored (not every
// entry of the range, as the exact search does). After all the writes
// the integrity check finds each graph equal to its entries: one node
// per entry, however many times an item was updated.
func TestVectorSearchApproximate(t *testing.T) {
	const n, dims, limit = 1200, 16, 50
	for _, metric := range []string{"COSINE", "EUCLIDEAN", "DOT_PRODUCT"} {
		t.Run(metric, func(t *testing.T) {
			s := testserver.Start(t, testserver.WithEngineOptions(func(o *engine.Options) { o.VectorExactLimit = limit }))
			c := client(t, s)
			plain := vix("all", "emb", dims)
			plain.DistanceFunction = types.VectorDistanceFunction(metric)
			part := vix("part", "emb", dims, "g", "HASH")
			part.DistanceFunction = types.VectorDistanceFunction(metric)
			createVectorTable(t, c, "vap", plain, part)
			waitIndexesActive(t, c, "vap")
			rng := rand.New(rand.NewPCG(7, uint64(len(metric))))
			centres := make([][]float32, 12)
			for i := range centres {
				centres[i] = make([]float32, dims)
				for j := range centres[i] {
					centres[i][j] = float32(rng.NormFloat64())
				}
			}
			randVec := func() []float32 {
				c := centres[rng.IntN(len(centres))]
				v := make([]float32, dims)
				for j := range v {
					v[j] = c[j] + float32(0.3*rng.NormFloat64())
				}
				return v
			}
			m := vmodel{}
			var batch []types.WriteRequest
			flush := func() {
				if len(batch) == 0 {
					return
				}
				out, err := c.BatchWriteItem(bg(), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"vap": batch}})
				if err != nil || len(out.UnprocessedItems) > 0 {
					t.Fatalf("BatchWriteItem: %v", err)
				}
				batch = nil
			}
			for i := range n {
				key := fmt.Sprintf("k%04d", i)
				r := vrow{vec: randVec(), g: []string{"x", "y"}[i%2]}
				m[key] = r
				batch = append(batch, types.WriteRequest{PutRequest: &types.PutRequest{Item: item{"pk": S(key), "emb": vecAttr(r.vec), "g": S(r.g)}}})
				if len(batch) == 25 {
					flush()
				}
			}
			flush()
			update := func(key, expr string, vals item) {
				t.Helper()
				if _, err := c.UpdateItem(bg(), &dynamodb.UpdateItemInput{TableName: aws.String("vap"), Key: item{"pk": S(key)},
					UpdateExpression: aws.String(expr), ExpressionAttributeValues: vals}); err != nil {
					t.Fatalf("UpdateItem %s: %v", key, err)
				}
			}
			// Deletes; many updates of the same items' vectors; moves to
			// the other partition.
			var deleted, moved []string
			for i := 0; i < n; i += 10 {
				key := fmt.Sprintf("k%04d", i)
				if _, err := c.DeleteItem(bg(), &dynamodb.DeleteItemInput{TableName: aws.String("vap"), Key: item{"pk": S(key)}}); err != nil {
					t.Fatal(err)
				}
				deleted = append(deleted, key)
				delete(m, key)
			}
			for range 5 {
				for i := 1; i < 200; i += 10 {
					key := fmt.Sprintf("k%04d", i)
					r := m[key]
					r.vec = randVec()
					m[key] = r
					update(key, "SET emb = :e", item{":e": vecAttr(r.vec)})
				}
			}
			for i := 3; i < 200; i += 20 {
				key := fmt.Sprintf("k%04d", i)
				r := m[key]
				r.g = map[string]string{"x": "y", "y": "x"}[r.g]
				m[key] = r
				update(key, "SET g = :g", item{":g": S(r.g)})
				moved = append(moved, key)
			}
			search := func(index string, q []float32, k int32, g string) (*dynamodb.SearchVectorsOutput, []string) {
				t.Helper()
				in := &dynamodb.SearchVectorsInput{TableName: aws.String("vap"), IndexName: aws.String(index), SearchVector: vecs(qstrings(q)...),
					TopK: aws.Int32(k), ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal}
				if g != "" {
					in.SearchConditionExpression, in.ExpressionAttributeValues = aws.String("g = :g"), item{":g": S(g)}
				}
				out, err := c.SearchVectors(bg(), in)
				if err != nil {
					t.Fatalf("SearchVectors: %v", err)
				}
				var keys []string
				for _, r := range out.SearchResults {
					keys = append(keys, r.Item["pk"].(*types.AttributeValueMemberS).Value)
				}
				return out, keys
			}
			cases := []struct {
				name  string
				keys  []string
				check func(t *testing.T, key string)
			}{
				{"a stored vector finds the nearest item", []string{"k0005", "k0011", "k0203", "k0467", "k0999", "k1198"}, func(t *testing.T, key string) {
					q := m[key].vec
					want := m.expect(metric, q, 1, "", "")[0]
					if _, got := search("all", q, 5, ""); !slices.Contains(got, want) {
						t.Errorf("%s: top 5 %v lacks the nearest %s", key, got, want)
					}
					want = m.expect(metric, q, 1, m[key].g, "")[0]
					if _, got := search("part", q, 5, m[key].g); !slices.Contains(got, want) {
						t.Errorf("%s in %s: top 5 %v lacks the nearest %s", key, m[key].g, got, want)
					}
				}},
				{"a deleted item is never found", deleted[:20], func(t *testing.T, key string) {
					q := randVec()
					for _, g := range []string{"", "x", "y"} {
						index := map[bool]string{true: "all", false: "part"}[g == ""]
						if _, got := search(index, q, 100, g); slices.Contains(got, key) {
							t.Errorf("deleted %s found in %q", key, g)
						}
					}
				}},
				{"an updated vector is found by its new value", []string{"k0001", "k0051", "k0101", "k0191"}, func(t *testing.T, key string) {
					want := m.expect(metric, m[key].vec, 1, "", "")[0]
					if _, got := search("all", m[key].vec, 5, ""); !slices.Contains(got, want) {
						t.Errorf("%s: top 5 %v lacks the nearest %s", key, got, want)
					}
				}},
				{"a moved item is in its new partition only", moved, func(t *testing.T, key string) {
					r := m[key]
					other := map[string]string{"x": "y", "y": "x"}[r.g]
					want := m.expect(metric, r.vec, 1, r.g, "")[0]
					if _, got := search("part", r.vec, 5, r.g); !slices.Contains(got, want) {
						t.Errorf("%s in %s: top 5 %v lacks the nearest %s", key, r.g, got, want)
					}
					if _, got := search("part", r.vec, 100, other); slices.Contains(got, key) {
						t.Errorf("%s found in %s, which it left", key, other)
					}
				}},
				{"the search bills the vectors its graph scored, fewer than the range's", []string{"k0002"}, func(t *testing.T, key string) {
					out, _ := search("all", m[key].vec, 10, "")
					exact := float64(4 * dims * len(m))
					if b := *out.ConsumedCapacity.VectorSearchRequestBytes; b < 1024 || b >= exact {
						t.Errorf("VectorSearchRequestBytes %v, want at least 1024 and below an exact search's %v", b, exact)
					}
				}},
			}
			for _, tc := range cases {
				t.Run(tc.name, func(t *testing.T) {
					for _, key := range tc.keys {
						tc.check(t, key)
					}
				})
			}
			if err := s.DB.Check(); err != nil {
				t.Fatal(err)
			}
		})
	}
}
