//go:build perfcalcanalyze

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/analysis"
	"github.com/perfcalc/perfcalc/analysis/palxml"
	"github.com/perfcalc/perfcalc/engine/relog"
	"github.com/perfcalc/perfcalc/internal/abi"
	"github.com/perfcalc/perfcalc/internal/abi/analyze"
	"github.com/perfcalc/perfcalc/tools/corpus"
)

// palDir returns ../shared/pal beside the project's root (PAL's threshold
// files), or skips the test when it is absent.
func palDir(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(corpus.Root(), "..", "shared", "pal")
	if _, err := os.Stat(filepath.Join(dir, "QuickSystemOverview.xml")); err != nil {
		t.Skipf("PAL's threshold files are absent (%v): a clone without ../shared", err)
	}
	return dir
}

// analyzeInput lays out analyze's input: the log, the threshold files
// (name, bytes, flags each) and their table, the NAME=VALUE text; it
// returns the log's region, the table's offset and the text's region.
func analyzeInput(t *testing.T, log []byte, files []analyze.ThresholdFile, set string) (logOff, logLen, tableOff, setOff, setLen uint32) {
	t.Helper()
	at := 0
	put := func(b []byte) (uint32, uint32) {
		if at+len(b) > len(inBuf) {
			t.Fatal("input too large")
		}
		off := at
		copy(inBuf[at:], b)
		at = (at + len(b) + 7) &^ 7
		return uint32(off), uint32(len(b))
	}
	logOff, logLen = put(log)
	table := make([]byte, len(files)*abi.ThrSize)
	for i, f := range files {
		var e abi.ThrEntry
		e.NameOff, e.NameLen = put([]byte(f.Name))
		e.DataOff, e.DataLen = put(f.Data)
		if f.Run {
			e.Flags = abi.ThrRun
		}
		e.Put(table[i*abi.ThrSize:])
	}
	tableOff, _ = put(table)
	setOff, setLen = put([]byte(set))
	return
}

// nativeReport runs the analysis in process, as perfcalc analyze does:
// the set loaded from disk (dir) or the defaults, analysis.Run, then
// AppendJSON.
func nativeReport(t *testing.T, log []byte, dir, file string, values map[string]string, opts analysis.Options) []byte {
	t.Helper()
	set := analysis.Defaults()
	if file != "" {
		var err error
		set, err = palxml.Load(file, func(name string) ([]byte, error) { return os.ReadFile(filepath.Join(dir, name)) }, values)
		if err != nil {
			t.Fatal(err)
		}
	}
	c, err := relog.New(bytes.NewReader(log), int64(len(log)), relog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := analysis.Run(c, set, opts)
	if err != nil {
		t.Fatal(err)
	}
	return append(r.AppendJSON(nil), '\n') // as perfcalc analyze -f json writes it
}

// TestAnalyzeCorpus runs analyze on the real logs, with perfcalc's default
// analyses and with PAL's SystemOverview.xml (which inherits
// QuickSystemOverview.xml, given for INHERITANCE only), in pages of a few
// KiB and in one page, and checks that its JSON is, byte for byte, what
// analysis.Run's report gives in process (and a newline, as the command
// writes it).
func TestAnalyzeCorpus(t *testing.T) {
	dir := corpus.Shared(t, "blg")
	pal := palDir(t)
	defer func() { outBuf = outStatic[:] }()
	quick := mustRead(t, filepath.Join(pal, "QuickSystemOverview.xml"))
	system := mustRead(t, filepath.Join(pal, "SystemOverview.xml"))
	for _, name := range []string{"Tx_BasicPerfCounters.blg", "PAL_SamplePerfmonLog.blg"} {
		log := mustRead(t, filepath.Join(dir, name))
		for _, tc := range []struct {
			what   string
			files  []analyze.ThresholdFile
			file   string
			set    string
			values map[string]string
			opts   analysis.Options
		}{
			{what: "defaults"},
			{what: "defaults, pal-compat, 60 s", opts: analysis.Options{Interval: 60, PALCompat: true}},
			{what: "SystemOverview", file: "SystemOverview.xml",
				files: []analyze.ThresholdFile{{Name: "SystemOverview.xml", Data: system, Run: true}, {Name: "QuickSystemOverview.xml", Data: quick}}},
			{what: "SystemOverview, set", file: "SystemOverview.xml", set: " OS=Windows Server 2003 32-bit\r\n\nPhysicalMemory=4\n",
				values: map[string]string{"OS": "Windows Server 2003 32-bit", "PhysicalMemory": "4"},
				files:  []analyze.ThresholdFile{{Name: "QUICKSYSTEMOVERVIEW.XML", Data: quick}, {Name: "SystemOverview.xml", Data: system, Run: true}},
				opts:   analysis.Options{Interval: 300}},
		} {
			want := nativeReport(t, log, pal, tc.file, tc.values, tc.opts)
			logOff, logLen, tableOff, setOff, setLen := analyzeInput(t, log, tc.files, tc.set)
			flags := uint32(0)
			if tc.opts.PALCompat {
				flags = abi.AnalyzePALCompat
			}
			call := func() int32 {
				return analyzeLog(logOff, logLen, tableOff, uint32(len(tc.files)), setOff, setLen, tc.opts.Interval, flags)
			}
			outBuf = outStatic[:]
			rc := call()
			if rc < 0 || !bytes.Equal(outBuf[:rc], want) || errLen != 0 {
				t.Errorf("%s, %s: analyze = %d (%s), want %d identical bytes", name, tc.what, rc, errBuf[:errLen], len(want))
				continue
			}
			outBuf = outStatic[:4093]
			text, pages := readText(t, call(), func(page int) { outBuf = outStatic[:4093+page%3*1000] })
			if !bytes.Equal(text, want) || (len(want) > 4093 && pages < 2) {
				t.Errorf("%s, %s: analyze in pages: %d bytes in %d pages, want %d identical bytes", name, tc.what, len(text), pages, len(want))
			}
		}
	}
}

// TestAnalyzeErrors checks analyze's refusals: their codes and texts.
func TestAnalyzeErrors(t *testing.T) {
	dir := corpus.Shared(t, "blg")
	pal := palDir(t)
	log := mustRead(t, filepath.Join(dir, "Tx_BasicPerfCounters.blg"))
	system := mustRead(t, filepath.Join(pal, "SystemOverview.xml"))
	run := []analyze.ThresholdFile{{Name: "SystemOverview.xml", Data: system, Run: true}}
	for _, tc := range []struct {
		what  string
		files []analyze.ThresholdFile
		set   string
		call  func(logOff, logLen, tableOff, n, setOff, setLen uint32) int32
		code  int32
		text  string
	}{
		{"reserved flag", nil, "", func(lo, ll, to, n, so, sl uint32) int32 { return analyzeLog(lo, ll, to, n, so, sl, 0, 8) },
			abi.CodeArgument, "reserved bits set in flags"},
		{"negative interval", nil, "", func(lo, ll, to, n, so, sl uint32) int32 { return analyzeLog(lo, ll, to, n, so, sl, -1, 0) },
			abi.CodeArgument, "interval is negative"},
		{"log out of bounds", nil, "", func(lo, ll, to, n, so, sl uint32) int32 {
			return analyzeLog(uint32(len(inBuf)), 8, to, n, so, sl, 0, 0)
		},
			abi.CodeBounds, "log at"},
		{"table out of bounds", nil, "", func(lo, ll, to, n, so, sl uint32) int32 { return analyzeLog(lo, ll, to, 1<<30, so, sl, 0, 0) },
			abi.CodeBounds, "threshold files at"},
		{"not NAME=VALUE", nil, "PhysicalMemory", func(lo, ll, to, n, so, sl uint32) int32 { return analyzeLog(lo, ll, to, n, so, sl, 0, 0) },
			abi.CodeArgument, `"PhysicalMemory" is not NAME=VALUE`},
		{"inheritance not given", run, "", func(lo, ll, to, n, so, sl uint32) int32 { return analyzeLog(lo, ll, to, n, so, sl, 0, 0) },
			abi.CodeInput, "QuickSystemOverview.xml"},
		{"not a log", nil, "", func(lo, ll, to, n, so, sl uint32) int32 { return analyzeLog(to, 24, to, n, so, sl, 0, 0) },
			abi.CodeTruncated, "blg: "},
	} {
		logOff, logLen, tableOff, setOff, setLen := analyzeInput(t, log, tc.files, tc.set)
		rc := tc.call(logOff, logLen, tableOff, uint32(len(tc.files)), setOff, setLen)
		if msg := string(errBuf[:errLen]); rc != tc.code || !strings.Contains(msg, tc.text) || msg == "" {
			t.Errorf("%s: analyze = %d (%q), want %d and a text with %q", tc.what, rc, msg, tc.code, tc.text)
		}
	}
	// The inherited file not given, as data: last_detail bytes of the
	// output buffer name it; other refusals leave last_detail 0.
	logOff, logLen, tableOff, setOff, setLen := analyzeInput(t, log, run, "")
	if rc := analyzeLog(logOff, logLen, tableOff, 1, setOff, setLen, 0, 0); rc != abi.CodeInput || string(outBuf[:lastDetail]) != "QuickSystemOverview.xml" {
		t.Errorf("inheritance not given: analyze = %d, last_detail %d, output %q; want CodeInput and the file's name", rc, lastDetail, outBuf[:min(int(lastDetail), 64)])
	}
	if rc := analyzeLog(logOff, logLen, tableOff, 1, setOff, setLen, -1, 0); rc != abi.CodeArgument || lastDetail != 0 {
		t.Errorf("negative interval: analyze = %d, last_detail %d; want CodeArgument and 0", rc, lastDetail)
	}
	// A table of logs whose region lies outside the input buffer, and an
	// empty one.
	logOff, logLen, tableOff, setOff, setLen = analyzeInput(t, log, nil, "")
	abi.PutRegion(inBuf[tableOff:], 0, logOff+1, uint32(len(inBuf)))
	if rc := analyzeLog(tableOff, 8, 0, 0, setOff, setLen, 0, abi.AnalyzeLogs); rc != abi.CodeBounds {
		t.Errorf("a log outside the buffer: analyze = %d (%s), want CodeBounds", rc, errBuf[:errLen])
	}
	if rc := analyzeLog(tableOff, 0, 0, 0, setOff, setLen, 0, abi.AnalyzeLogs); rc != abi.CodeArgument || !strings.Contains(string(errBuf[:errLen]), "no log") {
		t.Errorf("no log: analyze = %d (%s), want CodeArgument", rc, errBuf[:errLen])
	}
	_ = logLen
	// A reserved bit of a table entry.
	logOff, logLen, tableOff, setOff, setLen = analyzeInput(t, log, run, "")
	inBuf[tableOff+abi.ThrReserved] = 1
	if rc := analyzeLog(logOff, logLen, tableOff, 1, setOff, setLen, 0, 0); rc != abi.CodeArgument {
		t.Errorf("a reserved field set: analyze = %d (%s), want CodeArgument", rc, errBuf[:errLen])
	}
}

// TestAnalyzeMachines: a table of logs of two machines (the PAL sample
// log and the Tx log) gives the fleet JSON of their reports, each
// analysis.Run's in process (analysis.AppendFleetJSON, as perfcalc analyze
// -f json writes it: cmd/perfcalc's TestAnalyzeModuleGroups compares
// analyze.Run with the command), in one page and in pages.
func TestAnalyzeMachines(t *testing.T) {
	dir := corpus.Shared(t, "blg")
	defer func() { outBuf = outStatic[:] }()
	pal := mustRead(t, filepath.Join(dir, "PAL_SamplePerfmonLog.blg"))
	tx := mustRead(t, filepath.Join(dir, "Tx_BasicPerfCounters.blg"))
	var reports []*analysis.Report
	for _, l := range [][]byte{pal, tx} {
		c, err := relog.New(bytes.NewReader(l), int64(len(l)), relog.Options{})
		if err != nil {
			t.Fatal(err)
		}
		r, err := analysis.Run(c, analysis.Defaults(), analysis.Options{})
		if err != nil {
			t.Fatal(err)
		}
		reports = append(reports, r)
	}
	want := append(analysis.AppendFleetJSON(nil, reports), '\n')
	// The logs, then their table (analyzeInput's layout, with the PAL log
	// as "the log" and the Tx log after it).
	palOff, palLen, _, setOff, setLen := analyzeInput(t, pal, nil, "")
	txOff := (setOff + setLen + 7) &^ 7
	copy(inBuf[txOff:], tx)
	table := (txOff + uint32(len(tx)) + 7) &^ 7
	abi.PutRegion(inBuf[table:], 0, palOff, palLen)
	abi.PutRegion(inBuf[table:], 8, txOff, uint32(len(tx)))
	call := func() int32 { return analyzeLog(table, 16, 0, 0, setOff, setLen, 0, abi.AnalyzeLogs) }
	outBuf = outStatic[:]
	if rc := call(); rc < 0 || !bytes.Equal(outBuf[:rc], want) || errLen != 0 {
		t.Fatalf("two machines: analyze = %d (%s), want the fleet JSON's %d bytes", rc, errBuf[:errLen], len(want))
	}
	if !bytes.HasPrefix(want, []byte(`{"alerts":[`)) || !bytes.Contains(want, []byte(`"machines":[{"parameters":`)) {
		t.Fatalf("the fleet JSON: %.100s", want)
	}
	outBuf = outStatic[:4093]
	if text, pages := readText(t, call(), func(int) { outBuf = outStatic[:4093] }); !bytes.Equal(text, want) || pages < 2 {
		t.Errorf("two machines in pages: %d bytes in %d pages, want %d identical bytes", len(text), pages, len(want))
	}
}

// FuzzAnalyzeTable gives analyze a table of threshold files of any bytes
// (offsets and lengths anywhere, reserved bits) and any values: a refusal
// with a code and a text, never a panic.
func FuzzAnalyzeTable(f *testing.F) {
	e := abi.ThrEntry{NameOff: 0, NameLen: 4, DataOff: 8, DataLen: 16, Flags: abi.ThrRun}
	seed := make([]byte, abi.ThrSize)
	e.Put(seed)
	f.Add(seed, uint32(1), []byte("a=b"))
	f.Add(seed[:8], uint32(3), []byte("\n=\n"))
	f.Fuzz(func(t *testing.T, table []byte, count uint32, values []byte) {
		clear(inBuf[:1<<16])
		copy(inBuf[64:], []byte("x.xml<?xml version=\"1.0\"?><PAL PALVERSION=\"2.0\"></PAL>"))
		copy(inBuf[1024:], table)
		copy(inBuf[8192:], values)
		rc := analyzeLog(0, 64, 1024, count%8, 8192, uint32(len(values)), 0, 0)
		if rc == abi.CodePanic || rc >= 0 || errLen == 0 {
			t.Fatalf("analyze = %d (%s), want a refusal with a text", rc, errBuf[:errLen])
		}
	})
}
