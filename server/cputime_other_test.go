//go:build !unix

package server

import "time"

// processCPU is unknown here: benchmarks report no CPU per call.
func processCPU() time.Duration { return 0 }
