package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/collect"
	"github.com/perfcalc/perfcalc/engine/blg"
	"github.com/perfcalc/perfcalc/engine/nametable"
	"github.com/perfcalc/perfcalc/engine/translate"
	"github.com/perfcalc/perfcalc/internal/counterlang"
	"github.com/perfcalc/perfcalc/tools/blgrename"
	"github.com/perfcalc/perfcalc/tools/corpus"
	"github.com/perfcalc/perfcalc/tools/encode"
)

// counterLang returns the path of PAL's CounterLang.xml in the shared
// folder and its entries, skipping without it.
func counterLang(t *testing.T) (string, []translate.Entry) {
	t.Helper()
	path := filepath.Join(filepath.Dir(corpus.Shared(t)), "pal", "CounterLang.xml")
	f, err := os.Open(path)
	if err != nil {
		t.Skipf("PAL's CounterLang.xml is not at %s: %v", path, err)
	}
	defer f.Close()
	es, err := counterlang.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	return path, es
}

// newLocalizer is blgrename's Localizer of one language.
func newLocalizer(es []translate.Entry, lang string) *localizer {
	return &localizer{blgrename.NewLocalizer(es, lang)}
}

type localizer struct{ *blgrename.Localizer }

func (l *localizer) names() blgrename.Names { return l.Names() }

// TestNamesRealLogs: the real logs, rewritten with the German, French and
// Spanish names of CounterLang.xml, translate back to the original
// English paths exactly, every value unchanged: relog's CSV of the
// translated log is the original's byte for byte.
func TestNamesRealLogs(t *testing.T) {
	xml, es := counterLang(t)
	report := regexp.MustCompile(`names: (\d+) translated, (\d+) already English, (\d+) unknown, (\d+) ambiguous`)
	for _, name := range []string{"Tx_BasicPerfCounters.blg", "PowerShell_BadCounterSamples.blg", "PAL_SamplePerfmonLog.blg"} {
		path, data := readShared(t, name)
		_, want, _ := runCmd(t, "", "relog", path)
		for _, lang := range []string{"deDE", "frFR", "esES"} {
			t.Run(name+"/"+lang, func(t *testing.T) {
				loc := newLocalizer(es, lang)
				local, err := blgrename.Rewrite(data, loc.names())
				if err != nil {
					t.Fatal(err)
				}
				lpath := writeFile(t, lang+"-"+name, local)
				_, plain, _ := runCmd(t, "", "relog", lpath)
				if plain == want {
					t.Fatal("the localized log has the English names")
				}
				code, have, stderr := runCmd(t, "", "relog", lpath, "--names-lang", "en", "--names-file", xml, "--names-report")
				if code != 0 {
					t.Fatalf("exit %d: %s", code, stderr)
				}
				if have != want {
					hh, wh := strings.SplitN(have, "\n", 2)[0], strings.SplitN(want, "\n", 2)[0]
					hc, wc := strings.Split(hh, ","), strings.Split(wh, ",")
					for i := range min(len(hc), len(wc)) {
						if hc[i] != wc[i] {
							t.Errorf("column %d: have %s, want %s", i, hc[i], wc[i])
						}
					}
					t.Fatalf("the translated log's CSV differs from the original's")
				}
				m := report.FindStringSubmatch(stderr)
				if m == nil {
					t.Fatalf("no names report in %s", stderr)
				}
				translated, _ := strconv.Atoi(m[1])
				if translated == 0 {
					t.Error("nothing translated")
				}
				if strings.HasPrefix(name, "PAL") {
					// The log embeds its (now localized) name table: with
					// the original English table beside it, the pairs of
					// indexes translate without CounterLang.
					r, err := blg.NewReader(bytes.NewReader(data), int64(len(data)))
					if err != nil {
						t.Fatal(err)
					}
					en := writeFile(t, "counter-009.multisz", r.NameTable())
					code, have, stderr := runCmd(t, "", "relog", lpath, "--names-lang", "en", "--names-file", en, "--names-report")
					if code != 0 || have != want {
						t.Fatalf("with the English name table: exit %d, same CSV %v: %s", code, have == want, stderr)
					}
					if !strings.Contains(stderr, "from the name table of "+lpath+" with "+en) {
						t.Errorf("the report does not name the tables: %.300s", stderr)
					}
				}
				t.Logf("%s %s: %s translated, %s already English, %s unknown, %s ambiguous (%d of CounterLang's names kept in English: one translation of two names)", name, lang, m[1], m[2], m[3], m[4], loc.Dropped)
				for _, l := range strings.Split(stderr, "\n") {
					if strings.Contains(l, "not translated") {
						t.Log(l)
					}
				}
			})
		}
	}
}

// TestNamesAmbiguousReported: a log whose French names CounterLang gives
// two English names ("Taille virtuelle (octets)": Virtual Bytes and
// Virtual Bytes Peak of Process) keeps them and lists them as ambiguous.
func TestNamesAmbiguousReported(t *testing.T) {
	xml, es := counterLang(t)
	_, data := readShared(t, "PAL_SamplePerfmonLog.blg")
	loc := newLocalizer(es, "frFR")
	loc.Counters["Process\x00Virtual Bytes"] = "Taille virtuelle (octets)"
	loc.Global["Virtual Bytes"] = "Taille virtuelle (octets)"
	local, err := blgrename.Rewrite(data, loc.names())
	if err != nil {
		t.Fatal(err)
	}
	lpath := writeFile(t, "fr.blg", local)
	code, out, stderr := runCmd(t, "", "relog", lpath, "-q", "--names-lang", "en", "--names-file", xml)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, `\Process(Idle)\Taille virtuelle (octets)`) || strings.Contains(out, `\Process(Idle)\Virtual Bytes`+"\r") {
		t.Error("the ambiguous name was translated")
	}
	if !strings.Contains(stderr, "counter Taille virtuelle (octets) (of Process) (ambiguous in "+xml+")") {
		t.Errorf("the ambiguous name is not listed: %s", stderr)
	}
}

// TestNamesCompactCommand: perfcalc names --compact writes CounterLang's
// entries (of the locales asked) in the compact form, which --names-file
// reads as it reads CounterLang.xml itself.
func TestNamesCompactCommand(t *testing.T) {
	xml, es := counterLang(t)
	code, out, stderr := runCmd(t, "", "names", "--compact", xml, "--lang", "deDE,frFR")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	n := 0
	err := translate.ParseCompact([]byte(out), func(e translate.Entry) error {
		if e.Lang != "deDE" && e.Lang != "frFR" {
			t.Fatalf("an entry of %s", e.Lang)
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, e := range es {
		if e.Lang == "deDE" || e.Lang == "frFR" {
			want++
		}
	}
	if n != want {
		t.Errorf("have %d entries, want %d", n, want)
	}
	compact := writeFile(t, "de-fr.names", []byte(out))
	_, data := readShared(t, "Tx_BasicPerfCounters.blg")
	local, err := blgrename.Rewrite(data, newLocalizer(es, "deDE").names())
	if err != nil {
		t.Fatal(err)
	}
	lpath := writeFile(t, "de.blg", local)
	_, viaXML, _ := runCmd(t, "", "relog", lpath, "--names-lang", "en", "--names-file", xml)
	_, viaCompact, _ := runCmd(t, "", "relog", lpath, "--names-lang", "en", "--names-file", compact)
	if viaXML != viaCompact || !strings.Contains(viaCompact, `\\GEORGIS3\Processor(_Total)\% Processor Time`) {
		t.Error("the compact form translates otherwise than CounterLang.xml")
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"names", "--compact", xml, "--lang", "xxXX"}, "has no translations in xxXX"},
		{[]string{"names"}, "give --compact CounterLang.xml"},
		{[]string{"names", "--compact", lpath}, "not CounterLang.xml"},
		{[]string{"relog", lpath, "--names-file", xml}, "need --names-lang en"},
		{[]string{"relog", lpath, "--names-lang", "de", "--names-file", xml}, "only en (English)"},
		{[]string{"relog", lpath, "--names-lang", "en"}, "no translation source"},
		{[]string{"relog", lpath, "--names-lang", "en", "--names-file", lpath}, "neither CounterLang.xml"},
		{[]string{"relog", lpath, "--names-lang", "en", "--names-file", writeFile(t, "bad.names", []byte("perfcalc-names 1\nx\ty\n"))}, "line 2 at 0x11: kind is not o, c or n"},
	} {
		code, _, stderr := runCmd(t, "", tc.args...)
		if code == 0 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, %q; want an error with %q", tc.args, code, stderr, tc.want)
		}
	}
}

// TestNamesCaptures: a capture named by a German name table (made from
// the English one with CounterLang's German names) gives, with the English
// table beside it, the paths and values of the English table exactly; -c
// matches the English names; show translates its objects and counters.
func TestNamesCaptures(t *testing.T) {
	_, es := counterLang(t)
	enPath := corpus.Project(t, "counter-009.multisz")
	en, err := os.ReadFile(enPath)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := nametable.Parse(en)
	if err != nil {
		t.Fatal(err)
	}
	loc := newLocalizer(es, "deDE").names()
	var de encode.NameTable
	changed := 0
	for i := 0; i < tab.Len(); i++ {
		idx, text := tab.Pair(i)
		name := text.String()
		if idx != 1 {
			if l := loc.Table(name); l != name {
				name = l
				changed++
			}
		}
		de.Pairs = append(de.Pairs, encode.NameTablePair{Index: idx, Text: name})
	}
	deBytes, err := encode.EncodeNameTable(&de)
	if err != nil {
		t.Fatal(err)
	}
	dePath := writeFile(t, "counter-007.multisz", deBytes)
	g1, g2 := corpus.Project(t, "global-1.bin"), corpus.Project(t, "global-2.bin")
	_, wantPaths, _ := runCmd(t, "", "paths", g1, "--names", enPath)
	_, dePaths, _ := runCmd(t, "", "paths", g1, "--names", dePath)
	if dePaths == wantPaths || !strings.Contains(dePaths, `\Prozessor(`) {
		t.Fatalf("the German table names nothing in German (%d names changed)", changed)
	}
	code, havePaths, stderr := runCmd(t, "", "paths", g1, "--names", dePath, "--names-lang", "en", "--names-file", enPath)
	if code != 0 || havePaths != wantPaths {
		t.Errorf("paths: exit %d, same paths %v: %s", code, havePaths == wantPaths, stderr)
	}
	sel := []string{"-c", `\Processor(*)\% Processor Time`, "-f", "csv"}
	_, wantValues, _ := runCmd(t, "", append([]string{"values", g1, g2, "--names", enPath}, sel...)...)
	code, haveValues, stderr := runCmd(t, "", append([]string{"values", g1, g2, "--names", dePath, "--names-lang", "en", "--names-file", enPath}, sel...)...)
	if code != 0 || haveValues != wantValues || !strings.Contains(haveValues, "% Processor Time") {
		t.Errorf("values: exit %d, same values %v: %s\n%s\n%s", code, haveValues == wantValues, stderr, haveValues, wantValues)
	}
	_, wantShow, _ := runCmd(t, "", "show", g1, "--names", enPath, "--json")
	code, haveShow, stderr := runCmd(t, "", "show", g1, "--names", dePath, "--names-lang", "en", "--names-file", enPath, "--json")
	if code != 0 || haveShow != wantShow {
		t.Errorf("show: exit %d, same %v: %s", code, haveShow == wantShow, stderr)
	}
	// Without the English table, the German table alone translates
	// nothing: a note says so; CounterLang translates what it knows, and
	// the rest is listed (in show --json too).
	xml, _ := counterLang(t)
	code, haveShow, stderr = runCmd(t, "", "show", g1, "--names", dePath, "--names-lang", "en", "--names-file", xml, "--json")
	if code != 0 || !strings.Contains(stderr, "is a name table in another language than English and is not used") ||
		!strings.Contains(haveShow, `"name": "Processor"`) || !strings.Contains(haveShow, `"namesUnknown": [`) {
		t.Errorf("show with CounterLang: exit %d: %s", code, stderr)
	}
}

// localRegistry is a replayed registry of a German machine: its table of
// the system's language is local.
type localRegistry struct {
	collect.RegistrySource
	local []byte
}

func (r localRegistry) NameTable(local bool) ([]byte, error) {
	if local {
		return r.local, nil
	}
	return r.RegistrySource.NameTable(false)
}

// germanOf returns the table en with CounterLang's German names.
func germanOf(t *testing.T, en []byte, es []translate.Entry) []byte {
	t.Helper()
	tab, err := nametable.Parse(en)
	if err != nil {
		t.Fatal(err)
	}
	loc := newLocalizer(es, "deDE").names()
	var de encode.NameTable
	for i := 0; i < tab.Len(); i++ {
		idx, text := tab.Pair(i)
		name := text.String()
		if idx != 1 {
			name = loc.Table(name)
		}
		de.Pairs = append(de.Pairs, encode.NameTablePair{Index: idx, Text: name})
	}
	b, err := encode.EncodeNameTable(&de)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestNamesMachineTables: on a German machine (a replayed registry whose
// system language is German), names --save writes both tables, and watch
// takes an English path, names its values in German where the source
// does (LocalNames: as V2 and PDH name them), and --names-lang en
// translates them back through the machine's own tables: the rows are the
// English run's.
func TestNamesMachineTables(t *testing.T) {
	_, es := counterLang(t)
	files := replayWatch(t)
	en, err := os.ReadFile(files[len(files)-1])
	if err != nil {
		t.Fatal(err)
	}
	de := germanOf(t, en, es)
	var blobs [][]byte
	for _, f := range files[:len(files)-1] {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		blobs = append(blobs, b)
	}
	machine := func() collect.RegistrySource { return localRegistry{collect.ReplayRegistry(blobs, en), de} }
	oldReg, oldCol := openNamesRegistry, openCollector
	t.Cleanup(func() { openNamesRegistry, openCollector = oldReg, oldCol })
	openNamesRegistry = func() (collect.RegistrySource, error) { return machine(), nil }

	dir := filepath.Join(t.TempDir(), "tables")
	code, out, stderr := runCmd(t, "", "names", "--save", dir)
	if code != 0 || !strings.Contains(out, "counter-009.multisz") || !strings.Contains(out, "counter-local.multisz") {
		t.Fatalf("names --save: exit %d, %s %s", code, out, stderr)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "counter-local.multisz")); err != nil || !bytes.Equal(b, de) {
		t.Fatalf("counter-local.multisz: %v", err)
	}

	path := `\Processor(*)\% Processor Time`
	openCollector = func(kind collect.Kind, cfg collect.Config) (*collect.Collector, error) {
		return collect.NewRegistry(machine(), cfg)
	}
	_, want, _ := runCmd(t, "", "watch", path, "-sc", "3", "-si", "1ms", "-f", "tsv")
	openCollector = func(kind collect.Kind, cfg collect.Config) (*collect.Collector, error) {
		cfg.LocalNames = true // the values named in German
		return collect.NewRegistry(machine(), cfg)
	}
	_, german, _ := runCmd(t, "", "watch", `\Prozessor(*)\Prozessorzeit (%)`, "-sc", "3", "-si", "1ms", "-f", "tsv")
	if !strings.Contains(german, `\Prozessor(0)\Prozessorzeit (%)`) {
		t.Fatalf("the German run is not in German: %.200s", german)
	}
	code, have, stderr := runCmd(t, "", "watch", path, "-sc", "3", "-si", "1ms", "-f", "tsv", "--names-lang", "en", "--names-report")
	if code != 0 || !strings.Contains(stderr, "from this machine's table of its language with this machine's Counter 009") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// The time column differs from run to run: compare the header and the
	// values.
	if cut(have) != cut(want) || !strings.Contains(have, `\Processor(0)\% Processor Time`) {
		t.Errorf("the translated run differs from the English one:\n%.300s\n%.300s", have, want)
	}
}

// cut drops each line's first field (the time).
func cut(s string) string {
	var b strings.Builder
	for _, l := range strings.Split(s, "\n") {
		_, rest, _ := strings.Cut(l, "\t")
		b.WriteString(rest)
		b.WriteByte('\n')
	}
	return b.String()
}

// TestNamesDamagedEmbeddedTable: a log whose embedded name table is
// damaged is read as relog reads it (without the table), and
// --names-lang says the table is not used instead of failing.
func TestNamesDamagedEmbeddedTable(t *testing.T) {
	xml, _ := counterLang(t)
	_, data := readShared(t, "PAL_SamplePerfmonLog.blg")
	bad, err := blgrename.Rewrite(data, blgrename.Names{Table: func(s string) string {
		if s == "Processor" {
			return "Processor\x00x" // a NUL inside a name: "x" reads as an index
		}
		return s
	}})
	if err != nil {
		t.Fatal(err)
	}
	path := writeFile(t, "bad.blg", bad)
	_, want, _ := runCmd(t, "", "relog", path, "-q")
	code, have, stderr := runCmd(t, "", "relog", path, "-q", "--names-lang", "en", "--names-file", xml)
	if code != 0 || have != want || !strings.Contains(stderr, "the name table of "+path+" is not used: nametable: ") {
		t.Errorf("exit %d, same %v: %s", code, have == want, stderr)
	}
}

// TestNamesAnalyze: analyze of the PAL log in German finds nothing
// (its analyses name English counters); with --names-lang en it gives the
// English log's report byte for byte.
func TestNamesAnalyze(t *testing.T) {
	xml, es := counterLang(t)
	path, data := readShared(t, "PAL_SamplePerfmonLog.blg")
	local, err := blgrename.Rewrite(data, newLocalizer(es, "deDE").names())
	if err != nil {
		t.Fatal(err)
	}
	lpath := writeFile(t, "de.blg", local)
	_, want, _ := runCmd(t, "", "analyze", path, "-f", "json")
	_, german, _ := runCmd(t, "", "analyze", lpath, "-f", "json")
	code, have, stderr := runCmd(t, "", "analyze", lpath, "-f", "json", "--names-lang", "en", "--names-file", xml)
	if german == want {
		t.Fatal("the German log's report is the English one without translation")
	}
	if code != 0 || have != want {
		t.Errorf("exit %d, same report %v: %s", code, have == want, stderr)
	}
}

// TestNamesConvert: convert translates each log with its own name table
// and the files given: the German log's CSV is the English log's relog
// CSV.
func TestNamesConvert(t *testing.T) {
	xml, es := counterLang(t)
	path, data := readShared(t, "Tx_BasicPerfCounters.blg")
	local, err := blgrename.Rewrite(data, newLocalizer(es, "deDE").names())
	if err != nil {
		t.Fatal(err)
	}
	lpath := writeFile(t, "de.blg", local)
	out := t.TempDir()
	code, _, stderr := runCmd(t, "", "convert", lpath, "-o", out, "-f", "csv", "--names-lang", "en", "--names-file", xml)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	have, err := os.ReadFile(filepath.Join(out, "de.csv"))
	if err != nil {
		t.Fatal(err)
	}
	_, want, _ := runCmd(t, "", "relog", path)
	if string(have) != want {
		t.Error("the converted German log differs from the English log's CSV")
	}
}
