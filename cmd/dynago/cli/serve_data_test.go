package cli

import (
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestUnwritableDataDir checks that a data directory serve may not write
// is reported as not writable, not as one another process holds.
func TestUnwritableDataDir(t *testing.T) {
	var dirs []string
	if os.Geteuid() != 0 {
		dir := filepath.Join(t.TempDir(), "data")
		if err := os.Mkdir(dir, 0o500); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(dir, 0o700) })
		dirs = append(dirs, dir, filepath.Join(dir, "sub"))
	} else if _, err := os.Stat("/sys/kernel"); err == nil {
		// root writes through any permission bits, but not into sysfs.
		dirs = append(dirs, "/sys", "/sys/dynago-data")
	} else {
		t.Skip("running as root without sysfs: no directory here is unwritable for root; skipping")
	}
	for _, dir := range dirs {
		var out, errb strings.Builder
		code := Main([]string{"serve", "--port", "0", "--data-dir", dir}, nil, &out, &errb)
		if code == 0 || !strings.Contains(errb.String(), "not writable") || strings.Contains(errb.String(), "in use") {
			t.Errorf("%s: exit %d, stderr %q; want a refusal saying it is not writable", dir, code, errb.String())
		}
	}
}

// TestCheckWritable checks checkWritable itself, which works as root too:
// a path under a regular file can be neither created nor written.
func TestCheckWritable(t *testing.T) {
	dir := t.TempDir()
	if err := checkWritable(filepath.Join(dir, "new")); err != nil {
		t.Errorf("a new directory: %v", err)
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "new"))
	if len(entries) != 0 {
		t.Errorf("the check left %v behind", entries)
	}
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o600)
	if err := checkWritable(filepath.Join(file, "data")); err == nil || strings.Contains(err.Error(), "in use") {
		t.Errorf("a directory under a file: %v", err)
	}
}

// TestPortTakenCreatesNoDataDir checks that serve listens before it opens
// the data: a port already taken fails the start and leaves no data
// directory behind.
func TestPortTakenCreatesNoDataDir(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	dir := filepath.Join(t.TempDir(), "data")
	var out, errb strings.Builder
	code := Main([]string{"serve", "--port", port, "--data-dir", dir}, nil, &out, &errb)
	if code == 0 || !strings.Contains(errb.String(), "listen") {
		t.Errorf("exit %d, stderr %q; want a failure to listen", code, errb.String())
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("data directory after a failed start: %v", err)
	}
}
