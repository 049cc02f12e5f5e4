package relog

import (
	"crypto/sha256"
	"encoding/hex"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/identity"
	"github.com/perfcalc/perfcalc/tools/blgbuild"
	"github.com/perfcalc/perfcalc/tools/blgedit"
)

// idCell is one cell of a row as the identity tests compare them.
type idCell struct {
	present bool
	raw     uint64
	res     engine.Result
}

// idTable reads every row of a log: per column path, its cells.
func idTable(t *testing.T, log []byte, opts Options) (map[string][]idCell, *Converter) {
	t.Helper()
	c := open(t, log, opts)
	tab := map[string][]idCell{}
	for c.Next() {
		for i, cell := range c.Row().Cells {
			p := c.Columns()[i].Path
			tab[p] = append(tab[p], idCell{cell.Present, cell.Raw.FirstValue, cell.Result})
		}
	}
	if err := c.Err(); err != nil {
		t.Fatal(err)
	}
	return tab, c
}

// pdhBreaks counts, in a pdh-mode table, the Process instance names whose
// ID Process differs from the row before: the breaks, counted without the
// identity code.
func pdhBreaks(tab map[string][]idCell) int64 {
	var n int64
	for p, cells := range tab {
		if !strings.Contains(p, `\Process(`) || !strings.HasSuffix(p, `\ID Process`) {
			continue
		}
		for i := 1; i < len(cells); i++ {
			if cells[i].present && cells[i-1].present && cells[i].raw != cells[i-1].raw {
				n++
			}
		}
	}
	return n
}

// checkOnePID checks that every pid-mode Process series holds one process:
// its ID Process is the pid its name carries, in every row.
func checkOnePID(t *testing.T, tab map[string][]idCell) (series int) {
	t.Helper()
	for p, cells := range tab {
		if !strings.Contains(p, `\Process(`) || !strings.HasSuffix(p, `\ID Process`) || strings.Contains(p, "(_Total)") {
			continue
		}
		series++
		inst := p[strings.Index(p, `\Process(`)+len(`\Process(`) : strings.LastIndex(p, `)\`)]
		colon := strings.LastIndexByte(inst, ':')
		pid, err := strconv.ParseUint(inst[colon+1:], 10, 64)
		if colon < 0 || err != nil {
			t.Fatalf("%s: no :pid in the instance", p)
		}
		for i, c := range cells {
			if c.present && c.raw != pid {
				t.Fatalf("%s: row %d holds the process %d", p, i, c.raw)
			}
		}
	}
	return series
}

func TestIdentityPAL(t *testing.T) {
	log := readCorpus(t, "PAL_SamplePerfmonLog.blg")
	def, err := csvText(t, log, Options{}, CSV)
	if err != nil {
		t.Fatal(err)
	}
	pdhText, err := csvText(t, log, Options{Identity: identity.PDH}, CSV)
	if err != nil || pdhText != def {
		t.Fatalf("identity.PDH differs from the default output (%v)", err)
	}
	pdh, cp := idTable(t, log, Options{})
	pid, c := idTable(t, log, Options{Identity: identity.PID})
	if cp.IdentityBreaks() != 0 || cp.IdentityNotes() != nil {
		t.Fatalf("pdh mode: breaks %d, notes %q", cp.IdentityBreaks(), cp.IdentityNotes())
	}
	want := pdhBreaks(pdh)
	if got := c.IdentityBreaks(); got != want || want != 1 {
		t.Fatalf("breaks: %d, the pdh table's ID Process changes %d (1 in the log: rundll32#1)", got, want)
	}
	if notes := c.IdentityNotes(); len(notes) != 0 {
		t.Fatalf("notes %q", notes)
	}
	if n := checkOnePID(t, pid); n != 57 {
		t.Fatalf("%d process series in pid mode, want 57 (56 named processes in pdh mode, one renumbered)", n)
	}
	if len(pid) != len(pdh)+28 || len(pdh) != 1832 {
		t.Fatalf("columns: pdh %d, pid %d; want 1832 and 1832+28 (one process more, 28 counters)", len(pdh), len(pid))
	}
	// The process that took rundll32#1's name starts with no value.
	cells := pid[`\\ZACH-PC\Process(rundll32:580)\% Processor Time`]
	first := -1
	for i, c := range cells {
		if c.present {
			first = i
			break
		}
	}
	if first <= 0 || cells[first].res.Status != engine.NewData {
		t.Fatalf("rundll32:580's first sample: row %d, %v", first, cells)
	}
	if old := pdh[`\\ZACH-PC\Process(rundll32#1)\% Processor Time`]; !old[first-1].present || old[first].res.Status == engine.NewData {
		t.Fatalf("pdh mode: rundll32#1 at row %d is not computed across the two processes", first)
	}
}

// palExitLog is the PAL sample log in which svchost#2 (PID 760) exits at
// the middle sample: svchost#3, … are then renumbered.
func palExitLog(t *testing.T) (log, variant []byte, from int) {
	log = readCorpus(t, "PAL_SamplePerfmonLog.blg")
	c := open(t, log, Options{})
	n, _, _ := c.Samples()
	variant, changed, err := blgedit.ExitInstance(log, "Process", "svchost#2", n/2)
	if err != nil {
		t.Fatal(err)
	}
	if changed != n-n/2 {
		t.Fatalf("%d samples changed, want %d", changed, n-n/2)
	}
	return log, variant, n / 2
}

// palExitCSV is the SHA-256 of relog's CSV of palExitLog's variant as the
// build before identity.PID wrote it (perfcalc relog -f csv).
const palExitCSV = "13303bc9f26ca1f1d8cfa34f14fd658610ce2c2513a18424e47755e2e8635dda"

func TestIdentityProcessExit(t *testing.T) {
	log, variant, from := palExitLog(t)
	// pdh mode prints the variant as before this mode existed: the
	// SHA-256 of its CSV, written by the build before it.
	for _, id := range []identity.Mode{identity.PDH, identity.PID} {
		text, err := csvText(t, variant, Options{Identity: id}, CSV)
		sum := sha256.Sum256([]byte(text))
		if got := hex.EncodeToString(sum[:]); err != nil || (got == palExitCSV) != (id == identity.PDH) {
			t.Fatalf("%v mode: the CSV's SHA-256 is %s (%v), the earlier build's %s", id, got, err, palExitCSV)
		}
	}
	orig, _ := idTable(t, log, Options{Identity: identity.PID})
	pdh, _ := idTable(t, variant, Options{})
	pid, c := idTable(t, variant, Options{Identity: identity.PID})
	want := pdhBreaks(pdh)
	// The svchost instances after #2 are renumbered once (each a break),
	// plus the log's own rundll32#1.
	renumbered := int64(0)
	for p := range pdh {
		if strings.HasSuffix(p, `\ID Process`) && strings.Contains(p, `\Process(svchost#`) {
			renumbered++
		}
	}
	renumbered -= 2 // svchost#1 and #2 keep their process or lose it
	if got := c.IdentityBreaks(); got != want || want != renumbered+1 {
		t.Fatalf("breaks %d, the pdh table's ID Process changes %d, want %d", got, want, renumbered+1)
	}
	checkOnePID(t, pid)
	// Every process but the one that exited has, in pid mode, its series
	// of the original log, value for value: no rate across two PIDs.
	const exited = `\\ZACH-PC\Process(svchost:760)\`
	if len(pid) != len(orig) {
		t.Fatalf("%d columns, the original log %d", len(pid), len(orig))
	}
	for p, cells := range orig {
		got := pid[p]
		for i := range cells {
			w := cells[i]
			if strings.HasPrefix(p, exited) && i >= from {
				w = idCell{}
			}
			if got[i] != w && !(math.IsNaN(w.res.Value) && math.IsNaN(got[i].res.Value)) {
				t.Fatalf("%s row %d: %+v, the original log %+v", p, i, got[i], w)
			}
		}
	}
	// pdh mode computes across two processes where they were renumbered.
	across := 0
	for p, cells := range pdh {
		if strings.Contains(p, `\Process(svchost#`) && strings.HasSuffix(p, `\% Processor Time`) && cells[from].present && cells[from].res.Status != engine.NewData {
			across++
		}
	}
	if across < int(renumbered) {
		t.Fatalf("pdh mode computes %d svchost values across the exit, want at least %d", across, renumbered)
	}
}

// processLog is a raw-record log of chrome processes: PIDs 10, 20 and 30
// (chrome, chrome#1, chrome#2), then 20 exits (sample 2: 30 becomes
// chrome#1), then PID 10 is reused by a new process (sample 3: another
// Creating Process ID). Each process's % Processor Time is pid %.
// Without ids, the log has the % Processor Time entry alone.
func processLog(ids bool) []byte {
	const local = 130057734178440000
	const utc = local + 8*3600*ticksPerSecond
	l := newLog(pacific, utc)
	specs := []counterSpec{{Flags: 1, Type: 0x20510500, TimeBase: 10_000_000, Machine: `\\HOST`, Object: "Process", Instance: "*", Counter: "% Processor Time"}}
	if ids {
		specs = append(specs,
			counterSpec{Flags: 1, Type: 0x00010000, Machine: `\\HOST`, Object: "Process", Instance: "*", Counter: "ID Process"},
			counterSpec{Flags: 1, Type: 0x00010000, Machine: `\\HOST`, Object: "Process", Instance: "*", Counter: "Creating Process ID"})
	}
	l.record(0x20, local, counterList(specs...))
	type proc struct{ pid, creator, born uint64 }
	samples := [][]proc{
		{{10, 1, 0}, {20, 1, 0}, {30, 1, 0}},
		{{10, 1, 0}, {20, 1, 0}, {30, 1, 0}},
		{{10, 1, 0}, {30, 1, 0}},
		{{10, 7, 3}, {30, 1, 0}},
	}
	for i, ps := range samples {
		ts := int64(local + i*ticksPerSecond)
		d := uint64(utc + i*ticksPerSecond)
		var cpu, id, cr []item
		for _, p := range ps {
			cpu = append(cpu, item{"chrome", p.pid * 100_000 * (uint64(i) - p.born), d})
			id = append(id, item{"chrome", p.pid, 0})
			cr = append(cr, item{"chrome", p.creator, 0})
		}
		subs := [][]byte{multiRec(0, ts, cpu...)}
		if ids {
			subs = append(subs, multiRec(0, ts, id...), multiRec(0, ts, cr...))
		}
		l.record(0x22, ts, sampleRecord(subs...))
	}
	return l.bytes()
}

func TestIdentityRawRecords(t *testing.T) {
	log := processLog(true)
	pid, c := idTable(t, log, Options{Identity: identity.PID})
	cpu := func(inst string) []idCell { return pid[`\\HOST\Process(`+inst+`)\% Processor Time`] }
	type want struct {
		present bool
		status  engine.Status
		value   float64
	}
	for inst, rows := range map[string][]want{
		// PID 10 reused at sample 3 (another Creating Process ID): a new
		// series, chrome:10#1 (the second process of that name:pid, as
		// PDH numbers duplicates), whose first sample has no value (issue 21:
		// a new process is a new series; it was chrome:10's NewData).
		"chrome:10":   {{true, engine.NewData, 0}, {true, engine.Valid, 10}, {true, engine.Valid, 10}, {}},
		"chrome:10#1": {{}, {}, {}, {true, engine.NewData, 0}},
		"chrome:20":   {{true, engine.NewData, 0}, {true, engine.Valid, 20}, {}, {}},
		"chrome:30":   {{true, engine.NewData, 0}, {true, engine.Valid, 30}, {true, engine.Valid, 30}, {true, engine.Valid, 30}},
	} {
		cells := cpu(inst)
		if len(cells) != len(rows) {
			t.Fatalf("%s: %d rows, want %d (columns %d)", inst, len(cells), len(rows), len(pid))
		}
		for i, w := range rows {
			g := cells[i]
			if g.present != w.present || w.present && (g.res.Status != w.status || w.status == engine.Valid && math.Abs(g.res.Value-w.value) > 1e-9) {
				t.Errorf("%s row %d: %+v, want %+v", inst, i, g, w)
			}
		}
	}
	if len(pid) != 12 {
		t.Errorf("%d columns, want 12 (4 processes, 3 counters)", len(pid))
	}
	if got := c.IdentityBreaks(); got != 2 {
		t.Errorf("breaks %d, want 2 (chrome#1 from 20 to 30, chrome's PID 10 reused)", got)
	}
	// pdh mode: by name, across the processes (chrome#1 at sample 2 is
	// (30·200,000 − 20·100,000) / 10^7 = 40 %).
	pdh, cp := idTable(t, log, Options{})
	if got := pdh[`\\HOST\Process(chrome#1)\% Processor Time`][2]; got.res.Status != engine.Valid || math.Abs(got.res.Value-40) > 1e-9 {
		t.Errorf("pdh chrome#1 at sample 2: %+v, want 40", got)
	}
	if cp.IdentityBreaks() != 0 || len(pdh) != 9 {
		t.Errorf("pdh: %d breaks, %d columns", cp.IdentityBreaks(), len(pdh))
	}
	// The planned path and the row-by-row path agree in pid mode.
	a, err := csvText(t, log, Options{Identity: identity.PID}, CSV)
	if err != nil {
		t.Fatal(err)
	}
	planRows = false
	b, err := csvText(t, log, Options{Identity: identity.PID}, CSV)
	planRows = true
	if err != nil || a != b {
		t.Fatalf("planned and unplanned pid-mode CSV differ (%v)", err)
	}
}

func TestIdentityFallback(t *testing.T) {
	log := processLog(false)
	pid, c := idTable(t, log, Options{Identity: identity.PID})
	want := []string{`Process (\\HOST): no ID Process counter in the log; its instances are paired by name (pdh)`}
	if got := c.IdentityNotes(); len(got) != 1 || got[0] != want[0] {
		t.Fatalf("notes %q, want %q", got, want)
	}
	a, _ := csvText(t, log, Options{Identity: identity.PID}, CSV)
	b, _ := csvText(t, log, Options{}, CSV)
	if a != b || len(pid) != 3 {
		t.Fatalf("the fallback differs from pdh mode (%d columns)", len(pid))
	}
}

// TestIdentityWholeFallback: a whole-object log whose name table names no
// ID Process (the PAL log's renamed, same length) is paired by name in
// pid mode, byte for byte as in pdh mode, and noted.
func TestIdentityWholeFallback(t *testing.T) {
	log := readCorpus(t, "PAL_SamplePerfmonLog.blg")
	utf16 := func(s string) string {
		var b []byte
		for i := range len(s) {
			b = append(b, s[i], 0)
		}
		return string(b)
	}
	from, to := utf16("\x00ID Process\x00"), utf16("\x00ID Procesz\x00")
	if strings.Count(string(log), from) != 1 {
		t.Fatal("the log's name table does not name ID Process once")
	}
	renamed := []byte(strings.Replace(string(log), from, to, 1))
	a, err := csvText(t, renamed, Options{Identity: identity.PID}, CSV)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := csvText(t, renamed, Options{}, CSV)
	c := open(t, renamed, Options{Identity: identity.PID})
	want := `Process (\\ZACH-PC): no ID Process counter in the log; its instances are paired by name (pdh)`
	if notes := c.IdentityNotes(); a != b || len(notes) != 1 || notes[0] != want {
		t.Fatalf("notes %q (want %q), same CSV as pdh mode %v", notes, want, a == b)
	}
}

// TestIdentityReusedStats: a reused PID (chrome's PID 10 with another
// Creating Process ID at sample 3) is a series of its own in Statistics
// as in the rows: chrome:10's mean is its own process's (10 %, from its
// first sample to its last), and chrome:10#1 has one sample, no value.
func TestIdentityReusedStats(t *testing.T) {
	c := open(t, processLog(true), Options{Identity: identity.PID})
	st, err := c.Statistics()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for i, col := range c.Columns() {
		if strings.HasPrefix(col.Path, `\\HOST\Process(chrome:10`) && strings.HasSuffix(col.Path, `\% Processor Time`) {
			got[col.Path] = i
		}
	}
	if len(got) != 2 {
		t.Fatalf("chrome:10 series %v, want chrome:10 and chrome:10#1", got)
	}
	first, ok1 := got[`\\HOST\Process(chrome:10)\% Processor Time`]
	second, ok2 := got[`\\HOST\Process(chrome:10#1)\% Processor Time`]
	if !ok1 || !ok2 {
		t.Fatalf("chrome:10 series %v", got)
	}
	if s := st[first]; s.Count != 2 || math.Abs(s.Mean-10) > 1e-9 {
		t.Errorf("chrome:10: count %d mean %v, want 2 and 10", s.Count, s.Mean)
	}
	if s := st[second]; s.Count != 0 {
		t.Errorf("chrome:10#1: count %d, want 0 (its first sample)", s.Count)
	}
	if c.IdentityBreaks() != 2 {
		t.Errorf("breaks %d, want 2", c.IdentityBreaks())
	}
}

// TestIdentitySharedIDs: instances that the IDs cannot tell apart in a
// sample (the Idle process's four threads, all ID Process 0 and ID Thread
// 0; two svchost with one PID) stay distinct series, numbered in their
// order as PDH numbers duplicate names, and noted; _Total/_Total keeps its
// name; a restarted process (app: PID 100, then 200) is still a break and
// a new series (blgbuild.IdentityLog).
func TestIdentitySharedIDs(t *testing.T) {
	log := blgbuild.IdentityLog()
	pid, c := idTable(t, log, Options{Identity: identity.PID})
	type want struct {
		present bool
		status  engine.Status
		value   float64
	}
	nd, none := want{true, engine.NewData, 0}, want{}
	valid := func(v float64) want { return want{true, engine.Valid, v} }
	for path, rows := range map[string][]want{
		`Thread(Idle:0/0)\Context Switches/sec`:      {nd, valid(10), valid(10)},
		`Thread(Idle:0/0#1)\Context Switches/sec`:    {nd, valid(20), valid(20)},
		`Thread(Idle:0/0#2)\Context Switches/sec`:    {nd, valid(30), valid(30)},
		`Thread(Idle:0/0#3)\Context Switches/sec`:    {nd, valid(40), valid(40)},
		`Thread(_Total/_Total)\Context Switches/sec`: {nd, valid(1000), valid(1000)},
		`Thread(app:100/1000)\Context Switches/sec`:  {nd, valid(5), none},
		`Thread(app:200/2000)\Context Switches/sec`:  {none, none, nd},
		`Process(svchost:500)\% Processor Time`:      {nd, valid(30), valid(30)},
		`Process(svchost:500#1)\% Processor Time`:    {nd, valid(40), valid(40)},
		`Process(_Total)\% Processor Time`:           {nd, valid(90), valid(90)},
		`Process(app:100)\% Processor Time`:          {nd, valid(10), none},
		`Process(app:200)\% Processor Time`:          {none, none, nd},
	} {
		cells := pid[`\\HOST\`+path]
		if len(cells) != len(rows) {
			t.Errorf("%s: %d rows, want %d", path, len(cells), len(rows))
			continue
		}
		for i, w := range rows {
			g := cells[i]
			if g.present != w.present || w.present && (g.res.Status != w.status || w.status == engine.Valid && math.Abs(g.res.Value-w.value) > 1e-9) {
				t.Errorf("%s row %d: %+v, want %+v", path, i, g, w)
			}
		}
	}
	// Thread: 7 series (4 Idle, _Total, app's two), Process: 6 (Idle,
	// app's two, 2 svchost, _Total); 3 counters each.
	if len(pid) != 39 {
		t.Errorf("%d columns, want 39", len(pid))
	}
	if got := c.IdentityBreaks(); got != 2 {
		t.Errorf("breaks %d, want 2 (app/0 and app change process)", got)
	}
	wantNotes := []string{
		`Thread (\\HOST): instances share their ID Process and ID Thread (Idle:0/0); they are told apart by their order in the sample, as PDH numbers duplicate names (Idle:0/0, Idle:0/0#1, …)`,
		`Process (\\HOST): instances share their ID Process (svchost:500); they are told apart by their order in the sample, as PDH numbers duplicate names (svchost:500, svchost:500#1, …)`,
	}
	if got := c.IdentityNotes(); strings.Join(got, "\n") != strings.Join(wantNotes, "\n") {
		t.Errorf("notes %q, want %q", got, wantNotes)
	}
	// pdh mode: six Thread and five Process series, by name.
	pdh, _ := idTable(t, log, Options{})
	if len(pdh) != 33 {
		t.Errorf("pdh: %d columns, want 33", len(pdh))
	}
	// The planned path and the row-by-row path agree.
	a, err := csvText(t, log, Options{Identity: identity.PID}, CSV)
	if err != nil {
		t.Fatal(err)
	}
	planRows = false
	b, err := csvText(t, log, Options{Identity: identity.PID}, CSV)
	planRows = true
	if err != nil || a != b {
		t.Fatalf("planned and unplanned pid-mode CSV differ (%v)", err)
	}
}

// TestIdentitySharedIDsWhole: in a whole-object log (the PAL sample log)
// whose svchost#2 says it is PID 732, as svchost#1 does (a damaged log;
// the same Creating Process ID, 484), the two stay two series in pid
// mode, svchost:732 and svchost:732#1, each with its own process's values
// (those of svchost:732 and svchost:760 in the log as it is), and the
// object is noted.
func TestIdentitySharedIDsWhole(t *testing.T) {
	log := readCorpus(t, "PAL_SamplePerfmonLog.blg")
	damaged, n, err := blgedit.SetCounter(log, "Process", "svchost#2", "ID Process", 732, 0)
	if err != nil || n != 11 {
		t.Fatalf("%d samples changed (want 11), %v", n, err)
	}
	orig, _ := idTable(t, log, Options{Identity: identity.PID})
	pid, c := idTable(t, damaged, Options{Identity: identity.PID})
	if len(pid) != len(orig) {
		t.Errorf("%d columns, the log as it is %d", len(pid), len(orig))
	}
	const proc = `\\ZACH-PC\Process(`
	for from, to := range map[string]string{"svchost:732": "svchost:732", "svchost:760": "svchost:732#1"} {
		for _, counter := range []string{`% Processor Time`, `Private Bytes`, `Creating Process ID`} {
			w, g := orig[proc+from+`)\`+counter], pid[proc+to+`)\`+counter]
			if len(w) == 0 || len(g) != len(w) {
				t.Fatalf("%s: %d rows, %s %d", from, len(w), to, len(g))
			}
			for i := range w {
				if g[i] != w[i] && !(math.IsNaN(w[i].res.Value) && math.IsNaN(g[i].res.Value)) {
					t.Errorf("%s\\%s row %d: %+v, %s's %+v", to, counter, i, g[i], from, w[i])
				}
			}
		}
	}
	want := `Process (\\ZACH-PC): instances share their ID Process (svchost:732); they are told apart by their order in the sample, as PDH numbers duplicate names (svchost:732, svchost:732#1, …)`
	if notes := c.IdentityNotes(); len(notes) != 1 || notes[0] != want {
		t.Errorf("notes %q, want %q", notes, want)
	}
	if c.IdentityBreaks() != 1 {
		t.Errorf("%d breaks, want 1 (the log's rundll32#1)", c.IdentityBreaks())
	}
}
