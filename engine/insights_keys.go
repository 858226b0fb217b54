package engine

import (
	"container/heap"
	"encoding/base64"
	"encoding/binary"
	"sort"
	"sync"
	"time"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
)

// Contributor Insights' top keys. DynamoDB publishes, for a table or
// global secondary index with Contributor Insights on, CloudWatch rules
// of its most accessed and most throttled keys: partition keys (PKC,
// PKT) and partition and sort keys (SKC, SKT), read through CloudWatch's
// GetInsightRuleReport, which dynago does not serve. dynago counts the
// keys of the requests it serves into a fixed-size sketch per table and
// index, and reports the top ones through TopKeys (the console's
// /console/api/insights).
//
// Each count is a space-saving sketch (Metwally, Agrawal and El Abbadi,
// 2005) of insightsSketchSize counters: a key seen is counted exactly
// while it holds a counter; a new key takes the smallest counter over,
// and inherits its count as its possible overestimate (Error). Any key
// seen more than total/size times holds a counter, so the heavy hitters
// are always there. Memory is bounded by the counters, whatever the load.
// A table without Contributor Insights pays one map length check per
// request.

// insightsSketchSize is the counters of one sketch.
const insightsSketchSize = 256

// keyCounter is one counter of a sketch.
type keyCounter struct {
	key   string
	count uint64
	err   uint64
	pos   int // in the heap
}

// keySketch is a space-saving sketch: a min-heap of counters by count,
// and an index of them by key.
type keySketch struct {
	byKey map[string]*keyCounter
	heap  counterHeap
	total uint64
}

type counterHeap []*keyCounter

func (h counterHeap) Len() int           { return len(h) }
func (h counterHeap) Less(i, j int) bool { return h[i].count < h[j].count }
func (h counterHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i]; h[i].pos = i; h[j].pos = j }
func (h *counterHeap) Push(x any)        { c := x.(*keyCounter); c.pos = len(*h); *h = append(*h, c) }
func (h *counterHeap) Pop() any {
	old := *h
	c := old[len(old)-1]
	*h = old[:len(old)-1]
	return c
}

func (s *keySketch) add(key string) {
	s.total++
	if c, ok := s.byKey[key]; ok {
		c.count++
		heap.Fix(&s.heap, c.pos)
		return
	}
	if len(s.heap) < insightsSketchSize {
		c := &keyCounter{key: key, count: 1}
		s.byKey[key] = c
		heap.Push(&s.heap, c)
		return
	}
	c := s.heap[0] // the smallest counter
	delete(s.byKey, c.key)
	c.key, c.err, c.count = key, c.count, c.count+1
	s.byKey[key] = c
	heap.Fix(&s.heap, 0)
}

// top returns the n largest counters, largest first (ties by key).
func (s *keySketch) top(n int) []keyCounter {
	out := make([]keyCounter, 0, len(s.heap))
	for _, c := range s.heap {
		out = append(out, *c)
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].count > out[j].count || out[i].count == out[j].count && out[i].key < out[j].key
	})
	return out[:min(n, len(out))]
}

// insightsCounts are the sketches of one table or index since it was
// enabled: accessed and throttled partition keys, and partition and sort
// keys.
type insightsCounts struct {
	since time.Time
	mu    sync.Mutex
	// rules are PKC, SKC, PKT, SKT.
	rules [4]keySketch
}

const (
	rulePKC = iota
	ruleSKC
	rulePKT
	ruleSKT
)

var insightsRuleKinds = [4]string{"PKC", "SKC", "PKT", "SKT"}

// insightsKeys holds the DB's counts, by table and index.
type insightsKeys struct {
	m sync.Map // insightsKeyID → *insightsCounts
}

type insightsKeyID struct{ table, index string }

// counts returns the counts of table and index for the enabling at since,
// starting them afresh when it was enabled again since they began.
func (k *insightsKeys) counts(table, index string, since time.Time) *insightsCounts {
	id := insightsKeyID{table, index}
	if v, ok := k.m.Load(id); ok {
		if c := v.(*insightsCounts); c.since.Equal(since) {
			return c
		}
	}
	c := &insightsCounts{since: since}
	for i := range c.rules {
		c.rules[i].byKey = map[string]*keyCounter{}
	}
	for {
		v, loaded := k.m.LoadOrStore(id, c)
		if !loaded {
			return c
		}
		if old := v.(*insightsCounts); old.since.Equal(since) {
			return old
		} else if k.m.CompareAndSwap(id, old, c) {
			return c
		}
	}
}

// keyText is a key value as its sketch key: its type, then its value.
func keyText(v attr.Value) string {
	switch v.Type {
	case attr.TypeB:
		return "B" + string(v.B)
	case attr.TypeN:
		return "N" + v.S
	}
	return "S" + v.S
}

// noteKey counts a request on index ("" for the table) of t for key pk
// and sk (sk.Type is TypeInvalid when there is none, or when the request
// names a whole partition, as a Query does).
func (db *DB) noteKey(t *table, index string, pk, sk attr.Value) {
	if len(t.meta.Insights) == 0 {
		return
	}
	x, ok := t.meta.Insights[index]
	if !ok || !x.Enabled || x.Mode == dynamo.ContributorInsightsModeThrottled {
		// dynago throttles no item request, so a THROTTLED_KEYS rule
		// never counts one.
		return
	}
	c := db.topKeys.counts(t.meta.Name, index, x.Since)
	p := keyText(pk)
	c.mu.Lock()
	c.rules[rulePKC].add(p)
	if sk.Type != attr.TypeInvalid {
		// The partition key's length first, so the pair splits back
		// exactly whatever bytes the values hold.
		var n [4]byte
		binary.BigEndian.PutUint32(n[:], uint32(len(p)))
		c.rules[ruleSKC].add(string(n[:]) + p + keyText(sk))
	}
	c.mu.Unlock()
}

// noteItemKey is noteKey for a request on the table's item k.
func (db *DB) noteItemKey(t *table, k itemKey) {
	if len(t.meta.Insights) == 0 {
		return
	}
	db.noteKey(t, "", k.pk, k.sk)
}

// noteQuery counts a Query's partition on the table, or on the global
// secondary index it reads (a local secondary index's partition is its
// table's). A multi-attribute partition key is counted by its first
// attribute.
func (db *DB) noteQuery(ks keyspace, kc *keyCondition) {
	if len(ks.t.meta.Insights) == 0 || kc.pk.n == 0 {
		return
	}
	index := ""
	if !ks.isTable() && ks.ix.meta.Global {
		index = ks.ix.meta.Name
	}
	db.noteKey(ks.t, index, kc.pk.v[0], attr.Value{})
}

// TopKeyContributor is one key of a top keys rule: its values (the
// partition key's, then the sort key's) in DynamoDB's JSON form, how
// many requests it was counted in, and by how many that may exceed the
// truth (0 when exact).
type TopKeyContributor struct {
	Keys  []map[string]string `json:"keys"`
	Count uint64              `json:"count"`
	Error uint64              `json:"error"`
}

// TopKeysRule is one rule's report, named as DynamoDB names its
// CloudWatch rule.
type TopKeysRule struct {
	Name string `json:"name"`
	// Total is the requests counted since the rule began.
	Total        uint64              `json:"total"`
	Contributors []TopKeyContributor `json:"contributors"`
}

// TopKeysReport is the top keys of a table or index.
type TopKeysReport struct {
	TableName string        `json:"tableName"`
	IndexName string        `json:"indexName,omitempty"`
	Status    string        `json:"status"`
	Mode      string        `json:"mode,omitempty"`
	Since     time.Time     `json:"since,omitzero"`
	Rules     []TopKeysRule `json:"rules"`
}

// TopKeys reports the n most accessed keys (n ≤ 0: 10) of a table, or of
// one of its global secondary indexes, by the rules Contributor Insights
// has for it; none when it is disabled. It fails as
// DescribeContributorInsights does for a missing table or index.
func (db *DB) TopKeys(tableName, indexName string, n int) (*TopKeysReport, error) {
	if n <= 0 {
		n = 10
	}
	d, err := db.DescribeContributorInsights(&dynamo.DescribeContributorInsightsInput{TableName: tableName, IndexName: indexName})
	if err != nil {
		return nil, err
	}
	t, _, err := db.insightsTarget(tableName, indexName)
	if err != nil {
		return nil, err
	}
	out := &TopKeysReport{TableName: d.TableName, IndexName: indexName, Status: d.ContributorInsightsStatus, Mode: d.ContributorInsightsMode, Rules: []TopKeysRule{}}
	x, ok := t.meta.Insights[indexName]
	if !ok || !x.Enabled {
		return out, nil
	}
	out.Since = x.Since
	c := db.topKeys.counts(t.meta.Name, indexName, x.Since)
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, rule := range d.ContributorInsightsRuleList {
		kind := rule[len("DynamoDBContributorInsights-") : len("DynamoDBContributorInsights-")+3]
		i := indexOf(insightsRuleKinds[:], kind)
		s := &c.rules[i]
		r := TopKeysRule{Name: rule, Total: s.total, Contributors: []TopKeyContributor{}}
		for _, k := range s.top(n) {
			r.Contributors = append(r.Contributors, TopKeyContributor{Keys: keyValues(k.key, i == ruleSKC || i == ruleSKT), Count: k.count, Error: k.err})
		}
		out.Rules = append(out.Rules, r)
	}
	return out, nil
}

func indexOf(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return 0
}

// keyValues turns a sketch key back into its values, as {"S": "..."}:
// the partition key's, then, for a sort key rule, the sort key's.
func keyValues(key string, sorted bool) []map[string]string {
	parts := []string{key}
	if sorted {
		n := int(binary.BigEndian.Uint32([]byte(key[:4])))
		parts = []string{key[4 : 4+n], key[4+n:]}
	}
	out := make([]map[string]string, len(parts))
	for i, part := range parts {
		typ, val := part[:1], part[1:]
		if typ == "B" {
			val = base64.StdEncoding.EncodeToString([]byte(val))
		}
		out[i] = map[string]string{typ: val}
	}
	return out
}
