package fuzz

import (
	"reflect"
	"testing"

	"github.com/perfcalc/perfcalc/engine/translate"
)

// FuzzCompactNames: the compact form's decoder (translate.ParseCompact)
// never panics; what it reads, written again with AppendCompact, reads
// back as the same entries; a table built from it translates any path
// without panic, keeping every byte outside the object and the counter.
func FuzzCompactNames(f *testing.F) {
	h := translate.CompactHeader + "\n"
	for _, s := range []string{
		"",
		h,
		h + "o\tdeDE\tProcessor\tProzessor\nc\tdeDE\tProcessor\t% Processor Time\tProzessorzeit (%)\n",
		h + "n\t007\tMemory\tSpeicher\r\n# comment\n\n",
		h + "c\tfrFR\tProcess\tVirtual Bytes\tTaille virtuelle (octets)\nc\tfrFR\tProcess\tVirtual Bytes Peak\tTaille virtuelle (octets)\n",
		h + "o\tx\ta\tb\tc\n",
		h + "c\tx\t\ta\tb\n",
		"perfcalc-names 1\r\no\tx\t\xff\tb",
	} {
		f.Add([]byte(s), `\\PC\Prozessor(_Total)\Prozessorzeit (%)`)
	}
	f.Fuzz(func(t *testing.T, data []byte, path string) {
		var es []translate.Entry
		err := translate.ParseCompact(data, func(e translate.Entry) error {
			es = append(es, e)
			return nil
		})
		if err != nil {
			if err.Error() == "" {
				t.Fatal("an error without text")
			}
			return
		}
		again := []byte(h)
		for _, e := range es {
			again = translate.AppendCompact(again, e)
		}
		i := 0
		if err := translate.ParseCompact(again, func(e translate.Entry) error {
			if i >= len(es) || !reflect.DeepEqual(e, es[i]) {
				t.Fatalf("entry %d reads back as %+v", i, e)
			}
			i++
			return nil
		}); err != nil || i != len(es) {
			t.Fatalf("written again: %v, %d of %d entries", err, i, len(es))
		}
		var b translate.Builder
		b.AddCompact(b.Source("fuzz"), data)
		tab := b.Table()
		out, obj, ctr, err := tab.Path(path)
		if err != nil {
			if out != path {
				t.Fatal("a path refused but changed")
			}
			return
		}
		if (obj.Status != translate.Translated && ctr.Status != translate.Translated) && out != path {
			t.Fatalf("%q became %q with nothing translated", path, out)
		}
	})
}
