//go:build unix

package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestOutputExtensionPipe: a named pipe whose name ends in .parquet is not
// a regular file: relog writes its default, CSV, into it.
func TestOutputExtensionPipe(t *testing.T) {
	tx, _ := readShared(t, "Tx_BasicPerfCounters.blg")
	fifo := filepath.Join(t.TempDir(), "pipe.parquet")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	got := make(chan []byte)
	go func() {
		b, _ := os.ReadFile(fifo)
		got <- b
	}()
	code, _, errs := runCmd(t, "", "relog", tx, "-o", fifo)
	b := <-got
	_, want, _ := runCmd(t, "", "relog", tx)
	if code != exitOK || errs != "" || string(b) != want {
		t.Errorf("relog -o pipe.parquet: exit %d, %q, %d bytes; want the %d bytes of CSV", code, errs, len(b), len(want))
	}
}
