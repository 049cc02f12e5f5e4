//go:build unix

package main

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"
)

// TestWriteOutputPipe: -o to a named pipe writes to it directly.
func TestWriteOutputPipe(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	got := make(chan string)
	go func() {
		b, _ := os.ReadFile(fifo)
		got <- string(b)
	}()
	if _, err := writeOutput(fifo, nil, false, func(w io.Writer) error { _, err := io.WriteString(w, "through the pipe"); return err }); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "through the pipe" {
		t.Errorf("the pipe's reader got %q", s)
	}
}

// unnamedSupported reports whether dir's file system offers unnamed files.
func unnamedSupported(dir string) bool {
	f, err := openUnnamed(dir)
	if err != nil {
		return false
	}
	f.Close()
	return true
}

// TestUnnamedWhileWriting: on Linux, while the output is written, the
// folder holds no temporary file at all (so that SIGKILL cannot leave one).
func TestUnnamedWhileWriting(t *testing.T) {
	dir := t.TempDir()
	if !unnamedSupported(dir) {
		t.Skip("no unnamed files (O_TMPFILE) on " + runtime.GOOS + " here")
	}
	path := filepath.Join(dir, "out.csv")
	os.WriteFile(path, []byte("old"), 0o644)
	_, err := writeOutput(path, nil, false, func(w io.Writer) error {
		io.WriteString(w, "new")
		if entries, _ := os.ReadDir(dir); len(entries) != 1 {
			t.Errorf("while writing, the folder holds %d entries, want only out.csv", len(entries))
		}
		return nil
	})
	if b, _ := os.ReadFile(path); err != nil || string(b) != "new" {
		t.Fatalf("have %q, %v", b, err)
	}
}

// slowWriteEnv names the folder where TestHelperSlowWrite, run as a child
// process, writes out.csv forever.
const slowWriteEnv = "PERFCALC_TEST_SLOW_WRITE"

// TestHelperSlowWrite is the child of TestSignalsLeaveNoTemporaryFile: it
// writes to -o out.csv in the folder it is given, says "writing" on its
// standard output and never finishes.
func TestHelperSlowWrite(t *testing.T) {
	dir := os.Getenv(slowWriteEnv)
	if dir == "" {
		t.Skip("run by TestSignalsLeaveNoTemporaryFile")
	}
	forceNamed := os.Getenv(slowWriteEnv+"_NAMED") != ""
	if forceNamed {
		noUnnamed = true
	}
	writeOutput(filepath.Join(dir, "out.csv"), nil, false, func(w io.Writer) error {
		w.Write(make([]byte, 1<<20))
		os.Stdout.WriteString("writing\n")
		for {
			time.Sleep(time.Second)
			w.Write([]byte("more"))
		}
	})
}

// TestSignalsLeaveNoTemporaryFile kills a perfcalc that is writing -o
// out.csv over an older one with SIGINT, SIGTERM and SIGKILL: the older
// file stays as it was, no temporary file remains, and the child ends by
// the signal (the shell's status 130, 143, 137). With named temporary files
// (other systems, file systems without O_TMPFILE) only SIGKILL can leave
// one behind.
func TestSignalsLeaveNoTemporaryFile(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	for _, named := range []bool{false, true} {
		for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGKILL} {
			dir := t.TempDir()
			if !named && !unnamedSupported(dir) {
				continue
			}
			if named && sig == syscall.SIGKILL {
				continue // a named file cannot be removed by a process that is killed
			}
			path := filepath.Join(dir, "out.csv")
			os.WriteFile(path, []byte("old"), 0o644)
			cmd := exec.Command(os.Args[0], "-test.run=^TestHelperSlowWrite$", "-test.count=1")
			cmd.Env = append(os.Environ(), slowWriteEnv+"="+dir)
			if named {
				cmd.Env = append(cmd.Env, slowWriteEnv+"_NAMED=1")
			}
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "writing\n" {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("the child said %q, %v", line, err)
			}
			if !named {
				if entries, _ := os.ReadDir(dir); len(entries) != 1 {
					t.Errorf("while writing, the folder holds %d entries", len(entries))
				}
			} else if entries, _ := os.ReadDir(dir); len(entries) != 2 {
				t.Errorf("while writing a named temporary file, the folder holds %d entries, want 2", len(entries))
			}
			cmd.Process.Signal(sig)
			err = cmd.Wait()
			ws := cmd.ProcessState.Sys().(syscall.WaitStatus)
			if !ws.Signaled() || ws.Signal() != sig {
				t.Errorf("%v (named temporary file %v): the child ended with %v, want the signal", sig, named, err)
			}
			entries, _ := os.ReadDir(dir)
			if b, _ := os.ReadFile(path); len(entries) != 1 || string(b) != "old" {
				var names []string
				for _, e := range entries {
					names = append(names, e.Name())
				}
				t.Errorf("%v (named temporary file %v): the folder holds %q, out.csv %q; want only the old out.csv", sig, named, names, b)
			}
		}
	}
}
