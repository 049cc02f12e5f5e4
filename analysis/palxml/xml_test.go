package palxml

import (
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode/utf16"
)

// TestParseConstructs: each construct the reader accepts.
func TestParseConstructs(t *testing.T) {
	doc := "\uFEFF<?xml version=\"1.0\" encoding=\"utf-8\"?>\r\n" +
		"<!-- a comment -->\n<?pi data?>\n" +
		"<A x='1' y = \"a&lt;b&gt;c&amp;d&apos;e&quot;f&#65;&#x42;\" z=\"l1\r\nl2\tend\">" +
		"text &amp; more<![CDATA[<raw & stuff>]]><!-- skipped --><?skip?>" +
		"<B/><C k=\"v\">inner</C>tail</A>\n<!-- after -->\n"
	root, err := Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if root.Name != "A" || len(root.Children) != 2 || root.Children[0].Name != "B" || root.Children[1].Name != "C" {
		t.Fatalf("have %+v", root)
	}
	if root.Text != "text & more<raw & stuff>tail" {
		t.Errorf("Text = %q", root.Text)
	}
	for name, want := range map[string]string{"x": "1", "y": `a<b>c&d'e"fAB`, "z": "l1 l2 end"} {
		if v, ok := root.Attr(name); !ok || v != want {
			t.Errorf("attribute %s = %q, want %q", name, v, want)
		}
	}
	if v, ok := root.AttrFold("X"); !ok || v != "1" {
		t.Errorf("AttrFold(X) = %q %v", v, ok)
	}
	if c := root.Children[1]; c.Text != "inner" || c.Line != 5 {
		t.Errorf("C: have %+v, want text inner on line 5 (z's value spans two)", c)
	}
}

// TestParseEncodings: UTF-8 with and without BOM, UTF-16 LE and BE with
// one; PAL's files are all UTF-8 with a BOM (CounterLang.xml without).
func TestParseEncodings(t *testing.T) {
	const doc = `<PAL NAME="Ünïcode ✓"><X>é</X></PAL>`
	u16 := utf16.Encode([]rune(doc))
	le, be := []byte{0xFF, 0xFE}, []byte{0xFE, 0xFF}
	for _, u := range u16 {
		le = append(le, byte(u), byte(u>>8))
		be = append(be, byte(u>>8), byte(u))
	}
	for name, b := range map[string][]byte{
		"utf-8": []byte(doc), "utf-8 bom": append([]byte{0xEF, 0xBB, 0xBF}, doc...),
		"utf-16le": le, "utf-16be": be,
	} {
		root, err := Parse(b)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if v, _ := root.Attr("NAME"); v != "Ünïcode ✓" || root.Children[0].Text != "é" {
			t.Errorf("%s: have %q %q", name, v, root.Children[0].Text)
		}
	}
}

// TestParseErrors: each malformed input is a *SyntaxError with the byte
// offset and line of the problem and what was expected.
func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		doc, want    string
		offset, line int
	}{
		{"", "expected the root element", 0, 1},
		{"<A>", "expected </A>, found the end", 3, 1},
		{"<A>\n</B>", "expected </A>, found </B>", 4, 2},
		{"<A x=1/>", "expected a quoted value for attribute x", 5, 1},
		{"<A x='1' x='2'/>", "attribute x given twice", 9, 1},
		{"<A x='1'y='2'/>", "expected white space before an attribute", 8, 1},
		{"<A x='<'/>", "'<' in the value of attribute x", 6, 1},
		{"<A>&bogus;</A>", "unknown entity &bogus;", 3, 1},
		{"<A>&#0;</A>", "invalid character reference &#0;", 3, 1},
		{"<A>&#xD800;</A>", "invalid character reference", 3, 1},
		{"<A>&amp</A>", "expected an entity reference ending in ';'", 3, 1},
		{"<A><![CDATA[x</A>", "expected ']]>'", 3, 1},
		{"<A><!-- x</A>", "expected '-->'", 3, 1},
		{"<A>]]></A>", "']]>' outside a CDATA section", 3, 1},
		{"<A/><B/>", "found another element", 4, 1},
		{"<A/>junk", "found text outside the root element", 4, 1},
		{"<?xml version='1.0'?>\n<!DOCTYPE A [<!ENTITY a 'b'>]><A>&a;</A>", "DOCTYPE", 22, 2},
		{"<?xml version='1.0' encoding='windows-1252'?><A/>", "encoding \"windows-1252\" is not supported", 0, 1},
		{"<A>\xff</A>", "invalid UTF-8", 3, 1},
		{"<\x01A/>", "expected an element name", 1, 1},
		{"<A><!X></A>", "after '<!'", 3, 1},
	} {
		_, err := Parse([]byte(tc.doc))
		var se *SyntaxError
		if !errors.As(err, &se) || !strings.Contains(se.Msg, tc.want) || se.Offset != tc.offset || se.Line != tc.line {
			t.Errorf("Parse(%q): have %v, want a *SyntaxError at byte %d, line %d saying %q", tc.doc, err, tc.offset, tc.line, tc.want)
		}
	}
	if _, err := Parse([]byte("<!DOCTYPE a><a/>")); !errors.Is(err, ErrDoctype) {
		t.Errorf("DOCTYPE: have %v, want ErrDoctype", err)
	}
	if _, err := Parse([]byte{'<', 0, 'A', 0}); err == nil || !strings.Contains(err.Error(), "UTF-16 document without a byte-order mark") {
		t.Errorf("UTF-16 without BOM: have %v", err)
	}
	if _, err := Parse([]byte{0xFF, 0xFE, '<', 0, 0x00, 0xD8, '>', 0}); err == nil || !strings.Contains(err.Error(), "surrogate") {
		t.Errorf("unpaired surrogate: have %v", err)
	}
}

// TestParseBounds: depth, attributes, elements and size are bounded, and
// hostile inputs are refused quickly.
func TestParseBounds(t *testing.T) {
	many := func(n int, s string) string { return strings.Repeat(s, n) }
	var attrs strings.Builder
	attrs.WriteString("<A")
	for i := 0; i <= MaxAttrs; i++ {
		attrs.WriteString(" a" + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + string(rune('a'+i/26%26)) + string(rune('a'+i/676)) + "='1'")
	}
	attrs.WriteString("/>")
	for _, tc := range []struct{ name, doc, want string }{
		{"depth", many(MaxDepth+1, "<A>"), "nested deeper than"},
		{"depth 10^5", many(100000, "<A>"), "nested deeper than"},
		{"attributes", attrs.String(), "attributes"},
		{"elements", "<A>" + many(MaxElements+1, "<B/>") + "</A>", "elements"},
		{"size", "<A>" + many(MaxInput, " ") + "</A>", "larger than"},
		{"billion laughs", `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;">]><lolz>&lol2;</lolz>`, "DOCTYPE"},
		{"external entity", `<!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a>&x;</a>`, "DOCTYPE"},
	} {
		start := time.Now()
		_, err := Parse([]byte(tc.doc))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: have %v, want an error saying %q", tc.name, err, tc.want)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%s: took %v", tc.name, d)
		}
	}
	// A huge attribute within the size bound is read.
	root, err := Parse([]byte("<A v='" + many(1<<20, "x") + "'/>"))
	if err != nil || len(root.Attrs[0].Value) != 1<<20 {
		t.Errorf("1 MiB attribute: %v", err)
	}
}

// TestParseMemory: the most elements a document may have take bounded
// memory (about 150 bytes each; the figure is measured, with room).
func TestParseMemory(t *testing.T) {
	doc := []byte("<A>" + strings.Repeat("<B/>", MaxElements-1) + "</A>")
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	root, err := Parse(doc)
	if err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n > 100<<20 {
		t.Errorf("%d elements: %d bytes allocated, want under 100 MiB", len(root.Children)+1, n)
	} else {
		t.Logf("%d elements: %d bytes allocated", len(root.Children)+1, n)
	}
}

// TestParseErrorOffsetEncodings: an error's offset is the byte offset in
// the document as given: after a UTF-8 byte-order mark, and in UTF-16 two
// bytes per code unit (four for 😀) after the mark. The document breaks
// at its last "<", where white space before an attribute was expected.
func TestParseErrorOffsetEncodings(t *testing.T) {
	const doc = `<A b="é😀"<`
	u16 := utf16.Encode([]rune(doc))
	le, be := []byte{0xFF, 0xFE}, []byte{0xFE, 0xFF}
	for _, u := range u16 {
		le = append(le, byte(u), byte(u>>8))
		be = append(be, byte(u>>8), byte(u))
	}
	utf8Off := strings.LastIndexByte(doc, '<')
	for _, tc := range []struct {
		name string
		b    []byte
		want int
	}{
		{"utf-8", []byte(doc), utf8Off},
		{"utf-8 bom", append([]byte{0xEF, 0xBB, 0xBF}, doc...), utf8Off + 3},
		{"utf-16le", le, len(le) - 2}, // the last code unit
		{"utf-16be", be, len(be) - 2},
	} {
		_, err := Parse(tc.b)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Fatalf("%s: %v, want a *SyntaxError", tc.name, err)
		}
		if se.Offset != tc.want || se.Offset > len(tc.b) {
			t.Errorf("%s: offset %d (%v), want %d of %d bytes", tc.name, se.Offset, err, tc.want, len(tc.b))
		}
	}
}
