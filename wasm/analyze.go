//go:build perfcalcanalyze

package main

import (
	"github.com/perfcalc/perfcalc/analysis"
	"github.com/perfcalc/perfcalc/internal/abi"
	"github.com/perfcalc/perfcalc/internal/abi/analyze"
)

// analyzeLog runs perfcalc analyze over the .blg log at logOff (logLen
// bytes) of the input buffer (or, with flags bit 1, abi.AnalyzeLogs, the
// logs that the table of regions there names, grouped by machine) and
// writes its report's JSON, what perfcalc
// analyze -f json writes, into the output buffer: analyze.Run. The
// analyses are those of the threshold files of the table at filesOff
// (filesCount entries of abi.ThrSize bytes, each naming a file's name and
// bytes in the input buffer; those with abi.ThrRun are run, the others
// only serve INHERITANCE), or perfcalc's own without one run; the
// question variables' values are the NAME=VALUE lines at setOff (setLen
// bytes); interval is the slices' length in seconds (0: automatic); flags
// bit 0 is abi.AnalyzePALCompat, bit 2 abi.AnalyzePID. It returns the bytes written; a text
// longer than the buffer comes in pages, as relog_text's. After a non-negative result, err_len > 0 means
// the log is damaged after the samples analysed, and err_ptr holds why.
// Logs of several machines give the fleet JSON (analyze.Run). A threshold
// file that an INHERITANCE names and that is not among those given is
// CodeInput with last_detail = n > 0: the output buffer's first n bytes are
// that file's name (analyze.MissingFile), for the host to find it and call
// again.
//
// The export is in the analyze module, perfcalc-analyze.wasm, built with
// the tag perfcalcanalyze (which leaves compute.go and decode.go out):
// linked into perfcalc.wasm, the analysis packages would grow it by about
// 750 KB, far beyond the 200 KB that issue 24 allows (see
// size_analyze_test.go).
//
//go:wasmexport analyze
func analyzeLog(logOff, logLen, filesOff, filesCount, setOff, setLen uint32, interval int64, flags uint32) int32 {
	args = [len(args)]uint32{logOff, logLen, filesOff, filesCount, setOff, setLen, flags}
	span = [2]int64{interval, 0}
	return build(analyzeJob)
}

// analyzeJob is analyze's builder.
func analyzeJob() int32 {
	flags := args[6]
	if flags&^abi.AnalyzeFlagsMask != 0 {
		return fail(abi.CodeArgument, analyze.ErrFlags)
	}
	logs, code := logRegions(args[0], args[1], flags&abi.AnalyzeLogs != 0)
	if code != 0 {
		return code
	}
	files, code := thresholdFiles(args[2], args[3])
	if code != 0 {
		return code
	}
	text, code := inRegion("question values", args[4], args[5])
	if code != 0 {
		return code
	}
	values, err := abi.ParseValues(text)
	if err != nil {
		return fail(abi.CodeOf(err), err)
	}
	a := analyze.Request{Files: files, Values: values, Options: analysis.Options{Interval: span[0], PALCompat: flags&abi.AnalyzePALCompat != 0}, Rename: renamer,
		Identity: abi.AnalyzeIdentity(flags)}
	report, damage, err := analyze.Run(nil, logs, &a)
	if err != nil {
		rc := fail(abi.CodeOf(err), err)
		if name, ok := analyze.MissingFile(err); ok && len(name) <= len(outBuf) {
			// The inherited file not given, as data (ABI.md, analyze).
			lastDetail = uint32(copy(outBuf, name))
		}
		return rc
	}
	var tw textWriter
	_, err = tw.Write(report)
	return tw.finish(damage, err)
}

// logRegions reads analyze's log: the region (off, n) of the input buffer,
// or with table (abi.AnalyzeLogs) the logs that the n / 8 (u32 offset, u32
// length) regions at off name.
func logRegions(off, n uint32, table bool) ([][]byte, int32) {
	b, code := inRegion("log", off, n)
	if code != 0 || !table {
		return [][]byte{b}, code
	}
	logs := make([][]byte, n/8)
	for i := range logs {
		lo, ln := abi.ReadRegion(b, 8*i)
		if logs[i], code = inRegion("log", lo, ln); code != 0 {
			return nil, code
		}
	}
	return logs, 0
}

// thresholdFiles reads the table of count threshold files at off of the
// input buffer (abi.Thr…): each names its name and bytes, regions of the
// input buffer.
func thresholdFiles(off, count uint32) ([]analyze.ThresholdFile, int32) {
	if int(count) > len(inBuf)/abi.ThrSize {
		return nil, boundsError("threshold files", off, count, len(inBuf))
	}
	table, code := inRegion("threshold files", off, count*abi.ThrSize)
	if code != 0 {
		return nil, code
	}
	files := make([]analyze.ThresholdFile, count)
	for i := range files {
		e := abi.ReadThrEntry(table[i*abi.ThrSize:])
		name, code := inRegion("threshold file name", e.NameOff, e.NameLen)
		if code != 0 {
			return nil, code
		}
		data, code := inRegion("threshold file", e.DataOff, e.DataLen)
		if code != 0 {
			return nil, code
		}
		if e.Flags&^abi.ThrRun != 0 || e.Reserved != 0 {
			return nil, refuse("perfcalc: analyze: reserved bits set in a threshold file's entry")
		}
		files[i] = analyze.ThresholdFile{Name: string(name), Data: data, Run: e.Flags&abi.ThrRun != 0}
	}
	return files, 0
}
