package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/dynago/dynago/attr"
	"github.com/dynago/dynago/dynamo"
	"github.com/dynago/dynago/faults"
)

// Faults injected on purpose (package faults): a plan set with SetFaults,
// dynago serve's --fault-* flags or the administrative endpoint
// /dynago/faults decides, request by request, whether the request is
// answered with one of DynamoDB's errors, delayed, run in part (a
// batch's unprocessed items or keys) or cut off. A fault enters after
// the request is routed, decoded and authorized, and before the
// operation runs: a request answered with an error applied nothing. A
// server without a plan loads one nil pointer per request.
//
// Each fault is counted in dynago_faults_injected_total and logged at
// info level (a deliberate event someone asked for, which a failing test
// run is read against).

// faultsPath is the administrative endpoint of the fault plan: GET reads
// it, POST (or PUT) sets it, DELETE clears it.
const faultsPath = adminPrefix + "faults"

// The texts of the injected errors, as DynamoDB sends them.
const (
	// A conflict with a transaction in progress: the message of the
	// TransactionConflict cancellation reason (AWS's TransactWriteItems
	// reference lists "Transaction is ongoing for the item."), without
	// the reference's closing period, as DynamoDB sends the
	// ConditionalCheckFailed reason the reference also ends with one.
	msgTransactionConflict = "Transaction is ongoing for the item"
	// HTTP 503: DynamoDB's front end answers with this HTML page, not
	// JSON (recorded in github.com/aws/aws-sdk-ruby issue #1713; the
	// JavaScript SDK's issues #4683 and #6718 report 503 bodies that
	// begin with '<' too), so SDKs see a 503 whose body they cannot
	// decode, and retry it for its status.
	serviceUnavailableBody = "<html><body><b>Http/1.1 Service Unavailable</b></body> </html>"
)

// The two faults that are not DynamoDB errors: writeFailure answers them.
var (
	errFaultUnavailable = errors.New("injected fault: service unavailable")
	errFaultDrop        = errors.New("injected fault: connection dropped")
)

// SetFaults makes p the server's fault plan, its counts from zero; nil
// removes the plan. A rule naming an operation the server does not serve
// is refused.
func (s *Server) SetFaults(p *faults.Plan) error {
	if p == nil {
		s.faults.Store(nil)
		return nil
	}
	for i, r := range p.Rules {
		if r.Operation == "" || r.Operation == "*" {
			continue
		}
		if _, ok := s.ops[r.Operation]; ok {
			continue
		}
		if _, ok := s.streamOps[r.Operation]; ok {
			continue
		}
		return fmt.Errorf("fault plan: rule %d: Operation %q is not an operation dynago serves", i+1, r.Operation)
	}
	inj, err := faults.NewInjector(p)
	if err != nil {
		return err
	}
	s.faults.Store(inj)
	return nil
}

// Faults returns a copy of the server's fault plan, or nil.
func (s *Server) Faults() *faults.Plan {
	if inj := s.faults.Load(); inj != nil {
		return inj.Plan()
	}
	return nil
}

// FaultsOn reports whether the server has a fault plan.
func (s *Server) FaultsOn() bool { return s.faults.Load() != nil }

// injectFault decides the fault of request c, whose decoded input is in
// (nil for an operation without one), under inj. It returns the error to
// answer, or nil to run the operation, after a delay if the fault is one;
// for a batch run in part, restore adds what was held back to the
// operation's output.
func (s *Server) injectFault(c *inflight, inj *faults.Injector, in any) (restore func(out any), err error) {
	table, _ := tableOf(in)
	var tables []string
	if table != "" {
		tables = strings.Split(table, ",")
	}
	d, ok := inj.Decide(c.op, tables)
	if !ok {
		return nil, nil
	}
	switch d.Fault {
	case faults.Latency:
		s.noteFault(c, table, d)
		return nil, s.faultSleep(c.r.Context(), d.Latency)
	case faults.UnprocessedItems, faults.UnprocessedKeys:
		restore = withhold(in, d)
		if restore != nil {
			s.noteFault(c, table, d)
		}
		return restore, nil
	case faults.DropConnection:
		s.noteFault(c, table, d)
		return nil, errFaultDrop
	case faults.ServiceUnavailable:
		s.noteFault(c, table, d)
		return nil, errFaultUnavailable
	}
	s.noteFault(c, table, d)
	return nil, faultError(d, in)
}

// injectPlain is injectFault for an operation without an input.
func (s *Server) injectPlain(c *inflight) error {
	if inj := s.faults.Load(); inj != nil {
		_, err := s.injectFault(c, inj, nil)
		return err
	}
	return nil
}

// faultError is the DynamoDB error of an error fault.
func faultError(d faults.Decision, in any) error {
	switch d.Fault {
	case faults.InternalServerError:
		// {"__type":"com.amazonaws.dynamodb.v20120810#InternalServerError",
		// "message":"Internal server error"}, HTTP 500: recorded from
		// DynamoDB in github.com/Sleavely/dynamo-plus issue #16 and
		// github.com/aws/aws-sdk-js issue #3891.
		return dynamo.InternalServerError()
	case faults.ThrottlingException:
		return errThrottled
	case faults.ProvisionedThroughputExceeded:
		return dynamo.ProvisionedThroughputExceeded(dynamo.MsgTableThroughputExceeded)
	case faults.RequestLimitExceeded:
		return dynamo.RequestLimitExceeded(dynamo.MsgRequestLimitExceeded)
	case faults.TransactionConflict:
		// A single-item write that meets a transaction in progress
		// fails with TransactionConflictException; a transaction one of
		// whose items is in another fails with
		// TransactionCanceledException, the conflict among its reasons
		// (AWS's developer guide, "Transaction conflict handling in
		// DynamoDB").
		n := 0
		switch v := in.(type) {
		case *dynamo.TransactWriteItemsInput:
			n = len(v.TransactItems)
		case *dynamo.TransactGetItemsInput:
			n = len(v.TransactItems)
		case *dynamo.ExecuteTransactionInput:
			n = len(v.TransactStatements)
		default:
			return dynamo.TransactionConflict(msgTransactionConflict)
		}
		reasons := make([]dynamo.CancellationReason, n)
		for i := range reasons {
			reasons[i].Code = "None"
		}
		if n > 0 {
			r := &reasons[d.Pick%uint64(n)]
			r.Code, r.Message = "TransactionConflict", msgTransactionConflict
		}
		return dynamo.TransactionCanceled(reasons)
	}
	return dynamo.InternalServerError()
}

// withhold takes the last requests of a batch (its tables in name order,
// each table's requests in their order) out of its input, as many as the
// decision's fraction leaves unprocessed, from the decision's table only
// when it names one, and returns what adds them to the output's
// UnprocessedItems or UnprocessedKeys; nil when there is nothing to
// withhold. The withheld requests are not checked in this call: the
// client sends them again, and they are checked then.
func withhold(in any, d faults.Decision) func(out any) {
	switch v := in.(type) {
	case *dynamo.BatchWriteItemInput:
		names := batchTables(v.RequestItems, d.Table)
		total := 0
		for _, t := range names {
			total += len(v.RequestItems[t])
		}
		k := faults.Unprocessed(d.Fraction, total)
		if k == 0 {
			return nil
		}
		held := map[string][]dynamo.WriteRequest{}
		for i := len(names) - 1; i >= 0 && k > 0; i-- {
			t := names[i]
			reqs := v.RequestItems[t]
			take := min(k, len(reqs))
			held[t] = append([]dynamo.WriteRequest(nil), reqs[len(reqs)-take:]...)
			if take == len(reqs) {
				delete(v.RequestItems, t)
			} else {
				v.RequestItems[t] = reqs[:len(reqs)-take]
			}
			k -= take
		}
		return func(out any) {
			o := out.(*dynamo.BatchWriteItemOutput)
			if o.UnprocessedItems == nil {
				o.UnprocessedItems = map[string][]dynamo.WriteRequest{}
			}
			for t, reqs := range held {
				o.UnprocessedItems[t] = append(o.UnprocessedItems[t], reqs...)
			}
		}
	case *dynamo.BatchGetItemInput:
		names := batchTables(v.RequestItems, d.Table)
		total := 0
		for _, t := range names {
			total += len(v.RequestItems[t].Keys)
		}
		k := faults.Unprocessed(d.Fraction, total)
		if k == 0 {
			return nil
		}
		held := map[string]dynamo.KeysAndAttributes{}
		for i := len(names) - 1; i >= 0 && k > 0; i-- {
			t := names[i]
			ka := v.RequestItems[t]
			take := min(k, len(ka.Keys))
			rest := ka
			rest.Keys = append([]attr.Item(nil), ka.Keys[len(ka.Keys)-take:]...)
			held[t] = rest
			if take == len(ka.Keys) {
				delete(v.RequestItems, t)
			} else {
				ka.Keys = ka.Keys[:len(ka.Keys)-take]
				v.RequestItems[t] = ka
			}
			k -= take
		}
		return func(out any) {
			o := out.(*dynamo.BatchGetItemOutput)
			if o.UnprocessedKeys == nil {
				o.UnprocessedKeys = map[string]dynamo.KeysAndAttributes{}
			}
			for t, ka := range held {
				if prev, ok := o.UnprocessedKeys[t]; ok {
					ka.Keys = append(prev.Keys, ka.Keys...)
				}
				o.UnprocessedKeys[t] = ka
			}
		}
	}
	return nil
}

// batchTables lists the tables of a batch's request in name order: only
// table when it is not "" (and the request has it).
func batchTables[V any](items map[string]V, table string) []string {
	if table != "" {
		if _, ok := items[table]; ok {
			return []string{table}
		}
		return nil
	}
	names := make([]string, 0, len(items))
	for t := range items {
		names = append(names, t)
	}
	sort.Strings(names)
	return names
}

// noteFault counts and logs a fault injected into request c.
func (s *Server) noteFault(c *inflight, table string, d faults.Decision) {
	s.metrics.fault(c.op, table, string(d.Fault))
	attrs := []any{"fault", string(d.Fault), "operation", c.op, "table", table, "rule", d.Rule + 1, "call", d.Call, "request_id", c.reqID}
	if d.Fault == faults.Latency {
		attrs = append(attrs, "latency", d.Latency)
	}
	s.log.Info("injected fault", attrs...)
}

// sleepFor waits d, or until ctx is done.
func sleepFor(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// writeFault answers the two faults that are not DynamoDB errors, and
// reports whether err was one.
func (s *Server) writeFault(w http.ResponseWriter, r *http.Request, err error) bool {
	switch {
	case errors.Is(err, errFaultUnavailable):
		noteError(w, string(faults.ServiceUnavailable))
		w.Header()["Content-Type"] = []string{"text/html"}
		s.writeRaw(w, r, http.StatusServiceUnavailable, []byte(serviceUnavailableBody))
		return true
	case errors.Is(err, errFaultDrop):
		noteError(w, string(faults.DropConnection))
		conn, _, herr := http.NewResponseController(w).Hijack()
		if herr != nil {
			// No connection to close (an in-process transport, HTTP/2):
			// abort the handler, which net/http and local's transport
			// take for a connection cut before any answer.
			panic(http.ErrAbortHandler)
		}
		conn.Close()
		return true
	}
	return false
}

// serveFaults answers the administrative endpoint of the fault plan. It
// is refused to browsers' cross-site requests (as every /dynago/ one)
// and, without --auth, to clients not on a loopback address; with
// --auth, the request must be signed.
func (s *Server) serveFaults(w http.ResponseWriter, r *http.Request) {
	if err := s.crossOrigin.Check(r); err != nil {
		s.writeErrorStatus(w, r, http.StatusForbidden, crossOriginRefused(r.URL.Path))
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		s.writeError(w, r, unreadableBody())
		return
	}
	if s.auth != nil {
		if _, aerr := s.auth.Verify(r, body, s.auth.Now()); aerr != nil {
			s.writeError(w, r, aerr)
			return
		}
	} else if !loopbackClient(r.RemoteAddr) {
		s.writeErrorStatus(w, r, http.StatusForbidden, dynamo.AccessDenied("The fault plan can be read and changed from a loopback address only, or by a signed request when the server checks signatures (--auth)"))
		return
	}
	switch r.Method {
	case http.MethodGet, http.MethodHead:
	case http.MethodPost, http.MethodPut:
		p, err := faults.Parse(body)
		if err == nil {
			err = s.SetFaults(p)
		}
		if err != nil {
			s.writeError(w, r, dynamo.Validation(err.Error()))
			return
		}
		s.log.Info("fault plan set", "rules", len(p.Rules), "seed", p.Seed, "remote", r.RemoteAddr)
	case http.MethodDelete:
		s.SetFaults(nil)
		s.log.Info("fault plan cleared", "remote", r.RemoteAddr)
	default:
		s.writePlain(w, r, http.StatusNotFound, unknownOperationXML)
		return
	}
	s.write(w, r, http.StatusOK, planJSON(s.Faults()))
}

// planJSON is the answer of the fault plan endpoint: the plan, or {}
// when there is none.
func planJSON(p *faults.Plan) []byte {
	if p == nil {
		return []byte("{}")
	}
	if p.Rules == nil {
		p.Rules = []faults.Rule{}
	}
	b, _ := json.Marshal(p)
	return b
}

// loopbackClient reports whether a RemoteAddr is a loopback address.
func loopbackClient(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
