//go:build !unix

package main

// openNonBlocking is 0: elsewhere the Stat before the open refuses a
// named pipe (thresholdFiles.read).
const openNonBlocking = 0
