package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/dynago/dynago/testserver"
)

// TestDistinctPartitions runs both methods against the real server: each
// lists every collection exactly once, for far less than a full Scan.
func TestDistinctPartitions(t *testing.T) {
	s := testserver.Start(t)
	const collections = 120
	res, err := run(context.Background(), s.Client, io.Discard, collections, 50)
	if err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string]map[string]int{"skip-scan": res.SkipScan, "marker index": res.Marker} {
		if len(got) != collections {
			t.Fatalf("%s listed %d collections, want %d", name, len(got), collections)
		}
		for k, n := range got {
			if n != 1 {
				t.Fatalf("%s listed %s %d times", name, k, n)
			}
		}
	}
	// About half a unit per collection for the skip-scan; the marker
	// entries are tiny, so the index scan costs a few units; a full Scan
	// of ~3,000 items of ~400 bytes (1.2 MB) would cost about 150.
	if res.SkipUnits > 0.5*float64(collections+4) || res.MarkerUnits > 5 || res.FullScanUnits < 120 {
		t.Fatalf("skip-scan %v units, marker index %v, full scan %v", res.SkipUnits, res.MarkerUnits, res.FullScanUnits)
	}
}

// TestPythonExampleCreatesItsTable runs distinct_pks.py as its README
// says, with --create-sample on a table nothing created: it creates and
// fills the table, then prints each of its ten partition keys once; a
// second run finds the table and lists it again.
func TestPythonExampleCreatesItsTable(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not on PATH; skipping the Python example")
	}
	if err := exec.Command(py, "-c", "import boto3").Run(); err != nil {
		t.Skip("boto3 is not installed; skipping the Python example")
	}
	s := testserver.Start(t)
	dir := t.TempDir()
	for run := 0; run < 2; run++ {
		cmd := exec.Command(py, "distinct_pks.py", "--region", "us-east-1", "--table-name", "Collections", "--create-sample")
		cmd.Env = append(os.Environ(), "AWS_ENDPOINT_URL="+s.URL, "AWS_ACCESS_KEY_ID=x", "AWS_SECRET_ACCESS_KEY=x",
			"AWS_EC2_METADATA_DISABLED=true", "AWS_CONFIG_FILE="+filepath.Join(dir, "none"), "AWS_SHARED_CREDENTIALS_FILE="+filepath.Join(dir, "none"))
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("run %d: %v\n%s", run, err, stderr.String())
		}
		got := strings.Fields(string(out))
		sort.Strings(got)
		var want []string
		for p := 0; p < 10; p++ {
			want = append(want, fmt.Sprintf("tenant-%02d", p))
		}
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Fatalf("run %d printed %v; want each of %v once", run, got, want)
		}
	}
}
