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
// does, and the benchmark's own CPU, while a workload runs. What the run
// reports is compared with what the test reads itself around the run, so
// that no check depends on how busy the machine is: the run's window lies
// inside the test's, and CPU counters only grow.
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

	// One clock tick of slack where the kernel's accounting of a process
	// and of a CPU may round differently.
	const tick = 1.0 / ticksPerSec
	// A run in which the spinner or this process was never scheduled
	// during the workload (a machine busy with other work) proves
	// nothing about their accounting: run again, with a deadline.
	deadline := time.Now().Add(60 * time.Second)
	for attempt := 1; ; attempt++ {
		outer := readOuter(t, spin.Process.Pid)
		rep := run(t, context.Background(), cfg)
		outer.end(t)
		res := rep.Results[0]
		var line bytes.Buffer
		res.WriteLine(&line)
		t.Logf("run %d: %s", attempt, strings.TrimSpace(line.String()))
		t.Logf("around it: %.2fs wall, spin %.2fs, client %.2fs, machine %.2fs busy", outer.wall, outer.spin, outer.self, outer.busy)
		if len(res.CPU) != 3 {
			t.Fatalf("cpu %+v, want spin, client and machine", res.CPU)
		}
		got := map[string]CPUUse{}
		for _, u := range res.CPU {
			got[u.Group] = u
		}
		spinU, client, mach := got["spin"], got["client"], got["machine"]
		if (spinU.Seconds == 0 || client.Seconds == 0) && time.Now().Before(deadline) {
			continue
		}
		// Cores is CPU time over the run's wall time, which lies between
		// the workload's duration and the test's.
		wallLo, wallHi := res.Stats.Seconds, outer.wall
		for _, u := range res.CPU {
			if u.Seconds <= 0 || u.Cores < u.Seconds/wallHi-1e-9 || u.Cores > u.Seconds/wallLo+1e-9 {
				t.Errorf("%s: %+v: want CPU time, and cores its share of %.3f to %.3fs", u.Group, u, wallLo, wallHi)
			}
		}
		// The spinner is one process of one thread: its time is at most
		// what it used around the run, and at most the wall time.
		if spinU.Processes != 1 || len(spinU.Gone) != 0 || spinU.Seconds > outer.spin+tick || spinU.Seconds > outer.wall+tick {
			t.Errorf("spin: %+v, want one process, and at most %.2fs (its time around the run) and %.2fs (the wall time)", spinU, outer.spin, outer.wall)
		}
		if spinU.MicrosPerOp <= 0 || client.MicrosPerOp <= 0 {
			t.Errorf("no CPU time per call: spin %+v, client %+v", spinU, client)
		}
		if client.Seconds > outer.self+tick {
			t.Errorf("client: %+v, want at most %.2fs, its time around the run", client, outer.self)
		}
		// The machine: the spinner is runnable throughout the workload,
		// so some CPU is busy all that time; and no more than all of its
		// CPUs, or than it was busy around the run.
		if mach.Of != outer.cpus || mach.MicrosPerOp != 0 || mach.Seconds < res.Stats.Seconds-2*tick ||
			mach.Seconds > outer.busy+tick || mach.Seconds > float64(mach.Of)*outer.wall+tick {
			t.Errorf("machine: %+v, want %d CPUs, busy at least %.2fs (the workload) and at most %.2fs (around the run)",
				mach, outer.cpus, res.Stats.Seconds, outer.busy)
		}
		if res.LoadAvg < 0 {
			t.Errorf("load average %v", res.LoadAvg)
		}
		for _, want := range []string{"  cpu spin ", " cores ", "us/op", "client ", "machine ", "load "} {
			if !strings.Contains(line.String(), want) {
				t.Errorf("line lacks %q:\n%s", want, line.String())
			}
		}
		break
	}

	cfg.CPU = []CPUGroup{{Name: "db", PIDs: []int{1 << 30}}}
	if _, err := New(cfg); err == nil {
		t.Error("a group of a process that does not exist accepted")
	}
}

// outerCPU is what TestCPUGroups reads itself around a run: the wall
// time, and the CPU seconds of the spinner, of this process and of the
// machine (busy), between the readings.
type outerCPU struct {
	pid                    int
	at                     time.Time
	wall, spin, self, busy float64
	cpus                   int
}

func readOuter(t *testing.T, pid int) *outerCPU {
	o := &outerCPU{pid: pid}
	o.read(t, 1)
	o.at = time.Now()
	return o
}

// read adds sign times the counters now to o's.
func (o *outerCPU) read(t *testing.T, sign float64) {
	t.Helper()
	sp, err := readProcStat(o.pid)
	if err != nil {
		t.Fatal(err)
	}
	self, err := readProcStat(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	busy, _, cpus, err := machineTicks()
	if err != nil {
		t.Fatal(err)
	}
	o.spin -= sign * float64(sp.ticks) / ticksPerSec
	o.self -= sign * float64(self.ticks+self.children) / ticksPerSec
	o.busy -= sign * float64(busy) / ticksPerSec
	o.cpus = cpus
}

func (o *outerCPU) end(t *testing.T) {
	t.Helper()
	o.wall = time.Since(o.at).Seconds()
	o.read(t, -1)
}
