package engine

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/internal/expr"
)

// Transaction limits.
// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html
const (
	maxTransactItems     = 100
	maxTransactBytes     = 4 << 20 // aggregate size of the items written
	maxClientTokenLength = 36
)

// Cancellation reason codes.
// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html#API_TransactWriteItems_Errors
const (
	ReasonNone                   = "None"
	ReasonConditionalCheckFailed = "ConditionalCheckFailed"
	ReasonValidationError        = "ValidationError"
)

var (
	errTransactDuplicate = dynamo.Validation("Transaction request cannot include multiple operations on one item")
	errTransactOneAction = dynamo.Validation("TransactItems can only contain one of Check, Put, Update or Delete")
	errTransactTooLarge  = dynamo.Validation("Transaction request size has exceeded the maximum allowed size")
)

// Kinds of transaction actions.
type txKind uint8

const (
	txCheck txKind = iota
	txPut
	txUpdate
	txDelete
)

// txAction is one action of a TransactWriteItems request, validated and
// located.
type txAction struct {
	kind    txKind
	table   string
	t       *table
	k       itemKey
	item    attr.Item // Put's item
	key     attr.Item // the others' key
	w       writeExprs
	onFail  string // ReturnValuesOnConditionCheckFailure
	old     storedItem
	next    attr.Item
	newSize int
	writes  bool // stage next (a delete of a missing item does not)
}

// TransactWriteItems applies up to 100 writes and condition checks, across
// tables and at most one per item, all or none. The items' locks are taken
// in one global order (itemLocks.lockAll), every condition is checked and
// every new item computed while they are held, and the writes, with their
// counters and index entries, commit in one Pebble batch. Where DynamoDB
// would cancel a transaction that meets a concurrent one on the same item
// (TransactionConflict), dynago makes the later one wait for the lock:
// transactions and single-item writes serialise instead of failing.
//
// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html
func (db *DB) TransactWriteItems(in *dynamo.TransactWriteItemsInput) (*dynamo.TransactWriteItemsOutput, error) {
	return run(db, opTransactWriteItems, func() (*dynamo.TransactWriteItemsOutput, error) { return db.transactWriteItems(in, nil) })
}

func (db *DB) transactWriteItems(in *dynamo.TransactWriteItemsInput, st *statementExprs) (*dynamo.TransactWriteItemsOutput, error) {
	acts, err := db.prepareTransactWrite(in, st)
	if err != nil {
		return nil, err
	}
	if err := db.admitTransactWrite(acts); err != nil {
		return nil, err
	}
	var tok *tokenEntry
	var fp [32]byte
	if in.ClientRequestTokenSet {
		fp = transactFingerprint(in)
		var repeat bool
		tok, repeat, err = db.beginToken(in.ClientRequestToken, fp)
		if err != nil {
			return nil, err
		}
		if repeat {
			return db.repeatedTransact(in, acts)
		}
		// Deferred, so that even a panic releases requests waiting on
		// the token.
		defer db.finishToken(in.ClientRequestToken, tok)
	}
	return db.runTransactWrite(in, acts, tok != nil, fp)
}

// admitTransactWrite admits a transaction's actions when a table of theirs
// has its capacity enforced (engine/throttle.go); otherwise it costs
// nothing.
func (db *DB) admitTransactWrite(acts []*txAction) error {
	enforced := false
	for _, a := range acts {
		if db.enforcing(a.t) {
			enforced = true
			break
		}
	}
	if !enforced {
		return nil
	}
	tx := make([]txAdmission, len(acts))
	for i, a := range acts {
		// The least a transactional write costs: twice its item's
		// units, or two.
		tx[i] = txAdmission{t: a.t, row: a.k.row, units: 2}
		if a.kind == txPut {
			tx[i].units = 2 * writeUnits(attr.ItemSize(a.item))
		}
	}
	return db.admitTransaction(tx, true)
}

// prepareTransactWrite validates a request as DynamoDB does, compiles its
// expressions and locates its items.
func (db *DB) prepareTransactWrite(in *dynamo.TransactWriteItemsInput, st *statementExprs) ([]*txAction, error) {
	var c constraints
	switch {
	case in.TransactItems == nil:
		c.notNull("transactItems")
	case len(in.TransactItems) == 0:
		c.add(fmtConstraintMinLength, "[]", "transactItems", 1)
	case len(in.TransactItems) > maxTransactItems:
		c.add(fmtConstraintMaxLength, javaObjects("TransactWriteItem", len(in.TransactItems)), "transactItems", 100)
	}
	// ClientRequestToken before the enums (validation_order.go).
	c.clientRequestToken(in.ClientRequestToken, in.ClientRequestTokenSet)
	c.returnConsumedCapacity(in.ReturnConsumedCapacity)
	c.returnItemCollectionMetrics(in.ReturnItemCollectionMetrics)
	// The members' names, built per action, are built only for an action
	// that breaks a constraint: each is checked under its members' bare
	// names first, and again under their full names when that finds a
	// violation.
	var probe constraints
	for i := range in.TransactItems {
		ti := &in.TransactItems[i]
		probe = probe[:0]
		transactItemMembers(&probe, "", ti)
		if len(probe) > 0 {
			transactItemMembers(&c, fmt.Sprintf("transactItems.%d.member.", i+1), ti)
		}
	}
	if err := c.err(); err != nil {
		return nil, err
	}

	// Checks that need no table: DynamoDB refuses a bad value or an
	// oversized item even for a table that does not exist.
	acts := make([]*txAction, len(in.TransactItems))
	block := make([]txAction, len(in.TransactItems)) // the actions, in one allocation
	total := 0
	for i, ti := range in.TransactItems {
		n := 0
		for _, set := range [...]bool{ti.ConditionCheck != nil, ti.Put != nil, ti.Update != nil, ti.Delete != nil} {
			if set {
				n++
			}
		}
		if n != 1 {
			return nil, errTransactOneAction
		}
		// The decoder's findings in this action (placedValue).
		if err := placedValue(ti.ExprValueError, nil); err != nil {
			return nil, err
		}
		a := &block[i]
		var err error
		switch {
		case ti.ConditionCheck != nil:
			x := ti.ConditionCheck
			a.kind, a.table, a.key, a.onFail = txCheck, x.TableName, x.Key, x.ReturnValuesOnConditionCheckFailure
			a.w, err = compileWrite(writeRequest{cache: db.opts.ParseCaches.expr, op: expr.OpConditionCheck, condition: x.ConditionExpression,
				names: x.ExpressionAttributeNames, values: x.ExpressionAttributeValues, empty: x.EmptyExpressions, trees: st.exprs(i)})
		case ti.Put != nil:
			x := ti.Put
			a.kind, a.table, a.item, a.onFail = txPut, x.TableName, x.Item, x.ReturnValuesOnConditionCheckFailure
			a.w, err = compileWrite(writeRequest{cache: db.opts.ParseCaches.expr, op: expr.OpPutItem, condition: x.ConditionExpression,
				names: x.ExpressionAttributeNames, values: x.ExpressionAttributeValues, empty: x.EmptyExpressions, trees: st.exprs(i)})
		case ti.Update != nil:
			x := ti.Update
			a.kind, a.table, a.key, a.onFail = txUpdate, x.TableName, x.Key, x.ReturnValuesOnConditionCheckFailure
			a.w, err = compileWrite(writeRequest{cache: db.opts.ParseCaches.expr, op: expr.OpUpdateItem, condition: x.ConditionExpression, update: x.UpdateExpression,
				names: x.ExpressionAttributeNames, values: x.ExpressionAttributeValues, empty: x.EmptyExpressions, trees: st.exprs(i)})
		default:
			x := ti.Delete
			a.kind, a.table, a.key, a.onFail = txDelete, x.TableName, x.Key, x.ReturnValuesOnConditionCheckFailure
			a.w, err = compileWrite(writeRequest{cache: db.opts.ParseCaches.expr, op: expr.OpDeleteItem, condition: x.ConditionExpression,
				names: x.ExpressionAttributeNames, values: x.ExpressionAttributeValues, empty: x.EmptyExpressions, trees: st.exprs(i)})
		}
		if err != nil {
			return nil, err
		}
		it := a.key
		if a.kind == txPut {
			it = a.item
		}
		if err := placedValue(ti.ValueError, it); err != nil {
			return nil, err
		}
		if a.kind == txPut {
			if err := canonicalize(a.item); err != nil {
				return nil, err
			}
			size := attr.ItemSize(a.item)
			if size > attr.MaxItemSize {
				return nil, errItemTooLarge
			}
			total += size
		} else {
			if err := canonicalize(a.key); err != nil {
				return nil, err
			}
			total += attr.ItemSize(a.key)
		}
		acts[i] = a
	}
	if total > maxTransactBytes {
		return nil, errTransactTooLarge
	}

	for _, a := range acts {
		t, err := db.tableOrNotFound(a.table)
		if err != nil {
			return nil, err
		}
		a.t = t
	}
	// An empty string or binary key value is refused with a
	// ValidationException for the whole request, wherever it is; the
	// other problems of an item's key cancel the transaction below.
	for _, a := range acts {
		var err error
		if a.kind == txPut {
			err = a.t.emptyItemKey(a.item)
		} else {
			err = a.t.emptyLookupKey(a.key)
		}
		if err != nil {
			return nil, err
		}
	}
	// A key that does not match the schema (an attribute missing, of
	// the wrong type or not a scalar, too long) and a mistyped index key
	// cancel the transaction with a ValidationError reason at that
	// action; DynamoDB stops at the first, and every other action is
	// None, even one whose condition would fail. The paritysuite DynamoDB
	// conformance suite (tests/tier3/error-messages/transactWriteItems and
	// transactIndexKeys, eu-west-2) and ScyllaDB Alternator's
	// test_transact.py (test_transact_write_cancellation_reasons_
	// validationerror), both against DynamoDB.
	for i, a := range acts {
		var err error
		if a.kind == txPut {
			if a.k, err = a.t.primaryKey(a.item, keyOfItem); err == nil {
				if err = a.t.checkIndexKeys(a.item); err == nil {
					err = a.t.checkVectors(a.item, nil, false)
				}
			}
		} else {
			a.k, err = a.t.primaryKey(a.key, keyOfKey)
		}
		if err != nil {
			return nil, cancelAt(len(acts), i, err)
		}
		db.noteItemKey(a.t, a.k)
	}
	for i, a := range acts {
		t := a.t
		if a.kind == txUpdate && a.w.update != nil {
			keyNames := []string{t.hashName}
			if t.rangeName != "" {
				keyNames = append(keyNames, t.rangeName)
			}
			if err := a.w.update.CheckKeys(keyNames...); err != nil {
				return nil, dynamo.AttrError(err)
			}
			// An Update is charged its statement as UpdateItem is
			// (updateCharge), after the same checks as there, and an
			// Update over the limit refuses the whole request before
			// the transaction runs; a finished item over the limit
			// still cancels it (decide). eu-west-2 since 2026-10-08:
			// paritysuite's captures/2026-10-08-transact-write-rollout.json
			// and tests/tier3/limits/itemSizeBySurface.test.ts. What an
			// ExecuteTransaction UPDATE is charged is not recorded; it
			// keeps the finished item's size alone, as a PartiQL UPDATE
			// outside a transaction has.
			if x := in.TransactItems[i].Update; st == nil && x.UpdateExpression != "" &&
				updateCharge(a.w.update.Actions(), x.ExpressionAttributeNames, x.ExpressionAttributeValues) > attr.MaxItemSize {
				return nil, dynamo.Validation(msgUpdatedItemTooLarge)
			}
		}
		// At most 100 actions: comparing each with those before it
		// costs less than a map of their keys would.
		for _, b := range acts[:i] {
			if bytes.Equal(a.k.row, b.k.row) {
				return nil, errTransactDuplicate
			}
		}
	}
	return acts, nil
}

// transactItemMembers checks the members of one action of a
// TransactWriteItems request, naming each at+kind+member, or by its bare
// name when at is "" (a name built for nothing).
func transactItemMembers(c *constraints, at string, ti *dynamo.TransactWriteItem) {
	field := func(kind, member string) string {
		if at == "" {
			return member
		}
		return at + kind + member
	}
	if x := ti.ConditionCheck; x != nil {
		c.tableName(field("conditionCheck.", "tableName"), x.TableName)
		if x.Key == nil {
			c.notNull(field("conditionCheck.", "key"))
		}
		if x.ConditionExpression == "" && !x.EmptyExpressions.Has(dynamo.ExprCondition) {
			c.notNull(field("conditionCheck.", "conditionExpression"))
		}
		c.enum(field("conditionCheck.", "returnValuesOnConditionCheckFailure"), x.ReturnValuesOnConditionCheckFailure, dynamo.ReturnValuesAllOld, dynamo.ReturnValuesNone)
	}
	if x := ti.Put; x != nil {
		c.tableName(field("put.", "tableName"), x.TableName)
		if x.Item == nil {
			c.notNull(field("put.", "item"))
		}
		c.enum(field("put.", "returnValuesOnConditionCheckFailure"), x.ReturnValuesOnConditionCheckFailure, dynamo.ReturnValuesAllOld, dynamo.ReturnValuesNone)
	}
	if x := ti.Delete; x != nil {
		c.tableName(field("delete.", "tableName"), x.TableName)
		if x.Key == nil {
			c.notNull(field("delete.", "key"))
		}
		c.enum(field("delete.", "returnValuesOnConditionCheckFailure"), x.ReturnValuesOnConditionCheckFailure, dynamo.ReturnValuesAllOld, dynamo.ReturnValuesNone)
	}
	if x := ti.Update; x != nil {
		c.tableName(field("update.", "tableName"), x.TableName)
		if x.Key == nil {
			c.notNull(field("update.", "key"))
		}
		if x.UpdateExpression == "" && !x.EmptyExpressions.Has(dynamo.ExprUpdate) {
			c.notNull(field("update.", "updateExpression"))
		}
		c.enum(field("update.", "returnValuesOnConditionCheckFailure"), x.ReturnValuesOnConditionCheckFailure, dynamo.ReturnValuesAllOld, dynamo.ReturnValuesNone)
	}
}

// cancelAt cancels a transaction of n actions for err, a
// ValidationException met at action i: a ValidationError reason there
// and None everywhere else. Any other error is returned as it is.
func cancelAt(n, i int, err error) error {
	var e *dynamo.Error
	if !errors.As(err, &e) || e.Code != dynamo.CodeValidation {
		return err
	}
	reasons := make([]dynamo.CancellationReason, n)
	for j := range reasons {
		reasons[j].Code = ReasonNone
	}
	reasons[i] = dynamo.CancellationReason{Code: ReasonValidationError, Message: e.Message}
	return dynamo.TransactionCanceled(reasons)
}

// emptyKind reports whether v is an empty string or binary, and which.
func emptyKind(v attr.Value) (string, bool) {
	switch {
	case v.Type == attr.TypeS && v.S == "":
		return "string", true
	case v.Type == attr.TypeB && len(v.B) == 0:
		return "binary", true
	}
	return "", false
}

// emptyTableKey returns DynamoDB's error (msgTxEmptyKey) for a key
// attribute of it that has the key's type but an empty value.
func (t *table) emptyTableKey(it attr.Item) error {
	for _, k := range [...]struct {
		name string
		typ  attr.Type
	}{{t.hashName, t.hashType}, {t.rangeName, t.rangeType}} {
		if k.name == "" {
			continue
		}
		if v, ok := it[k.name]; ok && v.Type == k.typ {
			if kind, empty := emptyKind(v); empty {
				return dynamo.Validation(msgTxEmptyKey(kind, k.name))
			}
		}
	}
	return nil
}

// emptyLookupKey is emptyTableKey for the Key of an Update, Delete,
// ConditionCheck or Get.
func (t *table) emptyLookupKey(key attr.Item) error { return t.emptyTableKey(key) }

// emptyItemKey is emptyTableKey for a Put's item, which also refuses an
// empty value of an index key attribute of the index key's type, with
// PutItem's message.
func (t *table) emptyItemKey(it attr.Item) error {
	if err := t.emptyTableKey(it); err != nil {
		return err
	}
	return t.emptyIndexKey(it, func(kind, index, name string) error {
		return dynamo.Validation(msgIndexKeyEmpty(kind, index, name))
	})
}

// emptyIndexKey calls refuse for the first index key attribute of it, in
// index name order, whose value has the attribute's type and is empty;
// a vector index's HASH attribute counts as an index key, after the
// secondary indexes' (refused as a secondary index key: dynoxide's
// captures, eu-west-2 2026-08-11 and 13; where a transaction refuses it
// was not recorded, and is taken to be where it refuses a GSI's).
func (t *table) emptyIndexKey(it attr.Item, refuse func(kind, index, name string) error) error {
	for _, ix := range t.indexes {
		for _, list := range [2][]keyAttr{ix.hash, ix.rng} {
			for _, a := range list {
				if v, ok := it[a.name]; ok && v.Type == a.typ {
					if kind, empty := emptyKind(v); empty {
						return refuse(kind, ix.meta.Name, a.name)
					}
				}
			}
		}
	}
	for _, ix := range t.vectors {
		if a := ix.vec.hash; a != nil {
			if v, ok := it[a.name]; ok && v.Type == a.typ {
				if kind, empty := emptyKind(v); empty {
					return refuse(kind, ix.meta.Name, a.name)
				}
			}
		}
	}
	return nil
}

// runTransactWrite locks the items, decides every action and commits the
// writes in one batch, or cancels the transaction with a reason per action.
// With a token, the token commits in the same batch as the writes.
func (db *DB) runTransactWrite(in *dynamo.TransactWriteItemsInput, acts []*txAction, withToken bool, fp [32]byte) (*dynamo.TransactWriteItemsOutput, error) {
	rows := make([][]byte, len(acts))
	for i, a := range acts {
		rows[i] = a.k.row
	}
	held := db.locks.lockAll(rows)
	defer db.locks.unlockAll(held)

	reasons := make([]dynamo.CancellationReason, len(acts))
	failed := false
	// The old rows, given back once the batch, which may refer to them,
	// is done and the output built (deferred calls run in reverse
	// order).
	buf := getRowBuf()
	defer func() { putRowBuf(buf, *buf) }()
	olds, err := db.loadManyForWrite(acts, buf)
	if err != nil {
		return nil, err
	}
	for i, a := range acts {
		old := olds[i]
		a.old = old
		r, err := a.decide()
		if err != nil {
			return nil, err
		}
		reasons[i] = r
		if r.Code != ReasonNone {
			failed = true
		}
	}
	b := db.newWriteBatch()
	defer b.release()
	if db.shared {
		// Every item read, written or only checked, must still be as
		// read when the batch commits: a cancellation too is decided on
		// a consistent view, checked by committing the expectations.
		for _, a := range acts {
			b.Expect(a.k.row, a.old.raw, a.old.found)
			db.expectTable(b, a.t)
		}
		if failed {
			if err := b.Commit(); err != nil {
				return nil, err
			}
		}
	}
	if failed {
		return nil, dynamo.TransactionCanceled(firstValidationError(reasons))
	}

	for i, a := range acts {
		if !a.writes {
			continue
		}
		size, err := db.stageWrite(b, a.t, a.k, &a.old, a.next, byUser)
		if err != nil {
			var e *dynamo.Error
			if errors.As(err, &e) && e.Code == dynamo.CodeValidation {
				reasons[i] = dynamo.CancellationReason{Code: ReasonValidationError, Message: e.Message}
				return nil, dynamo.TransactionCanceled(reasons)
			}
			return nil, err
		}
		a.newSize = size
	}
	if withToken {
		claimed, err := db.stageToken(b, in.ClientRequestToken, fp)
		// Released on return, once the batch has committed or failed.
		defer db.releaseTrimmed(claimed)
		if err != nil {
			return nil, err
		}
	}
	if !b.Empty() || db.shared {
		if err := b.Commit(); err != nil {
			return nil, err
		}
	}
	return db.transactWriteOutput(in, acts)
}

// decide evaluates one action against its current item (a.old), under
// the transaction's locks: it checks the condition and computes the item
// to write. A reason other than None cancels the transaction.
func (a *txAction) decide() (dynamo.CancellationReason, error) {
	none := dynamo.CancellationReason{Code: ReasonNone}
	cur, err := a.old.Item()
	if err != nil {
		return none, err
	}
	if err := a.w.check(cur, a.onFail); err != nil {
		var e *dynamo.Error
		if errors.As(err, &e) && e.Code == dynamo.CodeConditionalCheckFailed {
			return dynamo.CancellationReason{Code: ReasonConditionalCheckFailed, Message: e.Message, Item: e.Item}, nil
		}
		return none, err
	}
	switch a.kind {
	case txPut:
		a.next, a.writes = a.item, true
	case txDelete:
		a.next, a.writes = nil, a.old.found
	case txUpdate:
		base := cur
		if base == nil {
			base = a.t.keyItem(a.k)
		}
		next := base
		if a.w.update != nil {
			if cur != nil && len(a.t.vectors) == 0 {
				// A transaction returns no old item: the update is
				// written into it, which the action forgets (the
				// indexes' upkeep and their bill decode it again).
				// The vector indexes' checks compare the new item
				// with the old, so their table's updates copy it.
				a.old.forget()
				next, err = a.w.update.ApplyInPlace(base)
			} else {
				next, err = a.w.update.Apply(base)
			}
			if err != nil {
				return validationReason(dynamo.AttrError(err))
			}
		}
		if err := checkUpdatedItem(next); err != nil {
			return validationReason(err)
		}
		// An index key updated to an empty value is refused for the
		// whole request; one of the wrong type cancels it (the
		// paritysuite conformance suite, transactIndexKeys, eu-west-2).
		if err := a.t.emptyIndexKey(next, func(kind, _, _ string) error {
			return dynamo.Validation(msgTxUpdateIndexKeyEmpty(kind))
		}); err != nil {
			return none, err
		}
		if err := a.t.checkIndexKeys(next); err != nil {
			return validationReason(err)
		}
		if err := a.t.checkVectors(next, cur, true); err != nil {
			return validationReason(err)
		}
		a.next, a.writes = next, true
	}
	return none, nil
}

// validationReason turns a ValidationException met while deciding an
// action into its cancellation reason; other errors are internal.
func validationReason(err error) (dynamo.CancellationReason, error) {
	var e *dynamo.Error
	if errors.As(err, &e) && e.Code == dynamo.CodeValidation {
		return dynamo.CancellationReason{Code: ReasonValidationError, Message: e.Message}, nil
	}
	return dynamo.CancellationReason{Code: ReasonNone}, err
}

// firstValidationError keeps, when some reasons are ValidationErrors,
// only the first of them and makes every other reason None: DynamoDB
// validates every action before it runs any, stops at the first invalid
// one and reports no condition it did not get to check (ScyllaDB
// Alternator's test_transact_write_cancellation_reasons_validationerror,
// run against DynamoDB).
func firstValidationError(reasons []dynamo.CancellationReason) []dynamo.CancellationReason {
	first := -1
	for i, r := range reasons {
		if r.Code == ReasonValidationError {
			first = i
			break
		}
	}
	if first < 0 {
		return reasons
	}
	for i := range reasons {
		if i != first {
			reasons[i] = dynamo.CancellationReason{Code: ReasonNone}
		}
	}
	return reasons
}

// transactWriteOutput bills a committed transaction: twice the write
// units of each action, as DynamoDB bills transactional writes. A
// ConditionCheck is billed as a write of the item it read, 2 write units
// for a small item, and a passing condition costs no read units (the
// paritysuite DynamoDB conformance suite, ConsumedCapacity of
// conditional, check, replay and cancel cases, eu-west-2).
//
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis.html#transaction-capacity-handling
func (db *DB) transactWriteOutput(in *dynamo.TransactWriteItemsInput, acts []*txAction) (*dynamo.TransactWriteItemsOutput, error) {
	out := &dynamo.TransactWriteItemsOutput{}
	if in.ReturnItemCollectionMetrics == dynamo.ReturnItemCollectionMetricsSize {
		out.ItemCollectionMetrics = map[string][]dynamo.ItemCollectionMetrics{}
	}
	// The bill is worked out whether or not the request asked for it,
	// for the meters (engine/meter.go); what each index cost only when
	// asked or metered.
	asked := in.ReturnConsumedCapacity != "" && in.ReturnConsumedCapacity != dynamo.ReturnConsumedCapacityNone
	units := map[string]float64{}
	perIndex := map[string]map[string]float64{}
	vectorBytes := map[string]map[string]float64{}
	tables := map[string]*table{}
	for _, a := range acts {
		name := a.t.meta.Name
		tables[name] = a.t
		units[name] += 2 * writeUnits(max(a.old.size, a.newSize))
		if !a.writes || (!asked && !db.opts.MeterIndexWrites && !db.enforcing(a.t)) {
			continue
		}
		oldItem, err := a.old.Item()
		if err != nil {
			return nil, err
		}
		for ix, u := range a.t.indexWriteUnits(a.k, oldItem, a.next) {
			if perIndex[name] == nil {
				perIndex[name] = map[string]float64{}
			}
			perIndex[name][ix] += 2 * u
		}
		if in.ReturnConsumedCapacity == dynamo.ReturnConsumedCapacityIndexes {
			// Not doubled: the transactional factor applies to
			// capacity units (not recorded for vector bytes).
			for ix, n := range a.t.vectorWriteBytes(a.k, oldItem, a.next) {
				if vectorBytes[name] == nil {
					vectorBytes[name] = map[string]float64{}
				}
				vectorBytes[name][ix] += n
			}
		}
	}
	for _, name := range sortedKeys(tables) {
		if cc := withVectorBytes(db.consumedTx(tables[name], in.ReturnConsumedCapacity, units[name], perIndex[name], false), vectorBytes[name]); cc != nil {
			out.ConsumedCapacity = append(out.ConsumedCapacity, *cc)
		}
	}
	return out, nil
}

// consumedTx is the ConsumedCapacity of a transaction on one table, as
// consumedSplit builds it, with the units also given as ReadCapacityUnits
// (read) or WriteCapacityUnits at the top and in every entry of the
// INDEXES breakdown: DynamoDB splits them so for transactions only. For
// TransactGetItems, ExtendDB issues 76 and 77 (2026-05, DynamoDB's
// answers quoted: {"CapacityUnits":4.0,"ReadCapacityUnits":4.0,"Table":
// {"ReadCapacityUnits":4.0,"CapacityUnits":4.0}}); for TransactWriteItems
// the paritysuite conformance suite (WriteCapacityUnits of a table line,
// ReadCapacityUnits of a replay, eu-west-2). No recording shows an index
// entry; they carry the split too.
func (db *DB) consumedTx(t *table, mode string, tableUnits float64, perIndex map[string]float64, read bool) *dynamo.ConsumedCapacity {
	c := db.consumedSplit(t, mode, tableUnits, perIndex, !read)
	if c == nil {
		return nil
	}
	split := func(units *float64) (r, w *float64) {
		if read {
			return ptr(*units), nil
		}
		return nil, ptr(*units)
	}
	c.ReadCapacityUnits, c.WriteCapacityUnits = split(c.CapacityUnits)
	if c.Table != nil {
		c.Table.ReadCapacityUnits, c.Table.WriteCapacityUnits = split(c.Table.CapacityUnits)
	}
	for _, m := range [...]map[string]dynamo.Capacity{c.GlobalSecondaryIndexes, c.LocalSecondaryIndexes} {
		for name, x := range m {
			x.ReadCapacityUnits, x.WriteCapacityUnits = split(x.CapacityUnits)
			m[name] = x
		}
	}
	return c
}

// repeatedTransact answers a request whose ClientRequestToken already
// committed: success without applying it again. DynamoDB bills such a
// repeat as a transactional read of each item as it is now, twice the
// units of a strongly consistent read, reported as ReadCapacityUnits
// (the paritysuite conformance suite, eu-west-2: a 1.5 KB item written
// for 4 write units is replayed for 2 read units).
func (db *DB) repeatedTransact(in *dynamo.TransactWriteItemsInput, acts []*txAction) (*dynamo.TransactWriteItemsOutput, error) {
	out := &dynamo.TransactWriteItemsOutput{}
	if in.ReturnItemCollectionMetrics == dynamo.ReturnItemCollectionMetricsSize {
		out.ItemCollectionMetrics = map[string][]dynamo.ItemCollectionMetrics{}
	}
	if in.ReturnConsumedCapacity == "" || in.ReturnConsumedCapacity == dynamo.ReturnConsumedCapacityNone {
		return out, nil
	}
	units := map[string]float64{}
	tables := map[string]*table{}
	for _, a := range acts {
		_, size, err := db.readItem(a.t, a.k, true)
		if err != nil {
			return nil, err
		}
		tables[a.t.meta.Name] = a.t
		units[a.t.meta.Name] += 2 * readUnits(size, true)
	}
	for _, name := range sortedKeys(tables) {
		if cc := db.consumedTx(tables[name], in.ReturnConsumedCapacity, units[name], nil, true); cc != nil {
			out.ConsumedCapacity = append(out.ConsumedCapacity, *cc)
		}
	}
	return out, nil
}

// javaObjects renders a list of n request objects the way DynamoDB's
// validation messages do, by class name and identity hash.
func javaObjects(class string, n int) string {
	var b strings.Builder
	b.WriteByte('[')
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "com.amazonaws.dynamodb.v20120810.%s@%x", class, uint32(i+1)*2654435761)
	}
	b.WriteByte(']')
	return b.String()
}
