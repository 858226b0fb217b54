package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/testserver"
)

// writeConfig is a small update and transact run against endpoints.
func writeConfig(mode, table string, endpoints ...string) Config {
	return Config{
		Endpoints: endpoints,
		Mode:      mode,
		Clients:   4,
		Ops:       300,
		ItemSize:  200,
		Keys:      500,
		Workloads: []string{WorkloadUpdate, WorkloadTransact},
		Table:     table,
	}
}

// number returns the number attribute name of item, 0 if it has none.
func number(t *testing.T, item map[string]types.AttributeValue, name string) int {
	t.Helper()
	v, ok := item[name]
	if !ok {
		return 0
	}
	n, err := strconv.Atoi(v.(*types.AttributeValueMemberN).Value)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// scanAll returns every item of table.
func scanAll(t *testing.T, ddb *dynamodb.Client, table string) []map[string]types.AttributeValue {
	t.Helper()
	var items []map[string]types.AttributeValue
	p := dynamodb.NewScanPaginator(ddb, &dynamodb.ScanInput{TableName: aws.String(table)})
	for p.HasMorePages() {
		out, err := p.NextPage(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		items = append(items, out.Items...)
	}
	return items
}

// TestWriteWorkloads runs update then transact against a real server in
// both modes and checks what they left: each successful update added one
// to the n of its item and set v; the transfers moved units of bal between
// preloaded items, whose bal sums to zero.
func TestWriteWorkloads(t *testing.T) {
	s := testserver.Start(t)
	for _, mode := range []string{ModeSDK, ModeRaw} {
		cfg := writeConfig(mode, "write-"+mode, s.URL)
		cfg.Keep = true
		rep := run(t, context.Background(), cfg)
		if len(rep.Results) != 2 || rep.Interrupted {
			t.Fatalf("%s: want 2 complete results, got %+v", mode, rep)
		}
		for _, res := range rep.Results {
			checkStats(t, mode+" "+res.Workload, res.Stats)
			if res.Ops != 300 {
				t.Errorf("%s %s: %d ops, want 300", mode, res.Workload, res.Ops)
			}
			var line bytes.Buffer
			res.WriteLine(&line)
			t.Logf("%s", strings.TrimSpace(line.String()))
		}
		items := scanAll(t, s.Client, cfg.Table)
		if len(items) != cfg.Keys {
			t.Fatalf("%s: %d items, want the %d preloaded", mode, len(items), cfg.Keys)
		}
		updates, sum, moved, touched := 0, 0, 0, 0
		for _, item := range items {
			if n := number(t, item, "n"); n > 0 {
				updates += n
				if v, ok := item["v"].(*types.AttributeValueMemberS); !ok || v.Value != updateValue {
					t.Errorf("%s: updated item %v lacks v", mode, item)
				}
			}
			b := number(t, item, "bal")
			sum += b
			moved += max(b, -b)
			if _, ok := item["bal"]; ok {
				touched++
			}
			if _, ok := item["data"]; !ok {
				t.Errorf("%s: item %v lost its data", mode, item)
			}
		}
		if updates != 300 {
			t.Errorf("%s: the items' n sum to %d, want the 300 updates", mode, updates)
		}
		if sum != 0 || moved == 0 || moved > 2*300 || touched < 2 {
			t.Errorf("%s: bal sums to %d over %d items, |bal| to %d: want 0, and at most 600 moved", mode, sum, touched, moved)
		}
	}
}

// TestDeleteWorkload runs delete against a real server in both modes:
// each client's calls alternate between deleting a preloaded item and
// putting it back, so half the calls (give or take a client's last) are
// deletes, and at the end every item is there again, whole.
func TestDeleteWorkload(t *testing.T) {
	s := testserver.Start(t)
	for _, mode := range []string{ModeSDK, ModeRaw} {
		cfg := writeConfig(mode, "delete-"+mode, s.URL)
		cfg.Workloads = []string{WorkloadDelete}
		cfg.Keep = true
		rep := run(t, context.Background(), cfg)
		if len(rep.Results) != 1 || rep.Interrupted {
			t.Fatalf("%s: want 1 complete result, got %+v", mode, rep)
		}
		res := rep.Results[0]
		checkStats(t, mode+" delete", res.Stats)
		if res.Ops != 300 || res.Errors != 0 {
			t.Errorf("%s: %d ops, %d errors, want 300 and none", mode, res.Ops, res.Errors)
		}
		byOp := map[string]uint64{}
		for _, o := range res.ByOp {
			byOp[o.Op] = o.Ops
		}
		if len(res.ByOp) != 2 || byOp["delete"]+byOp["put"] != 300 ||
			byOp["delete"] < byOp["put"] || byOp["delete"]-byOp["put"] > uint64(cfg.Clients) {
			t.Errorf("%s: by operation %+v: want deletes and puts alternating per client", mode, res.ByOp)
		}
		items := scanAll(t, s.Client, cfg.Table)
		if len(items) != cfg.Keys {
			t.Errorf("%s: %d items, want the %d preloaded, every deleted one put back", mode, len(items), cfg.Keys)
		}
		for _, item := range items {
			if _, ok := item["data"]; !ok {
				t.Errorf("%s: item %v lost its data", mode, item)
			}
		}
	}
}

// TestTransactCondition checks that both modes send the condition: a
// transfer to an item that is gone is cancelled, and changes nothing.
func TestTransactCondition(t *testing.T) {
	s := testserver.Start(t)
	ctx := context.Background()
	for _, mode := range []string{ModeSDK, ModeRaw} {
		cfg := writeConfig(mode, "cond-"+mode, s.URL)
		cfg.Keys = 10
		cfg.Workloads = []string{WorkloadTransact}
		r, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.ensureTable(ctx, r.tables()[0]); err != nil {
			t.Fatal(err)
		}
		if err := r.preload(ctx, false); err != nil {
			t.Fatal(err)
		}
		w := r.newWorker(0)
		if _, err := w.do(ctx, opTransact, 3, 4); err != nil {
			t.Fatalf("%s: transfer between existing items: %v", mode, err)
		}
		key := map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: r.codec.Key(7)}}
		if _, err := s.Client.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(cfg.Table), Key: key}); err != nil {
			t.Fatal(err)
		}
		_, err = w.do(ctx, opTransact, 2, 7)
		var canceled *types.TransactionCanceledException
		if err == nil || (mode == ModeSDK && !errors.As(err, &canceled)) ||
			(mode == ModeRaw && !strings.Contains(err.Error(), "TransactionCanceledException")) {
			t.Errorf("%s: transfer to a missing item: got %v, want it cancelled", mode, err)
		}
		for k, want := range map[int]int{2: 0, 3: -1, 4: 1} {
			out, err := s.Client.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(cfg.Table),
				Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: r.codec.Key(k)}}})
			if err != nil {
				t.Fatal(err)
			}
			if got := number(t, out.Item, "bal"); got != want {
				t.Errorf("%s: item %d has bal %d, want %d", mode, k, got, want)
			}
		}
		if _, err := s.Client.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(cfg.Table), Key: key}); err != nil {
			t.Fatal(err)
		}
		r.deleteTable(ctx, cfg.Table)
		r.Close()
	}
}

func TestRawWriteBodies(t *testing.T) {
	codec := NewItemCodec(300, 5000)
	w := newRawWorker(nil, "", "tbl", codec, "", nil, 0, scanPlace{})
	b := w.body(opUpdate, 4321, 0)
	var upd struct {
		TableName, UpdateExpression, ReturnValues string
		Key                                       map[string]map[string]string
		ExpressionAttributeValues                 map[string]map[string]string
	}
	if err := json.Unmarshal(b.buf, &upd); err != nil {
		t.Fatalf("update body %q: %v", b.buf, err)
	}
	if upd.TableName != "tbl" || upd.Key["pk"]["S"] != codec.Key(4321) || upd.UpdateExpression != updateExpression ||
		upd.ReturnValues != "NONE" || upd.ExpressionAttributeValues[":one"]["N"] != "1" ||
		upd.ExpressionAttributeValues[":v"]["S"] != updateValue {
		t.Errorf("update body %s", b.buf)
	}
	b.Close()

	for _, keys := range [][2]int{{1, 2}, {4999, 0}, {17, 4242}} {
		b := w.body(opTransact, keys[0], keys[1])
		var tx struct {
			TransactItems []struct {
				Update struct {
					TableName, UpdateExpression, ConditionExpression string
					Key                                              map[string]map[string]string
					ExpressionAttributeValues                        map[string]map[string]string
				}
			}
		}
		if err := json.Unmarshal(b.buf, &tx); err != nil {
			t.Fatalf("transact body %q: %v", b.buf, err)
		}
		if len(tx.TransactItems) != 2 {
			t.Fatalf("transact body %s: want two items", b.buf)
		}
		for j, amount := range []string{"-1", "1"} {
			u := tx.TransactItems[j].Update
			if u.TableName != "tbl" || u.Key["pk"]["S"] != codec.Key(keys[j]) || u.UpdateExpression != transferExpression ||
				u.ConditionExpression != transferCondition || u.ExpressionAttributeValues[":d"]["N"] != amount {
				t.Errorf("transact body %s: item %d wrong, want key %s and amount %s", b.buf, j, codec.Key(keys[j]), amount)
			}
		}
		b.Close()
	}
}

// countingProxy forwards requests to a server and counts them by
// operation.
type countingProxy struct {
	*httptest.Server
	mu  sync.Mutex
	ops map[string]int
}

func newCountingProxy(t *testing.T, target string) *countingProxy {
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	p := &countingProxy{ops: map[string]int{}}
	rp := httputil.NewSingleHostReverseProxy(u)
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		p.ops[strings.TrimPrefix(r.Header.Get("X-Amz-Target"), targetPrefix)]++
		p.mu.Unlock()
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(p.Close)
	return p
}

func (p *countingProxy) take() map[string]int {
	p.mu.Lock()
	defer p.mu.Unlock()
	ops := p.ops
	p.ops = map[string]int{}
	return ops
}

// TestEndpoints runs workloads through three endpoints in front of one
// server: client i calls endpoint i mod 3, each workload reports every
// endpoint's share, and the tables are set up through the first alone.
func TestEndpoints(t *testing.T) {
	s := testserver.Start(t)
	for _, mode := range []string{ModeSDK, ModeRaw} {
		proxies := []*countingProxy{newCountingProxy(t, s.URL), newCountingProxy(t, s.URL), newCountingProxy(t, s.URL)}
		cfg := writeConfig(mode, "multi-"+mode, proxies[0].URL, proxies[1].URL+"/", proxies[2].URL)
		cfg.Clients = 5
		cfg.Workloads = []string{WorkloadPut, WorkloadGet, WorkloadUpdate, WorkloadTransact}
		var mu sync.Mutex
		counts := map[string][]map[string]int{} // by workload, the ops each proxy saw
		cfg.OnResult = func(res Result) {
			mu.Lock()
			defer mu.Unlock()
			for _, p := range proxies {
				counts[res.Workload] = append(counts[res.Workload], p.take())
			}
		}
		rep := run(t, context.Background(), cfg)
		if len(rep.Endpoints) != 3 || rep.Endpoint != proxies[0].URL || rep.Endpoints[1] != proxies[1].URL {
			t.Errorf("%s: endpoints %q, %q", mode, rep.Endpoint, rep.Endpoints)
		}
		var hdr bytes.Buffer
		rep.Info.WriteHeader(&hdr)
		if !strings.Contains(hdr.String(), "endpoint i mod 3") {
			t.Errorf("%s: header:\n%s", mode, hdr.String())
		}
		for w, res := range rep.Results {
			checkStats(t, mode+" "+res.Workload, res.Stats)
			if len(res.ByEndpoint) != 3 {
				t.Fatalf("%s %s: by endpoint %+v", mode, res.Workload, res.ByEndpoint)
			}
			var line bytes.Buffer
			res.WriteLine(&line)
			if n := strings.Count(line.String(), "\n  at http://127.0.0.1:"); n != 3 {
				t.Errorf("%s: %d endpoint lines:\n%s", mode, n, line.String())
			}
			t.Logf("%s", strings.TrimSpace(line.String()))
			target := opTargets[[]op{opPut, opGet, opUpdate, opTransact}[w]]
			var sum uint64
			for e, er := range res.ByEndpoint {
				checkStats(t, mode+" "+res.Workload+" at "+er.Endpoint, er.Stats)
				if want := []int{2, 2, 1}[e]; er.Clients != want || er.Endpoint != proxies[e].URL {
					t.Errorf("%s %s: endpoint %d: %s with %d clients, want %s with %d", mode, res.Workload, e,
						er.Endpoint, er.Clients, proxies[e].URL, want)
				}
				seen := counts[res.Workload][e]
				if uint64(seen[target]) != er.Ops+uint64(er.Errors) {
					t.Errorf("%s %s: endpoint %d saw %d %s calls, reported %d", mode, res.Workload, e, seen[target], target, er.Ops)
				}
				for name, n := range seen {
					if name != target && e > 0 {
						t.Errorf("%s %s: endpoint %d saw %d %s calls; set-up belongs to the first", mode, res.Workload, e, n, name)
					}
				}
				sum += er.Ops
			}
			if sum != res.Ops {
				t.Errorf("%s %s: endpoints sum to %d ops of %d", mode, res.Workload, sum, res.Ops)
			}
		}
		// The preload before get went through the first endpoint.
		if counts[WorkloadGet] == nil || counts[WorkloadPut][0]["BatchWriteItem"] != 0 || counts[WorkloadGet][0]["BatchWriteItem"] == 0 {
			t.Errorf("%s: preload calls %v", mode, counts)
		}
	}
}

// lateDeletes is a transport that plays a server which applies a
// DeleteItem after its client gave up on it: the first DeleteItem waits
// until the test has ended the phase; if its caller's context is done by
// then, it is answered with that error and sent to the server only after
// the next PutItem, as a request already on its way may land.
type lateDeletes struct {
	base       http.RoundTripper
	inFlight   chan struct{} // closed when the first DeleteItem arrives
	phaseEnded chan struct{} // closed by the test once the phase is over

	mu      sync.Mutex
	first   bool
	held    *http.Request
	heldErr error
}

func (l *lateDeletes) RoundTrip(req *http.Request) (*http.Response, error) {
	switch strings.TrimPrefix(req.Header.Get("X-Amz-Target"), targetPrefix) {
	case "DeleteItem":
		l.mu.Lock()
		first := !l.first
		l.first = true
		l.mu.Unlock()
		if !first {
			return l.base.RoundTrip(req)
		}
		close(l.inFlight)
		<-l.phaseEnded
		if err := req.Context().Err(); err != nil {
			body, rerr := io.ReadAll(req.Body)
			if rerr != nil {
				return nil, rerr
			}
			late := req.Clone(context.Background())
			late.Body = io.NopCloser(bytes.NewReader(body))
			late.ContentLength = int64(len(body))
			l.mu.Lock()
			l.held = late
			l.mu.Unlock()
			return nil, err
		}
		return l.base.RoundTrip(req)
	case "PutItem":
		resp, err := l.base.RoundTrip(req)
		l.mu.Lock()
		late := l.held
		l.held = nil
		l.mu.Unlock()
		if late != nil {
			lresp, lerr := l.base.RoundTrip(late)
			if lerr == nil {
				io.Copy(io.Discard, lresp.Body)
				lresp.Body.Close()
			}
			l.heldErr = lerr
		}
		return resp, err
	}
	return l.base.RoundTrip(req)
}

// TestDeletePutBackAfterPhaseEnd ends a delete phase while a DeleteItem
// is in flight, through a transport that sends a delete its caller gave
// up on after the next put: the put-back must come after the delete's
// answer, so that every item is there for the next workload. No timing:
// the phase ends when the test says, with the delete in flight.
func TestDeletePutBackAfterPhaseEnd(t *testing.T) {
	s := testserver.Start(t)
	for _, mode := range []string{ModeSDK, ModeRaw} {
		t.Run(mode, func(t *testing.T) {
			cfg := Config{Endpoints: []string{s.URL}, Mode: mode, Clients: 1, Duration: time.Hour, ItemSize: 100, Keys: 20,
				Workloads: []string{WorkloadDelete}, Table: "late-" + mode, Keep: true, Errors: io.Discard, Progress: io.Discard}
			r, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			tr := &lateDeletes{base: r.hc.Transport, inFlight: make(chan struct{}), phaseEnded: make(chan struct{})}
			r.hc.Transport = tr
			endPhase := make(chan context.CancelFunc, 1)
			r.phase = func(ctx context.Context) (context.Context, context.CancelFunc) {
				c, cancel := context.WithCancel(ctx)
				endPhase <- cancel
				return c, cancel
			}
			done := make(chan error, 1)
			go func() {
				_, err := r.Run(context.Background())
				done <- err
			}()
			<-tr.inFlight
			(<-endPhase)()
			close(tr.phaseEnded)
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			if tr.heldErr != nil {
				t.Fatal(tr.heldErr)
			}
			if items := scanAll(t, s.Client, cfg.Table); len(items) != cfg.Keys {
				t.Errorf("%d items after the phase, want the %d preloaded: a delete landed after its put-back", len(items), cfg.Keys)
			}
		})
	}
}
