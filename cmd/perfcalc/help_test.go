package main

import (
	"strings"
	"testing"
)

// TestHelpCommand: "perfcalc help COMMAND" prints, for every registered
// command, exactly what "perfcalc COMMAND -h" prints (its usage, on standard
// output, exit status 0), not the command list (issue 32).
func TestHelpCommand(t *testing.T) {
	_, list, _ := runCmd(t, "", "help")
	for _, name := range commandNames() {
		wantCode, want, wantErr := runCmd(t, "", name, "-h")
		code, out, errs := runCmd(t, "", "help", name)
		if code != wantCode || out != want || errs != wantErr {
			t.Errorf("help %s: have exit %d, stderr %q, stdout %.80q; want exit %d, stderr %q and %s -h's stdout %.80q", name, code, errs, out, wantCode, wantErr, name, want)
		}
		if code != exitOK || errs != "" || out == list || !strings.HasPrefix(out, "Usage:\n  perfcalc "+name+" ") {
			t.Errorf("help %s: have exit %d, stderr %q, stdout %.80q; want exit 0 and %s's usage on stdout", name, code, errs, out, name)
		}
	}
}

// TestHelpRefused: "perfcalc help" of no command prints the command list;
// of an unknown command, or of two, one line on standard error and exit
// status 2.
func TestHelpRefused(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"help", "help"}, {"help", "-h"}, {"--help"}} {
		code, out, errs := runCmd(t, "", args...)
		if code != exitOK || errs != "" || !strings.Contains(out, "\nCommands:\n") {
			t.Errorf("%q: have exit %d, stderr %q, stdout %.80q; want exit 0 and the command list", args, code, errs, out)
		}
	}
	for _, args := range [][]string{{"help", "frobnicate"}, {"help", "relog", "stats"}} {
		code, out, errs := runCmd(t, "", args...)
		if code != exitUsage || out != "" || strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, "perfcalc help: ") {
			t.Errorf("%q: have exit %d, stdout %.80q, stderr %q; want exit 2 and one line on stderr", args, code, out, errs)
		}
	}
}
