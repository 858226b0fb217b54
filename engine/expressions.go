package engine

import (
	"slices"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/internal/expr"
)

// This file connects requests to the expression language: it compiles a
// request's expressions or their legacy counterparts, and turns their
// errors into ValidationExceptions.

// errConditionFailed is DynamoDB's answer to a write whose condition is
// false.
const msgConditionFailed = "The conditional request failed"

// conditionFailed returns ConditionalCheckFailedException, carrying the
// item when the request asked for it with
// ReturnValuesOnConditionCheckFailure ALL_OLD.
//
// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_PutItem.html#DDB-PutItem-request-ReturnValuesOnConditionCheckFailure
func conditionFailed(old attr.Item, returnOnFailure string) error {
	e := dynamo.ConditionalCheckFailed(msgConditionFailed)
	if returnOnFailure == dynamo.ReturnValuesAllOld && old != nil {
		e.Item = old
	}
	return e
}

// returnValuesOnConditionCheckFailure checks that member.
func (c *constraints) returnValuesOnConditionCheckFailure(v string) {
	c.enum("returnValuesOnConditionCheckFailure", v, dynamo.ReturnValuesAllOld, dynamo.ReturnValuesNone)
}

// writeExprs is what a single-item write evaluates: a condition and, for
// UpdateItem, an update. Either may be nil.
type writeExprs struct {
	cond   *expr.Condition
	update *expr.Update
}

// writeRequest is the expression part of a single-item write.
type writeRequest struct {
	cache               *expr.Cache
	op                  expr.Operation
	condition, update   string
	names               map[string]string
	values              attr.Item
	empty               dynamo.Exprs // expressions present but empty
	expected            map[string]dynamo.ExpectedAttributeValue
	conditionalOperator string
	attributeUpdates    map[string]dynamo.AttributeValueUpdate // UpdateItem only
	trees               *expr.Trees                            // a statement's, instead of the texts
}

// compileWrite compiles a write's condition and update from their
// expressions or their legacy parameters, refusing a mix of the two.
func compileWrite(r writeRequest) (writeExprs, error) {
	var w writeExprs
	if err := r.checkMixing(); err != nil {
		return w, err
	}
	if err := expr.CheckConditionalOperator(r.conditionalOperator, len(r.expected)); err != nil {
		return w, dynamo.AttrError(err)
	}
	c, err := expr.Compile(expr.Input{
		Cache:     r.cache,
		Operation: r.op,
		Condition: r.condition,
		Update:    r.update,
		Present:   present(r.empty),
		Names:     r.names,
		Values:    r.values,
		Trees:     r.trees,
	})
	if err != nil {
		return w, dynamo.AttrError(err)
	}
	w.cond, w.update = c.Condition, c.Update
	if r.expected != nil {
		conds := make(map[string]expr.Expected, len(r.expected))
		for name, e := range r.expected {
			if err := canonicalizeValue(e.Value); err != nil {
				return w, err
			}
			if err := canonicalizeValues(e.AttributeValueList); err != nil {
				return w, err
			}
			conds[name] = expr.Expected{Value: e.Value, Exists: e.Exists, ComparisonOperator: e.ComparisonOperator, AttributeValueList: e.AttributeValueList}
		}
		if w.cond, err = expr.ConditionFromExpected("Expected", conds, r.conditionalOperator); err != nil {
			return w, dynamo.AttrError(err)
		}
	}
	if r.attributeUpdates != nil {
		upd := make(map[string]expr.AttributeUpdate, len(r.attributeUpdates))
		for name, u := range r.attributeUpdates {
			if err := canonicalizeValue(u.Value); err != nil {
				return w, err
			}
			upd[name] = expr.AttributeUpdate{Action: u.Action, Value: u.Value}
		}
		if w.update, err = expr.UpdateFromAttributeUpdates(upd); err != nil {
			return w, dynamo.AttrError(err)
		}
	}
	return w, nil
}

// checkMixing refuses a write that carries both legacy and expression
// parameters.
func (r writeRequest) checkMixing() error {
	var legacy, modern []string
	if r.attributeUpdates != nil {
		legacy = append(legacy, "AttributeUpdates")
	}
	if r.expected != nil {
		legacy = append(legacy, "Expected")
	}
	if r.conditionalOperator != "" {
		legacy = append(legacy, "ConditionalOperator")
	}
	if r.update != "" || r.empty.Has(dynamo.ExprUpdate) {
		modern = append(modern, "UpdateExpression")
	}
	if r.condition != "" || r.empty.Has(dynamo.ExprCondition) {
		modern = append(modern, "ConditionExpression")
	}
	if err := expr.CheckMixing(legacy, modern); err != nil {
		return dynamo.AttrError(err)
	}
	return nil
}

// checkConditionKeyPaths refuses a ConditionExpression with a document
// path into a key attribute (table.checkKeyPaths), as the change request
// reports DynamoDB refuses one in every condition; no recording shows its
// place among a write's checks: after the key, and UpdateItem's update.
// trees is a statement's expressions, which are not checked.
func (w writeExprs) checkConditionKeyPaths(t *table, trees *expr.Trees) error {
	if w.cond == nil || trees != nil {
		return nil
	}
	return t.checkKeyPaths(w.cond.NestedNames())
}

// checkStored decodes the stored item when the condition or the caller
// (wantOld: ReturnValues ALL_OLD) needs it, and checks the condition.
func (w writeExprs) checkStored(old *storedItem, wantOld bool, returnOnFailure string) error {
	if w.cond == nil && !wantOld {
		return nil
	}
	it, err := old.Item()
	if err != nil {
		return err
	}
	return w.check(it, returnOnFailure)
}

// check evaluates the write's condition against the current item (nil
// when there is none).
func (w writeExprs) check(old attr.Item, returnOnFailure string) error {
	if w.cond != nil && !w.cond.Eval(old) {
		return conditionFailed(old, returnOnFailure)
	}
	return nil
}

// compileProjection compiles a read's ProjectionExpression, refusing it
// alongside AttributesToGet. It returns nil when the request has none;
// AttributesToGet is then applied by project.
func compileProjection(cache *expr.Cache, op expr.Operation, projection string, empty dynamo.Exprs, names map[string]string, attributesToGet []string, trees *expr.Trees) (*expr.Projection, error) {
	var legacy, modern []string
	if attributesToGet != nil {
		legacy = append(legacy, "AttributesToGet")
	}
	if projection != "" || empty.Has(dynamo.ExprProjection) {
		modern = append(modern, "ProjectionExpression")
	}
	if err := expr.CheckMixing(legacy, modern); err != nil {
		return nil, dynamo.AttrError(err)
	}
	c, err := expr.Compile(expr.Input{Cache: cache, Operation: op, Projection: projection, Present: present(empty), Names: names, Trees: trees})
	if err != nil {
		return nil, dynamo.AttrError(err)
	}
	return c.Projection, nil
}

// shape applies a read's projection: the compiled ProjectionExpression if
// any, else AttributesToGet, else the whole item.
func shape(it attr.Item, p *expr.Projection, attributesToGet []string) attr.Item {
	if p != nil {
		return p.Apply(it)
	}
	return project(it, attributesToGet)
}

// readExprs is what a Query or Scan page evaluates.
type readExprs struct {
	key    *expr.Condition // KeyConditionExpression (Query)
	filter *expr.Condition // FilterExpression, or the legacy filter
	proj   *expr.Projection
}

// checkKeyPaths refuses a projection or filter with a document path into
// a key attribute (table.checkKeyPaths): the projection's first, as
// dynalite's Query and Scan check them after the start key.
func (x readExprs) checkKeyPaths(t *table) error {
	if x.proj != nil {
		if err := t.checkKeyPaths(x.proj.NestedNames()); err != nil {
			return err
		}
	}
	if x.filter != nil {
		return t.checkKeyPaths(x.filter.NestedNames())
	}
	return nil
}

// readRequest is the expression part of a Query or Scan.
type readRequest struct {
	cache                            *expr.Cache
	op                               expr.Operation
	keyCondition, filter, projection string
	names                            map[string]string
	values                           attr.Item
	empty                            dynamo.Exprs // expressions present but empty
	attributesToGet                  []string
	filterParam                      string // "QueryFilter" or "ScanFilter"
	legacyFilter                     map[string]dynamo.Condition
	conditionalOperator              string
	keyConditions                    map[string]dynamo.Condition // Query only
	trees                            *expr.Trees                 // a statement's, instead of the texts
}

// compileRead compiles a Query's or Scan's expressions or their legacy
// counterparts, refusing a mix of the two.
func compileRead(r readRequest) (readExprs, error) {
	var x readExprs
	if err := r.checkMixing(); err != nil {
		return x, err
	}
	if err := expr.CheckConditionalOperator(r.conditionalOperator, len(r.legacyFilter)); err != nil {
		return x, dynamo.AttrError(err)
	}
	c, err := expr.Compile(expr.Input{
		Cache:        r.cache,
		Operation:    r.op,
		KeyCondition: r.keyCondition,
		Filter:       r.filter,
		Projection:   r.projection,
		Present:      present(r.empty),
		Names:        r.names,
		Values:       r.values,
		Trees:        r.trees,
	})
	if err != nil {
		return x, dynamo.AttrError(err)
	}
	x.key, x.filter, x.proj = c.KeyCondition, c.Filter, c.Projection
	if r.legacyFilter != nil {
		conds := make(map[string]expr.Expected, len(r.legacyFilter))
		for name, cond := range r.legacyFilter {
			if err := canonicalizeValues(cond.AttributeValueList); err != nil {
				return x, err
			}
			conds[name] = expr.Expected{ComparisonOperator: cond.ComparisonOperator, AttributeValueList: cond.AttributeValueList}
		}
		if x.filter, err = expr.ConditionFromExpected(r.filterParam, conds, r.conditionalOperator); err != nil {
			return x, dynamo.AttrError(err)
		}
	}
	if err := checkAttributesToGet(r.attributesToGet); err != nil {
		return x, err
	}
	return x, nil
}

// checkMixing refuses a Query or Scan that carries both legacy and
// expression parameters.
func (r readRequest) checkMixing() error {
	var legacyRoom, modernRoom [4]string
	legacy, modern := legacyRoom[:0], modernRoom[:0]
	if r.attributesToGet != nil {
		legacy = append(legacy, "AttributesToGet")
	}
	if r.legacyFilter != nil {
		legacy = append(legacy, r.filterParam)
	}
	if r.conditionalOperator != "" {
		legacy = append(legacy, "ConditionalOperator")
	}
	// KeyConditions goes with FilterExpression and ProjectionExpression:
	// DynamoDB refuses it only beside KeyConditionExpression (dynalite's
	// validateExpressionParams, written against DynamoDB, leaves it out of
	// the non-expression parameters otherwise).
	if r.keyConditions != nil && (r.keyCondition != "" || r.empty.Has(dynamo.ExprKeyCondition)) {
		legacy = append(legacy, "KeyConditions")
	}
	if r.projection != "" || r.empty.Has(dynamo.ExprProjection) {
		modern = append(modern, "ProjectionExpression")
	}
	if r.filter != "" || r.empty.Has(dynamo.ExprFilter) {
		modern = append(modern, "FilterExpression")
	}
	if r.keyCondition != "" || r.empty.Has(dynamo.ExprKeyCondition) {
		modern = append(modern, "KeyConditionExpression")
	}
	if err := expr.CheckMixing(legacy, modern); err != nil {
		return dynamo.AttrError(err)
	}
	return nil
}

// apply sets a page's filter and projection.
func (x readExprs) apply(r *rangeRead, attributesToGet []string) {
	if x.filter != nil {
		r.filter = x.filter.Eval
		r.filterNames = slices.Compact(slices.Sorted(slices.Values(topLevelNames(x.filter))))
	}
	if x.proj != nil {
		r.project = x.proj.Apply
	} else if attributesToGet != nil {
		r.project = func(it attr.Item) attr.Item { return project(it, attributesToGet) }
	}
}

// topLevelNames returns the top-level attribute names a condition reads.
func topLevelNames(c *expr.Condition) []string {
	var names []string
	var operand func(o *expr.Operand)
	operand = func(o *expr.Operand) {
		if o == nil {
			return
		}
		if o.Kind == expr.OperandPath && len(o.Path) > 0 {
			names = append(names, c.Name(&o.Path[0]))
		}
		for _, a := range o.Args {
			operand(a)
		}
	}
	var cond func(n *expr.Cond)
	cond = func(n *expr.Cond) {
		if n == nil {
			return
		}
		for _, o := range n.Operands {
			operand(o)
		}
		cond(n.Left)
		cond(n.Right)
	}
	cond(c.Root())
	return names
}

// present converts the request's empty expressions to the expression
// package's set, so that it refuses them.
func present(empty dynamo.Exprs) expr.Kinds {
	var k expr.Kinds
	for _, m := range [...]struct {
		e dynamo.Exprs
		k expr.Kind
	}{
		{dynamo.ExprCondition, expr.KindCondition},
		{dynamo.ExprUpdate, expr.KindUpdate},
		{dynamo.ExprKeyCondition, expr.KindKeyCondition},
		{dynamo.ExprFilter, expr.KindFilter},
		{dynamo.ExprProjection, expr.KindProjection},
		{dynamo.ExprSearchCondition, expr.KindSearchCondition},
	} {
		if empty.Has(m.e) {
			k = k.With(m.k)
		}
	}
	return k
}

// MixedParamsError returns the error DynamoDB gives in (a *PutItemInput,
// *DeleteItemInput, *UpdateItemInput, *GetItemInput, *QueryInput or
// *ScanInput) for carrying both legacy and expression parameters, nil if
// it does not. DynamoDB reports that mix before a problem with any of the
// request's attribute values (dynalite's updateItem test, run against
// DynamoDB: an empty value in Key beside a mix is answered with the mix),
// so valueLayer asks for it before reporting a value the decoder found
// malformed.
func MixedParamsError(in any) error {
	switch in := in.(type) {
	case *dynamo.PutItemInput:
		return writeRequest{condition: in.ConditionExpression, empty: in.EmptyExpressions,
			expected: in.Expected, conditionalOperator: in.ConditionalOperator}.checkMixing()
	case *dynamo.DeleteItemInput:
		return writeRequest{condition: in.ConditionExpression, empty: in.EmptyExpressions,
			expected: in.Expected, conditionalOperator: in.ConditionalOperator}.checkMixing()
	case *dynamo.UpdateItemInput:
		return writeRequest{condition: in.ConditionExpression, update: in.UpdateExpression, empty: in.EmptyExpressions,
			expected: in.Expected, conditionalOperator: in.ConditionalOperator,
			attributeUpdates: in.AttributeUpdates}.checkMixing()
	case *dynamo.GetItemInput:
		var legacy, modern []string
		if in.AttributesToGet != nil {
			legacy = append(legacy, "AttributesToGet")
		}
		if in.ProjectionExpression != "" || in.EmptyExpressions.Has(dynamo.ExprProjection) {
			modern = append(modern, "ProjectionExpression")
		}
		return dynamo.AttrError(expr.CheckMixing(legacy, modern))
	case *dynamo.QueryInput:
		return readRequest{keyCondition: in.KeyConditionExpression, filter: in.FilterExpression,
			projection: in.ProjectionExpression, empty: in.EmptyExpressions,
			attributesToGet: in.AttributesToGet, filterParam: "QueryFilter", legacyFilter: in.QueryFilter,
			conditionalOperator: in.ConditionalOperator, keyConditions: in.KeyConditions}.checkMixing()
	case *dynamo.ScanInput:
		return readRequest{filter: in.FilterExpression, projection: in.ProjectionExpression, empty: in.EmptyExpressions,
			attributesToGet: in.AttributesToGet, filterParam: "ScanFilter", legacyFilter: in.ScanFilter,
			conditionalOperator: in.ConditionalOperator}.checkMixing()
	}
	return nil
}
