package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/perfcalc/perfcalc/collect"
	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/wintype"
	"github.com/perfcalc/perfcalc/tools/blgbuild"
	"github.com/perfcalc/perfcalc/tools/encode"
)

// evilName is a name that attacks a terminal: it sets the window's title
// (OSC … BEL), clears the screen (CSI 2J), returns to the start of the
// line to overwrite it, sets red through the C1 CSI (U+009B), reverses the
// text after it (U+202E) and ends in DEL and a new line that forges one.
const evilName = "EV\x1b]0;pwned\a\x1b[2J\rFORGED\u009b31m\u202eIL\x7f\nCritical  forged line"

// evilEscaped is how the listings print evilName.
const evilEscaped = `EV\x1b]0;pwned\a\x1b[2J\rFORGED\u009b31m\u202eIL\x7f\nCritical  forged line`

// raw reports the first control character, C1 control or bidirectional or
// invisible rune of out other than a line's end, or "".
func raw(out string) string {
	for i, r := range out {
		switch {
		case r == '\n' || r == '\r' && strings.HasPrefix(out[i:], "\r\n"):
		case r < ' ' || r == 0x7f || r >= 0x80 && r <= 0x9f, r == 0x061c, r >= 0x200b && r <= 0x200f,
			r >= 0x2028 && r <= 0x202e, r >= 0x2060 && r <= 0x206f, r == 0xfeff, r == utf8.RuneError:
			return out[max(0, i-20):min(len(out), i+20)]
		}
	}
	return ""
}

// evilLog is a log of \\evilName\Memory\Available MBytes at 50 MB (below
// the default analyses' critical 100 MB) and \\evilName\Process(evilName)\
// Handle Count, 10 samples.
func evilLog() []byte {
	mem := blgbuild.Counter{Type: uint32(engine.CounterRawcount), Machine: `\\` + evilName, Object: "Memory", Counter: "Available MBytes"}
	const start = 130057734000000000
	l := blgbuild.New(64<<10, start)
	l.Record(blgbuild.EventCounterList, start, blgbuild.AppendCounterList(nil, mem, blgbuild.Counter{
		Type: uint32(engine.CounterRawcount), Machine: `\\` + evilName, Object: "Process", Instance: evilName, Counter: "Handle Count"}), blgbuild.MaxEventData)
	for i := range 10 {
		ts := start + int64(i)*10_000_000
		l.Record(blgbuild.EventSample, ts, blgbuild.RawSample(ts, 50, 100), blgbuild.MaxEventData)
	}
	return l.Bytes()
}

// evilCapture is a V1 capture of machine evilName, Processor (238) % Processor
// Time (6) of the instances _Total and evilName, at second sec.
func evilCapture(t *testing.T, sec int64) []byte {
	cs := []encode.V1Counter{{CounterNameTitleIndex: 6, CounterType: engine.Timer100nsInv, CounterSize: 8}}
	encode.V1Layout(cs)
	o := encode.V1Object{ObjectNameTitleIndex: 238, NumInstances: 2, Counters: cs, Instances: []encode.V1Instance{
		{Name: "_Total", UniqueID: -1, Values: []uint64{uint64(sec) * 5_000_000}},
		{Name: evilName, UniqueID: -1, Values: []uint64{uint64(sec) * 4_000_000}},
	}}
	data, err := encode.EncodeV1(&encode.V1Blob{SystemName: evilName,
		SystemTime: wintype.SystemTime{Year: 2024, Month: 2, Day: 29, Hour: 10, Second: uint16(sec)},
		PerfTime:   sec * 3579545, PerfFreq: 3579545, PerfTime100nSec: 133537032000000000 + sec*10_000_000,
		Objects: []encode.V1Object{o}})
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestTerminalListingsEscapeNames (issue 32, item 14): the listings people
// read in a terminal (analyze -f text, stats, relog -q, values' and
// show's tables, paths, watch -q/-qx) print a log's names with
// their control characters, C1 controls and bidirectional runes escaped
// (they printed them raw: a log could set the terminal's title, clear it,
// or forge a line); the data formats (CSV, JSON) keep them as their
// quoting does, unchanged.
func TestTerminalListingsEscapeNames(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "evil.blg")
	older, newer := filepath.Join(dir, "old.bin"), filepath.Join(dir, "new.bin")
	for name, b := range map[string][]byte{log: evilLog(), older: evilCapture(t, 1), newer: evilCapture(t, 3)} {
		if err := os.WriteFile(name, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"analyze -f text", []string{"analyze", log, "-f", "text"}},
		{"stats", []string{"stats", log}},
		{"stats --valid --percentiles", []string{"stats", log, "--valid", "--percentiles"}},
		{"relog -q", []string{"relog", "-q", log}},
		{"values", []string{"values", older, newer}},
		{"show", []string{"show", newer}},
		{"paths", []string{"paths", newer}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runCapture(tc.args...)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, errs)
			}
			if s := raw(out); s != "" {
				t.Errorf("a raw control or bidirectional character in %q of:\n%s", s, out)
			}
			if !strings.Contains(out, evilEscaped) {
				t.Errorf("the name, escaped, is not in:\n%s", out)
			}
			if s := raw(errs); s != "" {
				t.Errorf("a raw control or bidirectional character on standard error, in %q", s)
			}
		})
	}
	// the data formats keep the names as their quoting does
	if code, out, errs := runCapture("relog", log, "-f", "csv"); code != exitOK || !strings.Contains(out, `"\\`+evilName+`\Memory\Available MBytes"`) {
		t.Errorf("relog -f csv: exit %d, the name not as it is in:\n%q\n%s", code, out, errs)
	}
	if code, out, errs := runCapture("analyze", log, "-f", "json"); code != exitOK || !strings.Contains(out, `EV\u001b]0;pwned\u0007\u001b[2J\u000dFORGED`+"\u009b31m\u202eIL\x7f"+`\u000aCritical  forged line`) {
		t.Errorf("analyze -f json: exit %d, the name not as JSON writes it in:\n%.2000q\n%s", code, out, errs)
	}
}

// TestWatchListEscapesNames (issue 32, item 14): watch -q and -qx list a
// live machine's instance names (any process can name itself) escaped.
func TestWatchListEscapesNames(t *testing.T) {
	names, err := encode.EncodeNameTable(&encode.NameTable{Pairs: []encode.NameTablePair{{Index: 6, Text: "% Processor Time"}, {Index: 238, Text: "Processor"}}})
	if err != nil {
		t.Fatal(err)
	}
	blobs := [][]byte{evilCapture(t, 1), evilCapture(t, 3)}
	old := openCollector
	openCollector = func(kind collect.Kind, cfg collect.Config) (*collect.Collector, error) {
		return collect.NewRegistry(collect.ReplayRegistry(blobs, names), cfg)
	}
	t.Cleanup(func() { openCollector = old })
	code, out, errs := runCapture("watch", "-qx", "Processor")
	if code != exitOK || !strings.Contains(out, `\Processor(`+evilEscaped+`)\% Processor Time`+"\r\n") {
		t.Fatalf("-qx: exit %d, the name escaped not in %q; %s", code, out, errs)
	}
	if s := raw(out); s != "" {
		t.Errorf("-qx: a raw control or bidirectional character in %q", s)
	}
}

// TestStderrEscapesNames (issue 32, item 14, the review's variants): the
// notes and errors on standard error and convert's failure lines quote a
// log's or a file's names with their control characters escaped, as the
// listings do: --identity pid's notes name the log's machine and
// instances, convert's summary the file names of a folder, and an error
// (failCommand) the threshold file an INHERITANCE names.
func TestStderrEscapesNames(t *testing.T) {
	dir := t.TempDir()
	// blgbuild.IdentityLog (whose notes name its machine) with its machine
	// HOST renamed to ESC [ 2 J, which clears a terminal: UTF-16 of the
	// same length.
	utf16 := func(s string) []byte {
		var b []byte
		for _, r := range s {
			b = append(b, byte(r), 0)
		}
		return b
	}
	idLog := bytes.ReplaceAll(blgbuild.IdentityLog(), utf16("HOST"), utf16("\x1b[2J"))
	// A file name cannot hold "/" or NUL; an XML attribute no ESC, BEL or
	// DEL (XML 1.0 forbids them, even as references): CR, the C1 CSI and
	// the right-to-left override are allowed and still attack a terminal.
	fileName := strings.ReplaceAll(evilName, "/", "_")
	files := map[string][]byte{
		"id.blg":                    idLog,
		"logs/" + fileName + ".blg": []byte("not a log"),
		"inh.xml":                   []byte(`<PAL PALVERSION="2.0"><INHERITANCE FILEPATH="INH&#13;FORGED` + "\u009b31m\u202eIL" + `.xml"/></PAL>`),
	}
	for name, b := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		args []string
		want string // the name as it is quoted, escaped
	}{
		{[]string{"relog", filepath.Join(dir, "id.blg"), "--identity", "pid", "-f", "csv", "-o", filepath.Join(dir, "out.csv")}, `\\\x1b[2J`},
		{[]string{"convert", filepath.Join(dir, "logs"), "-o", filepath.Join(dir, "conv"), "-f", "csv"}, `\x1b]0;pwned\a\x1b[2J\rFORGED`},
		{[]string{"analyze", filepath.Join(dir, "id.blg"), "--thresholds", filepath.Join(dir, "inh.xml"), "-f", "json", "-o", filepath.Join(dir, "a.json")}, `INH\rFORGED\u009b31m\u202eIL`},
	} {
		var stdout, stderr strings.Builder
		run(c.args, nil, &stdout, &stderr)
		out := stdout.String() + stderr.String()
		if !strings.Contains(out, c.want) {
			t.Errorf("%s: %s is not quoted escaped: %q", c.args[0], c.want, out)
		}
		if r := raw(out); r != "" {
			t.Errorf("%s: a control character printed raw near %q", c.args[0], r)
		}
	}
}
