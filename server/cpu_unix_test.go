//go:build unix

package server

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time this process has used, user and
// system, all threads; 0 if it cannot be read.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
