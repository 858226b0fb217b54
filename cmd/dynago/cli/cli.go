// Package cli holds dynago's command-line verbs: flag parsing and wiring of
// the packages that do the work. It is the only package that reads the
// environment, and it holds no logic a package test could not reach.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"syscall"
)

// Env is what a verb may touch of the outside world.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// Ctx is cancelled on SIGINT or SIGTERM.
	Ctx context.Context
}

// verb is one subcommand.
type verb struct {
	name    string
	summary string
	run     func(env *Env, args []string) error
}

// verbs lists every subcommand. Each verb's file adds itself in init.
var verbs = map[string]verb{}

func register(v verb) { verbs[v.name] = v }

// errUsage means the flags were wrong and the verb already said why, in
// one line; Main adds where the help is.
var errUsage = errors.New("usage")

// Main runs dynago with the given arguments and returns the exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	env := &Env{Stdin: stdin, Stdout: stdout, Stderr: stderr, Ctx: ctx}
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
		if len(args) > 1 {
			if v, ok := verbs[args[1]]; ok {
				_ = v.run(env, []string{"-h"})
				return 0
			}
		}
		usage(stdout)
		return 0
	}
	v, rest, ok := findVerb(env, args)
	if !ok {
		fmt.Fprintf(stderr, "dynago: unknown verb %q\nRun 'dynago --help' for usage.\n", args[0])
		return 2
	}
	if err := v.run(env, rest); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		if errors.Is(err, errUsage) {
			// The mistake was said in one line; the help is one
			// command away, as Go's own tools put it.
			fmt.Fprintf(stderr, "Run 'dynago %s --help' for usage.\n", v.name)
			return 2
		}
		fmt.Fprintf(stderr, "dynago %s: %v\n", v.name, err)
		return 1
	}
	return 0
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "dynago: a DynamoDB-compatible database, embedded or served.")
	fmt.Fprintln(w, "\nUsage: dynago <verb> [flags]\n\nVerbs:")
	names := make([]string, 0, len(verbs))
	for n := range verbs {
		names = append(names, n)
	}
	sort.Strings(names)
	width := 0
	for _, n := range names {
		width = max(width, len(n))
	}
	for _, n := range names {
		fmt.Fprintf(w, "  %-*s  %s\n", width, n, verbs[n].summary)
	}
	fmt.Fprintln(w, "\nRun \"dynago <verb> --help\" for a verb's flags.")
	fmt.Fprintln(w, "\nDynamoDB Local's way of starting works too: \"dynago -sharedDb -dbPath ./data -port 8000\"\n(see \"dynago serve --help\"). \"dynago --version\" prints the version.")
}

// flagSet is a verb's flags. Its usage (the whole help) goes to stdout,
// when the user asks for it (--help); a mistake gets one line on stderr.
type flagSet struct {
	*flag.FlagSet
	env *Env
}

// newFlagSet returns a flag set that reports errors instead of exiting.
func newFlagSet(env *Env, name, synopsis string) *flagSet {
	fs := &flagSet{FlagSet: flag.NewFlagSet(name, flag.ContinueOnError), env: env}
	fs.SetOutput(env.Stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: dynago %s [flags]\n\n%s\n\nFlags:\n", name, synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// helpAsked reports whether args ask for help before any "--".
func helpAsked(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "--h", "-help", "--help":
			return true
		}
	}
	return false
}

// parseFlags parses args, mapping flag errors to errUsage. Asked-for
// help goes to stdout and returns flag.ErrHelp.
func parseFlags(fs *flagSet, args []string) error {
	if helpAsked(args) {
		fs.SetOutput(fs.env.Stdout)
		fs.Usage()
		return flag.ErrHelp
	}
	if err := fs.parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(fs.Output(), "unexpected arguments: %v\n", fs.Args())
		return errUsage
	}
	return nil
}

// parse parses args as flag.FlagSet.Parse does, but says a bad flag or
// value in one line ("dynago serve: invalid value "x" for flag -port:
// parse error") instead of the flag package's message and the whole
// help, and returns errUsage for it.
func (fs *flagSet) parse(args []string) error {
	usage, out := fs.Usage, fs.Output()
	fs.Usage = func() {}
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	fs.Usage = usage
	fs.SetOutput(out)
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return err
	}
	fmt.Fprintf(fs.env.Stderr, "dynago %s: %v\n", fs.Name(), err)
	return errUsage
}
