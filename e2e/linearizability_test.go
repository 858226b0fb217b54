package e2e

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/anishathalye/porcupine"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/local"
)

// The linearizability test: several clients issue random conditional puts,
// ADD updates, deletes, reads and two-item transactions against the real
// server; the history of calls and answers is recorded and porcupine
// checks that some sequential order of the operations, consistent with
// their real-time order, explains every answer under a model of the table.
//
// The normal suite runs a few bounded rounds; -lin.long runs many more,
// larger ones: go test ./e2e -run Linearizable -lin.long

var linLong = flag.Bool("lin.long", false, "run the linearizability test at length")

const (
	linKeys = 3
	absent  = math.MinInt64 // the model's value of a missing item
)

// linState is the model: attribute v of each key, or absent.
type linState [linKeys]int64

type linOp uint8

const (
	opCondPut  linOp = iota // put v if the item is absent (expect absent) or v == expect
	opAdd                   // ADD v delta, returning the new v
	opDelete                // delete, returning the old v
	opGet                   // consistent GetItem
	opTransfer              // transaction: k -= amt if k exists with v >= amt, k2 += amt if k2 exists
	opTxGet                 // TransactGetItems of k and k2
	numLinOps
)

type linInput struct {
	op     linOp
	k, k2  int
	expect int64
	v      int64
}

type linOutput struct {
	ok    bool
	v, v2 int64
}

func linStep(state, input, output any) (bool, any) {
	s := state.(linState)
	in, out := input.(linInput), output.(linOutput)
	switch in.op {
	case opCondPut:
		if out.ok != (s[in.k] == in.expect) {
			return false, s
		}
		if out.ok {
			s[in.k] = in.v
		}
	case opAdd:
		n := in.v
		if s[in.k] != absent {
			n += s[in.k]
		}
		if out.v != n {
			return false, s
		}
		s[in.k] = n
	case opDelete:
		if out.v != s[in.k] {
			return false, s
		}
		s[in.k] = absent
	case opGet:
		return out.v == s[in.k], s
	case opTransfer:
		can := s[in.k] != absent && s[in.k] >= in.v && s[in.k2] != absent
		if out.ok != can {
			return false, s
		}
		if can {
			s[in.k] -= in.v
			s[in.k2] += in.v
		}
	case opTxGet:
		return out.v == s[in.k] && out.v2 == s[in.k2], s
	}
	return true, s
}

func linDescribe(input, output any) string {
	in, out := input.(linInput), output.(linOutput)
	v := func(n int64) string {
		if n == absent {
			return "absent"
		}
		return strconv.FormatInt(n, 10)
	}
	switch in.op {
	case opCondPut:
		return fmt.Sprintf("put(k%d=%d if %s) -> %t", in.k, in.v, v(in.expect), out.ok)
	case opAdd:
		return fmt.Sprintf("add(k%d+%d) -> %s", in.k, in.v, v(out.v))
	case opDelete:
		return fmt.Sprintf("delete(k%d) -> %s", in.k, v(out.v))
	case opGet:
		return fmt.Sprintf("get(k%d) -> %s", in.k, v(out.v))
	case opTransfer:
		return fmt.Sprintf("transfer(k%d->k%d %d) -> %t", in.k, in.k2, in.v, out.ok)
	}
	return fmt.Sprintf("txget(k%d,k%d) -> %s,%s", in.k, in.k2, v(out.v), v(out.v2))
}

var linModel = porcupine.Model{
	Init: func() any {
		var s linState
		for i := range s {
			s[i] = absent
		}
		return s
	},
	Step:              linStep,
	DescribeOperation: linDescribe,
}

// linClient runs operations against one table, recording them.
type linClient struct {
	c     local.API
	table string
	round int
	clock *atomic.Int64
}

func (l *linClient) key(k int) item {
	return item{"pk": S(fmt.Sprintf("r%d-k%d", l.round, k))}
}

func linValue(it item) int64 {
	if it == nil {
		return absent
	}
	n, ok := it["v"].(*types.AttributeValueMemberN)
	if !ok {
		return math.MaxInt64 // matches no model state
	}
	v, err := strconv.ParseInt(n.Value, 10, 64)
	if err != nil {
		return math.MaxInt64
	}
	return v
}

func num(n int64) types.AttributeValue { return N(strconv.FormatInt(n, 10)) }

// run performs in and returns its output.
func (l *linClient) run(in linInput) (linOutput, error) {
	c, table := l.c, aws.String(l.table)
	var out linOutput
	switch in.op {
	case opCondPut:
		p := &dynamodb.PutItemInput{TableName: table, Item: l.key(in.k)}
		p.Item["v"] = num(in.v)
		if in.expect == absent {
			p.ConditionExpression = aws.String("attribute_not_exists(pk)")
		} else {
			p.ConditionExpression = aws.String("v = :e")
			p.ExpressionAttributeValues = item{":e": num(in.expect)}
		}
		_, err := c.PutItem(bg(), p)
		var ccf *types.ConditionalCheckFailedException
		if errors.As(err, &ccf) {
			return out, nil
		}
		out.ok = err == nil
		return out, err
	case opAdd:
		r, err := c.UpdateItem(bg(), &dynamodb.UpdateItemInput{TableName: table, Key: l.key(in.k),
			UpdateExpression: aws.String("ADD v :d"), ExpressionAttributeValues: item{":d": num(in.v)}, ReturnValues: types.ReturnValueAllNew})
		if err != nil {
			return out, err
		}
		out.v = linValue(r.Attributes)
	case opDelete:
		r, err := c.DeleteItem(bg(), &dynamodb.DeleteItemInput{TableName: table, Key: l.key(in.k), ReturnValues: types.ReturnValueAllOld})
		if err != nil {
			return out, err
		}
		out.v = linValue(r.Attributes)
	case opGet:
		r, err := c.GetItem(bg(), &dynamodb.GetItemInput{TableName: table, Key: l.key(in.k), ConsistentRead: aws.Bool(true)})
		if err != nil {
			return out, err
		}
		out.v = linValue(r.Item)
	case opTransfer:
		_, err := c.TransactWriteItems(bg(), &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
			{Update: &types.Update{TableName: table, Key: l.key(in.k), UpdateExpression: aws.String("ADD v :neg"),
				ConditionExpression:       aws.String("attribute_exists(v) AND v >= :amt"),
				ExpressionAttributeValues: item{":neg": num(-in.v), ":amt": num(in.v)}}},
			{Update: &types.Update{TableName: table, Key: l.key(in.k2), UpdateExpression: aws.String("ADD v :amt"),
				ConditionExpression: aws.String("attribute_exists(v)"), ExpressionAttributeValues: item{":amt": num(in.v)}}},
		}})
		var tce *types.TransactionCanceledException
		if errors.As(err, &tce) {
			return out, nil
		}
		out.ok = err == nil
		return out, err
	case opTxGet:
		r, err := c.TransactGetItems(bg(), &dynamodb.TransactGetItemsInput{TransactItems: []types.TransactGetItem{
			{Get: &types.Get{TableName: table, Key: l.key(in.k)}},
			{Get: &types.Get{TableName: table, Key: l.key(in.k2)}},
		}})
		if err != nil {
			return out, err
		}
		if len(r.Responses) != 2 {
			return out, fmt.Errorf("%d responses", len(r.Responses))
		}
		out.v, out.v2 = linValue(r.Responses[0].Item), linValue(r.Responses[1].Item)
	}
	return out, nil
}

func randomLinInput(r *rand.Rand) linInput {
	// Deletes are rarer than the rest, so that transfers often find
	// both items.
	weights := [numLinOps]int{opCondPut: 20, opAdd: 25, opDelete: 6, opGet: 15, opTransfer: 22, opTxGet: 12}
	pick := r.IntN(100)
	var op linOp
	for op = 0; op < numLinOps-1 && pick >= weights[op]; op++ {
		pick -= weights[op]
	}
	in := linInput{op: op, k: r.IntN(linKeys)}
	in.k2 = (in.k + 1 + r.IntN(linKeys-1)) % linKeys
	switch in.op {
	case opCondPut:
		in.expect = absent
		if r.IntN(2) == 0 {
			in.expect = int64(r.IntN(4))
		}
		in.v = int64(r.IntN(4))
	case opAdd:
		in.v = int64(r.IntN(5) - 2)
	case opTransfer:
		in.v = int64(1 + r.IntN(2))
	}
	return in
}

// linHistory runs clients×ops random operations concurrently and returns
// the history. Call and Return are taken from one counter, so an
// operation that returned before another was called is ordered before it.
func linHistory(t *testing.T, c local.API, table string, round, clients, ops int, seed uint64) []porcupine.Operation {
	return linHistoryOn(t, []local.API{c}, table, round, clients, ops, seed)
}

// linHistoryOn is linHistory with client i talking to server cs[i mod
// len(cs)]: several servers on one shared store.
func linHistoryOn(t *testing.T, cs []local.API, table string, round, clients, ops int, seed uint64) []porcupine.Operation {
	var clock atomic.Int64
	var mu sync.Mutex
	var history []porcupine.Operation
	var wg sync.WaitGroup
	for id := range clients {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(seed, uint64(id)))
			l := &linClient{c: cs[id%len(cs)], table: table, round: round, clock: &clock}
			for range ops {
				in := randomLinInput(r)
				call := clock.Add(1)
				out, err := l.run(in)
				ret := clock.Add(1)
				if err != nil {
					t.Errorf("client %d: %s: %v", id, linDescribe(in, out), err)
					return
				}
				mu.Lock()
				history = append(history, porcupine.Operation{ClientId: id, Input: in, Call: call, Output: out, Return: ret})
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return history
}

func TestLinearizable(t *testing.T) {
	_, c := start(t)
	checkLinearizable(t, []local.API{c})
}

// checkLinearizable creates table "lin" through cs[0] and checks rounds of
// random histories whose clients are spread over cs.
func checkLinearizable(t *testing.T, cs []local.API) {
	createHash(t, cs[0], "lin", types.ScalarAttributeTypeS)
	rounds, clients, ops := 5, 6, 50
	if *linLong {
		rounds, clients, ops = 200, 8, 100
	}
	seed := rand.Uint64()
	for round := range rounds {
		h := linHistoryOn(t, cs, "lin", round, clients, ops, seed+uint64(round))
		if t.Failed() {
			return
		}
		if round == 0 {
			logOutcomes(t, h)
		}
		res, info := porcupine.CheckOperationsVerbose(linModel, h, 0)
		if res != porcupine.Ok {
			path := t.TempDir() + "/history.html"
			if err := porcupine.VisualizePath(linModel, info, path); err != nil {
				t.Logf("visualize: %v", err)
			}
			t.Fatalf("round %d (seed %d): history of %d operations is %s; visualization in %s", round, seed, len(h), res, path)
		}
	}
}

// logOutcomes logs how many operations of each kind succeeded, to show
// that the random workload exercises both outcomes.
func logOutcomes(t *testing.T, h []porcupine.Operation) {
	var n, ok [numLinOps]int
	for _, o := range h {
		in, out := o.Input.(linInput), o.Output.(linOutput)
		n[in.op]++
		if out.ok {
			ok[in.op]++
		}
	}
	t.Logf("%d operations: conditional puts %d (%d applied), adds %d, deletes %d, gets %d, transfers %d (%d applied), transactional reads %d",
		len(h), n[opCondPut], ok[opCondPut], n[opAdd], n[opDelete], n[opGet], n[opTransfer], ok[opTransfer], n[opTxGet])
}

// TestLinearizableModel checks that the model is not vacuous: it refuses
// a history no sequential order explains.
func TestLinearizableModel(t *testing.T) {
	op := func(client int, in linInput, out linOutput, call, ret int64) porcupine.Operation {
		return porcupine.Operation{ClientId: client, Input: in, Output: out, Call: call, Return: ret}
	}
	// A put that returned before a read began, and the read missed it.
	bad := []porcupine.Operation{
		op(0, linInput{op: opCondPut, k: 0, expect: absent, v: 3}, linOutput{ok: true}, 1, 2),
		op(1, linInput{op: opGet, k: 0}, linOutput{v: absent}, 3, 4),
	}
	if porcupine.CheckOperations(linModel, bad) {
		t.Fatal("stale read accepted")
	}
	// A transfer seen half applied by a transactional read.
	bad = []porcupine.Operation{
		op(0, linInput{op: opAdd, k: 0, v: 2}, linOutput{v: 2}, 1, 2),
		op(0, linInput{op: opAdd, k: 1, v: 0}, linOutput{v: 0}, 3, 4),
		op(0, linInput{op: opTransfer, k: 0, k2: 1, v: 1}, linOutput{ok: true}, 5, 8),
		op(1, linInput{op: opTxGet, k: 0, k2: 1}, linOutput{v: 1, v2: 0}, 6, 7),
	}
	if porcupine.CheckOperations(linModel, bad) {
		t.Fatal("torn transaction accepted")
	}
	// The same read seeing all or none of it is fine.
	for _, seen := range []linOutput{{v: 2, v2: 0}, {v: 1, v2: 1}} {
		bad[3].Output = seen
		if !porcupine.CheckOperations(linModel, bad) {
			t.Fatalf("read %v refused", seen)
		}
	}
}
