package cli

import (
	"runtime"
	"strings"
	"testing"
)

// TestVersion checks that "dynago version", "dynago --version" and
// "dynago -version" print the same line to stdout, naming the version
// (the module's, "(devel)" in a checkout) and the Go release; and that a
// release build's version and commit are printed when set.
func TestVersion(t *testing.T) {
	var first string
	for _, args := range [][]string{{"version"}, {"--version"}, {"-version"}} {
		var out, errb strings.Builder
		if code := Main(args, strings.NewReader(""), &out, &errb); code != 0 || errb.Len() != 0 {
			t.Fatalf("%v: exit %d, stderr %q", args, code, errb.String())
		}
		if !strings.HasPrefix(out.String(), "dynago ") || !strings.Contains(out.String(), runtime.Version()) {
			t.Errorf("%v printed %q", args, out.String())
		}
		if first == "" {
			first = out.String()
		} else if out.String() != first {
			t.Errorf("%v printed %q, version printed %q", args, out.String(), first)
		}
	}
	v, _, _ := buildVersion()
	if !strings.Contains(first, v) {
		t.Errorf("printed %q without the version %q", first, v)
	}

	releaseVersion, releaseCommit = "v1.2.3", "0123abcd89abcdef"
	defer func() { releaseVersion, releaseCommit = "", "" }()
	if got := versionText(); got != "v1.2.3+0123abcd89ab" {
		t.Errorf("versionText() = %q", got)
	}
	var out strings.Builder
	printVersion(&out)
	if want := "dynago v1.2.3 (commit 0123abcd89abcdef, " + runtime.Version() + ", " + runtime.GOOS + "/" + runtime.GOARCH + ")\n"; out.String() != want {
		t.Errorf("release build printed %q", out.String())
	}
}

// TestHelpGoesToStdout checks every verb's --help, -h and "dynago help
// VERB": asked-for help is the command's output, on stdout, exit 0.
func TestHelpGoesToStdout(t *testing.T) {
	for name := range verbs {
		for _, args := range [][]string{{name, "--help"}, {name, "-h"}, {name, "-help"}, {"help", name}} {
			var out, errb strings.Builder
			code := Main(args, strings.NewReader(""), &out, &errb)
			if code != 0 || errb.Len() != 0 || !strings.Contains(out.String(), "Usage: dynago "+name) {
				t.Errorf("%v: exit %d, stdout %d bytes, stderr %q", args, code, out.Len(), errb.String())
			}
		}
	}
	for _, args := range [][]string{{}, {"help"}, {"-h"}, {"-help"}, {"--help"}} {
		var out, errb strings.Builder
		code := Main(args, strings.NewReader(""), &out, &errb)
		if code != 0 || errb.Len() != 0 || !strings.Contains(out.String(), "Usage: dynago <verb>") || !strings.Contains(out.String(), "-sharedDb") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out.String(), errb.String())
		}
	}
}
