// Package faults describes the faults a dynago server injects when asked
// to, and decides, call by call, which call gets which: a Plan is a seed
// and a list of rules, each naming the calls it applies to (operation and
// table), when it fires (with a probability, on every Nth call, or on the
// Nth call only) and what it does (an error as DynamoDB answers it, added
// latency, part of a batch left unprocessed, or a dropped connection).
//
// Nothing here knows HTTP or DynamoDB's wire: the server (package server)
// and the in-process database (package local) take a Plan and answer each
// fault as DynamoDB does. A server given no plan has none, and pays
// nothing for it.
//
// # Repeatability
//
// Each rule counts the calls it applies to, in the order they reach it.
// Whether the rule fires on its nth call, and the latency or the part of
// a batch it picks, are functions of the seed, the rule's place in the
// plan and n alone (a hash, not a clock and not a shared random source),
// so the same plan and seed over the same sequence of calls gives the same
// faults, run after run. Calls made one after another are such a
// sequence. Concurrent calls take their numbers in the order they arrive:
// the nth decision is still fixed, but which of the concurrent calls is
// the nth one depends on scheduling.
package faults

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"
)

// Kind is what a rule does to a call it fires on.
type Kind string

// The faults a rule can inject.
const (
	// InternalServerError answers HTTP 500 InternalServerError, as
	// DynamoDB does when it fails itself; SDKs retry it.
	InternalServerError Kind = "InternalServerError"
	// ServiceUnavailable answers HTTP 503, as DynamoDB's front end does
	// when the service is unavailable; SDKs retry it.
	ServiceUnavailable Kind = "ServiceUnavailable"
	// ThrottlingException answers HTTP 400 ThrottlingException.
	ThrottlingException Kind = "ThrottlingException"
	// ProvisionedThroughputExceeded answers HTTP 400
	// ProvisionedThroughputExceededException.
	ProvisionedThroughputExceeded Kind = "ProvisionedThroughputExceededException"
	// RequestLimitExceeded answers HTTP 400 RequestLimitExceeded.
	RequestLimitExceeded Kind = "RequestLimitExceeded"
	// TransactionConflict answers a single-item write (PutItem,
	// UpdateItem, DeleteItem) with TransactionConflictException, and a
	// transaction (TransactWriteItems, TransactGetItems,
	// ExecuteTransaction) with TransactionCanceledException whose
	// reasons name a TransactionConflict. It applies to no other
	// operation.
	TransactionConflict Kind = "TransactionConflictException"
	// Latency delays the call by Rule.Latency (or a duration between
	// Latency and LatencyMax) before it runs normally.
	Latency Kind = "Latency"
	// UnprocessedItems runs part of a BatchWriteItem and returns the
	// rest (Rule.Fraction of its requests) in UnprocessedItems. It
	// applies to BatchWriteItem only.
	UnprocessedItems Kind = "UnprocessedItems"
	// UnprocessedKeys reads part of a BatchGetItem and returns the rest
	// (Rule.Fraction of its keys) in UnprocessedKeys. It applies to
	// BatchGetItem only.
	UnprocessedKeys Kind = "UnprocessedKeys"
	// DropConnection closes the connection without answering (over
	// HTTP), or fails the call with a transport error (in process).
	DropConnection Kind = "DropConnection"
)

// Kinds lists every Kind, in the order the documentation gives them.
var Kinds = []Kind{InternalServerError, ServiceUnavailable, ThrottlingException, ProvisionedThroughputExceeded,
	RequestLimitExceeded, TransactionConflict, Latency, UnprocessedItems, UnprocessedKeys, DropConnection}

// Plan is a set of fault rules and the seed of their decisions.
type Plan struct {
	// Seed makes the decisions repeatable: the same seed, rules and
	// sequence of calls give the same faults.
	Seed uint64 `json:"Seed"`
	// Rules are tried in order for each call; the first that fires
	// decides the call's fault. Every rule that applies to a call counts
	// it, whether or not an earlier rule fired.
	Rules []Rule `json:"Rules"`
}

// Rule is one fault and the calls it is injected into.
type Rule struct {
	// Operation is the API operation the rule applies to (PutItem,
	// Query, ...); "" or "*" is every operation.
	Operation string `json:"Operation,omitempty"`
	// Table is the table the rule applies to; "" or "*" is every table
	// (and calls that name none). A batch or a transaction applies when
	// any of its tables is Table.
	Table string `json:"Table,omitempty"`

	// Exactly one of Probability, Every and Nth says when the rule
	// fires, counting the calls it applies to from 1.
	//
	// Probability fires on each call with this probability (0 < p <= 1).
	Probability float64 `json:"Probability,omitempty"`
	// Every fires on every Every-th call: the Every-th, 2*Every-th, ...
	Every uint64 `json:"Every,omitempty"`
	// Nth fires on the Nth call only.
	Nth uint64 `json:"Nth,omitempty"`

	// Fault is what the rule does.
	Fault Kind `json:"Fault"`
	// Latency is the delay a Latency rule adds; with LatencyMax, the
	// least of a range from which each call's delay is drawn.
	Latency Duration `json:"Latency,omitempty"`
	// LatencyMax, when set, is the greatest delay of a Latency rule.
	LatencyMax Duration `json:"LatencyMax,omitempty"`
	// Fraction is the part of a batch's requests an UnprocessedItems or
	// UnprocessedKeys rule leaves unprocessed (0 < f <= 1). At least one
	// request is left, and at least one is processed: a batch of one
	// request is run whole.
	Fraction float64 `json:"Fraction,omitempty"`
}

// Duration is a time.Duration written in JSON as Go writes durations:
// "250ms", "1.5s".
type Duration time.Duration

// MarshalJSON writes the duration as a string such as "250ms".
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(time.Duration(d).String()) }

// UnmarshalJSON reads a duration string such as "250ms".
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("a duration is a string such as \"250ms\": %s", b)
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	*d = Duration(v)
	return nil
}

// Parse reads a plan from its JSON and checks it (Validate). Unknown
// members are refused, so a misspelt one does not go unnoticed.
func Parse(data []byte) (*Plan, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var p Plan
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("fault plan: %w", err)
	}
	if dec.More() {
		return nil, errors.New("fault plan: more than one JSON value")
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return &p, nil
}

// Validate reports the first problem of the plan's rules.
func (p *Plan) Validate() error {
	for i := range p.Rules {
		if err := p.Rules[i].validate(); err != nil {
			return fmt.Errorf("fault plan: rule %d: %w", i+1, err)
		}
	}
	return nil
}

func (r *Rule) validate() error {
	known := false
	for _, k := range Kinds {
		known = known || r.Fault == k
	}
	if !known {
		names := make([]string, len(Kinds))
		for i, k := range Kinds {
			names[i] = string(k)
		}
		return fmt.Errorf("Fault %q is none of %s", r.Fault, strings.Join(names, ", "))
	}
	whens := 0
	if r.Probability != 0 {
		whens++
		if !(r.Probability > 0 && r.Probability <= 1) {
			return fmt.Errorf("Probability %v is not in (0, 1]", r.Probability)
		}
	}
	if r.Every != 0 {
		whens++
	}
	if r.Nth != 0 {
		whens++
	}
	if whens != 1 {
		return errors.New("give exactly one of Probability, Every and Nth")
	}
	switch r.Fault {
	case Latency:
		if r.Latency <= 0 {
			return errors.New("a Latency rule needs a Latency above zero")
		}
		if r.LatencyMax != 0 && r.LatencyMax < r.Latency {
			return errors.New("LatencyMax is less than Latency")
		}
	case UnprocessedItems, UnprocessedKeys:
		if !(r.Fraction > 0 && r.Fraction <= 1) {
			return fmt.Errorf("Fraction %v is not in (0, 1]", r.Fraction)
		}
	}
	if r.Fault != Latency && (r.Latency != 0 || r.LatencyMax != 0) {
		return errors.New("Latency and LatencyMax belong to Latency rules")
	}
	if r.Fault != UnprocessedItems && r.Fault != UnprocessedKeys && r.Fraction != 0 {
		return errors.New("Fraction belongs to UnprocessedItems and UnprocessedKeys rules")
	}
	return nil
}

// appliesTo reports whether the rule applies to a call of op on tables.
func (r *Rule) appliesTo(op string, tables []string) bool {
	if r.Operation != "" && r.Operation != "*" && r.Operation != op {
		return false
	}
	if !kindApplies(r.Fault, op) {
		return false
	}
	if r.Table == "" || r.Table == "*" {
		return true
	}
	for _, t := range tables {
		if t == r.Table {
			return true
		}
	}
	return false
}

// kindApplies reports whether a fault of kind k can happen to op.
func kindApplies(k Kind, op string) bool {
	switch k {
	case TransactionConflict:
		switch op {
		case "PutItem", "UpdateItem", "DeleteItem", "TransactWriteItems", "TransactGetItems", "ExecuteTransaction":
			return true
		}
		return false
	case UnprocessedItems:
		return op == "BatchWriteItem"
	case UnprocessedKeys:
		return op == "BatchGetItem"
	}
	return true
}

// Injector decides the faults of a plan, call by call. It is safe for
// concurrent use.
type Injector struct {
	plan  Plan
	calls []atomic.Uint64
}

// NewInjector returns an injector for a copy of p, its counts at zero.
func NewInjector(p *Plan) (*Injector, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	cp := Plan{Seed: p.Seed, Rules: append([]Rule(nil), p.Rules...)}
	return &Injector{plan: cp, calls: make([]atomic.Uint64, len(cp.Rules))}, nil
}

// Plan returns a copy of the injector's plan.
func (in *Injector) Plan() *Plan {
	return &Plan{Seed: in.plan.Seed, Rules: append([]Rule(nil), in.plan.Rules...)}
}

// Decision is the fault a call gets.
type Decision struct {
	// Fault is what to do.
	Fault Kind
	// Rule is the rule's place in the plan, from 0; Call is the number
	// of the call among those the rule applies to, from 1.
	Rule int
	Call uint64
	// Latency is the delay of a Latency fault.
	Latency time.Duration
	// Fraction is the part of the batch to leave unprocessed, and Table
	// the table whose requests it is taken from ("" for all of them).
	Fraction float64
	Table    string
	// Pick is a number drawn for the call, for a choice the fault makes
	// (which action of a transaction conflicts).
	Pick uint64
}

// Decide counts a call of op on tables with every rule that applies to
// it and returns the fault of the first rule that fires, if any.
func (in *Injector) Decide(op string, tables []string) (Decision, bool) {
	var d Decision
	fired := false
	for i := range in.plan.Rules {
		r := &in.plan.Rules[i]
		if !r.appliesTo(op, tables) {
			continue
		}
		n := in.calls[i].Add(1)
		if fired || !r.fires(in.plan.Seed, i, n) {
			continue
		}
		fired = true
		d = Decision{Fault: r.Fault, Rule: i, Call: n, Fraction: r.Fraction, Pick: draw(in.plan.Seed, i, n, 2)}
		if r.Table != "*" {
			d.Table = r.Table
		}
		if r.Fault == Latency {
			d.Latency = time.Duration(r.Latency)
			if span := uint64(r.LatencyMax) - uint64(r.Latency); r.LatencyMax != 0 && span > 0 {
				d.Latency += time.Duration(draw(in.plan.Seed, i, n, 1) % (span + 1))
			}
		}
	}
	return d, fired
}

// fires reports whether the rule, the i-th of its plan, fires on its
// n-th call.
func (r *Rule) fires(seed uint64, i int, n uint64) bool {
	switch {
	case r.Nth != 0:
		return n == r.Nth
	case r.Every != 0:
		return n%r.Every == 0
	}
	// 53 random bits as a float in [0, 1).
	u := float64(draw(seed, i, n, 0)>>11) / (1 << 53)
	return u < r.Probability
}

// draw is a number fixed by the seed, the rule, the call and the purpose
// of the draw: splitmix64's finalizer over each in turn.
func draw(seed uint64, rule int, call, purpose uint64) uint64 {
	return mix(mix(mix(seed^uint64(rule+1)*0xd1b54a32d192ed03)+call) + purpose)
}

func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// Unprocessed is how many of a batch's n requests a fraction leaves
// unprocessed: the fraction of n rounded to the nearest, at least one
// and at most n-1 (so a batch of one request is run whole).
func Unprocessed(fraction float64, n int) int {
	if n < 2 {
		return 0
	}
	k := int(fraction*float64(n) + 0.5)
	return max(1, min(k, n-1))
}
