package compkey

import (
	"cmp"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

var orderKey = MustNew('#', Literal("USER#"), String("user"), Literal("ORDER#"), Int("id", 5))

func TestBuildParse(t *testing.T) {
	cases := []struct {
		key  *Key
		vals []any
		want string
	}{
		{orderKey, []any{"alex", 42}, "USER#alex#ORDER#00042"},
		{orderKey, []any{"a#b", 7}, "USER#a$cb#ORDER#00007"},
		{MustNew('#', String("status"), Time("at")), []any{"SHIPPED", time.Date(2023, 1, 15, 0, 0, 0, 0, time.UTC)}, "SHIPPED#2023-01-15T00:00:00.000Z"},
		{MustNew(':', Literal("dog:command:"), String("cmd")), []any{"sit"}, "dog:command:sit"},
		{MustNew(':', Literal("parrot:words:"), Int("n", 6)), []any{3}, "parrot:words:000003"},
		{MustNew('#', String("a"), String("b")), []any{"", ""}, "#"},
	}
	for _, c := range cases {
		got, err := c.key.Build(c.vals...)
		if err != nil || got != c.want {
			t.Fatalf("Build(%v) = %q, %v; want %q", c.vals, got, err, c.want)
		}
		back, err := c.key.Parse(got)
		if err != nil {
			t.Fatalf("Parse(%q): %v", got, err)
		}
		if !sameValues(back, c.vals) {
			t.Fatalf("Parse(%q) = %v, want %v", got, back, c.vals)
		}
	}
}

func TestPrefixAndBetween(t *testing.T) {
	p, err := orderKey.Prefix("alex")
	if err != nil || p != "USER#alex#ORDER#" {
		t.Fatalf("Prefix = %q, %v", p, err)
	}
	if p, _ := orderKey.Prefix(); p != "USER#" {
		t.Fatalf("empty Prefix = %q", p)
	}
	alexandra, _ := orderKey.Build("alexandra", 1)
	if strings.HasPrefix(alexandra, p) {
		t.Fatal("a prefix for alex matches alexandra")
	}
	status := MustNew('#', String("status"), Time("at"), String("id"))
	day := func(d int) time.Time { return time.Date(2023, 1, d, 0, 0, 0, 0, time.UTC) }
	lo, hi, err := status.Between([]any{"SHIPPED"}, day(1), day(31))
	if err != nil {
		t.Fatal(err)
	}
	in := []string{mustBuild(status, "SHIPPED", day(1), "a"), mustBuild(status, "SHIPPED", day(31), "zzz")}
	out := []string{mustBuild(status, "SHIPPED", time.Date(2022, 12, 31, 23, 59, 59, 0, time.UTC), "z"), mustBuild(status, "SHIPPED", day(31).Add(time.Millisecond), ""), mustBuild(status, "SHIPPEDX", day(5), "")}
	for _, k := range in {
		if k < lo || k > hi {
			t.Errorf("%q outside [%q, %q]", k, lo, hi)
		}
	}
	for _, k := range out {
		if k >= lo && k <= hi {
			t.Errorf("%q inside [%q, %q]", k, lo, hi)
		}
	}
}

func mustBuild(k *Key, vals ...any) string {
	s, err := k.Build(vals...)
	if err != nil {
		panic(err)
	}
	return s
}

func TestErrors(t *testing.T) {
	if _, err := New('|', String("a")); err == nil {
		t.Error("separator '|' accepted")
	}
	if _, err := New('#', Literal("X#")); err == nil {
		t.Error("a key without variable parts accepted")
	}
	if _, err := orderKey.Build("alex", -1); err == nil {
		t.Error("negative Int accepted")
	}
	if _, err := orderKey.Build("alex", 100000); err == nil {
		t.Error("too wide Int accepted")
	}
	if _, err := orderKey.Build("alex"); err == nil {
		t.Error("missing value accepted")
	}
	for _, bad := range []string{"", "USER#alex", "USER#alex#ORDER#0004x", "USER#al!ex#ORDER#00042", "USER#alex#ORDER#00042#", "ORDER#alex#USER#00042", "USER#a$#ORDER#00001"} {
		if _, err := orderKey.Parse(bad); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
}

// fuzzKey has every kind of part, with strings in the middle and at the end.
var fuzzKey = MustNew('#', Literal("T#"), String("a"), Int("n", 4), String("b"), Time("t"), String("c"))

func fuzzValues(a string, n uint16, b string, ms int64, c string) []any {
	t := time.UnixMilli(ms % 253402300800000).UTC() // years 1970-9999
	if t.Year() > 9999 {
		t = time.UnixMilli(0).UTC()
	}
	return []any{a, uint64(n % 10000), b, t, c}
}

func compareValues(a, b []any) int {
	for i := range a {
		var c int
		switch x := a[i].(type) {
		case string:
			c = strings.Compare(x, b[i].(string))
		case uint64:
			c = cmp.Compare(x, b[i].(uint64))
		case time.Time:
			c = x.Compare(b[i].(time.Time))
		}
		if c != 0 {
			return c
		}
	}
	return 0
}

func sameValues(got, want []any) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		w := want[i]
		if n, ok := w.(int); ok {
			w = uint64(n)
		}
		if t, ok := w.(time.Time); ok {
			if !t.Equal(got[i].(time.Time)) {
				return false
			}
			continue
		}
		if !reflect.DeepEqual(got[i], w) {
			return false
		}
	}
	return true
}

// FuzzRoundTripAndOrder checks both guarantees on pairs of random tuples:
// Parse(Build(x)) == x, and Build preserves tuple order.
func FuzzRoundTripAndOrder(f *testing.F) {
	f.Add("alex", uint16(42), "x", int64(0), "", "alex", uint16(42), "x#", int64(1), "")
	f.Add("a!", uint16(1), "", int64(5), "z", "a", uint16(1), "", int64(5), "z")
	f.Add("\x00", uint16(9), "$", int64(7), "#", "", uint16(9), "%", int64(7), "$")
	f.Add("é", uint16(0), "中", int64(1e12), "\U0010FFFF", "e", uint16(0), "中", int64(1e12), "")
	f.Fuzz(func(t *testing.T, a1 string, n1 uint16, b1 string, t1 int64, c1 string, a2 string, n2 uint16, b2 string, t2 int64, c2 string) {
		if t1 < 0 || t2 < 0 {
			return
		}
		v1, v2 := fuzzValues(a1, n1, b1, t1, c1), fuzzValues(a2, n2, b2, t2, c2)
		k1, err1 := fuzzKey.Build(v1...)
		k2, err2 := fuzzKey.Build(v2...)
		if err1 != nil || err2 != nil {
			// Only invalid UTF-8 is refused.
			for _, s := range []string{a1, b1, c1, a2, b2, c2} {
				if !utf8.ValidString(s) {
					return
				}
			}
			t.Fatalf("Build refused valid values: %v, %v", err1, err2)
		}
		for _, kv := range []struct {
			k string
			v []any
		}{{k1, v1}, {k2, v2}} {
			back, err := fuzzKey.Parse(kv.k)
			if err != nil || !sameValues(back, kv.v) {
				t.Fatalf("Parse(Build(%q)) = %q, %v", kv.v, back, err)
			}
		}
		want := compareValues(v1, v2)
		if got := strings.Compare(k1, k2); got != want {
			t.Fatalf("order: tuples compare %d, keys %q and %q compare %d", want, k1, k2, got)
		}
	})
}
