package engine

import (
	"fmt"
	"slices"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/internal/expr"
	"github.com/dynago/dynago/internal/keys"
)

// keyspace is what a Query or Scan reads: a table itself, as its index 0
// (t.primary), or one of its secondary indexes. The index gives the key
// (lists of HASH and RANGE attributes), the row key (that key, then the
// table's) and the projection; everything a read does with keys, from the
// key condition to the LastEvaluatedKey, goes through these, so the table
// and its indexes are read by one code. Another kind of index is another
// case of index, read through the same keyspace.
type keyspace struct {
	t  *table
	ix *index
}

// isTable reports whether ks is the table itself.
func (ks keyspace) isTable() bool { return ks.ix == ks.t.primary }

// queryRange returns the row-key range a key condition on ks selects.
func (ks keyspace) queryRange(kc *keyCondition) (rangeRead, error) {
	var r rangeRead
	part, err := keys.PartitionPrefix(ks.t.meta.ID, ks.ix.meta.ID, kc.pk.values())
	if err != nil {
		return r, fmt.Errorf("encode partition: %w", err)
	}
	if kc.op == keys.OpBetween && cmp(kc.a, kc.b) > 0 {
		// Only legacy KeyConditions get here: the expression package
		// refuses reversed bounds in a KeyConditionExpression.
		return r, dynamo.Validation(msgBetweenReversed)
	}
	r.lower, r.upper, err = keys.SortKeyRange(part, kc.eq.values(), kc.op, kc.a, kc.b)
	if err != nil {
		return r, fmt.Errorf("encode sort key range: %w", err)
	}
	return r, nil
}

// scanRange returns the row-key range of a Scan of ks: all of it, or
// parallel-scan segment segment of total.
func (ks keyspace) scanRange(segment, total *int32) (r rangeRead) {
	if segment != nil {
		r.lower, r.upper = keys.SegmentBounds(ks.t.meta.ID, ks.ix.meta.ID, int(*segment), int(*total))
	} else {
		r.lower = keys.IndexPrefix(ks.t.meta.ID, ks.ix.meta.ID)
		r.upper = keys.PrefixEnd(r.lower)
	}
	return r
}

// checkFilterKeys refuses a Query filter on a key attribute of ix: the
// key condition is where keys are constrained. A HASH attribute is named
// first, whatever the order written.
//
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Query.FilterExpression.html
func (ix *index) checkFilterKeys(filter *expr.Condition, legacy bool) error {
	if filter == nil {
		return nil
	}
	used := topLevelNames(filter)
	for _, list := range [2][]keyAttr{ix.hash, ix.rng} {
		for _, a := range list {
			if slices.Contains(used, a.name) {
				return dynamo.Validation(msgFilterOnKey(legacy, a.name))
			}
		}
	}
	return nil
}

// startKey validates an ExclusiveStartKey for a read of ks: exactly the
// attributes of its row key, of their types, or the error bad, whose text
// differs between Query and Scan. It returns the keyspace's key values and
// the row key to resume after.
func (ks keyspace) startKey(esk attr.Item, bad error) (pk, sk keyTuple, row []byte, err error) {
	ix := ks.ix
	var buf [2*maxIndexKeyAttrsEach + 2]attr.Value
	if _, _, err := ix.keyOf(esk, keyOfStartKey, bad, buf[:0]); err != nil {
		return pk, sk, nil, err
	}
	for _, a := range ix.hash {
		pk.add(esk[a.name])
	}
	for _, a := range ix.rng {
		sk.add(esk[a.name])
	}
	if ks.isTable() {
		row, err = keys.AppendRowKey(nil, ks.t.meta.ID, 0, pk.values(), sk.values())
	} else {
		var bpk, bsk keyTuple
		for _, a := range ks.t.primary.hash {
			bpk.add(esk[a.name])
		}
		for _, a := range ks.t.primary.rng {
			bsk.add(esk[a.name])
		}
		row, err = keys.AppendIndexRowKey(nil, ks.t.meta.ID, ix.meta.ID, pk.values(), sk.values(), bpk.values(), bsk.values())
	}
	if err != nil {
		return pk, sk, nil, bad
	}
	return pk, sk, row, nil
}

// lastEvaluatedKey returns the row key attributes of the item a page
// stopped at, or nil when the page reached the end of its range.
func (ix *index) lastEvaluatedKey(last attr.Item) attr.Item {
	if last == nil {
		return nil
	}
	k := make(attr.Item, len(ix.rowKey))
	for _, a := range ix.rowKey {
		k[a.name] = last[a.name]
	}
	return k
}
