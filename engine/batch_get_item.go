package engine

import (
	"fmt"
	"sort"
	"strings"

	"github.com/dynago/dynago/attr"
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
func (db *DB) BatchGetItem(in *BatchGetItemInput) (*BatchGetItemOutput, error) {
	var c constraints
	if in.RequestItems == nil {
		c.add("Value null at 'requestItems' failed to satisfy constraint: Member must not be null")
	} else if len(in.RequestItems) == 0 {
		c.add("Value '{}' at 'requestItems' failed to satisfy constraint: Member must have length greater than or equal to 1")
	}
	// The table names come before ReturnConsumedCapacity
	// (engine/validation_order.go).
	names := sortedKeys(in.RequestItems)
	c.requestItemsKeys(names, func() string { return javaKeysAndAttributesMap(in.RequestItems, names) })
	c.returnConsumedCapacity(in.ReturnConsumedCapacity)
	for _, name := range names {
		ka := in.RequestItems[name]
		field := "requestItems." + name + ".member."
		switch {
		case ka.Keys == nil:
			c.add("Value null at '%skeys' failed to satisfy constraint: Member must not be null", field)
		case len(ka.Keys) == 0:
			c.add("Value '[]' at '%skeys' failed to satisfy constraint: Member must have length greater than or equal to 1", field)
		case len(ka.Keys) > maxBatchGetKeys:
			c.add("Value '%s' at '%skeys' failed to satisfy constraint: Member must have length less than or equal to 100", javaKeyList(ka.Keys), field)
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
		return nil, Validation(msgBatchGetTooMany)
	}

	// Everything that needs no table comes first, duplicate keys included:
	// DynamoDB reports them even for a table that does not exist.
	projections := make(map[string]*expr.Projection, len(names))
	for _, name := range names {
		ka := in.RequestItems[name]
		proj, err := checkGetProjection(ka.ProjectionExpression, ka.EmptyExpressions, ka.AttributesToGet, ka.ExpressionAttributeNames)
		if err != nil {
			return nil, err
		}
		projections[name] = proj
		if ka.ValueError != nil {
			// The keys' names first (placedValue).
			for _, key := range ka.Keys {
				if err := attr.CheckNames(key); err != nil {
					return nil, attrError(err)
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
		ka   KeysAndAttributes
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
			k, err := t.keyFromKey(key)
			if err != nil {
				return nil, err
			}
			p.keys[i] = k
		}
		plans = append(plans, p)
	}

	out := &BatchGetItemOutput{Responses: map[string][]attr.Item{}, UnprocessedKeys: map[string]KeysAndAttributes{}}
	respBytes := 0
	for _, p := range plans {
		name := p.t.meta.Name
		items := []attr.Item{}
		units := 0.0
		pre := db.prefetcher(p.t, p.keys)
		for i, k := range p.keys {
			if respBytes >= maxBatchGetResponse {
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
			units += readUnits(size, p.ka.ConsistentRead)
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

var errDuplicateKeys = Validation(msgDuplicateKeys)

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

// javaKeyList renders a list of keys as DynamoDB's messages do.
func javaKeyList(keys []attr.Item) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, k := range keys {
		if i > 0 {
			b.WriteString(", ")
		}
		javaItem(&b, k, i)
	}
	b.WriteByte(']')
	return b.String()
}

// javaKeysAndAttributesMap renders BatchGetItem's RequestItems as
// DynamoDB's messages do.
func javaKeysAndAttributesMap(m map[string]KeysAndAttributes, names []string) string {
	var b strings.Builder
	b.WriteByte('{')
	for i, name := range names {
		if i > 0 {
			b.WriteString(", ")
		}
		ka := m[name]
		b.WriteString(name)
		b.WriteString("=KeysAndAttributes(keys=")
		if ka.Keys == nil {
			b.WriteString("null")
		} else {
			b.WriteString(javaKeyList(ka.Keys))
		}
		fmt.Fprintf(&b, ", attributesToGet=%s, consistentRead=%t, projectionExpression=%s, expressionAttributeNames=%s)",
			javaStrings(ka.AttributesToGet), ka.ConsistentRead, javaString(ka.ProjectionExpression), javaStringMap(ka.ExpressionAttributeNames))
	}
	b.WriteByte('}')
	return b.String()
}

func javaString(s string) string {
	if s == "" {
		return "null"
	}
	return s
}

func javaStrings(s []string) string {
	if s == nil {
		return "null"
	}
	return "[" + strings.Join(s, ", ") + "]"
}

func javaStringMap(m map[string]string) string {
	if m == nil {
		return "null"
	}
	var parts []string
	for _, k := range sortedKeys(m) {
		parts = append(parts, k+"="+m[k])
	}
	return "{" + strings.Join(parts, ", ") + "}"
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
	// from is the index of vals[0]; vals and found hold a chunk.
	from  int
	vals  [][]byte
	found []bool
}

const prefetchKeys = 10

func (db *DB) prefetcher(t *table, keys []itemKey) *batchPrefetch {
	p := &batchPrefetch{db: db, t: t, keys: keys}
	p.mg, _ = db.store.(storage.MultiGetter)
	return p
}

// read returns the item at keys[i] (nil if none) and its size.
func (p *batchPrefetch) read(i int, k itemKey) (attr.Item, int, error) {
	if p.mg == nil {
		return p.db.readItem(p.t, k)
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
	s, err := parseRow(p.vals[j])
	if err != nil {
		return nil, 0, fmt.Errorf("table %q: %w", p.t.meta.Name, err)
	}
	p.vals[j] = nil // the answer keeps what it needs
	it, err := s.Item()
	if err != nil {
		return nil, 0, fmt.Errorf("table %q: %w", p.t.meta.Name, err)
	}
	return it, s.size, nil
}
