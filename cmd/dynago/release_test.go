package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// maxReleaseBytes is the ceiling for the linux/amd64 release binary:
// under 32 MB (decimal megabytes, as the release notes count them),
// built as scripts/release builds it. It was 30 MB until export to and
// import from S3 (dump, load, ExportTableToPointInTime, ImportTable)
// brought the AWS SDK's S3 client and the export formats: 28.4 MB before
// them, 30.4 MB with them. The linker regression below added 5.5 MB.
const maxReleaseBytes = 32_000_000

// TestReleaseBinary builds dynago as scripts/release does for
// linux/amd64 and checks that it stays under 32 MB and that the linker
// removed the methods nothing calls.
//
// The second is what keeps the first: in late 2026 one MethodByName
// call in a dependency (google.golang.org/protobuf before v1.36.11,
// whose "Methods" lookup keeps reflect's method iterators under Go 1.26)
// made the linker keep every exported method of every type and the
// binary grew from 28 to 34 MB. When this test fails on the probe,
// `go build -ldflags=-dumpdep ./cmd/dynago` lists what reaches
// reflect's Method or MethodByName; the <ReflectMethod> marks name the
// culprits.
func TestReleaseBinary(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("no go command to build with: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "dynago")
	cmd := exec.Command(goTool, "build", "-trimpath", "-ldflags", "-s -w", "-o", bin, ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH=amd64")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("linux/amd64 release binary: %d bytes (%.1f MB)", len(data), float64(len(data))/1e6)
	// A stripped binary keeps the names of its functions (the runtime
	// needs them for stack traces), so the probe's method is found by
	// name if it was linked in.
	if bytes.Contains(data, []byte("main.linkerProbe.UnusedExportedMethod")) {
		t.Errorf("the linker kept linkerProbe.UnusedExportedMethod, which nothing calls: something reachable looks methods up by reflection with a computed name, and every exported method of every type stays in the binary (see this test's comment)")
	}
	if len(data) > maxReleaseBytes {
		t.Errorf("release binary is %d bytes, over the %d-byte ceiling", len(data), maxReleaseBytes)
	}
}
