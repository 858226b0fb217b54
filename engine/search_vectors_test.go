package engine

import (
	"errors"
	"math"
	"reflect"
	"testing"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/internal/expr"
)

// Sources cited below:
//   - dynoxide: nubo-db/dynoxide, branch feat/vector-indexes,
//     src/actions/search_vectors.rs and tests/search_vectors.rs, whose
//     texts are captured from DynamoDB (eu-west-2 and us-east-1,
//     2026-08-11 to 2026-08-19), each case's date given;
//   - toolkit: aws/agent-toolkit-for-aws, skills/specialized-skills/
//     database-skills/amazon-dynamodb/references/vector-search.md, whose
//     error strings are "reproduced verbatim from the service".

// wantErr checks err against a ValidationException's text ("" for no
// error).
func wantSearchErr(t *testing.T, err error, msg string) {
	t.Helper()
	if msg == "" {
		if err != nil {
			t.Fatalf("unexpected error %v", err)
		}
		return
	}
	var e *dynamo.Error
	if !errors.As(err, &e) || e.Code != dynamo.CodeValidation || e.Message != msg {
		t.Fatalf("got %v, want ValidationException %q", err, msg)
	}
}

func TestCheckTopK(t *testing.T) {
	for _, c := range []struct {
		k   int32
		msg string
	}{
		{1, ""},
		{100, ""},
		// toolkit and dynoxide (2026-08-11): "Provided TopK value '101' is
		// out of valid range. The value must be between 1 and 100
		// inclusive"; the service enforces the model's minimum of 1 before
		// (TestSearchVectorsRequestModel in e2e).
		{101, "Provided TopK value '101' is out of valid range. The value must be between 1 and 100 inclusive"},
		{0, "Provided TopK value '0' is out of valid range. The value must be between 1 and 100 inclusive"},
	} {
		wantSearchErr(t, checkTopK(c.k), c.msg)
	}
}

func TestSearchVectorValues(t *testing.T) {
	const invalid = "Search vector contains invalid values. All values in the search vector must be a 32-bit floating-point number attribute"
	n := func(ss ...string) []attr.Value {
		var out []attr.Value
		for _, s := range ss {
			out = append(out, attr.N(s))
		}
		return out
	}
	for _, c := range []struct {
		name string
		vec  []attr.Value
		dims int
		want []float32
		msg  string
	}{
		{"numbers", n("0.1", "-3", "1E2"), 3, []float32{0.1, -3, 100}, ""},
		{"float32 max", n("3.4028235E38", "-3.4028235E38"), 2, []float32{math.MaxFloat32, -math.MaxFloat32}, ""},
		// dynoxide (2026-08-11/12): a value that is not a number, an L
		// element, and a number outside float32's range get one answer.
		{"string element", []attr.Value{attr.N("1"), attr.S("1")}, 2, nil, invalid},
		{"L element", []attr.Value{{Type: attr.TypeL, L: n("1")}}, 1, nil, invalid},
		{"past float32", n("1E39"), 1, nil, invalid},
		{"past float32 negative", n("-3.5E38"), 1, nil, invalid},
		// toolkit: "Input search vector dimension 3 does not match vector
		// index dimension 4".
		{"dimension", n("1", "2", "3"), 4, nil, "Input search vector dimension 3 does not match vector index dimension 4"},
		// dynoxide: the element check comes before the dimension check (an
		// L-wrapped element in a vector of the wrong length).
		{"element before dimension", []attr.Value{{Type: attr.TypeL, L: n("1", "2", "3")}}, 3, nil, invalid},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := searchVectorValues(c.vec, c.dims)
			wantSearchErr(t, err, c.msg)
			if c.msg == "" && !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %v, want %v", got, c.want)
			}
		})
	}
}

// compileSearch compiles a SearchConditionExpression as SearchVectors
// does.
func compileSearch(t *testing.T, text string, names map[string]string, values attr.Item) (*expr.Condition, error) {
	t.Helper()
	in := expr.Input{Operation: expr.OpSearchVectors, SearchCondition: text, Names: names, Values: values}
	if text == "" {
		in.Present = expr.Kinds(0).With(expr.KindSearchCondition)
	}
	x, err := expr.Compile(in)
	if err != nil {
		return nil, dynamo.AttrError(err)
	}
	return x.SearchCondition, nil
}

func TestCheckSearchCondition(t *testing.T) {
	hashed := searchSchema{
		hash:    &searchSchemaAttr{"tenant", attr.TypeS},
		filters: []searchSchemaAttr{{"category", attr.TypeS}, {"yr", attr.TypeN}},
	}
	binHash := searchSchema{hash: &searchSchemaAttr{"bk", attr.TypeB}}
	filtersOnly := searchSchema{filters: []searchSchemaAttr{{"category", attr.TypeS}}}
	const comparator = "Invalid SearchConditionExpression: Invalid comparator used in SearchConditionExpression"
	for _, c := range []struct {
		name   string
		schema searchSchema
		text   string // "" for no expression
		names  map[string]string
		values attr.Item
		hash   *attr.Value
		eqs    []string // the INLINE_FILTER equalities' names
		msg    string
	}{
		{"no schema, no expression", searchSchema{}, "", nil, nil, nil, nil, ""},
		{"filters, no expression", filtersOnly, "", nil, nil, nil, nil, ""},
		// dynoxide and toolkit: "SearchConditionExpression must be
		// provided when SearchSchema has a HASH key".
		{"hash, no expression", hashed, "", nil, nil, nil, nil, "SearchConditionExpression must be provided when SearchSchema has a HASH key"},
		// Not recorded with an expression that leaves the HASH element
		// out: the same answer (dynoxide's choice).
		{"hash left out", hashed, "category = :c", nil, attr.Item{":c": attr.S("c1")}, nil, nil, "SearchConditionExpression must be provided when SearchSchema has a HASH key"},
		{"hash", hashed, "tenant = :t", nil, attr.Item{":t": attr.S("t1")}, &attr.Value{Type: attr.TypeS, S: "t1"}, nil, ""},
		{"hash and filters", hashed, "(#c = :c) AND :t = tenant AND yr = :y", map[string]string{"#c": "category"},
			attr.Item{":t": attr.S("t1"), ":c": attr.S("c1"), ":y": attr.N("2020")}, &attr.Value{Type: attr.TypeS, S: "t1"}, []string{"category", "yr"}, ""},
		{"filter only", filtersOnly, "category = :c", nil, attr.Item{":c": attr.S("c1")}, nil, []string{"category"}, ""},
		// toolkit and dynoxide: "Invalid comparator" for <>, <, <=, >,
		// >= and IN, on HASH and INLINE_FILTER elements alike.
		{"<>", hashed, "tenant <> :t", nil, attr.Item{":t": attr.S("t1")}, nil, nil, comparator},
		{"<", hashed, "tenant = :t AND yr < :y", nil, attr.Item{":t": attr.S("t1"), ":y": attr.N("1")}, nil, nil, comparator},
		{">=", filtersOnly, "category >= :c", nil, attr.Item{":c": attr.S("c1")}, nil, nil, comparator},
		{"IN", filtersOnly, "category IN (:c, :t)", nil, attr.Item{":c": attr.S("c1"), ":t": attr.S("t1")}, nil, nil, comparator},
		// Not recorded (dynoxide gives them the same answer): OR, NOT,
		// BETWEEN, a function, two paths.
		{"OR", hashed, "tenant = :t OR category = :c", nil, attr.Item{":t": attr.S("t1"), ":c": attr.S("c1")}, nil, nil, comparator},
		{"NOT", filtersOnly, "NOT category = :c", nil, attr.Item{":c": attr.S("c1")}, nil, nil, comparator},
		{"BETWEEN", filtersOnly, "category BETWEEN :c AND :t", nil, attr.Item{":c": attr.S("c1"), ":t": attr.S("t1")}, nil, nil, comparator},
		{"function", filtersOnly, "begins_with(category, :c)", nil, attr.Item{":c": attr.S("c1")}, nil, nil, comparator},
		{"two paths", filtersOnly, "category = tenant", nil, nil, nil, nil, comparator},
		// dynoxide (captured): "SearchConditionExpression must not contain
		// any attributes that is not in SearchSchema. Invalid attribute:
		// <a>" (sic).
		{"not in schema", hashed, "tenant = :t AND color = :c", nil, attr.Item{":t": attr.S("t1"), ":c": attr.S("c1")}, nil, nil,
			"SearchConditionExpression must not contain any attributes that is not in SearchSchema. Invalid attribute: color"},
		{"no schema", searchSchema{}, "#c = :c", map[string]string{"#c": "category"}, attr.Item{":c": attr.S("c1")}, nil, nil,
			"SearchConditionExpression must not contain any attributes that is not in SearchSchema. Invalid attribute: category"},
		// dynoxide (2026-08-19): nested paths, on HASH or INLINE_FILTER.
		{"nested hash", hashed, "tenant.deep = :t", nil, attr.Item{":t": attr.S("t1")}, nil, nil,
			"Invalid SearchConditionExpression: SearchConditionExpression cannot have conditions on nested attributes"},
		{"nested filter", hashed, "tenant = :t AND category[0] = :c", nil, attr.Item{":t": attr.S("t1"), ":c": attr.S("c1")}, nil, nil,
			"Invalid SearchConditionExpression: SearchConditionExpression cannot have conditions on nested attributes"},
		// dynoxide (2026-08-19): two conditions on one attribute, agreeing
		// or not.
		{"twice", hashed, "tenant = :t AND tenant = :t", nil, attr.Item{":t": attr.S("t1")}, nil, nil,
			"Invalid SearchConditionExpression: SearchConditionExpression must only contain one condition per attribute"},
		{"twice by name", hashed, "tenant = :t AND category = :c AND #c = :t", map[string]string{"#c": "category"}, attr.Item{":t": attr.S("t1"), ":c": attr.S("c1")}, nil, nil,
			"Invalid SearchConditionExpression: SearchConditionExpression must only contain one condition per attribute"},
		// dynoxide (2026-08-13): a HASH value of another type.
		{"hash type", hashed, "tenant = :n", nil, attr.Item{":n": attr.N("1")}, nil, nil,
			"Type of 'tenant' attribute in SearchConditionExpression (N) does not match type in search schema (S)"},
		// dynoxide (2026-08-13): an empty string HASH value.
		{"hash empty", hashed, "tenant = :e", nil, attr.Item{":e": attr.S("")}, nil, nil,
			"One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: tenant"},
		// Not recorded: an empty binary HASH value, worded as DynamoDB
		// words an empty binary key.
		{"hash empty binary", binHash, "bk = :b", nil, attr.Item{":b": attr.B([]byte{})}, nil, nil,
			"One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty binary value. Key: bk"},
		// An INLINE_FILTER value of another type is not refused (none
		// recorded).
		{"filter type", hashed, "tenant = :t AND yr = :c", nil, attr.Item{":t": attr.S("t1"), ":c": attr.S("c1")}, &attr.Value{Type: attr.TypeS, S: "t1"}, []string{"yr"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			var cond *expr.Condition
			if c.text != "" {
				var err error
				if cond, err = compileSearch(t, c.text, c.names, c.values); err != nil {
					t.Fatalf("compile: %v", err)
				}
			}
			got, err := checkSearchCondition(cond, c.schema)
			wantSearchErr(t, err, c.msg)
			if c.msg != "" {
				return
			}
			if !reflect.DeepEqual(got.hash, c.hash) {
				t.Errorf("hash %v, want %v", got.hash, c.hash)
			}
			var eqs []string
			for _, e := range got.filters {
				eqs = append(eqs, e.name)
			}
			if !reflect.DeepEqual(eqs, c.eqs) {
				t.Errorf("filters %v, want %v", eqs, c.eqs)
			}
		})
	}
}

// TestSearchConditionCompile pins the expression package's checks as
// SearchVectors words them: prefixed "Invalid SearchConditionExpression: "
// as the other expressions' are (toolkit: "Invalid
// SearchConditionExpression: Invalid comparator ..."), and the names and
// values rules of the other operations (not recorded for this one).
func TestSearchConditionCompile(t *testing.T) {
	for _, c := range []struct {
		name string
		in   expr.Input
		msg  string
	}{
		{"empty", expr.Input{Present: expr.Kinds(0).With(expr.KindSearchCondition)}, "Invalid SearchConditionExpression: The expression can not be empty;"},
		{"syntax", expr.Input{SearchCondition: "tenant = "}, "Invalid SearchConditionExpression: Syntax error; token: \"<EOF>\", near: \"=\""},
		{"undefined value", expr.Input{SearchCondition: "tenant = :t"}, "Invalid SearchConditionExpression: An expression attribute value used in expression is not defined; attribute value: :t"},
		{"unused value", expr.Input{SearchCondition: "tenant = :t", Values: attr.Item{":t": attr.S("a"), ":u": attr.S("b")}},
			"Value provided in ExpressionAttributeValues unused in expressions: keys: {:u}"},
		{"values without expression", expr.Input{Values: attr.Item{":t": attr.S("a")}},
			"ExpressionAttributeValues can only be specified when using expressions: SearchConditionExpression is null"},
		{"names without expression", expr.Input{Names: map[string]string{"#t": "a"}},
			"ExpressionAttributeNames can only be specified when using expressions"},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.in.Operation = expr.OpSearchVectors
			_, err := expr.Compile(c.in)
			wantSearchErr(t, dynamo.AttrError(err), c.msg)
		})
	}
}

func TestSearchScore(t *testing.T) {
	for _, c := range []struct {
		in   float32
		want float64
	}{
		{0.1, 0.1},
		{0, 0},
		{9, 9},
		{-0.25, -0.25},
		{1.0 / 3, 0.33333334},
		// A saturated score prints as DynamoDB's bound, ±3.4028235E38
		// (dynoxide, 2026-08-13).
		{math.MaxFloat32, 3.4028235e38},
		{-math.MaxFloat32, -3.4028235e38},
	} {
		if got := searchScore(c.in); got != c.want {
			t.Errorf("searchScore(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}
