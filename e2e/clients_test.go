package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// isolatedEnv is an environment for an AWS client process that reads no
// configuration of the machine's user: dummy credentials, a fixed region,
// no instance metadata, and a throwaway home.
func isolatedEnv(t *testing.T) []string {
	home := t.TempDir()
	env := []string{
		"HOME=" + home,
		"PATH=" + os.Getenv("PATH"),
		"AWS_ACCESS_KEY_ID=x",
		"AWS_SECRET_ACCESS_KEY=x",
		"AWS_DEFAULT_REGION=us-east-1",
		"AWS_EC2_METADATA_DISABLED=true",
		"AWS_CONFIG_FILE=" + filepath.Join(home, "config"),
		"AWS_SHARED_CREDENTIALS_FILE=" + filepath.Join(home, "credentials"),
		"AWS_PAGER=",
	}
	// Interpreter managers (pyenv and the like) need their own variables
	// to find the installed interpreter.
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "PYENV") || strings.HasPrefix(kv, "VIRTUAL_ENV=") || strings.HasPrefix(kv, "PYTHONPATH=") {
			env = append(env, kv)
		}
	}
	return env
}

// TestAWSCLI drives the server with the AWS CLI and checks its JSON output.
func TestAWSCLI(t *testing.T) {
	needsWire(t)
	if _, err := exec.LookPath("aws"); err != nil {
		t.Skip("the AWS CLI (aws) is not on PATH; skipping the CLI test")
	}
	s, _ := start(t)
	env := isolatedEnv(t)
	run := func(args ...string) map[string]any {
		t.Helper()
		cmd := exec.Command("aws", append([]string{"dynamodb"}, append(args, "--endpoint-url", s.URL, "--output", "json")...)...)
		cmd.Env = env
		out, err := cmd.Output()
		if err != nil {
			var stderr []byte
			if ee, ok := err.(*exec.ExitError); ok {
				stderr = ee.Stderr
			}
			t.Fatalf("aws %v: %v\n%s%s", args, err, out, stderr)
		}
		var v map[string]any
		if len(strings.TrimSpace(string(out))) == 0 {
			return nil
		}
		if err := json.Unmarshal(out, &v); err != nil {
			t.Fatalf("aws %v printed non-JSON %q", args, out)
		}
		return v
	}
	get := func(v any, path ...string) any {
		for _, p := range path {
			m, _ := v.(map[string]any)
			v = m[p]
		}
		return v
	}

	out := run("create-table", "--table-name", "cli", "--billing-mode", "PAY_PER_REQUEST",
		"--attribute-definitions", "AttributeName=pk,AttributeType=S",
		"--key-schema", "AttributeName=pk,KeyType=HASH")
	if get(out, "TableDescription", "TableName") != "cli" || get(out, "TableDescription", "TableArn") != tableARN("cli") ||
		get(out, "TableDescription", "BillingModeSummary", "BillingMode") != "PAY_PER_REQUEST" {
		t.Fatalf("create-table printed %v", out)
	}
	if out := run("put-item", "--table-name", "cli", "--item", `{"pk":{"S":"k"},"n":{"N":"1E+2"},"b":{"B":"AP8="},"l":{"L":[{"NULL":true},{"SS":["x"]}]}}`); out != nil {
		t.Fatalf("put-item printed %v", out)
	}
	out = run("get-item", "--table-name", "cli", "--key", `{"pk":{"S":"k"}}`, "--consistent-read", "--return-consumed-capacity", "TOTAL")
	// AWS CLI v1 takes a blob argument as raw text and encodes it: the
	// stored bytes are the four characters "AP8=".
	jsonEqual(t, mustJSON(t, out), `{"Item":{"pk":{"S":"k"},"n":{"N":"100"},"b":{"B":"QVA4PQ=="},"l":{"L":[{"NULL":true},{"SS":["x"]}]}},
		"ConsumedCapacity":{"TableName":"cli","CapacityUnits":1.0}}`)
	out = run("describe-table", "--table-name", "cli")
	if get(out, "Table", "ItemCount") != 1.0 || get(out, "Table", "TableStatus") != "ACTIVE" {
		t.Fatalf("describe-table printed %v", out)
	}
	out = run("list-tables")
	jsonEqual(t, mustJSON(t, out), `{"TableNames":["cli"]}`)
	out = run("delete-item", "--table-name", "cli", "--key", `{"pk":{"S":"k"}}`, "--return-values", "ALL_OLD")
	if get(out, "Attributes", "n", "N") != "100" {
		t.Fatalf("delete-item printed %v", out)
	}
	out = run("delete-table", "--table-name", "cli")
	if get(out, "TableDescription", "TableStatus") != "DELETING" {
		t.Fatalf("delete-table printed %v", out)
	}
	jsonEqual(t, mustJSON(t, run("list-tables")), `{"TableNames":[]}`)

	// An error reaches the CLI user with DynamoDB's code and message.
	cmd := exec.Command("aws", "dynamodb", "describe-table", "--table-name", "cli", "--endpoint-url", s.URL)
	cmd.Env = env
	msg, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(msg), "An error occurred (ResourceNotFoundException) when calling the DescribeTable operation: Requested resource not found: Table: cli not found") {
		t.Fatalf("describe-table of a deleted table: %v\n%s", err, msg)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// boto3Script exercises the server through boto3. botocore verifies the
// x-amz-crc32 header of every DynamoDB response and fails the call on a
// mismatch, so a passing run also proves the checksums.
const boto3Script = `
import sys, boto3, botocore
url = sys.argv[1]
c = boto3.client("dynamodb", endpoint_url=url, region_name="us-east-1",
                 aws_access_key_id="x", aws_secret_access_key="x",
                 config=botocore.config.Config(retries={"max_attempts": 1}))
c.create_table(TableName="pyt", BillingMode="PAY_PER_REQUEST",
               AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
               KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
c.put_item(TableName="pyt", Item={"pk": {"S": "a"}, "n": {"N": "-12.50"}, "b": {"B": b"\x00\xff"}})
got = c.get_item(TableName="pyt", Key={"pk": {"S": "a"}}, ConsistentRead=True)["Item"]
assert got == {"pk": {"S": "a"}, "n": {"N": "-12.5"}, "b": {"B": b"\x00\xff"}}, got
w = c.batch_write_item(RequestItems={"pyt": [{"PutRequest": {"Item": {"pk": {"S": str(i)}}}} for i in range(25)]},
                       ReturnConsumedCapacity="TOTAL")
assert w["UnprocessedItems"] == {}, w
assert w["ConsumedCapacity"] == [{"TableName": "pyt", "CapacityUnits": 25.0}], w["ConsumedCapacity"]
r = c.batch_get_item(RequestItems={"pyt": {"Keys": [{"pk": {"S": str(i)}} for i in range(0, 25, 5)]}})
assert sorted(i["pk"]["S"] for i in r["Responses"]["pyt"]) == ["0", "10", "15", "20", "5"], r
assert r["UnprocessedKeys"] == {}, r
try:
    c.get_item(TableName="pyt", Key={"pk": {"N": "1"}})
    raise SystemExit("GetItem with a mistyped key succeeded")
except c.exceptions.ClientError as e:
    assert e.response["Error"]["Code"] == "ValidationException", e.response
    assert e.response["Error"]["Message"] == "The provided key element does not match the schema", e.response
try:
    c.describe_table(TableName="nosuch")
    raise SystemExit("DescribeTable of a missing table succeeded")
except c.exceptions.ResourceNotFoundException as e:
    assert e.response["Error"]["Message"] == "Requested resource not found: Table: nosuch not found", e.response
c.tag_resource(ResourceArn="arn:aws:dynamodb:us-east-1:852375281893:table/pyt", Tags=[{"Key": "k", "Value": "v"}])
assert c.list_tags_of_resource(ResourceArn="arn:aws:dynamodb:us-east-1:852375281893:table/pyt")["Tags"] == [{"Key": "k", "Value": "v"}]
print("boto3 ok")
`

// TestBoto3 drives the server with Python's boto3.
func TestBoto3(t *testing.T) {
	needsWire(t)
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not on PATH; skipping the boto3 test")
	}
	env := isolatedEnv(t)
	check := exec.Command(py, "-c", "import boto3")
	check.Env = env
	if err := check.Run(); err != nil {
		t.Skip("boto3 is not installed for python3; skipping the boto3 test")
	}
	s, _ := start(t)
	cmd := exec.Command(py, "-c", boto3Script, s.URL)
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "boto3 ok") {
		t.Fatalf("boto3 script: %v\n%s", err, out)
	}
}
