package engine

import (
	"sort"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/internal/expr"
	"github.com/dynago/dynago/internal/keys"
)

// Query reads the items of one partition, in sort key order (reversed when
// ScanIndexForward is false), one page at a time.
//
// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_Query.html
func (db *DB) Query(in *dynamo.QueryInput) (*dynamo.QueryOutput, error) {
	return run(db, opQuery, func() (*dynamo.QueryOutput, error) { return db.query(in, false, nil) })
}

// query is Query; keyFilter lets the filter name key attributes, which
// a PartiQL SELECT's WHERE may do beside its key condition
// (StatementQuery).
func (db *DB) query(in *dynamo.QueryInput, keyFilter bool, trees *expr.Trees) (*dynamo.QueryOutput, error) {
	if err := conditionalOperatorFirst(in.ConditionalOperator, len(in.QueryFilter)); err != nil {
		return nil, err
	}
	var c constraints
	c.itemTableName(in.TableName, in.NoTableName)
	c.indexName(in.IndexName)
	c.attributesToGet(in.AttributesToGet)
	c.queryLimit(in.Limit)
	c.selectValue(in.Select)
	c.conditionalOperator(in.ConditionalOperator)
	c.returnConsumedCapacity(in.ReturnConsumedCapacity)
	for _, name := range sortedConditionNames(in.KeyConditions) {
		c.comparisonOperator("keyConditions."+name+".member.comparisonOperator", in.KeyConditions[name].ComparisonOperator)
	}
	if err := c.err(); err != nil {
		return nil, err
	}
	// Query reports a malformed value at its place (queryPlaces in
	// validation_order.go), not the decoder's first finding up front.
	if err := MixedParamsError(in); err != nil {
		return nil, err
	}
	rr := readRequest{cache: db.opts.ParseCaches.expr,
		op: expr.OpQuery, keyCondition: in.KeyConditionExpression, filter: in.FilterExpression,
		projection: in.ProjectionExpression,
		names:      in.ExpressionAttributeNames, values: in.ExpressionAttributeValues, empty: in.EmptyExpressions,
		attributesToGet: in.AttributesToGet, filterParam: "QueryFilter", legacyFilter: in.QueryFilter,
		conditionalOperator: in.ConditionalOperator, keyConditions: in.KeyConditions,
		trees: trees,
	}
	var x readExprs
	var err error
	early := queryFilterFirst(in)
	if early {
		if err := unusableNamesAndValues(in); err != nil {
			return nil, err
		}
		if x, err = compileRead(rr); err != nil {
			return nil, err
		}
	}
	// The start key's values before the key conditions (dynalite's query
	// test against DynamoDB).
	if err := bareStartKeyValues(in.ExclusiveStartKey); err != nil {
		return nil, err
	}
	if in.KeyConditions == nil && in.KeyConditionExpression == "" && !in.EmptyExpressions.Has(dynamo.ExprKeyCondition) {
		return nil, dynamo.Validation("Either the KeyConditions or KeyConditionExpression parameter must be specified in the request.")
	}
	if err := checkSelect(in.Select, in.IndexName, in.AttributesToGet, in.ProjectionExpression, true); err != nil {
		return nil, err
	}
	if !early {
		if x, err = compileRead(rr); err != nil {
			return nil, err
		}
	}
	for _, cond := range in.KeyConditions {
		if err := canonicalizeValues(cond.AttributeValueList); err != nil {
			return nil, err
		}
	}
	if err := keyConditionsShape(in); err != nil {
		return nil, err
	}
	// The shape of a key condition is checked before the table is looked
	// up, its key schema after.
	var parts []keyPart
	if x.key != nil {
		if parts, err = keyConditionParts(x.key); err != nil {
			return nil, err
		}
	}
	// Select ALL_ATTRIBUTES on a global index that does not project all
	// is refused last, below.
	ks, err := db.readTarget(opNameQuery, in.TableName, in.IndexName, "", in.ConsistentRead)
	if err != nil {
		return nil, err
	}
	if !keyFilter {
		if err := ks.checkProjected(x.proj, in.AttributesToGet); err != nil {
			return nil, err
		}
	}
	// The start key is checked with the key condition: first its number
	// of attributes, then each key attribute's value before that
	// attribute's condition (index.keyCondition), then, on an index, the
	// table's key attributes, which DynamoDB words as Scan does on a
	// table (dynalite's test/query.js against DynamoDB, "if
	// ExclusiveStartKey is invalid", "if range in ExclusiveStartKey is
	// invalid, but hash and local are ok", "if global hash in
	// ExclusiveStartKey but bad in query").
	esk := in.ExclusiveStartKey
	if esk != nil && !ks.ix.multi() && len(esk) != len(ks.ix.rowKey) {
		return nil, dynamo.Validation(dynamo.MsgStartKeyInvalid)
	}
	pieces := esk
	if ks.ix.multi() {
		pieces = nil
	}
	kc, err := ks.ix.keyCondition(x.key != nil, parts, in.KeyConditions, pieces)
	if err != nil {
		return nil, err
	}
	var pk, sk keyTuple
	var start []byte
	if esk != nil {
		bad := dynamo.Validation(dynamo.MsgStartKeyInvalid)
		if !ks.isTable() && !ks.ix.multi() {
			bad = dynamo.Validation(msgScanStartKeyInvalid)
		}
		if pk, sk, start, err = ks.startKey(esk, bad); err != nil {
			return nil, err
		}
		// DynamoDB tells a start key in another partition from one whose
		// sort key the condition excludes.
		if !kc.partitionMatches(pk.values()) {
			return nil, dynamo.Validation(msgStartKeyOutsideQuery)
		}
		if !kc.sortMatches(sk.values()) {
			return nil, dynamo.Validation(msgStartKeyRangePredicate)
		}
	}
	if err := ks.ix.checkFilterKeys(x.filter, in.QueryFilter != nil); err != nil && !keyFilter {
		return nil, err
	}
	r, err := ks.queryRange(&kc)
	if err != nil {
		return nil, err
	}
	db.noteQuery(ks, &kc)
	r.reverse = in.ScanIndexForward != nil && !*in.ScanIndexForward
	var fetchUnits float64
	db.shapeRead(ks, &r, in.Select, in.Limit, x, in.AttributesToGet, in.ConsistentRead, &fetchUnits)
	r.encoded = in.EncodedItems && r.project == nil && r.fetch == nil && !r.countOnly
	r.buffer = in.EncodedBuffer
	if start != nil {
		r.resume(start)
	}
	// A document path into a key attribute, after the start key
	// (dynalite's query tests against DynamoDB). Not of a statement.
	if trees == nil {
		if err := x.checkKeyPaths(ks.t); err != nil {
			return nil, err
		}
	}
	// After the start key (dynalite's test/query.js against DynamoDB, "if
	// global range in ExclusiveStartKey is invalid", which asks for
	// ALL_ATTRIBUTES of an index projecting some).
	if in.Select == dynamo.SelectAllAttributes {
		if _, err := ks.t.readIndex(opNameQuery, in.IndexName, in.Select, false); err != nil {
			return nil, err
		}
	}
	out, err := db.readPage(ks, r, in.ReturnConsumedCapacity, in.ConsistentRead, &fetchUnits)
	if err != nil {
		return nil, err
	}
	return (*dynamo.QueryOutput)(out), nil
}

// legacyOps maps the ComparisonOperators a key condition may use to their
// sort key operator and number of operands.
var legacyKeyOps = map[string]struct {
	op    keys.Op
	nargs int
}{
	"EQ":          {keys.OpEQ, 1},
	"LT":          {keys.OpLT, 1},
	"LE":          {keys.OpLE, 1},
	"GT":          {keys.OpGT, 1},
	"GE":          {keys.OpGE, 1},
	"BETWEEN":     {keys.OpBetween, 2},
	"BEGINS_WITH": {keys.OpBeginsWith, 1},
}

// comparisonOperator checks a legacy ComparisonOperator member.
func (c *constraints) comparisonOperator(field, v string) {
	if v == "" {
		c.notNull(field)
		return
	}
	c.enum(field, v, "IN", "NULL", "BETWEEN", "LT", "NOT_CONTAINS", "EQ", "GT", "NOT_NULL", "NE", "LE", "BEGINS_WITH", "GE", "CONTAINS")
}

func sortedConditionNames(conds map[string]dynamo.Condition) []string {
	names := make([]string, 0, len(conds))
	for n := range conds {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// cmp orders two key values of one type.
func cmp(a, b attr.Value) int {
	c, _ := attr.Compare(a, b)
	return c
}
