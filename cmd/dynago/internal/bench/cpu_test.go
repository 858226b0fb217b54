package bench

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

func TestParseProcStat(t *testing.T) {
	// A command name with spaces and parentheses, as a process may set.
	line := "4242 (my (odd) name) S 17 4242 4242 0 -1 4194560 500 0 0 0 123 45 6 7 20 0 3 0 100 1000 50\n"
	st, err := parseProcStat([]byte(line))
	if err != nil {
		t.Fatal(err)
	}
	if st.ppid != 17 || st.ticks != 123+45 || st.children != 6+7 {
		t.Errorf("parsed %+v", st)
	}
	for _, bad := range []string{"", "1 (x S 1 2", "1 (x) S 1 2 3", "1 (x) S 1 2 3 4 5 6 7 8 9 x 1 2 3"} {
		if _, err := parseProcStat([]byte(bad)); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

// TestTreeTicks checks the accounting of a process tree between two
// samples: descendants count, others do not, and a child that exits moves
// its time into its parent's children count without being lost or counted
// twice.
func TestTreeTicks(t *testing.T) {
	before := map[int]procStat{
		1:  {ppid: 0, ticks: 1000},
		10: {ppid: 1, ticks: 100, children: 5},
		11: {ppid: 10, ticks: 40},
		12: {ppid: 11, ticks: 30},
		13: {ppid: 1, ticks: 500},
	}
	ticks, n, gone := treeTicks(before, []int{10, 12, 99})
	if ticks != 105+40+30 || n != 3 || len(gone) != 1 || gone[0] != 99 {
		t.Fatalf("before: %d ticks in %d processes, gone %v", ticks, n, gone)
	}
	// 12 used 20 more ticks and exited, and 11 reaped it; 11 used 10 more;
	// 14, new, used 7.
	after := map[int]procStat{
		1:  {ppid: 0, ticks: 2000},
		10: {ppid: 1, ticks: 100, children: 5},
		11: {ppid: 10, ticks: 50, children: 50},
		13: {ppid: 1, ticks: 900},
		14: {ppid: 10, ticks: 7},
	}
	ticks2, n, _ := treeTicks(after, []int{10})
	if ticks2-ticks != 20+10+7 || n != 3 {
		t.Errorf("after: %d ticks more in %d processes, want 37 in 3", ticks2-ticks, n)
	}
}

// TestCPUGroups measures a process that spins, as a server under load
// does, and the benchmark's own CPU, while a workload runs.
func TestCPUGroups(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc: CPU accounting is Linux only")
	}
	spin := exec.Command("sh", "-c", "while :; do :; done")
	if err := spin.Start(); err != nil {
		t.Skip(err)
	}
	defer func() {
		_ = spin.Process.Kill()
		_ = spin.Wait()
	}()
	cfg := ceilingConfig(ModeRaw, WorkloadPut)
	cfg.Clients = 1
	cfg.Duration = 600 * time.Millisecond
	cfg.CPU = []CPUGroup{{Name: "spin", PIDs: []int{spin.Process.Pid}}}
	before, err := readProcStat(spin.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	rep := run(t, context.Background(), cfg)
	after, err := readProcStat(spin.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	// What the spinner used around the whole run, table set-up included:
	// the workload's share is at most that.
	outer := float64(after.ticks-before.ticks) / ticksPerSec
	res := rep.Results[0]
	var line bytes.Buffer
	res.WriteLine(&line)
	t.Logf("%s", strings.TrimSpace(line.String()))
	if len(res.CPU) != 3 {
		t.Fatalf("cpu %+v, want spin, client and machine", res.CPU)
	}
	got := map[string]CPUUse{}
	for _, u := range res.CPU {
		got[u.Group] = u
	}
	// One core spinning, or less on a machine busy with other work.
	u := got["spin"]
	if u.Cores > 1.2 || u.Seconds > outer+0.02 || u.Processes != 1 || len(u.Gone) != 0 {
		t.Errorf("spin: %+v, want at most one core of one process, and %.2fs at most", u, outer)
	}
	if outer >= 0.1 && (u.Seconds <= 0 || u.MicrosPerOp <= 0) {
		t.Errorf("spin: %+v: nothing of the %.2fs it used around the run", u, outer)
	}
	if u := got["client"]; u.Cores <= 0 || u.Seconds <= 0 {
		t.Errorf("client: %+v", u)
	}
	if u := got["machine"]; u.Of < 1 || u.Cores < got["spin"].Cores*0.9-0.05 || u.Cores > float64(u.Of)+0.1 {
		t.Errorf("machine: %+v", u)
	}
	if res.LoadAvg < 0 {
		t.Errorf("load average %v", res.LoadAvg)
	}
	for _, want := range []string{"  cpu spin ", " cores ", "us/op", "client ", "machine ", "load "} {
		if !strings.Contains(line.String(), want) {
			t.Errorf("line lacks %q:\n%s", want, line.String())
		}
	}

	cfg.CPU = []CPUGroup{{Name: "db", PIDs: []int{1 << 30}}}
	if _, err := New(cfg); err == nil {
		t.Error("a group of a process that does not exist accepted")
	}
}
