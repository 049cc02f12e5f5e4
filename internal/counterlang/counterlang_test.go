package counterlang

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine/translate"
)

// counterLangPath is PAL's table in the shared folder (never copied into
// the repository).
var counterLangPath = filepath.Join("..", "..", "..", "shared", "pal", "CounterLang.xml")

func readShared(t *testing.T) []translate.Entry {
	t.Helper()
	f, err := os.Open(counterLangPath)
	if err != nil {
		t.Skipf("PAL's CounterLang.xml is not at %s (the shared folder): %v", counterLangPath, err)
	}
	defer f.Close()
	es, err := Read(f)
	if err != nil {
		t.Fatal(err)
	}
	return es
}

func TestReadSmall(t *testing.T) {
	const doc = `<CounterLang>
  <CounterObject deDE="Prozessor" enUS="Processor" frFR="Processeur" jaJP="Processor">
    <CounterName deDE="Interrupts/s" enUS="Interrupts/sec" frFR="Interrupts/sec" jaJP="Interrupts/sec" />
    <CounterName deDE="Prozessorzeit (%)" enUS="% Processor Time" frFR="% temps processeur" />
  </CounterObject>
</CounterLang>`
	es, err := Read(strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	want := []translate.Entry{
		{Kind: translate.Object, Lang: "deDE", English: "Processor", Local: "Prozessor"},
		{Kind: translate.Object, Lang: "frFR", English: "Processor", Local: "Processeur"},
		// frFR's name equal to the English one is kept (frFR translates
		// other names); jaJP translates nothing and is left out.
		{Kind: translate.Counter, Lang: "deDE", Object: "Processor", English: "Interrupts/sec", Local: "Interrupts/s"},
		{Kind: translate.Counter, Lang: "frFR", Object: "Processor", English: "Interrupts/sec", Local: "Interrupts/sec"},
		{Kind: translate.Counter, Lang: "deDE", Object: "Processor", English: "% Processor Time", Local: "Prozessorzeit (%)"},
		{Kind: translate.Counter, Lang: "frFR", Object: "Processor", English: "% Processor Time", Local: "% temps processeur"},
	}
	if len(es) != len(want) {
		t.Fatalf("have %d entries %v, want %d", len(es), es, len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(es[i], want[i]) {
			t.Errorf("entry %d: have %+v, want %+v", i, es[i], want[i])
		}
	}
	// The compact form reads back as the same entries.
	b, skipped := Compact(es)
	if skipped != 0 {
		t.Fatalf("skipped %d", skipped)
	}
	var back []translate.Entry
	if err := translate.ParseCompact(b, func(e translate.Entry) error { back = append(back, e); return nil }); err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if !reflect.DeepEqual(back[i], want[i]) {
			t.Errorf("compact entry %d: have %+v, want %+v", i, back[i], want[i])
		}
	}
}

func TestReadErrors(t *testing.T) {
	for _, tc := range []struct{ doc, want string }{
		{`<CounterLang><CounterObject deDE="x"/></CounterLang>`, "CounterObject without enUS"},
		{`<CounterLang><Other/></CounterLang>`, "unexpected element <Other>"},
		{`<CounterLang><CounterObject enUS="x"><CounterName deDE="y"/></CounterObject></CounterLang>`, "CounterName without enUS"},
		{`<CounterLang>`, "CounterLang: XML syntax error"},
		{`<CounterLang></CounterLang>`, "no translations"},
	} {
		_, err := Read(strings.NewReader(tc.doc))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: have %v, want %q", tc.doc, err, tc.want)
		}
	}
}

// TestShared reads PAL's real table: 146 objects and 2,259 counters in 17
// locales (doc/ANALYSIS.md §6's figures), and its compact form loses
// nothing.
func TestShared(t *testing.T) {
	es := readShared(t)
	objects, counters := map[string]bool{}, map[string]bool{}
	langs := map[string]bool{}
	for _, e := range es {
		langs[e.Lang] = true
		switch e.Kind {
		case translate.Object:
			objects[e.English] = true
		case translate.Counter:
			counters[e.Object+"\\"+e.English] = true
		}
	}
	// jaJP, koKR, ruRU and zhCN hold the English names.
	if len(langs) != 12 || langs["jaJP"] || !langs["deDE"] || !langs["frFR"] || !langs["esES"] {
		t.Errorf("have the locales %v, want the 12 of the 16 besides enUS that differ from it", langs)
	}
	t.Logf("%d entries, %d objects, %d distinct counters translated", len(es), len(objects), len(counters))
	b, skipped := Compact(es)
	if skipped != 0 {
		t.Errorf("the compact form left out %d entries", skipped)
	}
	n := 0
	if err := translate.ParseCompact(b, func(translate.Entry) error { n++; return nil }); err != nil {
		t.Fatal(err)
	}
	if n != len(es) {
		t.Errorf("the compact form holds %d entries, want %d", n, len(es))
	}
	t.Logf("compact form: %d bytes (CounterLang.xml: 1,619,085)", len(b))
}
