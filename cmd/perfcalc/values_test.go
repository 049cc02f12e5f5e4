package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/internal/encode"
)

// The golden files of testdata/golden are rewritten by "go test -update".
// relog_test.go defines the flag; this defines it when it is absent.
func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite the golden files")
	}
}

func updatingGolden() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// corpusFile is the path of a generated capture of testdata/corpus.
func corpusFile(name string) string { return filepath.Join("..", "..", "testdata", "corpus", name) }

// runCapture runs perfcalc in-process and returns its exit status, standard
// output and standard error.
func runCapture(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// goldenCase is one command whose output is compared with a golden file.
type goldenCase struct {
	golden string
	args   []string
}

// checkGolden runs each case and compares its standard output with
// testdata/golden/<golden>; the command must succeed without a word on
// standard error.
func checkGolden(t *testing.T, cases []goldenCase) {
	for _, tc := range cases {
		t.Run(tc.golden, func(t *testing.T) {
			code, out, errs := runCapture(tc.args...)
			if code != exitOK || errs != "" {
				t.Fatalf("have exit status %d and stderr %q, want 0 and nothing", code, errs)
			}
			name := filepath.Join("testdata", "golden", tc.golden)
			if updatingGolden() {
				if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(name, []byte(out), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(name)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if out != string(want) {
				t.Errorf("output differs from %s (run go test -update after checking it):\nhave\n%s\nwant\n%s", name, out, want)
			}
		})
	}
}

// The V2 files need the counter ids of the blocks that do not name their
// counter (internal/gencorpus.V2BlockIDs).
var v2Args = []string{"--reginfo", corpusFile("v2-reginfo.bin"), "--strings", corpusFile("v2-strings.bin"),
	"--ids", "*,0,*,10,0", "--counterset", "Processor Information"}

func TestValuesGolden(t *testing.T) {
	g1, g2, names := corpusFile("global-1.bin"), corpusFile("global-2.bin"), corpusFile("counter-009.multisz")
	v1, v2 := corpusFile("v2-data-1.bin"), corpusFile("v2-data-2.bin")
	checkGolden(t, []goldenCase{
		{"values-global.txt", []string{"values", g1, g2, "--names", names}},
		{"values-global.csv", []string{"values", g1, g2, "--names", names, "-f", "csv"}},
		{"values-global.tsv", []string{"values", g1, g2, "--names", names, "-f", "tsv"}},
		{"values-global.jsonl", []string{"values", g1, g2, "--names", names, "-f", "json"}},
		{"values-select.txt", []string{"values", "--names", names, g1, g2,
			"-c", `\Process(svchost*)\% Processor Time`, "-c", `\Thread(notepad/*)\*`, "-c", `\\perfcalc-demo\perfcalc types\*`}},
		{"values-index.txt", []string{"values", g1, g2, "-c", `\#238(*)\#6`}},
		{"values-options.txt", []string{"values", g1, g2, "--names", names, "--options", "cap100,scale",
			"-c", `\Process(Idle)\*`, "-c", `\Memory\*`}},
		{"values-v2.txt", append([]string{"values", v1, v2}, v2Args...)},
		{"values-v2.csv", append([]string{"values", v1, v2, "-f", "csv"}, v2Args...)},
	})
}

// TestValuesCSVIndependent checks cells of the CSV output against values
// computed here from the generated captures' raw data, with the formulas
// written out: the PDH-CSV conventions (quoted cells, %.17g, " " for a value
// without a valid status, the newer capture's local time).
func TestValuesCSVIndependent(t *testing.T) {
	dir := t.TempDir()
	cs := []encode.V1Counter{
		{CounterNameTitleIndex: 6, CounterType: engine.Timer100nsInv, CounterSize: 8},
		{CounterNameTitleIndex: 148, CounterType: engine.CounterCounter, CounterSize: 4},
		{CounterNameTitleIndex: 150, CounterType: engine.CounterRawcountHex, CounterSize: 4},
	}
	encode.V1Layout(cs)
	write := func(name string, sec int64, idle, ints uint64, insts ...string) string {
		o := encode.V1Object{ObjectNameTitleIndex: 238, NumInstances: int32(len(insts)), Counters: cs}
		for _, n := range insts {
			o.Instances = append(o.Instances, encode.V1Instance{Name: n, UniqueID: -1, Values: []uint64{idle, ints, 255}})
		}
		data, err := encode.EncodeV1(&encode.V1Blob{SystemName: "HOST",
			// Local time 10:00:sec.250 in a zone 8 hours behind UTC.
			SystemTime: encode.V1SystemTime{Year: 2024, Month: 2, Day: 29, Hour: 10, Second: uint16(sec), Milliseconds: 250},
			PerfTime:   sec * 3579545, PerfFreq: 3579545,
			PerfTime100nSec: 133537032000000000 + (sec*1000+250)*10_000, // 2024-02-29 18:00:00 UTC + sec.250
			Objects:         []encode.V1Object{o}})
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	older := write("old.bin", 1, 1_000_000, 100, "0")
	newer := write("new.bin", 3, 6_000_000, 700, "0", "1")
	code, out, errs := runCapture("values", older, newer, "-f", "csv")
	if code != 0 || errs != "" {
		t.Fatalf("have %d %q", code, errs)
	}
	f := func(v float64) float64 { return v }
	idle := 100 * (1 - f(5_000_000)/f(20_000_000))
	rate := f(600) / (f(2*3579545) / f(3579545))
	want := `"(PDH-CSV 4.0) (UTC-08:00)(480)","\\HOST\#238(0)\#6","\\HOST\#238(0)\#148","\\HOST\#238(0)\#150","\\HOST\#238(1)\#6","\\HOST\#238(1)\#148","\\HOST\#238(1)\#150"` + "\r\n" +
		`"02/29/2024 10:00:03.250","` + strconv.FormatFloat(idle, 'g', 17, 64) + `","` + strconv.FormatFloat(rate, 'g', 17, 64) + `","255"," "," ","255"` + "\r\n"
	if out != want {
		t.Errorf("have\n%s\nwant\n%s", out, want)
	}
}

// TestCaptureErrors checks the error cases of show, values and paths: the
// exit status and the one line on standard error.
func TestCaptureErrors(t *testing.T) {
	dir := t.TempDir()
	file := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	blob := func(machine string, object uint32) []byte {
		cs := []encode.V1Counter{{CounterNameTitleIndex: 6, CounterType: engine.CounterRawcount, CounterSize: 4, CounterOffset: 4}}
		data, err := encode.EncodeV1(&encode.V1Blob{SystemName: machine, PerfFreq: 1, Objects: []encode.V1Object{
			{ObjectNameTitleIndex: object, NumInstances: -1, Counters: cs, Instances: []encode.V1Instance{{Values: []uint64{1}}}}}})
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	a := file("a.bin", blob("A", 2))
	b := file("b.bin", blob("B", 2))
	a4 := file("a4.bin", blob("A", 4))
	text := file("text.txt", []byte("hello, world\n"))
	empty := file("empty.bin", nil)
	g2, err := os.ReadFile(corpusFile("global-2.bin"))
	if err != nil {
		t.Fatal(err)
	}
	cut := file("cut.bin", g2[:len(g2)/2])
	names := corpusFile("counter-009.multisz")
	v2 := corpusFile("v2-data-2.bin")
	missing := filepath.Join(dir, "missing.bin")

	for _, tc := range []struct {
		name string
		args []string
		code int
		want string // the line on stderr
	}{
		{"values: one capture", []string{"values", a}, 2, "perfcalc values: want two captures, OLDER and NEWER (see perfcalc values -h)"},
		{"values: bad format", []string{"values", a, a, "-f", "xml"}, 2, `perfcalc values: -f: unknown format "xml" (want table, csv, tsv or json)`},
		{"values: bad path", []string{"values", a, a, "-c", `Processor(0)`}, 2, ""},
		{"values: bad option", []string{"values", a, a, "--options", "cap99"}, 2, `perfcalc values: --options: unknown option "cap99" (want cap100, scale, 1000 or wrap32)`},
		{"values: unknown flag", []string{"values", a, a, "--frobnicate"}, 2, "perfcalc values: flag provided but not defined: -frobnicate (see perfcalc values -h)"},
		{"values: unreadable", []string{"values", missing, a}, 1, "perfcalc values: open " + missing + ": no such file or directory"},
		{"values: not a capture", []string{"values", a, text}, 1, "perfcalc values: " + text + ": not a performance-data capture (neither a V1 PERF_DATA_BLOCK nor a V2 PERF_DATA_HEADER)"},
		{"values: empty file", []string{"values", empty, a}, 1, "perfcalc values: " + empty + ": not a performance-data capture (the file is empty)"},
		{"values: a name table", []string{"values", names, a}, 1, "perfcalc values: " + names + ": not a performance-data capture (it is a name table: give it with --names)"},
		{"values: machines", []string{"values", a, b}, 1, `perfcalc values: query: the captures do not match: machine "A" in the older, "B" in the newer`},
		{"values: objects", []string{"values", a, a4}, 1, `perfcalc values: query: the captures do not match: object "#4" only in the newer`},
		{"values: V1 and V2", []string{"values", a, v2}, 1, "perfcalc values: " + a + " is a V1 blob but " + v2 + " is a V2 PerfQueryCounterData result"},
		{"values: V2 without registration", []string{"values", v2, v2}, 2, "perfcalc values: a V2 capture needs its counterset's registration: give it with --reginfo FILE"},
		{"values: V2 flags on V1", []string{"values", a, a, "--reginfo", a}, 2, "perfcalc values: --reginfo, --strings, --counterset and --ids are for V2 captures"},
		{"values: damaged", []string{"values", cut, cut}, 1, "perfcalc values: " + cut + ": perfdata: PERF_DATA_BLOCK at 0x14: TotalByteLength " + strconv.Itoa(len(g2)) + " exceeds the input's " + strconv.Itoa(len(g2)/2) + " bytes"},
		{"values: damaged newer", []string{"values", a, cut}, 1, "perfcalc values: " + cut + ": perfdata: PERF_DATA_BLOCK at 0x14: TotalByteLength " + strconv.Itoa(len(g2)) + " exceeds the input's " + strconv.Itoa(len(g2)/2) + " bytes"},
		{"values: nothing selected", []string{"values", a, a, "-c", `\Memory\*`}, 1, `perfcalc values: no counter of ` + a + ` matches \Memory\*: without --names, objects and counters are named by their index, as in \#238(*)\*; give the name table with --names TABLE, or see the paths with perfcalc paths ` + a},
		{"values: nothing selected by index", []string{"values", a, a, "-c", `\#4\*`}, 1, `perfcalc values: no counter of ` + a + ` matches \#4\*`},
		{"show: no capture", []string{"show"}, 2, "perfcalc show: want one capture (see perfcalc show -h)"},
		{"show: unreadable", []string{"show", missing}, 1, "perfcalc show: open " + missing + ": no such file or directory"},
		{"show: damaged", []string{"show", cut}, 1, "perfcalc show: " + cut + ": perfdata: PERF_DATA_BLOCK at 0x14: TotalByteLength " + strconv.Itoa(len(g2)) + " exceeds the input's " + strconv.Itoa(len(g2)/2) + " bytes"},
		{"show: bad name table", []string{"show", a, "--names", text}, 1, ""},
		{"paths: two captures", []string{"paths", a, a}, 2, "perfcalc paths: want one capture (see perfcalc paths -h)"},
		{"paths: no match", []string{"paths", a, "-c", `\#2\#7`}, 1, `perfcalc paths: no counter of ` + a + ` matches \#2\#7`},
		{"paths: bad pattern", []string{"paths", a, "-c", `\\`}, 2, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runCapture(tc.args...)
			if code != tc.code {
				t.Errorf("have exit status %d, want %d (stderr %q)", code, tc.code, errs)
			}
			if strings.Count(errs, "\n") != 1 || !strings.HasSuffix(errs, "\n") || !strings.HasPrefix(errs, "perfcalc "+tc.args[0]+": ") {
				t.Errorf("have stderr %q, want one line beginning with the command", errs)
			}
			if tc.want != "" && errs != tc.want+"\n" {
				t.Errorf("have stderr %q, want %q", errs, tc.want+"\n")
			}
			if out != "" {
				t.Errorf("have stdout %q, want nothing", out)
			}
		})
	}
}

// TestDamagedCaptures feeds truncated and corrupted copies of the generated
// captures to every command: each ends with exit status 0 or 1, and a
// failure is one line on standard error, never a panic.
func TestDamagedCaptures(t *testing.T) {
	dir := t.TempDir()
	g1, err := os.ReadFile(corpusFile("global-1.bin"))
	if err != nil {
		t.Fatal(err)
	}
	g2, err := os.ReadFile(corpusFile("global-2.bin"))
	if err != nil {
		t.Fatal(err)
	}
	v2, err := os.ReadFile(corpusFile("v2-data-2.bin"))
	if err != nil {
		t.Fatal(err)
	}
	older := filepath.Join(dir, "older.bin")
	if err := os.WriteFile(older, g1, 0o644); err != nil {
		t.Fatal(err)
	}
	v2older := corpusFile("v2-data-1.bin")
	damaged := filepath.Join(dir, "damaged.bin")
	failures := 0
	for _, src := range []struct {
		data []byte
		args func() [][]string
	}{
		{g2, func() [][]string {
			return [][]string{{"values", older, damaged}, {"show", damaged}, {"paths", damaged}}
		}},
		{v2, func() [][]string {
			return [][]string{append([]string{"values", v2older, damaged}, v2Args...), append([]string{"show", damaged}, v2Args...)}
		}},
	} {
		for k := 0; k < 60; k++ {
			d := bytes.Clone(src.data)
			switch k % 3 {
			case 0: // truncated
				d = d[:len(d)*k/60]
			case 1: // a length field rewritten
				off := (k * 4 * 37) % (len(d) - 4)
				d[off], d[off+1], d[off+2], d[off+3] = 0xF0, 0xFF, 0xFF, 0x7F
			default: // a byte flipped
				d[(k*7919)%len(d)] ^= 0xFF
			}
			if err := os.WriteFile(damaged, d, 0o644); err != nil {
				t.Fatal(err)
			}
			for _, args := range src.args() {
				code, _, errs := runCapture(args...)
				switch code {
				case exitOK:
				case exitError:
					failures++
					if strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, "perfcalc "+args[0]+": ") {
						t.Errorf("%v on damage %d: have stderr %q, want one line", args[0], k, errs)
					}
				default:
					t.Errorf("%v on damage %d: have exit status %d (%q), want 0 or 1", args[0], k, code, errs)
				}
			}
		}
	}
	if failures == 0 {
		t.Error("no damaged capture was refused")
	}
}
