package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal: the side a terminal emulator holds,
// and the side a program reads and writes as its terminal.
func openPTY(t *testing.T) (emulator, program *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		m.Close()
		t.Skipf("unlocking the pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		m.Close()
		t.Skipf("naming the pseudo-terminal: %v", err)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		m.Close()
		t.Skipf("opening the pseudo-terminal: %v", err)
	}
	// A terminal of 100 columns: a statement fits on a line.
	if err := unix.IoctlSetWinsize(int(s.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: 40, Col: 100}); err != nil {
		t.Logf("setting the terminal's size: %v", err)
	}
	return m, s
}

// screen keeps what the program wrote to its terminal.
type screen struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (s *screen) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

// TestSQLShellOnATerminal: "dynago sql" on a real (pseudo-)terminal
// edits lines and recalls statements with the arrow keys, and a line
// typed after a statement's result, past its prompt, is read whole;
// Ctrl-D ends the shell.
func TestSQLShellOnATerminal(t *testing.T) {
	s := sqlServer(t)
	emu, prog := openPTY(t)
	defer emu.Close()
	var scr screen
	go func() {
		b := make([]byte, 4096)
		for {
			n, err := emu.Read(b)
			scr.mu.Lock()
			scr.buf.Write(b[:n])
			scr.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	done := make(chan int, 1)
	var errb bytes.Buffer
	go func() {
		done <- Main([]string{"sql", "--endpoint-url", s.URL, "--history", filepath.Join(t.TempDir(), "history")}, prog, prog, &errb)
	}()
	// waitFor waits until the screen shows want n times, and then a
	// prompt after the last: the shell reads its next line in raw mode.
	waitFor := func(want string, n int) {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for {
			out := scr.String()
			if strings.Count(out, want) >= n && strings.Contains(out[strings.LastIndex(out, want):], "dynago> ") {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("the screen never showed %q %d times, then a prompt:\n%s\n%s", want, n, out, errb.String())
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	typeKeys := func(keys string) {
		t.Helper()
		if _, err := emu.Write([]byte(keys)); err != nil {
			t.Fatal(err)
		}
	}
	waitFor("\\q to quit.", 1)
	typeKeys(`SELECT Total FROM "Orders" WHERE PK = 'USER#1' AND SK = 'ORDER#2';` + "\r")
	waitFor("-- 1 item(s)", 1)
	// Up recalls it; three backspaces and a new ending edit it.
	typeKeys("\x1b[A\x7f\x7f\x7f5';\r")
	waitFor("-- 1 item(s)", 2)
	typeKeys("\\history\r")
	waitFor("   2  SELECT", 1)
	typeKeys("\x04")
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit %d: %s", code, errb.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("Ctrl-D did not end the shell:\n%s", scr.String())
	}
	out := strings.ReplaceAll(scr.String(), "\r\n", "\n")
	for _, want := range []string{"Total\n-----\n30\n", "Total\n-----\n60\n",
		`   1  SELECT Total FROM "Orders" WHERE PK = 'USER#1' AND SK = 'ORDER#2';`,
		`   2  SELECT Total FROM "Orders" WHERE PK = 'USER#1' AND SK = 'ORDER#5';`} {
		if !strings.Contains(out, want) {
			t.Errorf("the screen lacks %q:\n%s", want, out)
		}
	}
}
