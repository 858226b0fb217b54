package cli

import (
	"flag"
	"strings"
	"testing"
)

// TestBadFlagSaysOneLine checks that a mistake on the command line is
// said in one line naming the flag and the problem, followed by where the
// help is, on stderr with exit code 2, as Go's own tools answer one ("go
// test -count=x": the flag's problem, then "Run 'go help test' for
// usage"), and not with the whole help (217 lines for serve).
func TestBadFlagSaysOneLine(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string // in the first line
		hint string
	}{
		{[]string{"serve", "--port", "eighty"}, `invalid value "eighty" for flag -port`, "Run 'dynago serve --help' for usage."},
		{[]string{"serve", "--max-buffer-memory", "12X"}, `invalid value "12X" for flag -max-buffer-memory: "12X" is not a size`, "Run 'dynago serve --help' for usage."},
		{[]string{"serve", "--no-such-flag"}, "flag provided but not defined: -no-such-flag", "Run 'dynago serve --help' for usage."},
		{[]string{"serve", "--port"}, "flag needs an argument: -port", "Run 'dynago serve --help' for usage."},
		// DynamoDB Local's way of starting is serve too.
		{[]string{"-sharedDb", "-port", "x"}, `invalid value "x" for flag -port`, "Run 'dynago serve --help' for usage."},
		{[]string{"serve", "-dbPath", "d", "-inMemory"}, "-dbPath and -inMemory: choose one", "Run 'dynago serve --help' for usage."},
		{[]string{"serve", "stray"}, "unexpected arguments: [stray]", "Run 'dynago serve --help' for usage."},
		{[]string{"distinct-keys", "--segments", "many"}, `invalid value "many" for flag -segments`, "Run 'dynago distinct-keys --help' for usage."},
		{[]string{"bench", "--clients", "0"}, "dynago bench:", "Run 'dynago bench --help' for usage."},
		{[]string{"dump", "Orders", "--format"}, "flag needs an argument: -format", "Run 'dynago dump --help' for usage."},
		{[]string{"backup", "list", "--nope"}, "dynago backup list: flag provided but not defined: -nope", "Run 'dynago backup --help' for usage."},
		{[]string{"nosuchverb"}, `unknown verb "nosuchverb"`, "Run 'dynago --help' for usage."},
	} {
		var out, errb strings.Builder
		code := Main(tc.args, strings.NewReader(""), &out, &errb)
		lines := strings.Split(strings.TrimSuffix(errb.String(), "\n"), "\n")
		if code != 2 || out.Len() != 0 || len(lines) != 2 || !strings.Contains(lines[0], tc.want) || lines[1] != tc.hint {
			t.Errorf("%q: exit %d, stdout %d bytes, stderr %d lines:\n%s\nwant exit 2, nothing on stdout, and on stderr a line with %q then %q",
				tc.args, code, out.Len(), len(lines), errb.String(), tc.want, tc.hint)
		}
	}
}

// TestHelpIsWholeOnStdout checks that asking for the help still prints
// all of it, every flag, on stdout and nothing on stderr.
func TestHelpIsWholeOnStdout(t *testing.T) {
	for _, args := range [][]string{{"serve", "--help"}, {"serve", "-h"}, {"help", "serve"}, {"-sharedDb", "-help"}} {
		var out, errb strings.Builder
		if code := Main(args, strings.NewReader(""), &out, &errb); code != 0 {
			t.Fatalf("%q: exit %d, %s", args, code, errb.String())
		}
		if errb.Len() != 0 {
			t.Errorf("%q wrote to stderr: %s", args, errb.String())
		}
		var c serveConfig
		serveFlags(&Env{}, &c).VisitAll(func(f *flag.Flag) {
			if !strings.Contains(out.String(), "-"+f.Name+" ") && !strings.Contains(out.String(), "-"+f.Name+"\n") {
				t.Errorf("%q: the help lacks -%s", args, f.Name)
			}
		})
		if !strings.Contains(out.String(), "Usage: dynago serve") {
			t.Errorf("%q: the help lacks its synopsis", args)
		}
	}
}
