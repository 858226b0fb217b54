package engine

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/internal/keys"
	"github.com/dynago/dynago/internal/pgtest"
	"github.com/dynago/dynago/internal/storage/faultstore"
	"github.com/dynago/dynago/internal/storage/pebblestore"
	"github.com/dynago/dynago/internal/vector"
)

// vecTable creates table name with pk (S) and a vector index "vix" on
// "v" of dims dimensions; with hash, its search schema has "g" (S) as
// HASH; it always has "c" (N) as INLINE_FILTER.
func vecTable(t testing.TB, db *DB, name, metric string, dims int, hash bool) {
	t.Helper()
	defs := []dynamo.AttributeDefinition{{AttributeName: "pk", AttributeType: "S"}, {AttributeName: "c", AttributeType: "N"}}
	schema := []dynamo.SearchSchemaElement{{AttributeName: "c", SearchSchemaElementType: dynamo.SearchSchemaInlineFilter}}
	if hash {
		defs = append(defs, dynamo.AttributeDefinition{AttributeName: "g", AttributeType: "S"})
		schema = append([]dynamo.SearchSchemaElement{{AttributeName: "g", SearchSchemaElementType: dynamo.SearchSchemaHash}}, schema...)
	}
	_, err := db.CreateTable(&dynamo.CreateTableInput{
		TableName:            name,
		BillingMode:          dynamo.BillingModePayPerRequest,
		AttributeDefinitions: defs,
		KeySchema:            []dynamo.KeySchemaElement{{AttributeName: "pk", KeyType: dynamo.KeyTypeHash}},
		VectorIndexes: []dynamo.VectorIndex{{
			IndexName:        "vix",
			VectorAttribute:  &dynamo.VectorAttributeDefinition{AttributeName: "v"},
			Dimensions:       int64(dims),
			DistanceFunction: metric,
			SearchSchema:     schema,
			Projection:       dynamo.Projection{ProjectionType: dynamo.ProjectionAll},
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
}

func vecValue(v []float32) attr.Value {
	l := make([]attr.Value, len(v))
	for i, f := range v {
		l[i] = attr.N(strconv.FormatFloat(float64(f), 'g', -1, 32))
	}
	return attr.Value{Type: attr.TypeL, L: l}
}

func vecQuery(v []float32) []attr.Value { return vecValue(v).L }

func putVec(t testing.TB, db *DB, table, pk string, v []float32, extra attr.Item) {
	t.Helper()
	it := attr.Item{"pk": attr.S(pk), "v": vecValue(v)}
	for k, x := range extra {
		it[k] = x
	}
	if _, err := db.PutItem(&dynamo.PutItemInput{TableName: table, Item: it}); err != nil {
		t.Fatal(err)
	}
}

// searchPKs returns the pks SearchVectors finds, best first, and their
// scores.
func searchPKs(t testing.TB, db *DB, table string, q []float32, k int, cond string, values attr.Item) ([]string, []float64) {
	t.Helper()
	k32 := int32(k)
	out, err := db.SearchVectors(&dynamo.SearchVectorsInput{TableName: table, IndexName: "vix", SearchVector: vecQuery(q), TopK: &k32,
		SearchConditionExpression: cond, ExpressionAttributeValues: values})
	if err != nil {
		t.Fatal(err)
	}
	var pks []string
	var scores []float64
	for _, r := range out.SearchResults {
		pks = append(pks, r.Item["pk"].S)
		scores = append(scores, r.Score)
	}
	return pks, scores
}

// clusteredVecs makes n vectors of dim dimensions around clusters
// Gaussian centres (standard deviation 0.3 around standard normal
// centres), from a seeded generator.
func clusteredVecs(seed uint64, n, dim, clusters int) [][]float32 {
	r := rand.New(rand.NewPCG(seed, 7))
	centres := make([][]float32, clusters)
	for i := range centres {
		centres[i] = make([]float32, dim)
		for j := range centres[i] {
			centres[i][j] = float32(r.NormFloat64())
		}
	}
	out := make([][]float32, n)
	for i := range out {
		c := centres[r.IntN(clusters)]
		out[i] = make([]float32, dim)
		for j := range out[i] {
			out[i][j] = c[j] + float32(0.3*r.NormFloat64())
		}
	}
	return out
}

// exactTop returns the pks of the k vectors of data nearest q under m.
func exactTop(m vector.Metric, data map[string][]float32, q []float32, k int) []string {
	type hit struct {
		pk    string
		score float32
	}
	var hs []hit
	for pk, v := range data {
		hs = append(hs, hit{pk, m.Score(q, v)})
	}
	slices.SortFunc(hs, func(a, b hit) int {
		switch {
		case m.Better(a.score, b.score):
			return -1
		case m.Better(b.score, a.score):
			return 1
		}
		return compareStrings(a.pk, b.pk)
	})
	var out []string
	for _, h := range hs[:min(k, len(hs))] {
		out = append(out, h.pk)
	}
	return out
}

// The approximate index finds at least 95% of the exact 10 nearest for
// each distance function, on clustered data written through the engine
// (the recall goal, at a size a CI machine builds in seconds).
func TestVectorGraphRecall(t *testing.T) {
	n, dim, queries := 6000, 64, 200
	if raceOn || testing.Short() {
		n, dim, queries = 1500, 32, 60
	}
	for _, metric := range []string{dynamo.DistanceCosine, dynamo.DistanceEuclidean, dynamo.DistanceDotProduct} {
		t.Run(metric, func(t *testing.T) {
			db := mustOpen(t, Options{InMemory: true, VectorExactLimit: 100})
			vecTable(t, db, "rec", metric, dim, false)
			vs := clusteredVecs(11, n+queries, dim, 40)
			data := map[string][]float32{}
			var reqs []dynamo.WriteRequest
			flush := func() {
				if len(reqs) == 0 {
					return
				}
				out, err := db.BatchWriteItem(&dynamo.BatchWriteItemInput{RequestItems: map[string][]dynamo.WriteRequest{"rec": reqs}})
				if err != nil || len(out.UnprocessedItems) > 0 {
					t.Fatal(err, out)
				}
				reqs = nil
			}
			for i, v := range vs[:n] {
				pk := fmt.Sprintf("p%05d", i)
				data[pk] = v
				reqs = append(reqs, dynamo.WriteRequest{PutRequest: &dynamo.PutRequest{Item: attr.Item{"pk": attr.S(pk), "v": vecValue(v)}}})
				if len(reqs) == 25 {
					flush()
				}
			}
			flush()
			if got := db.meters.vectorGraphInserts.Load(); got != uint64(n) {
				t.Fatalf("%d nodes inserted, want %d", got, n)
			}
			m, _ := vector.ParseMetric(metric)
			hit, all := 0, 0
			for _, q := range vs[n:] {
				got, _ := searchPKs(t, db, "rec", q, 10, "", nil)
				want := exactTop(m, data, q, 10)
				for _, pk := range want {
					if slices.Contains(got, pk) {
						hit++
					}
				}
				all += len(want)
			}
			recall := float64(hit) / float64(all)
			t.Logf("%s: recall@10 %.4f over %d vectors of %d dimensions", metric, recall, n, dim)
			if recall < 0.95 {
				t.Errorf("%s: recall@10 %.4f, want at least 0.95", metric, recall)
			}
		})
	}
}

// graphOf returns the graph of the index vix of table name for the
// HASH value hash ("" for none), loaded.
func graphOf(t testing.TB, db *DB, name, hash string) *graphData {
	t.Helper()
	tb := lookupOK(t, db, name)
	ix := tb.vectorIndex("vix")
	var hv *attr.Value
	if hash != "" {
		v := attr.S(hash)
		hv = &v
	}
	gk, err := vectorGraphKey(tb, ix, hv)
	if err != nil {
		t.Fatal(err)
	}
	g, err := db.lockGraph(gk, ix)
	if err != nil {
		t.Fatal(err)
	}
	defer g.mu.Unlock()
	return g.d
}

// checkGraph proves the graph of a range equals its entries: one node
// per entry, each with the entry's vector, and that a graph loaded
// afresh from the store has the same nodes.
func checkGraph(t testing.TB, db *DB, name, hash string) int {
	t.Helper()
	tb := lookupOK(t, db, name)
	ix := tb.vectorIndex("vix")
	var lower []byte
	if hash != "" {
		lower, _ = keys.PartitionPrefix(tb.meta.ID, ix.meta.ID, []attr.Value{attr.S(hash)})
	} else {
		lower = keys.IndexPrefix(tb.meta.ID, ix.meta.ID)
	}
	gp := keys.VectorGraphPrefix(tb.meta.ID, ix.meta.ID)
	entries := map[string][]float32{}
	it, err := db.store.NewIter(lower, keys.PrefixEnd(lower))
	if err != nil {
		t.Fatal(err)
	}
	for ok := it.First(); ok; ok = it.Next() {
		if hash == "" && bytes.HasPrefix(it.Key(), gp) && !it.SeekGE(keys.PrefixEnd(gp)) {
			break
		}
		e, err := parseVectorEntry(it.Value())
		if err != nil {
			t.Fatal(err)
		}
		entries[string(it.Key())] = e.vector(nil)
	}
	it.Close()
	d := graphOf(t, db, name, hash)
	if d.g.Len() != len(entries) || len(d.rows) != len(entries) {
		t.Fatalf("graph %q: %d nodes (%d rows), %d entries", hash, d.g.Len(), len(d.rows), len(entries))
	}
	for id, row := range d.rows {
		v, ok := entries[string(row)]
		if !ok || !d.g.HasVector(id, v) {
			t.Fatalf("graph %q: node %d (%x) is not its entry", hash, id, row)
		}
	}
	// The stored records make the same graph.
	var hv *attr.Value
	if hash != "" {
		v := attr.S(hash)
		hv = &v
	}
	gk, _ := vectorGraphKey(tb, ix, hv)
	fresh := &vgraph{key: gk}
	if err := db.loadGraph(fresh, ix); err != nil {
		t.Fatal(err)
	}
	fd := fresh.d
	if fd.g.Len() != d.g.Len() || !slices.Equal(fd.g.IDs(), d.g.IDs()) {
		t.Fatalf("graph %q: the store's records make %d nodes, memory has %d", hash, fd.g.Len(), d.g.Len())
	}
	return len(entries)
}

func updateVec(t testing.TB, db *DB, table, pk, update string, values attr.Item) {
	t.Helper()
	if _, err := db.UpdateItem(&dynamo.UpdateItemInput{TableName: table, Key: attr.Item{"pk": attr.S(pk)},
		UpdateExpression: update, ExpressionAttributeValues: values}); err != nil {
		t.Fatal(err)
	}
}

func deleteVec(t testing.TB, db *DB, table, pk string) {
	t.Helper()
	if _, err := db.DeleteItem(&dynamo.DeleteItemInput{TableName: table, Key: attr.Item{"pk": attr.S(pk)}}); err != nil {
		t.Fatal(err)
	}
}

// Every kind of write keeps each HASH value's graph equal to its
// entries, in memory and in the store: puts, updates of the vector (many
// times over: no drift), of the HASH value (the node moves to the other
// graph), of another attribute, removals of the vector, deletes,
// transactions and batches.
func TestVectorGraphFollowsWrites(t *testing.T) {
	db := mustOpen(t, Options{InMemory: true, VectorExactLimit: 5})
	vecTable(t, db, "vgw", dynamo.DistanceEuclidean, 8, true)
	vs := clusteredVecs(3, 400, 8, 5)
	next := 0
	vec := func() []float32 { next++; return vs[next-1] }
	group := func(i int) string { return []string{"a", "b"}[i%2] }
	for i := range 60 {
		putVec(t, db, "vgw", fmt.Sprintf("p%02d", i), vec(), attr.Item{"g": attr.S(group(i)), "c": attr.N(strconv.Itoa(i % 3))})
	}
	for range 5 {
		for i := range 20 {
			updateVec(t, db, "vgw", fmt.Sprintf("p%02d", i), "SET v = :v", attr.Item{":v": vecValue(vec())})
		}
	}
	for i := 20; i < 30; i++ {
		updateVec(t, db, "vgw", fmt.Sprintf("p%02d", i), "SET g = :g", attr.Item{":g": attr.S("b")})
	}
	for i := 30; i < 35; i++ {
		updateVec(t, db, "vgw", fmt.Sprintf("p%02d", i), "SET x = :x", attr.Item{":x": attr.S("other")})
	}
	for i := 35; i < 40; i++ {
		updateVec(t, db, "vgw", fmt.Sprintf("p%02d", i), "REMOVE v", nil)
	}
	for i := 40; i < 50; i++ {
		deleteVec(t, db, "vgw", fmt.Sprintf("p%02d", i))
	}
	if _, err := db.TransactWriteItems(&dynamo.TransactWriteItemsInput{TransactItems: []dynamo.TransactWriteItem{
		{Put: &dynamo.TransactPut{TableName: "vgw", Item: attr.Item{"pk": attr.S("t1"), "g": attr.S("a"), "v": vecValue(vec())}}},
		{Delete: &dynamo.TransactDelete{TableName: "vgw", Key: attr.Item{"pk": attr.S("p50")}}},
	}}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.BatchWriteItem(&dynamo.BatchWriteItemInput{RequestItems: map[string][]dynamo.WriteRequest{"vgw": {
		{PutRequest: &dynamo.PutRequest{Item: attr.Item{"pk": attr.S("b1"), "g": attr.S("b"), "v": vecValue(vec())}}},
		{PutRequest: &dynamo.PutRequest{Item: attr.Item{"pk": attr.S("p51"), "g": attr.S("a"), "v": vecValue(vec())}}},
		{DeleteRequest: &dynamo.DeleteRequest{Key: attr.Item{"pk": attr.S("p52")}}},
	}}}); err != nil {
		t.Fatal(err)
	}
	na, nb := checkGraph(t, db, "vgw", "a"), checkGraph(t, db, "vgw", "b")
	// a: p00..p19 even (10), p30..p34 even (3), p51 even->a (moved from
	// b: p51 was b), p50 gone, p52 gone, p54..p58 even (3), t1: the count
	// is what the entries say; the total is what the items hold.
	if na+nb != 60-5-10-2+2 {
		t.Errorf("graphs hold %d+%d nodes, want %d", na, nb, 60-5-10-2+2)
	}
	if err := db.Check(); err != nil {
		t.Fatal(err)
	}
	// Searches through the graphs see the writes: a deleted item is never
	// found, a moved one is found in its new partition only.
	for _, q := range vs[:40] {
		for _, g := range []string{"a", "b"} {
			pks, _ := searchPKs(t, db, "vgw", q, 100, "g = :g", attr.Item{":g": attr.S(g)})
			for _, pk := range pks {
				n, _ := strconv.Atoi(pk[1:])
				switch {
				case pk[0] == 'p' && (n >= 35 && n < 50 || n == 50 || n == 52):
					t.Fatalf("%s found in %s after its delete", pk, g)
				case pk[0] == 'p' && n >= 20 && n < 30 && g == "a":
					t.Fatalf("%s found in a after its move to b", pk)
				}
			}
		}
	}
}

// A restarted database loads its graphs from their records, inserting
// nothing, and answers every search as before.
func TestVectorGraphRestart(t *testing.T) {
	dir := t.TempDir()
	opts := Options{Dir: dir, VectorExactLimit: 20}
	db, err := Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	vecTable(t, db, "vgr", dynamo.DistanceCosine, 16, false)
	vs := clusteredVecs(5, 520, 16, 8)
	for i, v := range vs[:500] {
		putVec(t, db, "vgr", fmt.Sprintf("p%03d", i), v, nil)
	}
	for i := 0; i < 500; i += 7 {
		deleteVec(t, db, "vgr", fmt.Sprintf("p%03d", i))
	}
	type answer struct {
		pks    []string
		scores []float64
	}
	var before []answer
	for _, q := range vs[500:] {
		pks, scores := searchPKs(t, db, "vgr", q, 10, "", nil)
		before = append(before, answer{pks, scores})
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = mustOpen(t, opts)
	for i, q := range vs[500:] {
		pks, scores := searchPKs(t, db, "vgr", q, 10, "", nil)
		if !slices.Equal(pks, before[i].pks) || !slices.Equal(scores, before[i].scores) {
			t.Fatalf("query %d after the restart: %v %v, before %v %v", i, pks, scores, before[i].pks, before[i].scores)
		}
	}
	if n := db.meters.vectorGraphInserts.Load(); n != 0 {
		t.Fatalf("loading the graph inserted %d nodes", n)
	}
	if d := graphOf(t, db, "vgr", ""); d.g.Len() != 500-72 {
		t.Fatalf("loaded %d nodes, want %d", d.g.Len(), 500-72)
	}
}

// When the inline filter leaves fewer than TopK of the candidates, the
// search widens until TopK match: here 12 items of 600 match, and a
// search of breadth 10 finds the 10 nearest of them, as an exact search
// of the matching items does.
func TestVectorGraphFilterWidens(t *testing.T) {
	db := mustOpen(t, Options{InMemory: true, VectorExactLimit: 10, VectorSearchEF: 10})
	vecTable(t, db, "vgf", dynamo.DistanceEuclidean, 8, false)
	vs := clusteredVecs(9, 610, 8, 6)
	match := map[string][]float32{}
	for i, v := range vs[:600] {
		c := "0"
		if i%50 == 0 {
			c = "1"
		}
		pk := fmt.Sprintf("p%03d", i)
		putVec(t, db, "vgf", pk, v, attr.Item{"c": attr.N(c)})
		if c == "1" {
			match[pk] = v
		}
	}
	m, _ := vector.ParseMetric(dynamo.DistanceEuclidean)
	for _, q := range vs[600:] {
		got, _ := searchPKs(t, db, "vgf", q, 10, "c = :c", attr.Item{":c": attr.N("1")})
		if want := exactTop(m, match, q, 10); !slices.Equal(got, want) {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
}

// Two nodes over one PostgreSQL database: searches through the graph on
// one node see the writes, deletes included, made through the other, and
// writes to one graph from both nodes at once (which conflict on its
// header) leave both nodes' graphs equal to the entries.
func TestSharedVectorGraph(t *testing.T) {
	url, schema := pgtest.Schema(t)
	a := mustOpen(t, Options{Store: openPG(t, url, schema), VectorExactLimit: 5})
	b := mustOpen(t, Options{Store: openPG(t, url, schema), VectorExactLimit: 5})
	vecTable(t, a, "vgs", dynamo.DistanceEuclidean, 8, false)
	if lookupOK(t, b, "vgs") == nil {
		t.Fatal("node b does not see the table")
	}
	vs := clusteredVecs(13, 200, 8, 4)
	data := map[string][]float32{}
	put := func(db *DB, i int) {
		pk := fmt.Sprintf("p%03d", i)
		putVec(t, db, "vgs", pk, vs[i], nil)
		data[pk] = vs[i]
	}
	m, _ := vector.ParseMetric(dynamo.DistanceEuclidean)
	// With fewer nodes than the search's breadth, the graph search
	// returns every node it reaches: the exact answer.
	same := func(db *DB, when string) {
		t.Helper()
		for _, q := range vs[180:] {
			got, _ := searchPKs(t, db, "vgs", q, 10, "", nil)
			if want := exactTop(m, data, q, 10); !slices.Equal(got, want) {
				t.Fatalf("%s: got %v, want %v", when, got, want)
			}
		}
	}
	for i := range 40 {
		put(a, i)
	}
	same(b, "b after a's puts")
	for i := 40; i < 70; i++ {
		put(a, i)
	}
	for i := 0; i < 40; i += 3 {
		pk := fmt.Sprintf("p%03d", i)
		deleteVec(t, a, "vgs", pk)
		delete(data, pk)
	}
	same(b, "b after a's puts and deletes")
	var wg sync.WaitGroup
	var mu sync.Mutex
	for n, db := range []*DB{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 70 + n; i < 130; i += 2 {
				pk := fmt.Sprintf("p%03d", i)
				it := attr.Item{"pk": attr.S(pk), "v": vecValue(vs[i])}
				if _, err := db.PutItem(&dynamo.PutItemInput{TableName: "vgs", Item: it}); err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				data[pk] = vs[i]
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	same(a, "a after both wrote")
	same(b, "b after both wrote")
	if n := checkGraph(t, a, "vgs", ""); n != len(data) {
		t.Fatalf("a's graph holds %d nodes, the table %d", n, len(data))
	}
	if n := checkGraph(t, b, "vgs", ""); n != len(data) {
		t.Fatalf("b's graph holds %d nodes, the table %d", n, len(data))
	}
}

// A batch whose commit fails leaves the graph as the store has it: the
// graph it changed in memory is dropped and loaded again, so a failed
// delete does not hide its item from searches, and a failed put leaves
// no node.
func TestVectorGraphFailedCommit(t *testing.T) {
	st, err := pebblestore.Open(pebblestore.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	fs := faultstore.New(st)
	db := mustOpen(t, Options{Store: fs, VectorExactLimit: 5})
	vecTable(t, db, "vgc", dynamo.DistanceEuclidean, 8, false)
	vs := clusteredVecs(17, 41, 8, 3)
	for i, v := range vs[:40] {
		putVec(t, db, "vgc", fmt.Sprintf("p%02d", i), v, nil)
	}
	fs.FailAll(faultstore.Commit)
	if _, err := db.DeleteItem(&dynamo.DeleteItemInput{TableName: "vgc", Key: attr.Item{"pk": attr.S("p07")}}); err == nil {
		t.Fatal("the delete committed")
	}
	if _, err := db.PutItem(&dynamo.PutItemInput{TableName: "vgc", Item: attr.Item{"pk": attr.S("new"), "v": vecValue(vs[40])}}); err == nil {
		t.Fatal("the put committed")
	}
	fs.Heal()
	if got, _ := searchPKs(t, db, "vgc", vs[7], 1, "", nil); !slices.Equal(got, []string{"p07"}) {
		t.Fatalf("after a failed delete: %v, want [p07]", got)
	}
	if n := checkGraph(t, db, "vgc", ""); n != 40 {
		t.Fatalf("%d entries, want 40", n)
	}
	// The graph goes on from the store's state.
	putVec(t, db, "vgc", "new", vs[40], nil)
	deleteVec(t, db, "vgc", "p07")
	if n := checkGraph(t, db, "vgc", ""); n != 40 {
		t.Fatalf("%d entries, want 40", n)
	}
}
