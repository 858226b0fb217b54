package expr

import (
	"testing"

	"github.com/dynago/dynago/attr"
)

func sampleItem() attr.Item {
	return attr.Item{
		"pk":   s("a"),
		"s":    s("hello"),
		"n":    n("10"),
		"neg":  n("-3.5"),
		"zero": n("0"),
		"bin":  b("\x01\x02\x03"),
		"t":    boolv(true),
		"nul":  null(),
		"l":    l(s("x"), n("2"), m("k", s("v"))),
		"m":    m("a", s("1"), "b", m("c", n("3"))),
		"ss":   ss("a", "b"),
		"ns":   ns("1", "2.5"),
		"bs":   bs("\x01", "\x02"),
		"utf":  s("é€"),
	}
}

func TestEval(t *testing.T) {
	vals := attr.Item{
		":hello": s("hello"), ":he": s("he"), ":ell": s("ell"), ":x": s("x"), ":a": s("a"), ":z": s("z"),
		":10": n("10.0"), ":11": n("11"), ":5": n("5"), ":1": n("1"), ":2": n("2"), ":3": n("3"), ":0": n("-0"), ":25": n("2.50"),
		":true": boolv(true), ":false": boolv(false), ":null": null(),
		":ssba": ss("b", "a"), ":nsx": ns("2.5", "1.0"), ":l": l(s("x"), n("2"), m("k", s("v"))),
		":mm": m("b", m("c", n("3")), "a", s("1")), ":b01": b("\x01"), ":b02": b("\x02\x03"), ":b9": b("\x09"),
		":S": s("S"), ":N": s("N"), ":L": s("L"), ":M": s("M"), ":SS": s("SS"), ":NS": s("NS"), ":BS": s("BS"),
		":B": s("B"), ":BOOL": s("BOOL"), ":NULL": s("NULL"), ":e": s("é"),
	}
	cases := []struct {
		expr string
		want bool
	}{
		{"s = :hello", true},
		{"n = :10", true}, // numbers compare by value
		{"zero = :0", true},
		{"ns = :nsx", true}, // sets are unordered, numbers by value
		{"ss = :ssba", true},
		{"l = :l", true},
		{"m = :mm", true},
		{"s = :10", false}, // different types are never equal
		{"s <> :10", true},
		{"s < :10", false},
		{"n < :11 AND n >= :10", true},
		{"n > :5", true},
		{"neg < :0", true},
		{"s > :he", true},
		{"s <= :hello", true},
		{"bin > :b01", true},
		{"bin < :b02", true},
		{"t = :true", true},
		{"t <> :false", true},
		{"nul = :null", true},
		{"absent = :x", false},
		{"absent <> :x", true}, // a absent attribute is unequal to anything
		{"NOT absent = :x", true},
		{"absent < :x", false},
		{"NOT absent < :x", true},
		{"m.b.c = :3 AND l[1] = :2 AND l[2].k = :x", false},
		{"m.b.c = :3 AND l[1] = :2 AND l[0] = :x", true},
		{"l[3] = :x", false},
		{"l.x = :x", false},
		{"m[0] = :x", false},
		{"n BETWEEN :5 AND :11", true},
		{"n BETWEEN :10 AND :10", true},
		{"n BETWEEN :11 AND :11", false},
		{"s BETWEEN :a AND :z", true},
		{"s BETWEEN :1 AND :11", false},
		{"absent BETWEEN :1 AND :2", false},
		{"n IN (:1, :10)", true},
		{"n IN (:1, :2)", false},
		{"s IN (:x, :hello)", true},
		{"absent IN (:x)", false},
		{"attribute_exists(m.b.c) AND attribute_not_exists(zz)", true},
		{"attribute_exists(l[2].k)", true},
		{"attribute_exists(l[3])", false},
		{"attribute_not_exists(m.b.d)", true},
		{"attribute_type(s, :S) AND attribute_type(n, :N) AND attribute_type(l, :L) AND attribute_type(m, :M)", true},
		{"attribute_type(ss, :SS) AND attribute_type(ns, :NS) AND attribute_type(bs, :BS) AND attribute_type(bin, :B)", true},
		{"attribute_type(t, :BOOL) AND attribute_type(nul, :NULL)", true},
		{"attribute_type(s, :N)", false},
		{"attribute_type(absent, :S)", false},
		{"begins_with(s, :he)", true},
		{"begins_with(s, :ell)", false},
		{"begins_with(bin, :b01)", true},
		{"begins_with(bin, :b02)", false},
		{"begins_with(n, :x)", false},
		{"begins_with(utf, :e)", true},
		{"contains(s, :ell)", true},
		{"contains(s, :x)", false},
		{"contains(bin, :b02)", true},
		{"contains(bin, :b9)", false},
		{"contains(ss, :a) AND contains(ns, :1) AND contains(bs, :b01)", true},
		{"contains(ns, :25)", true},
		{"contains(ss, :1)", false}, // the operand must be of the element type
		{"contains(l, :2) AND contains(l, :x)", true},
		{"contains(l, :hello)", false},
		{"contains(n, :1)", false},
		{"contains(absent, :1)", false},
		{"size(s) = :5", true},
		{"size(utf) = :2", true}, // UTF-16 code units, not its 5 UTF-8 bytes (see utf16Len)
		{"size(bin) = :3", true},
		{"size(l) = :3 AND size(m) = :2 AND size(ss) = :2 AND size(ns) = :2 AND size(bs) = :2", true},
		{"size(n) = :1", false}, // numbers have no size
		{"size(n) <> :1", true},
		{"size(t) > :0", false},
		{"size(absent) = :0", false},
		{"size(s) > size(l)", true},
		{"size(:hello) = :5", true},
		{"(n = :1 OR s = :hello) AND NOT t = :false", true},
		{"n = :1 and s = :hello or t = :true", true}, // keywords are case-insensitive; AND binds tighter than OR
		{"n = :1 and (s = :hello or t = :true)", false},
		{"NOT n = :1 AND n = :10", true}, // NOT binds tighter than AND
		{"NOT (n = :10 AND n = :1)", true},
		{"NOT NOT n = :10", true},
	}
	for _, c := range cases {
		cd := cond(t, c.expr, nil, usedValues(c.expr, vals))
		if got := cd.Eval(sampleItem()); got != c.want {
			t.Errorf("%q = %v, want %v", c.expr, got, c.want)
		}
	}
	// A nil item is an item that does not exist.
	if cond(t, "attribute_not_exists(pk)", nil, nil).Eval(nil) != true {
		t.Error("attribute_not_exists on no item")
	}
	if cond(t, "pk <> :x", nil, attr.Item{":x": s("x")}).Eval(nil) != true {
		t.Error("<> on no item")
	}
}

func TestEvalNames(t *testing.T) {
	c := cond(t, "#p.#q = :v AND #p.b.#c = :three", map[string]string{"#p": "m", "#q": "a", "#c": "c"}, attr.Item{":v": s("1"), ":three": n("3.0")})
	if !c.Eval(sampleItem()) {
		t.Error("placeholder paths")
	}
	// Names with characters that need placeholders.
	c = cond(t, "#d = :v", map[string]string{"#d": "a-b.c"}, attr.Item{":v": s("x")})
	if !c.Eval(attr.Item{"a-b.c": s("x")}) || c.Eval(attr.Item{"a-b": m("c", s("x"))}) {
		t.Error("a placeholder is one name, dots and all")
	}
}

func TestConditionInspect(t *testing.T) {
	c, err := Compile(Input{KeyCondition: "#h = :v AND begins_with(r, :p)", Names: map[string]string{"#h": "hash"},
		Values: attr.Item{":v": s("x"), ":p": s("y")}})
	if err != nil {
		t.Fatal(err)
	}
	kc := c.KeyCondition
	r := kc.Root()
	if r.Kind != CondAnd || r.Left.Kind != CondCompare || r.Right.Kind != CondFunc || r.Right.Func != "begins_with" {
		t.Fatalf("tree: %+v", r)
	}
	if got := kc.Name(&r.Left.Operands[0].Path[0]); got != "hash" {
		t.Errorf("name %q", got)
	}
	if got := kc.Value(r.Left.Operands[1]); got.S != "x" {
		t.Errorf("value %v", got)
	}
	if kc.Kind() != KindKeyCondition {
		t.Error("kind")
	}
}

func TestEvalAllocs(t *testing.T) {
	item := sampleItem()
	c1 := cond(t, "#a = :v", map[string]string{"#a": "s"}, attr.Item{":v": s("hello")})
	c2 := cond(t, "attribute_not_exists(pk)", nil, nil)
	c3 := cond(t, "m.b.c BETWEEN :a AND :b AND contains(ss, :x) OR n IN (:a, :b)", nil, attr.Item{":a": n("1"), ":b": n("10"), ":x": s("a")})
	for i, c := range []*Condition{c1, c2, c3} {
		if a := testing.AllocsPerRun(100, func() { c.Eval(item) }); a != 0 {
			t.Errorf("condition %d: %v allocations per Eval", i, a)
		}
	}
}

// usedValues returns the values of vals that expr refers to.
func usedValues(expr string, vals attr.Item) attr.Item {
	out := attr.Item{}
	for _, tk := range lex(nil, expr) {
		if tk.kind == tValue {
			k := expr[tk.start:tk.end]
			out[k] = vals[k]
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
