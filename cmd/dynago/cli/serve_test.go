package cli

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/testserver"
)

// The test binary doubles as the dynago binary, so process-level tests
// (signals, crashes, locks) run a real "dynago serve" through
// testserver.StartProcess with no separate build.
func TestMain(m *testing.M) {
	testserver.ChildMain(Main)
	code := m.Run()
	removeDynagoBinary()
	os.Exit(code)
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

// TestSIGTERMFinishesAndCloses checks a clean shutdown: exit code 0, the
// data directory released, and the data readable by the next server.
func TestSIGTERMFinishesAndCloses(t *testing.T) {
	dir := t.TempDir()
	p := testserver.StartProcess(t, "--data-dir", dir)
	c := p.Client()
	createTable(t, c, "term")
	for i := range 20 {
		_, err := c.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String("term"), Item: map[string]types.AttributeValue{
			"pk": &types.AttributeValueMemberS{Value: fmt.Sprint(i)}}})
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := p.Cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := p.Wait(t); err != nil {
		t.Fatalf("exit after SIGTERM: %v\n%s", err, p.Log())
	}
	if !strings.Contains(p.Log(), "dynago stopped") {
		t.Fatalf("no clean-stop log line:\n%s", p.Log())
	}
	if !strings.Contains(p.Log(), "version=(devel)") && !strings.Contains(p.Log(), "version=v") {
		t.Errorf("the serving log line does not say which version serves:\n%s", p.Log())
	}
	p2 := testserver.StartProcess(t, "--data-dir", dir)
	out, err := p2.Client().DescribeTable(context.Background(), &dynamodb.DescribeTableInput{TableName: aws.String("term")})
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
	testserver.StartProcess(t, "--data-dir", dir)
	cmd := exec.Command(os.Args[0], "serve", "--port", "0", "--data-dir", dir)
	cmd.Env = append(os.Environ(), testserver.ChildMainEnv+"=1")
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
	for _, want := range []string{"-data-dir", "-in-memory", "-sync", "Off by default", "-port", "-log-level",
		// DynamoDB Local's -cors, and dynago's safer default.
		"-cors", "DynamoDB Local", "loopback",
		// DynamoDB Local's command line.
		"-sharedDb -dbPath ./data -port 8000", "-inMemory", "-delayTransientStatuses", "-namespace"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("serve --help does not mention %q:\n%s", want, out.String())
		}
	}
	if errb.Len() != 0 {
		t.Errorf("serve --help wrote to stderr: %s", errb.String())
	}
}

// TestServeCPUProfile checks that --cpuprofile leaves a profile that
// go tool pprof can read (a gzipped protobuf) once the server stops.
func TestServeCPUProfile(t *testing.T) {
	prof := filepath.Join(t.TempDir(), "cpu.prof")
	p := testserver.StartProcess(t, "--in-memory", "--cpuprofile", prof)
	createTable(t, p.Client(), "prof")
	if err := p.Cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := p.Wait(t); err != nil {
		t.Fatalf("exit after SIGTERM: %v\n%s", err, p.Log())
	}
	data, err := os.ReadFile(prof)
	if err != nil || len(data) < 2 || data[0] != 0x1f || data[1] != 0x8b {
		t.Fatalf("profile %s: %d bytes, %v", prof, len(data), err)
	}
}

// TestHostPolicy checks when serve checks the Host header: on loopback
// addresses, or wherever --allowed-hosts lists names; not on others.
func TestHostPolicy(t *testing.T) {
	for _, tc := range []struct {
		listen, flag string
		check        bool
		allowed      []string
	}{
		{"127.0.0.1", "", true, nil},
		{"127.0.0.2", "", true, nil},
		{"::1", "", true, nil},
		{"[::1]", "", true, nil},
		{"localhost", "", true, nil},
		{"0.0.0.0", "", false, nil},
		{"", "", false, nil},
		{"::", "", false, nil},
		{"192.168.1.10", "", false, nil},
		{"0.0.0.0", "db.internal, other:8000 ,", true, []string{"db.internal", "other:8000"}},
		{"127.0.0.1", "*", true, []string{"*"}},
	} {
		check, allowed := hostPolicy(tc.listen, tc.flag)
		if check != tc.check || fmt.Sprint(allowed) != fmt.Sprint(tc.allowed) {
			t.Errorf("hostPolicy(%q, %q) = %v, %q; want %v, %q", tc.listen, tc.flag, check, allowed, tc.check, tc.allowed)
		}
	}
}

// TestCORSFlagRefusesNonsense checks that serve refuses a --cors value it
// cannot read instead of starting with a policy the user did not mean.
func TestCORSFlagRefusesNonsense(t *testing.T) {
	for _, flag := range []string{"https://a.example,*", "ftp://files.example", "https://a.example/path", "http://"} {
		var out, errb strings.Builder
		code := Main([]string{"serve", "--in-memory", "--port", "0", "--cors", flag}, strings.NewReader(""), &out, &errb)
		if code == 0 || !strings.Contains(errb.String(), "--cors") {
			t.Errorf("--cors %q: exit %d, stderr %q; want a refusal naming --cors", flag, code, errb.String())
		}
	}
}

// TestBufferPerAddressFlagRefusesNonsense checks that serve refuses a
// --max-buffer-memory-per-address below one largest request and answer,
// or above --max-buffer-memory, instead of starting with a share that
// cannot serve a request or means nothing.
func TestBufferPerAddressFlagRefusesNonsense(t *testing.T) {
	for _, args := range [][]string{
		{"--max-buffer-memory-per-address", "16MiB"},
		{"--max-buffer-memory", "64MiB", "--max-buffer-memory-per-address", "128MiB"},
	} {
		var out, errb strings.Builder
		code := Main(append([]string{"serve", "--in-memory", "--port", "0"}, args...), strings.NewReader(""), &out, &errb)
		if code == 0 || !strings.Contains(errb.String(), "--max-buffer-memory-per-address") {
			t.Errorf("%v: exit %d, stderr %q; want a refusal naming --max-buffer-memory-per-address", args, code, errb.String())
		}
	}
}

// TestByteSizeFlag checks the sizes --max-buffer-memory accepts.
func TestByteSizeFlag(t *testing.T) {
	for in, want := range map[string]int64{"256MiB": 256 << 20, "256MB": 256 << 20, "1GiB": 1 << 30, "2g": 2 << 30, "512KiB": 512 << 10, "1048576": 1 << 20, " 64 MiB ": 64 << 20} {
		var b byteSize
		if err := b.Set(in); err != nil || int64(b) != want {
			t.Errorf("Set(%q) = %d, %v; want %d", in, b, err, want)
		}
	}
	for _, in := range []string{"", "-1MiB", "1.5GiB", "MiB", "lots"} {
		var b byteSize
		if err := b.Set(in); err == nil {
			t.Errorf("Set(%q) accepted: %d", in, b)
		}
	}
	if s := byteSize(256 << 20).String(); s != "256MiB" {
		t.Errorf("String() = %q", s)
	}
}
