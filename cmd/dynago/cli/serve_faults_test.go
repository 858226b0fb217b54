package cli

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dynago/dynago/faults"
)

func TestFaultFlags(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "plan.json")
	os.WriteFile(file, []byte(`{"Rules":[{"Operation":"Query","Nth":2,"Fault":"Latency","Latency":"50ms"}]}`), 0o600)
	cases := []struct {
		args []string
		want *faults.Plan
		err  string
	}{
		{nil, nil, ""},
		{[]string{"--fault-rate", "0.05", "--fault-seed", "42"}, &faults.Plan{Seed: 42, Rules: []faults.Rule{{Probability: 0.05, Fault: faults.InternalServerError}}}, ""},
		{[]string{"--fault-rate", "0.5", "--fault-error", "ThrottlingException", "--fault-operation", "PutItem", "--fault-table", "orders"},
			&faults.Plan{Rules: []faults.Rule{{Operation: "PutItem", Table: "orders", Probability: 0.5, Fault: faults.ThrottlingException}}}, ""},
		{[]string{"--fault-rate", "1", "--fault-error", "Latency", "--fault-latency", "200ms"},
			&faults.Plan{Rules: []faults.Rule{{Probability: 1, Fault: faults.Latency, Latency: faults.Duration(200 * time.Millisecond)}}}, ""},
		{[]string{"--fault-plan", file, "--fault-seed", "7"},
			&faults.Plan{Seed: 7, Rules: []faults.Rule{{Operation: "Query", Nth: 2, Fault: faults.Latency, Latency: faults.Duration(50 * time.Millisecond)}}}, ""},
		{[]string{"--fault-plan", file, "--fault-rate", "0.1"}, nil, "give one or the other"},
		{[]string{"--fault-error", "ThrottlingException"}, nil, "--fault-error needs --fault-rate"},
		{[]string{"--fault-rate", "0.1", "--fault-error", "Boom"}, nil, `Fault "Boom" is none of`},
		{[]string{"--fault-rate", "2"}, nil, "Probability 2 is not in (0, 1]"},
	}
	for _, c := range cases {
		var sc serveConfig
		fs := serveFlags(&Env{Stderr: &strings.Builder{}}, &sc)
		if err := fs.Parse(c.args); err != nil {
			t.Fatal(err)
		}
		set := map[string]bool{}
		fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
		got, err := sc.faults.buildPlan(set)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: got %v, want an error containing %q", c.args, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.args, err)
			continue
		}
		if !samePlan(got, c.want) {
			t.Errorf("%q: got %+v, want %+v", c.args, got, c.want)
		}
	}
}

func samePlan(a, b *faults.Plan) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Seed != b.Seed || len(a.Rules) != len(b.Rules) {
		return false
	}
	for i := range a.Rules {
		if a.Rules[i] != b.Rules[i] {
			return false
		}
	}
	return true
}
