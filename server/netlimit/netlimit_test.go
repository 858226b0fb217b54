package netlimit

import (
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// serve runs an http.Server answering "ok" on a Listener of max
// connections and returns the Listener and its address.
func serve(t *testing.T, max int, headerTimeout time.Duration) (*Listener, string, chan End) {
	t.Helper()
	tcp, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := New(tcp, max)
	ends := make(chan End, 100)
	l.OnClose = func(c net.Conn, e End) { ends <- e }
	srv := &http.Server{
		Handler:           http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }),
		ReadHeaderTimeout: headerTimeout,
	}
	l.Attach(srv)
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	return l, tcp.Addr().String(), ends
}

func dial(t *testing.T, addr string) net.Conn {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// TestStalledHeader checks that End reports a connection cut for not
// sending its header in time as stalled, and one closed by its client
// after a request, or idle, as not.
func TestStalledHeader(t *testing.T) {
	_, addr, ends := serve(t, 10, 200*time.Millisecond)
	for _, partial := range []string{"", "GET / HTTP/1.1\r\nHo"} {
		c := dial(t, addr)
		io.WriteString(c, partial)
		c.SetReadDeadline(time.Now().Add(30 * time.Second))
		io.Copy(io.Discard, c) // net/http answers 400 to a partial header
		select {
		case e := <-ends:
			if !e.Stalled || e.Open < 200*time.Millisecond {
				t.Errorf("%q: %+v, want stalled after the header timeout", partial, e)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("%q: no OnClose", partial)
		}
	}
	c := dial(t, addr)
	io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	c.Read(make([]byte, 100))
	c.Close()
	select {
	case e := <-ends:
		if e.Stalled || e.Last != http.StateIdle {
			t.Errorf("client closed after a request: %+v", e)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no OnClose")
	}
}

// TestCap checks that the Listener never holds more than its cap, that
// at the cap it sheds idle connections to let new ones in, and that
// Close wakes an Accept waiting at the cap.
func TestCap(t *testing.T) {
	const max = 5
	l, addr, _ := serve(t, max, 10*time.Second)
	get := func(c net.Conn) string {
		io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
		c.SetReadDeadline(time.Now().Add(30 * time.Second))
		b := make([]byte, 1000)
		n, _ := c.Read(b)
		return string(b[:n])
	}
	var idle []net.Conn
	for range max {
		c := dial(t, addr)
		if !strings.HasSuffix(get(c), "ok") {
			t.Fatal("no answer")
		}
		idle = append(idle, c)
	}
	if n := l.Open(); n != max {
		t.Fatalf("Open() = %d, want %d", n, max)
	}
	// Beyond the cap: a new client is let in by shedding an idle one.
	c := dial(t, addr)
	if got := get(c); !strings.HasSuffix(got, "ok") {
		t.Fatalf("client beyond the cap: %q", got)
	}
	if n := l.Open(); n > max {
		t.Fatalf("Open() = %d, over the cap %d", n, max)
	}
	shed := 0
	for _, c := range idle {
		c.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
		if _, err := c.Read(make([]byte, 1)); err == io.EOF {
			shed++
		}
	}
	if shed != 1 {
		t.Errorf("%d idle connections shed, want 1", shed)
	}

	// Silent connections (not idle: never sent a request) are not shed:
	// a further client waits.
	for range max {
		dial(t, addr)
	}
	var wg sync.WaitGroup
	waiting := dial(t, addr)
	wg.Go(func() {
		waiting.SetReadDeadline(time.Now().Add(500 * time.Millisecond))
		io.WriteString(waiting, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
		if _, err := waiting.Read(make([]byte, 1)); err == nil {
			t.Errorf("a client was served beyond the cap of silent connections")
		}
	})
	wg.Wait()
	if n := l.Open(); n > max {
		t.Fatalf("Open() = %d, over the cap %d", n, max)
	}
}

// TestCloseWritePassesThrough checks that a Conn keeps the half-close of
// the TCP connection under it: net/http half-closes before closing a
// connection whose body it refused, so that the client reads the answer.
func TestCloseWritePassesThrough(t *testing.T) {
	tcp, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := New(tcp, 2)
	defer l.Close()
	client := dial(t, tcp.Addr().String())
	c, err := l.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	cw, ok := c.(interface{ CloseWrite() error })
	if !ok {
		t.Fatal("an accepted connection hides CloseWrite")
	}
	if err := cw.CloseWrite(); err != nil {
		t.Fatal(err)
	}
	// The client sees the end of the stream, and can still send.
	client.SetReadDeadline(time.Now().Add(30 * time.Second))
	if n, err := client.Read(make([]byte, 1)); n != 0 || err != io.EOF {
		t.Fatalf("client read %d, %v after CloseWrite; want EOF", n, err)
	}
	if _, err := client.Write([]byte("still open")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 10)
	c.SetReadDeadline(time.Now().Add(30 * time.Second))
	if _, err := io.ReadFull(c, buf); err != nil || string(buf) != "still open" {
		t.Fatalf("server read %q, %v", buf, err)
	}
}
