package console_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/dynago/dynago/server/console"
)

// TestBrowserPlainJSON pins the editor's plain-JSON rule, run in the
// page's own module (assets/av.js): items go to plain JSON and back
// unchanged, plain JSON reads as documented, and bad input is refused.
func TestBrowserPlainJSON(t *testing.T) {
	site := newSite(t, console.Options{})
	p := startBrowser(t, site.URL)

	roundTrips := []string{
		`{"n":{"N":"-1.5E-130"},"z":{"N":"0.000001"},"big":{"N":"12345678901234567890123456789012345678"}}`,
		`{"s":{"S":"é \" \\ \n \u0001 ☃"},"e":{"S":""}}`,
		`{"t":{"BOOL":false},"u":{"NULL":true},"m":{"M":{}},"l":{"L":[]}}`,
		`{"b":{"B":"AAE="},"bs":{"BS":["AAE=","AQI="]},"ns":{"NS":["1","-2.5"]},"ss":{"SS":["x","y"]}}`,
		`{"deep":{"L":[{"M":{"tags":{"SS":["a"]},"n":{"N":"7"},"B":{"S":"a map key named B"}}}]}}`,
	}
	type pair struct {
		Plain string `json:"plain"`
		Want  string `json:"-"`
	}
	reads := []pair{
		{`{"a": 1.50}`, `{"a":{"N":"1.50"}}`},
		{`{"a": 12345678901234567890.123456789e5}`, `{"a":{"N":"12345678901234567890.123456789e5"}}`},
		{`{"a": {"SS": ["x"]}}`, `{"a":{"SS":["x"]}}`},
		{`{"a": {"NS": [1, 2.0]}}`, `{"a":{"NS":["1","2.0"]}}`},
		{`{"a": {"SS": ["x"], "b": 1}}`, `{"a":{"M":{"SS":{"L":[{"S":"x"}]},"b":{"N":"1"}}}}`},
		{`{"a": {"B": 5}}`, `{"a":{"M":{"B":{"N":"5"}}}}`},
		{`{"a": {"N": "1"}}`, `{"a":{"M":{"N":{"S":"1"}}}}`},
		{`{"a": [null, true, "x", {}]}`, `{"a":{"L":[{"NULL":true},{"BOOL":true},{"S":"x"},{"M":{}}]}}`},
	}
	refused := []pair{
		{`[1]`, "an item must be a JSON object"},
		{`"x"`, "an item must be a JSON object"},
		{`{"a": }`, `unexpected "}" at offset 6`},
		{`{"a": 01}`, "expected ',' or '}' at offset 7"},
		{`{"a": NaN}`, `unexpected "N" at offset 6`},
		{`{"a": 1,}`, "expected a string key at offset 8"},
		{`{"a": 1} x`, "unexpected text after the value at offset 9"},
		{`{"a": "\x"}`, "bad string at offset 6"},
	}
	in, _ := json.Marshal(map[string]any{"roundTrips": roundTrips, "reads": reads, "refused": refused})
	out := eval[string](p, `import("/console/av.js").then(av => {
		const cases = `+string(in)+`;
		const res = {roundTrips: [], reads: [], refused: []};
		for (const c of cases.roundTrips) {
			const text = av.stringify(av.itemToPlain(JSON.parse(c)));
			res.roundTrips.push(JSON.stringify(av.itemFromPlain(av.parseJSON(text))));
		}
		for (const c of cases.reads) res.reads.push(JSON.stringify(av.itemFromPlain(av.parseJSON(c.plain))));
		for (const c of cases.refused) {
			try { av.itemFromPlain(av.parseJSON(c.plain)); res.refused.push("accepted"); }
			catch (e) { res.refused.push(e.message); }
		}
		return JSON.stringify(res);
	})`)
	var res struct{ RoundTrips, Reads, Refused []string }
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	for i, c := range roundTrips {
		if !sameJSON(t, res.RoundTrips[i], c) {
			t.Errorf("round trip of %s gave %s", c, res.RoundTrips[i])
		}
	}
	for i, c := range reads {
		if res.Reads[i] != c.Want {
			t.Errorf("plain %s read as %s, want %s", c.Plain, res.Reads[i], c.Want)
		}
	}
	for i, c := range refused {
		if !strings.Contains(res.Refused[i], c.Want) {
			t.Errorf("plain %s: %q, want %q", c.Plain, res.Refused[i], c.Want)
		}
	}
}

// sameJSON reports whether two JSON texts hold the same value.
func sameJSON(t *testing.T, a, b string) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal([]byte(a), &x); err != nil {
		t.Fatalf("%v: %s", err, a)
	}
	if err := json.Unmarshal([]byte(b), &y); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return string(xa) == string(ya)
}

// TestBrowserKeyOrder pins the page's order of key values (assets/merge.js),
// which merges a plan's queries: DynamoDB's, not JavaScript's.
func TestBrowserKeyOrder(t *testing.T) {
	site := newSite(t, console.Options{})
	p := startBrowser(t, site.URL)
	cases := []struct {
		a, b string
		want int
	}{
		{`{"N":"10"}`, `{"N":"9"}`, 1},
		{`{"N":"-10"}`, `{"N":"-9"}`, -1},
		{`{"N":"-1"}`, `{"N":"0"}`, -1},
		{`{"N":"1E+2"}`, `{"N":"100"}`, 0},
		{`{"N":"0.001"}`, `{"N":"1e-3"}`, 0},
		{`{"N":"1.5"}`, `{"N":"1.50001"}`, -1},
		{`{"N":"12345678901234567890123456789012345678"}`, `{"N":"12345678901234567890123456789012345679"}`, -1},
		{`{"N":"9.9999999999999999999999999999999999999E+125"}`, `{"N":"1E+125"}`, 1},
		{`{"S":"\ud800\udc00"}`, `{"S":"\uffff"}`, 1}, // UTF-8 order, not UTF-16's
		{`{"S":"a"}`, `{"S":"ab"}`, -1},
		{`{"B":"AAE="}`, `{"B":"AQI="}`, -1},
		{`{"B":"/w=="}`, `{"B":"AAAA"}`, 1},
	}
	var pairs []string
	for _, c := range cases {
		pairs = append(pairs, "["+c.a+","+c.b+"]")
	}
	got := eval[[]int](p, `import("/console/merge.js").then(m => [`+strings.Join(pairs, ",")+`].map(([a, b]) => Math.sign(m.compareKeys(a, b))))`)
	for i, c := range cases {
		if got[i] != c.want {
			t.Errorf("compare %s with %s: %d, want %d", c.a, c.b, got[i], c.want)
		}
	}
}
