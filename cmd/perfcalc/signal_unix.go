//go:build unix

package main

import (
	"os"
	"os/signal"
	"syscall"
	"time"
)

// dieBy ends the process by sig, with the signal's default action, as if
// perfcalc had not caught it.
func dieBy(sig os.Signal) {
	signal.Reset(sig)
	code := 128 + 15
	if s, ok := sig.(syscall.Signal); ok {
		code = 128 + int(s)
		syscall.Kill(os.Getpid(), s)
	}
	// The signal arrives asynchronously; exit as the shell would report it
	// if it has not ended the process within a second.
	time.Sleep(time.Second)
	os.Exit(code)
}
