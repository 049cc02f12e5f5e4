package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/tools/corpus"
)

// twoDigitExponent finds a number written with a one- or two-digit
// exponent (6.55e-05, 1e+18): PDH, and so perfcalc, always writes three
// digits (6.5500000000000006459e-005).
var twoDigitExponent = regexp.MustCompile(`[0-9.][eE][+-]?[0-9]{1,2}([^0-9]|$)`)

// threeDigitExponent finds a number with a three-digit exponent, to show
// that the outputs checked do hold exponents.
var threeDigitExponent = regexp.MustCompile(`[0-9][eE][+-][0-9]{3}([^0-9]|$)`)

// TestNoTwoDigitExponent runs every command in every output format on the
// project's captures and the real logs and captures of ../shared/corpus
// (where present), errors and -q included, and fails on any number written
// with fewer than three exponent digits; so does every golden file of the
// repository.
func TestNoTwoDigitExponent(t *testing.T) {
	for s, two := range map[string]bool{"6.5499999999999993e-05,": true, `"9.2233720368547758e+18"`: true, "1e5 ": true,
		"6.5500000000000006459e-005": false, "9.2233720368547758e+018": false, `\\HOST\Disk(Grade-10)\x`: false} {
		if twoDigitExponent.MatchString(s) != two {
			t.Fatalf("twoDigitExponent on %q: want %v", s, two)
		}
	}
	var runs [][]string
	add := func(args ...string) { runs = append(runs, args) }
	g1, g2, names := corpusFile("global-1.bin"), corpusFile("global-2.bin"), corpusFile("counter-009.multisz")
	for _, d := range []string{"17", "20"} {
		for _, f := range []string{"table", "csv", "tsv", "json"} {
			add("values", g1, g2, "--names", names, "-f", f, "--digits", d)
			add("values", g1, g2, "-f", f, "--digits", d, "--options", "cap100,scale,1000")
			add(append([]string{"values", corpusFile("v2-data-1.bin"), corpusFile("v2-data-2.bin"), "-f", f, "--digits", d}, v2Args...)...)
		}
		add("calc", "--type", "PERF_COUNTER_LARGE_RAWCOUNT", "--new", "9223372036854775807,0", "--digits", d)
		add("calc", "--type", "PERF_AVERAGE_TIMER", "--old", "0,0", "--new", "7,100000", "--timebase", "1000000000", "--digits", d)
		add("calc", "--type", "PERF_COUNTER_LARGE_RAWCOUNT", "--new", "1,0", "--options", "scale=-7", "--digits", d)
	}
	add("calc", "--type", "PERF_AVERAGE_TIMER", "--old", "0,0", "--new", "7,100000", "--timebase", "1000000000", "--json")
	add("show", g1, "--names", names)
	add("show", g1, "--json")
	add(append([]string{"show", corpusFile("v2-data-2.bin"), "--json"}, v2Args...)...)
	add("paths", g1, "--names", names)
	add("values", g2, g1) // the wrong order: a note
	add("relog", "missing.blg")
	add("stats", "-c", "x")
	if dir := filepath.Dir(corpusDirOrEmpty()); dir != "." {
		blg := filepath.Join(dir, "blg")
		logs := []string{"Tx_BasicPerfCounters.blg", "PowerShell_BadCounterSamples.blg", "PAL_SamplePerfmonLog.blg"}
		for _, l := range logs {
			l = filepath.Join(blg, l)
			for _, d := range []string{"17", "20"} {
				for _, f := range []string{"csv", "tsv", "json"} {
					add("relog", l, "-f", f, "--digits", d)
				}
			}
			add("relog", l, "-q")
			add("relog", l, "-b", "2030-01-01")
			add("stats", l)
			add("stats", l, "--json")
		}
		add("relog", filepath.Join(blg, logs[0]), filepath.Join(blg, logs[1]), filepath.Join(blg, logs[2]), "-t", "3")
		add("stats", filepath.Join(blg, logs[0]), filepath.Join(blg, logs[2]), "--json")
		v1 := filepath.Join(dir, "v1")
		pal := filepath.Join(v1, "pal_counter_009.multisz")
		for _, obj := range []string{"2", "4", "230", "234", "236", "238", "510", "638"} {
			a, b := filepath.Join(v1, "s00_obj"+obj+".bin"), filepath.Join(v1, "s01_obj"+obj+".bin")
			for _, f := range []string{"table", "csv", "json"} {
				add("values", a, b, "--names", pal, "-f", f)
			}
			add("show", b, "--names", pal, "--json")
		}
	} else {
		t.Log("../shared/corpus is absent: the real logs and captures are not run")
	}
	threes := 0
	for _, args := range runs {
		stdin := ""
		_, out, errs := runCmd(t, stdin, args...)
		for _, text := range []string{out, errs} {
			if m := twoDigitExponent.FindStringIndex(text); m != nil {
				lo, hi := max(0, m[0]-60), min(len(text), m[1]+20)
				t.Errorf("perfcalc %q writes a two-digit exponent: …%s…", args, text[lo:hi])
			}
			threes += len(threeDigitExponent.FindAllStringIndex(text, -1))
		}
	}
	// convert writes files: every text format of every real log.
	if dir := filepath.Dir(corpusDirOrEmpty()); dir != "." {
		for _, f := range []string{"csv", "tsv", "json", "openmetrics"} {
			outDir := t.TempDir()
			code, out, errs := runCmd(t, "", "convert", filepath.Join(dir, "blg"), "-o", outDir, "-f", f, "--digits", "17")
			if m := twoDigitExponent.FindString(out + errs); m != "" {
				t.Errorf("convert -f %s writes a two-digit exponent: %q", f, m)
			}
			files, _ := os.ReadDir(outDir)
			if len(files) < 4 {
				t.Errorf("convert -f %s: exit %d, %d files, %q", f, code, len(files), errs)
			}
			for _, e := range files {
				if e.IsDir() {
					continue // _perfcalc, the lists of outputs
				}
				b, err := os.ReadFile(filepath.Join(outDir, e.Name()))
				if err != nil {
					t.Fatal(err)
				}
				if m := twoDigitExponent.FindIndex(b); m != nil {
					t.Errorf("convert -f %s: %s holds a two-digit exponent: %q", f, e.Name(), b[max(0, m[0]-40):min(len(b), m[1]+10)])
				}
				threes += len(threeDigitExponent.FindAllIndex(b, -1))
			}
		}
	}
	_, out, _ := runCmd(t, readFileString(t, corpusFile("calc-requests.jsonl")), "calc", "--batch")
	if m := twoDigitExponent.FindString(out); m != "" {
		t.Errorf("calc --batch writes a two-digit exponent: %q", m)
	}
	if threes < 100 {
		t.Errorf("only %d numbers with an exponent in all the outputs: the test checks too little", threes)
	}
	// Every golden and expected-output file of the repository.
	root := corpus.Root()
	checked := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n == ".git" || n == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.Contains(p, string(filepath.Separator)+"testdata"+string(filepath.Separator)) {
			return nil
		}
		switch filepath.Ext(p) {
		case ".csv", ".tsv", ".txt", ".json", ".jsonl":
		default:
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		checked++
		if m := twoDigitExponent.FindIndex(b); m != nil {
			rel, _ := filepath.Rel(root, p)
			t.Errorf("%s holds a two-digit exponent: %q", rel, b[max(0, m[0]-40):min(len(b), m[1]+10)])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 30 {
		t.Errorf("only %d golden files found", checked)
	}
	t.Logf("%d runs, %d three-digit exponents, %d golden files", len(runs), threes, checked)
}

func readFileString(t *testing.T, name string) string {
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
