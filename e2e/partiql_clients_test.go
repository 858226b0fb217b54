package e2e

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

// PartiQL through the AWS CLI and boto3. The CLI's rendering of an INSERT
// of an existing key is the one AWS's developer guide shows for
// `aws dynamodb execute-statement` ("PartiQL insert statements for
// DynamoDB"): "An error occurred (DuplicateItemException) when calling the
// ExecuteStatement operation: Duplicate primary key exists in table". A
// batch slot's error carries its TableName: AWS's API reference,
// BatchStatementResponse ("The table name associated with a failed PartiQL
// batch statement").

func TestPartiQLAWSCLI(t *testing.T) {
	needsWire(t)
	if _, err := exec.LookPath("aws"); err != nil {
		t.Skip("the AWS CLI (aws) is not on PATH; skipping the CLI test")
	}
	s, c := start(t)
	createRange(t, c, "Music", "S")
	env := isolatedEnv(t)
	run := func(args ...string) (map[string]any, string, error) {
		cmd := exec.Command("aws", append([]string{"dynamodb"}, append(args, "--endpoint-url", s.URL, "--output", "json")...)...)
		cmd.Env = env
		out, err := cmd.Output()
		if err != nil {
			if ee, ok := err.(*exec.ExitError); ok {
				return nil, string(ee.Stderr), err
			}
			return nil, "", err
		}
		var v map[string]any
		if strings.TrimSpace(string(out)) != "" {
			if err := json.Unmarshal(out, &v); err != nil {
				t.Fatalf("aws %v printed non-JSON %q", args, out)
			}
		}
		return v, "", nil
	}
	insert := `INSERT INTO Music VALUE {'pk':'Acme Band','sk':'PartiQL Rocks','Awards':'8'}`
	out, stderr, err := run("execute-statement", "--statement", insert)
	if err != nil {
		t.Fatalf("insert: %v %s", err, stderr)
	}
	jsonEqual(t, mustJSON(t, out), `{"Items":[]}`)
	_, stderr, err = run("execute-statement", "--statement", insert)
	if err == nil || !strings.Contains(stderr, "An error occurred (DuplicateItemException) when calling the ExecuteStatement operation: Duplicate primary key exists in table") {
		t.Fatalf("second insert: %v %s", err, stderr)
	}
	out, stderr, err = run("execute-statement", "--statement", `SELECT Awards FROM Music WHERE pk = ? AND sk = ?`,
		"--parameters", `[{"S":"Acme Band"},{"S":"PartiQL Rocks"}]`, "--return-consumed-capacity", "TOTAL")
	if err != nil {
		t.Fatalf("select: %v %s", err, stderr)
	}
	jsonEqual(t, mustJSON(t, out), `{"Items":[{"Awards":{"S":"8"}}],"ConsumedCapacity":{"TableName":"Music","CapacityUnits":0.5}}`)
	out, stderr, err = run("batch-execute-statement", "--statements",
		`[{"Statement":"UPDATE Music SET Awards = '9' WHERE pk = 'Acme Band' AND sk = 'PartiQL Rocks'"},{"Statement":"INSERT INTO Music VALUE {'pk':'Acme Band','sk':'PartiQL Rocks'}"}]`)
	if err != nil {
		t.Fatalf("batch: %v %s", err, stderr)
	}
	jsonEqual(t, mustJSON(t, out), `{"Responses":[{"TableName":"Music"},{"Error":{"Code":"DuplicateItem","Message":"Duplicate primary key exists in table"},"TableName":"Music"}]}`)
}

// boto3PartiQLScript pages a SELECT with Limit and NextToken, and runs a
// transaction that is cancelled with a reason per statement.
const boto3PartiQLScript = `
import sys, boto3
from botocore.exceptions import ClientError
c = boto3.client("dynamodb", endpoint_url=sys.argv[1])
c.create_table(TableName="qltab", BillingMode="PAY_PER_REQUEST",
    AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "N"}],
    KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}])
for i in range(5):
    c.execute_statement(Statement="INSERT INTO qltab VALUE {'pk': 'p', 'sk': ?}", Parameters=[{"N": str(i)}])
seen, token = [], None
while True:
    kw = {"Statement": "SELECT sk FROM qltab WHERE pk = 'p' ORDER BY sk DESC", "Limit": 2}
    if token:
        kw["NextToken"] = token
    r = c.execute_statement(**kw)
    seen += [i["sk"]["N"] for i in r["Items"]]
    token = r.get("NextToken")
    if not token:
        break
assert seen == ["4", "3", "2", "1", "0"], seen
try:
    c.execute_transaction(TransactStatements=[
        {"Statement": "UPDATE qltab SET a = 1 WHERE pk = 'p' AND sk = 1"},
        {"Statement": "UPDATE qltab SET a = 1 WHERE pk = 'p' AND sk = 9"}])
    raise SystemExit("the transaction was not cancelled")
except ClientError as e:
    assert e.response["Error"]["Code"] == "TransactionCanceledException", e.response
    codes = [r["Code"] for r in e.response["CancellationReasons"]]
    assert codes == ["None", "ConditionalCheckFailed"], codes
print("boto3 ok")
`

func TestPartiQLBoto3(t *testing.T) {
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
	cmd := exec.Command(py, "-c", boto3PartiQLScript, s.URL)
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "boto3 ok") {
		t.Fatalf("boto3 script: %v\n%s", err, out)
	}
}
