package cli

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/dynago/dynago/faults"
)

// faultConfig holds serve's fault flags: a plan file, or one rule given
// by the simple flags (docs/REHEARSAL.md).
type faultConfig struct {
	plan      string
	rate      float64
	kind      string
	seed      uint64
	operation string
	table     string
	latency   time.Duration
	fraction  float64
}

func faultFlags(fs *flagSet, c *faultConfig) {
	fs.StringVar(&c.plan, "fault-plan", "", "inject faults on purpose, as the JSON fault plan in this file says: rules by\n"+
		"operation and table, firing with a probability, on every Nth call or on the\n"+
		"Nth call, each giving DynamoDB's error, a delay, unprocessed batch items or a\n"+
		"dropped connection (docs/REHEARSAL.md). Default: no faults. The plan can also be\n"+
		"read, set and cleared while serving at /dynago/faults (GET, POST, DELETE)")
	fs.Float64Var(&c.rate, "fault-rate", 0, "inject --fault-error into this share of requests (0.05: one in twenty), a\n"+
		"one-rule plan for the common case, instead of --fault-plan. Default 0: none")
	fs.StringVar(&c.kind, "fault-error", string(faults.InternalServerError), "with --fault-rate, the fault: "+kindList()+"")
	fs.Uint64Var(&c.seed, "fault-seed", 0, "the seed of the fault decisions (--fault-rate, or a plan that has no Seed): the\n"+
		"same seed and the same sequence of requests give the same faults")
	fs.StringVar(&c.operation, "fault-operation", "", "with --fault-rate, only requests of this operation (PutItem, Query, ...).\n"+
		"Default: all")
	fs.StringVar(&c.table, "fault-table", "", "with --fault-rate, only requests on this table. Default: all")
	fs.DurationVar(&c.latency, "fault-latency", 0, "with --fault-error Latency, the delay added to a request (such as 200ms)")
	fs.Float64Var(&c.fraction, "fault-fraction", 0.5, "with --fault-error UnprocessedItems or UnprocessedKeys, the share of a\n"+
		"batch's requests returned unprocessed")
}

func kindList() string {
	names := make([]string, len(faults.Kinds))
	for i, k := range faults.Kinds {
		names[i] = string(k)
	}
	return strings.Join(names, ", ")
}

// buildPlan is the fault plan the flags give, or nil for none.
func (c faultConfig) buildPlan(setFlags map[string]bool) (*faults.Plan, error) {
	simple := c.rate != 0
	if c.plan != "" && simple {
		return nil, errors.New("--fault-plan and --fault-rate: give one or the other")
	}
	if !simple {
		for _, f := range []string{"fault-error", "fault-operation", "fault-table", "fault-latency", "fault-fraction"} {
			if setFlags[f] {
				return nil, fmt.Errorf("--%s needs --fault-rate", f)
			}
		}
	}
	switch {
	case c.plan != "":
		data, err := os.ReadFile(c.plan)
		if err != nil {
			return nil, fmt.Errorf("--fault-plan: %w", err)
		}
		p, err := faults.Parse(data)
		if err != nil {
			return nil, fmt.Errorf("--fault-plan %s: %w", c.plan, err)
		}
		if p.Seed == 0 {
			p.Seed = c.seed
		}
		return p, nil
	case simple:
		r := faults.Rule{Operation: c.operation, Table: c.table, Probability: c.rate, Fault: faults.Kind(c.kind)}
		switch r.Fault {
		case faults.Latency:
			r.Latency = faults.Duration(c.latency)
		case faults.UnprocessedItems, faults.UnprocessedKeys:
			r.Fraction = c.fraction
		}
		p := &faults.Plan{Seed: c.seed, Rules: []faults.Rule{r}}
		if err := p.Validate(); err != nil {
			return nil, fmt.Errorf("--fault-rate: %w", err)
		}
		return p, nil
	}
	return nil, nil
}
