// Command benchcmp measures perfcalc commands of two builds side by side,
// for issue 14's throughput figures: it builds perfcalc at a base commit
// (git archive, read-only on the repository) and from the working tree,
// writes a large .blg made of the real Tx log repeated
// (gencorpus.RepeatedLog), then runs each build's command on it in turn,
// -runs times, alternating which goes first, and prints one line per run
// in Go's benchmark format, for benchstat:
//
//	go run ./tools/benchcmp -base eba2a2e -copies 160 -runs 6 > relog.txt
//	benchstat -col /bin relog.txt
//
// Each line gives the wall time (ns/op), the throughput of the .blg
// (MB/s), the CPU time (user + system) and the peak resident set of the
// child process (maxrss-KiB), read from its rusage. The command's output
// goes to /dev/null (as an open file, not through -o). make bench-compare
// runs it.
package main

import (
	"archive/tar"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/perfcalc/perfcalc/tools/gencorpus"
)

func main() {
	base := flag.String("base", "eba2a2e", "the commit to compare with (built from git archive)")
	baseBin := flag.String("base-bin", "", "a perfcalc binary to use as the base instead of building -base")
	copies := flag.Int64("copies", 160, "copies of the Tx log's body: 160 make 42 MB, 1600 make 420 MB")
	runs := flag.Int("runs", 6, "runs of each build")
	args := flag.String("args", "relog {log} -f csv", "the command's arguments; {log} is the .blg")
	only := flag.String("only", "", "run only this build: base or head (for peak memory)")
	keep := flag.String("keep", "", "keep the builds and the log in this folder (reused when present)")
	flag.Parse()
	if err := run(*base, *baseBin, *copies, *runs, *args, *only, *keep); err != nil {
		fmt.Fprintln(os.Stderr, "benchcmp:", err)
		os.Exit(1)
	}
}

func run(base, baseBin string, copies int64, runs int, args, only, keep string) error {
	dir := keep
	if dir == "" {
		d, err := os.MkdirTemp("", "benchcmp")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		dir = d
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	root, err := repoRoot()
	if err != nil {
		return err
	}
	bins := map[string]string{"head": filepath.Join(dir, "perfcalc-head")}
	if err := build(root, bins["head"]); err != nil {
		return err
	}
	if only != "head" {
		bins["base"] = baseBin
		if baseBin == "" {
			bins["base"] = filepath.Join(dir, "perfcalc-"+base)
			if _, err := os.Stat(bins["base"]); err != nil {
				if err := buildCommit(root, base, bins["base"], dir); err != nil {
					return err
				}
			}
		}
	}
	logPath := filepath.Join(dir, fmt.Sprintf("tx-x%d.blg", copies))
	size, err := writeLog(root, logPath, copies)
	if err != nil {
		return err
	}
	names := []string{"base", "head"}
	if only != "" {
		names = []string{only}
	}
	label := map[string]string{"base": base, "head": "HEAD"}
	if baseBin != "" {
		label["base"] = "base"
	}
	fmt.Printf("goos: linux\ngoarch: amd64\npkg: perfcalc\n")
	for r := range runs {
		order := names
		if r%2 == 1 && len(names) == 2 {
			order = []string{names[1], names[0]}
		}
		for _, name := range order {
			m, err := measure(bins[name], strings.ReplaceAll(args, "{log}", logPath))
			if err != nil {
				return fmt.Errorf("%s: %v", name, err)
			}
			fmt.Printf("BenchmarkCommand/log=%dMB/bin=%s 1 %d ns/op %.1f MB/s %d cpu-ns/op %d maxrss-KiB\n",
				size/1e6, label[name], m.wall.Nanoseconds(), float64(size)/m.wall.Seconds()/1e6, m.cpu.Nanoseconds(), m.maxRSS)
		}
	}
	return nil
}

// measurement is one run of a command.
type measurement struct {
	wall, cpu time.Duration
	maxRSS    int64 // KiB
}

// measure runs bin with args (split at spaces), its output to /dev/null.
func measure(bin, args string) (measurement, error) {
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		return measurement{}, err
	}
	defer null.Close()
	var stderr strings.Builder
	cmd := exec.Command(bin, strings.Fields(args)...)
	cmd.Stdout, cmd.Stderr = null, &stderr
	start := time.Now()
	err = cmd.Run()
	wall := time.Since(start)
	if err != nil {
		return measurement{}, fmt.Errorf("%v: %s", err, stderr.String())
	}
	return measurement{wall: wall, cpu: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), maxRSS: maxRSS(cmd.ProcessState)}, nil
}

// repoRoot returns the top of the working tree.
func repoRoot() (string, error) {
	out, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		return "", fmt.Errorf("git rev-parse: %v", err)
	}
	return strings.TrimSpace(string(out)), nil
}

// build builds the working tree's perfcalc into out.
func build(root, out string) error {
	cmd := exec.Command("go", "build", "-o", out, "./cmd/perfcalc")
	cmd.Dir, cmd.Stderr = root, os.Stderr
	return cmd.Run()
}

// buildCommit builds perfcalc at commit into out, from a copy of the commit's
// tree extracted with git archive into a folder under tmp.
func buildCommit(root, commit, out, tmp string) error {
	src := filepath.Join(tmp, "src-"+commit)
	if err := os.RemoveAll(src); err != nil {
		return err
	}
	archive := exec.Command("git", "archive", "--format=tar", commit)
	archive.Dir, archive.Stderr = root, os.Stderr
	r, err := archive.StdoutPipe()
	if err != nil {
		return err
	}
	if err := archive.Start(); err != nil {
		return err
	}
	if err := untar(r, src); err != nil {
		archive.Wait()
		return err
	}
	if err := archive.Wait(); err != nil {
		return fmt.Errorf("git archive %s: %v", commit, err)
	}
	defer os.RemoveAll(src)
	return build(src, out)
}

// untar extracts the regular files and folders of a tar stream into dir.
func untar(r io.Reader, dir string) error {
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		name := filepath.Join(dir, filepath.FromSlash(h.Name))
		if !strings.HasPrefix(name, filepath.Clean(dir)+string(filepath.Separator)) {
			return errors.New("tar entry outside the folder: " + h.Name)
		}
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(name, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
				return err
			}
			f, err := os.OpenFile(name, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
			if err != nil {
				return err
			}
			_, err = io.Copy(f, tr)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return err
			}
		}
	}
}

// writeLog writes the Tx log with its body repeated copies times to path
// (unless a file of the right size is there already) and returns its size.
func writeLog(root, path string, copies int64) (int64, error) {
	tx, err := os.ReadFile(filepath.Join(filepath.Dir(root), "shared", "corpus", "blg", "Tx_BasicPerfCounters.blg"))
	if err != nil {
		return 0, fmt.Errorf("the real Tx log (../shared/corpus beside the repository): %v", err)
	}
	l, err := gencorpus.NewRepeatedLog(tx, copies)
	if err != nil {
		return 0, err
	}
	if fi, err := os.Stat(path); err == nil && fi.Size() == l.Size() {
		return l.Size(), nil
	}
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	buf := make([]byte, 1<<20)
	for off := int64(0); off < l.Size(); {
		n, err := l.ReadAt(buf[:min(int64(len(buf)), l.Size()-off)], off)
		if n > 0 {
			if _, werr := f.Write(buf[:n]); werr != nil {
				f.Close()
				return 0, werr
			}
		}
		off += int64(n)
		if err != nil && err != io.EOF {
			f.Close()
			return 0, err
		}
		if n == 0 {
			break
		}
	}
	return l.Size(), f.Close()
}
