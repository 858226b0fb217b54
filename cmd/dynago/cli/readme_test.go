package cli

import (
	"flag"
	"io"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// readmeFlagRow matches a row of README's flag tables: its first cell is
// a flag in backquotes, "`--port`" or "`-port N`".
var readmeFlagRow = regexp.MustCompile("(?m)^\\| `--?([A-Za-z][A-Za-z0-9-]*)[^`]*` \\|")

// TestREADMEListsEveryServeFlag checks README.md's tables of dynago
// serve's flags (dynago's own and DynamoDB Local's) against the flags
// serve declares, both ways, so that neither can change without the other.
func TestREADMEListsEveryServeFlag(t *testing.T) {
	data, err := os.ReadFile("../../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	// The two tables live between these headings.
	text := string(data)
	start := strings.Index(text, "## `dynago serve`")
	end := strings.Index(text, "## Use it in Go tests")
	if start < 0 || end < start {
		t.Fatalf("README.md has no \"## `dynago serve`\" section before \"## Use it in Go tests\"")
	}
	inREADME := map[string]bool{}
	for _, m := range readmeFlagRow.FindAllStringSubmatch(text[start:end], -1) {
		inREADME[m[1]] = true
	}
	var c serveConfig
	fs := serveFlags(&Env{Stdout: io.Discard, Stderr: io.Discard}, &c)
	declared := map[string]bool{}
	fs.VisitAll(func(f *flag.Flag) { declared[f.Name] = true })
	// -help is the flag package's own.
	declared["help"] = true
	var missing, stale []string
	for name := range declared {
		if !inREADME[name] {
			missing = append(missing, name)
		}
	}
	for name := range inREADME {
		if !declared[name] {
			stale = append(stale, name)
		}
	}
	sort.Strings(missing)
	sort.Strings(stale)
	if len(missing) > 0 {
		t.Errorf("README.md's serve tables miss %v: add a row for each", missing)
	}
	if len(stale) > 0 {
		t.Errorf("README.md's serve tables list %v, which serve does not have", stale)
	}
	if len(inREADME) < 30 {
		t.Errorf("found only %d flags in README.md: is the table's shape still \"| `--flag` | ...\"?", len(inREADME))
	}
}
