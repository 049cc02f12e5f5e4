package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine/blg"
	"github.com/perfcalc/perfcalc/engine/translate"
	"github.com/perfcalc/perfcalc/tools/blgrename"
)

// notTranslated returns the note listing the names not translated, or "".
func notTranslated(stderr string) string {
	for _, l := range strings.Split(stderr, "\n") {
		if strings.Contains(l, "not translated") {
			return l
		}
	}
	return ""
}

// TestNamesCompactTables: names --compact given a machine's pair of name
// tables (the PAL log's English table and a German one made from it with
// CounterLang's German names; the German given first: the English one is
// told by its contents) writes only n lines, of lang 007; the PAL log
// rewritten with the German names (its embedded table too) then relogs
// with that compact form to the CSV that --names-file counter-009
// --names-file counter-007 gives, which is the English log's byte for
// byte, with the same names not translated; so does the Tx log (whose
// embedded table is none) by both routes. The German log given to
// --compact in place of its embedded table gives the same translation; the
// Tx log, which embeds none, is refused. One table alone, two German ones,
// and CounterLang.xml beside a table are refused.
func TestNamesCompactTables(t *testing.T) {
	xml, es := counterLang(t)
	path, data := readShared(t, "PAL_SamplePerfmonLog.blg")
	r, err := blg.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	en := r.NameTable()
	de := germanOf(t, en, es)
	enPath := writeFile(t, "counter-009.multisz", en)
	dePath := writeFile(t, "counter-007.multisz", de)

	code, compact, stderr := runCmd(t, "", "names", "--compact", dePath, "--compact", enPath)
	if code != 0 {
		t.Fatalf("names --compact: exit %d: %s", code, stderr)
	}
	lines, translations := 0, 0
	err = translate.ParseCompact([]byte(compact), func(e translate.Entry) error {
		lines++
		if e.Kind != translate.Any || e.Lang != "007" {
			t.Fatalf("an entry %+v: want n lines of 007", e)
		}
		if e.English != e.Local {
			translations++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if translations < 100 || !strings.Contains(compact, "\nn\t007\tProcessor\tProzessor\n") {
		t.Fatalf("%d lines, %d translations: %.300q", lines, translations, compact)
	}
	cpath := writeFile(t, "de.names", []byte(compact))
	t.Logf("compact form of the pair: %d bytes, %d lines, %d translations", len(compact), lines, translations)

	loc := newLocalizer(es, "deDE").names()
	for _, name := range []string{"PAL_SamplePerfmonLog.blg", "Tx_BasicPerfCounters.blg"} {
		p, d := path, data
		if name != "PAL_SamplePerfmonLog.blg" {
			p, d = readShared(t, name)
		}
		local, err := blgrename.Rewrite(d, loc)
		if err != nil {
			t.Fatal(err)
		}
		lpath := writeFile(t, "de-"+name, local)
		_, want, _ := runCmd(t, "", "relog", p)
		_, plain, _ := runCmd(t, "", "relog", lpath)
		if plain == want {
			t.Fatalf("%s: the German log has the English names", name)
		}
		code, viaTables, tstderr := runCmd(t, "", "relog", lpath, "--names-lang", "en", "--names-file", enPath, "--names-file", dePath)
		if code != 0 {
			t.Fatalf("%s with the tables: exit %d: %s", name, code, tstderr)
		}
		code, viaCompact, cstderr := runCmd(t, "", "relog", lpath, "--names-lang", "en", "--names-file", cpath)
		if code != 0 {
			t.Fatalf("%s with the compact form: exit %d: %s", name, code, cstderr)
		}
		if viaCompact != viaTables {
			t.Errorf("%s: the compact form's CSV differs from the tables' (%d and %d bytes)", name, len(viaCompact), len(viaTables))
		}
		if name == "PAL_SamplePerfmonLog.blg" && viaTables != want {
			t.Errorf("%s: the tables do not give the English log's CSV", name)
		}
		if name != "PAL_SamplePerfmonLog.blg" && viaTables == plain {
			t.Errorf("%s: the tables translate nothing", name)
		}
		if a, b := notTranslated(cstderr), notTranslated(tstderr); a != b {
			t.Errorf("%s: names not translated: compact %q, tables %q", name, a, b)
		}
		// The log in place of its embedded table.
		code, fromLog, stderr := runCmd(t, "", "names", "--compact", lpath, "--compact", enPath)
		if name != "PAL_SamplePerfmonLog.blg" {
			if code == 0 || !strings.Contains(stderr, "not CounterLang.xml nor a name table: a log without an embedded name table") {
				t.Errorf("%s has no table: exit %d, %s", name, code, stderr)
			}
			continue
		}
		if code != 0 || fromLog != strings.ReplaceAll(compact, "\nn\t007\t", "\nn\tlocal\t") {
			t.Fatalf("names --compact of the log: exit %d, %s %.200q", code, stderr, fromLog)
		}
		lc := writeFile(t, "log.names", []byte(fromLog))
		if _, have, _ := runCmd(t, "", "relog", lpath, "--names-lang", "en", "--names-file", lc); have != want {
			t.Errorf("%s: the compact form of its embedded table does not give the English CSV", name)
		}
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"names", "--compact", enPath}, "only the English name table"},
		{[]string{"names", "--compact", dePath, "--compact", dePath}, "no English name table"},
		{[]string{"names", "--compact", enPath, "--compact", xml}, "not a name table"},
		{[]string{"names", "--compact", xml, "--compact", enPath}, "give CounterLang.xml alone"},
		{[]string{"names", "--compact", enPath, "--compact", dePath, "--lang", "deDE"}, "--lang chooses CounterLang.xml's locales"},
	} {
		code, _, stderr := runCmd(t, "", tc.args...)
		if code == 0 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, %q; want an error with %q", tc.args, code, stderr, tc.want)
		}
	}
}
