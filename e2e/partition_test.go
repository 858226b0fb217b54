package e2e

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/internal/pgtest"
	"github.com/dynago/dynago/testserver"
)

// Network partitions between servers and their database. The test
// builds its own network: a namespace for PostgreSQL and one per server,
// each server's namespace joined to the test's by one veth pair (so the
// test's clients reach the server) and to the database's by another.
// Taking the database's end of a server's link down cuts that server off
// the database and nothing else; its packets to the database vanish, as
// behind a broken switch, with no reset. Addresses come from 198.18.0.0/15
// (RFC 2544's benchmarking range) and exist only on these links.

// netLab is a test's private network, removed when the test ends.
type netLab struct {
	t   *testing.T
	tag string // a few hex digits in every name
	net string // "198.B.C.": the /24 of every address
	n   int    // veth pairs made
}

// newNetLab skips the test unless it can make network namespaces (root,
// ip from iproute2).
func newNetLab(t *testing.T) *netLab {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("partition tests make network namespaces: run as root (CI does)")
	}
	if _, err := exec.LookPath("ip"); err != nil {
		t.Skip("partition tests need ip (iproute2): " + err.Error())
	}
	var b [3]byte
	_, _ = rand.Read(b[:])
	l := &netLab{t: t, tag: hex.EncodeToString(b[:2])}
	// A /24 of 198.18.0.0/15 no interface of this machine uses yet.
	used, _ := exec.Command("ip", "-4", "-o", "addr").Output()
	for i := 0; ; i++ {
		l.net = fmt.Sprintf("198.%d.%d.", 18+int(b[2]&1), (int(b[2])+i*37)%256)
		if !strings.Contains(string(used), " "+l.net) || i == 50 {
			break
		}
	}
	probe := "dyn" + l.tag + "-probe"
	if out, err := exec.Command("ip", "netns", "add", probe).CombinedOutput(); err != nil {
		t.Skipf("cannot make a network namespace (ip netns add): %v: %s", err, out)
	}
	_ = exec.Command("ip", "netns", "del", probe).Run()
	return l
}

// ip runs ip with args, failing the test on an error.
func (l *netLab) ip(args ...string) {
	l.t.Helper()
	if out, err := exec.Command("ip", args...).CombinedOutput(); err != nil {
		l.t.Fatalf("ip %s: %v: %s", strings.Join(args, " "), err, out)
	}
}

// namespace makes a network namespace with its loopback up, deleted when
// the test ends (after the processes in it, started later, are gone).
func (l *netLab) namespace(name string) string {
	l.t.Helper()
	ns := "dyn" + l.tag + "-" + name
	l.ip("netns", "add", ns)
	l.t.Cleanup(func() {
		if out, err := exec.Command("ip", "netns", "del", ns).CombinedOutput(); err != nil {
			l.t.Errorf("ip netns del %s: %v: %s", ns, err, out)
		}
	})
	l.ip("-n", ns, "link", "set", "lo", "up")
	return ns
}

// link joins namespaces a and b ("" for the test's own) by a veth pair
// with the addresses net+ha/30 and net+hb/30, and returns the names of
// the two ends.
func (l *netLab) link(a string, ha int, b string, hb int) (ea, eb string) {
	l.t.Helper()
	l.n++
	ea, eb = fmt.Sprintf("v%s%da", l.tag, l.n), fmt.Sprintf("v%s%db", l.tag, l.n)
	l.ip("link", "add", ea, "type", "veth", "peer", "name", eb)
	l.t.Cleanup(func() { _ = exec.Command("ip", "link", "del", ea).Run() }) // gone already if a was a namespace
	for _, end := range []struct {
		ns, dev string
		host    int
	}{{a, ea, ha}, {b, eb, hb}} {
		var in []string
		if end.ns != "" {
			l.ip("link", "set", end.dev, "netns", end.ns)
			in = []string{"-n", end.ns}
		}
		l.ip(append(in, "addr", "add", l.addr(end.host)+"/30", "dev", end.dev)...)
		l.ip(append(in, "link", "set", end.dev, "up")...)
	}
	return ea, eb
}

func (l *netLab) addr(host int) string { return l.net + strconv.Itoa(host) }

// partitionNodes is the network of TestPartition: PostgreSQL in its
// namespace and n servers, each in its own.
type partitionNodes struct {
	lab    *netLab
	db     string   // the database's namespace
	dbEnds []string // per server, the database's end of its link
	procs  []*testserver.Process
	cs     []*dynamodb.Client
}

func startPartitionNodes(t *testing.T, n int, extra ...string) *partitionNodes {
	t.Helper()
	lab := newNetLab(t)
	pn := &partitionNodes{lab: lab, db: lab.namespace("db")}
	type place struct{ ns, host, dbAddr string }
	var places []place
	for i := range n {
		ns := lab.namespace(fmt.Sprint("n", i))
		lab.link("", 4*i+1, ns, 4*i+2)                        // the test's clients to the server
		dbEnd, _ := lab.link(pn.db, 128+4*i+1, ns, 128+4*i+2) // the server to the database
		pn.dbEnds = append(pn.dbEnds, dbEnd)
		places = append(places, place{ns, lab.addr(4*i + 2), lab.addr(128 + 4*i + 1)})
	}
	pgtest.NewClusterWith(t, pgtest.ClusterOptions{
		Netns:  pn.db,
		Listen: "*",
		HBA:    []string{"host all all 198.18.0.0/15 trust"},
	})
	for i, p := range places {
		url := fmt.Sprintf("postgres://postgres@%s:5432/postgres?sslmode=disable", p.dbAddr)
		args := append([]string{"--host", p.host, "--port", "8000", "--store", url, "--store-max-conns", "8"}, extra...)
		proc := testserver.StartProcessIn(t, p.ns, args...)
		pn.procs = append(pn.procs, proc)
		pn.cs = append(pn.cs, faultClient(proc.URL))
		if i == 0 {
			// The first server takes the background leases before
			// the others start.
			waitFor(t, time.Minute, "server 0 takes the Time to Live lease", func() bool {
				return countLines(proc.Log(), []string{"lease acquired", "lease=ttl"}) > 0
			})
		}
	}
	return pn
}

// cut takes server i's link to the database down, or up again.
func (pn *partitionNodes) cut(i int, down bool) {
	state := "up"
	if down {
		state = "down"
	}
	pn.lab.ip("-n", pn.db, "link", "set", "dev", pn.dbEnds[i], state)
}

// health is the status of GET / on server i, which checks the database
// within a bound of its own.
func (pn *partitionNodes) health(t *testing.T, i int) int {
	t.Helper()
	resp, err := (&http.Client{Timeout: time.Minute}).Get(pn.procs[i].URL + "/")
	if err != nil {
		t.Fatalf("GET /: %v", err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// ttlDeleted reads dynago_ttl_deleted_items_total from server i's
// metrics.
func (pn *partitionNodes) ttlDeleted(t *testing.T, i int) int {
	t.Helper()
	resp, err := http.Get(pn.procs[i].URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(body), "\n") {
		if v, ok := strings.CutPrefix(line, "dynago_ttl_deleted_items_total "); ok {
			n, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil {
				t.Fatalf("metrics: %q", line)
			}
			return int(n)
		}
	}
	return 0
}

// TestPartition cuts one of two servers off the database under load and
// heals it. While cut off, that server answers every request with a 5xx
// within its call timeout, and the other serves on and takes over its
// Time to Live sweeps and the GSI backfill it was running once the lease
// timeout has passed; healed, the first serves again by itself, and
// neither sweeps nor backfills (the other holds the lease, and finished
// the backfill: the index equals its recomputation). No acknowledged
// write is lost, and the conditional writes and transactions through
// both servers form a linearizable history.
func TestPartition(t *testing.T) {
	faultOnce(t)
	pn := startPartitionNodes(t, 2, "--node-lease-timeout", "2s", "--store-call-timeout", "3s",
		"--store-statement-timeout", "3s", "--ttl-sweep-interval", "100ms", "--log-level", "info")
	c0, c1 := pn.cs[0], pn.cs[1]
	createHash(t, c1, "parts", types.ScalarAttributeTypeS)
	if _, err := c1.UpdateTimeToLive(bg(), &dynamodb.UpdateTimeToLiveInput{TableName: aws.String("parts"),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String("exp"), Enabled: aws.Bool(true)}}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, time.Minute, "server 0 sees the table", func() bool {
		_, err := c0.DescribeTable(bg(), &dynamodb.DescribeTableInput{TableName: aws.String("parts")})
		return err == nil
	})
	expired := func(k string) item { return item{"pk": S(k), "exp": N(fmt.Sprint(time.Now().Unix() - 10))} }
	gone := func(c *dynamodb.Client, k string) func() bool {
		return func() bool {
			out, err := c.GetItem(bg(), &dynamodb.GetItemInput{TableName: aws.String("parts"), Key: item{"pk": S(k)}, ConsistentRead: aws.Bool(true)})
			return err == nil && out.Item == nil
		}
	}

	// A table for a GSI backfill that server 0 runs when it is cut off:
	// large enough that the backfill takes a while.
	createHash(t, c1, "big", types.ScalarAttributeTypeS)
	bigItems := loadBackfillTable(t, []*dynamodb.Client{c0, c1}, "big", 3000)

	load := startFaultLoad(t, []*dynamodb.Client{c0, c1}, "parts", 2)
	waitFor(t, time.Minute, "both servers serve the load", func() bool { return load.puts(0) >= 30 && load.puts(1) >= 30 })

	// Server 0 starts the backfill, and is cut off while it runs. So that
	// server 0 is the one to take the backfill's lease (any server's
	// catalog poller may), server 1 is cut off for that moment.
	cut1At := time.Now()
	pn.cut(1, true)
	if _, err := c0.UpdateTable(bg(), &dynamodb.UpdateTableInput{TableName: aws.String("big"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("g"), AttributeType: types.ScalarAttributeTypeS}},
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{
			IndexName: aws.String("byG"), KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("g"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}}}}}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, time.Minute, "server 0 takes the backfill's lease", func() bool {
		return countLines(pn.procs[0].Log(), []string{"lease acquired", "backfill/"}) > 0
	})
	pn.cut(1, false)
	cutAt := time.Now()
	pn.cut(0, true)
	t.Logf("server 1 was cut off for %v while server 0 took the backfill's lease", cutAt.Sub(cut1At).Round(time.Millisecond))
	backfilling := describe(t, c1, "big").GlobalSecondaryIndexes[0].IndexStatus != types.IndexStatusActive
	waitFor(t, time.Minute, "server 0 fails requests while cut off", func() bool { return load.failures(0, cutAt) >= 5 })
	waitFor(t, time.Minute, "server 1 takes the Time to Live lease over", func() bool {
		return countLines(pn.procs[1].Log(), []string{"taking over lease", "lease=ttl"}) > 0
	})
	takeover := logTime(t, pn.procs[1].Log(), "taking over lease", "lease=ttl")
	if code := pn.health(t, 0); code != http.StatusServiceUnavailable {
		t.Errorf("GET / of the server cut off: %d, want 503", code)
	}
	if backfilling {
		waitFor(t, time.Minute, "server 1 takes the backfill over", func() bool {
			return countLines(pn.procs[1].Log(), []string{"taking over lease", "backfill/"}) > 0
		})
		for i := range 50 { // writes to the table during the takeover
			put(t, c1, "big", item{"pk": S(fmt.Sprint("k", i)), "g": S(fmt.Sprint("n", i%4))})
		}
		waitIndexActiveLong(t, c1, "big")
		t.Logf("backfill: server 1 took its lease over %v after the cut, and finished it %v after the cut",
			logTime(t, pn.procs[1].Log(), "taking over lease", "backfill/").Sub(cutAt).Round(time.Millisecond), time.Since(cutAt).Round(time.Millisecond))
	} else {
		t.Log("the backfill finished before the cut; its takeover is not tested this time")
	}
	put(t, c1, "parts", expired("exp-during"))
	waitFor(t, time.Minute, "server 1 sweeps an expired item during the partition", gone(c1, "exp-during"))
	okDuring := load.successes(1, cutAt)
	if okDuring == 0 {
		t.Error("server 1 served nothing while server 0 was cut off")
	}

	healAt := time.Now()
	pn.cut(0, false)
	waitFor(t, time.Minute, "server 0 serves again after the heal", func() bool { return load.successes(0, healAt) >= 5 })
	load.heal()
	before0, before1 := load.puts(0), load.puts(1)
	if code := pn.health(t, 0); code != http.StatusOK {
		t.Errorf("GET / of the server after the heal: %d, want 200", code)
	}
	// More load after the heal, then the checks.
	waitFor(t, time.Minute, "load through both servers after the heal", func() bool {
		return load.puts(0) >= before0+30 && load.puts(1) >= before1+30
	})
	load.finish()

	put(t, c0, "parts", expired("exp-after"))
	waitFor(t, time.Minute, "an expired item put through server 0 is swept after the heal", gone(c0, "exp-after"))
	if n := pn.ttlDeleted(t, 0); n != 0 {
		t.Errorf("server 0 deleted %d expired items; the lease was server 1's", n)
	}
	if n := countLines(pn.procs[0].Log(), []string{"lease acquired", "lease=ttl"}); n != 1 {
		t.Errorf("server 0 acquired the Time to Live lease %d times, want once (before the partition)", n)
	}
	if n := countLines(pn.procs[0].Log(), []string{"lease acquired", "backfill/"}); n != 1 {
		t.Errorf("server 0 acquired the backfill's lease %d times, want once (before the partition)", n)
	}
	checkIndexRecomputed(t, c0, "big", "byG", bigItems)
	load.check()

	firstErr, firstOK := load.timeline(0, cutAt, healAt)
	t.Logf("partition timeline (from the cut): server 0 first error %v, server 1 takes the TTL lease %v, heal at %v, server 0 first success %v after the heal; server 1 answered %d calls during the partition",
		firstErr.Sub(cutAt).Round(time.Millisecond), takeover.Sub(cutAt).Round(time.Millisecond),
		healAt.Sub(cutAt).Round(time.Millisecond), firstOK.Sub(healAt).Round(time.Millisecond), okDuring)
	if t.Failed() {
		for i, p := range pn.procs {
			t.Logf("--- server %d\n%s", i, tailLines(p.Log(), 60))
		}
	}
}

func tailLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// logTime is the time of the first log line holding every one of parts.
func logTime(t *testing.T, log string, parts ...string) time.Time {
	t.Helper()
	for _, line := range strings.Split(log, "\n") {
		if countLines(line, parts) == 0 {
			continue
		}
		if v, ok := strings.CutPrefix(line, "time="); ok {
			at, err := time.Parse(time.RFC3339Nano, strings.Fields(v)[0])
			if err == nil {
				return at
			}
		}
		t.Fatalf("no time in log line %q", line)
	}
	t.Fatalf("no log line holds %q", parts)
	return time.Time{}
}

// loadBackfillTable puts n small items into table, two in three with a
// string attribute g, through four writers spread over cs, and returns n.
func loadBackfillTable(t *testing.T, cs []*dynamodb.Client, table string, n int) int {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for w := range 4 {
		c := cs[w%len(cs)]
		wg.Go(func() {
			for start := w * 25; start < n; start += 4 * 25 {
				var reqs []types.WriteRequest
				for i := start; i < min(start+25, n); i++ {
					it := item{"pk": S(fmt.Sprint("k", i))}
					if i%3 != 0 {
						it["g"] = S(fmt.Sprint("g", i%7))
					}
					reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: it}})
				}
				for len(reqs) > 0 {
					out, err := c.BatchWriteItem(bg(), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{table: reqs}})
					if err != nil {
						errs <- err
						return
					}
					reqs = out.UnprocessedItems[table]
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	return n
}
