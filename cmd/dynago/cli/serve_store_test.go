package cli

import (
	"net"
	"strings"
	"testing"
	"time"
)

// TestServeStoreUnreachableFailsFast checks that serve --store with a
// database nobody answers at exits within seconds, saying which database
// it could not reach and never echoing the password.
func TestServeStoreUnreachableFailsFast(t *testing.T) {
	// A port that refuses connections: listen, note the port, close.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	var out, errb strings.Builder
	start := time.Now()
	code := Main([]string{"serve", "--port", "0", "--store", "postgres://dynago:hunter2@" + addr + "/dynago?sslmode=disable"}, strings.NewReader(""), &out, &errb)
	took := time.Since(start)
	msg := errb.String()
	if code == 0 {
		t.Fatalf("serve started without its database: %q", msg)
	}
	if !strings.Contains(msg, "--store") || !strings.Contains(msg, addr) {
		t.Errorf("stderr %q: want a refusal naming --store and %s", msg, addr)
	}
	if strings.Contains(msg, "hunter2") {
		t.Errorf("stderr shows the password: %q", msg)
	}
	t.Logf("refused in %v: %s", took.Round(time.Millisecond), strings.TrimSpace(msg))
}

// TestServeStoreAndInMemoryConflict checks that serve refuses to be told
// to keep its data both in memory and in a database.
func TestServeStoreAndInMemoryConflict(t *testing.T) {
	var out, errb strings.Builder
	code := Main([]string{"serve", "--port", "0", "--in-memory", "--store", "postgres://127.0.0.1:1/x"}, strings.NewReader(""), &out, &errb)
	if code == 0 || !strings.Contains(errb.String(), "--in-memory") {
		t.Fatalf("exit %d, stderr %q: want a refusal naming --store and --in-memory", code, errb.String())
	}
}
