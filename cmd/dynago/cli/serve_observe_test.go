package cli

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"errors"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/dynago/dynago/engine"
	"github.com/dynago/dynago/internal/pgtest"
	"github.com/dynago/dynago/testserver"
)

// get fetches url and returns its status and body.
func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// sample returns the value of one series in a metrics page, -1 if absent.
func sample(page, series string) float64 {
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(series) + ` (\S+)$`).FindStringSubmatch(page)
	if m == nil {
		return -1
	}
	v, _ := strconv.ParseFloat(m[1], 64)
	return v
}

// TestServeMetricsMoveWithRequests scrapes /metrics of a real dynago
// serve before and after requests made through the SDK: request counts by
// operation and outcome, units by table, items, and the store's figures
// all move; and the debug log in JSON has one line per request without
// the request's signature.
func TestServeMetricsMoveWithRequests(t *testing.T) {
	p := testserver.StartProcess(t, "--in-memory", "--log-level", "debug", "--log-format", "json")
	c := p.Client()
	ctx := context.Background()
	createTable(t, c, "metered")
	_, before := get(t, p.URL+"/metrics")
	if v := sample(before, `dynago_requests_total{operation="CreateTable",outcome="ok"}`); v != 1 {
		t.Fatalf("CreateTable counted %v before the puts, want 1", v)
	}
	for i := range 3 {
		if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("metered"), Item: map[string]types.AttributeValue{
			"pk": &types.AttributeValueMemberS{Value: strconv.Itoa(i)}}}); err != nil {
			t.Fatal(err)
		}
	}
	_, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("missing"), Key: map[string]types.AttributeValue{
		"pk": &types.AttributeValueMemberS{Value: "x"}}})
	var nf *types.ResourceNotFoundException
	if !errors.As(err, &nf) {
		t.Fatalf("GetItem on a missing table: %v", err)
	}
	_, after := get(t, p.URL+"/metrics")
	for series, want := range map[string]float64{
		`dynago_requests_total{operation="PutItem",outcome="ok"}`:                        3,
		`dynago_requests_total{operation="GetItem",outcome="ResourceNotFoundException"}`: 1,
		`dynago_request_duration_seconds_count{operation="PutItem"}`:                     3,
		`dynago_consumed_write_units_total{index="",table="metered"}`:                    3,
		`dynago_table_items{table="metered"}`:                                            3,
	} {
		if got := sample(after, series); got != want {
			t.Errorf("%s = %v, want %v", series, got, want)
		}
	}
	// The store's own figures: Pebble's, or PostgreSQL's when the suite
	// runs on it (DYNAGO_TEST_STORE=postgres).
	if sample(after, "dynago_store_pebble_memtable_bytes") <= 0 && sample(after, "dynago_store_pg_statements_total") <= 0 {
		t.Errorf("no store figures in /metrics")
	}

	var lines []map[string]any
	for _, l := range strings.Split(p.Log(), "\n") {
		var m map[string]any
		if json.Unmarshal([]byte(l), &m) == nil && m["msg"] == "request" {
			lines = append(lines, m)
		}
	}
	puts := 0
	for _, l := range lines {
		if l["operation"] == "PutItem" && l["table"] == "metered" && l["status"] == 200.0 && l["units"] == 1.0 && l["request_id"] != "" {
			puts++
		}
	}
	if puts != 3 {
		t.Errorf("%d PutItem request lines with table, status, units and request id; want 3:\n%s", puts, p.Log())
	}
	if strings.Contains(p.Log(), "SECRETTEST") || strings.Contains(p.Log(), "Signature=") || strings.Contains(p.Log(), "AKIDTEST") {
		t.Errorf("the log holds credentials or a signature:\n%s", p.Log())
	}
}

// TestServeMetricsConsoleAndPprofPlaces checks where each is served: with
// --metrics off and --console off neither is on the API's port; metrics on
// an address of their own and --pprof are on listeners apart.
func TestServeMetricsConsoleAndPprofPlaces(t *testing.T) {
	on := testserver.StartProcess(t, "--in-memory")
	if code, body := get(t, on.URL+"/console/"); code != 200 || !strings.Contains(body, "<html") {
		t.Errorf("GET /console/ by default: %d %.80q", code, body)
	}
	if code, _ := get(t, on.URL+"/debug/pprof/"); code != 404 {
		t.Errorf("pprof on the API's port without --pprof: %d", code)
	}

	off := testserver.StartProcess(t, "--in-memory", "--metrics", "127.0.0.1:0", "--console", "off", "--pprof", "127.0.0.1:0")
	if code, _ := get(t, off.URL+"/metrics"); code != 404 {
		t.Errorf("GET /metrics on the API's port with --metrics ADDR: %d, want 404", code)
	}
	if code, _ := get(t, off.URL+"/console/"); code != 404 {
		t.Errorf("GET /console/ with --console off: %d, want 404", code)
	}
	addrOf := func(what string) string {
		m := regexp.MustCompile(`msg="` + what + ` serving" addr=(http://[0-9.:]+)`).FindStringSubmatch(off.Log())
		if m == nil {
			t.Fatalf("no %q serving line:\n%s", what, off.Log())
		}
		return m[1]
	}
	if code, body := get(t, addrOf("metrics")+"/metrics"); code != 200 || !strings.Contains(body, "go_goroutines") {
		t.Errorf("metrics listener: %d %.80q", code, body)
	}
	if code, body := get(t, addrOf("pprof")+"/debug/pprof/"); code != 200 || !strings.Contains(body, "goroutine") {
		t.Errorf("pprof listener: %d %.80q", code, body)
	}
}

// unsignedListTables sends a ListTables with no signature at all and
// returns the status and body of the answer.
func unsignedListTables(t *testing.T, url string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader("{}"))
	req.Header.Set("X-Amz-Target", "DynamoDB_20120810.ListTables")
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// signedClient is an SDK client for url with the given credentials.
func signedClient(url, key, secret string, hc *http.Client) *dynamodb.Client {
	o := dynamodb.Options{
		Region:       "us-east-1",
		BaseEndpoint: aws.String(url),
		Credentials:  credentials.NewStaticCredentialsProvider(key, secret, ""),
		Retryer:      aws.NopRetryer{},
	}
	if hc != nil {
		o.HTTPClient = hc
	}
	return dynamodb.New(o)
}

// TestServeAuth starts dynago serve --auth with a credentials file and
// checks the SDK, the AWS CLI and boto3 with right and wrong credentials.
// The messages are DynamoDB's (server/sigv4 cites them).
func TestServeAuth(t *testing.T) {
	file := filepath.Join(t.TempDir(), "credentials")
	if err := os.WriteFile(file, []byte("# who may call\nAKIDRIGHT right-secret 123456789012\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p := testserver.StartProcess(t, "--in-memory", "--auth", file)
	ctx := context.Background()
	if _, err := signedClient(p.URL, "AKIDRIGHT", "right-secret", nil).ListTables(ctx, &dynamodb.ListTablesInput{}); err != nil {
		t.Fatalf("right credentials: %v", err)
	}
	for _, c := range []struct{ key, secret, code string }{
		{"AKIDRIGHT", "wrong-secret", "InvalidSignatureException"},
		{"AKIDUNKNOWN", "right-secret", "UnrecognizedClientException"},
	} {
		_, err := signedClient(p.URL, c.key, c.secret, nil).ListTables(ctx, &dynamodb.ListTablesInput{})
		var ae smithy.APIError
		if !errors.As(err, &ae) || ae.ErrorCode() != c.code {
			t.Errorf("key %s secret %s: %v, want %s", c.key, c.secret, err, c.code)
		}
	}
	if code, body := unsignedListTables(t, p.URL); code != 400 || !strings.Contains(body, "MissingAuthenticationTokenException") {
		t.Errorf("unsigned POST: %d %s", code, body)
	}

	if _, err := exec.LookPath("aws"); err == nil {
		run := func(secret string) (string, error) {
			cmd := exec.Command("aws", "dynamodb", "list-tables", "--endpoint-url", p.URL, "--region", "us-east-1", "--output", "json")
			cmd.Env = append(os.Environ(), "AWS_ACCESS_KEY_ID=AKIDRIGHT", "AWS_SECRET_ACCESS_KEY="+secret,
				"AWS_CONFIG_FILE=/dev/null", "AWS_SHARED_CREDENTIALS_FILE=/dev/null", "AWS_MAX_ATTEMPTS=1")
			out, err := cmd.CombinedOutput()
			return string(out), err
		}
		if out, err := run("right-secret"); err != nil {
			t.Errorf("AWS CLI, right secret: %v\n%s", err, out)
		}
		if out, err := run("wrong-secret"); err == nil || !strings.Contains(out, "InvalidSignatureException") {
			t.Errorf("AWS CLI, wrong secret: %v\n%s", err, out)
		}
	} else {
		t.Log("the AWS CLI is not on PATH; its part of the test did not run")
	}
	if py, err := exec.LookPath("python3"); err == nil && exec.Command(py, "-c", "import boto3").Run() == nil {
		script := `
import sys, boto3, botocore
c = boto3.client("dynamodb", endpoint_url=sys.argv[1], region_name="us-east-1",
    aws_access_key_id="AKIDRIGHT", aws_secret_access_key=sys.argv[2],
    config=botocore.config.Config(retries={"max_attempts": 0}))
try:
    c.list_tables()
    print("ok")
except botocore.exceptions.ClientError as e:
    print(e.response["Error"]["Code"])
`
		for secret, want := range map[string]string{"right-secret": "ok", "wrong-secret": "InvalidSignatureException"} {
			out, err := exec.Command(py, "-c", script, p.URL, secret).CombinedOutput()
			if err != nil || strings.TrimSpace(string(out)) != want {
				t.Errorf("boto3 with %s: %v %s, want %s", secret, err, out, want)
			}
		}
	} else {
		t.Log("python3 with boto3 is not available; its part of the test did not run")
	}
}

// selfSigned writes a certificate for 127.0.0.1 and its key, PEM, into
// dir and returns their paths.
func selfSigned(t *testing.T, dir string) (certFile, keyFile string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "dynago test"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		IPAddresses:           []net.IP{net.ParseIP("127.0.0.1")},
		DNSNames:              []string{"localhost"},
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kb, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600); err != nil {
		t.Fatal(err)
	}
	return certFile, keyFile
}

// TestServeTLS serves HTTPS with a certificate the clients are told to
// trust: the SDK, the AWS CLI (--ca-bundle) and boto3 (verify=) work; a
// client that does not trust it fails.
func TestServeTLS(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile := selfSigned(t, dir)
	p := testserver.StartProcess(t, "--in-memory", "--tls-cert", certFile, "--tls-key", keyFile)
	if !strings.HasPrefix(p.URL, "https://") {
		t.Fatalf("server URL %s is not https", p.URL)
	}
	pemBytes, _ := os.ReadFile(certFile)
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(pemBytes)
	trusting := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	ctx := context.Background()
	c := signedClient(p.URL, "AKIDANY", "any", trusting)
	createTable(t, c, "secured")
	out, err := c.ListTables(ctx, &dynamodb.ListTablesInput{})
	if err != nil || len(out.TableNames) != 1 {
		t.Fatalf("ListTables over TLS: %v %v", out, err)
	}
	if _, err := signedClient(p.URL, "AKIDANY", "any", &http.Client{}).ListTables(ctx, &dynamodb.ListTablesInput{}); err == nil {
		t.Error("a client that does not trust the certificate connected")
	}
	if _, err := exec.LookPath("aws"); err == nil {
		cmd := exec.Command("aws", "dynamodb", "list-tables", "--endpoint-url", p.URL, "--region", "us-east-1", "--ca-bundle", certFile, "--output", "json")
		cmd.Env = append(os.Environ(), "AWS_ACCESS_KEY_ID=AKIDANY", "AWS_SECRET_ACCESS_KEY=any", "AWS_CONFIG_FILE=/dev/null", "AWS_SHARED_CREDENTIALS_FILE=/dev/null")
		if b, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(b), "secured") {
			t.Errorf("AWS CLI over TLS: %v\n%s", err, b)
		}
	} else {
		t.Log("the AWS CLI is not on PATH; its part of the test did not run")
	}
	if py, err := exec.LookPath("python3"); err == nil && exec.Command(py, "-c", "import boto3").Run() == nil {
		script := `
import sys, boto3
c = boto3.client("dynamodb", endpoint_url=sys.argv[1], region_name="us-east-1", verify=sys.argv[2],
    aws_access_key_id="AKIDANY", aws_secret_access_key="any")
print(",".join(c.list_tables()["TableNames"]))
`
		if b, err := exec.Command(py, "-c", script, p.URL, certFile).CombinedOutput(); err != nil || strings.TrimSpace(string(b)) != "secured" {
			t.Errorf("boto3 over TLS: %v\n%s", err, b)
		}
	} else {
		t.Log("python3 with boto3 is not available; its part of the test did not run")
	}
}

// consoleCapacity asks the console's capacity endpoint as the holder of
// access key key would: the namespace comes from the Credential of the
// Authorization header (not checked without --auth).
func consoleCapacity(t *testing.T, url, key string) string {
	t.Helper()
	req, _ := http.NewRequest("POST", url+"/console/api/capacity", strings.NewReader("{}"))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential="+key+"/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=00")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("capacity as %s: %d %s", key, resp.StatusCode, b)
	}
	return string(b)
}

// TestServeConsoleCapacityPerNamespace checks that with a database per
// access key the console's capacity chart of one key never shows another
// key's tables.
func TestServeConsoleCapacityPerNamespace(t *testing.T) {
	// A directory: a PostgreSQL --store refuses account-region.
	p := testserver.StartProcess(t, "--data-dir", t.TempDir(), "--namespace", "account-region")
	ctx := context.Background()
	a := signedClient(p.URL, "AKIDAAAA", "x", nil)
	consoleCapacity(t, p.URL, "AKIDAAAA") // starts A's recorder
	consoleCapacity(t, p.URL, "AKIDBBBB") // and B's
	createTable(t, a, "only-a")
	// The recorder samples every 5 seconds; wait (up to a minute) for the
	// interval holding A's writes.
	deadline := time.Now().Add(time.Minute)
	for {
		if _, err := a.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("only-a"), Item: map[string]types.AttributeValue{
			"pk": &types.AttributeValueMemberS{Value: "k"}}}); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(consoleCapacity(t, p.URL, "AKIDAAAA"), `"only-a"`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("A's capacity never showed its table")
		}
		time.Sleep(500 * time.Millisecond)
	}
	if b := consoleCapacity(t, p.URL, "AKIDBBBB"); strings.Contains(b, "only-a") {
		t.Errorf("B's capacity shows A's table: %s", b)
	}
}

// TestServeAuthAccountsInNamespaceARNs: with --auth and --namespace
// account-region, a namespace's ARNs carry the account the credentials
// file gives its key (docs/AUTH.md), dynago's default account for a key
// listed without one, and a tag operation on that ARN finds the table.
func TestServeAuthAccountsInNamespaceARNs(t *testing.T) {
	file := filepath.Join(t.TempDir(), "credentials")
	if err := os.WriteFile(file, []byte("AKIDWITHACCOUNT secret-one 123456789012\nAKIDNOACCOUNT secret-two\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// A directory: a PostgreSQL --store refuses account-region.
	p := testserver.StartProcess(t, "--data-dir", t.TempDir(), "--namespace", "account-region", "--auth", file)
	ctx := context.Background()
	for _, c := range []struct{ key, secret, account string }{
		{"AKIDWITHACCOUNT", "secret-one", "123456789012"},
		{"AKIDNOACCOUNT", "secret-two", engine.DefaultAccountID},
	} {
		client := signedClient(p.URL, c.key, c.secret, nil)
		createTable(t, client, "arned")
		d, err := client.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("arned")})
		if err != nil {
			t.Fatal(err)
		}
		want := "arn:aws:dynamodb:us-east-1:" + c.account + ":table/arned"
		if got := aws.ToString(d.Table.TableArn); got != want {
			t.Errorf("%s: TableArn %s, want %s", c.key, got, want)
		}
		if _, err := client.TagResource(ctx, &dynamodb.TagResourceInput{ResourceArn: aws.String(want),
			Tags: []types.Tag{{Key: aws.String("k"), Value: aws.String("v")}}}); err != nil {
			t.Errorf("%s: TagResource on its own ARN: %v", c.key, err)
		}
	}
}

// getHost fetches url with the given Host header and returns the status
// and body.
func getHost(t *testing.T, url, host string) (int, string) {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Host = host
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestServeEveryListenerChecksHost: a web page that rebinds its own name
// to 127.0.0.1 must read nothing from a local dynago, on any of its
// listeners. /metrics names every namespace's tables, and the profiler
// shows the command line, which may hold the database's password.
func TestServeEveryListenerChecksHost(t *testing.T) {
	const evil = "rebound.example:8000"
	on := testserver.StartProcess(t, "--in-memory")
	for _, path := range []string{"/metrics", "/console/", "/"} {
		if code, body := getHost(t, on.URL+path, evil); code != http.StatusForbidden {
			t.Errorf("GET %s for Host %s on the API's port: %d %.80q, want 403", path, evil, code, body)
		}
		if code, _ := getHost(t, on.URL+path, "localhost"); code != http.StatusOK {
			t.Errorf("GET %s for Host localhost on the API's port: %d, want 200", path, code)
		}
	}

	args := []string{"--metrics", "127.0.0.1:0", "--pprof", "127.0.0.1:0"}
	secret := ""
	if os.Getenv(pgtest.EnvURL) != "" {
		// A password in the --store URL: trust authentication ignores
		// it, and the profiler must not show it.
		url, schema := pgtest.Schema(t)
		secret = "s3cret-Pa55"
		withPass := strings.Replace(url, "postgres://postgres@", "postgres://postgres:"+secret+"@", 1)
		if withPass == url {
			t.Fatalf("DYNAGO_TEST_POSTGRES %q has no postgres:// user to give a password to", url)
		}
		args = append(args, "--store", withPass, "--store-schema", schema)
	} else {
		args = append(args, "--in-memory")
	}
	side := testserver.StartProcess(t, args...)
	addrOf := func(what string) string {
		m := regexp.MustCompile(`msg="` + what + ` serving" addr=(http://[0-9.:]+)`).FindStringSubmatch(side.Log())
		if m == nil {
			t.Fatalf("no %q serving line:\n%s", what, side.Log())
		}
		return m[1]
	}
	for _, url := range []string{addrOf("metrics") + "/metrics", addrOf("pprof") + "/debug/pprof/", addrOf("pprof") + "/debug/pprof/cmdline"} {
		if code, body := getHost(t, url, evil); code != http.StatusForbidden {
			t.Errorf("GET %s for Host %s: %d %.80q, want 403", url, evil, code, body)
		}
		if code, _ := getHost(t, url, "127.0.0.1"); code != http.StatusOK {
			t.Errorf("GET %s for Host 127.0.0.1: %d, want 200", url, code)
		}
	}
	code, cmdline := getHost(t, addrOf("pprof")+"/debug/pprof/cmdline", "localhost")
	if code != http.StatusOK || !strings.Contains(cmdline, "serve") {
		t.Fatalf("pprof cmdline: %d %q", code, cmdline)
	}
	if secret != "" {
		if strings.Contains(cmdline, secret) || strings.Contains(side.Log(), secret) {
			t.Errorf("the --store password shows in the profiler's command line or the log: %q", cmdline)
		}
		if !strings.Contains(cmdline, "postgres:"+redacted+"@") {
			t.Errorf("pprof cmdline %q: the password is not replaced by %s", cmdline, redacted)
		}
	}
}

func TestRedactArgs(t *testing.T) {
	for in, want := range map[string]string{
		"postgres://app:hunter2@db:5432/x?sslmode=require":   "postgres://app:REDACTED@db:5432/x?sslmode=require",
		"postgresql://app@db/x":                              "postgresql://app@db/x",
		"host=db user=app password=hunter2 dbname=x":         "host=db user=app password=REDACTED dbname=x",
		"host=db password='a b\\' c' sslpassword=k dbname=x": "host=db password=REDACTED sslpassword=REDACTED dbname=x",
		"postgres://db/x?password=hunter2&sslmode=disable":   "postgres://db/x?password=REDACTED&sslmode=disable",
		"--in-memory": "--in-memory",
	} {
		if got := redactArg(in); got != want {
			t.Errorf("redactArg(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestServeConsoleInfo: serve tells the console whether it keeps a
// database per access key and region, and whether it checks signatures,
// so that the page says what is true of it (DynamoDB Local without
// -sharedDb checks no signature but keeps a database per key id and
// region, the usage notes:
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/DynamoDBLocal.UsageNotes.html).
func TestServeConsoleInfo(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"shared", []string{"--in-memory"}, `"namespaces":"shared","plan":true,"signatures":false}`},
		{"per key and region", []string{"--data-dir", t.TempDir(), "--namespace", "account-region"}, `"namespaces":"account-region","plan":true,"signatures":false}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := testserver.StartProcess(t, tc.args...)
			resp, err := http.Post(p.URL+"/console/api/info", "application/json", strings.NewReader("{}"))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != 200 || !strings.HasSuffix(strings.TrimSpace(string(b)), tc.want) {
				t.Errorf("info: %d %s, want it to end %s", resp.StatusCode, b, tc.want)
			}
		})
	}
}
