package host

import (
	"github.com/perfcalc/perfcalc/analysis"
	"github.com/perfcalc/perfcalc/internal/abi"
	"github.com/perfcalc/perfcalc/internal/abi/analyze"
	"github.com/perfcalc/perfcalc/wasm/module"
)

// ThresholdFile is a PAL threshold file given to Analyze: its name (the
// one other files' INHERITANCE elements name it by; folders and ASCII case
// are ignored) and its bytes.
type ThresholdFile struct {
	Name string
	Data []byte
}

// AnalyzeConfig is what Analyze runs over a log besides it: the options of
// perfcalc analyze.
type AnalyzeConfig struct {
	// Thresholds are the threshold files whose analyses are run (perfcalc
	// analyze --thresholds, in order, joined); none runs perfcalc's own
	// default analyses.
	Thresholds []ThresholdFile
	// Includes are threshold files there only for the INHERITANCE of
	// others (read from the threshold file's folder by the command).
	Includes []ThresholdFile
	// Values are the question variables' values (--set NAME=VALUE).
	Values map[string]string
	// Options are the interval (0: automatic) and --pal-compat.
	Options analysis.Options
}

// files returns cfg's threshold files as analyze.ThresholdFile, those run
// first.
func (cfg *AnalyzeConfig) files() []analyze.ThresholdFile {
	fs := make([]analyze.ThresholdFile, 0, len(cfg.Thresholds)+len(cfg.Includes))
	for _, f := range cfg.Thresholds {
		fs = append(fs, analyze.ThresholdFile{Name: f.Name, Data: f.Data, Run: true})
	}
	for _, f := range cfg.Includes {
		fs = append(fs, analyze.ThresholdFile{Name: f.Name, Data: f.Data})
	}
	return fs
}

// Analyze runs perfcalc analyze over the .blg log with cfg and returns its
// report's JSON: byte for byte what perfcalc analyze -f json writes for
// the same log, threshold files and options (analysis.Report.AppendJSON).
// A threshold file that does not load or a question without a value is an
// *Error with CodeInput and the reason; an INHERITANCE of a file not given
// is a *MissingFileError naming the file (around that *Error). A log damaged after its start gives the report of the samples
// before the damage and an *Error (Code 0) with the damage's text, as
// RelogText does.
//
// The analysis runs in a module of its own, perfcalc-analyze.wasm (the
// embedded one, AnalyzeModule, or Config.WithAnalyzeModule's), which the
// first Analyze compiles and starts, once per Engine, with the Engine's
// configuration (pool size, memory limit, timeout, compilation cache): a
// program that never analyses never loads it (perfcalc.wasm leaves
// analysis out, doc/ANALYSIS.md says why). An analyze module that does not
// load gives that error, wrapped, to every Analyze.
//
// # Notes
//
//   - The first Analyze takes about a second more (the analyze module's
//     compilation and first instance; much less with
//     Config.WithCompilationCacheDir), and each of its instances is
//     memory of its own, beside perfcalc.wasm's.
//
//   - The report comes in pages when it is longer than the module's
//     output buffer (4 MiB), each resumed where the one before ended: the
//     log is analysed once.
func (e *Engine) Analyze(log []byte, cfg *AnalyzeConfig) ([]byte, error) {
	return e.AnalyzeLogs([][]byte{log}, cfg)
}

// AnalyzeLogs is Analyze over several logs, grouped by machine as perfcalc
// analyze groups them: the logs of one machine merged as it merges them
// (at most 32; in errors, the k-th is "log k"), and for logs of several
// machines the fleet JSON that perfcalc analyze -f json writes (a report
// per machine, every machine's alerts in time order).
func (e *Engine) AnalyzeLogs(logs [][]byte, cfg *AnalyzeConfig) ([]byte, error) {
	if cfg.Options.Interval < 0 {
		return nil, &Error{Op: "analyze", Code: CodeArgument, Text: analyze.ErrInterval.Error()}
	}
	set, err := abi.AppendValues(nil, cfg.Values)
	if err != nil {
		return nil, nativeError("analyze", err)
	}
	a, err := e.analyzeEngine()
	if err != nil {
		return nil, err
	}
	files := cfg.files()
	// The parts: the values, each file's name and bytes, each log, then
	// one table: the logs' regions (abi.AnalyzeLogs), then the files'
	// entries (abi.Thr…), filled once the parts are placed.
	parts := make([][]byte, 0, 2+2*len(files)+len(logs))
	parts = append(parts, set)
	for _, f := range files {
		parts = append(parts, []byte(f.Name), f.Data)
	}
	first := len(parts)
	parts = append(parts, logs...)
	nl := 8 * len(logs)
	parts = append(parts, make([]byte, nl+len(files)*abi.ThrSize))
	fill := func(table []byte, at []region) {
		for i := range logs {
			abi.PutRegion(table, 8*i, uint32(at[first+i].off), uint32(at[first+i].len))
		}
		for i, f := range files {
			name, data := at[1+2*i], at[2+2*i]
			t := abi.ThrEntry{NameOff: uint32(name.off), NameLen: uint32(name.len), DataOff: uint32(data.off), DataLen: uint32(data.len)}
			if f.Run {
				t.Flags = abi.ThrRun
			}
			t.Put(table[nl+i*abi.ThrSize:])
		}
	}
	flags := uint64(abi.AnalyzeLogs)
	if cfg.Options.PALCompat {
		flags |= abi.AnalyzePALCompat
	}
	return a.text(fnAnalyze, parts, fill, func(s []uint64, at []region) {
		table := at[len(at)-1]
		s[0], s[1], s[2], s[3] = table.off, uint64(nl), table.off+uint64(nl), uint64(len(files))
		s[4], s[5], s[6], s[7] = at[0].off, at[0].len, uint64(cfg.Options.Interval), flags
	})
}

// analyzeEngine returns the Engine of the analyze module, which the first
// call creates (compiles the module, starts an instance); ErrClosed after
// Close.
func (e *Engine) analyzeEngine() (*Engine, error) {
	if e.closed.Load() {
		return nil, ErrClosed
	}
	e.analyzer.once.Do(func() {
		wasm := e.cfg.analyzeModule
		if wasm == nil {
			wasm = module.AnalyzeBytes()
		}
		a, err := newEngine(e.ctx, e.cfg, wasm, true)
		if err != nil {
			err = &analyzeModuleError{err}
		}
		e.analyzer.e, e.analyzer.err = a, err
	})
	return e.analyzer.e, e.analyzer.err
}

// analyzeModuleError is why the analyze module did not load.
type analyzeModuleError struct{ err error }

func (e *analyzeModuleError) Error() string {
	return "perfcalc host: the analyze module (perfcalc-analyze.wasm): " + e.err.Error()
}

func (e *analyzeModuleError) Unwrap() error { return e.err }

// Analyze is Engine.Analyze in the caller's process (without the module's
// limit of 1 GiB): analyze.Run, the same code as the module's.
func (n Native) Analyze(log []byte, cfg *AnalyzeConfig) ([]byte, error) {
	return n.AnalyzeLogs([][]byte{log}, cfg)
}

// AnalyzeLogs is Engine.AnalyzeLogs in the caller's process.
func (Native) AnalyzeLogs(logs [][]byte, cfg *AnalyzeConfig) ([]byte, error) {
	if _, err := abi.AppendValues(nil, cfg.Values); err != nil {
		return nil, nativeError("analyze", err)
	}
	report, damage, err := analyze.Run(nil, logs, &analyze.Request{Files: cfg.files(), Values: cfg.Values, Options: cfg.Options})
	if err != nil {
		if name, ok := analyze.MissingFile(err); ok {
			return nil, &MissingFileError{File: name, Err: nativeError("analyze", err)}
		}
		return nil, nativeError("analyze", err)
	}
	return report, damage
}

// MissingFileError is Analyze's refusal of the threshold files when one of
// them inherits (INHERITANCE) a file that is not among AnalyzeConfig.Files:
// File is that file's name, as the INHERITANCE names it, resolved against
// the folder of the file that inherits it. A caller finds the file, adds it
// (Run false: there for the INHERITANCE) and calls again. Err is the
// error (an *Error with CodeInput from an Engine) whose text names both
// files.
type MissingFileError struct {
	File string
	Err  error
}

// Error returns Err's text.
func (e *MissingFileError) Error() string { return e.Err.Error() }

// Unwrap returns Err.
func (e *MissingFileError) Unwrap() error { return e.Err }

// missingFile returns err, analyze's *Error, as a *MissingFileError where
// the module gave the name of an inherited file not given (CodeInput,
// last_detail = the name's length, the name at the start of the output
// buffer: ABI.md, analyze).
func (inst *instance) missingFile(err error) error {
	ge, ok := err.(*Error)
	if !ok || ge.Code != CodeInput || ge.Detail == 0 || ge.Detail > inst.outCap {
		return err
	}
	b, ok := inst.mem.Read(inst.out, ge.Detail)
	if !ok {
		return err
	}
	return &MissingFileError{File: string(b), Err: err}
}
