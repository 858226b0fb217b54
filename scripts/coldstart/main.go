// Command coldstart measures a dynago binary's start: the time from
// starting the process to the first answered ListTables, and the
// resident memory of the idle server after it (in all, and its
// file-backed and anonymous parts). It runs the binary's
// "serve --in-memory" on a free loopback port, n times, and prints the
// median and range:
//
//	go build -o /tmp/dynago ./cmd/dynago
//	go run ./scripts/coldstart -n 20 /tmp/dynago
//
// Given several binaries it runs them in turn (a, b, a, b, ...), so that
// a loaded machine's changing load falls on all of them alike, and
// reports each:
//
//	go run ./scripts/coldstart -n 20 /tmp/dynago-before /tmp/dynago-after
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

// rss is a process's resident memory in kB: all of it, the pages of
// files (its binary, mostly) and anonymous memory (heap, stacks).
type rss struct{ total, file, anon int }

func main() {
	n := flag.Int("n", 10, "runs of each binary")
	idle := flag.Duration("idle", 2*time.Second, "how long the server idles before its memory is read")
	extra := flag.String("args", "", "further serve flags, space-separated")
	flag.Parse()
	if flag.NArg() < 1 {
		fmt.Fprintln(os.Stderr, "usage: coldstart [-n runs] [-idle 2s] [-args '...'] path/to/dynago [path/to/another...]")
		os.Exit(2)
	}
	bins := flag.Args()
	starts := make([][]time.Duration, len(bins))
	mems := make([][]rss, len(bins))
	for range *n {
		for i, bin := range bins {
			d, m, err := once(bin, *idle, strings.Fields(*extra))
			if err != nil {
				fmt.Fprintln(os.Stderr, "coldstart:", err)
				os.Exit(1)
			}
			starts[i], mems[i] = append(starts[i], d), append(mems[i], m)
		}
	}
	for i, bin := range bins {
		if len(bins) > 1 {
			fmt.Printf("%s:\n", bin)
		}
		st := starts[i]
		slices.Sort(st)
		fmt.Printf("start to first answered ListTables: median %v (%v to %v) over %d runs\n",
			st[len(st)/2].Round(10*time.Microsecond), st[0].Round(10*time.Microsecond), st[len(st)-1].Round(10*time.Microsecond), *n)
		total, file, anon := median(mems[i], func(m rss) int { return m.total }), median(mems[i], func(m rss) int { return m.file }), median(mems[i], func(m rss) int { return m.anon })
		fmt.Printf("idle RSS after %v: median %.1f MB (%.1f to %.1f), of it file-backed %.1f MB and anonymous %.1f MB (medians)\n",
			*idle, mb(total[1]), mb(total[0]), mb(total[2]), mb(file[1]), mb(anon[1]))
	}
}

// median returns the least, median and greatest of f over ms.
func median(ms []rss, f func(rss) int) [3]int {
	v := make([]int, len(ms))
	for i, m := range ms {
		v[i] = f(m)
	}
	slices.Sort(v)
	return [3]int{v[0], v[len(v)/2], v[len(v)-1]}
}

func mb(kb int) float64 { return float64(kb) / 1024 }

// once starts the server, polls until ListTables answers, then idles and
// reads its resident memory, and stops the server.
func once(bin string, idle time.Duration, extra []string) (time.Duration, rss, error) {
	port, err := freePort()
	if err != nil {
		return 0, rss{}, err
	}
	url := "http://127.0.0.1:" + port
	cmd := exec.Command(bin, append([]string{"serve", "--in-memory", "--port", port, "--log-level", "warn"}, extra...)...)
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, rss{}, err
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
			return 0, rss{}, fmt.Errorf("%s did not answer within 10s", bin)
		}
		time.Sleep(100 * time.Microsecond)
	}
	time.Sleep(idle)
	m, err := residentMemory(cmd.Process.Pid)
	return took, m, err
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

// residentMemory reads VmRSS, RssFile and RssAnon of /proc/pid/status.
func residentMemory(pid int) (rss, error) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return rss{}, err
	}
	var m rss
	fields := map[string]*int{"VmRSS:": &m.total, "RssFile:": &m.file, "RssAnon:": &m.anon}
	seen := 0
	for _, line := range strings.Split(string(data), "\n") {
		name, v, ok := strings.Cut(line, "\t")
		if p := fields[name]; ok && p != nil {
			if *p, err = strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB")); err != nil {
				return rss{}, fmt.Errorf("/proc/%d/status: %s: %v", pid, name, err)
			}
			seen++
		}
	}
	if seen != len(fields) {
		return rss{}, fmt.Errorf("no VmRSS, RssFile or RssAnon in /proc/%d/status", pid)
	}
	return m, nil
}

func freePort() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return strconv.Itoa(l.Addr().(*net.TCPAddr).Port), nil
}
