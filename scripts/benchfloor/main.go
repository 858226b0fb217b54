// Command benchfloor measures how much server CPU dynago spends per call
// against the floor: the canned-response server of "dynago bench
// --ceiling", which does only the HTTP and JSON work any server must. It
// builds dynago from the module it is run in, then, for each target in
// turn, starts the target's server as a process of its own and runs
// "dynago bench" against it with the same flags and workloads, counting
// the server's CPU (--cpu-server):
//
//   - floor: "dynago bench --serve-ceiling", the canned server;
//   - memory: "dynago serve --in-memory";
//   - disk: "dynago serve --data-dir" in a fresh temporary folder;
//
// and prints a table of server CPU per successful call, in microseconds,
// with dynago's ratio to the floor, and the client's CPU per call, then,
// for the workloads that count items (batchwrite: written, scan: returned,
// fscan: scanned), the same per item:
//
//	go run ./scripts/benchfloor
//	go run ./scripts/benchfloor -duration 10s -workloads put,get,query
//	go run ./scripts/benchfloor -workloads scan,fscan -no-limit  # 1 MB pages
//
// Figures are medians over -rounds rounds, each running all targets in
// turn, so that a loaded machine's changing load falls on all of them
// alike.
//
// Linux only: CPU is read from /proc, by dynago bench.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// result is what benchfloor reads of one workload of dynago bench --json.
type result struct {
	Workload string  `json:"workload"`
	Ops      uint64  `json:"ops"`
	Errors   int64   `json:"errors"`
	OpsPerS  float64 `json:"ops_per_sec"`
	CPU      []struct {
		Group         string  `json:"group"`
		MicrosPerOp   float64 `json:"cpu_us_per_op"`
		MicrosPerItem float64 `json:"cpu_us_per_item"`
	} `json:"cpu"`
}

// cpu returns the CPU per call of the group named g, or -1.
func (r result) cpu(g string) float64 {
	for _, u := range r.CPU {
		if u.Group == g {
			return u.MicrosPerOp
		}
	}
	return -1
}

// cpuPerItem returns the CPU per item of the group named g, or -1.
func (r result) cpuPerItem(g string) float64 {
	for _, u := range r.CPU {
		if u.Group == g {
			return u.MicrosPerItem
		}
	}
	return -1
}

// perItem lists the workloads whose CPU per item is printed too.
var perItem = []string{"batchwrite", "scan", "fscan"}

// targets in the order they run each round.
var targets = []string{"floor", "memory", "disk"}

func main() {
	duration := flag.Duration("duration", 5*time.Second, "how long each workload runs against each target")
	clients := flag.Int("clients", 8, "concurrent clients")
	mode := flag.String("mode", "raw", "client: raw (pre-encoded JSON, the least client cost) or sdk (aws-sdk-go-v2)")
	workloads := flag.String("workloads", "put,get,delete,query,update,transact,batchwrite,scan,fscan", "dynago bench workloads, comma-separated")
	keys := flag.Int("keys", 10000, "dynago bench --keys")
	rounds := flag.Int("rounds", 1, "rounds of all targets; figures are the medians over rounds")
	bin := flag.String("dynago", "", "a built dynago binary to use instead of building one")
	noLimit := flag.Bool("no-limit", false, "dynago bench --no-limit: query, scan and fscan read pages of 1 MB, the floor's too")
	flag.Parse()
	if err := run(*bin, *duration, *clients, *mode, *workloads, *keys, *rounds, *noLimit); err != nil {
		fmt.Fprintln(os.Stderr, "benchfloor:", err)
		os.Exit(1)
	}
}

func run(bin string, duration time.Duration, clients int, mode, workloads string, keys, rounds int, noLimit bool) error {
	tmp, err := os.MkdirTemp("", "benchfloor")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if bin == "" {
		bin = filepath.Join(tmp, "dynago")
		fmt.Fprintln(os.Stderr, "building dynago")
		build := exec.Command("go", "build", "-o", bin, "./cmd/dynago")
		build.Stdout, build.Stderr = os.Stderr, os.Stderr
		if err := build.Run(); err != nil {
			return fmt.Errorf("go build ./cmd/dynago (run benchfloor from the module's root): %w", err)
		}
	}
	args := []string{"bench", "--json", "--mode", mode, "--clients", strconv.Itoa(clients),
		"--duration", duration.String(), "--keys", strconv.Itoa(keys), "--workload", workloads}
	if noLimit {
		args = append(args, "--no-limit")
	}
	// runs[target][workload] are the results of each round.
	runs := map[string]map[string][]result{}
	for round := range rounds {
		for _, t := range targets {
			fmt.Fprintf(os.Stderr, "round %d of %d: %s\n", round+1, rounds, t)
			rs, err := runTarget(bin, t, filepath.Join(tmp, fmt.Sprintf("data-%d", round)), args)
			if err != nil {
				return fmt.Errorf("%s: %w", t, err)
			}
			if runs[t] == nil {
				runs[t] = map[string][]result{}
			}
			for _, r := range rs {
				if r.Errors > 0 {
					return fmt.Errorf("%s: %s: %d failed calls", t, r.Workload, r.Errors)
				}
				runs[t][r.Workload] = append(runs[t][r.Workload], r)
			}
		}
	}
	fmt.Printf("server CPU per call, µs (median of %d round(s) of %v, %d %s clients); × is dynago over the floor\n",
		rounds, duration, clients, mode)
	table := func(names []string, of func(result, string) float64) {
		fmt.Printf("%-10s %9s %9s %7s %9s %7s %9s\n", "workload", "floor", "memory", "×", "disk", "×", "client")
		for _, w := range names {
			cpu := func(target, group string) float64 {
				var v []float64
				for _, r := range runs[target][w] {
					v = append(v, of(r, group))
				}
				return median(v)
			}
			floor := cpu("floor", "server")
			line := fmt.Sprintf("%-10s %9.1f", w, floor)
			for _, t := range targets[1:] {
				s := cpu(t, "server")
				line += fmt.Sprintf(" %9.1f %7.1f", s, s/floor)
			}
			fmt.Printf("%s %9.1f\n", line, cpu("floor", "client"))
		}
	}
	var names, itemNames []string
	for _, w := range strings.Split(workloads, ",") {
		w = strings.TrimSpace(w)
		names = append(names, w)
		if slices.Contains(perItem, w) {
			itemNames = append(itemNames, w)
		}
	}
	table(names, result.cpu)
	if len(itemNames) > 0 {
		fmt.Printf("\nserver CPU per item, µs (batchwrite: items written; scan: returned; fscan: scanned)\n")
		table(itemNames, result.cpuPerItem)
	}
	return nil
}

// runTarget starts target's server, runs dynago bench with args against
// it and returns the workloads' results.
func runTarget(bin, target, dataDir string, args []string) ([]result, error) {
	var (
		srv *exec.Cmd
		url string
	)
	if target == "floor" {
		srv = exec.Command(bin, "bench", "--serve-ceiling")
		if slices.Contains(args, "--no-limit") {
			srv.Args = append(srv.Args, "--no-limit") // pages of 1 MB
		}
	} else {
		port, err := freePort()
		if err != nil {
			return nil, err
		}
		url = "http://127.0.0.1:" + port
		srv = exec.Command(bin, "serve", "--port", port, "--log-level", "warn")
		if target == "memory" {
			srv.Args = append(srv.Args, "--in-memory")
		} else {
			srv.Args = append(srv.Args, "--data-dir", dataDir)
		}
	}
	srv.Stderr = os.Stderr
	var out io.Reader
	if target == "floor" {
		// The ceiling server prints its URL, then nothing more.
		pipe, err := srv.StdoutPipe()
		if err != nil {
			return nil, err
		}
		out = pipe
	} else {
		srv.Stdout = os.Stderr
	}
	if err := srv.Start(); err != nil {
		return nil, err
	}
	defer stop(srv)
	if out != nil {
		line, err := bufio.NewReader(out).ReadString('\n')
		if err != nil {
			return nil, fmt.Errorf("dynago bench --serve-ceiling printed no URL: %w", err)
		}
		url = strings.TrimSpace(line)
	}
	if err := waitReady(url); err != nil {
		return nil, err
	}
	return benchJSON(bin, append(args, "--endpoint", url, "--cpu-server", strconv.Itoa(srv.Process.Pid)))
}

// stop interrupts srv and waits for it to exit, killing it after 10s.
func stop(srv *exec.Cmd) {
	srv.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { srv.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		srv.Process.Kill()
		<-done
	}
}

// benchJSON runs dynago with args, which include --json, and decodes its
// results.
func benchJSON(bin string, args []string) ([]result, error) {
	var out bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Stdout = &out
	cmd.Stderr = nil // progress lines: not wanted
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("dynago %s: %w", strings.Join(args, " "), err)
	}
	var rep struct {
		Results []result `json:"results"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		return nil, fmt.Errorf("dynago bench --json: %w", err)
	}
	for _, r := range rep.Results {
		if r.cpu("client") < 0 {
			return nil, errors.New("dynago bench reported no CPU use: it reads Linux's /proc")
		}
	}
	return rep.Results, nil
}

// waitReady polls url with ListTables until it answers, for up to 10s.
func waitReady(url string) error {
	client := &http.Client{Timeout: time.Second}
	for start := time.Now(); time.Since(start) < 10*time.Second; time.Sleep(10 * time.Millisecond) {
		req, _ := http.NewRequest("POST", url, strings.NewReader("{}"))
		req.Header.Set("X-Amz-Target", "DynamoDB_20120810.ListTables")
		req.Header.Set("Content-Type", "application/x-amz-json-1.0")
		req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=benchfloor/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0")
		resp, err := client.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
	}
	return fmt.Errorf("%s did not answer within 10s", url)
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	v = slices.Clone(v)
	slices.Sort(v)
	return v[len(v)/2]
}

func freePort() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return strconv.Itoa(l.Addr().(*net.TCPAddr).Port), nil
}
