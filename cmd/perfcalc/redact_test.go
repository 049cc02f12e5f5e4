package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

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
