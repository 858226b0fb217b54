package bench

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// CPU accounting reads Linux's /proc: a process's CPU time is the utime
// and stime fields of /proc/PID/stat (all its threads, user and system),
// the machine's the first line of /proc/stat. Both count in clock ticks of
// USER_HZ, which Linux fixes at 100 a second on the architectures Go runs
// on.
const (
	procDir     = "/proc"
	ticksPerSec = 100
)

// CPUGroup names a set of processes whose CPU use each workload reports,
// such as the servers or the database. Each PID stands for the process
// and all its descendants, found afresh at the start and the end of each
// workload, so that a database's root process (PostgreSQL's postmaster)
// covers the backends it starts and stops.
type CPUGroup struct {
	Name string
	PIDs []int
}

// CPUUse is the CPU a group of processes used during one workload.
type CPUUse struct {
	// Group is a CPUGroup's name, "client" for the benchmark's own
	// process, or "machine" for all processes of the machine.
	Group string `json:"group"`
	// PIDs are the group's processes as given (without descendants), and
	// Processes how many the group counted at the end, descendants
	// included.
	PIDs      []int `json:"pids,omitempty"`
	Processes int   `json:"processes,omitempty"`
	// Seconds is the CPU time used, user and system; Cores that divided by
	// the workload's wall time, the cores kept busy on average.
	Seconds float64 `json:"cpu_seconds"`
	Cores   float64 `json:"cores"`
	// MicrosPerOp is the CPU time per successful call, in microseconds;
	// zero if there was none.
	MicrosPerOp float64 `json:"cpu_us_per_op,omitempty"`
	// MicrosPerItem is the CPU time per item of a workload that counts
	// items (Stats.Items), in microseconds; zero for the others.
	MicrosPerItem float64 `json:"cpu_us_per_item,omitempty"`
	// Of is, for the machine, the number of CPUs it has.
	Of int `json:"of,omitempty"`
	// Gone lists the given PIDs that no longer existed at the end: their
	// CPU time after the start is lost.
	Gone []int `json:"gone,omitempty"`
}

// procStat is what the benchmark reads of /proc/PID/stat: the parent's PID
// and the CPU time, in ticks, of the process (utime+stime) and of its
// children that it waited for (cutime+cstime).
type procStat struct {
	ppid     int
	ticks    uint64
	children uint64
}

// parseProcStat parses the contents of /proc/PID/stat. The command name,
// in parentheses, may hold spaces and parentheses itself, so fields are
// counted from the last ')'.
func parseProcStat(b []byte) (procStat, error) {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return procStat{}, errors.New("no ')' in stat")
	}
	// After the name: state(3) ppid(4) ... utime(14) stime(15) cutime(16)
	// cstime(17), counting from 1 as proc(5) does.
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 15 {
		return procStat{}, fmt.Errorf("%d fields after the name, want at least 15", len(f))
	}
	var n [5]int64
	for j, at := range []int{1, 11, 12, 13, 14} {
		v, err := strconv.ParseInt(f[at], 10, 64)
		if err != nil {
			return procStat{}, fmt.Errorf("field %d: %w", at+3, err)
		}
		n[j] = v
	}
	return procStat{ppid: int(n[0]), ticks: uint64(n[1] + n[2]), children: uint64(max(n[3]+n[4], 0))}, nil
}

func readProcStat(pid int) (procStat, error) {
	b, err := os.ReadFile(procDir + "/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procStat{}, err
	}
	return parseProcStat(b)
}

// allProcs reads the stat of every process of the machine. Processes that
// exit while it reads are skipped.
func allProcs() (map[int]procStat, error) {
	entries, err := os.ReadDir(procDir)
	if err != nil {
		return nil, err
	}
	procs := make(map[int]procStat, len(entries))
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid <= 0 {
			continue
		}
		if st, err := readProcStat(pid); err == nil {
			procs[pid] = st
		}
	}
	return procs, nil
}

// treeTicks returns the CPU ticks of the processes roots and all their
// descendants: for each, its own time and that of the children it has
// waited for. A child that exits between two samples moves its time into
// its parent's children count, so the difference of two samples is the
// time the tree used between them, children that came and went included.
// It also returns how many processes it counted and which roots were
// missing.
func treeTicks(procs map[int]procStat, roots []int) (ticks uint64, counted int, gone []int) {
	kids := map[int][]int{}
	for pid, st := range procs {
		kids[st.ppid] = append(kids[st.ppid], pid)
	}
	seen := map[int]bool{}
	queue := []int{}
	for _, r := range roots {
		if _, ok := procs[r]; !ok {
			gone = append(gone, r)
			continue
		}
		queue = append(queue, r)
	}
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		if seen[pid] {
			continue
		}
		seen[pid] = true
		st := procs[pid]
		ticks += st.ticks + st.children
		queue = append(queue, kids[pid]...)
	}
	return ticks, len(seen), gone
}

// machineTicks returns the busy and total ticks of all CPUs, from the
// first line of /proc/stat, and the number of CPUs. Busy is all but idle
// and iowait.
func machineTicks() (busy, total uint64, cpus int, err error) {
	b, err := os.ReadFile(procDir + "/stat")
	if err != nil {
		return 0, 0, 0, err
	}
	lines := strings.Split(string(b), "\n")
	f := strings.Fields(lines[0])
	if len(f) < 5 || f[0] != "cpu" {
		return 0, 0, 0, errors.New("/proc/stat: no cpu line first")
	}
	for j, s := range f[1:] {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return 0, 0, 0, fmt.Errorf("/proc/stat: %w", err)
		}
		// user nice system idle iowait irq softirq steal guest guest_nice:
		// guest time is counted in user and nice already.
		if j >= 8 {
			break
		}
		total += v
		if j != 3 && j != 4 {
			busy += v
		}
	}
	for _, l := range lines[1:] {
		if strings.HasPrefix(l, "cpu") {
			cpus++
		}
	}
	return busy, total, cpus, nil
}

// cpuMeter samples the CPU time of the run's groups, the benchmark's own
// process and the machine.
type cpuMeter struct {
	groups []CPUGroup
	self   int
}

// cpuSample is one reading of a cpuMeter.
type cpuSample struct {
	at      time.Time
	ok      bool     // false if /proc could not be read
	groups  []uint64 // ticks of each group
	counted []int
	gone    [][]int
	self    uint64
	busy    uint64
	cpus    int
}

// newCPUMeter returns a meter for groups, checking that /proc can be read
// and that every PID exists. Without groups, a system without /proc gets a
// meter that measures nothing.
func newCPUMeter(groups []CPUGroup) (*cpuMeter, error) {
	m := &cpuMeter{groups: groups, self: os.Getpid()}
	if _, err := readProcStat(m.self); err != nil {
		if len(groups) > 0 {
			return nil, fmt.Errorf("cpu accounting reads Linux's %s/PID/stat: %w", procDir, err)
		}
		return nil, nil
	}
	for _, g := range groups {
		for _, pid := range g.PIDs {
			if _, err := readProcStat(pid); err != nil {
				return nil, fmt.Errorf("cpu %s: process %d: %w", g.Name, pid, err)
			}
		}
	}
	return m, nil
}

// sample reads the CPU time of everything the meter watches.
func (m *cpuMeter) sample() cpuSample {
	s := cpuSample{at: time.Now()}
	if m == nil {
		return s
	}
	var procs map[int]procStat
	if len(m.groups) > 0 {
		var err error
		if procs, err = allProcs(); err != nil {
			return s
		}
	}
	for _, g := range m.groups {
		t, n, gone := treeTicks(procs, g.PIDs)
		s.groups = append(s.groups, t)
		s.counted = append(s.counted, n)
		s.gone = append(s.gone, gone)
	}
	self, err := readProcStat(m.self)
	if err != nil {
		return s
	}
	s.self = self.ticks + self.children
	busy, _, cpus, err := machineTicks()
	if err != nil {
		return s
	}
	s.busy, s.cpus, s.ok = busy, cpus, true
	return s
}

// use returns the CPU used between samples a and b, in which ops calls
// succeeded: one CPUUse per group, then the client's and the machine's.
func (m *cpuMeter) use(a, b cpuSample, ops, items uint64) []CPUUse {
	if m == nil || !a.ok || !b.ok {
		return nil
	}
	wall := b.at.Sub(a.at).Seconds()
	if wall <= 0 {
		return nil
	}
	mk := func(name string, from, to uint64) CPUUse {
		u := CPUUse{Group: name}
		if to > from {
			u.Seconds = float64(to-from) / ticksPerSec
		}
		u.Cores = u.Seconds / wall
		if ops > 0 {
			u.MicrosPerOp = u.Seconds / float64(ops) * 1e6
		}
		if items > 0 {
			u.MicrosPerItem = u.Seconds / float64(items) * 1e6
		}
		return u
	}
	var out []CPUUse
	for i, g := range m.groups {
		u := mk(g.Name, a.groups[i], b.groups[i])
		u.PIDs = g.PIDs
		u.Processes = b.counted[i]
		u.Gone = b.gone[i]
		out = append(out, u)
	}
	out = append(out, mk("client", a.self, b.self))
	mach := mk("machine", a.busy, b.busy)
	mach.MicrosPerOp, mach.MicrosPerItem = 0, 0
	mach.Of = b.cpus
	return append(out, mach)
}

// loadAvg returns the machine's load average over the last minute, or a
// negative number if it cannot be read.
func loadAvg() float64 {
	b, err := os.ReadFile(procDir + "/loadavg")
	if err != nil {
		return -1
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return -1
	}
	v, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return -1
	}
	return v
}
