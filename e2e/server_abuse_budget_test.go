package e2e

// Attackers that hold the buffer budget: requests announcing 16 MiB
// bodies and sending none or a trickle, and clients that never read
// their answers, from other source addresses than the client they must
// not hold up. The CI tests assert what does not depend on the machine's
// speed (no throttling of the normal client, bytes in use far below the
// budget, unsigned requests refused before their bodies); the latency
// and memory figures come from TestAbuseBudgetMeasure, run on demand.

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/dynago/dynago/testserver"
)

// attackSources are the loopback addresses attackers connect from; the
// normal client connects from 127.0.0.1.
var attackSources = []string{"127.0.0.2", "127.0.0.3"}

// dialFrom connects to addr from the local address src.
func dialFrom(ctx context.Context, src, addr string) (*net.TCPConn, error) {
	d := net.Dialer{Timeout: 10 * time.Second, LocalAddr: &net.TCPAddr{IP: net.ParseIP(src)}}
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	return c.(*net.TCPConn), nil
}

// announce is the start of a PutItem request announcing a 16 MiB body.
func announce(addr string) []byte {
	return []byte("POST / HTTP/1.1\r\nHost: " + addr + "\r\nContent-Type: application/x-amz-json-1.0\r\n" +
		"X-Amz-Target: DynamoDB_20120810.PutItem\r\nContent-Length: " + strconv.Itoa(16*mib) + "\r\n\r\n" +
		`{"TableName":"victim","Item":{"pk":{"S":"x"},"v":{"S":"`)
}

// attack is a set of hostile clients run until its context ends.
type attack struct {
	addr string
	// headerOnly, slowBody and nonReaders are how many clients of each
	// kind: requests announcing 16 MiB that send no more, or 16 KiB every
	// 50 ms; and clients sending nonReaderReq and never reading.
	headerOnly, slowBody, nonReaders int
	nonReaderReq                     []byte
	// nonReaderGzip is nonReaderReq accepting a gzip answer; every other
	// non-reader sends it, as clients such as Python's requests do.
	nonReaderGzip []byte
	// pause is how long an attacker waits to reconnect once cut; 0
	// reconnects at once, which with --auth (every attacker refused at
	// once) is a connection flood rather than clients holding the
	// budget.
	pause time.Duration

	wg    sync.WaitGroup
	mu    sync.Mutex
	conns []net.Conn
}

// start starts the attackers, spread over attackSources; each reconnects
// when the server cuts it.
func (a *attack) start(ctx context.Context) {
	n := 0
	run := func(f func(net.Conn)) {
		src := attackSources[n%len(attackSources)]
		n++
		a.wg.Go(func() {
			for ctx.Err() == nil {
				c, err := dialFrom(ctx, src, a.addr)
				if err != nil {
					continue
				}
				a.mu.Lock()
				a.conns = append(a.conns, c)
				a.mu.Unlock()
				stop := context.AfterFunc(ctx, func() { c.Close() })
				f(c)
				stop()
				c.Close()
				if a.pause > 0 {
					select {
					case <-time.After(a.pause):
					case <-ctx.Done():
					}
				}
			}
		})
	}
	for range a.headerOnly {
		run(func(c net.Conn) {
			c.Write(announce(a.addr))
			io.Copy(io.Discard, c) // until cut
		})
	}
	for range a.slowBody {
		run(func(c net.Conn) {
			if _, err := c.Write(announce(a.addr)); err != nil {
				return
			}
			go io.Copy(io.Discard, c)
			chunk := make([]byte, 16<<10)
			for i := range chunk {
				chunk[i] = 'a'
			}
			t := time.NewTicker(50 * time.Millisecond)
			defer t.Stop()
			for ctx.Err() == nil {
				if _, err := c.Write(chunk); err != nil {
					return
				}
				select {
				case <-t.C:
				case <-ctx.Done():
				}
			}
		})
	}
	for i := range a.nonReaders {
		req := a.nonReaderReq
		if i%2 == 1 && a.nonReaderGzip != nil {
			req = a.nonReaderGzip
		}
		run(func(c net.Conn) {
			// Ask, never read, hold the connection.
			c.Write(req)
			<-ctx.Done()
		})
	}
}

// wait waits for the attackers to stop after their context ended.
func (a *attack) wait() {
	a.mu.Lock()
	for _, c := range a.conns {
		c.Close()
	}
	a.mu.Unlock()
	a.wg.Wait()
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// bufferInUse reads dynago_buffer_bytes_in_use from the server's metrics.
func bufferInUse(t *testing.T, url string) int64 {
	t.Helper()
	res, err := http.Get(url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	sc := bufio.NewScanner(res.Body)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "dynago_buffer_bytes_in_use "); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatal(err)
			}
			return int64(f)
		}
	}
	t.Fatal("no dynago_buffer_bytes_in_use in /metrics")
	return 0
}

// abuseVictim starts a server with a table holding one small item and
// the 40 items of 390 KB a non-reader's BatchGetItem asks for, and
// returns it, a client for it and that request. With auth the server
// takes only AKIDTEST's signatures (p.Client's).
func abuseVictim(t *testing.T, auth bool, args ...string) (*testserver.Process, *dynamodb.Client, []byte, []byte) {
	t.Helper()
	if auth {
		file := filepath.Join(t.TempDir(), "credentials")
		if err := os.WriteFile(file, []byte("AKIDTEST SECRETTEST\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		args = append(args, "--auth", file)
	}
	p, addr := abuseServer(t, args...)
	c := p.Client()
	createHash(t, c, "victim", types.ScalarAttributeTypeS)
	big := strings.Repeat("x", 390<<10)
	var keys []string
	for i := range 40 {
		if _, err := c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("victim"), Item: map[string]types.AttributeValue{
			"pk": S(fmt.Sprintf("k%d", i)), "v": S(big),
		}}); err != nil {
			t.Fatal(err)
		}
		keys = append(keys, fmt.Sprintf(`{"pk":{"S":"k%d"}}`, i))
	}
	if _, err := c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("victim"), Item: map[string]types.AttributeValue{
		"pk": S("normal"), "v": S("small"),
	}}); err != nil {
		t.Fatal(err)
	}
	batch := []byte(`{"RequestItems":{"victim":{"Keys":[` + strings.Join(keys, ",") + `]}}}`)
	return p, c, rawRequest(addr, "BatchGetItem", batch), rawRequest(addr, "BatchGetItem", batch, "Accept-Encoding", "gzip")
}

// getNormal is the normal client's request.
func getNormal(ctx context.Context, c *dynamodb.Client) error {
	out, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("victim"), Key: map[string]types.AttributeValue{"pk": S("normal")}})
	if err == nil && out.Item == nil {
		err = errors.New("item not found")
	}
	return err
}

// TestAbuseBudgetHolders: while 40 attackers from two other addresses
// announce 16 MiB bodies and send none or a trickle, or never read
// 15 MB answers, a normal client's GetItems all succeed (a client without
// retries, so a ThrottlingException would show), and the buffer bytes in
// use stay far below the 256 MiB budget: bodies hold what has arrived,
// and each address at most its share (a quarter). Before, the announced
// 16 MiB were reserved at once: 16 header-only requests took the whole
// budget and GetItems waited for it. With --auth, unsigned attackers are
// refused before their bodies and hold nothing.
func TestAbuseBudgetHolders(t *testing.T) {
	needsWire(t)
	for _, auth := range []bool{false, true} {
		t.Run(fmt.Sprintf("auth=%v", auth), func(t *testing.T) {
			p, c, batch, batchGzip := abuseVictim(t, auth)
			addr := strings.TrimPrefix(p.URL, "http://")
			ctx, cancel := context.WithCancel(context.Background())
			a := &attack{addr: addr, headerOnly: 16, slowBody: 12, nonReaders: 12, nonReaderReq: batch, nonReaderGzip: batchGzip}
			a.start(ctx)
			defer a.wait()
			defer cancel()

			// The attackers hold their connections; the normal client
			// runs beside them for 60 requests (or 30 s on a very busy
			// machine), sampling the bytes in use.
			var peak int64
			deadline := time.Now().Add(30 * time.Second)
			var done int
			for ; done < 60 && time.Now().Before(deadline); done++ {
				rctx, rcancel := context.WithTimeout(context.Background(), 20*time.Second)
				err := getNormal(rctx, c)
				rcancel()
				var ae smithy.APIError
				if errors.As(err, &ae) && ae.ErrorCode() == "ThrottlingException" {
					t.Fatalf("normal GetItem throttled beside the attackers (request %d)", done)
				}
				if err != nil {
					t.Fatalf("normal GetItem: %v", err)
				}
				if done%10 == 0 {
					peak = max(peak, bufferInUse(t, p.URL))
				}
			}
			_, hwm := procMem(t, p)
			t.Logf("%d normal GetItems served; buffer bytes in use at most %d MiB; peak RSS %d MiB", done, peak/mib, hwm/mib)
			// Without auth the non-readers' answers fill their two
			// addresses' shares, a quarter of 256 MiB each: at most
			// four 16 MiB reserves each, which an answer's encoding may
			// outgrow by a quarter (append's growth), so under 160 MiB
			// however the attack goes, where the announced bodies alone
			// took all 256 MiB before. With auth nothing but the normal
			// client's GetItem.
			bound := int64(160 * mib)
			if auth {
				bound = 4 * mib
			}
			if peak > bound {
				t.Errorf("buffer bytes in use reached %d MiB, want at most %d MiB", peak/mib, bound/mib)
			}
		})
	}
}

// TestAbuseUnsignedRefusedEarly: with --auth, an unsigned request that
// announces a 16 MiB body and sends none is answered
// MissingAuthenticationTokenException at once, and one signed with an
// unknown key UnrecognizedClientException, without the server waiting
// for the body (the read-body timeout is a minute; the answer comes
// before the client sends anything more).
func TestAbuseUnsignedRefusedEarly(t *testing.T) {
	needsWire(t)
	file := filepath.Join(t.TempDir(), "credentials")
	if err := os.WriteFile(file, []byte("AKIDTEST SECRETTEST\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p, addr := abuseServer(t, "--auth", file)
	now := time.Now().UTC()
	for _, tc := range []struct {
		name, headers, code string
	}{
		{"unsigned", "", "MissingAuthenticationTokenException"},
		{"unknown key", "X-Amz-Date: " + now.Format("20060102T150405Z") + "\r\nAuthorization: AWS4-HMAC-SHA256 Credential=AKIDNOBODY/" +
			now.Format("20060102") + "/us-east-1/dynamodb/aws4_request, SignedHeaders=host;x-amz-date, Signature=" + strings.Repeat("0", 64) + "\r\n",
			"UnrecognizedClientException"},
	} {
		conn := dial(t, addr)
		req := "POST / HTTP/1.1\r\nHost: " + addr + "\r\nContent-Type: application/x-amz-json-1.0\r\n" +
			"X-Amz-Target: DynamoDB_20120810.PutItem\r\nContent-Length: " + strconv.Itoa(16*mib) + "\r\n" + tc.headers + "\r\n"
		if _, err := conn.Write([]byte(req)); err != nil {
			t.Fatal(err)
		}
		conn.SetReadDeadline(time.Now().Add(30 * time.Second))
		res, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatalf("%s: no answer before the body: %v", tc.name, err)
		}
		body, _ := io.ReadAll(res.Body)
		if res.StatusCode != http.StatusBadRequest || !strings.Contains(string(body), "#"+tc.code) {
			t.Errorf("%s: %d %s, want 400 %s", tc.name, res.StatusCode, body, tc.code)
		}
	}
	if _, err := p.Client().ListTables(bg(), &dynamodb.ListTablesInput{}); err != nil {
		t.Fatal(err)
	}
}

// TestAbuseBudgetMeasure measures, when DYNAGO_ABUSE_MEASURE is set, a
// normal client's GetItem latency beside 40 attackers (as
// TestAbuseBudgetHolders), without and with --auth, and the server's RSS
// a few seconds after each of ten bursts of them (with 200 clients
// asking for gzip answers at the start of each). Attackers that are cut
// reconnect after DYNAGO_ABUSE_PAUSE (a duration, default 0: at once).
// It asserts nothing about time; the figures are for docs/OPERATIONS.md.
func TestAbuseBudgetMeasure(t *testing.T) {
	if os.Getenv("DYNAGO_ABUSE_MEASURE") == "" {
		t.Skip("set DYNAGO_ABUSE_MEASURE=1 to measure")
	}
	needsWire(t)
	var pause time.Duration
	if v := os.Getenv("DYNAGO_ABUSE_PAUSE"); v != "" {
		var err error
		if pause, err = time.ParseDuration(v); err != nil {
			t.Fatal(err)
		}
	}
	for _, auth := range []bool{false, true} {
		t.Run(fmt.Sprintf("auth=%v", auth), func(t *testing.T) {
			p, c, batch, batchGzip := abuseVictim(t, auth)
			addr := strings.TrimPrefix(p.URL, "http://")
			for range 50 { // warm up
				getNormal(bg(), c)
			}
			rss0, _ := procMem(t, p)
			var all []time.Duration
			throttled := 0
			for burst := range 10 {
				ctx, cancel := context.WithCancel(context.Background())
				a := &attack{addr: addr, headerOnly: 14, slowBody: 13, nonReaders: 13, nonReaderReq: batch, nonReaderGzip: batchGzip, pause: pause}
				a.start(ctx)
				// And 200 clients asking for gzip answers at once.
				gzipBurst(t, addr, 200)
				var lat []time.Duration
				for end := time.Now().Add(5 * time.Second); time.Now().Before(end); {
					start := time.Now()
					err := getNormal(bg(), c)
					d := time.Since(start)
					var ae smithy.APIError
					if errors.As(err, &ae) && ae.ErrorCode() == "ThrottlingException" {
						throttled++
					} else if err != nil {
						t.Fatal(err)
					}
					lat = append(lat, d)
					time.Sleep(5 * time.Millisecond)
				}
				cancel()
				a.wait()
				all = append(all, lat...)
				_, hwm := procMem(t, p)
				// RSS once the server has had a few quiet seconds.
				var rss int64
				for range 20 {
					time.Sleep(250 * time.Millisecond)
					rss, _ = procMem(t, p)
				}
				slices.Sort(lat)
				t.Logf("burst %d: %d GetItems, p50 %v p99 %v max %v; peak RSS %d MiB, RSS 5 s after %d MiB",
					burst+1, len(lat), lat[len(lat)/2], lat[len(lat)*99/100], lat[len(lat)-1], hwm/mib, rss/mib)
			}
			slices.Sort(all)
			t.Logf("auth=%v: %d GetItems beside 40 attackers: p50 %v p99 %v max %v, %d throttled; idle RSS before %d MiB",
				auth, len(all), all[len(all)/2], all[len(all)*99/100], all[len(all)-1], throttled, rss0/mib)
		})
	}
}

// gzipBurst has clients from four addresses other than the test's ask,
// all at once, for a 390 KB item with Accept-Encoding gzip, read their
// answers and close.
func gzipBurst(t *testing.T, addr string, clients int) {
	t.Helper()
	req := rawRequest(addr, "GetItem", []byte(`{"TableName":"victim","Key":{"pk":{"S":"k1"}}}`), "Accept-Encoding", "gzip")
	sources := []string{"127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"}
	conns := make([]*net.TCPConn, clients)
	for i := range conns {
		c, err := dialFrom(bg(), sources[i%len(sources)], addr)
		if err != nil {
			t.Fatal(err)
		}
		conns[i] = c
		defer c.Close()
	}
	for _, c := range conns {
		if _, err := c.Write(req); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range conns {
		c.SetReadDeadline(time.Now().Add(60 * time.Second))
		res, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK && res.StatusCode != http.StatusBadRequest {
			t.Fatalf("GetItem: HTTP %d", res.StatusCode)
		}
	}
}

// putListItems writes ten items "l0" to "l9" to the victim table, each a
// list of 15,000 small numbers (about 125 KB): a MB of JSON that takes
// several times that in the heap once decoded.
func putListItems(t *testing.T, c *dynamodb.Client) {
	t.Helper()
	list := make([]types.AttributeValue, 15000)
	for i := range list {
		list[i] = N(strconv.Itoa(i % 1000))
	}
	for i := range 10 {
		if _, err := c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("victim"), Item: map[string]types.AttributeValue{
			"pk": S(fmt.Sprintf("l%d", i)), "v": &types.AttributeValueMemberL{Value: list},
		}}); err != nil {
			t.Fatal(err)
		}
	}
}

// batchBurst has clients from another address read, each rounds times,
// BatchGetItem answers of the ten items putListItems wrote, all at once.
func batchBurst(t *testing.T, addr string, clients, rounds int) {
	t.Helper()
	var keys []string
	for i := range 10 {
		keys = append(keys, fmt.Sprintf(`{"pk":{"S":"l%d"}}`, i))
	}
	req := rawRequest(addr, "BatchGetItem", []byte(`{"RequestItems":{"victim":{"Keys":[`+strings.Join(keys, ",")+`]}}}`))
	errs := make(chan error, clients)
	for range clients {
		go func() {
			c, err := dialFrom(bg(), "127.0.0.2", addr)
			if err != nil {
				errs <- err
				return
			}
			defer c.Close()
			br := bufio.NewReader(c)
			for range rounds {
				if _, err := c.Write(req); err != nil {
					errs <- err
					return
				}
				c.SetReadDeadline(time.Now().Add(60 * time.Second))
				res, err := http.ReadResponse(br, nil)
				if err != nil {
					errs <- err
					return
				}
				io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if res.StatusCode != http.StatusOK {
					errs <- fmt.Errorf("BatchGetItem: HTTP %d", res.StatusCode)
					return
				}
			}
			errs <- nil
		}()
	}
	for range clients {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}

// TestAbuseMemoryReturns: after bursts of BatchGetItems whose answers
// hold a tenth of the buffer budget at once but whose items, decoded,
// grow the heap by about 200 MB, the server's RSS falls back near what it
// was before within a minute (measured: within 4 s), burst after burst.
// Before, only a burst that had held 64 MiB of the budget made the server
// give memory back: a minute after such a burst it held hundreds of MiB
// more, until the runtime's forced collection two minutes later, and its
// pages after that.
func TestAbuseMemoryReturns(t *testing.T) {
	needsWire(t)
	p, c, _, _ := abuseVictim(t, false)
	putListItems(t, c)
	addr := strings.TrimPrefix(p.URL, "http://")
	base, _ := procMem(t, p)
	batchBurst(t, addr, 6, 2)
	rss, hwm := procMem(t, p)
	t.Logf("burst 1: RSS before %d MiB, peak %d MiB, after %d MiB", base/mib, hwm/mib, rss/mib)
	waitSettled(t, p, base+32*mib)
	// What the server keeps after a first burst (caches, the runtime's
	// own) it keeps; later bursts must add nothing to it.
	base, _ = procMem(t, p)
	for i := range 2 {
		batchBurst(t, addr, 6, 2)
		rss, hwm := procMem(t, p)
		t.Logf("burst %d: RSS before %d MiB, peak %d MiB, after %d MiB", i+2, base/mib, hwm/mib, rss/mib)
		waitSettled(t, p, base+24*mib)
	}
}
