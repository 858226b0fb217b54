package cli

import (
	"flag"
	"io"
	"os"
	"regexp"
	"slices"
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

// TestPlanExamplesRun runs every "dynago plan" command line of README.md
// and of plan's help (those without --run, which need a table), from the
// repository's root as a reader would, so that the model file they name
// exists and the command does what it shows. The help also shows the
// model: it must be the file's.
func TestPlanExamplesRun(t *testing.T) {
	const root = "../../.."
	readme, err := os.ReadFile(root + "/README.md")
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, text := range []string{string(readme), planSynopsis} {
		for _, l := range strings.Split(text, "\n") {
			if l = strings.TrimSpace(l); strings.HasPrefix(l, "dynago plan ") {
				lines = append(lines, l)
			}
		}
	}
	if len(lines) < 3 {
		t.Fatalf("found %d dynago plan command lines in README.md and plan's help, want 3 or more: %q", len(lines), lines)
	}
	for _, l := range lines {
		if i := strings.Index(l, " #"); i >= 0 {
			l = l[:i]
		}
		args := strings.Fields(l)[1:]
		model := ""
		for i, a := range args {
			if a == "--model" && i+1 < len(args) {
				model = args[i+1]
				args[i+1] = root + "/" + model
			}
		}
		if model == "" {
			t.Errorf("%q names no --model", l)
			continue
		}
		if slices.Contains(args, "--run") {
			continue
		}
		var out, errb strings.Builder
		if code := Main(args, strings.NewReader(""), &out, &errb); code != 0 || !strings.Contains(out.String(), "on index ") {
			t.Errorf("%q: exit %d, %s%s", l, code, out.String(), errb.String())
		}
		data, err := os.ReadFile(root + "/" + model)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(strings.Join(strings.Fields(planSynopsis), ""), strings.Join(strings.Fields(string(data)), "")) {
			t.Errorf("plan's help shows a model other than %s's", model)
		}
	}
}
