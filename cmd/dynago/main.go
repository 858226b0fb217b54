// Command dynago is a DynamoDB-compatible database server and toolkit.
// Run "dynago help" for the verbs.
package main

import (
	"os"

	"github.com/dynago/dynago/cmd/dynago/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
