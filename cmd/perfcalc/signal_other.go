//go:build !unix

package main

import (
	"os"
	"syscall"
)

// dieBy ends the process with status 128 + the signal's number (130 for
// Ctrl-C), as shells report a process that a signal ended: a signal cannot
// be raised again here.
func dieBy(sig os.Signal) {
	code := 128 + 2
	if s, ok := sig.(syscall.Signal); ok {
		code = 128 + int(s)
	}
	os.Exit(code)
}
