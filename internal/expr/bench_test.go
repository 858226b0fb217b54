package expr

import (
	"testing"

	"github.com/dynago/dynago/attr"
)

const complexCond = "(#st = :active OR #st = :pending) AND attribute_exists(pk) AND size(tags) > :zero " +
	"AND begins_with(#nm, :pre) AND price BETWEEN :lo AND :hi AND NOT contains(tags, :banned) AND category IN (:c1, :c2, :c3)"

var complexNames = map[string]string{"#st": "status", "#nm": "name"}

func complexValues() attr.Item {
	return attr.Item{":active": s("active"), ":pending": s("pending"), ":zero": n("0"), ":pre": s("wid"),
		":lo": n("1"), ":hi": n("100"), ":banned": s("x"), ":c1": s("a"), ":c2": s("b"), ":c3": s("tools")}
}

func benchItem() attr.Item {
	return attr.Item{"pk": s("item#1"), "status": s("active"), "name": s("widget"), "price": n("42.5"),
		"tags": ss("new", "sale"), "category": s("tools"), "a": n("10"), "hits": n("3"), "desc": s("a widget"),
		"dims": m("w", n("1"), "h", n("2"))}
}

func BenchmarkParseCold(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if p := parse(KindFilter, complexCond); p.err != nil {
			b.Fatal(p.err)
		}
	}
}

func BenchmarkCompileCachedSimple(b *testing.B) {
	in := Input{Condition: "#a = :v", Names: map[string]string{"#a": "status"}, Values: attr.Item{":v": s("active")}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Compile(in); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCompileCachedComplex(b *testing.B) {
	in := Input{Filter: complexCond, Names: complexNames, Values: complexValues()}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Compile(in); err != nil {
			b.Fatal(err)
		}
	}
}

func benchEval(b *testing.B, in Input, want bool) {
	c, err := Compile(in)
	if err != nil {
		b.Fatal(err)
	}
	cd := c.Condition
	if cd == nil {
		cd = c.Filter
	}
	item := benchItem()
	b.ReportAllocs()
	for b.Loop() {
		if cd.Eval(item) != want {
			b.Fatal("wrong result")
		}
	}
}

func BenchmarkEvalEqual(b *testing.B) {
	benchEval(b, Input{Condition: "#a = :v", Names: map[string]string{"#a": "status"}, Values: attr.Item{":v": s("active")}}, true)
}

func BenchmarkEvalNotExists(b *testing.B) {
	benchEval(b, Input{Condition: "attribute_not_exists(pk)"}, false)
}

func BenchmarkEvalComplex(b *testing.B) {
	benchEval(b, Input{Filter: complexCond, Names: complexNames, Values: complexValues()}, true)
}

func BenchmarkApplyUpdate(b *testing.B) {
	c, err := Compile(Input{Update: "SET a = a + :one ADD hits :one", Values: attr.Item{":one": n("1")}})
	if err != nil {
		b.Fatal(err)
	}
	item := benchItem()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Update.Apply(item); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCompileAndApplyUpdate(b *testing.B) {
	in := Input{Update: "SET a = a + :one ADD hits :one", Values: attr.Item{":one": n("1")}}
	item := benchItem()
	b.ReportAllocs()
	for b.Loop() {
		c, err := Compile(in)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := c.Update.Apply(item); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkProjection(b *testing.B) {
	c, err := Compile(Input{Projection: "pk, #nm, dims.w, tags", Names: map[string]string{"#nm": "name"}})
	if err != nil {
		b.Fatal(err)
	}
	item := benchItem()
	b.ReportAllocs()
	for b.Loop() {
		c.Projection.Apply(item)
	}
}

// BenchmarkParseCachedHit is the cache's hit path alone: one lookup of a
// text parsed before.
func BenchmarkParseCachedHit(b *testing.B) {
	resetCache()
	parseCached(KindFilter, complexCond)
	b.ReportAllocs()
	for b.Loop() {
		if p := parseCached(KindFilter, complexCond); p.err != nil {
			b.Fatal(p.err)
		}
	}
}

// BenchmarkParseCachedHitParallel is the hit path with every goroutine
// reading the same entries, as concurrent requests with the same
// expressions do.
func BenchmarkParseCachedHitParallel(b *testing.B) {
	resetCache()
	texts := []string{complexCond, "#a = :v", "attribute_not_exists(pk)", "size(#n) > :v"}
	for _, t := range texts {
		parseCached(KindCondition, t)
	}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			parseCached(KindCondition, texts[i&3])
			i++
		}
	})
}

// BenchmarkEvalEncoded is BenchmarkEvalEqual and BenchmarkEvalComplex on
// the item's encoding, read lazily (EvalEncoded, a Scan's filter).
func BenchmarkEvalEncoded(b *testing.B) {
	for _, tc := range []struct {
		name string
		in   Input
	}{
		{"equal", Input{Filter: "#a = :v", Names: map[string]string{"#a": "status"}, Values: attr.Item{":v": s("active")}}},
		{"complex", Input{Filter: complexCond, Names: complexNames, Values: complexValues()}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			c, err := Compile(tc.in)
			if err != nil {
				b.Fatal(err)
			}
			enc := attr.AppendItem(nil, benchItem())
			var item attr.Encoded
			b.ReportAllocs()
			for b.Loop() {
				item.Reset(enc)
				if !c.Filter.EvalEncoded(&item) {
					b.Fatal("filter rejects the item")
				}
			}
		})
	}
}
