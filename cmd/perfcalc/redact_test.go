package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/tools/blgbuild"
	"github.com/perfcalc/perfcalc/tools/corpus"
)

// utf16le returns s as UTF-16LE bytes, as a log stores names.
func utf16le(s string) string {
	var b []byte
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u), byte(u>>8))
	}
	return string(b)
}

// TestRelogRedact: --redact replaces every machine name by MACHINE-n in
// every format (the CSV's rows stay byte for byte those of the log
// unredacted), --redact-instances hashes the chosen objects' instances;
// -f bin writes a log that reads back to the same redacted CSV and holds
// none of the names.
func TestRelogRedact(t *testing.T) {
	dir := corpus.Shared(t, "blg")
	const tx, ps, pal = "Tx_BasicPerfCounters.blg", "PowerShell_BadCounterSamples.blg", "PAL_SamplePerfmonLog.blg"
	for _, tc := range []struct {
		args    []string
		secrets []string // names that must not appear
	}{
		{[]string{tx, "--redact"}, []string{"GEORGIS3"}},
		{[]string{ps, "--redact"}, []string{"s14185201", "s14185207"}},
		{[]string{pal, "--redact"}, []string{"ZACH-PC"}},
		{[]string{tx, "--redact-instances", "Processor", "--salt", "s3cret", "-c", `\Processor(*)\*`}, []string{"GEORGIS3", "(_Total)", "(1)"}},
		{[]string{pal, "--redact-instances", "process", "--redact-instances", "Thread", "--salt", "k"}, []string{"ZACH-PC", "svchost", "explorer"}},
		{[]string{tx, ps, "--redact", "-t", "3"}, []string{"GEORGIS3", "s14185201"}},
	} {
		name := strings.Join(tc.args, " ")
		t.Run(name, func(t *testing.T) {
			var args, plain []string
			for _, a := range tc.args {
				if strings.HasSuffix(a, ".blg") {
					a = filepath.Join(dir, a)
				}
				args = append(args, a)
			}
			for i := 0; i < len(args); i++ {
				switch args[i] {
				case "--redact":
				case "--redact-instances", "--salt":
					i++
				default:
					plain = append(plain, args[i])
				}
			}
			code, csv, errs := runCmd(t, "", append(append([]string{"relog"}, args...), "-f", "csv")...)
			if code != exitOK || errs != "" {
				t.Fatalf("exit %d: %s", code, errs)
			}
			_, orig, _ := runCmd(t, "", append(append([]string{"relog"}, plain...), "-f", "csv")...)
			_, rows, _ := strings.Cut(csv, "\r\n")
			_, origRows, _ := strings.Cut(orig, "\r\n")
			if rows != origRows || !strings.Contains(csv, `\\MACHINE-1\`) {
				t.Fatalf("the rows differ from the unredacted log's, or no MACHINE-1:\n%.300s", csv)
			}
			out := filepath.Join(t.TempDir(), "y.blg")
			if code, _, errs := runCmd(t, "", append(append([]string{"relog"}, args...), "-o", out)...); code != exitOK {
				t.Fatalf("-f bin: exit %d: %s", code, errs)
			}
			log, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			_, back, _ := runCmd(t, "", "relog", out, "-f", "csv")
			if back != csv {
				t.Errorf("relog Y.blg -f csv differs from the redacted CSV:\nhave %.300q\nwant %.300q", back, csv)
			}
			outputs := map[string]string{"csv": csv, "bin": string(log)}
			for _, f := range []string{"json", "openmetrics"} {
				_, outputs[f], _ = runCmd(t, "", append(append([]string{"relog"}, args...), "-f", f)...)
			}
			_, outputs["-q"], _ = runCmd(t, "", append(append([]string{"relog"}, args...), "-q")...)
			for f, text := range outputs {
				for _, s := range tc.secrets {
					if strings.Contains(text, s) || strings.Contains(text, utf16le(s)) {
						t.Errorf("%s holds %q", f, s)
					}
				}
			}
		})
	}
}

// TestRelogRedactMap: --redact-map FILE lists the pseudonyms and gives a
// machine the same one from run to run; --redact-instances needs --salt.
func TestRelogRedactMap(t *testing.T) {
	_, _ = readShared(t, "Tx_BasicPerfCounters.blg")
	dir := corpus.Shared(t, "blg")
	tx, ps := filepath.Join(dir, "Tx_BasicPerfCounters.blg"), filepath.Join(dir, "PowerShell_BadCounterSamples.blg")
	m := filepath.Join(t.TempDir(), "machines.tsv")
	if code, _, errs := runCmd(t, "", "relog", ps, "--redact-map", m, "-q"); code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	first, _ := os.ReadFile(m)
	lines := strings.Split(strings.TrimSuffix(string(first), "\n"), "\n")
	if len(lines) != 26 || lines[0] != "MACHINE-1\ts14185201" {
		t.Fatalf("the map: %q", first)
	}
	// The Tx log first: its machine is new (MACHINE-27), the others keep theirs.
	code, q, errs := runCmd(t, "", "relog", tx, ps, "--redact-map", m, "-q")
	if code != exitOK || !strings.HasPrefix(q, `\\MACHINE-27\`) || !strings.Contains(q, `\\MACHINE-1\Processor(_Total)`) {
		t.Fatalf("exit %d %s:\n%.300s", code, errs, q)
	}
	second, _ := os.ReadFile(m)
	if string(second) != string(first)+"MACHINE-27\tGEORGIS3\n" {
		t.Fatalf("the map after the second run: %q", second)
	}
	for _, tc := range []struct{ args []string }{
		{[]string{"--redact-instances", "Process"}},
		{[]string{"--salt", "x"}},
	} {
		if code, _, errs := runCmd(t, "", append([]string{"relog", tx}, tc.args...)...); code != exitUsage || !strings.Contains(errs, "--salt") {
			t.Errorf("%v: exit %d, %q", tc.args, code, errs)
		}
	}
}

// machinesLog writes a log of one raw counter per machine (\\M\Memory\Pages)
// and three samples.
func machinesLog(machines ...string) []byte {
	var cs []blgbuild.Counter
	for _, m := range machines {
		cs = append(cs, blgbuild.Counter{Type: uint32(engine.CounterRawcount), Machine: `\\` + m, Object: "Memory", Counter: "Pages"})
	}
	l := blgbuild.New(64<<10, tinyLogStart)
	l.Record(blgbuild.EventCounterList, tinyLogStart, blgbuild.AppendCounterList(nil, cs...), blgbuild.MaxEventData)
	for i := range 3 {
		ts := tinyLogStart + int64(i)*10_000_000
		vals := make([]uint64, len(machines))
		for j := range vals {
			vals[j] = uint64(100*i + j)
		}
		l.Record(blgbuild.EventSample, ts, blgbuild.RawSample(ts, vals...), blgbuild.MaxEventData)
	}
	return l.Bytes()
}

// TestRelogRedactMapOneToOne: a --redact-map whose pseudonym names two
// machines (which then merged into one, exit 0), that gives a machine
// two pseudonyms, or whose pseudonym is not as the map writes it, is
// refused naming the file, the line and the pseudonym, before any output
// (issue 32, item 16). A repeated line is harmless; a pseudonym that is
// also the name of a machine the map does not name leaves the two
// machines apart.
func TestRelogRedactMapOneToOne(t *testing.T) {
	dir := t.TempDir()
	log := putFile(t, filepath.Join(dir, "x.blg"), machinesLog("ALPHA", "BRAVO", "MACHINE-1"))
	for _, tc := range []struct{ name, text, err string }{
		{"merge.tsv", "MACHINE-1\tALPHA\nMACHINE-1\tBRAVO\n", "line 2 gives MACHINE-1 to BRAVO, which line 1 gives to ALPHA: the two machines would merge"},
		{"twice.tsv", "MACHINE-1\tALPHA\nMACHINE-2\tBRAVO\nMACHINE-3\talpha\n", "line 3 gives alpha the pseudonym MACHINE-3, which line 1 gives MACHINE-1"},
		{"zero.tsv", "MACHINE-1\tALPHA\nMACHINE-01\tBRAVO\n", "line 2 is not MACHINE-<n><tab><machine name>"},
	} {
		m := putFile(t, filepath.Join(dir, tc.name), []byte(tc.text))
		out := filepath.Join(dir, "out.csv")
		code, _, errs := runCmd(t, "", "relog", log, "--redact-map", m, "-o", out)
		if want := "perfcalc relog: --redact-map " + m + ": " + tc.err; code != exitError || !strings.HasPrefix(errs, want) {
			t.Errorf("%s: exit %d, %q\nwant exit 1, %q", tc.name, code, errs, want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: the output was written", tc.name)
		}
		if have, _ := os.ReadFile(m); string(have) != tc.text {
			t.Errorf("%s: the map was rewritten: %q", tc.name, have)
		}
	}
	m := putFile(t, filepath.Join(dir, "ok.tsv"), []byte("MACHINE-1\tALPHA\nMACHINE-1\talpha\n"))
	code, csv, errs := runCmd(t, "", "relog", log, "--redact-map", m)
	header := strings.SplitN(csv, "\r\n", 2)[0]
	if code != exitOK || !strings.HasSuffix(header, `,"\\MACHINE-1\Memory\Pages","\\MACHINE-2\Memory\Pages","\\MACHINE-3\Memory\Pages"`) {
		t.Errorf("exit %d %s: %s", code, errs, header)
	}
	if have, _ := os.ReadFile(m); string(have) != "MACHINE-1\tALPHA\nMACHINE-2\tBRAVO\nMACHINE-3\tMACHINE-1\n" {
		t.Errorf("the map: %q", have)
	}
}

// TestRelogRedactMapHostileNames: a log's machine names that hold a new
// line, a tab, a CR or a % are written to the map escaped (%XX) and read
// back as the same machines: a name like "X\nMACHINE-9\tSERVER2" forged a
// line that pinned another machine's pseudonym (or, as "X\nMACHINE-1\tY",
// made the next run refuse the map), and a trailing CR was lost, merging
// "X\r" with "X". A rerun keeps every pseudonym and rewrites the map as it
// was.
func TestRelogRedactMapHostileNames(t *testing.T) {
	dir := t.TempDir()
	names := []string{"X\nMACHINE-9\tSERVER2", "SERVER2", "Y\r", "Y", "P%0AQ"}
	log := putFile(t, filepath.Join(dir, "x.blg"), machinesLog(names...))
	m := filepath.Join(dir, "map.tsv")
	var first string
	for run := range 2 {
		code, csv, errs := runCmd(t, "", "relog", log, "--redact-map", m)
		header := strings.SplitN(csv, "\r\n", 2)[0]
		if code != exitOK || !strings.HasSuffix(header, `,"\\MACHINE-1\Memory\Pages","\\MACHINE-2\Memory\Pages","\\MACHINE-3\Memory\Pages","\\MACHINE-4\Memory\Pages","\\MACHINE-5\Memory\Pages"`) {
			t.Fatalf("run %d: exit %d %s: %s", run, code, errs, header)
		}
		have, _ := os.ReadFile(m)
		if want := "MACHINE-1\tX%0AMACHINE-9%09SERVER2\nMACHINE-2\tSERVER2\nMACHINE-3\tY%0D\nMACHINE-4\tY\nMACHINE-5\tP%250AQ\n"; string(have) != want {
			t.Errorf("run %d: the map %q, want %q", run, have, want)
		}
		if run == 0 {
			first = string(have)
		} else if string(have) != first {
			t.Errorf("the rerun rewrote the map")
		}
	}
}
