package partiql

import (
	"strings"
	"testing"

	"github.com/dynago/dynago/engine"
)

// The refusals below are AWS's answers as the paritysuite/dynamodb-
// conformance suite recorded them (tests/tier3/error-messages/
// partiqlGrammar.test.ts and partiqlFunctions.test.ts, eu-west-2, October
// 2026).
func TestParseErrors(t *testing.T) {
	const wf = MsgNotWellFormed
	for _, c := range []struct{ stmt, msg string }{
		{`SELECT * FROM "t" WHERE pk = 1 foo`, wf + "Unexpected token after expression"},
		{`SELECT * FROM "t" WHERE pk = 1 e5`, wf + "Unexpected token after expression"},
		{`INSERT INTO "t" VALUE {'pk': 970001} foo`, wf + "Unexpected token after expression"},
		{`UPDATE "t" SET a = 9 WHERE pk = 970002 foo`, wf + "Unexpected token after expression"},
		{`DELETE FROM "t" WHERE pk = 970003 foo`, wf + "Unexpected token after expression"},
		{`SELECT * FROM "t" WHERE pk = 1)`, wf + "Unexpected token after expression"},
		{`DELETE FROM "t" WHERE pk = 970004 ORDER BY pk`, wf + "Unexpected token after expression"},
		{`SELECT * FROM "t" ORDER BY pk WHERE pk = 1`, wf + "Unexpected token after expression"},
		{`SELECT * FROM "t" WHERE pk = 1e2147483648`, wf},
		{`SELECT * FROM "t" WHERE pk = 1e99999999999`, wf},
		{`SELECT * FROM "t" WHERE pk = 1.5e-2147483647`, wf},
		{`SELECT * FROM "t" WHERE pk = 1 # note`, wf},
		{`SELECT * FROM "t" WHERE pk = 1 /* note`, wf},
		{`SELECT * FROM "t" t WHERE pk = 'x'`, "Aliasing is not supported"},
		{`SELECT * FROM "t" AS t WHERE pk = 'x'`, "Aliasing is not supported"},
		{`UPDATE "t" t SET a = 3 WHERE pk = 'x'`, "Aliasing is not supported"},
		{`DELETE FROM "t" t WHERE pk = 'x'`, "Aliasing is not supported"},
		{`INSERT INTO "t" t VALUE {'pk': 'x'}`, wf + "Unexpected token after expression"},
		{`SELECT * FROM "t" WHERE`, wf + "Unexpected term"},
		{`SELECT * FROM "t" WHERE;`, wf + "Unexpected term"},
		{`SELECT * FROM "t" WHERE   `, wf + "Unexpected term"},
		{`SELECT pk FROM "t" WHERE`, wf + "Unexpected term"},
		{`UPDATE "t" SET a = 1 WHERE`, wf + "Unexpected term"},
		{`DELETE FROM "t" WHERE`, wf + "Unexpected term"},
		{`SELECT * FROM "t" WHERE NOT`, wf + "Unexpected term"},
		{`SELECT * FROM "t" WHERE (`, wf + "Unexpected term"},
		{`SELECT * FROM "t" WHERE pk = 'p1' AND`, wf + "Missing right-hand side expression of infix operator"},
		{`SELECT * FROM "t" WHERE pk = 'p1' OR`, wf + "Missing right-hand side expression of infix operator"},
		{`SELECT * FROM "t" WHERE ORDER BY pk`, wf + "Unexpected keyword"},
		{`SELECT * FROM "t" WHERE pk = 'a' AND x IS FOO`, wf + "Expected type name"},
		{`SELECT * FROM "t" WHERE IS NULL`, wf + "Unexpected operator"},
		{`SELECT * FROM "t" WHERE pk = LIKE`, wf + "Unexpected operator"},
		{`DELETE FROM`, wf + "Expected identifier for simple path"},
		{`DELETE FROM   `, wf + "Expected identifier for simple path"},
		{`DELETE FROM;`, wf + "Expected identifier for simple path"},
		{`DELETE FROM WHERE pk = 'a'`, wf + "Expected identifier for simple path"},
		{`SELECT * FROM`, wf + "Unexpected term"},
		{`FROM "t" SET c = 1 WHERE pk = 'x'`, wf + "Unexpected token after expression"},
		{`SELECT * FROM "t" WHERE pk = 'x' AND attribute_exists(m.inner)`, wf + "Invalid path dot component"},
		{`SELECT attribute_exists(ss) FROM "t" WHERE pk = 'x'`, "Unexpected path component at 1:8:16"},
		{`x IS INT4`, "Unsupported operation: IsType"},
		{`x IS DOUBLE PRECISION;`, "Unsupported operation: IsType"},
		{`x IS CHARACTER VARYING`, "Unsupported operation: IsType"},
		{`x = 1`, wf + "Expected data manipulation"},
		{`x IS INT4 foo`, wf + "Expected data manipulation"},
		{`SELECT *, COUNT(*) FROM "t"`, MsgStarAndOthers},
		{`SELECT COUNT(*), * FROM "t"`, MsgStarAndOthers},
		{`SELECT COUNT(a) FROM "t"`, "Unexpected path component at 1:8:5"},
	} {
		_, err := Parse(c.stmt)
		if err == nil {
			t.Errorf("%s: parsed", c.stmt)
			continue
		}
		if err.Error() != c.msg {
			t.Errorf("%s:\n got %q\nwant %q", c.stmt, err.Error(), c.msg)
		}
	}
}

func TestParseForms(t *testing.T) {
	for _, s := range []string{
		`SELECT * FROM "t" WHERE pk = 7.31e6`,
		`SELECT * FROM "t" WHERE pk = -.73e1`,
		`SELECT * FROM "t" WHERE pk = 'a' -- a note`,
		"SELECT * FROM \"t\" -- a note\nWHERE pk = 'b'",
		`SELECT * FROM "t" /* a note */ WHERE pk = 'c';`,
		`select a, b.c, d[2].e, "f g" from Music where pk = ? and sk between ? and ? order by sk desc`,
		`SELECT * FROM "t"."i" WHERE pk IN ['a', 'b'] OR NOT x IS NOT MISSING`,
		`SELECT * FROM "t" WHERE pk IN ('a', 'b') AND begins_with(sk, 'x') AND size(l) > 2 AND x <> y AND z != 1`,
		`INSERT INTO "t" VALUE {'pk': 'a', 'n': 1, 'l': [1, 'x', TRUE, NULL], 'm': {'k': <<'a', 'b'>>}, 'p': ?}`,
		`UPDATE "t" SET a = a + 1, b = list_append(b, [1]) SET c = ? REMOVE d, e[1] WHERE pk = 'x' RETURNING ALL NEW *`,
		`UPDATE "t" SET ss = set_add(ss, <<'x'>>) WHERE pk = 'x' AND sk = 2 RETURNING MODIFIED OLD *`,
		`DELETE FROM "t" WHERE pk = 'x' AND a > 3 RETURNING ALL OLD *`,
		`EXISTS(SELECT * FROM "t" WHERE pk = 'x' AND a = 1)`,
		`FROM "t" WHERE pk = 'x' SET c = 1`,
	} {
		if _, err := Parse(s); err != nil {
			t.Errorf("%s: %v", s, err)
		}
	}
}

func TestParseShape(t *testing.T) {
	st, err := Parse(`UPDATE "t" SET a = ? REMOVE b WHERE pk = ? AND sk = 2 RETURNING MODIFIED NEW *`)
	if err != nil {
		t.Fatal(err)
	}
	if st.Kind != Update || st.Table != "t" || st.Params != 2 || len(st.Actions) != 2 || st.Returning != ReturnModifiedNew {
		t.Fatalf("%+v", st)
	}
	if st.Actions[1].Value != nil || st.Actions[1].Path.Name() != "b" {
		t.Fatalf("REMOVE: %+v", st.Actions[1])
	}
	w, ok := st.Where.(*Binary)
	if !ok || w.Op != "AND" {
		t.Fatalf("where: %#v", st.Where)
	}
	st, err = Parse(`SELECT a.b[3], "c" FROM "t"."ix" WHERE x = -5`)
	if err != nil {
		t.Fatal(err)
	}
	if st.Index != "ix" || len(st.Projection) != 2 || len(st.Projection[0].Elems) != 3 || !st.Projection[0].Elems[2].IsIndex {
		t.Fatalf("%+v", st)
	}
	if lit := st.Where.(*Binary).R.(*Literal); lit.Text != "-5" {
		t.Fatalf("literal %+v", lit)
	}
}

func TestParseDepth(t *testing.T) {
	s := `SELECT * FROM "t" WHERE ` + strings.Repeat("(", 10000) + "a = 1" + strings.Repeat(")", 10000)
	if _, err := Parse(s); err == nil {
		t.Fatal("deep nesting parsed")
	}
}

// COUNT(*) parses, to be refused once the source is known (PlanAggregate).
func TestParseCountStar(t *testing.T) {
	st, err := Parse(`SELECT COUNT(*) FROM "t" WHERE pk = 1`)
	if err != nil {
		t.Fatal(err)
	}
	if st.Aggregate == nil || !st.Aggregate.Star || st.Aggregate.Pos != (Pos{Line: 1, Col: 8, Len: 5}) || st.Projection != nil {
		t.Fatalf("%+v", st)
	}
	if _, err := PlanSelect(st, &engine.Schema{Hash: "pk"}, false); err == nil {
		t.Fatal("planned")
	} else if pe, ok := err.(*PlanError); !ok || pe.Code != PlanAggregate {
		t.Fatalf("%v", err)
	}
}
