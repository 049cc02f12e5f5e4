package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/perfcalc/perfcalc/tools/corpus"
	"github.com/perfcalc/perfcalc/tools/hostile"
)

// readShared returns a real log of ../shared/corpus/blg (skipping without
// it).
func readShared(t *testing.T, name string) (path string, data []byte) {
	t.Helper()
	path = filepath.Join(corpus.Shared(t, "blg"), name)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, data
}

// TestStdin: "-" reads standard input for every command that reads a file,
// with the same output as the file itself; standard input feeds one input
// at most.
func TestStdin(t *testing.T) {
	tx, txData := readShared(t, "Tx_BasicPerfCounters.blg")
	g1, g2, names := corpusFile("global-1.bin"), corpusFile("global-2.bin"), corpusFile("counter-009.multisz")
	read := func(p string) string {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	cf := filepath.Join(t.TempDir(), "counters.txt")
	os.WriteFile(cf, []byte("# the disks\n\\PhysicalDisk(*)\\*\n"), 0o644)
	for _, tc := range []struct {
		name        string
		file, stdin []string // the same command with the file, and with - and its bytes
		input       string
	}{
		{"relog", []string{"relog", tx, "-f", "tsv"}, []string{"relog", "-", "-f", "tsv"}, string(txData)},
		{"relog -q", []string{"relog", tx, "-q"}, []string{"relog", "-q", "-"}, string(txData)},
		{"relog -cf", []string{"relog", tx, "-cf", cf}, []string{"relog", tx, "-cf", "-"}, read(cf)},
		{"stats", []string{"stats", tx, "--json"}, []string{"stats", "-", "--json"}, string(txData)},
		{"values older", []string{"values", g1, g2}, []string{"values", "-", g2}, read(g1)},
		{"values newer", []string{"values", g1, g2, "--names", names}, []string{"values", g1, "-", "--names", names}, read(g2)},
		{"values --names", []string{"values", g1, g2, "--names", names}, []string{"values", g1, g2, "--names", "-"}, read(names)},
		{"show", []string{"show", g2, "--json"}, []string{"show", "-", "--json"}, read(g2)},
		{"paths", []string{"paths", g2, "--names", names}, []string{"paths", "-", "--names", names}, read(g2)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, want, errs := runCmd(t, "", tc.file...)
			if code != exitOK {
				t.Fatalf("with the file: exit %d, %q", code, errs)
			}
			code, have, errs := runCmd(t, tc.input, tc.stdin...)
			if code != exitOK || have != want || errs != "" {
				t.Errorf("with -: exit %d, %d bytes (%q), want the %d bytes of the file's output", code, len(have), errs, len(want))
			}
		})
	}
	code, _, errs := runCmd(t, read(g1), "values", "-", "-")
	if code != exitUsage || !strings.Contains(errs, "standard input (-) can be only one input: OLDER and NEWER") {
		t.Errorf("values - -: exit %d, %q", code, errs)
	}
}

// TestOutputNotRegular: -o to /dev/null or /dev/stdout writes there
// directly (it used to read the whole log, then refuse "not a regular
// file").
func TestOutputNotRegular(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no /dev/null")
	}
	tx, _ := readShared(t, "Tx_BasicPerfCounters.blg")
	for _, cmd := range [][]string{{"relog", tx, "-o", os.DevNull}, {"stats", tx, "-o", os.DevNull}, {"relog", tx, "-o", "-", "-q"}} {
		code, out, errs := runCmd(t, "", cmd...)
		if code != exitOK || errs != "" || (cmd[3] == "-") != (out != "") {
			t.Errorf("%q: exit %d, stdout %d bytes, stderr %q", cmd, code, len(out), errs)
		}
	}
}

// TestOutputMissingFolder: a missing -o folder is named as given, not as
// the temporary file.
func TestOutputMissingFolder(t *testing.T) {
	tx, _ := readShared(t, "Tx_BasicPerfCounters.blg")
	out := filepath.Join("no-such-folder", "out.csv")
	for _, cmd := range []string{"relog", "stats"} {
		code, _, errs := runCmd(t, "", cmd, tx, "-o", out)
		if code != exitError || errs != "perfcalc "+cmd+": -o "+out+": the folder no-such-folder does not exist\n" {
			t.Errorf("%s: exit %d, %q", cmd, code, errs)
		}
	}
}

// TestDamagedLogOutput: a log damaged half-way (the real Tx log cut at a
// buffer boundary and inside a buffer) never replaces an existing -o file:
// the old file stays, the partial output is removed, or kept in
// OUT.partial with --keep-partial; standard output gets the rows before
// the damage; every case exits 1 and names what is missing.
func TestDamagedLogOutput(t *testing.T) {
	_, txData := readShared(t, "Tx_BasicPerfCounters.blg")
	tmp := t.TempDir()
	for _, cut := range []int{196608, 200000} {
		in := filepath.Join(tmp, "cut.blg")
		os.WriteFile(in, txData[:cut], 0o644)
		for _, cmd := range [][]string{{"relog", in}, {"stats", in}, {"relog", in, "-q"}} {
			code, rows, errs := runCmd(t, "", cmd...)
			if code != exitError || !strings.Contains(errs, "cut.blg: blg: buffer 3 at 0x30000:") || !strings.Contains(errs, "3 of the 6 buffers") {
				t.Errorf("%q cut at %d to standard output: exit %d, %q", cmd, cut, code, errs)
			}
			if cmd[0] == "relog" && len(cmd) == 2 && strings.Count(rows, "\n") != 249 {
				t.Errorf("relog cut at %d: %d lines, want the header and 248 rows", cut, strings.Count(rows, "\n"))
			}
			out := filepath.Join(tmp, "out.txt")
			for _, keep := range []bool{false, true} {
				os.WriteFile(out, []byte("old"), 0o644)
				os.Remove(out + ".partial")
				args := append(append([]string(nil), cmd...), "-o", out)
				if keep {
					args = append(args, "--keep-partial")
				}
				code, _, errs := runCmd(t, "", args...)
				old, _ := os.ReadFile(out)
				partial, perr := os.ReadFile(out + ".partial")
				switch {
				case code != exitError || string(old) != "old":
					t.Errorf("%q: exit %d, the old file holds %.20q", args, code, old)
				case keep && (perr != nil || (cmd[0] == "relog" && len(cmd) == 2 && string(partial) != rows)):
					t.Errorf("%q: the partial output %d bytes (%v), want the %d bytes of standard output", args, len(partial), perr, len(rows))
				case !keep && perr == nil:
					t.Errorf("%q: a partial output was kept", args)
				case !strings.Contains(errs, out+" is left as it was"):
					t.Errorf("%q: %q does not say what became of -o", args, errs)
				}
			}
			if entries, _ := os.ReadDir(tmp); len(entries) != 3 { // cut.blg, out.txt, out.txt.partial
				t.Errorf("%q: the folder holds %d entries", cmd, len(entries))
			}
		}
	}
}

// TestInputSizeChecked: a file larger than a capture may be is refused from
// its size, without being read (a 2 GB sparse file took 12 s and 2.1 GB of
// memory to refuse); a non-regular input is read up to the limit only.
func TestInputSizeChecked(t *testing.T) {
	big := filepath.Join(t.TempDir(), "sparse.bin")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(2 << 30); err != nil {
		t.Skip(err)
	}
	f.Close()
	for _, args := range [][]string{{"show", big}, {"values", big, big}, {"paths", big}, {"show", corpusFile("global-1.bin"), "--names", big}} {
		start := time.Now()
		code, _, errs := runCmd(t, "", args...)
		if code != exitError || !strings.Contains(errs, "2147483648 bytes (not read)") || time.Since(start) > 5*time.Second {
			t.Errorf("%q: exit %d after %v, %q", args, code, time.Since(start), errs)
		}
	}
	// Standard input over the limit: refused after limit + 1 bytes.
	code, _, errs := runCmd(t, strings.Repeat("x", int(tableLimit.max)+1), "show", corpusFile("global-1.bin"), "--names", "-")
	if code != exitError || !strings.Contains(errs, "standard input: more than 64 MiB; perfcalc reads at most 64 MiB of a name table") {
		t.Errorf("a large name table on standard input: exit %d, %q", code, errs)
	}
}

// TestHostileCounterList: the 60 MB log of issue 12 (394,736 counter-list
// entries, no sample), at a tenth of its size: relog -q and stats read it
// (columns come from samples: there are none) and exit 0. Its memory is
// bounded and tested in engine/blg and engine/relog.
func TestHostileCounterList(t *testing.T) {
	in := filepath.Join(t.TempDir(), "list.blg")
	os.WriteFile(in, hostile.CounterListLog(40_000), 0o644)
	code, out, errs := runCmd(t, "", "relog", in, "-q")
	if code != exitOK || out != "\nTime Begin: \nTime End:   \nSamples:    0\n" {
		t.Errorf("relog -q: exit %d, %q, %q", code, out, errs)
	}
	if code, out, errs := runCmd(t, "", "stats", in); code != exitOK || strings.Count(out, "\n") != 1 {
		t.Errorf("stats: exit %d, %q, %q", code, out, errs)
	}
}
