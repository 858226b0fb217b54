package testserver

import "testing"

// StartProcessIn starts "dynago serve args..." as StartProcess does, but
// inside the network namespace netns (through "ip netns exec", which
// needs root), and without rewriting args: give it --host, --port and
// --store. The process is the server itself (ip execs it), so signals
// sent through Cmd.Process reach the server.
func StartProcessIn(t testing.TB, netns string, args ...string) *Process {
	t.Helper()
	return startProcess(t, []string{"ip", "netns", "exec", netns}, args)
}
