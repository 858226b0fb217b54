//go:build unix

package vector

import (
	"syscall"
	"time"
)

// cpuTime is the process's CPU time so far (user and system), which the
// benchmarks report beside wall time: on a shared machine it is the
// steadier figure.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
