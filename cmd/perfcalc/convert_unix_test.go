//go:build unix

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runWithin runs perfcalc and fails the test when it has not ended within
// d (a hang: the run is left behind).
func runWithin(t *testing.T, d time.Duration, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	type result struct {
		code           int
		stdout, stderr string
	}
	done := make(chan result, 1)
	go func() {
		var out, errb bytes.Buffer
		code := run(args, nil, &out, &errb)
		done <- result{code, out.String(), errb.String()}
	}()
	select {
	case r := <-done:
		return r.code, r.stdout, r.stderr
	case <-time.After(d):
		t.Fatalf("%q has not ended after %v", args, d)
	}
	return
}

// TestConvertSkipsPipes: a named pipe called *.blg in a folder or a
// pattern given to convert (itself, or through a symbolic link) is skipped
// with a note (convert used to wait for a writer forever, after writing
// the other outputs, without a summary); given by name, it is read as a
// stream.
func TestConvertSkipsPipes(t *testing.T) {
	dir := t.TempDir()
	logs := filepath.Join(dir, "logs")
	putFile(t, filepath.Join(logs, "a.blg"), tinyLog(3))
	fifo := filepath.Join(logs, "pipe.blg")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	if err := os.Symlink(fifo, filepath.Join(logs, "link.blg")); err != nil {
		t.Skip(err)
	}
	for i, input := range []string{logs, filepath.Join(logs, "*.blg")} {
		out := filepath.Join(dir, "out", string(rune('0'+i)))
		code, stdout, stderr := runWithin(t, 20*time.Second, "convert", input, "-o", out, "-f", "csv")
		wantErr := "perfcalc convert: note: " + filepath.Join(logs, "link.blg") + " is a named pipe, not a regular file: skipped (give it by name to read it as a stream)\n" +
			"perfcalc convert: note: " + fifo + " is a named pipe, not a regular file: skipped (give it by name to read it as a stream)\n"
		if code != exitOK || !strings.HasPrefix(stdout, "converted 1, skipped 0 (up to date), failed 0;") || stderr != wantErr {
			t.Errorf("convert %s: exit %d, stdout %q, stderr %q\nwant exit 0, one converted, stderr %q", input, code, stdout, stderr, wantErr)
		}
		if _, err := os.Stat(filepath.Join(out, "a.csv")); err != nil {
			t.Error(err)
		}
	}
	// By name: read as a stream, as standard input is.
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err == nil {
			f.Write(tinyLog(3))
			f.Close()
		}
	}()
	out := filepath.Join(dir, "out", "byname")
	code, stdout, stderr := runWithin(t, 20*time.Second, "convert", fifo, "-o", out, "-f", "csv")
	if code != exitOK || !strings.HasPrefix(stdout, "converted 1,") || stderr != "" {
		t.Errorf("convert %s: exit %d, stdout %q, stderr %q", fifo, code, stdout, stderr)
	}
	have, _ := os.ReadFile(filepath.Join(out, "pipe.csv"))
	want, _ := os.ReadFile(filepath.Join(dir, "out", "0", "a.csv"))
	if len(want) == 0 || !bytes.Equal(have, want) {
		t.Errorf("the pipe's output %q differs from the file's %q", have, want)
	}
}
