// Command dynago is a DynamoDB-compatible database server and toolkit.
// Run "dynago help" for the verbs.
package main

import (
	"os"

	"github.com/dynago/dynago/cmd/dynago/cli"
)

func main() {
	// A value of linkerProbe in an interface, so that its method stays in
	// the binary exactly when the linker keeps every exported method of
	// every type that reaches an interface (release_test.go).
	probe = linkerProbe{}
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// linkerProbe has one exported method that nothing calls. The Go linker
// drops such methods unless some reachable code looks methods up by
// reflection with a name it cannot see (reflect's Method, or MethodByName
// with a computed name); one such call anywhere in the program, the
// dependencies included, keeps them all and makes the binary about a
// fifth larger. release_test.go fails when the method is in the binary.
type linkerProbe struct{}

// probe holds a linkerProbe; nothing reads it.
var probe any

// UnusedExportedMethod is never called.
func (linkerProbe) UnusedExportedMethod() {}
