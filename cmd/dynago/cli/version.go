package cli

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"
)

func init() {
	register(verb{name: "version", summary: "print dynago's version and the commit it was built from", run: runVersion})
}

// Set by the release build (scripts/release) with -ldflags "-X ...", for
// binaries built outside a module download, where the build information
// holds no version. Empty otherwise.
var (
	releaseVersion string
	releaseCommit  string
)

func runVersion(env *Env, args []string) error {
	fs := newFlagSet(env, "version", "Prints the module version dynago was built as (v1.2.3 for \"go install ...@v1.2.3\",\n(devel) for a build from a checkout), the VCS commit when the build recorded one,\nand the Go version and platform.")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	printVersion(env.Stdout)
	return nil
}

// printVersion writes one line: "dynago VERSION (commit C, modified, goX, os/arch)".
func printVersion(w io.Writer) {
	version, commit, modified := buildVersion()
	var extra []string
	if commit != "" {
		extra = append(extra, "commit "+commit)
		if modified {
			extra = append(extra, "modified")
		}
	}
	extra = append(extra, runtime.Version(), runtime.GOOS+"/"+runtime.GOARCH)
	fmt.Fprintf(w, "dynago %s (%s)\n", version, strings.Join(extra, ", "))
}

// versionText is the version and, when known, the commit, for the log:
// "v1.2.3" or "v1.2.3+0123abcd".
func versionText() string {
	version, commit, modified := buildVersion()
	if commit != "" {
		version += "+" + commit[:min(len(commit), 12)]
		if modified {
			version += "-modified"
		}
	}
	return version
}

// buildVersion reads the version and commit from the binary's build
// information: the module version "go install ...@vX.Y.Z" records, and
// the vcs.revision a build from a Git checkout records. Release builds
// may set both through releaseVersion and releaseCommit instead.
func buildVersion() (version, commit string, modified bool) {
	version = "(devel)"
	if bi, ok := debug.ReadBuildInfo(); ok {
		if v := bi.Main.Version; v != "" {
			version = v
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				commit = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	if releaseVersion != "" {
		version = releaseVersion
	}
	if releaseCommit != "" {
		commit, modified = releaseCommit, false
	}
	return version, commit, modified
}
