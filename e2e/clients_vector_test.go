package e2e

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The AWS SDK for JavaScript v3 and boto3 against the server's vector
// search. Both run the same scenario (e2e/testdata/js/script.mjs and
// e2e/testdata/py/vector_search.py): a table with a vector index, items,
// DescribeTable and SearchVectors, given the server's endpoint. On AWS
// the SDKs send SearchVectors to a host of its own (search-dynamodb.
// <region>...); with an endpoint given, the endpoint rules give that
// endpoint to every operation (model: botocore's dynamodb
// endpoint-rule-set-1.json, parameter IsSearchOperation; aws-sdk-go-v2's
// TestEndpointCase281). So an answer from the server proves the request
// reached it.

// clientMustRun is for a client test whose tool is missing: it skips,
// but fails under CI, where .ci/run installs the tool.
func clientMustRun(t *testing.T, msg string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatal(msg + " (CI=true: .ci/run installs it)")
	}
	t.Skip(msg)
}

// vectorScenario is what the scripts print: the CreateTable and
// DescribeTable descriptions and each SearchVectors call's answer (an
// error's name and message, or the results).
type vectorScenario struct {
	Create   vectorScenarioTable `json:"create"`
	Describe vectorScenarioTable `json:"describe"`
	Calls    map[string]struct {
		Name    string `json:"name"`
		Message string `json:"message"`
		Status  int    `json:"status"`
		Result  []struct {
			Item  json.RawMessage
			Score float64
		} `json:"result"`
		Consumed map[string]any `json:"consumed"`
	} `json:"calls"`
}

type vectorScenarioTable struct {
	TableName     string
	TableStatus   string
	VectorIndexes []struct {
		IndexName        string
		IndexArn         string
		VectorAttribute  struct{ AttributeName string }
		Dimensions       int
		DistanceFunction string
		IndexStatus      string
		Backfilling      *bool
		Projection       struct{ ProjectionType string }
	}
}

// checkVectorScenario checks a script's output.
func checkVectorScenario(t *testing.T, out []byte) {
	t.Helper()
	var sc vectorScenario
	if err := json.Unmarshal(out, &sc); err != nil {
		t.Fatalf("script printed %q: %v", out, err)
	}
	t.Logf("script printed %s", out)
	// CreateTable's answer shows the inline index in the table's status
	// (CREATING on AWS; here ACTIVE at once, as the test server has no
	// transition delay), with no Backfilling (dynoxide, nubo-db/dynoxide
	// branch feat/vector-indexes, captured eu-west-2 2026-08-11);
	// DescribeTable shows it ACTIVE once the table is, with its ARN in a GSI's form (model:
	// VectorIndexDescription; AWS developer guide, VectorSearchWorkingWith).
	for _, tc := range []struct {
		name   string
		tab    vectorScenarioTable
		status string
	}{
		{"CreateTable", sc.Create, sc.Create.TableStatus},
		{"DescribeTable", sc.Describe, "ACTIVE"},
	} {
		if tc.tab.TableName != "vclient" || len(tc.tab.VectorIndexes) != 1 {
			t.Fatalf("%s: table %+v", tc.name, tc.tab)
		}
		x := tc.tab.VectorIndexes[0]
		if x.IndexName != "vix" || x.IndexArn != tableARN("vclient")+"/index/vix" || x.VectorAttribute.AttributeName != "emb" ||
			x.Dimensions != 3 || x.DistanceFunction != "EUCLIDEAN" || x.Projection.ProjectionType != "ALL" ||
			x.IndexStatus != tc.status || x.Backfilling != nil {
			t.Errorf("%s: vector index %+v, want vix ARN, emb, 3, EUCLIDEAN, ALL, %s, no Backfilling", tc.name, x, tc.status)
		}
	}
	if sc.Describe.TableStatus != "ACTIVE" {
		t.Errorf("DescribeTable: status %s", sc.Describe.TableStatus)
	}
	for _, tc := range []struct {
		call, name, msg string
	}{
		// dynoxide (search_vectors.rs) and AWS's agent toolkit
		// (aws/agent-toolkit-for-aws, .../amazon-dynamodb/references/
		// vector-search.md, "reproduced verbatim from the service").
		{"missingIndex", "ValidationException", "The table does not have the specified index: nosuch"},
		// dynoxide: the standard answer of the item operations.
		{"missingTable", "ResourceNotFoundException", "Requested resource not found"},
		// dynoxide, captured 2026-08-11/12.
		{"wrongDimension", "ValidationException", "Input search vector dimension 2 does not match vector index dimension 3"},
		// dynoxide, captured; no "1 validation error" envelope.
		{"topK", "ValidationException", "Provided TopK value '101' is out of valid range. The value must be between 1 and 100 inclusive"},
	} {
		got, ok := sc.Calls[tc.call]
		if !ok {
			t.Errorf("%s: no answer printed", tc.call)
			continue
		}
		if got.Name != tc.name || got.Message != tc.msg || got.Status != 400 {
			t.Errorf("%s: got %s (%d) %q, want %s (400) %q", tc.call, got.Name, got.Status, got.Message, tc.name, tc.msg)
		}
	}
	// The results, best first. The query [1, 0, 0] under EUCLIDEAN
	// scores the L2 distance, not squared, lower first (model's
	// DistanceFunction text; dynoxide's capture: [1,0,0,0] against
	// [10,0,0,0] scores 9.0), computed on the index's float32 copies
	// (AWS developer guide, VectorSearch.Requirements), so c's score is
	// the float32 arithmetic's. Each result is the projected item without
	// the vector attribute, which even an ALL index leaves out unless the
	// ProjectionExpression names it, and then gives as its float32 copy
	// with a fractional part, "1.0" for 1 (AWS's agent toolkit; dynoxide,
	// captured eu-west-2 2026-08-11). A search's ConsumedCapacity under
	// TOTAL is a VectorCapacity, VectorSearchRequestBytes only, with no
	// TableName or CapacityUnits (model: SearchVectorsOutput; AWS
	// developer guide, VectorSearchMonitoring; dynoxide, captured
	// 2026-08-11); its value is not reproducible on AWS, so only its
	// presence is checked.
	for _, tc := range []struct {
		call     string
		items    []string
		scores   []float64
		consumed bool
	}{
		{"search", []string{`{"pk":{"S":"a"},"tag":{"S":"item a"}}`, `{"pk":{"S":"c"},"tag":{"S":"item c"}}`, `{"pk":{"S":"b"},"tag":{"S":"item b"}}`},
			[]float64{0, 0.14142138, 1.4142135}, false},
		{"projected", []string{`{"pk":{"S":"a"},"emb":{"L":[{"N":"1.0"},{"N":"0.0"},{"N":"0.0"}]}}`}, []float64{0}, true},
	} {
		got, ok := sc.Calls[tc.call]
		if !ok || got.Name != "" || len(got.Result) != len(tc.items) {
			t.Errorf("%s: got %+v, want %d results", tc.call, got, len(tc.items))
			continue
		}
		for i, r := range got.Result {
			jsonEqual(t, r.Item, tc.items[i])
			if math.Abs(r.Score-tc.scores[i]) > 1e-6 {
				t.Errorf("%s: result %d scores %v, want %v", tc.call, i, r.Score, tc.scores[i])
			}
		}
		_, hasBytes := got.Consumed["VectorSearchRequestBytes"]
		if tc.consumed != hasBytes || (tc.consumed && len(got.Consumed) != 1) {
			t.Errorf("%s: ConsumedCapacity %v, want VectorSearchRequestBytes alone: %v", tc.call, got.Consumed, tc.consumed)
		}
	}
}

// jsDeps returns a folder holding node_modules with the packages
// e2e/testdata/js/package-lock.json pins, installing them with npm ci the
// first time. The folder is kept in the user's cache folder, named by the
// lock file's hash, so later runs (and CI runs that keep the cache) reuse
// it; npm's own download cache is used as configured.
func jsDeps(t *testing.T, npm string) string {
	t.Helper()
	lock, err := os.ReadFile(filepath.Join("testdata", "js", "package-lock.json"))
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := os.ReadFile(filepath.Join("testdata", "js", "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(append(append([]byte{}, pkg...), lock...))
	root, err := os.UserCacheDir()
	if err != nil {
		root = os.TempDir()
	}
	root = filepath.Join(root, "dynago-test", "js")
	dir := filepath.Join(root, hex.EncodeToString(sum[:8]))
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@aws-sdk", "client-dynamodb", "package.json")); err == nil {
		return dir
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	// Install into a fresh folder and rename it into place, so that a run
	// cut short, or two at once, never leave a half-installed folder.
	tmp, err := os.MkdirTemp(root, "install-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	for name, b := range map[string][]byte{"package.json": pkg, "package-lock.json": lock} {
		if err := os.WriteFile(filepath.Join(tmp, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(npm, "ci", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error")
	cmd.Dir = tmp
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm ci in %s: %v\n%s", tmp, err, out)
	}
	if err := os.Rename(tmp, dir); err != nil {
		if _, serr := os.Stat(filepath.Join(dir, "node_modules")); serr != nil {
			t.Fatalf("keep the installed packages: %v", err)
		}
	}
	return dir
}

// TestJavaScriptSDKVectorSearch drives the server's vector search with the
// AWS SDK for JavaScript v3 (@aws-sdk/client-dynamodb, pinned in
// e2e/testdata/js; SearchVectors is in it from 3.1103.0).
func TestJavaScriptSDKVectorSearch(t *testing.T) {
	needsWire(t)
	node, err := exec.LookPath("node")
	if err != nil {
		clientMustRun(t, "node is not on PATH; skipping the JavaScript SDK test")
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		clientMustRun(t, "npm is not on PATH; skipping the JavaScript SDK test")
	}
	deps := jsDeps(t, npm)
	// The script runs from a folder of its own whose node_modules links
	// to the installed packages.
	work := t.TempDir()
	script, err := os.ReadFile(filepath.Join("testdata", "js", "script.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, "script.mjs"), script, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(deps, "node_modules"), filepath.Join(work, "node_modules")); err != nil {
		t.Fatal(err)
	}
	s, _ := start(t)
	cmd := exec.Command(node, filepath.Join(work, "script.mjs"), s.URL)
	cmd.Dir = work
	cmd.Env = isolatedEnv(t)
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("node script.mjs: %v\n%s%s", err, out, stderr)
	}
	checkVectorScenario(t, []byte(strings.TrimSpace(string(out))))
}

// pythonWithBoto3 returns python3's path, or skips when python3 or boto3
// is missing (.ci/run installs both).
func pythonWithBoto3(t *testing.T) string {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		clientMustRun(t, "python3 is not on PATH; skipping the boto3 test")
	}
	check := exec.Command(py, "-c", "import boto3")
	check.Env = isolatedEnv(t)
	if err := check.Run(); err != nil {
		clientMustRun(t, "boto3 is not installed for python3; skipping the boto3 test")
	}
	return py
}

// vectorModel writes e2e/testdata/py/vector_model.py's model override for
// the installed botocore into a new folder and returns the environment
// that makes botocore read it (AWS_DATA_PATH). botocore has SearchVectors
// from 1.43.64; an older one (Debian's, for one) learns it from the
// override, and a newer one is left as it is.
func vectorModel(t *testing.T, py string) []string {
	t.Helper()
	dir := t.TempDir()
	env := isolatedEnv(t)
	cmd := exec.Command(py, filepath.Join("testdata", "py", "vector_model.py"), dir)
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("vector_model.py: %v\n%s", err, out)
	}
	return append(env, "AWS_DATA_PATH="+dir)
}

// TestBoto3VectorSearch drives the server's vector search with boto3.
func TestBoto3VectorSearch(t *testing.T) {
	needsWire(t)
	py := pythonWithBoto3(t)
	env := vectorModel(t, py)
	s, _ := start(t)
	cmd := exec.Command(py, filepath.Join("testdata", "py", "vector_search.py"), s.URL)
	cmd.Env = env
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("vector_search.py: %v\n%s%s", err, out, stderr)
	}
	checkVectorScenario(t, []byte(strings.TrimSpace(string(out))))
}

// TestAWSCLIVectorSearch drives the server's vector search with the AWS
// CLI. The CLI v1 (Debian's awscli) runs on botocore, so the same model
// override as boto3's teaches it create-table --vector-indexes and
// search-vectors; the CLI v2 has them from 2.36.16 (AWS's agent toolkit,
// aws/agent-toolkit-for-aws, .../amazon-dynamodb/references/
// vector-search.md).
func TestAWSCLIVectorSearch(t *testing.T) {
	needsWire(t)
	if _, err := exec.LookPath("aws"); err != nil {
		clientMustRun(t, "the AWS CLI (aws) is not on PATH; skipping the CLI test")
	}
	env := vectorModel(t, pythonWithBoto3(t))
	s, _ := start(t)
	aws := func(args ...string) (map[string]any, string, error) {
		t.Helper()
		cmd := exec.Command("aws", append([]string{"dynamodb"}, append(args, "--endpoint-url", s.URL, "--output", "json")...)...)
		cmd.Env = env
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		var v map[string]any
		if err == nil && len(strings.TrimSpace(string(out))) > 0 {
			if jerr := json.Unmarshal(out, &v); jerr != nil {
				t.Fatalf("aws %v printed non-JSON %q", args, out)
			}
		}
		return v, stderr.String(), err
	}
	run := func(args ...string) map[string]any {
		t.Helper()
		v, stderr, err := aws(args...)
		if err != nil {
			t.Fatalf("aws %v: %v\n%s", args, err, stderr)
		}
		return v
	}
	run("create-table", "--table-name", "vclient", "--billing-mode", "PAY_PER_REQUEST",
		"--attribute-definitions", "AttributeName=pk,AttributeType=S",
		"--key-schema", "AttributeName=pk,KeyType=HASH",
		"--vector-indexes", `[{"IndexName":"vix","VectorAttribute":{"AttributeName":"emb"},"Dimensions":3,"DistanceFunction":"EUCLIDEAN","Projection":{"ProjectionType":"ALL"}}]`)
	run("put-item", "--table-name", "vclient", "--item", `{"pk":{"S":"a"},"emb":{"L":[{"N":"1"},{"N":"0"},{"N":"0"}]}}`)
	desc := run("describe-table", "--table-name", "vclient")
	b, _ := json.Marshal(desc["Table"])
	var tab vectorScenarioTable
	if err := json.Unmarshal(b, &tab); err != nil {
		t.Fatal(err)
	}
	if len(tab.VectorIndexes) != 1 || tab.VectorIndexes[0].IndexName != "vix" || tab.VectorIndexes[0].Dimensions != 3 ||
		tab.VectorIndexes[0].DistanceFunction != "EUCLIDEAN" || tab.VectorIndexes[0].IndexStatus != "ACTIVE" {
		t.Fatalf("describe-table printed %s", b)
	}
	// The nearest item, without its vector attribute (AWS's agent toolkit;
	// dynoxide, captured eu-west-2 2026-08-11), at EUCLIDEAN distance 0.
	out := run("search-vectors", "--table-name", "vclient", "--index-name", "vix",
		"--search-vector", `[{"N":"1"},{"N":"0"},{"N":"0"}]`, "--top-k", "2")
	jsonEqual(t, mustJSON(t, out), `{"SearchResults":[{"Item":{"pk":{"S":"a"}},"Score":0}]}`)
	for _, tc := range []struct {
		name, index, vector, want string
	}{
		// dynoxide (nubo-db/dynoxide, search_vectors.rs) and the agent
		// toolkit, both captured from the service.
		{"missing index", "nosuch", `[{"N":"1"},{"N":"0"},{"N":"0"}]`,
			"An error occurred (ValidationException) when calling the SearchVectors operation: The table does not have the specified index: nosuch"},
		// dynoxide, captured 2026-08-11/12.
		{"wrong dimension", "vix", `[{"N":"1"},{"N":"0"}]`,
			"An error occurred (ValidationException) when calling the SearchVectors operation: Input search vector dimension 2 does not match vector index dimension 3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, err := aws("search-vectors", "--table-name", "vclient", "--index-name", tc.index,
				"--search-vector", tc.vector, "--top-k", "2")
			if err == nil || !strings.Contains(stderr, tc.want) {
				t.Fatalf("search-vectors: %v\n%s\nwant %q", err, stderr, tc.want)
			}
		})
	}
}
