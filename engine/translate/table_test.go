package translate

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/nametable"
	"github.com/perfcalc/perfcalc/tools/encode"
)

func small(t *testing.T) *Table {
	t.Helper()
	var b Builder
	src := b.Source("test")
	data := CompactHeader + "\n" +
		"# German\n" +
		"o\tdeDE\tProcessor\tProzessor\n" +
		"c\tdeDE\tProcessor\t% Processor Time\tProzessorzeit (%)\n" +
		"o\tdeDE\tProcess\tProzess\n" +
		"c\tdeDE\tProcess\t% Processor Time\tProzessorzeit (%)\n" +
		"c\tdeDE\tProcess\tID Process\tProzesskennung\n" +
		"c\tdeDE\tMemory\tAvailable Bytes\tVerfügbare Bytes\r\n" +
		"o\tfrFR\tProcessor\tProcesseur\n" +
		"c\tfrFR\tProcessor\t% Processor Time\t% temps processeur\n" +
		// One source, one localized name, two English names.
		"c\tdeDE\tProcess\tPage Faults/sec\tSeitenfehler/s\n" +
		"c\tdeDE\tProcess\tPage Reads/sec\tSeitenfehler/s\n" +
		"\n"
	if err := b.AddCompact(src, []byte(data)); err != nil {
		t.Fatal(err)
	}
	return b.Table()
}

func TestPath(t *testing.T) {
	tab := small(t)
	for _, tc := range []struct {
		in, want    string
		obj, ctr    Status
		unchangedOK bool
	}{
		{`\Prozessor(_Total)\Prozessorzeit (%)`, `\Processor(_Total)\% Processor Time`, Translated, Translated, false},
		{`\\PC-1\prozessor(0)\PROZESSORZEIT (%)`, `\\PC-1\Processor(0)\% Processor Time`, Translated, Translated, false},
		{`\Processeur(*)\% temps processeur`, `\Processor(*)\% Processor Time`, Translated, Translated, false},
		{`\Prozess(svchost#2)\Prozesskennung`, `\Process(svchost#2)\ID Process`, Translated, Translated, false},
		// Instances and machines are never translated, even where they
		// read as a name.
		{`\\Prozessor\Prozess(Prozessor)\Prozesskennung`, `\\Prozessor\Process(Prozessor)\ID Process`, Translated, Translated, false},
		// Already English.
		{`\Processor(_Total)\% Processor Time`, `\Processor(_Total)\% Processor Time`, English, English, true},
		// Unknown object: the counter falls back to every object's.
		{`\Speicher\Verfügbare Bytes`, `\Speicher\Available Bytes`, Unknown, Translated, false},
		{`\Speicher\Zugesicherte Bytes`, `\Speicher\Zugesicherte Bytes`, Unknown, Unknown, true},
		// Ambiguous: kept.
		{`\Prozess(a)\Seitenfehler/s`, `\Process(a)\Seitenfehler/s`, Translated, Ambiguous, false},
	} {
		have, obj, ctr, err := tab.Path(tc.in)
		if err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		if have != tc.want || obj.Status != tc.obj || ctr.Status != tc.ctr {
			t.Errorf("%s: have %s (%v, %v), want %s (%v, %v)", tc.in, have, obj.Status, ctr.Status, tc.want, tc.obj, tc.ctr)
		}
		if tc.obj == Translated && tab.Source(obj.Source) != "test" {
			t.Errorf("%s: source %d %q", tc.in, obj.Source, tab.Source(obj.Source))
		}
	}
	if _, _, _, err := tab.Path(`Prozessor\x`); err == nil {
		t.Error("a path without its leading backslash: no error")
	}
	amb := tab.Ambiguities()
	if len(amb) != 1 || amb[0].Local != "Seitenfehler/s" || amb[0].English != "Page Faults/sec" || amb[0].Other != "Page Reads/sec" || amb[0].Object != "Process" {
		t.Errorf("have the ambiguities %+v", amb)
	}
}

// TestPrecedence: the source added first wins, and an ambiguity is one
// source's only.
func TestPrecedence(t *testing.T) {
	var b Builder
	first, second := b.Source("first"), b.Source("second")
	b.Add(second, Entry{Kind: Object, English: "Memory", Local: "Speicher"})
	b.Add(first, Entry{Kind: Object, English: "Storage", Local: "Speicher"})
	b.Add(second, Entry{Kind: Object, English: "Memory", Local: "Speicher"})
	tab := b.Table()
	if n := tab.Object("speicher"); n.Text != "Storage" || n.Source != first || n.Status != Translated {
		t.Errorf("have %+v, want Storage from the first source", n)
	}
	if len(tab.Ambiguities()) != 0 {
		t.Errorf("have the ambiguities %+v, want none", tab.Ambiguities())
	}
}

func TestAddTables(t *testing.T) {
	en := table(t, 1, "1847", 2, "System", 4, "Memory", 6, "% Processor Time", 238, "Processor", 1380, "Available Bytes")
	de := table(t, 1, "1847", 2, "System", 4, "Speicher", 6, "Prozessorzeit (%)", 238, "Prozessor", 1380, "Verfügbare Bytes", 9999, "Nur deutsch")
	if !IsEnglish(en) || IsEnglish(de) {
		t.Fatalf("IsEnglish: have %v for 009 and %v for 007", IsEnglish(en), IsEnglish(de))
	}
	var b Builder
	if n := b.AddTables(b.Source("tables"), en, de, "007"); n != 5 {
		t.Errorf("have %d pairs, want 5 (index 1 and 9999 skipped)", n)
	}
	if n := b.AddEnglish(b.Source("009"), en); n != 5 {
		t.Errorf("AddEnglish: have %d names, want 5", n)
	}
	tab := b.Table()
	if s := tab.Object("memory").Status; s != English {
		t.Errorf("an English table's name: %v", s)
	}
	for in, want := range map[string]string{
		`\\M\Prozessor(1)\Prozessorzeit (%)`: `\\M\Processor(1)\% Processor Time`,
		`\Speicher\Verfügbare Bytes`:         `\Memory\Available Bytes`,
		`\System\Nur deutsch`:                `\System\Nur deutsch`,
	} {
		if have, _, _, _ := tab.Path(in); have != want {
			t.Errorf("%s: have %s, want %s", in, have, want)
		}
	}
}

func TestParseCompactErrors(t *testing.T) {
	h := CompactHeader + "\n"
	for _, tc := range []struct{ in, want string }{
		{"", "line 1 at 0x0: empty"},
		{"perfcalc-names 2\n", "line 1 at 0x0: is not the header"},
		{h + "x\tdeDE\ta\tb\n", "line 2 at 0x11: kind is not o, c or n"},
		{h + "o\tdeDE\ta\n", "has 3 fields; a object line has 4"},
		{h + "c\tdeDE\ta\tb\n", "has 4 fields; a counter line has 5"},
		{h + "o\tdeDE\ta\tb\tc\td\te\n", "has more than 5 fields"},
		{h + "o\t\ta\tb\n", "lang is empty"},
		{h + "c\tdeDE\tP\ta\t\xff\n", "local is not valid UTF-8"},
		{h + "o\tdeDE\ta\tb\x01\n", "local holds a control character"},
		{h + "o\tdeDE\t" + strings.Repeat("a", 2049) + "\tb\n", "English is longer than 2048 bytes"},
	} {
		var b Builder
		err := b.AddCompact(b.Source("x"), []byte(tc.in))
		var fe *engine.FormatError
		if !errors.As(err, &fe) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: have %v, want an *engine.FormatError with %q", tc.in, err, tc.want)
		}
	}
}

func TestAppendCompactRoundTrip(t *testing.T) {
	es := []Entry{
		{Kind: Object, Lang: "deDE", English: "Processor", Local: "Prozessor"},
		{Kind: Counter, Lang: "frFR", Object: "Processor", English: "% Processor Time", Local: "% temps processeur"},
		{Kind: Any, Lang: "007", English: "Memory", Local: "Speicher"},
	}
	b := []byte(CompactHeader + "\n")
	for _, e := range es {
		b = AppendCompact(b, e)
	}
	var back []Entry
	if err := ParseCompact(b, func(e Entry) error { back = append(back, e); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(back) != len(es) {
		t.Fatalf("have %d entries, want %d", len(back), len(es))
	}
	for i := range es {
		if !reflect.DeepEqual(back[i], es[i]) {
			t.Errorf("have %+v, want %+v", back[i], es[i])
		}
	}
}

// table returns the name table of the pairs index, text, index, text, ….
func table(t *testing.T, pairs ...any) *nametable.Table {
	t.Helper()
	var nt encode.NameTable
	for i := 0; i+1 < len(pairs); i += 2 {
		nt.Pairs = append(nt.Pairs, encode.NameTablePair{Index: uint32(pairs[i].(int)), Text: pairs[i+1].(string)})
	}
	b, err := encode.EncodeNameTable(&nt)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := nametable.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	return tab
}
