package relog

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/tools/corpus"
)

// The tests in this file read the real logs of ../shared/corpus and skip
// where that folder is absent.

func readCorpus(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(corpus.Shared(t, "blg"), name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// rawJSON is the shape of the *.raw.json files beside the logs: the raw
// values decoded by an independent reader.
type rawJSON struct {
	Counters []struct {
		Path     string `json:"path"`
		Type     string `json:"type"`
		TimeBase int64  `json:"timebase"`
	} `json:"counters"`
	Samples [][]struct {
		Status    string `json:"status"`
		TimeStamp int64  `json:"timestamp_filetime"`
		First     uint64 `json:"first"`
		Second    uint64 `json:"second"`
		Items     []struct {
			Instance string `json:"instance"`
			First    uint64 `json:"first"`
			Second   uint64 `json:"second"`
		} `json:"items"`
	} `json:"samples"`
}

// rawPoint is one raw value of the independent computation.
type rawPoint struct {
	ok            bool // CStatus 0 or 1
	first, second uint64
}

// independentCSV writes relog's CSV for a raw-record log from its
// .raw.json, with the formulas of doc/COUNTER-TYPES.md written out here: it
// shares no code with the package under test.
func independentCSV(t *testing.T, raw *rawJSON, zone string, digits int) string {
	t.Helper()
	type column struct {
		path    string
		typ     string
		f       float64
		counter int
		inst    string
	}
	var cols []column
	seen := map[string]bool{}
	for _, row := range raw.Samples {
		for ci, s := range row {
			c := raw.Counters[ci]
			if len(s.Items) == 0 && !strings.Contains(c.Path, "(*)") {
				if !seen[c.Path] {
					seen[c.Path] = true
					cols = append(cols, column{c.Path, c.Type, float64(c.TimeBase), ci, ""})
				}
				continue
			}
			for _, it := range s.Items {
				p := strings.Replace(c.Path, "(*)", "("+it.Instance+")", 1)
				if !seen[p] {
					seen[p] = true
					cols = append(cols, column{p, c.Type, float64(c.TimeBase), ci, it.Instance})
				}
			}
		}
	}
	// Columns in counter-list order, instances in order of appearance.
	ordered := cols[:0:0]
	for ci := range raw.Counters {
		for _, c := range cols {
			if c.counter == ci {
				ordered = append(ordered, c)
			}
		}
	}
	cols = ordered

	var b strings.Builder
	b.WriteString(`"(PDH-CSV 4.0) ` + zone + `"`)
	for _, c := range cols {
		b.WriteString(`,"` + c.path + `"`)
	}
	b.WriteString("\r\n")
	prev := make([]rawPoint, len(cols))
	for si, row := range raw.Samples {
		// The row's time: the FILETIME of the sample's last raw record,
		// the logging machine's local time.
		ft := row[len(row)-1].TimeStamp
		tm := time.Unix(ft/10_000_000-11_644_473_600, ft%10_000_000*100).UTC()
		b.WriteString(`"` + tm.Format("01/02/2006 15:04:05.000") + `"`)
		for ci, c := range cols {
			s := row[c.counter]
			status, err := strconv.ParseUint(s.Status, 0, 32)
			if err != nil {
				t.Fatal(err)
			}
			cur := rawPoint{ok: status <= 1, first: s.First, second: s.Second}
			if c.inst != "" {
				found := false
				for _, it := range s.Items {
					if it.Instance == c.inst {
						cur.first, cur.second, found = it.First, it.Second, true
					}
				}
				if !found {
					t.Fatalf("sample %d lacks %s", si, c.path)
				}
			}
			b.WriteString(`,"` + independentValue(t, c.typ, c.f, si > 0, prev[ci], cur, digits) + `"`)
			prev[ci] = cur
		}
		b.WriteString("\r\n")
	}
	return b.String()
}

// independentValue computes one cell: the spec's formula in its arithmetic
// order, on float64 variables, and " " when there is no valid value.
func independentValue(t *testing.T, typ string, f float64, hasOld bool, old, cur rawPoint, digits int) string {
	const none = " "
	if !hasOld || !old.ok || !cur.ok {
		return none
	}
	dN := int64(cur.first - old.first)
	d2 := int64(cur.second - old.second) // ΔD, or ΔB for the averages
	if d2 <= 0 {
		return none // NegativeDenominator
	}
	if dN < 0 {
		return none // NegativeValue
	}
	n, d := float64(dN), float64(d2)
	var v float64
	switch typ {
	case "0x40020500": // PERF_AVERAGE_BULK: ΔN / ΔB
		v = n / d
	case "0x00550500": // PERF_COUNTER_100NS_QUEUELEN_TYPE: ΔN / ΔD
		v = n / d
	case "0x21510500": // PERF_100NSEC_TIMER_INV: 100 * (1 − ΔN / ΔD)
		v = 100 * (1 - n/d)
		if v < 0 {
			return none
		}
	case "0x10410400", "0x10410500": // rates: ΔN / (ΔD / F)
		v = n / (d / f)
	default:
		t.Fatalf("type %s: no independent formula in the test", typ)
	}
	return printfG(v, digits)
}

// printfG is Microsoft's C runtime's printf("%.<digits>g"): strconv's
// correctly rounded 'g' (the same layout as C's) with the exponent widened
// to three digits.
func printfG(v float64, digits int) string {
	return msvcExponent.ReplaceAllString(strconv.FormatFloat(v, 'g', digits, 64), "e${1}0$2")
}

var msvcExponent = regexp.MustCompile(`e([+-])(\d\d)$`)

// TestIndependentCSV recomputes every cell of the CSV of the two raw-record
// logs from their .raw.json and compares the text bit for bit.
func TestIndependentCSV(t *testing.T) {
	for _, tc := range []struct {
		log, zone string
		digits    int
	}{
		{"Tx_BasicPerfCounters", "(Pacific Standard Time)(480)", 20},
		{"Tx_BasicPerfCounters", "(Pacific Standard Time)(480)", 17},
		{"PowerShell_BadCounterSamples", "(SA Eastern Standard Time)(180)", 20},
		{"PowerShell_BadCounterSamples", "(SA Eastern Standard Time)(180)", 17},
	} {
		t.Run(tc.log+"/"+strconv.Itoa(tc.digits), func(t *testing.T) {
			var raw rawJSON
			if err := json.Unmarshal(readCorpus(t, tc.log+".raw.json"), &raw); err != nil {
				t.Fatal(err)
			}
			want := independentCSV(t, &raw, tc.zone, tc.digits)
			have, err := csvText(t, readCorpus(t, tc.log+".blg"), Options{Digits: tc.digits}, CSV)
			if err != nil {
				t.Fatal(err)
			}
			hl, wl := strings.Split(have, "\r\n"), strings.Split(want, "\r\n")
			if len(hl) != len(wl) {
				t.Errorf("have %d lines, want %d", len(hl), len(wl))
			}
			bad, cells, blanks := 0, 0, 0
			for i := 0; i < min(len(hl), len(wl)); i++ {
				hf, wf := strings.Split(hl[i], `","`), strings.Split(wl[i], `","`)
				for j := range wf {
					if i > 0 && j > 0 {
						cells++
						if strings.Trim(wf[j], `"`) == " " {
							blanks++
						}
					}
					if j >= len(hf) || hf[j] != wf[j] {
						if bad++; bad <= 5 {
							t.Errorf("line %d field %d: have %q, want %q", i+1, j+1, field(hf, j), wf[j])
						}
					}
				}
			}
			if bad > 5 {
				t.Errorf("%d fields differ in all", bad)
			}
			if cells < 2000 || blanks == 0 || blanks == cells {
				t.Errorf("%d cells of which %d without a value: the test checks too little", cells, blanks)
			}
			t.Logf("%d cells identical, %d of them without a value", cells, blanks)
		})
	}
}

func field(f []string, j int) string {
	if j < len(f) {
		return f[j]
	}
	return "<missing>"
}

// manifest is the shape of ../shared/corpus/v1/manifest.json: the
// independent decode of the 88 PERF_DATA_BLOCKs of PAL_SamplePerfmonLog.blg.
type manifest []struct {
	File            string `json:"file"`
	Sample          int    `json:"sample"`
	PerfTime        int64  `json:"PerfTime"`
	PerfFreq        int64  `json:"PerfFreq"`
	PerfTime100nSec int64  `json:"PerfTime100nSec"`
	Object          struct {
		Name     string `json:"name"`
		PerfTime int64  `json:"PerfTime"`
		PerfFreq int64  `json:"PerfFreq"`
	} `json:"object"`
	Counters []struct {
		Name string `json:"name"`
		Type string `json:"type"`
	} `json:"counters"`
	Instances []struct {
		Name   *string  `json:"name"`
		Values []uint64 `json:"values"`
	} `json:"instances"`
}

// TestPALCells checks cells of the whole-object log against values
// computed here from the independent decode of its blocks (manifest.json):
// one rate, one 100 ns inverse timer, one raw fraction, one average timer,
// one elapsed time, and an instance with a duplicate name, in every sample.
func TestPALCells(t *testing.T) {
	var m manifest
	if err := json.Unmarshal(readManifest(t), &m); err != nil {
		t.Fatal(err)
	}
	out, err := csvText(t, readCorpus(t, "PAL_SamplePerfmonLog.blg"), Options{}, CSV)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\r\n"), "\r\n")
	header := strings.Split(lines[0], `","`)
	column := func(path string) []string {
		for j, h := range header {
			if strings.Trim(h, `"`) == path {
				var cells []string
				for _, l := range lines[1:] {
					cells = append(cells, strings.Trim(strings.Split(l, `","`)[j], `"`))
				}
				return cells
			}
		}
		t.Fatalf("no column %s", path)
		return nil
	}
	if len(lines) != 12 {
		t.Fatalf("have %d lines, want a header and 11 rows", len(lines))
	}
	if want := `"(PDH-CSV 4.0) (Eastern Daylight Time)(240)"`; header[0]+`"` != want {
		t.Errorf("header %s, want %s", header[0], want)
	}

	// value returns the raw value of a counter (by name and type) of an
	// instance (nil: the object's single instance; n: the n-th of that
	// name) in sample s, with the block's time stamps.
	type point struct {
		n, base            uint64
		perfTime, perfFreq int64
		time100ns          int64
		objTime, objFreq   int64
		found              bool
	}
	value := func(s int, object, counter, typ, inst string, occurrence int) point {
		for _, b := range m {
			if b.Sample != s || b.Object.Name != object {
				continue
			}
			k := -1
			for i, c := range b.Counters {
				if c.Name == counter && c.Type == typ {
					k = i
					break
				}
			}
			if k < 0 {
				t.Fatalf("%s has no counter %s", object, counter)
			}
			seen := 0
			for _, in := range b.Instances {
				name := ""
				if in.Name != nil {
					name = *in.Name
				}
				if name != inst {
					continue
				}
				if seen++; seen-1 != occurrence {
					continue
				}
				p := point{n: in.Values[k], perfTime: b.PerfTime, perfFreq: b.PerfFreq, time100ns: b.PerfTime100nSec, objTime: b.Object.PerfTime, objFreq: b.Object.PerfFreq, found: true}
				if k+1 < len(in.Values) {
					p.base = in.Values[k+1]
				}
				return p
			}
			return point{}
		}
		t.Fatalf("no block of %s in sample %d", object, s)
		return point{}
	}
	g20 := func(v float64) string { return printfG(v, 20) }
	for _, tc := range []struct {
		path, object, counter, typ, inst string
		occurrence                       int
		formula                          func(old, cur point) string
	}{
		{`\\ZACH-PC\Memory\Pages/sec`, "Memory", "Pages/sec", "0x10410400", "", 0, func(o, c point) string {
			n, d, f := float64(c.n-o.n), float64(c.perfTime-o.perfTime), float64(c.perfFreq)
			return g20(n / (d / f))
		}},
		{`\\ZACH-PC\Processor(_Total)\% Processor Time`, "Processor", "% Processor Time", "0x21510500", "_Total", 0, func(o, c point) string {
			n, d := float64(c.n-o.n), float64(c.time100ns-o.time100ns)
			return g20(100 * (1 - n/d))
		}},
		{`\\ZACH-PC\LogicalDisk(C:)\% Free Space`, "LogicalDisk", "% Free Space", "0x20020400", "C:", 0, func(o, c point) string {
			n, b := float64(c.n), float64(c.base)
			return g20((n / b) * 100)
		}},
		{`\\ZACH-PC\PhysicalDisk(_Total)\Avg. Disk sec/Transfer`, "PhysicalDisk", "Avg. Disk sec/Transfer", "0x30020400", "_Total", 0, func(o, c point) string {
			if c.base == o.base {
				return " "
			}
			n, b, f := float64(c.n-o.n), float64(c.base-o.base), float64(c.perfFreq)
			return g20((n / f) / b)
		}},
		{`\\ZACH-PC\System\System Up Time`, "System", "System Up Time", "0x30240500", "", 0, func(o, c point) string {
			return g20(float64(c.objTime-int64(c.n)) / float64(c.objFreq))
		}},
		{`\\ZACH-PC\Process(svchost#3)\Private Bytes`, "Process", "Private Bytes", "0x00010100", "svchost", 3, func(o, c point) string {
			return g20(float64(c.n))
		}},
		{`\\ZACH-PC\Process(svchost#3)\% Processor Time`, "Process", "% Processor Time", "0x20510500", "svchost", 3, func(o, c point) string {
			n, d := float64(c.n-o.n), float64(c.time100ns-o.time100ns)
			return g20((n / d) * 100)
		}},
	} {
		t.Run(tc.path, func(t *testing.T) {
			have := column(tc.path)
			twoSample := tc.typ != "0x20020400" && tc.typ != "0x30240500" && tc.typ != "0x00010100"
			var old point
			for s := 0; s < 11; s++ {
				cur := value(s, tc.object, tc.counter, tc.typ, tc.inst, tc.occurrence)
				want := " "
				if !twoSample {
					want = tc.formula(old, cur)
				} else if s > 0 {
					want = tc.formula(old, cur)
				}
				if have[s] != want {
					t.Errorf("sample %d: have %q, want %q", s, have[s], want)
				}
				old = cur
			}
		})
	}
}

func readManifest(t *testing.T) []byte {
	b, err := os.ReadFile(filepath.Join(corpus.Shared(t, "v1"), "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestCorruptAndTruncated: the CSV renamed .blg is refused; a copy of the
// Tx log cut in its middle gives the rows before the cut and an error.
func TestCorruptAndTruncated(t *testing.T) {
	bad := readCorpus(t, "PowerShell_CorruptBlg.blg")
	if _, err := New(bytes.NewReader(bad), int64(len(bad)), Options{}); err == nil {
		t.Error("PowerShell_CorruptBlg.blg accepted")
	} else if !errors.Is(err, engine.ErrMalformed) {
		t.Errorf("have %v, want a malformed-log error", err)
	}
	log := readCorpus(t, "Tx_BasicPerfCounters.blg")
	whole, err := csvText(t, log, Options{}, CSV)
	if err != nil {
		t.Fatal(err)
	}
	cut := len(log)/2 + 1234
	part, err := csvText(t, log[:cut], Options{}, CSV)
	if err == nil {
		t.Fatal("no error for a log cut in half")
	}
	rows := strings.Count(part, "\r\n") - 1
	if rows < 200 || rows >= 601 || !strings.HasPrefix(whole, part) {
		t.Errorf("have %d rows (a prefix of the whole log's: %v), want the rows before the cut", rows, strings.HasPrefix(whole, part))
	}
}

// TestCorpusFloats: no real log yields NaN, ±Inf or a cell the CSV cannot
// read back.
func TestCorpusFloats(t *testing.T) {
	for _, name := range []string{"Tx_BasicPerfCounters.blg", "PowerShell_BadCounterSamples.blg", "PAL_SamplePerfmonLog.blg"} {
		t.Run(name, func(t *testing.T) {
			log := readCorpus(t, name)
			c := open(t, log, Options{})
			n := 0
			for c.Next() {
				for _, cell := range c.Row().Cells {
					v := cell.Result.Value
					if math.IsNaN(v) || math.IsInf(v, 0) {
						t.Fatalf("row %d: %v", c.Row().Index, v)
					}
					n++
				}
			}
			if c.Err() != nil || n == 0 {
				t.Errorf("%d cells, error %v", n, c.Err())
			}
		})
	}
}

// TestColumnParts: the parts each column carries are those that
// counterpath.Parse reads back from its path, for every column of the
// corpus's logs (whose paths all read back).
func TestColumnParts(t *testing.T) {
	n, withParent := 0, 0
	for _, name := range []string{"Tx_BasicPerfCounters.blg", "PowerShell_BadCounterSamples.blg", "PAL_SamplePerfmonLog.blg"} {
		b := readCorpus(t, name)
		c, err := New(bytes.NewReader(b), int64(len(b)), Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, col := range c.Columns() {
			want, err := counterpath.Parse(col.Path)
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			if p := col.Parts; p.Machine != want.Machine || p.Object != want.Object || p.HasInstance != want.HasInstance ||
				p.Parent != want.Parent || p.Instance != want.Instance || p.Index != want.Index || p.Counter != want.Counter {
				t.Errorf("%s: %s: have parts %+v, want %+v", name, col.Path, p, want)
			}
			n++
			if col.Parts.Parent != "" || col.Parts.Index > 0 {
				withParent++
			}
		}
	}
	if n < 100 {
		t.Errorf("only %d columns: the test checks too little", n)
	}
	t.Logf("%d columns, %d with a parent or an index", n, withParent)
}
