package sigv4_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// clientEnv is the environment of an AWS CLI or boto3 process: only the
// given credentials, no config or credentials files of the machine, no
// instance metadata, one attempt.
func clientEnv(t *testing.T, key, secret string) []string {
	dir := t.TempDir()
	env := []string{
		"HOME=" + dir,
		"PATH=" + os.Getenv("PATH"),
		"AWS_ACCESS_KEY_ID=" + key,
		"AWS_SECRET_ACCESS_KEY=" + secret,
		"AWS_DEFAULT_REGION=us-east-1",
		"AWS_CONFIG_FILE=" + filepath.Join(dir, "config"),
		"AWS_SHARED_CREDENTIALS_FILE=" + filepath.Join(dir, "credentials"),
		"AWS_EC2_METADATA_DISABLED=true",
		"AWS_MAX_ATTEMPTS=1",
		"AWS_RETRY_MODE=standard",
	}
	// pyenv's shims need to know where pyenv lives.
	for _, k := range []string{"PYENV_ROOT", "PYENV_VERSION"} {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	return env
}

func TestAWSCLI(t *testing.T) {
	aws, err := exec.LookPath("aws")
	if err != nil {
		t.Skip("the AWS CLI is not installed")
	}
	if exec.Command(aws, "--version").Run() != nil {
		t.Skip("the AWS CLI does not run")
	}
	hs, _ := startAuthServer(t)
	run := func(key, secret string) (string, error) {
		cmd := exec.Command(aws, "dynamodb", "list-tables", "--endpoint-url", hs.URL, "--output", "json")
		cmd.Env = clientEnv(t, key, secret)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := run(goodKey, goodSecret)
	if err != nil || !strings.Contains(out, `"TableNames"`) {
		t.Fatalf("right credentials: %v\n%s", err, out)
	}
	out, err = run(goodKey, "wrong")
	// The CLI may add "(reached max retries: 0)" before the colon.
	if err == nil || !strings.Contains(out, "An error occurred (InvalidSignatureException) when calling the ListTables operation") ||
		!strings.Contains(out, ": "+invalidSignature+"\n") {
		t.Fatalf("wrong secret: %v\n%s\nwant InvalidSignatureException: %s", err, out, invalidSignature)
	}
}

const boto3Script = `
import sys, boto3, botocore.exceptions
c = boto3.client("dynamodb", endpoint_url=sys.argv[1])
try:
    print("OK", "TableNames" in c.list_tables())
except botocore.exceptions.ClientError as e:
    print("ERR", e.response["ResponseMetadata"]["HTTPStatusCode"], e.response["Error"]["Code"], e.response["Error"]["Message"])
`

func TestBoto3(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed")
	}
	if exec.Command(py, "-c", "import boto3").Run() != nil {
		t.Skip("boto3 is not installed")
	}
	hs, _ := startAuthServer(t)
	script := filepath.Join(t.TempDir(), "list_tables.py")
	if err := os.WriteFile(script, []byte(boto3Script), 0o600); err != nil {
		t.Fatal(err)
	}
	run := func(key, secret string) string {
		cmd := exec.Command(py, script, hs.URL)
		cmd.Env = clientEnv(t, key, secret)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("python3: %v\n%s", err, out)
		}
		return strings.TrimSpace(string(out))
	}
	if out := run(goodKey, goodSecret); out != "OK True" {
		t.Fatalf("right credentials: %s", out)
	}
	if out, want := run("AKIDUNKNOWN", goodSecret), "ERR 400 UnrecognizedClientException The security token included in the request is invalid."; out != want {
		t.Fatalf("unknown key:\n got %s\nwant %s", out, want)
	}
}
