//go:build unix

package main

import "syscall"

// openNonBlocking opens a named pipe without waiting for a writer (the
// file is refused once opened: thresholdFiles.read).
const openNonBlocking = syscall.O_NONBLOCK
