// Command coldstart measures a dynago binary's start: the time from
// starting the process to the first answered ListTables, and the
// resident memory of the idle server after it. It runs the binary's
// "serve --in-memory" on a free loopback port, n times, and prints the
// median and range:
//
//	go build -o /tmp/dynago ./cmd/dynago
//	go run ./scripts/coldstart -n 20 /tmp/dynago
//
// Linux only for the memory (it reads /proc).
package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"
)

func main() {
	n := flag.Int("n", 10, "runs")
	idle := flag.Duration("idle", 2*time.Second, "how long the server idles before its memory is read")
	extra := flag.String("args", "", "further serve flags, space-separated")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: coldstart [-n runs] [-idle 2s] [-args '...'] path/to/dynago")
		os.Exit(2)
	}
	var starts []time.Duration
	var rss []int
	for range *n {
		d, kb, err := once(flag.Arg(0), *idle, strings.Fields(*extra))
		if err != nil {
			fmt.Fprintln(os.Stderr, "coldstart:", err)
			os.Exit(1)
		}
		starts, rss = append(starts, d), append(rss, kb)
	}
	slices.Sort(starts)
	slices.Sort(rss)
	fmt.Printf("start to first answered ListTables: median %v (%v to %v) over %d runs\n",
		starts[len(starts)/2].Round(10*time.Microsecond), starts[0].Round(10*time.Microsecond), starts[len(starts)-1].Round(10*time.Microsecond), *n)
	fmt.Printf("idle RSS after %v: median %.1f MB (%.1f to %.1f)\n", *idle, mb(rss[len(rss)/2]), mb(rss[0]), mb(rss[len(rss)-1]))
}

func mb(kb int) float64 { return float64(kb) / 1024 }

// once starts the server, polls until ListTables answers, then idles and
// reads VmRSS, and stops the server.
func once(bin string, idle time.Duration, extra []string) (time.Duration, int, error) {
	port, err := freePort()
	if err != nil {
		return 0, 0, err
	}
	url := "http://127.0.0.1:" + port
	cmd := exec.Command(bin, append([]string{"serve", "--in-memory", "--port", port, "--log-level", "warn"}, extra...)...)
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, 0, err
	}
	defer func() {
		cmd.Process.Kill()
		cmd.Wait()
	}()
	client := &http.Client{Timeout: time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	var took time.Duration
	for {
		if ok := listTables(client, url); ok {
			took = time.Since(start)
			break
		}
		if time.Since(start) > 10*time.Second {
			return 0, 0, fmt.Errorf("%s did not answer within 10s", bin)
		}
		time.Sleep(100 * time.Microsecond)
	}
	time.Sleep(idle)
	kb, err := vmRSS(cmd.Process.Pid)
	return took, kb, err
}

func listTables(c *http.Client, url string) bool {
	req, _ := http.NewRequest("POST", url, strings.NewReader("{}"))
	req.Header.Set("X-Amz-Target", "DynamoDB_20120810.ListTables")
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=coldstart/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0")
	resp, err := c.Do(req)
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

func vmRSS(pid int) (int, error) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			return strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
		}
	}
	return 0, fmt.Errorf("no VmRSS in /proc/%d/status", pid)
}

func freePort() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return strconv.Itoa(l.Addr().(*net.TCPAddr).Port), nil
}
