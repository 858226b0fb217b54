package partiql

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/engine"
	"github.com/dynago/dynago/internal/expr"
)

// TestTreesAreTheParseOfTheirText checks that the trees a statement's
// expressions are built as compile to what the parse of the texts they
// stand for compiles to, and fail where those fail, with the same
// message but bare, the expression's prefix beside.
func TestTreesAreTheParseOfTheirText(t *testing.T) {
	schema := &engine.Schema{Table: "t", Hash: "pk", Range: "sk", HashType: attr.TypeS, RangeType: attr.TypeN}
	deepPath := "a" + strings.Repeat(".b", 32)
	sizes := func(n int) string { return strings.Repeat("size(", n) + "a" + strings.Repeat(")", n) }
	in101 := "a IN [" + strings.Repeat("1, ", 100) + "1]"
	many := strings.Repeat(sizes(80)+" > 1 AND ", 3) + sizes(80) + " > 1" // 324 operators
	long := strings.Repeat("a = 1 AND ", 250) + "a = 1"                   // 5,000 bytes of text
	conds := []string{
		"a = 1", "a <> 'x'", "a < 1 AND b >= 2 OR NOT c > 3", "NOT (a = 1 OR b = 2) AND c = 3",
		"a IS NULL", "a IS NOT NULL", "a IS MISSING", "a IS NOT MISSING", "a IS STRING", "a IS NOT NUMERIC",
		"a IS NULL AND b = 1", "NOT a IS NOT NULL OR b = 1",
		"a BETWEEN 1 AND 5", "a NOT BETWEEN 1 AND 5", "a BETWEEN 5 AND 1", "a BETWEEN 'a' AND 1",
		"a IN [1, 2, 3]", "a NOT IN [1, 'x']", in101, long, many,
		"size(a) > 2", "size(a) = size(b)", "size(size(a)) > 1",
		"attribute_exists(a)", "attribute_not_exists(a.b[2])", "begins_with(a, 'x')", "begins_with(a, 1)",
		"contains(a, 'x')", "contains(a, a)", "a = a", "a.b = a.b", "attribute_type(a, 'S')", "attribute_type(a, 'Q')",
		"attribute_type(a, 1)", "begins_with(a, 'x') = TRUE", "contains(a, 1) <> TRUE", "a < [1, 2]", "a > {'x': 1}",
		"a[1].b['c'] = 1", "a[2147483648] = 1", "a[2147483647] = 1", deepPath + " = 1", "\"select\".\"x y\" = 1",
		"a = 1 AND a = 2 AND a = 3", "(a = 1 OR b = 2) AND (c = 3 OR d = 4)",
	}
	var sources []string
	for _, c := range conds {
		sources = append(sources,
			"SELECT * FROM t WHERE "+c,
			"SELECT a, b.c[1] FROM t WHERE pk = 'k' AND "+c,
			"SELECT a FROM t WHERE pk = 'k' AND sk > 1 AND "+c,
			"DELETE FROM t WHERE pk = 'k' AND sk = 1 AND "+c,
			"UPDATE t SET x = 1 WHERE pk = 'k' AND sk = 1 AND "+c)
	}
	for _, s := range []string{
		"sk = 1", "sk < 1", "1 < sk", "sk BETWEEN 1 AND 2", "begins_with(sk, 'x')", "sk BETWEEN 2 AND 1",
	} {
		sources = append(sources, "SELECT * FROM t WHERE pk = 'k' AND "+s, "SELECT * FROM t WHERE pk = 'k' AND "+s+" AND a = 1")
	}
	for _, set := range []string{
		"x = 1", "x = y", "x = y + 1", "x = y - z", "x = y + z + 1", "x = 1 - y - z", "x = y + (z - 1)",
		"x = list_append(y, [1])", "x = list_append(y + 1, [1])", "x = if_not_exists(y, 0) + 1", "x = 1 + if_not_exists(y, 0)",
		"x = list_append(list_append(y, [1]), [2])", "x = if_not_exists(y, 1 + z)", "x = list_append(y[1], [1]) + 1 + 2",
		"x = 'a' + 1", "x = [1] + 1", "x = list_append(1, [2])", "x = if_not_exists(1, 2)",
		"x = set_add(x, <<'a'>>)", "x = set_delete(x, <<1, 2>>)", "x.y = 1 SET x = 2", "x[1] = 1 SET x.y = 2",
		"x = 1 REMOVE y SET z = set_add(z, <<'b'>>) REMOVE w", "x[2147483648] = 1", deepPath + " = 1",
		"\"select\" = 1", "x = 1 SET x = 2", "x = y SET y = x",
	} {
		sources = append(sources, "UPDATE t SET "+set+" WHERE pk = 'k' AND sk = 1")
	}
	sources = append(sources, "UPDATE t REMOVE x, y[1] WHERE pk = 'k' AND sk = 1", "INSERT INTO t VALUE {'pk': 'k', 'sk': 1}",
		"DELETE FROM t WHERE pk = 'k' AND sk = 1", "SELECT a, a.b FROM t WHERE pk = 'k' AND sk = 1", "SELECT a, b FROM t WHERE pk = 'k'",
		"SELECT \""+deepPath+"\", x[2147483648] FROM t", "SELECT "+deepPath+" FROM t")

	tested := 0
	for _, src := range sources {
		st, err := Parse(src)
		if err != nil {
			continue
		}
		b := &binder{}
		if st.Kind != Select {
			w, err := planWriteOn(st, b, qlSingle, func() (*engine.Schema, error) { return schema, nil })
			if err != nil {
				continue
			}
			op := expr.OpDeleteItem
			switch st.Kind {
			case Update:
				op = expr.OpUpdateItem
			case Insert:
				op = expr.OpPutItem
			}
			sameCompile(t, src, expr.Input{Operation: op, Condition: w.cond, Update: w.update, Names: w.names, Values: w.values}, &w.trees)
			tested++
			continue
		}
		p, err := PlanSelect(st, schema, false)
		if err != nil {
			continue
		}
		c := &qlCompiled{plan: p}
		if p.Op == OpGetItem {
			x := newExprText(nil)
			var trees expr.Trees
			proj, ptree := x.projection(st)
			trees.Projection = ptree
			sameCompile(t, src, expr.Input{Operation: expr.OpGetItem, Projection: proj, Names: x.names}, &trees)
			tested++
			continue
		}
		query := p.Op == OpQuery
		tm := c.makeTemplate(st, b, query)
		if tm.err != nil {
			continue
		}
		op := expr.OpScan
		if query {
			op = expr.OpQuery
		}
		sameCompile(t, src, expr.Input{Operation: op, KeyCondition: tm.keyCond, Filter: tm.filter, Projection: tm.proj,
			Names: tm.names, Values: tm.values(b, attr.S("k"))}, &tm.trees)
		tested++
	}
	if tested < len(sources)*3/4 {
		t.Fatalf("only %d of %d statements reached the expressions", tested, len(sources))
	}
}

// sameCompile compiles in from its texts, then with trees.
func sameCompile(t *testing.T, src string, in expr.Input, trees *expr.Trees) {
	t.Helper()
	want, werr := expr.Compile(in)
	in.Trees = trees
	got, gerr := expr.Compile(in)
	if werr == nil && gerr == nil {
		if !reflect.DeepEqual(want, got) {
			t.Errorf("%s: the trees compile otherwise than the texts %+v", src, in)
		}
		return
	}
	var wa, ga *attr.Error
	if !errors.As(werr, &wa) || !errors.As(gerr, &ga) {
		t.Errorf("%s: texts: %v, trees: %v", src, werr, gerr)
		return
	}
	if wa.Prefix != "" || ga.Prefix == "" || strings.HasPrefix(ga.Message, ga.Prefix) || ga.Prefix+ga.Message != wa.Message {
		t.Errorf("%s: texts: %q, trees: %q bare after %q", src, wa.Message, ga.Message, ga.Prefix)
	}
}
