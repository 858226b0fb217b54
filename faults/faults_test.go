package faults

import (
	"strings"
	"testing"
	"time"
)

// decisions runs n calls of op through a fresh injector for p and lists
// the call numbers (from 1) that got a fault.
func decisions(t *testing.T, p *Plan, op string, n int) []int {
	t.Helper()
	in, err := NewInjector(p)
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for i := 1; i <= n; i++ {
		if _, ok := in.Decide(op, []string{"T"}); ok {
			got = append(got, i)
		}
	}
	return got
}

func TestDecisionsRepeat(t *testing.T) {
	p := &Plan{Seed: 42, Rules: []Rule{{Probability: 0.3, Fault: InternalServerError}}}
	a, b := decisions(t, p, "GetItem", 200), decisions(t, p, "GetItem", 200)
	if len(a) < 30 || len(a) > 90 {
		t.Fatalf("%d of 200 calls faulted at probability 0.3", len(a))
	}
	if len(a) != len(b) {
		t.Fatalf("runs differ: %v then %v", a, b)
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("runs differ: %v then %v", a, b)
		}
	}
	other := decisions(t, &Plan{Seed: 43, Rules: p.Rules}, "GetItem", 200)
	same := len(other) == len(a)
	for i := 0; same && i < len(a); i++ {
		same = a[i] == other[i]
	}
	if same {
		t.Fatal("seeds 42 and 43 gave the same faults")
	}
}

func TestNthAndEvery(t *testing.T) {
	cases := []struct {
		name string
		rule Rule
		want []int
	}{
		{"Nth", Rule{Nth: 3, Fault: ThrottlingException}, []int{3}},
		{"Every", Rule{Every: 4, Fault: ThrottlingException}, []int{4, 8}},
		{"other operation", Rule{Operation: "PutItem", Every: 1, Fault: ThrottlingException}, nil},
		{"other table", Rule{Table: "U", Every: 1, Fault: ThrottlingException}, nil},
		{"kind not for the operation", Rule{Every: 1, Fault: UnprocessedItems, Fraction: 0.5}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := decisions(t, &Plan{Rules: []Rule{c.rule}}, "GetItem", 10)
			if len(got) != len(c.want) {
				t.Fatalf("got %v, want %v", got, c.want)
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Fatalf("got %v, want %v", got, c.want)
				}
			}
		})
	}
}

func TestLatencyRange(t *testing.T) {
	in, err := NewInjector(&Plan{Seed: 7, Rules: []Rule{{Every: 1, Fault: Latency, Latency: Duration(10 * time.Millisecond), LatencyMax: Duration(20 * time.Millisecond)}}})
	if err != nil {
		t.Fatal(err)
	}
	for range 50 {
		d, ok := in.Decide("Query", nil)
		if !ok || d.Latency < 10*time.Millisecond || d.Latency > 20*time.Millisecond {
			t.Fatalf("decision %+v", d)
		}
	}
}

func TestParse(t *testing.T) {
	p, err := Parse([]byte(`{"Seed":3,"Rules":[{"Operation":"Query","Every":2,"Fault":"Latency","Latency":"5ms"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if p.Seed != 3 || time.Duration(p.Rules[0].Latency) != 5*time.Millisecond {
		t.Fatalf("parsed %+v", p)
	}
	bad := []struct{ json, want string }{
		{`{"Rules":[{"Fault":"Boom","Every":1}]}`, `Fault "Boom" is none of`},
		{`{"Rules":[{"Fault":"InternalServerError"}]}`, "exactly one of"},
		{`{"Rules":[{"Fault":"InternalServerError","Every":1,"Nth":2}]}`, "exactly one of"},
		{`{"Rules":[{"Fault":"InternalServerError","Probability":1.5}]}`, "Probability"},
		{`{"Rules":[{"Fault":"Latency","Every":1}]}`, "Latency above zero"},
		{`{"Rules":[{"Fault":"UnprocessedItems","Every":1}]}`, "Fraction"},
		{`{"Rules":[{"Fault":"InternalServerError","Every":1,"Tabel":"x"}]}`, "unknown field"},
	}
	for _, b := range bad {
		if _, err := Parse([]byte(b.json)); err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("Parse(%s) = %v, want an error containing %q", b.json, err, b.want)
		}
	}
}

func TestUnprocessed(t *testing.T) {
	for _, c := range []struct {
		f       float64
		n, want int
	}{{0.5, 1, 0}, {0.5, 2, 1}, {0.5, 10, 5}, {1, 10, 9}, {0.01, 10, 1}} {
		if got := Unprocessed(c.f, c.n); got != c.want {
			t.Errorf("Unprocessed(%v, %d) = %d, want %d", c.f, c.n, got, c.want)
		}
	}
}
