package expr

import (
	"testing"

	"github.com/dynago/dynago/attr"
)

// Value constructors for tests.
func n(s string) attr.Value     { return attr.N(s) }
func s(x string) attr.Value     { return attr.S(x) }
func b(x string) attr.Value     { return attr.B([]byte(x)) }
func ss(x ...string) attr.Value { return attr.Value{Type: attr.TypeSS, SS: x} }
func ns(x ...string) attr.Value { return attr.Value{Type: attr.TypeNS, SS: x} }
func bs(x ...string) attr.Value {
	v := attr.Value{Type: attr.TypeBS}
	for _, e := range x {
		v.BS = append(v.BS, []byte(e))
	}
	return v
}
func l(x ...attr.Value) attr.Value { return attr.Value{Type: attr.TypeL, L: x} }
func m(kv ...any) attr.Value {
	v := attr.Value{Type: attr.TypeM, M: map[string]attr.Value{}}
	for i := 0; i < len(kv); i += 2 {
		v.M[kv[i].(string)] = kv[i+1].(attr.Value)
	}
	return v
}
func boolv(x bool) attr.Value { return attr.Bool(x) }
func null() attr.Value        { return attr.Null() }

func errText(err error) string {
	if err == nil {
		return ""
	}
	if _, ok := err.(*attr.Error); !ok {
		return "NOT AN *attr.Error: " + err.Error()
	}
	return err.Error()
}

// compileErr compiles in and returns the error message ("" for none).
func compileErr(t *testing.T, in Input) string {
	t.Helper()
	_, err := Compile(in)
	return errText(err)
}

// cond compiles a ConditionExpression, failing the test on error.
func cond(t *testing.T, expr string, names map[string]string, values attr.Item) *Condition {
	t.Helper()
	c, err := Compile(Input{Condition: expr, Names: names, Values: values})
	if err != nil {
		t.Fatalf("%q: %v", expr, err)
	}
	return c.Condition
}

// upd compiles an UpdateExpression, failing the test on error.
func upd(t *testing.T, expr string, names map[string]string, values attr.Item) *Update {
	t.Helper()
	c, err := Compile(Input{Update: expr, Names: names, Values: values})
	if err != nil {
		t.Fatalf("%q: %v", expr, err)
	}
	return c.Update
}

// testCache is the cache the package's tests and benchmarks parse through.
var testCache = NewCache(CacheBudget)

func parseCached(k Kind, text string) *parsed { return testCache.parse(k, text) }

func resetCache() { testCache.reset() }

func cacheBytes() (bytes, entries int) { return testCache.size() }
