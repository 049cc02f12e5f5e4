package main

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/tools/blgbuild"
	"github.com/perfcalc/perfcalc/tools/blgedit"
	"github.com/perfcalc/perfcalc/tools/corpus"
)

// palExitCSV is the SHA-256 of perfcalc relog's CSV of the PAL sample log
// with svchost#2 exiting at sample 5, as the build before --identity wrote
// it (engine/relog's TestIdentityProcessExit pins the same).
const palExitCSV = "13303bc9f26ca1f1d8cfa34f14fd658610ce2c2513a18424e47755e2e8635dda"

// palExit writes the PAL sample log with svchost#2 exiting at sample 5.
func palExit(t *testing.T) (pal, exit string) {
	pal, log := readShared(t, "PAL_SamplePerfmonLog.blg")
	v, n, err := blgedit.ExitInstance(log, "Process", "svchost#2", 5)
	if err != nil || n != 6 {
		t.Fatal(n, err)
	}
	return pal, writeFile(t, "exit.blg", v)
}

func TestIdentityRelog(t *testing.T) {
	pal, exit := palExit(t)
	for _, args := range [][]string{{}, {"--identity", "pdh"}} {
		code, out, errs := runCmd(t, "", append([]string{"relog", exit}, args...)...)
		sum := sha256.Sum256([]byte(out))
		if code != exitOK || errs != "" || hex.EncodeToString(sum[:]) != palExitCSV {
			t.Errorf("relog %q: exit %d, stderr %q, the CSV differs from the earlier build's", args, code, errs)
		}
	}
	for _, tc := range []struct {
		log, note string
	}{
		{pal, "1 identity break "},
		{exit, "11 identity breaks "}, // svchost#3 … #12 renumbered, and rundll32#1
	} {
		code, out, errs := runCmd(t, "", "relog", "--identity", "pid", tc.log)
		header, _, _ := strings.Cut(out, "\r\n")
		if code != exitOK || !strings.HasPrefix(errs, "perfcalc relog: note: identity: "+tc.note) || strings.Count(errs, "\n") != 1 ||
			!strings.Contains(header, `"\\ZACH-PC\Process(rundll32:580)\% Processor Time"`) || strings.Contains(header, `Process(svchost#`) {
			t.Errorf("relog --identity pid %s: exit %d, stderr %q", tc.log, code, errs)
		}
	}
	// A log without Process: no break, no note of an object.
	tx, _ := readShared(t, "Tx_BasicPerfCounters.blg")
	_, want, _ := runCmd(t, "", "relog", tx)
	code, out, errs := runCmd(t, "", "relog", "--identity", "pid", tx)
	if code != exitOK || out != want || errs != "perfcalc relog: note: identity: no identity break (no instance name changed process)\n" {
		t.Errorf("relog --identity pid of Tx: exit %d, stderr %q, same output %v", code, errs, out == want)
	}
	code, _, errs = runCmd(t, "", "relog", "--identity", "PID", tx)
	if code != exitUsage || !strings.Contains(errs, `want pdh or pid, not "PID"`) {
		t.Errorf("--identity PID: exit %d, stderr %q", code, errs)
	}
}

func TestIdentityStatsConvert(t *testing.T) {
	pal, exit := palExit(t)
	sel := []string{"-c", `\Process(rundll32*)\% Processor Time`}
	code, out, errs := runCmd(t, "", append([]string{"stats", "--identity", "pid", pal}, sel...)...)
	if code != exitOK || !strings.Contains(errs, "1 identity break ") || strings.Count(out, "\n") != 4 ||
		!strings.Contains(out, `\\ZACH-PC\Process(rundll32:580)\% Processor Time`) || !strings.Contains(out, `\\ZACH-PC\Process(rundll32:3320)\% Processor Time`) {
		t.Errorf("stats --identity pid: exit %d, stderr %q, stdout\n%s", code, errs, out)
	}
	// By name, rundll32#1 has 3 values (one between the two processes);
	// by PID, 2 for PID 580 and none for 3320 (one sample).
	_, byName, _ := runCmd(t, "", append([]string{"stats", "--json", pal}, sel...)...)
	_, byPID, _ := runCmd(t, "", append([]string{"stats", "--json", "--identity", "pid", pal}, sel...)...)
	if !strings.Contains(byName, `Process(rundll32#1)\\% Processor Time","type":"PERF_100NSEC_TIMER","count":3,`) ||
		!strings.Contains(byPID, `Process(rundll32:580)\\% Processor Time","type":"PERF_100NSEC_TIMER","count":2,`) {
		t.Errorf("stats --json:\n%s\n%s", byName, byPID)
	}
	dir := t.TempDir()
	code, _, errs = runCmd(t, "", "convert", "--identity", "pid", "-f", "csv", "-o", dir, exit)
	if code != exitOK || errs != "perfcalc convert: note: "+exit+": identity: 11 identity breaks (instance names that changed process; by name, PDH computes a value between the two)\n" {
		t.Errorf("convert --identity pid: exit %d, stderr %q", code, errs)
	}
	_, want, _ := runCmd(t, "", "relog", "--identity", "pid", exit)
	got, err := os.ReadFile(filepath.Join(dir, "exit.csv"))
	if err != nil || string(got) != want {
		t.Errorf("convert's CSV differs from relog --identity pid's (%v)", err)
	}
}

func TestIdentityValues(t *testing.T) {
	dir := corpus.Shared(t, "v1")
	names := filepath.Join(dir, "pal_counter_009.multisz")
	// Samples 6 and 7 of the PAL log: rundll32#1 changes process.
	older, newer := filepath.Join(dir, "s06_obj230.bin"), filepath.Join(dir, "s07_obj230.bin")
	sel := []string{"-c", `\Process(rundll32*)\% Processor Time`, "-f", "csv"}
	_, byName, _ := runCmd(t, "", append([]string{"values", "--names", names, older, newer}, sel...)...)
	code, byPID, errs := runCmd(t, "", append([]string{"values", "--identity", "pid", "--names", names, older, newer}, sel...)...)
	// By name, rundll32#1 has a value between PIDs 3320 and 580; by PID,
	// 580 is new (" ": NewData) and 3320 gone.
	if code != exitOK || !strings.HasSuffix(byName, `"0","4.2968702734426988954"`+"\r\n") ||
		!strings.Contains(byPID, `"\\ZACH-PC\Process(rundll32:2624)\% Processor Time","\\ZACH-PC\Process(rundll32:580)\% Processor Time"`) ||
		!strings.HasSuffix(byPID, `"0"," "`+"\r\n") || errs != "perfcalc values: note: "+breaksNote(1)+"\n" {
		t.Errorf("values --identity pid: exit %d, stderr %q, stdout\n%s\nby name\n%s", code, errs, byPID, byName)
	}
}

func TestIdentityAnalyze(t *testing.T) {
	pal, _ := readShared(t, "PAL_SamplePerfmonLog.blg")
	code, out, errs := runCmd(t, "", "analyze", "--identity", "pid", "-f", "json", pal)
	if code != exitOK || !strings.Contains(out, `"chartPoints":600,"identity":"pid","identityBreaks":1,`) || errs != "perfcalc analyze: note: "+breaksNote(1)+"\n" {
		t.Errorf("analyze --identity pid: exit %d, stderr %q, stdout %.300s", code, errs, out)
	}
	if !strings.Contains(out, `Process(rundll32:580)`) {
		t.Error("analyze --identity pid: no series of rundll32:580")
	}
	_, out, errs = runCmd(t, "", "analyze", "-f", "json", pal)
	if strings.Contains(out, `"identity"`) || errs != "" {
		t.Errorf("analyze in pdh mode: identity in the report, or stderr %q", errs)
	}
}

// TestIdentitySharedIDsRelog: relog --identity pid of a log whose Idle
// threads share ID Process 0 and ID Thread 0, and two svchost one PID
// (blgbuild.IdentityLog), writes each instance as a series of its own and
// notes, for each object, that its instances were told apart by order.
func TestIdentitySharedIDsRelog(t *testing.T) {
	log := writeFile(t, "shared.blg", blgbuild.IdentityLog())
	code, out, errs := runCmd(t, "", "relog", "--identity", "pid", log)
	header, _, _ := strings.Cut(out, "\r\n")
	want := `perfcalc relog: note: Thread (\\HOST): instances share their ID Process and ID Thread (Idle:0/0); they are told apart by their order in the sample, as PDH numbers duplicate names (Idle:0/0, Idle:0/0#1, …)
perfcalc relog: note: Process (\\HOST): instances share their ID Process (svchost:500); they are told apart by their order in the sample, as PDH numbers duplicate names (svchost:500, svchost:500#1, …)
perfcalc relog: note: identity: 2 identity breaks (instance names that changed process; by name, PDH computes a value between the two)
`
	if code != exitOK || errs != want {
		t.Errorf("exit %d, stderr\n%s\nwant\n%s", code, errs, want)
	}
	for _, inst := range []string{`Thread(Idle:0/0#3)`, `Thread(_Total/_Total)`, `Process(svchost:500#1)`, `Process(app:200)`} {
		if !strings.Contains(header, `"\\HOST\`+inst+`\`) {
			t.Errorf("no %s in the header %s", inst, header)
		}
	}
	if n := strings.Count(header, ","); n != 39 {
		t.Errorf("%d columns, want 39", n)
	}
}
