package engine

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/internal/expr"
)

// SearchVectors returns the items of a vector index nearest a query
// vector, by an exact search of the index's entries.
//
// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_SearchVectors.html
func (db *DB) SearchVectors(in *dynamo.SearchVectorsInput) (*dynamo.SearchVectorsOutput, error) {
	return run(db, opSearchVectors, func() (*dynamo.SearchVectorsOutput, error) { return db.searchVectors(in) })
}

// Texts of SearchVectors' refusals. Each is quoted from a response of
// DynamoDB recorded by an emulator's authors against the service
// (nubo-db/dynoxide, src/actions/search_vectors.rs and
// tests/search_vectors.rs, branch feat/vector-indexes, eu-west-2 and
// us-east-1, 2026-08-11 to 2026-08-19) or by AWS's agent toolkit
// (aws/agent-toolkit-for-aws, .../amazon-dynamodb/references/
// vector-search.md, "reproduced verbatim from the service"), unless
// marked otherwise.
const (
	// The request model's forms, which name IndexName and SearchVector
	// with a capital and echo no value (dynoxide, captured 2026-08-13).
	msgSearchIndexNameShort = "Value at 'IndexName' failed to satisfy constraint: Member must have length greater than or equal to 3"
	// The upper bound and the pattern follow the captured form; neither
	// was recorded.
	msgSearchIndexNameLong    = "Value at 'IndexName' failed to satisfy constraint: Member must have length less than or equal to 255"
	msgSearchIndexNamePattern = "Value at 'IndexName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+"
	msgSearchVectorEmpty      = "Value at 'SearchVector' failed to satisfy constraint: Member must have length greater than or equal to 1"
	// The model's maximum of 4096 elements; the wording follows the
	// captured minimum.
	msgSearchVectorLong = "Value at 'SearchVector' failed to satisfy constraint: Member must have length less than or equal to 4096"

	fmtTopKRange = "Provided TopK value '%d' is out of valid range. The value must be between 1 and 100 inclusive"

	msgSearchVectorInvalid = "Search vector contains invalid values. All values in the search vector must be a 32-bit floating-point number attribute"
	fmtSearchDimension     = "Input search vector dimension %d does not match vector index dimension %d"

	msgSearchHashRequired   = "SearchConditionExpression must be provided when SearchSchema has a HASH key"
	msgSearchComparator     = "Invalid SearchConditionExpression: Invalid comparator used in SearchConditionExpression"
	fmtSearchNotInSchema    = "SearchConditionExpression must not contain any attributes that is not in SearchSchema. Invalid attribute: %s" // sic
	msgSearchNested         = "Invalid SearchConditionExpression: SearchConditionExpression cannot have conditions on nested attributes"
	msgSearchOnePerAttr     = "Invalid SearchConditionExpression: SearchConditionExpression must only contain one condition per attribute"
	fmtSearchBackfilling    = "Cannot search backfilling vector index: %s"
	fmtSearchHashType       = "Type of '%s' attribute in SearchConditionExpression (%s) does not match type in search schema (%s)"
	fmtSearchHashEmptyS     = "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: %s"
	fmtSearchHashEmptyB     = "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty binary value. Key: %s"
	maxSearchTopK           = 100
	maxSearchVectorElements = 4096
)

// searchVectors is SearchVectors: the member constraints, the values the
// decoder found malformed, then the table and the index, as DynamoDB
// orders a read's checks (validation_order.go). Once the index is known,
// its checks follow in the order of searchChecks.
func (db *DB) searchVectors(in *dynamo.SearchVectorsInput) (*dynamo.SearchVectorsOutput, error) {
	var c constraints
	c.itemTableName(in.TableName, in.NoTableName)
	c.searchIndexName(in.IndexName, in.NoIndexName)
	c.searchVector(in.SearchVector)
	c.topK(in.TopK)
	c.returnConsumedCapacity(in.ReturnConsumedCapacity)
	if err := c.err(); err != nil {
		return nil, err
	}
	if in.ValueError != nil {
		// Names or values sent with no expression to use them come first,
		// as for the other reads (valueLayer).
		if in.SearchConditionExpression == "" && in.ProjectionExpression == "" && in.EmptyExpressions == 0 {
			if _, err := expr.Compile(expr.Input{Operation: expr.OpSearchVectors, Names: in.ExpressionAttributeNames, Values: in.ExpressionAttributeValues}); err != nil {
				return nil, dynamo.AttrError(err)
			}
		}
		return nil, in.ValueError
	}
	t, err := db.tableOrNotFound(in.TableName)
	if err != nil {
		return nil, err
	}
	vx, err := t.searchIndex(in.IndexName)
	if err != nil {
		return nil, err
	}
	r, err := searchChecks(db.opts.ParseCaches.expr, in, vx)
	if err != nil {
		return nil, err
	}
	// An index still being created, or backfilled, is not searched
	// (dynoxide's compatibility summary, from its captures: "Cannot
	// search backfilling vector index: <name>").
	if db.creatingIndex(t, in.IndexName) {
		return nil, dynamo.Validation(fmt.Sprintf(fmtSearchBackfilling, in.IndexName))
	}
	return db.runVectorSearch(t, vx.ix, in, r)
}

// runVectorSearch runs a checked search: an exact one over the index's
// entries or an approximate one through its graph (engine/vector_search.go),
// its results projected, and its capacity.
func (db *DB) runVectorSearch(t *table, ix *index, in *dynamo.SearchVectorsInput, r searchRequest) (*dynamo.SearchVectorsOutput, error) {
	res, err := db.vectorSearch(t, ix, r.vector, int(*in.TopK), r.cond.hash, r.cond.filters)
	if err != nil {
		return nil, err
	}
	out := &dynamo.SearchVectorsOutput{SearchResults: make([]dynamo.SearchResultItem, 0, len(res.hits))}
	returned := 0
	for _, h := range res.hits {
		e := vectorEntry{body: h.body}
		item, err := e.item()
		if err != nil {
			return nil, err
		}
		if r.proj != nil {
			// The vector comes back only when the projection names it,
			// as the index's float32 copy; a name the index does not
			// project is silently absent (the agent toolkit; dynoxide,
			// captured eu-west-2 2026-08-11).
			if slices.Contains(r.proj.TopLevel(), ix.vec.attr) {
				item[ix.vec.attr] = vectorAttrValue(h.vec)
			}
			item = r.proj.Apply(item)
		}
		returned += attr.ItemSize(item)
		out.SearchResults = append(out.SearchResults, dynamo.SearchResultItem{Item: item, Score: searchScore(h.score)})
	}
	switch in.ReturnConsumedCapacity {
	case dynamo.ReturnConsumedCapacityTotal, dynamo.ReturnConsumedCapacityIndexes:
		out.ConsumedCapacity = &dynamo.VectorCapacity{VectorSearchRequestBytes: ptr(float64(searchRequestBytes(res.examined, returned)))}
	}
	return out, nil
}

// searchRequestBytes is a search's VectorSearchRequestBytes. DynamoDB's
// figure "scales with the size of the vector data the search examines
// and returns" (AWS's developer guide, VectorSearchMonitoring) and is not
// reproducible (five identical searches gave five figures: dynoxide,
// 2026-08-18); dynago bills the bytes of the vectors its exact search
// read plus the item size of the results returned, at least 1 KB (the
// agent toolkit: "1 KB minimum per request").
func searchRequestBytes(examined, returned int) int {
	return max(examined+returned, minVectorRequestBytes)
}

// vectorSearchIndex is what SearchVectors' checks need of a vector index:
// its dimensions and its search schema.
type vectorSearchIndex struct {
	ix         *index
	dimensions int
	schema     searchSchema
}

// searchSchema is a vector index's SearchSchema as the checks of a
// SearchConditionExpression see it: its HASH element, if any, and its
// INLINE_FILTER elements.
type searchSchema struct {
	hash    *searchSchemaAttr
	filters []searchSchemaAttr
}

// searchSchemaAttr is one element of a search schema: its attribute's
// name and its type in AttributeDefinitions (S, N or B).
type searchSchemaAttr struct {
	name string
	typ  attr.Type
}

// searchIndex returns what the checks need of t's vector index name,
// or DynamoDB's answer for a table without it (dynoxide and the agent
// toolkit, captured: "The table does not have the specified index:
// <name>").
func (t *table) searchIndex(name string) (*vectorSearchIndex, error) {
	ix := t.vectorIndex(name)
	if ix == nil {
		return nil, dynamo.Validation(msgNoIndex(name))
	}
	vs := &vectorSearchIndex{ix: ix, dimensions: ix.vec.dims}
	if h := ix.vec.hash; h != nil {
		vs.schema.hash = &searchSchemaAttr{h.name, h.typ}
	}
	for _, f := range ix.vec.filters {
		vs.schema.filters = append(vs.schema.filters, searchSchemaAttr{f.name, f.typ})
	}
	return vs, nil
}

// searchRequest is a SearchVectors request checked against its index:
// the query vector and the search condition's equalities.
type searchRequest struct {
	vector []float32
	cond   searchCondition
	proj   *expr.Projection
}

// searchChecks runs SearchVectors' checks that need the index, in this
// order: TopK's range, the query vector's elements then its dimension
// (captured in that order), then the expressions and the search
// condition against the schema. Where TopK's range falls among the
// other checks was not recorded.
func searchChecks(cache *expr.Cache, in *dynamo.SearchVectorsInput, vx *vectorSearchIndex) (searchRequest, error) {
	var r searchRequest
	if err := checkTopK(*in.TopK); err != nil {
		return r, err
	}
	v, err := searchVectorValues(in.SearchVector, vx.dimensions)
	if err != nil {
		return r, err
	}
	r.vector = v
	x, err := expr.Compile(expr.Input{Operation: expr.OpSearchVectors,
		SearchCondition: in.SearchConditionExpression, Projection: in.ProjectionExpression,
		Present: present(in.EmptyExpressions),
		Names:   in.ExpressionAttributeNames, Values: in.ExpressionAttributeValues, Cache: cache})
	if err != nil {
		return r, dynamo.AttrError(err)
	}
	if r.cond, err = checkSearchCondition(x.SearchCondition, vx.schema); err != nil {
		return r, err
	}
	r.proj = x.Projection
	return r, nil
}

// topK checks TopK's presence and its minimum of 1, which the request
// model checks (dynoxide, "TopK 0 rejects at the request-model layer",
// captured 2026-08-11; its wording follows the model's other minimums).
// Its maximum of 100 is the operation's own check (checkTopK).
func (c *constraints) topK(v *int32) {
	if v == nil {
		c.notNull("topK")
		return
	}
	c.minValue("topK", *v, 1)
}

// searchIndexName checks SearchVectors' IndexName, which is required.
func (c *constraints) searchIndexName(name string, absent bool) {
	switch {
	case absent:
		c.notNull("indexName")
	case len(name) < 3:
		c.add(msgSearchIndexNameShort)
	case len(name) > 255:
		c.add(msgSearchIndexNameLong)
	case !validTableChars(name):
		c.add(msgSearchIndexNamePattern)
	}
}

// searchVector checks the length of SearchVector, which is required.
func (c *constraints) searchVector(v []attr.Value) {
	switch {
	case v == nil:
		c.notNull("searchVector")
	case len(v) == 0:
		c.add(msgSearchVectorEmpty)
	case len(v) > maxSearchVectorElements:
		c.add(msgSearchVectorLong)
	}
}

// checkTopK checks TopK against the service's range, 1 to 100, which
// the model does not state (the agent toolkit and dynoxide, captured
// 2026-08-11: "Provided TopK value '101' is out of valid range...").
func checkTopK(k int32) error {
	if k < 1 || k > maxSearchTopK {
		return dynamo.Validation(fmt.Sprintf(fmtTopKRange, k))
	}
	return nil
}

// searchVectorValues converts a query vector to float32s, refusing an
// element that is not a number or is outside float32's range (the same
// answer for each, captured 2026-08-11 and 12), and then a vector whose
// length is not the index's dimension: the element check comes first
// (dynoxide, captured: an L element in a vector of the wrong length gets
// the element's answer). A number too small for float32 becomes zero or
// a subnormal, as the index rounds stored values (not recorded).
func searchVectorValues(vs []attr.Value, dims int) ([]float32, error) {
	out := make([]float32, len(vs))
	for i := range vs {
		v := &vs[i]
		if v.Type != attr.TypeN {
			return nil, dynamo.Validation(msgSearchVectorInvalid)
		}
		if err := canonicalizeValue(v); err != nil {
			return nil, err
		}
		f, err := strconv.ParseFloat(v.S, 32)
		if err != nil || math.IsInf(f, 0) {
			return nil, dynamo.Validation(msgSearchVectorInvalid)
		}
		out[i] = float32(f)
	}
	if len(out) != dims {
		return nil, dynamo.Validation(fmt.Sprintf(fmtSearchDimension, len(out), dims))
	}
	return out, nil
}

// searchCondition is a SearchConditionExpression reduced to what a
// search applies: the HASH element's value (nil when the schema has no
// HASH element), and the INLINE_FILTER elements' equalities in the
// expression's order.
type searchCondition struct {
	hash    *attr.Value
	filters []searchEquality
}

// searchEquality is one "attribute = :value" of a search condition.
type searchEquality struct {
	name  string
	value attr.Value
	// nested marks a path below the attribute (refused).
	nested bool
}

// checkSearchCondition checks a compiled SearchConditionExpression (nil
// when the request has none) against the index's search schema, and
// returns its equalities. Its checks, in order:
//
//   - only "=" between an attribute and a value, joined by AND: any other
//     comparator, OR, NOT, BETWEEN, IN or a function is "Invalid
//     comparator" (captured for <>, <, <=, >, >= and IN on HASH and
//     INLINE_FILTER elements; the other forms are not recorded and are
//     given the same answer);
//   - every attribute in the schema (captured), in the expression's order;
//   - no nested path (captured 2026-08-19);
//   - one condition per attribute (captured 2026-08-19);
//   - the HASH element present when the schema has one (captured without
//     an expression; an expression without it is given the same answer);
//   - the HASH value of the schema's type, then not empty (captured for
//     an N value against S, and for an empty string; an empty binary is
//     not recorded, and is worded as DynamoDB words an empty binary key).
//
// The order of the checks after the first is the one dynoxide chose
// where its captures are silent. An INLINE_FILTER value of another type
// than the schema's is not refused (no recording refuses one): it
// matches no item.
func checkSearchCondition(c *expr.Condition, schema searchSchema) (searchCondition, error) {
	var out searchCondition
	var eqs []searchEquality
	if c != nil {
		var err error
		if eqs, err = searchEqualities(c, c.Root(), eqs); err != nil {
			return out, err
		}
	}
	for _, e := range eqs {
		if schema.find(e.name) == nil {
			return out, dynamo.Validation(fmt.Sprintf(fmtSearchNotInSchema, e.name))
		}
	}
	for _, e := range eqs {
		if e.nested {
			return out, dynamo.Validation(msgSearchNested)
		}
	}
	for i, e := range eqs {
		for _, f := range eqs[:i] {
			if f.name == e.name {
				return out, dynamo.Validation(msgSearchOnePerAttr)
			}
		}
	}
	for i := range eqs {
		e := &eqs[i]
		if schema.hash != nil && e.name == schema.hash.name {
			out.hash = &e.value
		} else {
			out.filters = append(out.filters, *e)
		}
	}
	if h := schema.hash; h != nil {
		if out.hash == nil {
			return out, dynamo.Validation(msgSearchHashRequired)
		}
		v := out.hash
		if v.Type != h.typ {
			return out, dynamo.Validation(fmt.Sprintf(fmtSearchHashType, h.name, v.Type, h.typ))
		}
		switch {
		case v.Type == attr.TypeS && v.S == "":
			return out, dynamo.Validation(fmt.Sprintf(fmtSearchHashEmptyS, h.name))
		case v.Type == attr.TypeB && len(v.B) == 0:
			return out, dynamo.Validation(fmt.Sprintf(fmtSearchHashEmptyB, h.name))
		}
	}
	return out, nil
}

// searchEqualities appends the equalities of n, a node of c, to eqs,
// refusing any other form.
func searchEqualities(c *expr.Condition, n *expr.Cond, eqs []searchEquality) ([]searchEquality, error) {
	switch {
	case n.Kind == expr.CondAnd:
		eqs, err := searchEqualities(c, n.Left, eqs)
		if err != nil {
			return nil, err
		}
		return searchEqualities(c, n.Right, eqs)
	case n.Kind == expr.CondCompare && n.Op == expr.OpEQ:
		path, value := n.Operands[0], n.Operands[1]
		if path.Kind == expr.OperandValue {
			path, value = value, path
		}
		if path.Kind != expr.OperandPath || value.Kind != expr.OperandValue {
			return nil, dynamo.Validation(msgSearchComparator)
		}
		return append(eqs, searchEquality{
			name:   c.Name(&path.Path[0]),
			value:  c.Value(value),
			nested: len(path.Path) > 1,
		}), nil
	}
	return nil, dynamo.Validation(msgSearchComparator)
}

// find returns the schema's element for the attribute name, or nil.
func (s searchSchema) find(name string) *searchSchemaAttr {
	if s.hash != nil && s.hash.name == name {
		return s.hash
	}
	for i := range s.filters {
		if s.filters[i].name == name {
			return &s.filters[i]
		}
	}
	return nil
}

// searchScore widens a score of the vector package (a float32) to the
// double SearchVectors' response carries: the double nearest the
// shortest decimal that reads back as the float32, so that a score of
// 0.1 in float32 is sent as 0.1 and not as 0.10000000149011612, its
// exact value. DynamoDB computes a score from float32 elements in wider
// precision (dynoxide, captured 2026-08-13); no recorded response shows
// a score with more digits than a float32 holds, so the decimal form a
// float32 prints as is taken as DynamoDB's.
func searchScore(f float32) float64 {
	if math.IsInf(float64(f), 0) || math.IsNaN(float64(f)) {
		return float64(f)
	}
	d, _ := strconv.ParseFloat(strconv.FormatFloat(float64(f), 'g', -1, 32), 64)
	return d
}
