package host_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/analysis"
	"github.com/perfcalc/perfcalc/analysis/palxml"
	"github.com/perfcalc/perfcalc/engine/relog"
	"github.com/perfcalc/perfcalc/host"
	"github.com/perfcalc/perfcalc/tools/corpus"
	"github.com/perfcalc/perfcalc/tools/gencorpus"
)

// palDir returns ../shared/pal beside the project's root, or skips.
func palDir(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(filepath.Dir(corpus.Root()), "shared", "pal")
	if _, err := os.Stat(filepath.Join(dir, "QuickSystemOverview.xml")); err != nil {
		t.Skipf("PAL's threshold files are absent (%v): a clone without ../shared", err)
	}
	return dir
}

// analyzeEngine returns the Engine that the analyze tests use: the shared
// one, whose Analyze loads the embedded analyze module.
func analyzeEngine(t *testing.T) *host.Engine {
	t.Helper()
	return shared
}

// runReport is the report's JSON computed directly, as perfcalc analyze
// does: the threshold file loaded from dir (its INHERITANCE read from
// there too) or the defaults, analysis.Run over relog's converter,
// AppendJSON.
func runReport(t *testing.T, log []byte, dir, file string, values map[string]string, opts analysis.Options) []byte {
	t.Helper()
	set := analysis.Defaults()
	if file != "" {
		var err error
		if set, err = palxml.Load(file, func(name string) ([]byte, error) { return os.ReadFile(filepath.Join(dir, name)) }, values); err != nil {
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

// TestAnalyzeMatchesRun runs Engine.Analyze and Native.Analyze on the real
// logs, with perfcalc's default analyses and with PAL's SystemOverview.xml
// (its INHERITANCE of QuickSystemOverview.xml given as an include), and
// checks that both are byte for byte the JSON of analysis.Run's report.
func TestAnalyzeMatchesRun(t *testing.T) {
	dir := corpus.Shared(t, "blg")
	pal := palDir(t)
	system := host.ThresholdFile{Name: "SystemOverview.xml", Data: readFile(t, filepath.Join(pal, "SystemOverview.xml"))}
	quick := host.ThresholdFile{Name: "QuickSystemOverview.xml", Data: readFile(t, filepath.Join(pal, "QuickSystemOverview.xml"))}
	e := analyzeEngine(t)
	for _, name := range []string{"Tx_BasicPerfCounters.blg", "PAL_SamplePerfmonLog.blg", "PowerShell_BadCounterSamples.blg"} {
		log := readFile(t, filepath.Join(dir, name))
		for _, tc := range []struct {
			what string
			file string
			cfg  host.AnalyzeConfig
		}{
			{what: "defaults"},
			{what: "defaults, pal-compat", cfg: host.AnalyzeConfig{Options: analysis.Options{PALCompat: true}}},
			{what: "defaults, 120 s", cfg: host.AnalyzeConfig{Options: analysis.Options{Interval: 120}}},
			{what: "SystemOverview", file: "SystemOverview.xml", cfg: host.AnalyzeConfig{Thresholds: []host.ThresholdFile{system}, Includes: []host.ThresholdFile{quick}}},
			{what: "SystemOverview, set, pal-compat", file: "SystemOverview.xml", cfg: host.AnalyzeConfig{
				Thresholds: []host.ThresholdFile{system}, Includes: []host.ThresholdFile{quick},
				Values: map[string]string{"PhysicalMemory": "2", "UserVa": "3072"}, Options: analysis.Options{PALCompat: true}}},
		} {
			want := runReport(t, log, pal, tc.file, tc.cfg.Values, tc.cfg.Options)
			have, err := e.Analyze(log, &tc.cfg)
			if err != nil || !bytes.Equal(have, want) {
				t.Errorf("%s, %s: Engine.Analyze: %d bytes (%v), want %d identical bytes", name, tc.what, len(have), err, len(want))
			}
			nat, err := host.Native{}.Analyze(log, &tc.cfg)
			if err != nil || !bytes.Equal(nat, want) {
				t.Errorf("%s, %s: Native.Analyze: %d bytes (%v), want %d identical bytes", name, tc.what, len(nat), err, len(want))
			}
		}
	}
}

// TestAnalyzeErrors checks that Engine.Analyze and Native.Analyze refuse
// alike, with the module's codes and texts.
func TestAnalyzeErrors(t *testing.T) {
	pal := palDir(t)
	log := readFile(t, filepath.Join(corpus.Shared(t, "blg"), "Tx_BasicPerfCounters.blg"))
	system := host.ThresholdFile{Name: "SystemOverview.xml", Data: readFile(t, filepath.Join(pal, "SystemOverview.xml"))}
	quick := host.ThresholdFile{Name: "quicksystemoverview.XML", Data: readFile(t, filepath.Join(pal, "QuickSystemOverview.xml"))}
	e := analyzeEngine(t)
	for _, tc := range []struct {
		what string
		log  []byte
		cfg  host.AnalyzeConfig
		code host.Code
		text string
	}{
		{"negative interval", log, host.AnalyzeConfig{Options: analysis.Options{Interval: -5}}, host.CodeArgument, "interval is negative"},
		{"a value on two lines", log, host.AnalyzeConfig{Values: map[string]string{"A": "1\n2"}}, host.CodeArgument, "not NAME=VALUE"},
		{"inheritance not given", log, host.AnalyzeConfig{Thresholds: []host.ThresholdFile{system}}, host.CodeInput, "QuickSystemOverview.xml"},
		{"a value no file asks for", log, host.AnalyzeConfig{Thresholds: []host.ThresholdFile{system}, Includes: []host.ThresholdFile{quick},
			Values: map[string]string{"PhysicalMemory": "8", "NumberOfProcessors": "4", "Cores": "2"}},
			host.CodeArgument, "--set Cores, NumberOfProcessors: no such question (the threshold files ask OS, PhysicalMemory, UserVa)"},
		{"a value for the defaults", log, host.AnalyzeConfig{Values: map[string]string{"OS": "x"}},
			host.CodeArgument, "--set OS: no such question (perfcalc's default analyses ask none"},
		{"a value out of its options", log, host.AnalyzeConfig{Thresholds: []host.ThresholdFile{system}, Includes: []host.ThresholdFile{quick},
			Values: map[string]string{"OS": "Windows 95"}}, host.CodeInput, `question OS: "Windows 95" is not one of its options`},
		{"not a log", []byte("not a log, but long enough to be read as one: 0123456789"), host.AnalyzeConfig{}, host.CodeTruncated, "blg: "},
	} {
		_, herr := e.Analyze(tc.log, &tc.cfg)
		_, nerr := host.Native{}.Analyze(tc.log, &tc.cfg)
		if host.ErrorCode(herr) != tc.code || host.ErrorCode(nerr) != tc.code || herr == nil || nerr == nil ||
			!strings.Contains(herr.Error(), tc.text) || !strings.Contains(nerr.Error(), tc.text) {
			t.Errorf("%s: Engine %v (code %d), Native %v (code %d); want code %d and %q", tc.what, herr, host.ErrorCode(herr), nerr, host.ErrorCode(nerr), tc.code, tc.text)
		}
	}
}

// TestAnalyzeLogs merges the real Tx log with a log of the same machine
// that repeats it (later samples included): Engine.AnalyzeLogs and
// Native.AnalyzeLogs give, byte for byte, analysis.Run's report over
// relog.Merge, which is not the report of the Tx log alone.
func TestAnalyzeLogs(t *testing.T) {
	tx := readFile(t, filepath.Join(corpus.Shared(t, "blg"), "Tx_BasicPerfCounters.blg"))
	rl, err := gencorpus.NewRepeatedLog(tx, 2)
	if err != nil {
		t.Fatal(err)
	}
	logs := [][]byte{tx, rl.Bytes()}
	in := make([]relog.Input, len(logs))
	for i, l := range logs {
		in[i] = relog.Input{R: bytes.NewReader(l), Size: int64(len(l)), Name: "log " + string(rune('1'+i))}
	}
	c, err := relog.Merge(in, relog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := analysis.Run(c, analysis.Defaults(), analysis.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := append(r.AppendJSON(nil), '\n')
	e := analyzeEngine(t)
	cfg := &host.AnalyzeConfig{}
	have, err := e.AnalyzeLogs(logs, cfg)
	if err != nil || !bytes.Equal(have, want) {
		t.Errorf("Engine.AnalyzeLogs: %d bytes (%v), want %d identical bytes", len(have), err, len(want))
	}
	nat, err := host.Native{}.AnalyzeLogs(logs, cfg)
	if err != nil || !bytes.Equal(nat, want) {
		t.Errorf("Native.AnalyzeLogs: %d bytes (%v), want %d identical bytes", len(nat), err, len(want))
	}
	if one, err := e.Analyze(tx, cfg); err != nil || bytes.Equal(one, want) {
		t.Errorf("the Tx log alone: %d bytes (%v), want another report than the merged logs'", len(one), err)
	}
	if _, err := e.AnalyzeLogs(nil, cfg); host.ErrorCode(err) != host.CodeArgument || !strings.Contains(err.Error(), "no log") {
		t.Errorf("no log: %v, want CodeArgument", err)
	}
	many := make([][]byte, relog.MaxInputs+1)
	for i := range many {
		many[i] = tx
	}
	if _, err := e.AnalyzeLogs(many, cfg); host.ErrorCode(err) != host.CodeLimit {
		t.Errorf("%d logs: %v, want CodeLimit", len(many), err)
	}
}

// TestAnalyzeMissingFile: an INHERITANCE of a file not given is, from the
// module and in process alike, a *MissingFileError naming the file (the
// module gives the name as data: last_detail bytes of its output buffer),
// around the error with CodeInput; given, the same call runs.
func TestAnalyzeMissingFile(t *testing.T) {
	pal := palDir(t)
	log := readFile(t, filepath.Join(corpus.Shared(t, "blg"), "Tx_BasicPerfCounters.blg"))
	system := host.ThresholdFile{Name: `C:\PAL\SystemOverview.xml`, Data: readFile(t, filepath.Join(pal, "SystemOverview.xml"))}
	e := analyzeEngine(t)
	cfg := &host.AnalyzeConfig{Thresholds: []host.ThresholdFile{system}}
	_, herr := e.Analyze(log, cfg)
	_, nerr := host.Native{}.Analyze(log, cfg)
	for i, err := range []error{herr, nerr} {
		var me *host.MissingFileError
		if !errors.As(err, &me) || me.File != "C:/PAL/QuickSystemOverview.xml" || host.ErrorCode(err) != host.CodeInput || err.Error() != herr.Error() {
			t.Errorf("%s: %v (%T); want a *MissingFileError of C:/PAL/QuickSystemOverview.xml with CodeInput", []string{"Engine", "Native"}[i], err, err)
		}
	}
	cfg.Includes = []host.ThresholdFile{{Name: "QuickSystemOverview.xml", Data: readFile(t, filepath.Join(pal, "QuickSystemOverview.xml"))}}
	if _, err := e.Analyze(log, cfg); err != nil {
		t.Errorf("with the file given: %v", err)
	}
	// Other refusals are not.
	_, err := e.Analyze(log, &host.AnalyzeConfig{Values: map[string]string{"OS": "x"}})
	if me := (*host.MissingFileError)(nil); errors.As(err, &me) || err == nil {
		t.Errorf("a value for the defaults: %v (%T), want no *MissingFileError", err, err)
	}
}

// TestAnalyzeMachines: the logs of two machines (the PAL sample log and
// the Tx log) give, from Engine.AnalyzeLogs and Native.AnalyzeLogs, the
// fleet JSON of their reports (analysis.AppendFleetJSON), what perfcalc
// analyze -f json writes for them (cmd/perfcalc's TestAnalyzeModuleGroups
// compares with the command).
func TestAnalyzeMachines(t *testing.T) {
	dir := corpus.Shared(t, "blg")
	logs := [][]byte{readFile(t, filepath.Join(dir, "PAL_SamplePerfmonLog.blg")), readFile(t, filepath.Join(dir, "Tx_BasicPerfCounters.blg"))}
	var reports []*analysis.Report
	for _, l := range logs {
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
	if !bytes.Contains(want, []byte(`"machines":[`)) {
		t.Fatalf("not a fleet object: %.100s", want)
	}
	cfg := &host.AnalyzeConfig{}
	if have, err := analyzeEngine(t).AnalyzeLogs(logs, cfg); err != nil || !bytes.Equal(have, want) {
		t.Errorf("Engine.AnalyzeLogs: %d bytes (%v), want %d identical bytes", len(have), err, len(want))
	}
	if have, err := (host.Native{}).AnalyzeLogs(logs, cfg); err != nil || !bytes.Equal(have, want) {
		t.Errorf("Native.AnalyzeLogs: %d bytes (%v), want %d identical bytes", len(have), err, len(want))
	}
}
