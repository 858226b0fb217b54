package engine

import (
	"fmt"
	"strings"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
)

// BatchWriteItem puts or deletes up to 25 items across tables. The whole
// request is validated first (tables, keys, sizes, duplicates), so a bad
// request changes nothing; then its writes commit together, in one batch
// (commitBatchWrites). dynago never throttles, so UnprocessedItems is
// always empty.
//
// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchWriteItem.html
func (db *DB) BatchWriteItem(in *dynamo.BatchWriteItemInput) (*dynamo.BatchWriteItemOutput, error) {
	return run(db, opBatchWriteItem, func() (*dynamo.BatchWriteItemOutput, error) { return db.batchWriteItem(in) })
}

func (db *DB) batchWriteItem(in *dynamo.BatchWriteItemInput) (*dynamo.BatchWriteItemOutput, error) {
	if in.RequestItems != nil && len(in.RequestItems) == 0 {
		return nil, dynamo.Validation(msgBatchWriteRequestItemsRequired)
	}
	var c constraints
	if in.RequestItems == nil {
		c.notNull("requestItems")
	}
	c.returnConsumedCapacity(in.ReturnConsumedCapacity)
	c.returnItemCollectionMetrics(in.ReturnItemCollectionMetrics)
	names := sortedKeys(in.RequestItems)
	render := func() string { return javaWriteRequestMap(in.RequestItems, names) }
	total := 0
	badList := false
	for _, name := range names {
		n := len(in.RequestItems[name])
		total += n
		badList = badList || n == 0 || n > maxBatchWriteRequests
	}
	if badList {
		c.add("Value '%s' at 'requestItems' failed to satisfy constraint: Map value must satisfy constraint: [Member must have length less than or equal to 25, Member must have length greater than or equal to 1]", render())
	}
	for _, name := range names {
		for i, wr := range in.RequestItems[name] {
			// deleteRequest before putRequest (dynalite's test against
			// DynamoDB, "incorrect attributes").
			if wr.DeleteRequest != nil && wr.DeleteRequest.Key == nil {
				c.notNull(fmt.Sprintf("requestItems.%s.member.%d.member.deleteRequest.key", name, i+1))
			}
			if wr.PutRequest != nil && wr.PutRequest.Item == nil {
				c.notNull(fmt.Sprintf("requestItems.%s.member.%d.member.putRequest.item", name, i+1))
			}
		}
	}
	if err := c.err(); err != nil {
		return nil, err
	}
	// The table names are checked only when every other member passes
	// (engine/validation_order.go).
	c.requestItemsKeys(names, render)
	if err := c.err(); err != nil {
		return nil, err
	}
	if total > maxBatchWriteRequests {
		return nil, dynamo.Validation(msgBatchWriteTooMany)
	}

	// Checks that need no table come first: DynamoDB refuses a bad value or
	// an oversized item even for a table that does not exist.
	for _, name := range names {
		for _, wr := range in.RequestItems[name] {
			if (wr.PutRequest == nil) == (wr.DeleteRequest == nil) {
				// DynamoDB's words, even for a request with neither.
				return nil, dynamo.Validation(msgWriteRequestNotOneAction)
			}
			if wr.PutRequest != nil {
				if err := placedValue(wr.ValueError, wr.PutRequest.Item); err != nil {
					return nil, err
				}
				if err := canonicalize(wr.PutRequest.Item); err != nil {
					return nil, err
				}
				if attr.ItemSize(wr.PutRequest.Item) > attr.MaxItemSize {
					return nil, errItemTooLarge
				}
			} else {
				if err := placedValue(wr.ValueError, wr.DeleteRequest.Key); err != nil {
					return nil, err
				}
				if err := canonicalize(wr.DeleteRequest.Key); err != nil {
					return nil, err
				}
			}
		}
	}

	ops := make([]batchWrite, 0, total)
	seen := make(map[string]bool, total)
	for _, name := range names {
		t, err := db.tableOrNotFound(name)
		if err != nil {
			return nil, err
		}
		for _, wr := range in.RequestItems[name] {
			var o batchWrite
			o.t, o.req = t, wr
			if wr.PutRequest != nil {
				o.item = wr.PutRequest.Item
				if o.k, err = t.primaryKey(o.item, keyOfBatchPut); err != nil {
					return nil, err
				}
				if err := t.checkIndexKeys(o.item); err != nil {
					return nil, err
				}
				if err := t.checkVectors(o.item, nil, false); err != nil {
					return nil, err
				}
			} else if o.k, err = t.primaryKey(wr.DeleteRequest.Key, keyOfKey); err != nil {
				return nil, err
			}
			if seen[string(o.k.row)] {
				return nil, errDuplicateKeys
			}
			db.noteItemKey(t, o.k)
			seen[string(o.k.row)] = true
			ops = append(ops, o)
		}
	}

	ops, unprocessed, err := db.admitBatchWrites(ops)
	if err != nil {
		return nil, err
	}
	units := map[string]float64{}
	indexUnits := map[string]map[string]float64{}
	vectorBytes := map[string]map[string]float64{}
	metrics := map[string][]dynamo.ItemCollectionMetrics{}
	results, err := db.commitBatchWrites(ops)
	if err != nil {
		return nil, err
	}
	for i, o := range ops {
		r := results[i]
		units[o.t.meta.Name] += writeUnits(max(r.oldSize, r.newSize))
		db.chargeKey(o.t, o.k.row, writeUnits(max(r.oldSize, r.newSize)), true)
		if m := o.t.collectionMetrics(in.ReturnItemCollectionMetrics, o.k); m != nil {
			metrics[o.t.meta.Name] = append(metrics[o.t.meta.Name], *m)
		}
		for name, u := range db.resultIndexUnits(o.t, o.k, r, in.ReturnConsumedCapacity) {
			if indexUnits[o.t.meta.Name] == nil {
				indexUnits[o.t.meta.Name] = map[string]float64{}
			}
			indexUnits[o.t.meta.Name][name] += u
		}
		for name, n := range db.resultVectorBytes(o.t, o.k, r, in.ReturnConsumedCapacity) {
			if vectorBytes[o.t.meta.Name] == nil {
				vectorBytes[o.t.meta.Name] = map[string]float64{}
			}
			vectorBytes[o.t.meta.Name][name] += n
		}
	}
	out := &dynamo.BatchWriteItemOutput{UnprocessedItems: unprocessed}
	for _, name := range names {
		// The tables were looked up for the writes: the catalog has
		// them, unless one was deleted since.
		t := db.lookupCached(name)
		if t == nil {
			continue
		}
		if cc := withVectorBytes(db.consumedWrite(t, in.ReturnConsumedCapacity, units[t.meta.Name], indexUnits[t.meta.Name]), vectorBytes[t.meta.Name]); cc != nil {
			out.ConsumedCapacity = append(out.ConsumedCapacity, *cc)
		}
	}
	if in.ReturnItemCollectionMetrics == dynamo.ReturnItemCollectionMetricsSize {
		out.ItemCollectionMetrics = metrics
	}
	return out, nil
}

// admitBatchWrites sorts a BatchWriteItem's writes by enforced capacity
// (engine/throttle.go): those a table, GSI or partition has capacity
// for, in order, and the others as UnprocessedItems, by table. Each write
// let through counts against the next of its table at its least cost
// (the item put, or one unit for a delete), as its units are charged only
// once all have run. When no write has capacity the request fails with
// the first one's throttling error: "If none of the items can be
// processed due to insufficient provisioned throughput on all of the
// tables in the request, then BatchWriteItem returns a
// ProvisionedThroughputExceededException" (API reference, BatchWriteItem).
func (db *DB) admitBatchWrites(ops []batchWrite) ([]batchWrite, map[string][]dynamo.WriteRequest, error) {
	unprocessed := map[string][]dynamo.WriteRequest{}
	if !db.anyEnforced(ops) {
		return ops, unprocessed, nil
	}
	pending := map[string]float64{}
	kept := ops[:0:0]
	var first error
	for _, o := range ops {
		name := o.t.meta.Name
		if e := db.admit(o.t, admission{write: true, row: o.k.row, pending: pending[name]}); e != nil {
			if first == nil {
				first = e
			}
			unprocessed[name] = append(unprocessed[name], o.req)
			continue
		}
		if o.item != nil {
			pending[name] += writeUnits(attr.ItemSize(o.item))
		} else {
			pending[name]++
		}
		kept = append(kept, o)
	}
	if len(kept) == 0 {
		return nil, nil, first
	}
	return kept, unprocessed, nil
}

// anyEnforced reports whether a write of ops is on a table whose capacity
// is enforced.
func (db *DB) anyEnforced(ops []batchWrite) bool {
	for _, o := range ops {
		if db.enforcing(o.t) {
			return true
		}
	}
	return false
}

// batchWrite is one write of a BatchWriteItem.
type batchWrite struct {
	t    *table
	k    itemKey
	item attr.Item // nil: delete
	req  dynamo.WriteRequest
}

// commitBatchWrites applies a BatchWriteItem's writes: it locks their
// items, in one order as a transaction does (itemLocks.lockAll), reads
// them (loadRowsForWrite: on PostgreSQL in one round trip), stages every
// write through stageWrite into one batch and commits it, returning what
// each write saw and did. One commit for the request, not one per item:
// one admission, one log write and, with the store's sync, one share of
// a group fsync, where each item waited for its own in turn; on
// PostgreSQL two round trips for the request, where each write took two
// of its own. The writes land together, which DynamoDB's promise (each
// item whole or not at all) allows and no client can tell apart. A
// delete of an item that is not there writes nothing. On a shared store,
// when another node changed one of the items or tables since they were
// read, nothing is applied and the request's envelope runs it again on
// the catalog read anew (engine/envelope.go), as it would a single write.
func (db *DB) commitBatchWrites(ops []batchWrite) ([]writeResult, error) {
	rows := make([][]byte, len(ops))
	for i, o := range ops {
		rows[i] = o.k.row
	}
	held := db.locks.lockAll(rows)
	defer db.locks.unlockAll(held)
	// The old rows, given back once the batch, which may refer to them,
	// is done (deferred calls run in reverse order).
	buf := getRowBuf()
	defer func() { putRowBuf(buf, *buf) }()
	olds, err := db.loadRowsForWrite(len(ops), func(i int) (*table, itemKey) { return ops[i].t, ops[i].k }, buf)
	if err != nil {
		return nil, err
	}

	results := make([]writeResult, len(ops))
	b := db.newWriteBatch()
	defer b.release()
	staged := false
	for i, o := range ops {
		old := &olds[i]
		r := &results[i]
		r.oldSize = old.size
		if o.item == nil && !old.found {
			continue
		}
		if r.newSize, err = db.stageWrite(b, o.t, o.k, old, o.item, byUser); err != nil {
			return nil, err
		}
		if old.done { // maintainIndexes decodes the old item of a table with indexes
			r.old = old.item
		}
		r.new, r.wrote = o.item, true
		staged = true
	}
	if staged {
		if err := b.Commit(); err != nil {
			return nil, err
		}
	}
	return results, nil
}

// javaWriteRequestMap renders request items the way DynamoDB's validation
// messages do: {table=[WriteRequest(putRequest=PutRequest(item={a=
// com.amazonaws.dynamodb.v20120810.AttributeValue@1a2b3c4d},
// workloadProfileName=null), deleteRequest=null), ...]}. The hash codes
// are Java object identities; clients match on the constraint text.
func javaWriteRequestMap(m map[string][]dynamo.WriteRequest, names []string) string {
	var b strings.Builder
	b.WriteByte('{')
	for i, name := range names {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(name)
		b.WriteString("=[")
		for j, wr := range m[name] {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString("WriteRequest(putRequest=")
			if wr.PutRequest == nil {
				b.WriteString("null")
			} else {
				b.WriteString("PutRequest(item=")
				javaNullableItem(&b, wr.PutRequest.Item, i*7919+j)
				b.WriteString(", workloadProfileName=null)")
			}
			b.WriteString(", deleteRequest=")
			if wr.DeleteRequest == nil {
				b.WriteString("null")
			} else {
				b.WriteString("DeleteRequest(key=")
				javaNullableItem(&b, wr.DeleteRequest.Key, i*7919+j)
				b.WriteString(", workloadProfileName=null)")
			}
			b.WriteByte(')')
		}
		b.WriteByte(']')
	}
	b.WriteByte('}')
	return b.String()
}

func javaNullableItem(b *strings.Builder, it attr.Item, seed int) {
	if it == nil {
		b.WriteString("null")
		return
	}
	javaItem(b, it, seed)
}
