package testserver

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// ChildMainEnv is the environment variable that makes a test binary run
// as the dynago binary (see ChildMain).
const ChildMainEnv = "DYNAGO_TEST_MAIN"

// ChildMain lets the test binary double as the dynago binary, so
// process-level tests (restarts, signals, crashes, locks) need no separate
// build. With ChildMainEnv set to 1 it runs main on the process's
// arguments and exits with its code; otherwise it returns.
//
// Call it first in TestMain of a package whose tests use StartProcess,
// with the CLI's entry point:
//
//	func TestMain(m *testing.M) {
//		testserver.ChildMain(cli.Main)
//		os.Exit(m.Run())
//	}
//
// main is a parameter rather than an import because cmd/dynago/cli's own
// tests use this package.
func ChildMain(main func(args []string, stdin io.Reader, stdout, stderr io.Writer) int) {
	if os.Getenv(ChildMainEnv) == "1" {
		os.Exit(main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
}

// Process is a "dynago serve" subprocess of the test binary, started by
// StartProcess.
type Process struct {
	// Cmd is the running command; tests signal it through Cmd.Process.
	Cmd *exec.Cmd
	// URL is the server's base URL, http://127.0.0.1:PORT (https:// with
	// --tls-cert).
	URL string

	mu   sync.Mutex
	log  strings.Builder
	done chan error // holds the exit result once the process has ended
}

// addrRE finds the address in serve's "dynago serving" line, in the text
// or the JSON log format, over HTTP or HTTPS.
var addrRE = regexp.MustCompile(`dynago serving.*?addr"?[=:]"?(https?://[0-9.:]+)`)

// StartProcess starts "dynago serve --port 0 args..." as a subprocess of
// the test binary, which must call ChildMain in its TestMain, and waits
// for the address in its log. It fails the test if the server exits or
// does not listen within a minute. The process is killed when the test
// ends, if still running.
func StartProcess(t testing.TB, args ...string) *Process {
	t.Helper()
	return startProcess(t, nil, append([]string{"--port", "0"}, processStoreArgs(t, args)...))
}

// startProcess starts "dynago serve args..." through the command wrap
// (none when empty; e.g. "ip netns exec NAME"), as StartProcess.
func startProcess(t testing.TB, wrap []string, args []string) *Process {
	t.Helper()
	argv := append(append(slices.Clone(wrap), os.Args[0], "serve"), args...)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), ChildMainEnv+"=1")
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &Process{Cmd: cmd, done: make(chan error, 1)}
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			line := sc.Text()
			p.mu.Lock()
			p.log.WriteString(line + "\n")
			p.mu.Unlock()
			if m := addrRE.FindStringSubmatch(line); m != nil {
				select {
				case addr <- m[1]:
				default:
				}
			}
		}
		io.Copy(io.Discard, pipe)
		p.done <- cmd.Wait()
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-p.done
	})
	select {
	case a := <-addr:
		p.URL = a
	case err := <-p.done:
		p.done <- err
		t.Fatalf("server exited early: %v\n%s", err, p.Log())
	case <-time.After(time.Minute):
		t.Fatalf("server did not start within a minute:\n%s", p.Log())
	}
	return p
}

// Log returns what the server has written to stderr so far.
func (p *Process) Log() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.log.String()
}

// Client returns an SDK client for the server, as NewClient.
func (p *Process) Client() *dynamodb.Client {
	return NewClient(p.URL)
}

// Wait waits for the process to exit and returns its exit error, nil for
// a clean exit. It fails the test if that takes over a minute.
func (p *Process) Wait(t testing.TB) error {
	t.Helper()
	select {
	case err := <-p.done:
		p.done <- err
		return err
	case <-time.After(time.Minute):
		t.Fatalf("server did not exit within a minute:\n%s", p.Log())
		return nil
	}
}

// Stop sends SIGTERM and waits for the process to exit, failing the test
// unless it exits cleanly within a minute.
func (p *Process) Stop(t testing.TB) {
	t.Helper()
	if err := p.Cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := p.Wait(t); err != nil {
		t.Fatalf("server exit after SIGTERM: %v\n%s", err, p.Log())
	}
}
