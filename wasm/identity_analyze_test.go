//go:build perfcalcanalyze

package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/internal/abi"
	"github.com/perfcalc/perfcalc/tools/corpus"
)

// TestAnalyzeIdentity: analyze's flag abi.AnalyzePID pairs the PAL log's
// processes by ID, as perfcalc analyze --identity pid: the report's
// parameters say so, with the log's one identity break; without it, the
// report leaves both out (the default report unchanged).
func TestAnalyzeIdentity(t *testing.T) {
	defer func() { outBuf = outStatic[:] }()
	log := mustRead(t, filepath.Join(corpus.Shared(t, "blg"), "PAL_SamplePerfmonLog.blg"))
	logOff, logLen, tableOff, setOff, setLen := analyzeInput(t, log, nil, "")
	for _, flags := range []uint32{0, abi.AnalyzePID} {
		outBuf = outStatic[:]
		rc := analyzeLog(logOff, logLen, tableOff, 0, setOff, setLen, 0, flags)
		if rc < 0 {
			t.Fatalf("flags %d: analyze = %d (%s)", flags, rc, errBuf[:errLen])
		}
		report := string(outBuf[:rc])
		pid := strings.Contains(report, `"identity":"pid","identityBreaks":1`)
		if pid != (flags == abi.AnalyzePID) || flags == 0 && strings.Contains(report, `"identity"`) {
			t.Errorf("flags %d: the report's identity parameters are wrong (pid %v)", flags, pid)
		}
	}
}
