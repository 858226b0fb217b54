//go:build unix

package server

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time, user and system, the process has used:
// a benchmark's CPU per call, unlike its time per call, does not count
// the time it waited for a core on a busy machine.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
