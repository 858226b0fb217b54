package partiql

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/engine"
	"github.com/dynago/dynago/internal/expr"
)

// PartiQL limits.
// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ExecuteStatement.html
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ql-operators.html
const maxINPartitionKeys = 50

// ExecuteStatement runs one PartiQL statement. Each statement is planned
// onto the operation it stands for, and runs through it: a SELECT with an
// equality on the whole primary key is a GetItem, one with an equality
// (or an IN list) on the partition key is a Query per partition key value
// with the rest of the WHERE as key condition and filter, and any other is
// a Scan with the WHERE as filter; INSERT is a PutItem that must not find
// the key, UPDATE an UpdateItem that must, DELETE a DeleteItem. So a
// statement validates, bills and fails as that operation does. The
// problems of its expressions are worded without the prefix an item
// operation's would have ("Invalid FilterExpression: "), as the
// expressions are dynago's rendering of the statement (comparison.test.ts
// records AWS's "Incorrect operand type for operator or function; ..."
// bare): internal/expr words the errors of the trees they are built as
// so (expr.Tree).
//
// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ExecuteStatement.html
func ExecuteStatement(db *engine.DB, in *dynamo.ExecuteStatementInput) (*dynamo.ExecuteStatementOutput, error) {
	if err := engine.CheckExecuteStatement(in); err != nil {
		return nil, err
	}
	st, err := cacheOf(db).Parse(in.Statement)
	if err != nil {
		return nil, qlError(err)
	}
	var bv binder
	b := &bv
	if err := b.bind(in.Parameters, st.Params); err != nil {
		return nil, err
	}
	switch st.Kind {
	case Select:
		return qlSelect(db, st, b, in)
	case Exists:
		return nil, dynamo.Validation(msgQLExistsOutsideTx)
	}
	w, err := planWrite(db, st, b, qlSingle)
	if err != nil {
		return nil, err
	}
	w.onFail = in.ReturnValuesOnConditionCheckFailure
	attrs, cc, err := runWrite(db, w, in.ReturnConsumedCapacity)
	if err != nil {
		return nil, err
	}
	out := &dynamo.ExecuteStatementOutput{Items: []attr.Item{}, ConsumedCapacity: cc}
	if attrs != nil {
		out.Items = append(out.Items, attrs)
	}
	return out, nil
}

// Contexts a statement is planned in, for the rules that differ.
type qlContext uint8

const (
	qlSingle qlContext = iota
	qlBatch
	qlTransaction
)

// qlWrite is a planned INSERT, UPDATE, DELETE or EXISTS.
type qlWrite struct {
	kind      Kind
	t         *engine.Schema
	item      attr.Item // INSERT
	key       attr.Item // the others
	update    string
	cond      string
	trees     expr.Trees // the update and condition as trees
	names     map[string]string
	values    attr.Item
	returning string // ReturnValues
	onFail    string
}

// planWrite plans a write statement on its table.
func planWrite(db *engine.DB, st *Statement, b *binder, ctx qlContext) (*qlWrite, error) {
	return planWriteOn(st, b, ctx, func() (*engine.Schema, error) { return db.TableSchema(st.Table) })
}

// planWriteOn plans a write statement on the table lookup returns, which
// it asks for where execution looks the table up (ExplainStatement plans
// on a description). What it compiles of the statement on that table
// (qlWriteTemplate) the statement keeps for the next request.
func planWriteOn(st *Statement, b *binder, ctx qlContext, lookup func() (*engine.Schema, error)) (*qlWrite, error) {
	if st.Index != "" && st.Kind != Exists {
		return nil, dynamo.Validation(msgQLOnIndex)
	}
	switch {
	case st.Kind == Insert && st.Returning != ReturnNone:
		return nil, dynamo.Validation(msgQLReturningInsert)
	case st.Kind == Delete && st.Returning != ReturnNone && st.Returning != ReturnAllOld:
		return nil, dynamo.Validation(msgQLReturningDelete(st.Returning.String()))
	case ctx == qlTransaction && st.Returning != ReturnNone:
		return nil, dynamo.Validation(msgQLTxReturning)
	}
	w := &qlWrite{kind: st.Kind, returning: dynamo.ReturnValuesNone}
	switch st.Returning {
	case ReturnAllOld:
		w.returning = dynamo.ReturnValuesAllOld
	case ReturnModifiedOld:
		w.returning = dynamo.ReturnValuesUpdatedOld
	case ReturnAllNew:
		w.returning = dynamo.ReturnValuesAllNew
	case ReturnModifiedNew:
		w.returning = dynamo.ReturnValuesUpdatedNew
	}
	if st.Kind == Insert {
		it, err := b.item(st.Value)
		if err != nil {
			return nil, err
		}
		w.item = it
	}
	t, err := lookup()
	if err != nil {
		return nil, err
	}
	tm, _ := st.Compiled.Load().(*qlWriteTemplate)
	if tm == nil || tm.t != t {
		var keep bool
		if tm, keep, err = writeTemplate(st, t, &binder{params: b.params}); err != nil {
			return nil, err
		}
		if keep {
			st.Compiled.Store(tm)
		}
	}
	if st.Kind == Insert {
		if err := checkInsertKey(t, w.item); err != nil {
			return nil, err
		}
	} else {
		w.key = bindVals(make(attr.Item, len(tm.key)), tm.key, b, attr.Value{})
	}
	if len(tm.vals) > 0 {
		w.values = bindVals(make(attr.Item, len(tm.vals)), tm.vals, b, attr.Value{})
	}
	w.t, w.update, w.cond, w.trees, w.names = t, tm.update, tm.cond, tm.trees, tm.names
	return w, nil
}

// qlWriteTemplate is what a write statement compiles to on one table: its
// key, and its update and condition as trees and texts, with the
// placeholders each request binds (an INSERT's item is the request's). A
// statement keeps it (Statement's Compiled) and uses it while it runs on
// the same *engine.Schema, as a SELECT keeps its plan; one that holds a
// value bound for the request it was made for (exprText's noCache) serves
// that request alone, and one that fails is made again by the next.
type qlWriteTemplate struct {
	t            *engine.Schema
	key          []qlVal // each named by the key attribute (ph)
	update, cond string
	trees        expr.Trees
	names        map[string]string
	vals         []qlVal
}

// writeTemplate compiles write statement st on t, with its own copy b of
// the request's binder; keep reports whether it may serve other requests.
// It fails where planning the statement fails, in the same order.
func writeTemplate(st *Statement, t *engine.Schema, b *binder) (tm *qlWriteTemplate, keep bool, err error) {
	if st.Kind == Insert {
		return &qlWriteTemplate{t: t, cond: "attribute_not_exists(#k)", trees: expr.Trees{Condition: insertCondition},
			names: map[string]string{"#k": t.Hash}}, true, nil
	}
	if st.Kind == Exists && st.Index != "" {
		return nil, false, dynamo.Validation(msgQLTxConditionIndex)
	}
	if st.Aggregate != nil {
		return nil, false, planError(&PlanError{Code: PlanAggregate, Expr: st.Aggregate})
	}
	x := newExprText(b)
	key, rest, err := x.whereKey(t, st.Where)
	if err != nil {
		if st.Kind == Exists && errors.Is(err, errIncompleteKey) {
			return nil, false, dynamo.Validation(msgQLExistsNeedsCondition)
		}
		return nil, false, err
	}
	tm = &qlWriteTemplate{t: t, key: key}
	var conds []string
	var trees []*expr.Cond
	if st.Kind == Update {
		if tm.update, tm.trees.Update, err = x.update(st.Actions); err != nil {
			return nil, false, err
		}
		ph := x.name(t.Hash)
		conds = append(conds, "attribute_exists("+ph+")")
		trees = append(trees, funcCond("attribute_exists", nameOperand(ph)))
	}
	if st.Kind == Exists && len(rest) == 0 {
		return nil, false, dynamo.Validation(msgQLExistsNeedsCondition)
	}
	for _, r := range rest {
		s, c, err := x.cond(r)
		if err != nil {
			return nil, false, err
		}
		conds, trees = append(conds, s), append(trees, c)
	}
	if len(conds) > 0 {
		var c *expr.Cond
		tm.cond, c = and(conds, trees)
		if st.Kind == Delete {
			// A DELETE of a key no item has succeeds with nothing
			// deleted, whatever else its WHERE says; only an item that
			// is there can fail its condition (DynamoDB developer guide,
			// "PartiQL delete statements for DynamoDB", Return value).
			ph := x.name(t.Hash)
			tm.cond = "attribute_not_exists(" + ph + ") OR (" + tm.cond + ")"
			c = &expr.Cond{Kind: expr.CondOr, Left: funcCond("attribute_not_exists", nameOperand(ph)), Right: parens(c)}
		}
		tm.trees.Condition = expr.ConditionTree(expr.KindCondition, c)
	}
	tm.names, tm.vals = x.names, x.vals
	return tm, !x.noCache, nil
}

// insertCondition is an INSERT's condition: that its key is not there.
var insertCondition = expr.ConditionTree(expr.KindCondition, funcCond("attribute_not_exists", nameOperand("#k")))

// runWrite runs a planned write through its item operation, returning the
// item RETURNING asked for.
func runWrite(db *engine.DB, w *qlWrite, rcc string) (attr.Item, *dynamo.ConsumedCapacity, error) {
	switch w.kind {
	case Insert:
		out, err := db.StatementPutItem(&dynamo.PutItemInput{TableName: w.t.Table, Item: w.item, ConditionExpression: w.cond,
			ExpressionAttributeNames: w.names, ReturnConsumedCapacity: rcc}, &w.trees)
		if err != nil {
			var e *dynamo.Error
			if errors.As(err, &e) && e.Code == dynamo.CodeConditionalCheckFailed {
				return nil, nil, dynamo.DuplicateItem(msgQLDuplicateItem)
			}
			return nil, nil, err
		}
		return nil, out.ConsumedCapacity, nil
	case Update:
		out, err := db.StatementUpdateItem(&dynamo.UpdateItemInput{TableName: w.t.Table, Key: w.key, UpdateExpression: w.update,
			ConditionExpression: w.cond, ExpressionAttributeNames: w.names, ExpressionAttributeValues: w.values,
			ReturnValues: w.returning, ReturnConsumedCapacity: rcc, ReturnValuesOnConditionCheckFailure: w.onFail}, &w.trees)
		if err != nil {
			return nil, nil, err
		}
		return returned(w.returning, out.Attributes), out.ConsumedCapacity, nil
	case Delete:
		out, err := db.StatementDeleteItem(&dynamo.DeleteItemInput{TableName: w.t.Table, Key: w.key, ConditionExpression: w.cond,
			ExpressionAttributeNames: w.names, ExpressionAttributeValues: w.values,
			ReturnValues: w.returning, ReturnConsumedCapacity: rcc, ReturnValuesOnConditionCheckFailure: w.onFail}, &w.trees)
		if err != nil {
			return nil, nil, err
		}
		if len(out.Attributes) == 0 {
			// No item was there: RETURNING ALL OLD * gives no item.
			return nil, out.ConsumedCapacity, nil
		}
		return returned(w.returning, out.Attributes), out.ConsumedCapacity, nil
	}
	return nil, nil, dynamo.Validation(msgQLExistsOutsideTx)
}

// returned is the item a RETURNING clause gives: none without one, and
// an empty item where the operation returned no attributes.
func returned(rv string, attrs attr.Item) attr.Item {
	if rv == dynamo.ReturnValuesNone {
		return nil
	}
	if attrs == nil {
		return attr.Item{}
	}
	return attrs
}

// qlCompiled is what a SELECT statement compiles to on one table: its
// plan (or the error planning gave) and, made on first use, its
// expressions as trees and texts. It is kept in the statement (Statement's
// Compiled) and used while the statement is read on the same
// *engine.Schema, which the engine replaces whenever the table's schema
// changes (engine.DB.TableSchema).
type qlCompiled struct {
	t          *engine.Schema
	consistent bool
	plan       *Plan
	err        error

	// proj, trees and names: the projection of a GetItem.
	proj  string
	trees expr.Trees
	names map[string]string
	// tmpl: the Query or Scan expressions, made on first use.
	tmpl atomic.Pointer[qlTemplate]
	// keys: key maps of the GetItem, for the next request.
	keys sync.Pool
}

// qlTemplate is the expressions of a Query (the partition key value is
// a placeholder) or a Scan, as trees and texts, with the placeholders
// each request binds.
type qlTemplate struct {
	err                   error
	keyCond, filter, proj string
	trees                 expr.Trees
	names                 map[string]string
	vals                  []qlVal
}

// compiledSelect returns the plan of a SELECT on its table.
func compiledSelect(db *engine.DB, st *Statement, consistent bool) (*qlCompiled, error) {
	t, err := db.TableSchema(st.Table)
	if err != nil {
		return nil, err
	}
	if c, ok := st.Compiled.Load().(*qlCompiled); ok && c.t == t && c.consistent == consistent {
		return c, c.err
	}
	c := &qlCompiled{t: t, consistent: consistent}
	c.plan, c.err = PlanSelect(st, t, consistent)
	if c.err != nil {
		c.err = planError(c.err)
	} else {
		x := newExprText(nil)
		c.proj, c.trees.Projection = x.projection(st)
		c.names = x.names
	}
	st.Compiled.Store(c)
	return c, c.err
}

// template returns the expressions of a Query (query) or Scan, made with
// the request's binder b. Expressions whose values depend on more than
// the parameters' places are made again for each request.
func (c *qlCompiled) template(st *Statement, b *binder, query bool) *qlTemplate {
	if t := c.tmpl.Load(); t != nil {
		return t
	}
	return c.makeTemplate(st, &binder{params: b.params}, query)
}

// makeTemplate makes template's expressions; b is its own copy of the
// request's binder, so that the request's does not leave the stack.
func (c *qlCompiled) makeTemplate(st *Statement, b *binder, query bool) *qlTemplate {
	p := c.plan
	x := newExprText(b)
	t := &qlTemplate{}
	if query {
		h, v := x.name(p.Hash), x.slot(srcHash)
		t.keyCond = h + " = " + v
		kc := &expr.Cond{Kind: expr.CondCompare, Op: expr.OpEQ, Operands: []*expr.Operand{nameOperand(h), valueOperand(v)}}
		if p.SortKey != nil {
			s, sc, err := x.sortKey(p.SortKey)
			if err != nil {
				t.err = err
			}
			t.keyCond += " AND " + s
			kc = &expr.Cond{Kind: expr.CondAnd, Left: kc, Right: sc}
		}
		if t.err == nil {
			t.trees.KeyCondition = expr.ConditionTree(expr.KindKeyCondition, kc)
		}
	}
	if t.err == nil {
		var fc *expr.Cond
		t.filter, fc, t.err = filterText(x, p.Filter)
		if fc != nil {
			t.trees.Filter = expr.ConditionTree(expr.KindFilter, fc)
		}
	}
	if t.err == nil {
		t.proj, t.trees.Projection = x.projection(st)
	}
	t.names, t.vals = x.names, x.vals
	// A template that failed is not kept: its error may come from this
	// request's parameters (a set literal of mixed types), and the next
	// request's may be good.
	if !x.noCache && t.err == nil {
		c.tmpl.Store(t)
	}
	return t
}

// values binds a template's placeholders for one request.
func (t *qlTemplate) values(b *binder, hash attr.Value) attr.Item {
	if len(t.vals) == 0 {
		return nil
	}
	return bindVals(getItemMap(), t.vals, b, hash)
}

// itemMaps keeps the small maps of a statement's GetItem keys and
// expression values for the next request: a map of attribute values is
// most of what a SELECT by key allocates beside the GetItem it runs. The
// operation keeps nothing of them once it returns.
var itemMaps = sync.Pool{New: func() any { return attr.Item{} }}

func getItemMap() attr.Item { return itemMaps.Get().(attr.Item) }

func putItemMap(m attr.Item) {
	if m == nil || len(m) > 16 {
		return
	}
	clear(m)
	itemMaps.Put(m)
}

// flipped is the comparison with its operands swapped.
var flipped = map[string]string{"=": "=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}

// sortKey writes a sort key condition, the key on the left.
func (x *exprText) sortKey(c Expr) (string, *expr.Cond, error) {
	if b, ok := c.(*Binary); ok {
		if _, left := b.L.(*Path); !left {
			return x.cond(&Binary{Op: flipped[b.Op], L: b.R, R: b.L, Pos: b.Pos})
		}
	}
	return x.cond(c)
}

// bindHashes binds a plan's partition key values, without repeats, in
// the order written or, under ORDER BY, in key order.
func bindHashes(p *Plan, b *binder) ([]attr.Value, error) {
	hashes := make([]attr.Value, 0, len(p.HashValues))
	for _, e := range p.HashValues {
		v, err := b.value(e, "root")
		if err != nil {
			return nil, err
		}
		if !slices.ContainsFunc(hashes, func(h attr.Value) bool { return attr.Equal(h, v) }) {
			hashes = append(hashes, v)
		}
	}
	if len(hashes) > 1 && p.OrderHashes {
		desc := p.HashesDesc
		slices.SortStableFunc(hashes, func(a, b attr.Value) int {
			c, _ := attr.Compare(a, b)
			if desc {
				return -c
			}
			return c
		})
	}
	return hashes, nil
}

// qlSelect runs a SELECT.
func qlSelect(db *engine.DB, st *Statement, b *binder, in *dynamo.ExecuteStatementInput) (*dynamo.ExecuteStatementOutput, error) {
	out, err := qlSelectProjected(db, st, b, in)
	if err == nil {
		if paths := leafPaths(st); paths != nil {
			leafItems(paths, out.Items)
		}
	}
	return out, err
}

// qlSelectProjected runs a SELECT, its items as the engine projects them.
func qlSelectProjected(db *engine.DB, st *Statement, b *binder, in *dynamo.ExecuteStatementInput) (*dynamo.ExecuteStatementOutput, error) {
	c, err := compiledSelect(db, st, in.ConsistentRead)
	if err != nil {
		return nil, err
	}
	p := c.plan
	var hashes []attr.Value
	var one [1]attr.Value
	if len(p.HashValues) == 1 {
		// The common case, without a slice to allocate.
		if one[0], err = b.value(p.HashValues[0], "root"); err != nil {
			return nil, err
		}
		hashes = one[:]
	} else if len(p.HashValues) > 1 {
		if hashes, err = bindHashes(p, b); err != nil {
			return nil, err
		}
	}
	tok, err := decodeQLToken(in)
	if err != nil {
		return nil, err
	}
	out := &dynamo.ExecuteStatementOutput{}
	switch {
	case p.KeyOnly && len(hashes) == 1:
		var sk attr.Value
		if p.SortKey != nil {
			if sk, err = b.value(KeyEquality(p.SortKey, p.Range), "root"); err != nil {
				return nil, err
			}
		}
		// The plan's own pool of key maps: they always hold the same
		// names, so a map is overwritten, not cleared, for the next.
		key, _ := c.keys.Get().(attr.Item)
		if key == nil {
			key = make(attr.Item, 2)
		}
		key[p.Hash] = hashes[0]
		if p.SortKey != nil {
			key[p.Range] = sk
		}
		got, err := db.StatementGetItem(&dynamo.GetItemInput{TableName: st.Table, Key: key, ConsistentRead: in.ConsistentRead,
			ReturnConsumedCapacity: in.ReturnConsumedCapacity, ProjectionExpression: c.proj, ExpressionAttributeNames: c.names}, &c.trees)
		if len(key) <= 2 {
			c.keys.Put(key)
		}
		if err != nil {
			return nil, err
		}
		if got.Item != nil {
			out.Items = []attr.Item{got.Item}
		} else {
			out.Items = []attr.Item{}
		}
		out.ConsumedCapacity = got.ConsumedCapacity
		return out, nil
	case hashes == nil:
		t := c.template(st, b, false)
		if t.err != nil {
			return nil, t.err
		}
		s := &dynamo.ScanInput{TableName: st.Table, IndexName: st.Index, ConsistentRead: in.ConsistentRead, Limit: in.Limit,
			ReturnConsumedCapacity: in.ReturnConsumedCapacity, ExclusiveStartKey: tok.lek,
			FilterExpression: t.filter, ProjectionExpression: t.proj,
			ExpressionAttributeNames: t.names, ExpressionAttributeValues: t.values(b, attr.Value{})}
		res, err := db.StatementScan(s, &t.trees)
		putItemMap(s.ExpressionAttributeValues)
		if err != nil {
			return nil, err
		}
		out.Items = res.Items
		if out.Items == nil {
			out.Items = []attr.Item{}
		}
		out.ConsumedCapacity = res.ConsumedCapacity
		if res.LastEvaluatedKey != nil {
			out.LastEvaluatedKey = res.LastEvaluatedKey
			out.NextToken = encodeQLToken(in, 0, res.LastEvaluatedKey)
		}
		return out, nil
	}
	if tok.part >= len(hashes) {
		return nil, dynamo.Validation(msgQLNextTokenMismatch)
	}
	remaining := 0
	if in.Limit != nil {
		remaining = int(*in.Limit)
	}
	lek := tok.lek
	size := 0
	for i := tok.part; i < len(hashes); i++ {
		t := c.template(st, b, true)
		if t.err != nil {
			return nil, t.err
		}
		q := &dynamo.QueryInput{TableName: st.Table, IndexName: st.Index, ConsistentRead: in.ConsistentRead,
			KeyConditionExpression: t.keyCond, FilterExpression: t.filter, ProjectionExpression: t.proj,
			ExpressionAttributeNames: t.names, ExpressionAttributeValues: t.values(b, hashes[i]),
			ReturnConsumedCapacity: in.ReturnConsumedCapacity, ExclusiveStartKey: lek}
		if p.Reverse {
			q.ScanIndexForward = ptr(false)
		}
		lek = nil
		if remaining > 0 {
			q.Limit = ptr(int32(remaining))
		}
		// The filter may name key attributes (sk > 1 AND sk < 5), which a
		// Query request may not.
		res, err := db.StatementQuery(q, &t.trees)
		putItemMap(q.ExpressionAttributeValues)
		if err != nil {
			return nil, err
		}
		if out.Items == nil && i+1 == len(hashes) {
			out.Items = res.Items
		} else {
			out.Items = append(out.Items, res.Items...)
		}
		out.ConsumedCapacity = addConsumed(out.ConsumedCapacity, res.ConsumedCapacity)
		if res.LastEvaluatedKey != nil {
			out.LastEvaluatedKey = res.LastEvaluatedKey
			out.NextToken = encodeQLToken(in, i, res.LastEvaluatedKey)
			break
		}
		if i+1 < len(hashes) {
			// Only a page that could go on to the next partition needs
			// its size.
			for _, it := range res.Items {
				size += attr.ItemSize(it)
			}
		}
		if remaining > 0 {
			remaining -= res.ScannedCount
		}
		if i+1 < len(hashes) && (in.Limit != nil && remaining <= 0 || size >= pageBytes) {
			out.NextToken = encodeQLToken(in, i+1, nil)
			break
		}
	}
	if out.Items == nil {
		out.Items = []attr.Item{}
	}
	return out, nil
}

// pageBytes is the most a page of an IN list reads before it stops
// between two partitions, like a Query's 1 MB page.
const pageBytes = 1 << 20

// filterText writes a filter's conjuncts, or "" and nil.
func filterText(x *exprText, filter []Expr) (string, *expr.Cond, error) {
	if len(filter) == 0 {
		return "", nil, nil
	}
	parts := make([]string, 0, len(filter))
	conds := make([]*expr.Cond, 0, len(filter))
	for _, c := range filter {
		s, cc, err := x.cond(c)
		if err != nil {
			return "", nil, err
		}
		parts, conds = append(parts, s), append(conds, cc)
	}
	s, c := and(parts, conds)
	return s, c, nil
}

// addConsumed adds b's units to a.
func addConsumed(a, b *dynamo.ConsumedCapacity) *dynamo.ConsumedCapacity {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	sum := func(x, y *float64) *float64 {
		if x == nil {
			return y
		}
		if y == nil {
			return x
		}
		return ptr(*x + *y)
	}
	sumCap := func(x, y *dynamo.Capacity) *dynamo.Capacity {
		if x == nil {
			return y
		}
		if y == nil {
			return x
		}
		return &dynamo.Capacity{CapacityUnits: sum(x.CapacityUnits, y.CapacityUnits),
			ReadCapacityUnits: sum(x.ReadCapacityUnits, y.ReadCapacityUnits), WriteCapacityUnits: sum(x.WriteCapacityUnits, y.WriteCapacityUnits)}
	}
	sumMap := func(x, y map[string]dynamo.Capacity) map[string]dynamo.Capacity {
		if x == nil {
			return y
		}
		out := make(map[string]dynamo.Capacity, len(x))
		for k, v := range x {
			out[k] = v
		}
		for k, v := range y {
			if c, ok := out[k]; ok {
				out[k] = *sumCap(&c, &v)
			} else {
				out[k] = v
			}
		}
		return out
	}
	return &dynamo.ConsumedCapacity{TableName: a.TableName,
		CapacityUnits: sum(a.CapacityUnits, b.CapacityUnits), ReadCapacityUnits: sum(a.ReadCapacityUnits, b.ReadCapacityUnits),
		WriteCapacityUnits: sum(a.WriteCapacityUnits, b.WriteCapacityUnits), Table: sumCap(a.Table, b.Table),
		LocalSecondaryIndexes: sumMap(a.LocalSecondaryIndexes, b.LocalSecondaryIndexes), GlobalSecondaryIndexes: sumMap(a.GlobalSecondaryIndexes, b.GlobalSecondaryIndexes)}
}

// qlToken is a decoded NextToken: which partition key value of an IN list
// to resume at, and where in it.
type qlToken struct {
	part int
	lek  attr.Item
}

// NextToken format: base64 of 'Q', the first 8 bytes of the SHA-256 of the
// statement and its parameters, uvarint(part), then the LastEvaluatedKey
// in the binary item format (nothing when the next page starts a
// partition).
func requestDigest(in *dynamo.ExecuteStatementInput) [8]byte {
	bp := tokenBufs.Get().(*[]byte)
	buf := binary.AppendUvarint((*bp)[:0], uint64(len(in.Statement)))
	buf = append(buf, in.Statement...)
	for _, v := range in.Parameters {
		buf = attr.AppendValue(buf, v)
	}
	sum := sha256.Sum256(buf)
	putTokenBuf(bp, buf)
	return [8]byte(sum[:8])
}

// tokenBufs keeps the buffers a NextToken is made in.
var tokenBufs = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

func putTokenBuf(bp *[]byte, b []byte) {
	if cap(b) <= 64<<10 {
		*bp = b[:0]
		tokenBufs.Put(bp)
	}
}

func encodeQLToken(in *dynamo.ExecuteStatementInput, part int, lek attr.Item) string {
	d := requestDigest(in)
	bp := tokenBufs.Get().(*[]byte)
	b := append(append((*bp)[:0], 'Q'), d[:]...)
	b = binary.AppendUvarint(b, uint64(part))
	if lek != nil {
		b = attr.AppendItem(b, lek)
	}
	ep := tokenBufs.Get().(*[]byte)
	enc := base64.StdEncoding.AppendEncode((*ep)[:0], b)
	tok := string(enc)
	putTokenBuf(bp, b)
	putTokenBuf(ep, enc)
	return tok
}

func decodeQLToken(in *dynamo.ExecuteStatementInput) (qlToken, error) {
	var tok qlToken
	if !in.NextTokenSet {
		return tok, nil
	}
	b, err := base64.StdEncoding.DecodeString(in.NextToken)
	if err != nil || len(b) < 10 || b[0] != 'Q' {
		return tok, dynamo.Validation(msgQLNextTokenInvalid)
	}
	if d := requestDigest(in); string(b[1:9]) != string(d[:]) {
		return tok, dynamo.Validation(msgQLNextTokenMismatch)
	}
	part, n := binary.Uvarint(b[9:])
	if n <= 0 || part > maxINPartitionKeys {
		return tok, dynamo.Validation(msgQLNextTokenInvalid)
	}
	tok.part = int(part)
	if rest := b[9+n:]; len(rest) > 0 {
		if tok.lek, err = attr.DecodeItem(rest); err != nil {
			return tok, dynamo.Validation(msgQLNextTokenInvalid)
		}
	}
	return tok, nil
}

func ptr[T any](v T) *T { return &v }
