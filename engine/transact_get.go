package engine

import (
	"fmt"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/internal/expr"
)

// TransactGetItems reads up to 100 items, across tables, from one Pebble
// snapshot: the items are as they were at one instant, so the reads never
// see part of a transaction or of a batch. It takes no lock; a write never
// cancels it as it may in DynamoDB. Each item is billed at twice the
// units of a strongly consistent read.
//
// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactGetItems.html
func (db *DB) TransactGetItems(in *dynamo.TransactGetItemsInput) (*dynamo.TransactGetItemsOutput, error) {
	return run(db, opTransactGetItems, func() (*dynamo.TransactGetItemsOutput, error) { return db.transactGetItems(in, nil) })
}

func (db *DB) transactGetItems(in *dynamo.TransactGetItemsInput, st *statementExprs) (*dynamo.TransactGetItemsOutput, error) {
	var c constraints
	switch {
	case in.TransactItems == nil:
		c.notNull("transactItems")
	case len(in.TransactItems) == 0:
		c.add(fmtConstraintMinLength, "[]", "transactItems", 1)
	case len(in.TransactItems) > maxTransactItems:
		c.add(fmtConstraintMaxLength, javaObjects("TransactGetItem", len(in.TransactItems)), "transactItems", 100)
	}
	c.returnConsumedCapacity(in.ReturnConsumedCapacity)
	for i, ti := range in.TransactItems {
		f := fmt.Sprintf("transactItems.%d.member.get", i+1)
		if ti.Get == nil {
			c.notNull(f)
			continue
		}
		c.tableName(f+".tableName", ti.Get.TableName)
		if ti.Get.Key == nil {
			c.notNull(f + ".key")
		}
	}
	if err := c.err(); err != nil {
		return nil, err
	}

	type read struct {
		t    *table
		k    itemKey
		proj *expr.Projection
	}
	reads := make([]read, len(in.TransactItems))
	for i, ti := range in.TransactItems {
		g := ti.Get
		proj, err := compileProjection(db.opts.ParseCaches.expr, expr.OpGetItem, g.ProjectionExpression, g.EmptyExpressions, g.ExpressionAttributeNames, nil, st.exprs(i))
		if err != nil {
			return nil, err
		}
		if err := placedValue(g.ValueError, g.Key); err != nil {
			return nil, err
		}
		if err := canonicalize(g.Key); err != nil {
			return nil, err
		}
		reads[i].proj = proj
	}
	for i, ti := range in.TransactItems {
		t, err := db.tableOrNotFound(ti.Get.TableName)
		if err != nil {
			return nil, err
		}
		reads[i].t = t
	}
	// As in TransactWriteItems: an empty key value is refused for the
	// whole request (no recording for TransactGetItems; chose the
	// transactional writes' answer), and a key that does not match the
	// schema cancels the transaction with a ValidationError reason at
	// that Get (the paritysuite DynamoDB conformance suite, tests/tier3/
	// error-messages/transactGetItems.test.ts: Key {} is cancelled with
	// [ValidationError]; the reason's text is not recorded, chose
	// GetItem's "The provided key element does not match the schema").
	for i, ti := range in.TransactItems {
		if err := reads[i].t.emptyLookupKey(ti.Get.Key); err != nil {
			return nil, err
		}
	}
	for i, ti := range in.TransactItems {
		k, err := reads[i].t.primaryKey(ti.Get.Key, keyOfKey)
		if err != nil {
			return nil, cancelAt(len(reads), i, err)
		}
		reads[i].k = k
		db.noteItemKey(reads[i].t, k)
	}
	seen := make(map[string]bool, len(reads))
	for _, r := range reads {
		if seen[string(r.k.row)] {
			return nil, errTransactDuplicate
		}
		seen[string(r.k.row)] = true
	}
	for _, r := range reads {
		if !db.enforcing(r.t) {
			continue
		}
		// Enforced capacity (engine/throttle.go): a transactional read
		// costs at least two units.
		tx := make([]txAdmission, len(reads))
		for i, r := range reads {
			tx[i] = txAdmission{t: r.t, row: r.k.row, units: 2}
		}
		if err := db.admitTransaction(tx, false); err != nil {
			return nil, err
		}
		break
	}

	snap, err := db.store.NewSnapshot()
	if err != nil {
		return nil, err
	}
	defer snap.Close()
	out := &dynamo.TransactGetItemsOutput{Responses: make([]dynamo.ItemResponse, len(reads))}
	units := map[string]float64{}
	tables := map[string]*table{}
	for i, r := range reads {
		raw, found, err := snap.Get(r.k.row, nil)
		if err != nil {
			return nil, err
		}
		size := 0
		var it attr.Item
		if found {
			s, err := parseRow(raw)
			if err != nil {
				return nil, fmt.Errorf("table %q: %w", r.t.meta.Name, err)
			}
			size = s.size
			if it, err = s.Item(); err != nil {
				return nil, fmt.Errorf("table %q: %w", r.t.meta.Name, err)
			}
			// A projection that matches nothing leaves the response
			// without an Item, where GetItem answers "Item": {}
			// (ExtendDB issue 74, 2026-05, DynamoDB's body quoted:
			// {"Responses":[{}]}).
			if p := shape(it, r.proj, nil); len(p) > 0 {
				out.Responses[i].Item = p
			}
		}
		tables[r.t.meta.Name] = r.t
		units[r.t.meta.Name] += 2 * readUnits(size, true)
	}
	for _, name := range sortedKeys(tables) {
		if cc := db.consumedTx(tables[name], in.ReturnConsumedCapacity, units[name], nil, true); cc != nil {
			out.ConsumedCapacity = append(out.ConsumedCapacity, *cc)
		}
	}
	return out, nil
}
