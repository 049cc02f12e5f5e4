package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/relog"
	"github.com/perfcalc/perfcalc/engine/wintype"
	"github.com/perfcalc/perfcalc/internal/longform"
	"github.com/perfcalc/perfcalc/tools/corpus"
	"github.com/perfcalc/perfcalc/tools/encode"
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
// counter (tools/gencorpus.V2BlockIDs).
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
			SystemTime: wintype.SystemTime{Year: 2024, Month: 2, Day: 29, Hour: 10, Second: uint16(sec), Milliseconds: 250},
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
		{"values: bad format", []string{"values", a, a, "-f", "xml"}, 2, `perfcalc values: -f: unknown format "xml" (want table, csv, tsv, json, parquet or openmetrics)`},
		{"values: no time for parquet", []string{"values", a, a, "-f", "parquet"}, 1, "perfcalc values: " + a + ": the newer capture's SystemTime is not a valid time: the long formats need the sample's time"},
		{"values: bad path", []string{"values", a, a, "-c", `Processor(0)`}, 2, ""},
		{"values: bad option", []string{"values", a, a, "--options", "cap99"}, 2, `perfcalc values: --options: unknown option "cap99" (want cap100, scale, 1000 or wrap32)`},
		{"values: scale=S", []string{"values", a, a, "--options", "cap100,scale=2"}, 2, "perfcalc values: --options: scale=2: each counter's DefaultScale comes from the data: write scale"},
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

// valuesPairs are capture pairs for the long formats of values: the
// generated Global pair (V1, 825 columns, values without a valid status
// among them), the generated V2 pair, and each object's first two real
// captures of the corpus (skipped where it is absent).
func valuesPairs(t *testing.T) map[string][]string {
	pairs := map[string][]string{
		"global": {corpusFile("global-1.bin"), corpusFile("global-2.bin"), "--names", corpusFile("counter-009.multisz")},
		"v2":     append([]string{corpusFile("v2-data-1.bin"), corpusFile("v2-data-2.bin")}, v2Args...),
	}
	dir := filepath.Join(filepath.Dir(corpus.Root()), "shared", "corpus", "v1")
	if _, err := os.Stat(dir); err == nil && corpus.Root() != "" {
		for _, obj := range []string{"2", "4", "230", "234", "236", "238", "510", "638"} {
			pairs["v1 object "+obj] = []string{filepath.Join(dir, "s00_obj"+obj+".bin"), filepath.Join(dir, "s01_obj"+obj+".bin"),
				"--names", filepath.Join(dir, "pal_counter_009.multisz")}
		}
	} else {
		t.Log("../shared/corpus/v1 is absent: the long formats of values are checked on the generated captures only")
	}
	return pairs
}

// valuesCSV runs values -f csv on a pair and returns its header and its
// one row of cells.
func valuesCSV(t *testing.T, pair []string) (head, row []string) {
	t.Helper()
	code, out, errs := runCapture(append([]string{"values", "-f", "csv"}, pair...)...)
	if code != exitOK || errs != "" {
		t.Fatalf("values -f csv: exit %d, stderr %q", code, errs)
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(recs) != 2 {
		t.Fatalf("values -f csv: %d records (%v)", len(recs), err)
	}
	return recs[0], recs[1]
}

// longRow is the part of a long-table row (internal/longform) that the
// tests of values read back.
type longRow struct {
	Time        int64    `parquet:"time,timestamp(microsecond:utc)"`
	LocalTime   int64    `parquet:"local_time,timestamp(microsecond:local)"`
	Path        string   `parquet:"path"`
	CounterType string   `parquet:"counter_type"`
	Value       *float64 `parquet:"value,optional"`
	Status      string   `parquet:"status"`
	RawStatus   *uint32  `parquet:"raw_status,optional,uint(32)"`
	RawFirst    *uint64  `parquet:"raw_first,optional,uint(64)"`
	RawSecond   *uint64  `parquet:"raw_second,optional,uint(64)"`
	RawMulti    *uint32  `parquet:"raw_multi,optional,uint(32)"`
}

// TestValuesParquet reads values' Parquet back with parquet-go: one row
// per column of values -f csv, in its order, with the CSV's path; every
// value printed with 20 digits is the CSV's cell, null where the CSV has
// " "; local_time is the CSV's time and time is it in UTC (the header's
// bias); the type is the column's; the raw columns hold the newer
// capture's raw record (a 1-sample raw count recomputes from them to its
// value).
func TestValuesParquet(t *testing.T) {
	dir := t.TempDir()
	for name, pair := range valuesPairs(t) {
		t.Run(name, func(t *testing.T) {
			head, cells := valuesCSV(t, pair)
			out := filepath.Join(dir, "values.parquet")
			code, stdout, errs := runCapture(append([]string{"values", "-f", "parquet", "-o", out}, pair...)...)
			if code != exitOK || errs != "" || stdout != "" {
				t.Fatalf("values -f parquet: exit %d, stdout %d bytes, stderr %q", code, len(stdout), errs)
			}
			rows, err := parquet.ReadFile[longRow](out)
			if err != nil {
				t.Fatal(err)
			}
			if len(rows) != len(head)-1 {
				t.Fatalf("have %d rows, want one per CSV column: %d", len(rows), len(head)-1)
			}
			local, err := relog.ParseTime(cells[0])
			if err != nil {
				t.Fatal(err)
			}
			bias := csvBias(t, head[0])
			wantLocal := longform.UnixMicros(local)
			nulls, raws := 0, 0
			types := valuesTypes(t, pair)
			for i := range rows {
				r := &rows[i]
				if r.Path != head[i+1] {
					t.Fatalf("row %d: path %q, CSV column %q", i, r.Path, head[i+1])
				}
				if r.LocalTime != wantLocal || r.Time != wantLocal+bias*60_000_000 {
					t.Errorf("%s: time %d, local_time %d; want %d and %d (CSV %s, bias %d)", r.Path, r.Time, r.LocalTime, wantLocal+bias*60_000_000, wantLocal, cells[0], bias)
				}
				have := " "
				if r.Value != nil {
					have = string(engine.AppendFloat(nil, *r.Value, engine.DefaultDigits))
				} else {
					nulls++
				}
				if have != cells[i+1] {
					t.Errorf("%s: value %q, CSV %q", r.Path, have, cells[i+1])
				}
				if (r.Value != nil) != (r.Status == "Valid") {
					t.Errorf("%s: value %v with status %s", r.Path, r.Value, r.Status)
				}
				if r.RawFirst == nil || r.RawSecond == nil || r.RawMulti == nil || r.RawStatus == nil {
					t.Fatalf("%s: raw values %v %v %v %v, want all four", r.Path, r.RawFirst, r.RawSecond, r.RawMulti, r.RawStatus)
				}
				if typ, err := engine.ParseCounterType(r.CounterType); err == nil && strings.Contains(r.CounterType, "RAW") && typ.Samples() == 1 {
					// A 1-sample type's value is its formula over the raw
					// record alone: the raw columns are the ones it came from.
					raw := engine.RawCounter{CStatus: *r.RawStatus, FirstValue: *r.RawFirst, SecondValue: *r.RawSecond, MultiCount: *r.RawMulti}
					res := engine.Compute(&engine.Input{Counter: engine.Counter{Type: typ}, New: raw}, 0)
					if res.Status != engine.Valid || r.Value == nil || res.Value != *r.Value {
						t.Errorf("%s: %s over the raw columns %+v is %v %v; the value is %v", r.Path, r.CounterType, raw, res.Value, res.Status, r.Value)
					}
					raws++
				}
				if r.CounterType != types[r.Path] {
					t.Errorf("%s: counter_type %s, values -f json says %s", r.Path, r.CounterType, types[r.Path])
				}
			}
			t.Logf("%d rows, %d null values, %d 1-sample values recomputed from their raw columns", len(rows), nulls, raws)
			if raws == 0 {
				t.Error("no 1-sample raw count to recompute from the raw columns")
			}
		})
	}
}

// valuesTypes maps each path of values -f json to its counter type's name.
func valuesTypes(t *testing.T, pair []string) map[string]string {
	t.Helper()
	code, out, errs := runCapture(append([]string{"values", "-f", "json"}, pair...)...)
	if code != exitOK {
		t.Fatalf("values -f json: exit %d: %s", code, errs)
	}
	m := map[string]string{}
	dec := json.NewDecoder(strings.NewReader(out))
	for dec.More() {
		var v struct{ Path, Type string }
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
		m[v.Path] = v.Type
	}
	return m
}

// csvBias reads the bias of relog's first header cell,
// "(PDH-CSV 4.0) (UTC+01:00)(-60)".
func csvBias(t *testing.T, cell string) int64 {
	t.Helper()
	i := strings.LastIndexByte(cell, '(')
	b, err := strconv.ParseInt(strings.TrimSuffix(cell[i+1:], ")"), 10, 64)
	if i < 0 || err != nil {
		t.Fatalf("no bias in %q", cell)
	}
	return b
}

// omSample is one sample line of values' OpenMetrics text, with the
// counter path that its family's HELP line and its labels name.
type omSample struct {
	path, value, time string
}

// readOpenMetrics parses the text that values -f openmetrics writes: the
// HELP line of each family ("\\Object\\Counter (TYPE)") and the machine
// and instance labels of each sample give the sample's counter path.
func readOpenMetrics(t *testing.T, text string) []omSample {
	t.Helper()
	if !strings.HasSuffix(text, "# EOF\n") || strings.Contains(text, "NaN") {
		t.Fatalf("the text does not end in # EOF or holds a NaN")
	}
	unescape := strings.NewReplacer(`\\`, `\`, `\"`, `"`, `\n`, "\n")
	var out []omSample
	help := ""
	for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if h, ok := strings.CutPrefix(line, "# HELP "); ok {
			_, h, _ = strings.Cut(h, " ")
			help = unescape.Replace(h[:strings.LastIndex(h, " (")])
			continue
		}
		if strings.HasPrefix(line, "#") {
			continue
		}
		open, close := strings.IndexByte(line, '{'), strings.LastIndexByte(line, '}')
		if open < 0 || close < open {
			t.Fatalf("%q: no labels", line)
		}
		labels := map[string]string{}
		for rest := line[open+1 : close]; rest != ""; {
			name, v, _ := strings.Cut(rest, `="`)
			end := 0
			for end < len(v) && v[end] != '"' {
				if v[end] == '\\' {
					end++
				}
				end++
			}
			labels[name] = unescape.Replace(v[:end])
			rest = strings.TrimPrefix(v[end+1:], ",")
		}
		object, counter, _ := strings.Cut(strings.TrimPrefix(help, `\`), `\`)
		path := `\` + object
		if m := labels["machine"]; m != "" {
			path = `\\` + m + path
		}
		if inst, ok := labels["instance"]; ok {
			path += "(" + inst + ")"
		}
		f := strings.Fields(line[close+1:])
		if len(f) != 2 {
			t.Fatalf("%q: want a value and a time stamp", line)
		}
		path += `\` + counter
		if d, ok := labels["duplicate"]; ok {
			path += " (duplicate " + d + ")"
		}
		out = append(out, omSample{path, f[0], f[1]})
	}
	return out
}

// validCells maps the path of each valid cell of values -f csv to the
// cell. A path that repeats an earlier column (a V2 counter that two
// blocks hold) is a metric of its own in OpenMetrics (package openmetrics:
// a label duplicate="2", "3", …): its cells are keyed "<path> (duplicate
// n)", as readOpenMetrics names them.
func validCells(head, cells []string) map[string]string {
	want := map[string]string{}
	seen := map[string]int{}
	for i, p := range head[1:] {
		seen[p]++
		key := p
		if n := seen[p]; n > 1 {
			key += " (duplicate " + strconv.Itoa(n) + ")"
		}
		if cells[i+1] != " " {
			want[key] = cells[i+1]
		}
	}
	return want
}

// TestValuesOpenMetrics: values' OpenMetrics text holds one sample per
// valid cell of values -f csv (validCells), named by its counter path,
// whose value printed with 20 digits is the cell, at the newer capture's
// UTC time.
func TestValuesOpenMetrics(t *testing.T) {
	for name, pair := range valuesPairs(t) {
		t.Run(name, func(t *testing.T) {
			head, cells := valuesCSV(t, pair)
			code, text, errs := runCapture(append([]string{"values", "-f", "openmetrics"}, pair...)...)
			if code != exitOK || errs != "" {
				t.Fatalf("values -f openmetrics: exit %d, stderr %q", code, errs)
			}
			want := validCells(head, cells)
			local, err := relog.ParseTime(cells[0])
			if err != nil {
				t.Fatal(err)
			}
			ms := (longform.UnixMicros(local) + csvBias(t, head[0])*60_000_000) / 1000
			wantTime := strconv.FormatInt(ms/1000, 10) + "." + fmt.Sprintf("%03d", ms%1000)
			samples := readOpenMetrics(t, text)
			for _, s := range samples {
				cell, ok := want[s.path]
				if !ok {
					t.Fatalf("sample %s: no valid CSV cell (or two samples)", s.path)
				}
				delete(want, s.path)
				v, err := strconv.ParseFloat(s.value, 64)
				if err != nil {
					t.Fatal(err)
				}
				if have := string(engine.AppendFloat(nil, v, engine.DefaultDigits)); have != cell || s.time != wantTime {
					t.Errorf("%s: %s at %s, CSV %s at %s", s.path, have, s.time, cell, wantTime)
				}
			}
			if len(want) > 0 || len(samples) == 0 {
				t.Errorf("%d samples; %d valid CSV cells have none", len(samples), len(want))
			}
		})
	}
}

// TestPromtoolValues backfills values' OpenMetrics into a Prometheus TSDB
// with promtool (make external-test installs it): the blocks hold one
// sample per valid cell of values -f csv (validCells). It skips where promtool is
// absent unless PERFCALC_REQUIRE_PROMTOOL is set.
func TestPromtoolValues(t *testing.T) {
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		if os.Getenv("PERFCALC_REQUIRE_PROMTOOL") != "" {
			t.Fatal("promtool is not installed")
		}
		t.Skip("promtool is not installed (apt-get install prometheus, or make external-test)")
	}
	for name, pair := range valuesPairs(t) {
		t.Run(name, func(t *testing.T) {
			valid := len(validCells(valuesCSV(t, pair)))
			dir := t.TempDir()
			in := filepath.Join(dir, "values.om")
			if code, _, errs := runCapture(append([]string{"values", "-f", "openmetrics", "-o", in}, pair...)...); code != exitOK {
				t.Fatalf("values: exit %d: %s", code, errs)
			}
			out, err := exec.Command(promtool, "tsdb", "create-blocks-from", "openmetrics", in, filepath.Join(dir, "tsdb")).CombinedOutput()
			if err != nil {
				t.Fatalf("promtool: %v\n%s", err, out)
			}
			if have := tsdbSamples(t, filepath.Join(dir, "tsdb")); have != int64(valid) {
				t.Errorf("the blocks hold %d samples, want %d (the valid cells)", have, valid)
			}
		})
	}
}

// tsdbSamples sums the samples of the blocks of a Prometheus TSDB folder
// (their meta.json).
func tsdbSamples(t *testing.T, dir string) int64 {
	t.Helper()
	metas, _ := filepath.Glob(filepath.Join(dir, "*", "meta.json"))
	var n int64
	for _, m := range metas {
		b, err := os.ReadFile(m)
		if err != nil {
			t.Fatal(err)
		}
		var meta struct{ Stats struct{ NumSamples int64 } }
		if err := json.Unmarshal(b, &meta); err != nil {
			t.Fatal(err)
		}
		n += meta.Stats.NumSamples
	}
	return n
}

// TestValuesOutputFile: -o writes what standard output gets, in every
// format, and a failure leaves an existing file as it was.
func TestValuesOutputFile(t *testing.T) {
	pair := valuesPairs(t)["global"]
	out := filepath.Join(t.TempDir(), "out")
	for _, format := range []string{"table", "csv", "tsv", "json", "parquet", "openmetrics"} {
		_, want, _ := runCapture(append([]string{"values", "-f", format}, pair...)...)
		code, stdout, errs := runCapture(append([]string{"values", "-f", format, "-o", out}, pair...)...)
		have, err := os.ReadFile(out)
		if code != exitOK || stdout != "" || errs != "" || err != nil || string(have) != want {
			t.Errorf("-f %s -o: exit %d, stdout %q, stderr %q, %d bytes in the file (%v), want the %d bytes of standard output", format, code, stdout, errs, len(have), err, len(want))
		}
	}
	code, _, _ := runCapture("values", pair[0], filepath.Join(t.TempDir(), "missing.bin"), "-o", out)
	if have, _ := os.ReadFile(out); code != exitError || len(have) == 0 {
		t.Errorf("a failed run: exit %d, the file has %d bytes; want 1 and the earlier output", code, len(have))
	}
}
