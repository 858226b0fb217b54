package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	"github.com/aws/smithy-go"

	"github.com/dynago/dynago/testserver"
)

// localProcess is dynago started as DynamoDB Local is: the test binary,
// run as dynago, with args exactly as given (no verb added), in dir.
type localProcess struct {
	url string
	mu  sync.Mutex
	log strings.Builder
}

func (p *localProcess) Log() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.log.String()
}

var servingRE = regexp.MustCompile(`addr=http://([0-9.:]+|\[::\]:[0-9]+)`)

// loopbackAddr turns the address a server logs into one a client on this
// machine dials: a server on every address (0.0.0.0, logged as [::]) is
// reached on 127.0.0.1.
func loopbackAddr(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err == nil && (host == "::" || host == "0.0.0.0") {
		return net.JoinHostPort("127.0.0.1", port)
	}
	return addr
}

// startLocal runs dynago with args in dir and waits until it listens.
func startLocal(t *testing.T, dir string, args ...string) *localProcess {
	t.Helper()
	return startBinary(t, os.Args[0], dir, args...)
}

// dynagoBinary builds cmd/dynago once per test run, for the tests that
// start the real binary as users do.
var dynagoBinary = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "dynago-bin-")
	if err != nil {
		return "", err
	}
	builtBinaryDir = dir
	bin := filepath.Join(dir, "dynago")
	out, err := exec.Command("go", "build", "-o", bin, "github.com/dynago/dynago/cmd/dynago").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return bin, nil
})

// builtBinaryDir is the directory dynagoBinary built into, if it ran.
var builtBinaryDir string

// removeDynagoBinary deletes what dynagoBinary built.
func removeDynagoBinary() {
	if builtBinaryDir != "" {
		os.RemoveAll(builtBinaryDir)
	}
}

// startBinary runs bin with args in dir and waits until it listens.
func startBinary(t *testing.T, bin, dir string, args ...string) *localProcess {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), testserver.ChildMainEnv+"=1")
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &localProcess{}
	addr := make(chan string, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			p.mu.Lock()
			p.log.WriteString(sc.Text() + "\n")
			p.mu.Unlock()
			if m := servingRE.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case addr <- m[1]:
				default:
				}
			}
		}
		io.Copy(io.Discard, pipe)
		cmd.Wait()
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-done
	})
	select {
	case a := <-addr:
		p.url = "http://" + loopbackAddr(a)
	case <-done:
		t.Fatalf("dynago %v exited early:\n%s", args, p.Log())
	case <-time.After(time.Minute):
		t.Fatalf("dynago %v did not start:\n%s", args, p.Log())
	}
	return p
}

// freePort returns a loopback port nothing listens on right now, for
// command lines that must name one as DynamoDB Local's documentation does.
func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
}

// awsCLI runs "aws dynamodb args..." against url signed with key and
// region, and returns its JSON output.
func awsCLI(t *testing.T, url, key, region string, args ...string) map[string]any {
	t.Helper()
	cmd := exec.Command("aws", append(append([]string{"dynamodb"}, args...), "--endpoint-url", url, "--output", "json")...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(),
		"AWS_ACCESS_KEY_ID=" + key, "AWS_SECRET_ACCESS_KEY=secret", "AWS_DEFAULT_REGION=" + region,
		"AWS_CONFIG_FILE=/dev/null", "AWS_SHARED_CREDENTIALS_FILE=/dev/null"}
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "PYTHONPATH=") || strings.HasPrefix(kv, "VIRTUAL_ENV=") || strings.HasPrefix(kv, "PYENV") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			stderr = ee.Stderr
		}
		t.Fatalf("aws %v: %v\n%s%s", args, err, out, stderr)
	}
	v := map[string]any{}
	if len(strings.TrimSpace(string(out))) > 0 {
		if err := json.Unmarshal(out, &v); err != nil {
			t.Fatalf("aws %v printed non-JSON %q", args, out)
		}
	}
	return v
}

func needAWSCLI(t *testing.T) {
	if _, err := exec.LookPath("aws"); err != nil {
		t.Skip("the AWS CLI (aws) is not on PATH; skipping the DynamoDB Local drop-in test")
	}
}

var musicTable = []string{"create-table", "--table-name", "Music",
	"--attribute-definitions", "AttributeName=Artist,AttributeType=S",
	"--key-schema", "AttributeName=Artist,KeyType=HASH", "--billing-mode", "PAY_PER_REQUEST"}

func tableNames(v map[string]any) []string {
	var names []string
	list, _ := v["TableNames"].([]any)
	for _, n := range list {
		names = append(names, n.(string))
	}
	return names
}

// TestDynamoDBLocalSharedDb starts the dynago binary, built from
// cmd/dynago, as DynamoDB Local's usage notes start DynamoDB Local, "java -Djava.library.path=./DynamoDBLocal_lib -jar
// DynamoDBLocal.jar -sharedDb -dbPath ./data -port 8000", with the java
// part replaced by "dynago", and talks to it with the AWS CLI: with
// -sharedDb every access key and region sees the same tables, and the
// data lives in ./data.
func TestDynamoDBLocalSharedDb(t *testing.T) {
	needAWSCLI(t)
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not on PATH to build cmd/dynago; skipping the drop-in test of the real binary")
	}
	bin, err := dynagoBinary()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	p := startBinary(t, bin, dir, "-sharedDb", "-dbPath", "./data", "-port", freePort(t))
	awsCLI(t, p.url, "AKIDONE", "us-east-1", musicTable...)
	awsCLI(t, p.url, "AKIDONE", "us-east-1", "put-item", "--table-name", "Music", "--item", `{"Artist":{"S":"No One You Know"}}`)
	for _, who := range [][2]string{{"AKIDTWO", "us-east-1"}, {"AKIDONE", "eu-west-1"}} {
		if got := tableNames(awsCLI(t, p.url, who[0], who[1], "list-tables")); strings.Join(got, ",") != "Music" {
			t.Errorf("key %s in %s lists %v under -sharedDb; want [Music]", who[0], who[1], got)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "data")); err != nil {
		t.Errorf("-dbPath ./data: %v\n%s", err, p.Log())
	}
	if !strings.Contains(p.Log(), "namespace=shared") {
		t.Errorf("log does not say the tables are shared:\n%s", p.Log())
	}
}

// TestDynamoDBLocalPerKeyAndRegion starts dynago with DynamoDB Local's
// flags and no -sharedDb, as "dynago serve -inMemory
// -delayTransientStatuses -port N": as DynamoDB Local keeps a database per
// access key and region then, each key and region sees its own tables,
// whose ARNs name the signing region and an account of the key's; a new
// table is CREATING at first; and -cors lists the origins browsers may
// call from.
func TestDynamoDBLocalPerKeyAndRegion(t *testing.T) {
	needAWSCLI(t)
	p := startLocal(t, t.TempDir(), "serve", "-inMemory", "-delayTransientStatuses", "-cors", "http://app.example.com", "-port", freePort(t))
	// -cors LIST: a browser page of a listed origin may call the API.
	for origin, want := range map[string]int{"http://app.example.com": 200, "http://other.example.com": 403} {
		req, _ := http.NewRequest("OPTIONS", p.url, nil)
		req.Header.Set("Origin", origin)
		req.Header.Set("Access-Control-Request-Method", "POST")
		req.Header.Set("Access-Control-Request-Headers", "x-amz-target,content-type,authorization")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want || (want == 200) != (resp.Header.Get("Access-Control-Allow-Origin") == origin) {
			t.Errorf("-cors: preflight from %s: %d, Allow-Origin %q; want %d", origin, resp.StatusCode, resp.Header.Get("Access-Control-Allow-Origin"), want)
		}
	}
	created := awsCLI(t, p.url, "AKIDONE", "eu-west-1", musicTable...)
	desc, _ := created["TableDescription"].(map[string]any)
	if status := desc["TableStatus"]; status != "CREATING" {
		t.Errorf("-delayTransientStatuses: a new table is %v; want CREATING", status)
	}
	wantARN := "arn:aws:dynamodb:eu-west-1:" + accountID("AKIDONE") + ":table/Music"
	if arn := desc["TableArn"]; arn != wantARN {
		t.Errorf("TableArn = %v; want %s", arn, wantARN)
	}
	if got := tableNames(awsCLI(t, p.url, "AKIDONE", "eu-west-1", "list-tables")); strings.Join(got, ",") != "Music" {
		t.Errorf("the creating key and region list %v; want [Music]", got)
	}
	for _, who := range [][2]string{{"AKIDTWO", "eu-west-1"}, {"AKIDONE", "us-east-1"}} {
		if got := tableNames(awsCLI(t, p.url, who[0], who[1], "list-tables")); len(got) != 0 {
			t.Errorf("key %s in %s lists %v; want no tables (another key's or region's)", who[0], who[1], got)
		}
	}
	// Another namespace may create a table of the same name.
	other := awsCLI(t, p.url, "AKIDTWO", "eu-west-1", musicTable...)
	if arn := other["TableDescription"].(map[string]any)["TableArn"]; arn == wantARN {
		t.Errorf("two access keys' tables share the ARN %v", arn)
	}
	if !strings.Contains(p.Log(), "namespace=account-region") {
		t.Errorf("log does not say tables are per access key and region:\n%s", p.Log())
	}
}

// sdkAs returns an SDK client for url signing with key in region.
func sdkAs(url, key, region string) *dynamodb.Client {
	return dynamodb.New(dynamodb.Options{
		Region: region, BaseEndpoint: aws.String(url),
		Credentials: credentials.NewStaticCredentialsProvider(key, "secret", ""),
	})
}

// TestNamespacesOnDisk checks --namespace account-region on a data
// directory: each key and region has a directory of its own there, its
// tables survive a restart, --namespace shared sees none of them, and a
// key past --max-namespaces is refused with LimitExceededException.
func TestNamespacesOnDisk(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	p := testserver.StartProcess(t, "--data-dir", dir, "--namespace", "account-region", "--max-namespaces", "2")
	createTable(t, sdkAs(p.URL, "keyA", "us-east-1"), "tableA")
	createTable(t, sdkAs(p.URL, "keyB", "us-west-2"), "tableB")
	_, err := sdkAs(p.URL, "keyC", "us-east-1").ListTables(ctx, &dynamodb.ListTablesInput{})
	var ae smithy.APIError
	if !errors.As(err, &ae) || ae.ErrorCode() != "LimitExceededException" {
		t.Errorf("a third key past --max-namespaces 2: %v; want LimitExceededException", err)
	}
	for _, sub := range []string{"keyA_us-east-1", "keyB_us-west-2"} {
		if _, err := os.Stat(filepath.Join(dir, sub)); err != nil {
			t.Errorf("namespace directory: %v", err)
		}
	}
	p.Stop(t)

	p = testserver.StartProcess(t, "--data-dir", dir, "--namespace", "account-region")
	// A second server on the same directory is refused at once, in either
	// mode, not when it first opens a namespace.
	for _, mode := range []string{"account-region", "shared"} {
		var out, errb strings.Builder
		code := Main([]string{"serve", "--port", "0", "--data-dir", dir, "--namespace", mode}, nil, &out, &errb)
		if code == 0 || !strings.Contains(errb.String(), "in use by another dynago process") {
			t.Errorf("a second server (%s) on the directory: exit %d, %q", mode, code, errb.String())
		}
	}
	out, err := sdkAs(p.URL, "keyA", "us-east-1").ListTables(ctx, &dynamodb.ListTablesInput{})
	if err != nil || strings.Join(out.TableNames, ",") != "tableA" {
		t.Errorf("keyA after a restart lists %v, %v; want [tableA]", out.TableNames, err)
	}
	p.Stop(t)
}

// TestNamespaceUnsignedRefused checks that a request with no signature,
// whose namespace is unknown, gets DynamoDB's answer to an unsigned
// request under account-region, while GET / still answers.
func TestNamespaceUnsignedRefused(t *testing.T) {
	p := testserver.StartProcess(t, "--data-dir", t.TempDir(), "--namespace", "account-region") // a directory: a PostgreSQL --store refuses account-region
	if code, body := unsignedListTables(t, p.URL); code != 400 || !strings.Contains(body, "MissingAuthenticationTokenException") {
		t.Errorf("unsigned request: %d %s; want 400 MissingAuthenticationTokenException", code, body)
	}
	resp, err := http.Get(p.URL)
	if err != nil || resp.StatusCode != 200 {
		t.Errorf("GET / under account-region: %v %v", resp, err)
	}
	if resp != nil {
		resp.Body.Close()
	}
}

// TestResolveLocalFlags checks how DynamoDB Local's flags map onto
// dynago's, and the combinations refused.
func TestResolveLocalFlags(t *testing.T) {
	for _, tc := range []struct {
		args      []string
		bare      bool
		namespace string
		dataDir   string
		inMemory  bool
		delay     time.Duration
		err       string
	}{
		{args: nil, namespace: "shared", dataDir: "./dynago-data"},
		{args: []string{"-port", "8000"}, bare: true, namespace: "account-region", dataDir: "./dynago-data"},
		{args: []string{"-sharedDb", "-dbPath", "d"}, namespace: "shared", dataDir: "d"},
		{args: []string{"-dbPath", "d"}, namespace: "account-region", dataDir: "d"},
		{args: []string{"-inMemory", "-sharedDb"}, namespace: "shared", dataDir: "./dynago-data", inMemory: true},
		{args: []string{"-inMemory", "-delayTransientStatuses"}, namespace: "account-region", dataDir: "./dynago-data", inMemory: true, delay: time.Second},
		{args: []string{"-delayTransientStatuses", "--transient-delay", "3s", "-sharedDb"}, namespace: "shared", dataDir: "./dynago-data", delay: 3 * time.Second},
		{args: []string{"-optimizeDbBeforeStartup", "-dbPath", "d", "-sharedDb"}, namespace: "shared", dataDir: "d"},
		{args: []string{"-dbPath", "d", "--namespace", "shared"}, namespace: "shared", dataDir: "d"},
		{args: []string{"--namespace", "account-region"}, namespace: "account-region", dataDir: "./dynago-data"},
		{args: []string{"-dbPath", "d", "-inMemory"}, err: "choose one"},
		{args: []string{"-sharedDb", "--namespace", "account-region"}, err: "choose one"},
		{args: []string{"--namespace", "per-key"}, err: "--namespace"},
		{args: []string{"-dbPath", "d", "--data-dir", "e"}, err: "different directories"},
		{args: []string{"--max-namespaces", "0"}, err: "--max-namespaces"},
	} {
		var c serveConfig
		c.local.bare = tc.bare
		env := &Env{Stdout: io.Discard, Stderr: io.Discard}
		fs := serveFlags(env, &c)
		if err := fs.Parse(tc.args); err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		err := c.resolveLocal(fs)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%v: %v; want an error saying %q", tc.args, err, tc.err)
			}
			continue
		}
		if err != nil || c.namespace != tc.namespace || c.dataDir != tc.dataDir || c.inMemory != tc.inMemory || c.transientDelay != tc.delay {
			t.Errorf("%v: namespace %q, data dir %q, in memory %v, delay %v, %v; want %q, %q, %v, %v",
				tc.args, c.namespace, c.dataDir, c.inMemory, c.transientDelay, err, tc.namespace, tc.dataDir, tc.inMemory, tc.delay)
		}
	}
}

// TestBareFlagsServe checks which arguments without a verb start the
// server: DynamoDB Local's and serve's flags do; anything else is an
// unknown verb.
func TestBareFlagsServe(t *testing.T) {
	env := &Env{Stdout: io.Discard, Stderr: io.Discard}
	for args, want := range map[string]bool{
		"-sharedDb -port 8000": true, "-port=8000": true, "--in-memory": true, "-inMemory": true, "-dbPath ./data": true,
		"-nonsense": false, "serve": false, "-h": false, "--help": false, "-": false, "--": false,
	} {
		if got := bareServe(env, strings.Fields(args)); got != want {
			t.Errorf("bareServe(%q) = %v; want %v", args, got, want)
		}
	}
}

func TestAccountIDStable(t *testing.T) {
	a, b := accountID("AKIDONE"), accountID("AKIDTWO")
	if len(a) != 12 || strings.Trim(a, "0123456789") != "" || a == b || accountID("AKIDONE") != a {
		t.Errorf("accountID: %q, %q", a, b)
	}
	for _, tc := range [][3]string{{"AKID", "us-east-1", "AKID_us-east-1"}, {"../x", "us-east-1", ""}, {"a/b", "r", ""}, {"", "r", ""}} {
		got := namespaceDir(tc[0], tc[1])
		if tc[2] != "" && got != tc[2] || tc[2] == "" && (!strings.HasPrefix(got, "ns-") || strings.ContainsAny(got, "/.\\")) {
			t.Errorf("namespaceDir(%q, %q) = %q", tc[0], tc[1], got)
		}
	}
}

// TestNamespacesKeepStreamsAndTagsApart checks that what hangs off a
// table (its stream, its tags, its Time to Live) is another key's only
// under account-region, and everyone's under shared.
func TestNamespacesKeepStreamsAndTagsApart(t *testing.T) {
	ctx := context.Background()
	for _, mode := range []string{"account-region", "shared"} {
		t.Run(mode, func(t *testing.T) {
			p := testserver.StartProcess(t, "--data-dir", t.TempDir(), "--namespace", mode)
			a := sdkAs(p.URL, "keyA", "us-east-1")
			out, err := a.CreateTable(ctx, &dynamodb.CreateTableInput{
				TableName:            aws.String("streamed"),
				BillingMode:          types.BillingModePayPerRequest,
				AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
				KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
				StreamSpecification:  &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewImage},
				Tags:                 []types.Tag{{Key: aws.String("team"), Value: aws.String("a")}},
			})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := a.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String("streamed"),
				TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String("exp"), Enabled: aws.Bool(true)}}); err != nil {
				t.Fatal(err)
			}
			shared := mode == "shared"
			b := streamsAs(p.URL, "keyB", "us-east-1")
			streams, err := b.ListStreams(ctx, &dynamodbstreams.ListStreamsInput{})
			if err != nil {
				t.Fatal(err)
			}
			if got := len(streams.Streams); got != map[bool]int{true: 1, false: 0}[shared] {
				t.Errorf("another key lists %d streams", got)
			}
			other := sdkAs(p.URL, "keyB", "us-east-1")
			tags, err := other.ListTagsOfResource(ctx, &dynamodb.ListTagsOfResourceInput{ResourceArn: out.TableDescription.TableArn})
			if shared != (err == nil && len(tags.Tags) == 1) {
				t.Errorf("another key lists the tags of %s: %v, %v", aws.ToString(out.TableDescription.TableArn), tags, err)
			}
			ttl, err := other.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String("streamed")})
			if shared != (err == nil && ttl.TimeToLiveDescription.TimeToLiveStatus == types.TimeToLiveStatusEnabled) {
				t.Errorf("another key describes the table's Time to Live: %v, %v", ttl, err)
			}
		})
	}
}

// streamsAs returns a Streams client for url signing with key in region.
func streamsAs(url, key, region string) *dynamodbstreams.Client {
	return dynamodbstreams.New(dynamodbstreams.Options{
		Region: region, BaseEndpoint: aws.String(url),
		Credentials: credentials.NewStaticCredentialsProvider(key, "secret", ""),
	})
}

// TestDynamoDBLocalFilesAreNamed checks that a data directory holding
// DynamoDB Local's database files is not served as if it were empty
// without a word: the start-up warns, in the log and in plain words on
// stderr, that dynago does not read them, naming the files found and
// where dynago keeps its own data. The names are DynamoDB Local's usage
// notes' (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/DynamoDBLocal.UsageNotes.html):
// shared-local-instance.db with -sharedDb, else myaccesskeyid_region.db,
// whose access key has only letters and digits.
func TestDynamoDBLocalFilesAreNamed(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files []string
		args  []string
		found []string // in the warning; none: no warning
	}{
		{"shared", []string{"shared-local-instance.db"}, []string{"-sharedDb"}, []string{"shared-local-instance.db"}},
		{"per account", []string{"AKIDLOCAL_us-east-1.db", "fakeMyKeyId_localhost.db"}, nil, []string{"AKIDLOCAL_us-east-1.db", "fakeMyKeyId_localhost.db"}},
		{"both, and others", []string{"shared-local-instance.db", "dummy_eu-west-1.db", "notes.db", "a_b.txt", "x.y_z.db"}, []string{"-sharedDb"}, []string{"dummy_eu-west-1.db", "shared-local-instance.db"}},
		{"none", []string{"notes.db", "my-key_us-east-1.db"}, []string{"-sharedDb"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range tc.files {
				if err := os.WriteFile(filepath.Join(dir, f), []byte("SQLite format 3\x00"), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			p := testserver.StartProcess(t, append(tc.args, "-dbPath", dir)...)
			log := p.Log()
			if tc.found == nil {
				if strings.Contains(log, "DynamoDB Local's") {
					t.Errorf("a warning without DynamoDB Local's files:\n%s", log)
				}
				return
			}
			m := regexp.MustCompile(`level=WARN msg="the data directory holds DynamoDB Local's SQLite files, which dynago does not read[^"]*" files=(\S+) dir=(\S+) dynago_data=(\S+)`).FindStringSubmatch(log)
			if m == nil {
				t.Fatalf("no warning in the log:\n%s", log)
			}
			if m[1] != strings.Join(tc.found, ",") || m[2] != dir || m[3] != dir {
				t.Errorf("warning names files %s in %s, data in %s; want %v in %s", m[1], m[2], m[3], tc.found, dir)
			}
			plain := "dynago: " + dir + " holds DynamoDB Local's database files (" + strings.Join(tc.found, ", ") + "). dynago does not read them"
			if !strings.Contains(log, plain) || !strings.Contains(log, "keeps in its own format in the same directory") {
				t.Errorf("no plain words on stderr saying %q:\n%s", plain, log)
			}
		})
	}
}

// TestJavaLaunchServes checks that the command of DynamoDB Local's
// container image, the java arguments before its own flags, starts the
// server as those flags alone do. The commands are those AWS's DynamoDB
// Local guide gives for its image ("-jar DynamoDBLocal.jar -sharedDb
// -dbPath ./data" in its docker compose example,
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/DynamoDBLocal.DownloadingAndRunning.html)
// and the JVM options its users add (-Xmx256m, -Djava.library.path).
func TestJavaLaunchServes(t *testing.T) {
	for _, tc := range []struct {
		args string
		rest string // the flags serve gets; "-" when not DynamoDB Local's java command line
	}{
		{"-jar DynamoDBLocal.jar -sharedDb -dbPath ./data", "-sharedDb -dbPath ./data"},
		{"-jar DynamoDBLocal.jar -inMemory", "-inMemory"},
		{"-jar DynamoDBLocal.jar", ""},
		{"-Xmx256m -jar DynamoDBLocal.jar -inMemory -sharedDb", "-inMemory -sharedDb"},
		{"-Djava.library.path=./DynamoDBLocal_lib -jar ./DynamoDBLocal.jar -port 8001", "-port 8001"},
		{"-jar other.jar -inMemory", "-"},
		{"-jar", "-"},
		{"-inMemory -jar DynamoDBLocal.jar", "-"},
		{"-sharedDb", "-"},
	} {
		rest, ok := javaLaunch(strings.Fields(tc.args))
		got := strings.Join(rest, " ")
		if !ok {
			got = "-"
		}
		if got != tc.rest {
			t.Errorf("javaLaunch(%q) = %q; want %q", tc.args, got, tc.rest)
		}
	}
	env := &Env{Stdout: io.Discard, Stderr: io.Discard}
	v, rest, ok := findVerb(env, strings.Fields("-Xmx256m -jar DynamoDBLocal.jar -sharedDb -port 8001"))
	if !ok || v.name != "serve" || strings.Join(rest, " ") != "-sharedDb -port 8001" {
		t.Errorf("findVerb of a java command line: %q %q %v; want serve with -sharedDb -port 8001", v.name, rest, ok)
	}
}

// TestServeDefaultsFromEnvironment checks that DYNAGO_HOST and
// DYNAGO_DATA_DIR give --host and --data-dir their defaults (the
// container image sets them), that flags still win, and that -dbPath is
// not refused as naming another directory than a default.
func TestServeDefaultsFromEnvironment(t *testing.T) {
	for _, tc := range []struct {
		host, dataDir string // the environment
		args          []string
		wantHost      string
		wantDataDir   string
	}{
		{"", "", nil, "127.0.0.1", "./dynago-data"},
		{"0.0.0.0", "/data", nil, "0.0.0.0", "/data"},
		{"0.0.0.0", "/data", []string{"--host", "127.0.0.1", "--data-dir", "d"}, "127.0.0.1", "d"},
		{"0.0.0.0", "/data", []string{"-sharedDb", "-dbPath", "./data"}, "0.0.0.0", "./data"},
	} {
		t.Setenv("DYNAGO_HOST", tc.host)
		t.Setenv("DYNAGO_DATA_DIR", tc.dataDir)
		var c serveConfig
		fs := serveFlags(&Env{Stdout: io.Discard, Stderr: io.Discard}, &c)
		if err := fs.Parse(tc.args); err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		if err := c.resolveLocal(fs); err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		if c.host != tc.wantHost || c.dataDir != tc.wantDataDir {
			t.Errorf("DYNAGO_HOST=%q DYNAGO_DATA_DIR=%q %v: host %q, data dir %q; want %q, %q",
				tc.host, tc.dataDir, tc.args, c.host, c.dataDir, tc.wantHost, tc.wantDataDir)
		}
	}
}

// TestDynamoDBLocalImageCommandLines starts dynago with the command lines
// of DynamoDB Local's container image, java options and jar included
// (AWS's DynamoDB Local guide runs its image with "-jar DynamoDBLocal.jar
// -sharedDb -dbPath ./data" in its docker compose example,
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/DynamoDBLocal.DownloadingAndRunning.html),
// with and without the environment dynago's image sets (DYNAGO_HOST,
// DYNAGO_DATA_DIR), and drives each through the SDK: where it listens,
// where its data goes, and a table created, an item put and read back.
func TestDynamoDBLocalImageCommandLines(t *testing.T) {
	for _, tc := range []struct {
		name      string
		image     bool // with DYNAGO_HOST=0.0.0.0 and DYNAGO_DATA_DIR=volume, as in the image
		args      string
		everyAddr bool   // listening on every address, not only loopback
		dataIn    string // the folder under the test's directory the data must land in; "" in memory
	}{
		{name: "the jar and its flags", image: true, args: "-jar DynamoDBLocal.jar -sharedDb", everyAddr: true, dataIn: "volume"},
		{name: "java options, the jar and -dbPath", image: true, args: "-Xmx256m -Djava.library.path=./DynamoDBLocal_lib -jar DynamoDBLocal.jar -sharedDb -dbPath ./data", everyAddr: true, dataIn: "data"},
		{name: "the jar and -inMemory", image: true, args: "-jar DynamoDBLocal.jar -inMemory -sharedDb", everyAddr: true},
		{name: "without the image's environment", args: "-jar DynamoDBLocal.jar -inMemory -sharedDb"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			host, dataDir := "", ""
			if tc.image {
				host, dataDir = "0.0.0.0", filepath.Join(dir, "volume")
			}
			t.Setenv("DYNAGO_HOST", host)
			t.Setenv("DYNAGO_DATA_DIR", dataDir)
			p := startLocal(t, dir, append(strings.Fields(tc.args), "-port", "0")...)
			m := servingRE.FindStringSubmatch(p.Log())
			if m == nil {
				t.Fatalf("no address in the log:\n%s", p.Log())
			}
			if every := loopbackAddr(m[1]) != m[1]; every != tc.everyAddr {
				t.Errorf("listening on %s; want every address %v", m[1], tc.everyAddr)
			}
			c := testserver.NewClient(p.url)
			ctx := context.Background()
			if _, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
				TableName:            aws.String("Music"),
				AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("Artist"), AttributeType: types.ScalarAttributeTypeS}},
				KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("Artist"), KeyType: types.KeyTypeHash}},
				BillingMode:          types.BillingModePayPerRequest,
			}); err != nil {
				t.Fatalf("CreateTable: %v\n%s", err, p.Log())
			}
			item := map[string]types.AttributeValue{"Artist": &types.AttributeValueMemberS{Value: "No One You Know"}}
			if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Music"), Item: item}); err != nil {
				t.Fatalf("PutItem: %v", err)
			}
			got, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("Music"), Key: item})
			if err != nil || got.Item["Artist"] == nil || got.Item["Artist"].(*types.AttributeValueMemberS).Value != "No One You Know" {
				t.Fatalf("GetItem: %v, %v", got, err)
			}
			if tc.dataIn == "" {
				if !strings.Contains(p.Log(), `data="in memory"`) {
					t.Errorf("the log does not say the data is in memory:\n%s", p.Log())
				}
				return
			}
			entries, err := os.ReadDir(filepath.Join(dir, tc.dataIn))
			if err != nil || len(entries) == 0 {
				t.Errorf("%s holds %d files, %v; want the data there\n%s", tc.dataIn, len(entries), err, p.Log())
			}
		})
	}
}
