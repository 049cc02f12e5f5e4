//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/perfcalc/perfcalc/tools/hostile"
)

// TestAnalyzeThresholdsNotRegular (issue 32, item 9): an INHERITANCE
// naming a named pipe or a pipe's /dev/fd name (as /dev/stdin) blocked
// forever; it is refused before it is read, the error naming the file and
// the file that inherits it.
func TestAnalyzeThresholdsNotRegular(t *testing.T) {
	dir := analyzeFixture(t)
	fifo := filepath.Join(dir, "fifo.xml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip(err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	pipe := "/dev/fd/" + strconv.Itoa(int(r.Fd()))
	for _, tc := range []struct{ target, kind string }{
		{"fifo.xml", "a named pipe"},
		{pipe, "a named pipe"},
		{dir, "a folder"},
	} {
		th := putFile(t, filepath.Join(dir, "inherits.xml"), hostile.Inheriting(tc.target))
		done := make(chan struct{})
		var code int
		var errs string
		go func() {
			defer close(done)
			code, _, errs = runCmd(t, "", "analyze", filepath.Join(dir, "logs", "s2.blg"), "--thresholds", th)
		}()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Fatalf("INHERITANCE %s: still running after 20 s", tc.target)
		}
		if code != exitError || !strings.Contains(errs, "(inherited by "+th+")") || !strings.Contains(errs, tc.kind) {
			t.Errorf("INHERITANCE %s: exit %d, stderr %q; want 1, the file named %s, inherited by %s", tc.target, code, errs, tc.kind, th)
		}
	}
}
