//go:build !linux

package cputime

import "time"

// threadCPU is not available here: only wall time is reported.
func threadCPU() (time.Duration, bool) { return 0, false }
