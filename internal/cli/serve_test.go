package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/internal/testserver"
)

// The test binary doubles as the dynago binary: with DYNAGO_TEST_MAIN set
// it runs Main on its arguments, so process-level tests (signals, crashes,
// locks) need no separate build.
func TestMain(m *testing.M) {
	if os.Getenv("DYNAGO_TEST_MAIN") == "1" {
		os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// serverProc is a dynago serve subprocess.
type serverProc struct {
	cmd    *exec.Cmd
	addr   string
	stderr *strings.Builder
	mu     *sync.Mutex
	done   chan error
}

var addrRE = regexp.MustCompile(`addr=http://([0-9.:]+)`)

// startServe starts "dynago serve args..." and waits for its address.
func startServe(t *testing.T, args ...string) *serverProc {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"serve", "--port", "0"}, args...)...)
	cmd.Env = append(os.Environ(), "DYNAGO_TEST_MAIN=1")
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &serverProc{cmd: cmd, stderr: &strings.Builder{}, mu: &sync.Mutex{}, done: make(chan error, 1)}
	addrc := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			line := sc.Text()
			p.mu.Lock()
			p.stderr.WriteString(line + "\n")
			p.mu.Unlock()
			if m := addrRE.FindStringSubmatch(line); m != nil {
				select {
				case addrc <- m[1]:
				default:
				}
			}
		}
		io.Copy(io.Discard, pipe)
		p.done <- cmd.Wait()
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-p.done
	})
	select {
	case p.addr = <-addrc:
	case err := <-p.done:
		p.done <- err
		t.Fatalf("server exited early: %v\n%s", err, p.log())
	case <-time.After(20 * time.Second):
		t.Fatalf("server did not start:\n%s", p.log())
	}
	return p
}

func (p *serverProc) log() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stderr.String()
}

func (p *serverProc) client() *dynamodb.Client {
	return testserver.NewClient("http://" + p.addr)
}

func (p *serverProc) wait(t *testing.T) error {
	t.Helper()
	select {
	case err := <-p.done:
		p.done <- err
		return err
	case <-time.After(30 * time.Second):
		t.Fatalf("server did not exit:\n%s", p.log())
		return nil
	}
}

func createTable(t *testing.T, c *dynamodb.Client, name string) {
	t.Helper()
	_, err := c.CreateTable(context.Background(), &dynamodb.CreateTableInput{
		TableName:            aws.String(name),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestCrashLosesNothingAcknowledged kills a --sync server with SIGKILL
// while clients write, restarts it on the same directory, and finds every
// write that was acknowledged before the kill.
func TestCrashLosesNothingAcknowledged(t *testing.T) {
	dir := t.TempDir()
	p := startServe(t, "--data-dir", dir, "--sync")
	c := p.client()
	createTable(t, c, "crash")

	var mu sync.Mutex
	acked := map[string]string{}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ctx.Err() == nil && i < 100000; i++ {
				pk := fmt.Sprintf("w%d-%d", w, i)
				val := strings.Repeat(pk, 10)
				_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("crash"), Item: map[string]types.AttributeValue{
					"pk": &types.AttributeValueMemberS{Value: pk}, "v": &types.AttributeValueMemberS{Value: val},
				}})
				if err != nil {
					return // the server is gone
				}
				mu.Lock()
				acked[pk] = val
				mu.Unlock()
			}
		}()
	}
	time.Sleep(700 * time.Millisecond)
	mu.Lock() // nothing is acknowledged to us while we kill
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	p.wait(t)
	snapshot := make(map[string]string, len(acked))
	for k, v := range acked {
		snapshot[k] = v
	}
	mu.Unlock()
	cancel()
	wg.Wait()
	if len(snapshot) < 10 {
		t.Fatalf("only %d writes acknowledged before the kill; the test proves nothing", len(snapshot))
	}

	p2 := startServe(t, "--data-dir", dir)
	c2 := p2.client()
	for pk, val := range snapshot {
		out, err := c2.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String("crash"), ConsistentRead: aws.Bool(true),
			Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: pk}}})
		if err != nil {
			t.Fatal(err)
		}
		got, _ := out.Item["v"].(*types.AttributeValueMemberS)
		if got == nil || got.Value != val {
			t.Fatalf("acknowledged item %s lost after crash (got %v)", pk, out.Item)
		}
	}
	t.Logf("%d acknowledged writes all present after SIGKILL and restart", len(snapshot))
}

// TestSIGTERMFinishesAndCloses checks a clean shutdown: exit code 0, the
// data directory released, and the data readable by the next server.
func TestSIGTERMFinishesAndCloses(t *testing.T) {
	dir := t.TempDir()
	p := startServe(t, "--data-dir", dir)
	c := p.client()
	createTable(t, c, "term")
	for i := range 20 {
		_, err := c.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String("term"), Item: map[string]types.AttributeValue{
			"pk": &types.AttributeValueMemberS{Value: fmt.Sprint(i)}}})
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := p.wait(t); err != nil {
		t.Fatalf("exit after SIGTERM: %v\n%s", err, p.log())
	}
	if !strings.Contains(p.log(), "dynago stopped") {
		t.Fatalf("no clean-stop log line:\n%s", p.log())
	}
	p2 := startServe(t, "--data-dir", dir)
	out, err := p2.client().DescribeTable(context.Background(), &dynamodb.DescribeTableInput{TableName: aws.String("term")})
	if err != nil {
		t.Fatal(err)
	}
	if n := aws.ToInt64(out.Table.ItemCount); n != 20 {
		t.Fatalf("ItemCount after restart = %d, want 20", n)
	}
}

// TestSecondServerOnSameDirFails checks the data-directory lock.
func TestSecondServerOnSameDirFails(t *testing.T) {
	dir := t.TempDir()
	startServe(t, "--data-dir", dir)
	cmd := exec.Command(os.Args[0], "serve", "--port", "0", "--data-dir", dir)
	cmd.Env = append(os.Environ(), "DYNAGO_TEST_MAIN=1")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("second server started on a locked directory:\n%s", out)
	}
	if !strings.Contains(string(out), "in use by another dynago process") {
		t.Fatalf("unclear error from second server:\n%s", out)
	}
}

func TestServeHelpTeaches(t *testing.T) {
	var out, errb strings.Builder
	code := Main([]string{"serve", "--help"}, strings.NewReader(""), &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"-data-dir", "-in-memory", "-sync", "Off by default", "-port", "-log-level"} {
		if !strings.Contains(errb.String(), want) {
			t.Errorf("serve --help does not mention %q:\n%s", want, errb.String())
		}
	}
}

// TestServeCPUProfile checks that --cpuprofile leaves a profile that
// go tool pprof can read (a gzipped protobuf) once the server stops.
func TestServeCPUProfile(t *testing.T) {
	prof := filepath.Join(t.TempDir(), "cpu.prof")
	p := startServe(t, "--in-memory", "--cpuprofile", prof)
	createTable(t, p.client(), "prof")
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := p.wait(t); err != nil {
		t.Fatalf("exit after SIGTERM: %v\n%s", err, p.log())
	}
	data, err := os.ReadFile(prof)
	if err != nil || len(data) < 2 || data[0] != 0x1f || data[1] != 0x8b {
		t.Fatalf("profile %s: %d bytes, %v", prof, len(data), err)
	}
}
