package expr

import (
	"bytes"
	"testing"

	"github.com/dynago/dynago/attr"
)

func encode(it attr.Item) []byte { return attr.AppendItem(nil, it) }

func itemsEqual(a, b attr.Item) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		w, ok := b[k]
		if !ok || !attr.Equal(v, w) || !sameListOrder(v, w) {
			return false
		}
	}
	return true
}

// sameListOrder checks list element order (Equal already does) and set
// member order, which the tests pin too.
func sameListOrder(a, b attr.Value) bool {
	if a.Type == attr.TypeSS || a.Type == attr.TypeNS {
		for i := range a.SS {
			if a.SS[i] != b.SS[i] {
				return false
			}
		}
	}
	return true
}

type updCase struct {
	expr   string
	names  map[string]string
	values attr.Item
	old    attr.Item
	want   attr.Item // nil when wantErr is set
	err    string
}

func runUpdCases(t *testing.T, cases []updCase) {
	t.Helper()
	for _, c := range cases {
		u, err := Compile(Input{Update: c.expr, Names: c.names, Values: c.values})
		if err != nil {
			t.Errorf("%q: compile: %v", c.expr, err)
			continue
		}
		before := encode(c.old)
		got, err := u.Update.Apply(c.old)
		if !bytes.Equal(before, encode(c.old)) {
			t.Errorf("%q: the old item was modified", c.expr)
		}
		if c.err != "" {
			if errText(err) != c.err {
				t.Errorf("%q: error %q, want %q", c.expr, errText(err), c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.expr, err)
			continue
		}
		if !itemsEqual(got, c.want) {
			t.Errorf("%q:\n got %v\nwant %v", c.expr, got, c.want)
		}
	}
}

func TestUpdateApply(t *testing.T) {
	one := attr.Item{":one": n("1")}
	runUpdCases(t, []updCase{
		{expr: "SET a = :one", values: one, old: nil, want: attr.Item{"a": n("1")}},
		{expr: "SET a = a + :one", values: one, old: attr.Item{"a": n("41")}, want: attr.Item{"a": n("42")}},
		{expr: "SET a = a - :v", values: attr.Item{":v": n("0.1")}, old: attr.Item{"a": n("0.3")}, want: attr.Item{"a": n("0.2")}},
		{expr: "SET a = :x + :y", values: attr.Item{":x": n("100000000000000000000.00000001"), ":y": n("-1")}, old: nil,
			want: attr.Item{"a": n("99999999999999999999.00000001")}},
		{expr: "SET a = :x - :x", values: attr.Item{":x": n("1.5")}, want: attr.Item{"a": n("0")}},
		{expr: "SET a = a + :v", values: attr.Item{":v": n("1E+125")}, old: attr.Item{"a": n("9.9999999999999999999999999999999999999E+125")},
			err: "Number overflow. Attempting to store a number with magnitude larger than supported range"},
		{expr: "SET a = a - :v", values: attr.Item{":v": n("1E-130")}, old: attr.Item{"a": n("1.1E-130")},
			err: "Number underflow. Attempting to store a number with magnitude smaller than supported range"},
		// A sum past 38 digits: "Number overflow", as DynamoDB answers
		// 1e50 + 1 (Alternator's test_number.py,
		// test_update_expression_plus_imprecise, against DynamoDB).
		{expr: "SET a = a + :v", values: attr.Item{":v": n("1E-10")}, old: attr.Item{"a": n("1E+30")},
			err: "Number overflow. Attempting to store a number with magnitude larger than supported range"},
		{expr: "SET a = b, b = a", old: attr.Item{"a": s("x"), "b": n("1")}, want: attr.Item{"a": n("1"), "b": s("x")}},
		{expr: "SET c = b", old: attr.Item{"a": s("x")}, err: MsgMissingAttribute},
		{expr: "SET c = b + :one", values: one, old: attr.Item{"a": s("x")}, err: MsgMissingAttribute},
		{expr: "SET c = a + :one", values: one, old: attr.Item{"a": s("x")}, err: MsgIncorrectDataType},
		{expr: "SET a = if_not_exists(a, :one)", values: one, old: attr.Item{"a": n("7")}, want: attr.Item{"a": n("7")}},
		{expr: "SET a = if_not_exists(a, :one)", values: one, old: nil, want: attr.Item{"a": n("1")}},
		{expr: "SET b = if_not_exists(b, a)", old: attr.Item{"a": s("k")}, want: attr.Item{"a": s("k"), "b": s("k")}},
		{expr: "SET q = if_not_exists(q, :z) + :o", values: attr.Item{":z": n("0"), ":o": n("1")}, want: attr.Item{"q": n("1")}},
		{expr: "SET l = list_append(l, :x)", values: attr.Item{":x": l(s("z"))}, old: attr.Item{"l": l(s("a"))}, want: attr.Item{"l": l(s("a"), s("z"))}},
		{expr: "SET l = list_append(:x, l)", values: attr.Item{":x": l(s("z"))}, old: attr.Item{"l": l(s("a"))}, want: attr.Item{"l": l(s("z"), s("a"))}},
		{expr: "SET l = list_append(l, :x)", values: attr.Item{":x": l(s("z"))}, old: nil, err: MsgMissingAttribute},
		{expr: "SET l = list_append(l, :x)", values: attr.Item{":x": l(s("z"))}, old: attr.Item{"l": s("a")}, err: MsgIncorrectDataType},
		{expr: "SET l = list_append(if_not_exists(l, :e), :x)", values: attr.Item{":x": l(s("z")), ":e": l()}, old: nil, want: attr.Item{"l": l(s("z"))}},
		// Document paths.
		{expr: "SET m.b = :one", values: one, old: attr.Item{"m": m("a", s("x"))}, want: attr.Item{"m": m("a", s("x"), "b", n("1"))}},
		{expr: "SET m.b.c = :one", values: one, old: attr.Item{"m": m()}, err: MsgInvalidPathForUpdate},
		{expr: "SET m.b = :one", values: one, old: nil, err: MsgInvalidPathForUpdate},
		{expr: "SET m.b = :one", values: one, old: attr.Item{"m": s("x")}, err: MsgInvalidPathForUpdate},
		{expr: "SET m[1] = :one", values: one, old: attr.Item{"m": m("1", s("x"))}, err: MsgInvalidPathForUpdate},
		{expr: "SET l.#k = :one", names: map[string]string{"#k": "1"}, values: one, old: attr.Item{"l": l(s("a"))}, err: MsgInvalidPathForUpdate},
		{expr: "SET l[0] = :one", values: one, old: attr.Item{"l": l(s("a"), s("b"))}, want: attr.Item{"l": l(n("1"), s("b"))}},
		{expr: "SET l[5] = :one", values: one, old: attr.Item{"l": l(s("a"))}, want: attr.Item{"l": l(s("a"), n("1"))}},
		{expr: "SET l[0] = :one", values: one, old: attr.Item{"l": l()}, want: attr.Item{"l": l(n("1"))}},
		{expr: "SET l[5].a = :one", values: one, old: attr.Item{"l": l(s("a"))}, err: MsgInvalidPathForUpdate},
		// The nested update of dynalite's "should update nested attributes"
		// test: every operand reads the old item; appends land in index
		// order, not the order written.
		{expr: "set b.c=((c[1])+(b.a)),b.a = a,c[1] = a, c[4] = b.a - b.b, c[2] = b.c add c[8] :b, c[6] :a",
			values: attr.Item{":a": n("2"), ":b": ss("a")},
			old:    attr.Item{"a": s("k"), "b": m("a", n("1"), "b", n("2"), "c", n("3")), "c": l(n("1"), n("3"))},
			want: attr.Item{"a": s("k"), "b": m("a", s("k"), "b", n("2"), "c", n("4")),
				"c": l(n("1"), s("k"), n("3"), n("-1"), n("2"), ss("a"))}},
		// REMOVE.
		{expr: "REMOVE a", old: attr.Item{"a": s("x"), "b": s("y")}, want: attr.Item{"b": s("y")}},
		{expr: "REMOVE absent", old: attr.Item{"a": s("x")}, want: attr.Item{"a": s("x")}},
		{expr: "REMOVE m.a", old: attr.Item{"m": m("a", s("x"), "b", s("y"))}, want: attr.Item{"m": m("b", s("y"))}},
		{expr: "REMOVE m.z", old: attr.Item{"m": m("a", s("x"))}, want: attr.Item{"m": m("a", s("x"))}},
		{expr: "REMOVE y.a", old: attr.Item{"a": s("x")}, err: MsgInvalidPathForUpdate},
		{expr: "REMOVE a.b", old: attr.Item{"a": s("x")}, err: MsgInvalidPathForUpdate},
		{expr: "REMOVE l[1]", old: attr.Item{"l": l(s("a"), s("b"), s("c"), s("d"))}, want: attr.Item{"l": l(s("a"), s("c"), s("d"))}},
		{expr: "REMOVE l[0], l[1]", old: attr.Item{"l": l(s("a"), s("b"), s("c"))}, want: attr.Item{"l": l(s("c"))}},
		{expr: "REMOVE l[2], l[0]", old: attr.Item{"l": l(s("a"), s("b"), s("c"))}, want: attr.Item{"l": l(s("b"))}},
		{expr: "REMOVE l[9]", old: attr.Item{"l": l(s("a"))}, want: attr.Item{"l": l(s("a"))}},
		{expr: "REMOVE l[0] SET l[1] = :one", values: one, old: attr.Item{"l": l(s("a"), s("b"), s("c"))}, want: attr.Item{"l": l(n("1"), s("c"))}},
		// ADD.
		{expr: "ADD hits :one", values: one, old: nil, want: attr.Item{"hits": n("1")}},
		{expr: "ADD hits :one", values: one, old: attr.Item{"hits": n("-1")}, want: attr.Item{"hits": n("0")}},
		{expr: "ADD hits :one", values: one, old: attr.Item{"hits": s("x")}, err: MsgIncorrectDataType},
		{expr: "ADD tags :t", values: attr.Item{":t": ss("c", "a")}, old: attr.Item{"tags": ss("a", "b")}, want: attr.Item{"tags": ss("a", "b", "c")}},
		{expr: "ADD tags :t", values: attr.Item{":t": ns("2.0", "3")}, old: attr.Item{"tags": ns("1", "2")}, want: attr.Item{"tags": ns("1", "2", "3")}},
		{expr: "ADD tags :t", values: attr.Item{":t": bs("y")}, old: attr.Item{"tags": bs("x")}, want: attr.Item{"tags": bs("x", "y")}},
		{expr: "ADD tags :t", values: attr.Item{":t": ns("1")}, old: attr.Item{"tags": ss("a")}, err: MsgIncorrectDataType},
		{expr: "ADD tags :t", values: attr.Item{":t": ss("a")}, old: nil, want: attr.Item{"tags": ss("a")}},
		{expr: "ADD m.c :one", values: one, old: attr.Item{"m": m()}, want: attr.Item{"m": m("c", n("1"))}},
		{expr: "ADD y.c :one", values: one, old: nil, err: MsgInvalidPathForUpdate},
		// DELETE.
		{expr: "DELETE tags :t", values: attr.Item{":t": ss("a", "z")}, old: attr.Item{"tags": ss("a", "b")}, want: attr.Item{"tags": ss("b")}},
		{expr: "DELETE tags :t", values: attr.Item{":t": ns("1.0", "4")}, old: attr.Item{"tags": ns("1", "2", "3")}, want: attr.Item{"tags": ns("2", "3")}},
		{expr: "DELETE tags :t", values: attr.Item{":t": ss("a", "b")}, old: attr.Item{"tags": ss("a", "b"), "x": s("y")}, want: attr.Item{"x": s("y")}},
		{expr: "DELETE tags :t", values: attr.Item{":t": ss("a")}, old: nil, want: attr.Item{}},
		{expr: "DELETE tags :t", values: attr.Item{":t": ns("1")}, old: attr.Item{"tags": ss("a")}, err: MsgIncorrectDataType},
		{expr: "DELETE tags :t", values: attr.Item{":t": ss("a")}, old: attr.Item{"tags": s("a")}, err: MsgIncorrectDataType},
		{expr: "DELETE y.a :t", values: attr.Item{":t": ss("a")}, old: nil, err: MsgInvalidPathForUpdate},
		{expr: "DELETE l[0] :t", values: attr.Item{":t": ss("a")}, old: attr.Item{"l": l(ss("a"), s("b"))}, want: attr.Item{"l": l(s("b"))}},
		// A failing action leaves everything unchanged (checked by the
		// runner); the first failure in action order is reported.
		{expr: "SET a = :one, m.x.y = :one REMOVE b ADD c :one", values: one, old: attr.Item{"a": s("x"), "b": s("y"), "m": m()}, err: MsgInvalidPathForUpdate},
	})
}

// TestUpdateApplyMissing: on a missing item (its key alone) a REMOVE of a
// nested path does nothing, while SET and ADD through the missing parent,
// or a REMOVE beside them under the same parent, are refused as on an
// existing item.
func TestUpdateApplyMissing(t *testing.T) {
	const invalid = MsgInvalidPathForUpdate
	key := attr.Item{"pk": s("k")}
	one := attr.Item{":one": n("1")}
	for _, c := range []struct {
		expr   string
		values attr.Item
		want   attr.Item
		err    string
	}{
		{expr: "REMOVE a.b", want: key},
		{expr: "REMOVE a[0]", want: key},
		{expr: "REMOVE a.b[2].c, a.d, e", want: key},
		{expr: "SET x = :one REMOVE a.b", values: one, want: attr.Item{"pk": s("k"), "x": n("1")}},
		{expr: "REMOVE a", want: key},
		{expr: "SET a.b = :one", values: one, err: invalid},
		{expr: "ADD a[0] :one", values: one, err: invalid},
		{expr: "SET a.c = :one REMOVE a.b", values: one, err: invalid},
	} {
		u := upd(t, c.expr, nil, c.values)
		got, err := u.ApplyMissing(key)
		if c.err != "" {
			if errText(err) != c.err {
				t.Errorf("%q: error %q, want %q", c.expr, errText(err), c.err)
			}
		} else if err != nil || !itemsEqual(got, c.want) {
			t.Errorf("%q: got %v, %v; want %v", c.expr, got, err, c.want)
		}
		// Apply, for an existing item, refuses every nested path
		// through the missing a.
		want := invalid
		if c.expr == "REMOVE a" {
			want = ""
		}
		if _, err := u.Apply(key); errText(err) != want {
			t.Errorf("%q: Apply error %q, want %q", c.expr, errText(err), want)
		}
	}
}

func TestUpdatedPaths(t *testing.T) {
	u := upd(t, "set b.c=((c[1])+(b.a)),b.a = a,c[1] = a, c[4] = b.a - b.b, c[2] = b.c add c[8] :b, c[6] :a", nil,
		attr.Item{":a": n("2"), ":b": ss("a")})
	old := attr.Item{"a": s("k"), "b": m("a", n("1"), "b", n("2"), "c", n("3")), "c": l(n("1"), n("3"))}
	nw, err := u.Apply(old)
	if err != nil {
		t.Fatal(err)
	}
	// DynamoDB's UPDATED_NEW for this update (dynalite's test).
	want := attr.Item{"b": m("a", s("k"), "c", n("4")), "c": l(s("k"), n("3"), n("2"))}
	if got := u.UpdatedPaths().Apply(nw); !itemsEqual(got, want) {
		t.Errorf("UPDATED_NEW %v, want %v", got, want)
	}
	wantOld := attr.Item{"b": m("a", n("1"), "c", n("3")), "c": l(n("3"))}
	if got := u.UpdatedPaths().Apply(old); !itemsEqual(got, wantOld) {
		t.Errorf("UPDATED_OLD %v, want %v", got, wantOld)
	}
	u = upd(t, "REMOVE a SET c = :v", nil, attr.Item{":v": s("n")})
	old = attr.Item{"a": s("x"), "b": s("y"), "c": s("o")}
	nw, _ = u.Apply(old)
	if got := u.UpdatedPaths().Apply(nw); !itemsEqual(got, attr.Item{"c": s("n")}) {
		t.Errorf("UPDATED_NEW after REMOVE: %v", got)
	}
	if got := u.UpdatedPaths().Apply(old); !itemsEqual(got, attr.Item{"a": s("x"), "c": s("o")}) {
		t.Errorf("UPDATED_OLD after REMOVE: %v", got)
	}
}

func TestProjection(t *testing.T) {
	c, err := Compile(Input{Projection: "#x, m.b.c, l[2].k, l[0], nothere, m.zz", Names: map[string]string{"#x": "s"}})
	if err != nil {
		t.Fatal(err)
	}
	got := c.Projection.Apply(sampleItem())
	want := attr.Item{"s": s("hello"), "m": m("b", m("c", n("3"))), "l": l(s("x"), m("k", s("v")))}
	if !itemsEqual(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
	if got := c.Projection.TopLevel(); len(got) != 4 || got[0] != "s" || got[1] != "m" || got[2] != "l" || got[3] != "nothere" {
		t.Errorf("TopLevel %v", got)
	}
	if c.Projection.Apply(nil) != nil {
		t.Error("nil item")
	}
	if got := c.Projection.Apply(attr.Item{"other": s("x")}); got == nil || len(got) != 0 {
		t.Errorf("no attribute: %v", got)
	}
	for _, in := range []struct{ expr, want string }{
		{"m, m.a", "Invalid ProjectionExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [m], path two: [m, a]"},
		{"a, a", "Invalid ProjectionExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a], path two: [a]"},
		{"a.b, a[0]", "Invalid ProjectionExpression: Two document paths conflict with each other; must remove or rewrite one of these paths; path one: [a, b], path two: [a, [0]]"},
		{"a, ", `Invalid ProjectionExpression: Syntax error; token: "<EOF>", near: ","`},
		{"a b", `Invalid ProjectionExpression: Syntax error; token: "b", near: "a b"`},
		{"a[99999999999]", "Invalid ProjectionExpression: List index is not within the allowable range; index: 99999999999"},
	} {
		if got := compileErr(t, Input{Projection: in.expr}); got != in.want {
			t.Errorf("%q: %q", in.expr, got)
		}
	}
	p, err := ProjectionFromAttributesToGet([]string{"name", "age"})
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Apply(attr.Item{"name": s("n"), "age": n("3"), "x": s("y")}); !itemsEqual(got, attr.Item{"name": s("n"), "age": n("3")}) {
		t.Errorf("AttributesToGet: %v", got)
	}
	if _, err := ProjectionFromAttributesToGet([]string{"a", "a"}); errText(err) != "One or more parameter values were invalid: Duplicate value in attribute name: a" {
		t.Errorf("duplicate: %v", err)
	}
}
