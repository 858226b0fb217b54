package cli

import (
	"context"
	"net"
	"syscall"
	"testing"
)

// socketProtocol is the protocol of l's socket: IPPROTO_TCP (6), or
// IPPROTO_MPTCP (262) for Multipath TCP.
func socketProtocol(t *testing.T, l net.Listener) int {
	t.Helper()
	rc, err := l.(*net.TCPListener).SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var proto int
	var serr error
	if err := rc.Control(func(fd uintptr) {
		proto, serr = syscall.GetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_PROTOCOL)
	}); err != nil {
		t.Fatal(err)
	}
	if serr != nil {
		t.Fatal(serr)
	}
	return proto
}

// TestListenPlainTCP: the server's listeners are plain TCP sockets, not
// the Multipath TCP ones Go opens by default where the kernel has it.
func TestListenPlainTCP(t *testing.T) {
	l, err := listenTCP(context.Background(), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if p := socketProtocol(t, l); p != syscall.IPPROTO_TCP {
		t.Fatalf("listener protocol %d, want IPPROTO_TCP (%d)", p, syscall.IPPROTO_TCP)
	}
	// What Go's default would have been here, so a pass on a kernel
	// without Multipath TCP is known for what it is.
	d, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	t.Logf("net.Listen's default socket protocol here: %d (262 is Multipath TCP)", socketProtocol(t, d))
}
