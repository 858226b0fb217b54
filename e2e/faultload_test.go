package e2e

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"
	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/testserver"
)

// Load for the fault tests (partition_test.go, failover_test.go): while a
// test breaks the database or the network under several servers, clients
// on every server write, read and run the linearizability workload, and
// record what they saw. An answer during a fault must be right or a 5xx:
// never a 4xx, a missing item or table, or a hang.

// faultOnce skips a fault test in the suite's later passes (on
// PostgreSQL, through the in-process clients): it builds its own
// clusters, so one pass tests it.
func faultOnce(t *testing.T) {
	t.Helper()
	needsWire(t)
	if k, _ := testserver.ClientKind(); testserver.OnPostgres() || k != testserver.ClientTCP {
		t.Skip("fault tests build their own database; they run in the suite's first pass only")
	}
}

// faultClient is an SDK client for a server, without retries, whose
// calls give up after a minute: a request that hangs fails the test.
func faultClient(url string) *dynamodb.Client {
	return dynamodb.New(dynamodb.Options{
		Region:       testserver.Region,
		BaseEndpoint: aws.String(url),
		Credentials:  credentials.NewStaticCredentialsProvider("AKIDTEST", "SECRETTEST", ""),
		Retryer:      aws.NopRetryer{},
		HTTPClient:   &http.Client{Timeout: time.Minute},
	})
}

// is5xx reports whether err is an answer with an HTTP status of 500 or
// more.
func is5xx(err error) bool {
	var re *awshttp.ResponseError
	return errors.As(err, &re) && re.HTTPStatusCode() >= 500
}

// outcome is one call's result, by the server it went to.
type outcome struct {
	node int
	at   time.Time
	ok   bool
}

// faultLoad runs the load on a table with a partition key pk (S).
type faultLoad struct {
	t       *testing.T
	cs      []*dynamodb.Client
	table   string
	stop    chan struct{}
	wg      sync.WaitGroup
	healed  chan struct{} // closed by heal
	healOne sync.Once

	mu       sync.Mutex
	outcomes []outcome
	acked    []string // keys of acknowledged puts
	wrong    []string // answers that are neither right nor a 5xx
	history  []porcupine.Operation
	clock    atomic.Int64
}

// faultSeeds are items put before the fault, read back during it.
const faultSeeds = 5

// startFaultLoad puts the seed items through cs[0] and starts, on every
// server, writersPerNode writers, one reader and two linearizability
// clients.
func startFaultLoad(t *testing.T, cs []*dynamodb.Client, table string, writersPerNode int) *faultLoad {
	t.Helper()
	l := &faultLoad{t: t, cs: cs, table: table, stop: make(chan struct{}), healed: make(chan struct{})}
	for i := range faultSeeds {
		put(t, cs[0], table, item{"pk": S(fmt.Sprint("seed-", i)), "v": N(fmt.Sprint(i))})
	}
	for n := range cs {
		for w := range writersPerNode {
			l.wg.Go(func() { l.writer(n, w) })
		}
		l.wg.Go(func() { l.reader(n) })
		for c := range 2 {
			l.wg.Go(func() { l.linClient(n, 2*n+c) })
		}
	}
	return l
}

// heal tells the linearizability clients that stopped at an error that
// the fault is over.
func (l *faultLoad) heal() { l.healOne.Do(func() { close(l.healed) }) }

// finish stops the load and waits for it.
func (l *faultLoad) finish() {
	l.heal()
	close(l.stop)
	l.wg.Wait()
}

func (l *faultLoad) stopped() bool {
	select {
	case <-l.stop:
		return true
	default:
		return false
	}
}

// record notes a call's outcome; an error must be a 5xx.
func (l *faultLoad) record(node int, what string, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.outcomes = append(l.outcomes, outcome{node: node, at: time.Now(), ok: err == nil})
	if err != nil && !is5xx(err) {
		l.wrong = append(l.wrong, fmt.Sprintf("node %d: %s: %v (not a 5xx)", node, what, err))
	}
}

func (l *faultLoad) bad(node int, format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.wrong = append(l.wrong, fmt.Sprintf("node %d: ", node)+fmt.Sprintf(format, args...))
}

// pace slows a client down after an error: errors can come at once
// (connection refused), and the load should not spin.
func (l *faultLoad) pace(err error) {
	if err != nil {
		time.Sleep(20 * time.Millisecond)
	}
}

func (l *faultLoad) writer(node, w int) {
	c := l.cs[node]
	for i := 0; !l.stopped(); i++ {
		k := fmt.Sprintf("w%d-%d-%d", node, w, i)
		_, err := c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String(l.table), Item: item{"pk": S(k), "v": N(fmt.Sprint(i))}})
		l.record(node, "PutItem", err)
		if err == nil {
			l.mu.Lock()
			l.acked = append(l.acked, k)
			l.mu.Unlock()
		}
		l.pace(err)
	}
}

// reader reads a seed item, lists the tables and describes the table:
// each answer is right or a 5xx.
func (l *faultLoad) reader(node int) {
	c := l.cs[node]
	for i := 0; !l.stopped(); i++ {
		var err error
		switch i % 3 {
		case 0:
			var out *dynamodb.GetItemOutput
			out, err = c.GetItem(bg(), &dynamodb.GetItemInput{TableName: aws.String(l.table), Key: item{"pk": S(fmt.Sprint("seed-", i%faultSeeds))}, ConsistentRead: aws.Bool(true)})
			l.record(node, "GetItem", err)
			if err == nil && out.Item == nil {
				l.bad(node, "GetItem of a seed item answered no item")
			}
		case 1:
			var out *dynamodb.ListTablesOutput
			out, err = c.ListTables(bg(), &dynamodb.ListTablesInput{})
			l.record(node, "ListTables", err)
			if err == nil && !slices.Contains(out.TableNames, l.table) {
				l.bad(node, "ListTables answered %q without %s", out.TableNames, l.table)
			}
		case 2:
			var out *dynamodb.DescribeTableOutput
			out, err = c.DescribeTable(bg(), &dynamodb.DescribeTableInput{TableName: aws.String(l.table)})
			l.record(node, "DescribeTable", err)
			if err == nil && out.Table.TableStatus != types.TableStatusActive {
				l.bad(node, "DescribeTable answered status %s", out.Table.TableStatus)
			}
		}
		l.pace(err)
	}
}

// linClient runs the linearizability workload (linearizability_test.go)
// on keys of its own round. An operation that failed may or may not have
// taken effect, at any time after its call: it is kept, answerless, and
// the client waits for the fault to end before its next operation, so a
// history holds few of them.
func (l *faultLoad) linClient(node, id int) {
	r := rand.New(rand.NewPCG(uint64(id), 7))
	lc := &linClient{c: l.cs[node], table: l.table, round: 1, clock: &l.clock}
	for !l.stopped() {
		in := randomLinInput(r)
		call := l.clock.Add(1)
		out, err := lc.run(in)
		ret := l.clock.Add(1)
		l.record(node, linDescribe(in, out), err)
		op := porcupine.Operation{ClientId: id, Input: in, Call: call, Output: faultOut{out: out}, Return: ret}
		if err != nil {
			if in.op == opGet || in.op == opTxGet {
				op.Input = nil // a failed read changed nothing
			} else {
				op.Output = faultOut{unknown: true}
				op.Return = math.MaxInt64
			}
		}
		if op.Input != nil {
			l.mu.Lock()
			l.history = append(l.history, op)
			l.mu.Unlock()
		}
		if err != nil {
			select {
			case <-l.healed:
			case <-l.stop:
			}
			l.pace(err)
		}
	}
}

// faultOut is a linearizability answer, or unknown for a write that
// failed.
type faultOut struct {
	out     linOutput
	unknown bool
}

// faultModel is linModel over the set of states a history with unknown
// outcomes may have led to: a failed write took effect or did not.
var faultModel = porcupine.Model{
	Init: func() any { return []linState{linModel.Init().(linState)} },
	Step: func(state, input, output any) (bool, any) {
		in, o := input.(linInput), output.(faultOut)
		var next []linState
		for _, s := range state.([]linState) {
			if !o.unknown {
				if ok, s2 := linStep(s, in, o.out); ok {
					next = addState(next, s2.(linState))
				}
				continue
			}
			next = addState(next, s)
			next = addState(next, applied(s, in))
		}
		return len(next) > 0, next
	},
	Equal: func(a, b any) bool {
		x, y := a.([]linState), b.([]linState)
		return len(x) == len(y) && !slices.ContainsFunc(x, func(s linState) bool { return !slices.Contains(y, s) })
	},
	DescribeOperation: func(input, output any) string {
		o := output.(faultOut)
		if o.unknown {
			return linDescribe(input, linOutput{}) + " (failed: unknown)"
		}
		return linDescribe(input, o.out)
	},
}

func addState(set []linState, s linState) []linState {
	if slices.Contains(set, s) {
		return set
	}
	return append(set, s)
}

// applied is s after the write in took effect.
func applied(s linState, in linInput) linState {
	switch in.op {
	case opCondPut:
		if s[in.k] == in.expect {
			s[in.k] = in.v
		}
	case opAdd:
		if s[in.k] == absent {
			s[in.k] = 0
		}
		s[in.k] += in.v
	case opDelete:
		s[in.k] = absent
	case opTransfer:
		if s[in.k] != absent && s[in.k] >= in.v && s[in.k2] != absent {
			s[in.k] -= in.v
			s[in.k2] += in.v
		}
	}
	return s
}

// check fails the test on any wrong answer, any acknowledged put that no
// server reads back, or a history that is not linearizable.
func (l *faultLoad) check() {
	t := l.t
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.wrong) > 0 {
		t.Errorf("%d answers were neither right nor a 5xx, the first:\n%s", len(l.wrong), strings.Join(l.wrong[:min(len(l.wrong), 10)], "\n"))
	}
	for n, c := range l.cs {
		missing := 0
		for start := 0; start < len(l.acked); start += 100 {
			keys := l.acked[start:min(start+100, len(l.acked))]
			found := map[string]bool{}
			req := map[string]types.KeysAndAttributes{}
			var ks []item
			for _, k := range keys {
				ks = append(ks, item{"pk": S(k)})
			}
			req[l.table] = types.KeysAndAttributes{Keys: ks, ConsistentRead: aws.Bool(true)}
			for len(req) > 0 {
				out, err := c.BatchGetItem(bg(), &dynamodb.BatchGetItemInput{RequestItems: req})
				if err != nil {
					t.Fatalf("node %d: BatchGetItem after the fault: %v", n, err)
				}
				for _, it := range out.Responses[l.table] {
					found[it["pk"].(*types.AttributeValueMemberS).Value] = true
				}
				req = out.UnprocessedKeys
			}
			for _, k := range keys {
				if !found[k] {
					missing++
					if missing <= 5 {
						t.Errorf("node %d: acknowledged put of %s is lost", n, k)
					}
				}
			}
		}
		if missing > 0 {
			t.Errorf("node %d: %d of %d acknowledged puts lost", n, missing, len(l.acked))
		}
	}
	unknown := 0
	for _, op := range l.history {
		if op.Output.(faultOut).unknown {
			unknown++
		}
	}
	res, info := porcupine.CheckOperationsVerbose(faultModel, l.history, time.Minute)
	if res == porcupine.Illegal {
		path := t.TempDir() + "/faultlin.html"
		_ = porcupine.VisualizePath(faultModel, info, path)
		t.Errorf("history of %d operations (%d failed) is not linearizable; see %s", len(l.history), unknown, path)
	} else if res == porcupine.Unknown {
		t.Logf("linearizability check of %d operations timed out", len(l.history))
	} else {
		t.Logf("linearizable: %d operations, %d failed with an unknown outcome", len(l.history), unknown)
	}
	t.Logf("%d puts acknowledged, every one read back through each of %d servers", len(l.acked), len(l.cs))
}

// timeline returns, for server node, its first failed call at or
// after from, and its first successful call at or after until (zero
// times when there are none).
func (l *faultLoad) timeline(node int, from, until time.Time) (firstErr, firstOK time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, o := range l.outcomes {
		if o.node != node {
			continue
		}
		if !o.ok && !o.at.Before(from) && (firstErr.IsZero() || o.at.Before(firstErr)) {
			firstErr = o.at
		}
		if o.ok && !o.at.Before(until) && (firstOK.IsZero() || o.at.Before(firstOK)) {
			firstOK = o.at
		}
	}
	return firstErr, firstOK
}

// waitFor waits up to d for cond, failing the test with what otherwise.
func waitFor(t *testing.T, d time.Duration, what string, cond func() bool) time.Time {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("not within %v: %s", d, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return time.Now()
}

// failures counts the failed calls through node since from.
func (l *faultLoad) failures(node int, from time.Time) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, o := range l.outcomes {
		if o.node == node && !o.ok && !o.at.Before(from) {
			n++
		}
	}
	return n
}

// puts counts the acknowledged puts through node so far.
func (l *faultLoad) puts(node int) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	prefix := fmt.Sprintf("w%d-", node)
	for _, k := range l.acked {
		if strings.HasPrefix(k, prefix) {
			n++
		}
	}
	return n
}

// successes counts the successful calls through node since from.
func (l *faultLoad) successes(node int, from time.Time) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, o := range l.outcomes {
		if o.node == node && o.ok && !o.at.Before(from) {
			n++
		}
	}
	return n
}
