package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/internal/abi/analyze"
	"github.com/perfcalc/perfcalc/tools/corpus"
)

// TestAnalyzeModuleGroups: the module's analyze (analyze.Run, what the
// module, host, JS and Python run) groups logs by machine as the command
// does, with the same code (analysis.MachineGroups): for the real logs of
// two machines (the PAL sample log and the Tx log) and for the fixture's
// logs of two machines, one of them in two logs merged, its JSON is byte
// for byte what perfcalc analyze -f json writes for the same logs, a fleet
// object with a report per machine.
func TestAnalyzeModuleGroups(t *testing.T) {
	blg := corpus.Shared(t, "blg")
	fx := analyzeFixture(t)
	pages, err := os.ReadFile(filepath.Join(fx, "pages.xml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		what   string
		logs   []string
		args   []string
		files  []analyze.ThresholdFile
		values map[string]string
	}{
		{what: "PAL sample and Tx", logs: []string{filepath.Join(blg, "PAL_SamplePerfmonLog.blg"), filepath.Join(blg, "Tx_BasicPerfCounters.blg")}},
		{what: "Tx and PAL sample, pal-compat", logs: []string{filepath.Join(blg, "Tx_BasicPerfCounters.blg"), filepath.Join(blg, "PAL_SamplePerfmonLog.blg")},
			args: []string{"--pal-compat"}},
		{what: "SERVER1 twice, SERVER2", logs: []string{filepath.Join(fx, "logs", "s1a.blg"), filepath.Join(fx, "logs", "s2.blg"), filepath.Join(fx, "logs", "s1b.blg")},
			args:  []string{"--thresholds", filepath.Join(fx, "pages.xml"), "--set", "Limit=5000"},
			files: []analyze.ThresholdFile{{Name: "pages.xml", Data: pages, Run: true}}, values: map[string]string{"Limit": "5000"}},
	} {
		code, want, errs := runCmd(t, "", append(append([]string{"analyze", "-f", "json"}, tc.logs...), tc.args...)...)
		if code != exitOK {
			t.Fatalf("%s: exit %d, stderr %q", tc.what, code, errs)
		}
		if !strings.HasPrefix(want, `{"alerts":`) || !strings.Contains(want, `"machines":[`) {
			t.Fatalf("%s: the command's JSON is not a fleet object: %.200s", tc.what, want)
		}
		logs := make([][]byte, len(tc.logs))
		for i, l := range tc.logs {
			if logs[i], err = os.ReadFile(l); err != nil {
				t.Fatal(err)
			}
		}
		req := &analyze.Request{Files: tc.files, Values: tc.values}
		req.Options.PALCompat = len(tc.args) > 0 && tc.args[0] == "--pal-compat"
		have, damage, err := analyze.Run(nil, logs, req)
		if err != nil || damage != nil || string(have) != want {
			t.Errorf("%s: analyze.Run: %d bytes (%v, %v), want the command's %d bytes", tc.what, len(have), err, damage, len(want))
		}
	}
}
