package engine

import (
	"sort"

	"github.com/dynago/dynago/attr"
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
	c.returnConsumedCapacity(in.ReturnConsumedCapacity)
	names := sortedKeys(in.RequestItems)
	for _, name := range names {
		c.tableName("requestItems."+name+".member.tableName", name)
		ka := in.RequestItems[name]
		if len(ka.Keys) == 0 {
			c.add("Value '[]' at 'requestItems.%s.member.keys' failed to satisfy constraint: Member must have length greater than or equal to 1", name)
		}
		c.attributesToGet(ka.AttributesToGet)
	}
	if err := c.err(); err != nil {
		return nil, err
	}
	total := 0
	for _, name := range names {
		total += len(in.RequestItems[name].Keys)
	}
	if total > maxBatchGetKeys {
		return nil, Validation("Too many items requested for the BatchGetItem call")
	}

	type plan struct {
		t    *table
		ka   KeysAndAttributes
		keys []itemKey
	}
	plans := make([]plan, 0, len(names))
	for _, name := range names {
		ka := in.RequestItems[name]
		if err := checkProjection(ka.ProjectionExpression, ka.AttributesToGet); err != nil {
			return nil, err
		}
		for _, key := range ka.Keys {
			if err := canonicalize(key); err != nil {
				return nil, err
			}
		}
		t, err := db.tableOrNotFound(name)
		if err != nil {
			return nil, err
		}
		p := plan{t: t, ka: ka, keys: make([]itemKey, len(ka.Keys))}
		seen := make(map[string]bool, len(ka.Keys))
		for i, key := range ka.Keys {
			k, err := t.keyFromKey(key)
			if err != nil {
				return nil, err
			}
			if seen[string(k.row)] {
				return nil, Validation("Provided list of item keys contains duplicates")
			}
			seen[string(k.row)] = true
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
		for i, k := range p.keys {
			if respBytes >= maxBatchGetResponse {
				u := out.UnprocessedKeys[name]
				u.AttributesToGet, u.ConsistentRead = p.ka.AttributesToGet, p.ka.ConsistentRead
				u.ProjectionExpression, u.ExpressionAttributeNames = p.ka.ProjectionExpression, p.ka.ExpressionAttributeNames
				u.Keys = append(u.Keys, p.ka.Keys[i])
				out.UnprocessedKeys[name] = u
				continue
			}
			it, size, err := db.readItem(p.t, k)
			if err != nil {
				return nil, err
			}
			units += readUnits(size, p.ka.ConsistentRead)
			if it != nil {
				items = append(items, project(it, p.ka.AttributesToGet))
				respBytes += size
			}
		}
		out.Responses[name] = items
		if cc := consumed(p.t, in.ReturnConsumedCapacity, units); cc != nil {
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
