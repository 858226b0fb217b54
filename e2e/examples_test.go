package e2e

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// python returns python3 with boto3, or skips the test.
func python(t *testing.T) string {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not on PATH; skipping a boto3 example")
	}
	if err := exec.Command(py, "-c", "import boto3").Run(); err != nil {
		t.Skip("boto3 is not installed for python3; skipping a boto3 example")
	}
	return py
}

// TestExampleDistinctPartitions runs examples/distinct-partitions against
// the server through boto3, pointed at it by AWS_ENDPOINT_URL only, for
// each sort key type, and checks it prints every partition key once.
func TestExampleDistinctPartitions(t *testing.T) {
	needsWire(t)
	py := python(t)
	s, c := start(t)
	script, err := filepath.Abs("../examples/distinct-partitions/distinct_pks.py")
	if err != nil {
		t.Fatal(err)
	}
	for _, typ := range []types.ScalarAttributeType{types.ScalarAttributeTypeS, types.ScalarAttributeTypeN, types.ScalarAttributeTypeB} {
		t.Run(string(typ), func(t *testing.T) {
			table := "example-pks-" + string(typ)
			createRange(t, c, table, typ)
			var want []string
			for p := 0; p < 30; p++ {
				pk := fmt.Sprintf("tenant-%02d", p)
				want = append(want, pk)
				for i := 0; i < 1+p%5; i++ {
					put(t, c, table, item{"pk": S(pk), "sk": sortKeyOf(typ, i)})
				}
			}
			cmd := exec.Command(py, script, "--table-name", table)
			cmd.Env = append(os.Environ(),
				"AWS_ENDPOINT_URL="+s.URL, "AWS_ACCESS_KEY_ID=x", "AWS_SECRET_ACCESS_KEY=x",
				"AWS_DEFAULT_REGION=us-east-1", "AWS_EC2_METADATA_DISABLED=true",
				"AWS_CONFIG_FILE="+filepath.Join(t.TempDir(), "none"), "AWS_SHARED_CREDENTIALS_FILE="+filepath.Join(t.TempDir(), "none"))
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("example: %v\n%s", err, stderr.String())
			}
			got := strings.Fields(string(out))
			sort.Strings(got)
			if strings.Join(got, ",") != strings.Join(want, ",") {
				t.Fatalf("example printed %v\nwant each of %v once", got, want)
			}
		})
	}
}
