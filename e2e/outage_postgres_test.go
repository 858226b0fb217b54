package e2e

import (
	"errors"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/dynago/dynago/internal/pgtest"
	"github.com/dynago/dynago/testserver"
)

// outageLog records what a load saw around a database outage.
type outageLog struct {
	mu sync.Mutex
	// wrong lists answers that are not what a client may see: a 4xx, a
	// missing item, an empty list.
	wrong []string
	// ops counts answers by kind: "ok", or the HTTP status and code.
	answers map[string]int
	// firstErr is the first failure after stopped; firstOK the first
	// success after started.
	stopped, starting, started time.Time
	firstErr, firstOK          time.Time
	errsWhileDown              int
	// downOps counts, per operation, its 5xx answers while down.
	downOps map[string]int
}

func (l *outageLog) note(op string, err error, wrongAnswer string) {
	now := time.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	if err == nil && wrongAnswer != "" {
		l.wrong = append(l.wrong, op+": "+wrongAnswer)
		return
	}
	if err == nil {
		l.answers["ok"]++
		if !l.starting.IsZero() && l.firstOK.IsZero() {
			l.firstOK = now
		}
		return
	}
	var re *awshttp.ResponseError
	var ae smithy.APIError
	if !errors.As(err, &re) || !errors.As(err, &ae) {
		l.wrong = append(l.wrong, fmt.Sprintf("%s: %v (no HTTP answer)", op, err))
		return
	}
	key := fmt.Sprintf("%d %s", re.HTTPStatusCode(), ae.ErrorCode())
	l.answers[key]++
	if re.HTTPStatusCode() < 500 || (ae.ErrorCode() != "InternalServerError" && ae.ErrorCode() != "ServiceUnavailable") {
		l.wrong = append(l.wrong, fmt.Sprintf("%s: HTTP %s: %s", op, key, ae.ErrorMessage()))
		return
	}
	if !l.stopped.IsZero() && l.starting.IsZero() {
		l.errsWhileDown++
		l.downOps[op]++
		if l.firstErr.IsZero() {
			l.firstErr = now
		}
	}
}

// A real PostgreSQL stopped and started again under a load through
// `dynago serve --store`: while it is down, every request is answered
// with a 5xx (never a 4xx such as ResourceNotFoundException, an empty
// table list or a missing item), health says 503, and the requests
// succeed again by themselves once it is back, without a restart of the
// server; every acknowledged write is there.
func TestPostgresOutageIsServerErrors(t *testing.T) {
	needsWire(t)
	// A private cluster: stopping the shared one would break the tests
	// of other packages running meanwhile.
	cl := pgtest.NewCluster(t)
	p := testserver.StartProcess(t, append(testserver.StoreArgs(cl.URL, "dynago"), "--store-statement-timeout", "5s")...)
	c := testserver.NewClient(p.URL)
	createFaultTable(t, c, "out")
	log := &outageLog{answers: map[string]int{}, downOps: map[string]int{}}
	var ackMu sync.Mutex
	acked := []string{"a", "b"}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	tbl := aws.String("out")
	ops := []func(w, i int){
		func(w, i int) {
			k := fmt.Sprintf("w%d-%d", w, i)
			_, err := c.PutItem(bg(), &dynamodb.PutItemInput{TableName: tbl, Item: item{"pk": S(k), "g": S("x")}})
			log.note("PutItem", err, "")
			if err == nil {
				ackMu.Lock()
				acked = append(acked, k)
				ackMu.Unlock()
			}
		},
		func(w, i int) {
			out, err := c.GetItem(bg(), &dynamodb.GetItemInput{TableName: tbl, Key: item{"pk": S("a")}})
			wrong := ""
			if err == nil && out.Item == nil {
				wrong = "item a missing"
			}
			log.note("GetItem", err, wrong)
		},
		func(w, i int) {
			out, err := c.ListTables(bg(), &dynamodb.ListTablesInput{})
			wrong := ""
			if err == nil && len(out.TableNames) != 1 {
				wrong = fmt.Sprintf("tables %v", out.TableNames)
			}
			log.note("ListTables", err, wrong)
		},
		func(w, i int) {
			_, err := c.DescribeTable(bg(), &dynamodb.DescribeTableInput{TableName: tbl})
			log.note("DescribeTable", err, "")
		},
		func(w, i int) {
			out, err := c.Query(bg(), &dynamodb.QueryInput{TableName: tbl, IndexName: aws.String("byg"), Limit: aws.Int32(2),
				KeyConditionExpression: aws.String("g = :g"), ExpressionAttributeValues: item{":g": S("x")}})
			wrong := ""
			if err == nil && len(out.Items) == 0 {
				wrong = "no items in the index"
			}
			log.note("Query", err, wrong)
		},
		func(w, i int) {
			out, err := c.BatchGetItem(bg(), &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{
				"out": {Keys: []item{{"pk": S("a")}, {"pk": S("b")}}}}})
			wrong := ""
			if err == nil && len(out.Responses["out"])+len(out.UnprocessedKeys["out"].Keys) != 2 {
				wrong = fmt.Sprintf("%d items of 2", len(out.Responses["out"]))
			}
			log.note("BatchGetItem", err, wrong)
		},
	}
	for w := range 3 {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				ops[(w+i)%len(ops)](w, i)
			}
		})
	}
	waitFor := func(what string, cond func() bool) {
		t.Helper()
		deadline := time.Now().Add(time.Minute)
		for !cond() {
			if time.Now().After(deadline) {
				close(stop)
				wg.Wait()
				t.Fatalf("no %s within a minute; answers %v, wrong %v", what, log.answers, log.wrong)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	okCount := func() int { log.mu.Lock(); defer log.mu.Unlock(); return log.answers["ok"] }
	waitFor("successes before the stop", func() bool { return okCount() >= 30 })

	log.mu.Lock()
	log.stopped = time.Now()
	log.mu.Unlock()
	cl.Stop(t)
	// Every operation fails while the database is down, a few times each.
	waitFor("failures with the database down", func() bool {
		log.mu.Lock()
		defer log.mu.Unlock()
		return log.errsWhileDown >= 3*len(ops)
	})
	res, err := http.Get(p.URL + "/")
	if err != nil || res.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("GET / with the database down: %v, %v; want 503", res, err)
	}
	if err == nil {
		res.Body.Close()
	}
	log.mu.Lock()
	log.starting = time.Now()
	log.mu.Unlock()
	cl.Start(t)
	log.mu.Lock()
	log.started = time.Now()
	n0 := log.answers["ok"]
	log.mu.Unlock()
	// Requests succeed again by themselves: every worker's operations.
	waitFor("successes after the restart", func() bool { return okCount() >= n0+3*len(ops) })
	close(stop)
	wg.Wait()
	if res, err := http.Get(p.URL + "/"); err != nil || res.StatusCode != http.StatusOK {
		t.Errorf("GET / with the database back: %v, %v; want 200", res, err)
	} else {
		res.Body.Close()
	}
	for _, op := range []string{"PutItem", "GetItem", "ListTables", "DescribeTable", "Query", "BatchGetItem"} {
		if log.downOps[op] == 0 {
			t.Errorf("%s never failed with the database down: %v", op, log.downOps)
		}
	}
	for _, w := range log.wrong {
		t.Errorf("answered: %s", w)
	}
	// Every acknowledged write is there.
	for _, k := range acked {
		out, err := c.GetItem(bg(), &dynamodb.GetItemInput{TableName: tbl, Key: item{"pk": S(k)}, ConsistentRead: aws.Bool(true)})
		if err != nil || out.Item == nil {
			t.Errorf("acknowledged item %s: %v, %v", k, out, err)
		}
	}
	t.Logf("answers: %v; %d acknowledged writes", log.answers, len(acked))
	t.Logf("5xx while down, by operation: %v", log.downOps)
	t.Logf("first 5xx %v after the stop began; the database took %v to start; first success %v after the start began",
		log.firstErr.Sub(log.stopped).Round(time.Millisecond), log.started.Sub(log.starting).Round(time.Millisecond),
		log.firstOK.Sub(log.starting).Round(time.Millisecond))
}
