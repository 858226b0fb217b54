package engine

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/internal/expr"
	"github.com/dynago/dynago/internal/storage"
)

// Batch limits. https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchGetItem.html
const (
	maxBatchGetKeys       = 100
	maxBatchGetResponse   = 16 << 20
	maxBatchWriteRequests = 25
)

// BatchGetItem reads up to 100 items from one or more tables. Items are
// returned in no particular order; keys whose items would push the response
// past 16 MB come back in UnprocessedKeys.
func (db *DB) BatchGetItem(in *dynamo.BatchGetItemInput) (*dynamo.BatchGetItemOutput, error) {
	return run(db, opBatchGetItem, func() (*dynamo.BatchGetItemOutput, error) { return db.batchGetItem(in) })
}

func (db *DB) batchGetItem(in *dynamo.BatchGetItemInput) (*dynamo.BatchGetItemOutput, error) {
	// The lengths of RequestItems and of each Keys list are read first,
	// and the first that fails is answered alone, in the validation
	// framework's words (msgFrameworkRequestItemsEmpty,
	// msgFrameworkBatchGetKeys).
	if in.RequestItems != nil && len(in.RequestItems) == 0 {
		return nil, dynamo.Validation(msgFrameworkRequestItemsEmpty)
	}
	names := sortedKeys(in.RequestItems)
	for _, name := range names {
		if keys := in.RequestItems[name].Keys; keys != nil && (len(keys) == 0 || len(keys) > maxBatchGetKeys) {
			return nil, dynamo.Validation(msgFrameworkBatchGetKeys(name, len(keys) > 0))
		}
	}
	var c constraints
	if in.RequestItems == nil {
		c.notNull("requestItems")
	}
	// The table names come before ReturnConsumedCapacity
	// (engine/validation_order.go).
	c.requestItemsKeys(names, func() string { return jsonKeysAndAttributesMap(in.RequestItems, names) })
	c.returnConsumedCapacity(in.ReturnConsumedCapacity)
	for _, name := range names {
		ka := in.RequestItems[name]
		field := "requestItems." + name + ".member."
		if ka.Keys == nil {
			c.notNull(field + "keys")
		}
		if ka.AttributesToGet != nil && len(ka.AttributesToGet) == 0 {
			c.add("Value '[]' at '%sattributesToGet' failed to satisfy constraint: Member must have length greater than or equal to 1", field)
		}
	}
	if err := c.err(); err != nil {
		return nil, err
	}
	total := 0
	for _, name := range names {
		total += len(in.RequestItems[name].Keys)
	}
	if total > maxBatchGetKeys {
		return nil, dynamo.Validation(msgBatchGetTooMany)
	}

	// Everything that needs no table comes first, duplicate keys included:
	// DynamoDB reports them even for a table that does not exist.
	// The tables of one request may not mix AttributesToGet and
	// ProjectionExpression either, each table's block consistent as it
	// may be (paritysuite's tests/tier3/error-messages/batchGetItem.test.ts,
	// "mixing ProjectionExpression on one table and AttributesToGet on
	// another is rejected": a ValidationException whose text is not
	// recorded; the words of the same mix within one block).
	var legacy, modern []string
	for _, name := range names {
		ka := in.RequestItems[name]
		if ka.AttributesToGet != nil && legacy == nil {
			legacy = []string{"AttributesToGet"}
		}
		if (ka.ProjectionExpression != "" || ka.EmptyExpressions.Has(dynamo.ExprProjection)) && modern == nil {
			modern = []string{"ProjectionExpression"}
		}
	}
	if err := expr.CheckMixing(legacy, modern); err != nil {
		return nil, dynamo.AttrError(err)
	}
	projections := make(map[string]*expr.Projection, len(names))
	for _, name := range names {
		ka := in.RequestItems[name]
		proj, err := checkGetProjection(db.opts.ParseCaches.expr, ka.ProjectionExpression, ka.EmptyExpressions, ka.AttributesToGet, ka.ExpressionAttributeNames, nil)
		if err != nil {
			return nil, err
		}
		projections[name] = proj
		if ka.ValueError != nil {
			// The keys' names first (placedValue).
			for _, key := range ka.Keys {
				if err := attr.CheckNames(key); err != nil {
					return nil, dynamo.AttrError(err)
				}
			}
			return nil, ka.ValueError
		}
		for _, key := range ka.Keys {
			if err := canonicalize(key); err != nil {
				return nil, err
			}
		}
		if err := checkAttributesToGet(ka.AttributesToGet); err != nil {
			return nil, err
		}
		seen := make(map[string]bool, len(ka.Keys))
		for _, key := range ka.Keys {
			enc := string(attr.AppendItem(nil, key)) // canonical: names in order
			if seen[enc] {
				return nil, errDuplicateKeys
			}
			seen[enc] = true
		}
	}

	type plan struct {
		t    *table
		ka   dynamo.KeysAndAttributes
		keys []itemKey
	}
	plans := make([]plan, 0, len(names))
	for _, name := range names {
		ka := in.RequestItems[name]
		t, err := db.tableOrNotFound(name)
		if err != nil {
			return nil, err
		}
		p := plan{t: t, ka: ka, keys: make([]itemKey, len(ka.Keys))}
		for i, key := range ka.Keys {
			k, err := t.primaryKey(key, keyOfKey)
			if err != nil {
				return nil, err
			}
			p.keys[i] = k
			db.noteItemKey(t, k)
		}
		// A document path into a key attribute, after the keys, as
		// GetItem's (table.checkKeyPaths).
		if proj := projections[name]; proj != nil {
			if err := t.checkKeyPaths(proj.NestedNames()); err != nil {
				return nil, err
			}
		}
		plans = append(plans, p)
	}

	out := &dynamo.BatchGetItemOutput{Responses: map[string][]attr.Item{}, UnprocessedKeys: map[string]dynamo.KeysAndAttributes{}}
	respBytes := 0
	pending := map[string]float64{}
	read := 0
	var firstThrottle *dynamo.Error
	for _, p := range plans {
		name := p.t.meta.Name
		items := []attr.Item{}
		units := 0.0
		pre := db.prefetcher(p.t, p.keys, p.ka.ConsistentRead)
		for i, k := range p.keys {
			// Enforced capacity (engine/throttle.go): a key its table or
			// partition has no capacity for is left unprocessed, each
			// key read counting against the next at its least cost.
			throttled := false
			if e := db.admit(p.t, admission{row: k.row, pending: pending[name], eventual: !p.ka.ConsistentRead}); e != nil {
				throttled = true
				if firstThrottle == nil {
					firstThrottle = e
				}
			}
			if throttled || respBytes >= maxBatchGetResponse {
				u := out.UnprocessedKeys[name]
				u.AttributesToGet, u.ConsistentRead = p.ka.AttributesToGet, p.ka.ConsistentRead
				u.ProjectionExpression, u.ExpressionAttributeNames = p.ka.ProjectionExpression, p.ka.ExpressionAttributeNames
				u.Keys = append(u.Keys, p.ka.Keys[i])
				out.UnprocessedKeys[name] = u
				continue
			}
			it, size, err := pre.read(i, k)
			if err != nil {
				return nil, err
			}
			read++
			pending[name] += readUnits(0, p.ka.ConsistentRead)
			units += readUnits(size, p.ka.ConsistentRead)
			db.chargeKey(p.t, k.row, readUnits(size, p.ka.ConsistentRead), false)
			if it != nil {
				items = append(items, shape(it, projections[name], p.ka.AttributesToGet))
				respBytes += size
			}
		}
		out.Responses[name] = items
		if cc := db.consumed(p.t, in.ReturnConsumedCapacity, units); cc != nil {
			out.ConsumedCapacity = append(out.ConsumedCapacity, *cc)
		}
	}
	// "If none of the items can be processed due to insufficient
	// provisioned throughput on all of the tables in the request, then
	// BatchGetItem returns a ProvisionedThroughputExceededException" (API
	// reference, BatchGetItem).
	if read == 0 && firstThrottle != nil {
		return nil, firstThrottle
	}
	return out, nil
}

func sortedKeys[V any](m map[string]V) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

var errDuplicateKeys = dynamo.Validation(msgDuplicateKeys)

// requestItemsKeys checks the table names that key a batch request's
// RequestItems. DynamoDB reports them together, as one violation of the
// map's key constraint, with the whole map rendered by render.
func (c *constraints) requestItemsKeys(names []string, render func() string) {
	for _, name := range names {
		if len(name) < 3 || len(name) > 255 || !validTableChars(name) {
			if strings.HasPrefix(name, "arn:") && len(name) <= 1024 {
				continue
			}
			c.add("Value '%s' at 'requestItems' failed to satisfy constraint: Map keys must satisfy constraint: [Member must have length less than or equal to 255, Member must have length greater than or equal to 3, Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+]", render())
			return
		}
	}
}

// javaAttributeValue is how DynamoDB renders an attribute value inside a
// validation message: the Java object's default string, class name and
// hash code.
func javaAttributeValue(b *strings.Builder, seed int) {
	fmt.Fprintf(b, "com.amazonaws.dynamodb.v20120810.AttributeValue@%x", uint32(seed)*2654435761)
}

// javaItem renders an item as a Java map of attribute values.
func javaItem(b *strings.Builder, it attr.Item, seed int) {
	b.WriteByte('{')
	for i, k := range sortedKeys(it) {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(k)
		b.WriteByte('=')
		javaAttributeValue(b, seed*31+i+1)
	}
	b.WriteByte('}')
}

// jsonKeysAndAttributesMap renders BatchGetItem's RequestItems as
// DynamoDB echoes them in the constraint on the map's keys: as JSON, not
// in the Java form of BatchWriteItem's echo (paritysuite's
// tests/tier3/error-messages/batchGetItem.test.ts, "malformed table
// name", us-east-1 and eu-west-2 alike, 2026-10-09:
// {"bad!name":{"Keys":[{"pk":{"S":"a"}}]}}). The members other than Keys
// are not in that recording; they follow in the order of the Java form,
// each only when sent.
func jsonKeysAndAttributesMap(m map[string]dynamo.KeysAndAttributes, names []string) string {
	var b strings.Builder
	b.WriteByte('{')
	for i, name := range names {
		if i > 0 {
			b.WriteByte(',')
		}
		ka := m[name]
		jsonString(&b, name)
		b.WriteString(`:{`)
		n := 0
		member := func(field string) {
			if n > 0 {
				b.WriteByte(',')
			}
			n++
			jsonString(&b, field)
			b.WriteByte(':')
		}
		if ka.Keys != nil {
			member("Keys")
			b.WriteByte('[')
			for j, k := range ka.Keys {
				if j > 0 {
					b.WriteByte(',')
				}
				jsonItem(&b, k)
			}
			b.WriteByte(']')
		}
		if ka.AttributesToGet != nil {
			member("AttributesToGet")
			jsonStrings(&b, ka.AttributesToGet)
		}
		if ka.ConsistentRead {
			member("ConsistentRead")
			b.WriteString("true")
		}
		if ka.ProjectionExpression != "" {
			member("ProjectionExpression")
			jsonString(&b, ka.ProjectionExpression)
		}
		if ka.ExpressionAttributeNames != nil {
			member("ExpressionAttributeNames")
			b.WriteByte('{')
			for j, k := range sortedKeys(ka.ExpressionAttributeNames) {
				if j > 0 {
					b.WriteByte(',')
				}
				jsonString(&b, k)
				b.WriteByte(':')
				jsonString(&b, ka.ExpressionAttributeNames[k])
			}
			b.WriteByte('}')
		}
		b.WriteByte('}')
	}
	b.WriteByte('}')
	return b.String()
}

// jsonString writes s as a JSON string, with no HTML escaping.
func jsonString(b *strings.Builder, s string) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	b.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}

func jsonStrings(b *strings.Builder, ss []string) {
	b.WriteByte('[')
	for i, s := range ss {
		if i > 0 {
			b.WriteByte(',')
		}
		jsonString(b, s)
	}
	b.WriteByte(']')
}

// jsonItem writes an item or key in the JSON of DynamoDB's API, its
// attributes in name order.
func jsonItem(b *strings.Builder, it attr.Item) {
	b.WriteByte('{')
	for i, k := range sortedKeys(it) {
		if i > 0 {
			b.WriteByte(',')
		}
		jsonString(b, k)
		b.WriteByte(':')
		jsonValue(b, it[k])
	}
	b.WriteByte('}')
}

func jsonValue(b *strings.Builder, v attr.Value) {
	b.WriteByte('{')
	jsonString(b, v.Type.String())
	b.WriteByte(':')
	switch v.Type {
	case attr.TypeS, attr.TypeN:
		jsonString(b, v.S)
	case attr.TypeB:
		jsonString(b, base64.StdEncoding.EncodeToString(v.B))
	case attr.TypeBOOL, attr.TypeNULL:
		fmt.Fprintf(b, "%t", v.Bool)
	case attr.TypeM:
		jsonItem(b, attr.Item(v.M))
	case attr.TypeL:
		b.WriteByte('[')
		for i, e := range v.L {
			if i > 0 {
				b.WriteByte(',')
			}
			jsonValue(b, e)
		}
		b.WriteByte(']')
	case attr.TypeSS, attr.TypeNS:
		jsonStrings(b, v.SS)
	case attr.TypeBS:
		b.WriteByte('[')
		for i, e := range v.BS {
			if i > 0 {
				b.WriteByte(',')
			}
			jsonString(b, base64.StdEncoding.EncodeToString(e))
		}
		b.WriteByte(']')
	default:
		b.WriteString("null")
	}
	b.WriteByte('}')
}

// batchPrefetch is the tail of BatchGetItem's reads on a store that reads
// many keys at once (storage.MultiGetter): the keys of one table are read
// prefetchKeys at a time, so a batch of 100 is a few round trips on
// PostgreSQL, and at most prefetchKeys items (4 MB at most at 400 KB
// each) are held ahead of the 16 MB answer limit's check.
type batchPrefetch struct {
	db   *DB
	t    *table
	keys []itemKey
	mg   storage.MultiGetter
	// lag is the overlay an eventually consistent read sees earlier
	// versions in, nil for a consistent one or while it is off.
	lag *lagOverlay
	// from is the index of vals[0]; vals and found hold a chunk.
	from  int
	vals  [][]byte
	found []bool
}

const prefetchKeys = 10

func (db *DB) prefetcher(t *table, keys []itemKey, consistent bool) *batchPrefetch {
	p := &batchPrefetch{db: db, t: t, keys: keys}
	p.mg, _ = db.store.(storage.MultiGetter)
	if !consistent {
		p.lag = db.lag.Load()
	}
	return p
}

// read returns the item at keys[i] (nil if none) and its size.
func (p *batchPrefetch) read(i int, k itemKey) (attr.Item, int, error) {
	if p.lag != nil {
		if val, found, ok := p.lag.lookup(k.row); ok {
			p.db.noteStaleRead(keyspace{p.t, p.t.primary})
			if !found {
				return nil, 0, nil
			}
			return p.parse(val)
		}
	}
	if p.mg == nil {
		return p.db.readItem(p.t, k, true)
	}
	if i < p.from || i >= p.from+len(p.vals) {
		end := min(i+prefetchKeys, len(p.keys))
		rows := make([][]byte, 0, end-i)
		for _, key := range p.keys[i:end] {
			rows = append(rows, key.row)
		}
		vals, found, err := p.mg.GetMany(rows)
		if err != nil {
			return nil, 0, err
		}
		p.from, p.vals, p.found = i, vals, found
	}
	j := i - p.from
	if !p.found[j] {
		return nil, 0, nil
	}
	val := p.vals[j]
	p.vals[j] = nil // the answer keeps what it needs
	return p.parse(val)
}

// parse decodes a row of the table read.
func (p *batchPrefetch) parse(val []byte) (attr.Item, int, error) {
	s, err := parseRow(val)
	if err != nil {
		return nil, 0, fmt.Errorf("table %q: %w", p.t.meta.Name, err)
	}
	it, err := s.Item()
	if err != nil {
		return nil, 0, fmt.Errorf("table %q: %w", p.t.meta.Name, err)
	}
	return it, s.size, nil
}
