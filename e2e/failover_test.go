package e2e

import (
	"fmt"
	"net"
	"strconv"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/internal/pgtest"
	"github.com/dynago/dynago/testserver"
)

// TestFailover runs two servers on a PostgreSQL primary with a
// synchronous streaming replica, through a connection string naming both
// with target_session_attrs=read-write. Under load the primary is
// stopped at once (as in a crash) and the replica promoted: the servers
// answer 5xx in between, never a 4xx, follow the new primary by
// themselves, and every write acknowledged before, during or after is
// there; the conditional writes and transactions stay linearizable.
func TestFailover(t *testing.T) {
	faultOnce(t)
	primary := pgtest.NewClusterWith(t, pgtest.ClusterOptions{Conf: []string{
		"synchronous_standby_names = '*'",
		"synchronous_commit = on",
	}})
	replica := primary.NewReplica(t)
	hosts := net.JoinHostPort("127.0.0.1", strconv.Itoa(primary.Port())) + "," + net.JoinHostPort("127.0.0.1", strconv.Itoa(replica.Port()))
	url := fmt.Sprintf("postgres://postgres@%s/postgres?sslmode=disable&target_session_attrs=read-write&connect_timeout=2", hosts)
	var cs []*dynamodb.Client
	for range 2 {
		p := testserver.StartProcess(t, "--store", url, "--store-max-conns", "8", "--store-call-timeout", "5s",
			"--node-lease-timeout", "2s", "--ttl-sweep-interval", "100ms")
		cs = append(cs, faultClient(p.URL))
	}
	createHash(t, cs[0], "fail", types.ScalarAttributeTypeS)
	waitFor(t, time.Minute, "server 1 sees the table", func() bool {
		_, err := cs[1].DescribeTable(bg(), &dynamodb.DescribeTableInput{TableName: aws.String("fail")})
		return err == nil
	})

	load := startFaultLoad(t, cs, "fail", 2)
	waitFor(t, time.Minute, "both servers serve the load", func() bool { return load.puts(0) >= 30 && load.puts(1) >= 30 })

	killAt := time.Now()
	primary.Stop(t)
	waitFor(t, time.Minute, "both servers fail requests without a primary", func() bool {
		return load.failures(0, killAt) >= 3 && load.failures(1, killAt) >= 3
	})
	promoteAt := time.Now()
	replica.Promote(t)
	promoted := time.Now()
	waitFor(t, time.Minute, "both servers serve again on the new primary", func() bool {
		return load.successes(0, promoted) >= 5 && load.successes(1, promoted) >= 5
	})
	load.heal()
	before0, before1 := load.puts(0), load.puts(1)
	waitFor(t, time.Minute, "load through both servers after the failover", func() bool {
		return load.puts(0) >= before0+30 && load.puts(1) >= before1+30
	})
	load.finish()
	load.check()

	for i := range cs {
		firstErr, firstOK := load.timeline(i, killAt, promoteAt)
		t.Logf("failover timeline of server %d (from the primary's stop): first error %v, promotion %v (done %v later), first success %v after the promotion started",
			i, firstErr.Sub(killAt).Round(time.Millisecond), promoteAt.Sub(killAt).Round(time.Millisecond),
			promoted.Sub(promoteAt).Round(time.Millisecond), firstOK.Sub(promoteAt).Round(time.Millisecond))
	}
}
