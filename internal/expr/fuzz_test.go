package expr

import (
	"bytes"
	"strings"
	"testing"

	"github.com/dynago/dynago/attr"
)

// placeholders gives every placeholder written in text a definition, so
// that fuzzed expressions get past the undefined-placeholder checks.
func placeholders(text string, vals []attr.Value, names []string) (map[string]string, attr.Item) {
	var nm map[string]string
	var vm attr.Item
	i := 0
	for _, tk := range lex(nil, text) {
		w := text[tk.start:tk.end]
		switch tk.kind {
		case tName:
			if nm == nil {
				nm = map[string]string{}
			}
			nm[w] = names[len(nm)%len(names)]
		case tValue:
			if vm == nil {
				vm = attr.Item{}
			}
			if _, ok := vm[w]; !ok {
				vm[w] = vals[i%len(vals)]
				i++
			}
		}
	}
	return nm, vm
}

var fuzzValues = []attr.Value{n("1"), s("a"), ss("a", "b"), ns("1", "2"), l(s("x"), n("2")), m("a", n("1")), b("\x01"), n("-2.5"), bs("\x01"), boolv(true), null(), s("S")}
var fuzzNames = []string{"a", "b", "l", "m", "pk", "x.y"}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"a = :v", "#a.b[1] <> :v AND NOT (c BETWEEN :x AND :y)", "attribute_exists(a) OR size(b) > :n",
		"a IN (:a, :b, :c)", "((a = :v))", "(a) = :v", "contains(#a, #a)", "SET a = a + :one ADD hits :one",
		"SET l = list_append(if_not_exists(l, :e), :x) REMOVE b, c[2] DELETE s :s", "a.b, c[0].d, #e",
		"begins_with(a, :p) and attribute_type(b, :t)", "set a = (b) + (c)", "!!! INVALID !!!", "a = \"x\"",
	} {
		for k := byte(0); k < byte(numKinds); k++ {
			f.Add(k, s)
		}
	}
	f.Fuzz(func(t *testing.T, kb byte, text string) {
		k := Kind(kb % byte(numKinds))
		if len(text) <= MaxExpressionSize && !isBlank(text) {
			_ = parse(k, text) // straight parse, no cache
		}
		in := Input{Present: Kinds(0).With(k)}
		switch k {
		case KindCondition:
			in.Condition = text
		case KindFilter:
			in.Filter = text
		case KindKeyCondition:
			in.KeyCondition = text
		case KindProjection:
			in.Projection = text
		case KindSearchCondition:
			in.SearchCondition = text
		default:
			in.Update = text
		}
		in.Names, in.Values = placeholders(text, fuzzValues, fuzzNames)
		if k == KindProjection {
			in.Values = nil
		}
		c, err := Compile(in)
		if err != nil {
			msg := err.Error()
			if _, ok := err.(*attr.Error); !ok || !strings.HasPrefix(msg, "Invalid "+k.String()+": ") &&
				!strings.HasPrefix(msg, "ExpressionAttributeNames contains invalid key: ") &&
				!strings.HasPrefix(msg, "ExpressionAttributeValues contains invalid key: ") {
				t.Fatalf("%q: unexpected error %T %q", text, err, msg)
			}
			return
		}
		item := sampleItem()
		switch {
		case c.Condition != nil:
			c.Condition.Eval(item)
			c.Condition.Eval(nil)
		case c.Filter != nil:
			c.Filter.Eval(item)
		case c.KeyCondition != nil:
			c.KeyCondition.Eval(item)
		case c.Projection != nil:
			c.Projection.Apply(item)
		case c.Update != nil:
			c.Update.Apply(item)
		case c.SearchCondition != nil:
			c.SearchCondition.Eval(item)
		}
	})
}

func FuzzApplyUpdate(f *testing.F) {
	seedItem := attr.AppendItem(nil, sampleItem())
	for _, s := range []string{
		"SET a = :v", "SET n = n + :v, l[5] = :v REMOVE s ADD hits :v", "REMOVE l[0], l[1], m.b.c",
		"DELETE ss :v SET m.b.d = if_not_exists(m.b.c, :v)", "SET l = list_append(l, :v), #x = :w",
		"ADD ns :v, ss :w", "SET m.a = m.b, m.b = m.a", "SET l[0].k = :v REMOVE l[2]",
	} {
		f.Add(s, seedItem)
	}
	f.Fuzz(func(t *testing.T, text string, raw []byte) {
		old, err := attr.DecodeItem(raw)
		if err != nil || attr.CanonicalizeItem(old) != nil {
			old = sampleItem()
		}
		names, values := placeholders(text, fuzzValues, fuzzNames)
		c, err := Compile(Input{Update: text, Present: Kinds(0).With(KindUpdate), Names: names, Values: values})
		if err != nil {
			return
		}
		before := attr.AppendItem(nil, old)
		got, err := c.Update.Apply(old)
		if !bytes.Equal(before, attr.AppendItem(nil, old)) {
			t.Fatalf("%q changed the old item", text)
		}
		if err != nil {
			if _, ok := err.(*attr.Error); !ok {
				t.Fatalf("%q: %T %v", text, err, err)
			}
			return
		}
		// The new item must be a valid item with canonical numbers: check
		// a decoded copy, so that canonicalization cannot touch old.
		enc := attr.AppendItem(nil, got)
		cp, err := attr.DecodeItem(enc)
		if err != nil {
			t.Fatalf("%q: result does not decode: %v", text, err)
		}
		if err := attr.CanonicalizeItem(cp); err != nil {
			if err.Error() == attr.MsgNestingTooDeep {
				return // the engine's item validation reports it
			}
			t.Fatalf("%q: invalid result %v: %v", text, got, err)
		}
		if !bytes.Equal(enc, attr.AppendItem(nil, cp)) {
			t.Fatalf("%q: result has non-canonical numbers: %v", text, got)
		}
		if !bytes.Equal(before, attr.AppendItem(nil, old)) {
			t.Fatalf("%q changed the old item through the new one", text)
		}
	})
}
