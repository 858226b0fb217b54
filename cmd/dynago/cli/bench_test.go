package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/dynago/dynago/testserver"
)

func benchEnv() (*Env, *bytes.Buffer, *bytes.Buffer) {
	var out, errOut bytes.Buffer
	return &Env{Stdout: &out, Stderr: &errOut, Ctx: context.Background()}, &out, &errOut
}

func TestBenchCeilingText(t *testing.T) {
	env, out, errOut := benchEnv()
	err := runBench(env, []string{"--ceiling", "--clients", "2", "--duration", "150ms", "--keys", "100", "--mode", "raw"})
	if err != nil {
		t.Fatalf("%v\nstderr:\n%s", err, errOut)
	}
	text := out.String()
	for _, want := range []string{"mode raw", "clients 2", "GOMAXPROCS", "\nput      2 clients", "\nget      2 clients", "errors 0\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
}

func TestBenchCeilingReads(t *testing.T) {
	env, out, errOut := benchEnv()
	err := runBench(env, []string{"--ceiling", "--clients", "2", "--ops", "100", "--keys", "200", "--partitions", "5",
		"--page-size", "7", "--workload", "query, scan,get", "--mode", "raw"})
	if err != nil {
		t.Fatalf("%v\nstderr:\n%s", err, errOut)
	}
	text := out.String()
	for _, want := range []string{"tables dynago-bench, dynago-bench-sorted", "partitions 5  page size 7",
		"\nquery    2 clients", "\nscan     2 clients", " items/s ", "\nget      2 clients", "errors 0\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
	for _, want := range []string{"creating table dynago-bench-sorted", "preloading dynago-bench-sorted: 200 items", "preloaded in"} {
		if !strings.Contains(errOut.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
}

func TestBenchCeilingJSON(t *testing.T) {
	env, out, errOut := benchEnv()
	err := runBench(env, []string{"--ceiling", "--clients", "2", "--ops", "200", "--workload", "mixed", "--json"})
	if err != nil {
		t.Fatalf("%v\nstderr:\n%s", err, errOut)
	}
	var rep struct {
		Mode    string
		Results []struct {
			Workload string
			Ops      int
			Errors   int
			ByOp     []struct{ Op string } `json:"by_op"`
		}
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("%v in:\n%s", err, out)
	}
	if rep.Mode != "sdk" || len(rep.Results) != 1 || rep.Results[0].Workload != "mixed" ||
		rep.Results[0].Ops != 200 || rep.Results[0].Errors != 0 || len(rep.Results[0].ByOp) != 2 {
		t.Errorf("unexpected report:\n%s", out)
	}
}

func TestBenchFlagErrors(t *testing.T) {
	for _, args := range [][]string{
		{"--workload", "erase"},
		{"--workload", "query", "--partitions", "0"},
		{"--workload", "put,scan", "--keys", "10", "--partitions", "11"},
		{"--workload", "scan", "--page-size", "0"},
		{"--mode", "grpc"},
		{"--clients", "0"},
		{"--endpoint", "localhost:8000"},
		{"--endpoint", "http://127.0.0.1:8000,localhost:8001"},
		{"--workload", "transact", "--keys", "1"},
		{"--cpu-server", "12x"},
		{"--cpu-db", "0"},
		{"--nope"},
		{"extra"},
	} {
		env, _, errOut := benchEnv()
		if err := runBench(env, args); !errors.Is(err, errUsage) {
			t.Errorf("%v: got %v, want a usage error", args, err)
		}
		if errOut.Len() == 0 {
			t.Errorf("%v: nothing said about the error", args)
		}
	}
	env, helpOut, _ := benchEnv()
	if err := runBench(env, []string{"--help"}); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("--help: got %v", err)
	}
	for _, want := range []string{"dynago bench --ceiling", "-workload", "-mode", "p99",
		"query", "scan", "ScanIndexForward false", "LastEvaluatedKey", "-partitions", "-page-size", "items/s",
		"update", "SET v = :v ADD n :one", "transact", "TransactWriteItems", "attribute_exists(pk)",
		"client i calls endpoint i mod", "-cpu-server", "-cpu-db", "Linux only", "postmaster", "pgrep -P"} {
		if !strings.Contains(helpOut.String(), want) {
			t.Errorf("--help (on stdout) lacks %q", want)
		}
	}
}

// TestBenchEndpointsAndCPU runs update and transact through two endpoints
// (of one server) with this process, which runs the server, as both CPU
// groups: each workload has a line per endpoint and one of CPU use.
func TestBenchEndpointsAndCPU(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc: CPU accounting is Linux only")
	}
	s := testserver.Start(t)
	env, out, errOut := benchEnv()
	pid := strconv.Itoa(os.Getpid())
	err := runBench(env, []string{"--endpoint", s.URL + "," + s.URL + "/", "--clients", "3", "--ops", "150", "--keys", "100",
		"--item-size", "200", "--workload", "update,transact", "--cpu-server", pid, "--cpu-db", pid + "\n" + pid})
	if err != nil {
		t.Fatalf("%v\nstderr:\n%s", err, errOut)
	}
	text := out.String()
	t.Logf("\n%s", text)
	for _, want := range []string{"endpoint i mod 2", "\nupdate   3 clients", "\ntransact   3 clients",
		"\n  at " + s.URL + "   2 clients", "\n  at " + s.URL + "   1 clients", "\n  cpu server ", "  db ", "  client ", "  machine "} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if n := strings.Count(text, "errors 0\n"); n != 6 {
		t.Errorf("%d lines with no errors, want 6", n)
	}
}

// --serve-ceiling serves the ceiling server apart, printing its URL, for
// another run to load as an endpoint, until interrupted.
func TestBenchServeCeiling(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	served := make(chan error, 1)
	go func() {
		served <- runBench(&Env{Stdout: pw, Stderr: io.Discard, Ctx: ctx}, []string{"--serve-ceiling"})
		pw.Close()
	}()
	url, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, pr)
	env, out, errOut := benchEnv()
	err = runBench(env, []string{"--endpoint", strings.TrimSpace(url), "--clients", "2", "--ops", "100", "--keys", "100",
		"--workload", "put,get,query", "--mode", "raw"})
	if err != nil {
		t.Fatalf("%v\nstderr:\n%s", err, errOut)
	}
	if n := strings.Count(out.String(), "errors 0\n"); n != 3 {
		t.Errorf("want 3 workloads without errors:\n%s", out)
	}
	cancel()
	if err := <-served; err != nil {
		t.Fatal(err)
	}
}

func TestBenchNoLimit(t *testing.T) {
	env, out, errOut := benchEnv()
	err := runBench(env, []string{"--ceiling", "--clients", "2", "--ops", "20", "--keys", "200", "--partitions", "5",
		"--no-limit", "--workload", "scan,fscan", "--mode", "raw"})
	if err != nil {
		t.Fatalf("%v\nstderr:\n%s", err, errOut)
	}
	for _, want := range []string{"partitions 5  pages of 1 MB (no Limit)", "\nscan     2 clients", "\nfscan    2 clients", "errors 0\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	env, helpOut, _ := benchEnv()
	if err := runBench(env, []string{"--help"}); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("--help: got %v", err)
	}
	for _, want := range []string{"-no-limit", "send no Limit", "1 MB"} {
		if !strings.Contains(helpOut.String(), want) {
			t.Errorf("--help lacks %q", want)
		}
	}
}
